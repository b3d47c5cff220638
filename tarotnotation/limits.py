"""The limits on input size: past them a reader reports L001 and moves on, in bounded time.

Archives come from people and other programs, and some of what they hold is absurd: a
100 MB line, a trick of a million cards, a number of five thousand digits, JSON nested
ten thousand deep. The readers never try to build such a thing. Each limit below is far
above anything a real deal needs (a fully annotated deal is a few kilobytes), and when
one is passed the reader reports one :attr:`~tarotnotation.diagnostics.Code.LIMIT_EXCEEDED`
error (L001) for that record, naming the limit and where it was passed, skips the rest of
the record without holding it in memory, and goes on with the next record.

=================================  =========  =================================================
limit                              value      what it bounds
=================================  =========  =================================================
:data:`MAX_RECORD_CHARS`           1 MiB      the text of one record of the notation (characters),
                                              and so the longest line the text reader holds
:data:`MAX_JSON_RECORD_BYTES`      1 MiB      one JSON Lines line, one single-record JSON document,
                                              one record of an archive document, one TarotClub
                                              file, and what format detection reads of a line
:data:`MAX_ITEMS`                  1,000      the items of any one list of a JSON record (cards of
                                              a trick, tricks, bids, tags, comments…)
:data:`MAX_DIGITS`                 18         the digits of a number in a record (points, scores,
                                              bouts, a trick's number)
:data:`MAX_FAULTS`                 200        the diagnostics the text reader reports for one
                                              record before it stops listing them
:data:`MAX_WORKBOOK_PART_BYTES`    16 MiB     the uncompressed bytes of each part of an Excel
                                              workbook but its worksheets (the list of sheets,
                                              the shared strings, the styles)
:data:`MAX_WORKSHEET_BYTES`        1 GiB      the uncompressed bytes of one worksheet's part
                                              (a million rows of a score sheet are 400 MB)
:data:`MAX_XML_TOKEN_BYTES`        1 MiB      one piece of a workbook's XML (a tag, a comment)
:data:`MAX_CELL_CHARS`             32,767     the characters of one cell of a workbook (Excel's
                                              own limit); a row of a workbook is bounded as a
                                              line is, by :data:`MAX_RECORD_CHARS`
:data:`MAX_SHEET_ROWS`             1,048,576  the rows of one worksheet (Excel's own limit)
:data:`MAX_SHEET_COLUMNS`          16,384     the columns of one worksheet (Excel's own limit)
:data:`MAX_MERGED_RANGES`          100,000    the merged ranges of one worksheet
=================================  =========  =================================================

JSON nesting is bounded by orjson itself (1,024 levels); the JSON reader reports that,
and a number too large for a double, as L001 too.

>>> MAX_RECORD_CHARS, MAX_ITEMS
(1048576, 1000)
>>> print(exceeded(Msg("this record has more than"), "MAX_RECORD_CHARS", Msg("characters")))
this record has more than 1,048,576 characters (the limit MAX_RECORD_CHARS of tarotnotation.limits)
"""

from __future__ import annotations

from typing import Final

from .i18n import Msg

__all__ = [
    "JSON_MAX_DEPTH",
    "MAX_CELL_CHARS",
    "MAX_DIGITS",
    "MAX_FAULTS",
    "MAX_ITEMS",
    "MAX_JSON_RECORD_BYTES",
    "MAX_MERGED_RANGES",
    "MAX_RECORD_CHARS",
    "MAX_SHEET_COLUMNS",
    "MAX_SHEET_ROWS",
    "MAX_WORKBOOK_PART_BYTES",
    "MAX_WORKSHEET_BYTES",
    "MAX_XML_TOKEN_BYTES",
    "exceeded",
]

#: The longest text of one record of the notation, in characters (lines and their ends).
MAX_RECORD_CHARS: Final = 1 << 20

#: The longest JSON text of one record (a JSON Lines line, a one-record file, a TarotClub
#: file), in bytes.
MAX_JSON_RECORD_BYTES: Final = 1 << 20

#: The most items in any one list of a JSON record.
MAX_ITEMS: Final = 1000

#: The most digits in a number written in a record.
MAX_DIGITS: Final = 18

#: The most diagnostics the text reader lists for one record.
MAX_FAULTS: Final = 200

#: The most uncompressed bytes read of a part of an Excel workbook other than a worksheet.
MAX_WORKBOOK_PART_BYTES: Final = 16 << 20

#: The most uncompressed bytes read of one worksheet of an Excel workbook.
MAX_WORKSHEET_BYTES: Final = 1 << 30

#: The longest piece of a workbook's XML held at once (a tag, a comment), in bytes.
MAX_XML_TOKEN_BYTES: Final = 1 << 20

#: The most characters in one cell of a workbook (Excel's own limit).
MAX_CELL_CHARS: Final = 32767

#: The most rows of one worksheet (Excel's own limit).
MAX_SHEET_ROWS: Final = 1 << 20

#: The most columns of one worksheet (Excel's own limit).
MAX_SHEET_COLUMNS: Final = 1 << 14

#: The most merged ranges of one worksheet.
MAX_MERGED_RANGES: Final = 100_000

#: orjson's own nesting limit (not configurable): deeper JSON is refused.
JSON_MAX_DEPTH: Final = 1024


def exceeded(what: str, name: str, unit: str) -> str:
    """The message of an L001 diagnostic: ``what`` is followed by the limit ``name``'s value
    and ``unit``. ``what`` and ``unit`` are given as messages (``Msg("this line has more
    than")``), so that the whole reads in the run's language."""
    value: int = globals()[name]
    return Msg("{what} {value} {unit} (the limit {name} of tarotnotation.limits)", what=what,
               value=f"{value:,}", unit=unit, name=name)
