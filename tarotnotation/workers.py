"""Worker processes that never outlive the run that started them: one place for every
pool of the library and the command line (``validate -j N``, the archive tools' scans,
``tarot html -j N``, ``tarot analyze -j N``).

Each worker starts with :func:`worker_start`: it ignores SIGINT (Ctrl-C reaches the
whole process group: the parent decides and ends the workers), takes SIGTERM's and
SIGHUP's default (it dies), and dies with its parent, whatever ended the parent
(``kill -9`` included): on Linux the kernel sends it SIGKILL (``PR_SET_PDEATHSIG``),
elsewhere a thread looks for a new parent twice a second.

:class:`Workers` is a pool of processes with an executor's ``submit``: on Linux its
workers are forked and fed through pipes (nothing of multiprocessing imported), elsewhere
it is a :class:`~concurrent.futures.ProcessPoolExecutor`. It terminates its workers at
once when its block is left by an exception (an interruption, a signal turned into an
exception, a caller that stops reading a generator). No lock is shared with the
workers: one killed where it stands (a process group's SIGTERM) leaves nothing taken. (A
:class:`multiprocessing.pool.Pool`, used here before, shares its queues' locks, and its
``terminate`` waited for ever for one that a killed worker held.)

>>> with Workers(2) as workers:
...     calls = [workers.submit(abs, n) for n in (-2, 1, -3)]
...     [call.result() for call in calls]
[2, 1, 3]
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Final, Protocol, TypeVar, cast

from .atomic import HELD_SIGNALS, signals_held

__all__ = ["Pending", "Pool", "WorkerDiedError", "Workers", "release_semaphores",
           "worker_start"]

_R = TypeVar("_R")
_R_co = TypeVar("_R_co", covariant=True)


def worker_start(parent: int) -> None:
    """A worker's first act: leave SIGINT to the parent, die on SIGTERM and SIGHUP (unless
    the run was started with SIGHUP ignored: ``nohup``), and die with the parent
    ``parent`` (its process id, as the parent saw it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:  # (a forked one: the parent's)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    # started with them held (signals_held): a Ctrl-C that came as it started is dropped,
    # a SIGTERM ends it now
    with contextlib.suppress(AttributeError, OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)
    if sys.platform.startswith("linux") and _die_with_parent():
        if os.getppid() != parent:  # the parent died before the call: end now
            os._exit(1)
        return
    if os.getppid() != parent:  # pragma: no cover (a parent already gone)
        os._exit(1)
    import threading  # pragma: no cover (not Linux)

    threading.Thread(target=_watch, args=(parent,), daemon=True).start()  # pragma: no cover


def _die_with_parent() -> bool:
    """Have the kernel send this process SIGKILL when its parent ends (Linux's
    ``PR_SET_PDEATHSIG``): by the compiled core when it is built (loaded already, so a
    worker starts without importing anything), else through ctypes. False when it
    cannot."""
    from . import native

    twin = native.compiled(force=True)
    if twin is not None:
        return bool(twin.die_with_parent(signal.SIGKILL))
    try:  # pragma: no cover (the build without a compiler)
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover (no libc to call)
        return False


def _watch(parent: int) -> None:  # pragma: no cover (not Linux)
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


class Workers:
    """A pool of ``workers`` processes that never outlives its block: ``submit(fn, *args)``
    hands a call to a worker and returns a handle whose ``result()`` waits for its value
    (or raises its exception), as an executor's futures do. Left normally, the block waits
    for the workers; left by an exception, it terminates them at once (SIGTERM, then
    SIGKILL for one that lingers).

    On Linux the workers are forked from this process and talk to it through pipes
    (:class:`_Forks`: no multiprocessing machinery to import or to run, which ``-j 2``
    paid for on every run); elsewhere they are a
    :class:`~concurrent.futures.ProcessPoolExecutor`'s.
    """

    def __init__(self, workers: int, *, forked: bool | None = None) -> None:
        if forked is None:  # (the choice is open for the tests)
            forked = sys.platform.startswith("linux")
        self._pool: _Forks | _Executor = _Forks(workers) if forked else _Executor(workers)

    def __enter__(self) -> _Forks | _Executor:
        return self._pool

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: object) -> None:
        if kind is None:
            self._pool.shutdown()
        else:
            self._pool.terminate()


class Pending(Protocol[_R_co]):
    """A call handed to a worker (:meth:`Workers.submit`)."""

    def result(self) -> _R_co:
        """The call's value, when it is back (its exception raised here)."""
        ...  # pragma: no cover (a protocol)


class Pool(Protocol):
    """What runs tasks: ``submit(fn, *args)`` hands ``fn(*args)`` to a worker (a
    :class:`Workers` block's pool, a :class:`tarotnotation.cluster.Cluster`)."""

    def submit(self, fn: Callable[..., _R], /, *args: Any) -> Pending[_R]:
        """Run ``fn(*args)`` on a worker; its :meth:`Pending.result` waits for it."""
        ...  # pragma: no cover (a protocol)


class _Executor:
    """The pool where there is no fork to rely on: a ProcessPoolExecutor's workers, each
    started by :func:`worker_start`."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._context = _TrackingContext(multiprocessing.get_context())
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=cast(Any, self._context),
            initializer=worker_start, initargs=(os.getpid(),))

    def submit(self, fn: Callable[..., _R], /, *args: Any) -> Pending[_R]:
        return self._pool.submit(fn, *args)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)

    def terminate(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in self._context.processes:
            if process.is_alive():
                process.terminate()
        for process in self._context.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join(timeout=2)


#: Calls a worker holds at most, the one it runs and the next (so that it never waits
#: for this process between two); the others wait here and go to the first worker free,
#: so that a worker slowed down (by another program, by a harder part) takes fewer.
_DEPTH: Final = 2
#: The size asked for the pipes that bring results back (Linux's F_SETPIPE_SZ): a
#: worker can write a part's results whole while this process is busy elsewhere.
_PIPE_BYTES: Final = 1 << 20
_F_SETPIPE_SZ: Final = 1031


class _Call:
    """A call handed to a :class:`_Forks` pool: its bytes until a worker takes it, then its
    value or its exception."""

    __slots__ = ("_done", "_error", "_forks", "_value", "message")

    def __init__(self, forks: _Forks, message: bytes) -> None:
        self._forks = forks
        self.message = message
        self._done = False
        self._value: Any = None
        self._error: BaseException | None = None

    def settle(self, ok: bool, value: Any) -> None:
        self._done = True
        self.message = b""
        if ok:
            self._value = value
        else:
            self._error = value

    def result(self) -> Any:
        while not self._done:
            self._forks.wait()
        if self._error is not None:
            raise self._error
        return self._value


class _Child:
    """A forked worker as this process sees it: its id, the pipe its calls go down and
    the one their results come back up, and the calls it holds (in order)."""

    __slots__ = ("calls", "pid", "results", "tasks")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.calls: deque[_Call] = deque()


class WorkerDiedError(RuntimeError):
    """A worker ended before it sent back a call's result (killed, out of memory)."""


class _Forks:
    """Workers forked from this process, one more at a call that finds them all busy
    (up to ``workers``). Each reads calls (pickled, each preceded by its
    length) from its own pipe, runs them in order and writes back the result the same
    way; this process hands each call to the worker that holds the fewest
    (:data:`_DEPTH` at most), keeps the others until one is free, and reads whichever
    results come first."""

    def __init__(self, workers: int) -> None:
        self._parent = os.getpid()
        self._children: list[_Child] = []
        self._waiting: deque[_Call] = deque()
        self._closed = False
        self._workers = max(1, workers)

    def _start(self) -> None:
        import fcntl

        tasks_r, tasks_w = os.pipe()
        results_r, results_w = os.pipe()
        with contextlib.suppress(OSError):
            fcntl.fcntl(results_w, _F_SETPIPE_SZ, _PIPE_BYTES)
        mine = [fd for c in self._children for fd in (c.tasks, c.results)]
        with signals_held():
            pid = os.fork()
            if pid == 0:  # the worker: it never returns from here
                code = 1
                try:
                    for fd in (*mine, tasks_w, results_r):
                        os.close(fd)
                    worker_start(self._parent)
                    _serve(tasks_r, results_w)
                    code = 0
                finally:
                    os._exit(code)
            # (noted before the signals are let through: a Ctrl-C as the mask is given
            # back never leaves a worker that terminate() would not know of)
            os.close(tasks_r)
            os.close(results_w)
            self._children.append(_Child(pid, tasks_w, results_r))

    def submit(self, fn: Callable[..., _R], /, *args: Any) -> Pending[_R]:
        import pickle

        if self._closed:
            raise RuntimeError("submit() after the pool was shut down")
        message = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        call = _Call(self, message)
        if len(self._children) < self._workers and all(c.calls for c in self._children):
            # A worker more when every one is busy: forked as late as that, it finds done
            # what this process did before (the modules imported, the files looked at),
            # and a run of one call forks one worker.
            self._start()
        self._waiting.append(call)
        self._hand_out()
        return call

    def _hand_out(self) -> None:
        while self._waiting:
            child = min(self._children, key=lambda c: len(c.calls))
            if len(child.calls) >= _DEPTH:
                return
            call = self._waiting.popleft()
            try:
                _write_frame(child.tasks, call.message)
            except OSError:  # (a worker killed: by the kernel short of memory, say)
                call.settle(False, WorkerDiedError(
                    f"worker {child.pid} ended before it took a call"))
                continue
            call.message = b""
            child.calls.append(call)

    def wait(self) -> None:
        """Read the results that come first (at least one), and hand out the calls
        waiting for a worker."""
        import select

        busy = {c.results: c for c in self._children if c.calls}
        if not busy:
            raise RuntimeError("no call is running")  # pragma: no cover (a result() bug)
        poller = select.poll()  # (not select(): a caller may hold over 1,024 files)
        for fd in busy:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll():
            child = busy[fd]
            ok, value = _read_result(fd, child.pid)
            child.calls.popleft().settle(ok, value)
        self._hand_out()

    def shutdown(self) -> None:
        """Let the workers finish what they hold, then end them (their pipe of calls
        closed: each ends when it has none left)."""
        while self._waiting or any(c.calls for c in self._children):
            self.wait()
        self._closed = True
        for child in self._children:
            os.close(child.tasks)
        for child in self._children:
            _reap(child.pid)
            os.close(child.results)
        self._children = []

    def terminate(self) -> None:
        """End the workers now, whatever they hold (with the signals held: a second
        Ctrl-C never leaves one unreaped, still writing; it takes 4 s a worker at most)."""
        self._closed = True
        with signals_held():
            for child in self._children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGTERM)
            for child in self._children:
                if not _reap(child.pid, 2.0):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child.pid, signal.SIGKILL)
                    _reap(child.pid, 2.0)
                for fd in (child.tasks, child.results):
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._children = []


def _serve(tasks: int, results: int) -> None:
    """A forked worker's loop: run each call that comes down ``tasks``, in order, and write
    its result (``(True, value)`` or ``(False, exception)``) to ``results``, until the
    pipe of calls is closed."""
    import pickle

    while True:
        message = _read_frame(tasks)
        if message is None:
            return
        try:
            fn, args = pickle.loads(message)
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as err:  # (sent back: raised by result())
            answer = (False, err)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # a value or an exception that cannot be pickled
            data = pickle.dumps((False, RuntimeError(f"{type(err).__name__}: {err}")),
                                protocol=pickle.HIGHEST_PROTOCOL)
        _write_frame(results, data)


def _write_frame(fd: int, data: bytes) -> None:
    """``data`` down a pipe, after its length (8 bytes)."""
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read_frame(fd: int) -> bytes | None:
    """One message of :func:`_write_frame` from a pipe, or None when it was closed before
    one started."""
    head = _read_exactly(fd, 8)
    if head is None:
        return None
    body = _read_exactly(fd, int.from_bytes(head, "little"))
    if body is None:
        raise EOFError("a pipe closed in the middle of a message")
    return body


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts: list[bytes] = []
    left = size
    while left:
        part = os.read(fd, min(left, 1 << 22))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _read_result(fd: int, pid: int) -> tuple[bool, Any]:
    """A worker's answer; a worker that ended without one is a :class:`WorkerDiedError`."""
    import pickle

    try:
        message = _read_frame(fd)
    except EOFError:
        message = None
    if message is None:
        return False, WorkerDiedError(f"worker {pid} ended before it sent its result back")
    answer: tuple[bool, Any] = pickle.loads(message)
    return answer


def _reap(pid: int, timeout: float | None = None) -> bool:
    """Wait for worker ``pid`` to end (``timeout`` seconds at most); True when it has."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        try:
            done, _ = os.waitpid(pid, 0 if deadline is None else os.WNOHANG)
        except ChildProcessError:
            return True
        except InterruptedError:  # pragma: no cover (PEP 475 retries)
            continue
        if done:
            return True
        if deadline is None or time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


class _TrackingContext:
    """A multiprocessing context that remembers the processes it starts (the pool's
    workers), so that they can be ended whatever happens, and starts each with SIGINT
    and SIGTERM held (:func:`.atomic.signals_held`)."""

    def __init__(self, context: Any) -> None:
        self._context = context
        self.processes: list[Any] = []

    def Process(self, *args: Any, **kwargs: Any) -> Any:  # noqa: N802 (the context's name)
        process = self._context.Process(*args, **kwargs)
        if self._context.get_start_method() == "fork":  # (a spawned one is pickled whole,
            start = process.start  # this closure with it: it starts unheld)

            def held_start() -> None:
                with signals_held():
                    start()

            process.start = held_start
        self.processes.append(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def release_semaphores() -> None:
    """Unlink the semaphores of multiprocessing's pools (each queue's locks), as the
    interpreter's exit does, for a run about to end at once (``os._exit``, which skips
    it: :func:`tarotnotation.cli.app.main` after a signal). Without this, multiprocessing's
    resource tracker unlinks them itself and warns of "leaked semaphore objects". Only the
    finalizers that run first at exit (priority 0 and up: the locks', a pool's
    termination, already done) are run, not the queue threads' joins, which can wait for
    ever on a pipe whose reader was ended. Nothing when multiprocessing was not used."""
    util = sys.modules.get("multiprocessing.util")
    if util is not None:
        with contextlib.suppress(Exception):
            util._run_finalizers(0)
