"""The front door of the common invocations (cli/front.py) and the typer app give the same
bytes and the same exit status.

The common command lines of ``tarot validate`` and of every command but ``analyze`` and
``solve`` (cli/app.py FRONT_DOOR) run without typer (issue 17: start-up); any other command
line goes to the typer app. Each command line of the grid below runs twice, as a user runs
it and with ``TAROT_TYPER_ONLY=1`` (the typer app only), each in a process forked from one
that imported once what such a run imports first (tests/support/forkserver.py: the front door and
its commands' modules, not typer; the typer app and every command): standard output,
standard error and the exit status must be identical, byte for byte. One line in six of
the grid also runs as a fresh ``tarot`` process, which must say what the forked front door
says (nothing imported before the run changes a byte). The grid holds clean, faulty,
unreadable and missing inputs, standard input, every report format, the flags alone and
together, string options (``--rules``, ``--set`` repeated, ``--ruleset``, ``-o``), the
``check`` alias, and command lines the front door must hand over (another option, an
upper-case format, combined flags, ``--``, a value that starts with ``-``, a second file, a
missing required word).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from forkserver import ForkServer

from tarotnotation.cli import front
from tarotnotation.cli.app import FRONT_DOOR, TYPER_ONLY
from tarotnotation.formats import json as tjson
from tarotnotation.notation import dumps
from tarotnotation.simulate import random_deal

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One-deal files (clean), a JSON Lines file with a faulty deal after a clean one, and
    a club's small archive for the archive tools: a file of each kind the examples folder,
    ``@``, holds (a score sheet of 8 deals, deals at 3, 4 and 5 players, a faulty deal and
    an unreadable one, the CSV, spreadsheet and JSON score sheets, a JSON file of no
    deals), not its 30 files (each run of an archive tool over them half a second)."""
    folder = tmp_path_factory.mktemp("front")
    rec = random_deal(random.Random(17), 4)
    (folder / "one.tarot").write_text(dumps(rec), encoding="utf-8")
    (folder / "one.jsonl").write_bytes(tjson.dumps_bytes(rec) + b"\n")
    bad = tjson.to_dict(random_deal(random.Random(18), 4))
    bad["result"]["scores"]["S"] += 10
    (folder / "two.jsonl").write_bytes(tjson.dumps_bytes(rec) + b"\n" + tjson.dumps_bytes(
        tjson.from_dict(bad)) + b"\n")
    (folder / "junk.jsonl").write_bytes(b"\xff\xfe not json\n")
    club = tmp_path_factory.mktemp("front-club")
    for name in ("score-sheet.tarot", "prise.tarot", "misere.tarot", "garde-sans.tarot",
                 "three-players.tarot", "five-players.tarot", "faulty/revoke.tarot",
                 "faulty/syntax-error.tarot", "sheets/club-evening.csv",
                 "sheets/club-season.xlsx", "sheets/games_2026_11.json",
                 "sheets/scoreit-tarot-4.json", "sheets/players.json"):
        (club / name).parent.mkdir(exist_ok=True)
        (club / name).write_bytes((EXAMPLES / name).read_bytes())
    return {"one.tarot": str(folder / "one.tarot"), "one.jsonl": str(folder / "one.jsonl"),
            "two.jsonl": str(folder / "two.jsonl"), "junk.jsonl": str(folder / "junk.jsonl"),
            "folder": str(folder), "club": str(club),
            "out": str(tmp_path_factory.mktemp("front-out"))}


#: The grid: command lines (``{name}`` stands for a file of the fixture, ``@x`` for
#: examples/x) and, for some, what standard input holds. (The archive tools read the
#: fixture's small ``{club}``; ``validate --strict -v @`` reads every example.)
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
    # string options (validate)
    (["validate", "--ignore", "P1", "--ignore=R2", "@faulty"], None),
    (["validate", "--max-errors", "1", "--rules", "pagat", "@faulty"], None),
    (["check", "--rules", "pagat", "--set", "misere=on", "--set", "excuse_chelem=off",
      "@misere.tarot"], None),
    (["validate", "--ruleset=fft misere=on", "-o", "{out}/report.json", "{two.jsonl}"], None),
    (["validate", "--rules", "nosuch", "{one.tarot}"], None),
    (["validate", "--max-errors", "0", "@faulty"], None),
    (["validate", "-o", "-", "{one.tarot}"], None),
    (["validate", "--rules=", "{one.tarot}"], None),
    (["validate", "--rules", "-q", "{one.tarot}"], None),
    # score
    (["score", "{one.tarot}"], None),
    (["score", "-f", "json", "{two.jsonl}", "@faulty"], None),
    (["score", "--format=json", "-v", "@faulty/revoke.tarot"], None),
    (["score", "--format", "text", "--verbose", "@faulty", "@score-sheet.tarot"], None),
    (["score", "--rules", "pagat", "--set", "misere=on", "@misere.tarot"], None),
    (["score", "--ruleset", "pagat", "{one.jsonl}", "@garde-sans.tarot"], None),
    (["score", "--rules=nosuch", "{one.tarot}"], None),
    (["score", "--set", "misere", "{one.tarot}"], None),
    (["score", "no/such/file.tarot", "{one.tarot}"], None),
    (["score", "{junk.jsonl}"], None),
    (["score", "{folder}"], None),
    (["score", "-"], "two.jsonl"),
    (["score", "-f", "JSON", "{one.tarot}"], None),
    (["score", "--rules", "{one.tarot}"], None),
    (["score", "--rules", "-v", "{one.tarot}"], None),
    (["score", "-fjson", "{one.tarot}"], None),
    (["score"], None),
    (["score", "--help"], None),
    # replay
    (["replay", "@annotated.tarot"], None),
    (["replay", "@faulty/revoke.tarot", "-v", "--deal", "1"], None),
    (["replay", "{two.jsonl}", "-d", "2"], None),
    (["replay", "{two.jsonl}", "--deal=5"], None),
    (["replay", "@analysis.tarot", "--analysis"], None),
    (["replay", "@five-players.tarot", "--ruleset", "fft misere=on"], None),
    (["replay", "@prise.tarot", "-o", "{out}/page.html"], None),
    (["replay", "@prise.tarot", "--html", "--no-open", "-o", "{out}/page.html"], None),
    (["replay", "{folder}"], None),
    (["replay", "no/such/file.tarot"], None),
    (["replay", "{junk.jsonl}"], None),
    (["replay", "-"], "one.tarot"),
    (["replay", "@prise.tarot", "@misere.tarot"], None),
    (["replay", "@prise.tarot", "--deal", "0"], None),
    (["replay", "@prise.tarot", "--time-limit", "1"], None),
    (["replay", "-d", "1"], None),
    (["replay"], None),
    # rules, codes
    (["rules"], None),
    (["codes"], None),
    (["rules", "fft"], None),
    (["codes", "--help"], None),
    (["codes", "-"], None),
    # convert, query, stats, fmt, html, new, card, legal
    (["convert", "@prise.tarot", "--to", "json"], None),
    (["convert", "@prise.tarot", "@misere.tarot", "-t", "jsonl", "-v"], None),
    (["convert", "@prise.tarot", "-o", "{out}/p.json"], None),
    (["convert", "@faulty", "--to", "jsonl", "--skip-unreadable"], None),
    (["convert", "@sheets", "--to", "csv"], None),
    (["convert", "@prise.tarot", "--to", "xml"], None),
    (["convert", "@prise.tarot", "--to", "JSON"], None),
    (["query", "{club}", "--where", "contract >= garde", "--count"], None),
    (["query", "{club}", "-w", "not made", "-f", "table"], None),
    (["query", "{club}", "--fields", "Date,contract,taker"], None),
    (["query", "{club}", "-c", "-j", "2"], None),
    (["query", "{club}", "--where", "nonsense =="], None),
    (["stats", "{club}"], None),
    (["stats", "{club}", "--by", "contract", "-f", "json"], None),
    (["stats", "{club}", "--by", "seat", "--format", "csv", "-o", "{out}/s.csv"], None),
    (["stats", "{club}", "--by", "SEAT"], None),
    (["fmt", "--check", "@prise.tarot"], None),
    (["fmt", "--diff", "-q", "@annotated.tarot"], None),
    (["fmt", "--check", "@faulty/syntax-error.tarot"], None),
    (["html", "@prise.tarot", "-o", "{out}/p.html"], None),
    (["html", "@prise.tarot", "@misere.tarot", "--single-file", "--title", "Club", "-o",
      "{out}/b.html"], None),
    (["html", "@prise.tarot"], None),
    (["new", "--seed", "3"], None),
    (["new", "-s", "3", "-n", "2", "-p", "5", "-t", "jsonl"], None),
    (["new", "--daily", "2026-01-02"], None),
    (["new", "--daily", "2026-13-02"], None),
    (["new", "-p", "6"], None),
    (["new", "--seed", "-1"], None),
    (["card", "kh"], None),
    (["card", "T21"], None),
    (["card", "zz"], None),
    (["card"], None),
    (["legal", "@faulty/revoke.tarot", "--trick", "3", "--card", "1"], None),
    (["legal", "@faulty/revoke.tarot", "-t", "3"], None),
    (["legal", "@faulty/revoke.tarot", "--card", "1"], None),
    (["legal", "@prise.tarot", "-t", "30"], None),
    # schema, annotate, dedupe, standings, split, sort
    (["schema"], None),
    (["schema", "x"], None),
    (["annotate", "@prise.tarot"], None),
    (["annotate", "@faulty/revoke.tarot", "--to", "json"], None),
    (["annotate", "@prise.tarot", "-o", "{out}/a.tarot"], None),
    (["annotate", "@prise.tarot", "-i", "-o", "{out}/a.tarot"], None),
    (["dedupe", "{club}", "@prise.tarot"], None),
    (["dedupe", "{club}", "--by", "play", "--report"], None),
    (["dedupe", "{club}", "-o", "{out}/d.jsonl"], None),
    (["standings", "{club}"], None),
    (["standings", "{club}", "-f", "json"], None),
    (["standings", "{club}", "--method", "nosuch"], None),
    (["split", "@score-sheet.tarot", "-o", "{out}/split", "--force"], None),
    (["split", "@prise.tarot"], None),
    (["sort", "@score-sheet.tarot", "--by", "Deal", "-r"], None),
    (["sort", "@score-sheet.tarot", "--by", "Date", "--to", "jsonl"], None),
    (["sort", "@score-sheet.tarot"], None),
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


def _env(typer_only: bool, lang: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "CI", TYPER_ONLY, "TAROT_LANG")}
    env["LC_ALL"] = "C.UTF-8"
    if lang is not None:
        env["TAROT_LANG"] = lang
    if typer_only:
        env[TYPER_ONLY] = "1"
    return env


SCRIPT = Path(sys.executable).with_name("tarot")


def _tarot(args: list[str], stdin: bytes, typer_only: bool, lang: str | None = None
           ) -> subprocess.CompletedProcess[bytes]:
    cmd = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "tarotnotation"]
    return subprocess.run([*cmd, *args], input=stdin, capture_output=True,
                          env=_env(typer_only, lang), cwd=ROOT, timeout=120, check=False)


@pytest.fixture(scope="module")
def typer_app() -> Iterator[ForkServer]:
    """The typer app's runs of the grid: each a process forked from one interpreter that
    imported the app once (tests/support/forkserver.py), as the ``tarot`` script runs it with
    ``TAROT_TYPER_ONLY=1`` (half a second of imports a run otherwise)."""
    server = ForkServer(_env(typer_only=True), str(SCRIPT))
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def front_door() -> Iterator[ForkServer]:
    """The grid's runs as the ``tarot`` script runs them: each a process forked from one
    interpreter that imported the front door and its commands' modules once (not typer,
    which a run the front door hands over imports, as a fresh process does)."""
    server = ForkServer(_env(typer_only=False), str(SCRIPT), typer=False)
    try:
        yield server
    finally:
        server.close()


@pytest.mark.parametrize(("args", "stdin"), GRID, ids=[" ".join(a) for a, _ in GRID])
def test_the_front_door_and_the_typer_app_say_the_same(
        args: list[str], stdin: str | None, files: dict[str, str],
        front_door: ForkServer, typer_app: ForkServer) -> None:
    words = _words(args, files)
    data = Path(files[stdin]).read_bytes() if stdin else b""
    front_run = front_door.run(words, data, ROOT)
    typer_run = typer_app.run(words, data, ROOT)
    assert front_run.stdout == typer_run.stdout
    assert front_run.stderr == typer_run.stderr
    assert front_run.returncode == typer_run.returncode
    assert b"Traceback" not in front_run.stderr


#: One line in six of the grid, run again as a fresh ``tarot`` process.
FRESH = GRID[::6]


@pytest.mark.parametrize(("args", "stdin"), FRESH, ids=[" ".join(a) for a, _ in FRESH])
def test_a_fresh_tarot_process_says_what_the_forked_front_door_says(
        args: list[str], stdin: str | None, files: dict[str, str],
        front_door: ForkServer) -> None:
    words = _words(args, files)
    data = Path(files[stdin]).read_bytes() if stdin else b""
    fresh = _tarot(words, data, typer_only=False)
    forked = front_door.run(words, data, ROOT)
    assert (fresh.stdout, fresh.stderr, fresh.returncode) == (
        forked.stdout, forked.stderr, forked.returncode)
    assert b"Traceback" not in fresh.stderr


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
        k: k for k in ("one.tarot", "one.jsonl", "two.jsonl", "junk.jsonl", "folder", "club",
                       "out")}))]
    assert len(taken) >= 50
    assert {args[0] for args in taken} == {"check", *FRONT_DOOR}
    assert front.parse(["validate", "-j", "2", "x"]) is not None
    assert front.parse(["score", "--rules", "pagat", "x"]) is not None
    assert front.parse(["score", "--rules", "-x", "x"]) is None
    assert front.parse(["score", "--rules=", "x"]) is None
    assert front.parse(["replay", "x", "y"]) is None
    assert front.parse(["replay", "--deal", "1"]) is None
    assert front.parse(["rules", "x"]) is None
    assert front.parse(["validate", "-j", "two", "x"]) is None
    assert front.parse(["validate", "--format", "JSON", "x"]) is None
    assert front.parse(["validate", "--", "x"]) is None
    assert front.parse(["validate", "--help"]) is None
    assert front.parse(["--lang", "fr", "validate", "x"]) is None


def test_the_front_door_reads_the_commands_own_declaration() -> None:
    # Its words are the declaration's: every flag and option it takes is an option of
    # the command as typer builds it, with the same names, and a number within the
    # bounds typer checks; a command of the front door imports no typer to declare them.
    import typer.main

    from tarotnotation.cli.app import COMMANDS, FRONT_DOOR, get_app

    group = typer.main.get_command(get_app())
    for name in FRONT_DOOR:
        entry = next(e for e in COMMANDS if e.name == name)
        module, fn = entry.load()
        assert "typer" not in vars(module), name
        words = front.declared_words(fn)
        assert words is not None, name
        built = group.commands[name]  # type: ignore[attr-defined]
        options = {opt: p for p in built.params for opt in getattr(p, "opts", [])}
        for word, param in words.flags.items():
            assert options[word].name == param
            assert options[word].is_flag
        for word, (param, read) in words.valued.items():
            option = options[word]
            assert option.name == param
            assert not option.is_flag
            assert option.multiple == (param in words.lists)
            low, high = getattr(option, "min", None), getattr(option, "max", None)
            if low is not None:  # the bounds typer checks
                assert read(str(low)) == low
                assert read(str(low - 1)) is None
            if high is not None:
                assert read(str(high)) == high
                assert read(str(high + 1)) is None
        assert words.required == {p.name for p in built.params if p.required}, name
        assert [p.name for p in built.params if p.param_type_name == "argument"] == (
            [] if words.argument is None else [words.argument[0]]), name
    words = {name: front.declared_words(next(e for e in COMMANDS if e.name == name).load()[1])
             for name in ("validate", "score", "replay")}
    assert {"-q", "--quiet", "--strict", "-v"} <= set(words["validate"].flags)
    assert {"--format", "-f", "-j", "--jobs", "-o", "--rules", "--set", "--ruleset",
            "--ignore", "--max-errors"} <= set(words["validate"].valued)
    assert {"--format", "-f", "--rules", "--set", "--ruleset"} <= set(words["score"].valued)
    assert {"--deal", "-d", "-o", "--output"} <= set(words["replay"].valued)
    assert {"--html", "--no-open", "--analysis", "-v"} <= set(words["replay"].flags)
    assert "--time-limit" not in words["replay"].valued  # (a float: typer's)
