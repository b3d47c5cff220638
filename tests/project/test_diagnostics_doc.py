"""docs/diagnostics.md lists every diagnostic code, as the library defines them."""

from __future__ import annotations

from pathlib import Path

from tarotnotation.diagnostics import Code, Diagnostic, Location, Severity, codes_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_docs_list_every_code() -> None:
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert codes_markdown() in text


def test_codes_are_unique_and_stage_lettered() -> None:
    values = [c.value for c in Code]
    assert len(values) == len(set(values))
    assert all(v[0] in "SJMLFXDAKEHPRYCQ" and v[1:].isdigit() for v in values)


def test_diagnostic_prints_file_line_col_deal_trick_seat_card() -> None:
    d = Diagnostic(Code.MUST_FOLLOW_SUIT, Severity.ERROR, "expected 2H",
                   Location(file="a.tarot", line=3, col=9, deal=2, trick=4, seat="E", card="7C"))
    assert str(d) == "a.tarot:3:9: P105 error: deal 2, trick 4, seat E, card 7C: expected 2H"
    assert d.to_dict()["line"] == 3
