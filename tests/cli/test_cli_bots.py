"""``tarot new --bots`` (whole deals played by bots, auction included) and ``tarot match``
(a duplicate match between two bots)."""

from __future__ import annotations

import itertools
from pathlib import Path

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
    assert "no bot is called 'nobody': expected random or heuristic" in ran.err
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
