"""Worker processes that never outlive the run that started them: one place for every
pool of the library and the command line (``validate -j N``, the archive tools' scans,
``tarot html -j N``, ``tarot analyze -j N``).

Each worker starts with :func:`worker_start`: it ignores SIGINT (Ctrl-C reaches the
whole process group: the parent decides and ends the workers), takes SIGTERM's default
(it dies), and dies with its parent, whatever ended the parent (``kill -9`` included): on
Linux the kernel sends it SIGKILL (``PR_SET_PDEATHSIG``), elsewhere a thread looks for a
new parent twice a second.

:class:`Workers` is a :class:`~concurrent.futures.ProcessPoolExecutor` that terminates
its workers at once when its block is left by an exception (an interruption, a signal
turned into an exception, a caller that stops reading a generator), and :func:`pool` a
:class:`multiprocessing.pool.Pool` with the same start; leaving a Pool's block
terminates its workers.

>>> with Workers(2) as executor:
...     sorted(executor.map(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, cast

__all__ = ["Workers", "pool", "worker_start"]


def worker_start(parent: int) -> None:
    """A worker's first act: leave SIGINT to the parent, die on SIGTERM, and die with the
    parent ``parent`` (its process id, as the parent saw it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # started with them held (_held): a Ctrl-C that came while it started is dropped now,
    # a SIGTERM ends it now
    with contextlib.suppress(AttributeError, OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before the call: end now
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover (no libc to call)
            pass
    if os.getppid() != parent:  # pragma: no cover (a parent already gone)
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()  # pragma: no cover


def _watch(parent: int) -> None:  # pragma: no cover (not Linux)
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


class Workers:
    """A :class:`ProcessPoolExecutor` of ``workers`` processes that never outlives its
    block: left normally, it waits for the workers; left by an exception, it terminates
    them at once (SIGTERM, then SIGKILL for one that lingers)."""

    def __init__(self, workers: int) -> None:
        self._context = _TrackingContext(multiprocessing.get_context())
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=cast(Any, self._context),
            initializer=worker_start, initargs=(os.getpid(),))

    def __enter__(self) -> ProcessPoolExecutor:
        return self._pool

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: object) -> None:
        if kind is None:
            self._pool.shutdown(wait=True)
            return
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in self._context.processes:
            if process.is_alive():
                process.terminate()
        for process in self._context.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join(timeout=2)


_HELD: Final = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """SIGINT and SIGTERM held back while a worker starts: it inherits the mask (across
    the exec of a spawned interpreter too), so that a Ctrl-C to the process group while
    it imports never prints a KeyboardInterrupt traceback; :func:`worker_start` lets
    them through once it ignores SIGINT."""
    try:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except (AttributeError, OSError, ValueError):  # (not the main thread, no sigmask)
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class _TrackingContext:
    """A multiprocessing context that remembers the processes it starts (the pool's
    workers), so that they can be ended whatever happens, and starts each with SIGINT
    and SIGTERM held (:func:`_held`)."""

    def __init__(self, context: Any) -> None:
        self._context = context
        self.processes: list[Any] = []

    def Process(self, *args: Any, **kwargs: Any) -> Any:  # noqa: N802 (the context's name)
        process = self._context.Process(*args, **kwargs)
        if self._context.get_start_method() == "fork":  # (a spawned one is pickled whole:
            start = process.start  # pool() holds the signals around its start instead)

            def held_start() -> None:
                with _held():
                    start()

            process.start = held_start
        self.processes.append(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def pool(workers: int, method: str | None = None) -> multiprocessing.pool.Pool:
    """A :class:`multiprocessing.pool.Pool` of ``workers`` processes started by
    :func:`worker_start` (``method``: the start method, such as ``"spawn"``; the
    platform's default when None). Use it as a ``with`` block: leaving it terminates the
    workers."""
    context = _TrackingContext(multiprocessing.get_context(method))
    if context.get_start_method() != "fork":
        # A spawned pool's first semaphore starts multiprocessing's resource tracker, and
        # that start unblocks SIGINT and SIGTERM when it is done, whatever held them
        # before: inside _held(), the workers started after it would start unheld, and a
        # Ctrl-C while one imports would print "Fatal Python error: init_import_site".
        # Started first, it is left running.
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    with _held():  # (a Pool starts its workers here)
        return multiprocessing.pool.Pool(workers, initializer=worker_start,
                                         initargs=(os.getpid(),), context=context)
