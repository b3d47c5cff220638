"""``tarot convert``, ``tarot new`` and ``tarot schema``: files written, formats kept."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from cli_runs import CLEAN_EXAMPLES, EXAMPLES, FAULTY, invoke, rel, run_forked

from tarotnotation import notation
from tarotnotation.archive import check_paths, format_of
from tarotnotation.formats import json as tarot_json
from tarotnotation.formats import tarotclub
from tarotnotation.formats.json import json_schema


@pytest.mark.parametrize("path", CLEAN_EXAMPLES, ids=lambda p: p.name)
def test_tarot_to_json_and_jsonl_and_back_is_byte_identical(path: Path, tmp_path: Path) -> None:
    for suffix in (".json", ".jsonl"):
        middle = tmp_path / f"deals{suffix}"
        back = tmp_path / f"back{suffix}.tarot"
        first = invoke("convert", str(path), "-o", str(middle))
        assert first.code == 0, first
        assert invoke("convert", str(middle), "-o", str(back)).code == 0
        assert back.read_bytes() == path.read_bytes()


@pytest.mark.process
def test_convert_reports_what_it_wrote_and_the_file_is_what_the_library_writes(
        tmp_path: Path) -> None:
    out = tmp_path / "sheet.jsonl"
    ran = run_forked("convert", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(out))
    assert ran.code == 0
    assert ran.out == ""
    assert ran.err.strip() == f"8 deals written to {out} (jsonl)"
    records = [d.record for d in notation.read(EXAMPLES / "score-sheet.tarot")]
    assert [d.record for d in tarot_json.read(out)] == records
    assert format_of(out) == "jsonl"


def test_json_output_one_record_is_an_object_several_an_archive(tmp_path: Path) -> None:
    one = orjson.loads(invoke("convert", rel(EXAMPLES / "prise.tarot"), "--to", "json").out)
    assert one["players"] == 4
    many = orjson.loads(invoke("convert", rel(EXAMPLES / "score-sheet.tarot"),
                               "--to", "json").out)
    assert len(many["deals"]) == 8


@pytest.mark.process
def test_default_output_is_the_notation_on_stdout(tmp_path: Path) -> None:
    as_json = tmp_path / "prise.json"
    assert invoke("convert", rel(EXAMPLES / "prise.tarot"), "-o", str(as_json)).code == 0
    ran = run_forked("convert", str(as_json))
    assert ran.code == 0
    assert ran.out == (EXAMPLES / "prise.tarot").read_text(encoding="utf-8")
    # standard input in, any format
    ran = run_forked("convert", "-", "--to", "tarot", stdin=as_json.read_bytes())
    assert ran.out == (EXAMPLES / "prise.tarot").read_text(encoding="utf-8")


@pytest.mark.process
def test_tarotclub_export_warns_about_what_it_drops(tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    ran = run_forked("convert", rel(EXAMPLES / "annotated.tarot"), "--to", "tarotclub",
                  "-o", str(out))
    assert ran.code == 0, ran
    record = notation.load(EXAMPLES / "annotated.tarot")
    lost = tarotclub.dropped(record)
    assert lost
    warning = next(line for line in ran.err.splitlines() if "warning" in line)
    assert warning == ("tarot: warning: deal 1: a TarotClub played-deal log cannot hold "
                       + "; ".join(lost))
    assert format_of(out) == "tarotclub"
    # what it keeps: the cards, the play and the score
    back = tarotclub.load(out)
    assert [c.card for t in back.play for c in t.cards] == [
        c.card for t in record.play for c in t.cards]
    [checked] = list(check_paths([out]))
    assert checked.scores == {"S": 64, "E": 64, "N": -192, "W": 64}


def test_tarotclub_holds_one_deal(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    ran = invoke("convert", rel(EXAMPLES / "score-sheet.tarot"), "--to", "tarotclub",
                 "-o", str(out))
    assert ran.code == 2
    assert not out.exists()  # nothing half-written
    assert list(tmp_path.iterdir()) == []


def test_unreadable_deals_are_reported_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    ran = invoke("convert", rel(FAULTY / "syntax-error.tarot"), "-o", str(out))
    assert ran.code == 1
    assert "syntax-error.tarot:25:8" in ran.err
    assert ran.err.strip().splitlines()[-1] == (
        f"tarot: {out} not written: 1 deal of examples/faulty/syntax-error.tarot could not be"
        " read cleanly (see above); --skip-unreadable writes the others")
    assert list(tmp_path.iterdir()) == []
    # asked to, it writes the deals it can read
    ran = invoke("convert", rel(FAULTY / "syntax-error.tarot"), "-o", str(out),
                 "--skip-unreadable")
    assert ran.code == 1
    assert [d.record for d in tarot_json.read(out)] == [
        d.record for d in notation.read(FAULTY / "syntax-error.tarot") if d.ok]
    assert ("1 deal of examples/faulty/syntax-error.tarot could not be read cleanly (see above)"
            " and was left out") in ran.err


def test_a_failed_conversion_leaves_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "keep.json"
    out.write_bytes(b"old")
    ran = invoke("convert", rel(EXAMPLES / "score-sheet.tarot"), "--to", "tarotclub",
                 "-o", str(out))
    assert ran.code == 2
    assert out.read_bytes() == b"old"


@pytest.mark.process
@pytest.mark.parametrize("players", [3, 4, 5])
def test_new_deals_are_complete_legal_and_seeded(players: int, tmp_path: Path) -> None:
    out = tmp_path / "new.tarot"
    ran = run_forked("new", "--players", str(players), "--seed", "11", "--count", "3",
                  "-o", str(out))
    assert ran.code == 0, ran
    checked = list(check_paths([out]))
    assert len(checked) == 3
    for c in checked:
        assert c.diagnostics == ()
        assert c.status is not None
        assert c.status.value in ("scored", "annulled")
    records = [d.record for d in notation.read(out)]
    assert all(r is not None and r.players == players for r in records)
    assert [r.tag("Deal") for r in records if r] == ["1", "2", "3"]
    again = invoke("new", "--players", str(players), "--seed", "11", "--count", "3")
    assert again.out == out.read_text(encoding="utf-8")
    assert invoke("new", "--players", str(players), "--seed", "12").out != again.out


def test_new_in_every_format(tmp_path: Path) -> None:
    lines = invoke("new", "--seed", "5", "--count", "4", "--to", "jsonl").out.splitlines()
    assert len(lines) == 4
    assert all(orjson.loads(line)["players"] == 4 for line in lines)
    club = tmp_path / "club.json"
    assert invoke("new", "--seed", "5", "--to", "tarotclub", "-o", str(club)).code == 0
    assert format_of(club) == "tarotclub"
    assert invoke("new", "--to", "tarotclub", "--count", "2").code == 2
    assert invoke("new", "--players", "6").code == 2


def test_new_under_a_ruleset() -> None:
    out = invoke("new", "--seed", "2", "--rules", "pagat", "--set", "misere=on").out
    assert '[Ruleset "pagat misere=on"]' in out


@pytest.mark.process
def test_schema_is_the_library_schema() -> None:
    ran = run_forked("schema")
    assert ran.code == 0
    assert orjson.loads(ran.out) == json_schema()
    assert invoke("schema").out == ran.out
