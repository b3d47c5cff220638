"""The code stays ruff-clean, mypy --strict clean, and installs without bare top-level modules.

mypy (a minute of CPU) and the wheel's build are marked ``slow``: the suite leaves them
out, and ``.ci/run`` runs them as a step of their own after it (``TAROT_SLOW=1 pytest -m
slow`` on this file and tests/twins/test_native_build.py), which fails CI as they fail.
A developer runs them with ``TAROT_SLOW=1 python -m pytest tests/project/test_quality.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_wheel_installs_no_bare_cli_or_grammar_module(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"))
    wheels = tmp_path / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(src)],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = wheels.glob("tarotnotation-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"tarotnotation", next(t for t in tops if t.endswith(".dist-info"))}
    assert "tarotnotation/grammar/tarot.lark" in names
    assert "tarotnotation/cli/app.py" in names
    assert "tarotnotation/py.typed" in names
    # the compiled core, built with the compiler this machine has (tests/twins/test_native_build.py
    # builds without one)
    assert any(n.startswith("tarotnotation/_kernel") and n.endswith((".so", ".pyd"))
               for n in names)
    assert {"tarotnotation/html/tarot.js", "tarotnotation/html/tarot.css"} <= set(names)
