"""What every command shares: failing cleanly, colour, paths and globs, rulesets.

Nothing here knows a rule or a format: it turns command-line words into the arguments of
library calls, and library diagnostics into lines on a terminal.
"""

from __future__ import annotations

import functools
import glob
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, NoReturn, ParamSpec

import typer

from tarotnotation.diagnostics import Diagnostic, Severity
from tarotnotation.i18n import Msg, render
from tarotnotation.rules import Ruleset, RulesetError

#: Exit statuses of every command.
EXIT_OK = 0
EXIT_FAULTS = 1
EXIT_USAGE = 2

STDIN = "-"
"""The path that names standard input."""

_GLOB_MAGIC = frozenset("*?[")
P = ParamSpec("P")


class UsageError(Exception):
    """A mistake of usage or an input/output failure: one line on stderr, exit status 2."""


def command(fn: Callable[P, None]) -> Callable[P, None]:
    """Wrap a command so that a :class:`UsageError` or an I/O failure ends it with one
    line on standard error (``tarot: …``) and exit status 2, never a traceback."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except UsageError as err:
            typer.echo(f"tarot: {render(err.args[0]) if err.args else err}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        except BrokenPipeError:
            raise
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            typer.echo(f"tarot: {where}{err.strerror or err}", err=True)
            raise typer.Exit(EXIT_USAGE) from None

    return run


def fail(message: str) -> NoReturn:
    """Stop the command with ``tarot: message`` on stderr and exit status 2 (a
    :class:`~tarotnotation.i18n.Msg` is shown in the run's language)."""
    raise UsageError(message)


def use_color(stream: IO[str]) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def style(text: str, color: bool, **how: object) -> str:
    """``text`` styled (``fg=``, ``bold=``…) when ``color`` is on, unchanged otherwise."""
    return typer.style(text, **how) if color else text  # type: ignore[arg-type]


def severity_color(severity: Severity) -> str:
    """The colour of a severity's lines."""
    return typer.colors.RED if severity is Severity.ERROR else typer.colors.YELLOW


def diagnostic_lines(d: Diagnostic, color: bool, lang: str | None = None) -> list[str]:
    """A diagnostic as ``file:line:col: CODE severity: deal …: message`` in the run's
    language (or ``lang``), then the source line with its caret when it has one."""
    lines = [style(d.text(lang), color, fg=severity_color(d.severity))]
    if d.context:
        lines.extend(f"    {line}" for line in d.context.rstrip("\n").split("\n"))
    return lines


def expand_arguments(args: Iterable[str], *, allow_stdin: bool = True) -> list[str]:
    """Command-line paths as the library takes them: files and folders as given, glob
    patterns expanded here (a quoted ``'archive/**/*.tarot'`` reaches us unexpanded),
    ``-`` for standard input. A path that names nothing is a usage error."""
    out: list[str] = []
    for arg in args:
        if arg == STDIN:
            if not allow_stdin:
                fail(Msg("standard input ('-') cannot be used here"))
            out.append(arg)
        elif os.path.lexists(arg):
            out.append(arg)
        elif _GLOB_MAGIC & set(arg):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                fail(Msg("{arg}: no file matches this pattern", arg=arg))
            out.extend(matches)
        else:
            fail(Msg("{arg}: no such file or folder", arg=arg))
    return out


def unopenable(files: Iterable[str]) -> list[str]:
    """The files that cannot be opened for reading (an I/O error, exit status 2, though
    the others are still read and reported)."""
    bad = []
    for f in files:
        if f == STDIN:
            continue
        try:
            with open(f, "rb"):
                pass
        except OSError:
            bad.append(f)
    return bad


def existing_file(arg: str) -> Path:
    """A path that must name a readable file (not a folder)."""
    path = Path(arg)
    if not path.exists():
        fail(Msg("{arg}: no such file", arg=arg))
    if path.is_dir():
        fail(Msg("{arg}: is a folder, expected a file", arg=arg))
    return path


def ruleset_spec(rules: str | None, sets: Iterable[str] | None) -> str | None:
    """The canonical spec of ``--rules PRESET`` with each ``--set switch=value``, or None
    when neither is given. A bad preset, switch or value is a usage error."""
    sets = list(sets or ())
    if rules is None and not sets:
        return None
    words = [(rules or "fft").strip() or "fft"]
    for item in sets:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            fail(Msg("--set {item}: expected switch=value, e.g. --set misere=on", item=repr(item)))
        words.append(f"{name.strip()}={value.strip()}")
    return checked_spec(" ".join(words), "--rules/--set")


def checked_spec(spec: str | None, option: str) -> str | None:
    """``spec`` in canonical form, or a usage error naming ``option``."""
    if spec is None:
        return None
    try:
        return Ruleset.from_spec(spec).spec()
    except RulesetError as err:
        fail(Msg("{option}: {err}", option=option, err=err))


def echo_err(message: str) -> None:
    """A line on standard error."""
    typer.echo(message, err=True)


def stdout_bytes(data: bytes) -> None:
    """Write bytes to standard output (flushing what typer wrote before)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
