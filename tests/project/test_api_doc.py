"""docs/api.md, the library's tour (issue 37): its five day-one scripts run as written (the
page is in the doctest run, as README.md is) and pass ``mypy --strict`` as a program would
write them.

The two runs of mypy are marked ``slow``, as tests/project/test_quality.py's is: the suite
leaves them out and ``.ci/run`` runs them as a step of its own.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOUR = ROOT / "docs" / "api.md"
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def tour_script(page: Path = TOUR) -> str:
    """A page's examples as one program: the doctest lines, their output left out."""
    lines: list[str] = []
    for block in _BLOCK.findall(page.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith((">>> ", "... ")):
                lines.append(line[4:])
            elif line in (">>>", "..."):
                lines.append("")
    return "\n".join(lines) + "\n"


def test_the_tour_holds_the_five_day_one_scripts() -> None:
    text = TOUR.read_text(encoding="utf-8")
    for heading in ("## 1. Read every deal", "## 2. Build a deal from scratch",
                    "## 3. Walk a deal", "## 4. Ask the solver",
                    "## 5. Filter an archive"):
        assert heading in text
    script = tour_script()
    for call in ("deal.replay()", "game.push_bid(", "game.push_ecart(", "game.push(",
                 "game.pop()", "game.legal_moves", "game.trick_winner", "tarot_json.dumps(",
                 "notation.loads(", "solve(", "best_cards(", "analyse_play(", "scan(",
                 "compile_query(", "Standings("):
        assert call in script, call


def test_the_tour_is_in_the_doctest_run_as_the_readme_is() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_config = config["tool"]["pytest"]["ini_options"]
    assert "docs/api.md" in pytest_config["testpaths"]
    assert "--doctest-glob=api.md" in pytest_config["addopts"].split()


def test_the_readme_links_the_tour() -> None:
    assert "](docs/api.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.process
def test_mypy_strict_passes_on_the_tours_scripts(tmp_path: Path) -> None:
    program = tmp_path / "tour.py"
    program.write_text(tour_script(), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(program)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.process
def test_mypy_strict_passes_on_the_readmes_examples_without_asserts(tmp_path: Path) -> None:
    script = tour_script(ROOT / "README.md")
    assert "assert " not in script
    program = tmp_path / "readme.py"
    program.write_text(script, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(program)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_tours_scripts_hold_no_assert() -> None:
    assert "assert " not in tour_script()
