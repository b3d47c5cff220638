"""The archive tools' documents hold what the tools do: every query example compiles and
runs, the standings page's worked example is the tournament of the tests, the daily
deal's example is the generator's."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from archive_builders import write_tournament
from cli_runs import EXAMPLES, ROOT, invoke, rel

from tarotnotation.archives.daily import daily_deal, first_bytes
from tarotnotation.archives.query import FIELDS, compile_query

DOCS = ROOT / "docs"


def _query_examples() -> list[str]:
    text = (DOCS / "query.md").read_text(encoding="utf-8")
    block = text.split("```query\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


@pytest.mark.parametrize("expr", _query_examples())
def test_every_query_example_compiles_and_runs(expr: str) -> None:
    compile_query(expr)
    ran = invoke("query", rel(EXAMPLES / "garde-poignee.tarot"), "--where", expr, "--count")
    assert ran.code == 0, ran


def test_every_field_is_documented() -> None:
    text = (DOCS / "query.md").read_text(encoding="utf-8")
    for name in FIELDS:
        assert f"`{name}`" in text, name


def test_the_worked_example_of_the_standings(tmp_path: Path) -> None:
    text = (DOCS / "standings.md").read_text(encoding="utf-8")
    shown = text.split("$ tarot standings tournament/\n", 1)[1].split("```", 1)[0]
    write_tournament(tmp_path)
    ran = invoke("standings", str(tmp_path))
    assert ran.code == 0
    assert ran.out == shown


def test_the_daily_example() -> None:
    text = (DOCS / "daily.md").read_text(encoding="utf-8")
    start = re.search(r"starts with\s+the bytes `([0-9a-f ]+)`", text)
    assert start is not None
    assert first_bytes("2026-11-14", 4, 4).hex(" ") == start.group(1)
    record = daily_deal(datetime.date(2026, 11, 14), 4)
    assert record.hands is not None
    for seat, hand in record.hands.items():
        assert f"hand {seat}: {hand}\n" in text
    assert f"chien: {record.chien}\n" in text
