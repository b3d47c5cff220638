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


_THREADS = """
import multiprocessing, signal, threading
from tarotnotation import workers

def bits(path, field):
    for line in open(path):
        if line.startswith(field + ":"):
            mask = int(line.split()[1], 16)
            return {sig for sig in signal.Signals if mask >> (sig - 1) & 1}
    raise LookupError(field)

ENDING = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
signal.signal(signal.SIGHUP, lambda *_: None)  # (the command line's handler, say)
with workers.pool(2) as pool:
    threads = [t for t in threading.enumerate() if t is not threading.main_thread()]
    assert len(threads) >= 3, threads  # (a pool's workers, tasks and results threads)
    for t in threads:
        held = bits(f"/proc/self/task/{t.native_id}/status", "SigBlk")
        assert ENDING <= held, (t.name, held)
    assert not ENDING & bits("/proc/self/task/%d/status" % threading.get_native_id(),
                             "SigBlk")
    children = multiprocessing.active_children()
    assert len(children) == 2, children
    for child in children:
        status = f"/proc/{child.pid}/status"
        assert signal.SIGINT in bits(status, "SigIgn")
        assert not {signal.SIGTERM, signal.SIGHUP} & bits(status, "SigIgn"), status
        assert not {signal.SIGTERM, signal.SIGHUP} & bits(status, "SigCgt"), status
        assert not ENDING & bits(status, "SigBlk"), status
    assert pool.map(abs, [-1, -2]) == [1, 2]
print("main")
"""


def test_a_pools_threads_hold_the_signals_and_its_workers_die_of_sigterm_and_sighup() -> None:
    """A pool's threads are born with SIGINT, SIGTERM and SIGHUP held, so that every
    signal comes to the main thread, which holds them while it is in the pool's locks
    (tarotnotation.workers.pool_map); each worker ignores SIGINT and dies of SIGTERM and
    SIGHUP (a forked one had the parent's handler of SIGHUP)."""
    ran = subprocess.run([sys.executable, "-c", _THREADS], capture_output=True, text=True,
                         timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "main"
