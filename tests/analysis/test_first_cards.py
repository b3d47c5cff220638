"""A position's first cards searched apart (``analysis.first_cards.solve_apart``,
``tarot solve --split N -j N``): the same values as the serial search, the same answer in
one process and on workers, and a budget never overspent."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_runs import TAROT, invoke
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_cases import endgame

from tarotnotation.analysis import Position, Solver, deal_start, position_at
from tarotnotation.analysis.first_cards import solve_apart
from tarotnotation.formats.json import dumps_bytes
from tarotnotation.native import compiled
from tarotnotation.simulate import random_deal
from tarotnotation.workers import Workers

ENGINE = "c" if compiled() is not None else "python"
needs_core = pytest.mark.skipif(compiled(force=True) is None
                                and not os.environ.get("TAROT_REQUIRE_NATIVE"),
                                reason="the compiled core is not built")


def _endgame(seed: int) -> Position:
    rng = random.Random(seed)
    players = rng.choice((3, 4, 5))
    return endgame(rng, players, rng.randint(1, 4 if players < 5 else 3))


def _deal_point(seed: int, left: int) -> Position:
    rng = random.Random(seed)
    start, cards = deal_start(random_deal(rng, 4, poignee_chance=0.3))
    return position_at(start, cards[:(start.tricks - left) * 4 + rng.randrange(4)])


@given(st.integers(0, 10**9), st.integers(1, 5))
@settings(max_examples=60)
def test_cards_searched_apart_have_the_values_of_the_serial_search(seed: int,
                                                                    split: int) -> None:
    pos = _endgame(seed)
    if pos.over:
        return
    solver = Solver(pos, engine=ENGINE)
    sol = solver.solve(pos)
    serial = solver.best_cards(pos, value=(sol.lower, sol.upper))
    apart, cards = solve_apart(pos, split=split, budget=None, engine=ENGINE)
    assert (apart.lower, apart.upper) == (sol.lower, sol.upper)
    assert sorted((cv.card, cv.lower, cv.upper) for cv in cards) == sorted(
        (cv.card, cv.lower, cv.upper) for cv in serial)
    assert cards[0].card in {cv.card for cv in serial if cv.lower == sol.lower}
    # the best line is a line of the position's value
    assert apart.best is not None
    assert apart.line is not None
    assert apart.line[0] == apart.best
    st_ = pos.state()
    for card in apart.line:
        assert st_.legal() >> card & 1
        st_.play(card)
    assert st_.over
    assert (apart.taker_half, apart.taker_bouts) == st_.result()[:2]


@needs_core
def test_a_budget_is_shared_by_the_groups_and_never_overspent() -> None:
    pos = _deal_point(0, 14)
    sol, cards = solve_apart(pos, split=2, budget=300_000, engine="c")
    # (the core looks at its limit every 1,024 nodes: a group stops within that of it)
    assert 150_000 <= sol.nodes < 300_000 + 2 * 1024
    assert not sol.exact
    for cv in cards:
        assert cv.lower <= cv.upper
    pick = max if pos.camps[pos.to_play] == 0 else min
    assert (sol.lower, sol.upper) == (pick(cv.lower for cv in cards),
                                      pick(cv.upper for cv in cards))


@needs_core
@pytest.mark.process
def test_cards_searched_apart_give_the_same_answer_in_process_and_on_workers() -> None:
    pos = _deal_point(8, 9)
    alone = solve_apart(pos, split=3, budget=2_000_000, engine="c")
    with Workers(2) as workers:
        shared = solve_apart(pos, split=3, budget=2_000_000, engine="c", executor=workers)
    assert alone[1] == shared[1]
    assert alone[0].nodes == shared[0].nodes
    for field in ("lower", "upper", "best", "line", "taker_half", "taker_bouts"):
        assert getattr(alone[0], field) == getattr(shared[0], field)


@needs_core
@pytest.mark.process
def test_solve_split_gives_the_same_answer_with_one_process_and_two(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(dumps_bytes(random_deal(random.Random(12), 4)))
    runs = [invoke("solve", str(path), "--trick", "11", "--budget", "3000000", "--split", "2",
                   "-j", jobs, "--format", "json") for jobs in ("1", "2")]
    assert runs[0].code == runs[1].code == 0, runs[0].err + runs[1].err
    one, two = (json.loads(r.out) for r in runs)
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc/self/maps").exists() or compiled(force=True) is None,
                    reason="needs Linux's /proc and the compiled core")
def test_ctrl_c_on_solve_split_on_workers_exits_130_and_leaves_no_worker(
        tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(dumps_bytes(random_deal(random.Random(9), 5)))
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "TAROT_PURE")}
    proc = subprocess.Popen([str(TAROT), "solve", str(path), "--budget", str(10**12),
                             "--split", "2", "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if len(_children(proc.pid)) >= 2:  # both groups are being searched
                break
            time.sleep(0.1)
        time.sleep(1.0)
        assert proc.poll() is None, proc.communicate()
        workers = _children(proc.pid)
        assert len(workers) >= 2, workers
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert b"interrupted" in err
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or b"zombie" in Path(
            f"/proc/{pid}/status").read_bytes().lower()


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    out: list[int] = []
    for task in tasks.iterdir() if tasks.exists() else ():
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out
