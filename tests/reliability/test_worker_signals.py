"""The signals of the workers (tarotnotation.workers) and of the blocks that hold the
signals back (tarotnotation.atomic.signals_held).

A worker ignores SIGINT (Ctrl-C reaches the whole process group: the parent decides),
dies of SIGTERM and SIGHUP where it stands (a process group's, as ``timeout``, a
service's stop or a closed terminal send them), and holds nothing back; the parent,
which shares no lock with it, then ends the run (tests/cli/test_cli_signals.py)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tarotnotation import atomic
from tarotnotation.cli.status import Interrupted, install_signal_handlers

_WORKERS = """
import os, signal, sys
from tarotnotation.workers import Workers

def bits(path, field):
    for line in open(path):
        if line.startswith(field + ":"):
            mask = int(line.split()[1], 16)
            return {sig for sig in signal.Signals if mask >> (sig - 1) & 1}
    raise LookupError(field)

signal.signal(signal.SIGTERM, lambda *_: None)  # (the parent's handlers, forked)
if sys.argv[1] == "nohup":
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
else:
    signal.signal(signal.SIGHUP, lambda *_: None)
with Workers(2) as workers:
    calls = [workers.submit(os.getpid) for _ in range(8)]  # (both busy: two forked)
    pids = {call.result() for call in calls}
    assert len(pids) == 2 and os.getpid() not in pids, pids
    for pid in pids:
        status = f"/proc/{pid}/status"
        ignored, caught = bits(status, "SigIgn"), bits(status, "SigCgt")
        assert signal.SIGINT in ignored, status
        assert signal.SIGTERM not in ignored | caught, status
        if sys.argv[1] == "nohup":
            assert signal.SIGHUP in ignored, status
        else:
            assert signal.SIGHUP not in ignored | caught, status
        assert not {signal.SIGINT, signal.SIGTERM, signal.SIGHUP} & bits(status, "SigBlk")
print(len(pids))
"""


@pytest.mark.process
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["plain", "nohup"])
def test_a_worker_ignores_sigint_and_dies_of_sigterm_and_sighup(how: str) -> None:
    """Read from /proc: a worker ignores SIGINT, keeps SIGTERM's and SIGHUP's default
    (a forked one no longer runs the parent's handler of SIGHUP), and holds none back;
    started under ``nohup``, it keeps SIGHUP ignored."""
    ran = subprocess.run([sys.executable, "-c", _WORKERS, how], capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert int(ran.stdout) == 2


@pytest.fixture
def mask_kept() -> Iterator[frozenset[int]]:
    before = frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, ()))
    try:
        yield before
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        sys.setprofile(None)


class _Due(BaseException):
    """What a signal's handler raised."""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal mask")
@pytest.mark.parametrize("step", [1, 2, 3])
def test_signals_held_gives_the_mask_back_when_a_handler_raises_at_any_step(
        mask_kept: frozenset[int], step: int) -> None:
    """A handler that is due runs as ``pthread_sigmask`` returns, the mask already
    changed: raised there (by a profile hook, at the block's first, second and third
    call of it), the block still gives back the mask it found (it kept SIGINT, SIGTERM
    and SIGHUP blocked for good when its one call both read and changed the mask)."""
    calls = [0]

    def hook(frame: Any, event: str, arg: Any) -> None:
        if (event == "c_return" and getattr(arg, "__name__", "") == "pthread_sigmask"
                and frame.f_back is not None  # (signal.py's wrapper, called by the block)
                and frame.f_back.f_code.co_filename == atomic.__file__):
            calls[0] += 1
            if calls[0] == step:
                raise _Due

    def held() -> None:
        sys.setprofile(hook)
        try:
            with atomic.signals_held():
                assert signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, ())
        finally:
            sys.setprofile(None)

    with pytest.raises(_Due):
        held()
    assert calls[0] == step
    assert frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, ())) == mask_kept
    assert not atomic.held_back(signal.SIGTERM)  # (no block is left open)


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="no signal to a thread")
@pytest.mark.parametrize(("sig", "raised"), [(signal.SIGINT, KeyboardInterrupt),
                                             (signal.SIGTERM, Interrupted),
                                             (signal.SIGHUP, Interrupted)])
def test_a_signal_another_thread_takes_in_a_held_block_is_raised_as_the_block_ends(
        mask_kept: frozenset[int], sig: signal.Signals, raised: type[BaseException]
        ) -> None:
    """The mask holds a signal back from the thread of the block only: a thread started
    without it (as Dask's client threads are) takes it, and Python runs the handler in
    the main thread at its next look (taking the lock of the interpreter back, here a
    sleep's end), inside the very code the block keeps whole. The command line's
    handlers let it wait to the block's end; a second signal goes through."""
    kept = {s: signal.getsignal(s) for s in atomic.HELD_SIGNALS}
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # (started unheld: it may take the signal)
    other.start()
    inside = [False]
    seen: list[bool] = []  # (each run of the handler: whether it ran inside the block)
    steps = [0]

    def held(signals: int) -> None:
        with atomic.signals_held():
            inside[0] = True
            assert other.ident is not None
            for _ in range(signals):
                before = len(seen)
                signal.pthread_kill(other.ident, sig)
                deadline = time.monotonic() + 10
                while len(seen) == before and time.monotonic() < deadline:
                    time.sleep(0.001)  # (the main thread looks for the signal here)
                assert len(seen) > before, "the handler never ran"
            for _ in range(10_000):
                steps[0] += 1
            inside[0] = False

    handlers: list[Callable[[int, Any], Any]] = []

    def spy(signum: int, frame: Any) -> Any:
        seen.append(inside[0])
        return handlers[-1](signum, frame)

    def spied() -> None:
        """The command line's handlers, each run noted by the spy (a signal the run was
        started with ignored, as SIGHUP under ``nohup``, given a handler first: the
        command line leaves an ignored signal ignored)."""
        for s, h in kept.items():
            signal.signal(s, (lambda *_: None) if h is signal.SIG_IGN else h)
        install_signal_handlers()
        handler = signal.getsignal(sig)
        assert callable(handler)
        handlers.append(handler)
        signal.signal(sig, spy)

    try:
        spied()
        with pytest.raises(raised) as caught:
            held(1)
        # the handler ran inside the block and let the signal wait; the block ran whole,
        # then the signal was raised as it ended
        assert seen == [True, False]
        assert steps[0] == 10_000
        if isinstance(caught.value, Interrupted):
            assert caught.value.signum == sig
        assert not atomic.held_back(sig)
        # a second signal while the first waits goes through, inside the block (the
        # handlers put back first: the first SIGTERM or SIGHUP ignores the next ones)
        spied()
        seen.clear()
        steps[0] = 0
        with pytest.raises(raised):
            held(2)
        assert seen[:2] == [True, True]
        assert steps[0] == 0
        assert not atomic.held_back(sig)
    finally:
        stop.set()
        other.join()
        for s, h in kept.items():
            signal.signal(s, h)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal mask")
def test_a_signal_at_any_step_of_a_held_block_is_raised_once_and_never_lost(
        mask_kept: frozenset[int]) -> None:
    """A handler that asks ``held_back`` run at each step of the block in turn (one run
    a step, from a trace hook, as Python runs a handler between two steps): the signal
    is raised once, either there or as the block ends, never noted and lost, and the
    next block starts clean."""
    code = atomic.signals_held.__wrapped__.__code__  # type: ignore[attr-defined]
    kept = signal.getsignal(signal.SIGUSR1)

    def handler(signum: int, frame: Any) -> None:
        if not atomic.held_back(signum):
            raise _Due

    def run(step: int) -> tuple[int, int]:
        """The block with the handler run at its ``step``-th line: the steps it has, and
        how many times the signal was raised out of it."""
        lines = [0]

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                lines[0] += 1
                if lines[0] == step:
                    handler(signal.SIGUSR1, frame)
            return local

        def trace(frame: Any, event: str, arg: Any) -> Any:
            return local if frame.f_code is code else None

        raised = 0
        sys.settrace(trace)
        try:
            with atomic.signals_held():
                pass
        except _Due:
            raised += 1
        finally:
            sys.settrace(None)
        return lines[0], raised

    signal.signal(signal.SIGUSR1, handler)
    try:
        step = 1
        while (got := run(step))[0] >= step:
            assert got[1] == 1, step
            with atomic.signals_held():  # (nothing left noted: the next block is clean)
                pass
            assert not atomic.held_back(signal.SIGUSR1)
            step += 1
        assert step > 10
    finally:
        signal.signal(signal.SIGUSR1, kept)
