"""The compiled scanner of the canonical text layout against the Python reader (issue 17).

``_kernel.scan_text`` (``csrc/textscan.h``) cuts a record of the text notation out of a
block of the file and into the parts the quick check takes; ``notation.bulk.read_bulk``
drives it and hands everything else to the reader. These differential tests hold it to
the Python path:

- the parts it hands back equal those made of the fast scanner's data
  (``notation.scanner.scan``) of the same record, cut by the reader (``reader.record_chunks``), and
  it takes a record only when the fast scanner does, cut where the reader cuts it; on
  generated deals (3, 4 and 5 players; comments, glyphs, names, tags, rulesets; partial
  and faulty deals), on word and byte edits of them, and on the fuzz corpus;
- ``check_paths`` and ``tarot validate`` report the same, byte for byte, with and without
  it (and the whole suite's TAROT_PURE=1 run takes the Python path), whole and in parts,
  with blocks so small that records straddle them;
- it takes the plain records (else the comparison would prove nothing), and memory stays
  bounded on a record longer than a block.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import budget
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tarot_parts import ODD

from tarotnotation import archive, cutting, native, notation
from tarotnotation.cards import BIT_OF_CODE
from tarotnotation.notation import bulk, reader, scanner
from tarotnotation.quick import parts_checker, quick_facts, quick_facts_scanned
from tarotnotation.records import DealRecord, Seat
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal
from tarotnotation.source import ReadDeal

ROOT: Final = Path(__file__).resolve().parents[2]
CORPUS: Final = sorted(p for p in (ROOT / "tests" / "corpus").rglob("*") if p.is_file())
KERNEL: Final = native.compiled(force=True)

pytestmark = pytest.mark.skipif(KERNEL is None, reason="the compiled core is not built")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled path, even in CI's TAROT_PURE=1 run: each test sets the pure path
    itself where it compares the two."""
    monkeypatch.delenv("TAROT_PURE", raising=False)
    monkeypatch.delenv(reader.READER_ENV, raising=False)


def _bits(codes: list[str]) -> tuple[int, int]:
    return sum(BIT_OF_CODE[c] for c in codes), len(codes)


def _expected(data: dict[str, Any]) -> tuple[Any, ...] | None:
    """The parts the compiled scanner should hand back (normalized) for the fast
    scanner's ``data``, or None when the data holds something it leaves to the reader."""
    allowed = {"players", "tags", "ruleset", "seats", "dealer", "hands", "chien", "auction",
               "call", "ecart", "declarations", "play", "result", "glyph", "comments"}
    n = data["players"]
    if set(data) - allowed or n not in (3, 4, 5) or "hands" not in data:
        return None
    call = data.get("call")
    if call is not None:
        if set(call) != {"card"}:
            return None  # (notes on the call: the reader's)
        call = int(BIT_OF_CODE[call["card"]]).bit_length() - 1
    seats = data.get("seats")
    ids = None if seats is None else [s["id"] for s in seats]
    names = None if seats is None else [s.get("name") for s in seats]
    if any(not codes for codes in data["hands"].values()):
        return None
    hands = [_bits(codes) for codes in data["hands"].values()]
    if "chien" not in data or "auction" not in data or "play" not in data:
        return None
    if any(set(bid) != {"contract"} for bid in data["auction"]):
        return None
    ecart = data.get("ecart")
    if ecart is not None:
        if set(ecart) != {"cards"} or not ecart["cards"]:
            return None
        ecart = _bits(ecart["cards"])
    declarations: list[tuple[str, str, tuple[int, int] | None]] | None = None
    if "declarations" in data:
        declarations = []
        for decl in data["declarations"]:
            if decl["kind"] == "chelem" and set(decl) == {"kind", "seat"}:
                declarations.append(("chelem", decl["seat"], None))
            elif decl["kind"] == "poignee" and set(decl) == {"kind", "seat", "cards"}:
                declarations.append(("poignee", decl["seat"], _bits(decl["cards"])))
            else:
                return None
    cards: list[int] = []
    notes: list[tuple[int, dict[str, Any]]] = []
    for trick in data["play"]:
        if set(trick) != {"cards"} or len(trick["cards"]) != n:
            return None
        for pc in trick["cards"]:
            if "seat" in pc:
                return None
            note = {k: v for k, v in pc.items() if k != "card"}
            if note:
                notes.append((len(cards), note))
            cards.append(int(BIT_OF_CODE[pc["card"]]).bit_length() - 1)
    scores = None
    if "result" in data:
        result = data["result"]
        if set(result) - {"scores"}:
            return None
        scores = result.get("scores", {})
    if data["chien"] == [] or not all(data["hands"].values()):
        return None
    return (n, data["tags"], data.get("ruleset"), ids, data.get("dealer"),
            list(data["hands"]), hands, _bits(data["chien"]),
            [b["contract"] for b in data["auction"]], ecart, bytes(cards), notes or None, scores,
            data.get("comments"), data.get("glyph"), declarations, names, call)


def _chunk_ends(data: bytes) -> dict[int, tuple[int | None, str]]:
    """Each record's start as the reader cuts ``data`` -> (the next one's start, its
    text as the reader hands it to the scanners)."""
    chunks = list(reader.record_chunks(io.BytesIO(data)))
    out: dict[int, tuple[int | None, str]] = {}
    for k, chunk in enumerate(chunks):
        lines = list(chunk.lines)
        while lines and not lines[-1].strip():
            lines.pop()
        after = chunks[k + 1].offset if k + 1 < len(chunks) else None
        out[chunk.offset] = (after, "\n".join(lines) if chunk.fault is None else "")
    return out


def _check_bytes(data: bytes) -> int:
    """Scan every place where ``data`` has a record start after a blank line (and its
    start) with the compiled scanner; every record it takes must be one the reader cuts
    there, that the fast scanner reads to the same parts. The number it took."""
    assert KERNEL is not None
    ends: dict[int, tuple[int | None, str]] | None = None
    starts = [0] + [m.end() - 1 for m in re.finditer(rb"\n\n\[", data)]
    taken = 0
    for pos in starts:
        found = KERNEL.scan_text(data, pos, True)
        assert found is None or type(found) is tuple
        if found is None:
            continue
        if ends is None:
            ends = _chunk_ends(data)
        parts, after, lines = found
        assert pos in ends, pos  # the reader starts a record there
        reader_after, text = ends[pos]
        assert after == (len(data) if reader_after is None else reader_after)
        assert lines == data.count(b"\n", pos, after)
        normal = bulk.normalized(parts)
        if normal is None:  # a Ruleset or Seats tag the fast scanner does not take either
            assert scanner.scan(text) is None
            continue
        scanned = scanner.scan(text)
        assert scanned is not None, text  # a record the fast scanner leaves to the grammar
        expected = _expected(scanned)
        assert expected is not None, text
        assert normal == expected
        # the quick check says the same of both, and its C twin (bulk.h) what it says
        assert quick_facts_scanned(normal, twin=KERNEL) == quick_facts(scanned)
        for ruleset, default in RULESETS:
            facts = quick_facts_scanned(normal, ruleset, default, twin=KERNEL)
            check = parts_checker(ruleset, default)
            assert check is not None
            answer = check(normal)
            if answer is not None:
                assert facts is not None
                assert answer == (facts.taker_half, facts.scores)
                assert list(answer[1]) == list(facts.scores)  # (the seats' order too)
                SETTLED.append(1)
            elif facts is not None:
                SETTLED.append(0)
        taken += 1
    return taken


#: (ruleset, default ruleset) the parts are judged with.
RULESETS: Final = [(None, None), ("pagat", None), (None, "pagat"),
                   ("fft petit_in_chien=annuls", None), ("fft five_player_first_lead=free", None)]
#: Each clean deal judged: 1 when the C twin settled it, 0 when it left it to Python.
SETTLED: list[int] = []


# --- generated deals -------------------------------------------------------------------------

_NAMES: Final = ["Ann", "Bruno Martin", "Chloé", "D'Arcy", "Émile", "李", "x:y", "a\\,b"]


def _deal(rng: random.Random, k: int) -> DealRecord:
    n = (3, 4, 5)[k % 3]
    rec = random_deal(rng, n, ruleset=rng.choice([Ruleset.fft(), Ruleset.pagat()]),
                      contract=rng.choice([None, None, *Contract]),
                      stop_after=rng.choice([None] * 6 + [rng.randrange(80)]),
                      chelem_chance=0.1)
    update: dict[str, Any] = {}
    if rng.random() < 0.5:
        update["tags"] = (("Event", rng.choice(["Club", "Coupe d'été", "x y"])),
                          *((("Date", "2026.11.03"),) if rng.random() < 0.5 else ()),
                          *((("Round", str(k)),) if rng.random() < 0.5 else ()))
    if rng.random() < 0.3:
        update["seats"] = tuple(Seat(id=s.id, name=rng.choice([None, *_NAMES]))
                                for s in rec.seats)
    if rng.random() < 0.3:
        update["glyph"] = rng.choice(["!", "?!", None])
        update["comments"] = rng.choice([(), ("a deal",), ("a deal", "x!?"),
                                          ("with {braces}",)])
    if rng.random() < 0.4 and rec.play:
        tricks = []
        for trick in rec.play:
            cards = tuple(pc.model_copy(update={
                "glyph": rng.choice(["!", "??", None]),
                "comments": rng.choice([(), ("x y",), ("é", "two")])})
                if rng.random() < 0.2 else pc for pc in trick.cards)
            tricks.append(trick.model_copy(update={"cards": cards}))
        update["play"] = tuple(tricks)
    return rec.model_copy(update=update) if update else rec


def _generated(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [notation.write_record(_deal(rng, k)) for k in range(count)]


def test_the_scanner_takes_plain_canonical_records_as_the_fast_scanner_reads_them() -> None:
    texts = _generated(240, 1)
    data = "\n".join(texts).encode()
    taken = _check_bytes(data)
    assert taken > len(texts) * 0.6, taken  # (five players too)


def test_the_c_twin_of_the_quick_check_settles_most_clean_deals() -> None:
    SETTLED.clear()
    _check_bytes("\n".join(_generated(120, 4)).encode())
    assert len(SETTLED) > 100
    assert sum(SETTLED) > len(SETTLED) * 0.8


def test_each_generated_record_alone_and_at_the_end_of_a_file() -> None:
    for text in _generated(90, 2):
        _check_bytes(text.encode())
        _check_bytes(text.rstrip("\n").encode())  # no line break at the file's end
        _check_bytes(("\n" + text + "\n\n\n" + text).encode())


_EDITS: Final = [
    "7h", "ex", "T22", "10S", "R♠", "-", ":", "E:", "E:7H", "(E)", "!", "?", "!?", "!!!",
    "{c}", "{", "}", "\\", "[", "]", '[X "y"]', "1.", "01.", "2.", "99.", "hand", "hand S:",
    "hands:", "chien:", "auction:", "call:", "ecart:", "shown:", "poignee", "poignee S:",
    "poignee S simple:", "chelem", "chelem S", "misere", "play:", "result:", "pass", "passe",
    "petite", "garde-sans", "GARDE", "taker", "points", "48", "scores", "S+1", "S+1234567",
    "W-0", "\n", "\n\n", "\n\n[", "\t", "\r", "\u00a0", "\u2028", "\x00", "é", " ",
    '[Players "4"]', '[Players "5"]', '[Date "2026-11-03"]', '[Result "x"]', '[Seats "S E"]',
    '[Ruleset "pagat"]', '[Ruleset "nope"]', '[Dealer "Q"]',
]
_BASES: Final = _generated(12, 3)


@st.composite
def _edited(draw: st.DrawFn) -> bytes:
    words = re.split(r"( +|\n)", draw(st.sampled_from(_BASES)))
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(("insert", "replace", "delete", "glue")))
        if op == "insert":
            words.insert(k, draw(st.sampled_from(_EDITS)))
        elif op == "replace":
            words[k] = draw(st.sampled_from(_EDITS))
        elif op == "delete":
            del words[k]
        else:
            words[k] += draw(st.sampled_from(_EDITS))
    text = "".join(words)
    return (text + "\n" + draw(st.sampled_from(_BASES))).encode("utf-8", "surrogatepass")


@settings(max_examples=budget.cases(400, slow=3000),
          deadline=None)
@given(_edited())
def test_edited_records_are_left_to_the_reader_or_read_the_same(data: bytes) -> None:
    _check_bytes(data)


@settings(max_examples=budget.cases(200), deadline=None)
@given(st.binary(max_size=300), st.integers(0, 300))
def test_any_bytes_are_left_to_the_reader_or_read_the_same(data: bytes, cut: int) -> None:
    base = _BASES[0].encode()
    data = base[:cut] + data + base[cut:]
    _check_bytes(data)


@pytest.mark.skipif(not CORPUS, reason="the fuzz corpus tests/corpus/ is empty")
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_fuzz_corpus_is_left_to_the_reader_or_read_the_same(path: Path) -> None:
    _check_bytes(path.read_bytes())


def test_a_block_that_ends_inside_a_record_asks_for_more() -> None:
    assert KERNEL is not None
    data = _BASES[0].encode() + b"\n" + _BASES[1].encode()
    whole = KERNEL.scan_text(data, 0, True)
    assert type(whole) is tuple
    for size in range(1, whole[1] + 1):
        assert KERNEL.scan_text(data[:size], 0, False) == -1, size
    assert KERNEL.scan_text(data[:whole[1] + 1], 0, False) == whole


# --- whole files: the same report with and without the compiled scanner -------------------

#: The odd records of test_tarot_parts, and a comment longer than a block's first look.
_ODD: Final = [*ODD, '[Event "Long"]\n[Players "4"]\n{' + "a very long comment " * 400 + '}\n']


def _archive(seed: int, count: int, faults: bool = True) -> bytes:
    rng = random.Random(seed)
    records = []
    for k in range(count):
        text = notation.write_record(_deal(rng, k))
        if not faults:
            records.append(text)
            continue
        if rng.random() < 0.15:  # an illegal card, most likely: two cards swapped
            words = text.split(" ")
            i, j = sorted(rng.sample(range(len(words)), 2))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        records.append(text)
        if rng.random() < 0.15:
            records.append(rng.choice(_ODD))
    data = "\n".join(records).encode("utf-8", "surrogateescape")
    return data.replace("\ufeff".encode(), b"")


def _report(paths: list[Path], **kwargs: Any) -> list[tuple[Any, ...]]:
    return [(c.file, c.index, c.line, c.offset, c.diagnostics, c.status,
             None if c.scores is None else dict(c.scores), c.taker_half, c.number)
            for c in archive.check_paths(paths, keep=False, **kwargs)]


def _pure(monkeypatch: pytest.MonkeyPatch, paths: list[Path], **kwargs: Any
          ) -> list[tuple[Any, ...]]:
    with monkeypatch.context() as m:
        m.setenv("TAROT_PURE", "1")
        return _report(paths, **kwargs)


@pytest.mark.process
@pytest.mark.parametrize("seed", range(4))
def test_check_paths_reports_the_same_with_and_without_the_scanner(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(seed, 70))
    reference = _pure(monkeypatch, [path, path])
    assert len(reference) > 140
    assert _report([path, path]) == reference
    rng = random.Random(seed)
    for block in rng.sample(range(200, 5000), 3):  # records straddle the blocks
        monkeypatch.setattr(bulk, "BLOCK", block)
        assert _report([path]) == reference[:len(reference) // 2], block
    monkeypatch.setattr(cutting, "CHUNK_BYTES", rng.randrange(1500, 6000))
    assert _report([path, path], jobs=2) == reference


_TMP: Final = Path(tempfile.mkdtemp(prefix="tarot-textscan-"))


@settings(max_examples=budget.cases(150, slow=1000),
          deadline=None)
@given(_edited(), st.sampled_from([b"", b"\n", b"\n\n", b"\r\n"]))
def test_edited_archives_report_the_same_with_and_without_the_scanner(
        data: bytes, end: bytes) -> None:
    path = _TMP / "edited.tarot"
    path.write_bytes(_BASES[4].encode() + b"\n" + data + end + b"\n" + _BASES[5].encode())
    compiled = _report([path])
    os.environ["TAROT_PURE"] = "1"
    try:
        assert compiled == _report([path])
    finally:
        del os.environ["TAROT_PURE"]


def test_the_scanner_reads_most_records_of_a_plain_archive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(5, 90, faults=False))
    judged = []

    def judge_parts(parts: tuple[Any, ...]) -> Any:
        judged.append(parts)
        return quick_facts_scanned(parts, twin=KERNEL)

    with path.open("rb") as fh:
        items = list(bulk.read_bulk(fh, KERNEL.scan_text, judge_parts,  # type: ignore[union-attr]
                                    quick_facts, name=str(path)))
    with path.open("rb") as fh:
        readings: list[Any] = list(notation.read_at(fh, name=str(path)))
    assert [i.index if isinstance(i, ReadDeal) else i[0] for i in items] == [
        d.index for d in readings]
    assert len(judged) >= 60  # of 90 deals at 3, 4 and 5 players, some partial or annotated


def test_a_record_longer_than_a_block_is_the_readers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A record of one line of 200 KB (and a blank line of NUL bytes), read with blocks of
    # 4 KB: the reader reads it in bounded memory; the scanner never holds more than a block
    # and the rest of the record it is reading.
    path = tmp_path / "long.tarot"
    texts = _generated(6, 8)
    long = '[Event "Long"]\n[Players "4"]\nplay: ' + "7H " * 70000 + "\n"
    path.write_bytes("\n".join([*texts[:3], long, *texts[3:]]).encode()
                     + b"\n" + b"\x00" * 50000 + b"\n\n" + texts[0].encode())
    reference = _pure(monkeypatch, [path])
    sizes = []
    real = KERNEL.scan_text  # type: ignore[union-attr]

    def scan(buf: bytes, pos: int, eof: bool) -> Any:
        sizes.append(len(buf))
        return real(buf, pos, eof)

    monkeypatch.setattr(bulk, "BLOCK", 4096)
    monkeypatch.setattr(native, "compiled", lambda **_: _Twin(scan))
    assert _report([path]) == reference
    assert sizes
    assert max(sizes) <= 2 * 4096


class _Twin:
    """The compiled core with its text scanner replaced."""

    def __init__(self, scan: Any) -> None:
        self.scan_text = scan

    def __getattr__(self, name: str) -> Any:
        return getattr(KERNEL, name)


def _validate(path: Path, *args: str, pure: bool = False) -> tuple[int, str, str]:
    env = dict(os.environ)
    if pure:
        env["TAROT_PURE"] = "1"
    proc = subprocess.run([sys.executable, "-m", "tarotnotation", "validate", *args, str(path)],
                          capture_output=True, env=env, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.process
def test_tarot_validate_says_the_same_byte_for_byte_with_and_without_the_scanner(
        tmp_path: Path) -> None:
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(11, 120))
    compiled = _validate(path)
    assert compiled[0] == 1  # faults were found, and said
    assert compiled == _validate(path, pure=True)
    assert _validate(path, "-j", "2") == compiled


def test_the_reader_path_is_kept_without_the_compiled_core(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deals.tarot"
    path.write_bytes(_archive(12, 30))
    calls = []
    real = bulk.read_bulk

    def spy(*args: Any, **kwargs: Any) -> Iterator[Any]:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(bulk, "read_bulk", spy)
    with_core = _report([path])
    assert calls
    calls.clear()
    assert _pure(monkeypatch, [path]) == with_core
    monkeypatch.setenv(reader.READER_ENV, "grammar")  # the scanners off: the grammar's
    assert _report([path]) == _pure(monkeypatch, [path])
    assert not calls
