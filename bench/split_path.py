"""One deal on two cores, measured whatever the machine's load: the critical path of
``analyse_play``'s split.

Run: ``python bench/split_path.py FILE... [--budget NODES] [--split N]``.

Each deal is analysed in this one process through an executor that runs each part
apart when its result is asked for (after this process has searched its own part, as
``tarot analyze -j 2`` does at once) and times every piece in CPU seconds. The critical
path is what two cores with nothing else on them would take: the serial passes, and
for each split the larger of this process's part and each part run apart. Printed per
deal: the nodes, the CPU of the whole analysis (``-j 1``), the critical path and its
share of it, and the cards decided and within the precision. The node counts are the
same on any machine; the CPU seconds are not (a loaded machine inflates them).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tarotnotation.analysis import analyse_play  # noqa: E402
from tarotnotation.analysis.analyse import DEFAULT_BUDGET, DEFAULT_SPLIT  # noqa: E402
from tarotnotation.analysis.plan import known  # noqa: E402
from tarotnotation.archive import check_deal, read_path  # noqa: E402


class TimedExecutor:
    """Runs each part when its result is asked for, and times this process's own part
    (from the last part handed out to the first result asked for) and each part."""

    def __init__(self) -> None:
        self.splits: list[tuple[float, list[float]]] = []
        self._handed = 0.0
        self._collecting = True

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> _Later:
        self._collecting = False
        self._handed = time.process_time()
        return _Later(self, fn, args)

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if not self._collecting:  # the first result of a split: this process's part ended
            self._collecting = True
            self.splits.append((time.process_time() - self._handed, []))
        cpu = time.process_time()
        value = fn(*args)
        self.splits[-1][1].append(time.process_time() - cpu)
        return value


class _Later:
    def __init__(self, owner: TimedExecutor, fn: Callable[..., Any],
                 args: tuple[Any, ...]) -> None:
        self.owner, self.fn, self.args = owner, fn, args

    def result(self) -> Any:
        return self.owner.run(self.fn, self.args)


def measure(path: str, budget: int, split: int) -> str:
    """The line of one deal (the file's first)."""
    item = next(r for r in read_path(path) if not r.about_file)
    rep = check_deal(item, path, None).replay
    assert rep is not None
    timed = TimedExecutor()
    cpu = time.process_time()
    a = analyse_play(rep.record, rep=rep, budget=budget, split=split, executor=timed)
    total = time.process_time() - cpu
    apart = sum(own + sum(parts) for own, parts in timed.splits)
    path_cpu = total - apart + sum(max(own, *parts) for own, parts in timed.splits)
    decided = sum(c.made_before is not None and c.made_after is not None for c in a.cards)
    within = sum(known(*c.cost_bounds, a.precision) for c in a.cards)
    pieces = "; ".join(f"{own:.2f} | " + " ".join(f"{p:.2f}" for p in parts)
                       for own, parts in timed.splits)
    return (f"{Path(path).stem:<22} {a.nodes / 1e6:8.1f}M {total:8.2f}s {path_cpu:8.2f}s"
            f" {path_cpu / max(total, 1e-9):6.3f} {decided:4d}/{len(a.cards)}"
            f" {within:4d}   splits (this process | apart): {pieces}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--split", type=int, default=DEFAULT_SPLIT)
    args = parser.parse_args(argv)
    print(f"{'deal':<22} {'nodes':>9} {'CPU -j 1':>9} {'critical':>9} {'share':>6}"
          f" {'decided':>7} {'within':>6}")
    for path in args.files:
        print(measure(path, args.budget, args.split), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
