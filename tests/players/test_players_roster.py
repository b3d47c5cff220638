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
