"""The examples replay clean with right scores; each faulty example has exactly its fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.notation import read_file
from tarotnotation.records import ChelemAnnouncement, Misere, Poignee
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract
from tarotnotation.source import ReadDeal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _deals(name: str) -> list[ReadDeal]:
    return list(read_file(EXAMPLES / name))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.tarot")), ids=lambda p: p.name)
def test_example_replays_clean(path: Path) -> None:
    deals = list(read_file(path))
    assert deals
    for deal in deals:
        assert deal.ok, deal.diagnostics
        assert deal.record is not None
        assert not deal.diagnostics
        rep = replay(deal.record, deal=deal.index, source=deal.source)
        assert rep.ok, [str(d) for d in rep.diagnostics]
        assert not rep.diagnostics
        assert deal.record.result is not None
        assert deal.record.result.scores is not None
        assert rep.scores == deal.record.result.scores
        assert sum(deal.record.result.scores.values()) == 0
        assert deal.record.tag("Event")


def _one(name: str) -> ReadDeal:
    [deal] = _deals(name)
    assert deal.record is not None
    return deal


@pytest.mark.parametrize(
    ("name", "contract", "players"),
    [
        ("prise.tarot", Contract.PRISE, 4),
        ("garde-poignee.tarot", Contract.GARDE, 4),
        ("garde-sans.tarot", Contract.GARDE_SANS, 4),
        ("garde-contre.tarot", Contract.GARDE_CONTRE, 4),
        ("three-players.tarot", Contract.GARDE, 3),
        ("five-players.tarot", Contract.GARDE, 5),
    ],
)
def test_contracts_and_tables(name: str, contract: Contract, players: int) -> None:
    deal = _one(name)
    assert deal.record is not None
    rep = replay(deal.record)
    assert rep.contract is contract
    assert deal.record.players == players
    assert len(deal.record.play) == deal.record.table.tricks
    assert all(s.name for s in deal.record.seats)


def test_features_shown_by_the_examples() -> None:
    five = _one("five-players.tarot").record
    assert five is not None
    assert five.call is not None
    poignee = _one("garde-poignee.tarot").record
    assert poignee is not None
    assert any(isinstance(d, Poignee) for d in poignee.declarations)
    chelem = _one("chelem-announced.tarot").record
    assert chelem is not None
    assert any(isinstance(d, ChelemAnnouncement) for d in chelem.declarations)
    assert replay(chelem).chelem is Camp.TAKER
    assert chelem.play[-1].cards[0].card is Card.EXCUSE  # led to the last trick, and wins
    pab = _one("petit-au-bout.tarot").record
    assert pab is not None
    assert replay(pab).petit_au_bout is Camp.TAKER
    assert Card.T1 in [pc.card for pc in pab.play[-1].cards]
    excuse = _one("excuse-last-trick.tarot").record
    assert excuse is not None
    assert Card.EXCUSE in [pc.card for pc in excuse.play[-1].cards[1:]]
    misere = _one("misere.tarot").record
    assert misere is not None
    assert any(isinstance(d, Misere) for d in misere.declarations)
    annotated = _one("annotated.tarot").record
    assert annotated is not None
    assert annotated.comments
    assert annotated.glyph
    assert any(b.comments for b in annotated.auction)
    assert any(t.comments for t in annotated.play)
    assert any(pc.glyph for t in annotated.play for pc in t.cards)
    sheet = _deals("score-sheet.tarot")
    assert len(sheet) >= 6
    assert all(d.record is not None and d.record.is_outcome_only for d in sheet)


@pytest.mark.parametrize(
    ("name", "code", "line", "col"),
    [
        ("revoke.tarot", Code.MUST_FOLLOW_SUIT, 21, 8),
        ("wrong-ecart.tarot", Code.ECART_KING_OR_BOUT, 17, 1),
        ("false-poignee.tarot", Code.POIGNEE_NOT_IN_HAND, 18, 1),
    ],
)
def test_faulty_examples_point_at_the_fault(name: str, code: Code, line: int, col: int) -> None:
    deal = _one(f"faulty/{name}")
    assert deal.ok  # the text reads; the rules find the fault
    assert deal.record is not None
    rep = replay(deal.record, deal=deal.index, source=deal.source)
    [diag] = rep.diagnostics
    assert diag.code is code
    assert diag.location.text_position() == f"{EXAMPLES / 'faulty' / name}:{line}:{col}"
    text_line = (EXAMPLES / "faulty" / name).read_text("utf-8").split("\n")[line - 1]
    if code is Code.MUST_FOLLOW_SUIT:
        assert diag.location.card is not None
        assert text_line[col - 1:].startswith(diag.location.card)
    else:
        assert text_line.startswith(("ecart:", "poignee"))


def test_wrong_score_points_at_each_wrong_score() -> None:
    deal = _one("faulty/wrong-score.tarot")
    assert deal.record is not None
    assert deal.record.result is not None
    rep = replay(deal.record, source=deal.source)
    assert {d.code for d in rep.diagnostics} == {Code.SCORE_MISMATCH}
    path = EXAMPLES / "faulty" / "wrong-score.tarot"
    lines = path.read_text("utf-8").split("\n")
    for diag in rep.diagnostics:
        assert diag.location.seat is not None
        assert diag.location.line is not None
        assert diag.location.col is not None
        at = lines[diag.location.line - 1][diag.location.col - 1:]
        assert at.startswith(diag.location.seat)
        assert at[len(diag.location.seat)] in "+-"


def test_syntax_error_example() -> None:
    deals = _deals("faulty/syntax-error.tarot")
    assert [d.ok for d in deals] == [False, True]
    [diag] = deals[0].diagnostics
    assert diag.code is Code.BAD_CARD_CODE
    assert (diag.location.line, diag.location.col) == (25, 8)
    assert diag.message.startswith("'1OS' is not a card: expected a card such as 7H or T21")
