"""Excel score sheets (.xlsx): one session a worksheet, faults at the
worksheet's row and column, tabs that are no sheet left out with a warning."""

from __future__ import annotations

import builtins
import datetime
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tarotnotation import archive
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.formats import csvsheet, xlsx

openpyxl = pytest.importorskip("openpyxl")

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "examples" / "sheets" / "club-season.xlsx"
TAROT = Path(sys.executable).parent / "tarot"  # the installed script, as test_cli


def _book(*tabs: tuple[str, list[list[Any]]]) -> bytes:
    book = openpyxl.Workbook()
    for i, (title, rows) in enumerate(tabs):
        sheet = book.active if i == 0 else book.create_sheet()
        sheet.title = title
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


HEADER = ["Donne", "Date", "Preneur", "Contrat", "Points", "Bouts", "Alice", "Bruno",
          "Chloé", "David"]


def test_the_example_season_reads_one_session_a_tab() -> None:
    assert archive.format_of(SEASON) == "xlsx"
    deals = list(archive.read_path(SEASON))
    assert len(deals) == 16
    assert [d.index for d in deals] == list(range(1, 17))
    assert {d.record.tag("Event") for d in deals if d.record} == {"Octobre", "Novembre"}
    for d in deals:
        assert d.record is not None
        assert d.diagnostics == ()
        assert d.replay().diagnostics == ()
        assert d.record.tag("Date") is not None
    # Read back from CSV, the same records.
    records = [d.record for d in deals if d.record is not None]
    back = [d.record for d in csvsheet.read(csvsheet.dumps(records[:8]), name="o.csv")]
    assert back == records[:8]


def test_faults_are_at_the_worksheet_row_and_column() -> None:
    data = _book(("Novembre", [
        HEADER,
        [1, datetime.date(2026, 11, 19), "Alice", "Garde", 48, 2, 192, -64, -64, -64],
        [2, datetime.datetime(2026, 11, 19), "Bruno", "Prise", 40.5, 1, -42, 126, -42, -42],
        [3, "hier", "Chloé", "Garde", "beaucoup", 2, 1, 2, 3, 4],
    ]))
    deals = list(xlsx.read(data, name="club.xlsx"))
    assert [d.record.tag("Date") for d in deals if d.record] == [
        "2026.11.19", "2026.11.19", None]
    assert deals[1].record is not None
    assert deals[1].record.result is not None
    assert str(deals[1].record.result.taker_points) == "40.5"
    where = [str(x).split(": ")[0] + ":" + x.code.value for d in deals
             for x in (*d.diagnostics, *d.replay().diagnostics)]
    assert "club.xlsx[Novembre]:3:7:R101" in where  # Alice's score in row 3, column G
    assert "club.xlsx[Novembre]:4:2:C102" in where  # the date "hier", B4
    assert "club.xlsx[Novembre]:4:5:C102" in where  # the points, E4


def test_tabs_that_are_no_sheet_are_left_out_with_a_warning() -> None:
    data = _book(("Stats", [["Joueur", "Moyenne"], ["Alice", 3.5]]),
                 ("Jeudi", [HEADER, [1, None, "Alice", "Garde", 48, 2, 192, -64, -64, -64]]))
    [deal] = list(xlsx.read(data, name="club.xlsx"))
    assert deal.record is not None
    [warned] = deal.diagnostics
    assert (warned.code, warned.severity) == (Code.SHEET_NOT_A_SHEET, Severity.WARNING)
    assert warned.location.file == "club.xlsx[Stats]"
    assert deal.record.tag("Event") is None  # one score sheet: no tab name needed
    nothing = list(xlsx.read(_book(("Stats", [["Joueur", "Moyenne"]])), name="s.xlsx"))
    assert [(d.record, [(x.code, x.severity) for x in d.diagnostics]) for d in nothing] == [
        (None, [(Code.SHEET_NOT_A_SHEET, Severity.WARNING),  # the tab
                (Code.SHEET_NOT_A_SHEET, Severity.ERROR)])]  # the workbook: no sheet


def test_a_broken_workbook_is_one_unreadable_deal(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(SEASON.read_bytes()[:2000])
    [deal] = list(archive.read_path(broken))
    assert deal.record is None
    assert deal.diagnostics[0].code is Code.SHEET_NOT_A_SHEET
    assert "not a readable .xlsx workbook" in deal.diagnostics[0].message


def test_a_workbook_reads_without_openpyxl(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader is the standard library's zipfile and expat (openpyxl, which the tests
    write workbooks with, could bound neither a part's bytes nor a cell's length)."""
    real = builtins.__import__

    def no_openpyxl(name: str, *args: Any, **kw: Any) -> Any:
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    deals = list(xlsx.read(SEASON))
    assert len(deals) == 16
    assert all(d.record is not None and not d.diagnostics for d in deals)


@pytest.mark.process
def test_the_command_line_reads_a_workbook(tmp_path: Path) -> None:
    exe = str(TAROT)
    ran = subprocess.run([exe, "validate", "-v", str(SEASON)], capture_output=True,
                         check=False)
    assert ran.returncode == 0, ran.stdout
    assert b"read as an Excel workbook of score sheets" in ran.stderr
    assert ran.stdout.startswith(b"16 deals read from 1 file: 16 valid")
    out = tmp_path / "season.tarot"
    ran = subprocess.run([sys.executable, "-m", "tarotnotation", "convert", str(SEASON),
                          "-o", str(out)], capture_output=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert out.read_text(encoding="utf-8").count("result:") == 16


# --- issue 31: spreadsheet bombs, formulas without values, merged cells, hidden tabs ------

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def _raw_book(sheet: str | bytes, *, strings: str | bytes | None = None,
              styles: str | bytes | None = None, extra: dict[str, str] | None = None) -> bytes:
    """A workbook written part by part (what openpyxl will not write: bombs)."""
    import zipfile

    rels = [f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>']
    if strings is not None:
        rels.append(f'<Relationship Id="rId2" Type="{_REL}/sharedStrings"'
                    ' Target="sharedStrings.xml"/>')
    if styles is not None:
        rels.append(f'<Relationship Id="rId3" Type="{_REL}/styles" Target="styles.xml"/>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("_rels/.rels", f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1"'
                    f' Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        zf.writestr("xl/workbook.xml", f'<workbook {_NS} xmlns:r="{_REL}"><sheets><sheet'
                    ' name="Jeudi" sheetId="1" r:id="rId1"/></sheets></workbook>')
        zf.writestr("xl/_rels/workbook.xml.rels",
                    f'<Relationships xmlns="{_PKG}">{"".join(rels)}</Relationships>')
        zf.writestr("xl/worksheets/sheet1.xml", sheet)
        if strings is not None:
            zf.writestr("xl/sharedStrings.xml", strings)
        if styles is not None:
            zf.writestr("xl/styles.xml", styles)
        for name, text in (extra or {}).items():
            zf.writestr(name, text)
    return out.getvalue()


def _inline_row(number: int, cells: list[Any]) -> str:
    from tarotnotation.formats.sheet import column_name

    out = []
    for i, value in enumerate(cells, 1):
        ref = f"{column_name(i)}{number}"
        if isinstance(value, int):
            out.append(f'<c r="{ref}"><v>{value}</v></c>')
        else:
            out.append(f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>')
    return f'<row r="{number}">{"".join(out)}</row>'


_GOOD = [1, "", "Alice", "Garde", 48, 2, 192, -64, -64, -64]


def _sheet(*rows: str, before: str = "", after: str = "") -> str:
    return (f"<worksheet {_NS}>{before}<sheetData>{_inline_row(1, HEADER)}{''.join(rows)}"
            f"</sheetData>{after}</worksheet>")


def _codes(deals: list[Any]) -> list[tuple[str, str]]:
    return [(x.code.value, x.message) for d in deals for x in d.diagnostics]


def test_a_one_cell_bomb_is_read_within_max_cell_chars() -> None:
    """The issue's 1 MB workbook holding a 1 GiB cell: the cell is not read past
    MAX_CELL_CHARS (L001 naming the cell and the limit) and the row's other cells are."""
    bomb = _raw_book(_sheet(_inline_row(2, [*_GOOD[:9], "x" * 100_000]),
                            _inline_row(3, _GOOD)))
    deal, after = list(xlsx.read(bomb, name="bomb.xlsx"))
    assert deal.record is not None
    assert after.record is not None
    assert not after.diagnostics
    [limit] = [x for x in deal.diagnostics if x.code is Code.LIMIT_EXCEEDED]
    assert "cell J2 has more than 32,767 characters" in limit.message
    assert "MAX_CELL_CHARS" in limit.message
    where = limit.location
    assert (where.file, where.line, where.col) == ("bomb.xlsx[Jeudi]", 2, 10)


def test_a_shared_string_bomb_is_read_within_max_cell_chars() -> None:
    strings = f'<sst {_NS}><si><t>Alice</t></si><si><t>{"y" * 50_000}</t></si></sst>'
    numbers = "".join(f'<c r="{c}2"><v>{v}</v></c>'
                      for c, v in zip("EFGHIJ", (48, 2, 192, -64, -64, -64), strict=True))
    sheet = _sheet('<row r="2"><c r="A2"><v>1</v></c><c r="C2" t="s"><v>0</v></c>'
                   f'<c r="D2" t="s"><v>1</v></c>{numbers}</row>')
    deals = list(xlsx.read(_raw_book(sheet, strings=strings), name="s.xlsx"))
    assert any(c == "L001" and "cell D2 has more than 32,767" in m for c, m in _codes(deals))


def test_a_part_padded_past_max_workbook_part_bytes_is_not_read() -> None:
    """The shared strings padded with 17 MiB of blanks (a few KiB compressed)."""
    strings = f'<sst {_NS}><si><t>Alice</t></si>' + " " * (17 << 20) + "</sst>"
    deals = list(xlsx.read(_raw_book(_sheet(), strings=strings), name="pad.xlsx"))
    [deal] = deals
    assert deal.record is None
    [(code, message)] = _codes(deals)
    assert code == "L001"
    assert "sharedStrings.xml has more than 16,777,216 bytes" in message
    assert "MAX_WORKBOOK_PART_BYTES" in message


def test_a_worksheet_padded_past_max_worksheet_bytes_stops_there(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet padded with blanks past its limit (1 GiB; 1 MiB here, so the test is
    quick): the rows before are read, and L001 says where it stopped."""
    from tarotnotation.formats import workbook

    monkeypatch.setattr(workbook, "MAX_WORKSHEET_BYTES", 1 << 20)
    sheet = _sheet(_inline_row(2, _GOOD), " " * (2 << 20), _inline_row(3, _GOOD))
    deals = list(xlsx.read(_raw_book(sheet), name="pad.xlsx"))
    assert [d.index for d in deals if d.record] == [1]
    assert [c for c, _ in _codes(deals)] == ["L001"]
    assert "MAX_WORKSHEET_BYTES" in _codes(deals)[0][1]


def test_a_comment_past_max_xml_token_bytes_is_not_held() -> None:
    """The issue's 2.1 GB comment in styles.xml (2 MiB here): expat would hold it whole."""
    styles = f"<styleSheet {_NS}><!--{'z' * (2 << 20)}--></styleSheet>"
    deals = list(xlsx.read(_raw_book(_sheet(), styles=styles), name="c.xlsx"))
    [(code, message)] = _codes(deals)
    assert code == "L001"
    assert "MAX_XML_TOKEN_BYTES" in message


def test_a_document_type_is_refused() -> None:
    """Entities are where XML bombs live: no workbook declares a document type."""
    sheet = ('<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
             + _sheet(_inline_row(2, [*_GOOD[:9], "&b;"])))
    deals = list(xlsx.read(_raw_book(sheet), name="dtd.xlsx"))
    assert any("declares a document type" in m for _, m in _codes(deals))


def test_rows_past_max_sheet_rows_are_not_read() -> None:
    sheet = _sheet(_inline_row(2, _GOOD), _inline_row(1_048_577, _GOOD))
    deals = list(xlsx.read(_raw_book(sheet), name="far.xlsx"))
    assert [d.index for d in deals if d.record] == [1]
    [(code, message)] = _codes(deals)
    assert code == "L001"
    assert "more than 1,048,576 rows" in message


def test_a_row_past_max_record_chars_is_left_out() -> None:
    long_row = _inline_row(3, [*_GOOD, *(["w" * 30_000] * 40)])
    deals = list(xlsx.read(_raw_book(_sheet(_inline_row(2, _GOOD), long_row,
                                            _inline_row(4, _GOOD))), name="l.xlsx"))
    assert [d.index for d in deals if d.record] == [1, 2]
    [(code, message)] = _codes(deals)
    assert code == "L001"
    assert "this row has more than 1,048,576 characters" in message
    assert deals[1].diagnostics[0].location.line == 3


def test_formulas_with_no_cached_value_are_errors_naming_each_cell() -> None:
    """openpyxl writes formulas without computing them: the scores are not on file."""
    data = _book(("Jeudi", [
        HEADER,
        [1, None, "Alice", "Garde", 48, 2, 192, -64, -64, -64],
        [2, None, "Bruno", "Prise", 56, 1, "=-G3/3", "=3*27", "=-G3/3", "=-G3/3"],
    ]))
    deals = list(xlsx.read(data, name="f.xlsx"))
    faults = [(x.code, x.severity, x.location.line, x.location.col, x.message)
              for x in deals[1].diagnostics if x.code is Code.SHEET_BAD_CELL]
    assert [(c, s, line, col) for c, s, line, col, _ in faults] == [
        (Code.SHEET_BAD_CELL, Severity.ERROR, 3, col) for col in (7, 8, 9, 10)]
    assert "cell G3 holds a formula ('=-G3/3') whose value the workbook does not store" in (
        faults[0][4])
    assert not deals[0].diagnostics


def test_a_merged_cell_belongs_to_every_row_it_covers() -> None:
    """A date merged down B2:B4 dates the three deals, not only the first."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Jeudi"
    sheet.append(HEADER)
    for n in (1, 2, 3):
        sheet.append([n, datetime.date(2026, 11, 19) if n == 1 else None, "Alice", "Garde",
                      48, 2, 192, -64, -64, -64])
    sheet.append([4, datetime.date(2026, 11, 26), "Alice", "Garde", 48, 2, 192, -64, -64, -64])
    sheet.merge_cells("B2:B4")
    out = io.BytesIO()
    book.save(out)
    deals = list(xlsx.read(out.getvalue(), name="m.xlsx"))
    assert [d.record.tag("Date") for d in deals if d.record] == [
        "2026.11.19", "2026.11.19", "2026.11.19", "2026.11.26"]


def test_hidden_worksheets_are_skipped_and_said_once() -> None:
    book = openpyxl.Workbook()
    shown = book.active
    shown.title = "Jeudi"
    shown.append(HEADER)
    shown.append([1, None, "Alice", "Garde", 48, 2, 192, -64, -64, -64])
    for title in ("Brouillon", "Essais"):
        hidden = book.create_sheet(title)
        hidden.append(HEADER)
        hidden.append([1, None, "Alice", "Garde", 48, 2, 1, 2, 3, 4])
        hidden.sheet_state = "hidden"
    out = io.BytesIO()
    book.save(out)
    deals = list(xlsx.read(out.getvalue(), name="h.xlsx"))
    assert len(deals) == 1
    [said] = deals[0].diagnostics
    assert (said.code, said.severity) == (Code.SHEET_NOT_A_SHEET, Severity.WARNING)
    assert said.message.startswith("hidden worksheets are left out: 'Brouillon' and 'Essais'")
    assert deals[0].record is not None
    assert deals[0].record.tag("Event") is None  # one sheet read: no tab name needed


def test_the_rows_read_are_openpyxls() -> None:
    """The reader against openpyxl's own reading of the same cells (numbers, dates, times,
    booleans, text), as the sheet reader took them before."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Date", "x", 1.5, True, False, -3, 0.1 + 0.2,
                  datetime.datetime(2026, 1, 2, 3, 4, 5), datetime.date(1900, 1, 5), 1e20,
                  "  sp ", 40.5, "40,5", 7])
    out = io.BytesIO()
    book.save(out)
    import zipfile

    from tarotnotation.formats.workbook import Book

    book_read = Book(zipfile.ZipFile(out), "t.xlsx")
    rows = [r.cells for r in book_read.rows(book_read.sheets[0], "t.xlsx", [])]
    assert rows == [(
        "Date", "x", "1.5", "oui", "non", "-3", "0.3", "2026-01-02 03:04:05", "1900-01-05",
        "100000000000000000000", "  sp ", "40.5", "40,5", "7")]


def test_a_worksheets_rows_are_read_in_flat_memory() -> None:
    """The rows are yielded as the part is parsed: the memory held while reading 10,000
    rows is that of 1,000 (openpyxl's reader grew with the rows: 50 -> 185 MB at 200,000,
    700 bytes a row; a reader that keeps the rows it yielded holds 6 MB here, and one that
    keeps 45 bytes a row or more fails the bound)."""
    import tracemalloc
    import zipfile

    from tarotnotation.formats.workbook import Book

    def peak(rows: int) -> int:
        sheet = _sheet(*(_inline_row(n, [n - 1, *_GOOD[1:]]) for n in range(2, rows + 2)))
        book = Book(zipfile.ZipFile(io.BytesIO(_raw_book(sheet))), "big.xlsx")
        tracemalloc.start()
        try:
            count = sum(1 for _ in book.rows(book.sheets[0], "big.xlsx", []))
            return tracemalloc.get_traced_memory()[1] if count == rows + 1 else -1
        finally:
            tracemalloc.stop()

    small, large = peak(1_000), peak(10_000)
    assert small > 0
    assert large > 0
    assert large < small * 1.5 + (256 << 10), (small, large)


def test_a_large_styles_part_is_no_bomb() -> None:
    """Parts bigger than MAX_XML_TOKEN_BYTES are read: only one piece of XML held whole
    is bounded (a workbook of many styles has a styles.xml of megabytes)."""
    xfs = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>' * 40_000
    styles = f'<styleSheet {_NS}><cellXfs count="40000">{xfs}</cellXfs></styleSheet>'
    assert len(styles) > 2 << 20
    deals = list(xlsx.read(_raw_book(_sheet(_inline_row(2, _GOOD)), styles=styles),
                           name="styles.xlsx"))
    assert [d.index for d in deals if d.record] == [1]
    assert _codes(deals) == []


def test_a_formula_without_its_value_is_no_player_sitting_out() -> None:
    """One score cell a formula with no value: the player played (C102 at the cell), the
    deal is not read as one without them ('not a player of this deal')."""
    data = _book(("Jeudi", [HEADER, [1, None, "Bruno", "Garde", 48, 2, -64, "=3*64", -64, -64]]))
    [deal] = list(xlsx.read(data, name="f.xlsx"))
    assert deal.record is not None
    assert [s.name for s in deal.record.seats] == ["Alice", "Bruno", "Chloé", "David"]
    assert [(x.code.value, x.location.col) for x in deal.diagnostics] == [("C102", 8)]
