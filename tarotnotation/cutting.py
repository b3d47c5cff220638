"""Cutting files for the workers of a parallel check: a JSON Lines file into ranges of
bytes whose whole lines a worker finds (:func:`json_lines_ranges`, :func:`range_chunks`),
or into chunks of whole lines (:func:`chunks_of`); a file of the text notation into parts
cut at record starts (:func:`tarot_parts`); how many blocks a task takes
(:func:`blocks_a_task`). Nothing here reads a deal: the bytes are cut where a record
starts, the lines counted as they go.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from typing import IO, Final

from . import native
from .formats import detect
from .inputs import is_regular, open_bytes, size_of
from .limits import MAX_JSON_RECORD_BYTES
from .values import Value

__all__ = [
    "CHUNK_BYTES",
    "PROBE",
    "TAROT_CUT",
    "TASKS_A_WORKER",
    "Chunk",
    "LineRange",
    "TarotPart",
    "blocks_a_task",
    "chunks_of",
    "count_lines",
    "file_start",
    "is_json_lines",
    "is_tarot",
    "json_lines_chunks",
    "json_lines_ranges",
    "line_content",
    "range_chunks",
    "stream_chunks",
    "tarot_cuts",
    "tarot_parts",
]

#: JSON Lines are checked in parallel in ranges of this many bytes (or a few of them; the
#: lines that start in a range), .tarot files in parts of about as many.
CHUNK_BYTES: Final = 1 << 20

class Chunk(Value):
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

class LineRange(Value):
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


def json_lines_ranges(path: str, size: int) -> Iterator[LineRange]:
    """A JSON Lines file cut into ranges of ``size`` bytes for the workers, the last one
    open (to the file's end, however long it is then), without reading it."""
    try:
        total = size_of(path)
    except OSError:
        total = 0
    start = 0
    while start + size < total:
        yield LineRange(path, start, start + size)
        start += size
    yield LineRange(path, start, None)


#: How much a worker reads at a time to find the first line that starts in its range.
PROBE: Final = 1 << 16


def range_chunks(task: LineRange, counted: list[int]) -> Iterator[Chunk]:
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
    end = task.end
    with open_bytes(task.path) as fh:
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
        yield from _chunks(fh, task.path, at, end, counted)


def stream_chunks(fh: IO[bytes], name: str) -> Iterator[Chunk]:
    """The lines of a stream of JSON Lines read once (standard input), in chunks as
    :func:`chunks_of` cuts a file: each numbered from the stream's start (the deals and
    lines before it counted here as they go), so that a worker given one numbers its
    deals as a serial reading would. One chunk is held at a time."""
    return _chunks(fh, name, 0, None, [0, 0])


def _chunks(fh: IO[bytes], path: str, at: int, end: int | None, counted: list[int]
            ) -> Iterator[Chunk]:
    """The chunks of whole lines of ``fh`` from byte ``at`` (where a line starts) to the
    line that starts before ``end`` (None: the end of the stream), never sought."""
    limit = MAX_JSON_RECORD_BYTES
    block_size = min(CHUNK_BYTES, limit)  # a line inside a block is never cut
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
        yield Chunk(path, lines, first, counted[1], counted[0], at)
        count, deals = count_lines(block, lines)
        counted[0] += count
        counted[1] += deals
        first = False
        at += len(block) + skipped

class TarotPart(Value):
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


def is_tarot(path: str) -> bool:
    try:  # (a FIFO can be read once only: by the reader)
        return is_regular(path) and _records_format(path) == "tarot"
    except OSError:
        return False


def tarot_parts(path: str, blocks: int = 1) -> Iterator[TarotPart] | None:
    """The parts of a .tarot file (about ``blocks`` times :data:`CHUNK_BYTES` each) for
    the workers, or None when the file is not the text notation or too small to share."""
    try:
        if size_of(path) < 2 * CHUNK_BYTES or _records_format(path) != "tarot":
            return None
    except OSError:
        return None
    return tarot_cuts(path, blocks * CHUNK_BYTES)


def tarot_cuts(path: str, size: int | None = None) -> Iterator[TarotPart]:
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
    with open_bytes(path) as fh:
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
                yield TarotPart(path, start, at + cut, line)
                newlines += block.count(b"\n", counted, cut)
                counted = cut
                start, line = at + cut, newlines
            newlines += block.count(b"\n", counted)
            at += len(block)
            tail = (tail + block[-3:])[-3:]
    yield TarotPart(path, start, None, line)

def file_start(lines: Sequence[bytes]) -> tuple[int, int, bytes]:
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

def line_content(raw: bytes) -> bytes:
    """What a JSON Lines line holds, as the reader sees it: blanks around it and a
    byte-order mark before it (where files were concatenated) are not a deal."""
    line = raw.strip()
    return line[3:] if line.startswith(b"\xef\xbb\xbf") else line


def json_lines_chunks(path: str) -> Iterator[Chunk] | None:
    """The chunks of a JSON Lines file, or None when the file is not plainly JSON Lines
    (then it is checked whole, as one task)."""
    return chunks_of(path) if is_json_lines(path) else None


def is_json_lines(path: str) -> bool:
    """Whether ``path`` is a regular file plainly of JSON Lines, which can be cut into
    chunks of whole lines."""
    try:
        # (A FIFO can be read once only: by the reader, in one piece. A file of one line
        # is detected as JSON, which the same reader reads as JSON Lines when its first
        # line is a whole record: checked below.)
        if not is_regular(path) or _records_format(path) not in (
                "jsonl", "json"):
            return False
        with open_bytes(path) as fh:
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


def chunks_of(path: str) -> Iterator[Chunk]:
    """Chunks of whole lines, split at ``\\n`` as the reader splits them. A line over
    MAX_JSON_RECORD_BYTES is cut there and ends its chunk, its rest skipped here: the
    reader of the chunk reports it as the serial reader does, and never holds it whole.

    A chunk is read as one block of CHUNK_BYTES, then the rest of its last line, so the
    lines are split by ``readlines`` in C rather than read one by one: the file as one
    range (:func:`range_chunks`, which a parallel check's workers run on theirs)."""
    counted = [0, 0]
    return range_chunks(LineRange(path, 0, None), counted)

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
        size = size_of(path)
    except OSError:
        return 1
    return max(1, min(_MOST_BLOCKS, size // (CHUNK_BYTES * TASKS_A_WORKER * workers)))
