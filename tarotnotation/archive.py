"""Many files of any format as one stream of deals; checking archives, in parallel.

:func:`read_path` picks a reader by the file's content (the text notation, JSON, JSON
Lines, TarotClub's logs and deal files, CSV and Excel score sheets, ScoreIt's and
Matocolotoe's files; see :mod:`tarotnotation.formats.detect`), the
extension being only a fallback, and yields :class:`~tarotnotation.source.ReadDeal`
values; ``-`` is standard input. :func:`check_paths` reads and replays
every deal of every file, each deal on its own: a deal that cannot be read or replayed
is reported and the next one goes on. With ``jobs > 1`` files are checked in parallel
worker processes.

>>> import tempfile, pathlib
>>> from tarotnotation.records import DealRecord
>>> from tarotnotation.formats import json as tjson
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "sheet.json").write_bytes(tjson.dumps(DealRecord(players=4,
...     result={"contract": "garde", "taker": "E", "taker_points": 48, "bouts": 2,
...             "scores": {"S": -64, "E": 190, "N": -64, "W": -64}})))
>>> for checked in check_paths([folder]):
...     for d in checked.diagnostics:
...         print(d.location.deal, d.code.value, d.message)
1 R102 the recorded scores sum to -2: expected 0
1 R214 the taker (E) is recorded with +190 and each defender with -64: at 4 players the
  taker gets 3 times what a defender pays, +192 (docs/rules.md §10)
1 R101 E is recorded with +190; the rules give +192
"""

from __future__ import annotations

import errno
import io
import itertools
import os
import re
import stat
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, TypeVar, cast

from . import native
from .diagnostics import Code, Diagnostic, Severity
from .formats import detect, registry
from .i18n import Msg
from .limits import MAX_JSON_RECORD_BYTES
from .plausibility import SessionDeals, deal_number, plain_number
from .quick import quick_check_record
from .source import ReadDeal
from .status import Status
from .values import Value, replace

if TYPE_CHECKING:
    # Imported when used: a plain clean deal is judged by the quick check, with no record
    # model, replay or causes; a serial run starts no worker (issue 17).
    from .records import DealRecord
    from .replay import Replay
    from .workers import Pending

__all__ = [
    "PROBE",
    "STDIN",
    "SUFFIXES",
    "TAROT_CUT",
    "TASKS_A_WORKER",
    "CheckedDeal",
    "CleanDeals",
    "Part",
    "binary_fault",
    "blocks_a_task",
    "check_paths",
    "check_paths_batched",
    "chunks_of",
    "count_lines",
    "expand_paths",
    "file_fault",
    "format_name",
    "format_of",
    "in_chunks",
    "json_lines_chunks",
    "json_lines_ranges",
    "line_content",
    "open_input",
    "parts_of",
    "range_chunks",
    "read_part",
    "read_path",
    "read_stream",
    "stdin_stream",
    "tarot_cuts",
    "tarot_parts",
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
        yield ReadDeal(0, None, (file_fault(name, err),))
        return
    with fh:
        yield from read_stream(fh, name, fmt, suffix=Path(path).suffix)


def open_input(path: str | Path) -> IO[bytes]:
    """A path opened to be read once, as a binary stream: a file as usual; a named pipe,
    a terminal or a device so that a signal is never missed while it waits for bytes
    (:class:`_Interruptible`)."""
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
        yield ReadDeal(0, None, (file_fault(name, err),))
        return
    except detect.BinaryError as err:  # (/dev/zero: never read on)
        yield ReadDeal(0, None, (binary_fault(name, err),))
        return
    if not count and not said and kind.holds_deals:
        yield ReadDeal(0, None, (Diagnostic.make(
            Code.NO_DEAL, Msg("no deal in this file: it is empty or blank"), file=name),))


class CheckedDeal(Value):
    """One deal of an archive, read and replayed: what a check reports of it."""

    __slots__ = (
        "diagnostics",
        "file",
        "index",
        "line",
        "number",
        "offset",
        "replay",
        "scores",
        "status",
        "taker_half",
    )
    file: str
    index: int
    """1-based number of the deal in its file; 0 for what is said of the file itself
    (it cannot be read, or holds no deal: the F codes)."""
    diagnostics: tuple[Diagnostic, ...]
    """Reading diagnostics, then the replay's, located in the file; when one slip explains
    many faults, its cause first and the faults that follow from it marked
    (:mod:`tarotnotation.causes`)."""
    status: Status | None
    """The replay's status; None when the deal could not be read."""
    scores: Mapping[str, int] | None
    taker_half: int | None
    replay: Replay | None
    """The whole replay (kept only when checked in this process)."""
    number: tuple[tuple[str, ...], str] | None
    """The record's session and ``Deal`` number (:func:`plausibility.deal_number`)."""
    line: int | None
    """The line where the record starts (text formats, JSON Lines)."""
    offset: int | None
    """Where the deal starts in its file, in bytes, when known (progress is counted in
    bytes read)."""

    def __init__(self, file: str, index: int, diagnostics: tuple[Diagnostic, ...],
                 status: Status | None, scores: Mapping[str, int] | None = None,
                 taker_half: int | None = None, replay: Replay | None = None,
                 number: tuple[tuple[str, ...], str] | None = None, line: int | None = None,
                 offset: int | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "file", file)
        setfield(self, "index", index)
        setfield(self, "diagnostics", diagnostics)
        setfield(self, "status", status)
        setfield(self, "scores", scores)
        setfield(self, "taker_half", taker_half)
        setfield(self, "replay", replay)
        setfield(self, "number", number)
        setfield(self, "line", line)
        setfield(self, "offset", offset)

    @property
    def about_file(self) -> bool:
        """True for what is said of the file itself (index 0), not of one of its deals."""
        return self.index == 0

    @property
    def errors(self) -> int:
        """Number of errors (a fault that follows from a cause is not counted)."""
        return sum(d.severity is Severity.ERROR and d.cause is None for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """Number of warnings (a consequence of a cause is not counted)."""
        return sum(d.severity is Severity.WARNING and d.cause is None
                   for d in self.diagnostics)


def check_deal(item: ReadDeal, file: str, ruleset: str | None = None, *,
               keep: bool = True, default_ruleset: str | None = None) -> CheckedDeal:
    """Replay one read deal.

    ``ruleset`` overrides every record's own; ``default_ruleset`` applies only to records
    that do not name one. ``keep=False`` drops the replay object, keeping only what a
    report needs; a plain clean deal is then judged by
    :func:`tarotnotation.quick.quick_check_record` without a replay.
    """
    located = tuple(
        d if d.location.file is not None else d.at(file=file) for d in item.diagnostics
    )
    if item.record is None:
        return CheckedDeal(file, item.index, located, None, line=item.line,
                           offset=item.offset)
    record: DealRecord = item.record
    number = deal_number(record.tags)
    if not keep:
        quick = quick_check_record(record, ruleset, default_ruleset)
        if quick is not None:  # a plain clean deal: what the replay would report
            return CheckedDeal(file, item.index, located, *quick, number=number,
                               line=item.line, offset=item.offset)
    # (the spec kept as given, not in canonical form, as the reports and pages show it:
    # pydantic's own copy, which does not validate; the spec is a valid one)
    from pydantic import BaseModel  # (loaded already: the record is a model)

    if ruleset is not None:
        record = BaseModel.model_copy(record, update={"ruleset": ruleset})
    elif default_ruleset is not None and "ruleset" not in record.model_fields_set:
        record = BaseModel.model_copy(record, update={"ruleset": default_ruleset})
    from .causes import explain
    from .replay import replay

    result = explain(replay(record, deal=item.index, source=item.source),
                     deal=item.index, source=item.source)
    diags = tuple(d if d.location.file is not None else d.at(file=file)
                  for d in result.diagnostics)
    return CheckedDeal(file, item.index, located + diags, result.status, result.scores,
                       result.taker_half, result if keep else None, number, item.line,
                       item.offset)


def _check_file(args: tuple[str, str | None, str | None]) -> list[CheckedDeal]:
    path, ruleset, default = args
    return [check_deal(item, path, ruleset, keep=False, default_ruleset=default)
            for item in read_path(path)]


#: JSON Lines are checked in parallel in ranges of this many bytes (or a few of them; the
#: lines that start in a range), .tarot files in parts of about as many.
CHUNK_BYTES: Final = 1 << 20
#: Chunks (or parts of a .tarot file) in flight a worker in a parallel check: at 2, the
#: workers of -j 2 waited for this process (168-173% of CPU used on 1,000,000 deals of
#: JSON Lines); at 8, 182-184%, and 10% less time; the results of a chunk are small.
_AHEAD: Final = 8


class _Chunk(Value):
    """Whole lines of a JSON Lines file, and where they start in it."""

    __slots__ = ("first", "index", "lineno", "lines", "offset", "path")
    path: str
    lines: tuple[bytes, ...]
    """Each ending at its \\n (the last may have none), as the reader splits them."""
    first: bool
    """The file's first lines (read as the file's start: byte-order mark, first line)."""
    index: int
    """Deals before these lines."""
    lineno: int
    """Lines before these lines."""
    offset: int
    """Bytes before these lines."""

    def __init__(self, path: str, lines: tuple[bytes, ...], first: bool, index: int, lineno: int,
                 offset: int) -> None:
        setfield = object.__setattr__
        setfield(self, "path", path)
        setfield(self, "lines", lines)
        setfield(self, "first", first)
        setfield(self, "index", index)
        setfield(self, "lineno", lineno)
        setfield(self, "offset", offset)


def count_lines(block: bytes, lines: Sequence[bytes] | None = None) -> tuple[int, int]:
    """``(lines, deals)`` of a block of whole lines, as ``readlines`` and :func:`line_content`
    count them (by the compiled core when built: no line cut out); ``lines``: the block's,
    when cut already."""
    twin = native.compiled()
    if twin is not None:
        counted: tuple[int, int] = twin.count_lines(block)
        return counted
    if lines is None:
        lines = io.BytesIO(block).readlines()
    return len(lines), sum(1 for raw in lines if line_content(raw))


#: What a worker sends back of a checked deal: CheckedDeal's fields but the file, the
#: status by its value (plain tuples, strings and ints pickle several times faster than
#: dataclasses and enums, and every deal crosses between the processes).
_Packed = tuple[int, tuple[Diagnostic, ...], str | None, Mapping[str, int] | None, int | None,
                tuple[tuple[str, ...], str] | None, int | None, int | None]
_STATUS_OF: Final = {status.value: status for status in Status}


#: What a worker sends back of a task: the file, its deals packed, for a part of a
#: .tarot file where the record after the part starts (None: the file ended), and for a
#: range of JSON Lines the lines and deals it found (its deals and lines are numbered
#: from the range's start).
_Done = tuple[str, "list[_Packed | CleanDeals]", int | None, tuple[int, int] | None]


def _check_task(task: _Range | _TarotPart | str, ruleset: str | None, default: str | None
                ) -> _Done:
    """A worker's part: a whole file, a range of JSON Lines or a part of a .tarot file
    (packed)."""
    if isinstance(task, str):
        return task, _folded(task, (_pack(c) for c in _check_file((task, ruleset, default)))
                             ), None, None
    if isinstance(task, _TarotPart):
        # (packed as they are checked: a plain clean deal is never a CheckedDeal here)
        after: list[int] = []
        packed = _tarot_checked(task, ruleset, default, after, packed=True)
        folded = _folded(task.path, packed)
        return task.path, folded, after[0] if after else None, None
    counted = [0, 0]
    checked = itertools.chain.from_iterable(
        _lines_checked(chunk, ruleset, default, packed=True)
        for chunk in range_chunks(task, counted))
    # (the deals the bulk check settles come packed already)
    folded = _folded(task.path, (_pack(c) if isinstance(c, CheckedDeal) else c
                                 for c in checked))
    return task.path, folded, None, (counted[0], counted[1])


class _Range(Value):
    """A range of bytes of a JSON Lines file for a worker of a parallel check: the lines
    that start from byte ``start`` up to byte ``end`` (None: the file's end), which the
    worker finds (:func:`range_chunks`); the parent reads nothing of them."""

    __slots__ = ("end", "path", "start")
    path: str
    start: int
    end: int | None

    def __init__(self, path: str, start: int, end: int | None) -> None:
        setfield = object.__setattr__
        setfield(self, "path", path)
        setfield(self, "start", start)
        setfield(self, "end", end)


def json_lines_ranges(path: str, size: int) -> Iterator[_Range]:
    """A JSON Lines file cut into ranges of ``size`` bytes for the workers, the last one
    open (to the file's end, however long it is then), without reading it."""
    try:
        total = os.path.getsize(path)
    except OSError:
        total = 0
    start = 0
    while start + size < total:
        yield _Range(path, start, start + size)
        start += size
    yield _Range(path, start, None)


#: How much a worker reads at a time to find the first line that starts in its range.
PROBE: Final = 1 << 16


def range_chunks(task: _Range, counted: list[int]) -> Iterator[_Chunk]:
    """The lines of a range of a JSON Lines file, as :func:`chunks_of` cuts the whole
    file (a block at a time, a line over the bound cut there and its rest skipped): the
    lines that start in the range, numbered from its start (the deals and lines before
    them are unknown here), with their offsets in the file; ``counted`` (lines, deals)
    is added up as they go.

    A line starts at byte 0 or after a ``\n``: the worker looks for the first ``\n``
    from the byte before its range (none before its end: no line starts there, the range
    lies inside a longer line) and reads on past its end to finish its last line; the
    next range's worker starts at the line after it. So each line is read by one worker,
    whatever the ranges' sizes, and a line over the bound is skipped by the one that
    reads its start, the others reading no more than their range to find no line.
    """
    limit = MAX_JSON_RECORD_BYTES
    block_size = min(CHUNK_BYTES, limit)  # a line inside a block is never cut
    end = task.end
    with open(task.path, "rb") as fh:
        at = task.start
        if at > 0:
            fh.seek(at - 1)
            at -= 1
            while True:  # the first line that starts in the range
                probe = fh.read(PROBE if end is None else min(PROBE, end - 1 - at))
                if not probe:
                    return
                found = probe.find(b"\n")
                if found >= 0:
                    at += found + 1
                    fh.seek(at)
                    break
                at += len(probe)
        first = at == 0
        while end is None or at < end:
            block = fh.read(block_size if end is None else min(block_size, end - at))
            if not block:
                return
            skipped = 0
            if not block.endswith(b"\n"):
                # The rest of the last line, as readline(limit + 1) reads a line.
                have = len(block) - (block.rfind(b"\n") + 1)
                block += fh.readline(limit + 1 - have)
                if len(block) - (block.rfind(b"\n", 0, len(block) - 1) + 1) > limit and (
                        not block.endswith(b"\n")):
                    while True:  # the rest of the overlong line
                        more = fh.readline(1 << 16)
                        skipped += len(more)
                        if not more or more.endswith(b"\n"):
                            break
            lines = tuple(io.BytesIO(block).readlines())
            yield _Chunk(task.path, lines, first, counted[1], counted[0], at)
            count, deals = count_lines(block, lines)
            counted[0] += count
            counted[1] += deals
            first = False
            at += len(block) + skipped


def _folded(file: str, packed: Iterable[_Packed]) -> list[_Packed | CleanDeals]:
    """A worker's deals as it sends them back: each run of consecutive deals with nothing
    to say as one :class:`CleanDeals` (one object through the pipe, not one a deal), the
    others packed one by one."""
    out: list[_Packed | CleanDeals] = []
    run: list[_Packed] = []
    for p in packed:
        if p[1] or not p[0] or (run and p[0] != run[-1][0] + 1):
            if len(run) > 1:
                out.append(CleanDeals.of(file, run))
            else:
                out.extend(run)
            run = []
            if p[1] or not p[0]:
                out.append(p)
                continue
        run.append(p)
    if len(run) > 1:
        out.append(CleanDeals.of(file, run))
    else:
        out.extend(run)
    return out


_NumberRun = tuple[tuple[str, ...], int | str, int, int]


class CleanDeals(Value):
    """Consecutive deals of one file with nothing to say (no diagnostic): ``count`` deals
    numbered from ``index``, as a parallel check hands them back in bulk
    (:func:`check_paths_batched`); :meth:`deals` gives them one by one, as
    :func:`check_paths` does."""

    __slots__ = ("count", "file", "index", "lines", "numbers", "offset", "packed")
    file: str
    index: int
    """The first deal's number in its file."""
    count: int
    offset: int | None
    """Where the last of them starts in the file, in bytes, when known."""
    numbers: tuple[_NumberRun, ...]
    """Their ``Deal`` numbers (:func:`plausibility.deal_number`), for R301, in runs:
    ``(session, number, count, k)``: an int ``number``: the deals ``k`` to ``k + count -
    1`` of the run (from 0) have the numbers ``number`` to ``number + count - 1`` of the
    session; a str ``number`` (not a plain decimal): deal ``k`` alone has it."""
    packed: bytes
    """The deals, pickled (:data:`_Packed`): read only by :meth:`deals`."""
    lines: int
    """Lines of the file before the line numbers in ``packed`` count (a worker that found
    its own lines numbers them from its part's start; the parent adds the lines before)."""

    def __init__(self, file: str, index: int, count: int, offset: int | None,
                 numbers: tuple[_NumberRun, ...], packed: bytes, lines: int = 0) -> None:
        setfield = object.__setattr__
        setfield(self, "file", file)
        setfield(self, "index", index)
        setfield(self, "count", count)
        setfield(self, "offset", offset)
        setfield(self, "numbers", numbers)
        setfield(self, "packed", packed)
        setfield(self, "lines", lines)

    @classmethod
    def of(cls, file: str, run: Sequence[_Packed]) -> CleanDeals:
        """The deals ``run`` (packed, numbered one after the other, none with a
        diagnostic) of ``file``."""
        import pickle

        numbers: list[list[Any]] = []
        current: list[Any] | None = None
        for k, p in enumerate(run):
            key = p[5]
            if key is None:
                continue
            session, number = key
            n = plain_number(number)
            if n is None:
                numbers.append([session, number, 1, k])
                current = None
            elif (current is not None and current[0] == session
                  and n == current[1] + current[2] and k == current[3] + current[2]):
                current[2] += 1
            else:
                current = [session, n, 1, k]
                numbers.append(current)
        return cls(file, run[0][0], len(run), run[-1][7],
                   tuple(cast("_NumberRun", tuple(r)) for r in numbers),
                   pickle.dumps(run, protocol=pickle.HIGHEST_PROTOCOL))

    def deals(self) -> Iterator[CheckedDeal]:
        """The deals one by one."""
        import pickle

        run: list[_Packed] = pickle.loads(self.packed)
        status_of = _STATUS_OF
        shift = self.lines
        for k, (_, _, status, scores, half, number, line, offset) in enumerate(run):
            yield CheckedDeal(self.file, self.index + k, (),
                              None if status is None else status_of[status], scores, half,
                              None, number,
                              line + shift if shift and line is not None else line, offset)


def _pack(c: CheckedDeal) -> _Packed:
    """A checked deal as a worker sends it back (:data:`_Packed`)."""
    return (c.index, c.diagnostics, None if c.status is None else c.status.value, c.scores,
            c.taker_half, c.number, c.line, c.offset)


def _unpack(done: _Done, before: int = 0, lines: int = 0
            ) -> Iterator[CheckedDeal | CleanDeals]:
    """The checked deals a worker sent back (runs of clean ones in bulk); ``before``: the
    deals of the file before them, when the worker numbered them from 1 (a part of a
    .tarot file, a range of JSON Lines); ``lines``: the file's lines before them, when the
    worker numbered its lines from its range's start (a range of JSON Lines)."""
    file, packed, _, _ = done
    status_of = _STATUS_OF
    for item in packed:
        if isinstance(item, CleanDeals):
            yield (replace(item, index=item.index + before, lines=item.lines + lines)
                   if before or lines else item)
            continue
        index, diagnostics, status, scores, half, number, line, offset = item
        if before or lines:
            index += before
            if lines and line is not None:
                line += lines
            if diagnostics:
                diagnostics = tuple(_moved(d, before, lines) for d in diagnostics)
        yield CheckedDeal(file, index, diagnostics,
                          None if status is None else status_of[status], scores, half, None,
                          number, line, offset)


def _moved(d: Diagnostic, deals: int, lines: int) -> Diagnostic:
    """A worker's diagnostic, ``deals`` deals and ``lines`` lines further in its file."""
    at = d.location
    if (at.deal is None or not deals) and (at.line is None or not lines):
        return d
    return replace(d, location=replace(
        at, deal=None if at.deal is None else at.deal + deals,
        line=None if at.line is None else at.line + lines))


class _TarotPart(Value):
    """A part of a file of the text notation: the records that start from byte ``start``
    (the start of a record after a blank line) up to byte ``end`` (None: the file's
    end)."""

    __slots__ = ("end", "line", "path", "start")
    path: str
    start: int
    end: int | None
    line: int
    """Lines before ``start``."""

    def __init__(self, path: str, start: int, end: int | None, line: int) -> None:
        setfield = object.__setattr__
        setfield(self, "path", path)
        setfield(self, "start", start)
        setfield(self, "end", end)
        setfield(self, "line", line)


#: Where a part of a .tarot file may start: a line of tags at the start of its line, after
#: a blank line (the canonical layout between records). The reader starts a record there
#: whatever comes before (docs/notation.md: a tag line after a blank line).
TAROT_CUT: Final = re.compile(rb"\n\r?\n\[")


def _records_format(path: str) -> str | None:
    """The format of a regular file's records, as :func:`read_stream` detects it; None
    when its first bytes are binary (the reader says so) or it cannot be read."""
    try:
        return detect.records_format(path)
    except (OSError, detect.BinaryError):
        return None


def _is_tarot(path: str) -> bool:
    try:  # (a FIFO can be read once only: by the reader)
        return stat.S_ISREG(os.stat(path).st_mode) and _records_format(path) == "tarot"
    except OSError:
        return False


def tarot_parts(path: str, blocks: int = 1) -> Iterator[_TarotPart] | None:
    """The parts of a .tarot file (about ``blocks`` times :data:`CHUNK_BYTES` each) for
    the workers, or None when the file is not the text notation or too small to share."""
    try:
        if os.path.getsize(path) < 2 * CHUNK_BYTES or _records_format(path) != "tarot":
            return None
    except OSError:
        return None
    return tarot_cuts(path, blocks * CHUNK_BYTES)


def tarot_cuts(path: str, size: int | None = None) -> Iterator[_TarotPart]:
    """Cut a .tarot file where :data:`TAROT_CUT` matches, at least ``size`` bytes apart
    (:data:`CHUNK_BYTES` by default); read a block at a time (memory stays bounded, even on
    a file of one endless line), the lines counted as they go.

    This process reads the whole file here, so each block is gone over once: searched
    from where the next cut may be, its lines counted once (up to each cut, then to its
    end), never copied (a cut that straddles two blocks is looked for in their few bytes
    at the edge)."""
    apart = CHUNK_BYTES if size is None else size
    start = line = 0
    newlines = 0  # in the file before the current block, then before the last cut in it
    tail = b""  # the end of the previous block: a cut may straddle two blocks
    at = 0  # the file offset of the current block
    search = TAROT_CUT.search
    with open(path, "rb") as fh:
        while True:
            block = fh.read(CHUNK_BYTES)
            if not block:
                break
            counted = 0  # where the block's lines are counted up to
            edge = tail + block[:3]  # (a match is 4 bytes at most)
            while True:
                want = start + apart - at  # (in the block; negative: in the tail)
                found = None
                if want < 0:  # a match that starts in the tail and ends in the block
                    found = search(edge, max(0, want + len(tail)))
                    if found is not None and not (found.start() < len(tail) < found.end()):
                        found = None
                    if found is not None:
                        cut = found.end() - 1 - len(tail)  # the "[" (in the block)
                if found is None:
                    found = search(block, max(0, want))
                    if found is None:
                        break
                    cut = found.end() - 1
                yield _TarotPart(path, start, at + cut, line)
                newlines += block.count(b"\n", counted, cut)
                counted = cut
                start, line = at + cut, newlines
            newlines += block.count(b"\n", counted)
            at += len(block)
            tail = (tail + block[-3:])[-3:]
    yield _TarotPart(path, start, None, line)


def _check_tarot_file(path: str, ruleset: str | None, default: str | None
                      ) -> Iterator[CheckedDeal] | None:
    """Every deal of a .tarot file checked as one part (the fast path of a serial check),
    as they are read, or None when :func:`read_path` is to read it: not the text
    notation, standard input or a FIFO, a file that cannot be read or holds no deal (its
    F code is said there)."""
    if path == STDIN or not _is_tarot(path):
        return None
    checked = _tarot_checked(_TarotPart(path, 0, None, 0), ruleset, default, [])
    try:
        first = next(checked, None)
    except OSError:
        return None
    if first is None:
        return None
    return _reading_on(path, itertools.chain((first,), checked))


def _reading_on(path: str, checked: Iterator[CheckedDeal]) -> Iterator[CheckedDeal]:
    """``checked``, then the F002 of a read that failed on the way, as
    :func:`read_stream` says it."""
    try:
        yield from checked
    except OSError as err:
        yield CheckedDeal(path, 0, (file_fault(path, err),), None)


def _tarot_checked(part: _TarotPart, ruleset: str | None, default: str | None,
                   after: list[int], *, packed: bool = False) -> Iterator[Any]:
    """Check the records of a part of a .tarot file, numbered from 1, as reading the whole
    file checks them, as they are read; where the record after the part starts, as the
    reader sees it, is appended to ``after`` (nothing when none does: the file ended, or
    the part's last record took in the next one, its comment running on; then the caller
    reads the rest of the file itself). ``packed``: each deal as a worker sends it back
    (:data:`_Packed`), not a CheckedDeal.

    With the compiled core, the file is read in blocks and its records in the canonical
    layout are scanned in C (:func:`tarotnotation.notation.bulk.read_bulk`) and judged by
    :func:`tarotnotation.quick.quick_facts_scanned`; the reader reads the others. Without
    it (or with ``TAROT_READER=grammar``), the reader reads them all and the quick check
    judges the fast scanner's data.
    """
    from . import native, notation
    from .notation import bulk
    from .quick import parts_checker, quick_check, quick_facts_scanned

    def judge(data: dict[str, Any]) -> tuple[tuple[Status, dict[str, int], int], Any] | None:
        answer = quick_check(data, ruleset, default)
        return None if answer is None else (answer, data.get("tags"))

    twin = native.compiled()
    if os.environ.get(_READER_ENV) == "grammar":
        twin = None

    check = None if twin is None else parts_checker(ruleset, default)

    def judge_parts(parts: tuple[Any, ...]
                    ) -> tuple[tuple[Status, dict[str, int], int], Any] | None:
        if check is not None:  # the quick check in C (bulk.h), else in Python
            answer = check(parts)
            if answer is not None:
                return (Status.SCORED, answer[1], answer[0]), parts[1]
        facts = quick_facts_scanned(parts, ruleset, default, twin)
        return None if facts is None else (
            (facts.status, facts.scores, facts.taker_half), parts[1])

    path = part.path
    end = part.end
    with open(path, "rb") as fh:
        fh.seek(part.start)
        items: Iterator[ReadDeal | tuple[int, int, int, Any]]
        if twin is not None:
            items = bulk.read_bulk(fh, twin.scan_text, judge_parts, judge, name=path,
                                   line=part.line, offset=part.start)
        else:
            items = notation.read_at(fh, name=path, line=part.line, offset=part.start,
                                     judge=judge)
        for item in items:
            if type(item) is tuple:  # a plain clean deal, judged from the scanner's data
                index, line, at, ((status, scores, half), tags) = item
                if end is not None and at >= end:
                    after.append(at)
                    break
                number = deal_number(tags) if tags else None
                if packed:
                    yield index, (), status.value, scores, half, number, line, None
                else:  # what the replay says
                    yield CheckedDeal(path, index, (), status, scores, half, None, number,
                                      line)
                continue
            assert isinstance(item, ReadDeal)
            if end is not None and item.offset is not None and item.offset >= end:
                after.append(item.offset)
                break
            checked = check_deal(item, path, ruleset, keep=False, default_ruleset=default)
            yield _pack(checked) if packed else checked


#: The environment variable that turns the fast readers off (notation.reader.READER_ENV).
_READER_ENV: Final = "TAROT_READER"


def _file_start(lines: Sequence[bytes]) -> tuple[int, int, bytes]:
    """The start of a JSON Lines file's first part: the index of its first line that is
    not blank (a byte-order mark ignored), how many lines the first record takes with the
    blank ones before it, and their bytes (read by the full reader, which says where a
    fault is)."""
    head = 0
    while head < len(lines) and not (
            lines[head].removeprefix(b"\xef\xbb\xbf") if head == 0 else lines[head]
    ).strip():
        head += 1
    start = min(head + 1, len(lines))
    return head, start, b"".join(lines[:start])



def _check_lines(chunk: _Chunk, ruleset: str | None, default: str | None
                 ) -> Iterator[CheckedDeal]:
    """Check the deals of a chunk of JSON Lines, as reading and replaying them would.

    A plain clean deal passes the bulk check in C (:func:`tarotnotation.quick.
    bulk_checker`) or :func:`tarotnotation.quick.quick_check_line` and is reported at
    once; any other line (a fault, another shape, a broken line) is read by the JSON
    reader, alone, and replayed.
    """
    return cast("Iterator[CheckedDeal]", _lines_checked(chunk, ruleset, default, packed=False))


def _lines_checked(chunk: _Chunk, ruleset: str | None, default: str | None, *, packed: bool
                   ) -> Iterator[CheckedDeal | _Packed]:
    """:func:`_check_lines`; ``packed``: a deal the bulk check settles comes as a worker
    sends it back (:data:`_Packed`), not as a CheckedDeal."""
    from .quick import BulkAnswer, bulk_checker, quick_check_line

    path = chunk.path
    lines = chunk.lines
    index, lineno, offset = chunk.index, chunk.lineno, chunk.offset
    start = 0
    if chunk.first:  # the file's start: a byte-order mark, blank lines, the first record
        head, start, data = _file_start(lines)
        first = _first_quick(lines, head, ruleset, default)
        if first is not None:  # a plain clean deal: what reading and replaying it says
            yield CheckedDeal(path, 1, (), *first[0], line=head + 1, offset=first[2],
                              number=deal_number(first[1] or ()))
        else:
            from .formats import json as json_format  # (for a line the quick check leaves)

            for item in json_format.read_stream(io.BytesIO(data), path):
                yield check_deal(item, path, ruleset, keep=False, default_ruleset=default)
        index, lineno, offset = (1 if head < len(lines) else 0), start, len(data)
    limit = MAX_JSON_RECORD_BYTES
    # The plain clean deals judged in bulk by the compiled core (None: not settled there).
    bulk = bulk_checker(ruleset, default)
    settled: list[BulkAnswer] = ([None] * (len(lines) - start) if bulk is None
                                 else bulk(lines, start))
    scored = Status.SCORED
    scored_value: str | None = scored.value
    for raw, clean in zip(lines[start:], settled, strict=True):
        lineno += 1
        at = offset
        offset += len(raw)
        if clean is not None:
            index += 1
            half, scores, tags = clean
            number = None if tags is None else deal_number(tags)
            if packed:
                yield index, (), scored_value, scores, half, number, lineno, at
            else:
                yield CheckedDeal(path, index, (), scored, scores, half, number=number,
                                  line=lineno, offset=at)
            continue
        line = line_content(raw)
        if not line:
            continue
        index += 1
        if len(line) <= limit:
            quick = quick_check_line(line, ruleset, default)
            if quick is not None:
                yield CheckedDeal(path, index, (), *quick[0], line=lineno, offset=at,
                                  number=deal_number(quick[1] or ()))
                continue
        from .formats import json as json_format

        for item in json_format.read_lines(io.BytesIO(raw), path, index=index - 1,
                                           lineno=lineno - 1, offset=at):
            yield check_deal(item, path, ruleset, keep=False, default_ruleset=default)


def _first_quick(lines: Sequence[bytes], head: int, ruleset: str | None, default: str | None
                 ) -> tuple[tuple[Status, dict[str, int], int], Any, int] | None:
    """:func:`tarotnotation.quick.quick_check_line` of a JSON Lines file's first record
    (line ``head``), as the JSON reader reads it (a byte-order mark taken off the file's
    first line only), and where the reader says the record starts; None when it is not a
    plain clean deal, or not a line the quick check reads as the reader does (then the
    reader reads it: its faults are located there). A one-deal file needs no record
    model (issue 17)."""
    from .quick import quick_check_line

    if head >= len(lines):
        return None
    raw = lines[head]
    skipped = 0
    if head == 0 and raw.startswith(b"\xef\xbb\xbf"):
        raw, skipped = raw[3:], 3
    line = raw.strip()
    if not line or line.startswith(b"\xef\xbb\xbf") or len(raw) > MAX_JSON_RECORD_BYTES:
        return None
    quick = quick_check_line(line, ruleset, default)
    if quick is None:
        return None
    return quick[0], quick[1], sum(map(len, lines[:head])) + skipped


def line_content(raw: bytes) -> bytes:
    """What a JSON Lines line holds, as the reader sees it: blanks around it and a
    byte-order mark before it (where files were concatenated) are not a deal."""
    line = raw.strip()
    return line[3:] if line.startswith(b"\xef\xbb\xbf") else line


def json_lines_chunks(path: str) -> Iterator[_Chunk] | None:
    """The chunks of a JSON Lines file, or None when the file is not plainly JSON Lines
    (then it is checked whole, as one task)."""
    return chunks_of(path) if _is_json_lines(path) else None


def _is_json_lines(path: str) -> bool:
    """Whether ``path`` is a regular file plainly of JSON Lines, which can be cut into
    chunks of whole lines."""
    try:
        # (A FIFO can be read once only: by the reader, in one piece. A file of one line
        # is detected as JSON, which the same reader reads as JSON Lines when its first
        # line is a whole record: checked below.)
        if not stat.S_ISREG(os.stat(path).st_mode) or _records_format(path) not in (
                "jsonl", "json"):
            return False
        with open(path, "rb") as fh:
            # As the JSON reader does: a byte-order mark, blank lines, a bounded line.
            head = fh.readline(MAX_JSON_RECORD_BYTES + 1).removeprefix(b"\xef\xbb\xbf")
            while head and not head.strip():
                head = fh.readline(MAX_JSON_RECORD_BYTES + 1)
        twin = native.compiled()
        if twin is not None and twin.scan_json(head.strip(b" \t\r\n")) is not None:
            return True  # a deal in the canonical layout: an object, no JSON reader needed
        import orjson  # (only now: a file of the notation needs no JSON reader)

        first = orjson.loads(head)
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and "deals" not in first


def chunks_of(path: str) -> Iterator[_Chunk]:
    """Chunks of whole lines, split at ``\\n`` as the reader splits them. A line over
    MAX_JSON_RECORD_BYTES is cut there and ends its chunk, its rest skipped here: the
    reader of the chunk reports it as the serial reader does, and never holds it whole.

    A chunk is read as one block of CHUNK_BYTES, then the rest of its last line, so the
    lines are split by ``readlines`` in C rather than read one by one: the file as one
    range (:func:`range_chunks`, which a parallel check's workers run on theirs)."""
    counted = [0, 0]
    return range_chunks(_Range(path, 0, None), counted)


def check_paths(paths: Iterable[str | Path | Diagnostic], *, jobs: int = 1,
                ruleset: str | None = None, default_ruleset: str | None = None,
                keep: bool = True) -> Iterator[CheckedDeal]:
    """Read and replay every deal of every file, in order; ``jobs`` worker processes.

    ``ruleset`` overrides every record's own; ``default_ruleset`` applies to the records
    that do not name one. A path that cannot be used (:func:`walk`), a file that cannot be
    read or holds no deal (:func:`read_path`) gives a :class:`CheckedDeal` of index 0 with
    its F diagnostic, in its place, and the other files are checked.

    In parallel runs the deals come out in the same order as in a serial run; a JSON Lines
    file is cut into ranges of bytes (:data:`CHUNK_BYTES` each, or a few) whose lines the
    workers find, a .tarot file into parts at record starts, shared among the workers;
    other files are checked whole by one worker each; a bounded number of
    chunks is in flight, so memory does not grow with the archive. The workers end with
    the run, however it ends (an exception, an interruption, the caller leaving the
    loop), and with this process if it is killed. Parallel results carry no replay object
    (``CheckedDeal.replay`` is None), nor do serial ones with ``keep=False``: that lets
    plain clean deals of JSON Lines pass a quick check (:mod:`tarotnotation.quick`)
    without being replayed, which is several times faster and reports the same. A deal
    whose ``Deal`` number an earlier deal of the same session of its file had gets an
    R301 error (same Event, Site, Date, Round and Table tags;
    :func:`tarotnotation.plausibility.deal_number`).
    """
    batched = check_paths_batched(paths, jobs=jobs, ruleset=ruleset,
                                  default_ruleset=default_ruleset, keep=keep)
    try:
        for item in batched:
            if isinstance(item, CleanDeals):
                yield from item.deals()
            else:
                yield item
    finally:
        batched.close()  # (the workers end now)


def check_paths_batched(paths: Iterable[str | Path | Diagnostic], *, jobs: int = 1,
                        ruleset: str | None = None, default_ruleset: str | None = None,
                        keep: bool = True) -> Generator[CheckedDeal | CleanDeals, None, None]:
    """:func:`check_paths`, where a run of deals with nothing to say that a worker of a
    parallel check settled comes as one :class:`CleanDeals` (R301 settled: a deal that
    repeats a number comes alone, with its diagnostic): a caller that needs nothing of
    such deals but their count (a report of faults and a summary) takes them in bulk, at
    no cost a deal."""
    checked = _check_paths(paths, jobs, ruleset, default_ruleset, keep)
    try:
        yield from _numbered(checked)
    finally:
        checked.close()  # (the workers end now, not when the generator is collected)


def _numbered(deals: Iterable[CheckedDeal | CleanDeals]
              ) -> Iterator[CheckedDeal | CleanDeals]:
    """R301: a deal whose session and number an earlier deal of its file had."""
    seen = SessionDeals()
    file, last = None, 0
    for checked in deals:
        if checked.file != file or checked.index <= last:  # a file (again)
            seen, file = SessionDeals(), checked.file
        if isinstance(checked, CleanDeals):
            last = checked.index + checked.count - 1
            again: dict[int, int] = {}
            for session, number, count, k in checked.numbers:
                deal = checked.index + k
                if isinstance(number, str):
                    first = seen.see((session, number), deal)
                    if first is not None:
                        again[deal] = first
                else:
                    again.update(seen.see_run(session, number, count, deal))
            if not again:
                yield checked
                continue
            for one in checked.deals():
                first = again.get(one.index)
                yield one if first is None else _repeated(one, first)
            continue
        last = checked.index
        first = seen.see(checked.number, checked.index)
        yield checked if first is None else _repeated(checked, first)


def _repeated(checked: CheckedDeal, first: int) -> CheckedDeal:
    """The deal with an R301 error: deal ``first`` of its file had its number."""
    if checked.number is None:
        return checked
    repeated = Diagnostic.make(
        Code.DEAL_NUMBER_REPEATED, SessionDeals.message(checked.number, first),
        file=checked.file, line=checked.line, deal=checked.index, path="tags")
    return replace(checked, diagnostics=(*checked.diagnostics, repeated))


def _check_paths(paths: Iterable[str | Path | Diagnostic], jobs: int, ruleset: str | None,
                 default_ruleset: str | None, keep: bool
                 ) -> Generator[CheckedDeal | CleanDeals, None, None]:
    items = list(walk(paths))  # (paths already walked pass through unchanged)
    if jobs <= 1:
        for item in items:
            if isinstance(item, Diagnostic):
                yield CheckedDeal(item.location.file or "", 0, (item,), None)
                continue
            f = str(item)
            chunks = None if keep or f == STDIN else json_lines_chunks(f)
            if chunks is not None:
                for chunk in chunks:
                    yield from _check_lines(chunk, ruleset, default_ruleset)
                continue
            whole = _check_tarot_file(f, ruleset, default_ruleset) if not keep else None
            if whole is not None:
                yield from whole
                continue
            for read in read_path(f):
                yield check_deal(read, f, ruleset, keep=keep, default_ruleset=default_ruleset)
        return
    from .workers import Workers

    workers = min(jobs, os.cpu_count() or 1)
    with Workers(workers) as pool:
        pending: deque[tuple[Pending[_Done], _Range | _TarotPart | str, int]] = deque()
        # The parts of .tarot files and the ranges of JSON Lines (by the file's place in
        # the list): the deals (and for JSON Lines the lines) of the file before the next
        # one, and the .tarot files whose parts no longer fit (read by this process from
        # there: see _tarot_checked).
        before: dict[int, int] = {}
        lines_before: dict[int, int] = {}
        redone: set[int] = set()

        def collect() -> Iterator[CheckedDeal | CleanDeals]:
            future, task, key = pending.popleft()
            done = future.result()
            if isinstance(task, _Range):
                lines, count = lines_before.get(key, 0), before.get(key, 0)
                yield from _unpack(done, count, lines)
                counted = done[3] or (0, 0)
                lines_before[key], before[key] = lines + counted[0], count + counted[1]
                return
            if not isinstance(task, _TarotPart):
                yield from _unpack(done)
                return
            if key in redone:
                return  # read again below, from where its parts stopped fitting
            count = before.get(key, 0)
            yield from _unpack(done, count)
            before[key] = count = count + sum(
                item.count if isinstance(item, CleanDeals) else 1 for item in done[1])
            if task.end is not None and done[2] != task.end:
                redone.add(key)
                for read in read_path(task.path):
                    if read.index > count:
                        yield check_deal(read, task.path, ruleset, keep=False,
                                         default_ruleset=default_ruleset)

        for key, item in enumerate(items):
            if isinstance(item, Diagnostic):
                while pending:
                    yield from collect()
                yield CheckedDeal(item.location.file or "", 0, (item,), None)
                continue
            f = str(item)
            if f == STDIN:
                # Standard input is this process's own: read here, in its place in order.
                while pending:
                    yield from collect()
                yield from _check_file((f, ruleset, default_ruleset))
                continue
            blocks = blocks_a_task(f, workers)
            tasks: Iterable[_Range | _TarotPart | str] = (
                json_lines_ranges(f, blocks * CHUNK_BYTES) if _is_json_lines(f)
                else tarot_parts(f, blocks) or (f,))
            for task in tasks:
                if key in redone:
                    break
                pending.append((pool.submit(_check_task, task, ruleset, default_ruleset),
                                task, key))
                # Chunks and parts (about CHUNK_BYTES each): several a worker ahead, so
                # that no worker waits while this process takes the results in order;
                # whole files (their results can be large): fewer.
                ahead = _AHEAD if isinstance(task, (_Range, _TarotPart)) else 2
                while len(pending) > ahead * workers:
                    yield from collect()
        while pending:
            yield from collect()


#: The most blocks of CHUNK_BYTES in one task of a parallel check (a chunk of JSON Lines, a
#: part of a .tarot file): a worker holds its task's bytes and results, about twice that.
_MOST_BLOCKS: Final = 4
#: Tasks a worker at least, on a file big enough: the last ones keep every worker busy.
TASKS_A_WORKER: Final = 16


def blocks_a_task(path: str, workers: int) -> int:
    """How many blocks of :data:`CHUNK_BYTES` a task of ``path`` takes: one, or up to
    :data:`_MOST_BLOCKS` on a big file, so that each worker still gets
    :data:`TASKS_A_WORKER` tasks at least. Each task costs this process a little
    (handing it out, taking its results back): on 1,000,000 deals of JSON Lines, 1932
    tasks of one block cost it 0.8 s of CPU in the threads of the pool alone."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return 1
    return max(1, min(_MOST_BLOCKS, size // (CHUNK_BYTES * TASKS_A_WORKER * workers)))


# --- the parts of an archive, for tools that read deals in parallel -------------------------

Part = str | _Chunk
"""What a worker reads on its own: a whole file (its path), or a chunk of whole lines of a
JSON Lines file (a picklable value that knows where its lines start in the file)."""

_T = TypeVar("_T")


def parts_of(path: str | Path) -> Iterator[Part]:
    """The parts of one file, in order: the chunks of a JSON Lines file (about
    :data:`CHUNK_BYTES` each, as ``check_paths`` shares them among its workers), or the
    file whole. Standard input is one part, read in this process.

    >>> list(parts_of("examples/prise.tarot"))
    ['examples/prise.tarot']
    """
    name = str(path)
    return chunks_of(name) if in_chunks(name) else iter((name,))


def in_chunks(path: str | Path) -> bool:
    """Whether :func:`parts_of` cuts ``path`` into chunks (a regular file of JSON Lines),
    not gives it as one part; nothing read but its first line.

    >>> in_chunks("examples/prise.tarot"), in_chunks("-")
    (False, False)
    """
    name = str(path)
    return name != STDIN and _is_json_lines(name)


def read_part(part: Part, fast: Callable[[bytes], _T | None] | None = None
              ) -> Iterator[ReadDeal | tuple[int, int, _T]]:
    """Every deal of a part, as :func:`read_path` reads them (numbers, lines and offsets
    count from the file's start).

    ``fast``, when given, is offered each JSON Lines record after the file's first, as
    its bytes (without the blanks around it, at most :data:`MAX_JSON_RECORD_BYTES`):
    when it returns a value, ``(index, line, value)`` stands for that deal and the line
    is not read further; when it returns None the line is read as usual (and its faults
    reported). This is where a fast path that judges plain records from their data
    (:func:`tarotnotation.quick.quick_facts_line`, as :func:`check_paths` does) plugs in.
    """
    if isinstance(part, str):
        yield from read_path(part)
        return
    from .formats import json as json_format

    path, lines = part.path, part.lines
    index, lineno, offset = part.index, part.lineno, part.offset
    start = 0
    if part.first:  # the file's start: a byte-order mark, blank lines, the first record
        head, start, data = _file_start(lines)
        yield from json_format.read_stream(io.BytesIO(data), path)
        index, lineno, offset = (1 if head < len(lines) else 0), start, len(data)
    limit = MAX_JSON_RECORD_BYTES
    for raw in lines[start:]:
        lineno += 1
        at = offset
        offset += len(raw)
        line = line_content(raw)
        if not line:
            continue
        index += 1
        if fast is not None and len(line) <= limit:
            value = fast(line)
            if value is not None:
                yield index, lineno, value
                continue
        yield from json_format.read_lines(io.BytesIO(raw), path, index=index - 1,
                                          lineno=lineno - 1, offset=at)
