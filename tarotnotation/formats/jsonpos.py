"""Where each value of a JSON text is: line and column by path, for a record's faults.

orjson parses fast but says nothing of positions, so a fault in JSON was located only by
its path (``$.play[1].cards[2].card``), and CI annotations attached to no line. This
scanner finds, in the JSON text of one record (a JSON Lines line, a record document, or
one deal of an archive document), the line and column where the value at a path starts.
Paths are record paths, as :class:`~tarotnotation.source.SourceMap` wants them
(``play[1]``, ``play[1].cards[2]``, ``hands.S``, ``result.scores.E``; ``""`` is the
record); a played card's path points at its card code, as the notation's does.

Nothing is done until a fault asks (:class:`JsonPositions` is a lazy mapping), and then
only the way to that value is walked, siblings skipped: a clean deal costs nothing, a
faulty one a walk of the text before its faults. The text is one orjson has accepted, so
the scanner need not judge the JSON, only walk it.

>>> text = (b'{\\n  "players": 4,\\n  "play": [\\n'
...         b'    {"cards": [{"card": "7H"}, {"card": "ZZ"}]}\\n  ]\\n}')
>>> pos = JsonPositions(text)
>>> pos["play[0].cards[1]"], pos["players"], pos[""], pos.get("dealer")
((4, 41), (2, 14), (1, 1), None)
>>> archive = b'{"tarotnotation": 1, "deals": [{"players": 4}, {"players": 3, "dealer": "X"}]}'
>>> starts = DealStarts(archive)
>>> JsonPositions(archive, starts.of(1))["dealer"]
(1, 73)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Final

import orjson

from ..diagnostics import Diagnostic

__all__ = ["DealStarts", "JsonPositions", "locate", "relative_path"]

_SPACE: Final = re.compile(rb"[ \t\r\n]*")
_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR: Final = re.compile(rb"[^,\]}\s]+")
_STRUCTURE: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_PART: Final = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")
_PLAYED: Final = re.compile(r"play\[\d+\]\.cards\[\d+\]\Z")


def _space(data: bytes, i: int) -> int:
    m = _SPACE.match(data, i)
    return m.end() if m else i


def _skip(data: bytes, i: int) -> int:
    """The offset just past the JSON value that starts at ``i``, and the spaces after it:
    a container is crossed string by string and bracket by bracket (numbers and the
    words true, false and null hold neither)."""
    ch = data[i:i + 1]
    if ch == b'"':
        m = _STRING.match(data, i)
        return _space(data, m.end() if m else len(data))
    if ch not in (b"{", b"["):
        m = _SCALAR.match(data, i)
        return _space(data, m.end() if m else i + 1)
    depth = 0
    for m in _STRUCTURE.finditer(data, i):
        tok = m.group()
        if tok in (b"{", b"["):
            depth += 1
        elif tok in (b"}", b"]"):
            depth -= 1
            if depth == 0:
                return _space(data, m.end())
    return len(data)


def _members(data: bytes, i: int) -> Iterator[tuple[object, int]]:
    """The key and value offset of each member of the object at ``i``."""
    i = _space(data, i + 1)
    while data[i:i + 1] == b'"':
        m = _STRING.match(data, i)
        end = m.end() if m else len(data)
        try:
            key = orjson.loads(data[i:end])
        except orjson.JSONDecodeError:
            return
        value = _space(data, _space(data, end) + 1)  # past the colon
        yield key, value
        i = _skip(data, value)
        if data[i:i + 1] != b",":
            return
        i = _space(data, i + 1)


def _items(data: bytes, i: int) -> Iterator[int]:
    """The offset of each item of the list at ``i``."""
    i = _space(data, i + 1)
    if data[i:i + 1] == b"]":
        return
    while i < len(data):
        yield i
        i = _skip(data, i)
        if data[i:i + 1] != b",":
            return
        i = _space(data, i + 1)


def find_path(data: bytes, start: int, path: str) -> int | None:
    """The offset of the value at ``path`` in the value at ``start``, or None."""
    i = _space(data, start)
    for m in _PART.finditer(path):
        key, index = m.group(1), m.group(2)
        found = None
        if key is not None and data[i:i + 1] == b"{":
            found = next((at for k, at in _members(data, i) if k == key), None)
        elif index is not None and data[i:i + 1] == b"[":
            want = int(index)
            found = next((at for n, at in enumerate(_items(data, i)) if n == want), None)
        if found is None:
            return None
        i = found
    return i


class JsonPositions(Mapping[str, tuple[int, int]]):
    """Line and column (1-based, in characters) of the values of the record whose JSON
    text starts at ``start`` of ``data``, by record path; each found when first asked.

    ``start`` may be a function that finds it (an archive's deals are found only when
    one has a fault); ``first_line`` is the number of ``data``'s first line (a JSON Lines
    line: its number in the file), unless ``start`` gives a line too.
    """

    __slots__ = ("_base", "_data", "_first_line", "_found", "_offsets", "_start")

    def __init__(self, data: bytes,
                 start: int | Callable[[], tuple[int, int]] = 0,
                 first_line: int = 1) -> None:
        self._data = data
        self._start = start
        self._first_line = first_line
        self._base: tuple[int, int] | None = None
        self._found: dict[str, tuple[int, int] | None] = {}
        self._offsets: dict[str, int | None] = {}

    def _origin(self) -> tuple[int, int]:
        """Where the record starts: its offset, and the line of the line it starts on."""
        if self._base is None:
            if isinstance(self._start, int):
                at = self._start
                self._base = at, self._first_line + self._data.count(b"\n", 0, at)
            else:
                self._base = self._start()
        return self._base

    def get(self, path: str, default: tuple[int, int] | None = None  # type: ignore[override]
            ) -> tuple[int, int] | None:
        """The position of the value at ``path``, or ``default`` when there is none."""
        if path not in self._found:
            self._found[path] = self._locate(path)
        found = self._found[path]
        return default if found is None else found

    def _offset(self, path: str) -> int | None:
        """The offset of the value at ``path``, walked from the value holding it, whose
        offset is kept: the faults of a deal are mostly in the same few values (its
        play, a trick), and the walk from the record's start to them is made once."""
        if path not in self._offsets:
            cut = max(path.rfind("."), path.rfind("["))
            if cut <= 0:
                at: int | None = find_path(self._data, self._origin()[0], path)
            else:
                holder = self._offset(path[:cut])
                at = None if holder is None else find_path(self._data, holder, path[cut:])
            self._offsets[path] = at
        return self._offsets[path]

    def _locate(self, path: str) -> tuple[int, int] | None:
        data = self._data
        start, line = self._origin()
        at = self._offset(path)
        if at is None:
            return None
        if _PLAYED.match(path) and data[at:at + 1] == b"{":  # a played card: its code
            card = find_path(data, at, "card")
            at = at if card is None else card
        line += data.count(b"\n", start, at)
        line_start = data.rfind(b"\n", 0, at) + 1
        return line, len(data[line_start:at].decode("utf-8", "replace")) + 1

    def __getitem__(self, path: str) -> tuple[int, int]:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(p for p, pos in self._found.items() if pos is not None)

    def __len__(self) -> int:
        return sum(pos is not None for pos in self._found.values())


class DealStarts:
    """Where each deal of a JSON document starts (the items of an archive's ``deals``
    list, of a bare list, or the document itself), found as far as asked and kept: a
    clean document is never walked, and a faulty one once."""

    __slots__ = ("_data", "_items", "_lines", "_starts", "_whole")

    def __init__(self, data: bytes, *, whole: bool = False) -> None:
        """``whole``: the document is one record (no list of deals to look for)."""
        self._data = data
        self._whole = whole
        self._starts: list[tuple[int, int]] = []
        self._items: Iterator[int] | None = None
        self._lines = (0, 1)  # (offset, line) of the last start found

    def _walk(self) -> Iterator[int]:
        data = self._data
        i = _space(data, 0)
        if self._whole:
            yield i
            return
        if data[i:i + 1] == b"[":
            yield from _items(data, i)
            return
        if data[i:i + 1] == b"{":
            deals = next((at for k, at in _members(data, i) if k == "deals"), None)
            if deals is not None and data[deals:deals + 1] == b"[":
                yield from _items(data, deals)
                return
        yield i

    def of(self, index: int) -> Callable[[], tuple[int, int]]:
        """A function giving where deal ``index`` (0-based) starts, and its line."""
        def start() -> tuple[int, int]:
            if self._items is None:
                self._items = self._walk()
            while len(self._starts) <= index:
                at = next(self._items, None)
                if at is None:
                    return 0, 1
                offset, line = self._lines
                line += self._data.count(b"\n", offset, at)
                self._lines = (at, line)
                self._starts.append((at, line))
            return self._starts[index]
        return start


def locate(diagnostic: Diagnostic, positions: Mapping[str, tuple[int, int]], prefix: str
           ) -> Diagnostic:
    """``diagnostic`` (whose path is a JSON path under ``prefix``) with the line and
    column of the value it names, or of the nearest value holding it."""
    path = relative_path(diagnostic.location.path or prefix, prefix)
    if path is None:
        return diagnostic
    while True:
        pos = positions.get(path)
        if pos is not None:
            return diagnostic.at(line=pos[0], col=pos[1])
        if not path:
            return diagnostic
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""


def relative_path(json_path: str, prefix: str) -> str | None:
    """The record path of a JSON path under the record's own ``prefix`` (``$``,
    ``$.deals[3]``, ``$[3]``), or None when it is not under it.

    >>> relative_path("$.deals[3].play[1].cards[2].card", "$.deals[3]")
    'play[1].cards[2].card'
    >>> relative_path("$", "$"), relative_path("$.players", "$")
    ('', 'players')
    """
    if json_path == prefix:
        return ""
    if json_path.startswith(prefix + "."):
        return json_path[len(prefix) + 1:]
    if json_path.startswith(prefix + "["):
        return json_path[len(prefix):]
    return None
