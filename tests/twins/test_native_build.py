"""The compiled core is optional: ``pip install .`` succeeds without a C compiler (the
pure-Python twins are then used, with a warning), and builds the core with one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from tarotnotation import native
from tarotnotation.analysis import Position, Solver

ROOT = Path(__file__).resolve().parents[2]


def _wheel(tmp_path: Path, env: dict[str, str]) -> list[str]:
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
        "*.so"))
    wheels = tmp_path / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(src)],
        capture_output=True, text=True, check=False, env={**os.environ, **env})
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = wheels.glob("tarotnotation-*.whl")
    return zipfile.ZipFile(wheel).namelist()


@pytest.mark.process
def test_an_install_without_a_compiler_succeeds_without_the_core(tmp_path: Path) -> None:
    names = _wheel(tmp_path, {"CC": "false", "LDSHARED": "false"})
    assert not [n for n in names if "_kernel" in n and not n.endswith(".pyi")]
    assert "tarotnotation/analysis/search.py" in names
    assert "tarotnotation/analysis/pycore.py" in names  # (the pure-Python twin)
    assert "tarotnotation/csrc/kernel.h" not in names  # sources stay out of the wheel


@pytest.mark.process
def test_without_the_core_the_python_search_runs_and_says_so() -> None:
    # In a process of its own: the warning is given once a process, and a test must not
    # reach into the search's private state to give it again.
    code = (
        "import warnings\n"
        "from tarotnotation import native\n"
        "native.compiled = lambda force=False: None\n"
        "from tarotnotation.analysis import Position, Solver\n"
        "pos = Position.parse('S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1'\n"
        "                     ' tricks=9/7')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    solver = Solver(pos)\n"
        "said = any('pure-Python search' in str(w.message) for w in caught)\n"
        "print(solver.engine, said, solver.solve(pos).value)\n")
    env = {k: v for k, v in os.environ.items() if k != "TAROT_PURE"}
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=False)
    assert ran.stdout.split() == ["python", "True", "62"], ran.stderr


def test_tarot_pure_forces_the_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROT_PURE", "1")
    pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1"
                         " tricks=9/7")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # forced on purpose: no warning
        assert Solver(pos).engine == "python"
    assert native.compiled() is None


def test_the_core_is_built_here_when_ci_requires_it() -> None:
    if os.environ.get("TAROT_REQUIRE_NATIVE"):
        assert native.compiled(force=True) is not None, "pip install did not build the core"
