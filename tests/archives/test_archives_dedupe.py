"""``tarot dedupe``: the same deal across files and formats, fingerprints only, the table
in memory and on disk."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from archive_builders import generated, tournament, write_jsonl, write_tarot
from cli_runs import FAULTY, invoke, rel

from tarotnotation.archives.dedupe import Dedupe, Seen
from tarotnotation.archives.stream import Options, scan
from tarotnotation.archives.summary import deal_fingerprint, play_fingerprint


def _fp(i: int) -> bytes:
    return hashlib.sha256(str(i).encode()).digest()[:16]


def test_the_table_remembers_the_first_meeting_through_growth() -> None:
    seen = Seen()
    order = list(range(1, 5001))
    random.Random(1).shuffle(order)
    for ordinal, i in enumerate(order, 1):
        assert seen.first(_fp(i), ordinal) is None
    assert len(seen) == 5000
    assert not seen.on_disk
    assert len(seen.table) <= 16 * 8192  # 16 bytes a slot, at most 3/4 full: <= 2**13
    for ordinal, i in enumerate(order, 1):
        assert seen.first(_fp(i), 99_999) == ordinal


def test_past_its_limit_the_table_moves_to_disk_and_is_removed(tmp_path: Path) -> None:
    seen = Seen(limit=16 * 1024, folder=str(tmp_path))
    for i in range(1, 3001):
        assert seen.first(_fp(i), i) is None
    assert seen.on_disk
    assert list(tmp_path.iterdir())
    for i in range(1, 3001):
        assert seen.first(_fp(i), 5000 + i) == i
    assert seen.first(_fp(4000), 9000) is None
    seen.close()
    assert not list(tmp_path.iterdir())


def test_fingerprints_ignore_seat_names_and_the_seat_of_each_hand() -> None:
    tables = tournament()
    prints = [[deal_fingerprint(d.summary) for d in scan_records(t)] for t in tables]
    assert prints[0] == prints[1] == prints[2]
    assert len(set(prints[0])) == 8
    assert all(p is not None and len(p) == 16 for p in prints[0])


def scan_records(records: list) -> list:  # type: ignore[type-arg]
    import tempfile

    folder = Path(tempfile.mkdtemp())
    return list(scan([write_tarot(folder / "t.tarot", records)],
                     options=Options(replay=False)))


def test_the_same_deals_across_formats(tmp_path: Path) -> None:
    records = generated(30, seed=4)
    a = write_tarot(tmp_path / "a.tarot", records[:20])
    b = write_jsonl(tmp_path / "b.jsonl", records[10:] + records[:2])
    ran = invoke("dedupe", str(a), str(b))
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert len(lines) == 12
    assert lines[0] == f"{b}, deal 1: the same deal as {a}, deal 11"
    assert lines[-1] == f"{b}, deal 22: the same deal as {a}, deal 2"
    assert "12 of 42 deals repeat deals met before" in ran.err
    out = tmp_path / "once.jsonl"
    ran = invoke("dedupe", str(a), str(b), "-o", str(out))
    assert ran.code == 0, ran
    kept = [d.summary for d in scan([out], options=Options(replay=False))]
    assert [s.tag("Deal") for s in kept] == [str(i) for i in range(1, 31)]  # type: ignore[union-attr]
    assert ran.out == ""
    assert "30 written to" in ran.err


def test_by_play_tells_apart_the_same_deal_played_otherwise(tmp_path: Path) -> None:
    tables = tournament()  # the same deals, played (scored) differently at each table
    path = write_tarot(tmp_path / "t.tarot", tables[0] + tables[1])
    assert invoke("dedupe", str(path)).out.count("the same deal as") == 8
    # No play is recorded in the tournament: by play, nothing is compared.
    ran = invoke("dedupe", str(path), "--by", "play")
    assert ran.code == 0
    assert "16 without a play not compared" in ran.err
    records = generated(5, seed=8)
    other = records[0].model_copy(update={"play": records[0].play[:-1]})
    again = write_tarot(tmp_path / "g.tarot", [*records, records[1], other])
    ran = invoke("dedupe", str(again), "--by", "play")
    assert ran.out.splitlines() == [f"{again}, deal 6: the same deal and play as {again},"
                                    " deal 2"]
    assert invoke("dedupe", str(again)).out.count("the same deal as") == 2


def test_report_with_output_goes_to_stderr_and_disk_mode_works(tmp_path: Path) -> None:
    records = generated(12, seed=6)
    path = write_jsonl(tmp_path / "x.jsonl", records + records)
    out = tmp_path / "y.tarot"
    ran = invoke("dedupe", str(path), "-o", str(out), "--report", "--memory", "1")
    assert ran.code == 0
    assert ran.err.count("the same deal as") == 12
    assert len(list(scan([out], options=Options(replay=False)))) == 12


def test_dedupe_reports_unreadable_deals_and_counts_them_in_the_numbering(
        tmp_path: Path) -> None:
    ran = invoke("dedupe", rel(FAULTY), rel(FAULTY))
    assert ran.code == 1
    assert ran.err.count("S003 error") == 2
    assert "examples/faulty/revoke.tarot, deal 1: the same deal as" in ran.out
    judge = Dedupe()
    for deal in scan([FAULTY / "syntax-error.tarot"], options=Options(replay=False)):
        if deal.summary is None:
            judge.met(deal.file, deal.index)
        else:
            assert judge.judge(deal.summary) is None
    assert judge.where(judge.ordinal) == f"{FAULTY / 'syntax-error.tarot'}, deal 2"


def test_play_fingerprint_counts_the_auction() -> None:
    [a, b] = [d.summary for d in scan([FAULTY / "wrong-score.tarot",
                                       FAULTY.parent / "garde-contre.tarot"],
                                      options=Options(replay=False))]
    assert a is not None
    assert b is not None
    assert deal_fingerprint(a) == deal_fingerprint(b)
    assert a.play == b.play
    assert play_fingerprint(a) != play_fingerprint(b)


@pytest.mark.process
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_dedupe_in_parallel(tmp_path: Path, jobs: str) -> None:
    records = generated(20, seed=2)
    path = write_jsonl(tmp_path / "x.jsonl", records + records[5:8])
    ran = invoke("dedupe", str(path), "-j", jobs)
    assert ran.out.splitlines() == [f"{path}, deal {21 + i}: the same deal as {path}, deal"
                                    f" {6 + i}" for i in range(3)]


def test_the_table_holds_16_bytes_a_deal_even_while_it_grows() -> None:
    import tracemalloc

    keys = [_fp(i) for i in range(20_000)]
    seen = Seen()
    tracemalloc.start()
    try:
        for ordinal, key in enumerate(keys, 1):
            seen.first(key, ordinal)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    table = len(seen.table)
    assert table == 16 << 15  # 20,000 deals, at most three quarters full: 2**15 slots
    # At its peak, growing from 2**14 to 2**15 slots, both tables are held, no more.
    assert peak < table * 1.5 + (1 << 20), (peak, table)
