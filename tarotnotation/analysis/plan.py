"""What the analysis of a deal searches next, and with what share of its node budget.

:func:`~tarotnotation.analysis.analyse.analyse_play` narrows the value of many positions
of one deal: the position before and after each card played and, for ``all_cards``, the
position after each other legal card. Each is an :class:`Item` with bounds
``lo <= value <= hi``, tied to its neighbours by what the rules of the search say of
them (:class:`Link`): after a card of the taker's camp the value can only have fallen
(``before >= after``), after a card of the defence only risen, after a forced card it is
the same; a position whose every legal card is an item is worth the best of them.
:func:`propagate` carries every bound along those ties.

What to search next (the driver is :func:`~tarotnotation.analysis.analyse.analyse_play`):

1. the outcome of each position of the play that the bounds leave open
   (:func:`outcome_open`: one null-window test at 0, the margin's sign, decides it), the
   latest first;
2. each card whose cost is not :func:`known` within the precision, the costliest first
   (:func:`cost_order`), narrowed by tests in the wider of its two positions at the value
   the other suggests (:func:`cost_probe`);
3. with ``all_cards``, each other legal card's cost, likewise.

>>> a = Item(0, None, True, 0, -10, 10)
>>> b = Item(1, None, False, 1, 4, 4)
>>> propagate([a, b], [Link(0, 1, MAX)], [])
>>> (a.lo, a.hi), (b.lo, b.hi)
((4, 10), (4, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .search import CoreTuple

__all__ = ["EQUAL", "FIRST_CAP", "LEAST_CAP", "MAX", "MIN", "Family", "Item", "Link", "Step",
           "TestResult", "apply", "cost_bounds", "cost_order", "cost_probe", "known",
           "outcome_open", "propagate", "settled"]

#: The kinds of :class:`Link`: the first position is worth at least the second (a card of
#: the taker's camp was played between them), at most (the defence's), or the same
#: (a forced card).
MAX: Final = 1
MIN: Final = 2
EQUAL: Final = 3

#: The first round's cap on a test, in nodes; it doubles while tests reach it.
FIRST_CAP: Final = 1 << 17
#: No test is started with fewer nodes than this.
LEAST_CAP: Final = 4096


@dataclass(slots=True)
class Item:
    """A position whose value the analysis narrows: ``lo <= value <= hi``."""

    key: int
    """Its index in the list of items."""
    pt: CoreTuple | None
    """The position as the search cores take it (None: the deal is over)."""
    maxing: bool
    """True when the taker's camp is to play."""
    order: int
    """The items are searched from the highest order down (the later positions first:
    their table entries serve the earlier ones)."""
    lo: int
    hi: int
    best_lo: int | None = None
    """The card that proved ``lo`` (when the taker's camp is to play)."""
    best_hi: int | None = None
    """The card that proved ``hi`` (when the defence is to play)."""
    played: bool = True
    """A position of the play as recorded (else the position after another legal
    card)."""

    @property
    def width(self) -> int:
        """``hi - lo``: 0 when the value is exact."""
        return self.hi - self.lo

    @property
    def best(self) -> int | None:
        """A card that keeps the proved bound, for the camp to play."""
        return self.best_lo if self.maxing else self.best_hi


@dataclass(frozen=True, slots=True)
class Link:
    """A card between two positions: ``before`` and ``after`` items, and what the rules
    say of their values (:data:`MAX`, :data:`MIN` or :data:`EQUAL`)."""

    before: int
    after: int
    kind: int


@dataclass(frozen=True, slots=True)
class Family:
    """A position and the positions after each of its legal cards (all items): its
    value is the best of theirs for the camp to play."""

    parent: int
    children: tuple[int, ...]
    maxing: bool


@dataclass(frozen=True, slots=True)
class TestResult:
    """What a test found: ``g >= beta`` proves value >= g, ``g < beta`` value <= g (when
    ``complete``); ``move`` the card that proved it at the root (-1: none)."""

    key: int
    beta: int
    g: int
    move: int
    nodes: int
    complete: bool


def cost_bounds(before: Item, after: Item, taker: bool) -> tuple[int, int]:
    """The least and most a card cost its camp, in half-points, from the bounds of the
    positions before and after it (``taker``: a card of the taker's camp).

    >>> cost_bounds(Item(0, None, True, 0, 4, 6), Item(1, None, True, 0, 0, 2), True)
    (2, 6)
    """
    if taker:
        lo, hi = before.lo - after.hi, before.hi - after.lo
    else:
        lo, hi = after.lo - before.hi, after.hi - before.lo
    return max(lo, 0), max(hi, 0)


def propagate(items: Sequence[Item], links: Sequence[Link], families: Sequence[Family]
              ) -> None:
    """Carry every bound along the links and families until nothing moves. Raises
    RuntimeError when bounds cross (a bug: every bound is a proof)."""
    changed = True
    while changed:
        changed = False
        for link in links:
            a, b = items[link.before], items[link.after]
            if link.kind != MIN:  # before >= after
                if b.lo > a.lo:
                    a.lo, changed = b.lo, True
                if a.hi < b.hi:
                    b.hi, changed = a.hi, True
            if link.kind != MAX:  # before <= after
                if b.hi < a.hi:
                    a.hi, changed = b.hi, True
                if a.lo > b.lo:
                    b.lo, changed = a.lo, True
        for fam in families:
            p = items[fam.parent]
            kids = [items[k] for k in fam.children]
            if fam.maxing:
                lo, hi = max(k.lo for k in kids), max(k.hi for k in kids)
            else:
                lo, hi = min(k.lo for k in kids), min(k.hi for k in kids)
            if lo > p.lo:
                p.lo, changed = lo, True
            if hi < p.hi:
                p.hi, changed = hi, True
    for item in items:
        if item.lo > item.hi:
            raise RuntimeError(f"the analysis's bounds crossed ({item.lo} > {item.hi}): a bug")


def apply(items: Sequence[Item], result: TestResult) -> None:
    """Narrow an item's bounds by a test's result (a complete one only)."""
    if not result.complete:
        return
    item = items[result.key]
    move = result.move if result.move >= 0 else None
    if result.g >= result.beta:
        if result.g > item.lo:
            item.lo = result.g
            item.best_lo = move
    elif result.g < item.hi:
        item.hi = result.g
        item.best_hi = move


@dataclass(frozen=True, slots=True)
class Step:
    """A card whose cost the analysis narrows: the items before and after it."""

    before: int
    after: int
    taker: bool
    """Played by the taker's camp."""
    played: bool = True
    """A card of the play (else another legal card, for ``all_cards``)."""


def known(lo: int, hi: int, precision: int) -> bool:
    """Whether a cost's bounds (half-points) tell it well enough: within ``precision``,
    and whether it cost anything at all (a best card is never shown as maybe costly).

    >>> known(0, 0, 2), known(4, 6, 2), known(0, 2, 2), known(4, 8, 2)
    (True, True, False, False)
    """
    return hi - lo <= precision and (lo > 0 or hi == 0)


def settled(items: Sequence[Item], step: Step, precision: int) -> bool:
    """A card whose cost is :func:`known` within ``precision`` half-points and, for a
    card of the play, whose outcome before and after is decided (the outcome is the
    play's: another legal card is settled by its cost alone)."""
    a, b = items[step.before], items[step.after]
    return (known(*cost_bounds(a, b, step.taker), precision)
            and (not step.played or ((a.lo >= 0 or a.hi < 0) and (b.lo >= 0 or b.hi < 0))))


def outcome_open(items: Sequence[Item]) -> list[Item]:
    """The positions of the play whose outcome the bounds leave open (the margin's sign:
    one test at 0 decides it), the latest first."""
    return sorted((i for i in items if i.played and i.lo < 0 <= i.hi), key=lambda i: -i.order)


def cost_order(items: Sequence[Item], steps: Sequence[Step], precision: int) -> list[Step]:
    """The cards whose cost is not known within ``precision`` half-points, the played
    cards first, then the costliest (by the least they can have cost, then the most),
    then the latest."""
    out = []
    for step in steps:
        lo, hi = cost_bounds(items[step.before], items[step.after], step.taker)
        if not known(lo, hi, precision):
            out.append(((0 if step.played else 1, -lo, -hi, -items[step.after].order), step))
    out.sort(key=lambda w: w[0])
    return [step for _, step in out]


def cost_probe(items: Sequence[Item], step: Step, precision: int) -> tuple[Item, int] | None:
    """The test that narrows a card's cost next (None once it is known within
    ``precision``): in the wider of its two positions, at the value the other suggests
    (the middle of its bounds) when that lies within the first's, else just above what
    the first is known to be worth.

    >>> a, b = Item(0, None, True, 0, 0, 8), Item(1, None, False, 1, 4, 4)
    >>> probe = cost_probe([a, b], Step(0, 1, True), 0)
    >>> probe[0].key, probe[1]
    (0, 4)
    >>> a.lo = 4
    >>> cost_probe([a, b], Step(0, 1, True), 0)[1]
    5
    """
    a, b = items[step.before], items[step.after]
    if known(*cost_bounds(a, b, step.taker), precision):
        return None
    wider, other = (a, b) if a.width > b.width else (b, a)
    mid = (other.lo + other.hi + 1) // 2
    mid = min(max(mid, wider.lo), wider.hi)
    return wider, (mid if mid > wider.lo else wider.lo + 1)
