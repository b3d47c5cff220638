"""The decisions a searching bot leaves to another player: :class:`FallbackDecisions`.

The ``pimc`` and ``oracle`` bots search the card play only; the bid, the call, the écart,
the chelem and the declarations are their ``fallback`` player's (the ``heuristic`` bot with
the same seed unless another is given), the heuristic's bidding thresholds shifted by the
bot's ``bid_shift_at`` (docs/bots.md, "pimc's bidding"). This base holds that delegation
once.
"""

from __future__ import annotations

from dataclasses import replace

from ..cards import Card, CardSet
from ..records import Misere, Poignee
from ..rules import Contract
from .heuristic import HeuristicPlayer
from .protocol import Player
from .view import SeatView

__all__ = ["FallbackDecisions"]


class FallbackDecisions:
    """Every question but the card to play, answered by ``self.fallback`` (a subclass is
    a dataclass with ``seed`` and ``fallback`` fields and calls :meth:`_set_fallback` in
    its ``__post_init__``)."""

    __slots__ = ()
    seed: int
    fallback: Player | None

    def _set_fallback(self) -> None:
        """The heuristic bot with this bot's seed, when no fallback was given."""
        if self.fallback is None:
            object.__setattr__(self, "fallback", HeuristicPlayer(seed=self.seed))

    def _check_bid_shift(self, shift: int | None) -> None:
        """ValueError when ``shift`` (a bot's ``bid_shift`` setting) is set and the
        fallback given is not the ``heuristic`` bot, whose thresholds it shifts."""
        if shift and self.fallback is not None and not isinstance(self.fallback,
                                                                  HeuristicPlayer):
            raise ValueError("bid_shift shifts the heuristic fallback's thresholds; this"
                             " fallback has none")

    def bid_shift_at(self, players: int) -> int:
        """The points added to a ``heuristic`` fallback's thresholds at ``players``
        players (0 here; a subclass with a ``bid_shift`` setting says its own)."""
        return 0

    def shift_applied(self, players: int) -> int:
        """The shift the bids are made with at ``players`` players: :meth:`bid_shift_at`
        with a ``heuristic`` fallback, 0 with another (it has no thresholds)."""
        return self.bid_shift_at(players) if isinstance(self.fallback, HeuristicPlayer) else 0

    @property
    def _fallback(self) -> Player:
        assert self.fallback is not None  # (set by _set_fallback)
        return self.fallback

    def bid(self, view: SeatView, legal: tuple[Contract | None, ...]) -> Contract | None:
        fallback = self._fallback
        shift = self.shift_applied(view.players)
        if shift and isinstance(fallback, HeuristicPlayer):
            fallback = replace(fallback, bid_shift=fallback.bid_shift + shift)
        return fallback.bid(view, legal)

    def call(self, view: SeatView, legal: tuple[Card, ...]) -> Card:
        return self._fallback.call(view, legal)

    def ecart(self, view: SeatView, pool: CardSet, size: int) -> CardSet:
        return self._fallback.ecart(view, pool, size)

    def chelem(self, view: SeatView) -> bool:
        return self._fallback.chelem(view)

    def declare(self, view: SeatView) -> tuple[Poignee | Misere, ...]:
        return self._fallback.declare(view)
