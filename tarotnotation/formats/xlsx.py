"""Score sheets in Excel workbooks (``.xlsx``), read with the standard library.

A workbook is read one worksheet at a time, each one a session of deals in the layout of
:mod:`tarotnotation.formats.sheet` (one row per deal, a column per fact and per player).
Cells are read as the workbook last computed them (a formula's value, not the formula):
numbers as numbers (``40.5`` points), dates as dates; a formula whose value the workbook
does not hold is a **C102** error naming its cell, and a merged cell's value belongs to
every row it covers (:mod:`tarotnotation.formats.workbook`, which reads the parts within
the limits of :mod:`tarotnotation.limits`). A worksheet whose first rows hold no score
sheet's header (a tab of statistics, a chart) is left out with a **C105** warning, and
hidden worksheets are left out with one **C105** warning naming them; a workbook with no
score sheet at all gives one unreadable deal (C105 error).

Diagnostics name the worksheet after the file, and the row and column as the
spreadsheet numbers them: ``club.xlsx[Janvier]:14:5`` is cell E14 of the tab
``Janvier``. When a workbook has several score sheets, each one's records carry its tab's
name as their ``Event`` (unless a column gives it), so that the deals numbered 1, 2, …
of each tab are told apart.

The workbook is read whole into memory first (as a ZIP archive must be: its directory is
at its end), up to :data:`MAX_WORKBOOK_BYTES`; its sheets are then streamed.
"""

from __future__ import annotations

import io
import itertools
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final

from ..diagnostics import Code, Diagnostic, Severity, quote
from ..i18n import Msg, and_list, message_of
from ..source import ReadDeal, read_deal
from .base import Format, Head

if TYPE_CHECKING:
    from .sheetwords import Columns
    from .workbook import Book

__all__ = ["MAX_WORKBOOK_BYTES", "SUFFIXES", "XLSX", "read", "sniff"]

#: File name endings of workbooks.
SUFFIXES: Final = (".xlsx", ".xlsm")
#: The largest workbook read (bytes, compressed): a club's years of sheets are a few
#: hundred KiB, a million rows about 30 MiB.
MAX_WORKBOOK_BYTES: Final = 64 << 20
_ZIP: Final = b"PK\x03\x04"
#: What a broken archive raises as it is read.
_BROKEN: Final = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError,
                  NotImplementedError, KeyError)


def sniff(head: bytes) -> bool:
    """True when content starting with ``head`` is an Excel workbook: a ZIP archive
    holding ``xl/`` parts.

    >>> sniff(b"PK\\x03\\x04" + b"\\0" * 26 + b"xl/workbook.xml"), sniff(b"PK\\x03\\x04word/")
    (True, False)
    """
    return head.startswith(_ZIP) and b"xl/" in head


def read(source: bytes | str | Path | IO[bytes], name: str | None = None, *,
         columns: Columns | None = None) -> Iterator[ReadDeal]:
    """Every deal of every score sheet of a workbook (a path, a binary stream, or its
    bytes). ``columns`` is the user's mapping (default: ``TAROT_COLUMNS``)."""
    from .csvsheet import environment_columns
    from .workbook import Book, BookError

    if columns is None:
        try:
            columns = environment_columns()
        except ValueError as err:
            yield read_deal(0, None, (Diagnostic.make(Code.SHEET_NOT_A_SHEET, message_of(err),
                                                     file=name or str(source)),))
            return
    if isinstance(source, (str, Path)):
        name = name or str(source)
        with Path(source).open("rb") as fh:
            data = fh.read(MAX_WORKBOOK_BYTES + 1)
    elif isinstance(source, bytes):
        data = source
    else:
        data = source.read(MAX_WORKBOOK_BYTES + 1)
    label = name or "<workbook>"

    def fail(message: str, code: Code = Code.SHEET_NOT_A_SHEET) -> ReadDeal:
        return read_deal(0, None, (Diagnostic.make(code, message, file=name),))  # (the file)

    if len(data) > MAX_WORKBOOK_BYTES:
        yield fail(Msg("{label} has more than {mib} MiB (the limit MAX_WORKBOOK_BYTES of"
                       " tarotnotation.formats.xlsx); it is not read", label=label,
                       mib=MAX_WORKBOOK_BYTES >> 20), Code.LIMIT_EXCEEDED)
        return
    try:
        book = Book(zipfile.ZipFile(io.BytesIO(data)), label)
    except BookError as err:
        yield fail(err.message, err.code)
        return
    except _BROKEN as err:
        yield fail(Msg("{label} is not a readable .xlsx workbook: {err}", label=label,
                       err=str(err) or type(err).__name__))
        return
    try:
        yield from _read_book(book, name, label, columns)
    except _BROKEN as err:  # a part of the archive broken past its start
        yield fail(Msg("{label}: the workbook cannot be read to its end: {err}", label=label,
                       err=str(err) or type(err).__name__))
    finally:
        book.zf.close()


def _read_book(book: Book, name: str | None, label: str, columns: Columns | None
               ) -> Iterator[ReadDeal]:
    from .sheet import HEADER_SEARCH, read_rows, recognised

    pending: list[Diagnostic] = []
    hidden = [sheet.title for sheet in book.sheets if sheet.hidden]
    if hidden:
        pending.append(Diagnostic.make(
            Code.SHEET_NOT_A_SHEET, Msg("hidden worksheets are left out: {titles} (show them in"
                                        " the spreadsheet program to have them read)",
                                        titles=and_list([quote(t) for t in hidden])),
            severity=Severity.WARNING, file=name))
    sheets = []
    for sheet in book.sheets:
        if sheet.hidden:
            continue
        file = f"{label}[{sheet.title}]"
        stopped: list[Diagnostic] = []
        head = [r.cells for r in itertools.islice(
            book.rows(sheet, file, stopped, merges=False), HEADER_SEARCH + 20)]
        if recognised(head, columns):
            sheets.append(sheet)
        elif stopped:  # what stopped the sheet before a header was seen
            pending.extend(stopped)
        elif any(any(c.strip() for c in cells) for cells in head):
            pending.append(Diagnostic.make(
                Code.SHEET_NOT_A_SHEET, Msg("the worksheet {title} holds no score sheet (no"
                                            " header a sheet has in its first rows): left out",
                                            title=quote(sheet.title)),
                severity=Severity.WARNING, file=file))
    if not sheets:
        pending.append(Diagnostic.make(
            Code.SHEET_NOT_A_SHEET, Msg("no worksheet of this workbook is a score sheet: not a"
                                        " record file (give --columns to map its headers)"),
                                    file=name))
        yield read_deal(0, None, tuple(pending))  # (said of the workbook: no deal)
        return
    count = 0
    for sheet in sheets:
        file = f"{label}[{sheet.title}]"
        tags = (("Event", str(sheet.title)),) if len(sheets) > 1 else ()
        for deal in read_rows(book.rows(sheet, file, pending), file=file, columns=columns,
                              tags=tags, first=count, pending=pending):
            count = deal.index
            yield deal


# --- the format, as the registry (formats/registry.py) knows it -----------------------------


def _sniff_head(head: Head) -> bool:
    return sniff(head.raw)


def _read_stream_of(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    return read(stream, name)


#: Excel workbooks of score sheets (read only).
XLSX: Final = Format(
    name="xlsx",
    title=Msg("an Excel workbook of score sheets"),
    suffixes=SUFFIXES,
    sniff=_sniff_head,
    read=_read_stream_of,
)
