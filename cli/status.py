"""The exit statuses of every ``tarot`` command, and how a signal ends one (no typer).

The table is the README's (and cli/runner.py's docstring): 0 clean, 1 faults in the
records, 2 could not run, 130 interrupted (128 + the signal's number for SIGTERM and
SIGHUP); the highest of 130, 2, 1, 0 wins (:func:`worst`). Its own module, without
typer, so that the front door of the common invocations (cli/front.py) ends its runs
exactly as the typer app does (cli/runner.py imports everything from here).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from tarotnotation import atomic

__all__ = [
    "EXIT_FAULTS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Interrupted",
    "guarded",
    "install_signal_handlers",
    "quiet_stdout",
    "worst",
]

EXIT_OK = 0
EXIT_FAULTS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def worst(*codes: int) -> int:
    """The exit status when several apply: an interruption (128 + a signal), then 2, 1, 0.

    >>> worst(0, 1, 2), worst(1, 130, 2), worst(143, 2), worst()
    (2, 130, 143, 0)
    """
    def rank(code: int) -> tuple[int, int]:
        return (3 if code > 128 else code if code in (0, 1, 2) else 2, code)

    return max(codes, key=rank, default=EXIT_OK)


class Interrupted(BaseException):
    """A signal that ends the run (SIGTERM, SIGHUP): raised where the program stands, so
    that every ``with`` and ``finally`` block runs (temporary files removed, workers
    ended). Not an ``Exception``: nothing catches it by accident."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """128 + the signal's number."""
        return 128 + self.signum


def _raise(signum: int, frame: object) -> None:
    if atomic.held_back(signum):  # (taken by another thread in a held block: raised as it ends)
        return
    # A second signal while the first one's cleanup runs is ignored: let it finish.
    for sig in _ENDING:
        signal.signal(sig, signal.SIG_IGN)
    raise Interrupted(signum)


def _interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C: Python's own KeyboardInterrupt, unless a held block lets it wait."""
    if atomic.held_back(signum):
        return
    signal.default_int_handler(signum, frame)


_ENDING = (signal.SIGTERM, signal.SIGHUP)


def install_signal_handlers() -> None:
    """SIGTERM and SIGHUP end the command as an exception (SIGINT already does:
    KeyboardInterrupt). Only in the main thread of the ``tarot`` process."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # (cli/__init__.py's, at start)
        signal.signal(signal.SIGINT, _interrupt)
    for sig in _ENDING:
        if signal.getsignal(sig) is signal.SIG_IGN:
            continue  # (nohup: leave an ignored signal ignored)
        signal.signal(sig, _raise)


def quiet_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit raises nothing."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):  # (no real standard output: tests)
        pass


def guarded(run: Callable[[], int]) -> int:
    """The status of ``run()``, or of how it ended: 130 on Ctrl-C, 128 + the signal on
    SIGTERM or SIGHUP, 141 when the reader of standard output went away (as SIGPIPE would
    say); files being written that were not finished are discarded whatever happens. A
    ``SystemExit`` (the command's own status) goes through."""
    try:
        return run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Interrupted as err:
        return err.status
    except BrokenPipeError:  # `tarot … | head`: the reader went away (as SIGPIPE would)
        quiet_stdout()
        return 128 + signal.SIGPIPE
    finally:
        atomic.discard_pending()
