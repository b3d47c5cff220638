"""Reading a file of the text notation in bulk: canonical records scanned in C.

The reader (:func:`~tarotnotation.notation.read_at`) cuts a file into records line by
line and reads each with the fast scanner (:mod:`tarotnotation.notation.scanner`), in
Python. Most archives are written by the writer, in the canonical layout; for those,
:func:`read_bulk` reads the file a block at a time and hands each record to the compiled
scanner (``_kernel.scan_text``, ``csrc/textscan.h``), which cuts it out of the block and
cuts it into the parts the quick check takes (those of ``_kernel.scan_json``), with no
line split and no word list in Python. The scanner only reads: the rules are the quick
check's (:func:`tarotnotation.quick.quick_facts_scanned`, the ``judge_parts`` here).

Whatever the scanner does not take, and any record the judge does not say clean, is read
by the reader itself, from that record's start in the file, with the judge of the
scanner's data (``judge``) as :func:`~tarotnotation.notation.read_at` takes it, and the
reader goes on until a record that starts after a blank line at a line of tags (where
the reader starts a record whatever came before) is one the scanner takes again. So every
deal is what the reader says of it, word for word, or a record cut and read exactly as the
reader cuts and reads it, and judged clean: ``tests/twins/test_textscan.py`` holds the scanner to
the fast scanner's data and ``tarot validate`` to the same output with and without it.

The memory held is a block or two (:data:`BLOCK`), whatever the file: a record longer
than a block is left to the reader, which reads it in bounded memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import IO, Any, Final, TypeVar

from ..rules import RulesetError
from ..source import ReadDeal
from .tagvalues import ruleset_spec, seats_entries

__all__ = ["BLOCK", "normalized", "read_bulk"]

_T = TypeVar("_T")

#: Bytes read at a time (a record that does not fit in one is read by the reader).
BLOCK: Final = 1 << 20
#: Bytes looked at, where the reader may hand back to the scanner, for the next record.
_PEEK: Final = 1 << 13
#: How many spellings of a Ruleset or a Seats tag are kept, read (a bound on memory).
_KEPT: Final = 1024
_RULESETS: dict[str, str | None] = {}
_SEATS: dict[str, tuple[list[str], list[str | None]] | None] = {}

#: The scanner: scan(buffer, pos, eof) -> ((parts), next, lines) | -1 | None.
Scan = Callable[[bytes, int, bool], Any]


def normalized(parts: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The scanner's parts with the Ruleset and Seats tags read as the fast scanner
    reads them (:func:`~tarotnotation.notation.tagvalues.ruleset_spec`,
    :func:`~tarotnotation.notation.tagvalues.seats_entries`: the scanner hands their values
    back as written); None when the fast scanner would not take them.

    >>> parts = (4, [], "FFT", "S:Ann, E:Bob, N, W", *[None] * 12, None)
    >>> out = normalized(parts)
    >>> out[2], out[3], out[16]
    ('fft', ['S', 'E', 'N', 'W'], ['Ann', 'Bob', None, None])
    >>> normalized((4, [], "no such rules", *[None] * 14)) is None
    True
    """
    own = parts[2]
    seats = parts[3]
    spec = own
    if own is not None:
        try:
            spec = _RULESETS[own]
        except KeyError:
            try:
                spec = ruleset_spec(own)
            except RulesetError:
                spec = None
            if len(_RULESETS) >= _KEPT:
                _RULESETS.clear()
            _RULESETS[own] = spec
        if spec is None:
            return None
    if seats is None:
        return parts if spec == own else (*parts[:2], spec, *parts[3:])
    try:
        read = _SEATS[seats]
    except KeyError:
        entries = seats_entries(seats)
        read = None if isinstance(entries, str) else (
            [e["id"] for e in entries], [e.get("name") for e in entries])
        if len(_SEATS) >= _KEPT:
            _SEATS.clear()
        _SEATS[seats] = read
    if read is None:
        return None
    ids, names = read
    return (*parts[:2], spec, list(ids), *parts[4:16], list(names), *parts[17:])


def _descriptor(fh: IO[bytes]) -> int | None:
    """The file descriptor of a file (None for a stream that has none: a URL's file)."""
    try:
        return fh.fileno()
    except (OSError, ValueError):  # (io.UnsupportedOperation is both)
        return None


def _peek(fh: IO[bytes], fd: int | None, at: int) -> bytes:
    """The bytes of the file from ``at`` on (a few), the stream left where it was."""
    if fd is not None:
        return os.pread(fd, _PEEK, at)
    here = fh.tell()
    fh.seek(at)
    try:
        return fh.read(_PEEK)
    finally:
        fh.seek(here)


def read_bulk(fh: IO[bytes], scan: Scan, judge_parts: Callable[[tuple[Any, ...]], _T | None],
              judge: Callable[[dict[str, Any]], _T | None] | None, *, name: str | None = None,
              line: int = 0, offset: int = 0
              ) -> Iterator[ReadDeal | tuple[int, int, int, _T]]:
    """The records of a file opened to read bytes (a regular file, or a URL's: it is read
    with seek, and ``os.pread`` where it has a descriptor), from ``offset`` (after
    ``line`` lines: the start of a record), as :func:`~tarotnotation.notation.read_at`
    gives them with ``judge``: a
    :class:`~tarotnotation.source.ReadDeal`, or ``(index, line, offset, value)`` for a
    deal the judge took. ``judge_parts`` judges the parts of a record the compiled
    scanner ``scan`` took (after :func:`normalized`); when it says None, the record is
    read by the reader.
    """
    rulesets = _RULESETS
    index = 0
    at = offset  # where the next record starts
    lines = line  # lines before it
    fd = _descriptor(fh)
    while True:
        # The scanner's turn, from `at`.
        fh.seek(at)
        buf = fh.read(BLOCK)
        eof = len(buf) < BLOCK
        base = at  # the offset of buf[0]
        pos = 0
        while True:
            if pos >= len(buf):
                if eof:
                    return
                buf = fh.read(BLOCK)
                base, pos, eof = base + pos, 0, len(buf) < BLOCK
                continue
            found = scan(buf, pos, eof)
            if type(found) is int:  # the block ends inside the record: read on
                if len(buf) - pos >= BLOCK:
                    break  # a record longer than a block: the reader's
                more = fh.read(BLOCK)
                buf, base, pos, eof = buf[pos:] + more, base + pos, 0, len(more) < BLOCK
                continue
            if found is None:
                break
            parts, after, took = found
            own = parts[2]
            if parts[3] is not None or (own is not None and rulesets.get(own) != own):
                parts = normalized(parts)  # (most often nothing to do: not called)
                if parts is None:
                    break
            value = judge_parts(parts)
            if value is None:
                break
            index += 1
            yield index, lines + 1, base + pos, value
            lines += took
            pos = after
        # The reader's turn, from this record on, until the scanner takes a record again.
        from .reader import read_at  # (loaded when first needed: a plain file needs none)

        at = base + pos
        fh.seek(at)
        first = True
        items = read_at(fh, name=name, line=lines, offset=at, judge=judge, index=index)
        try:
            for item in items:
                if isinstance(item, ReadDeal):
                    number, start, where = item.index, item.line, item.offset
                else:
                    number, start, where, _ = item
                # (A record the reader judged clean: had it found a fault, a comment never
                # closed among them, it might have read the next record as part of it.)
                if (not first and not isinstance(item, ReadDeal) and where is not None
                        and start is not None and where >= 2):
                    peek = _peek(fh, fd, where - 2)
                    if peek[:3] == b"\n\n[":
                        again = scan(peek, 2, len(peek) < _PEEK)
                        if type(again) is tuple:  # the record is canonical: the scanner's
                            yield item  # (the reader's answer, the same record)
                            index, lines = number, start - 1 + again[2]
                            at = where - 2 + again[1]
                            break
                first = False
                yield item
            else:
                return  # the file ended
        finally:
            items.close()  # type: ignore[attr-defined]
