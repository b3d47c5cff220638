"""The tarot command as a whole: help, version, usage errors, colour, ``python -m``.

The tests run the command through tests/support/cli_runs.py, as the other command tests do.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from cli_runs import (
    CLEAN_EXAMPLES,
    EXAMPLES,
    FAULTY,
    ROOT,
    TAROT,
    invoke,
    rel,
    run_exe,
    run_forked,
    stdout_on_a_terminal,
)

from tarotnotation import __version__
from tarotnotation.cli.app import app

pytestmark = pytest.mark.process

COMMANDS = ("validate", "replay", "score", "convert", "annotate", "fmt", "schema", "new",
            "legal", "rules", "codes", "card")


def test_the_entry_point_is_installed() -> None:
    assert TAROT.exists(), f"{TAROT} missing: install the package (pip install -e .)"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command: str) -> None:
    ran = invoke(command, "--help")
    assert ran.code == 0
    assert "Usage:" in ran.out
    assert f"tarot {command}" in ran.out.split("Usage:", 1)[1], ran.out
    example = ran.out.split("Example", 1)[1]
    assert f"tarot {command} " in example or f"tarot {command}\n" in example, ran.out


def test_top_level_help_lists_the_commands_and_hides_check() -> None:
    ran = invoke("--help")
    assert ran.code == 0
    for command in COMMANDS:
        assert command in ran.out
    assert " check " not in ran.out


def test_version_option_and_command() -> None:
    assert invoke("--version").out.strip() == f"tarot {__version__}"
    assert invoke("version").out.strip() == f"tarot {__version__}"
    ran = run_exe("--version")
    assert (ran.code, ran.out.strip()) == (0, f"tarot {__version__}")


def test_python_dash_m_runs_the_same_app() -> None:
    ran = run_exe("--version", module=True)
    assert (ran.code, ran.out.strip()) == (0, f"tarot {__version__}")
    ran = run_exe("validate", rel(FAULTY / "revoke.tarot"), module=True)
    assert ran.code == 1
    assert "revoke.tarot:21:8:" in ran.out


def test_no_arguments_prints_help() -> None:
    ran = run_exe()
    assert ran.code in (0, 2)
    assert "Usage:" in ran.out + ran.err


@pytest.mark.parametrize(("args", "message"), [
    (("validate", "--set", "misere=maybe", "examples"),
     "tarot: --rules/--set: rule switch misere cannot be 'maybe': expected on or off"),
    (("validate", "--set", "misere", "examples"),
     "tarot: --set 'misere': expected switch=value, e.g. --set misere=on"),
    (("validate", "--rules", "bridge", "examples"),
     "tarot: --rules/--set: unknown ruleset 'bridge': expected one of fft, pagat"),
    (("replay", "no/such/file.tarot"), "tarot: no/such/file.tarot: no such file"),
    (("replay", "examples"), "tarot: examples: is a folder, expected a file"),
    (("convert", "examples/prise.tarot", "--to", "pgn"),
     "tarot: --to pgn: unknown format: expected tarot, csv, json, jsonl or tarotclub"),
    (("convert", "examples/prise.tarot", "-o", "out.xyz"),
     "tarot: out.xyz: cannot tell the format from the name: give --to"),
    (("card", "ZZ"), "tarot: 'ZZ' is not a card code"),
])
def test_usage_errors_are_one_line_on_stderr_and_exit_two(args: tuple[str, ...],
                                                          message: str) -> None:
    ran = invoke(*args)
    assert ran.code == 2, ran
    assert ran.out == ""
    assert ran.err.startswith(message), ran.err
    assert len(ran.err.strip().splitlines()) == 1, ran.err


def test_usage_errors_from_the_installed_command() -> None:
    for args, message in [
        (("replay", "no/such/file.tarot"), "tarot: no/such/file.tarot: no such file"),
        (("convert", "examples/prise.tarot", "--to", "pgn"), "tarot: --to pgn: unknown format"),
    ]:
        ran = run_exe(*args)
        assert (ran.code, ran.out) == (2, ""), ran
        assert ran.err.startswith(message)
        assert len(ran.err.strip().splitlines()) == 1


def test_unknown_option_is_a_usage_error() -> None:
    ran = run_forked("validate", "--format", "xml", "examples")
    assert ran.code == 2
    assert "xml" in ran.err


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    # Piped: no escape sequences, whatever NO_COLOR says.
    ran = run_forked("validate", rel(FAULTY / "revoke.tarot"))
    assert "\x1b[" not in ran.out
    from tarotnotation.cli.common import use_color

    class Tty:
        def isatty(self) -> bool:
            return True

    old = os.environ.pop("NO_COLOR", None)
    try:
        assert use_color(Tty())
        os.environ["NO_COLOR"] = "1"
        assert not use_color(Tty())
    finally:
        os.environ.pop("NO_COLOR", None)
        if old is not None:
            os.environ["NO_COLOR"] = old


@pytest.mark.parametrize("content", [b"", b"\x00\xff garbage", b"[Players \"9\"]\n",
                                     b'{"players": "x"}', b"\xff\xfe\x00\x00", b"{"])
def test_bad_input_never_ends_in_a_traceback(tmp_path: Path, content: bytes) -> None:
    for suffix in (".tarot", ".json", ".jsonl"):
        path = tmp_path / f"bad{suffix}"
        path.write_bytes(content)
        for command in (["validate", str(path)], ["replay", str(path)], ["score", str(path)],
                        ["convert", str(path), "--to", "json"], ["annotate", str(path)],
                        ["fmt", "--check", str(path)]):
            ran = invoke(*command)
            assert ran.code in (0, 1, 2), (command, ran)


def _hooks() -> dict[str, dict[str, str]]:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("- id: "):
            current = hooks.setdefault(line.removeprefix("- id: "), {})
        elif line.startswith("  ") and ": " in line and current is not None:
            key, value = line.strip().split(": ", 1)
            current[key] = value
    return hooks


def test_pre_commit_hooks_run_existing_commands(tmp_path: Path) -> None:
    hooks = _hooks()
    assert set(hooks) == {"tarot-validate", "tarot-fmt", "tarot-fmt-check"}
    assert hooks["tarot-validate"]["entry"] == "tarot validate"
    assert hooks["tarot-fmt"]["entry"] == "tarot fmt"  # fixes, as black's hook does
    assert hooks["tarot-fmt-check"]["entry"] == "tarot fmt --check"  # only checks
    for hook in hooks.values():
        assert hook["language"] == "python"
        pattern = re.compile(hook["files"])
        assert pattern.search("club/deal.tarot")
        assert not pattern.search("README.md")
    # as pre-commit runs them: the entry, then the staged file names
    for name, hook in hooks.items():
        args = hook["entry"].split()[1:]
        ran = invoke(*args, *[rel(p) for p in CLEAN_EXAMPLES])
        assert ran.code == 0, (hook, ran)
        broken = tmp_path / "broken.tarot"
        broken.write_bytes((FAULTY / "syntax-error.tarot").read_bytes())
        assert invoke(*args, str(broken)).code == 1, name
    # tarot-fmt rewrites what tarot-fmt-check finds
    loose = tmp_path / "loose.tarot"
    loose.write_bytes((EXAMPLES / "prise.tarot").read_bytes().replace(b"\n", b"\r\n"))
    assert invoke(*hooks["tarot-fmt-check"]["entry"].split()[1:], str(loose)).code == 1
    assert invoke(*hooks["tarot-fmt"]["entry"].split()[1:], str(loose)).code == 0
    assert loose.read_bytes() == (EXAMPLES / "prise.tarot").read_bytes()
    assert invoke(*hooks["tarot-fmt-check"]["entry"].split()[1:], str(loose)).code == 0


def test_readme_shows_the_commands_it_documents() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/tarot validate examples/*.tarot" in readme
    assert "tarot check" not in readme
    assert "tarot validate records/ --format github" in readme
    for hook in _hooks():
        assert f"id: {hook}" in readme


def _ci_snippet() -> list[str]:
    """The commands of the README's GitHub Actions step."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in readme.split("```yaml")[1:] if "run: |" in b).split("```")[0]
    run = block.split("run: |", 1)[1]
    return [line.strip() for line in run.splitlines() if line.strip()]


def test_the_ci_snippet_installs_from_the_repository_and_its_commands_work(
        tmp_path: Path) -> None:
    from packaging.requirements import Requirement

    install, *commands = _ci_snippet()
    # `pip install tarotnotation` named a package the index does not have (issue 12)
    assert install.startswith("pip install ")
    requirement = Requirement(shlex.split(install)[2])
    assert requirement.name == "tarotnotation"
    assert requirement.url is not None
    assert requirement.url.startswith("git+https://github.com/")
    assert commands == ["tarot validate records/ --format github",
                        "tarot fmt --check records/"]
    records = tmp_path / "records"
    records.mkdir()
    for path in CLEAN_EXAMPLES[:4]:
        shutil.copyfile(path, records / path.name)
    for command in commands:  # (no network: the package is installed already)
        ran = run_forked(*shlex.split(command)[1:], cwd=tmp_path)
        assert ran.code == 0, (command, ran)
    assert run_forked(*shlex.split(commands[0])[1:], cwd=tmp_path).out.startswith(
        "::notice title=tarot validate::4 deals read from 4 files: 4 valid")
    shutil.copyfile(FAULTY / "revoke.tarot", records / "revoke.tarot")
    ran = run_forked(*shlex.split(commands[0])[1:], cwd=tmp_path)
    assert ran.code == 1
    assert ran.out.startswith("::error file=records/revoke.tarot,line=21,col=8,title=P105::")


def test_help_texts_fit_an_80_column_terminal() -> None:
    # Typer keeps the line breaks of help texts: a longer line would wrap raggedly.
    import inspect

    import typer.main

    group = typer.main.get_command(app)
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        for text in (cmd.help or "", cmd.epilog or ""):
            for line in inspect.cleandoc(text).splitlines():
                assert len(line) <= 76, (name, line)


def test_colour_on_a_terminal_unless_no_color() -> None:
    args = ["validate", rel(FAULTY / "revoke.tarot")]
    coloured = stdout_on_a_terminal(args, {})
    assert b"\x1b[31m" in coloured  # errors in red
    plain = stdout_on_a_terminal(args, {"NO_COLOR": "1"})
    assert b"\x1b[" not in plain
    assert b"revoke.tarot:21:8: P105 error: deal 1, trick 3" in plain
