"""docs/bots.md says what the code does: its example runs, and its tables of the point
count's thresholds are the bot's."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from tarotnotation.players.heuristic import THRESHOLDS

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "bots.md"


def test_the_bots_page_example_runs() -> None:
    result = doctest.testfile(str(PAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_bots_page_gives_the_bots_thresholds() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| ([345]) \(\d+ cards\) \| (\d+ \| \d+ \| \d+ \| \d+) \|$", text,
                           re.MULTILINE))
    assert {int(n): tuple(int(x) for x in v.split(" | ")) for n, v in rows.items()} == dict(
        THRESHOLDS)


def test_the_readme_points_to_the_bots_page() -> None:
    assert "](docs/bots.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
