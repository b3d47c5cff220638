"""Runs of the ``tarot`` command as processes forked from one warm interpreter.

A run of the typer app costs about half a second, nearly all of it importing typer,
pydantic and the commands' modules; ``tests/cli/test_cli_front.py`` compares a hundred and
more command lines through both doors. :class:`ForkServer` starts one interpreter that
imports the app once (the environment it is given, ``LC_ALL`` and ``TAROT_TYPER_ONLY``
included, is the one each run sees) and forks a child for each run: a process of its own,
its standard input, output and error pipes (the server's own are pipes too, so that
Python's stream objects are those of a run; or standard input a file the child opens, as a
shell's ``< FILE``), its working directory, ``sys.argv`` and exit status as the ``tarot``
script gives them (``sys.exit(main())``, a status that is not an int written to standard
error). Only the imports are shared, done before the run. A run that outlasts its time
limit is ended by SIGALRM (``alarm``: its status is then -14), as ``subprocess.run``'s
timeout ends a real one.

:func:`shared` is one such server for a test process (an xdist worker), started at its
first use and ended at the end of the session (tests/conftest.py): ``test_cli.run_forked``
runs command lines there for the tests of what a command writes and its exit status.
"""

from __future__ import annotations

import os
import pickle
import select
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["ANSWER_GRACE", "ForkServer", "close_shared", "shared"]

#: Seconds a run's answer may come after its time limit (its output drained, its status
#: sent) before the run counts as hung.
ANSWER_GRACE = 30

#: The server: reads pickled (argv, stdin, stdin_file, cwd, seconds) on the fd its second
#: word names, answers pickled (stdout, stderr, status) on the third's, a length of 8 bytes
#: before each; its fourth word says what it imports first (``typer``: the app and every
#: command; ``front``: the front door and its commands' modules, not typer).
_SERVER = r"""
import os, pickle, signal, struct, sys, threading
from tarotnotation.cli import app
if sys.argv[4] == "typer":
    app.get_app()
    for entry in app.COMMANDS:
        entry.load()
else:  # what the front door's own runs import (cli/front.py), and not typer
    from tarotnotation.cli import front
    for entry in app.COMMANDS:
        if entry.name in app.FRONT_DOOR:
            entry.load()
SCRIPT = sys.argv[1]
REQUESTS, ANSWERS = int(sys.argv[2]), int(sys.argv[3])

def read_exact(fd, n):
    data = b""
    while len(data) < n:
        part = os.read(fd, n - len(data))
        if not part:
            raise SystemExit(0)
        data += part
    return data

def drain(fd, out):
    while True:
        part = os.read(fd, 65536)
        if not part:
            break
        out.append(part)
    os.close(fd)

def feed(fd, data):
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass
    os.close(fd)

def run_child(argv, cwd, seconds):
    signal.alarm(seconds)  # (the default action ends the run; its workers are not timed)
    os.chdir(cwd)
    sys.argv = [SCRIPT, *argv]
    try:
        status = app.main()
    except SystemExit as end:
        status = end.code
    except BaseException:
        import traceback
        traceback.print_exc()
        status = 1
    if status is None:
        status = 0
    elif not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status & 0xFF)

while True:
    (size,) = struct.unpack("<Q", read_exact(REQUESTS, 8))
    argv, stdin, stdin_file, cwd, seconds = pickle.loads(read_exact(REQUESTS, size))
    pipes = [os.pipe() for _ in range(3)]
    pid = os.fork()
    if pid == 0:
        os.dup2(pipes[1][1], 1)
        os.dup2(pipes[2][1], 2)
        if stdin_file is None:
            os.dup2(pipes[0][0], 0)
        else:  # as a shell's < FILE: standard input is the file itself
            try:
                os.dup2(os.open(stdin_file, os.O_RDONLY), 0)
            except OSError as error:  # as a shell says it, running nothing
                os.write(2, f"{stdin_file}: {error.strerror}\n".encode())
                os._exit(1)
        os.closerange(3, 1 << 16)
        run_child(argv, cwd, seconds)
    os.close(pipes[0][0]); os.close(pipes[1][1]); os.close(pipes[2][1])
    out, err = [], []
    threads = [threading.Thread(target=feed, args=(pipes[0][1], stdin)),
               threading.Thread(target=drain, args=(pipes[1][0], out)),
               threading.Thread(target=drain, args=(pipes[2][0], err))]
    for t in threads:
        t.start()
    _, wait = os.waitpid(pid, 0)
    for t in threads:
        t.join()
    answer = pickle.dumps((b"".join(out), b"".join(err), os.waitstatus_to_exitcode(wait)))
    view = memoryview(struct.pack("<Q", len(answer)) + answer)
    while view:
        view = view[os.write(ANSWERS, view):]
"""


class ForkServer:
    """One warm interpreter that runs the ``tarot`` command line ``argv`` in a child of
    its own for each :meth:`run` (see the module's text). It imports the typer app and
    every command first, or with ``typer=False`` only what the front door's runs import
    (cli/front.py and its commands' modules), as a ``tarot`` process that the front door
    answers does."""

    def __init__(self, env: dict[str, str], script: str, *, typer: bool = True) -> None:
        requests_r, self._requests = os.pipe()
        self._answers, answers_w = os.pipe()
        self._process = subprocess.Popen(
            [sys.executable, "-c", _SERVER, script, str(requests_r), str(answers_w),
             "typer" if typer else "front"],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(requests_r, answers_w))  # (its standard streams pipes, as a run's)
        os.close(requests_r)
        os.close(answers_w)
        #: True once a run went unanswered: :func:`shared` then starts another server.
        self.broken = False

    def run(self, argv: list[str], stdin: bytes, cwd: Path, *, stdin_file: Path | None = None,
            timeout: int = 120) -> subprocess.CompletedProcess[bytes]:
        """The run's standard output, standard error and exit status (a process started:
        the ``tests.forkserver.run`` audit event says so to tests/conftest.py); standard
        input holds ``stdin`` through a pipe, or is the file ``stdin_file``; after
        ``timeout`` seconds the run is ended (status -14)."""
        sys.audit("tests.forkserver.run", argv)
        request = pickle.dumps((argv, stdin, None if stdin_file is None else str(stdin_file),
                                str(cwd), timeout))
        view = memoryview(len(request).to_bytes(8, "little") + request)
        while view:
            view = view[os.write(self._requests, view):]
        # The run ends by its alarm at the latest; its answer waits for the pipes to close,
        # which a process the run started and left behind can hold open: past the limit
        # and a grace, the server is ended and the test fails instead of hanging.
        deadline = time.monotonic() + timeout + ANSWER_GRACE
        size = int.from_bytes(self._read(8, deadline, argv), "little")
        out, err, status = pickle.loads(self._read(size, deadline, argv))
        return subprocess.CompletedProcess([*argv], status, out, err)

    def _read(self, n: int, deadline: float, argv: list[str]) -> bytes:
        data = b""
        while len(data) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                self.broken = True
                self._process.kill()
                raise RuntimeError(f"the forked run of {argv!r} gave no answer in time (a"
                                   " process it started holds its output open?): the fork"
                                   " server is ended, the next run starts another")
            part = os.read(self._answers, n - len(data))
            if not part:
                self.broken = True
                raise RuntimeError("the fork server ended")
            data += part
        return data

    def close(self) -> None:
        """End the server (it ends when its requests' pipe closes; a broken one is
        killed)."""
        os.close(self._requests)
        if self.broken:
            self._process.kill()
        self._process.communicate(timeout=30)
        os.close(self._answers)


_SHARED: dict[str, ForkServer] = {}


def shared(env: dict[str, str], script: str) -> ForkServer:
    """The test process's one server, started with ``env`` at the first call (the later
    calls must give the same ``env`` and ``script``)."""
    key = repr((sorted(env.items()), script))
    if key in _SHARED and _SHARED[key].broken:
        _SHARED.pop(key).close()
    if not _SHARED:
        _SHARED[key] = ForkServer(env, script)
    if key not in _SHARED:
        raise ValueError("the shared fork server was started with another environment")
    return _SHARED[key]


def close_shared() -> None:
    """End the shared server, if one was started."""
    for server in _SHARED.values():
        server.close()
    _SHARED.clear()
