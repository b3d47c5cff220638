"""The processes of this machine as /proc lists them, for the tests that check that no
worker outlives its run (the signal tests of the commands, the pages and the workers)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def processes(keep: Callable[[list[bytes]], bool], *, zombies: bool = False) -> list[int]:
    """The processes whose fields of /proc/PID/stat after the command's name (the state
    first, then the parent, the process group...) ``keep`` takes; zombies (ended, not
    yet waited for) only with ``zombies``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if (zombies or fields[0] != b"Z") and keep(fields):
            found.append(int(entry))
    return found


def group(pgid: int) -> list[int]:
    """The live processes of a process group (field 5 of their stat)."""
    return processes(lambda fields: int(fields[2]) == pgid)


def children() -> list[int]:
    """The live processes this one started (field 4 of their stat: the parent)."""
    me = str(os.getpid()).encode()
    return processes(lambda fields: fields[1] == me)


def wait_for(what: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)
