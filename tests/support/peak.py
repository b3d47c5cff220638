"""The peak resident memory of a command, its own, for the tests that bound it.

``ru_maxrss``, as ``os.wait4`` gives it for a child of the test process, is not the
child's own peak: Linux keeps, across ``exec``, the resident size of the process that
forked it (the child begins as a copy of the test process), and reports the larger. A
test process that has run a few hundred tests holds 150 MB and more, so that a bound of
150 MB failed after other tests had run (issue 39), and a comparison of two runs ("six
times the deals, the same memory") compared the test process with itself: it could not
fail. :func:`peak_of` starts the command from a small launcher (``python -S``, about
5 MB resident) that forks it and waits for it: the command's ``ru_maxrss`` is then its
own, or the launcher's few megabytes.

The command begins with the default handlers of SIGINT, SIGPIPE and SIGXFSZ (as
``subprocess`` gives them) and, with ``limit``, an address space limit, so that a runaway
fails at once instead of swapping. Both run in a process group of their own, killed
whole when the command outlasts ``timeout``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, NamedTuple

__all__ = ["Peak", "peak_of"]

#: Forks the command named by argv[3:], sets its limits, waits for it, and writes its exit
#: status and peak RSS (KiB) to the descriptor argv[1]; argv[2] is the address space limit.
_LAUNCHER = r"""
import os, resource, signal, sys
report, limit, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    try:
        os.close(report)
        for name in ("SIGINT", "SIGPIPE", "SIGXFSZ"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, b"%d %d" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss))
"""


class Peak(NamedTuple):
    """How a command ended and the most memory it held."""

    code: int  #: its exit status (negative: the signal that ended it)
    rss: int  #: its peak resident memory, in bytes


def peak_of(argv: Sequence[str | Path], *, stdin: IO[bytes] | int | None = subprocess.DEVNULL,
            stdout: IO[bytes] | int | None = subprocess.DEVNULL,
            stderr: IO[bytes] | int | None = subprocess.DEVNULL,
            limit: int = 1 << 30, timeout: float = 600) -> Peak:
    """Run ``argv`` (its first word a path to an executable) and return its exit status and
    its own peak resident memory; ``limit`` bounds its address space (0: no bound)."""
    read_end, write_end = os.pipe()
    try:
        launcher = subprocess.Popen(
            [sys.executable, "-S", "-c", _LAUNCHER, str(write_end), str(limit),
             *map(str, argv)], stdin=stdin, stdout=stdout, stderr=stderr,
            pass_fds=(write_end,), process_group=0)
        os.close(write_end)
        write_end = -1
        try:
            launcher.wait(timeout=timeout)
        finally:
            if launcher.poll() is None:  # the command too: its group is the launcher's
                os.killpg(launcher.pid, signal.SIGKILL)
                launcher.wait()
        report = os.read(read_end, 64)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    if launcher.returncode != 0 or not report:
        raise AssertionError(f"the launcher of {argv} failed ({launcher.returncode})")
    code, kib = map(int, report.split())
    return Peak(code, kib * 1024)
