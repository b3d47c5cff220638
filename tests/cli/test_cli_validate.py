"""``tarot validate``: every example, every fault at its place, every output format."""

from __future__ import annotations

import glob
import io
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import orjson
import pytest
from cli_runs import (
    CLEAN_EXAMPLES,
    EXAMPLES,
    FAULTY,
    FAULTY_EXAMPLES,
    ROOT,
    invoke,
    on_a_terminal,
    rel,
    run_exe,
    run_forked,
)

from tarotnotation import notation
from tarotnotation.archive import check_paths, expand_paths, format_name
from tarotnotation.cli.progress import FileProgress
from tarotnotation.cli.report import github_line
from tarotnotation.diagnostics import Code, Diagnostic
from tarotnotation.formats import json as tarot_json

#: Each faulty example's faults: (code, line, column).
FAULTS = {
    "false-poignee.tarot": [("H102", 18, 1)],
    "revoke.tarot": [("P105", 21, 8)],
    "syntax-error.tarot": [("S003", 25, 8)],
    "wrong-ecart.tarot": [("E102", 17, 1)],
    "wrong-score.tarot": [("R101", 36, 53), ("R101", 36, 59), ("R101", 36, 64),
                          ("R101", 36, 69)],
}
#: The score sheets' and score apps' examples (examples/sheets), read with the rest.
SHEET_EXAMPLES = list(expand_paths([ROOT / "examples" / "sheets"]))

DIAGNOSTIC = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) "
                        r"(?P<severity>error|warning): (?P<where>deal [^:]*): .+$")
GITHUB = re.compile(r"^::(error|warning) (file=[^,:]+,)?(line=\d+,)?(col=\d+,)?"
                    r"title=[A-Z]\d{3}::.+$|^::notice title=tarot validate::.+$")


def test_faulty_examples_are_the_ones_listed() -> None:
    assert sorted(p.name for p in FAULTY_EXAMPLES) == sorted(FAULTS)


@pytest.mark.process
def test_every_clean_example_validates_and_exits_zero() -> None:
    args = [rel(p) for p in CLEAN_EXAMPLES]
    for ran in (invoke("validate", *args), run_forked("validate", *args)):
        assert ran.code == 0, ran.out
        last = ran.out.strip().splitlines()[-1]
        assert f"read from {len(CLEAN_EXAMPLES)} files:" in last
        assert " 0 with errors, 0 with warnings (0 errors, 0 warnings)" in last
        assert len(ran.out.strip().splitlines()) == 1  # nothing but the summary


@pytest.mark.process
@pytest.mark.parametrize("path", FAULTY_EXAMPLES, ids=lambda p: p.name)
def test_each_faulty_example_prints_every_fault_at_its_place(path: Path) -> None:
    ran = run_forked("validate", rel(path))
    assert ran.code == 1
    found = []
    for line in ran.out.splitlines():
        m = DIAGNOSTIC.match(line)
        if m:
            assert m["file"] == rel(path)
            assert "deal 1" in m["where"]
            found.append((m["code"], int(m["line"]), int(m["col"])))
    assert found == FAULTS[path.name]
    # every fault the library finds, word for word
    expected = [str(d) for c in check_paths([rel(path)]) for d in c.diagnostics]
    for text in expected:
        assert text in ran.out
    assert invoke("validate", rel(path)).out == ran.out


def test_the_revoke_names_deal_trick_seat_and_card() -> None:
    ran = invoke("validate", rel(FAULTY / "revoke.tarot"))
    assert ("examples/faulty/revoke.tarot:21:8: P105 error: deal 1, trick 3, seat S, card T19:"
            " Clubs led and the player holds Clubs: expected 2C, 5C, 8C, JC or NC") in ran.out


def test_a_syntax_error_shows_the_line_and_a_caret() -> None:
    out = invoke("validate", rel(FAULTY / "syntax-error.tarot")).out.splitlines()
    i = next(i for i, line in enumerate(out) if "S003" in line)
    assert out[i + 1].strip() == "7. QS 1OS T18 9S"
    assert out[i + 2].index("^") == out[i + 1].index("1OS")


def test_summary_counts_deals_valid_errors_and_warnings() -> None:
    ran = invoke("validate", "examples/faulty")
    assert ran.out.strip().splitlines()[-1] == (
        "6 deals read from 5 files: 1 valid, 5 with errors, 0 with warnings"
        " (8 errors, 0 warnings)")


def test_check_is_a_hidden_alias_of_validate() -> None:
    assert invoke("check", "examples/faulty").out == invoke("validate", "examples/faulty").out


def test_folders_are_searched_recursively_and_globs_expanded() -> None:
    # The glob arrives quoted (no shell here): the command expands it, ** included.
    ran = invoke("validate", "examples/**/*.tarot")
    assert ran.code == 1
    assert f"read from {len(CLEAN_EXAMPLES) + len(FAULTY_EXAMPLES)} files" in ran.out
    # The folder holds the score sheets' examples too (examples/sheets): every file of a
    # format read, found recursively, in the order of their paths.
    sheets = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples" / "sheets").iterdir())
    everything = sorted(glob.glob("examples/**/*.tarot", recursive=True, root_dir=ROOT)
                        + sheets)
    assert invoke("validate", "examples").out == invoke("validate", *everything).out
    only_clean = invoke("validate", "examples/*.tarot")
    assert only_clean.code == 0


@pytest.mark.process
def test_standard_input() -> None:
    text = (FAULTY / "revoke.tarot").read_bytes()
    for ran in (invoke("validate", "-", stdin=text), run_forked("validate", "-", stdin=text)):
        assert ran.code == 1, ran
        assert ":21:8: P105 error: deal 1, trick 3, seat S, card T19:" in ran.out
    clean = (EXAMPLES / "prise.tarot").read_bytes()
    assert run_forked("validate", "-", stdin=clean).code == 0
    jsonl = run_forked("convert", rel(EXAMPLES / "score-sheet.tarot"), "--to", "jsonl").out
    ran = run_forked("validate", "-", stdin=jsonl.encode())
    assert ran.code == 0
    assert ran.out.startswith("8 deals read")


def test_json_document() -> None:
    ran = invoke("validate", "--format", "json", rel(FAULTY / "revoke.tarot"))
    assert ran.code == 1
    doc = orjson.loads(ran.out)
    [deal] = doc["deals"]
    assert (deal["file"], deal["deal"], deal["valid"]) == ("examples/faulty/revoke.tarot", 1,
                                                           False)
    [diag] = deal["diagnostics"]
    assert (diag["code"], diag["line"], diag["col"], diag["trick"], diag["seat"]) == (
        "P105", 21, 8, 3, "S")
    assert doc["summary"] == {"files": 1, "deals": 1, "valid": 0, "with_errors": 1,
                              "with_warnings": 0, "errors": 1, "warnings": 0,
                              "unreadable": 0, "empty_files": 0,
                              "by_code": {"P105 must-follow-suit": 1}}


@pytest.mark.process
def test_json_lines_one_object_per_deal() -> None:
    ran = run_forked("validate", "--format", "jsonl", "examples")
    lines = [orjson.loads(line) for line in ran.out.splitlines()]
    assert len(lines) == sum(len(list(check_paths([p]))) for p in
                             CLEAN_EXAMPLES + FAULTY_EXAMPLES + SHEET_EXAMPLES)
    assert {d["valid"] for d in lines} == {True, False}
    assert all({"file", "deal", "valid", "diagnostics"} <= set(d) for d in lines)


@pytest.mark.process
def test_github_annotations_have_the_documented_shape() -> None:
    ran = run_forked("validate", "--format", "github", "examples/faulty")
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert all(GITHUB.match(line) for line in lines), lines
    assert ("::error file=examples/faulty/revoke.tarot,line=21,col=8,title=P105::deal 1,"
            " trick 3, seat S, card T19: must-follow-suit: Clubs led and the player holds"
            " Clubs: expected 2C, 5C, 8C, JC or NC") in lines
    assert sum(line.startswith("::error ") for line in lines) == 8
    assert lines[-1].startswith("::notice title=tarot validate::6 deals read")


def test_github_escapes_what_would_break_an_annotation() -> None:
    d = Diagnostic.make(Code.SYNTAX_ERROR, "100% wrong\nsecond line", file="a,b:c.tarot",
                        line=3, col=4, deal=2)
    line = github_line(d)
    assert line == ("::error file=a%2Cb%3Ac.tarot,line=3,col=4,title=S001::deal 2:"
                    " syntax-error: 100%25 wrong%0Asecond line")
    warn = github_line(Diagnostic.make(Code.PETIT_SEC, "S holds the Petit alone"))
    assert warn == "::warning title=D103::petit-sec: S holds the Petit alone"


@pytest.mark.process
def test_junit_report_parses_with_a_test_case_per_deal(tmp_path: Path) -> None:
    ran = run_forked("validate", "--format", "junit", "examples")
    assert ran.code == 1
    root = ET.fromstring(ran.out)
    assert root.tag == "testsuites"
    cases = root.findall("./testsuite/testcase")
    deals = [c for p in sorted(EXAMPLES.rglob("*.tarot")) + SHEET_EXAMPLES
             for c in check_paths([p])]
    assert len(cases) == len(deals) == int(root.get("tests", "-1"))
    failures = root.findall("./testsuite/testcase/failure")
    assert len(failures) == 5 == int(root.get("failures", "-1"))
    revoke = root.find("./testsuite[@name='examples/faulty/revoke.tarot']/testcase/failure")
    assert revoke is not None
    assert revoke.get("type") == "P105"
    assert "revoke.tarot:21:8" in (revoke.text or "")
    # --output writes the same report to a file; the summary goes to stderr
    report = tmp_path / "report.xml"
    ran2 = run_forked("validate", "--format", "junit", "-o", str(report), "examples")
    assert ran2.code == 1
    assert ran2.out == ""
    assert report.read_text(encoding="utf-8") == ran.out
    assert "deals read" in ran2.err


def test_junit_totals_count_every_case() -> None:
    """A path that names nothing is a test case too (issue 31): the totals of
    ``<testsuites>`` are the sums of its suites', so a CI reading them sees both cases."""
    ran = invoke("validate", "nonexistent.tarot", str(EXAMPLES / "prise.tarot"),
                 "--format", "junit")
    assert ran.code == 2
    root = ET.fromstring(ran.out)
    assert len(root.findall("./testsuite/testcase")) == 2
    assert root.get("tests") == "2"
    assert root.get("failures") == "1"
    for attr in ("tests", "failures"):
        assert int(root.get(attr, "-1")) == sum(int(s.get(attr, "0"))
                                                for s in root.findall("./testsuite"))


def test_counts_are_written_in_one_style_by_validate_and_convert(tmp_path: Path) -> None:
    """Issue 31: ``convert`` said "1,500 deals written" where ``validate`` said "1500 deals
    read": the summaries group their numbers alike."""
    line = invoke("new", "--to", "jsonl", "--seed", "3").out
    archive = tmp_path / "club.jsonl"
    archive.write_text(line * 1_500, encoding="utf-8")
    checked = invoke("validate", "-q", str(archive))  # (the same Deal number: R301)
    assert "1,500 deals read from 1 file: 1 valid, 1,499 with errors" in checked.out
    converted = invoke("convert", str(archive), "-o", str(tmp_path / "club.tarot"))
    assert "1,500 deals written" in converted.err


def test_junit_strict_makes_warnings_failures(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.tarot"
    sheet.write_text('[Players "4"]\nresult: garde taker E scores S-64 E+192 N-64 W-64\n',
                     encoding="utf-8")
    lax = ET.fromstring(invoke("validate", "--format", "junit", str(sheet)).out)
    strict = ET.fromstring(invoke("validate", "--strict", "--format", "junit", str(sheet)).out)
    assert lax.findall(".//failure") == []
    assert lax.findall(".//system-out")
    assert len(strict.findall(".//failure")) == 1


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.tarot"
    sheet.write_text('[Players "4"]\nresult: garde taker E scores S-64 E+192 N-64 W-64\n',
                     encoding="utf-8")
    ran = invoke("validate", str(sheet))
    assert ran.code == 0
    assert "1 valid, 0 with errors, 1 with warnings" in ran.out
    assert invoke("validate", "--strict", str(sheet)).code == 1


@pytest.mark.process
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "github", "junit"])
def test_parallel_output_is_the_same_in_the_same_order(fmt: str) -> None:
    run = run_forked if fmt == "text" else invoke
    one = run("validate", "-f", fmt, "-j", "1", "examples")
    two = run("validate", "-f", fmt, "-j", "2", "examples")
    assert one.code == two.code == 1
    assert one.out == two.out
    assert one.out


def test_quiet_prints_only_the_summary() -> None:
    ran = invoke("validate", "-q", "examples/faulty")
    assert ran.code == 1
    assert ran.out.splitlines() == [ran.out.strip()]
    assert ran.out.startswith("6 deals read")


def test_rules_and_set_apply_to_records_that_name_no_ruleset(tmp_path: Path) -> None:
    # Under pagat an Excuse on the last trick won by its own camp stays with it, so the
    # recorded score (written under fft) no longer matches.
    text = (EXAMPLES / "excuse-last-trick.tarot").read_text(encoding="utf-8")
    assert '[Ruleset "fft"]\n' in text
    path = tmp_path / "unnamed.tarot"
    path.write_text(text.replace('[Ruleset "fft"]\n', ""), encoding="utf-8")
    assert invoke("validate", str(path)).code == 0
    for args in (["--rules", "pagat"], ["--set", "excuse_last_trick=to_trick_winner"],
                 ["--rules", "fft", "--set", "excuse_last_trick=to_trick_winner"]):
        ran = invoke("validate", *args, str(path))
        assert ran.code == 1, args
        assert "R101 error: " in ran.out
    # A record that names its ruleset keeps it; --ruleset overrides even that.
    named = EXAMPLES / "excuse-last-trick.tarot"
    assert invoke("validate", "--rules", "pagat", str(named)).code == 0
    assert invoke("validate", "--ruleset", "pagat", str(named)).code == 1


@pytest.mark.process
def test_verbose_names_the_format_of_each_file(tmp_path: Path) -> None:
    as_json = tmp_path / "deal.json"
    as_json.write_bytes(tarot_json.dumps_bytes(notation.load(EXAMPLES / "prise.tarot")))
    ran = run_forked("validate", "-v", str(as_json), rel(EXAMPLES / "prise.tarot"))
    assert ran.code == 0
    assert f"{as_json}: read as {format_name('json')}" in ran.err
    assert f"examples/prise.tarot: read as {format_name('tarot')}" in ran.err
    assert "read as" not in ran.out


@pytest.mark.process
def test_progress_bar_on_a_terminal_only() -> None:
    # Piped (and even with no delay): nothing on stderr.
    piped = run_exe("validate", "examples", env={"TAROT_PROGRESS_DELAY": "0"})
    assert piped.err == ""
    # On a terminal: a bar on stderr, the same report on stdout.
    code, out, seen = on_a_terminal("validate", "examples")
    assert code == 1
    assert out == piped.out
    assert b"validating" in seen


def test_progress_is_never_drawn_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.delenv("CI", raising=False)
    assert FileProgress([]).enabled
    monkeypatch.setenv("CI", "true")
    assert not FileProgress([]).enabled


def test_an_unreadable_file_is_reported_and_the_others_go_on(tmp_path: Path) -> None:
    bad = tmp_path / "a-bad.tarot"
    bad.write_bytes(b"hand S: 7H 7H\n")
    good = tmp_path / "b-good.tarot"
    good.write_bytes((EXAMPLES / "prise.tarot").read_bytes())
    ran = invoke("validate", str(tmp_path))
    assert ran.code == 1
    assert "2 deals read from 2 files: 1 valid, 1 with errors" in ran.out


@pytest.mark.process
def test_output_names_files_as_given() -> None:
    ran = run_forked("validate", str(FAULTY / "revoke.tarot"), cwd=ROOT / "docs")
    assert f"{FAULTY / 'revoke.tarot'}:21:8:" in ran.out


def test_a_folder_without_records_is_a_warning_and_a_failure(tmp_path: Path) -> None:
    # A check that reads nothing does not pass (issue 12): a run with no deal exits 1.
    (tmp_path / "notes.txt").write_text("nothing to see", encoding="utf-8")
    ran = invoke("validate", str(tmp_path))
    assert ran.code == 1
    assert ran.err.strip() == f"tarot: warning: no record file found in {tmp_path}"
    assert ran.out.startswith("0 deals read from 0 files")
    assert ran.out.strip().endswith("; no deal read")


def test_a_file_that_cannot_be_opened_is_an_io_error_after_the_rest(tmp_path: Path) -> None:
    good = tmp_path / "a-good.tarot"
    good.write_bytes((EXAMPLES / "prise.tarot").read_bytes())
    dangling = tmp_path / "b-gone.tarot"
    dangling.symlink_to(tmp_path / "nowhere.tarot")
    ran = invoke("validate", str(good), str(dangling))
    assert ran.code == 2
    # its own code (issue 12: was S001, a syntax error), located, not counted as a deal
    assert f"{dangling}: F004 error: a symbolic link to {tmp_path / 'nowhere.tarot'}," in ran.out
    assert ran.out.strip().splitlines()[-1] == (
        "1 deal read from 1 file: 1 valid, 0 with errors, 0 with warnings (1 error,"
        " 0 warnings); 1 path could not be read")


def test_statistics_count_each_code() -> None:
    ran = invoke("validate", "-q", "--statistics", "examples/faulty")
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert lines[0].split() == ["4", "R101", "score-mismatch"]
    assert sorted(line.split()[1] for line in lines[1:5]) == ["E102", "H102", "P105", "S003"]
    assert lines[-1].startswith("6 deals read")


def test_ignore_leaves_out_codes_and_prefixes() -> None:
    ran = invoke("validate", "--ignore", "R101", "--ignore", "s0", "examples/faulty")
    assert ran.code == 1
    assert "R101" not in ran.out
    assert "S003" not in ran.out
    assert ran.out.strip().splitlines()[-1] == (
        "6 deals read from 5 files: 3 valid, 3 with errors, 0 with warnings"
        " (3 errors, 0 warnings)")
    clean = invoke("validate", "--ignore", "R1", rel(FAULTY / "wrong-score.tarot"))
    assert clean.code == 0
    bad = invoke("validate", "--ignore", "Z9", "examples")
    assert bad.code == 2
    assert bad.err == "tarot: --ignore Z9: no diagnostic code starts with Z9 (see `tarot codes`)\n"
