"""The quick check of JSON Lines in bulk (``_kernel.check_lines``, csrc/bulk.h) is the quick
check of each line (:func:`tarotnotation.quick.quick_check_line`), narrower, never different.

``tarot validate`` hands a chunk of JSON Lines to the compiled core, which judges each line
in C with no Python object built for a clean deal but its answer; a line it does not
settle takes today's path (the quick check in Python, then the reader and the replay).
So wherever it says *clean*, ``quick_check_line`` must say clean with the same scores,
taker's half-points and deal number; and it must settle the plain clean deals (else the
comparison below would compare today's path with itself). Held here on generated deals of
3, 4 and 5 players under every ruleset switch that changes the rules it applies, clean and
with faults injected, on edits of canonical lines, on random bytes, and on whole archives:
``check_paths`` and ``tarot validate`` give the same deals, diagnostics, positions and
order, byte for byte, with the bulk path and without it (skipped where the compiled core is
not in use). Then the chunks of a parallel run, whose lines the workers read where the
parent counted them: the counts, the chunks and the output of ``-j 2``, on both paths.
"""

from __future__ import annotations

import functools
import io
import random
from pathlib import Path
from typing import Any

import budget
import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, invoke
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import SPECS, generated_cases, mutate, mutate_call, swap_own_cards
from test_quick_native import EDITS

from tarotnotation import archive, cutting, kernel, native, quick
from tarotnotation.cards import ALL_MASK, EXCUSE_BIT, TRUMP_MASK, mask_of
from tarotnotation.formats import json as tjson
from tarotnotation.plausibility import deal_number
from tarotnotation.rules import Contract, PetitInChien, Ruleset
from tarotnotation.simulate import random_deal
from tarotnotation.status import Status
from tarotnotation.values import replace

TWIN = native.compiled(force=True)
#: The bulk check's tests (the deferred chunks of a parallel run are held on both paths).
needs_twin = pytest.mark.skipif(TWIN is None or native.pure_forced(),
                                reason="the compiled core is not in use here")


@needs_twin
def test_the_checks_before_the_first_card_are_the_kernels() -> None:
    """The kernel.h twins that the bulk check calls, against kernel.py's functions of the
    same names, on random arguments (the play's are held in tests/twins/test_kernel_twin.py)."""
    assert TWIN is not None
    rng = random.Random(9)
    special = [1 << 56, (1 << 56) | EXCUSE_BIT, (1 << 56) | (1 << 3), TRUMP_MASK, EXCUSE_BIT]
    for i in range(budget.cases(20000)):  # (4,000 in the quick lane)
        hand = special[i] if i < len(special) else mask_of(
            rng.sample(range(78), rng.randint(0, 24)))
        other = mask_of(rng.sample(range(56, 78), rng.randint(0, 22)))
        shown = other | (hand & rng.choice([0, EXCUSE_BIT, ALL_MASK]))
        assert TWIN.petit_sec(hand) == kernel.petit_sec(hand)
        assert TWIN.ecart_forbidden(hand) == kernel.ecart_forbidden(hand)
        assert TWIN.poignee_wrong_cards(hand) == kernel.poignee_wrong_cards(hand)
        assert TWIN.poignee_hidden_trumps(hand, shown) == kernel.poignee_hidden_trumps(
            hand, shown)
        contract = rng.choice(list(Contract))
        for rules in (Ruleset.fft(), Ruleset.from_spec("fft petit_in_chien=annuls")):
            assert TWIN.petit_in_chien_annuls(
                rules.petit_in_chien is PetitInChien.ANNULS, int(contract), hand
            ) == kernel.petit_in_chien_annuls(rules, contract, hand)
        best = rng.choice([None, *Contract])
        assert TWIN.outbids(int(contract), 0 if best is None else int(best)) == kernel.outbids(
            contract, best)
        first, announcer = rng.randrange(4), rng.choice([None, 0, 1, 2, 3])
        assert TWIN.first_leader(first, -1 if announcer is None else announcer) == \
            kernel.first_leader(first, announcer)


def _bulk(lines: list[bytes], ruleset: str | None = None,
          default: str | None = None) -> list[Any]:
    check = quick.bulk_checker(ruleset, default)
    assert check is not None
    return check(tuple(lines), 0)


def _agree(lines: list[bytes], ruleset: str | None = None,
           default: str | None = None) -> tuple[int, int]:
    """Each line: the bulk answer is quick_check_line's, or None; (settled in bulk,
    settled by quick_check_line)."""
    settled = quick_settled = 0
    for raw, answer in zip(lines, _bulk(lines, ruleset, default), strict=True):
        line = raw.strip()
        if line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        reference = quick.quick_check_line(line, ruleset, default) if line else None
        quick_settled += reference is not None
        if answer is None:
            continue
        settled += 1
        assert reference is not None, raw
        (status, scores, half), tags = reference
        assert status is Status.SCORED
        assert (answer[0], answer[1]) == (half, scores), raw
        assert list(answer[1]) == list(scores), raw  # the seats in the same order
        want = deal_number(tags or ())
        assert (None if answer[2] is None else deal_number(answer[2])) == want, raw
    return settled, quick_settled


def _plain(line: bytes) -> bool:
    """A line the bulk path must settle when quick_check_line does: one the C scanner
    takes (the canonical layout; not a result's facts beside its scores, say: those are
    left to today's path)."""
    return TWIN is not None and TWIN.scan_json(line.strip()) is not None


@functools.cache
def _generated_and_faulty_lines() -> tuple[bytes, ...]:
    """The lines of the test below, made once for all its rulesets."""
    rng = random.Random(31)
    own = [tjson.to_dict(random_deal(rng, 3 + i % 3, chelem_chance=0.3, poignee_chance=0.3))
           for i in range(120)]  # (no ruleset of their own, unlike most of generated_cases)
    cases = generated_cases(80, 31) + own + [mutate(rng, obj) for obj in own]
    return tuple(orjson.dumps(obj) + b"\n" for obj in cases)


@needs_twin
@pytest.mark.parametrize(("ruleset", "default"), [
    (None, None), ("pagat", None), (None, "fft excuse_last_trick=to_trick_winner"),
    *((spec, None) for spec in SPECS[2:]), ("fft five_player_first_lead=free", None)])
def test_bulk_agrees_with_the_quick_check_on_generated_and_faulty_deals(
        ruleset: str | None, default: str | None) -> None:
    lines = list(_generated_and_faulty_lines())
    settled, quick_settled = _agree(lines, ruleset, default)
    plain = [line for line in lines if _plain(line)]
    plain_settled, plain_quick = _agree(plain, ruleset, default)
    assert plain_settled == plain_quick > 60  # every plain clean deal, in C
    assert settled <= quick_settled


@needs_twin
@settings(max_examples=budget.cases(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]),
       spec=st.sampled_from([*SPECS, "fft five_player_first_lead=free"]),
       fault=st.sampled_from(["none", "swap", "other", "call"]),
       tags=st.sampled_from([None, [["Event", "Club"], ["Deal", "07"]],
                             [["deal", " 3 "], ["Table", "été"]], [["DEAL", ""]]]))
def test_bulk_agrees_with_the_quick_check_on_any_deal(seed: int, players: int,
                                                      spec: str | None, fault: str,
                                                      tags: list[list[str]] | None) -> None:
    rng = random.Random(seed)
    rec = random_deal(rng, players, ruleset=Ruleset.from_spec(spec or "fft"),
                      chelem_chance=0.3, poignee_chance=0.3)
    obj = tjson.to_dict(rec)
    if tags is not None:
        obj["tags"] = tags
    if fault == "swap" and len(rec.play) > 1:
        swap_own_cards(rng, rec, obj)
    elif fault == "other":
        obj = mutate(rng, obj)
    elif fault == "call" and players == 5:
        mutate_call(rng, obj)
    if rng.random() < 0.3 and isinstance(obj, dict):
        obj["ruleset"] = rng.choice(["pagat", "fft petit_in_chien=annuls", "nonsense", "",
                                     "fft chelem_excuse_wins=false", "f\u00e9t",
                                     "fft five_player_first_lead=free"])
    for ruleset, default in ((rng.choice([None, spec]), None), (None, spec)):
        line = orjson.dumps(obj)
        settled, quick_settled = _agree([line], ruleset, default)
        if _plain(line):
            assert settled == quick_settled


@needs_twin
def test_bulk_gives_up_or_agrees_on_every_edit() -> None:
    rng = random.Random(5)
    lines = []
    for k in range(60):  # (then thirty of five players)
        rec = random_deal(rng, rng.choice([3, 4]) if k < 30 else 5, poignee_chance=0.4,
                          chelem_chance=0.2)
        obj = tjson.to_dict(rec)
        obj["tags"] = [["Event", "Club"], ["Deal", str(rng.randrange(1, 9))]]
        if rng.random() < 0.5:
            obj["play"][0]["cards"][1]["glyph"] = rng.choice(["!", "?!", "!!!"])
            obj["play"][0]["cards"][1]["comments"] = rng.choice([["bien"], [], ["é", "x"]])
        lines.append(orjson.dumps(obj))
    variants = [line.replace(old, new, 1) for line in lines for old, new in EDITS if old in line]
    assert len(variants) > 60 * len(EDITS) // 2
    _agree(variants)
    settled, quick_settled = _agree([line for line in variants if _plain(line)])
    assert settled == quick_settled > 100


@needs_twin
def test_scan_json_is_the_bulk_checks_scanner() -> None:
    """One scanner of JSON Lines (csrc/jsonscan.h's js_scan), two visitors: scan_json
    hands its parts to Python, check_lines judges them in C. So a line scan_json does not
    take is never settled in bulk, and the parts it hands over, judged by the C judge
    (judge_parts), give check_lines' answer."""
    assert TWIN is not None
    rng = random.Random(12)
    lines = []
    for k in range(90):
        obj = tjson.to_dict(random_deal(rng, 3 + k % 3, poignee_chance=0.4,
                                        chelem_chance=0.2))
        obj["tags"] = [["Event", "Club"], ["Deal", str(k)]]
        if k % 2:
            obj["play"][1]["cards"][0] = {"glyph": "?!", "comments": ["vu", "é"],
                                          **obj["play"][1]["cards"][0]}
            obj["comments"], obj["glyph"] = ["une donne"], "!"
        lines.append(orjson.dumps(obj))
    lines += [line.replace(old, new, 1) for line in lines for old, new in EDITS if old in line]
    judge = quick.parts_checker()
    assert judge is not None
    taken = settled = 0
    for line, answer in zip(lines, _bulk(lines), strict=True):
        parts = TWIN.scan_json(line)
        if parts is None:
            assert answer is None, line
            continue
        taken += 1
        judged = judge(parts)
        assert judged == (None if answer is None else (answer[0], answer[1])), line
        settled += judged is not None
    assert taken > settled > 100


@needs_twin
@pytest.mark.parametrize(("old", "new"), [
    (b'{"card":"', b'{"glyph":"!!!","card":"'),  # a card's glyph not of the notation
    (b'"tags":[', b'"glyph":"x","tags":['),  # the deal's
    (b'"tags":[[', b'"tags":[["Players","4"],['),  # a field's tag
    (b'{"contract":"pass"}', b'{"contract":"passe"}'),  # a bid's word not the writer's
])
def test_scan_json_gives_up_where_the_bulk_check_does(old: bytes, new: bytes) -> None:
    """(Before the two shared one scanner, scan_json took these lines, which the bulk
    check's own scanner left to orjson.)"""
    assert TWIN is not None
    obj = tjson.to_dict(random_deal(random.Random(8), 4))
    obj["tags"] = [["Event", "Club"]]
    line = orjson.dumps(obj)
    assert TWIN.scan_json(line) is not None
    edited = line.replace(old, new, 1)
    assert edited != line
    assert TWIN.scan_json(edited) is None
    assert _bulk([edited]) == [None]


@needs_twin
def test_blank_lines_byte_order_marks_and_long_lines_are_left_to_the_caller() -> None:
    line = orjson.dumps(tjson.to_dict(random_deal(random.Random(4), 4)))
    assert _bulk([line])[0] is not None
    assert _bulk([b"  " + line + b" \r\n"])[0] is not None  # (blanks around: as the reader)
    assert _bulk([b"", b"\n", b" \t\r\n", b"\xef\xbb\xbf" + line, line + b"x"]) == [None] * 5
    check = TWIN.check_lines  # type: ignore[union-attr]
    assert check((line,), 0, 4, len(line), {}) != [None]
    assert check((line,), 0, 4, len(line) - 1, {}) == [None]  # longer than the limit
    assert check((b"", line), 1, 4, 1 << 20, {}) != [None]
    with pytest.raises(ValueError, match="start"):
        check((line,), 2, 4, 1 << 20, {})
    with pytest.raises(TypeError):
        check(("text",), 0, 4, 1 << 20, {})


@needs_twin
@settings(max_examples=budget.cases(300), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1), junk=st.binary(max_size=6),
       drop=st.integers(0, 3))
def test_bulk_gives_up_or_agrees_on_any_bytes(seed: int, cut: float, junk: bytes,
                                              drop: int) -> None:
    rec = random_deal(random.Random(seed), 3 + seed % 3, poignee_chance=0.3,
                      chelem_chance=0.1)
    line = orjson.dumps(tjson.to_dict(rec))
    at = int(cut * len(line))
    _agree([line[:at] + junk + line[at + drop:]])


# --- whole archives: check_paths and tarot validate, with the bulk path and without ------


@pytest.fixture(scope="module")
def archive_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated deals of 3, 4 and 5 players, faults injected, Deal tags (some repeated:
    R301), a broken line, blank lines, a byte-order mark at the start and mid-file, records
    of other layouts (the examples, as written and with the scores alone)."""
    rng = random.Random(17)
    cases = generated_cases(60, 41)
    for players in (3, 4, 5):
        cases += [tjson.to_dict(random_deal(rng, players, poignee_chance=0.2,
                                            chelem_chance=0.1)) for _ in range(30)]
    for obj in cases[::3]:
        obj["tags"] = [["Event", "Club"], ["Deal", str(rng.randrange(1, 40))]]
    rng.shuffle(cases)
    data = [orjson.dumps(obj) for obj in cases]
    data[7:7] = [b'{"players": 4, "hands": ', b"", b"[1, 2]", b"  ", b"\xef\xbb\xbf" + data[3]]
    path = tmp_path_factory.mktemp("bulk") / "mixed.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(data) + b"\n")
    return path


def _without_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quick, "bulk_checker", lambda ruleset=None, default_ruleset=None: None)


@needs_twin
@pytest.mark.parametrize(("ruleset", "default"), [(None, None), ("pagat", None),
                                                  (None, "fft petit_in_chien=annuls")])
def test_check_paths_gives_the_same_deals_with_and_without_the_bulk_path(
        monkeypatch: pytest.MonkeyPatch, archive_file: Path, ruleset: str | None,
        default: str | None) -> None:
    def run() -> list[archive.CheckedDeal]:
        return list(archive.check_paths([archive_file], keep=False, ruleset=ruleset,
                                        default_ruleset=default))

    bulk = run()
    with monkeypatch.context() as m:
        _without_bulk(m)
        plain = run()
    assert bulk == plain
    assert sum(not c.diagnostics for c in bulk) > 60
    assert any(c.diagnostics for c in bulk)
    assert any(d.code.value == "R301" for c in bulk for d in c.diagnostics)
    settled = _bulk(archive_file.read_bytes().splitlines(keepends=True), ruleset, default)
    assert sum(a is not None for a in settled) > 50  # (two ways compared, not one)


@pytest.mark.process
@needs_twin
@pytest.mark.parametrize("args", [[], ["--format", "json"], ["--format", "jsonl"],
                                  ["-q", "--statistics"], ["-j", "2"]])
def test_tarot_validate_prints_the_same_bytes_with_and_without_the_bulk_path(
        monkeypatch: pytest.MonkeyPatch, archive_file: Path, args: list[str]) -> None:
    paths = [str(archive_file), *map(str, sorted(FAULTY.glob("*.tarot"))[:3]),
             str(EXAMPLES / "prise.tarot")]
    bulk = invoke("validate", *args, *paths)
    with monkeypatch.context() as m:
        _without_bulk(m)  # (in this process: so one job, against the workers' bulk path)
        plain = invoke("validate", *(a for a in args if a not in ("-j", "2")), *paths)
    assert bulk == plain
    assert bulk.code == 1


# --- the parallel run's chunks: the workers read their lines, the parent counts them ----


BLANKS = [b"", b" ", b"\t\r", b"\xef\xbb\xbf", b" \xef\xbb\xbf \x0b", b"\xef\xbb\xbf{",
          b"\xef\xbb\xbf\xef\xbb\xbf", b"\x0c{}", b"\xef", b"{}", b'{"players":4}', b"\r"]


@settings(max_examples=budget.cases(400), deadline=None)
@given(pieces=st.lists(st.one_of(st.sampled_from(BLANKS), st.binary(max_size=12)),
                       max_size=30),
       end=st.sampled_from([b"", b"\n", b" ", b"\r\n"]))
def test_the_lines_and_deals_of_a_block_are_counted_as_the_reader_counts_them(
        pieces: list[bytes], end: bytes) -> None:
    block = b"\n".join(pieces) + end
    lines = io.BytesIO(block).readlines()
    exact = (len(lines), sum(1 for raw in lines if raw.strip() not in (b"", b"\xef\xbb\xbf")))
    if TWIN is not None and not native.pure_forced():
        assert TWIN.count_lines(block) == exact
    assert archive.count_lines(block) == exact  # (the parent's count)


def _by_line(chunks: list[Any]) -> list[tuple[int, int, int, bytes]]:
    """Each line of some chunks: (its line number, the deals before it, its offset, its
    bytes), from the chunks' own numbers."""
    out = []
    for c in chunks:
        at, deals = c.offset, c.index
        for k, raw in enumerate(c.lines):
            out.append((c.lineno + k, deals, at, raw))
            at += len(raw)
            deals += bool(archive.line_content(raw))
    return out


def _ranged(path: str, size: int) -> tuple[list[Any], list[Any], tuple[int, int]]:
    """The chunks the workers of a parallel check find in ranges of ``size`` bytes, their
    numbers moved on by the lines and deals of the ranges before (as the parent does),
    each range's first chunk, and the lines and deals counted in all."""
    chunks, firsts = [], []
    lines = deals = 0
    for task in archive.json_lines_ranges(path, size):
        counted = [0, 0]
        found = [replace(c, index=c.index + deals, lineno=c.lineno + lines)
                 for c in archive.range_chunks(task, counted)]
        chunks += found
        firsts += found[:1]
        lines, deals = lines + counted[0], deals + counted[1]
    return chunks, firsts, (lines, deals)


def _lines_and_deals(chunks: list[Any]) -> tuple[int, int]:
    lines = [raw for c in chunks for raw in c.lines]
    return len(lines), sum(1 for raw in lines if archive.line_content(raw))


@pytest.mark.parametrize("size", [300, 2600, 1 << 20])
def test_the_workers_find_the_lines_the_whole_file_is_cut_into(
        monkeypatch: pytest.MonkeyPatch, archive_file: Path, size: int) -> None:
    monkeypatch.setattr(cutting, "CHUNK_BYTES", size)
    path = str(archive_file)
    whole = list(archive.chunks_of(path))
    for blocks in (1, 3):  # (a range of one block, of several)
        chunks, firsts, counted = _ranged(path, blocks * size)
        assert _by_line(chunks) == _by_line(whole)
        assert whole[0] == chunks[0]  # (the file's start: read as the file's start)
        assert [c.first for c in chunks] == [True] + [False] * (len(chunks) - 1)
        assert counted == _lines_and_deals(whole)
        if size < 1 << 20:
            assert len(firsts) > 10


#: Lines of a JSON Lines file at the edges of the workers' ranges: blank ones, CRLF, a
#: byte-order mark, bytes that are not UTF-8, a line longer than the bound (set to 40
#: below), a broken record.
EDGE_LINES = [b"", b" ", b"\r", b"\t\r", b"\xef\xbb\xbf", b"\xef\xbb\xbf{}", b"\xff",
              b"{\xff}", b'{"players": 4}', b'{"players": 4, "b', b"x" * 45, b"y" * 90, b"{}"]


@settings(max_examples=budget.cases(300), deadline=None)
@given(pieces=st.lists(st.one_of(st.sampled_from(EDGE_LINES), st.binary(max_size=30)),
                       min_size=1, max_size=25),
       end=st.sampled_from([b"", b"\n", b"\r\n", b" "]),
       crlf=st.booleans(), block=st.integers(1, 70), blocks=st.integers(1, 4))
def test_the_workers_find_the_lines_whatever_stands_at_their_edges(
        pieces: list[bytes], end: bytes, crlf: bool, block: int, blocks: int) -> None:
    data = (b"\r\n" if crlf else b"\n").join(pieces) + end
    import tempfile

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as m:
        m.setattr(cutting, "CHUNK_BYTES", block)
        m.setattr(cutting, "MAX_JSON_RECORD_BYTES", 40)
        m.setattr(cutting, "PROBE", 7)  # (the first line looked for a few bytes at a time)
        path = str(Path(folder) / "edges.jsonl")
        Path(path).write_bytes(data)
        whole = list(archive.chunks_of(path))
        chunks, _, counted = _ranged(path, block * blocks)
        assert _by_line(chunks) == _by_line(whole)
        assert chunks[:1] == whole[:1]
        assert counted == _lines_and_deals(whole)


@pytest.mark.process
def test_two_workers_on_small_chunks_give_what_one_gives(
        monkeypatch: pytest.MonkeyPatch, archive_file: Path) -> None:
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 2600)  # (cut in the parent: many chunks)
    one = invoke("validate", "--format", "jsonl", str(archive_file))
    two = invoke("validate", "--format", "jsonl", "-j", "2", str(archive_file))
    assert one == two
    assert one.code == 1
