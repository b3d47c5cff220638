"""Lazy start-up (issue 17): ``tarot --version`` imports no command and not typer,
``tarot --help`` lists every command from the table's summaries without importing any,
and a command imports its own modules only. (The start-up times themselves are measured
by hand with ``python -X importtime`` and repeated runs; never by a timed test.)"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tarotnotation import __version__, native
from tarotnotation.cli.app import ALIASES, COMMANDS, get_app, version_warning

ROOT = Path(__file__).resolve().parents[1]

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
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI")}
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
        "tarotnotation.cli", "tarotnotation.cli.app", "tarotnotation.native",
        "tarotnotation._kernel"}


def test_help_lists_every_command_and_imports_none() -> None:
    out, loaded = _modules_after("--help")
    for entry in COMMANDS:
        assert f" {entry.name} " in out
    assert "check" not in out.split()  # hidden
    # the app, the group's language (cli.language: --lang, the help in the run's
    # language) and how every command runs (cli.runner: one-line usage errors, the exit
    # statuses, signals; cli.terminal: text made safe for it), no command
    assert not {m for m in loaded if m.startswith("tarotnotation.cli.")} - {
        "tarotnotation.cli.app", "tarotnotation.cli.language", "tarotnotation.cli.runner",
        "tarotnotation.cli.terminal"}
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
        "tarotnotation.cli.validate"}
    for unused in ("tarotnotation.analysis", "tarotnotation.html", "tarotnotation.archives",
                   "tarotnotation.annotate"):
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
