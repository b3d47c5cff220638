"""What the auction says of the hands: the bids read as the point count bids them.

A seat that bids by the point count club players teach (the ``heuristic`` bot's
:func:`~.heuristic.hand_points` against :data:`~.heuristic.THRESHOLDS`, the highest
contract its points reach when that contract is still open) says with each word a range of
points of its hand as dealt:

- a bid of a contract: at least that contract's threshold, under the next one's;
- a pass: under the threshold of the lowest contract still open (any hand passes once a
  Garde Contre is bid).

:func:`auction_ranges` reads these ranges from a view; :func:`misfit` says how far the
hands of a sampled deal lie outside them (0: the deal fits the auction); and
:func:`sample_fitting` draws deals consistent with the view (:func:`~.sampling.sample_deal`)
until one fits the auction, at most ``tries`` of them, else keeps the one that fits it
best. The ``pimc`` bot reads the auction so when its ``auction`` setting is on
(``pimc:auction=30``): the samples it solves are then the deals its opponents' words make
likely, not every deal the play allows (``docs/bots.md`` gives what it gains).

The reading is exact for the ``heuristic`` bot; a person bids otherwise now and then, and a
deal that fits no range is still drawn (the best fitting of the tries), so a reading that is
wrong only weighs the samples, it never makes one impossible.

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import Table, make
>>> t = Table(Game.deal(4, seed=3))
>>> while t.game.phase.name == "AUCTION":
...     _ = t.ask(make("heuristic"))
>>> ranges = auction_ranges(t.view("S"))
>>> sorted(ranges) == sorted(s for s in t.game.seats if s != "S")
True
>>> all(lo <= hand_points(t.game.dealt[s]) < hi for s, (lo, hi) in ranges.items())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final

from ..cards import CardSet
from ..rules import Contract
from .heuristic import THRESHOLDS, hand_points
from .sampling import Constraints, SampledDeal, constraints, sample_deal
from .view import SeatView

__all__ = ["ANY", "auction_ranges", "dealt_hand", "misfit", "sample_fitting"]

#: The bound of a range that says nothing on that side.
ANY: Final = 10**6


def auction_ranges(view: SeatView, thresholds: tuple[int, int, int, int] | None = None
                   ) -> dict[str, tuple[int, int]]:
    """Each other seat that spoke, and the range ``[low, high)`` of the points of its hand
    as dealt (:func:`~.heuristic.hand_points`) its words say, read with ``thresholds``
    (Prise, Garde, Garde Sans, Garde Contre; the ``heuristic`` bot's for the number of
    players by default)."""
    n = view.players
    bars = (*(thresholds or THRESHOLDS[n]), ANY)
    levels = list(Contract)
    seats = view.seats
    first = seats.index(view.first_seat)
    out: dict[str, tuple[int, int]] = {}
    highest = 0  # (the level of the highest bid so far: 0 before any)
    for i, bid in enumerate(view.auction):
        seat = seats[(first + i) % n]
        if bid is None:
            low, high = -ANY, bars[highest]
        else:
            level = levels.index(bid) + 1
            low, high = bars[level - 1], bars[level]
            highest = max(highest, level)
        if seat != view.seat:
            out[seat] = (low, high)
    return out


def dealt_hand(view: SeatView, deal: SampledDeal, seat: str) -> CardSet:
    """``seat``'s hand as dealt in ``deal``: its hand now and the cards it played; the
    taker's with the chien shown taken out and the écart (``deal.aside``) put back."""
    bits = deal.hands[seat].bits
    for t in (*view.tricks, *((view.trick,) if view.trick is not None else ())):
        for i, c in enumerate(t.cards):
            if t.seat_of(i, view.seats) == seat:
                bits |= 1 << c
    if (seat == view.taker and view.chien is not None and view.contract is not None
            and view.contract.takes_chien):
        bits = (bits | deal.aside.bits) & ~view.chien.bits
    return CardSet(bits)


def misfit(view: SeatView, deal: SampledDeal,
           ranges: Mapping[str, tuple[int, int]]) -> int:
    """How many points the hands of ``deal`` lie outside ``ranges`` in all (0: the deal
    fits the auction)."""
    out = 0
    for seat, (low, high) in ranges.items():
        points = hand_points(dealt_hand(view, deal, seat))
        out += max(0, low - points) + max(0, points - (high - 1))
    return out


def sample_fitting(view: SeatView, rng: random.Random, *, tries: int,
                   cons: Constraints | None = None,
                   ranges: Mapping[str, tuple[int, int]] | None = None) -> SampledDeal:
    """A deal consistent with ``view`` (:func:`~.sampling.sample_deal`) that fits the
    auction: the first of at most ``tries`` draws whose :func:`misfit` is 0, else the
    first of those that fit it best. ``cons`` and ``ranges``: the view's
    :func:`~.sampling.constraints` and :func:`auction_ranges`, when already read."""
    if cons is None:
        cons = constraints(view)
    if ranges is None:
        ranges = auction_ranges(view)
    best: tuple[int, SampledDeal] | None = None
    for _ in range(max(1, tries)):
        deal = sample_deal(view, rng, cons=cons)
        off = misfit(view, deal, ranges)
        if off == 0:
            return deal
        if best is None or off < best[0]:
            best = (off, deal)
    assert best is not None
    return best[1]
