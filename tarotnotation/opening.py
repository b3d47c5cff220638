"""Walking and opening paths: the files named and found in folders, each opened once and
read as a stream of deals in the format its first bytes show.

:func:`walk` gives the files of folders (and F001-F004 for paths that cannot be used),
:func:`read_path` reads one path (``-``: standard input) with the reader of the format
detected from its content, the extension being only a fallback
(:mod:`tarotnotation.formats.detect`), and yields
:class:`~tarotnotation.source.ReadDeal` values.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Final

from .diagnostics import Code, Diagnostic
from .formats import detect, registry
from .i18n import Msg
from .inputs import Url, folder_files, is_url, open_bytes
from .source import ReadDeal, read_deal

__all__ = [
    "STDIN",
    "SUFFIXES",
    "binary_fault",
    "expand_paths",
    "file_fault",
    "format_name",
    "format_of",
    "open_input",
    "read_path",
    "read_stream",
    "stdin_stream",
    "walk",
]


#: File extensions read from folders, and the format each suggests.
SUFFIXES: Final = registry.SUFFIXES
#: The path that names standard input.
STDIN: Final = "-"


def walk(paths: Iterable[str | Path | Diagnostic]) -> Iterator[Path | Diagnostic]:
    """Files named (and ``-``), and the record files found in folders named (recursively,
    sorted: those whose extension is one of :data:`SUFFIXES`); in their place, a located
    diagnostic for each path that cannot be used: F001 a path that names nothing, F003 a
    folder that cannot be listed, F004 a symbolic link that points to nothing (named, or
    found in a folder with a record file's name). Symbolic links to folders found inside
    folders are not followed (as ``git`` does not). What :func:`walk` gave passes through
    it unchanged."""
    for p in paths:
        if isinstance(p, Diagnostic):  # walked already
            yield p
            continue
        if str(p) == STDIN:
            yield Path(STDIN)
            continue
        if isinstance(p, Url):  # walked already
            yield p
            continue
        if isinstance(p, str) and is_url(p):  # (opened by its file system: .inputs)
            yield from _walk_url(p)
            continue
        path = Path(p)
        try:
            mode = path.stat().st_mode
        except OSError as err:
            yield file_fault(str(path), err)
            continue
        if stat.S_ISDIR(mode):
            yield from _walk_folder(path)
        else:
            yield path


def _walk_url(url: str) -> Iterator[Path | Diagnostic]:
    """A URL: its file, or the record files of the folder it names, as a local folder's
    (:func:`tarotnotation.inputs.folder_files`); F003 for a folder that cannot be
    listed."""
    found = folder_files(url, SUFFIXES)
    if found is None:
        yield Url(url)
        return
    for name, err in found:
        yield Url(name) if err is None else file_fault(name, err, folder=True)


def _walk_folder(top: Path) -> Iterator[Path | Diagnostic]:
    found: list[tuple[Path, Path | Diagnostic]] = []

    def unlistable(err: OSError) -> None:
        name = err.filename if isinstance(err.filename, str) else str(top)
        found.append((Path(name), file_fault(name, err, folder=True)))

    for folder, _, names in os.walk(top, onerror=unlistable):
        for name in names:
            path = Path(folder, name)
            if path.suffix.lower() not in SUFFIXES:
                continue
            try:
                regular = stat.S_ISREG(path.stat().st_mode)
            except OSError as err:
                found.append((path, file_fault(str(path), err)))
                continue
            if regular:  # (a FIFO or a device in a folder is not read)
                found.append((path, path))
    found.sort(key=lambda item: item[0])
    for _, item in found:
        yield item


def expand_paths(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The files of :func:`walk` (those that can be used), without the diagnostics."""
    for item in walk(paths):
        if isinstance(item, Path):
            yield item


def file_fault(path: str, err: OSError, *, folder: bool = False) -> Diagnostic:
    """The located diagnostic of a path that cannot be used: F001 it names nothing, F004
    it is a symbolic link to nothing, F003 a folder that cannot be listed, F002 any other
    failure to open or read a file."""
    reason = err.strerror or str(err)
    if isinstance(err, FileNotFoundError) or err.errno == errno.ENOENT:
        if os.path.islink(path):
            target = os.readlink(path)
            return Diagnostic.make(Code.DANGLING_LINK, Msg("a symbolic link to {target}, which "
                                                           "does not exist",
                                                           target=target), file=path)
        if set(path) & set("*?["):
            return Diagnostic.make(Code.NO_SUCH_PATH, Msg("no file matches this pattern"),
                                   file=path)
        return Diagnostic.make(Code.NO_SUCH_PATH, Msg("no such file or folder"), file=path)
    if folder:
        return Diagnostic.make(Code.UNREADABLE_FOLDER, Msg("cannot list the folder: {reason}; "
                                                           "the files in it are not checked",
                                                           reason=reason), file=path)
    if isinstance(err, IsADirectoryError):
        return Diagnostic.make(Code.UNREADABLE_FILE, Msg("is a folder, expected a file"),
                               file=path)
    return Diagnostic.make(Code.UNREADABLE_FILE, Msg("cannot read the file: {reason}",
                                                     reason=reason), file=path)


def binary_fault(path: str, err: detect.BinaryError) -> Diagnostic:
    """The S007 of a file whose first bytes are binary (format detection's
    :class:`~tarotnotation.formats.detect.BinaryError`): not a record, not read on."""
    return Diagnostic.make(Code.ENCODING, Msg("binary content, not a record (a NUL byte at"
                                              " byte offset {offset}): this file is not read",
                                              offset=f"{err.offset:,}"), file=path)


def format_of(path: str | Path) -> str:
    """The format of a file, detected from its content: ``tarot``, ``json``, ``jsonl``,
    ``tarotclub``, ``tarotclub-deal``, ``csv``, ``xlsx``, ``scoreit``, ``matocolotoe``
    (:func:`format_name` names it for people).

    Raises ``OSError`` when the file cannot be read. This opens the file to look at it:
    a stream that can be read only once (standard input, a FIFO) is detected by
    :func:`read_path` as it reads.
    """
    return detect.detect(path)


format_name = detect.format_name


def read_path(path: str | Path, fmt: str | None = None) -> Iterator[ReadDeal]:
    """Every deal of one file (``-``: standard input), in the format detected from its
    content unless ``fmt`` names one (see :mod:`tarotnotation.formats.registry`).

    The path is opened once and read as a stream: a named pipe or a process substitution
    (``<(cat x.tarot)``) is read like a file. What cannot be read, and a file that holds
    no deal, is said by a :class:`ReadDeal` with index 0 (:attr:`ReadDeal.about_file`):
    F001 (no such file), F002 (cannot be read), F004 (a link to nothing), F005 (no deal,
    a warning)."""
    if str(path) == STDIN:
        yield from read_stream(stdin_stream(), "<stdin>", fmt)
        return
    name = str(path)
    try:
        fh = open_input(path)
    except OSError as err:
        yield read_deal(0, None, (file_fault(name, err),))
        return
    with fh:
        yield from read_stream(fh, name, fmt, suffix=Path(path).suffix)


def open_input(path: str | Path) -> IO[bytes]:
    """A path opened to be read once, as a binary stream: a file as usual; a named pipe,
    a terminal or a device so that a signal is never missed while it waits for bytes
    (:class:`_Interruptible`); a URL by its fsspec file system
    (:func:`tarotnotation.inputs.open_bytes`)."""
    if is_url(str(path)):
        return open_bytes(str(path))
    raw = open(path, "rb", buffering=0)  # noqa: SIM115 (the caller closes it)
    try:
        regular = stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
    except OSError:
        regular = True
    return io.BufferedReader(raw if regular else _Interruptible(raw))


def stdin_stream() -> IO[bytes]:
    """Standard input as a binary stream, read as :func:`open_input` reads a pipe."""
    buffer = sys.stdin.buffer
    raw = getattr(buffer, "raw", None)
    try:
        regular = raw is None or stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        regular = True
    if regular or raw is None:
        return buffer
    return io.BufferedReader(_Interruptible(raw))


#: How long a read of a pipe waits at most before Python may run its signal handlers.
_POLL: Final = 0.25


class _Interruptible(io.RawIOBase):
    """A pipe, a FIFO or a terminal, read so that a signal is never missed.

    Python runs its signal handlers between two steps of Python code: a signal that
    arrives just before a blocking read(2) starts would wait for the next bytes, which
    may never come (``kill`` of a ``tarot validate`` reading a quiet FIFO). Each read
    here first waits in select(2) a quarter of a second at most, then again, so that a
    pending handler runs within that time, and the read itself never blocks.
    """

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw
        self._fd = raw.fileno()

    def readable(self) -> bool:
        """Always: it is read from."""
        return True

    def fileno(self) -> int:
        """The file descriptor read."""
        return self._fd

    def readinto(self, buffer: Any) -> int:
        """Wait for bytes (a quarter of a second at a time), then read them."""
        import select

        while not select.select([self._fd], [], [], _POLL)[0]:
            pass
        return self._raw.readinto(buffer)  # type: ignore[attr-defined,no-any-return]

    def close(self) -> None:
        """Close the stream read."""
        if not self.closed:
            self._raw.close()
        super().close()


def read_stream(fh: IO[bytes], name: str, fmt: str | None = None, *, suffix: str = ""
                ) -> Iterator[ReadDeal]:
    """Every deal of a binary stream (standard input, a pipe…), its format detected from
    the first bytes (``suffix`` is the fallback) unless ``fmt`` names one, then read on
    from the same stream: every format's reader reads as the bytes come, in bounded
    memory. A stream with no deal gives an F005 warning (index 0); a read that fails, an
    F002 error."""
    count = 0
    said = False  # the reader said why the file holds no deal (not a score sheet: C105)
    try:
        if fmt is None:
            kind, stream = detect.detected(fh, suffix=suffix)
        else:
            kind, stream = registry.get(fmt), fh
        for item in kind.read(stream, name):
            count += not item.about_file
            said |= item.about_file
            yield item
    except OSError as err:
        yield read_deal(0, None, (file_fault(name, err),))
        return
    except detect.BinaryError as err:  # (/dev/zero: never read on)
        yield read_deal(0, None, (binary_fault(name, err),))
        return
    if not count and not said and kind.holds_deals:
        yield read_deal(0, None, (Diagnostic.make(
            Code.NO_DEAL, Msg("no deal in this file: it is empty or blank"), file=name),))
