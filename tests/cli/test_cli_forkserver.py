"""The fork server of the tests (tests/support/forkserver.py): a run that gives no answer
in time fails its test instead of hanging it, and the next run gets a new server; a run
whose standard input is a file that cannot be opened is refused as a shell refuses it."""

from __future__ import annotations

import time
from pathlib import Path

import forkserver
import pytest
from cli_runs import run_forked


@pytest.mark.process
def test_a_run_unanswered_in_time_fails_and_the_next_gets_a_new_server(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_forked("--version").code == 0
    # an answer due before the run can give it, as a run whose output a process it left
    # behind holds open: its answer never comes
    with monkeypatch.context() as m:
        m.setattr(forkserver, "ANSWER_GRACE", -60)
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="gave no answer in time"):
            run_forked("--version", timeout=1)
        assert time.monotonic() - started < 10
    ran = run_forked("--version")
    assert ran.code == 0, ran.err
    assert ran.out.startswith("tarot")


@pytest.mark.process
def test_a_missing_standard_input_file_is_said_and_nothing_runs(tmp_path: Path) -> None:
    missing = tmp_path / "missing.tarot"
    ran = run_forked("validate", "-", stdin_file=missing)
    assert (ran.code, ran.out) == (1, "")
    assert ran.err == f"{missing}: No such file or directory\n"
