"""The compiled core is optional: ``pip install .`` succeeds without a C compiler (the
pure-Python twins are then used, with a warning), and builds the core with one.

The wheels' builds and installs are marked ``slow`` (half a minute each): the suite leaves
them out and ``.ci/run`` runs them as a step of their own (``TAROT_SLOW=1 pytest -m slow``
on this file and tests/project/test_quality.py), which fails CI as they fail.
"""

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


def _wheel(tmp_path: Path, env: dict[str, str]) -> Path:
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
    return wheel


#: The compiler's variables of a build without one.
NO_COMPILER = {"CC": "false", "LDSHARED": "false"}


@pytest.fixture(scope="module")
def wheel_without_a_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built without a compiler, once for the module's tests."""
    return _wheel(tmp_path_factory.mktemp("no-compiler"), NO_COMPILER)


@pytest.mark.slow
@pytest.mark.process
def test_an_install_without_a_compiler_succeeds_without_the_core(
        wheel_without_a_compiler: Path) -> None:
    names = zipfile.ZipFile(wheel_without_a_compiler).namelist()
    assert not [n for n in names if "_kernel" in n and not n.endswith(".pyi")]
    assert "tarotnotation/analysis/search.py" in names
    assert "tarotnotation/analysis/pycore.py" in names  # (the pure-Python twin)
    assert "tarotnotation/csrc/kernel.h" not in names  # sources stay out of the wheel


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.parametrize("compiler", [True, False], ids=["with a compiler", "without one"])
def test_the_wheel_installed_in_a_fresh_venv_validates_and_solves(
        compiler: bool, wheel_without_a_compiler: Path, tmp_path: Path) -> None:
    # The wheel as a user installs it: a fresh virtual environment, its dependencies from
    # the index pip is configured with, nothing of the source tree on the path (the runs
    # start in an empty folder).
    wheel = _wheel(tmp_path, {}) if compiler else wheel_without_a_compiler
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True,
                          text=True, check=False)
    assert made.returncode == 0, made.stderr
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_PURE", "PYTHONPATH", "VIRTUAL_ENV")}
    installed = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)],
                               capture_output=True, text=True, env=env, check=False)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(ROOT / "examples" / "prise.tarot", run / "prise.tarot")
    validated = subprocess.run([str(venv / "bin" / "tarot"), "validate", "prise.tarot"],
                               capture_output=True, text=True, env=env, cwd=run, check=False)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    code = (
        "import warnings\n"
        "warnings.simplefilter('ignore')\n"
        "import tarotnotation\n"
        "from tarotnotation import native\n"
        "from tarotnotation.analysis import Position, Solver\n"
        "pos = Position.parse('S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1'\n"
        "                     ' tricks=9/7')\n"
        "solver = Solver(pos)\n"
        "print(tarotnotation.__file__, native.compiled() is not None, solver.engine,"
        " solver.solve(pos).value)\n")
    solved = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True,
                            text=True, env=env, cwd=run, check=False)
    assert len(solved.stdout.split()) == 4, solved.stdout + solved.stderr
    where, *said = solved.stdout.split()
    assert Path(where).is_relative_to(venv), where  # the wheel's, not the source tree's
    assert said == [str(compiler), "c" if compiler else "python", "62"], solved.stderr


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
