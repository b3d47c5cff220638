"""The cost of every card of a recorded deal: :func:`analyse_play`.

For each card played, the value of the position before it and after it (with best play
by both camps from there), as :mod:`tarotnotation.analysis.search` finds them; the card's
**cost** to its camp is the value it gave away: before minus after for the taker's camp,
after minus before for the defence (0 for a best card), in half-points of margin. A card
**changed the outcome** when the contract was made with best play before it and lost
after it, or the other way round.

The positions are searched from the last card back to the first, with one table for the
whole deal: the value after a card bounds the value before it, so a card that cost
nothing takes a single yes/no test, and the late positions' entries serve the earlier
searches. A time or node limit per position leaves bounds (``exact`` False).

>>> from tarotnotation import notation
>>> rec = notation.load("examples/analysis.tarot")
>>> analysis = analyse_play(rec)
>>> analysis.exact, analysis.value              # made by 3 with best play from the start
(True, (6, 6))
>>> [(c.trick, c.seat, c.card.code, c.cost, c.changed, c.best.code) for c in analysis.costly]
[(6, 'S', 'T1', 32, True, '7H')]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from ..diagnostics import Code, Diagnostic
from ..i18n import Msg
from ..kernel import TAKER
from ..records import DealRecord
from ..replay import Replay
from ..rules import Camp
from .position import Position, PositionError, deal_start
from .search import DEFAULT_TABLE_MB, Objective, Solution, Solver

__all__ = ["CardAnalysis", "PlayAnalysis", "analyse_play"]


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card of the play and what it cost. Values are the taker's camp's margin in
    half-points with best play by both camps (``lower <= value <= upper``)."""

    trick: int
    """1-based."""
    index: int
    """0-based place in the trick, from the leader."""
    seat: str
    card: Card
    camp: Camp
    """The camp of the player of the card."""
    before: tuple[int, int]
    """The value before the card (lower, upper)."""
    after: tuple[int, int]
    """The value after it."""
    best: Card | None = None
    """A best card in its place, when this one cost something."""
    legal: int = 0
    """How many cards were legal (1: the card was forced)."""

    @property
    def exact(self) -> bool:
        """True when both values are exact."""
        return self.before[0] == self.before[1] and self.after[0] == self.after[1]

    @property
    def cost_bounds(self) -> tuple[int, int]:
        """The least and most the card can have cost its camp, in half-points."""
        if self.camp is Camp.TAKER:
            lo, hi = self.before[0] - self.after[1], self.before[1] - self.after[0]
        else:
            lo, hi = self.after[0] - self.before[1], self.after[1] - self.before[0]
        return max(lo, 0), max(hi, 0)

    @property
    def cost(self) -> int | None:
        """What the card cost its camp in half-points (0 for a best card); None when a
        limit left only bounds that do not fix it."""
        lo, hi = self.cost_bounds
        return lo if lo == hi else None

    @property
    def made_before(self) -> bool | None:
        """The contract made with best play before the card (None: undecided)."""
        return _made(self.before)

    @property
    def made_after(self) -> bool | None:
        """The contract made with best play after the card (None: undecided)."""
        return _made(self.after)

    @property
    def changed(self) -> bool:
        """True when the card turned a made contract into a lost one, or the reverse."""
        a, b = self.made_before, self.made_after
        return a is not None and b is not None and a != b


def _made(bounds: tuple[int, int]) -> bool | None:
    if bounds[0] >= 0:
        return True
    if bounds[1] < 0:
        return False
    return None


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    """The analysis of a recorded deal's play (:func:`analyse_play`)."""

    start: Position
    """The deal at its first lead."""
    cards: tuple[CardAnalysis, ...]
    """Every card analysed, in the order played."""
    value: tuple[int, int]
    """The value at the first card analysed (lower, upper)."""
    from_trick: int
    diagnostics: tuple[Diagnostic, ...] = ()
    """Why the analysis stopped early (Q111) or is not exact (Q112)."""
    nodes: int = 0
    seconds: float = 0.0
    engine: str = "c"

    @property
    def exact(self) -> bool:
        """True when every value is exact."""
        return all(c.exact for c in self.cards) and self.value[0] == self.value[1]

    @property
    def costly(self) -> list[CardAnalysis]:
        """The cards that cost their camp something (or may have, when inexact)."""
        return [c for c in self.cards if c.cost_bounds[1] > 0]

    def at(self, trick: int, index: int) -> CardAnalysis | None:
        """The analysis of card ``index`` (0-based) of trick ``trick`` (1-based)."""
        for c in self.cards:
            if c.trick == trick and c.index == index:
                return c
        return None


def analyse_play(record: DealRecord, *, from_trick: int = 1,
                 time_limit: float | None = None, node_limit: int | None = None,
                 table_mb: float = DEFAULT_TABLE_MB, engine: str | None = None,
                 rep: Replay | None = None,
                 progress: Callable[[int, int], None] | None = None) -> PlayAnalysis:
    """The cost of every card of ``record``'s play from trick ``from_trick`` on.

    The record needs the hands (as dealt, or derived from a complete play), the taker
    and contract, and at five players the partner; otherwise :class:`PositionError`
    (Q110) is raised. A card that is not legal stops the analysis before it (a Q111
    diagnostic). ``time_limit`` and ``node_limit`` bound each position's search;
    ``progress(done, total)`` is called after each position.
    """
    t0 = time.monotonic()
    start, cards = deal_start(record, rep)
    ids = start.seats
    diags: list[Diagnostic] = []
    # The positions of the play, as far as it is legal.
    st = start.state()
    positions: list[Position] = [start]
    places: list[tuple[int, int, int]] = []  # (trick, index, seat) of each card
    legal_counts: list[int] = []
    for card in cards:
        if st.over:
            break
        legal = st.legal()
        seat = (st.leader + len(st.trick)) % st.n
        if not legal >> card & 1:
            where = f"play[{st.trick_number}].cards[{len(st.trick)}]"
            diags.append(Diagnostic.make(
                Code.ANALYSIS_STOPPED,
                Msg("{card} is not a legal card here: the analysis stops before it",
                    card=Card(card).code),
                trick=st.trick_number + 1, seat=ids[seat], card=Card(card).code, path=where))
            break
        places.append((st.trick_number + 1, len(st.trick), seat))
        legal_counts.append(legal.bit_count())
        st.play(card)
        positions.append(start.with_state(st, history=tuple(cards[:len(places)])))
    if from_trick < 1:
        raise PositionError(Diagnostic.make(Code.ANALYSIS_IMPOSSIBLE,
                                            Msg("tricks are numbered from 1")))
    first = next((i for i, p in enumerate(places) if p[0] >= from_trick), len(places))
    if diags and first == len(places):
        # an illegal card before the trick asked for: the value is the one before it
        from_trick = min(from_trick, st.trick_number + 1)
    solver = Solver(start, objective=Objective.MARGIN, table_mb=table_mb, engine=engine)
    k = len(places)
    values: dict[int, tuple[int, int]] = {}
    best: dict[int, int | None] = {}
    nodes = 0
    total = k - first + 1
    inexact = False
    for i in range(k, first - 1, -1):
        pos = positions[i]
        sol: Solution
        if i < k and legal_counts[i] == 1:
            values[i] = values[i + 1]          # a forced card costs nothing
        else:
            known_lower = known_upper = None
            guess = None
            if i < k:
                child = values[i + 1]
                guess = child[0] if child[0] == child[1] else None
                if pos.camps[pos.to_play] == TAKER:
                    known_lower = child[0]
                else:
                    known_upper = child[1]
            sol = solver.solve(pos, guess=guess, time_limit=time_limit,
                               node_limit=node_limit, line=False, find_best=False,
                               known_lower=known_lower, known_upper=known_upper)
            values[i] = (sol.lower, sol.upper)
            best[i] = sol.best
            nodes += sol.nodes
            inexact |= not sol.exact
        if progress is not None:
            progress(k - i + 1, total)
    out: list[CardAnalysis] = []
    for i in range(first, k):
        trick, index, seat = places[i]
        camp = Camp.TAKER if start.camps[seat] == TAKER else Camp.DEFENCE
        item = CardAnalysis(trick, index, ids[seat], Card(cards[i]), camp, values[i],
                            values[i + 1], legal=legal_counts[i])
        if item.cost_bounds[1] > 0 and item.before[0] == item.before[1]:
            b = best.get(i)
            if b is None or b == cards[i]:
                b = solver.best_card(positions[i], item.before[0], time_limit=time_limit,
                                     node_limit=node_limit)
            if b is not None:
                item = CardAnalysis(trick, index, ids[seat], Card(cards[i]), camp,
                                    values[i], values[i + 1], Card(b), legal_counts[i])
        out.append(item)
    if inexact:
        diags.append(Diagnostic.make(
            Code.ANALYSIS_INEXACT, Msg("a time or node limit was reached: some values are bounds"
                                       " (give more time with --time-limit)")))
    return PlayAnalysis(start, tuple(out), values[first], from_trick, tuple(diags), nodes,
                        time.monotonic() - t0, solver.engine)
