"""docs/notation.md: its examples read, its card table is the library's, its claims hold."""

from __future__ import annotations

import re
from pathlib import Path

from tarotnotation.notation import code_table, loads, reads
from tarotnotation.replay import replay

DOC = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text("utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, flags=re.S)


def test_tarot_blocks_read_without_error() -> None:
    blocks = _blocks("tarot")
    assert len(blocks) >= 2
    for block in blocks:
        deals = list(reads(block))
        assert deals
        for deal in deals:
            assert deal.ok, [str(d) for d in deal.diagnostics]


def test_score_sheet_block_scores_are_right() -> None:
    [sheet] = [b for b in _blocks("tarot") if "Tarot du jeudi" in b]
    for deal in reads(sheet):
        assert deal.record is not None
        rep = replay(deal.record)
        assert not rep.diagnostics, [str(d) for d in rep.diagnostics]


def test_card_table_is_the_librarys() -> None:
    assert code_table() in DOC


def test_text_blocks_that_hold_records_read() -> None:
    # the annotated example of section 4 is a whole record
    [annotated] = [b for b in _blocks("text") if b.startswith('[Event "Annotated"]')]
    rec = loads(annotated)
    assert rec.comments == ("a deal for the teaching evening", "Annotateur : G. Roux")
    assert rec.auction[1].glyph == "!?"
    assert rec.auction[1].comments == ("risky", "but the trumps are long")


def test_glyph_apart_from_its_bid_is_read() -> None:
    rec = loads('[Players "4"]\nauction: pass garde ! pass pass\n')
    assert rec.auction[1].glyph == "!"
