"""Writing: where (a file, or standard output for ``-`` or nothing), in which format
(``--to``, else the output's name), never over an input, whole or not at all.

Every command that writes a file goes through :func:`target` (checked before anything is
read or written) and :func:`opened` (the file replaced whole, by
:func:`tarotnotation.atomic.writing`, or standard output). The format of records comes from
the registry (:mod:`tarotnotation.formats.registry`), never from a table here.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar, cast

from tarotnotation import atomic
from tarotnotation.formats import registry
from tarotnotation.i18n import Msg, or_list, render
from tarotnotation.inputs import local_path

from .common import STDIN, echo_err, fail
from .terminal import safe

if TYPE_CHECKING:
    from tarotnotation.records import DealRecord

T = TypeVar("T")

#: The path that names standard output.
STDOUT: Final = "-"
#: What ``--to`` accepts (the text notation first).
WRITE_FORMATS: Final = tuple(sorted(registry.names(writable=True),
                                    key=lambda name: (name != registry.DEFAULT.name, name)))


def target(out: str | None, *, inputs: Iterable[str | Path] = ()) -> str | None:
    """``out`` as a place to write: None for standard output (``-`` or left out).

    A usage error (exit status 2), before anything is read or written, when ``out`` is a
    folder, when its folder does not exist, or when it is one of the ``inputs`` (the same
    file, whether named by the same path, a hard link or a symbolic link).
    """
    if out is None or out == STDOUT:
        return None
    path = Path(out)
    real = atomic.target_of(path)
    if real.is_dir():
        fail(Msg("{out}: is a folder: name a file to write", out=out))
    if not real.parent.is_dir():
        fail(Msg("{out}: no such folder: {folder}", out=out, folder=real.parent))
    refuse_inputs(out, inputs)
    return out


def refuse_inputs(out: str, inputs: Iterable[str | Path]) -> None:
    """A usage error when ``out`` is one of the ``inputs`` (:func:`same_file`: standard
    input's file for ``-``)."""
    for given in inputs:
        if same_file(out, given):
            what = "" if str(given) == out else f" (it is {input_name(given)})"
            fail(Msg("{out}: this is one of the inputs{what}: it would be written over; write "
                     "to another file",
                     out=out, what=what))


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name the same file (its device and inode, links followed).
    ``-`` is standard input: the file it was opened from (``tarot query - -o v.tarot <
    v.tarot`` would empty ``v.tarot`` before reading it); a terminal, a pipe or a device
    on standard input is no file to write over."""
    try:
        sa, sb = _stat(a), _stat(b)
    except OSError:
        return False
    if sa is None or sb is None:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _stat(path: str | Path) -> os.stat_result | None:
    """The file ``path`` names (standard input's, when a regular file, for ``-``)."""
    if str(path) != STDIN:
        return os.stat(local_path(str(path)))  # (a file:// URL: its file)
    found = os.fstat(sys.stdin.fileno() if sys.stdin is not None else 0)
    return found if stat.S_ISREG(found.st_mode) else None


def input_name(given: str | Path) -> str:
    """An input as a message names it."""
    return Msg("standard input") if str(given) == STDIN else str(given)


def output_format(to: str | None, out: str | None, default: str = "tarot") -> registry.Format:
    """The format to write records in: ``--to`` if given, else the one the output file's
    name says (``.tarot``, ``.json``, ``.jsonl``…), else ``default`` (standard output).
    A name that says no format, or a format that cannot be written, is a usage error: what
    is written always matches the name, unless ``--to`` asks otherwise."""
    if to is not None:
        try:
            fmt = registry.get(to)
        except registry.UnknownFormatError:
            fmt = None
        if fmt is None or fmt.write is None:
            fail(Msg("--to {to}: unknown format: expected {formats}",
                     to=to, formats=registry.listed(WRITE_FORMATS)))
        return fmt
    if out is None or out == STDOUT:
        return registry.get(default)
    named = registry.by_suffix(out)
    if named is None:
        fail(Msg("{out}: cannot tell the format from the name: give --to ({formats})",
                 out=out, formats=registry.listed(WRITE_FORMATS)))
    if named.write is None:
        fail(Msg("{out}: {fmt} cannot be written: give --to", out=out, fmt=named.title))
    return named


#: The kinds of reports and tables (not records) an output's name says, by its suffix:
#: the one table of them (``validate``, ``stats``, ``standings``, ``query --fields``).
REPORT_SUFFIXES: Final = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
                          ".csv": "csv", ".xml": "xml"}


def report_format(given: T | None, out: str | None, kinds: Mapping[str, T], default: T) -> T:
    """The format of a report or a table (not records): ``--format`` if ``given``; else
    the one the output's name says (its kind in :data:`REPORT_SUFFIXES`, if the command
    writes it: ``kinds``); else ``default`` (text). A name that says a format the command
    cannot write (``stats -o s.tarot``, a page) is a usage error naming the ones it can:
    what is written always matches the name, unless ``--format`` asks otherwise.

    >>> report_format(None, "s.json", {"json": "JSON"}, "text")
    'JSON'
    >>> report_format(None, "s.txt", {"json": "JSON"}, "text"), report_format("x", None, {}, "")
    ('text', 'x')
    """
    if given is not None:
        return given
    if out is None or out == STDOUT:
        return default
    suffix = Path(out).suffix.lower()
    kind = REPORT_SUFFIXES.get(suffix)
    if kind is not None and kind in kinds:
        return kinds[kind]
    named = registry.by_suffix(suffix)
    if named is not None or kind is not None or suffix in PAGE_SUFFIXES:
        fmt = named.title if named is not None else (kind or "HTML")
        fail(Msg("{out}: the name says {fmt}, not a report: name the report {suffixes}, or "
                 "give --format", out=out, fmt=fmt,
                 suffixes=or_list([".txt", *(s for s, k in REPORT_SUFFIXES.items()
                                             if k in kinds)])))
    return default


#: The names of a page for the browser.
PAGE_SUFFIXES: Final = (".html", ".htm", ".xhtml")


def page_target(out: str, what: str) -> None:
    """A usage error when ``out``, named to receive a page (``what``: the option), says
    another format: a page is named ``.html`` (or is standard output, or a device)."""
    if out == STDOUT or out.lower().endswith(PAGE_SUFFIXES) or _written_to(out):
        return
    named = registry.by_suffix(out)
    fail(Msg("{what} {out}: a page's name ends in .html{says}", what=what, out=out,
             says="" if named is None else Msg(" (the name says {fmt})", fmt=named.title)))


def _written_to(out: str) -> bool:
    """Whether ``out`` is a device or a FIFO (written to as it is, whatever its name)."""
    try:
        return not stat.S_ISREG(os.stat(out).st_mode) and not os.path.isdir(out)
    except OSError:
        return False


@contextlib.contextmanager
def opened(out: str | None) -> Iterator[IO[bytes]]:
    """A binary stream to write to: standard output for None or ``-``; otherwise a
    temporary file in the target's folder, renamed over the target only when the block
    ends without an exception (:func:`tarotnotation.atomic.writing`)."""
    if out is None or out == STDOUT:
        sys.stdout.flush()
        if sys.stdout.isatty():  # records shown on a terminal: made safe to show
            shown = _Shown(sys.stdout.buffer)
            yield cast(IO[bytes], shown)
            shown.close()
        else:
            yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    with atomic.writing(out) as fh:
        yield fh


def write_records(records: Iterable[DealRecord], fmt: registry.Format, fh: IO[bytes]) -> int:
    """Write records in ``fmt`` as they come (constant memory); returns the count.

    The one writing path of every command that writes records: ``json`` writes one record
    as one indented object and several as an archive document; a record the format cannot
    write (a second deal in a TarotClub file, two poignées in one camp there, a score sheet
    of two table sizes) stops the command with ``cannot write FMT: why`` (exit status 2;
    a file being written is left as it was).
    """
    if fmt.write is None:  # (output_format refuses these)
        raise ValueError(f"{fmt.title} cannot be written")
    try:
        return fmt.write(records, fh)
    except ValueError as err:  # (a format's writers say why in a ValueError)
        fail(Msg("cannot write {fmt}: {err}", fmt=fmt.name, err=err))


def warn_lost(record: DealRecord, fmt: registry.Format, deal: int,
              file: str | None = None) -> None:
    """Say on standard error what a file of ``fmt`` written from ``record`` loses (a
    TarotClub log: the tags, names, comments...), as ``tarot convert`` and ``tarot split``
    both do; ``file`` names the deal's file."""
    lost = fmt.cannot_hold(record) if fmt.cannot_hold is not None else []
    if not lost:
        return
    what = render("; ").join(render(x) for x in lost)
    if file is None:
        echo_err(Msg("tarot: warning: deal {deal}: {fmt} cannot hold {lost}",
                     deal=deal, fmt=fmt.title, lost=what))
    else:
        echo_err(Msg("tarot: warning: {file}: deal {deal}: {fmt} cannot hold {lost}",
                     file=safe(file), deal=deal, fmt=fmt.title, lost=what))


class _Shown(io.RawIOBase):
    """Bytes written to a terminal, their control characters shown escaped (a comment of a
    record may hold ``ESC ] 52`` and the like): line ends are kept. Piped or written to a
    file, records are written as they are."""

    def __init__(self, out: IO[bytes]) -> None:
        super().__init__()
        self._out = out
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        text = self._decoder.decode(bytes(data))
        self._out.write("\n".join(safe(line) for line in text.split("\n")).encode())
        return len(data)

    def close(self) -> None:
        if not self.closed:
            rest = self._decoder.decode(b"", final=True)
            if rest:
                self._out.write(safe(rest).encode())
            self._out.flush()
        super().close()
