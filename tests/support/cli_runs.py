"""Running the tarot command from the tests, each way a test needs it.

:func:`invoke` runs a command line in typer's test runner (the app's group built once
a process); :func:`run_exe` runs the installed entry point as a real subprocess;
:func:`run_forked` runs the same command line as the script does, in a process of its own
forked from one that imported the app once (tests/support/forkserver.py), for the tests of
what a command writes and its exit status; the tests of start-up, signals, isolation and
the installed entry point run the real script.
:func:`stdout_on_a_terminal` and :func:`on_a_terminal` put a pseudo-terminal on standard
output or standard error; :func:`fed` feeds a FIFO as a program would.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forkserver import shared
from typer.main import get_command
from typer.testing import CliRunner

from tarotnotation.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FAULTY = EXAMPLES / "faulty"
#: The installed entry point, next to the interpreter running the tests.
TAROT = Path(sys.executable).parent / "tarot"
CLEAN_EXAMPLES = sorted(p for p in EXAMPLES.rglob("*.tarot") if FAULTY not in p.parents)
FAULTY_EXAMPLES = sorted(FAULTY.glob("*.tarot"))


@dataclass(frozen=True)
class Ran:
    """What a command did: exit status, standard output, standard error."""

    code: int
    out: str
    err: str


def invoke(*args: str, stdin: str | bytes | None = None,
           env: dict[str, str] | None = None) -> Ran:
    """Run ``tarot ARGS`` in typer's test runner's isolation (its streams, environment,
    terminal width, prompts: typer's own click), as its ``invoke`` does but on the app's
    group built once a process; fail on any uncaught exception."""
    runner = CliRunner()
    group = _group()
    code = 0
    with runner.isolation(input=stdin, env=env) as streams:
        try:
            group.main(args=list(args), prog_name=runner.get_default_prog_name(group))
        except SystemExit as e:
            status = 0 if e.code is None else e.code
            if not isinstance(status, int):
                sys.stdout.write(f"{status}\n")
                status = 1
            code = status
        except Exception as err:
            raise AssertionError(f"tarot {' '.join(args)} raised {err!r}") from err
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            out, err_bytes = streams[0].getvalue(), streams[1].getvalue()
    return Ran(code, _text(out, runner.charset), _text(err_bytes, runner.charset))


def _text(data: bytes, charset: str) -> str:
    """A stream's bytes as the test runner's result gives them."""
    return data.decode(charset, "replace").replace("\r\n", "\n")


def _group() -> Any:
    """The app's click group, built once a process (typer's runner builds it, and the
    command run, again at each call: some 4 ms each). A group serves any number of runs:
    each takes its language and translates the help texts first (cli/language.py), and
    the group's help lists the same stand-ins whichever commands were built before."""
    if not _GROUPS:
        _GROUPS.append(get_command(app))
    return _GROUPS[0]


_GROUPS: list[Any] = []


def plain_env() -> dict[str, str]:
    """This process's environment without what would change a run's output (``NO_COLOR``,
    ``CI``): the environment of the ``tarot`` processes the tests start."""
    return {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI")}


def run_exe(*args: str, stdin: bytes | None = None, cwd: Path = ROOT,
            env: dict[str, str] | None = None, module: bool = False) -> Ran:
    """Run the installed ``tarot`` script (or ``python -m tarotnotation``) for real."""
    command = [sys.executable, "-m", "tarotnotation"] if module else [str(TAROT)]
    full_env = plain_env()
    full_env.update(env or {})
    done = subprocess.run([*command, *args], input=stdin, capture_output=True, cwd=cwd,
                          env=full_env, timeout=120, check=False)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    return Ran(done.returncode, out, err)


#: The environment the tests started with (taken when the module is collected, before any
#: test changes it): the forked runs' (see :func:`run_forked`).
_START_ENV = plain_env()


def run_forked(*args: str, stdin: bytes | None = None, cwd: Path = ROOT,
               stdin_file: Path | None = None, timeout: int = 120) -> Ran:
    """Run ``tarot ARGS`` as :func:`run_exe` does (the script's ``main()``, its own process,
    standard streams as pipes, working directory, ``sys.argv`` and exit status), in a
    process forked from one that imported the app once (tests/support/forkserver.py): without the
    half second of imports of each real run. Its environment is the one the tests started
    with. ``stdin_file``: standard input is that file, opened as a shell's ``< FILE`` does;
    a run past ``timeout`` seconds is ended (exit status -14). Not for what start-up,
    signals, isolation or the installed script do."""
    done = shared(_START_ENV, str(TAROT)).run(list(args), stdin or b"", cwd,
                                              stdin_file=stdin_file, timeout=timeout)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    return Ran(done.returncode, out, err)


def rel(path: Path) -> str:
    """A path relative to the repository, as the subprocess runs see it."""
    return str(path.relative_to(ROOT))


def stdout_on_a_terminal(args: list[str], env: dict[str, str]) -> bytes:
    """What ``tarot ARGS`` writes to standard output when it is a terminal."""
    master, slave = pty.openpty()
    full_env = plain_env()
    full_env.update(env)
    proc = subprocess.Popen([str(TAROT), *args], cwd=ROOT, env=full_env, stdout=slave,
                            stderr=subprocess.DEVNULL)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=60)
    os.close(master)
    return seen


def on_a_terminal(*args: str) -> tuple[int, str, bytes]:
    """Run ``tarot ARGS`` with standard error on a pseudo-terminal: (status, stdout,
    what the terminal showed)."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR",
                                                             "TAROT_NO_PROGRESS")}
    env["TAROT_PROGRESS_DELAY"] = "0"
    proc = subprocess.Popen([str(TAROT), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out, _ = proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, out.decode("utf-8"), seen


@contextmanager
def fed(fifo: Path, *parts: bytes, pause: float = 0.0, every: int = 1) -> Iterator[None]:
    """A thread writes the parts to a FIFO (opened once, as a program would), each part in
    one write, sleeping ``pause`` seconds after every ``every`` parts."""
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb", buffering=0) as fh:
            for i, part in enumerate(parts, 1):
                view = memoryview(part)
                while view:
                    view = view[fh.write(view) or 0:]
                if pause and i % every == 0:
                    time.sleep(pause)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield
    finally:
        if thread.is_alive():  # never opened: open it, so that the thread ends
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            thread.join(timeout=30)
            os.close(fd)
        thread.join(timeout=30)
