"""tarot analyze, tarot solve and tarot replay --analysis, end to end."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cli_runs import TAROT, invoke, on_a_terminal, run_exe, run_forked

from tarotnotation.analysis import analyse_play, parse_comment
from tarotnotation.analysis import comments as analysis_comments
from tarotnotation.cli.app import COMMANDS
from tarotnotation.native import compiled
from tarotnotation.notation import dumps, load, loads, reads
from tarotnotation.records import DealRecord, find_tag
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "analysis.tarot"
PUZZLE = "S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7"


def _deal(tmp_path: Path, seed: int = 5, name: str = "deal.tarot") -> Path:
    path = tmp_path / name
    path.write_text(dumps(random_deal(random.Random(seed), 4)), encoding="utf-8")
    return path


@pytest.mark.process
@pytest.mark.skipif(compiled(force=True) is None and not os.environ.get("TAROT_REQUIRE_NATIVE"),
                    reason="the compiled core is not built")
def test_the_readme_example_one_card_lost_the_contract() -> None:
    # The whole deal analysed exactly from the first card on the compiled core, within
    # the default time limit: one card, the Petit led at trick 6, turned made into lost.
    analysis = analyse_play(load(EXAMPLE), engine=None if compiled() else "c")
    assert (analysis.engine, analysis.exact) == ("c", True)
    ran = run_exe("analyze", "examples/analysis.tarot", env={"TAROT_PURE": "0"})
    assert ran.code == 0, ran.err
    assert ran.err == ""  # no warning that the pure-Python core is used
    rec = loads(ran.out)
    notes = {(t, i): parse_comment(c) for t, trick in enumerate(rec.play, 1)
             for i, pc in enumerate(trick.cards) for c in pc.comments}
    assert len(notes) == 72
    assert all(n is not None and n.cost is not None and n.cost[0] == n.cost[1]
               for n in notes.values())
    costly = {k: n for k, n in notes.items() if n is not None and n.cost != (0, 0)}
    assert list(costly) == [(6, 0)]
    petit = rec.play[5].cards[0]
    assert (petit.card.code, petit.glyph) == ("T1", "??")
    assert petit.comments[-1] == ("tarot: dd -16, best 7H; lost by 13 with best play,"
                                  " was made by 3; ?? added")
    assert "{tarot: dd from trick 1; made by 3 with best play}" in ran.out
    shown = run_exe("replay", "examples/analysis.tarot", "--analysis", env={"TAROT_PURE": "0"})
    assert shown.code == 0
    assert "S:T1??(-16)" in shown.out
    assert "T1: costs 16 points (best 7H): lost by 13 with best play, was made by 3" \
        in shown.out


def test_the_new_commands_are_registered_with_help_and_examples() -> None:
    names = [name for name, *_ in COMMANDS]
    assert "analyze" in names
    assert "solve" in names
    for command in ("analyze", "solve"):
        ran = invoke(command, "--help")
        assert ran.code == 0
        assert f"tarot {command} " in ran.out.split("Example", 1)[1]


def test_analyze_writes_every_card_s_cost_and_again_gives_the_same_file(
        tmp_path: Path) -> None:
    path = _deal(tmp_path)
    first = invoke("analyze", str(path), "--from-trick", "14")
    assert first.code == 0, first.err
    rec = loads(first.out)
    notes = [parse_comment(c) for t in rec.play for pc in t.cards for c in pc.comments]
    assert sum(n is not None for n in notes) == 5 * 4
    assert any(parse_comment(c) for c in rec.comments)
    again_path = tmp_path / "once.tarot"
    again_path.write_text(first.out, encoding="utf-8")
    second = invoke("analyze", str(again_path), "--from-trick", "14")
    assert second.code == 0
    assert second.out == first.out


def test_analyze_to_a_file_in_place_and_never_over_an_input(tmp_path: Path) -> None:
    path = _deal(tmp_path)
    before = path.read_bytes()
    ran = invoke("analyze", str(path), "-o", str(path), "--from-trick", "16")
    assert ran.code == 2
    assert "this is one of the inputs" in ran.err  # (every command says it so)
    assert path.read_bytes() == before
    out = tmp_path / "out.jsonl"
    ran = invoke("analyze", str(path), "-o", str(out), "--from-trick", "16")
    assert ran.code == 0
    assert f"1 deal written to {out}, 1 analysed" in ran.err
    assert '"tarot: dd' in out.read_text(encoding="utf-8")
    ran = invoke("analyze", str(path), "--in-place", "--from-trick", "16")
    assert ran.code == 0
    assert path.read_bytes() != before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    ran = invoke("analyze", str(path), "--in-place", "-o", str(out))
    assert ran.code == 2


def test_analyze_exit_statuses(tmp_path: Path) -> None:
    # A record without hands or play cannot be analysed: 1, with Q110, the deal kept.
    sheet = tmp_path / "sheet.tarot"
    sheet.write_text('[Players "4"]\nresult: garde taker S points 48 bouts 2\n',
                     encoding="utf-8")
    ran = invoke("analyze", str(sheet))
    assert ran.code == 1
    assert "Q110" in ran.err
    assert "sheet.tarot" in ran.err
    assert "result: garde" in ran.out
    # An illegal card stops the analysis there: 1, with Q111 at the card's line.
    ran = invoke("analyze", str(ROOT / "examples" / "faulty" / "revoke.tarot"),
                 "--time-limit", "0.05")
    assert ran.code == 1
    assert "Q111" in ran.err
    assert "revoke.tarot:21:8:" in ran.err
    # Usage errors: 2.
    assert invoke("analyze", str(tmp_path / "missing.tarot")).code == 2
    assert invoke("analyze", str(sheet), "--mistake", "0.3").code == 2
    assert invoke("analyze", str(sheet), "-o", str(tmp_path / "x.tarotclub")).code == 2


def test_a_time_limit_gives_bounds_and_says_so(tmp_path: Path) -> None:
    path = _deal(tmp_path, seed=11)
    ran = invoke("analyze", str(path), "--from-trick", "6", "--time-limit", "0.001")
    assert ran.code == 0
    assert "Q112 warning" in ran.err
    assert ".." in ran.out or "undecided" in ran.out


@pytest.mark.process
def test_jobs_give_the_same_output(tmp_path: Path) -> None:
    a = _deal(tmp_path, 5, "a.tarot")
    b = _deal(tmp_path, 6, "b.tarot")
    one = run_forked("analyze", str(a), str(b), "--from-trick", "15")
    two = run_forked("analyze", str(a), str(b), "--from-trick", "15", "-j", "2")
    assert one.code == two.code == 0, one.err + two.err
    assert one.out == two.out
    assert one.out.count("[Event") == 2


def _searching(pid: int) -> bool:
    """True once the process or one of its children has loaded the compiled core (the
    search has begun: the command is past its start-up)."""
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError):
            if "_kernel" in Path(f"/proc/{p}/maps").read_text():
                return True
    return False


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc/self/maps").exists() or compiled(force=True) is None,
                    reason="needs Linux's /proc and the compiled core")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_writes_nothing(tmp_path: Path, jobs: str) -> None:
    path = _deal(tmp_path, seed=3)
    out = tmp_path / "out.tarot"
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "TAROT_PURE")}
    proc = subprocess.Popen([str(TAROT), "analyze", str(path), "-o", str(out), "-j", jobs,
                             "--time-limit", "600"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    # Interrupt the search, not the start-up (a loaded machine can take seconds to
    # import): wait until the core is loaded, then a little more.
    deadline = time.monotonic() + 120
    try:
        while (not _searching(proc.pid) and proc.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.1)
        time.sleep(0.5)
        assert proc.poll() is None, proc.communicate()
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:  # a failed test leaves no search running (its workers end with it)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert time.monotonic() - started < 10
    assert b"Traceback" not in err
    assert b"tarot: interrupted at deal.tarot deal 1" in err  # where the search was
    assert b"; nothing written" in err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deal.tarot"]


def test_solve_prints_the_value_and_every_card() -> None:
    ran = invoke("solve", "--position", PUZZLE)
    assert ran.code == 0, ran.err
    assert "Value: +31 (margin), made by 31 with best play" in ran.out
    assert "KH" in ran.out
    assert "T21" in ran.out
    ran = invoke("solve", "--position", PUZZLE, "--format", "json")
    data = json.loads(ran.out)
    assert (data["lower"], data["upper"], data["exact"]) == (62, 62, True)
    assert {c["card"] for c in data["cards"]} == {"KH", "T21"}
    ran = invoke("solve", "--position", PUZZLE, "--objective", "score")
    assert ran.code == 0
    assert "taker's score" in ran.out


def test_solve_a_point_of_a_record_and_its_errors(tmp_path: Path) -> None:
    path = _deal(tmp_path)
    ran = invoke("solve", str(path), "--trick", "15", "--card", "2")
    assert ran.code == 0, ran.err
    assert ran.out.startswith("Deal 1, trick 15, card 2:")
    ran = invoke("solve", str(path), "--trick", "40")
    assert ran.code == 1
    assert "Q110" in ran.err
    ran = invoke("solve", "--position", PUZZLE.replace("T21", "T22"))
    assert ran.code == 1
    assert "--position:1:6: Q102 error:" in ran.err
    assert invoke("solve").code == 2
    assert invoke("solve", str(path), "--position", PUZZLE).code == 2


def test_replay_shows_the_cost_beside_each_card(tmp_path: Path) -> None:
    path = _deal(tmp_path)
    analysed = invoke("analyze", str(path), "--from-trick", "14")
    (tmp_path / "analysed.tarot").write_text(analysed.out, encoding="utf-8")
    shown = invoke("replay", str(tmp_path / "analysed.tarot"), "--analysis")
    fresh = invoke("replay", str(path), "--analysis", "--time-limit", "0.02")
    assert shown.code == fresh.code == 0
    costly = [line for line in shown.out.splitlines() if "costs" in line]
    assert costly, shown.out
    assert shown.out.count("(-") == len(costly)
    assert "tarot: dd" not in "\n".join(line for line in shown.out.splitlines()
                                        if "dd from" not in line)


@pytest.mark.process
def test_the_pure_python_core_runs_the_commands(tmp_path: Path) -> None:
    path = _deal(tmp_path)
    env = {"TAROT_PURE": "1"}
    ran = run_exe("analyze", str(path), "--from-trick", "17", env=env)
    assert ran.code == 0, ran.err
    assert "tarot: dd" in ran.out
    fast = run_exe("analyze", str(path), "--from-trick", "17")
    assert fast.out == ran.out
    assert sys.executable  # the run used the same interpreter's entry point


@pytest.mark.process
def test_one_broken_deal_never_stops_the_rest(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # An archive: good deals at 4, 5 and 3 players around a deal that does not parse, a
    # deal with an illegal card, a score-sheet deal without hands, and a deal the solver
    # fails on (made to fail here, as a bug would). Each fault is said at its place; every
    # other deal is analysed; the exit status is 1.
    good = [dumps(random_deal(random.Random(seed), players))
            for seed, players in ((5, 4), (6, 5), (7, 3))]
    boom = dumps(random_deal(random.Random(8), 4)).replace('"Random deal"', '"boom"')
    syntax = (ROOT / "examples" / "faulty" / "syntax-error.tarot").read_text(encoding="utf-8")
    revoke = (ROOT / "examples" / "faulty" / "revoke.tarot").read_text(encoding="utf-8")
    sheet = '[Players "4"]\nresult: garde taker S points 48 bouts 2\n'
    archive = tmp_path / "archive.tarot"
    archive.write_text("\n".join([good[0], syntax, revoke, boom, sheet, good[1], good[2]]),
                       encoding="utf-8")
    real = analyse_play

    def failing(record: DealRecord, **kwargs: Any) -> Any:
        if find_tag(record.tags, "Event") == "boom":
            raise RuntimeError("the search's bounds crossed (1 > 0): a bug")
        return real(record, **kwargs)

    monkeypatch.setattr(analysis_comments, "analyse_play", failing)
    out = tmp_path / "out.tarot"
    ran = invoke("analyze", str(archive), "-o", str(out), "--from-trick", "17",
                 "--time-limit", "0.5")
    assert ran.code == 1
    name = str(archive)
    errors = [line for line in ran.err.splitlines() if " error: " in line]
    codes = [line.split(": ")[1].split()[0] for line in errors]
    assert "S001" in codes or "S003" in codes
    assert {"Q110", "Q111", "Q113"} <= set(codes), ran.err
    assert all(re.match(re.escape(name) + r":\d+:\d+: ", line) for line in errors), errors
    assert "please report it" in ran.err
    deals = [item.record for item in reads(out.read_text(encoding="utf-8"))
             if item.record is not None]
    analysed = [any(parse_comment(c) for c in d.comments) for d in deals]
    # the syntax error's deal cannot be written; the three good deals and the revoke
    # (analysed up to its illegal card) carry the analysis; the sheet and "boom" do not
    assert analysed.count(True) == 4
    assert any(find_tag(d.tags, "Event") == "boom" and not a
               for d, a in zip(deals, analysed, strict=True))
    assert f"{len(deals)} deals written to {out}, 4 analysed" in ran.err
    # the revoke's analysis stops before its illegal card, at trick 3: its value is there
    assert "{tarot: dd from trick 3; " in out.read_text(encoding="utf-8")
    # The same archive with -j 2 (worker processes) gives the same file.
    monkeypatch.setattr(analysis_comments, "analyse_play", real)
    plain = tmp_path / "plain.tarot"
    plain.write_text("\n".join([good[0], syntax, revoke, sheet, good[1], good[2]]),
                     encoding="utf-8")
    one = invoke("analyze", str(plain), "--from-trick", "17", "--node-limit", "100000")
    two = run_forked("analyze", str(plain), "--from-trick", "17", "--node-limit", "100000",
                     "-j", "2")
    assert one.code == two.code == 1
    assert one.out == two.out
    assert one.out.count("tarot: dd from") == 4


@pytest.mark.process
def test_terminal_escapes_in_a_file_name_never_reach_the_progress_line(tmp_path: Path) -> None:
    # analyze's progress line showed the file name raw: an ESC ] 0 in it set the
    # terminal's title (issue 31); every line to a terminal goes through terminal.safe
    path = _deal(tmp_path, seed=5, name="x\x1b]0;pwned\x1b\\[red]y.tarot")
    code, _, seen = on_a_terminal("analyze", str(path), "--from-trick", "15")
    assert code == 0
    assert b"\x1b]0;" not in seen
    assert b"x\\x1b]0;pwned\\x1b\\[red]y.tarot deal 1" in seen  # shown, escaped, markup kept


@pytest.mark.process
def test_progress_on_a_terminal_only(tmp_path: Path) -> None:
    # analyze: the deal and the cards settled; solve: the bounds after each test.
    # Piped, nothing; the output is the same either way.
    path = _deal(tmp_path, seed=5)
    args = ("analyze", str(path), "--from-trick", "15")
    code, out, seen = on_a_terminal(*args)
    piped = run_exe(*args, env={"TAROT_PROGRESS_DELAY": "0"})
    assert code == piped.code == 0
    assert out == piped.out
    assert piped.err == ""
    assert b"analysing" in seen
    assert b"cards settled" in seen
    args = ("solve", str(path), "--trick", "12")
    code, out, seen = on_a_terminal(*args)
    piped = run_exe(*args, env={"TAROT_PROGRESS_DELAY": "0"})
    assert code == piped.code == 0

    def untimed(text: str) -> str:
        return re.sub(r" in \d+\.\d+ s ", " ", text)

    assert untimed(out) == untimed(piped.out)
    assert piped.err == ""
    assert b"searching (" in seen
    assert b"the value lies in" in seen
