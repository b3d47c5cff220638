"""Workers start with SIGINT and SIGTERM held (tarotnotation.workers), so that a Ctrl-C to
the process group while one is still starting Python never prints a traceback or
"Fatal Python error: init_import_site". A spawned pool's first semaphore starts
multiprocessing's resource tracker, whose start unblocks both signals when it is done:
the pool must not let that open the hold for the workers started after it."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process

_CHILD = """
import signal
from multiprocessing import popen_spawn_posix
from tarotnotation import workers

masks = []
launch = popen_spawn_posix.Popen._launch

def watched(self, process_obj):
    masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))
    return launch(self, process_obj)

popen_spawn_posix.Popen._launch = watched
before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
with workers.pool(2, "spawn") as pool:
    assert pool.map(abs, [-1, -2]) == [1, 2]
assert len(masks) == 2, masks
for mask in masks:
    assert {signal.SIGINT, signal.SIGTERM} <= mask, mask
assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
print("held")
"""


def test_spawned_workers_start_with_the_signals_held() -> None:
    # a process of its own: the resource tracker must not be running yet
    ran = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "held"
