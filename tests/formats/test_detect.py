"""Formats detected by content: whatever a file is called (``.txt``, no suffix, the wrong
suffix) or when it comes on standard input, each format is recognised and read."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from tarotnotation import archive, notation
from tarotnotation.cards import CardSet
from tarotnotation.diagnostics import Code
from tarotnotation.formats import csvsheet, detect
from tarotnotation.formats import json as tjson
from tarotnotation.formats import tarotclub as tc
from tarotnotation.records import DealRecord

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHEETS = EXAMPLES / "sheets"


def _records(name: str) -> list[DealRecord]:
    return [d.record for d in notation.read(EXAMPLES / name) if d.record is not None]


def _club_deal_file(rec: DealRecord) -> bytes:
    """A TarotClub deal file (hands only) of a record, as TarotClub's DealFile writes it."""
    assert rec.hands is not None
    assert rec.chien is not None
    obj: dict[str, str] = {"version": "3", "FirstPlayer": tc.PLACES[rec.seat_index(
        rec.first_seat)], "Dog": ";".join(tc.card_code(c) for c in rec.chien)}
    for i, place in enumerate(tc.PLACES):
        hand = rec.hands[rec.seat_ids[i]] if i < rec.players else CardSet()
        obj[place] = ";".join(tc.card_code(c) for c in hand)
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2)


def _samples() -> dict[str, tuple[str, bytes]]:
    """Case name -> (expected format, content), each written by the project itself."""
    prise = _records("prise.tarot")[0]
    sheet = _records("score-sheet.tarot")
    club = tc.dumps(prise)
    pretty_club = orjson.dumps(orjson.loads(club), option=orjson.OPT_INDENT_2)
    lines = io.BytesIO()
    tjson.write(sheet, lines)
    archive_doc = io.BytesIO()
    tjson.write(sheet, archive_doc, lines=False)
    return {
        "notation": ("tarot", (EXAMPLES / "prise.tarot").read_bytes()),
        "notation-score-sheet": ("tarot", (EXAMPLES / "score-sheet.tarot").read_bytes()),
        "json-record": ("json", tjson.dumps_bytes(prise)),
        "json-record-pretty": ("json", tjson.dumps_bytes(prise, indent=True)),
        "json-record-with-bom": ("json", b"\xef\xbb\xbf" + tjson.dumps_bytes(prise)),
        "json-archive-document": ("json", archive_doc.getvalue()),
        "json-list-of-records": ("json", b"[\n" + b",\n".join(
            tjson.dumps_bytes(r) for r in sheet) + b"\n]"),
        "json-lines": ("jsonl", lines.getvalue()),
        "json-lines-crlf": ("jsonl", lines.getvalue().replace(b"\n", b"\r\n")),
        "tarotclub-log": ("tarotclub", club),
        "tarotclub-log-pretty": ("tarotclub", pretty_club),
        "tarotclub-log-trailing-commas": ("tarotclub", pretty_club.replace(
            b'"\n  ]', b'",\n  ]', 1)),
        "tarotclub-deal-file": ("tarotclub-deal", _club_deal_file(prise)),
        "csv-score-sheet": ("csv", csvsheet.dumps(sheet)),
        "scoreit-game": ("scoreit", (SHEETS / "scoreit-tarot-4.json").read_bytes()),
        "matocolotoe-month": ("matocolotoe", (SHEETS / "games_2026_11.json").read_bytes()),
        "matocolotoe-players": ("matocolotoe-players", (SHEETS / "players.json").read_bytes()),
        "xlsx-workbook": ("xlsx", (SHEETS / "club-season.xlsx").read_bytes()),
        "xls-legacy-workbook": ("foreign", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600)),
    }


SAMPLES = _samples()


@pytest.mark.parametrize("case", sorted(SAMPLES))
@pytest.mark.parametrize("name", ["deal.txt", "deal", "deal.json", "deal.tarot"])
def test_format_is_detected_by_content_whatever_the_name(tmp_path: Path, case: str,
                                                          name: str) -> None:
    fmt, data = SAMPLES[case]
    path = tmp_path / name
    path.write_bytes(data)
    assert archive.format_of(path) == fmt
    assert detect.sniff(data, complete=True) == fmt


@pytest.mark.parametrize("case", sorted(SAMPLES))
def test_every_detected_file_reads_as_its_source(tmp_path: Path, case: str) -> None:
    fmt, data = SAMPLES[case]
    path = tmp_path / "deal.txt"
    path.write_bytes(data)
    items = list(archive.read_path(path))
    if fmt == "matocolotoe-players":
        assert items == []  # Matocolotoe's list of players holds no deal
        return
    if fmt == "foreign":  # named, with what to do, and not read
        [item] = items
        assert item.record is None
        assert [d.code.value for d in item.diagnostics] == ["C105"]
        return
    assert items
    assert all(item.ok for item in items), [str(d) for i in items for d in i.diagnostics
                                            if d.severity.value == "error"]
    if case.startswith("tarotclub-log"):
        [item] = items
        warned = [d.code.value for d in item.diagnostics]
        assert warned == (["J001"] if case.endswith("trailing-commas") else [])
        assert item.record is not None
        assert item.record.play == tc.loads(SAMPLES["tarotclub-log"][1]).play
    elif case == "tarotclub-deal-file":
        [item] = items
        assert item.record is not None
        assert item.record.hands == _records("prise.tarot")[0].hands
    elif fmt in ("scoreit", "matocolotoe", "xlsx"):
        examples = SHEETS / {"scoreit": "scoreit-tarot-4.json", "xlsx": "club-season.xlsx",
                             "matocolotoe": "games_2026_11.json"}[fmt]
        expected = [i.record for i in archive.read_path(examples)]
        if fmt == "matocolotoe":  # the date and names come from the file's name and folder
            assert [i.record.result for i in items if i.record] == [
                r.result for r in expected if r is not None]
        else:
            assert [i.record for i in items] == expected
    elif "score-sheet" in case or case in ("json-lines", "json-lines-crlf",
                                             "json-archive-document", "json-list-of-records"):
        assert [i.record for i in items] == _records("score-sheet.tarot")
    else:
        assert [i.record for i in items] == _records("prise.tarot")


def test_long_first_json_line_is_still_json_lines(tmp_path: Path) -> None:
    rec = _records("annotated.tarot")[0]
    long_comment = "x" * (detect.HEAD + 100)
    big = rec.model_copy(update={"comments": (long_comment,)})
    path = tmp_path / "big"
    path.write_bytes(tjson.dumps_bytes(big) + b"\n" + tjson.dumps_bytes(rec) + b"\n")
    assert archive.format_of(path) == "jsonl"
    assert [d.record for d in archive.read_path(path)] == [big, rec]


@pytest.mark.parametrize(
    ("content", "suffix", "fmt"),
    [
        (b"", ".jsonl", "jsonl"),
        (b"", "", "tarot"),
        (b"\x00\x01\x02 junk", ".json", "json"),
        (b"\x00\x01\x02 junk", ".txt", "tarot"),
        (b"hand S: 1S 2S", ".json", "tarot"),
        (b'[Event "x"]', ".json", "tarot"),
        (b'[ Event "x"]', ".json", "tarot"),
        (b'["a list of strings"]', ".json", "json"),
        (b"[]", ".tarot", "json"),
        (b"{a comment} [Event", ".json", "tarot"),
        (b'{"deal_info": {', ".tarot", "tarotclub"),
        (b'{"players": 4,', ".tarot", "json"),
    ],
)
def test_content_decides_and_the_suffix_is_the_fallback(content: bytes, suffix: str,
                                                        fmt: str) -> None:
    assert detect.sniff(content, suffix=suffix) == fmt


def test_every_format_has_a_name_for_people() -> None:
    assert set(detect.FORMATS) == {fmt for fmt, _ in SAMPLES.values()}
    for fmt in detect.FORMATS:
        assert archive.format_name(fmt) == detect.FORMATS[fmt]
    assert archive.format_name("tarotclub") == "a TarotClub played-deal log"


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))

    def close(self) -> None:  # multiprocessing closes standard input in its workers
        self.buffer.close()


@pytest.mark.parametrize("case", sorted(SAMPLES))
def test_standard_input_is_read_in_any_format(monkeypatch: pytest.MonkeyPatch,
                                              case: str, tmp_path: Path) -> None:
    _, data = SAMPLES[case]
    path = tmp_path / "same.txt"
    path.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", _Stdin(data))
    from_stdin = list(archive.read_path("-"))
    assert [d.record for d in from_stdin] == [d.record for d in archive.read_path(path)]
    files = {d.location.file for item in from_stdin for d in item.diagnostics}
    assert files <= {"<stdin>"}


@pytest.mark.process
def test_standard_input_is_checked_in_its_place_in_parallel_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, data = SAMPLES["json-lines"]
    paths = [str(EXAMPLES / "prise.tarot"), "-", str(EXAMPLES / "faulty" / "revoke.tarot")]
    runs = []
    for jobs in (1, 2):
        monkeypatch.setattr(sys, "stdin", _Stdin(data))
        runs.append([(c.file, c.index, c.errors, [d.code for d in c.diagnostics])
                     for c in archive.check_paths(paths, jobs=jobs)])
    assert runs[0] == runs[1]
    assert [f for f, *_ in runs[0]] == [paths[0], *["-"] * 8, paths[2]]


def test_folders_give_the_record_files_and_dash_stays_standard_input(tmp_path: Path) -> None:
    for name in ("a.tarot", "b.json", "c.jsonl", "d.ndjson", "notes.txt", "e.TAROT"):
        (tmp_path / name).write_bytes(b"")
    found = [p.name for p in archive.expand_paths([tmp_path, "-"])]
    assert found == ["a.tarot", "b.json", "c.jsonl", "d.ndjson", "e.TAROT", "-"]


def _heads_of_own_records() -> list[bytes]:
    """Inputs whose first line is one of the project's records, as it writes them, in the
    ways a file can hold it (alone, with more after it, a byte-order mark, blanks, CRLF),
    and near misses (a key of another format, an archive document, broken JSON)."""
    import random

    from tarotnotation.simulate import random_deal

    heads: list[bytes] = []
    for seed, players in ((1, 3), (2, 4), (3, 5), (4, 4)):
        line = tjson.dumps_bytes(random_deal(random.Random(seed), players))
        heads += [line, line + b"\n", line + b"\n" + line + b"\n", b"\xef\xbb\xbf" + line,
                  b"  \n" + line + b"\r\n" + line, line + b" \t\r\n{\n", line + b"\n\n  \n",
                  line.replace(b'{"tarotnotation"', b'{"deal_info":{},"tarotnotation"', 1),
                  line.replace(b'{"tarotnotation"', b'{"deals":[],"tarotnotation"', 1),
                  line.replace(b'{"tarotnotation"', b'{"type":"TAROT","tarotnotation"', 1),
                  line[:-1] + b"\n" + line, line + b"}\n" + line, b"[" + line + b"]\n"]
    return heads


def test_own_records_are_detected_without_a_json_reader_as_with_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiled scanner tells the project's own records on the first line without the
    # formats' JSON sniffing: the same answer, for every input, as asking every format.
    from tarotnotation import native
    from tarotnotation.formats.base import Head

    if native.compiled() is None:
        pytest.skip("the compiled core is not built (or TAROT_PURE is set)")
    heads = _heads_of_own_records()
    fast = [(detect.sniff(h), detect.sniff(h, complete=True)) for h in heads]
    own = [Head.of(h).own_record for h in heads]
    assert sum(own) >= 4 * 7  # (the records and the ways to hold them, not the misses)
    monkeypatch.setattr(native, "compiled", lambda **_: None)
    slow = [(detect.sniff(h), detect.sniff(h, complete=True)) for h in heads]
    assert fast == slow
    assert {"jsonl", "json"} <= {f for pair in slow for f in pair}


def _zip_of(members: dict[str, str]) -> bytes:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for member, text in members.items():
            zf.writestr(member, text)
    return out.getvalue()


#: What clubs keep but the tool does not read, and the words of what to do (issue 31).
FOREIGN = {
    "club.ods": (_zip_of({"mimetype": "application/vnd.oasis.opendocument.spreadsheet",
                          "content.xml": "<office:document-content/>"}),
                 "OpenDocument spreadsheet (.ods)", "save it as an Excel workbook (.xlsx) or"),
    "club.xls": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1000),
                 "legacy Office file (an Excel 97-2003 workbook, .xls)",
                 "save it as an Excel workbook (.xlsx) or as CSV"),
    "matocolotoe.zip": (_zip_of({"data/games/games_2026_11.json": "[]",
                                 "data/players.json": "[]"}),
                        "ZIP archive of Matocolotoe's games (a backup)", "unzip it"),
    "photos.zip": (_zip_of({"a.jpg": "x"}), "ZIP archive, not a record file", "unzip it"),
}


@pytest.mark.process
@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_ods_xls_and_zip_are_recognised_by_their_magic_bytes(tmp_path: Path, name: str
                                                             ) -> None:
    """Named by their first bytes, whatever their name, with what to do: never read as
    text ('looks like UTF-16: iconv…'), nor skipped in a folder ('no record file')."""
    data, what, todo = FOREIGN[name]
    for path in (tmp_path / name, tmp_path / "renamed.txt"):
        path.write_bytes(data)
        assert detect.detect(path) == "foreign"
        [deal] = list(archive.read_path(path))
        assert deal.record is None
        [said] = deal.diagnostics
        assert said.code is Code.SHEET_NOT_A_SHEET
        assert what in said.message
        assert todo in said.message
        path.unlink()
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / name).write_bytes(data)
    ran = subprocess.run([str(Path(sys.executable).parent / "tarot"), "validate", str(folder)],
                         capture_output=True, text=True, check=False)
    assert ran.returncode == 1
    assert what in ran.stdout
