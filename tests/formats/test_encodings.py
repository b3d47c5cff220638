"""Encodings and line ends: UTF-8 with or without a BOM, LF or CRLF, read alike by every
reader; bytes that are not UTF-8 give one S007 error per record that holds them (the byte
offset, and the iconv command for Latin-1, cp1252 or UTF-16), and the rest goes on.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Final

import pytest
from typer.testing import CliRunner

from tarotnotation import notation
from tarotnotation.archive import check_paths
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.formats import json as tjson
from tarotnotation.formats import tarotclub
from tarotnotation.records import DealRecord
from tarotnotation.simulate import random_deal

BOM: Final = b"\xef\xbb\xbf"
RECS: Final = [random_deal(random.Random(s), (3, 4, 5)[s % 3]) for s in range(3)]
NAMED: Final = [r.model_copy(update={"tags": (("Event", f"Tournoi de Sète n°{i}"),)})
                for i, r in enumerate(RECS)]
TEXT: Final = notation.dumps(NAMED)


def _variants(data: bytes) -> dict[str, bytes]:
    crlf = data.replace(b"\n", b"\r\n")
    return {"lf": data, "crlf": crlf, "bom-lf": BOM + data, "bom-crlf": BOM + crlf}


@pytest.mark.parametrize("kind", ["lf", "crlf", "bom-lf", "bom-crlf"])
def test_text_reads_alike_with_any_line_end_and_bom(kind: str, tmp_path: Path) -> None:
    data = _variants(TEXT.encode("utf-8"))[kind]
    path = tmp_path / f"{kind}.tarot"
    path.write_bytes(data)
    for deals in (list(notation.read(path)), list(notation.read(io.BytesIO(data))),
                  list(notation.reads(data.decode("utf-8")))):
        assert [d.record for d in deals] == NAMED
        assert all(not d.diagnostics for d in deals)
    # offsets are byte offsets: seeking there finds the record's first tag
    for deal in notation.read(path):
        with path.open("rb") as fh:
            fh.seek(deal.offset or 0)
            assert fh.read(10).removeprefix(BOM).startswith(b"[Event ")


@pytest.mark.parametrize("kind", ["lf", "crlf", "bom-lf", "bom-crlf"])
def test_json_lines_and_documents_read_alike_with_any_line_end_and_bom(kind: str) -> None:
    lines = b"\n".join(tjson.dumps_bytes(r) for r in NAMED) + b"\n"
    doc = tjson.dumps_bytes(NAMED[0], indent=True)
    got = [d.record for d in tjson.read(_variants(lines)[kind])]
    assert got == NAMED
    [one] = list(tjson.read(_variants(doc)[kind]))
    assert one.record == NAMED[0]


@pytest.mark.parametrize("kind", ["lf", "crlf", "bom-lf", "bom-crlf"])
def test_tarotclub_reads_alike_with_any_line_end_and_bom(kind: str) -> None:
    data = tarotclub.dumps(RECS[1]).replace(b",", b",\n")
    deals = list(tarotclub.read(_variants(data)[kind]))
    assert [d.ok for d in deals] == [True], deals[0].diagnostics
    assert deals[0].record == tarotclub.loads(data)


def _latin1_archive() -> tuple[bytes, int, int]:
    """Three records; the second is Latin-1. Its offset of the first bad byte, its line."""
    parts = [notation.dumps(r).encode("utf-8") for r in NAMED]
    parts[1] = notation.dumps(NAMED[1]).encode("latin-1")
    data = b"\n".join(parts)
    start = len(parts[0]) + 1
    bad = start + parts[1].index(b"\xe8")
    line = data[:bad].count(b"\n") + 1
    return data, bad, line


def test_latin1_record_is_one_error_and_the_others_are_read() -> None:
    data, bad, line = _latin1_archive()
    deals = list(notation.read(io.BytesIO(data), name="club.tarot"))
    assert [d.record for d in deals] == [NAMED[0], None, NAMED[2]]
    [diag] = deals[1].diagnostics
    assert diag.code is Code.ENCODING
    assert diag.severity is Severity.ERROR
    assert diag.location.text_position() == f"club.tarot:{line}:21"
    assert f"byte 0xE8 at byte offset {bad} cannot be read" in diag.message
    assert "it reads as Latin-1 ('Sète')" in diag.message
    assert "iconv -f latin1 -t utf-8" in diag.message
    assert data[bad:bad + 1] == b"\xe8"


def test_cp1252_gets_the_cp1252_hint() -> None:
    data = '[Event "l’été à Sète"]\nresult: garde taker E\n'.encode("cp1252")
    [deal] = list(notation.read(io.BytesIO(data)))
    [diag] = deal.diagnostics
    assert diag.code is Code.ENCODING
    assert "byte 0x92 at byte offset 9" in diag.message
    assert "iconv -f cp1252 -t utf-8" in diag.message


def test_utf16_gets_the_utf16_hint() -> None:
    data = '[Event "x"]\nresult: garde taker E\n'.encode("utf-16")
    deals = list(notation.read(io.BytesIO(data)))
    assert deals[0].record is None
    assert deals[0].diagnostics[0].code is Code.ENCODING
    assert "iconv -f utf-16 -t utf-8" in deals[0].diagnostics[0].message


@pytest.mark.parametrize("junk", [b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\x81\xfe"])
def test_broken_utf8_without_a_plain_reading_gets_no_hint(junk: bytes) -> None:
    data = b'[Event "ab' + junk + b'cd"]\nresult: garde taker E\n'
    [deal] = list(notation.read(io.BytesIO(data)))
    [diag] = deal.diagnostics
    assert diag.code is Code.ENCODING
    assert "at byte offset 10 cannot be read" in diag.message
    assert "iconv" not in diag.message or junk == b"\xc3"  # Ã alone reads as Latin-1


def test_json_lines_latin1_line_is_one_error_and_the_others_are_read() -> None:
    lines = [tjson.dumps_bytes(r) for r in NAMED]
    lines[1] = lines[1].decode("utf-8").encode("latin-1")
    data = b"\n".join(lines) + b"\n"
    deals = list(tjson.read(data, name="a.jsonl"))
    assert [d.record for d in deals] == [NAMED[0], None, NAMED[2]]
    [diag] = deals[1].diagnostics
    assert diag.code is Code.ENCODING
    assert diag.location.line == 2
    offset = len(lines[0]) + 1 + lines[1].index(b"\xe8")
    assert f"byte 0xE8 at byte offset {offset} cannot be read" in diag.message
    assert "iconv -f latin1 -t utf-8" in diag.message


def test_json_lines_latin1_first_line_costs_only_itself() -> None:
    lines = [tjson.dumps_bytes(r) for r in NAMED]
    lines[0] = lines[0].decode("utf-8").encode("latin-1")
    deals = list(tjson.read(b"\n".join(lines), name="a.jsonl"))
    assert [d.record for d in deals] == [None, NAMED[1], NAMED[2]]
    assert deals[0].diagnostics[0].code is Code.ENCODING


def test_json_document_in_latin1_is_one_error() -> None:
    data = tjson.dumps_bytes(NAMED[0], indent=True).decode("utf-8").encode("latin-1")
    [deal] = list(tjson.read(data, name="a.json"))
    assert deal.record is None
    [diag] = deal.diagnostics
    assert diag.code is Code.ENCODING
    assert diag.location.path == "$"
    at = data.index(b"\xe8")
    assert f"at byte offset {at} cannot be read" in diag.message


def test_tarotclub_in_latin1_is_one_error() -> None:
    data = tarotclub.dumps(RECS[1]).replace(b'"version"', '"vérsion"'.encode("latin-1"))
    [deal] = list(tarotclub.read(data, name="t.json"))
    assert deal.record is None
    [diag] = deal.diagnostics
    assert diag.code is Code.ENCODING
    at = data.index(b"\xe9")
    assert f"at byte offset {at} cannot be read" in diag.message


def _folder(tmp_path: Path) -> Path:
    data, _, _ = _latin1_archive()
    (tmp_path / "a-latin1.tarot").write_bytes(data)
    (tmp_path / "b-good.tarot").write_text(notation.dumps(RECS), encoding="utf-8")
    lines = [tjson.dumps_bytes(r) for r in NAMED]
    lines[2] = lines[2].decode("utf-8").encode("latin-1")
    (tmp_path / "c-latin1.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return tmp_path


def test_archive_goes_on_past_files_that_are_not_utf8(tmp_path: Path) -> None:
    checked = list(check_paths([_folder(tmp_path)]))
    assert len(checked) == 9
    bad = [(Path(c.file).name, c.index) for c in checked if c.errors]
    assert bad == [("a-latin1.tarot", 2), ("c-latin1.jsonl", 3)]
    for c in checked:
        if c.errors:
            assert [d.code for d in c.diagnostics] == [Code.ENCODING]


def test_cli_validate_reports_the_encoding_and_goes_on(tmp_path: Path) -> None:
    from tarotnotation.cli.app import app

    result = CliRunner().invoke(app, ["validate", str(_folder(tmp_path))])
    assert result.exit_code == 1
    assert result.stdout.count("S007") == 2
    assert "iconv -f latin1 -t utf-8" in result.stdout
    assert "9 deals read from 3 files: 7 valid, 2 with errors" in result.stdout


def test_records_that_read_back_equal() -> None:
    # the strings used above are what the model holds
    assert isinstance(NAMED[0], DealRecord)
    assert NAMED[0].tag("Event") == "Tournoi de Sète n°0"
