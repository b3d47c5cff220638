"""Files that clubs keep their scores in but that are no record file the tool reads: an
OpenDocument spreadsheet (``.ods``), a legacy Excel workbook (``.xls``), a ZIP archive
(a Matocolotoe backup). Told by their first bytes (their magic numbers), each is one
unreadable deal whose **C105** error says what it is and what to do with it (save it as
``.xlsx`` or CSV; unzip the backup), instead of being read as text.

>>> kind(b"PK\\x03\\x04" + bytes(26) + b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet")
'ods'
>>> kind(OLE2 + bytes(8)), kind(b"PK\\x03\\x04data/games_2026_11.json"), kind(b"PK\\x03\\x04a")
('office', 'backup', 'zip')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Final

from ..diagnostics import Code, Diagnostic
from ..i18n import Msg
from ..source import ReadDeal, read_deal
from .base import Format, Head

__all__ = ["FOREIGN", "OLE2", "ZIP", "kind", "sniff"]

#: The magic number of a ZIP archive (an .xlsx, an .ods, a backup).
ZIP: Final = b"PK\x03\x04"
#: The magic number of a Compound File (Excel 97–2003 .xls, and the other legacy Office files).
OLE2: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ODS: Final = b"application/vnd.oasis.opendocument.spreadsheet"
_HEAD: Final = 1 << 16


def kind(head: bytes) -> str | None:
    """What a file starting with ``head`` is: ``ods``, ``office`` (an .xls), ``backup`` (a
    ZIP archive of Matocolotoe's games), ``zip`` (another ZIP archive), or None."""
    if head.startswith(OLE2):
        return "office"
    if not head.startswith(ZIP):
        return None
    if _ODS in head[:200]:
        return "ods"
    if b"games_" in head or b"players.json" in head:
        return "backup"
    return "zip"


def sniff(head: bytes) -> bool:
    """True when ``head`` starts a file this module names (an Excel workbook, which is a
    ZIP archive too, is asked before: formats/registry.py)."""
    return kind(head) is not None


def read(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    """One unreadable deal saying what the file is and what to do with it."""
    label = name or "<stdin>"
    what = kind(stream.read(_HEAD))
    if what == "ods":
        message = Msg("{label} is an OpenDocument spreadsheet (.ods), which the tool does not"
                      " read: save it as an Excel workbook (.xlsx) or as CSV (UTF-8) in the"
                      " spreadsheet program", label=label)
    elif what == "office":
        message = Msg("{label} is a legacy Office file (an Excel 97-2003 workbook, .xls), which"
                      " the tool does not read: save it as an Excel workbook (.xlsx) or as CSV"
                      " (UTF-8) in the spreadsheet program", label=label)
    elif what == "backup":
        message = Msg("{label} is a ZIP archive of Matocolotoe's games (a backup): unzip it"
                      " (unzip FILE -d FOLDER) and give the folder, whose games_YYYY_MM.json"
                      " files are read", label=label)
    elif label.lower().endswith(".xlsx"):
        message = Msg("{label} is not a readable .xlsx workbook: a ZIP archive with no workbook"
                      " in it, or cut short; save the sheet again from the spreadsheet"
                      " program, or as CSV", label=label)
    else:
        message = Msg("{label} is a ZIP archive, not a record file: unzip it and give the"
                      " files it holds", label=label)
    # (said of the file: index 0, no deal read)
    yield read_deal(0, None, (Diagnostic.make(Code.SHEET_NOT_A_SHEET, message, file=name),))


# --- the format, as the registry (formats/registry.py) knows it -----------------------------


def _sniff_head(head: Head) -> bool:
    return sniff(head.raw)


#: The spreadsheets and archives the tool names but does not read (read only: an error).
FOREIGN: Final = Format(
    name="foreign",
    title=Msg("a spreadsheet or archive the tool does not read (.ods, .xls, .zip)"),
    suffixes=(".ods", ".xls", ".zip"),
    sniff=_sniff_head,
    read=read,
)
