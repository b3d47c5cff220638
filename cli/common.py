"""What every command shares: failing cleanly, colour, paths and globs, rulesets.

Nothing here knows a rule or a format: it turns command-line words into the arguments of
library calls, and library diagnostics into lines on a terminal. Nor does it import typer:
a command's work runs the same from the typer app and from the front door of the common
invocations (cli/front.py), which starts without typer (issue 17).
"""

from __future__ import annotations

import codecs
import functools
import io
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, NoReturn, ParamSpec

from tarotnotation.atomic import WriteError
from tarotnotation.diagnostics import IO_CODES, Diagnostic, Severity
from tarotnotation.i18n import Msg, render
from tarotnotation.inputs import expand_url, is_regular, is_url, open_bytes, url_fault
from tarotnotation.rules import Ruleset, RulesetError

from .status import EXIT_FAULTS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, worst
from .terminal import safe, safe_message, width

__all__ = [
    "EXIT_FAULTS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "STDIN",
    "UsageError",
    "cannot_write",
    "checked_spec",
    "command",
    "diagnostic_lines",
    "echo",
    "echo_err",
    "echo_styled",
    "existing_file",
    "exit_status",
    "expand_arguments",
    "fail",
    "read_as",
    "ruleset_spec",
    "safe",
    "severity_color",
    "stdout_bytes",
    "stdout_copy",
    "style",
    "unopenable",
    "use_color",
    "worker_count",
    "worst",
]

STDIN = "-"
"""The path that names standard input."""

_GLOB_MAGIC = frozenset("*?[")
P = ParamSpec("P")


class UsageError(Exception):
    """A mistake of usage or an input/output failure: one line on stderr, exit status 2."""


def command(fn: Callable[P, None]) -> Callable[P, None]:
    """Wrap a command so that a :class:`UsageError` or an I/O failure ends it with one
    line on standard error (``tarot: …``) and exit status 2, never a traceback (a
    ``SystemExit``: the typer app and the front door both let it end the process)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except UsageError as err:
            said = err.args[0] if err.args else str(err)
            _write_line(sys.stderr, f"tarot: {safe_message(said)}")
            raise SystemExit(EXIT_USAGE) from None
        except BrokenPipeError:
            raise
        except WriteError as err:  # (a full disk: said as a failure to write)
            echo_err(f"tarot: {render(cannot_write(err))}")
            raise SystemExit(EXIT_USAGE) from None
        except OSError as err:
            where = f"{err.filename}: " if err.filename else ""
            echo_err(f"tarot: {where}{err.strerror or err}")
            raise SystemExit(EXIT_USAGE) from None

    return run


def cannot_write(err: OSError) -> Msg:
    """A failure to write a file, in words (its name, then why): never said as a failure
    to read, nor as done."""
    return Msg("{file}: cannot write: {reason}", file=err.filename or "",
               reason=err.strerror or str(err))


def worker_count(jobs: int) -> int:
    """The worker processes ``-j N`` asks for: one per core for 0, and never more than
    the cores (``-j 99999999`` once started a process for each deal, more than the machine
    could hold, and left them behind when it was killed).

    >>> worker_count(1), worker_count(10**23) == worker_count(0) == (os.cpu_count() or 1)
    (1, True)
    """
    cores = os.cpu_count() or 1
    return cores if jobs <= 0 else min(jobs, cores)


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
    """``text`` made safe for a terminal (:func:`cli.terminal.safe`), then styled
    (``fg=``, ``bold=``…) when ``color`` is on."""
    text = safe(text)
    if not (color and how):
        return text
    import typer  # (only on a terminal: colour)

    return typer.style(text, **how)  # type: ignore[arg-type]


def severity_color(severity: Severity) -> str:
    """The colour of a severity's lines (typer's and click's names of them)."""
    return "red" if severity is Severity.ERROR else "yellow"


def diagnostic_lines(d: Diagnostic, color: bool, lang: str | None = None) -> list[str]:
    """A diagnostic as ``file:line:col: CODE severity: deal …: message`` in the run's
    language (or ``lang``), then the source line with its caret when the diagnostic has
    one; made safe for a terminal (a control character in the source line is shown
    escaped, and the caret still points at its column)."""
    lines = [style(d.text(lang), color, fg=severity_color(d.severity))]
    if d.context:
        context = d.context.rstrip("\n").split("\n")
        if len(context) == 2 and context[1].strip() and set(context[1].strip()) <= set("^~"):
            source, marks = context
            at = len(marks) - len(marks.lstrip())
            shown = safe(source)
            context = [shown, " " * width(safe(source[:at])) + marks.lstrip()]
        lines.extend(f"    {safe(line)}" for line in context)
    return lines


def exit_status(diagnostics: Iterable[Diagnostic], *, strict: bool = False) -> int:
    """The exit status these diagnostics call for: 2 for a file or path that cannot be
    read (F001–F004), 1 for an error (or a warning, with ``strict``), else 0."""
    code = EXIT_OK
    for d in diagnostics:
        if d.code in IO_CODES:
            return EXIT_USAGE
        if d.severity is Severity.ERROR or strict:
            code = EXIT_FAULTS
    return code


def expand_arguments(args: Iterable[str], *, allow_stdin: bool = True) -> list[str]:
    """Command-line paths as the library takes them: files and folders as given, glob
    patterns expanded here (a quoted ``'archive/**/*.tarot'`` reaches us unexpanded), a
    URL's too, in the same order (:func:`tarotnotation.inputs.expand_url`), ``-`` for
    standard input. A path that names nothing, or a pattern that matches
    nothing, is kept as it is: the library reports it (F001) in its place and the other
    paths are still read (exit status 2). Standard input named twice is a usage error."""
    out: list[str] = []
    for arg in args:
        if arg == STDIN:
            if not allow_stdin:
                fail(Msg("standard input ('-') cannot be used here"))
            if STDIN in out:
                fail(Msg("standard input ('-') can be named only once"))
            out.append(arg)
        elif is_url(arg):  # read by its fsspec file system (tarotnotation.inputs)
            fault = url_fault(arg)
            if fault is not None:
                fail(fault)
            out.extend(expand_url(arg))  # (a pattern's matches, in a local one's order)
        elif not os.path.lexists(arg) and _GLOB_MAGIC & set(arg):
            import glob  # (only for a pattern the shell left: issue 17)

            out.extend(sorted(glob.glob(arg, recursive=True)) or [arg])
        else:
            out.append(arg)
    return out


def unopenable(files: Iterable[str]) -> list[str]:
    """The files that cannot be opened for reading (an I/O error, exit status 2, though
    the others are still read and reported)."""
    bad = []
    for f in files:
        if f == STDIN:
            continue
        try:
            with open_bytes(f):
                pass
        except OSError:
            bad.append(f)
    return bad


def existing_file(arg: str) -> Path:
    """A path that must name a file (not a folder): a usage error (exit status 2) before
    anything is read otherwise. Whether it can be read is the reader's to say."""
    path = Path(arg)
    if not path.exists():
        if path.is_symlink():
            fail(Msg("{arg}: a symbolic link to {target}, which does not exist",
                     arg=arg, target=os.readlink(path)))
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


def read_as(file: str) -> str:
    """The format a file is read as, for ``-v``. A stream that can be read only once
    (standard input, a FIFO, ``<(…)``) is not opened here: its format is told as it is
    read."""
    from tarotnotation.archive import format_name, format_of

    try:
        if file == STDIN or not is_regular(file):
            return Msg("the format its content shows")
        return format_name(format_of(file))
    except OSError as err:
        return Msg("nothing: {why}", why=err.strerror or err)


def checked_spec(spec: str | None, option: str) -> str | None:
    """``spec`` in canonical form, or a usage error naming ``option``."""
    if spec is None:
        return None
    try:
        return Ruleset.from_spec(spec).spec()
    except RulesetError as err:
        fail(Msg("{option}: {err}", option=option, err=err))


def echo(line: str = "") -> None:
    """A line of plain text on standard output, made safe for a terminal."""
    _write_line(sys.stdout, safe(line))


def echo_err(message: str) -> None:
    """A line of plain text on standard error, made safe for a terminal (a
    :class:`~tarotnotation.i18n.Msg` in the run's language)."""
    _write_line(sys.stderr, safe(render(message) if isinstance(message, Msg) else message))


def echo_styled(line: str) -> None:
    """A line on standard output built with :func:`style` (already safe)."""
    _write_line(sys.stdout, line)


def _write_line(stream: IO[str] | None, text: str) -> None:
    """``text`` and a line end, flushed, as ``typer.echo`` writes a line of text (what
    is written is made safe, so there is no colour code for it to take out off a
    terminal); nothing when there is no such stream."""
    if stream is None:
        return
    stream.write(text + "\n")
    stream.flush()


def stdout_bytes(data: bytes) -> None:
    """Write bytes to standard output (flushing what typer wrote before); on a terminal,
    their control characters shown escaped (line ends kept)."""
    stdout_copy(io.BytesIO(data))


def stdout_copy(source: IO[bytes]) -> None:
    """Copy a binary stream to standard output a block at a time, as :func:`stdout_bytes`
    writes bytes (memory bounded whatever its length)."""
    sys.stdout.flush()
    out = sys.stdout.buffer
    if not sys.stdout.isatty():
        while block := source.read(_BLOCK):
            out.write(block)
        out.flush()
        return
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    while block := source.read(_BLOCK):
        out.write(_shown(decoder.decode(block)))
    out.write(_shown(decoder.decode(b"", final=True)))
    out.flush()


def _shown(text: str) -> bytes:
    """Text for a terminal: its control characters escaped, its line ends kept."""
    return "\n".join(safe(line) for line in text.split("\n")).encode()


#: What :func:`stdout_copy` reads at a time.
_BLOCK = 1 << 16
