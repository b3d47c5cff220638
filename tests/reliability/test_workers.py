"""The pool every parallel command shares (tarotnotation.workers.Workers): results come
back in the order the calls were handed out, whole whatever their size, exceptions
included; a worker that dies is said, not waited for; a slow worker is given fewer calls;
and nothing is left behind: no process, no zombie, no open pipe. Both kinds of pool are
held to it: the forked one (Linux) and the ProcessPoolExecutor one (elsewhere)."""

from __future__ import annotations

import os
import sys
import time

import pytest
from processes import processes

from tarotnotation.workers import WorkerDiedError, Workers

KINDS = [pytest.param(True, id="forked"), pytest.param(False, id="executor")]

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="reads /proc and forks")]


def _live_children() -> set[int]:
    """This process's children still running or not yet waited for (zombies too)."""
    me = str(os.getpid()).encode()
    return set(processes(lambda fields: fields[1] == me, zombies=True))


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _fails(n: int) -> int:
    raise ValueError(f"no square for {n}")


def _unpicklable(_: int) -> object:
    return lambda: None


def _dies(_: int) -> int:
    os._exit(3)


def _big(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


def _slow_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _settled(before: set[int]) -> bool:
    deadline = time.monotonic() + 30
    while _live_children() - before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize("forked", KINDS)
def test_results_come_back_in_the_order_handed_out(forked: bool) -> None:
    before, fds = _live_children(), _open_fds()
    with Workers(2, forked=forked) as workers:
        calls = [workers.submit(_square_and_pid, n) for n in range(200)]
        answers = [call.result() for call in calls]
    assert [square for square, _ in answers] == [n * n for n in range(200)]
    assert len({pid for _, pid in answers} - {os.getpid()}) >= 1  # (run elsewhere)
    assert _settled(before)
    if forked:  # (an executor keeps the pipes of its queues until collected)
        assert _open_fds() == fds


@pytest.mark.parametrize("forked", KINDS)
def test_a_result_bigger_than_a_pipe_comes_back_whole(forked: bool) -> None:
    with Workers(2, forked=forked) as workers:
        calls = [workers.submit(_big, size) for size in (1 << 16, 5 << 20, 1 << 23)]
        sizes = [len(call.result()) for call in calls]
        assert calls[1].result() == _big(5 << 20)
    assert sizes == [1 << 16, 5 << 20, 1 << 23]


@pytest.mark.parametrize("forked", KINDS)
def test_a_call_that_raises_raises_in_its_result_and_the_others_go_on(forked: bool) -> None:
    with Workers(2, forked=forked) as workers:
        first = [workers.submit(_square_and_pid, n) for n in range(3)]
        failing = workers.submit(_fails, 3)
        then = [workers.submit(_square_and_pid, n) for n in range(4, 8)]
        with pytest.raises(ValueError, match="no square for 3"):
            failing.result()
        assert [c.result()[0] for c in first + then] == [0, 1, 4, 16, 25, 36, 49]


def test_a_result_that_cannot_be_sent_back_is_an_error_not_a_hang() -> None:
    with Workers(2, forked=True) as workers:
        call = workers.submit(_unpicklable, 1)
        with pytest.raises(RuntimeError, match=r"pickle|Pickl|lambda"):
            call.result()
        assert workers.submit(_square_and_pid, 4).result()[0] == 16


def _one_dies() -> None:
    with Workers(2, forked=True) as workers:
        workers.submit(_square_and_pid, 1).result()
        workers.submit(_dies, 1).result()


def test_a_worker_that_dies_is_said_and_nothing_is_left() -> None:
    before, fds = _live_children(), _open_fds()
    with pytest.raises(WorkerDiedError, match="ended before"):
        _one_dies()
    assert _settled(before)
    assert _open_fds() == fds


def test_a_call_handed_to_a_worker_killed_while_idle_is_said_to_have_died() -> None:
    """A worker killed while it waits for a call (the kernel short of memory, a signal
    to it alone): the next call handed to it is a WorkerDiedError, not a closed pipe
    (which the command line would have taken for its reader gone: status 141)."""
    import signal

    def killed_then_called() -> None:
        with Workers(1) as workers:
            pid = workers.submit(os.getpid).result()
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while pid in _live_children() and _state(pid) != "Z":
                assert time.monotonic() < deadline
                time.sleep(0.01)
            workers.submit(os.getpid).result()

    before, fds = _live_children(), _open_fds()
    with pytest.raises(WorkerDiedError, match="before it took a call"):
        killed_then_called()
    assert _settled(before)
    assert _open_fds() == fds


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return "gone"


def _left_while_busy(forked: bool) -> None:
    with Workers(2, forked=forked) as workers:
        workers.submit(time.sleep, 60)
        workers.submit(time.sleep, 60)
        raise KeyError("the caller stops")


@pytest.mark.parametrize("forked", KINDS)
def test_leaving_the_block_by_an_exception_ends_the_workers_at_once(forked: bool) -> None:
    before = _live_children()
    started = time.monotonic()
    with pytest.raises(KeyError):
        _left_while_busy(forked)
    assert _settled(before)
    assert time.monotonic() - started < 30  # (not after the calls' 60 s)


def test_a_slow_worker_is_given_fewer_calls() -> None:
    # The first call holds one worker; the short ones go to the other, which takes each
    # as it comes free: the slow one ran its call and at most the one it held next.
    with Workers(2, forked=True) as workers:
        slow = workers.submit(_slow_then_pid, 1.0)
        quick = [workers.submit(_slow_then_pid, 0.0) for _ in range(30)]
        slow_pid = slow.result()
        pids = [call.result() for call in quick]
    assert sum(pid == slow_pid for pid in pids) <= 1, pids


def test_nothing_is_forked_before_the_first_call_and_one_call_forks_one() -> None:
    before = _live_children()
    with Workers(2, forked=True) as workers:
        assert _live_children() == before
        assert workers.submit(_square_and_pid, 3).result()[0] == 9
        assert workers.submit(_square_and_pid, 4).result()[0] == 16  # (the first is free)
        assert len(_live_children() - before) == 1
        calls = [workers.submit(_slow_then_pid, 0.2) for _ in range(4)]
        assert len({call.result() for call in calls}) == 2  # (busy: a second one)
    assert _settled(before)


def _death_signal_in_a_child(compiled: bool) -> int:
    """Fork a process that starts as a worker does, and return the signal the kernel is
    to send it when its parent ends (PR_GET_PDEATHSIG), or -1."""
    import ctypes

    from tarotnotation import native
    from tarotnotation.workers import worker_start

    pid = os.fork()
    if pid == 0:
        code = 255
        try:
            if not compiled:
                native.compiled = lambda **_: None
            worker_start(os.getppid())
            got = ctypes.c_int(-1)
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(2, ctypes.byref(got), 0, 0, 0) == 0:  # PR_GET_PDEATHSIG
                code = got.value
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.parametrize("compiled", [pytest.param(True, id="compiled-core"),
                                      pytest.param(False, id="ctypes")])
def test_a_worker_dies_with_its_parent(compiled: bool) -> None:
    import signal

    from tarotnotation import native

    if compiled and native.compiled(force=True) is None:
        pytest.skip("the compiled core is not built")
    assert _death_signal_in_a_child(compiled) == signal.SIGKILL


def test_a_caller_holding_over_a_thousand_files_still_gets_its_results() -> None:
    # select() takes no file number over 1,023: the pool waits with poll().
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this process may not open 1,200 files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        with Workers(2, forked=True) as workers:
            calls = [workers.submit(_square_and_pid, n) for n in range(10)]
            assert [call.result()[0] for call in calls] == [n * n for n in range(10)]
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
