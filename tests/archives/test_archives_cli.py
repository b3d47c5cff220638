"""The archive commands keep the exit-code table and the promises every command makes:
help with an example, usage errors on one line with status 2, 1 for faults in the
records, never writing over an input, user strings safe on a terminal, 130 when
interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from archive_builders import generated, write_jsonl, write_tarot
from cli_runs import EXAMPLES, FAULTY, ROOT, TAROT, invoke, plain_env, rel, run_exe

from tarotnotation.cli.app import COMMANDS

ARCHIVE_COMMANDS = ("query", "stats", "standings", "dedupe", "split", "sort")
#: The options each command needs to run, beside its paths.
NEEDS = {"query": [], "stats": [], "standings": [], "dedupe": [],
         "split": ["-o", "{tmp}/split"], "sort": ["--by", "Date"]}


def _args(command: str, tmp: Path) -> list[str]:
    return [a.format(tmp=tmp) for a in NEEDS[command]]


def test_the_archive_commands_are_registered() -> None:
    names = [name for name, *_ in COMMANDS]
    for command in ARCHIVE_COMMANDS:
        assert command in names


@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_help_has_an_example(command: str) -> None:
    ran = invoke(command, "--help")
    assert ran.code == 0
    example = ran.out.split("Example", 1)[1]
    assert f"tarot {command} " in example


@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_exit_statuses(command: str, tmp_path: Path) -> None:
    clean = write_tarot(tmp_path / "clean.tarot", generated(3, seed=1))
    ran = invoke(command, str(clean), *_args(command, tmp_path))
    assert ran.code == 0, ran
    ran = invoke(command, rel(FAULTY / "syntax-error.tarot"), *_args(command, tmp_path / "b"))
    assert ran.code == 1, ran
    assert "syntax-error.tarot:25:8: S003 error" in ran.err
    ran = invoke(command, "no/such/file.tarot", *_args(command, tmp_path / "c"))
    assert ran.code == 2
    # in its place, as every command reports a path that names nothing (F001)
    assert ran.err == "no/such/file.tarot: F001 error: no such file or folder\n"
    assert ran.out == ""


@pytest.mark.parametrize("command", ["query", "stats", "standings", "dedupe", "sort"])
def test_never_writes_over_an_input(command: str, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", generated(2, seed=2))
    before = path.read_bytes()
    extra = ["--by", "Date"] if command == "sort" else []
    ran = invoke(command, str(path), *extra, "-o", str(path))
    assert ran.code == 2, ran
    assert "is one of the inputs" in ran.err
    assert path.read_bytes() == before
    if command == "standings":
        assert invoke(command, str(path), "--html", str(path)).code == 2
        assert path.read_bytes() == before


@pytest.mark.process
@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_standard_input(command: str, tmp_path: Path) -> None:
    data = (EXAMPLES / "garde-poignee.tarot").read_bytes()
    ran = run_exe(command, "-", *_args(command, tmp_path), stdin=data)
    assert ran.code == 0, ran


@pytest.mark.process
def test_interrupted_is_130_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    records = generated(40, seed=3)
    path = write_jsonl(tmp_path / "big.jsonl", records * 25)
    out = tmp_path / "out"
    out.mkdir()
    env = plain_env()
    proc = subprocess.Popen([str(TAROT), "sort", str(path), "--by", "Date", "-o",
                             str(out / "sorted.jsonl")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not os.listdir(out) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # until the output is being written (its temporary file)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the sort ended before it could be interrupted")
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert os.listdir(out) == []


def test_names_on_a_terminal_are_made_safe(tmp_path: Path) -> None:
    [record] = generated(1, seed=4)
    evil = record.model_copy(update={
        "seats": tuple(s.model_copy(update={"name": f"\x1b]52;c;{s.id}\x07"})
                       for s in record.seats),
        "tags": (("Event", "\x1b[2J\u202eevil"),)})
    path = write_tarot(tmp_path / "evil.tarot", [evil, evil])
    for args in (["query", "--fields", "Event,taker,names"], ["stats"], ["standings"],
                 ["dedupe"]):
        ran = invoke(args[0], str(path), *args[1:])
        shown = ran.out + ran.err
        assert "\x1b" not in shown, args
        assert "\x07" not in shown, args
        assert "\u202e" not in shown, args
        assert ran.code == (1 if args[0] in ("dedupe", "standings") else 0), (args, ran)


@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_reading_nothing_does_not_pass(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.tarot"
    empty.write_text("", encoding="utf-8")
    ran = invoke(command, str(empty), *_args(command, tmp_path))
    assert ran.code == 1, ran
    assert "no deal was read" in ran.err


def _running(marker: str) -> list[int]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                found.append(int(entry.name))
    return found


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_no_worker_outlives_the_command(tmp_path: Path) -> None:
    # 16,000 deals (the 1,600 written, ten times over): some 0.9 s of work at -j 2 on a
    # quiet machine, the workers up within 0.3 s (1,600 alone ended before they were seen,
    # now and then, under load)
    path = write_jsonl(tmp_path / "workers-marker.jsonl", generated(40, seed=5) * 40)
    path.write_bytes(path.read_bytes() * 10)
    proc = subprocess.Popen([str(TAROT), "stats", str(path), "-j", "2"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while len(_running(str(path))) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)  # the command and its two workers
        if proc.poll() is not None:
            pytest.skip("the command ended before it could be stopped")
        proc.send_signal(signal.SIGTERM)  # no handler can run: only the parent ends
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while _running(str(path)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _running(str(path)) == []
    finally:
        for pid in _running(str(path)):
            os.kill(pid, signal.SIGKILL)


# --- one broken deal never stops the rest; -j 2 is -j 1; --strict stops --------------------

#: Each command, its options, and what of its output to compare: (args, output file name or
#: None for standard output).
WHOLE = {
    "query": (["--where", "made or not made", "-f", "jsonl"], "out.jsonl"),
    "stats": (["-f", "json"], "out.json"),
    "standings": (["-f", "json"], "out.json"),
    "dedupe": ([], "out.jsonl"),
    "split": (["--by", "Event", "--to", "jsonl"], None),
    "sort": (["--by", "Date,Deal"], "out.jsonl"),
}


def _broken_archives(folder: Path) -> tuple[list[Path], list[Path]]:
    """The same good deals twice over: clean, and with broken deals among them (a line
    that is not JSON and one that is no deal in a JSON Lines file, a deal that is not
    notation in a text file)."""
    records = generated(18, seed=11)
    clean = [write_jsonl(folder / "clean-a.jsonl", records[:12]),
             write_tarot(folder / "clean-b.tarot", records[12:])]
    lines = clean[0].read_bytes().splitlines(keepends=True)
    lines[4:4] = [b'{"players": 4, "hands": \n', b'{"players": 4, "hands": "none"}\n']
    broken_a = folder / "broken-a.jsonl"
    broken_a.write_bytes(b"".join(lines))
    text = clean[1].read_text(encoding="utf-8").split("\n\n")
    text.insert(2, '[Event "Broken"]\n[Players "4"]\nhand S: 1S 1S ZZ\n')
    broken_b = folder / "broken-b.tarot"
    broken_b.write_text("\n\n".join(text), encoding="utf-8")
    return clean, [broken_a, broken_b]


def _output(command: str, paths: list[Path], out: Path, *extra: str) -> tuple[int, str, Any]:
    args, name = WHOLE[command]
    target = out / (name or "split")
    ran = invoke(command, *map(str, paths), *args, "-o", str(target), *extra)
    if not target.exists():
        return ran.code, ran.err, None
    if name is None:
        return ran.code, ran.err, {p.name: p.read_bytes() for p in sorted(target.iterdir())}
    data = target.read_bytes()
    if name.endswith(".json"):
        parsed = json.loads(data)
        parsed.get("archive", {}).pop("unreadable", None)  # stats counts them
        return ran.code, ran.err, parsed
    return ran.code, ran.err, data


@pytest.mark.process
@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_a_broken_deal_is_reported_and_the_rest_is_done(command: str, tmp_path: Path) -> None:
    clean, broken = _broken_archives(tmp_path)
    (tmp_path / "clean").mkdir()
    code, err, expected = _output(command, clean, tmp_path / "clean")
    assert code == 0, err
    assert expected
    for jobs in ("1", "2"):
        out = tmp_path / f"broken-j{jobs}"
        out.mkdir()
        code, err, got = _output(command, broken, out, "-j", jobs)
        assert code == 1, err
        assert "broken-a.jsonl:5:" in err  # each broken deal said where it is
        assert "broken-a.jsonl:6:" in err
        assert "broken-b.tarot:" in err
        assert "3 deals could not be read and were left out" in err
        assert "Traceback" not in err
        # every good deal, and nothing of the broken ones, in every figure and file
        assert got == expected, (command, jobs)


@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_strict_stops_at_the_first_broken_deal_and_writes_nothing(command: str,
                                                                  tmp_path: Path) -> None:
    _, broken = _broken_archives(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    code, err, got = _output(command, broken, out, "--strict")
    assert code == 1
    assert "broken-a.jsonl:5:" in err
    assert "broken-a.jsonl:6:" not in err  # stopped there
    assert got is None or got == {}
    assert sorted(p.name for p in out.iterdir()) in ([], ["split"])
