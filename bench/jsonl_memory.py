"""Constant memory on large JSON Lines archives: generate, convert both ways, validate.

Run: ``python bench/jsonl_memory.py [--deals 10000 100000] [--seed S] [--keep DIR]``.

For each size N it generates a seeded archive of N random legal deals
(:func:`tarotnotation.simulate.random_deal`, 4 players) as JSON Lines, then runs each step
in its own subprocess, so that the peak RSS (``resource.getrusage(...).ru_maxrss``) is that
step's alone:

- ``generate``: N deals generated and written as JSON Lines, one at a time;
- ``jsonl->tarot``: the archive read with ``formats.json.read`` (line by line) and written
  in the text notation (``notation.dump``), one record at a time;
- ``tarot->jsonl``: the text read back (``notation.read``) and written as JSON Lines;
- ``validate jsonl`` / ``validate tarot``: ``archive.check_paths`` over each file (read,
  replay and score every deal, as ``tarot validate`` does), counting the deals with errors.

It checks that the round trip gives the same JSON Lines bytes and that every deal is valid,
then prints one table per size. Memory is flat when the peak RSS of a step does not grow
with N: compare the rows of 10,000 and 100,000 deals. The peak RSS is ``ru_maxrss``; on
Linux the table also gives ``VmHWM`` (the same peak, of the step's own memory only).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarotnotation.records import DealRecord

STEPS = ("generate", "jsonl->tarot", "tarot->jsonl", "validate jsonl", "validate tarot")


def _generate(folder: Path, n: int, seed: int) -> int:
    from tarotnotation.formats import json as tjson
    from tarotnotation.simulate import random_deal

    rng = random.Random(seed)
    with (folder / "archive.jsonl").open("wb") as fh:
        return tjson.write((random_deal(rng, 4) for _ in range(n)), fh)


def _jsonl_to_tarot(folder: Path) -> int:
    from tarotnotation import notation
    from tarotnotation.formats import json as tjson

    count = 0
    with (folder / "archive.tarot").open("w", encoding="utf-8") as out:
        for item in tjson.read(folder / "archive.jsonl"):
            assert item.record is not None, item.diagnostics
            if count:
                out.write("\n")
            notation.dump(item.record, out)
            count += 1
    return count


def _tarot_to_jsonl(folder: Path) -> int:
    from tarotnotation import notation
    from tarotnotation.formats import json as tjson

    def records() -> Iterator[DealRecord]:
        for item in notation.read(folder / "archive.tarot"):
            assert item.record is not None, item.diagnostics
            yield item.record

    with (folder / "back.jsonl").open("wb") as fh:
        return tjson.write(records(), fh)


def _validate(path: Path) -> int:
    from tarotnotation.archive import check_paths

    deals = faulty = 0
    for checked in check_paths([path]):
        deals += 1
        faulty += checked.errors > 0
    if faulty:
        raise SystemExit(f"{path}: {faulty} of {deals} deals have errors")
    return deals


def _step(name: str, folder: Path, n: int, seed: int) -> Callable[[], int]:
    return {
        "generate": lambda: _generate(folder, n, seed),
        "jsonl->tarot": lambda: _jsonl_to_tarot(folder),
        "tarot->jsonl": lambda: _tarot_to_jsonl(folder),
        "validate jsonl": lambda: _validate(folder / "archive.jsonl"),
        "validate tarot": lambda: _validate(folder / "archive.tarot"),
    }[name]


def _child(name: str, folder: Path, n: int, seed: int) -> None:
    work = _step(name, folder, n, seed)
    start = time.perf_counter()
    count = work()
    seconds = time.perf_counter() - start
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"step": name, "deals": count, "seconds": seconds,
                      "peak_rss_mb": rss_kb / 1024, "vm_hwm_mb": _vm_hwm_kb() / 1024}))


def _vm_hwm_kb() -> float:
    """The peak RSS of this process's own memory (Linux ``VmHWM``), or NaN elsewhere.

    ``ru_maxrss`` also counts the parent's peak before ``exec`` (Linux keeps the larger):
    the driver keeps its own memory small, and this second figure confirms the first.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return float(line.split()[1])
    except OSError:
        pass
    return float("nan")


def _same_bytes(a: Path, b: Path) -> bool:
    """Whether two files hold the same bytes, compared a block at a time (the driver's
    own memory stays small: its children inherit its peak in ``ru_maxrss``)."""
    if a.stat().st_size != b.stat().st_size:
        return False
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            block = fa.read(1 << 20)
            if block != fb.read(1 << 20):
                return False
            if not block:
                return True


def _run(name: str, folder: Path, n: int, seed: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", name, "--folder", str(folder),
           "--deals", str(n), "--seed", str(seed)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"step {name} failed:\n{done.stderr}")
    row: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if row["deals"] != n:
        raise SystemExit(f"step {name}: {row['deals']} deals instead of {n}")
    return row


def _baseline() -> float:
    """The peak RSS of a process that only imports the library and reads one deal."""
    code = ("import resource; from tarotnotation import archive, notation;"
            " from tarotnotation.replay import replay;"
            " from tarotnotation.formats import json;"
            " print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=Path, help="keep the archives in this folder")
    parser.add_argument("--child", choices=STEPS, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.folder, args.deals[0], args.seed)
        return 0
    print(f"python {sys.version.split()[0]}; peak RSS of the bare import: "
          f"{_baseline():.1f} MB")
    results = {}
    for n in args.deals:
        with tempfile.TemporaryDirectory() as tmp:
            folder = args.keep / str(n) if args.keep else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            rows = [_run(step, folder, n, args.seed) for step in STEPS]
            same = _same_bytes(folder / "archive.jsonl", folder / "back.jsonl")
            sizes = {p.name: p.stat().st_size for p in sorted(folder.iterdir())}
        print(f"\n{n:,} deals (archive.jsonl {sizes['archive.jsonl'] / 2**20:.1f} MB,"
              f" archive.tarot {sizes['archive.tarot'] / 2**20:.1f} MB);"
              f" JSONL -> tarot -> JSONL byte-identical: {same}")
        print(f"{'step':<16}{'seconds':>10}{'deals/s':>10}{'peak RSS MB':>14}{'VmHWM MB':>11}")
        for row in rows:
            print(f"{row['step']:<16}{row['seconds']:>10.1f}"
                  f"{row['deals'] / row['seconds']:>10,.0f}{row['peak_rss_mb']:>14.1f}"
                  f"{row['vm_hwm_mb']:>11.1f}")
        if not same:
            raise SystemExit("the round trip changed the archive")
        results[n] = rows
    if len(results) > 1:
        small, large = min(results), max(results)
        print(f"\npeak RSS, {large:,} deals against {small:,}:")
        for a, b in zip(results[small], results[large], strict=True):
            print(f"  {a['step']:<16}{a['peak_rss_mb']:>8.1f} MB -> {b['peak_rss_mb']:>6.1f} MB"
                  f"  ({b['peak_rss_mb'] - a['peak_rss_mb']:+.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
