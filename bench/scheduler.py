"""The benchmark of ``--scheduler`` (issue 36; docs/distributed.md), run by
``python bench/run.py --distributed DEALS`` (``--analysis-only``: the analysis stages):

- ``analyze-running1``, ``analyze-running2``: ``tarot analyze`` of the first 100 generated
  deals with a node budget (``--budget``, 1,000,000 nodes a deal unless bench/run.py's
  ``--budget`` says another), on a cluster already
  running, as a cluster's user has it: a ``dask scheduler`` and 1 or 2 ``dask worker
  --nthreads 1`` processes on 127.0.0.1 (started as tests/cluster starts them, waited
  for, warmed by one small run), the command given ``--scheduler tcp://127.0.0.1:PORT``;
  the second's speed-up over the first is the issue's goal (at least 1.8x);
- ``bots-running1``, ``bots-running2``: the same for 100 deals played by the heuristic
  bots (``tarot new --bots heuristic``: a real game's bidding and play);
- ``analyze-local1``, ``analyze-local2``: the generated deals again, end to end, on a
  local cluster the command starts and ends (``--scheduler local:1``, ``local:2``): the
  cluster's start included;
- ``validate-j2``, ``validate-scheduler2``: ``tarot validate -q`` of DEALS deals of JSON
  Lines (1,000,000 in the issue: the generated ones repeated) with ``-j 2`` and with
  ``--scheduler local:2``; the second's throughput against the first's is the issue's
  goal (at least 80%);
- ``task-overhead``: what a task costs the cluster beyond its work: 2,000 tasks that do
  nothing, handed to ``local:2`` (:class:`tarotnotation.cluster.Cluster`) and their results
  taken in order, in this process, after a first round has warmed everything up.

Each row: wall seconds, CPU seconds of the command (with a local cluster's workers, its
children) and of a running cluster's scheduler and workers, the load average before and
after, items a second. The analyses of the same deals must give the same bytes (checked).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
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


def _cpu(pids: list[int]) -> float:
    """CPU seconds the processes ``pids`` have used so far (Linux: /proc/PID/stat)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # (utime, stime: the 14th and 15th)
    return total / tick


def _timed(cmd: list[str], n: int, others: Sequence[int] = ()) -> dict[str, Any]:
    """The command run, timed (``others``: a running cluster's workers, whose CPU
    seconds are counted apart)."""
    load = os.getloadavg()[0]
    workers_cpu = _cpu(list(others)) if others else 0.0
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
    row = {"count": n, "seconds": elapsed, "cpu_seconds": usage.ru_utime + usage.ru_stime,
           "rate": n / elapsed, "load_before": load, "load_after": os.getloadavg()[0],
           "command": " ".join(["tarot", *cmd[len(_tarot()):]])}
    if others:
        row["workers_cpu_seconds"] = _cpu(list(others)) - workers_cpu
    return row


def _dask() -> str:
    return str(Path(sys.executable).with_name("dask"))


@contextlib.contextmanager
def running(workers: int, scratch: Path, warm: Path, budget: int = BUDGET
            ) -> Iterator[tuple[str, list[int], Any]]:
    """A scheduler and ``workers`` workers of one thread on 127.0.0.1 (as tests/cluster
    starts them), waited for and warmed by one analysis of ``warm``: their address, their
    processes (the scheduler's first) and a client of the scheduler (to read its task
    stream); all killed at the end."""
    file = scratch / f"scheduler-{workers}.json"
    file.unlink(missing_ok=True)
    started: list[subprocess.Popen[bytes]] = []
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                             "start_new_session": True}
    try:
        started.append(subprocess.Popen(
            [_dask(), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(file)], **quiet))
        deadline = time.monotonic() + 60
        while not (file.exists() and b"address" in file.read_bytes()):
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start in 60 s")
            time.sleep(0.1)
        address = json.loads(file.read_bytes())["address"]
        started += [subprocess.Popen(
            [_dask(), "worker", address, "--nthreads", "1", "--no-nanny", "--host",
             "127.0.0.1", "--no-dashboard"], **quiet) for _ in range(workers)]
        import distributed

        client_type: Any = distributed.Client  # (untyped)
        with client_type(address, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)
            client.get_task_stream()  # (the scheduler records the tasks from now on)
            _timed([*_tarot(), "analyze", str(warm), "--budget", str(budget), "-o",
                    str(scratch / "warm.jsonl"), "--scheduler", address], 1)
            yield address, [p.pid for p in started], client
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait(timeout=30)


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


def _bots(folder: Path, n: int) -> Path:
    """``n`` deals played by the heuristic bots (made once, kept with the others)."""
    path = folder / f"bots-{n}.jsonl"
    if not path.exists():
        subprocess.run([*_tarot(), "new", "--bots", "heuristic", "--count", str(n), "--seed",
                        "5", "-o", str(path)], check=True, capture_output=True)
    return path


def _idle(stream: list[dict[str, Any]], workers: int) -> dict[str, float]:
    """From a scheduler's task stream: the share of the workers' time with no task to
    compute, from the first task's start to the last one's end (waiting for a task,
    taking it in, sending its result back, and the end's tail: one worker on the last
    deal, the other done), and the median and longest task."""
    spans = [(float(s["start"]), float(s["stop"])) for task in stream
             for s in task.get("startstops", ()) if s.get("action") == "compute"]
    if not spans:
        return {}
    whole = max(stop for _, stop in spans) - min(start for start, _ in spans)
    busy = sorted(stop - start for start, stop in spans)
    return {"idle_share": 1 - sum(busy) / (workers * whole), "task_median_s":
            busy[len(busy) // 2], "task_max_s": busy[-1], "tail_s": max(
                stop for _, stop in spans) - max(start for start, _ in spans)}


def _analysis(name: str, deals: Path, scheduler: str, scratch: Path,
              on: tuple[list[int], Any, int] | None = None, budget: int = BUDGET
              ) -> dict[str, Any]:
    """One analysis of ``deals``, timed (``on``: a running cluster's processes, client
    and workers)."""
    print(f"  {name} ...", file=sys.stderr, flush=True)
    out = scratch / f"{name}.jsonl"
    since = time.time()
    row = _timed([*_tarot(), "analyze", str(deals), "--budget", str(budget), "-o", str(out),
                  "--scheduler", scheduler], ANALYSED, on[0][1:] if on else ())
    if on is not None:
        row.update(_idle(on[1].get_task_stream(start=since), on[2]))
    row["output"] = str(out)
    return row


def analysis_rows(folder: Path, scratch: Path, budget: int = BUDGET
                  ) -> dict[str, dict[str, Any]]:
    """The analysis stages (see the module doc), each deal within ``budget`` nodes, by
    name; the outputs of the same deals compared byte for byte."""
    out: dict[str, dict[str, Any]] = {}
    few, bots = _first(folder, ANALYSED), _bots(folder, ANALYSED)
    warm = _first(folder, 2)
    for workers in (1, 2):
        with running(workers, scratch, warm, budget) as (address, pids, client):
            for name, deals in ((f"analyze-running{workers}", few),
                                (f"bots-running{workers}", bots)):
                scheduler = _cpu(pids[:1])
                out[name] = _analysis(name, deals, address, scratch, (pids, client, workers),
                                      budget)
                out[name]["scheduler_cpu_seconds"] = _cpu(pids[:1]) - scheduler
    for workers in (1, 2):
        out[f"analyze-local{workers}"] = _analysis(
            f"analyze-local{workers}", few, f"local:{workers}", scratch, None, budget)
    for group in (("analyze-running1", "analyze-running2", "analyze-local1",
                   "analyze-local2"), ("bots-running1", "bots-running2")):
        outputs = {Path(out[name].pop("output")).read_bytes() for name in group}
        if len(outputs) != 1:
            raise RuntimeError(f"the analyses {', '.join(group)} differ")
    return out


def rows(folder: Path, big: Path | None, deals: int, scratch: Path, budget: int = BUDGET
         ) -> dict[str, dict[str, Any]]:
    """Every stage of this benchmark (see the module doc), by name (``big`` None: the
    analysis stages only)."""
    tarot = _tarot()
    out = analysis_rows(folder, scratch, budget)
    if big is None:
        return out
    for name, how in (("validate-j2", ["-j", "2"]),
                      ("validate-scheduler2", ["--scheduler", "local:2"])):
        print(f"  {name} ({deals:,} deals) ...", file=sys.stderr, flush=True)
        out[name] = _timed([*tarot, "validate", "-q", *how, str(big)], deals)
    print("  task-overhead ...", file=sys.stderr, flush=True)
    out["task-overhead"] = overhead()
    return out


def table(found: dict[str, dict[str, Any]]) -> str:
    """The rows as the table of docs/distributed.md, and the two ratios of the issue."""
    lines = ["| stage | deals | wall s | command CPU s | workers CPU s | scheduler CPU s"
             " | workers idle | median / longest deal s | load before / after |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, row in found.items():
        def number(key: str, row: dict[str, Any] = row) -> str:
            return "" if row.get(key) is None else f"{row[key]:.1f}"

        idle = "" if "idle_share" not in row else f"{row['idle_share']:.0%}"
        deals = ("" if "task_max_s" not in row else
                 f"{row['task_median_s']:.2f} / {row['task_max_s']:.2f}")
        load = (f"{row['load_before']:.1f} / {row['load_after']:.1f}"
                if "load_before" in row else "")
        lines.append(f"| {name} | {row['count']:,} | {row['seconds']:.1f}"
                     f" | {number('cpu_seconds')} | {number('workers_cpu_seconds')}"
                     f" | {number('scheduler_cpu_seconds')} | {idle} | {deals} | {load} |")
    lines.append("")
    for one, two, label in (("analyze-running1", "analyze-running2", "running cluster"),
                            ("bots-running1", "bots-running2", "running cluster, bots' deals"),
                            ("analyze-local1", "analyze-local2", "local:N, end to end")):
        a1, a2 = found.get(one), found.get(two)
        if a1 and a2:
            lines.append(f"analysis, 2 workers against 1 ({label}):"
                         f" {a1['seconds'] / a2['seconds']:.2f}x")
    v, s = found.get("validate-j2"), found.get("validate-scheduler2")
    if v and s:
        lines.append(f"validation through the scheduler against -j 2: "
                     f"{s['rate'] / v['rate']:.0%} of its throughput")
    o = found.get("task-overhead")
    if o:
        lines.append(f"per task: {o['per_task_ms']:.2f} ms")
    return "\n".join(lines)
