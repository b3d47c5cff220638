"""The ``oracle`` bot: it sees every hand and plays the solver's best card.

:class:`OraclePlayer` says ``sees_all = True``, so the table shows it every hand (the
view's ``open_hands``); for each card it rates its legal cards in the real deal as the
``pimc`` bot rates them in one sampled deal (:func:`~.solving.card_values`: exact in the
last ``exact_tricks`` tricks, else within ``nodes`` nodes, 200,000 by default: a
yes/no test at the threshold, then the value; ``docs/bots.md`` gives its CPU time) and
plays the best, ties broken by the seed. Its bid, call, écart and declarations are the
``fallback`` player's.

It is the ceiling the fair bots are measured against in a match, never an opponent in a
game a person plays: it cheats by design (the table lets it because its player says so).

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import Table, play_deal
>>> t = Table(Game.deal(4, seed=3))
>>> play_deal(t, {s: OraclePlayer(seed=1, nodes=5000) for s in t.game.seats}).result is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..cards import Card, CardSet
from .fallback import FallbackDecisions
from .pimc import DEFAULT_EXACT_TRICKS, best_of
from .protocol import Player
from .solving import card_values, position_of
from .view import SeatView

__all__ = ["ORACLE_NODES", "OraclePlayer"]

#: The oracle's node budget a card by default: set by the benchmark's CPU budget (0.019
#: CPU seconds a card on average, 3 hours for its 576,000 cards; docs/bots.md).
ORACLE_NODES: Final = 200_000


@dataclass(frozen=True, slots=True)
class OraclePlayer(FallbackDecisions):
    """Plays the solver's best card with every hand open (see the module)."""

    seed: int = 0
    nodes: int = ORACLE_NODES
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    fallback: Player | None = None
    """The bids', call's, écart's and declarations' player (None: the ``heuristic`` bot
    with this bot's seed)."""
    score: int = 0
    """1: rate the cards by the deal's score (as ``pimc``'s ``score``); 0, the default:
    by the margin and the contract."""
    bid_shift: int = 0
    """Added to a ``heuristic`` fallback's bidding thresholds (as ``pimc``'s; 0, the
    default: the oracle bids as the heuristic does)."""
    sees_all: bool = True

    def __post_init__(self) -> None:
        self._check_bid_shift(self.bid_shift)
        self._set_fallback()
        if self.score not in (0, 1):
            raise ValueError(f"score is 0 (the margin) or 1 (the deal's score), not {self.score}")

    @property
    def name(self) -> str:
        """``oracle(nodes=N)``, and each other setting that is not its default: two
        oracles of one name play alike.

        >>> OraclePlayer(score=1).name, OraclePlayer(bid_shift=-3).name
        ('oracle(nodes=200000,score=1)', 'oracle(nodes=200000,bid_shift=-3)')
        >>> OraclePlayer(exact_tricks=2).name
        'oracle(nodes=200000,exact_tricks=2)'
        """
        more = "".join(f",{key}={value}" for key, value, default in (
            ("exact_tricks", self.exact_tricks, DEFAULT_EXACT_TRICKS), ("score", self.score, 0),
            ("bid_shift", self.bid_shift, 0)) if value != default)
        return f"oracle(nodes={self.nodes}{more})"

    def bid_shift_at(self, players: int) -> int:
        """``bid_shift``, at any number of players."""
        return self.bid_shift

    def play(self, view: SeatView, legal: CardSet) -> Card:
        cards = sorted(legal)
        if len(cards) == 1:
            return cards[0]
        if view.open_hands is None:
            raise ValueError("the oracle is shown every hand: ask it through a Table")
        hands = dict(view.open_hands)
        held = CardSet()
        for h in hands.values():
            held = held | h
        pos = position_of(view, hands, CardSet.all() - held - view.played)
        totals = {r.card: r.rating for r in card_values(
            pos, nodes=self.nodes, exact_tricks=self.exact_tricks,
            objective="score" if self.score else "margin") if r.card in legal}
        return best_of(totals, self.seed, view)
