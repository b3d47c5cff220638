"""``tarot validate -j 2`` says byte for byte what ``-j 1`` says (issue 17).

In a parallel check the workers send back each run of deals with nothing to say as one
``archive.CleanDeals`` (a count, their ``Deal`` numbers in runs, the deals pickled), and
the text and GitHub reports count them without a ``CheckedDeal`` each; R301 (a number given
twice in a session) is settled on those runs by ``plausibility.SessionDeals``, which keeps
plain numbers as runs; a big file is cut into tasks of several blocks. Here the two runs
are held to the same output and exit status, in every report format, on archives cut into
many small chunks: faults in several chunks, numbers repeated across chunks, a broken line
at a chunk's edge, a line over the bound, blank lines, CRLF, a byte-order mark, a FIFO,
a one-deal file; in JSON Lines and in the text notation. ``TAROT_SLOW=1`` runs a larger
sample.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import budget
import orjson
import pytest
from cli_runs import Ran, fed, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation import archive, checking, cutting, notation
from tarotnotation.archive import CleanDeals, check_paths, check_paths_batched
from tarotnotation.formats import json as tjson
from tarotnotation.limits import MAX_JSON_RECORD_BYTES
from tarotnotation.plausibility import SessionDeals
from tarotnotation.simulate import random_deal

pytestmark = pytest.mark.process

SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")
#: Deals a sample archive (a few different ones, repeated under new numbers).
COUNT = 1500 if SLOW else 90
#: The report formats, and the options, each sample is checked with.
RUNS = [(), ("--format", "github"), ("--format", "json"),
        ("--format", "jsonl", "--max-errors", "1"), ("--format", "junit", "--strict")]


@pytest.fixture(scope="module")
def records() -> list[dict[str, object]]:
    """A few generated deals, of 3, 4 and 5 players, as JSON objects."""
    rng = random.Random(17)
    return [orjson.loads(tjson.dumps(random_deal(rng, rng.choice([3, 4, 5]))))
            for _ in range(12)]


def _numbered(record: dict[str, object], number: str | None, session: str = "Club"
              ) -> dict[str, object]:
    tags = [["Event", session]] + ([] if number is None else [["Deal", number]])
    return {**record, "tags": tags}


def _sample(records: list[dict[str, object]], seed: int) -> list[dict[str, object] | bytes]:
    """The deals of an archive, numbered 1, 2, 3… in the usual way, with faults and odd
    lines here and there (bytes: a line written as it is)."""
    rng = random.Random(seed)
    out: list[dict[str, object] | bytes] = []
    number = 0
    for i in range(COUNT):
        record = records[i % len(records)]
        session = "Club" if i < COUNT // 2 else "Club B"  # (numbered from 1 again)
        number = 1 if i == COUNT // 2 else number + 1
        if i % 17 == 3:  # a number given before (R301), most often in another chunk
            out.append(_numbered(record, str(rng.randint(1, number)), session))
        elif i % 19 == 7:  # a wrong score
            broken = _numbered(record, str(number), session)
            result = dict(broken["result"])  # type: ignore[call-overload]
            scores = dict(result["scores"])
            seat = next(iter(scores))
            scores[seat] += 10
            out.append({**broken, "result": {**result, "scores": scores}})
        elif i % 23 == 11:
            out.append(b'{"players": 4, "broken')
        elif i % 29 == 2:
            out.append(b"   ")  # a blank line (not a deal)
        elif i % 31 == 5:
            out.append(_numbered(record, f"{number}b", session))  # not a plain number
        elif i % 37 == 9:
            out.append(_numbered(record, None, session))
        else:
            out.append(_numbered(record, str(number), session))
    return out


def _jsonl(items: list[dict[str, object] | bytes], *, crlf: bool = False) -> bytes:
    end = b"\r\n" if crlf else b"\n"
    return b"".join((item if isinstance(item, bytes) else orjson.dumps(item)) + end
                    for item in items)


def _tarot(items: list[dict[str, object] | bytes], *, crlf: bool = False) -> bytes:
    texts = []
    for item in items:
        if isinstance(item, bytes):
            texts.append('[Event "Broken"]\n[Players "4"]\nauction: pass gardez\n')
        else:
            texts.append(notation.dumps(tjson.loads(orjson.dumps(item))))
    data = "\n".join(texts).encode()
    return data.replace(b"\n", b"\r\n") if crlf else data


def _same(path: Path, *options: str) -> Ran:
    """``tarot validate`` of ``path`` with one job, then two: the same, byte for byte."""
    one = invoke("validate", "-j", "1", *options, str(path))
    two = invoke("validate", "-j", "2", *options, str(path))
    assert two == one, options
    return one


@pytest.mark.parametrize(("kind", "crlf"), [("jsonl", False), ("jsonl", True),
                                            ("tarot", True)])
def test_two_jobs_say_what_one_says_on_faults_in_many_chunks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: list[dict[str, object]],
        kind: str, crlf: bool) -> None:
    items = _sample(records, seed=crlf)
    path = tmp_path / f"deals.{kind}"
    data = (_jsonl if kind == "jsonl" else _tarot)(items, crlf=crlf)
    path.write_bytes(b"\xef\xbb\xbf" + data if crlf else data)
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 9000)  # (a few deals a chunk)
    ran = _same(path, "-v", "--statistics")
    assert ran.code == 1
    # faults found all along the file: numbers repeated, wrong scores, broken records
    assert all(code in ran.out for code in ("R301", "R101"))
    # tasks of several blocks (a big file's), and of one
    monkeypatch.setattr(cutting, "TASKS_A_WORKER", 1)
    assert archive.blocks_a_task(str(path), 2) > 1
    _same(path, "--format", "jsonl")
    _same(path, "-q")


def test_every_report_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             records: list[dict[str, object]]) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_bytes(_jsonl(_sample(records, seed=5)))
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 9000)
    for options in RUNS:
        _same(path, *options)


def test_a_broken_line_at_a_chunk_edge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       records: list[dict[str, object]]) -> None:
    items: list[dict[str, object] | bytes] = [
        _numbered(records[i % len(records)], str(i + 1)) for i in range(30)]
    items[5] = b'{"players": 4, "hands": {"S": ["1S", '
    items[6] = b"\xff\xfe not even UTF-8"
    path = tmp_path / "edge.jsonl"
    data = _jsonl(items)
    path.write_bytes(data)
    start = data.index(b'{"players": 4, "hands"')
    end = data.index(b"\n", start) + 1
    for size in (start - 1, start, start + 1, start + 5, end - 1, end, end + 1):
        # (the first worker's range ends just before, at, just after the broken line's
        # start, inside it, at its end…)
        monkeypatch.setattr(cutting, "CHUNK_BYTES", size)
        assert len(list(archive.json_lines_ranges(str(path), size))) > 2
        assert _same(path, "--format", "jsonl").code == 1


def test_a_line_over_the_bound_ends_its_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              records: list[dict[str, object]]) -> None:
    items: list[dict[str, object] | bytes] = [
        _numbered(records[i % len(records)], str(i + 1)) for i in range(20)]
    items[9] = b'{"players": 4, "note": "' + b"x" * (MAX_JSON_RECORD_BYTES + 10) + b'"}'
    path = tmp_path / "long.jsonl"
    path.write_bytes(_jsonl(items))
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 6000)
    monkeypatch.setattr(cutting, "TASKS_A_WORKER", 1)
    assert archive.blocks_a_task(str(path), 2) == 4  # (several blocks a range)
    # (ranges that lie inside the long line: their workers find no line of their own)
    assert len(list(archive.json_lines_ranges(str(path), 4 * 6000))) > 40
    assert _same(path).code == 1
    _same(path, "--format", "json")


def test_the_workers_send_clean_deals_back_in_bulk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        records: list[dict[str, object]]) -> None:
    items = _sample(records, seed=3)
    path = tmp_path / "deals.jsonl"
    path.write_bytes(_jsonl(items))
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 9000)
    batched = list(check_paths_batched([path], jobs=2, keep=False))
    runs = [item for item in batched if isinstance(item, CleanDeals)]
    assert len(runs) > 10
    assert sum(run.count for run in runs) > COUNT // 2
    assert not any(run.numbers == () for run in runs)  # (their numbers come with them)
    one_by_one = [deal for item in batched
                  for deal in (item.deals() if isinstance(item, CleanDeals) else [item])]
    assert one_by_one == list(check_paths([path], jobs=1, keep=False))
    assert all(not deal.diagnostics for run in runs for deal in run.deals())


def test_a_whole_tarot_file_a_worker_checks_takes_the_bulk_route(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        records: list[dict[str, object]]) -> None:
    """A .tarot file too small to be cut is one task, checked by the worker as this process
    checks it (the bulk scan and the quick check), not by the reader and the replay of
    every deal: before, ``tarot validate -j 2`` of a folder of such files took ten times
    the CPU of ``-j 1``. Same deals, same answers."""
    items: list[dict[str, object] | bytes] = [
        item for item in _sample(records, seed=5) if not isinstance(item, bytes)]
    path = tmp_path / "small.tarot"
    path.write_bytes(_tarot(items))
    serial = list(checking.checked_file(str(path), None, None))  # (as -j 1 checks it)

    def replayed(*_: object, **__: object) -> object:
        raise AssertionError("the reader and the replay read a canonical .tarot file")

    monkeypatch.setattr(checking, "read_path", replayed)
    done = checking.check_task(str(path), None, None)
    deals = [deal for item in checking.unpack(done)
             for deal in (item.deals() if isinstance(item, CleanDeals) else [item])]
    assert deals == serial
    assert any(deal.diagnostics for deal in deals)  # (the faulty ones said too)


def test_a_fifo_and_a_one_deal_file(tmp_path: Path, records: list[dict[str, object]]) -> None:
    items: list[dict[str, object] | bytes] = [
        _numbered(records[i % len(records)], str(i % 7 + 1)) for i in range(20)]
    items.insert(5, b"")
    data = _jsonl(items, crlf=True)
    for options in [(), ("--format", "jsonl")]:
        ran = []
        for jobs in ("1", "2"):
            fifo = tmp_path / "deals"
            with fed(fifo, data):
                ran.append(invoke("validate", "-j", jobs, *options, str(fifo)))
            fifo.unlink()
        assert ran[0] == ran[1]
        assert ran[0].code == 1  # (numbers 1 to 7 given again)
    for kind, one in [("jsonl", _jsonl(items[:1])), ("tarot", _tarot(items[:1]))]:
        path = tmp_path / f"one.{kind}"
        path.write_bytes(one)
        for options in [("-q",), ("--format", "json")]:
            assert _same(path, *options).code == 0, (kind, options)


# --- SessionDeals keeps runs: it says what a dict of every number seen says ----------------


class _Every:
    """The reference: every number seen, in a dict."""

    def __init__(self) -> None:
        self.first: dict[tuple[tuple[str, ...], str], int] = {}

    def see(self, key: tuple[tuple[str, ...], str], deal: int) -> int | None:
        first = self.first.setdefault(key, deal)
        return None if first == deal else first


_STEP = st.tuples(st.sampled_from([("A",), ("B",)]), st.integers(0, 40), st.integers(1, 9),
                  st.integers(0, 2), st.sampled_from(["", "0", "b", "s", "s", "s"]))


@settings(max_examples=budget.cases(60, slow=500), deadline=None)
@given(st.lists(_STEP, max_size=60))
def test_deal_numbers_kept_in_runs_say_what_every_number_kept_says(
        steps: list[tuple[tuple[str, ...], int, int, int, str]]) -> None:
    every, runs = _Every(), SessionDeals()
    deal = 0
    for session, number, count, gap, odd in steps:
        deal += gap  # (0: the same deal again, as a file read twice)
        if odd == "s":  # plain numbers one by one, as a serial check sees them
            for k in range(count):
                key = (session, str(number + k))
                assert runs.see(key, deal + k) == every.see(key, deal + k)
            deal += count - 1
            continue
        if odd:  # one number that is not plain: "07", "7b"
            key = (session, f"0{number}" if odd == "0" else f"{number}{odd}")
            assert runs.see(key, deal) == every.see(key, deal)
            continue
        expected = [(deal + k, first) for k in range(count)
                    if (first := every.see((session, str(number + k)), deal + k)) is not None]
        assert runs.see_run(session, number, count, deal) == expected
        deal += count - 1


def test_a_million_numbers_in_a_row_are_one_run() -> None:
    seen = SessionDeals()
    for start in range(1, 1_000_000, 1000):
        assert seen.see_run(("Club",), start, 1000, start) == []
    assert len(seen.runs[("Club",)].lows) == 1
    assert seen.see((("Club",), "123456"), 1_000_001) == 123456
