"""Score sheets in Excel workbooks (``.xlsx``), read with openpyxl (the ``xlsx`` extra).

A workbook is read one worksheet at a time, each one a session of deals in the layout of
:mod:`tarotnotation.formats.sheet` (one row per deal, a column per fact and per player).
Cells are read as the workbook last computed them (a formula's value, not the formula):
numbers as numbers (``40.5`` points), dates as dates. A worksheet whose first rows hold
no score sheet's header (a tab of statistics, a chart) is left out with a **C105**
warning; a workbook with no score sheet at all gives one unreadable deal (C105 error).

Diagnostics name the worksheet after the file, and the row and column as the
spreadsheet numbers them: ``club.xlsx[Janvier]:14:5`` is cell E14 of the tab
``Janvier``. When a workbook has several score sheets, each one's records carry its tab's
name as their ``Event`` (unless a column gives it), so that the deals numbered 1, 2, …
of each tab are told apart.

openpyxl is optional: ``pip install 'tarotnotation[xlsx]'``. Without it, a workbook
yields one unreadable deal saying so. A workbook is read whole into memory first (as a
ZIP archive must be), up to :data:`MAX_WORKBOOK_BYTES`; its sheets are then streamed.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from datetime import date, datetime, time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

from ..diagnostics import Code, Diagnostic, Severity, quote
from ..i18n import Msg, message_of
from ..source import ReadDeal
from .base import Format, Head

if TYPE_CHECKING:
    from .sheet import Row
    from .sheetwords import Columns

__all__ = ["MAX_WORKBOOK_BYTES", "SUFFIXES", "XLSX", "available", "read", "sniff"]

#: File name endings of workbooks.
SUFFIXES: Final = (".xlsx", ".xlsm")
#: The largest workbook read (bytes): a club's years of sheets are a few hundred KiB.
MAX_WORKBOOK_BYTES: Final = 64 << 20
_ZIP: Final = b"PK\x03\x04"


def available() -> bool:
    """True when openpyxl is installed."""
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        return False
    return True


def sniff(head: bytes) -> bool:
    """True when content starting with ``head`` is an Excel workbook: a ZIP archive
    holding ``xl/`` parts.

    >>> sniff(b"PK\\x03\\x04" + b"\\0" * 26 + b"xl/workbook.xml"), sniff(b"PK\\x03\\x04word/")
    (True, False)
    """
    return head.startswith(_ZIP) and b"xl/" in head


def _text(value: Any) -> str:
    """A cell's value as the sheet reader takes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.6f}".rstrip("0")
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat(" ")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _rows(sheet: Any) -> Iterator[Row]:
    from .sheet import (
        Row,  # (the sheets' module: loaded when a sheet is read, not to detect a format)
    )

    for number, values in enumerate(sheet.iter_rows(min_row=1, min_col=1, values_only=True),
                                    1):
        cells = [_text(v) for v in values]
        while cells and not cells[-1].strip():
            cells.pop()
        yield Row(number, tuple(cells))


def read(source: bytes | str | Path | IO[bytes], name: str | None = None, *,
         columns: Columns | None = None) -> Iterator[ReadDeal]:
    """Every deal of every score sheet of a workbook (a path, a binary stream, or its
    bytes). ``columns`` is the user's mapping (default: ``TAROT_COLUMNS``)."""
    from .csvsheet import environment_columns

    if columns is None:
        try:
            columns = environment_columns()
        except ValueError as err:
            yield ReadDeal(0, None, (Diagnostic.make(Code.SHEET_NOT_A_SHEET, message_of(err),
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
        return ReadDeal(0, None, (Diagnostic.make(code, message, file=name),))  # (the file)

    if len(data) > MAX_WORKBOOK_BYTES:
        yield fail(Msg("{label} has more than {mib} MiB (the limit MAX_WORKBOOK_BYTES of"
                       " tarotnotation.formats.xlsx); it is not read", label=label,
                       mib=MAX_WORKBOOK_BYTES >> 20), Code.LIMIT_EXCEEDED)
        return
    try:
        import openpyxl
    except ImportError:
        yield fail(Msg("{label} is an Excel workbook: reading it needs openpyxl, which is not"
                       " installed (pip install 'tarotnotation[xlsx]'); or save the sheet as"
                       " CSV", label=label))
        return
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as err:  # openpyxl raises many kinds on a broken archive
        yield fail(Msg("{label} is not a readable .xlsx workbook: {reason}", label=label,
                       reason=str(err) or type(err).__name__))
        return
    try:
        yield from _read_book(book, name, label, columns)
    except Exception as err:  # a part of the archive broken past its start
        yield fail(Msg("{label}: the workbook cannot be read to its end: {reason}",
                       label=label, reason=str(err) or type(err).__name__))
    finally:
        book.close()


def _read_book(book: Any, name: str | None, label: str, columns: Columns | None
               ) -> Iterator[ReadDeal]:
    from .sheet import HEADER_SEARCH, read_rows, recognised

    pending: list[Diagnostic] = []
    sheets = []
    for sheet in book.worksheets:
        head = [r.cells for r in itertools.islice(_rows(sheet), HEADER_SEARCH + 20)]
        if recognised(head, columns):
            sheets.append(sheet)
        elif any(any(c.strip() for c in cells) for cells in head):
            pending.append(Diagnostic.make(
                Code.SHEET_NOT_A_SHEET, Msg("the worksheet {title} holds no score sheet (no"
                                            " header a sheet has in its first rows): left out",
                                            title=quote(sheet.title)),
                severity=Severity.WARNING, file=f"{label}[{sheet.title}]"))
    if not sheets:
        pending.append(Diagnostic.make(
            Code.SHEET_NOT_A_SHEET, Msg("no worksheet of this workbook is a score sheet: not a"
                                        " record file (give --columns to map its headers)"),
                                    file=name))
        yield ReadDeal(0, None, tuple(pending))  # (said of the workbook: no deal)
        return
    count = 0
    for sheet in sheets:
        tags = (("Event", str(sheet.title)),) if len(sheets) > 1 else ()
        for deal in read_rows(_rows(sheet), file=f"{label}[{sheet.title}]", columns=columns,
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
