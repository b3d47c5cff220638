"""Signals: an interrupted command leaves the old file and no temporary, ends every process
it started, and says so by its exit status (130 for SIGINT, 143 for SIGTERM).

Each test sends a real signal to a real ``tarot`` process at a moment it controls: the
command reads a FIFO that the test feeds, so it is caught mid-run whatever the machine's
speed (its output's temporary file already exists, its workers already started). Process
groups are read from /proc (Linux): the command runs in a session of its own, and after
the signal no process of its group may remain.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_runs import CLEAN_EXAMPLES, EXAMPLES, ROOT, TAROT, plain_env
from processes import children, group, wait_for
from test_cli_contract import REGISTERED, required

from tarotnotation.notation.writer import dumps_bytes as tarot_dumps

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="process groups are read from /proc")]

DEAL = (EXAMPLES / "prise.tarot").read_bytes()
OLD = b"the old file, which must survive\n"


def _default_signals() -> None:
    """SIGINT, SIGTERM and SIGHUP as a terminal's shell leaves them (the suite may run
    under ``nohup``, or with SIGINT ignored)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@contextmanager
def _started(args: list[str], cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``tarot ARGS`` in a session of its own, with SIGINT as a terminal would send it."""
    env = plain_env()
    env["PYTHONFAULTHANDLER"] = "1"  # SIGABRT (see _ended) dumps where it stands
    proc = subprocess.Popen(
        [str(TAROT), *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_default_signals)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.close()
        proc.stderr.close()


class _Feeder:
    """Writes to a FIFO from a thread: what it is given, then holds it open until closed."""

    def __init__(self, fifo: Path, first: bytes) -> None:
        self.fifo = fifo
        self.first = first
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with open(self.fifo, "wb") as fh:
                fh.write(self.first)
                fh.flush()
                self.done.wait(60)
        except BrokenPipeError:
            pass

    def close(self) -> None:
        self.done.set()
        if self.thread.is_alive():  # still waiting for a reader to open the FIFO: be one
            fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
            self.thread.join(timeout=30)
            os.close(fd)
        self.thread.join(timeout=30)


def _ended(proc: subprocess.Popen[bytes], timeout: float = 60) -> int:
    """The exit status; a process still running after ``timeout`` is made to show where
    it hangs (SIGABRT: Python's fault handler prints every thread's stack)."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        raise AssertionError(f"still running after {timeout} s:\n{err.decode()}") from None


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("command", [
    ["convert", "{fifo}", "-o", "{out}", "--to", "jsonl"],
    ["validate", "{fifo}", "-o", "{out}"],
])
def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, command: list[str], sig: int, status: int) -> None:
    fifo = tmp_path / "input.tarot"
    os.mkfifo(fifo)
    out = tmp_path / "out.txt"
    out.write_bytes(OLD)
    args = [a.format(fifo=fifo, out=out) for a in command]
    feeder = _Feeder(fifo, DEAL * 3)
    try:
        with _started(args, tmp_path) as proc:
            wait_for(lambda: bool(_temporaries(tmp_path)))  # mid-write
            os.kill(proc.pid, sig)
            assert _ended(proc) == status
            assert proc.stderr is not None
            assert b"Traceback" not in proc.stderr.read()
    finally:
        feeder.close()
    assert out.read_bytes() == OLD
    assert _temporaries(tmp_path) == []


def test_an_interrupted_new_and_fmt_leave_no_temporary(tmp_path: Path) -> None:
    # tarot new writes as it generates: caught while its temporary file exists
    out = tmp_path / "practice.jsonl"
    out.write_bytes(OLD)
    with _started(["new", "--count", "1000000", "-o", str(out)], tmp_path) as proc:
        wait_for(lambda: bool(_temporaries(tmp_path)))
        os.kill(proc.pid, signal.SIGTERM)
        assert _ended(proc) == 143
    assert out.read_bytes() == OLD
    assert _temporaries(tmp_path) == []
    # tarot fmt rewriting a big file: caught mid-rewrite
    big = tmp_path / "big.tarot"
    loose = DEAL.replace(b"\n", b"\r\n")
    big.write_bytes(b"\r\n".join([loose] * 1500))
    before = big.read_bytes()
    with _started(["fmt", str(big)], tmp_path) as proc:
        wait_for(lambda: bool(_temporaries(tmp_path)) or proc.poll() is not None)
        assert proc.poll() is None  # 1,500 deals take a second or more to format
        os.kill(proc.pid, signal.SIGINT)
        assert _ended(proc) == 130
    assert big.read_bytes() == before
    assert _temporaries(tmp_path) == []


#: Every registered command that starts worker processes (it takes --jobs), walked from
#: the app so that a new one is held to the same promise.
PARALLEL = sorted(name for name, cmd in REGISTERED.items() if name != "check" and any(
    "--jobs" in getattr(p, "opts", ()) for p in cmd.params))
HOWS = ("SIGTERM to the parent", "SIGINT to the group", "SIGKILL to the parent",
        "SIGTERM to the group", "SIGHUP to the group")
#: One command of each kind of work gets every signal (validate and the archive scans;
#: html, its workers each reading the whole text; analyze, a deal a worker); the others
#: SIGTERM. (A group's SIGTERM or SIGHUP, as ``timeout``, a service's stop or a closed
#: terminal send it, kills the workers where they stand: a multiprocessing Pool whose
#: worker died so, waiting for a task with the queue's lock, hung in its terminate.)
EVERY_SIGNAL = frozenset({"validate", "stats", "html", "analyze"})
#: The status of a run ended by a signal to its group (128 + the signal's number).
GROUP_STATUS = {"SIGTERM to the group": 143, "SIGHUP to the group": 129}


def test_the_parallel_commands_are_walked() -> None:
    assert {"validate", "query", "stats", "html", "analyze"} <= set(PARALLEL)


@pytest.mark.parametrize(("command", "how"), [
    (command, how) for command in PARALLEL for how in HOWS
    if how == HOWS[0] or command in EVERY_SIGNAL])
def test_no_process_outlives_a_parallel_run(tmp_path: Path, command: str, how: str) -> None:
    # FIFOs: each is read by a worker (a stream is never cut into chunks), which blocks
    # there while the test holds the FIFO open; then the signal.
    fifos = [tmp_path / f"part{i}.jsonl" for i in range(3)]
    for fifo in fifos:
        os.mkfifo(fifo)
    big = tmp_path / "big.jsonl"
    line = (ROOT / "examples" / "prise.tarot").read_bytes()
    from tarotnotation import notation
    from tarotnotation.formats import json as tjson

    record = notation.loads(line.decode("utf-8")).model_copy(update={"tags": ()})
    # (tarot html reads a stream that can be read once in its own process, not in a
    # worker: its workers are kept busy by a file of the text notation instead, which
    # each reads whole; its JSON Lines: tests/twins/test_html_fast.py.)
    streams = [] if command in ("html", "solve") else fifos
    big.write_bytes((tjson.dumps_bytes(record) + b"\n") * 4000)
    if command == "html":
        big = tmp_path / "big.tarot"
        big.write_bytes(tarot_dumps([record] * 6000))
    feeders = [_Feeder(f, DEAL) for f in streams]
    args = [command, "-j", "2", str(big), *map(str, streams), *required(command)]
    if command == "solve":  # (one position, not files: its cards in two groups, on workers)
        args = [command, "-j", "2", "--split", "2", str(ROOT / "examples" / "prise.tarot")]
    if command == "match":  # (no records read: two bots, deals enough to keep two workers)
        args = [command, "-j", "2", "heuristic", "random", "--deals", "100000", "--save",
                str(tmp_path / "games")]
    try:
        with _started(args, tmp_path) as proc:
            wait_for(lambda: len(group(proc.pid)) >= 3)  # the parent and two workers
            time.sleep(0.5)  # (the workers have set their signals up)
            assert proc.poll() is None, "the run ended before the signal"
            if how == "SIGTERM to the parent":
                os.kill(proc.pid, signal.SIGTERM)
                assert _ended(proc) == 143
            elif how == "SIGINT to the group":  # Ctrl-C at a terminal
                os.killpg(proc.pid, signal.SIGINT)
                assert _ended(proc) == 130
                assert proc.stderr is not None
                err = proc.stderr.read()
                assert b"Traceback" not in err, err
                assert b"KeyboardInterrupt" not in err, err
            elif how in GROUP_STATUS:
                os.killpg(proc.pid, getattr(signal, how.split()[0]))
                assert _ended(proc) == GROUP_STATUS[how]
                assert proc.stderr is not None
                err = proc.stderr.read()
                assert b"Traceback" not in err, err
            else:  # the parent cannot clean up: the kernel ends the workers
                os.kill(proc.pid, signal.SIGKILL)
                assert _ended(proc) == -signal.SIGKILL
            wait_for(lambda: group(proc.pid) == [], seconds=30)
    finally:
        for feeder in feeders:
            feeder.close()
    if how != "SIGKILL to the parent":  # nothing half-written is left behind
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_analyze_stopped_leaves_no_leaked_semaphore_warning(tmp_path: Path, sig: int,
                                                            status: int) -> None:
    """Issue 31: ``analyze -j 2`` stopped by Ctrl-C printed multiprocessing's
    ``resource_tracker: There appear to be 6 leaked semaphore objects``: the run ends at
    once (cli.app), skipping the exit that unlinks a pool's semaphores. Its workers are
    forked by workers.Workers now, which makes none (a multiprocessing pool's would still
    be unlinked first: workers.release_semaphores); the run stopped says nothing of the
    kind, and leaves no process."""
    deals = tmp_path / "deals.jsonl"
    from tarotnotation.formats import json as tjson
    from tarotnotation.simulate import random_deal

    deals.write_bytes(b"".join(tjson.dumps_bytes(random_deal(random.Random(i), 4)) + b"\n"
                               for i in range(8)))
    with _started(["analyze", "-j", "2", str(deals), "-o", str(tmp_path / "out.jsonl")],
                  tmp_path) as proc:
        wait_for(lambda: len(group(proc.pid)) >= 3)  # the parent and two workers
        time.sleep(0.5)
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else os.kill(proc.pid, sig)
        assert _ended(proc) == status
        wait_for(lambda: group(proc.pid) == [], seconds=30)
        assert proc.stderr is not None
        err = proc.stderr.read()
    assert b"leaked semaphore" not in err, err
    assert b"Traceback" not in err, err


def test_a_parallel_run_that_ends_normally_leaves_no_process(tmp_path: Path) -> None:
    clean = [str(p) for p in CLEAN_EXAMPLES]
    with _started(["validate", "-j", "2", *clean], tmp_path) as proc:
        assert _ended(proc, 120) == 0
        wait_for(lambda: group(proc.pid) == [], seconds=30)


def test_the_library_ends_its_workers_when_the_caller_stops_reading(tmp_path: Path) -> None:
    from tarotnotation.archive import check_paths

    fifo = tmp_path / "slow.tarot"
    os.mkfifo(fifo)
    feeder = _Feeder(fifo, DEAL)
    before = set(children())
    try:
        run = check_paths([EXAMPLES / "prise.tarot", fifo, EXAMPLES / "garde-sans.tarot"],
                          jobs=2, keep=False)
        first = next(run)
        assert first.file.endswith("prise.tarot")
        assert len(set(children()) - before) >= 1
        run.close()  # type: ignore[attr-defined]  # the caller leaves the loop: they end
        wait_for(lambda: set(children()) - before == set(), seconds=30)
    finally:
        feeder.close()


