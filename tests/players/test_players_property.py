"""Every action of every bot is legal: whole deals at 3, 4 and 5 players, under any
ruleset, the seats shared out among the bots at random, replay clean (the table refuses
any answer the rules forbid, so a bot's illegal answer fails here with the rule's words).
Every bot of the roster takes seats, ``pimc`` and ``oracle`` at tiny budgets. CI plays 100
such deals, the quick lane 20, and ``TAROT_SLOW=1`` the issue's 10,000."""

from __future__ import annotations

from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import player_counts, rulesets, seeds

from tarotnotation.game import Game
from tarotnotation.players import NAMES, Table, make, play_deal
from tarotnotation.replay import replay
from tarotnotation.rules import Ruleset

#: The searching bots at small budgets (their play is tested in test_players_pimc.py; here
#: only that every answer is legal): pimc draws two deals a decision, keeps the one whose
#: play the heuristic's habits explain best (its default at four players draws forty)
#: and searches 500 nodes, the oracle 1,000 (two samples of 2,000 nodes and 5,000 took
#: half as much CPU again: 10 s -> 6.4 s for CI's 100 deals).
SMALL = {"pimc": {"samples": 1, "nodes": 500, "habits": 2}, "oracle": {"nodes": 1000}}


@settings(max_examples=cases(100, slow=10_000), deadline=None)
@given(seed=seeds(), players=player_counts(), rules=rulesets(), data=st.data())
def test_every_bot_plays_only_legal_actions(seed: int, players: int, rules: Ruleset,
                                            data: st.DataObject) -> None:
    t = Table(Game.deal(players, seed=seed, rules=rules))
    names = {s: data.draw(st.sampled_from(NAMES)) for s in t.game.seats}
    bots = {s: make(n, seed=seed, **SMALL.get(n, {})) for s, n in names.items()}
    record = play_deal(t, bots)
    r = replay(record)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert t.pending() is None
