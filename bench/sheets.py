"""A score sheet of N rows as CSV and as an Excel workbook: `tarot validate` of each, timed.

Run: ``python bench/sheets.py [--rows 1000000] [--keep DIR]``.

The rows are those of ``examples/sheets/club-evening.csv`` (five players, names, dates,
decimal commas), repeated and numbered 1…N. The workbook holds the same cells as Excel
stores them (numbers as numbers, the date as a date serial with a date format, text in the
shared strings), written here with :mod:`zipfile` (openpyxl takes minutes for a million
rows). Each file is validated by ``tarot validate -q`` in its own process; the table gives
the wall and CPU time and the peak RSS (``ru_maxrss`` of that process), and the ratio of the
workbook's time to the CSV's.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
EVENING = ROOT / "examples" / "sheets" / "club-evening.csv"
TAROT = Path(sys.executable).parent / "tarot"


def _rows(n: int) -> tuple[list[str], list[list[str]]]:
    lines = EVENING.read_text(encoding="utf-8-sig").splitlines()
    header = lines[0].split(";")
    body = [line.split(";") for line in lines[1:] if line.strip()]
    out = []
    for i in range(n):
        cells = list(body[i % len(body)])
        cells[1] = str(i + 1)
        out.append(cells)
    return header, out


def write_csv(path: Path, n: int) -> None:
    header, rows = _rows(n)
    with path.open("w", encoding="utf-8", newline="") as fh:
        fh.write(";".join(header) + "\n")
        for cells in rows:
            fh.write(";".join(cells) + "\n")


def _col(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


_CONTENT = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas'
            '.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType'
            '="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml"'
            ' ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="ap'
            'plication/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
            'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-offi'
            'cedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentT'
            'ype="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Overri'
            'de PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-offic'
            'edocument.spreadsheetml.sharedStrings+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlfor'
         'mats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openx'
         'mlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml'
         '"/></Relationships>')
_BOOK = ('<?xml version="1.0" encoding="UTF-8"?>\n<workbook xmlns="http://schemas.openxmlformats.'
         'org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
         '2006/relationships"><sheets><sheet name="Soirées" sheetId="1" r:id="rId1"/></sheets></w'
         'orkbook>')
_BOOK_RELS = ('<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openx'
              'mlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://sch'
              'emas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="works'
              'heets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org'
              '/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="'
              'rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sh'
              'aredStrings" Target="sharedStrings.xml"/></Relationships>')
_STYLES = ('<?xml version="1.0" encoding="UTF-8"?>\n<styleSheet xmlns="http://schemas.openxmlform'
           'ats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14'
           '" applyNumberFormat="1"/></cellXfs></styleSheet>')


def write_xlsx(path: Path, n: int) -> None:
    header, rows = _rows(n)
    strings: dict[str, int] = {}

    def shared(text: str) -> int:
        return strings.setdefault(text, len(strings))

    epoch = datetime.date(1899, 12, 30)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT)
        zf.writestr("_rels/.rels", _RELS)
        zf.writestr("xl/workbook.xml", _BOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _BOOK_RELS)
        zf.writestr("xl/styles.xml", _STYLES)
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="http://schemas'
                      b'.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            for r, cells in enumerate([header, *rows], 1):
                parts = [f'<row r="{r}">']
                for c, text in enumerate(cells):
                    ref = f"{_col(c)}{r}"
                    if not text:
                        continue
                    if r > 1 and c == 0:
                        serial = (datetime.date.fromisoformat(text) - epoch).days
                        parts.append(f'<c r="{ref}" s="1"><v>{serial}</v></c>')
                    elif r > 1 and text.lstrip("-").replace(",", "", 1).isdigit():
                        parts.append(f'<c r="{ref}"><v>{text.replace(",", ".")}</v></c>')
                    else:
                        parts.append(f'<c r="{ref}" t="s"><v>{shared(text)}</v></c>')
                parts.append("</row>")
                out.write("".join(parts).encode())
            out.write(b"</sheetData></worksheet>")
        items = "".join(f"<si><t>{escape(s)}</t></si>" for s in strings)
        zf.writestr("xl/sharedStrings.xml",
                    '<?xml version="1.0" encoding="UTF-8"?>\n<sst xmlns="http://schemas.openxmlf'
                    f'ormats.org/spreadsheetml/2006/main" count="{len(strings)}" uniqueCount='
                    f'"{len(strings)}">{items}</sst>')


_WRAPPER = """
import resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
wall = time.perf_counter() - t
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(done.returncode, wall, used.ru_utime + used.ru_stime, used.ru_maxrss)
"""


def measure(path: Path) -> tuple[int, float, float, float]:
    """``tarot validate -q PATH``: its exit status, wall time and CPU time (s: on a shared
    machine the CPU time is the one to compare) and peak RSS (MB)."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER, str(TAROT), "validate", "-q",
                          str(path)], capture_output=True, text=True, check=True).stdout
    status, wall, cpu, rss = out.split()
    return int(status), float(wall), float(cpu), int(rss) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--keep", type=Path, help="write the files here (kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{'rows':>10} {'file':>6} {'MB':>7} {'status':>6} {'wall s':>8} {'CPU s':>8}"
              f" {'peak MB':>8}")
        for n in args.rows:
            csv_path, xlsx_path = folder / f"sheet-{n}.csv", folder / f"sheet-{n}.xlsx"
            write_csv(csv_path, n)
            write_xlsx(xlsx_path, n)
            cpus = []
            for path in (csv_path, xlsx_path):
                status, wall, cpu, rss = measure(path)
                cpus.append(cpu)
                size = path.stat().st_size / 1e6
                print(f"{n:>10,} {path.suffix[1:]:>6} {size:>7.1f} {status:>6} {wall:>8.1f}"
                      f" {cpu:>8.1f} {rss:>8.0f}", flush=True)
            print(f"{'':>10} xlsx/csv CPU time {cpus[1] / cpus[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
