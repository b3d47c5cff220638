"""``tarot fmt``: rewrite text-notation files in canonical form, like black or ruff format.

A file is rewritten only when every deal in it reads without an error, and only when
its canonical text reads back to the same records (formatting never changes a meaning).
Files are read one record at a time (:func:`tarotnotation.notation.canonical.pieces`):
``--check`` holds one record whatever the file's size, and a rewrite streams the canonical
text into a temporary file in the same folder, renamed over the file at the end (through
a symbolic link: the file it points to is rewritten, the link stays), or dropped when the
file cannot be formatted or is already canonical. ``--diff`` holds the file, to show it.
"""

from __future__ import annotations

import difflib
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Annotated, Any, Final

from tarotnotation import atomic
from tarotnotation.archive import (
    STDIN,
    binary_fault,
    file_fault,
    open_input,
    stdin_stream,
    walk,
)
from tarotnotation.diagnostics import Code, Diagnostic, Severity
from tarotnotation.formats import detect, registry
from tarotnotation.formats.base import Head
from tarotnotation.i18n import Msg, nmsg, render
from tarotnotation.notation.canonical import Piece, pieces

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    EXIT_USAGE,
    cannot_write,
    diagnostic_lines,
    echo,
    echo_err,
    expand_arguments,
    stdout_copy,
    use_color,
    worst,
)

EPILOG = """\
Examples:

  tarot fmt club/

  tarot fmt --check .

  tarot fmt --diff deal.tarot

  cat deal.tarot | tarot fmt -

--check and --diff write nothing and exit 1 when a file would change. A
file with a syntax error is left untouched and reported (exit status 1).
"""


class _Keep(Exception):  # noqa: N818 (not an error: the file is left as it is)
    """The file is not rewritten: it cannot be formatted, or is already canonical."""


@dataclass
class _Run:
    """What a run of ``tarot fmt`` found."""

    check: bool
    diff: bool
    color: bool
    changed: int = 0
    unchanged: int = 0
    broken: int = 0
    deals: int = 0
    skipped: int = 0
    """Files of another format, left alone."""
    unwritten: int = 0
    """Files that could not be written (a full disk): left as they were."""
    status: int = EXIT_OK
    notes: list[Diagnostic] = field(default_factory=list)

    def note(self, d: Diagnostic) -> None:
        """Print what is said of a file (F codes) and count its exit status."""
        for line in diagnostic_lines(d, self.color):
            echo_err(line)
        if d.code is not Code.NO_DEAL:
            self.status = worst(self.status, EXIT_USAGE)


def fmt(
    paths: Annotated[list[str], declare.Argument(
        metavar="PATH...", help="Text-notation files, folders (their .tarot files,"
        " recursively), glob patterns, or - for standard input.")],
    check: Annotated[bool, declare.Option("--check", help="Write nothing; exit 1 when a"
                                        " file would change.")] = False,
    diff: Annotated[bool, declare.Option("--diff", help="Write nothing; print a unified"
                                       " diff of each change (exit 1 when any).")] = False,
    quiet: Annotated[bool, declare.Option("--quiet", "-q",
                                        help="No summary.")] = False,
) -> None:
    """Rewrite records in the canonical form of the text notation."""
    args = expand_arguments(paths)
    run = _Run(check, diff, use_color(sys.stderr))
    for arg in args:
        named = arg == STDIN or not Path(arg).is_dir()
        for item in walk([arg]):
            if isinstance(item, Diagnostic):
                run.note(item)
            elif str(item) == STDIN:
                _format_stdin(run)
            else:
                _format_file(run, item, named)
    if not quiet and (len(args) != 1 or args[0] != STDIN):
        parts = [nmsg("{n} file would be reformatted", "{n} files would be reformatted",
                      run.changed, n=f"{run.changed:,}") if check or diff else
                 nmsg("{n} file reformatted", "{n} files reformatted", run.changed,
                      n=f"{run.changed:,}"),
                 nmsg("{n} unchanged", "{n} unchanged", run.unchanged, n=f"{run.unchanged:,}")]
        if run.broken:
            parts.append(nmsg("{n} not formatted (errors)", "{n} not formatted (errors)",
                              run.broken, n=f"{run.broken:,}"))
        if run.unwritten:
            parts.append(nmsg("{n} not written (see above)", "{n} not written (see above)",
                              run.unwritten, n=f"{run.unwritten:,}"))
        echo_err(", ".join(render(p) for p in parts))
    nothing = run.deals == 0 and not run.skipped  # a run that read nothing does not pass
    failed = run.broken > 0 or ((check or diff) and run.changed > 0) or nothing
    raise SystemExit(worst(run.status, EXIT_FAULTS if failed else EXIT_OK))


def _format_stdin(run: _Run) -> None:
    """Standard input to standard output: its canonical form, or, when a record cannot be
    formatted, the input as it was. It cannot be read twice, so both are spooled as it is
    read (in memory up to :data:`SPOOL` bytes, then in unnamed temporary files, which
    leave nothing behind however the run ends) and one is copied out at the end: memory
    stays bounded whatever its length. ``--check`` keeps nothing; ``--diff`` holds it, to
    show it."""
    stream: IO[bytes] = stdin_stream()
    head, _ = detect.read_head(stream)
    offset = detect.binary_at(Head.of(head))
    if offset is not None:  # (fmt - < /dev/zero: never read on)
        _binary(run, "<stdin>", detect.BinaryError(offset))
        return
    stream = io.BufferedReader(detect.Prefixed(head, stream))
    if run.diff:
        data = stream.read()
        found = list(pieces(io.BytesIO(data), "<stdin>"))
        if _judge(run, "<stdin>", found, data):
            _count(run, "<stdin>", data, b"".join(p.new or b"" for p in found))
        return
    if run.check:
        _judge_stream(run, "<stdin>", pieces(stream, "<stdin>"), None)
        return
    with (tempfile.SpooledTemporaryFile(SPOOL) as old,
          tempfile.SpooledTemporaryFile(SPOOL) as new):
        broken = run.broken
        _judge_stream(run, "<stdin>", pieces(io.BufferedReader(_Copied(stream, old)),
                                             "<stdin>"), new)
        kept = old if run.broken > broken else new
        kept.seek(0)
        stdout_copy(kept)


#: The bytes of standard input (and of its canonical form) ``tarot fmt -`` holds in
#: memory; past them, they go to an unnamed temporary file.
SPOOL: Final = 1 << 22


class _Copied(io.RawIOBase):
    """A binary stream that copies what is read from it to ``copy``."""

    def __init__(self, raw: IO[bytes], copy: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw
        self._copy = copy

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        buffer[: len(data)] = data
        self._copy.write(data)
        return len(data)


def _format_file(run: _Run, path: Path, named: bool) -> None:
    """One file: checked, shown as a diff, or rewritten (whole, through symbolic links)."""
    name = str(path)
    try:
        with open_input(path) as fh:
            kind, stream = detect.detected(fh, suffix=path.suffix)
            named_notation = registry.by_suffix(path) is registry.DEFAULT
            if kind is not registry.DEFAULT and not named_notation:
                run.skipped += 1
                if named:
                    echo_err(Msg("tarot: {name}: left alone: it is {kind}, not the text"
                                 " notation", name=name, kind=kind.title))
                return
            if run.diff:
                found = list(pieces(stream, name))
                old = b"".join(p.old for p in found)
                if _judge(run, name, found, old):
                    new = b"".join(p.new or b"" for p in found)
                    _count(run, name, old, new)
                return
            if run.check:
                _judge_stream(run, name, pieces(stream, name), None)
                return
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # a FIFO, a device
                run.note(Diagnostic.make(
                    Code.UNREADABLE_FILE, Msg("not a regular file: it cannot be rewritten in"
                                              " place (tarot fmt - < {name} writes its"
                                              " canonical form)", name=name), file=name))
                return
            try:
                with atomic.writing(path) as out:
                    if not _judge_stream(run, name, pieces(stream, name), out):
                        raise _Keep
            except _Keep:
                return
            except atomic.WriteError as err:  # (a full disk: the file is as it was)
                run.changed -= 1
                run.unwritten += 1
                echo_err(f"tarot: {render(cannot_write(err))}")
                run.status = worst(run.status, EXIT_USAGE)
                return
            echo_err(Msg("reformatted {name}", name=name))
    except OSError as err:
        run.note(file_fault(name, err))
    except detect.BinaryError as err:  # (/dev/zero, an image: not read on)
        _binary(run, name, err)


def _binary(run: _Run, name: str, err: detect.BinaryError) -> None:
    """A file or stream whose first bytes are binary: said (S007), not formatted."""
    run.broken += 1
    for line in diagnostic_lines(binary_fault(name, err), run.color):
        echo_err(line)


def _judge_stream(run: _Run, name: str, found: Iterator[Piece], out: IO[bytes] | None
                  ) -> bool:
    """Go through a file's records (writing the canonical text to ``out``); True when the
    file is changed and can be rewritten."""
    changed = False
    bad: list[Piece] = []
    count = 0
    for piece in found:
        count += 1
        if piece.new is None:
            bad.append(piece)
            continue
        changed |= piece.changed
        if out is not None and not bad:
            out.write(piece.new)
    if not _verdict(run, name, count, bad):
        return False
    if changed:
        run.changed += 1
        if run.check:
            echo(render(Msg("would reformat {name}", name=name)))
    else:
        run.unchanged += 1
    return changed


def _judge(run: _Run, name: str, found: list[Piece], old: bytes) -> bool:
    """Whether a file held whole can be formatted (its faults printed when not)."""
    return _verdict(run, name, len(found), [p for p in found if p.new is None])


def _verdict(run: _Run, name: str, count: int, bad: list[Piece]) -> bool:
    run.deals += count
    if not count:
        run.note(Diagnostic.make(Code.NO_DEAL, Msg("no deal in this file: it is empty or blank"),
                                 file=name))
    if bad:
        run.broken += 1
        for piece in bad:
            for d in piece.item.diagnostics:
                if d.severity is Severity.ERROR or piece.item.record is None:
                    for line in diagnostic_lines(d, run.color):
                        echo_err(line)
        echo_err(Msg("tarot: {name}: not formatted: it cannot be read cleanly (left untouched)",
                     name=name))
        return False
    return True


def _count(run: _Run, name: str, old: bytes, new: bytes) -> None:
    if new == old:
        run.unchanged += 1
        return
    run.changed += 1
    _show_change(run, name, old, new)


def _show_change(run: _Run, name: str, old: bytes, new: bytes) -> None:
    if run.diff:
        before = old.decode("utf-8", errors="replace").splitlines(keepends=True)
        after = new.decode("utf-8").splitlines(keepends=True)
        for line in difflib.unified_diff(before, after, fromfile=name,
                                         tofile=f"{name} (formatted)"):
            echo(line.rstrip("\n"))
    elif run.check:
        echo(render(Msg("would reformat {name}", name=name)))
