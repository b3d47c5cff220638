"""The command line attacked as a hostile user would: each test is named after a case that
broke a promise of the README (Files and streams, Exit status) and holds the fix.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import EXAMPLES, TAROT, invoke, run_forked
from peak import peak_of

pytestmark = pytest.mark.process

MB = 1 << 20
#: One plain deal of the notation (a blank line ends it).
DEAL = (EXAMPLES / "prise.tarot").read_bytes().rstrip(b"\n") + b"\n\n"


def _peak(args: list[str], stdin: Path | None = None) -> tuple[int, int]:
    """The exit status of ``tarot ARGS`` (standard input from ``stdin``) and its peak
    resident memory, in bytes."""
    with open(stdin or os.devnull, "rb") as source:
        return peak_of([TAROT, *args], stdin=source)


def _deals(path: Path, count: int) -> Path:
    path.write_bytes(DEAL * count)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB")
def test_fmt_dash_holds_flat_memory_on_a_long_stream(tmp_path: Path) -> None:
    # `tarot fmt -` held standard input whole, then every record and its canonical text:
    # 18 MB more a thousand deals (`yes "$(cat deal.tarot)" | tarot fmt -` passed 1 GB in
    # 12 s). Both are now spooled as they are read; six times the deals, the same memory.
    small, large = _deals(tmp_path / "small.tarot", 200), _deals(tmp_path / "large.tarot", 1200)
    code, peak_small = _peak(["fmt", "-"], small)
    assert code == 0
    code, peak_large = _peak(["fmt", "-"], large)
    assert code == 0
    assert peak_large < peak_small + 8 * MB, (peak_small // MB, peak_large // MB)


@pytest.mark.parametrize("faulty", [False, True])
def test_fmt_dash_writes_the_canonical_form_or_the_input_as_it_was(
        monkeypatch: pytest.MonkeyPatch, faulty: bool) -> None:
    # spooled, the output is still the canonical text, or, when one record cannot be
    # formatted, every byte of the input unchanged (here well past the spool's memory)
    from tarotnotation.cli import fmt

    monkeypatch.setattr(fmt, "SPOOL", 1000)
    untidy = DEAL.replace(b"\n", b"  \n")  # trailing blanks: the canonical form drops them
    body = untidy * 12 + (b'[Event "x"]\nhand S: ZZ\n' if faulty else b"")
    ran = invoke("fmt", "-", stdin=body)
    if faulty:
        assert ran.code == 1
        assert ran.out == body.decode()
        return
    assert ran.code == 0, ran.err
    single = invoke("fmt", "-", stdin=untidy).out
    assert "  \n" not in single
    assert ran.out == (single + "\n") * 11 + single


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB")
@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
def test_archive_tools_hold_flat_memory_on_a_long_tarot_file(tmp_path: Path,
                                                              stdin: bool) -> None:
    # The archive tools (query, stats, standings, dedupe, split, sort) read a .tarot file,
    # or standard input, as one part, and made a list of all its deals before the first
    # came out: 15 MB more a thousand deals for `split --by`, and a stream on standard
    # input held for ever (`sort -` passed 768 MB in 40 s). Now one deal at a time.
    small, large = _deals(tmp_path / "small.tarot", 200), _deals(tmp_path / "large.tarot", 1400)
    peaks = []
    for i, source in enumerate((small, large)):
        args = ["split", "--by", "Event", "-o", str(tmp_path / f"out{i}")]
        code, peak = (_peak([*args, "-"], source) if stdin
                      else _peak([*args, str(source)]))
        assert code == 0
        peaks.append(peak)
    assert peaks[1] < peaks[0] + 8 * MB, [p // MB for p in peaks]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB")
def test_archive_tools_hold_flat_memory_on_a_long_tarot_file_with_workers(tmp_path: Path
                                                                          ) -> None:
    # With -j 2 a .tarot file (one part) went to a worker, which sent all its deals back
    # in one list: the parent's memory grew with the file (5,000 deals: about 20 MB more
    # than 400). A file over two blocks is now read by the parent, a deal at a time, in
    # its place among the workers' parts.
    small, large = _deals(tmp_path / "small.tarot", 400), _deals(tmp_path / "large.tarot", 5000)
    assert large.stat().st_size > 4 * MB
    peaks = []
    for source in (small, large):
        code, peak = _peak(["stats", "-j", "2", str(source)])
        assert code == 0
        peaks.append(peak)
    assert peaks[1] < peaks[0] + 8 * MB, [p // MB for p in peaks]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="/proc, where no file is made")
@pytest.mark.parametrize("args", [
    ["convert", "{deal}", "-o", "/proc/out.json"],
    ["validate", "{deal}", "--format", "junit", "-o", "/proc/report.xml"],
    ["standings", "{deal}", "--html", "/proc/table.html"],
    ["html", "{deal}", "-o", "/proc/site"],
], ids=lambda a: a[0])
def test_a_write_that_fails_names_the_file_asked_for_not_its_temporary(args: list[str]
                                                                        ) -> None:
    # `tarot convert d.tarot -o /proc/out.json` said "tarot: /proc/.out.json.peih3fvp.tmp:
    # No such file or directory": a random name the user never gave.
    deal = str(EXAMPLES / "prise.tarot")
    ran = run_forked(*(a.format(deal=deal) for a in args))
    asked = args[-1]
    assert ran.code == 2, ran.err
    # (issue 31: and says it is writing that failed)
    assert ran.err == f"tarot: {asked}: cannot write: No such file or directory\n"


@pytest.mark.parametrize(("word", "said"), [
    ("it's", "no command \"it's\""),
    ("valid'ate", "no command \"valid'ate\": did you mean 'validate'?"),
    ("\x1b]52;c;aGk=\x07", "no command '\\x1b]52;c;aGk=\\x07'"),
])
def test_an_unknown_command_with_a_quote_or_an_escape_is_named_as_typed(word: str,
                                                                        said: str) -> None:
    # `tarot "it's"` said "no command ''" (the name cut at its quote), and an escape
    # sequence came out escaped twice ('\\x1b...'), both from reading click's message
    ran = run_forked(word)
    assert ran.code == 2
    assert ran.err == f"tarot: {said} (tarot --help lists the commands)\n"


@pytest.mark.parametrize("command", [["solve", "--trick", "18"], ["analyze", "--from-trick", "18"]])
def test_a_table_larger_than_the_solver_takes_is_a_usage_error(command: list[str]) -> None:
    # `tarot solve d.tarot --trick 18 --table-mb 1e23` ended in a traceback (ValueError:
    # Search: an argument is out of range), `tarot analyze` in a Q113 "please report it"
    # for every deal; the option is now bounded by what the compiled core takes
    from tarotnotation.analysis import MAX_TABLE_MB

    ran = invoke(command[0], str(EXAMPLES / "prise.tarot"), *command[1:], "--table-mb",
                 str(MAX_TABLE_MB * 2))
    assert ran.code == 2
    assert ran.err == (f"tarot: invalid value for '--table-mb': Input should be less than or"
                       f" equal to {MAX_TABLE_MB:g} (see 'tarot {command[0]} --help')\n")


def test_jobs_past_the_cores_start_one_worker_a_core() -> None:
    # `tarot analyze -j 99999999999999999999999` started a worker process for each deal
    # (the machine's load passed 60) and left them behind when it was killed
    from tarotnotation.cli.common import worker_count

    cores = os.cpu_count() or 1
    assert [worker_count(j) for j in (0, 1, cores, cores + 1, 10**23)] == [
        cores, 1, cores, cores, cores]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_typer_is_imported_ends_the_run_without_a_traceback(signum: int
                                                                           ) -> None:
    # SIGTERM while `tarot solve` imported typer (a loaded machine: a minute) printed a
    # traceback ending in "tarotnotation.cli.status.Interrupted: 15": the app is built
    # outside the command's guard. The signal is raised where typer's import stood.
    code = ("import sys\n"
            "from tarotnotation.cli import app, status\n"
            "sys.argv = ['tarot', 'solve', 'deal.tarot']\n"
            "def building():\n"
            f"    raise status.Interrupted({int(signum)})\n"
            "app.get_app = building\n"
            "app.main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False,
                          timeout=120)
    assert (done.returncode, done.stderr) == (128 + signum, b"")
