"""The bots by name (players/roster.py): ``players.make`` and ``players.NAMES``."""

from __future__ import annotations

import pytest

from tarotnotation import players
from tarotnotation.game import Game
from tarotnotation.i18n import render
from tarotnotation.players import NAMES, HeuristicPlayer, Player, RandomPlayer, make
from tarotnotation.players.roster import FACTORIES


def test_every_name_makes_a_player_of_that_name() -> None:
    assert NAMES == ("random", "heuristic", "pimc", "oracle")
    for name in NAMES:
        bot = make(name, seed=4)
        assert isinstance(bot, Player)
        assert bot.name.split("(")[0] == name
        assert bot.sees_all is (name == "oracle")
    assert "oracle" not in players.OPPONENTS
    assert isinstance(make("random", seed=4), RandomPlayer)
    assert make("random", seed=4) == RandomPlayer(seed=4)
    assert isinstance(make("heuristic"), HeuristicPlayer)


def test_a_bot_from_the_roster_plays_a_whole_deal() -> None:
    t = players.Table(Game.deal(5, seed=3))
    small = {"pimc": {"samples": 2, "nodes": 2000}, "oracle": {"nodes": 5000}}
    players.play_deal(t, {s: make(name, **small.get(name, {}))
                          for s, name in zip(t.game.seats, NAMES * 3, strict=False)})
    assert t.game.result().ok


def test_an_unknown_bot_or_setting_is_refused_in_both_languages() -> None:
    with pytest.raises(ValueError,
                       match="no bot is called 'nope': expected random, heuristic, pimc or") as e:
        make("nope")
    assert render(e.value.args[0], "fr").startswith("aucun robot ne s'appelle «\u00a0nope")
    with pytest.raises(ValueError, match="the bot heuristic has no setting depth"):
        make("heuristic", depth=3)


def test_the_roster_is_a_dict_a_new_bot_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(FACTORIES, "lazy", RandomPlayer)
    assert make("lazy", seed=1) == RandomPlayer(seed=1)


#: A value other than the default for every setting a spec can give (``seed`` is the
#: match's, ``fallback`` and ``thresholds`` are not whole numbers).
_CHANGED = {
    "random": {},
    "heuristic": {"signals": 0, "petit_au_bout": 0, "misere": 0, "bid_shift": -1},
    "pimc": {"samples": 7, "nodes": 999, "exact_tricks": 3, "test_share": 40,
             "fallback_tricks": 1, "auction": 7, "habits": 77, "score": 1, "bid_shift": -1},
    "oracle": {"nodes": 999, "exact_tricks": 3, "score": 1, "bid_shift": -1},
}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_setting_that_is_not_its_default_shows_in_the_name(players: int) -> None:
    """Two specs of one name play alike (a benchmark reuses a match by its bots' names):
    each setting, given another value than its default, changes the name, and the list
    above holds every setting a bot has."""
    from dataclasses import fields

    from tarotnotation.players.roster import name_at

    for bot, changed in _CHANGED.items():
        kinds = {f.name for f in fields(FACTORIES[bot])} - {  # type: ignore[arg-type]
            "seed", "sees_all", "fallback", "thresholds", "name"}
        assert kinds == set(changed), bot
        plain = name_at(bot, players)
        for key, value in changed.items():
            assert name_at(f"{bot}:{key}={value}", players) != plain, (bot, key)
