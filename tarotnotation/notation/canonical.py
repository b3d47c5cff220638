"""The canonical form of a stream of notation, record by record, in bounded memory.

:func:`pieces` reads a binary stream of the text notation once and yields, for each record,
its text as written and its canonical text (what ``tarot fmt`` writes), or why it has none:
a record that cannot be read cleanly, or (never expected) whose canonical text would read
back to another record. Joined, the canonical pieces are :func:`~tarotnotation.notation.dumps`
of all the records; so ``tarot fmt --check`` compares a file of any size with its canonical
form holding one record at a time, and ``tarot fmt`` writes it as it goes.

>>> import io
>>> text = b'[Players "4"] [Ruleset "fft"]\\nauction: pass garde pass pass\\n\\n[Players "4"]\\n'
>>> for p in pieces(io.BytesIO(text), "x.tarot"):
...     print(p.item.index, p.changed, p.new)
1 True b'[Players "4"]\\n[Ruleset "fft"]\\nauction: pass garde pass pass\\n\\n'
2 True b'[Players "4"]\\n[Ruleset "fft"]\\n'
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

from ..diagnostics import Severity
from ..limits import MAX_RECORD_CHARS
from ..source import ReadDeal
from .reader import read, reads
from .writer import write_record

__all__ = ["Piece", "pieces"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One record: its text as written (with what precedes it, for the first, and the
    blank lines after it), and its canonical text (None when it has none)."""

    item: ReadDeal
    old: bytes
    new: bytes | None

    @property
    def changed(self) -> bool:
        """True when formatting changes this record's text."""
        return self.new is not None and self.new != self.old


#: The most bytes kept of a record's text: past it, the record passes the reader's limit
#: (MAX_RECORD_CHARS) and will not be formatted; its text is then not kept.
KEEP_LIMIT: Final = 3 * MAX_RECORD_CHARS


class _Tee(io.RawIOBase):
    """A binary stream that keeps the bytes read through it, from the start of the record
    not yet given out (never more than :data:`KEEP_LIMIT`: an endless line is dropped as
    it is read)."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw
        self.kept = bytearray()
        self.base = 0
        """The offset of kept[0] in the stream."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.kept += data
        if len(self.kept) > KEEP_LIMIT:  # a record past the limit: not kept
            self.base += len(self.kept)
            self.kept.clear()
        return n

    def take(self, start: int, end: int | None) -> bytes | None:
        """The bytes from the offset ``start`` to ``end`` (to what is read, for None),
        dropped from what is kept; None when some of them were not kept."""
        cut = len(self.kept) if end is None else max(0, end - self.base)
        out = bytes(self.kept[:cut])
        del self.kept[:cut]
        whole = self.base <= start
        self.base += cut
        return out if whole else None


def _canonical(item: ReadDeal, last: bool, name: str | None) -> bytes | None:
    record = item.record
    if record is None or any(d.severity is Severity.ERROR for d in item.diagnostics):
        return None
    text = write_record(record)
    again = [d.record for d in reads(text, name=name)]
    if again != [record]:  # formatting must never change a meaning
        return None
    return (text if last else text + "\n").encode("utf-8")


def pieces(stream: IO[bytes], name: str | None = None) -> Iterator[Piece]:
    """Each record of ``stream`` as written and in canonical form (see :class:`Piece`),
    read once, one record at a time (memory bounded whatever the stream: a record past
    the reader's limit is not kept, and has no canonical text)."""
    tee = _Tee(stream)
    before: ReadDeal | None = None
    start = 0
    for item in read(io.BufferedReader(tee), name=name):
        if before is not None:
            yield _piece(before, tee.take(start, item.offset), False, name)
            start = item.offset or 0
        before = item
    if before is not None:
        yield _piece(before, tee.take(start, None), True, name)


def _piece(item: ReadDeal, old: bytes | None, last: bool, name: str | None) -> Piece:
    if old is None:  # its text was not kept (past the limit): it cannot be formatted
        return Piece(item, b"", None)
    return Piece(item, old, _canonical(item, last, name))
