"""Score sheets as CSV: one row per deal, read into outcome-only records and written.

The layout (the header, the columns, what each cell may say, what is inferred) is
:mod:`tarotnotation.formats.sheet`'s; this module brings the rows in and out of CSV text.

**Reading.** The separator is the one, of ``;``, ``,`` and a tab, that makes the sheet's
header (a French spreadsheet exports ``;`` with decimal commas, ``40,5``; an English one
``,``, with points like ``40.5`` or a quoted ``"40,5"``). Text is UTF-8, with or without a
byte-order mark. A line that is not UTF-8 is read as cp1252, as spreadsheet programs
export it on Windows, with one **C104** warning naming the file and the line: this is an
exception to the rule that every format is UTF-8 (docs/reliability.md), since it is how
such files are made. The rows are read one at a time: memory does not grow with the
sheet. A line longer than :data:`~tarotnotation.limits.MAX_RECORD_CHARS` bytes is skipped
(L001) and a cell longer than the ``csv`` module's limit (131,072 characters) is a C102
error; the next rows are read.

A CSV file whose first rows hold no header a score sheet has is not a record file: it
yields one unreadable deal with a **C105** error (a folder's unrelated ``.csv`` file is
reported, never misread). :func:`sniff` tells a score sheet from its first bytes.

**Writing** (:func:`write`, ``tarot convert … -o sheet.csv``): UTF-8 with a byte-order
mark (so that a spreadsheet program reads the accents), ``;`` between cells, a decimal
comma, French headers; read back, it gives the same facts (:func:`cannot_hold` lists
what it cannot hold).

>>> text = '''Donne;Preneur;Contrat;Appelé;Points;Bouts;Alice;Bruno;Chloé;David;Emma
... 1;Alice;Garde;;51;2;140;-70;70;-70;-70
... '''
>>> [deal] = read(text.encode(), name="jeudi.csv")
>>> deal.record.result.partner, deal.record.comments
('N', ('sheet: the partner, Chloé, is inferred from the scores (2 : 1 : −1)',))
>>> import io
>>> out = io.BytesIO()
>>> write([deal.record], out)
1
>>> out.getvalue().decode("utf-8-sig").splitlines()[1].split(";")[5:13]
['1', '', 'Alice', 'Garde', 'Chloé', '', '51', '2']
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from ..diagnostics import Code, Diagnostic
from ..encoding import first_bad_byte, looks_utf16
from ..i18n import Msg, message_of
from ..limits import MAX_RECORD_CHARS, exceeded
from ..source import ReadDeal, read_deal
from .base import Format, Head
from .csvcell import protected, unprotected

if TYPE_CHECKING:
    from ..records import DealRecord
    from .sheet import Row
    from .sheetwords import Columns

__all__ = ["CSV", "DELIMITERS", "SUFFIXES", "cannot_hold", "read", "sniff", "write"]

#: The separators a sheet may use, in the order they are preferred on a tie.
DELIMITERS: Final = (";", ",", "\t")
#: File name endings of CSV sheets.
SUFFIXES: Final = (".csv", ".tsv")
_BOM: Final = b"\xef\xbb\xbf"
_SNIFF_LINES: Final = 40


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:  # the five bytes cp1252 leaves undefined
            return raw.decode("latin-1")


def _rows_of(lines: list[str], delimiter: str) -> list[list[str]]:
    out = []
    reader = csv.reader(iter(lines), delimiter=delimiter)
    while True:
        try:
            out.append(next(reader))
        except csv.Error:
            continue
        except StopIteration:
            return out


def _delimiter(lines: list[str], columns: Columns | None = None) -> str:
    """The separator that makes a header of one of these lines (the most cells wins), or
    the commonest one."""
    from .sheet import (
        is_header,  # (the sheets' module: loaded when a sheet is read, not to detect a format)
    )

    best: tuple[int, int, str] | None = None
    for rank, d in enumerate(DELIMITERS):
        for row in _rows_of(lines, d):
            if is_header(row, columns) and (best is None or len(row) > best[0]):
                best = (len(row), -rank, d)
    if best is not None:
        return best[2]
    counts = [(sum(line.count(d) for line in lines), -rank, d)
              for rank, d in enumerate(DELIMITERS)]
    return max(counts)[2]


def sniff(head: bytes, columns: Columns | None = None) -> bool:
    """True when content starting with ``head`` is a CSV score sheet: its first rows
    hold a sheet's header (:func:`tarotnotation.formats.sheet.recognised`), as the user's
    mapping (``columns``, default ``TAROT_COLUMNS``) names them.

    >>> sniff("Donne;Preneur;Contrat;Points\\n1;Alice;Garde;48\\n".encode())
    True
    >>> sniff(b"name,email\\nAnn,ann@example.org\\n"), sniff(b'[Event "x"]')
    (False, False)
    """
    text = _decode(head.removeprefix(_BOM))
    if text.lstrip()[:1] in ("[", "{"):
        return False
    if columns is None:
        try:
            columns = environment_columns()  # a mapping names headers for detection too
        except ValueError:
            columns = None  # the reader says what is wrong with it
    lines = text.splitlines(keepends=True)[:_SNIFF_LINES]
    if len(lines) > 1 and not lines[-1].endswith(("\n", "\r")):
        lines = lines[:-1]  # cut short by the head's end
    if not lines:
        return False
    from .sheet import recognised

    d = _delimiter(lines, columns)
    return recognised(_rows_of(lines, d), columns)


def read(source: bytes | str | Path | IO[bytes], name: str | None = None, *,
         columns: Columns | None = None) -> Iterator[ReadDeal]:
    """Every deal of a CSV score sheet: a path, a binary stream (read as it comes), or the
    bytes themselves. ``name`` is the file's name in diagnostics; ``columns`` the user's
    mapping (default: the ``TAROT_COLUMNS`` environment variable, if set)."""
    if columns is None:
        try:
            columns = environment_columns()
        except ValueError as err:
            yield read_deal(0, None, (Diagnostic.make(Code.SHEET_NOT_A_SHEET, message_of(err),
                                                     file=name),))
            return
    if isinstance(source, (str, Path)):
        path = Path(source)
        with path.open("rb") as fh:
            yield from _read_stream(fh, name or str(path), columns)
        return
    if isinstance(source, bytes):
        yield from _read_stream(io.BytesIO(source), name, columns)
        return
    yield from _read_stream(source, name, columns)


def environment_columns() -> Columns | None:
    """The mapping ``TAROT_COLUMNS`` gives (what ``--columns`` sets for every reader of
    the run, worker processes included), or None; ValueError when it cannot be read."""
    import os

    spec = os.environ.get("TAROT_COLUMNS", "")
    if not spec.strip():
        return None
    from .sheetwords import Columns

    try:
        return Columns.of(spec)
    except (ValueError, OSError) as err:
        raise ValueError(Msg("the column mapping TAROT_COLUMNS cannot be read: {err}",
                             err=message_of(err))) from None


_EOL: Final = re.compile(rb"\r\n?|\n")


class _Lines:
    """The lines of a binary stream as text, each bounded, decoded as UTF-8 or else
    cp1252 (Mac Roman when the lines end in a carriage return alone, as on the Macs that
    wrote it), with one warning; faults go to ``pending``. A line ends at a line feed, a
    carriage return, or both. ``utf16`` tells that the first bytes are UTF-16 (then no
    line is given)."""

    def __init__(self, fh: IO[bytes], name: str | None, pending: list[Diagnostic]) -> None:
        self.fh = fh
        self.name = name
        self.pending = pending
        self.number = 0
        self.warned = False
        self.mac = False
        self.utf16 = False

    def _raw(self) -> Iterator[bytes]:
        """The lines as bytes, with their ends; a line over the limit as an empty one."""
        limit = MAX_RECORD_CHARS
        buf, pos, eof = b"", 0, False
        while True:
            m = _EOL.search(buf, pos)
            if m is not None and m.start() - pos <= limit and (
                    m.group() != b"\r" or m.end() < len(buf) or eof):
                if self.number == 0 and m.group() == b"\r":
                    self.mac = True
                yield buf[pos:m.end()]
                pos = m.end()
                continue
            if len(buf) - pos > limit:
                self.number += 1
                self.pending.append(Diagnostic.make(
                    Code.LIMIT_EXCEEDED, exceeded(Msg("this line has more than"),
                                                  "MAX_RECORD_CHARS",
                                                  Msg("bytes; it is not read")),
                    file=self.name, line=self.number))
                while m is None:  # skip the rest of the line without holding it
                    block = self.fh.read(1 << 16)
                    if not block:
                        return
                    buf, pos = block, 0
                    m = _EOL.search(buf)
                self.number -= 1
                pos = m.end()
                yield b"\n"
                continue
            if eof:
                if pos < len(buf):
                    yield buf[pos:]
                return
            block = self.fh.read(1 << 16)
            if not buf and not block:
                return
            if self.number == 0 and pos == 0 and not buf and looks_utf16(block[:4096]):
                self.utf16 = True
                return
            eof = not block
            buf, pos = buf[pos:] + block, 0

    def __iter__(self) -> Iterator[str]:
        for raw in self._raw():
            self.number += 1
            if self.number == 1:
                raw = raw.removeprefix(_BOM)
            err = first_bad_byte(raw)
            if err is None:
                yield raw.decode("utf-8")
                continue
            if not self.warned:
                self.warned = True
                where = {"value": self.name or 'the sheet', "raw": format(raw[err.start], '02X'),
                         "number": self.number}
                self.pending.append(Diagnostic.make(
                    Code.SHEET_ENCODING, Msg("{value} is not UTF-8 (byte 0x{raw} on line"
                                             " {number}), and its lines end in a carriage"
                                             " return alone: read as Mac Roman from this line,"
                                             " as old Macs wrote it; to convert it: iconv -f"
                                             " macintosh -t utf-8 FILE > FILE.utf8", **where)
                    if self.mac else Msg("{value} is not UTF-8 (byte 0x{raw} on line"
                                         " {number}): read as cp1252 from this line, as"
                                         " spreadsheet programs export it; to convert it:"
                                         " iconv -f cp1252 -t utf-8 FILE > FILE.utf8",
                                         **where),
                    file=self.name, line=self.number,
                    col=len(raw[:err.start].decode("utf-8", "replace")) + 1))
            yield raw.decode("mac_roman") if self.mac else _decode(raw)


def _read_stream(fh: IO[bytes], name: str | None, columns: Columns | None
                 ) -> Iterator[ReadDeal]:
    pending: list[Diagnostic] = []
    source = _Lines(fh, name, pending)
    lines = iter(source)
    first: list[str] = []
    for line in lines:
        first.append(line)
        if sum(1 for x in first if x.strip()) >= _SNIFF_LINES:
            break
    if source.utf16:
        yield read_deal(1, None, (Diagnostic.make(
            Code.ENCODING, Msg("the sheet is UTF-16 text (as a spreadsheet program's \"Unicode"
                               " text\" saves it), not UTF-8: convert it, e.g. iconv -f utf-16"
                               " -t utf-8 FILE > FILE.utf8, or save it as CSV UTF-8"),
            file=name, line=1),), line=1)
        return
    if not pending and not any(x.strip() for x in first):
        return  # an empty or blank file: no deal (F005, as for every format), not a sheet
    from .sheet import read_rows

    delimiter = _delimiter(first, columns)
    count = 0
    for deal in read_rows(_rows(first, lines, delimiter, name, pending), file=name,
                          columns=columns, pending=pending, separated=delimiter == ","):
        count += 1
        yield deal
    if not count:
        pending.append(Diagnostic.make(
            Code.SHEET_NOT_A_SHEET, Msg("the sheet holds no deal: nothing to read"), file=name,
            line=1))
        yield read_deal(0, None, tuple(pending), line=1)  # (said of the file: no deal)


def _rows(first: list[str], rest: Iterator[str], delimiter: str, name: str | None,
          pending: list[Diagnostic]) -> Iterator[Row]:
    """The rows, each with the line it starts on (a quoted cell may hold line breaks)."""
    from .sheet import Row, column_name

    source = _Counted(first, rest)
    reader = csv.reader(source, delimiter=delimiter)
    done = 0
    while True:
        start = done + 1
        source.taken.clear()
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            pending.append(Diagnostic.make(
                Code.SHEET_BAD_CELL, Msg("the row cannot be read as CSV: {err}; it is left out",
                                         err=err),
                file=name, line=start))
            done = reader.line_num
            continue
        done = reader.line_num
        taken = source.taken
        if len(taken) > 1 and any(line.count(delimiter) >= 3 for line in taken[1:]):
            # A quote never closed: it took the next rows into one cell. Say where, and
            # read each line as a row of its own, the quote as a character.
            at = next(i for i, c in enumerate(cells) if "\n" in c or "\r" in c)
            line = start + sum(c.count("\n") for c in cells[:at])
            unclosed = (Diagnostic.make(
                Code.SHEET_BAD_CELL, Msg("a quote (\") opens the cell in column {col} and is never"
                                         " closed: it ran on to line {end}, the lines between"
                                         " read as one cell; each is read as a row, the quote"
                                         " as a character (remove it, or double it: \"\")",
                                         col=column_name(at + 1), end=done),
                file=name, line=line, col=at + 1),)
            for i, text in enumerate(list(taken)):
                [again] = list(csv.reader([text], delimiter=delimiter,
                                          quoting=csv.QUOTE_NONE)) or [[]]
                yield Row(start + i, tuple(unprotected(c) for c in again),
                          unclosed if start + i == line else ())
            continue
        yield Row(start, tuple(unprotected(c) for c in cells))  # (the writer's ' taken off)


class _Counted:
    """Lines from a list, then from an iterator."""

    def __init__(self, first: list[str], rest: Iterator[str]) -> None:
        self.first = first
        self.rest = rest
        self.taken: list[str] = []
        """The lines given since it was last cleared (the lines of one row)."""

    def __iter__(self) -> Iterator[str]:
        for line in itertools.chain(self.first, self.rest):
            if len(self.taken) < 1000:
                self.taken.append(line)
            yield line
        self.first = []


def write(records: Iterable[DealRecord], fp: IO[bytes]) -> int:
    """Write records as a CSV score sheet (one header, a row per record) as they come;
    returns the count. ValueError when a record has other seats than the first (one
    sheet, one table)."""
    from .sheetwriter import sheet_rows

    text = io.TextIOWrapper(fp, encoding="utf-8", newline="", write_through=True)
    count = 0
    try:
        writer = csv.writer(text, delimiter=";", lineterminator="\n")
        text.write("\ufeff")
        for i, row in enumerate(sheet_rows(records)):
            writer.writerow([protected(c) if isinstance(c, str) else c for c in row])
            count = i  # the first row is the header
        text.flush()
    finally:
        text.detach()
    return count


def dumps(records: Iterable[DealRecord]) -> bytes:
    """The CSV sheet of ``records``, as bytes."""
    out = io.BytesIO()
    write(records, out)
    return out.getvalue()


# --- the format, as the registry (formats/registry.py) knows it -----------------------------


def _sniff_head(head: Head) -> bool:
    return not head.looks_like_json and sniff(head.raw)


def _read_stream_of(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    return read(stream, name)


#: CSV score sheets: read row by row, and written.
def cannot_hold(record: DealRecord) -> list[str]:
    """What a CSV score sheet written from ``record`` cannot hold
    (:func:`tarotnotation.formats.sheetwriter.cannot_hold`)."""
    from .sheetwriter import cannot_hold as lost  # (loaded when a sheet is written)

    return lost(record)


CSV: Final = Format(
    name="csv",
    title=Msg("a CSV score sheet"),
    suffixes=SUFFIXES,
    sniff=_sniff_head,
    read=_read_stream_of,
    write=write,
    cannot_hold=cannot_hold,
)
