"""Benchmark of the core: replay, legality, JSON import/export, archive checking.

Run: ``python benchmarks/bench_core.py [--deals N] [--jobs J]``. Prints deals (or calls)
per second for each stage, measured on random legal deals at 3, 4 and 5 players
(``tarotnotation.simulate``). Speed is measured here, never by a timed test.
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tarotnotation.archive import check_paths
from tarotnotation.formats import json as tjson
from tarotnotation.legality import constraint, rule
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay
from tarotnotation.simulate import random_deal


def _rate(label: str, count: int, fn: Callable[[], object], unit: str = "deals") -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    rate = count / elapsed
    print(f"{label:<42} {rate:>12,.0f} {unit}/s   ({count:,} in {elapsed:.2f} s)")
    return rate


def main() -> None:
    """Run every stage and print its rate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rng = random.Random(2026)
    deals: list[DealRecord] = [random_deal(rng, (3, 4, 5)[i % 3]) for i in range(args.deals)]
    cards = sum(sum(len(t.cards) for t in d.play) for d in deals)
    print(f"{args.deals:,} random legal deals (3, 4 and 5 players), {cards:,} cards played")

    _rate("replay (validate + score)", len(deals), lambda: [replay(d) for d in deals])
    _rate("replay, per card", cards, lambda: [replay(d) for d in deals], unit="cards")

    hand = sum(1 << c for c in rng.sample(range(78), 18))
    trick = [20, 75]
    calls = 200_000
    _rate("legality.rule (the replay's fast path)", calls,
          lambda: [rule(hand, trick) for _ in range(calls)], unit="calls")
    _rate("legality.constraint (with the reason)", calls,
          lambda: [constraint(hand, trick) for _ in range(calls)], unit="calls")

    blobs = [tjson.dumps(d) for d in deals]
    _rate("JSON export (dumps)", len(deals), lambda: [tjson.dumps(d) for d in deals])
    def load_each() -> None:
        for b in blobs:
            tjson.loads(b)  # consumed, not kept: as an archive check reads

    _rate("JSON import (loads, validated)", len(deals), load_each)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        per_file = max(1, len(deals) // 8)
        for i in range(0, len(deals), per_file):
            with (folder / f"part{i // per_file}.jsonl").open("wb") as fh:
                tjson.write(deals[i:i + per_file], fh)
        _rate("archive check (JSONL, 1 process)", len(deals),
              lambda: sum(1 for _ in check_paths([folder])))
        _rate(f"archive check (JSONL, {args.jobs} processes)", len(deals),
              lambda: sum(1 for _ in check_paths([folder], jobs=args.jobs)))


if __name__ == "__main__":
    main()
