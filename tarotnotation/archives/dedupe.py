"""The same deal recorded twice, across files and formats: found by fingerprints only.

A deal's fingerprint is 16 bytes (:func:`~.summary.deal_fingerprint`: the same cards
dealt, whoever held them; :func:`~.summary.play_fingerprint`: the same cards dealt and
the same cards played, in order). :class:`Seen` remembers the deals met so far as 16
bytes each: 12 bytes of the fingerprint (two different deals share them about once in
2**48 pairs) and the 4-byte number of the deal where it was first met, in an
open-addressing table in one ``bytearray``. Past a size limit the table moves to a
file (an SQLite database in the temporary folder, removed at the end), so memory stays
bounded whatever the size of the archive.

>>> seen = Seen()
>>> seen.first(b"0123456789abcdef", 1), seen.first(b"fedcba9876543210", 2)
(None, None)
>>> seen.first(b"0123456789abcdef", 3)
1
>>> len(seen), seen.on_disk
(2, False)
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from ..i18n import Msg
from .summary import DealSummary, deal_fingerprint, play_fingerprint

__all__ = ["BY", "Dedupe", "Duplicate", "Seen"]

#: What ``--by`` accepts.
BY: Final = ("deal", "play")
_KEY: Final = 12
_SLOT: Final = 16
_MAX_ORDINAL: Final = (1 << 32) - 1
#: The table's default limit, in bytes (then it moves to disk).
DEFAULT_LIMIT: Final = 256 << 20


class Seen:
    """Fingerprints met so far, and the number of the deal each was first met in."""

    def __init__(self, limit: int = DEFAULT_LIMIT, folder: str | None = None) -> None:
        self.limit = max(limit, _SLOT * 16)
        self.folder = folder
        self.bits = 10
        self.table = bytearray(_SLOT << self.bits)
        self.count = 0
        self.db: sqlite3.Connection | None = None
        self.path: str | None = None

    def __len__(self) -> int:
        return self.count

    @property
    def on_disk(self) -> bool:
        """True once the table has moved to a file."""
        return self.db is not None

    def first(self, fingerprint: bytes, ordinal: int) -> int | None:
        """The number of the deal where ``fingerprint`` was first met, or None (and it is
        remembered as met in deal ``ordinal``, 1-based)."""
        if self.db is not None or ordinal > _MAX_ORDINAL:
            return self._first_on_disk(fingerprint, ordinal)
        key = fingerprint[:_KEY]
        table = self.table
        mask = (1 << self.bits) - 1
        i = int.from_bytes(key[:8], "little") & mask
        while True:
            at = i * _SLOT
            found = int.from_bytes(table[at + _KEY:at + _SLOT], "little")
            if found == 0:
                break
            if table[at:at + _KEY] == key:
                return found
            i = (i + 1) & mask
        table[at:at + _SLOT] = key + ordinal.to_bytes(4, "little")
        self.count += 1
        if self.count * 4 > 3 << self.bits:  # three quarters full
            if (_SLOT << (self.bits + 1)) > self.limit:
                self._to_disk()
            else:
                self._grow()
        return None

    def _entries(self) -> Iterator[tuple[bytes, int]]:
        """The fingerprints and first deals in the table, one at a time (a list of them
        would take ten times the table)."""
        table = self.table
        for at in range(0, len(table), _SLOT):
            found = int.from_bytes(table[at + _KEY:at + _SLOT], "little")
            if found:
                yield bytes(table[at:at + _KEY]), found

    def _grow(self) -> None:
        old = self._entries()
        self.bits += 1
        new = bytearray(_SLOT << self.bits)
        mask = (1 << self.bits) - 1
        for key, ordinal in old:  # reads the old table while the new one fills
            i = int.from_bytes(key[:8], "little") & mask
            while int.from_bytes(new[i * _SLOT + _KEY:(i + 1) * _SLOT], "little"):
                i = (i + 1) & mask
            new[i * _SLOT:(i + 1) * _SLOT] = key + ordinal.to_bytes(4, "little")
        self.table = new

    def _to_disk(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="tarot-dedupe-", suffix=".sqlite",
                                         dir=self.folder)
        os.close(fd)
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("CREATE TABLE seen (key BLOB PRIMARY KEY, first INTEGER) WITHOUT ROWID")
        db.execute("BEGIN")
        db.executemany("INSERT INTO seen VALUES (?, ?)", self._entries())
        self.db = db
        self.table = bytearray()
        self.pending = 0

    def _first_on_disk(self, fingerprint: bytes, ordinal: int) -> int | None:
        if self.db is None:
            self._to_disk()
        assert self.db is not None
        key = fingerprint[:_KEY]
        row = self.db.execute("SELECT first FROM seen WHERE key = ?", (key,)).fetchone()
        if row is not None:
            return int(row[0])
        self.db.execute("INSERT INTO seen VALUES (?, ?)", (key, ordinal))
        self.count += 1
        self.pending += 1
        if self.pending >= 100_000:
            self.db.execute("COMMIT")
            self.db.execute("BEGIN")
            self.pending = 0
        return None

    def close(self) -> None:
        """Remove the file, if the table moved to one."""
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            self.path = None

    def __enter__(self) -> Seen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A deal met before."""

    where: str
    """Where this deal is (file and line, or file and deal number)."""
    first: str
    """Where it was first met (file and deal number)."""


class Dedupe:
    """Deals in order, each judged new or met before (see the module doc).

    Every deal of the stream, readable or not, has a number (its ordinal): the first
    meeting of a fingerprint is remembered by it, and found again by file and deal.
    """

    def __init__(self, by: str = "deal", limit: int = DEFAULT_LIMIT,
                 folder: str | None = None) -> None:
        if by not in BY:
            raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")
        self.fingerprint = deal_fingerprint if by == "deal" else play_fingerprint
        self.by = by
        self.seen = Seen(limit, folder)
        self.files: list[str] = []
        self.starts: list[int] = []
        self.ordinal = 0
        self.current: str | None = None
        self.duplicates = 0
        self.unmarked = 0
        """Deals without a fingerprint (no hands; no play): never a duplicate."""
        self.deals = 0

    def met(self, file: str, index: int) -> None:
        """Count a deal that is not judged (one that could not be read)."""
        self._number(file, index)

    def _number(self, file: str, index: int) -> int:
        if file != self.current or not self.starts:
            self.files.append(file)
            self.starts.append(self.ordinal + 1 - (index - 1))
            self.current = file
        self.ordinal = self.starts[-1] + index - 1
        return self.ordinal

    def judge(self, summary: DealSummary) -> Duplicate | None:
        """None for a deal met for the first time (or one without a fingerprint), else
        where it was first met."""
        ordinal = self._number(summary.file, summary.index)
        self.deals += 1
        fingerprint = self.fingerprint(summary)
        if fingerprint is None:
            self.unmarked += 1
            return None
        first = self.seen.first(fingerprint, ordinal)
        if first is None:
            return None
        self.duplicates += 1
        return Duplicate(Msg("{file}, deal {n}", file=summary.file, n=summary.index),
                         self.where(first))

    def where(self, ordinal: int) -> str:
        """The file and deal of a deal's number."""
        i = bisect_right(self.starts, ordinal) - 1
        return Msg("{file}, deal {n}", file=self.files[i], n=ordinal - self.starts[i] + 1)

    def close(self) -> None:
        """Remove the file of the table, if it moved to one."""
        self.seen.close()
