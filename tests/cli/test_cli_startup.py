"""Lazy start-up (issue 17): ``tarot --version`` imports no command and not typer,
``tarot --help`` lists every command from the table's summaries without importing any,
a command imports its own modules only, and validating a clean deal imports neither
typer, nor pydantic, the grammar or the record model. (The start-up times themselves are measured
by hand with ``python -X importtime`` and repeated runs; never by a timed test.)"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import plain_env

from tarotnotation import __version__, native
from tarotnotation.cli.app import ALIASES, COMMANDS, get_app, version_warning

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]

#: Runs ``main()`` with these words, then prints the modules loaded (as JSON, last line).
_PROBE = """
import json, sys
from tarotnotation.cli.app import main
sys.argv = ["tarot", *{args!r}]
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print()
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str) -> tuple[str, set[str]]:
    env = plain_env()
    done = subprocess.run([sys.executable, "-c", _PROBE.format(args=list(args))],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
                          check=False)
    assert "Traceback" not in done.stderr, done.stderr
    out, _, last = done.stdout.rstrip("\n").rpartition("\n")
    return out, set(json.loads(last))


def test_each_summary_is_the_first_paragraph_of_its_command_docstring() -> None:
    for entry in COMMANDS:
        _, fn = entry.load()
        doc = inspect.getdoc(fn) or ""
        assert entry.summary == doc.split("\n\n")[0], entry.name


def test_the_table_names_every_command_once_and_its_aliases_name_commands() -> None:
    names = [entry.name for entry in COMMANDS]
    assert len(names) == len(set(names))
    assert set(ALIASES.values()) <= set(names)


def test_version_imports_neither_typer_nor_any_command() -> None:
    out, loaded = _modules_after("--version")
    assert out.strip() == f"tarot {__version__}"
    assert not {m for m in loaded if m.split(".")[0] in ("typer", "click", "rich",
                                                          "pydantic", "lark")}
    assert not {m for m in loaded if m.startswith("tarotnotation.")} - {
        "tarotnotation.cli", "tarotnotation.cli.app", "tarotnotation.cli.commands",
        "tarotnotation.native", "tarotnotation._kernel"}


def test_help_lists_every_command_and_imports_none() -> None:
    out, loaded = _modules_after("--help")
    for entry in COMMANDS:
        assert f" {entry.name} " in out
    assert "check" not in out.split()  # hidden
    # the app, the group's language (cli.language: --lang, the help in the run's
    # language) and how every command runs (cli.runner: one-line usage errors, the exit
    # statuses, signals, with cli.status; cli.terminal: text made safe for it), no command
    assert not {m for m in loaded if m.startswith("tarotnotation.cli.")} - {
        "tarotnotation.cli.app", "tarotnotation.cli.commands", "tarotnotation.cli.language",
        "tarotnotation.cli.runner", "tarotnotation.cli.status", "tarotnotation.cli.terminal"}
    assert "pydantic" not in loaded


def test_the_lazy_help_is_the_help_of_the_commands_loaded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import typer.main

    monkeypatch.setenv("COLUMNS", "100")
    group = typer.main.get_command(get_app())
    ctx = group.make_context("tarot", [], resilient_parsing=True)
    lazy = group.get_help(ctx)
    assert set(group.commands.built) == {"version"}  # type: ignore[attr-defined]
    for name in list(group.commands):  # type: ignore[attr-defined]
        assert group.commands[name].name == name  # type: ignore[attr-defined]  # loaded
    assert group.get_help(ctx) == lazy


def test_a_command_imports_only_what_it_uses() -> None:
    out, loaded = _modules_after("validate", "-q", "examples/prise.tarot")
    assert "1 deal read" in out
    assert not {m for m in loaded if m.startswith("tarotnotation.cli.")} - {
        "tarotnotation.cli.app", "tarotnotation.cli.common", "tarotnotation.cli.language",
        "tarotnotation.cli.options", "tarotnotation.cli.runner", "tarotnotation.cli.terminal",
        "tarotnotation.cli.output", "tarotnotation.cli.progress", "tarotnotation.cli.report",
        "tarotnotation.cli.validate", "tarotnotation.cli.front", "tarotnotation.cli.declare",
        "tarotnotation.cli.status", "tarotnotation.cli.commands"}
    for unused in ("tarotnotation.analysis", "tarotnotation.html", "tarotnotation.archives",
                   "tarotnotation.narrator"):
        assert unused not in loaded


def test_version_warns_when_the_compiled_core_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAROT_PURE", raising=False)
    monkeypatch.setattr(native, "compiled", lambda force=False: None)
    warning = version_warning()
    assert warning is not None
    assert "pure-Python" in warning
    monkeypatch.setenv("TAROT_PURE", "1")  # asked for: no warning
    assert version_warning() is None


def test_version_does_not_warn_when_the_core_is_built() -> None:
    if native.compiled() is None:
        pytest.skip("the compiled core is not built here")
    assert version_warning() is None


#: What validating a clean deal never needs (issue 17): the command line's typer (and
#: click, rich, pydantic through it), the grammar, the record model and what is built on
#: it (the replay, the causes, the full readers' builder), the workers of a parallel run,
#: the score sheets' readers.
_NOT_FOR_A_CLEAN_DEAL = (
    "typer", "click", "rich", "pydantic", "pydantic_core", "lark", "multiprocessing",
    "concurrent", "tarotnotation.records", "tarotnotation.builder", "tarotnotation.faults",
    "tarotnotation.replay", "tarotnotation.causes", "tarotnotation.workers",
    "tarotnotation.formats.sheet", "tarotnotation.formats.sheetwords",
    "tarotnotation.cli.runner", "tarotnotation.cli.language")


#: What else each layout never needs (tarotnotation/values.py and issue 17): the
#: dataclasses module (and inspect, ast, tokenize, dis under it: orjson imports it, so
#: JSON Lines and a JSON report pay it), threading, gettext (a run in English),
#: fractions (no points written), copy, glob (no pattern left by the shell).
_NOT_ON_THE_PATH = {
    "tarot": ("dataclasses", "inspect", "ast", "dis", "tokenize", "threading", "gettext",
              "fractions", "decimal", "copy", "glob"),
    "jsonl": ("threading", "gettext", "fractions", "decimal", "glob"),  # (orjson's own: below)
    "whole-result": ("dataclasses", "inspect", "ast", "dis", "tokenize", "threading",
                     "gettext", "copy", "glob"),
}
_IMPORTED_BY_ORJSON = ("dataclasses", "inspect", "ast", "dis", "tokenize", "copy")


@pytest.mark.parametrize("layout", ["tarot", "jsonl", "whole-result"])
def test_validating_one_clean_deal_imports_no_model_grammar_nor_typer(
        layout: str, tmp_path: Path) -> None:
    # A clean deal, in the text notation or JSON Lines, with the scores or its whole
    # result, is judged by the quick check: none of the heavy parts is imported.
    import random

    from tarotnotation.formats import json as tjson
    from tarotnotation.notation import dumps
    from tarotnotation.simulate import random_deal

    rec = random_deal(random.Random(5), 4)
    if layout == "tarot":
        path = tmp_path / "one.tarot"
        path.write_text(dumps(rec), encoding="utf-8")
    elif layout == "jsonl":
        path = tmp_path / "one.jsonl"
        path.write_bytes(tjson.dumps_bytes(rec) + b"\n")
    else:
        path = ROOT / "examples" / "garde-sans.tarot"  # contract, taker, points, bouts
    for args in (["-q"], ["--format", "json"], []):
        # (a JSON report writes with orjson: what JSON Lines pays)
        unused = _NOT_FOR_A_CLEAN_DEAL + tuple(
            m for m in _NOT_ON_THE_PATH[layout]
            if "--format" not in args or m not in _IMPORTED_BY_ORJSON)
        out, loaded = _modules_after("validate", *args, str(path))
        assert '"errors": 0' in out or "1 valid, 0 with errors" in out, out
        assert not {m for m in loaded if m.split(".")[0] in unused or m in unused}, args


def test_a_faulty_deal_still_gets_the_full_replay() -> None:
    # The checks above are not vacuous: a fault takes the reader and the replay, which
    # word it.
    out, loaded = _modules_after("validate", "-q", "examples/faulty/revoke.tarot")
    assert "1 with errors" in out
    assert {"tarotnotation.replay", "tarotnotation.records", "tarotnotation.causes"} <= loaded
    assert "typer" not in loaded


def test_validating_the_notation_imports_no_other_format_nor_a_json_reader() -> None:
    # The registry imports a format's module when its format is asked (formats/registry.py:
    # the gates): a file of the notation is checked without the JSON, spreadsheet,
    # TarotClub and score-app readers, and without orjson.
    out, loaded = _modules_after("validate", "-q", "examples/prise.tarot")
    assert "1 valid, 0 with errors" in out
    others = {"orjson", "tarotnotation.formats.json", "tarotnotation.formats.jsonpos",
              "tarotnotation.formats.tarotclub", "tarotnotation.formats.scoreit",
              "tarotnotation.formats.matocolotoe", "tarotnotation.formats.xlsx",
              "tarotnotation.formats.csvsheet", "tarotnotation.legality"}
    assert not others & loaded, others & loaded
    assert "tarotnotation.formats.text" in loaded
    _, loaded = _modules_after("validate", "-q", "examples/sheets/scoreit-tarot-4.json")
    assert {"orjson", "tarotnotation.formats.scoreit"} <= loaded  # (not vacuous)


def test_validating_json_lines_imports_no_reader_of_text_or_workbooks(tmp_path: Path) -> None:
    # JSON asks the formats of JSON only, and TarotClub's reader takes the rules' module
    # when it reads a log, not to tell one from its first bytes. A record in the layout
    # the project writes (with the compiled core) is told and checked with no JSON reader
    # at all: no format is asked (formats/detect.py, _own).
    import random

    from tarotnotation import native
    from tarotnotation.formats import json as tjson
    from tarotnotation.simulate import random_deal

    line = tjson.dumps_bytes(random_deal(random.Random(5), 4))
    path = tmp_path / "one.jsonl"
    path.write_bytes(line + b"\n")
    # the same record in another layout (a blank after each colon): asked of the formats
    loose = tmp_path / "loose.jsonl"
    loose.write_bytes(line.replace(b'":', b'": ') + b"\n")
    others = {"tarotnotation.formats.xlsx", "tarotnotation.formats.csvsheet",
              "tarotnotation.legality", "tarotnotation.notation.reader"}
    out, loaded = _modules_after("validate", "-q", str(loose))
    assert "1 valid, 0 with errors" in out
    assert not others & loaded, others & loaded
    assert {"orjson", "tarotnotation.formats.tarotclub"} <= loaded  # (asked, not vacuous)
    out, loaded = _modules_after("validate", "-q", str(path))
    assert "1 valid, 0 with errors" in out
    assert not others & loaded, others & loaded
    readers = {"orjson", "tarotnotation.formats.json", "tarotnotation.formats.tarotclub",
               "tarotnotation.formats.scoreit", "tarotnotation.formats.matocolotoe"}
    if native.compiled() is not None:
        assert not readers & loaded, readers & loaded
    else:
        assert {"orjson", "tarotnotation.formats.tarotclub"} <= loaded


#: Common runs of the commands of the front door (cli/front.py), and what each never
#: needs: typer (and click and rich through it) for all; a command that reads no record
#: not even pydantic nor the grammar; a plain record read by the fast scanner, not the
#: grammar (lark); a replay without --analysis or --html not the solver nor a browser.
_FRONT_RUNS = [
    (["rules"], ("pydantic", "lark", "tarotnotation.records")),
    (["codes"], ("pydantic", "lark", "tarotnotation.records")),
    (["card", "kh"], ("pydantic", "lark", "tarotnotation.records")),
    (["score", "examples/garde-sans.tarot"], ("tarotnotation.narrator", "orjson", "lark")),
    (["replay", "examples/garde-sans.tarot"], ("tarotnotation.analysis", "webbrowser",
                                               "lark")),
    (["legal", "examples/prise.tarot", "-t", "2"], ()),
]


@pytest.mark.parametrize(("args", "unused"), _FRONT_RUNS, ids=[" ".join(a) for a, _ in _FRONT_RUNS])
def test_the_front_doors_commands_run_without_typer(args: list[str], unused: tuple[str, ...]
                                                    ) -> None:
    out, loaded = _modules_after(*args)
    assert out.strip()  # (it ran, and said something)
    assert not {m for m in loaded if m.split(".")[0] in ("typer", "click", "rich")}
    assert not {m for m in loaded if m in unused or m.split(".")[0] in unused}


def test_the_front_door_runs_are_not_vacuous() -> None:
    # The same probe sees typer when a command line goes to the typer app.
    _, loaded = _modules_after("score", "--lang", "en", "examples/garde-sans.tarot")
    assert "typer" in loaded
    _, loaded = _modules_after("replay", "--analysis", "--time-limit", "0.5",
                               "examples/analysis.tarot")
    assert "tarotnotation.analysis" in loaded
