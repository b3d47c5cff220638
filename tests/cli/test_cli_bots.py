"""``tarot new --bots`` (whole deals played by bots, auction included) and ``tarot match``
(a duplicate match between two bots)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from cli_runs import invoke

from tarotnotation import notation
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay


def _records(text: str) -> list[DealRecord]:
    out = []
    for deal in notation.reads(text):
        assert deal.ok, deal.diagnostics
        assert deal.record is not None
        out.append(deal.record)
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_new_bots_writes_deals_played_from_the_auction_that_validate(
        tmp_path: Path, players: int, bot: str) -> None:
    out = tmp_path / "bots.tarot"
    ran = invoke("new", "--bots", bot, "--players", str(players), "--seed", "3", "-n", "12",
                 "-o", str(out))
    assert ran.code == 0, ran.err
    records = _records(out.read_text(encoding="utf-8"))
    assert len(records) == 12
    assert [dict(r.tags)["Deal"] for r in records] == [str(i) for i in range(1, 13)]
    for r in records:
        assert r.auction  # (the auction is played, not drawn)
        assert replay(r).ok
    ran = invoke("validate", str(out))
    assert ran.code == 0, ran.out


def test_new_bots_writes_an_annulled_deal_and_deals_the_next() -> None:
    text = invoke("new", "--bots", "heuristic", "--seed", "1", "-n", "20").out
    records = _records(text)
    annulled = [r for r in records if r.result is not None and r.result.annulled]
    assert annulled, "seed 1 gives a deal where everyone passes"
    for r in annulled:
        assert all(b.contract is None for b in r.auction)
        assert not r.play
    assert len(records) == 20
    # the deal passes to the right: each dealer's right-hand neighbour deals next
    seats = ("S", "E", "N", "W")
    dealers = [r.dealer for r in records]
    assert dealers[:5] == ["W", "S", "E", "N", "W"]
    assert all(seats.index(b) == (seats.index(a) + 1) % 4
               for a, b in itertools.pairwise(dealers))


def test_new_bots_is_the_same_for_the_same_seed() -> None:
    a = invoke("new", "--bots", "heuristic", "--seed", "8", "-n", "3", "--rules", "pagat").out
    assert a == invoke("new", "--bots", "heuristic", "--seed", "8", "-n", "3", "--rules",
                       "pagat").out
    assert '[Ruleset "pagat"]' in a


def test_new_bots_refuses_an_unknown_bot_and_the_daily_deal() -> None:
    ran = invoke("new", "--bots", "nobody")
    assert ran.code == 2
    assert "no bot is called 'nobody': expected random, heuristic, pimc or oracle" in ran.err
    ran = invoke("--lang", "fr", "new", "--bots", "nobody")
    assert "aucun robot ne s'appelle" in ran.err
    ran = invoke("new", "--daily", "--bots", "heuristic")
    assert ran.code == 2
    assert "--bots cannot be used with --daily" in ran.err


def test_new_without_bots_is_unchanged() -> None:
    # the random deals of `tarot new` stay what they were (the same bytes for a seed)
    text = invoke("new", "--seed", "5", "-n", "2").out
    records = _records(text)
    assert [dict(r.tags)["Deal"] for r in records] == ["1", "2"]


def _json(*args: str) -> dict[str, Any]:
    ran = invoke("match", *args, "--format", "json")
    assert ran.code == 0, ran.err
    data: dict[str, Any] = json.loads(ran.out)
    return data


def test_match_reports_the_mean_interval_wins_and_bids() -> None:
    data = _json("heuristic", "random", "--deals", "6", "--players", "3", "--seed", "2")
    assert data["a"]["name"] == "heuristic"
    assert data["b"]["name"] == "random"
    assert data["deals"] == 6
    assert data["tables"] == 6
    assert data["won"] + data["lost"] + data["even"] == 6
    low, high = data["interval"]
    assert low <= data["mean"] <= high
    for bot in (data["a"], data["b"]):
        assert 0 <= bot["made"] <= bot["taken"]
    text = invoke("match", "heuristic", "random", "--deals", "6", "--players", "3", "--seed",
                  "2").out
    assert text.splitlines()[0] == ("heuristic against random: 6 deals at 3 players (seed 2,"
                                    " rules fft), each at 6 tables")
    assert "95% interval" in text
    assert f"A heuristic: contracts taken {data['a']['taken']}, made {data['a']['made']}" in text


def test_match_of_a_bot_against_itself_is_even() -> None:
    data = _json("heuristic", "heuristic", "--deals", "3")
    assert data["mean"] == 0
    assert data["even"] == 3
    assert data["a"] == data["b"]


def test_match_results_are_the_duplicate_differences() -> None:
    # The result of a deal is, by zero sum, A's total over its 2n tables: played here
    # table by table, it is the same.
    from tarotnotation.players import Table, make, play_deal
    from tarotnotation.players.match import MatchSpec, deal_game, play_duplicate, tables

    spec = MatchSpec("heuristic", "random", players=4, seed=5)
    total = 0
    for seating in tables(4):
        game = deal_game(spec, 1)
        bots = {"A": make("heuristic", seed=5), "B": make("random", seed=5)}
        record = play_deal(Table(game), {s: bots[w] for s, w in zip(game.seats, seating,
                                                                     strict=True)})
        scores = replay(record).scores or {}
        total += sum(scores[s] for s, w in zip(game.seats, seating, strict=True) if w == "A")
    assert play_duplicate(spec, 1).result == total


@pytest.mark.process
def test_match_output_is_the_same_for_any_jobs() -> None:
    args = ("heuristic", "random", "--deals", "5", "--players", "3", "--seed", "4")
    one = invoke("match", *args)
    assert one.code == 0
    assert invoke("match", *args, "--jobs", "2").out == one.out
    assert _json(*args, "--jobs", "2") == _json(*args)


def test_match_saves_records_that_validate_clean(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    ran = invoke("match", "heuristic", "random", "--deals", "3", "--players", "4",
                 "--save", str(folder))
    assert ran.code == 0, ran.err
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["deal-1.tarot", "deal-2.tarot", "deal-3.tarot"]
    records = _records(files[0].read_text(encoding="utf-8"))
    assert len(records) == 8
    assert [dict(r.tags)["Table"] for r in records] == [str(i) for i in range(1, 9)]
    assert [s.name for s in records[0].seats] == ["heuristic", "random", "random", "random"]
    assert len({str(r.hands) for r in records}) == 1  # (the same cards at every table)
    ran = invoke("validate", str(folder))
    assert ran.code == 0, ran.out
    # no error; a warning only for a deal where every player passed (annulled: A105)
    assert "24 deals read from 3 files: 24 valid, 0 with errors" in ran.out
    assert {line.split()[1] for line in ran.out.splitlines()[:-1]} <= {"A105"}


def test_match_counts_makeable_contracts(tmp_path: Path) -> None:
    data = _json("random", "heuristic", "--deals", "1", "--players", "3", "--makeable",
                 "--nodes", "300000")
    for bot in (data["a"], data["b"]):
        assert bot["makeable"] + bot["unknown"] <= bot["taken"]
        assert bot["nodes"] == 300_000
    assert data["a"]["taken"] > 0
    # random's contracts (Gardes Contre drawn at random) are mostly hopeless: the solver
    # says so within a small budget
    assert data["a"]["unknown"] < data["a"]["taken"]


def test_match_usage_errors_exit_two(tmp_path: Path) -> None:
    ran = invoke("match", "heuristic", "nobody")
    assert ran.code == 2
    assert ran.err == ("tarot: no bot is called 'nobody': expected random, heuristic, pimc"
                       " or oracle\n")
    afile = tmp_path / "file"
    afile.write_text("x")
    ran = invoke("match", "heuristic", "random", "--save", str(afile))
    assert ran.code == 2
    assert "not a folder" in ran.err
    assert afile.read_text() == "x"
    ran = invoke("match", "heuristic", "random", "--players", "6")
    assert ran.code == 2
    ran = invoke("--lang", "fr", "match", "heuristic", "random", "--deals", "2")
    assert "heuristic contre random\u00a0: 2 donnes à 4 joueurs" in ran.out
