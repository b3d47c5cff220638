"""Benchmark of the text notation: write, full read, skim of the tags, parser start-up.

Run: ``python benchmarks/bench_notation.py [--deals N] [--annotated]``. Writes N random
legal deals (``tarotnotation.simulate.random_deal``, 3, 4 and 5 players, with hands,
chien, auction, écart, declarations, play and result) to a temporary ``.tarot`` file,
then prints deals per second for each stage and the peak memory of a full read.
``--annotated`` adds a glyph and a comment to one card in three (more tokens).
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from lark import Lark

from tarotnotation.notation import dump, read_file, reads, skim_tags
from tarotnotation.notation.reader import grammar_text
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal


def _rate(label: str, count: int, fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    rate = count / elapsed
    print(f"{label:<40} {rate:>10,.0f} deals/s   ({count:,} in {elapsed:.2f} s)")
    return rate


def _annotate(rng: random.Random, record: DealRecord) -> DealRecord:
    tricks = []
    for trick in record.play:
        cards = tuple(
            pc.model_copy(update={"glyph": "!?", "comments": ("bien joué",)})
            if rng.random() < 1 / 3 else pc
            for pc in trick.cards
        )
        tricks.append(trick.model_copy(update={"cards": cards}))
    return record.model_copy(update={"play": tuple(tricks), "comments": ("une donne",)})


def _consume(it: object) -> int:
    count = 0
    for _ in it:  # type: ignore[attr-defined]
        count += 1
    return count


def main() -> None:
    """Write the deals, then time each stage and print its rate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--annotated", action="store_true")
    args = parser.parse_args()
    rng = random.Random(2026)
    records = [random_deal(rng, (3, 4, 5)[i % 3]) for i in range(args.deals)]
    if args.annotated:
        records = [_annotate(rng, r) for r in records]

    start = time.perf_counter()
    Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)
    print(f"{'build the parser (no cache, strict)':<40} {time.perf_counter() - start:>10.3f} s")
    first = reads('[Players "4"]\nauction: pass\n')
    start = time.perf_counter()
    _consume(first)
    print(f"{'first read in this process (cache)':<40} {time.perf_counter() - start:>10.3f} s")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deals.tarot"

        def write() -> None:
            with path.open("w", encoding="utf-8") as fp:
                dump(records, fp)

        _rate("write (canonical text)", len(records), write)
        size = path.stat().st_size
        print(f"{'file size':<40} {size / len(records):>10,.0f} bytes/deal")
        _rate("read (records, positions)", len(records), lambda: _consume(read_file(path)))
        _rate("skim tags", len(records), lambda: _consume(skim_tags(path)))

        tracemalloc.start()
        ok = sum(1 for deal in read_file(path) if deal.ok)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{'peak memory of a full read':<40} {peak / 1024:>10,.0f} KiB"
              f" ({ok} records read, file {size / 1024:,.0f} KiB)")


if __name__ == "__main__":
    main()
