"""The suite's own rules (tests/conftest.py), each shown failing on a test that breaks it: a
thread or an environment variable that outlives its test, a process started without the
``process`` mark; and ``--shuffle SEED``, which runs the files and their tests in an order
drawn from the seed (issue 39; issue 30 part 4: the quick lane)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.process

_TESTS = '''
import os, subprocess, sys, threading, time
import pytest

def test_a_thread_that_outlives_its_test():
    threading.Thread(target=time.sleep, args=(30,), daemon=True, name="left").start()

def test_an_environment_variable_that_outlives_its_test():
    os.environ["TAROT_LEFT_BEHIND"] = "1"

def test_the_environment_is_restored_for_the_next():
    assert "TAROT_LEFT_BEHIND" not in os.environ

def test_a_variable_set_by_monkeypatch(monkeypatch):
    monkeypatch.setenv("TAROT_RESTORED", "1")

def test_a_thread_that_ends_with_its_test():
    thread = threading.Thread(target=time.sleep, args=(0.2,))
    thread.start()

def test_a_process_without_the_mark():
    subprocess.run([sys.executable, "-c", "pass"], check=True)

@pytest.mark.process
def test_a_process_with_the_mark():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
'''


def _pytest(tmp_path: Path, *args: str) -> str:
    """Runs pytest on ``tmp_path`` with the suite's conftest; its report."""
    for path in (TESTS / "conftest.py", TESTS / "support" / "forkserver.py",
                 TESTS / "support" / "serve_databases.py", TESTS / "support" / "pg_server.py"):
        shutil.copyfile(path, tmp_path / path.name)
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    process: starts a process\n    slow: long\n"
        "    browser: a browser\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args,
                           str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)
    return done.stdout + done.stderr


def test_a_test_that_leaves_a_thread_or_a_variable_or_starts_a_process_unmarked_fails(
        tmp_path: Path) -> None:
    (tmp_path / "test_leftovers.py").write_text(_TESTS, encoding="utf-8")
    report = _pytest(tmp_path, "-rE")
    erred = {line.split("::")[1].split()[0] for line in report.splitlines()
             if line.startswith("ERROR test_leftovers.py::")}
    assert erred == {"test_a_thread_that_outlives_its_test",
                     "test_an_environment_variable_that_outlives_its_test",
                     "test_a_process_without_the_mark"}, report
    assert "its thread 'left' still runs" in report
    assert "it changed the environment variables TAROT_LEFT_BEHIND" in report
    assert "it started a process (subprocess.Popen) without the `process` mark" in report
    assert "7 passed, 3 errors" in report, report  # each ran; three then failed in teardown


def test_shuffle_runs_the_files_and_their_tests_in_an_order_drawn_from_the_seed(
        tmp_path: Path) -> None:
    names = [f"test_{i}" for i in range(8)]
    for module in ("test_a.py", "test_b.py", "test_c.py"):
        (tmp_path / module).write_text("".join(f"def {n}():\n    pass\n\n" for n in names),
                                       encoding="utf-8")

    def order(*args: str) -> list[str]:
        report = _pytest(tmp_path, "--collect-only", "-q", *args)
        return [line for line in report.splitlines() if "::test_" in line]

    plain, one, same, other = order(), order("--shuffle", "1"), order("--shuffle", "1"), order(
        "--shuffle", "2")
    assert len(plain) == 24
    assert sorted(one) == sorted(plain)
    assert one == same  # the seed gives the order: a failing order can be run again
    assert one != plain
    assert other != one
    files = [line.split("::")[0] for line in one]
    assert len([f for i, f in enumerate(files) if i == 0 or files[i - 1] != f]) == 3  # together
