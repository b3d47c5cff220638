"""The benchmark of ``--scheduler`` (issue 36; docs/distributed.md), run by
``python bench/run.py --distributed DEALS``:

- ``analyze-local1``, ``analyze-local2``: ``tarot analyze`` of the first 100 generated deals
  with a node budget (``--budget``, 1,000,000 nodes a deal by default), on a local cluster
  of 1 and of 2 workers (``--scheduler local:1``, ``local:2``), end to end; the second's
  speed-up over the first is the issue's goal (at least 1.8x);
- ``validate-j2``, ``validate-scheduler2``: ``tarot validate -q`` of DEALS deals of JSON
  Lines (1,000,000 in the issue: the generated ones repeated) with ``-j 2`` and with
  ``--scheduler local:2``; the second's throughput against the first's is the issue's
  goal (at least 80%);
- ``task-overhead``: what a task costs the cluster beyond its work: 2,000 tasks that do
  nothing, handed to ``local:2`` (:class:`tarotnotation.cluster.Cluster`) and their results
  taken in order, in this process, after a first round has warmed everything up.

Each row: wall seconds, CPU seconds of the command (this process's children: the workers
of a local cluster are the command's), items a second.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: Deals of the analysis stages, and each deal's node budget.
ANALYSED = 100
BUDGET = 1_000_000
#: Tasks of the overhead stage.
TASKS = 2000


def _tarot() -> list[str]:
    script = Path(sys.executable).with_name("tarot")
    return [str(script)] if script.exists() else [
        sys.executable, "-c", "from tarotnotation.cli.app import main; main()"]


def _timed(cmd: list[str], n: int) -> dict[str, Any]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = (proc.stderr.read() if proc.stderr else b"").decode()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed ({code}): {err[-2000:]}")
    # (a local cluster's workers are the command's children, waited for when it closes
    # the cluster: their CPU time is in the command's)
    return {"count": n, "seconds": elapsed, "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "rate": n / elapsed, "command": " ".join(["tarot", *cmd[len(_tarot()):]])}


def _first(folder: Path, n: int) -> Path:
    path = folder / f"first-{n}.jsonl"
    if not path.exists():
        with (folder / "deals.jsonl").open("rb") as fh, path.open("wb") as out:
            out.writelines(itertools.islice(fh, n))
    return path


def _noop(i: int) -> int:
    return i


def overhead(tasks: int = TASKS) -> dict[str, Any]:
    """Seconds a task costs ``local:2`` beyond its work (no work at all here)."""
    from tarotnotation.cluster import connect

    with connect("local:2") as cluster:
        for round_ in range(2):
            start = time.perf_counter()
            pending = [cluster.submit(_noop, i) for i in range(tasks)]
            total = sum(task.result() for task in pending)
            elapsed = time.perf_counter() - start
            assert total == tasks * (tasks - 1) // 2
            if round_ == 1:
                return {"count": tasks, "seconds": elapsed, "rate": tasks / elapsed,
                        "per_task_ms": 1000 * elapsed / tasks,
                        "command": f"{tasks} empty tasks on local:2, in process"}
    raise AssertionError("unreachable")


def rows(folder: Path, big: Path, deals: int, scratch: Path) -> dict[str, dict[str, Any]]:
    """Every stage of this benchmark (see the module doc), by name."""
    tarot = _tarot()
    out: dict[str, dict[str, Any]] = {}
    few = _first(folder, ANALYSED)
    for workers in (1, 2):
        print(f"  analyze-local{workers} ...", file=sys.stderr, flush=True)
        out[f"analyze-local{workers}"] = _timed(
            [*tarot, "analyze", str(few), "--budget", str(BUDGET), "-o",
             str(scratch / f"analysed-{workers}.jsonl"), "--scheduler", f"local:{workers}"],
            ANALYSED)
    for name, how in (("validate-j2", ["-j", "2"]),
                      ("validate-scheduler2", ["--scheduler", "local:2"])):
        print(f"  {name} ({deals:,} deals) ...", file=sys.stderr, flush=True)
        out[name] = _timed([*tarot, "validate", "-q", *how, str(big)], deals)
    print("  task-overhead ...", file=sys.stderr, flush=True)
    out["task-overhead"] = overhead()
    return out


def table(found: dict[str, dict[str, Any]]) -> str:
    """The rows as the table of docs/distributed.md, and the two ratios of the issue."""
    lines = ["| stage | items | wall s | CPU s | items/s |", "|---|---:|---:|---:|---:|"]
    for name, row in found.items():
        cpu = row.get("cpu_seconds")
        lines.append(f"| {name}: {row['command']} | {row['count']:,} | {row['seconds']:.1f}"
                     f" | {'' if cpu is None else f'{cpu:.1f}'} | {row['rate']:,.1f} |")
    a1, a2 = found.get("analyze-local1"), found.get("analyze-local2")
    if a1 and a2:
        lines.append(f"\nanalysis, 2 workers against 1: {a1['seconds'] / a2['seconds']:.2f}x")
    v, s = found.get("validate-j2"), found.get("validate-scheduler2")
    if v and s:
        lines.append(f"validation through the scheduler against -j 2: "
                     f"{s['rate'] / v['rate']:.0%} of its throughput")
    o = found.get("task-overhead")
    if o:
        lines.append(f"per task: {o['per_task_ms']:.2f} ms")
    return "\n".join(lines)
