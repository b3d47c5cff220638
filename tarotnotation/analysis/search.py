"""The double-dummy search: the value of a position with every hand open, and best play.

Two cores answer the same question, "is the value at least ``beta``?" (a fail-soft
null-window alpha-beta search, :meth:`PythonSearch.test`): the compiled one
(``tarotnotation._kernel.Search``, ``tarotnotation/csrc/search.h``) and its pure-Python
twin :class:`PythonSearch`, which runs on the rules kernel's
:class:`~tarotnotation.kernel.PlayState`. :class:`Solver` drives either: MTD(f) for exact
values (each test narrows ``lower <= value <= upper`` until they meet), a single test for
a yes/no question, the best card and the best line, and every legal card's value. Time
and node limits end a search with the bounds reached, marked inexact.

Both cores share the design (see ``docs/analysis.md``):

- **values**: a leaf table gives the value of the deal's end from the taker's camp's
  half-points and bouts (the cards aside included), petit au bout's camp and the
  chelem's: the *margin* (``kernel.margin``: points minus the threshold the bouts set,
  made when >= 0) or, for ``objective="score"``, the taker's score for the deal
  (``scoring.score``, bonuses included). The taker's camp maximises it, the defence
  minimises it;
- **transposition table** at trick boundaries, bounded in size, keyed by the hands, who
  leads, the bouts the taker's camp has won and whether each camp has won a trick yet
  (the chelem rules); for the margin, values are stored relative to the half-points
  already won (the margin is additive in them), so one entry serves every history that
  reaches the same cards with the same bouts; for the score, the half-points won are in
  the key;
- **equivalent cards**: of the legal cards of one suit, adjacent among the cards still
  out (or in the trick) with the same points, only one is tried; cards that lose the
  trick need only be adjacent among the cards in the hands (the trick's cards leave with
  it);
- **move ordering**: the table's best lead, then what the card does to the trick (a lead:
  a plain card sure to win it; win it, feed a partner's trick, discard cheaply), then
  the history of cut-offs;
- **quick bounds** from the points still out: each camp's gain lies between nothing and
  all of them; the Excuse stays with its holder's camp when it can still be played before
  the last trick; at a trick boundary, a camp's master trumps (above every trump of the
  other camp) each win a trick for it, one trick per card of a seat, with at least a
  card of every seat in it (unless the Excuse led to the last trick by a camp that won
  every trick could beat the only one), and a leader with as many master trumps as the
  other camp's longest trump holding draws all its trumps, then wins a trick with each
  of its trumps and plain masters, when its partners cannot take the lead from it;
  within a trick (but the last), the master trumps of the later tricks, and the trick
  itself when no seat of the other camp still to play can beat its winning card (its
  cards and one card at least of each seat still to play go to that camp).

>>> from tarotnotation.analysis.position import Position
>>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7")
>>> sol = Solver(pos).solve(pos)
>>> sol.value, sol.exact, Card(sol.best).code, sol.taker_half, sol.taker_bouts
(62, True, 'KH', 144, 2)
"""

from __future__ import annotations

import array
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Protocol

from .. import native
from ..cards import BOUTS_MASK, EXCUSE_BIT, SUIT_MASKS, TRUMP_MASK, Card, card_points
from ..kernel import (
    NO_SUIT,
    TAKER,
    TRUMPS_LED,
    PlayState,
    chelem_camp,
    margin,
    suit_of,
    unplayed_camp,
    winner_index,
)
from ..rules import Camp
from ..scoring import DealFacts, score
from .position import Position

__all__ = [
    "DEFAULT_TABLE_MB",
    "MAX_TABLE_MB",
    "CardValue",
    "Objective",
    "PythonSearch",
    "Solution",
    "Solver",
    "leaf_table",
]

#: The transposition table's default size, in MiB (``table_mb``).
DEFAULT_TABLE_MB: Final = 64.0
#: The largest table, in MiB: what the compiled core accepts (csrc/_kernel.c, Search);
#: the command line's ``--table-mb`` is bounded by it.
MAX_TABLE_MB: Final = 65536.0
_INF: Final = 30000
_LEAF_SIZE: Final = 183 * 4 * 3 * 3
_EXCUSE: Final = int(Card.EXCUSE)
_PETIT: Final = int(Card.T1)
_T21: Final = int(Card.T21)
_CARD_POINTS: Final = tuple(card_points(1 << c) for c in range(78))


class Objective(StrEnum):
    """What the taker's camp maximises and the defence minimises."""

    MARGIN = "margin"
    """The taker's camp's card points minus the threshold its bouts set (half-points)."""
    SCORE = "score"
    """The taker's score for the deal, bonuses included (petit au bout, chelem…)."""


def _leaf_index(half: int, bouts: int, petit: int, chelem: int) -> int:
    return ((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1


def _camp(value: int) -> Camp | None:
    return None if value < 0 else (Camp.TAKER if value == TAKER else Camp.DEFENCE)


def leaf_table(pos: Position, objective: Objective) -> array.array[int]:
    """The value of every end of the deal of ``pos``: ``table[_leaf_index(half, bouts,
    petit, chelem)]`` for the taker's camp's final half-points (0-182) and bouts (0-3),
    petit au bout's camp and the chelem's (-1 none, 0 taker's, 1 defence). A copy of a
    table built once for the same facts."""
    if objective is Objective.MARGIN:
        facts: tuple[object, ...] = (objective,)
    else:
        facts = (objective, pos.players, pos.taker, pos.contract, pos.partner, pos.poignees,
                 pos.chelem_announced, pos.miseres)
    return array.array("i", _leaf_table(facts, pos))


_LEAF_CACHE: dict[tuple[object, ...], array.array[int]] = {}


def _leaf_table(facts: tuple[object, ...], pos: Position) -> array.array[int]:
    cached = _LEAF_CACHE.get(facts)
    if cached is not None:
        return cached
    if len(_LEAF_CACHE) >= 256:
        _LEAF_CACHE.clear()
    objective = facts[0]
    out = array.array("i", bytes(4 * _LEAF_SIZE))
    # The score depends on the points and bouts through the margin only.
    by_margin: dict[tuple[int, int, int], int] = {}
    for half in range(183):
        for bouts in range(4):
            base = margin(half, bouts)
            for petit in (-1, 0, 1):
                for chelem in (-1, 0, 1):
                    if objective is Objective.MARGIN:
                        value = base
                    elif (base, petit, chelem) in by_margin:
                        value = by_margin[base, petit, chelem]
                    else:
                        deal = DealFacts(
                            players=pos.players, taker=pos.taker, contract=pos.contract,
                            taker_half=half, bouts=bouts, partner=pos.partner,
                            petit_au_bout=_camp(petit), poignees=pos.poignees,
                            chelem_announced=pos.chelem_announced, chelem=_camp(chelem),
                            miseres=pos.miseres)
                        value = score(deal).seats[pos.taker]
                        by_margin[base, petit, chelem] = value
                    out[_leaf_index(half, bouts, petit, chelem)] = value
    _LEAF_CACHE[facts] = out
    return out


# --- the pure-Python core -----------------------------------------------------------------

#: A position as the cores take it: (hands, leader, trick, trick_number, half, bouts,
#: tricks_won, previous), the taker's camp's half-points and bouts so far (its tricks).
CoreTuple = tuple[Sequence[int], int, Sequence[int], int, int, int, tuple[int, int],
                  Sequence[int]]


class Core(Protocol):
    """What :class:`Solver` asks of a search core (the compiled one and
    :class:`PythonSearch`)."""

    def test(self, position: CoreTuple, beta: int, node_limit: int = 0,
             time_limit: float = 0.0) -> tuple[int, int, int, bool]: ...

    def bounds(self, position: CoreTuple) -> tuple[int, int]: ...

    def next_generation(self) -> None: ...

    def stats(self) -> dict[str, int]: ...


def _merged_into(c: int, trick: Sequence[int], wins: bool, legal: int, live: int,
                 held: int) -> int:
    """The card next to ``c`` that the search tries in its place (``c`` itself when it
    is tried): of the legal cards of one suit with the same points, adjacent among the
    cards still out (or in the trick), only one is tried, the top of the run for a lead
    or a card that wins the trick so far, the lowest for a card that loses it (the
    trick's cards leave with it, so ``held``, the cards in the hands, tells them
    apart). The Excuse is always tried."""
    if c == _EXCUSE:
        return c
    low = 1 << c
    pts = _CARD_POINTS[c]
    if trick and not wins:
        below = held & SUIT_MASKS[suit_of(c)] & (low - 1)
        if below:
            prev = below.bit_length() - 1
            if legal >> prev & 1 and _CARD_POINTS[prev] == pts:
                return prev
    else:
        above = live & SUIT_MASKS[suit_of(c)] & ~((low << 1) - 1)
        if above:
            nxt = (above & -above).bit_length() - 1
            if legal >> nxt & 1 and _CARD_POINTS[nxt] == pts:
                return nxt
    return c


def equivalent_cards(st: PlayState) -> dict[int, int]:
    """Each legal card of the player to move, and the card whose value it has: the one
    the search tries in its place (the same card when it is tried), following each run
    of equivalent cards to its end (``docs/analysis.md``, equivalent cards)."""
    legal = st.legal()
    held = 0
    for h in st.hands:
        held |= h
    live = held
    for c in st.trick:
        live |= 1 << c
    trick = list(st.trick)
    step: dict[int, int] = {}
    for c in range(78):
        if legal >> c & 1:
            wins = bool(trick) and c != _EXCUSE and winner_index([*trick, c]) == len(trick)
            step[c] = _merged_into(c, trick, wins, legal, live, held)
    out: dict[int, int] = {}
    for c in step:
        r = c
        while step[r] != r:
            r = step[r]
        out[c] = r
    return out


class _StopSearchError(Exception):
    """A limit was reached: the test's result is void."""


class PythonSearch:
    """The pure-Python twin of the compiled search core (``csrc/search.h``): the same
    null-window test, bounds, table, card merging and move ordering, over the kernel's
    :class:`PlayState`. ``table_mb`` bounds the table (about 200 bytes an entry)."""

    def __init__(self, deal: Position, leaf: Sequence[int], additive: bool,
                 table_mb: float = DEFAULT_TABLE_MB) -> None:
        self.deal = deal
        self.leaf = list(leaf)
        self.additive = additive
        counts_aside = unplayed_camp(deal.contract) == TAKER
        self.aside_half = card_points(deal.aside) if counts_aside else 0
        self.aside_bouts = (deal.aside & BOUTS_MASK).bit_count() if counts_aside else 0
        self.capacity = max(64, int(table_mb * 1048576 / 200))
        self.table: dict[tuple[object, ...], list[int]] = {}
        self.history = [[0] * 78 for _ in range(deal.players)]
        self.nodes = self.probes = self.hits = self.cuts = self.stores = 0
        self.limit_nodes = 0
        self.deadline = 0.0
        self.state: PlayState = deal.state()
        self.base_half = 0
        self.base_bouts = 0

    # the Core protocol

    def test(self, position: CoreTuple, beta: int, node_limit: int = 0,
             time_limit: float = 0.0) -> tuple[int, int, int, bool]:
        """``(g, best, nodes, complete)``: ``g >= beta`` means value >= g, ``g < beta``
        value <= g; ``best`` the card found best at the root (-1 none)."""
        self._set(position)
        self.limit_nodes = self.nodes + node_limit if node_limit else 0
        self.deadline = time.monotonic() + time_limit if time_limit > 0 else 0.0
        before = self.nodes
        try:
            g, best = self._node(beta, True)
        except _StopSearchError:
            return 0, -1, self.nodes - before, False
        return g, best, self.nodes - before, True

    def bounds(self, position: CoreTuple) -> tuple[int, int]:
        """The quick bounds of a position."""
        self._set(position)
        return self._bounds()

    def next_generation(self) -> None:
        """A new position is searched: halve the history of cut-offs."""
        for row in self.history:
            for c in range(78):
                row[c] >>= 1

    def stats(self) -> dict[str, int]:
        """The search's counters."""
        return {"nodes": self.nodes, "probes": self.probes, "hits": self.hits,
                "cuts": self.cuts, "stores": self.stores, "entries": len(self.table),
                "capacity": self.capacity}

    # the search

    def _set(self, position: CoreTuple) -> None:
        hands, leader, trick, trick_number, half, bouts, won, previous = position
        d = self.deal
        self.state = PlayState(d.rules, hands, d.camps, leader, contract=d.contract,
                               called=d.first_lead_card() if trick_number == 0 else None,
                               trick=trick, trick_number=trick_number, tricks=d.tricks,
                               tricks_won=won, previous=previous)
        self.base_half = half
        self.base_bouts = bouts

    def _half(self) -> int:
        return self.base_half + self.state.half(TAKER)

    def _bouts(self) -> int:
        return self.base_bouts + self.state.bouts(TAKER)

    def _value(self) -> int:
        st = self.state
        return self.leaf[_leaf_index(self._half() + self.aside_half,
                                     self._bouts() + self.aside_bouts, st.petit,
                                     chelem_camp(st.tricks_won[TAKER], st.tricks))]

    def _bounds(self) -> tuple[int, int]:
        st = self.state
        n = st.n
        live = 0
        for h in st.hands:
            live |= h
        in_trick = 0
        for c in st.trick:
            in_trick |= 1 << c
        out = live | in_trick
        points = card_points(out)
        bouts_out = (out & BOUTS_MASK).bit_count()
        sure_half = [0, 0]
        sure_bouts = [0, 0]
        left = st.tricks - st.trick_number
        excuse_camp = -1
        excuse_early = False
        if live & EXCUSE_BIT:
            holder = next(s for s in range(n) if st.hands[s] & EXCUSE_BIT)
            excuse_camp = st.camps[holder]
            offset = (holder - st.leader) % n
            excuse_early = (offset >= len(st.trick) and left >= 2) or left >= 3
            if excuse_early:
                sure_half[excuse_camp] += 8
                sure_bouts[excuse_camp] += 1
        elif in_trick & EXCUSE_BIT:
            excuse_camp = st.excuse_owner
            if left >= 2:
                sure_half[excuse_camp] += 8
                sure_bouts[excuse_camp] += 1
        if not st.trick or left >= 2:
            # master trumps, within a trick too (ts_bounds): the trick decided, the
            # masters a seat still to play may spend on it
            trumps = [0, 0]
            for i in range(n):
                trumps[st.camps[i]] |= st.hands[i] & TRUMP_MASK
            decided = self._trick_decided() if st.trick else -1
            top_trick = [0, 0]
            to_play = 0
            for k in range(len(st.trick)):
                card = st.trick[k]
                camp = st.camps[(st.leader + k) % n]
                if suit_of(card) == 4 and card > top_trick[camp]:
                    top_trick[camp] = card
            if st.trick:
                for k in range(len(st.trick), n):
                    to_play |= 1 << ((st.leader + k) % n)
            for c in (0, 1):
                if not trumps[c]:
                    continue
                other = trumps[1 - c]
                masters = trumps[c] & ~((1 << other.bit_length()) - 1) if other else trumps[c]
                if not masters:
                    continue
                lost = 0
                most = 0
                for i in range(n):
                    if st.camps[i] != c:
                        continue
                    mine = st.hands[i] & masters
                    k = mine.bit_count()
                    if k and to_play >> i & 1 and (
                            st.led in (NO_SUIT, TRUMPS_LED)
                            or not st.hands[i] & SUIT_MASKS[st.led]):
                        # it may trump now: spend a master on this trick
                        top = top_trick[1 - c]
                        if decided == c:
                            k -= 1
                        elif top and (mine & -mine).bit_length() - 1 < top:
                            below = mine & ((2 << top) - 1)
                            lost |= (1 << _PETIT if below >> _PETIT & 1
                                     else 1 << (below.bit_length() - 1))
                            k -= 1
                    most = max(most, k)
                masters &= ~lost
                if (most < 2 and decided != c and excuse_camp == 1 - c
                        and st.rules.chelem_excuse_wins and st.tricks_won[c] == 0):
                    continue
                gain = card_points(masters) - masters.bit_count() + n * most
                bouts = (masters & BOUTS_MASK).bit_count()
                if not st.trick:
                    gain, bouts = self._draw_trumps(c, masters, gain, bouts)
                sure_half[c] += gain
                if excuse_camp == c and live & EXCUSE_BIT and not excuse_early and most > 0:
                    sure_half[c] -= 1
                sure_bouts[c] += bouts
            if decided >= 0:
                won = in_trick & ~EXCUSE_BIT
                sure_half[decided] += (card_points(won) + (1 if in_trick & EXCUSE_BIT else 0)
                                       + n - len(st.trick))
                sure_bouts[decided] += (won & BOUTS_MASK).bit_count()
        elif out >> _T21 & 1:
            if in_trick >> _T21 & 1:
                camp21 = st.camps[(st.leader + st.trick.index(_T21)) % n]
            else:
                camp21 = st.camps[next(s for s in range(n) if st.hands[s] >> _T21 & 1)]
            may_beat = (excuse_camp >= 0 and excuse_camp != camp21
                        and st.rules.chelem_excuse_wins and st.tricks_won[camp21] == 0)
            if not may_beat:
                sure_half[camp21] += 9
                sure_bouts[camp21] += 1
        base_half = self._half() + self.aside_half
        base_bouts = self._bouts() + self.aside_bouts
        half_lo = base_half + sure_half[0]
        half_hi = base_half + points - sure_half[1]
        bouts_lo = base_bouts + sure_bouts[0]
        bouts_hi = base_bouts + bouts_out - sure_bouts[1]
        petit_any = bool(out >> _PETIT & 1) or _PETIT in st.previous
        lo, hi = _INF, -_INF
        for p in (-1, 0, 1):
            if p >= 0 and not petit_any:
                break
            for c in (-1, 0, 1):
                if c >= 0 and st.tricks_won[1 - c] != 0:
                    continue
                a = self.leaf[_leaf_index(half_lo, bouts_lo, p, c)]
                b = self.leaf[_leaf_index(half_hi, bouts_hi, p, c)]
                lo = min(lo, a)
                hi = max(hi, b)
        return lo, hi

    def _trick_decided(self) -> int:
        """The camp a trick begun (not the last) goes to whatever is still played to it,
        or -1 (``ts_trick_decided``): the camp of its winning card so far, when no seat
        of the other camp still to play can beat that card."""
        st = self.state
        w = winner_index(st.trick)
        if w is None or st.trick_number >= st.tricks - 1:
            return -1
        card = st.trick[w]
        x = st.camps[(st.leader + w) % st.n]
        led_suit = SUIT_MASKS[st.led] if st.led < 4 else 0
        trump = suit_of(card) == 4
        higher = (TRUMP_MASK & ~((2 << card) - 1) if trump
                  else led_suit & ~((2 << card) - 1))
        for k in range(len(st.trick), st.n):
            j = (st.leader + k) % st.n
            if st.camps[j] == x:
                continue
            h = st.hands[j]
            if trump:
                if h & higher and not h & led_suit:
                    return -1
            elif h & led_suit:
                if h & higher:
                    return -1
            elif h & TRUMP_MASK:
                return -1
        return x

    def _draw_trumps(self, camp: int, masters: int, gain: int, bouts: int
                     ) -> tuple[int, int]:
        """Drawing trumps (see ``ts_bounds``): the leader of ``camp``, with as many master
        trumps as the other camp's longest trump holding, draws every trump of the other
        camp, then wins a trick with each of its trumps and plain masters in turn. Its
        partners must never take the lead from it: their trumps lie below its own and
        fall while it leads them, and its plain masters are above every other seat's
        cards of their suit."""
        st = self.state
        p = st.leader
        if (st.camps[p] != camp or st.hands[p] & EXCUSE_BIT
                or (st.trick_number == 0 and st.called is not None)):
            return gain, bouts
        mine = st.hands[p]
        my_trumps = mine & TRUMP_MASK
        theirs = 0
        others = 0
        longest = 0
        for i in range(st.n):
            if i == p:
                continue
            others |= st.hands[i]
            if st.camps[i] != camp:
                # the Excuse may stand in for a trump once: one draw more
                longest = max(longest, (st.hands[i] & (TRUMP_MASK | EXCUSE_BIT)).bit_count())
                theirs |= st.hands[i]
            elif st.hands[i] & TRUMP_MASK:
                # a partner's trumps must fall under the leader's (the Excuse may
                # stand in for one once), never win a trick and take the lead
                partner_trumps = st.hands[i] & TRUMP_MASK
                lowest_mine = (my_trumps & -my_trumps).bit_length()
                held = (st.hands[i] & (TRUMP_MASK | EXCUSE_BIT)).bit_count()
                if (partner_trumps.bit_length() > lowest_mine
                        or held > my_trumps.bit_count()):
                    return gain, bouts
        if (mine & masters).bit_count() < longest:
            return gain, bouts
        sure = my_trumps
        for suit in range(4):
            other = others & SUIT_MASKS[suit]
            above = ~((1 << other.bit_length()) - 1) if other else -1
            sure |= mine & SUIT_MASKS[suit] & above
        drawn = theirs & TRUMP_MASK
        run = sure.bit_count()
        gain2 = (card_points(sure) - run + st.n * run + card_points(drawn)
                 - drawn.bit_count())
        bouts2 = ((sure | drawn) & BOUTS_MASK).bit_count()
        return max(gain, gain2), max(bouts, bouts2)

    def _key(self) -> tuple[object, ...]:
        st = self.state
        key: tuple[object, ...] = (tuple(st.hands), st.leader, self._bouts(),
                                   st.tricks_won[0] == 0, st.tricks_won[1] == 0)
        if not self.additive:
            key += (self._half(),)
        return key

    def _moves(self, hint: int) -> list[int]:
        st = self.state
        n = st.n
        seat = (st.leader + len(st.trick)) % n
        my = st.camps[seat]
        legal = st.legal()
        live = 0
        for h in st.hands:
            live |= h
        for c in st.trick:
            live |= 1 << c
        wcamp = -1
        trick = list(st.trick)
        if trick:
            w = winner_index(trick)
            if w is not None:
                wcamp = st.camps[(st.leader + w) % n]
        last = len(trick) == n - 1
        # the cards in the hands: a card of the trick leaves with it, so between two
        # cards that both lose the trick it does not tell them apart
        held = 0
        for h in st.hands:
            held |= h
        history = self.history[seat]
        scored: list[tuple[int, int]] = []
        rest = legal
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            rest ^= low
            pts = _CARD_POINTS[c]
            wins = bool(trick) and c != _EXCUSE and winner_index([*trick, c]) == len(trick)
            if _merged_into(c, trick, wins, legal, live, held) != c:
                continue
            if c == hint:
                s = 1 << 28
            elif not trick:
                s = 1 << 16 if self._sure_lead(live, seat, c) else 0
            else:
                if wins:
                    s = 3000000 + pts * 1000 - c if last else 3000000 + c * 10
                elif wcamp == my:
                    s = 2000000 + pts * 1000 - c
                else:
                    s = 1000000 - pts * 1000 - c
            s += min(history[c], 1 << 19)
            scored.append((-s, c))
        scored.sort()
        return [c for _, c in scored]

    def _sure_lead(self, live: int, seat: int, card: int) -> bool:
        """Whether ``card``, a plain card led by ``seat``, surely wins the trick: the
        highest card of its suit still out, that no seat of the other camp can trump
        (``ts_ruffed_suits`` in ``csrc/search.h``)."""
        st = self.state
        if card == _EXCUSE or suit_of(card) == 4:
            return False
        mask = SUIT_MASKS[suit_of(card)]
        if live & mask & ~((2 << card) - 1):
            return False
        return not any(st.camps[j] != st.camps[seat] and not st.hands[j] & mask
                       and st.hands[j] & TRUMP_MASK for j in range(st.n))

    def _node(self, beta: int, root: bool) -> tuple[int, int]:
        st = self.state
        if st.trick_number >= st.tricks:
            return self._value(), -1
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.limit_nodes and self.nodes >= self.limit_nodes:
                raise _StopSearchError
            if self.deadline and time.monotonic() >= self.deadline:
                raise _StopSearchError
        left = st.tricks - st.trick_number
        lo, hi = self._bounds()
        if not root:
            if lo >= beta:
                return lo, -1
            if hi < beta:
                return hi, -1
        boundary = not st.trick and left >= 2 and not (
            st.trick_number == 0 and st.called is not None)
        offset = self._half() if self.additive else 0
        key: tuple[object, ...] = ()
        hint = -1
        if boundary:
            key = self._key()
            self.probes += 1
            entry = self.table.get(key)
            if entry is not None:
                self.hits += 1
                elo, ehi, move = entry
                if elo > -_INF:
                    lo = max(lo, elo + offset)
                if ehi < _INF:
                    hi = min(hi, ehi + offset)
                if not root:
                    if lo >= beta:
                        self.cuts += 1
                        return lo, -1
                    if hi < beta:
                        self.cuts += 1
                        return hi, -1
                hint = move
        seat = (st.leader + len(st.trick)) % st.n
        maxing = st.camps[seat] == TAKER
        g = -_INF if maxing else _INF
        chosen = -1
        for c in self._moves(hint):
            st.play(c)
            try:
                v = self._node(beta, False)[0]
            finally:
                st.unplay()
            if v > g if maxing else v < g:
                g, chosen = v, c
            if g >= beta if maxing else g < beta:
                self.history[seat][c] += left * left
                break
        g = max(g, lo) if g >= beta else min(g, hi)
        if boundary:
            self.stores += 1
            entry = self.table.get(key)
            if entry is None:
                if len(self.table) >= self.capacity:
                    self.table.clear()
                entry = self.table[key] = [-_INF, _INF, -1]
            if g >= beta:
                entry[0] = max(entry[0], g - offset)
            else:
                entry[1] = min(entry[1], g - offset)
            if chosen >= 0:
                entry[2] = chosen
        return g, chosen


# --- the driver ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Solution:
    """What a search found: ``lower <= value <= upper`` (equal when exact).

    With the margin objective the value is the taker's camp's final card points minus
    the threshold its final bouts set, in half-points, with best play by both camps:
    made when >= 0. ``best`` is a best card for the player to move, and the best line's
    end is given (the taker's camp's half-points and bouts, with the cards aside; petit
    au bout's and the chelem's camps, -1 for none) when the value is exact and the line
    was asked for.
    """

    lower: int
    upper: int
    objective: Objective
    best: Card | None = None
    """A best card for the player to move (a :class:`~tarotnotation.cards.Card`)."""
    line: tuple[Card, ...] | None = None
    """The best line's cards, from here (:class:`~tarotnotation.cards.Card` values)."""
    taker_half: int | None = None
    taker_bouts: int | None = None
    petit_au_bout: int | None = None
    chelem: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    engine: str = "c"

    @property
    def exact(self) -> bool:
        """True when the bounds meet."""
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        """The exact value, or None when a limit left only bounds."""
        return self.lower if self.exact else None

    @property
    def made(self) -> bool | None:
        """Whether the contract is made with best play (margin >= 0), when the bounds
        decide it (margin objective only); None otherwise."""
        if self.objective is not Objective.MARGIN:
            return None
        if self.lower >= 0:
            return True
        if self.upper < 0:
            return False
        return None


@dataclass(frozen=True, slots=True)
class CardValue:
    """A legal card and the value of the position after it (``lower <= upper``)."""

    card: Card
    """The card (a :class:`~tarotnotation.cards.Card`)."""
    lower: int
    upper: int

    @property
    def exact(self) -> bool:
        """True when the bounds meet."""
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        """The exact value, or None."""
        return self.lower if self.exact else None


def _signature(pos: Position) -> tuple[object, ...]:
    return (pos.rules, pos.camps, pos.tricks, pos.aside, pos.contract, pos.called,
            pos.taker, pos.partner, pos.poignees, pos.chelem_announced, pos.miseres)


def core_tuple(st: PlayState) -> CoreTuple:
    """A play state as the cores take it."""
    return (tuple(st.hands), st.leader, tuple(st.trick), st.trick_number,
            card_points(st.won[0]) + st.adjust, (st.won[0] & BOUTS_MASK).bit_count(),
            (st.tricks_won[0], st.tricks_won[1]), tuple(st.previous))


_WARNED: list[bool] = []


class _Clock:
    """What is left of a call's time and node budgets."""

    def __init__(self, time_limit: float | None, node_limit: int | None) -> None:
        self.deadline = time.monotonic() + time_limit if time_limit else 0.0
        self.nodes_left = node_limit or 0
        self.limited_nodes = bool(node_limit)
        self.nodes = 0

    def time(self) -> float:
        if not self.deadline:
            return 0.0
        return max(self.deadline - time.monotonic(), 1e-6)

    def node_budget(self) -> int:
        return max(self.nodes_left, 1) if self.limited_nodes else 0

    def spent(self, nodes: int) -> None:
        self.nodes += nodes
        if self.limited_nodes:
            self.nodes_left -= nodes

    def out(self) -> bool:
        return bool((self.deadline and time.monotonic() >= self.deadline)
                    or (self.limited_nodes and self.nodes_left <= 0))


class Solver:
    """The searches of one deal, sharing one transposition table (so a deal's positions
    are searched faster one after another, as :func:`analyse_play` does).

    ``engine`` is ``"c"`` (the compiled core), ``"python"`` (the pure twin) or None:
    the compiled core when built and ``TAROT_PURE`` is not set, else the pure one (a
    warning says so when the core was not built). ``table_mb`` bounds the table.
    """

    def __init__(self, deal: Position, *, objective: Objective | str = Objective.MARGIN,
                 table_mb: float = DEFAULT_TABLE_MB, engine: str | None = None) -> None:
        self.deal = deal
        self.objective = Objective(objective)
        self.signature = _signature(deal)
        module = native.compiled() if engine in (None, "c") else None
        if engine == "c" and module is None:
            module = native.compiled(force=True)
            if module is None:
                raise RuntimeError("the compiled search core (tarotnotation._kernel) is"
                                   " not built")
        if engine not in (None, "c", "python"):
            raise ValueError(f"engine {engine!r}: expected 'c', 'python' or None")
        additive = self.objective is Objective.MARGIN
        leaf = leaf_table(deal, self.objective)
        self.leaf = leaf
        self.core: Core
        if module is not None:
            counts_aside = unplayed_camp(deal.contract) == TAKER
            called = deal.called if deal.called is not None else -1
            if deal.first_lead_card() is None:
                called = -1
            self.core = module.Search(
                deal.players, native.rule_flags(deal.rules), deal.camps, called, deal.tricks,
                card_points(deal.aside) if counts_aside else 0,
                (deal.aside & BOUTS_MASK).bit_count() if counts_aside else 0,
                leaf.tobytes(), additive, table_mb)
            self.engine = "c"
        else:
            if engine is None and not native.pure_forced() and not _WARNED:
                _WARNED.append(True)
                warnings.warn("tarotnotation: the compiled solver core is not built; the"
                              " pure-Python search is used (much slower: endgames only are"
                              " practical). Install with a C compiler to build it.",
                              RuntimeWarning, stacklevel=2)
            self.core = PythonSearch(deal, leaf, additive, table_mb)
            self.engine = "python"

    def _check(self, pos: Position) -> None:
        if _signature(pos) != self.signature:
            raise ValueError("this position is not of the solver's deal")

    def stats(self) -> dict[str, int]:
        """The core's counters (nodes, table probes, hits, cut-offs, stores, entries)."""
        return self.core.stats()

    # the searches

    def _mtdf(self, pt: CoreTuple, maxing: bool, guess: int | None, clock: _Clock,
              at_least: int | None, known: tuple[int | None, int | None] = (None, None),
              progress: Callable[[int, int], None] | None = None
              ) -> tuple[int, int, int | None, bool]:
        """Narrow the bounds of ``pt``: exact, or until ``at_least`` is decided, or a
        limit. Returns ``(lower, upper, best card, complete)``."""
        lo, hi = self.core.bounds(pt)
        if known[0] is not None:
            lo = max(lo, known[0])
        if known[1] is not None:
            hi = min(hi, known[1])
        if lo > hi:
            raise ValueError(f"known bounds {known} exclude the position's bounds")
        best_lo: int | None = None
        best_hi: int | None = None
        # The first test at the guess (the contract's threshold, 0, without one), then
        # steps doubling away from it while the answers point the same way, then
        # halving the interval once a test has failed each way.
        beta = 0 if guess is None else guess
        step = 1
        raised = lowered = False
        while lo < hi:
            if at_least is not None:
                if lo >= at_least or hi < at_least:
                    break
                beta = at_least
            beta = min(max(beta, lo + 1), hi)
            if clock.out():
                return lo, hi, None, False
            r, move, nodes, complete = self.core.test(pt, beta, clock.node_budget(),
                                                      clock.time())
            clock.spent(nodes)
            if not complete:
                return lo, hi, None, False
            if r >= beta:
                lo, best_lo = max(lo, r), (move if move >= 0 else None)
                step = step * 2 if raised and not lowered else step
                raised = True
                beta = lo + step
            else:
                hi, best_hi = min(hi, r), (move if move >= 0 else None)
                step = step * 2 if lowered and not raised else step
                lowered = True
                beta = hi - step + 1
            if raised and lowered:
                beta = (lo + hi + 1) // 2
            if progress is not None:
                progress(lo, hi)
        if lo > hi:
            raise RuntimeError(f"the search's bounds crossed ({lo} > {hi}): a bug")
        return lo, hi, best_lo if maxing else best_hi, True

    def _best_card(self, st: PlayState, value: int, clock: _Clock) -> int | None:
        """A card of the player to move that keeps ``value`` (None on a limit)."""
        maxing = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
        legal = st.legal()
        cards = [c for c in range(78) if legal >> c & 1]
        for c in cards:
            st.play(c)
            try:
                pt = core_tuple(st) if not st.over else None
                if pt is None:
                    v = self.final_value(st)
                    ok = v >= value if maxing else v <= value
                else:
                    beta = value if maxing else value + 1
                    if clock.out():
                        return None
                    r, _, nodes, complete = self.core.test(pt, beta, clock.node_budget(),
                                                           clock.time())
                    clock.spent(nodes)
                    if not complete:
                        return None
                    ok = r >= beta if maxing else r < beta
            finally:
                st.unplay()
            if ok:
                return c
        raise RuntimeError("no card keeps the position's value: a bug")

    def final_value(self, st: PlayState) -> int:
        """The value of a deal played out (``st.over``)."""
        half, bouts, petit, chelem = st.result()
        return self.leaf[_leaf_index(half, bouts, petit, chelem)]

    def solve(self, pos: Position, *, guess: int | None = None,
              time_limit: float | None = None, node_limit: int | None = None,
              line: bool = True, at_least: int | None = None,
              known_lower: int | None = None, known_upper: int | None = None,
              find_best: bool = True,
              progress: Callable[[int, int], None] | None = None) -> Solution:
        """The value of ``pos`` with best play by both camps, exact unless a limit
        (seconds, nodes) ends the search first; then the bounds reached. ``guess`` (a
        value near the answer, such as the previous position's) speeds it up.

        ``at_least=k`` asks only whether the value is at least ``k`` (the bounds then
        decide it: ``lower >= k`` or ``upper < k``), much faster than an exact value:
        ``at_least=0`` asks whether the contract is makeable. ``line`` also finds the
        best line's end (exact values only); ``find_best=False`` spares the search
        for a best card when the tests did not name one. ``known_lower`` and
        ``known_upper`` are
        bounds already proved (the value after a card is a bound of the value before
        it); they must hold, or the answer is wrong. ``progress(lower, upper)`` is
        called after each test of the search."""
        self._check(pos)
        start = time.monotonic()
        clock = _Clock(time_limit, node_limit)
        self.core.next_generation()
        st = pos.state()
        if st.over:
            v = self.final_value(st)
            half, bouts, petit, chelem = st.result()
            return Solution(v, v, self.objective, None, (), half, bouts, petit, chelem, 0,
                            0.0, self.engine)
        maxing = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
        lo, hi, best, _ = self._mtdf(core_tuple(st), maxing, guess, clock, at_least,
                                     (known_lower, known_upper), progress)
        sol = Solution(lo, hi, self.objective, None if best is None else Card(best),
                       nodes=clock.nodes,
                       seconds=time.monotonic() - start, engine=self.engine)
        if lo != hi or (best is None and not find_best and not line):
            return sol
        if best is None:
            best = self._best_card(st, lo, clock)
            if best is None:
                return Solution(lo, hi, self.objective, None, nodes=clock.nodes,
                                seconds=time.monotonic() - start, engine=self.engine)
        if not line:
            return Solution(lo, hi, self.objective, Card(best), nodes=clock.nodes,
                            seconds=time.monotonic() - start, engine=self.engine)
        cards = [best]
        st.play(best)
        while not st.over:
            card = self._best_card(st, lo, clock)
            if card is None:
                return Solution(lo, hi, self.objective, Card(best), nodes=clock.nodes,
                                seconds=time.monotonic() - start, engine=self.engine)
            cards.append(card)
            st.play(card)
        half, bouts, petit, chelem = st.result()
        return Solution(lo, hi, self.objective, Card(best), tuple(map(Card, cards)), half,
                        bouts, petit,
                        chelem, clock.nodes, time.monotonic() - start, self.engine)

    def best_card(self, pos: Position, value: int, *, time_limit: float | None = None,
                  node_limit: int | None = None) -> Card | None:
        """A card of the player to move that keeps ``value``, the position's exact value
        (None when a limit stops the search first)."""
        self._check(pos)
        if pos.over:
            return None
        card = self._best_card(pos.state(), value, _Clock(time_limit, node_limit))
        return None if card is None else Card(card)

    def best_cards(self, pos: Position, *, time_limit: float | None = None,
                   node_limit: int | None = None, value: tuple[int, int] | None = None,
                   progress: Callable[[int, int], None] | None = None) -> list[CardValue]:
        """Every legal card of the player to move with the value after it, best first
        for that player's camp (ties and near-ties visible).

        ``value``, the position's bounds when already searched, lets one null-window
        test per card say whether it is best (and bound by how much it is not) before
        any card's value is narrowed: a limit then leaves each card its answer to that
        first question. ``progress(done, cards)`` is called after each card's value."""
        self._check(pos)
        clock = _Clock(time_limit, node_limit)
        self.core.next_generation()
        st = pos.state()
        if st.over:
            return []
        maxing = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
        legal = st.legal()
        cards = [c for c in range(78) if legal >> c & 1]
        bounds: dict[int, tuple[int, int]] = {}
        tuples: dict[int, CoreTuple] = {}
        child_max: dict[int, bool] = {}
        for c in cards:
            st.play(c)
            try:
                if st.over:
                    v = self.final_value(st)
                    bounds[c] = (v, v)
                else:
                    tuples[c] = core_tuple(st)
                    bounds[c] = self.core.bounds(tuples[c])
                    child_max[c] = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
            finally:
                st.unplay()
        # One test each at the position's value: best, or by how much it is not.
        if value is not None and value[0] == value[1]:
            v = value[0]
            for c in cards:
                lo, hi = bounds[c]
                if c not in tuples or not lo < v + (not maxing) <= hi or clock.out():
                    continue
                beta = v if maxing else v + 1
                r, _, nodes, complete = self.core.test(tuples[c], beta, clock.node_budget(),
                                                       clock.time())
                clock.spent(nodes)
                if complete:
                    bounds[c] = (max(lo, r), hi) if r >= beta else (lo, min(hi, r))
        guess: int | None = None if value is None or value[0] != value[1] else value[0]
        for n, c in enumerate(cards):
            lo, hi = bounds[c]
            if c in tuples and lo < hi:
                lo, hi, _, _ = self._mtdf(tuples[c], child_max[c], guess, clock, None,
                                          (lo, hi))
                bounds[c] = (lo, hi)
            if lo == hi:
                guess = lo
            if progress is not None:
                progress(n + 1, len(cards))
        out = [CardValue(Card(c), *bounds[c]) for c in cards]
        out.sort(key=lambda cv: (-cv.upper, -cv.lower, cv.card) if maxing
                 else (cv.lower, cv.upper, cv.card))
        return out
