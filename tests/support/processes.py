"""The processes of this machine as /proc lists them, for the tests that check that no
worker outlives its run (tests/test_cli_signals.py, tests/test_workers.py)."""

from __future__ import annotations

import os
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
