"""Excel score sheets (.xlsx, the xlsx extra): one session a worksheet, faults at the
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

ROOT = Path(__file__).resolve().parents[1]
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


def test_without_openpyxl_the_workbook_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_openpyxl(name: str, *args: Any, **kw: Any) -> Any:
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    assert not xlsx.available()
    [deal] = list(xlsx.read(SEASON))
    assert deal.record is None
    assert "pip install 'tarotnotation[xlsx]'" in deal.diagnostics[0].message


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
