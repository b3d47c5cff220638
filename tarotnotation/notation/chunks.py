"""A stream of the notation cut into records, line by line (a record starts at a tag line
that follows any other text): :func:`record_chunks` yields each record's lines as a
:class:`Chunk`, in bounded memory, with why a record cannot be read (S007, L001)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Final

from ..diagnostics import Code
from ..encoding import not_utf8
from ..i18n import Msg
from ..limits import MAX_RECORD_CHARS, exceeded

if TYPE_CHECKING:
    # The grammar (lark) and the model (pydantic) are imported by the functions that use
    # them: a plain record the fast scanner reads and the quick check judges needs neither.

    pass

__all__ = ["Chunk", "record_chunks"]

class Chunk:
    __slots__ = ("blank", "fault", "follows", "in_comment", "line", "lines", "offset", "size")
    line: int
    offset: int
    lines: list[str]
    fault: tuple[Code, str, int, int | None] | None
    """Why the record is not parsed (S007, L001): code, message, line and column."""
    size: int
    blank: int | None
    """When the record starts after blank lines, the number of the first of them."""
    follows: bool
    """True when the record starts right after another's section line (no blank line)."""
    in_comment: bool
    """True when the record's text so far ends inside a ``{`` comment (a record cut there
    by a line starting with ``[`` goes on in the next chunk: see :func:`_skim`)."""

    def __init__(self, line: int, offset: int, lines: list[str],
                 fault: tuple[Code, str, int, int | None] | None = None, size: int = 0,
                 blank: int | None = None, follows: bool = False,
                 in_comment: bool = False) -> None:
        self.line = line
        self.offset = offset
        self.lines = lines
        self.fault = fault
        self.size = size
        self.blank = blank
        self.follows = follows
        self.in_comment = in_comment


def _comment_state(line: str, inside: bool) -> bool:
    """Whether a line ends inside a ``{`` comment, given whether it starts in one (quoted
    tag values and ``\\``-escaped characters skipped).

    >>> _comment_state('[Event "{"] {a note', False), _comment_state("end} 1. KH", True)
    (True, False)
    """
    if "{" not in line and "}" not in line:
        return inside
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if inside:
            inside = ch != "}"
        elif ch == "{":
            inside = True
        elif ch == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        i += 1
    return inside


def _opens_comment(line: str) -> bool:
    """Whether a tag line opens a ``{`` comment outside its quoted values."""
    if "{" not in line:
        return False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "{":
            return True
        if ch == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        i += 1
    return False


_SHOWN_PREFIX: Final = 200
def _raw_lines(source: IO[str] | IO[bytes]) -> Iterator[tuple[str | bytes, int]]:
    """Each line with its end, and its size; a line longer than the limit is cut short.

    Lines are read with ``readline(limit)``, so an endless line is skipped, never held
    whole. A source that can only be iterated over gives its lines as they come.
    """
    limit = MAX_RECORD_CHARS
    readline = getattr(source, "readline", None)
    try:
        if readline is None:
            raise NotImplementedError
        raw = readline(limit + 1)
    except (NotImplementedError, OSError):
        for raw in source:
            size = len(raw)
            yield (raw[:_SHOWN_PREFIX], size) if size > limit else (raw, size)
        return
    while raw:
        size = len(raw)
        if size > limit and raw[-1:] not in ("\n", b"\n"):
            while True:  # skip the rest of the line
                more = readline(1 << 16)
                size += len(more)
                if not more or more[-1:] in ("\n", b"\n"):
                    break
            raw = raw[:_SHOWN_PREFIX]
        yield raw, size
        raw = readline(limit + 1)


def _lines(source: IO[str] | IO[bytes], offset: int = 0
           ) -> Iterator[tuple[str, int, tuple[Code, str, int | None] | None]]:
    """(line without its end, offset of its start, fault) for each line.

    The fault is None, or why the line cannot be read: it is not UTF-8 (S007), or it is
    longer than :data:`~tarotnotation.limits.MAX_RECORD_CHARS` (L001: only its start is
    kept, the rest is skipped without being held in memory). ``offset``: where the stream
    starts in its file.
    """
    for raw, size in _raw_lines(source):
        start = offset
        offset += size
        fault: tuple[Code, str, int | None] | None = None
        if size > len(raw):
            fault = (Code.LIMIT_EXCEEDED, exceeded(
                Msg("this line has more than"), "MAX_RECORD_CHARS",
                Msg("characters; this record is not read")), None)
        if isinstance(raw, bytes):
            raw = raw.rstrip(b"\r\n")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                text = raw.decode("latin-1")
                if fault is None:
                    msg, col = not_utf8(raw, err, start)
                    fault = (Code.ENCODING, Msg("{message}; this record is not read",
                                                message=msg), col)
        else:
            text = raw.rstrip("\r\n")
        if text[:1] == "\ufeff":  # a BOM: at the start, or where files were concatenated
            text = text[1:]
        yield text, start, fault


def record_chunks(source: IO[str] | IO[bytes], tags_only: bool = False, line: int = 0,
            at: int = 0) -> Iterator[Chunk]:
    """The records of a stream, cut at each tag line that follows other text.

    A line whose first character other than a space or tab is ``[`` is a tag line (the
    writer escapes such a ``[`` inside a comment as ``\\[``). A tag line starts a new record
    when it follows a section line or a blank line; so does the first tag line of all.
    ``line`` and ``at``: the lines and bytes of the file before the stream.
    """
    chunk: Chunk | None = None
    content = False
    gap = False
    blank: int | None = None
    number = line
    for text, offset, fault in _lines(source, at):
        number += 1
        stripped = text.lstrip(" \t")
        if stripped.startswith("["):
            follows = False
            if chunk is not None and (content or gap):
                follows = not gap
                yield chunk
                chunk = None
            if chunk is None:
                chunk = Chunk(number, offset, [], blank=blank if gap else None,
                               follows=follows)
                content = False
            content = _opens_comment(stripped)
            chunk.in_comment = _comment_state(stripped, chunk.in_comment)
            gap = False
        elif stripped:
            if chunk is None:
                chunk = Chunk(number, offset, [])
            content = True
            chunk.in_comment = _comment_state(stripped, chunk.in_comment)
            if tags_only:
                continue
        else:
            if not gap:
                blank = number
            gap = True
            if fault is not None and chunk is None and not tags_only:
                chunk = Chunk(number, offset, [])  # an endless blank line, reported
            if chunk is None or tags_only:
                continue
        if chunk.fault is not None:
            continue  # the record will not be parsed: hold none of it
        chunk.size += len(text) + 1
        if fault is None and chunk.size > MAX_RECORD_CHARS:
            fault = (Code.LIMIT_EXCEEDED, exceeded(
                Msg("this record has more than"), "MAX_RECORD_CHARS",
                Msg("characters; it is not read")), None)
        if fault is not None:
            chunk.fault = (fault[0], fault[1], number, fault[2])
            chunk.lines.clear()
            continue
        chunk.lines.append(text)
    if chunk is not None:
        yield chunk
