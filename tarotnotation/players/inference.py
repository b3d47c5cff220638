"""What the auction and the play say of the hands: the bids read as the point count bids
them, the cards as the habits of the ``heuristic`` bot play them.

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
(``pimc:auction=30``, its default at four players): the samples it solves are then the
deals its opponents' words make likely, not every deal the play allows
(``docs/bots.md`` gives what it gains).

The play says more. :func:`play_misfit` rebuilds, in a sampled deal, each other seat's
view before each card it played (its hand then, what it knew of the partner, the
declarations made so far) and counts the cards a model player (the ``heuristic`` bot: the
habits club players teach) would not have played there; :func:`most_likely` keeps, of
several deals drawn, those the model explains best. The ``pimc`` bot reads the play so
with its ``habits`` setting (``pimc:auction=30,habits=40``: forty deals drawn, the ten the
habits explain best solved: its default at four players).

Both readings are exact for the ``heuristic`` bot; a ``pimc`` seat bids with the
heuristic's thresholds shifted (its ``bid_shift``), so its words are read a few points
high; a person bids and plays otherwise now
and then, and a deal that fits no range or no card is still drawn (the best fitting of the
tries), so a reading that is wrong only weighs the samples, it never makes one impossible.

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

import heapq
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Final

from .. import kernel
from ..cards import CardSet
from ..records import ChelemAnnouncement
from ..rules import Contract, FivePlayerFirstLead
from .heuristic import THRESHOLDS, HeuristicPlayer, hand_points
from .protocol import Player
from .sampling import Constraints, SampledDeal, constraints, sample_deal
from .view import SeatView, SeenTrick

__all__ = ["ANY", "auction_ranges", "dealt_hand", "misfit", "most_likely", "play_misfit",
           "sample_fitting"]

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


def _holder(view: SeatView, deal: SampledDeal, dealt: Mapping[str, int]) -> str | None:
    """The taker's partner in ``deal`` at five players (the holder of the called card;
    None when it lies aside or in the taker's hand)."""
    if view.called is None:
        return None
    holder = next((s for s, bits in dealt.items() if bits >> int(view.called) & 1), None)
    return None if holder == view.taker else holder


def play_misfit(view: SeatView, deal: SampledDeal, model: Player | None = None,
                bound: int | None = None) -> int:
    """How many of the cards the other seats played ``model`` (the ``heuristic`` bot by
    default) would not have played in their place had the hands been those of ``deal``:
    each seat's view before each of its cards rebuilt from the deal (its hand then, the
    écart for the taker, the partner as it knew it at five players, the declarations
    made so far); a card played with no choice is not counted. Counting stops past
    ``bound``."""
    miss = 0
    for missed in _misses(view, deal, model or HeuristicPlayer()):
        miss += missed
        if bound is not None and miss > bound:
            break
    return miss


def _misses(view: SeatView, deal: SampledDeal, model: Player) -> Iterator[bool]:
    """For each card with a choice the other seats played, from the last one back,
    whether ``model`` would not have played it in ``deal`` (see :func:`play_misfit`)."""
    seats = view.seats
    tricks = (*view.tricks, *((view.trick,) if view.trick is not None else ()))
    dealt = {s: dealt_hand(view, deal, s).bits for s in seats}
    dealt[view.seat] = view.dealt.bits
    taker_takes = (view.chien is not None and view.contract is not None
                   and view.contract.takes_chien)
    held = dict(dealt)
    if taker_takes and view.taker is not None and view.chien is not None:
        held[view.taker] = (held[view.taker] | view.chien.bits) & ~deal.aside.bits
    holder = _holder(view, deal, dealt) if view.players == 5 else None
    first_card: dict[str, int] = {}
    moment = 0
    for t in tricks:
        for i in range(len(t.cards)):
            first_card.setdefault(t.seat_of(i, seats), moment)
            moment += 1
    called = int(view.called) if view.called is not None else None
    called_seen = view.chien is not None and called is not None and view.chien.bits >> called & 1
    # (the first lead at five players bound by the called card, as the rules say: as
    # players.sampling reads it)
    first_lead = (called if view.players == 5 and view.rules.five_player_first_lead
                  is not FivePlayerFirstLead.FREE else None)
    # Each other seat's choices, worked out in order of play (its hand then, whether the
    # called card was seen), then judged from the last: a deal the play does not fit
    # usually shows it in the last tricks, where the views say most, so a count that
    # stops past a bound stops sooner (a whole count is the same in any order).
    choices = []
    moment = 0
    for number, t in enumerate(tricks):
        for i, card in enumerate(t.cards):
            seat = t.seat_of(i, seats)
            if seat != view.seat:
                hand = held[seat]
                led, top = kernel.trick_state([int(c) for c in t.cards[:i]])
                first = first_lead if number == 0 and i == 0 else None
                legal = kernel.rule_in(hand, led, top, first)[0]
                if legal & (legal - 1):
                    choices.append((number, i, moment, seat, hand, legal, int(card),
                                    bool(called_seen)))
            held[seat] &= ~(1 << int(card))
            if called is not None and int(card) == called:
                called_seen = True
            moment += 1
    for number, i, moment, seat, hand, legal, card, seen in reversed(choices):
        past = _past_view(view, deal, seat, hand, dealt[seat], tricks, number, i, moment,
                          first_card, holder, seen)
        yield int(model.play(past, CardSet(legal))) != card


def _past_view(view: SeatView, deal: SampledDeal, seat: str, hand: int, dealt: int,
               tricks: Sequence[SeenTrick], number: int, index: int, moment: int,
               first_card: Mapping[str, int], holder: str | None,
               called_seen: bool) -> SeatView:
    """``seat``'s view before the ``index``-th card of trick ``number`` had the deal been
    ``deal`` (see :func:`play_misfit`)."""
    partner, known = view.partner, view.partner_known
    if view.players == 5:
        if view.called is not None and (dealt >> int(view.called) & 1 or called_seen):
            partner, known = holder, True
        elif view.called is not None:
            partner, known = None, False
    declarations = tuple(d for d in view.declarations if isinstance(d, ChelemAnnouncement)
                         or first_card.get(d.seat, moment + 1) <= moment)
    ecart = deal.aside if (seat == view.taker and view.chien is not None) else None
    t = tricks[number]
    return replace(view, seat=seat, dealt=CardSet(dealt), hand=CardSet(hand), ecart=ecart,
                   partner=partner, partner_known=known, declarations=declarations,
                   tricks=tuple(tricks[:number]), trick=SeenTrick(t.leader, t.cards[:index]),
                   open_hands=None)


def most_likely(view: SeatView, deals: Sequence[SampledDeal], keep: int,
                model: Player | None = None) -> list[SampledDeal]:
    """The ``keep`` deals of ``deals`` whose play ``model`` explains best
    (:func:`play_misfit`: fewest cards it would not have played), in the order drawn
    among equals.

    The deals are judged best first: the one with the fewest misses found so far (the
    first drawn among equals) is judged on, to its next miss or its end; a deal judged to
    its end while no other has fewer misses so far is kept. A deal's misses so far never
    exceed its count, so the deals are kept in the order of their whole counts, and a
    deal is judged only as far as it takes to tell it from those kept.

    >>> from tarotnotation.game import Game
    >>> from tarotnotation.players import Table, make
    >>> from tarotnotation.players.sampling import sample_deals
    >>> t = Table(Game.deal(4, seed=5))
    >>> while t.game.phase.name != "PLAY" or len(t.game.cards_played) < 30:
    ...     _ = t.ask(make("heuristic"))
    >>> v = t.view(t.game.turn)
    >>> deals = sample_deals(v, 12, random.Random(1))
    >>> counts = sorted((play_misfit(v, d), j) for j, d in enumerate(deals))
    >>> most_likely(v, deals, 4) == [deals[j] for _, j in counts[:4]]
    True
    """
    if keep < 0:
        raise ValueError(f"keep is 0 or more, not {keep}")
    model = model or HeuristicPlayer()
    judged = [_misses(view, deal, model) for deal in deals]
    heap = [(0, j) for j in range(len(deals))]
    kept: list[SampledDeal] = []
    while heap and len(kept) < keep:
        miss, j = heap[0]
        if any(judged[j]):
            heapq.heapreplace(heap, (miss + 1, j))
        else:
            heapq.heappop(heap)
            kept.append(deals[j])
    return kept
