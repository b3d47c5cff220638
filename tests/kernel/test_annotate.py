"""tarotnotation.narrator (annotate): computed comments in place, idempotent, counts that add up."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from strategies import legal_deals, records

from tarotnotation import notation
from tarotnotation.narrator import (
    PREFIX,
    annotate,
    is_computed,
    running_points,
    score_lines,
    strip,
    unplayed_points,
)
from tarotnotation.records import DealRecord
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.tarot"))


def _records(path: Path) -> list[DealRecord]:
    return [d.record for d in notation.read(path) if d.record is not None]


def _all_comments(record: DealRecord) -> list[str]:
    out = list(record.comments)
    for bid in record.auction:
        out += bid.comments
    for decl in record.declarations:
        out += decl.comments
    if record.call is not None:
        out += record.call.comments
    if record.ecart is not None:
        out += record.ecart.comments
    for trick in record.play:
        out += trick.comments
        for card in trick.cards:
            out += card.comments
    if record.result is not None:
        out += record.result.comments
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_annotating_twice_gives_the_same_text(path: Path) -> None:
    for record in _records(path):
        once = notation.dumps(annotate(record))
        again = notation.dumps(annotate(notation.loads(once)))
        assert again == once
        # people's comments are kept, in order, and nothing else is lost
        assert strip(notation.loads(once)) == record
        people = list(_all_comments(record))
        kept = [c for c in _all_comments(notation.loads(once)) if not is_computed(c)]
        assert kept == people


@given(legal_deals())
def test_running_points_add_up_to_the_replay_count(record: DealRecord) -> None:
    rep = replay(record)
    counts = running_points(rep)
    assert len(counts) == len(rep.tricks)
    for before, after in itertools.pairwise(counts):
        # each trick's points go to the camps, nothing appears or vanishes
        assert after.taker_half + after.defence_half == (
            before.taker_half + before.defence_half + after.points)
    rest = unplayed_points(rep, counts)
    assert rest is not None
    last = counts[-1]
    taker = last.taker_half + (rest[0] if rest[1] is Camp.TAKER else 0)
    defence = last.defence_half + (rest[0] if rest[1] is Camp.DEFENCE else 0)
    if rep.status is Status.SCORED:
        assert taker == rep.taker_half
        assert defence == rep.defence_half
    assert taker + defence == 182


@given(legal_deals())
def test_every_trick_of_a_legal_deal_gets_its_winner(record: DealRecord) -> None:
    out = annotate(record)
    rep = replay(record)
    for trick, played in zip(out.play, rep.tricks, strict=True):
        note = trick.cards[-1].comments[0]
        assert played.winner is not None
        assert note.startswith(f"{PREFIX}{record.seat_ids[played.winner]} wins (")
    assert annotate(out) == out
    assert replay(out).scores == rep.scores
    assert out.result is not None
    assert out.result.comments[-1] == PREFIX + "; ".join(score_lines(rep))


@given(records())
def test_any_record_annotates_idempotently_through_text(record: DealRecord) -> None:
    once = annotate(record)
    text = notation.dumps(once)
    assert notation.dumps(annotate(notation.loads(text))) == text
    assert strip(once) == strip(record)
    assert replay(once).diagnostics == replay(strip(record)).diagnostics


def test_violations_are_written_where_they_happen() -> None:
    faulty = ROOT / "examples" / "faulty"
    [revoke] = _records(faulty / "revoke.tarot")
    out = annotate(revoke)
    assert out.play[2].cards[1].comments[0].startswith(f"{PREFIX}error P105 must-follow-suit")
    [ecart] = _records(faulty / "wrong-ecart.tarot")
    assert annotate(ecart).ecart is not None
    assert any("E102" in c for c in annotate(ecart).ecart.comments)  # type: ignore[union-attr]
    [poignee] = _records(faulty / "false-poignee.tarot")
    assert any("H102" in c for c in annotate(poignee).declarations[0].comments)
    [score] = _records(faulty / "wrong-score.tarot")
    result = annotate(score).result
    assert result is not None
    assert [c.split()[2] for c in result.comments if "R101" in c] == ["R101"] * 4


def test_a_comment_that_starts_with_the_prefix_is_taken_as_computed() -> None:
    record = _records(ROOT / "examples" / "prise.tarot")[0]
    mine = record.model_copy(update={"comments": ("a note", f"{PREFIX}stale")})
    out = annotate(mine)
    assert out.comments == ("a note",)


def test_score_lines_of_a_score_sheet_and_of_an_unscored_deal() -> None:
    sheet = _records(ROOT / "examples" / "score-sheet.tarot")
    lines = score_lines(replay(sheet[0]))
    assert lines == ["Prise by S: 29 points with 0 bouts, needs 56: lost by 27",
                     "contract (25 + 27) × 1 = -52", "poignée simple 20 = -20",
                     "each defender +72", "S -216, E +72, N +72, W +72"]
    bare = DealRecord(players=4, auction=[{"contract": "pass"}] * 4)
    assert score_lines(replay(bare)) == ["annulled: no score"]
    assert score_lines(replay(DealRecord(players=4))) == ["not scored (unscored)"]
    annotated = annotate(bare)
    assert annotated.comments == (f"{PREFIX}annulled: no score",)
    assert annotated.auction[-1].comments == (
        f"{PREFIX}warning A105 all-passed: every player passed: the deal is annulled",)
