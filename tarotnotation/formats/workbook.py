"""The parts of an Excel workbook (``.xlsx``), read with the standard library, in bounds.

A workbook is a ZIP archive of XML parts: ``workbook.xml`` lists the worksheets (their
names, whether they are hidden, where their parts are), ``sharedStrings.xml`` holds the
text of the cells, ``styles.xml`` tells which numbers are dates, and each worksheet's part
holds its rows. This module reads them with :mod:`zipfile` and expat, as a stream:

- every part is decompressed a block at a time, and no more than its limit is read
  (:data:`~tarotnotation.limits.MAX_WORKBOOK_PART_BYTES` for the small parts,
  :data:`~tarotnotation.limits.MAX_WORKSHEET_BYTES` for a worksheet); expat never holds
  a piece of XML (a tag, a comment) longer than
  :data:`~tarotnotation.limits.MAX_XML_TOKEN_BYTES`, and a document type (where entity
  bombs live) is refused;
- a worksheet's rows are yielded as they are parsed: memory does not grow with the rows.
  A cell longer than :data:`~tarotnotation.limits.MAX_CELL_CHARS` is not read, a row longer
  than :data:`~tarotnotation.limits.MAX_RECORD_CHARS` is left out, and a sheet stops at
  :data:`~tarotnotation.limits.MAX_SHEET_ROWS` rows (each an **L001** with the limit);
- cells are what the workbook last computed: numbers as numbers, dates (a number with a
  date format) as dates, booleans, text. A formula whose value the workbook does not store
  (a file written by a program that computes nothing) is a **C102** error naming the cell;
- a merged cell's value belongs to every row it covers (a date merged down B4:B8 dates the
  deals of rows 4 to 8).

>>> column_of("A"), column_of("AB"), split_ref("C12")
(1, 28, (12, 3))
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final
from xml.parsers import expat

from ..diagnostics import Code, Diagnostic, quote
from ..i18n import Msg
from ..limits import (
    MAX_CELL_CHARS,
    MAX_MERGED_RANGES,
    MAX_RECORD_CHARS,
    MAX_SHEET_COLUMNS,
    MAX_SHEET_ROWS,
    MAX_WORKBOOK_PART_BYTES,
    MAX_WORKSHEET_BYTES,
    MAX_XML_TOKEN_BYTES,
    exceeded,
)
from .sheet import Row, column_name

__all__ = ["Book", "BookError", "Sheet", "column_of", "split_ref"]

_CHUNK: Final = 1 << 16
_REF: Final = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})")
_MERGE: Final = re.compile(rb"<(?:[\w.-]+:)?mergeCell\s[^>]*?\bref\s*=\s*[\"']"
                           rb"([A-Za-z]{1,3}[0-9]{1,7})(?::([A-Za-z]{1,3}[0-9]{1,7}))?[\"']")
#: Built-in number formats that are dates or times (ECMA-376, 18.8.30).
_DATE_FORMAT_IDS: Final = frozenset({*range(14, 23), *range(45, 48)})
_QUOTED: Final = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.|_.|\*.')
_DATE_WORDS: Final = re.compile(r"[dmyhsDMYHS]")
_EPOCH_1900: Final = datetime(1899, 12, 30)
_EPOCH_1904: Final = datetime(1904, 1, 1)
#: The last day a workbook's date serial may be (9999-12-31).
_LAST_SERIAL: Final = 2958465
_DIGITS: Final = "0123456789"
_PAST_COLUMNS: Final = 1
_TOO_LONG: Final = 2


class BookError(Exception):
    """The workbook cannot be read: its message (a Msg or L001's text) and code."""

    def __init__(self, message: str, code: Code = Code.SHEET_NOT_A_SHEET) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def column_of(letters: str) -> int:
    """The 1-based column a spreadsheet names with letters."""
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return col


def split_ref(ref: str) -> tuple[int, int] | None:
    """``(row, column)`` of a cell reference such as ``C12``, or None."""
    m = _REF.fullmatch(ref)
    if m is None:
        return None
    return int(m.group(2)), column_of(m.group(1))


def _local(name: str) -> str:
    return name.rpartition(":")[2]


def _is_date_format(code: str) -> bool:
    """A custom number format shows a date or a time (a d, m, y, h or s outside quotes,
    brackets and escapes).

    >>> _is_date_format("dd/mm/yyyy"), _is_date_format('0.0 "pts"'), _is_date_format("[Red]0")
    (True, False, False)
    """
    return _DATE_WORDS.search(_QUOTED.sub("", code)) is not None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A worksheet of the workbook: its tab's name, its part, and whether it is hidden."""

    title: str
    part: str
    hidden: bool


class _Xml:
    """One part parsed by expat as it is decompressed, within its limits."""

    def __init__(self, zf: zipfile.ZipFile, part: str, limit: int, label: str) -> None:
        self.zf = zf
        self.part = part
        self.limit = limit
        self.label = label
        self.parser = expat.ParserCreate()
        self.parser.buffer_text = True
        self.parser.buffer_size = _CHUNK
        self.parser.StartDoctypeDeclHandler = self._doctype

    def _doctype(self, *_: Any) -> None:
        raise BookError(Msg("{label}: the part {part} declares a document type, which no"
                            " workbook does: it is not read", label=self.label,
                            part=quote(self.part)))

    def chunks(self) -> Iterator[None]:
        """Feed the part to the parser a block at a time (yielding after each block)."""
        total = 0
        try:
            fh = self.zf.open(self.part)
        except KeyError:
            raise BookError(Msg("{label}: the workbook has no part {part}", label=self.label,
                                part=quote(self.part))) from None
        with fh:
            while True:
                block = fh.read(_CHUNK)
                if not block:
                    break
                total += len(block)
                if total > self.limit:
                    raise BookError(exceeded(Msg("{label}: the part {part} has more than",
                                                 label=self.label, part=self.part),
                                             "MAX_WORKSHEET_BYTES"
                                             if self.limit == MAX_WORKSHEET_BYTES
                                             else "MAX_WORKBOOK_PART_BYTES",
                                             Msg("bytes uncompressed; it is not read"
                                                 " further")),
                                    Code.LIMIT_EXCEEDED)
                self.feed(block, total)
                yield
        self.feed(b"", total, final=True)
        yield

    def feed(self, block: bytes, total: int, final: bool = False) -> None:
        try:
            self.parser.Parse(block, final)
        except expat.ExpatError as err:
            raise BookError(Msg("{label}: the part {part} is not well-formed XML ({err})",
                                label=self.label, part=quote(self.part), err=str(err))) from None
        if total - self.parser.CurrentByteIndex > MAX_XML_TOKEN_BYTES:  # what expat holds
            raise BookError(exceeded(Msg("{label}: the part {part} holds a piece of XML (a tag,"
                                         " a comment) of more than", label=self.label,
                                         part=self.part), "MAX_XML_TOKEN_BYTES",
                                     Msg("bytes; it is not read further")), Code.LIMIT_EXCEEDED)

    def run(self) -> None:
        for _ in self.chunks():
            pass


class Book:
    """An open workbook: its worksheets (:attr:`sheets`) and their rows (:meth:`rows`).

    Raises :class:`BookError` when the archive is not a workbook that can be read."""

    def __init__(self, zf: zipfile.ZipFile, label: str) -> None:
        self.zf = zf
        self.label = label
        self.names = frozenset(zf.namelist())
        main = self._main_part()
        folder = posixpath.dirname(main)
        rels = self._relations(posixpath.join(folder, "_rels", posixpath.basename(main) + ".rels"))
        self.date1904 = False
        listed: list[tuple[str, str, bool]] = []

        def start(name: str, attrs: dict[str, str]) -> None:
            tag = _local(name)
            if tag == "sheet":
                rid = next((v for k, v in attrs.items() if k.endswith(":id")), "")
                listed.append((attrs.get("name", ""), rid,
                               attrs.get("state", "visible") != "visible"))
            elif tag == "workbookPr":
                self.date1904 = attrs.get("date1904", "0") in ("1", "true")

        xml = _Xml(zf, main, MAX_WORKBOOK_PART_BYTES, label)
        xml.parser.StartElementHandler = start
        xml.run()
        sheets = []
        for title, rid, hidden in listed:
            kind, target = rels.get(rid, ("", ""))
            if kind == "worksheet":
                sheets.append(Sheet(title, self._resolve(folder, target), hidden))
        self.sheets: tuple[Sheet, ...] = tuple(sheets)
        by_kind = dict(rels.values())
        self.strings = self._shared_strings(
            self._resolve(folder, by_kind["sharedStrings"]) if "sharedStrings" in by_kind
            else "")
        self.date_styles = self._date_styles(
            self._resolve(folder, by_kind["styles"]) if "styles" in by_kind else "")

    # --- the small parts -------------------------------------------------------------

    def _main_part(self) -> str:
        rels = self._relations("_rels/.rels")
        for kind, target in rels.values():
            if kind == "officeDocument":
                return self._resolve("", target)
        if "xl/workbook.xml" in self.names:
            return "xl/workbook.xml"
        raise BookError(Msg("{label} is a ZIP archive but not an Excel workbook (it has no"
                            " xl/workbook.xml)", label=self.label))

    @staticmethod
    def _resolve(folder: str, target: str) -> str:
        if target.startswith("/"):
            return posixpath.normpath(target.lstrip("/"))
        return posixpath.normpath(posixpath.join(folder, target))

    def _relations(self, part: str) -> dict[str, tuple[str, str]]:
        """``{id: (kind, target)}`` of a relationships part (none when it is absent)."""
        if part not in self.names:
            return {}
        out: dict[str, tuple[str, str]] = {}

        def start(name: str, attrs: dict[str, str]) -> None:
            if _local(name) == "Relationship" and "Id" in attrs:
                kind = attrs.get("Type", "").rstrip("/").rpartition("/")[2]
                out[attrs["Id"]] = (kind, attrs.get("Target", ""))

        xml = _Xml(self.zf, part, MAX_WORKBOOK_PART_BYTES, self.label)
        xml.parser.StartElementHandler = start
        xml.run()
        return out

    def _shared_strings(self, part: str) -> list[str | None]:
        """The shared strings (None for one longer than MAX_CELL_CHARS)."""
        out: list[str | None] = []
        if not part or part not in self.names:
            return out
        pieces: list[str] = []
        size = 0
        depth = {"t": 0, "rPh": 0}
        state = {"in_t": False}

        def start(name: str, _attrs: dict[str, str]) -> None:
            nonlocal size
            tag = _local(name)
            if tag == "si":
                pieces.clear()
                size = 0
            elif tag == "rPh":
                depth["rPh"] += 1
            elif tag == "t":
                state["in_t"] = depth["rPh"] == 0

        def end(name: str) -> None:
            tag = _local(name)
            if tag == "si":
                out.append("".join(pieces) if size <= MAX_CELL_CHARS else None)
            elif tag == "rPh":
                depth["rPh"] -= 1
            elif tag == "t":
                state["in_t"] = False

        def text(data: str) -> None:
            nonlocal size
            if state["in_t"]:
                size += len(data)
                if size <= MAX_CELL_CHARS:
                    pieces.append(data)

        xml = _Xml(self.zf, part, MAX_WORKBOOK_PART_BYTES, self.label)
        xml.parser.StartElementHandler = start
        xml.parser.EndElementHandler = end
        xml.parser.CharacterDataHandler = text
        xml.run()
        return out

    def _date_styles(self, part: str) -> frozenset[int]:
        """The cell styles (indexes of ``cellXfs``) whose number format is a date's."""
        if not part or part not in self.names:
            return frozenset()
        custom: dict[int, str] = {}
        formats: list[int] = []
        where = {"xfs": False}

        def start(name: str, attrs: dict[str, str]) -> None:
            tag = _local(name)
            if tag == "numFmt":
                with contextlib.suppress(ValueError):
                    custom[int(attrs.get("numFmtId", ""))] = attrs.get("formatCode", "")
            elif tag == "cellXfs":
                where["xfs"] = True
            elif tag == "xf" and where["xfs"]:
                try:
                    formats.append(int(attrs.get("numFmtId", "0")))
                except ValueError:
                    formats.append(0)

        def end(name: str) -> None:
            if _local(name) == "cellXfs":
                where["xfs"] = False

        xml = _Xml(self.zf, part, MAX_WORKBOOK_PART_BYTES, self.label)
        xml.parser.StartElementHandler = start
        xml.parser.EndElementHandler = end
        xml.run()
        return frozenset(i for i, f in enumerate(formats)
                         if f in _DATE_FORMAT_IDS or (f in custom and _is_date_format(custom[f])))

    # --- a worksheet -----------------------------------------------------------------

    def merged(self, sheet: Sheet, file: str, pending: list[Diagnostic]
               ) -> dict[int, list[tuple[int, int]]]:
        """The merged ranges of a worksheet, ``{first row: [(column, last row)]}`` (they are
        written after the rows, so the part is scanned for them first)."""
        out: dict[int, list[tuple[int, int]]] = {}
        count = 0
        carry = b""
        total = 0
        with self.zf.open(sheet.part) as fh:
            while True:
                block = fh.read(_CHUNK)
                if not block:
                    break
                total += len(block)
                if total > MAX_WORKSHEET_BYTES:
                    break  # (the rows' reader says so)
                data = carry + block
                if b"mergeCell" in data:
                    last = 0
                    for m in _MERGE.finditer(data):
                        last = m.end()
                        first = split_ref(m.group(1).decode())
                        end = split_ref((m.group(2) or m.group(1)).decode())
                        if first is None or end is None or end[0] <= first[0]:
                            continue
                        count += 1
                        if count > MAX_MERGED_RANGES:
                            pending.append(Diagnostic.make(
                                Code.LIMIT_EXCEEDED, exceeded(
                                    Msg("the worksheet has more than"), "MAX_MERGED_RANGES",
                                    Msg("merged ranges; the others are read as blank cells")),
                                file=file))
                            return out
                        out.setdefault(first[0], []).append((first[1], end[0]))
                    carry = data[max(last, len(data) - 200):]
                else:
                    carry = data[-200:]
        return out

    def rows(self, sheet: Sheet, file: str, pending: list[Diagnostic], *,
             merges: bool = True) -> Iterator[Row]:
        """The rows of a worksheet as they are parsed. What stops the sheet (a limit, XML
        that is not well-formed) goes to ``pending``: the rows before it stay read.
        ``merges``: fill in the merged cells (which takes a first pass over the part)."""
        try:
            merged = self.merged(sheet, file, pending) if merges else {}
            yield from _SheetRows(self, sheet, file, merged).rows()
        except BookError as err:
            pending.append(Diagnostic.make(err.code, err.message, file=file))
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as err:
            pending.append(Diagnostic.make(
                Code.SHEET_NOT_A_SHEET, Msg("the worksheet cannot be read to its end: {err}",
                                            err=str(err) or type(err).__name__), file=file))

    # --- cells -----------------------------------------------------------------------

    def number_text(self, raw: str, style: int) -> str:
        """A number cell as the sheet reader takes it: a date when its style is a date's."""
        raw = raw.strip()
        if style not in self.date_styles and len(raw) < 19 and (raw.isdigit() or (
                raw[:1] == "-" and raw[1:].isdigit())) and raw.lstrip("-")[:1] != "0":
            return raw  # (the usual case: a whole number, written as it reads)
        try:
            value: float = int(raw) if "." not in raw and "e" not in raw and "E" not in raw \
                else float(raw)
        except ValueError:
            return raw
        if style in self.date_styles and 0 <= value <= _LAST_SERIAL:
            return self.date_text(float(value))
        if isinstance(value, int):
            return str(value)
        if value != value or value in (float("inf"), float("-inf")):
            return raw
        if value.is_integer():
            return str(int(value))
        return f"{value:.6f}".rstrip("0")

    def date_text(self, serial: float) -> str:
        """A date serial as a date (with its time when it has one)."""
        if serial < 1 and not self.date1904:
            seconds = round(serial * 86400)
            return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        if not self.date1904 and serial < 60:
            serial += 1  # (the 29th of February 1900 Excel counts, that never was)
        moment = (_EPOCH_1904 if self.date1904 else _EPOCH_1900) + timedelta(
            seconds=round(serial * 86400))
        if moment.time() == datetime.min.time():
            return moment.date().isoformat()
        return moment.isoformat(" ")


def _iso_date_text(raw: str) -> str:
    """A cell of type ``d`` (an ISO 8601 date or time) as the sheet reader takes it."""
    try:
        moment = datetime.fromisoformat(raw.strip().rstrip("Z"))
    except ValueError:
        return raw
    if moment.time() == datetime.min.time():
        return date(moment.year, moment.month, moment.day).isoformat()
    return moment.isoformat(" ")


class _SheetRows:
    """One worksheet's rows, parsed as the part is decompressed."""

    def __init__(self, book: Book, sheet: Sheet, file: str,
                 merges: dict[int, list[tuple[int, int]]]) -> None:
        self.book = book
        self.sheet = sheet
        self.file = file
        self.merges = merges
        self.active: list[tuple[int, int, str]] = []
        """Merged ranges being filled: (column, last row, value)."""
        self.done: list[Row] = []

    def rows(self) -> Iterator[Row]:
        book, file = self.book, self.file
        strings = book.strings
        xml = _Xml(book.zf, self.sheet.part, MAX_WORKSHEET_BYTES, book.label)
        parser = xml.parser
        done = self.done
        cells: dict[int, str] = {}
        faults: list[Diagnostic] = []
        row_number = 0
        row_count = 0
        col = 0
        kind = ""
        style = 0
        row_flags = 0
        value: list[str] = []
        value_size = 0
        formula: list[str] = []
        has_value = False
        has_formula = False
        target: list[str] | None = None  # where the text goes: the value, the formula
        in_rph = 0
        row_size = 0
        stop: list[BookError] = []
        columns: dict[str, int] = {}
        date_styles = book.date_styles
        number_text = book.number_text

        def start(name: str, attrs: dict[str, str]) -> None:
            nonlocal row_number, row_count, col, kind, style, value_size, has_value
            nonlocal has_formula, target, in_rph, row_size, row_flags
            tag = name if ":" not in name else _local(name)
            if tag == "c":
                r = attrs.get("r")
                if r:
                    letters = r.rstrip(_DIGITS)
                    at = columns.get(letters)
                    if at is None:
                        where = split_ref(r)
                        at = where[1] if where else col + 1
                        if len(columns) < 1000 and where:
                            columns[letters] = at
                    col = at
                else:
                    col += 1
                kind = attrs.get("t", "n")
                s = attrs.get("s")
                style = int(s) if s and s.isdigit() else 0
                value.clear()
                formula.clear()
                value_size = 0
                has_value = has_formula = False
                target = None
            elif tag == "v":
                has_value = True
                target = value
            elif tag == "t":
                if kind == "inlineStr" and not in_rph:
                    has_value = True
                    target = value
            elif tag == "f":
                has_formula = True
                target = formula
            elif tag == "rPh":
                in_rph += 1
            elif tag == "row":
                r = attrs.get("r", "")
                row_number = int(r) if r.isdigit() and len(r) < 9 else row_number + 1
                row_count += 1
                if row_number > MAX_SHEET_ROWS or row_count > MAX_SHEET_ROWS:
                    raise BookError(exceeded(Msg("the worksheet has more than"),
                                             "MAX_SHEET_ROWS", Msg("rows; the rest is not read")),
                                    Code.LIMIT_EXCEEDED)
                cells.clear()
                faults.clear()
                row_size = row_flags = 0
                col = 0

        def text(data: str) -> None:
            nonlocal value_size
            if target is None:
                return
            if target is value:
                value_size += len(data)
                if value_size > MAX_CELL_CHARS:
                    return
            elif sum(map(len, target)) > 200:
                return
            target.append(data)

        def end(name: str) -> None:
            nonlocal target, in_rph, row_size, row_flags
            tag = name if ":" not in name else _local(name)
            if tag in ("v", "t", "f"):
                target = None
            elif tag == "rPh":
                in_rph -= 1
            elif tag == "c":
                if has_formula or not has_value or value_size > MAX_CELL_CHARS:
                    got = self.cell(row_number, col, kind, style, value, value_size,
                                    has_value, has_formula, formula, strings, faults)
                elif kind == "n" and style not in date_styles:
                    got = number_text("".join(value), style)
                elif kind == "s" and len(value) == 1 and value[0].isdigit() and int(
                        value[0]) < len(strings) and strings[int(value[0])] is not None:
                    got = strings[int(value[0])] or ""
                else:
                    got = self.cell(row_number, col, kind, style, value, value_size,
                                    has_value, has_formula, formula, strings, faults)
                if not got:
                    return
                if col > MAX_SHEET_COLUMNS:
                    if not row_flags & _PAST_COLUMNS:
                        row_flags |= _PAST_COLUMNS
                        faults.append(Diagnostic.make(
                            Code.LIMIT_EXCEEDED, exceeded(
                                Msg("cell {ref} is past the column",
                                    ref=f"{column_name(col)}{row_number}"),
                                "MAX_SHEET_COLUMNS", Msg("of a worksheet; it is not read")),
                            file=file, line=row_number))
                    return
                row_size += len(got)
                if row_size > MAX_RECORD_CHARS:
                    row_flags |= _TOO_LONG
                    cells.clear()
                    return
                cells[col] = got
            elif tag == "row":
                if row_flags & _TOO_LONG:
                    done.append(Row(row_number, (), (Diagnostic.make(
                        Code.LIMIT_EXCEEDED, exceeded(Msg("this row has more than"),
                                                      "MAX_RECORD_CHARS",
                                                      Msg("characters; it is not read")),
                        file=file, line=row_number),)))
                    return
                done.append(self.row(row_number, cells, faults))

        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CharacterDataHandler = text
        try:
            for _ in xml.chunks():
                if done:
                    yield from done
                    done.clear()
        except BookError as err:
            stop.append(err)
        yield from done
        done.clear()
        if stop:
            raise stop[0]

    def cell(self, line: int, at: int, kind: str, style: int, value: list[str],
             value_size: int, has_value: bool, has_formula: bool, formula: list[str],
             strings: list[str | None], faults: list[Diagnostic]) -> str:
        """The text of a cell just parsed ("" when blank or not read; faults noted)."""
        file = self.file
        raw = "".join(value)
        if not (has_value or has_formula):
            return ""
        ref = f"{column_name(at)}{line}"
        if has_formula and (not has_value or (not raw and kind != "str")):
            shown = "".join(formula).strip()
            faults.append(Diagnostic.make(
                Code.SHEET_BAD_CELL, Msg("cell {ref} holds a formula ({formula}) whose value the"
                                         " workbook does not store (it was saved by a program"
                                         " that computes nothing): its score cannot be"
                                         " trusted; open the file in a spreadsheet program and"
                                         " save it again", ref=ref,
                                         formula=quote("=" + shown) if shown
                                         else Msg("shared with the cells above")),
                file=file, line=line, col=at))
            return ""
        if not has_value:
            return ""
        def too_long() -> Diagnostic:  # (made only when said)
            return Diagnostic.make(
                Code.LIMIT_EXCEEDED, exceeded(Msg("cell {ref} has more than", ref=ref),
                                              "MAX_CELL_CHARS",
                                              Msg("characters; it is not read")),
                file=file, line=line, col=at)

        if value_size > MAX_CELL_CHARS:
            faults.append(too_long())
            return ""
        if kind == "s":
            try:
                got = strings[int(raw)]
            except (ValueError, IndexError):
                faults.append(Diagnostic.make(
                    Code.SHEET_BAD_CELL, Msg("cell {ref} refers to the shared text {raw}, which"
                                             " the workbook does not hold", ref=ref,
                                             raw=quote(raw)),
                    file=file, line=line, col=at))
                return ""
            if got is None:
                faults.append(too_long())
                return ""
            return got
        if kind in ("str", "inlineStr", "e"):
            return raw
        if kind == "b":
            return "oui" if raw.strip() in ("1", "true") else "non"
        if kind == "d":
            return _iso_date_text(raw)
        return self.book.number_text(raw, style)

    def row(self, number: int, cells: dict[int, str],
            faults: list[Diagnostic]) -> Row:
        """The row's cells in order, the merged ranges' values filled in."""
        active = self.active
        if active:
            active[:] = [a for a in active if a[1] >= number]
            for col, _, val in active:
                if not cells.get(col, "").strip():
                    cells[col] = val
        for col, last in self.merges.pop(number, ()):
            active.append((col, last, cells.get(col, "")))
        width = max(cells) if cells else 0
        out = [""] * width
        for col, text in cells.items():
            out[col - 1] = text
        while out and not out[-1].strip():
            out.pop()
        return Row(number, tuple(out), tuple(faults))

