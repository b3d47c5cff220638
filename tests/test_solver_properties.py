"""Invariants of the solver (hypothesis): a position's value is the best of its children's
for the side to play; a best card costs nothing; the value stays within what the points
still out allow; the compiled core and the pure-Python one agree; an analysis's costs add
up to the value lost."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from solver_cases import endgame, points_out

from tarotnotation.analysis import Objective, Solver, analyse_play
from tarotnotation.kernel import TAKER
from tarotnotation.native import compiled
from tarotnotation.rules import threshold
from tarotnotation.simulate import random_deal

ENGINE = "c" if compiled() is not None else "python"


def _position(seed: int, objective: Objective = Objective.MARGIN):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    players = rng.choice((3, 4, 5))
    left = rng.randint(1, 4 if players < 5 else 3)
    return endgame(rng, players, left, score=objective is Objective.SCORE)


@given(st.integers(0, 10**9), st.sampled_from(list(Objective)))
def test_the_value_is_the_best_of_the_childrens_for_the_side_to_play(
        seed: int, objective: Objective) -> None:
    pos = _position(seed, objective)
    solver = Solver(pos, objective=objective, engine=ENGINE)
    value = solver.solve(pos).value
    values = [cv.value for cv in solver.best_cards(pos)]
    assert None not in values
    taker = pos.camps[pos.to_play] == TAKER
    assert value == (max if taker else min)(v for v in values if v is not None)


@given(st.integers(0, 10**9))
def test_a_best_card_costs_nothing(seed: int) -> None:
    pos = _position(seed)
    solver = Solver(pos, engine=ENGINE)
    sol = solver.solve(pos)
    assert sol.best is not None
    assert solver.solve(pos.play(sol.best)).value == sol.value


@given(st.integers(0, 10**9))
def test_the_value_never_exceeds_the_points_still_out_and_those_won(seed: int) -> None:
    pos = _position(seed)
    sol = Solver(pos, engine=ENGINE).solve(pos)
    half, _ = pos.holding(TAKER)
    out = points_out(pos)
    assert sol.value is not None
    assert sol.taker_half is not None
    assert half <= sol.taker_half <= half + out
    assert half - threshold(0) <= sol.value <= half + out - threshold(3)


@given(st.integers(0, 10**9), st.sampled_from(list(Objective)))
def test_the_compiled_core_and_the_python_one_agree(seed: int, objective: Objective) -> None:
    if compiled() is None:
        return
    pos = _position(seed, objective)
    c = Solver(pos, objective=objective, engine="c").solve(pos)
    py = Solver(pos, objective=objective, engine="python").solve(pos)
    assert (c.lower, c.upper) == (py.lower, py.upper)
    c_cards = Solver(pos, objective=objective, engine="c").best_cards(pos)
    py_cards = Solver(pos, objective=objective, engine="python").best_cards(pos)
    assert {(x.card, x.value) for x in c_cards} == {(x.card, x.value) for x in py_cards}


@given(st.integers(0, 10**9))
def test_an_analysis_costs_add_up_to_the_value_each_camp_lost(seed: int) -> None:
    rng = random.Random(seed)
    rec = random_deal(rng, rng.choice((3, 4, 5)), with_result=False)
    tricks = len(rec.play)
    analysis = analyse_play(rec, from_trick=tricks - 1, engine=ENGINE)
    assert analysis.exact
    taker = sum(c.cost or 0 for c in analysis.cards if c.camp.value == "taker")
    defence = sum(c.cost or 0 for c in analysis.cards if c.camp.value == "defence")
    end = analysis.cards[-1].after[0]
    assert analysis.value[0] - taker + defence == end
    for card in analysis.cards:
        assert (card.cost or 0) >= 0
        assert card.cost == 0 or card.best is not None
