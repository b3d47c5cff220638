"""Deals a seat cannot tell apart: the cards it has not seen dealt to the other hands
(and to a chien or écart lying face down) consistently with everything it has seen.

:func:`constraints` reads a :class:`~.view.SeatView` once into :class:`Constraints`:
the *bins* (each other seat's hand, and :data:`ASIDE` for the cards face down: a chien
not shown, another taker's écart), each bin's size, and for each card to place the bins
it may lie in. What a seat has seen says:

- **hand sizes**: each seat holds the cards it was dealt less those it played (until the
  écart is made, the chien lies aside: the hands are as dealt);
- **the play**: a card played shows what its player did not hold then, nor since (the
  kernel's :func:`~tarotnotation.kernel.rule_in` decides: a card ``x`` is excluded when
  holding ``x`` beside the card played would have made that card illegal). So a seat
  that did not follow holds none of the suit led; one that did not trump when it had to
  holds no trump; one that played under when it had to overtrump holds no higher trump;
  at five players a first lead in the called suit shows a hand of that suit only. The
  Excuse, always legal, shows nothing;
- **the chien shown** went to the taker: its cards not played lie in his hand or in his
  écart; the écart holds no King and no bout, and no trump but those shown with it
  (:func:`~tarotnotation.kernel.ecart_plain`);
- **poignées declared**: their cards not played are in the declarer's hand; one shown
  with the Excuse leaves no other trump in it
  (:func:`~tarotnotation.kernel.poignee_hidden_trumps`);
- **the called card** at five players: its holder is the taker's partner. A seat knows
  the holder only when it is that seat, or once the card is played or seen in the chien
  (then the card is placed already); otherwise it may lie in any other hand (the taker's
  too, who then plays alone), and the sampled deal says who the partner is.

The method (:func:`sample_deal`): the cards are placed one at a time, the most
constrained first (fewest bins; ties in a random order), each in one of its bins drawn
with a probability proportional to the places left there. Dealing cards that may go
anywhere this way is exactly uniform; the constraints bias it (a card with few bins is
placed without regard to how many ways the others can then be placed). A fill that
reaches a card with no place left starts again (at most :data:`RETRIES` times); past
that, a deal is found by augmenting paths (a matching of cards to places, in a random
order), which always succeeds when the view is consistent. The deal found is then
mixed: :data:`SWEEPS` steps a card of a Markov chain whose law at rest is uniform over
the consistent deals (a few cards drawn at random move round between their bins when
each may), which takes the fill's bias away as far as counting on small cases can tell
(``docs/bots.md``). The fill and the mixing run in the compiled module when it is built
(``csrc/sampling.h``: the same draws from the same ``rng``, so the same deals).

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import view_of
>>> from tarotnotation.players.view import decision_rng
>>> g = Game.deal(4, seed=7)
>>> v = view_of(g, "S")
>>> deal = sample_deal(v, decision_rng(1, v, "sample"))
>>> deal.hands["S"] == v.hand, sorted(len(h) for h in deal.hands.values()), len(deal.aside)
(True, [18, 18, 18, 18], 6)
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from types import ModuleType
from typing import Final, Literal

from .. import kernel, native
from ..cards import ALL_MASK, EXCUSE_BIT, TRUMP_MASK, Card, CardSet
from ..game import Phase
from ..records import Poignee
from ..rules import FivePlayerFirstLead, table
from .view import SeatView

__all__ = ["ASIDE", "RETRIES", "SWEEPS", "Constraints", "Engine", "SampledDeal", "constraints",
           "sample_deal", "sample_deals"]

#: The bin of the cards lying face down (a chien not shown, another seat's écart).
ASIDE: Final = ""
#: The fills started again before the matching is used.
RETRIES: Final = 50
#: The swaps that mix a fill, per card placed (see :func:`sample_deal`).
SWEEPS: Final = 10
#: Where :func:`sample_deal` runs its loops: the compiled module or Python.
Engine = Literal["c", "python"]


@dataclass(frozen=True, slots=True)
class SampledDeal:
    """One deal the seat cannot tell from the real one: every seat's hand now (its own as
    it is) and the cards lying aside (the chien or the écart, as the seat knows them or
    as sampled; empty while the taker holds the chien to make his écart)."""

    hands: Mapping[str, CardSet]
    aside: CardSet


@dataclass(frozen=True, slots=True)
class Constraints:
    """What a view says of where the cards it has not seen lie (see the module).

    ``bins`` are seat ids and :data:`ASIDE`; ``sizes`` how many cards each bin holds;
    ``allowed[card]`` a bitmask over ``bins`` (bit ``i`` for ``bins[i]``) for each card to
    place; ``hands`` the cards known to lie in each seat's hand (the seat's own hand, and
    nothing else: every other card is placed), ``aside`` the cards known to lie aside.
    """

    bins: tuple[str, ...]
    sizes: tuple[int, ...]
    allowed: Mapping[int, int]
    hands: Mapping[str, CardSet]
    aside: CardSet

    def feasible_bins(self, card: int) -> tuple[str, ...]:
        """The bins ``card`` may lie in."""
        mask = self.allowed[card]
        return tuple(b for i, b in enumerate(self.bins) if mask >> i & 1)


def _played_by(view: SeatView) -> dict[str, int]:
    out = dict.fromkeys(view.seats, 0)
    for t in (*view.tricks, *((view.trick,) if view.trick is not None else ())):
        for i, c in enumerate(t.cards):
            out[t.seat_of(i, view.seats)] |= 1 << c
    return out


def _excluded_by_play(view: SeatView) -> dict[str, int]:
    """For each seat, the cards the play shows it does not hold (see the module)."""
    out = dict.fromkeys(view.seats, 0)
    first_lead = (view.players == 5 and view.called is not None
                  and view.rules.five_player_first_lead is not FivePlayerFirstLead.FREE)
    tricks = (*view.tricks, *((view.trick,) if view.trick is not None else ()))
    for number, t in enumerate(tricks):
        for i, card in enumerate(t.cards):
            led, top = kernel.trick_state(t.cards[:i])
            called = int(view.called) if first_lead and number == 0 and i == 0 \
                and view.called is not None else None
            seat = t.seat_of(i, view.seats)
            alone = 1 << card
            if not kernel.rule_in(alone, led, top, called)[0] & alone:
                continue  # (cannot happen for a legal card)
            for x in range(78):
                if x != card and not kernel.rule_in(alone | 1 << x, led, top,
                                                    called)[0] & alone:
                    out[seat] |= 1 << x
    return out


def constraints(view: SeatView) -> Constraints:
    """Where the cards ``view``'s seat has not seen may lie (see the module). Raises
    ValueError for a view no deal fits (the sizes do not add up)."""
    seats = view.seats
    n = view.players
    tab = table(n)
    played = _played_by(view)
    phase = view.phase
    contract = view.contract
    taker = view.taker
    me = view.seat
    before_ecart = phase in (Phase.AUCTION, Phase.CALL, Phase.ECART)
    hands = {me: view.hand}
    aside = CardSet()
    pool = view.unseen.bits
    aside_bin = False
    ecart_bin = False
    chien_to_place = 0
    if before_ecart or contract is None:
        if view.chien is None:
            aside_bin = True
        else:
            aside = view.chien
    elif contract.takes_chien:
        if me == taker:
            aside = view.ecart if view.ecart is not None else CardSet()
        else:
            aside_bin = ecart_bin = True
            assert view.chien is not None
            chien_to_place = view.chien.bits & ~view.played.bits
    else:
        aside_bin = True
    others = tuple(s for s in seats if s != me)
    bins = (*others, *((ASIDE,) if aside_bin else ()))
    sizes = []
    for s in others:
        sizes.append(tab.tricks - played[s].bit_count())
    if aside_bin:
        sizes.append(tab.chien)
    pool |= chien_to_place
    if sum(sizes) != pool.bit_count():
        raise ValueError(f"the view of {me} does not add up: {pool.bit_count()} cards to"
                         f" place in {sum(sizes)} places")
    everywhere = (1 << len(bins)) - 1
    allowed = dict.fromkeys((int(c) for c in CardSet(pool)), everywhere)
    bit = {b: 1 << i for i, b in enumerate(bins)}

    def only(cards: int, mask: int) -> None:
        for c in CardSet(cards & pool):
            allowed[c] &= mask

    excluded = _excluded_by_play(view)
    for s in others:
        only(excluded[s], everywhere & ~bit[s])
    if chien_to_place and taker is not None:
        only(chien_to_place, bit[taker] | bit.get(ASIDE, 0))
    if ecart_bin:
        ecart_ok = kernel.ecart_plain(ALL_MASK) | view.ecart_shown.bits
        only(ALL_MASK & ~ecart_ok, everywhere & ~bit[ASIDE])
        only(view.ecart_shown.bits, bit[ASIDE])
    for d in view.declarations:
        if isinstance(d, Poignee) and d.cards is not None and d.seat in bit:
            shown = d.cards.bits
            only(shown, bit[d.seat])
            if kernel.poignee_hidden_trumps(TRUMP_MASK | EXCUSE_BIT, shown):
                only(TRUMP_MASK & ~shown, everywhere & ~bit[d.seat])
    return Constraints(bins=bins, sizes=tuple(sizes), allowed=allowed, hands=hands,
                       aside=aside)


def _fill(cons: Constraints, rng: random.Random, twin: ModuleType | None
          ) -> dict[int, int] | None:
    """One constraint-ordered fill: each card's bin (in the order of ``cons.allowed``), or
    None at a dead end. A card's bin is drawn as :meth:`random.Random.choices` draws with
    integer weights (the places left): the first cumulated weight above ``random() *
    total``, one draw a card."""
    cards = list(cons.allowed)
    if twin is not None:
        bins = twin.sample_fill([cons.allowed[c] for c in cards], cons.sizes, rng.random)
        return None if bins is None else dict(zip(cards, bins, strict=True))
    left = list(cons.sizes)
    out: dict[int, int] = {}
    order = sorted(cards, key=lambda c: (cons.allowed[c].bit_count(), rng.random()))
    for c in order:
        mask = cons.allowed[c]
        choices = [i for i in range(len(left)) if mask >> i & 1 and left[i]]
        if not choices:
            return None
        cum = list(accumulate(left[j] for j in choices))
        i = choices[bisect_right(cum, rng.random() * cum[-1], 0, len(cum) - 1)]
        left[i] -= 1
        out[c] = i
    return {c: out[c] for c in cards}  # (in the cards' order, as the compiled fill's)


def _mix(cons: Constraints, where: dict[int, int], rng: random.Random,
         twin: ModuleType | None) -> None:
    """:data:`SWEEPS` times as many steps as there are cards of a Markov chain whose
    law at rest is uniform over the consistent deals: ``k`` cards drawn at random (``k``
    from 2 to the number of bins), in ``k`` different bins, move round, each to the next
    one's bin, when each may lie there. The proposal is symmetric (the same cards drawn
    in the reverse order move them back), and accepted whenever the deal stays
    consistent. Rounds of more than two cards are needed: a card that may lie in two
    bins only can leave one for the other only as a third card leaves that one."""
    cards = sorted(where)
    allowed = cons.allowed
    most = min(len(cons.bins), len(cards))
    if most < 2 or len(set(allowed.values())) == 1:
        return  # (with no card bound, the fill is uniform already)
    n = len(cards)
    if twin is not None:
        moved = twin.sample_mix([allowed[c] for c in cards], [where[c] for c in cards], most,
                                SWEEPS * n, rng.random)
        where.update(zip(cards, moved, strict=True))
        return
    rnd = rng.random
    for _ in range(SWEEPS * n):
        group = [cards[int(rnd() * n)] for _ in range(2 + int(rnd() * (most - 1)))]
        bins = [where[c] for c in group]
        if len(set(bins)) != len(bins):
            continue  # (cards in different bins are different cards)
        moved = bins[1:] + bins[:1]
        if all(allowed[c] >> b & 1 for c, b in zip(group, moved, strict=True)):
            for c, b in zip(group, moved, strict=True):
                where[c] = b


def _match(cons: Constraints, rng: random.Random) -> dict[int, int]:
    """A deal by augmenting paths (each card matched to a place of one of its bins)."""
    places = [i for i, size in enumerate(cons.sizes) for _ in range(size)]
    holder: list[int | None] = [None] * len(places)
    cards = list(cons.allowed)
    rng.shuffle(cards)

    def place(c: int, seen: set[int]) -> bool:
        mask = cons.allowed[c]
        for p, b in enumerate(places):
            if mask >> b & 1 and p not in seen:
                seen.add(p)
                other = holder[p]
                if other is None or place(other, seen):
                    holder[p] = c
                    return True
        return False

    for c in cards:
        if not place(c, set()):
            raise ValueError(f"no deal fits the view: {Card(c).code} has no place left")
    return {c: places[p] for p, c in enumerate(holder) if c is not None}


def sample_deal(view: SeatView, rng: random.Random, *, cons: Constraints | None = None,
                retries: int = RETRIES, engine: Engine | None = None) -> SampledDeal:
    """A deal consistent with everything ``view``'s seat has seen, drawn from ``rng``
    (see the module for the method). ``cons`` is the view's :func:`constraints`, when
    already read; ``retries`` the fills tried before the matching (0: the matching
    alone). ``engine``: ``"c"`` runs the fill and the mixing in the compiled module
    (``tarotnotation._kernel``), ``"python"`` in Python, None (the default) the compiled
    one when built and ``TAROT_PURE`` is not set; both draw the same numbers from
    ``rng`` in the same order, so a seed gives the same deal either way. Raises
    ValueError for a view no deal fits."""
    if cons is None:
        cons = constraints(view)
    twin = _engine(engine)
    where: dict[int, int] | None = None
    for _ in range(retries):
        where = _fill(cons, rng, twin)
        if where is not None:
            break
    if where is None:
        where = _match(cons, rng)
    _mix(cons, where, rng, twin)
    bins = [0] * len(cons.bins)
    for c, i in where.items():
        bins[i] |= 1 << c
    hands = dict(cons.hands)
    aside = cons.aside
    for b, cards in zip(cons.bins, bins, strict=True):
        if b == ASIDE:
            aside = CardSet(cards)
        else:
            hands[b] = CardSet(cards)
    return SampledDeal(hands={s: hands[s] for s in view.seats}, aside=aside)


def _engine(engine: Engine | None) -> ModuleType | None:
    """The compiled module ``sample_deal``'s ``engine`` asks for, or None (Python)."""
    if engine not in (None, "c", "python"):
        raise ValueError(f"engine is 'c', 'python' or None, not {engine!r}")
    if engine == "python":
        return None
    twin = native.compiled(force=engine == "c")
    if twin is None and engine == "c":
        raise RuntimeError("the compiled module tarotnotation._kernel is not built")
    return twin


def sample_deals(view: SeatView, count: int, rng: random.Random) -> tuple[SampledDeal, ...]:
    """``count`` deals drawn one after another from ``rng`` (:func:`sample_deal`)."""
    cons = constraints(view)
    return tuple(sample_deal(view, rng, cons=cons) for _ in range(count))
