"""The pure-Python search core: :class:`PythonSearch`, the twin of the compiled one
(``tarotnotation._kernel.Search``, ``tarotnotation/csrc/search.h``), on the rules
kernel's :class:`~tarotnotation.kernel.PlayState`; :class:`Core`, what both give the
driver (:class:`tarotnotation.analysis.search.Solver`, where the design of both is told,
and ``docs/analysis.md``); the position as the cores take it (:data:`CoreTuple`), and
where a leaf's value sits in the leaf table (:func:`leaf_index`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final, Protocol

from ..cards import BOUTS_MASK, EXCUSE_BIT, SUIT_MASKS, TRUMP_MASK, Card, card_points
from ..kernel import (
    NO_SUIT,
    TAKER,
    TRUMPS_LED,
    PlayState,
    chelem_camp,
    suit_of,
    unplayed_camp,
    winner_index,
)
from .position import Position

__all__ = [
    "DEFAULT_TABLE_MB",
    "Core",
    "CoreTuple",
    "PythonSearch",
    "equivalent_cards",
    "leaf_index",
]

#: The transposition table's default size, in MiB (``table_mb``).
DEFAULT_TABLE_MB: Final = 64.0
_INF: Final = 30000
_EXCUSE: Final = int(Card.EXCUSE)
_PETIT: Final = int(Card.T1)
_T21: Final = int(Card.T21)
_CARD_POINTS: Final = tuple(card_points(1 << c) for c in range(78))


def leaf_index(half: int, bouts: int, petit: int, chelem: int) -> int:
    """Where the value of a deal's end sits in the leaf table: the taker's camp's
    half-points and bouts, petit au bout's camp and the chelem's (-1 for none)."""
    return ((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1


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
                 held: int, petit_apart: bool = False) -> int:
    """The card next to ``c`` that the search tries in its place (``c`` itself when it
    is tried): of the legal cards of one suit with the same points, adjacent among the
    cards still out (or in the trick), only one is tried, the top of the run for a lead
    or a card that wins the trick so far, the lowest for a card that loses it (the
    trick's cards leave with it, so ``held``, the cards in the hands, tells them
    apart). The Excuse is always tried, and so is the Petit with ``petit_apart`` (when
    petit au bout counts, the score objective: the Petit and the 21 are the same points
    and bout, not the same card in the last trick)."""
    if c == _EXCUSE or (petit_apart and c == _PETIT):
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


def equivalent_cards(st: PlayState, petit_apart: bool = False) -> dict[int, int]:
    """Each legal card of the player to move, and the card whose value it has: the one
    the search tries in its place (the same card when it is tried), following each run
    of equivalent cards to its end (``docs/analysis.md``, equivalent cards); with
    ``petit_apart`` (the score objective) the Petit is its own."""
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
            step[c] = _merged_into(c, trick, wins, legal, live, held, petit_apart)
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
        return self.leaf[leaf_index(self._half() + self.aside_half,
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
                a = self.leaf[leaf_index(half_lo, bouts_lo, p, c)]
                b = self.leaf[leaf_index(half_hi, bouts_hi, p, c)]
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
            if _merged_into(c, trick, wins, legal, live, held, not self.additive) != c:
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
