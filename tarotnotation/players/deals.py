"""Whole deals played by bots, from the auction on, one after another as at a table.

:func:`bot_deals` deals ``count`` deals in turn (the deal passes to the right: each
dealer's right-hand neighbour deals the next one) and has bots play each from the first
bid to the last card. A deal where every player passes is annulled (docs/rules.md §3): its
record says so (``result: annulled``) and the next deal is dealt, as at a table.

>>> import random
>>> from tarotnotation.players import make
>>> from tarotnotation.replay import replay
>>> recs = list(bot_deals(random.Random(1), 4, make("heuristic"), count=3))
>>> [r.dealer for r in recs], all(replay(r).ok for r in recs)
(['W', 'S', 'E'], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from ..game import Game
from ..records import DEFAULT_SEATS, DealRecord
from ..rules import Ruleset
from .protocol import Player
from .table import Table, play_deal

__all__ = ["bot_deals", "play_game"]


def play_game(game: Game, players: Mapping[str, Player]) -> DealRecord:
    """``game`` played to its end by ``players`` (a bot per seat); the finished deal's
    record (an annulled one when every player passes)."""
    return play_deal(Table(game), players)


def bot_deals(rng: random.Random, players: int, bot: Player, *, count: int = 1,
              ruleset: Ruleset | None = None) -> Iterator[DealRecord]:
    """``count`` deals shuffled from ``rng``, each played by ``bot`` at every seat, the
    deal passing to the right from one to the next (see the module)."""
    seats = DEFAULT_SEATS[players]
    rules: Ruleset | str = ruleset if ruleset is not None else "fft"
    for i in range(count):
        dealer = seats[(i - 1) % players]
        game = Game.deal(players, seed=rng, dealer=dealer, rules=rules)
        yield play_game(game, dict.fromkeys(game.seats, bot))
