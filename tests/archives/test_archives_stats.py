"""``tarot stats``: the figures against a plain count over the replays, by player, seat and
contract; unreadable deals never counted; memory that does not grow with the deals."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from archive_builders import generated, write_jsonl, write_tarot
from cli_runs import EXAMPLES, FAULTY, invoke, rel

from tarotnotation.archive import expand_paths, read_path
from tarotnotation.archives.stats import Stats
from tarotnotation.archives.stream import scan
from tarotnotation.replay import replay


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_jsonl(tmp_path_factory.mktemp("stats") / "season.jsonl",
                       generated(120, seed=21))


def _stats(paths: list[Path], by: str = "player") -> Stats:
    tally = Stats(by)
    for deal in scan(paths):
        if deal.summary is not None:
            tally.add(deal.summary)
    return tally


def test_per_player_figures_agree_with_the_replays(archive: Path) -> None:
    records = generated(120, seed=21)
    deals: Counter[str] = Counter()
    takers: Counter[str] = Counter()
    made: Counter[str] = Counter()
    total: Counter[str] = Counter()
    margins: dict[str, list[int]] = {}
    for record in records:
        r = replay(record)
        assert r.score is not None
        assert r.scores is not None
        assert r.taker is not None
        names = {s.id: s.name or s.id for s in record.seats}
        for seat, value in r.scores.items():
            deals[names[seat]] += 1
            total[names[seat]] += value
        taker = names[r.taker]
        takers[taker] += 1
        made[taker] += r.score.made
        margins.setdefault(taker, []).append(r.score.margin if r.score.made
                                             else -r.score.margin)
    rows = {row["key"]: row for row in _stats([archive]).rows()}
    assert set(rows) == set(deals)
    for name, row in rows.items():
        assert row["deals"] == deals[name]
        assert row["taker"] == takers[name]
        assert row["made"] == made[name]
        assert row["total_score"] == total[name]
        assert row["take_rate"] == round(100 * takers[name] / deals[name], 1)
        if margins.get(name):
            assert row["average_margin"] == round(sum(margins[name]) / len(margins[name]), 2)
    assert sum(row["total_score"] for row in rows.values()) == 0


def test_archive_figures(archive: Path) -> None:
    records = generated(120, seed=21)
    replays = [replay(r) for r in records]
    a = _stats([archive]).archive()
    assert a["deals"] == 120
    for contract, figures in a["contracts"].items():
        taken = [r for r in replays if r.contract is not None
                 and r.contract.keyword == contract]
        assert figures["deals"] == len(taken)
        assert figures["made"] == sum(1 for r in taken if r.score and r.score.made)
    assert a["half_point_deals"] == sum(1 for r in replays if (r.taker_half or 0) % 2)
    assert a["petits_au_bout"]["taker"] + a["petits_au_bout"]["defence"] == sum(
        1 for r in replays if r.petit_au_bout is not None)
    assert sum(a["poignees"].values()) == sum(len(r.poignees) for r in replays)
    assert a["codes"] == {}


def test_by_seat_and_by_contract(archive: Path) -> None:
    seats = {row["key"]: row for row in _stats([archive], "seat").rows()}
    assert set(seats) == {"S", "E", "N", "W"}
    assert all(row["deals"] == 120 for row in seats.values())
    assert sum(row["taker"] for row in seats.values()) == 120
    contracts = list(_stats([archive], "contract").rows())
    assert sum(row["deals"] for row in contracts) == 120
    assert [row["key"] for row in contracts] == sorted(
        (row["key"] for row in contracts),
        key=["prise", "garde", "garde_sans", "garde_contre"].index)


def test_unreadable_deals_are_reported_never_counted() -> None:
    ran = invoke("stats", rel(FAULTY), "--format", "json")
    assert ran.code == 1
    assert "S003 error" in ran.err
    data = json.loads(ran.out)
    readable = sum(1 for d in scan([FAULTY]) if d.ok)
    assert data["archive"]["deals"] == readable
    assert data["archive"]["unreadable"] == 1
    assert data["archive"]["codes"]["P105"] == 1
    assert invoke("stats", rel(FAULTY), "--strict").code == 1


def test_deals_without_names_are_counted_by_seat_with_a_note(tmp_path: Path) -> None:
    records = [r.model_copy(update={"seats": tuple(s.model_copy(update={"name": None})
                                                   for s in r.seats)})
               for r in generated(6, seed=3)]
    path = write_tarot(tmp_path / "anonymous.tarot", records)
    ran = invoke("stats", str(path))
    assert ran.code == 0
    keys = {row.split()[0] for row in ran.out.split("\n\n")[1].splitlines()[1:]}
    assert keys == {"S", "E", "N", "W"}
    assert "note: 6 deals name no player for some seats" in ran.out


def test_the_text_and_csv_reports(archive: Path) -> None:
    ran = invoke("stats", str(archive))
    assert ran.code == 0
    assert ran.out.startswith("120 deals counted (4 players: 120)")
    assert "contracts: prise" in ran.out
    table = ran.out.split("\n\n")[1].splitlines()
    assert table[0].split()[:4] == ["player", "deals", "taker", "take%"]
    rows = list(csv.DictReader(io.StringIO(invoke("stats", str(archive), "-f", "csv").out)))
    assert {row["key"] for row in rows} == {row["key"] for row in _stats([archive]).rows()}
    assert sum(int(row["total_score"]) for row in rows) == 0


@pytest.mark.parametrize("by", ["player", "seat", "contract"])
def test_the_csv_report_by_anything_has_its_header_and_a_row_a_key(archive: Path,
                                                                  by: str) -> None:
    ran = invoke("stats", str(archive), "--by", by, "-f", "csv")
    assert ran.code == 0, ran
    rows = list(csv.DictReader(io.StringIO(ran.out)))
    assert {row["key"] for row in rows} == {row["key"] for row in _stats([archive], by).rows()}
    assert sum(int(row["deals"]) for row in rows) == 120 * (1 if by == "contract" else 4)


@pytest.mark.process
def test_parallel_stats_are_the_same(archive: Path) -> None:
    one = invoke("stats", str(archive), "-f", "json")
    two = invoke("stats", str(archive), "-f", "json", "-j", "2")
    assert one.out == two.out


def test_memory_does_not_grow_with_the_deals(archive: Path) -> None:
    import tracemalloc

    summaries = [d.summary for d in scan([archive])]
    tally = Stats()
    tracemalloc.start()
    try:
        for s in summaries:
            assert s is not None
            tally.add(s)
        after_one, _ = tracemalloc.get_traced_memory()
        for _ in range(10):
            for s in summaries:
                assert s is not None
                tally.add(s)
        after_eleven, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tally.deals == 11 * 120
    # Ten times the deals, and nothing more held than a few ints grown larger.
    assert after_eleven - after_one < 4096, (after_one, after_eleven)


def test_names_are_made_safe_for_the_terminal(tmp_path: Path) -> None:
    [record] = generated(1, seed=9)
    evil = record.model_copy(update={"seats": tuple(
        s.model_copy(update={"name": "Eve\x1b]0;pwned\x07"}) if i == 0 else s
        for i, s in enumerate(record.seats))})
    path = write_tarot(tmp_path / "evil.tarot", [evil])
    ran = invoke("stats", str(path))
    assert "\x1b" not in ran.out
    assert "\x07" not in ran.out
    assert "Eve\\x1b]0;pwned\\x07" in ran.out
    ran = invoke("stats", str(path), "-f", "csv")
    assert "\x1b" not in ran.out


def test_stats_on_the_examples() -> None:
    # the deals the readers give a record (the examples hold score sheets too)
    items = [item for path in expand_paths([rel(EXAMPLES)]) for item in read_path(path)]
    readable = sum(1 for item in items if item.record is not None)
    assert 0 < readable < len(items)  # the faulty examples hold an unreadable deal
    ran = invoke("stats", rel(EXAMPLES), "--by", "contract")
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert lines[0].startswith(f"{readable} deals counted")
    rows = [line.split() for line in lines if line.split()[:1] in (
        ["prise"], ["garde"], ["garde_sans"], ["garde_contre"]) and "%" in line]
    assert sum(int(row[1]) for row in rows) == readable
    assert f"note: {len(items) - readable} deal could not be read" in ran.out
