"""The front door of the common invocations (cli/front.py) and the typer app give the same
bytes and the same exit status.

``tarot validate [-q] [-f FORMAT] PATH...`` runs without typer (issue 17: start-up); any
other command line goes to the typer app. Each command line of the grid below runs twice,
as a user runs it (the ``tarot`` process) and with ``TAROT_TYPER_ONLY=1`` (the typer app
only): standard output, standard error and the exit status must be identical, byte for
byte. The grid holds clean, faulty, unreadable and missing inputs, standard input, every
report format, the flags alone and together, the ``check`` alias, and command lines the
front door must hand over (another option, an upper-case format, combined flags, ``--``).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tarotnotation.cli import front
from tarotnotation.cli.app import TYPER_ONLY
from tarotnotation.formats import json as tjson
from tarotnotation.notation import dumps
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One-deal files (clean), and a JSON Lines file with a faulty deal after a clean one."""
    folder = tmp_path_factory.mktemp("front")
    rec = random_deal(random.Random(17), 4)
    (folder / "one.tarot").write_text(dumps(rec), encoding="utf-8")
    (folder / "one.jsonl").write_bytes(tjson.dumps(rec) + b"\n")
    bad = tjson.to_dict(random_deal(random.Random(18), 4))
    bad["result"]["scores"]["S"] += 10
    (folder / "two.jsonl").write_bytes(tjson.dumps(rec) + b"\n" + tjson.dumps(
        tjson.from_dict(bad)) + b"\n")
    (folder / "junk.jsonl").write_bytes(b"\xff\xfe not json\n")
    return {"one.tarot": str(folder / "one.tarot"), "one.jsonl": str(folder / "one.jsonl"),
            "two.jsonl": str(folder / "two.jsonl"), "junk.jsonl": str(folder / "junk.jsonl"),
            "folder": str(folder)}


#: The grid: command lines (``{name}`` stands for a file of the fixture, ``@x`` for
#: examples/x) and, for some, what standard input holds.
GRID: list[tuple[list[str], str | None]] = [
    (["validate", "{one.tarot}"], None),
    (["validate", "-q", "{one.tarot}"], None),
    (["validate", "--quiet", "{one.jsonl}"], None),
    (["validate", "{one.jsonl}", "-q", "--format", "json"], None),
    (["validate", "-f", "jsonl", "{two.jsonl}"], None),
    (["validate", "--format=github", "{two.jsonl}", "@faulty"], None),
    (["validate", "--format", "junit", "{one.tarot}", "{two.jsonl}"], None),
    (["validate", "--format", "text", "--statistics", "@faulty"], None),
    (["validate", "--strict", "-v", "@"], None),
    (["validate", "--exit-zero", "--verbose", "{two.jsonl}", "@faulty/revoke.tarot"], None),
    (["validate", "-q", "--strict", "--exit-zero", "{junk.jsonl}"], None),
    (["validate", "no/such/file.tarot", "{one.tarot}"], None),
    (["validate", "'@*.tarot'"], None),
    (["validate", "{folder}"], None),
    (["check", "-q", "{one.tarot}"], None),
    (["validate", "-q", "-"], "one.tarot"),
    (["validate", "-", "-f", "json"], "two.jsonl"),
    (["validate", "-", "-"], None),
    (["validate", "-j", "2", "{two.jsonl}"], None),
    (["validate", "-q", "--jobs=0", "{one.tarot}", "{two.jsonl}"], None),
    (["validate", "--jobs", "1", "-j", "2", "-f", "jsonl", "{two.jsonl}", "@faulty"], None),
    # handed over to typer: another option, an upper-case choice, combined flags, --,
    # a number with a sign, out of bounds, not ASCII digits, glued to its option, missing
    (["validate", "-j", "+2", "{two.jsonl}"], None),
    (["validate", "-j", "-1", "{two.jsonl}"], None),
    (["validate", "-j", "\u0662", "{two.jsonl}"], None),
    (["validate", "-j2", "{two.jsonl}"], None),
    (["validate", "-j=2", "{two.jsonl}"], None),
    (["validate", "{two.jsonl}", "-j"], None),
    (["validate", "--format", "JSON", "{one.tarot}"], None),
    (["validate", "-qv", "{one.tarot}"], None),
    (["validate", "--", "{one.tarot}"], None),
    (["validate", "--format", "xml", "{one.tarot}"], None),
    (["validate", "-f"], None),
    (["validate", "-q"], None),
    (["validate", "--lang", "fr", "@faulty/revoke.tarot"], None),
]


def _words(args: list[str], files: dict[str, str]) -> list[str]:
    out = []
    for word in args:
        for key, value in files.items():
            word = word.replace("{" + key + "}", value)
        if word.startswith("'@"):
            word = str(EXAMPLES / word[2:-1])
        elif word.startswith("@"):
            word = str(EXAMPLES / word[1:])
        out.append(word)
    return out


def _tarot(args: list[str], stdin: bytes, typer_only: bool, lang: str | None = None
           ) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "CI", TYPER_ONLY, "TAROT_LANG")}
    env["LC_ALL"] = "C.UTF-8"
    if lang is not None:
        env["TAROT_LANG"] = lang
    if typer_only:
        env[TYPER_ONLY] = "1"
    script = Path(sys.executable).with_name("tarot")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "tarotnotation"]
    return subprocess.run([*cmd, *args], input=stdin, capture_output=True, env=env,
                          cwd=ROOT, timeout=120, check=False)


@pytest.mark.parametrize(("args", "stdin"), GRID, ids=[" ".join(a) for a, _ in GRID])
def test_the_front_door_and_the_typer_app_say_the_same(
        args: list[str], stdin: str | None, files: dict[str, str]) -> None:
    words = _words(args, files)
    data = Path(files[stdin]).read_bytes() if stdin else b""
    front_run = _tarot(words, data, typer_only=False)
    typer_run = _tarot(words, data, typer_only=True)
    assert front_run.stdout == typer_run.stdout
    assert front_run.stderr == typer_run.stderr
    assert front_run.returncode == typer_run.returncode
    assert b"Traceback" not in front_run.stderr


def test_both_doors_speak_the_language_of_the_environment(files: dict[str, str]) -> None:
    words = ["validate", "--statistics", str(EXAMPLES / "faulty"), files["two.jsonl"]]
    front_run = _tarot(words, b"", typer_only=False, lang="fr")
    typer_run = _tarot(words, b"", typer_only=True, lang="fr")
    assert "erreur" in front_run.stdout.decode()
    assert (front_run.stdout, front_run.stderr, front_run.returncode) == (
        typer_run.stdout, typer_run.stderr, typer_run.returncode)


def test_the_grid_runs_both_doors() -> None:
    # The grid is not vacuous: the front door takes most of its command lines (those it
    # must, by its rules), and hands the others over.
    taken = [args for args, _ in GRID if front.parse(_words(args, {
        k: k for k in ("one.tarot", "one.jsonl", "two.jsonl", "junk.jsonl", "folder")}))]
    assert len(taken) >= 15
    assert front.parse(["validate", "-j", "2", "x"]) is not None
    assert front.parse(["validate", "-j", "two", "x"]) is None
    assert front.parse(["validate", "--format", "JSON", "x"]) is None
    assert front.parse(["validate", "--", "x"]) is None
    assert front.parse(["validate", "--help"]) is None
    assert front.parse(["--lang", "fr", "validate", "x"]) is None


def test_the_front_door_reads_the_commands_own_declaration() -> None:
    # Its words are the declaration's: every flag and choice it takes is an option of
    # the command as typer builds it, with the same names.
    import typer.main

    from tarotnotation.cli.app import COMMANDS, FRONT_DOOR, get_app

    group = typer.main.get_command(get_app())
    for name in FRONT_DOOR:
        entry = next(e for e in COMMANDS if e.name == name)
        _, fn = entry.load()
        words = front.declared_words(fn)
        assert words is not None
        _, flags, choices, numbers = words
        built = group.commands[name]  # type: ignore[attr-defined]
        options = {opt: p for p in built.params for opt in getattr(p, "opts", [])}
        for word, param in {**flags, **{w: p for w, (p, _) in choices.items()},
                            **{w: p for w, (p, _, _) in numbers.items()}}.items():
            assert options[word].name == param
        for word, (_, low, high) in numbers.items():  # the bounds typer checks
            assert (options[word].min, options[word].max) == (low, high)
        assert {"-q", "--quiet", "--strict", "-v"} <= set(flags)
        assert {"--format", "-f"} <= set(choices)
        assert {"-j", "--jobs"} <= set(numbers)
