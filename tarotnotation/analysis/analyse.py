"""The cost of every card of a recorded deal: :func:`analyse_play`.

For each card played, the value of the position before it and after it (with best play
by both camps from there), as :mod:`tarotnotation.analysis.search` finds them; the card's
**cost** to its camp is the value it gave away: before minus after for the taker's camp,
after minus before for the defence (0 for a best card), in half-points of margin. A card
**changed the outcome** when the contract was made with best play before it and lost
after it, or the other way round.

The work is bounded by a node budget for the whole deal (the same analysis on any
machine). Within it the outcome before and after every card comes first, then each
card's cost, the costliest first, to a precision (:mod:`~tarotnotation.analysis.plan`
says what is searched next; every bound a test proves is carried to the neighbouring
positions: the value after a card bounds the value before it). One table serves the
whole deal, the later positions searched first, so their entries serve the earlier
searches. Past the budget the values are bounds (``exact`` False, a Q112 diagnostic).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, TypeVar

from ..cards import Card
from ..diagnostics import Code, Diagnostic
from ..i18n import Msg
from ..kernel import TAKER, PlayState
from ..records import DealRecord
from ..replay import Replay
from ..rules import Camp
from .plan import (
    EQUAL,
    FIRST_CAP,
    LEAST_CAP,
    MAX,
    MIN,
    Family,
    Item,
    Link,
    Step,
    TestResult,
    apply,
    cost_order,
    cost_probe,
    outcome_open,
    propagate,
    settled,
)
from .position import Position, PositionError, deal_start
from .search import (
    DEFAULT_TABLE_MB,
    CardValue,
    Objective,
    Solver,
    core_tuple,
    equivalent_cards,
)

__all__ = ["DEFAULT_BUDGET", "DEFAULT_PRECISION", "DEFAULT_SPLIT", "CardAnalysis", "Executor",
           "PlayAnalysis", "analyse_play", "search_part"]

#: The nodes a deal's analysis may visit by default: about 30 seconds of one core for the
#: benchmark's median deal (``docs/analysis.md``).
DEFAULT_BUDGET: Final = 150_000_000
#: The parts the hard cards of a deal are cut into, searched apart (in parallel when an
#: executor is given; the analysis is the same either way).
DEFAULT_SPLIT: Final = 2
#: A card's cost is known when its bounds differ by at most this many half-points (1 point).
DEFAULT_PRECISION: Final = 2


#: What a part of an analysis searched apart gives back (:func:`search_part`).
PartResult = tuple[list[tuple[int, int, int, int | None, int | None, int]], int]


_R_co = TypeVar("_R_co", covariant=True)
_R = TypeVar("_R")


class _Pending(Protocol[_R_co]):
    def result(self) -> _R_co: ...


class Executor(Protocol):
    """What runs an analysis's parts in parallel: ``submit(fn, *args)`` returns an object
    whose ``result()`` is ``fn(*args)`` (an executor of :mod:`concurrent.futures`,
    :class:`tarotnotation.workers.Workers`, a Dask client)."""

    def submit(self, fn: Callable[..., _R], /, *args: Any) -> _Pending[_R]: ...


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
    values: tuple[CardValue, ...] = ()
    """With ``all_cards``: every legal card (this one included) and the bounds of the
    value after it, best first for the camp to play (none for a forced card)."""

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

    def cost_of(self, value: CardValue) -> tuple[int, int]:
        """The least and most playing ``value.card`` instead would have cost the camp,
        in half-points (``value``: one of :attr:`values`)."""
        if self.camp is Camp.TAKER:
            lo, hi = self.before[0] - value.upper, self.before[1] - value.lower
        else:
            lo, hi = value.lower - self.before[1], value.upper - self.before[0]
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
    precision: int = DEFAULT_PRECISION
    """A cost is known when its bounds differ by at most this many half-points."""
    budget: int | None = None
    """The nodes the analysis could visit (None: no bound)."""

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
                 budget: int | None = DEFAULT_BUDGET, time_limit: float | None = None,
                 precision: int = DEFAULT_PRECISION, all_cards: bool = False,
                 split: int = DEFAULT_SPLIT,
                 node_limit: int | None = None, table_mb: float = DEFAULT_TABLE_MB,
                 engine: str | None = None, rep: Replay | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 executor: Executor | None = None) -> PlayAnalysis:
    """The cost of every card of ``record``'s play from trick ``from_trick`` on.

    The record needs the hands (as dealt, or derived from a complete play), the taker
    and contract, and at five players the partner; otherwise :class:`PositionError`
    (Q110) is raised. A card that is not legal stops the analysis before it (a Q111
    diagnostic).

    The work is bounded by ``budget``, the nodes the whole deal's searches may visit
    (None: no bound), or by ``time_limit`` seconds when it is given instead (a limit of
    the machine: the same deal can then come back with other bounds). Within it the
    outcome with best play before and after every card is decided first, then each
    card's cost is narrowed, the costliest first, until its bounds differ by at most
    ``precision`` half-points (0: exact); past the budget, the values are bounds and a
    Q112 diagnostic says so. ``node_limit`` is the budget's former name. ``all_cards``
    also values every other legal card at each point (:attr:`CardAnalysis.values`).

    With ``split`` above 1 (and a budget), the played cards still open are cut into
    ``split`` runs of consecutive cards searched apart, each with an equal share of the
    nodes, twice: a tenth of the budget with runs of as many cards (the latest run
    settles the cheap cards), then the rest with runs of equal weight (what the tests'
    caps say of the cards' hardness). Each run but the last is searched on a table of
    its own (:func:`search_part`), the last on the analysis's own table; a part that
    settles its run goes on with every card still open; a last serial pass spends what
    they left. A part's answer depends on nothing but the part, so ``executor``
    (anything with ``submit(fn, *args)`` returning an object with ``result()``: an
    executor of :mod:`concurrent.futures`, :class:`tarotnotation.workers.Workers`, a Dask
    client) runs the others while this process searches the last, with the same
    analysis as without it. ``progress(settled, cards)`` is called after each round of
    the serial pass.
    """
    t0 = time.monotonic()
    if node_limit is not None and budget == DEFAULT_BUDGET:
        budget = node_limit
    if precision < 0:
        raise ValueError("precision: expected half-points, 0 or more")
    start, cards = deal_start(record, rep)
    ids = start.seats
    diags: list[Diagnostic] = []
    # The positions of the play, as far as it is legal.
    st = start.state()
    positions: list[Position] = [start]
    places: list[tuple[int, int, int]] = []  # (trick, index, seat) of each card
    legal_sets: list[int] = []
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
        legal_sets.append(legal)
        st.play(card)
        positions.append(start.with_state(st, history=tuple(cards[:len(places)])))
    if from_trick < 1:
        raise PositionError(Diagnostic.make(Code.ANALYSIS_IMPOSSIBLE,
                                            Msg("tricks are numbered from 1")))
    first = next((i for i, p in enumerate(places) if p[0] >= from_trick), len(places))
    if diags and first == len(places):
        # an illegal card before the trick asked for: the value is the one before it
        from_trick = min(from_trick, st.trick_number + 1)
    k = len(places)
    quick = Solver(start, objective=Objective.MARGIN, table_mb=table_mb, engine=engine)
    items: list[Item] = []
    links: list[Link] = []
    steps: list[Step] = []
    families: list[Family] = []

    def add(state: PlayState, order: int, played: bool) -> int:
        key = len(items)
        if state.over:
            v = quick.final_value(state)
            items.append(Item(key, None, True, order, v, v,
                              played=played))
        else:
            pt = core_tuple(state)
            lo, hi = quick.core.bounds(pt)
            maxing = state.camps[(state.leader + len(state.trick)) % state.n] == TAKER
            items.append(Item(key, pt, maxing, order, lo, hi,
                              played=played))
        return key

    chain = [add(positions[i].state(), 2 * i, True) for i in range(first, k + 1)]
    siblings: dict[int, list[tuple[int, int]]] = {}  # card index: (card, item) each
    for i in range(first, k):
        before, after = chain[i - first], chain[i - first + 1]
        taker = start.camps[places[i][2]] == TAKER
        forced = legal_sets[i].bit_count() == 1
        links.append(Link(before, after, EQUAL if forced else MAX if taker else MIN))
        steps.append(Step(before, after, taker))
        if all_cards and not forced:
            # one item for each card the search would try: a card equivalent to another
            # has its value (equivalent_cards), the played card's included
            here = positions[i].state()
            kinds = equivalent_cards(here)
            keys = {kinds[cards[i]]: after}
            kids = []
            for c in sorted(kinds):
                if c == cards[i]:
                    continue
                if kinds[c] not in keys:
                    here.play(kinds[c])
                    keys[kinds[c]] = add(here, 2 * i + 1, False)
                    here.unplay()
                    links.append(Link(before, keys[kinds[c]], MAX if taker else MIN))
                    steps.append(Step(before, keys[kinds[c]], taker, played=False))
                kids.append((c, keys[kinds[c]]))
            siblings[i] = kids
            families.append(Family(before, tuple(keys.values()), taker))
    propagate(items, links, families)
    search = _Search(quick, items, links, families, None if time_limit else budget,
                     t0 + time_limit if time_limit else 0.0)
    # With a split, the cards are cut into ``split`` runs of consecutive cards searched
    # apart (in parallel on ``executor``), twice: with a tenth of the budget, runs of as
    # many open cards (no test has told what they weigh yet: the latest run settles the
    # cheap cards), then with the rest, the cards still open cut into runs of equal
    # weight; then one pass more with what they left.
    if split > 1 and budget is not None and not time_limit:
        def shown(_done: int, _cards: int) -> None:  # every card's, not a run's
            if progress is not None:
                progress(sum(settled(items, s, precision) for s in steps if s.played),
                         k - first)

        for nodes in (budget // 10, None):
            _split(search, start, steps, split, precision, table_mb, engine, executor,
                   budget - search.spent if nodes is None else nodes, shown)
    complete = search.run(steps, precision, progress, k - first)
    out: list[CardAnalysis] = []
    for i in range(first, k):
        trick, index, seat = places[i]
        camp = Camp.TAKER if start.camps[seat] == TAKER else Camp.DEFENCE
        b, a = items[chain[i - first]], items[chain[i - first + 1]]
        values: tuple[CardValue, ...] = ()
        if i in siblings:  # all_cards, and more than one legal card
            every = [(cards[i], a), *((c, items[key]) for c, key in siblings[i])]
            values = tuple(CardValue(Card(c), it.lo, it.hi) for c, it in sorted(
                every, key=lambda e: (-e[1].hi, -e[1].lo, e[0]) if b.maxing
                else (e[1].lo, e[1].hi, e[0])))
        item = CardAnalysis(trick, index, ids[seat], Card(cards[i]), camp, (b.lo, b.hi),
                            (a.lo, a.hi), legal=legal_sets[i].bit_count(), values=values)
        if item.cost_bounds[1] > 0:
            best = _best(b, values, cards[i])
            if best is None and item.cost_bounds[0] > 0 and complete:
                best = search.best_card(positions[i].state(), b, cards[i])
            if best is not None:
                item = replace(item, best=Card(best))
        out.append(item)
    if not complete:
        diags.append(Diagnostic.make(
            Code.ANALYSIS_INEXACT,
            Msg("the search's budget was spent: some values are bounds (give more with"
                " --budget)") if time_limit is None else
            Msg("a time or node limit was reached: some values are bounds"
                " (give more time with --time-limit)")))
    head = items[chain[0]]
    return PlayAnalysis(start, tuple(out), (head.lo, head.hi), from_trick, tuple(diags),
                        search.spent, time.monotonic() - t0, quick.engine, precision, budget)


def _split(search: _Search, start: Position, steps: Sequence[Step], parts: int,
           precision: int, table_mb: float, engine: str | None,
           executor: Executor | None, nodes: int,
           progress: Callable[[int, int], None]) -> None:
    """Cut the played cards not settled yet into ``parts`` runs of consecutive cards (with
    the other legal cards of their points), search each apart with an equal share of
    ``nodes`` (:func:`search_part` on a fresh table, the last run on this search's), and
    take what they proved."""
    items = search.items
    open_steps = [s for s in steps if s.played and not settled(items, s, precision)]
    if len(open_steps) < parts or search.budget is None:
        return
    # Runs of equal weight, a card weighing what its positions' caps say of their
    # hardness so far (a cap doubles each time a test reaches it), so that every part
    # spends its share.
    weights = [search.caps[s.before] + search.caps[s.after] for s in open_steps]
    total = sum(weights)
    runs: list[list[Step]] = [[]]
    done = 0
    for step, w in zip(open_steps, weights, strict=True):
        if (runs[-1] and len(runs) < parts
                and done + w / 2 > total * len(runs) / parts):
            runs.append([])
        runs[-1].append(step)
        done += w
    share = min(nodes, search.budget - search.spent) // len(runs)
    # Every run but the last is searched apart, each from the same snapshot of the bounds
    # (copied before anything runs, so that an executor that pickles late sees it too);
    # the last one here, on this search's table, while they run (the latest cards: their
    # entries serve the earlier positions of the last pass). A part that settles its run
    # goes on with every card still open: no part leaves its share to the serial pass.
    snapshot = [replace(i) for i in items]
    tasks = []
    for run in runs[:-1]:
        befores = {s.before for s in run}
        part = [s for s in steps if s.before in befores]
        tasks.append((start, snapshot, search.links, search.families, part, precision, share,
                      list(search.caps), table_mb, engine, steps))
    pending = [] if executor is None else [executor.submit(search_part, *task)
                                           for task in tasks]
    results = [search_part(*task) for task in tasks] if executor is None else []
    befores = {s.before for s in runs[-1]}
    budget = search.budget
    search.budget = search.spent + share
    try:
        if search.run([s for s in steps if s.before in befores], precision, progress, 0):
            search.run(steps, precision, progress, 0)
    finally:
        search.budget = budget
    results += [p.result() for p in pending]
    for found, spent in results:
        search.spent += spent
        for key, lo, hi, best_lo, best_hi, cap in found:
            item = items[key]
            if lo > item.lo:
                item.lo, item.best_lo = lo, best_lo
            if hi < item.hi:
                item.hi, item.best_hi = hi, best_hi
            search.caps[key] = max(search.caps[key], cap)
    propagate(items, search.links, search.families)


def search_part(start: Position, items: Sequence[Item], links: Sequence[Link],
                families: Sequence[Family], steps: Sequence[Step], precision: int,
                budget: int, caps: Sequence[int], table_mb: float, engine: str | None,
                then: Sequence[Step] = ()) -> PartResult:
    """Search ``steps`` of a deal apart, on a fresh table, within ``budget`` nodes, and
    once they are settled, ``then`` with what is left (one part of
    :func:`analyse_play`'s work; its answer depends on nothing else, wherever it runs):
    the items it narrowed or whose cap it raised, ``(key, lo, hi, best_lo, best_hi,
    cap)``, and the nodes it visited."""
    mine = [replace(i) for i in items]
    solver = Solver(start, objective=Objective.MARGIN, table_mb=table_mb, engine=engine)
    search = _Search(solver, mine, links, families, budget, 0.0)
    search.caps = list(caps)
    if search.run(steps, precision, None, 0) and then:
        search.run(then, precision, None, 0)
    return ([(i.key, i.lo, i.hi, i.best_lo, i.best_hi, search.caps[i.key])
             for i, old in zip(mine, items, strict=True)
             if (i.lo, i.hi) != (old.lo, old.hi) or search.caps[i.key] != caps[i.key]],
            search.spent)


def _best(before: Item, values: Sequence[CardValue], played: int) -> int | None:
    """A card that keeps the value before ``played`` (one that proved its bound, or the
    best valued of every legal card), when it is not the card played."""
    if values:
        top = values[0]
        return top.card if top.card != played else None
    best = before.best
    return best if best is not None and best != played else None


class _SpentError(Exception):
    """The budget (or the time) is spent."""


class _Search:
    """The searches of one analysis: one solver (its table serves every position, the
    later ones first), each test capped by what is left of the budget and by its item's
    own cap, which doubles each time a test reaches it."""

    def __init__(self, solver: Solver, items: list[Item], links: Sequence[Link],
                 families: Sequence[Family], budget: int | None, deadline: float) -> None:
        self.solver = solver
        self.items = items
        self.links = links
        self.families = families
        self.budget = budget
        self.deadline = deadline
        self.spent = 0
        unlimited = budget is None and not deadline
        self.caps = [0 if unlimited else FIRST_CAP] * len(items)

    def test(self, item: Item, beta: int) -> bool:
        """Test ``item`` at ``beta`` and carry what it proves; False when a cap stopped
        it. Raises :class:`_SpentError` when nothing is left."""
        assert item.pt is not None
        cap = self.caps[item.key]
        capped_by_item = True
        if self.budget is not None:
            left = self.budget - self.spent
            if left < LEAST_CAP:
                raise _SpentError
            if not cap or left < cap:
                cap, capped_by_item = left, False
        seconds = 0.0
        if self.deadline:
            seconds = self.deadline - time.monotonic()
            if seconds <= 0:
                raise _SpentError
        g, move, nodes, complete = self.solver.core.test(item.pt, beta, cap, seconds)
        self.spent += nodes
        if not complete:
            if not capped_by_item:
                raise _SpentError
            self.caps[item.key] *= 2
            return False
        apply(self.items, TestResult(item.key, beta, g, move, nodes, True))
        propagate(self.items, self.links, self.families)
        return True

    def run(self, steps: Sequence[Step], precision: int,
            progress: Callable[[int, int], None] | None, cards: int) -> bool:
        """Rounds over ``steps`` until every card is settled (True) or the budget is
        spent (False): the outcome of each position left open first, then each card's
        cost, the costliest first."""
        items = self.items
        keys = {s.before for s in steps} | {s.after for s in steps}
        try:
            while True:
                tested = False
                for item in outcome_open(items):
                    if item.key in keys and item.lo < 0 <= item.hi:
                        self.test(item, 0)
                        tested = True
                for step in cost_order(items, steps, precision):
                    while True:
                        probe = cost_probe(items, step, precision)
                        if probe is None:
                            break
                        tested = True
                        if not self.test(*probe):
                            break
                if progress is not None:
                    progress(sum(settled(items, s, precision) for s in steps if s.played),
                             cards)
                if all(settled(items, s, precision) for s in steps):
                    return True
                if not tested:  # (every card is as settled as a test can make it)
                    raise RuntimeError("the analysis has cards to settle and no test for"
                                       " them: a bug")
        except _SpentError:
            return False

    def best_card(self, st: PlayState, before: Item, played: int) -> int | None:
        """A legal card of ``st`` other than ``played`` that keeps the proved bound of
        the value before it (None when none is found within the budget)."""
        legal = st.legal()
        for c in range(78):
            if c == played or not legal >> c & 1:
                continue
            st.play(c)
            try:
                if st.over:
                    v = self.solver.final_value(st)
                    if (v >= before.lo) if before.maxing else (v <= before.hi):
                        return c
                    continue
                beta = before.lo if before.maxing else before.hi + 1
                seconds = 0.0
                if self.deadline:
                    seconds = self.deadline - time.monotonic()
                    if seconds <= 0:
                        return None
                g, _, nodes, complete = self.solver.core.test(
                    core_tuple(st), beta, 0 if self.budget is None else max(
                        self.budget - self.spent, 1), seconds)
                self.spent += nodes
                if not complete:
                    return None
                if (g >= beta) if before.maxing else (g < beta):
                    return c
            finally:
                st.unplay()
        return None
