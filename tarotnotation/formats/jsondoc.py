"""A JSON archive document cut into its records as it is read, in bounded memory.

An archive document ``{"tarotnotation": 1, "deals": [{…}, {…}, …]}`` (or a bare list of
records ``[{…}, {…}]``) can be any size: :func:`split` reads it from a binary stream and
yields each record's JSON text on its own (with the line, column and byte offset where it
starts), never holding more than one record, so a document of a million deals is read in
the memory of one. The JSON reader (:mod:`tarotnotation.formats.json`) parses each piece.

Each record's text is found by a scan of its strings and brackets; a record the archive
writer wrote on a line of its own (``tarotnotation.formats.json.write(lines=False)`` does)
is taken in one step. A record longer than
:data:`~tarotnotation.limits.MAX_JSON_RECORD_BYTES` is skipped without being held (one L001
piece); a document that is not an archive (one record, pretty-printed) is handed back whole
when it is within that limit.

>>> import io
>>> doc = b'{"tarotnotation": 1,\\n "deals": [\\n  {"players": 4},\\n  {"players": 3}\\n]}\\n'
>>> for piece in split(io.BytesIO(doc)):
...     print(piece if isinstance(piece, Header) else (piece.path, piece.line, piece.data))
Header(members={'tarotnotation': 1})
('$.deals[0]', 3, b'{"players": 4}')
('$.deals[1]', 4, b'{"players": 3}')
>>> [type(p).__name__ for p in split(io.BytesIO(b'{"players": 4}'))]
['Whole']
>>> [(p.message, p.line) for p in split(io.BytesIO(b'[{"players": 4}, {"pl'))
...  if isinstance(p, Fault)]
[('the JSON text ends inside a record: the document is cut short', 1)]
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

import orjson

from ..i18n import Msg
from ..limits import MAX_JSON_RECORD_BYTES, exceeded

__all__ = ["Element", "Fault", "Header", "Whole", "split"]

#: Bytes read from the stream at a time.
BLOCK = 1 << 16
_BOM: Final = b"\xef\xbb\xbf"
# A whole string, a lone quote (a string not yet whole in the buffer), or a bracket.
_TOKEN: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{}]')
_STRINGS: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_MARKS: Final = bytes(b for b in range(256) if b not in b'[]{}"')
_PASSES: Final = 16
_SPACE: Final = re.compile(rb"[ \t\r\n]*")
_SCALAR: Final = re.compile(rb"[^,\]}\s]+")
# The content of a string up to (not including) its closing quote.
_STRING_REST: Final = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*')
_VERSION_KEY: Final = "tarotnotation"
#: The most bytes looked at for a record on a line of its own, or at first for any record.
WINDOW = 1 << 16
_HINT: Final = 1 << 12
_DECODER: Final = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Element:
    """One item of the archive's list: its JSON text, and where it starts."""

    index: int
    """0-based place in the list."""
    path: str
    """Its JSON path: ``$.deals[3]`` (``$[3]`` in a bare list)."""
    data: bytes
    line: int
    col: int
    offset: int
    parsed: dict[str, Any] | None = None
    """The object already parsed (a record on a line of its own), or None."""


@dataclass(frozen=True, slots=True)
class Fault:
    """What cannot be read: past a limit (``limit`` True: L001) or not JSON (J001).

    ``index`` is the list item it stands for (None: the document itself)."""

    index: int | None
    path: str
    message: str
    line: int
    col: int
    offset: int
    limit: bool = False


@dataclass(frozen=True, slots=True)
class Header:
    """The members of the archive object other than ``deals`` (the version…), parsed;
    given before the first element when they come first, else at the end."""

    members: dict[str, object]


@dataclass(frozen=True, slots=True)
class Whole:
    """The document is not an archive: its whole text (within the limit)."""

    data: bytes


class _CutError(Exception):
    """The input ends inside a value."""


class _Reader:
    """A window on a binary stream: bytes from ``pos`` on, read in blocks as needed,
    with the line, column and offset of ``pos``. Bytes before ``pos`` are dropped as
    blocks are read, but those from ``keep`` (an offset) on, while it is set."""

    def __init__(self, fh: IO[bytes], head: bytes, line: int = 1, offset: int = 0) -> None:
        self.fh = fh
        self.buf = head
        self.pos = 0
        self.base = offset  # offset of buf[0] in the input
        self.line = line
        self.line_start = offset  # offset where the current line starts
        self.keep: int | None = None
        self.eof = False
        self.lines = True
        """Records may be a line each (until one is not)."""
        self.hint = _HINT
        """How much to look at to find a record's end: twice the last one's size."""

    def more(self) -> bool:
        """Read another block; False at the end of the input."""
        if self.eof:
            return False
        data = self.fh.read(BLOCK)
        if not data:
            self.eof = True
            return False
        cut = self.pos if self.keep is None else min(self.pos, self.keep - self.base)
        if cut > 0:  # drop what is behind
            self.base += cut
            self.buf = self.buf[cut:]
            self.pos -= cut
        self.buf += data
        return True

    def ahead(self, size: int) -> None:
        """Have at least ``size`` bytes from ``pos`` in the buffer (fewer at the end)."""
        while len(self.buf) - self.pos < size and self.more():
            pass

    def advance(self, end: int) -> None:
        """Move ``pos`` to ``end`` (an index in buf), counting the lines passed."""
        newlines = self.buf.count(b"\n", self.pos, end)
        if newlines:
            self.line += newlines
            self.line_start = self.base + self.buf.rindex(b"\n", self.pos, end) + 1
        self.pos = end

    def rewind(self, offset: int) -> None:
        """Move back to ``offset`` (kept since: see ``keep``); lines are not counted back."""
        self.pos = offset - self.base

    @property
    def offset(self) -> int:
        """The offset of ``pos`` in the input."""
        return self.base + self.pos

    @property
    def col(self) -> int:
        """The column of ``pos`` (1-based, in bytes)."""
        return self.offset - self.line_start + 1

    def skip_space(self) -> bytes:
        """Skip white space; the next byte (b"" at the end)."""
        while True:
            m = _SPACE.match(self.buf, self.pos)
            assert m is not None
            self.advance(m.end())
            if self.pos < len(self.buf):
                return self.buf[self.pos:self.pos + 1]
            if not self.more():
                return b""

    def value_end(self, limit: int) -> tuple[int, bool]:
        """Where the JSON value at ``pos`` ends (an index in buf), and whether it is
        longer than ``limit`` bytes. A value past the limit is skipped as it is read,
        never held: ``pos`` then moves along it, and only its end is given. Raises
        :class:`_CutError` when the input ends first."""
        too_long = False

        def read_on(at: int) -> int:
            """Read another block, keeping the place ``at``; the place after."""
            nonlocal too_long
            if not too_long and at - self.pos > limit:
                too_long = True
            if too_long:
                self.advance(at)
            rel = at - self.pos
            if not self.more():
                raise _CutError
            return self.pos + rel

        at = self.pos
        if self.buf[at:at + 1] not in (b"{", b"[", b'"'):
            while True:
                m = _SCALAR.match(self.buf, at)
                end = m.end() if m else at
                if end < len(self.buf) or self.eof:
                    if end == self.pos:
                        raise _CutError
                    return end, too_long or end - self.pos > limit
                try:
                    at = read_on(end)
                except _CutError:
                    if end == self.pos:
                        raise
                    return end, too_long or end - self.pos > limit
        # Brackets and whole strings are listed a window at a time (findall, in C) and
        # counted here; the window grows while the value goes on. A lone quote is a
        # string not whole in the window: read on from it (a string longer than the limit
        # is skipped by _STRING_REST without being held).
        depth = 0
        window = 1 << 12
        while True:
            stop = min(len(self.buf), at + window)
            skipped = _skip(self.buf, at, stop, depth) if window >= WINDOW else None
            if skipped is not None:  # a long value that goes on past the window
                resume, depth = skipped
            else:
                tokens = _TOKEN.findall(self.buf, at, stop)
                k = 0
                found = False
                for k, token in enumerate(tokens):  # noqa: B007 (k is used after the loop)
                    first = token[0]
                    if first == 34:  # a string
                        if len(token) == 1:
                            break
                        if depth == 0:
                            found = True
                            break
                    elif first == 123 or first == 91:  # { [
                        depth += 1
                    else:
                        depth -= 1
                        if depth <= 0:
                            found = True
                            break
                else:
                    k = len(tokens)
                if found:
                    m = next(itertools.islice(_TOKEN.finditer(self.buf, at, stop), k, None))
                    return m.end(), too_long or m.end() - self.pos > limit
                # (a string not whole starts at the window's last unescaped quote)
                resume = _last_quote(self.buf, at, stop) if k < len(tokens) else stop
            if stop < len(self.buf) and resume > at:  # more in the buffer: a wider window
                at = resume
                window *= 4
                continue
            if resume == at and stop < len(self.buf):  # a string wider than the window
                window *= 4
                continue
            # The buffer's end: read on (a string longer than what is left, skipped).
            at = resume
            if at < len(self.buf) and (too_long or at - self.pos > limit):
                m = _STRING_REST.match(self.buf, at + 1)
                assert m is not None
                while self.buf[m.end():m.end() + 1] != b'"':
                    at = read_on(m.end())
                    m = _STRING_REST.match(self.buf, at)
                    assert m is not None
                at = m.end() + 1
                if depth == 0:
                    return at, True
                continue
            at = read_on(at)


def _skip(buf: bytes, at: int, stop: int, depth: int) -> tuple[int, int] | None:
    """When the value being scanned, at ``depth`` at ``at``, goes on past ``stop``: where
    to read on (``stop``, or the start of a string cut there) and the depth there; None
    when it may end before (or the window is too intricate to say). Works on the window
    as a whole, in C: strings dropped, then the brackets alone, matched pairs taken out
    until only closing brackets, then opening ones, are left."""
    window = buf[at:stop]
    resume = stop
    if b"\\" in window:  # escapes: strings by their pattern
        marks = _STRINGS.sub(b"", window).translate(None, _NOT_MARKS)
    else:  # quotes and brackets alone; a run of quotes of even length is empty strings
        marks = window.translate(None, _NOT_MARKS).replace(b'""', b"")
    cut = marks.find(b'"')
    if cut >= 0:
        if marks.find(b'"', cut + 1) >= 0:
            return None  # brackets inside strings: too intricate here
        marks = marks[:cut]  # a string not whole in the window
        resume = _last_quote(buf, at, stop)
    brackets = marks
    for _ in range(_PASSES):
        reduced = brackets.replace(b"{}", b"").replace(b"[]", b"")
        if len(reduced) == len(brackets):
            break
        brackets = reduced
    closing = brackets.count(b"}") + brackets.count(b"]")
    if max(brackets.rfind(b"}"), brackets.rfind(b"]")) >= closing:
        return None  # a closing bracket after an opening one: not reduced
    if depth - closing <= 0:
        return None
    return resume, depth - closing + (len(brackets) - closing)


def _last_quote(buf: bytes, start: int, stop: int) -> int:
    """The last ``"`` of ``buf[start:stop]`` that no backslash escapes."""
    at = buf.rfind(b'"', start, stop)
    while at > start:
        before = at - 1
        while before >= start and buf[before] == 92:  # a backslash
            before -= 1
        if (at - 1 - before) % 2 == 0:
            return at
        at = buf.rfind(b'"', start, at)
    return at


def split(fh: IO[bytes], head: bytes = b"", *, line: int = 1, offset: int = 0,
          limit: int = MAX_JSON_RECORD_BYTES) -> Iterator[Element | Fault | Header | Whole]:
    """The pieces of the JSON document in ``head`` and then ``fh``: each record of an
    archive (an :class:`Element`, or a :class:`Fault` for one that cannot be read), the
    archive's other members (:class:`Header`), or the :class:`Whole` document when it is
    not an archive. The stream is read as it comes, never more than about one record
    ahead. ``line`` and ``offset`` are where ``head`` starts in the input."""
    r = _Reader(fh, head, line, offset)
    first = r.skip_space()
    if r.buf.startswith(_BOM, r.pos) and r.pos == 0:
        r.advance(len(_BOM))
        first = r.skip_space()
    if first == b"[":
        r.advance(r.pos + 1)
        if (yield from _elements(r, "$", limit)):
            yield from _end(r)
        return
    start = r.offset
    r.keep = start
    if first != b"{":
        yield from _whole(r, start, limit)
        return
    r.advance(r.pos + 1)
    members: dict[str, object] = {}
    # The members before "deals": the version and "$schema" may come first; any other
    # member is a record's, and the document is one record, read whole.
    while True:
        c = r.skip_space()
        if members and c == b",":
            r.advance(r.pos + 1)
            c = r.skip_space()
        key = _key(r) if c == b'"' else None
        if key is None or r.skip_space() != b":":
            yield from _whole(r, start, limit)
            return
        r.advance(r.pos + 1)
        c = r.skip_space()
        if key == "deals" and c == b"[":
            break
        if key != _VERSION_KEY and not key.startswith("$"):
            yield from _whole(r, start, limit)
            return
        bound = max(limit, 1 << 16)  # the version, "$schema": a few bytes
        try:
            end, too_long = r.value_end(bound)
        except _CutError:
            too_long, end = False, -1
        if too_long or end < 0 or r.offset - start > bound:
            yield from _whole(r, start, limit)
            return
        try:
            members[key] = orjson.loads(r.buf[r.pos:end])
        except orjson.JSONDecodeError:
            members[key] = None
        r.advance(end)
    r.keep = None
    if members:
        yield Header(members)
    r.advance(r.pos + 1)
    if not (yield from _elements(r, "$.deals", limit)):
        return
    # The members after the list (none, from this library's writer).
    members = {}
    while True:
        c = r.skip_space()
        if c == b"}":
            r.advance(r.pos + 1)
            break
        if c == b",":
            r.advance(r.pos + 1)
            c = r.skip_space()
        key = _key(r) if c == b'"' else None
        if key is None or r.skip_space() != b":":
            if c:
                yield _fault(r, None, "$", "expected a key and its value, or '}', after the"
                             " list of records")
            else:
                yield _fault(r, None, "$", "the JSON text ends before the archive is closed:"
                             " the document is cut short")
            return
        r.advance(r.pos + 1)
        r.skip_space()
        try:
            end, too_long = r.value_end(limit)
        except _CutError:
            yield _fault(r, None, "$", "the JSON text ends before the archive is closed:"
                         " the document is cut short")
            return
        if not too_long:
            try:
                members[key] = orjson.loads(r.buf[r.pos:end])
            except orjson.JSONDecodeError:
                members[key] = None
        r.advance(end)
    if members:
        yield Header(members)
    yield from _end(r)


def _key(r: _Reader) -> str | None:
    """The key at ``pos`` (a short string), passed; None when there is none."""
    try:
        end, too_long = r.value_end(1 << 10)
    except _CutError:
        return None
    if too_long:
        return None
    try:
        key = orjson.loads(r.buf[r.pos:end])
    except orjson.JSONDecodeError:
        return None
    r.advance(end)
    return key if isinstance(key, str) else None


def _elements(r: _Reader, prefix: str, limit: int) -> Generator[Element | Fault, None, bool]:
    """The items of a list whose ``[`` was just passed, up to and past its ``]``; False
    when the list cannot be read to its end (the last piece is then a fault)."""
    index = 0
    while True:
        c = r.skip_space()
        if c == b"]":
            r.advance(r.pos + 1)
            return True
        if index:
            if c != b",":
                yield _fault(r, index, prefix, f"expected ',' or ']' after item {index - 1}"
                             " of the list" if c else "the JSON text ends inside the list of"
                             " records: the document is cut short")
                return False
            r.advance(r.pos + 1)
            c = r.skip_space()
        if not c:
            yield _fault(r, index, prefix, "the JSON text ends inside the list of records:"
                         " the document is cut short")
            return False
        path = f"{prefix}[{index}]"
        line, col, offset = r.line, r.col, r.offset
        end, parsed = _one_line(r, limit)
        too_long = False
        if end is None:
            try:
                end, too_long = _value_end(r, limit)
            except _CutError:
                yield Fault(index, path, "the JSON text ends inside a record: the document"
                            " is cut short", line, col, offset)
                return False
        if too_long:
            r.advance(end)
            yield Fault(index, path, exceeded(
                Msg("this record has more than"), "MAX_JSON_RECORD_BYTES",
                Msg("bytes; it is not read")), line, col, offset, limit=True)
        else:
            data = r.buf[r.pos:end]
            r.advance(end)
            yield Element(index, path, data, line, col, offset, parsed)
        index += 1


def _one_line(r: _Reader, limit: int) -> tuple[int | None, dict[str, Any] | None]:
    """The end of a record written whole on its line (``{…}`` then ``,`` or ``]``, as the
    archive writer lays records out) and its object; (None, None) for any other layout
    (and from then on, for this document: its records are found by :func:`_value_end`)."""
    if not r.lines or r.buf[r.pos:r.pos + 1] != b"{":
        return None, None
    r.ahead(WINDOW)
    nl = r.buf.find(b"\n", r.pos, r.pos + min(limit + 2, WINDOW))
    line = r.buf[r.pos:nl].rstrip() if nl >= 0 else b""
    if line.endswith((b",", b"]")):
        line = line[:-1].rstrip()
    if line.endswith(b"}"):
        try:
            return r.pos + len(line), orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    r.lines = False
    return None, None


def _value_end(r: _Reader, limit: int) -> tuple[int, bool]:
    """Where the value at ``pos`` ends, and whether it is past ``limit``: found by the
    standard library's JSON scanner (in C) on a window of the buffer when the value lies
    whole in it, else by :meth:`_Reader.value_end`."""
    if r.buf[r.pos:r.pos + 1] in (b"{", b"["):
        window = r.hint
        while True:
            r.ahead(window)
            chunk = r.buf[r.pos:r.pos + window]
            text = chunk.decode("utf-8", "surrogateescape")
            try:
                end = _DECODER.raw_decode(text)[1]
            except (ValueError, RecursionError):  # cut by the window, or not JSON
                if window >= min(limit, WINDOW) or r.pos + window >= len(r.buf):
                    break
                window *= 4
                continue
            if not chunk.isascii():
                end = len(text[:end].encode("utf-8", "surrogateescape"))
            r.hint = max(_HINT, 2 * end)
            return r.pos + end, end > limit
    return r.value_end(limit)


def _end(r: _Reader) -> Iterator[Fault]:
    """Nothing but white space may follow the document."""
    if r.skip_space():
        yield _fault(r, None, "$", "unexpected text after the end of the JSON document")


def _fault(r: _Reader, index: int | None, prefix: str, message: str) -> Fault:
    path = prefix if index is None else f"{prefix}[{index}]"
    return Fault(index, path, message, r.line, r.col, r.offset)


def _whole(r: _Reader, start: int, limit: int) -> Iterator[Whole | Fault]:
    """The document from ``start`` to the end, whole, when within ``limit`` bytes."""
    r.rewind(start)
    while len(r.buf) - r.pos <= limit and r.more():
        pass
    r.keep = None
    if len(r.buf) - r.pos > limit:
        yield Fault(None, "$", exceeded(
            Msg('this JSON record (not an archive with a "deals" list) has more than'),
            "MAX_JSON_RECORD_BYTES", Msg("bytes; it is not read")), 1, 1, 0, limit=True)
        return
    yield Whole(r.buf[r.pos:])
