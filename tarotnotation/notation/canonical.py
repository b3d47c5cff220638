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
from typing import IO, Any

from ..diagnostics import Severity
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


class _Tee(io.RawIOBase):
    """A binary stream that keeps the bytes read through it from a mark on."""

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
        return n

    def take(self, end: int | None) -> bytes:
        """The kept bytes up to the offset ``end`` (all of them for None), dropped."""
        cut = len(self.kept) if end is None else end - self.base
        out = bytes(self.kept[:cut])
        del self.kept[:cut]
        self.base += cut
        return out


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
    read once, one record at a time."""
    tee = _Tee(stream)
    before: ReadDeal | None = None
    for item in read(io.BufferedReader(tee), name=name):
        if before is not None:
            start = item.offset
            yield Piece(before, tee.take(start), _canonical(before, False, name))
        before = item
    if before is not None:
        yield Piece(before, tee.take(None), _canonical(before, True, name))
