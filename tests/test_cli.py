"""The tarot command: exit codes, outputs, and no traceback on bad input."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarotnotation.cli.app import app
from tarotnotation.notation import loads as tarot_loads

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.output


def test_check_clean_examples_exits_zero() -> None:
    code, out = _run("check", *map(str, sorted(EXAMPLES.glob("*.tarot"))))
    assert code == 0
    assert "0 with errors" in out


def test_check_faulty_examples_names_each_fault_and_exits_one() -> None:
    code, out = _run("check", str(EXAMPLES / "faulty"))
    assert code == 1
    for fault in ("P105 must-follow-suit", "E102 ecart-king-or-bout", "H102",
                  "R101 score-mismatch", "S003 bad-card-code"):
        assert fault in out
    assert "revoke.tarot:21:8: deal 1, trick 3, seat S, card T19" in out


def test_check_json_output_is_machine_readable() -> None:
    code, out = _run("check", "--format", "json", str(EXAMPLES / "faulty" / "revoke.tarot"))
    assert code == 1
    doc = orjson.loads(out)
    [diag] = doc["deals"][0]["diagnostics"]
    assert (diag["code"], diag["line"], diag["col"], diag["trick"], diag["seat"]) == (
        "P105", 21, 8, 3, "S")
    assert doc["summary"]["errors"] == 1


def test_check_strict_fails_on_warnings(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.tarot"
    sheet.write_text('[Players "4"]\nresult: garde taker E scores S-64 E+192 N-64 W-64\n',
                     encoding="utf-8")
    assert _run("check", str(sheet))[0] == 0
    assert _run("check", "--strict", str(sheet))[0] == 1


def test_check_parallel_gives_the_same_summary() -> None:
    one = _run("check", "-q", str(EXAMPLES))[1]
    two = _run("check", "-q", "--jobs", "2", str(EXAMPLES))[1]
    assert one == two


def test_check_missing_file_and_bad_ruleset_exit_two() -> None:
    assert _run("check", "no/such/file.tarot")[0] == 2
    assert _run("check", "--ruleset", "fft misere=maybe", str(EXAMPLES))[0] == 2


def test_check_ruleset_override_changes_the_verdict() -> None:
    # Under pagat an Excuse on the last trick won by its own camp stays with it.
    path = str(EXAMPLES / "excuse-last-trick.tarot")
    assert _run("check", path)[0] == 0
    code, out = _run("check", "--ruleset", "pagat", path)
    assert code == 1
    assert "R101 score-mismatch" in out


def test_replay_shows_tricks_comments_and_the_score() -> None:
    code, out = _run("replay", str(EXAMPLES / "annotated.tarot"))
    assert code == 0
    assert " 1. E:T20 N:T21 W:T7 S:T15" in out
    assert "{il fallait garder cette carte}" in out
    assert "Scores: S +64  E +64  N -192  W +64" in out


def test_score_lists_each_deal_and_totals() -> None:
    code, out = _run("score", str(EXAMPLES / "score-sheet.tarot"))
    assert code == 0
    assert out.count("score-sheet.tarot #") == 8
    assert out.strip().splitlines()[-1].startswith("Totals: S")


def test_convert_tarot_to_json_and_back_is_lossless(tmp_path: Path) -> None:
    src = EXAMPLES / "annotated.tarot"
    as_json = tmp_path / "a.json"
    back = tmp_path / "a.tarot"
    assert _run("convert", str(src), str(as_json))[0] == 0
    assert _run("convert", str(as_json), str(back))[0] == 0
    assert back.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")
    assert tarot_loads(back.read_text(encoding="utf-8")).comments


def test_legal_lists_the_legal_cards_and_why_not_the_others() -> None:
    code, out = _run("legal", str(EXAMPLES / "faulty" / "revoke.tarot"), "-t", "3", "-c", "3")
    assert code == 0
    assert "legal:" in out
    assert "P105 must-follow-suit" in out


def test_rules_codes_card_version() -> None:
    assert "excuse_last_trick" in _run("rules")[1]
    assert "P105  error    must-follow-suit" in _run("codes")[1]
    assert "King of Hearts" in _run("card", "kh")[1]
    assert _run("card", "ZZ")[0] == 2
    assert _run("version")[1].startswith("tarotnotation ")


@pytest.mark.parametrize("content", [b"", b"\x00\xff garbage", b"[Players \"9\"]\n",
                                     b'{"players": "x"}'])
def test_bad_input_never_ends_in_a_traceback(tmp_path: Path, content: bytes) -> None:
    for suffix in (".tarot", ".json"):
        path = tmp_path / f"bad{suffix}"
        path.write_bytes(content)
        for command in (["check", str(path)], ["replay", str(path)], ["score", str(path)],
                        ["convert", str(path), "--to", "json"]):
            code, _ = _run(*command)
            assert code in (0, 1, 2)
