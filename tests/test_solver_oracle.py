"""The solver agrees exactly with a brute-force minimax on random endgames.

The oracle (:func:`solver_cases.oracle`) plays every legal card of every line on the
kernel's PlayState, without pruning, table or merging. The solver, on the compiled core
and on its pure-Python twin, must give the same value, a best card that keeps it, each
legal card's value, and quick bounds that contain the value, on endgames of up to 3
tricks (4 at 3 and 4 players) at 3, 4 and 5 players, under every ruleset that changes
play or counting, with the Excuse, the Petit and the 21 left in often, with the chelem
cases, and a trick in progress; for the margin and for the score. A few hundred in CI,
thousands under ``TAROT_SLOW=1`` (``TAROT_ORACLE_CASES`` sets the number).

Then the rules that only the end of a deal shows, each on a position written for it.
"""

from __future__ import annotations

import os
import random

import pytest
from solver_cases import children, endgame, oracle

from tarotnotation.analysis import Objective, Position, Solver
from tarotnotation.analysis.search import core_tuple, leaf_table
from tarotnotation.native import compiled

SLOW = os.environ.get("TAROT_SLOW", "") not in ("", "0")
CASES = int(os.environ.get("TAROT_ORACLE_CASES", 4000 if SLOW else 240))
ENGINES = ["python", pytest.param("c", marks=pytest.mark.skipif(
    compiled(force=True) is None and not os.environ.get("TAROT_REQUIRE_NATIVE"),
    reason="the compiled core is not built"))]


def _case(seed: int) -> tuple[Position, Objective]:
    rng = random.Random(seed)
    players = rng.choice((3, 4, 5))
    most = 4 if players < 5 else 3
    left = rng.choice([1, 2, 2, 3, 3] + ([most] if rng.random() < 0.15 else []))
    objective = Objective.SCORE if rng.random() < 0.3 else Objective.MARGIN
    return endgame(rng, players, left, score=objective is Objective.SCORE), objective


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("block", range(4))
def test_random_endgames_match_the_oracle(engine: str, block: int) -> None:
    for seed in range(block, CASES, 4):
        pos, objective = _case(seed)
        leaf = leaf_table(pos, objective)
        want = oracle(pos, objective, leaf)
        solver = Solver(pos, objective=objective, engine=engine)
        lo, hi = solver.core.bounds(core_tuple(pos.state()))
        assert lo <= want <= hi, (seed, pos.fen())
        sol = solver.solve(pos)
        assert (sol.lower, sol.upper) == (want, want), (seed, objective, pos.fen())
        assert sol.best is not None
        assert pos.legal().bits >> sol.best & 1
        assert oracle(pos.play(sol.best), objective, leaf) == want, (seed, pos.fen())
        assert sol.line is not None
        assert sol.taker_half is not None
        st = pos.state()
        for card in sol.line:
            assert st.legal() >> card & 1
            st.play(card)
        assert st.over
        assert st.result() == (sol.taker_half, sol.taker_bouts, sol.petit_au_bout, sol.chelem)
        half, bouts, petit, chelem = st.result()
        assert leaf[((half * 4 + bouts) * 3 + petit + 1) * 3 + chelem + 1] == want
        decided = solver.solve(pos, at_least=0)
        assert (decided.lower >= 0) == (want >= 0), (seed, pos.fen())
        assert decided.lower <= want <= decided.upper


@pytest.mark.parametrize("engine", ENGINES)
def test_every_cards_value_matches_the_oracle(engine: str) -> None:
    for seed in range(CASES // 4):
        pos, objective = _case(10_000 + seed)
        want = children(pos, objective)
        got = {cv.card: cv.value for cv in Solver(pos, objective=objective,
                                                  engine=engine).best_cards(pos)}
        assert got == want, (seed, pos.fen())


# --- the rules only the end of a deal shows, one position each ---------------------------------


def _solve_both(text: str, objective: Objective = Objective.MARGIN) -> int:
    pos = Position.parse(text)
    want = oracle(pos, objective)
    for engine in ("python", "c"):
        if engine == "c" and compiled() is None:
            continue
        assert Solver(pos, objective=objective, engine=engine).solve(pos).value == want
    return want


def test_excuse_in_the_last_trick_changes_camp() -> None:
    # E (defence) holds only the Excuse for the last trick: it goes to the taker's camp.
    assert _solve_both("S=KH E=EX N=2H W=3H taker=S lead=S won=60/1 tricks=9/8") == \
        (120 + 9 + 1 + 1 + 9) - 82  # the Excuse and its bout to the taker


def test_excuse_in_the_last_trick_to_the_trick_winner() -> None:
    # Under pagat the Excuse goes to the trick's winner (the taker here).
    value = _solve_both("S=KH E=EX N=2H W=3H taker=S lead=S won=60/1 tricks=9/8 rules=pagat")
    assert value == (120 + 9 + 1 + 1 + 9) - 82
    # ...and stays with the defence when the defence wins the last trick.
    value = _solve_both("S=2H E=EX N=KH W=3H taker=S lead=S won=60/1 tricks=9/8 rules=pagat")
    assert value == 120 - 102


def test_excuse_led_to_the_last_trick_by_a_camp_with_every_trick_wins_it() -> None:
    # The taker won every trick and leads the Excuse: it wins the last trick (chelem).
    value = _solve_both("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0"
                        " chelem=announced", Objective.SCORE)
    assert value > 0
    pos = Position.parse("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0")
    assert Solver(pos).solve(pos).chelem == 0


def test_chelem_excuse_wins_false_lets_the_21_take_the_last_trick() -> None:
    pos = Position.parse("S=EX E=T21 N=2H W=3H taker=S lead=S won=80/1 tricks=17/0"
                         " rules=fft,chelem_excuse_wins=false")
    sol = Solver(pos).solve(pos)
    assert sol.chelem == -1
    assert sol.value == oracle(pos)


def test_petit_au_bout_counts_for_the_score_objective() -> None:
    # The taker can lead the Petit to the last trick and win it (no trump left elsewhere).
    text = "S=T1,KH E=2H,3S N=4H,5S W=6H,7S taker=S lead=S won=60/1 tricks=9/7"
    pos = Position.parse(text)
    sol = Solver(pos, objective=Objective.SCORE).solve(pos)
    assert sol.petit_au_bout == 0
    assert sol.value == oracle(pos, Objective.SCORE)


def test_petit_au_bout_in_the_trick_before_when_the_excuse_is_led_last() -> None:
    # A taker with every trick leads the Petit, then the Excuse to the last trick: the
    # trick before counts as the last one for petit au bout (rules.md §8).
    text = "S=T1,EX E=2H,3S N=4H,5S W=6H,7S taker=S lead=S won=60/1 tricks=16/0"
    pos = Position.parse(text)
    sol = Solver(pos, objective=Objective.SCORE).solve(pos)
    assert sol.petit_au_bout == 0
    assert sol.chelem == 0
    assert sol.value == oracle(pos, Objective.SCORE)


def test_a_line_with_more_points_can_lose_what_one_with_fewer_makes() -> None:
    # The Petit changes hands: keeping it (fewer points) beats winning a King without it.
    pos = Position.parse("S=T1,KH E=T2,2H N=3H,4H W=5H,6H taker=S lead=S won=72/1"
                         " tricks=9/7")
    sol = Solver(pos).solve(pos)
    assert sol.value == oracle(pos)
