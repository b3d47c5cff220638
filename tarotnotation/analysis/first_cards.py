"""A position's first cards searched apart: :func:`solve_apart`.

The legal cards of the player to move (one of each run of equivalent cards) are cut into
``split`` groups, each searched on a table of its own with an equal share of the node
budget (:func:`search_group`); the position is worth the best of its cards. A group's
answer depends on nothing but the group, so the groups run one after another or at once
on an executor (anything with ``submit(fn, *args)``: :mod:`concurrent.futures`,
:class:`tarotnotation.workers.Workers`, a Dask client) with the same answer, whatever the
executor or the number of its workers.

Within a group the cards keep the cut-offs of a serial search: its first card's value is
narrowed, then each other card is first tested against the best so far (one null-window
test: can it do better?) and narrowed only when it can; what the group has left then
narrows the cards the cut-offs left as bounds. Across groups those cut-offs are lost:
each group finds its own best, most of them worse than the position's.

>>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1"
...                      " tricks=9/7")
>>> sol, cards = solve_apart(pos, split=2, budget=None)
>>> sol.lower, sol.upper, [(str(cv.card), cv.lower) for cv in cards]
(62, 62, [('KH', 62), ('T21', 62)])
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import Card
from ..kernel import TAKER
from .analyse import Executor
from .position import Position
from .search import (
    DEFAULT_TABLE_MB,
    CardValue,
    Objective,
    Solution,
    Solver,
    core_tuple,
    equivalent_cards,
)

__all__ = ["DEFAULT_SOLVE_SPLIT", "GroupResult", "search_group", "solve_apart"]

#: The groups ``tarot solve`` cuts a position's cards into by default (1: one search of
#: the position, then its cards, on one table).
DEFAULT_SOLVE_SPLIT: Final = 1


@dataclass(frozen=True, slots=True)
class GroupResult:
    """What a group of first cards searched apart gives back (:func:`search_group`)."""

    values: tuple[tuple[int, int, int], ...]
    """Each card of the group and the bounds of the value after it: ``(card, lo, hi)``."""
    best: int | None
    """The group's best card, its value exact (None: the budget ran out first)."""
    line: tuple[int, ...] | None
    """The best line after the group's best card (exact values only), when asked for."""
    end: tuple[int, int, int, int] | None
    """That line's end: the taker's camp's half-points and bouts, petit au bout's and
    the chelem's camps (-1: none)."""
    nodes: int
    engine: str
    """The search core that ran (``"c"`` or ``"python"``)."""


def search_group(pos: Position, cards: Sequence[int], budget: int | None,
                 objective: Objective, table_mb: float, engine: str | None, line: bool
                 ) -> GroupResult:
    """The value after each of ``cards`` (legal cards of ``pos``), searched on a fresh
    table within ``budget`` nodes (None: no bound): the first card's value, then each
    other card tested against the best so far and narrowed only when it does better, then
    the cards left as bounds narrowed with what is left; with ``line``, the best line
    after the group's best card. Its answer depends on nothing else, wherever it runs."""
    solver = Solver(pos, objective=objective, table_mb=table_mb, engine=engine)
    st = pos.state()
    maxing = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
    spent = 0

    def left() -> int | None:
        return None if budget is None else max(budget - spent, 1)

    def search(child: Position, guess: int | None = None, at_least: int | None = None,
               known: tuple[int | None, int | None] = (None, None)) -> Solution:
        nonlocal spent
        sol = solver.solve(child, guess=guess, at_least=at_least, known_lower=known[0],
                           known_upper=known[1], node_limit=left(), line=False,
                           find_best=False)
        spent += sol.nodes
        return sol

    def quick(child: Position) -> tuple[int, int]:
        if child.over:
            v = solver.final_value(child.state())
            return v, v
        return solver.core.bounds(core_tuple(child.state()))

    bounds: dict[int, tuple[int, int]] = {}
    best: int | None = None  # the group's best card so far, its value exact
    for c in cards:
        child = pos.play(c)
        if budget is not None and spent >= budget:
            break
        if best is None:
            sol = search(child)
        else:
            v = bounds[best][0]
            # can it do better than the best so far? (a value above v, or below it)
            sol = search(child, at_least=v + 1 if maxing else v)
            if sol.lower > v if maxing else sol.upper < v:
                sol = search(child, guess=v, known=(sol.lower, sol.upper))
        bounds[c] = (sol.lower, sol.upper)
        if sol.exact and (best is None or (sol.lower > bounds[best][0] if maxing
                                           else sol.lower < bounds[best][0])):
            best = c
        if best is None:
            break  # the budget is spent on the first card: nothing to compare with
    for c in cards:  # then the cards the cut-offs (or the budget) left as bounds
        child = pos.play(c)
        lo, hi = bounds[c] if c in bounds else quick(child)
        if lo < hi and (budget is None or spent < budget):
            guess = None if best is None else bounds[best][0]
            sol = search(child, guess=guess, known=(lo, hi))
            lo, hi = sol.lower, sol.upper
        bounds[c] = (lo, hi)
    found_line: tuple[int, ...] | None = None
    end: tuple[int, int, int, int] | None = None
    if line and best is not None and (budget is None or spent < budget):
        v = bounds[best][0]
        sol = solver.solve(pos.play(best), node_limit=left(), known_lower=v, known_upper=v)
        spent += sol.nodes
        if sol.line is not None and sol.taker_half is not None:
            found_line = sol.line
            end = (sol.taker_half, sol.taker_bouts or 0,
                   -1 if sol.petit_au_bout is None else sol.petit_au_bout,
                   -1 if sol.chelem is None else sol.chelem)
    return GroupResult(tuple((c, *bounds[c]) for c in cards), best, found_line, end, spent,
                       solver.engine)


def solve_apart(pos: Position, *, split: int = 2, budget: int | None,
                objective: Objective | str = Objective.MARGIN,
                table_mb: float = DEFAULT_TABLE_MB, engine: str | None = None,
                line: bool = True, executor: Executor | None = None
                ) -> tuple[Solution, list[CardValue]]:
    """The value of ``pos`` and of each legal card, the cards cut into ``split`` groups
    searched apart (:func:`search_group`), each with an equal share of ``budget`` nodes
    (None: no bound), on ``executor`` when one is given: the same answer either way.
    The cards come best first for the camp to play, as :meth:`Solver.best_cards` gives
    them; the position's bounds are the best of theirs, and with ``line`` its best line
    is given when its value is exact."""
    t0 = time.monotonic()
    objective = Objective(objective)
    st = pos.state()
    if st.over:
        raise ValueError("the deal is over: no card to play")
    maxing = st.camps[(st.leader + len(st.trick)) % st.n] == TAKER
    # each legal card: the card searched for it
    kinds = equivalent_cards(st, petit_apart=objective is Objective.SCORE)
    searched = sorted(set(kinds.values()))
    # Round robin over the cards in their order (suit by suit): each group gets cards of
    # every suit, so that the groups weigh about the same.
    groups = [searched[i::split] for i in range(max(1, min(split, len(searched))))]
    share = None if budget is None else max(budget // len(groups), 1)
    tasks = [(pos, group, share, objective, table_mb, engine, line) for group in groups]
    if executor is None:
        results: list[GroupResult] = [search_group(*task) for task in tasks]
    else:
        pending = [executor.submit(search_group, *task) for task in tasks]
        results = [p.result() for p in pending]
    bounds = {c: (lo, hi) for r in results for c, lo, hi in r.values}
    cards = [CardValue(Card(c), *bounds[kinds[c]]) for c in sorted(kinds)]
    cards.sort(key=lambda cv: (-cv.upper, -cv.lower, cv.card) if maxing
               else (cv.lower, cv.upper, cv.card))
    pick = max if maxing else min
    lower, upper = pick(cv.lower for cv in cards), pick(cv.upper for cv in cards)
    nodes, core = sum(r.nodes for r in results), results[0].engine
    best: Card | None = None
    found: tuple[Card, ...] | None = None
    end: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    if lower == upper:
        # the best card: the best of the first group whose best is the position's, and
        # the line after it
        r = next((r for r in results
                  if r.best is not None and bounds[r.best] == (lower, lower)), None)
        if r is None:
            best = next(cv.card for cv in cards if cv.exact and cv.lower == lower)
        else:
            best = None if r.best is None else Card(r.best)
            if r.line is not None and r.end is not None:
                assert best is not None
                found, end = (best, *map(Card, r.line)), r.end
    return Solution(lower, upper, objective, best, found, *end, nodes=nodes,
                    seconds=time.monotonic() - t0, engine=core), cards
