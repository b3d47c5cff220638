"""What every command promises, tested on every command the CLI registers.

The commands are walked from ``cli/app.py`` (its COMMANDS table and the typer app itself,
hidden aliases included), so a command added later is held to the same promises without
anyone adding it here:

- the exit-status table of the README (0 clean, 1 faults in the records or no deal read,
  2 could not run: usage, a path or file that cannot be read, after the others were
  checked; the highest wins);
- no command writes over one of its inputs (the same path, a hard link, a symbolic link):
  exit 2 before anything is read or written, the input untouched;
- ``-o -`` is standard output; an output's name and what is written agree;
- a usage error is one line on standard error; help names arguments plainly;
- control characters in records and file names never reach the output raw.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from cli_runs import EXAMPLES, FAULTY, ROOT, TAROT, invoke, run_forked

from tarotnotation.archive import format_of
from tarotnotation.cli.app import COMMANDS, app
from tarotnotation.formats import json as tjson

GROUP: Any = typer.main.get_command(app)
#: Every command the app registers (hidden aliases included), by name.
REGISTERED: dict[str, Any] = dict(GROUP.commands)
#: Arguments that name records to read: the project's conventions (cli/options.py).
READS = frozenset({"FILE", "IN", "IN...", "PATH..."})
#: Arguments that are not paths.
OTHER_ARGUMENTS = frozenset({"CODE", "[DATE]", "A", "B"})
#: The arguments a command that reads no record is run with (its required ones): card's
#: CODE, match's two bots (and one deal, to be quick).
EXAMPLE_ARGUMENTS = {"card": ["KH"], "match": ["random", "random", "--deals", "1"]}
#: The commands that write one whole output of every input (a site, a page of every
#: deal): a path that cannot be read stops them before anything is written (exit 2), so
#: that an earlier complete output is never replaced by one with deals missing.
WHOLE_OR_NOTHING = frozenset({"html"})
#: The commands that read records but do not judge them by the rules (they do not replay,
#: replay only for the facts they select or count, or judge a position, not the record): a
#: rule fault is no fault to them, a deal that cannot be read is (the README's exit-status
#: table says so). A command added later judges the rules unless it is named here.
NOT_JUDGING = frozenset({"fmt", "convert", "query", "stats", "standings", "dedupe", "split",
                         "sort", "solve"})


def _arguments(name: str) -> list[Any]:
    return [p for p in REGISTERED[name].params if p.param_type_name == "argument"]


def _metavar(param: Any) -> str:
    return str(param.metavar or param.name.upper())


def _reads(name: str) -> bool:
    return any(_metavar(p) in READS for p in _arguments(name))


def _many(name: str) -> bool:
    return any(_metavar(p).endswith("...") for p in _arguments(name))


def _option(name: str, opt: str) -> Any:
    for p in REGISTERED[name].params:
        if opt in getattr(p, "opts", ()):
            return p
    return None


def _writes(name: str) -> bool:
    return _option(name, "--output") is not None


def _output_options(name: str) -> list[list[str]]:
    """The ways the command is told to write a file: ``-o`` (with the flag that -o goes
    with, such as replay's ``--html``), and any other option naming a file to write
    (standings' ``--html PAGE``)."""
    html = _option(name, "--html")
    flag = ["--html"] if html is not None and html.is_flag else []
    ways = [[*flag, "-o"]]
    if html is not None and not html.is_flag:
        ways.append(["--html"])
    return ways


#: Where a required output (html's, split's -o) goes: never into the working tree.
SCRATCH = Path(tempfile.mkdtemp(prefix="tarot-contract-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def required(name: str, given: tuple[str, ...] = ()) -> list[str]:
    """Values for the command's required options not ``given``: a fresh folder for an
    output, 1 for a number."""
    out: list[str] = []
    for p in REGISTERED[name].params:
        if p.param_type_name == "option" and p.required and not set(p.opts) & set(given):
            value = (tempfile.mkdtemp(dir=SCRATCH) + "/out" if "--output" in p.opts
                     else "1")
            out += [p.opts[-1], value]
    return out


READING = sorted(n for n in REGISTERED if _reads(n))
NOT_READING = sorted(n for n in REGISTERED if not _reads(n))
WRITING = sorted(n for n in READING if _writes(n))


def test_the_walk_sees_every_command_of_the_table() -> None:
    names = {name for name, *_ in COMMANDS}
    assert names <= set(REGISTERED)
    assert "check" in REGISTERED  # the hidden alias is held to the same table
    for name in REGISTERED:  # every argument is known: a path, or not one
        for param in _arguments(name):
            assert _metavar(param) in READS | OTHER_ARGUMENTS, (name, _metavar(param))
    assert {"validate", "replay", "score", "convert", "annotate", "fmt", "legal"} <= set(
        READING)
    assert {"validate", "convert", "annotate"} <= set(WRITING)


#: Options that bound how long a command searches (the solver's), set small wherever a
#: command takes them, so that walking every command stays quick.
BOUNDS = {"--budget": "500"}


def bounded(name: str) -> list[str]:
    out: list[str] = []
    for p in REGISTERED[name].params:
        for opt in getattr(p, "opts", ()):
            if opt in BOUNDS:
                out += [opt, BOUNDS[opt]]
    return out


def _run(name: str, *args: str, cwd: Path | None = None) -> Any:
    full = [name, *args, *required(name, args), *bounded(name)]
    if cwd is None:
        return invoke(*full)
    return run_forked(*full, cwd=cwd)


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    """A copy of each case's file, so that no command can touch the examples."""
    cases = {
        "clean": EXAMPLES / "prise.tarot",
        "rule-fault": FAULTY / "revoke.tarot",
        "syntax-fault": FAULTY / "syntax-error.tarot",
    }
    out = {}
    for case, source in cases.items():
        out[case] = tmp_path / f"{case}.tarot"
        shutil.copyfile(source, out[case])
    out["empty"] = tmp_path / "empty.tarot"
    out["empty"].write_bytes(b"")
    out["blank"] = tmp_path / "blank.tarot"
    out["blank"].write_bytes(b"\n  \n\t\n")
    out["missing"] = tmp_path / "missing.tarot"
    out["empty-folder"] = tmp_path / "empty-folder"
    out["empty-folder"].mkdir()
    return out


@pytest.mark.parametrize("name", READING)
def test_exit_status_table_for_every_command_that_reads(name: str,
                                                        inputs: dict[str, Path]) -> None:
    expected = {"clean": 0, "rule-fault": 0 if name in NOT_JUDGING else 1,
                "syntax-fault": 1, "empty": 1, "blank": 1, "missing": 2}
    for case, code in expected.items():
        ran = _run(name, str(inputs[case]))
        assert ran.code == code, (name, case, ran)
    if _many(name):  # one missing path among several: reported, the rest checked, 2
        ran = _run(name, str(inputs["missing"]), str(inputs["rule-fault"]))
        assert ran.code == 2, ran
        assert str(inputs["missing"]) in ran.out + ran.err
        if name in WHOLE_OR_NOTHING:  # nothing written, after saying why
            assert "nothing written" in ran.err
        elif name not in NOT_JUDGING:  # the other file was checked: its fault is reported
            assert f"{inputs['rule-fault']}:21:8: " in ran.out + ran.err
        ran = _run(name, str(inputs["empty-folder"]))  # no deal read at all: 1, as a file
        assert ran.code == 1, ran
        ran = _run(name, str(inputs["clean"]), str(inputs["empty"]))
        assert ran.code == 0, ran  # a file with no deal is a warning when others have some
        assert "F005" in ran.out + ran.err
        ran = _run(name, "--strict", str(inputs["clean"]), str(inputs["empty"])) if any(
            "--strict" in getattr(p, "opts", ()) for p in REGISTERED[name].params) else None
        assert ran is None or ran.code == 1


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_a_usage_error_is_one_line_and_exit_two(name: str) -> None:
    ran = invoke(name, "--no-such-option", *(["x"] if _arguments(name) else []))
    assert ran.code == 2, ran
    assert ran.out == ""
    assert ran.err.startswith("tarot: no such option: --no-such-option"), ran.err
    assert len(ran.err.strip().splitlines()) == 1
    if any(p.required for p in _arguments(name)):  # without it: what it needs, in one line
        ran = invoke(name, *required(name))
        assert ran.code == 2
        assert ran.err.startswith(f"tarot: {name} needs "), ran.err
        assert len(ran.err.strip().splitlines()) == 1


#: The commands that serve until they are stopped (``tarot play``, ``tarot serve``): no end
#: of work to exit 0 at; their Ctrl-C (130, nothing left behind) is tested with them
#: (tests/play, tests/serve/test_serve_cli.py).
SERVING = frozenset({"play", "serve"})


@pytest.mark.parametrize("name", [n for n in NOT_READING if n not in SERVING])
def test_commands_without_records_exit_zero(name: str) -> None:
    needs = any(p.required for p in _arguments(name))
    ran = invoke(name, *(EXAMPLE_ARGUMENTS[name] if needs else []))
    assert ran.code == 0, ran


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_help_names_arguments_and_values_plainly(name: str) -> None:
    ran = invoke(name, "--help")
    assert ran.code == 0
    for bad in ("<list[", "<int", "<bool>", "<str>", "{PATH", "╭", "│"):
        assert bad not in ran.out, (name, bad, ran.out)
    usage = ran.out.splitlines()[0]
    for param in _arguments(name):
        assert usage.endswith(_metavar(param)) or f" {_metavar(param)} " in usage, usage


@pytest.mark.process
def test_a_command_typo_gets_a_suggestion() -> None:
    ran = run_forked("valdate", "examples")
    assert ran.code == 2
    assert ran.err == ("tarot: no command 'valdate': did you mean 'validate'? (tarot --help"
                       " lists the commands)\n")
    ran = run_forked("fmt")
    assert (ran.code, ran.err) == (2, "tarot: fmt needs PATH...: see 'tarot fmt --help'\n")
    ran = run_forked("validate", "--formt", "json", "examples")
    assert ran.err == ("tarot: no such option: --formt: did you mean --format? (see 'tarot"
                       " validate --help')\n")


# --- never over an input ---------------------------------------------------------------------


def _aliases(tmp_path: Path, target: Path) -> Iterator[tuple[str, Path]]:
    yield "the same path", target
    hard = tmp_path / "hard-link.tarot"
    os.link(target, hard)
    yield "a hard link", hard
    soft = tmp_path / "symbolic-link.tarot"
    soft.symlink_to(target)
    yield "a symbolic link", soft
    relative = tmp_path / "sub" / ".." / target.name
    (tmp_path / "sub").mkdir()
    yield "another spelling", relative


@pytest.mark.parametrize("name", WRITING)
def test_no_command_writes_over_one_of_its_inputs(name: str, tmp_path: Path) -> None:
    source = tmp_path / "archive.tarot"
    data = (EXAMPLES / "score-sheet.tarot").read_bytes()
    source.write_bytes(data)
    for how, alias in _aliases(tmp_path, source):
        for way in _output_options(name):
            ran = _run(name, str(source), *way, str(alias))
            assert ran.code == 2, (how, way, ran)
            assert ran.out == ""
            assert ran.err.startswith(f"tarot: {alias}: this is one of the inputs"), (
                how, way, ran.err)
            assert len(ran.err.strip().splitlines()) == 1
            assert source.read_bytes() == data, how
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "archive.tarot", "hard-link.tarot", "sub", "symbolic-link.tarot"]  # no temporary
    if _many(name):  # a file found in a folder named is an input too
        ran = _run(name, str(tmp_path), "-o", str(source))
        assert ran.code == 2, ran
        assert source.read_bytes() == data


@pytest.mark.process
@pytest.mark.parametrize("name", WRITING)
def test_standard_input_that_is_the_output_file_is_refused(name: str, tmp_path: Path) -> None:
    # tarot query - --where made -o v.tarot < v.tarot left v.tarot empty (issue 31): the
    # shell opens the file as standard input, and the output replaced it before it was
    # read. Standard input's device and inode are compared with the output's, as a named
    # input's are. (Forked runs, standard input the file as the shell opens it; the
    # installed script's own run: test_the_installed_command_refuses_its_standard_input.)
    source = tmp_path / "v.tarot"
    data = (EXAMPLES / "score-sheet.tarot").read_bytes()
    source.write_bytes(data)
    for way in _output_options(name):
        ran = run_forked(name, "-", *way, str(source), *required(name, tuple(way)),
                         *bounded(name), cwd=tmp_path, stdin_file=source)
        assert ran.code == 2, (way, ran.err)
        assert ran.err == (f"tarot: {source}: this is one of the inputs (it is standard"
                           " input): it would be written over; write to another file\n"), (
            way, ran.err)
        assert source.read_bytes() == data, way
    assert [p.name for p in tmp_path.iterdir()] == ["v.tarot"]  # no temporary file
    # a pipe on standard input is no file: the output is written
    ran = run_forked(name, "-", *_output_options(name)[0], str(tmp_path / "out"),
                     *required(name, ("-o",)), *bounded(name), stdin=data, cwd=tmp_path)
    assert "this is one of the inputs" not in ran.err


@pytest.mark.process
def test_the_installed_command_refuses_its_standard_input(tmp_path: Path) -> None:
    # The case of issue 31 as a user meets it: the installed script, its standard input
    # the output file (the other commands: forked runs, above).
    source = tmp_path / "v.tarot"
    data = (EXAMPLES / "score-sheet.tarot").read_bytes()
    source.write_bytes(data)
    with source.open("rb") as stdin:
        done = subprocess.run([str(TAROT), "query", "-", "--where", "made", "-o",
                               str(source)], stdin=stdin, capture_output=True, cwd=tmp_path,
                              timeout=120, check=False)
    assert (done.returncode, done.stderr.decode()) == (
        2, f"tarot: {source}: this is one of the inputs (it is standard input): it would be"
           " written over; write to another file\n")
    assert source.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["v.tarot"]


@pytest.mark.process
@pytest.mark.parametrize("name", WRITING)
def test_dash_o_dash_is_standard_output(name: str, tmp_path: Path) -> None:
    source = tmp_path / "prise.tarot"
    shutil.copyfile(EXAMPLES / "prise.tarot", source)
    flags = _output_options(name)[0][:-1]  # (what -o goes with: replay's --html)
    ran = _run(name, str(source), *flags, "-o", "-", cwd=tmp_path)
    assert not (tmp_path / "-").exists()
    if _option(name, "--output").metavar == "DIR":  # files in a folder: no stream holds them
        assert ran.code == 2, ran
        assert ran.err.startswith("tarot: -o -: "), ran.err
        return
    assert ran.code == 0, ran
    assert ran.out


@pytest.mark.process
def test_new_dash_o_dash_is_standard_output(tmp_path: Path) -> None:
    ran = run_forked("new", "--seed", "1", "-o", "-", cwd=tmp_path)
    assert ran.code == 0
    assert ran.out.startswith("[")
    assert not (tmp_path / "-").exists()


def test_the_output_name_and_what_is_written_agree(tmp_path: Path) -> None:
    # annotate x.json -o y.json wrote the notation into y.json (issue 12): it writes JSON
    source = tmp_path / "deal.json"
    assert invoke("convert", str(EXAMPLES / "prise.tarot"), "-o", str(source)).code == 0
    out = tmp_path / "annotated.json"
    assert invoke("annotate", str(source), "-o", str(out)).code == 0
    assert format_of(out) == "json"
    assert tjson.load(out).play  # the record, as JSON, with its computed comments
    assert '"tarot: E wins (defence), 9 points' in out.read_text(encoding="utf-8")
    # --to says otherwise, explicitly
    assert invoke("annotate", str(source), "-o", str(tmp_path / "a.json"), "--to",
                  "tarot").code == 0
    assert format_of(tmp_path / "a.json") == "tarot"
    # a name that says no format is refused, unless --to says which
    ran = invoke("annotate", str(source), "-o", str(tmp_path / "a.txt"))
    assert ran.code == 2
    assert "cannot tell the format from the name: give --to" in ran.err
    # a report named like records is refused; a report's format follows its name
    ran = invoke("validate", str(source), "-o", str(tmp_path / "report.tarot"))
    assert (ran.code, ran.err.split(":")[0]) == (2, "tarot")
    assert "not a report" in ran.err
    assert not (tmp_path / "report.tarot").exists()
    assert invoke("validate", str(source), "-o", str(tmp_path / "report.xml")).code == 0
    assert (tmp_path / "report.xml").read_text(encoding="utf-8").startswith("<?xml")
    assert invoke("validate", str(source), "-o", str(tmp_path / "report.json")).code == 0
    assert (tmp_path / "report.json").read_text(encoding="utf-8").startswith('{\n  "deals"')


def test_output_name_and_format_agree_for_reports_tables_and_pages(tmp_path: Path) -> None:
    # stats -o s.json wrote a text table, query --fields Event -o f.tarot a table into a
    # .tarot, standings --html x.tarot and replay --html -o y.tarot pages (issue 31): the
    # name chooses the format where the command can write it, else exit 2 with the ones
    # it can, nothing written
    deal = tmp_path / "deal.tarot"
    shutil.copyfile(EXAMPLES / "score-sheet.tarot", deal)

    def run(*args: str) -> Any:
        return invoke(*[a.format(d=deal, t=tmp_path) for a in args])

    assert run("stats", "{d}", "-o", "{t}/s.json").code == 0
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["by"] == "player"
    assert run("stats", "{d}", "-o", "{t}/s.csv").code == 0
    assert (tmp_path / "s.csv").read_text(encoding="utf-8").startswith("key,deals,")
    assert run("standings", "{d}", "-o", "{t}/st.json").code == 0
    assert json.loads((tmp_path / "st.json").read_text(encoding="utf-8"))
    assert run("query", "{d}", "--fields", "Event", "-o", "{t}/f.jsonl").code == 0
    assert json.loads((tmp_path / "f.jsonl").read_text(encoding="utf-8").splitlines()[0]) == {
        "Event": "Tarot du jeudi — Café des Sports"}
    refused = {
        ("stats", "{d}", "-o", "{t}/s.tarot"):
            "s.tarot: the name says the Tarot text notation, not a report: name the report"
            " .txt, .json or .csv, or give --format",
        ("standings", "{d}", "-o", "{t}/st.jsonl"): "not a report: name the report .txt,"
            " .json or .csv",
        ("query", "{d}", "--fields", "Event", "-o", "{t}/f.tarot"):
            "not a report: name the report .txt, .jsonl, .ndjson or .csv",
        ("standings", "{d}", "--html", "{t}/x.tarot"):
            "x.tarot: a page's name ends in .html (the name says the Tarot text notation)",
        ("replay", "{d}", "--html", "--no-open", "-o", "{t}/y.tarot"):
            "y.tarot: a page's name ends in .html (the name says the Tarot text notation)",
        ("html", "{d}", "-o", "{t}/z.jsonl"):
            "z.jsonl: the name says JSON Lines (one record per line): a page's name ends in"
            " .html, a site is a folder (such as site/)",
    }
    for args, said in refused.items():
        ran = run(*args)
        assert ran.code == 2, (args, ran)
        assert said in ran.err, (args, ran.err)
        assert len(ran.err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "deal.tarot", "f.jsonl", "s.csv", "s.json", "st.json"]
    # --format says explicitly what to write, whatever the name
    assert run("stats", "{d}", "--format", "text", "-o", "{t}/s.txt").code == 0


@pytest.mark.process
def test_no_command_reads_a_file_after_refusing(tmp_path: Path) -> None:
    # the refusal comes before anything is read: a FIFO input is never opened
    fifo = tmp_path / "pipe.tarot"
    os.mkfifo(fifo)
    ran = run_forked("convert", str(fifo), "-o", str(fifo), cwd=tmp_path, timeout=60)
    assert ran.code == 2
    assert "this is one of the inputs" in ran.err


# --- control characters ------------------------------------------------------------------------

HOSTILE = "\x1b]52;c;aGk=\x07\x1b]0;pwned\x07\x1b[2J\u202e\x9b31m"


def _hostile_record(tmp_path: Path) -> Path:
    text = (EXAMPLES / "prise.tarot").read_text(encoding="utf-8")
    text = text.replace('[Event "', f'[Event "{HOSTILE} ', 1)
    text = re.sub(r"(\n\s*1\. \S+)", lambda m: m.group(1) + " {" + HOSTILE + "}", text,
                  count=1)
    path = tmp_path / f"deal{HOSTILE[:6]}.tarot"
    path.write_text(text, encoding="utf-8")
    return path


def _raw_controls(text: str) -> list[str]:
    return sorted({c for c in text if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F
                   or c == "\u202e"})


@pytest.mark.process
@pytest.mark.parametrize("name", READING)
def test_control_characters_never_reach_the_output_raw(name: str, tmp_path: Path) -> None:
    path = _hostile_record(tmp_path)
    broken = tmp_path / f"broken{HOSTILE[:6]}.tarot"
    broken.write_text(f'[Players "4"]\nauction: pass {HOSTILE}\n', encoding="utf-8")
    for target in (path, broken):
        args = [str(target)] + (["--to", "json"] if name == "convert" else [])
        ran = run_forked(name, *args, *required(name), *bounded(name), cwd=tmp_path)
        if ran.out.startswith(("[", "{")):  # records written out (annotate, fmt, convert,
            # analyze, query, sort): data, kept as they are in a pipe (shown escaped on a
            # terminal: test_records_on_a_terminal_are_shown_escaped)
            ran = type(ran)(ran.code, "", ran.err)
        assert _raw_controls(ran.out + ran.err) == [], (name, target, ran)
    # a file name with control characters, shown in a diagnostic
    ran = run_forked(name, str(broken), *required(name), *bounded(name), cwd=tmp_path)
    if "broken" in ran.out + ran.err:  # (html shows its faults in the pages, not here)
        assert "\\x1b]52" in ran.out + ran.err


@pytest.mark.process
def test_every_line_to_a_terminal_goes_through_the_one_escaping_function(tmp_path: Path
                                                                         ) -> None:
    # The archive tools escaped with a function of their own, which let a line or
    # paragraph separator (U+2028, U+2029: a new line on a terminal) through, and named
    # a line break \x0a where the others say \n (issue 31): one function now.
    from tarotnotation.archives.safety import for_terminal
    from tarotnotation.cli.terminal import safe
    from tarotnotation.controls import escaped

    assert safe is for_terminal is escaped
    text = (EXAMPLES / "prise.tarot").read_text(encoding="utf-8")
    path = tmp_path / "sep.tarot"
    path.write_text(text.replace('[Event "', '[Event "Lyon\u2028forged line\u2029 ', 1),
                    encoding="utf-8")
    for args in (["query", str(path), "--fields", "Event"], ["stats", str(path), "--by",
                                                             "contract"],
                 ["validate", str(path)]):
        ran = run_forked(*args, cwd=tmp_path)
        assert ran.code == 0, ran
        assert not {"\u2028", "\u2029"} & set(ran.out + ran.err), args
    ran = run_forked("query", str(path), "--fields", "Event", cwd=tmp_path)
    assert "Lyon\\u2028forged line\\u2029" in ran.out, ran


@pytest.mark.process
def test_records_on_a_terminal_are_shown_escaped(tmp_path: Path) -> None:
    from cli_runs import stdout_on_a_terminal

    path = _hostile_record(tmp_path)
    for args in (["annotate", str(path)], ["convert", str(path)], ["replay", str(path)],
                 ["fmt", "-"]):
        if args == ["fmt", "-"]:
            continue  # (standard input is not a terminal here)
        seen = stdout_on_a_terminal(args, {"NO_COLOR": "1"})
        assert b"\x1b" not in seen, (args, seen[:200])
        assert b"\\x1b]52" in seen, args


def test_the_readme_states_the_exit_status_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for row in ("| 0 |", "| 1 |", "| 2 |", "| 130 |"):
        assert row in readme, row
    assert "highest" in readme
