"""Round trips: text -> model -> text byte for byte, model -> text -> model, and via JSON."""

from __future__ import annotations

import random
from pathlib import Path

import budget
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import outcome_records, records

from tarotnotation.formats import json as tjson
from tarotnotation.notation import WIDTH, dumps, loads, read_file, reads
from tarotnotation.records import (
    Bid,
    Call,
    DealRecord,
    Ecart,
    PlayedCard,
    Poignee,
    Result,
    Seat,
    Trick,
)
from tarotnotation.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.tarot"))
FAULTY = sorted((ROOT / "examples" / "faulty").glob("*.tarot"))
FIXTURES = ROOT / "tests" / "fixtures" / "notation"


def _same(a: DealRecord, b: DealRecord) -> None:
    assert a.model_dump() == b.model_dump()


def _check_model(record: DealRecord) -> str:
    """record -> text -> record is exact, the text is a fixed point, and JSON agrees."""
    text = dumps(record)
    back = loads(text)
    _same(back, record)
    assert dumps(back) == text
    _same(tjson.loads(tjson.dumps(back)), record)
    return text


@pytest.mark.parametrize("path", EXAMPLES + [p for p in FAULTY if p.stem != "syntax-error"],
                         ids=lambda p: p.name)
def test_examples_are_canonical(path: Path) -> None:
    text = path.read_text("utf-8")
    deals = list(read_file(path))
    assert all(d.record is not None for d in deals)
    assert dumps(d.record for d in deals if d.record is not None) == text
    for deal in deals:
        assert deal.record is not None
        _check_model(deal.record)


def test_example_set_is_complete() -> None:
    assert len(EXAMPLES) >= 12
    assert {p.stem for p in FAULTY} >= {
        "revoke", "wrong-ecart", "false-poignee", "wrong-score", "syntax-error"}


@given(records())
def test_random_records_round_trip(record: DealRecord) -> None:
    _check_model(record)


@given(outcome_records())
def test_score_sheet_records_round_trip(record: DealRecord) -> None:
    text = _check_model(record)
    assert "play:" not in text


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_random_deals_round_trip(players: int, seed: int) -> None:
    _check_model(random_deal(random.Random(seed), players))


@pytest.mark.parametrize("stop", [0, 1, 7, 30])
def test_partial_deals_round_trip(stop: int) -> None:
    _check_model(random_deal(random.Random(stop), 4, stop_after=stop))


def test_several_records_in_one_text() -> None:
    recs = [random_deal(random.Random(s), n) for s, n in ((1, 3), (2, 4), (3, 5))]
    text = dumps(recs)
    assert "\n\n[" in text
    got = [d.record for d in reads(text)]
    assert [r.model_dump() if r else None for r in got] == [r.model_dump() for r in recs]


def test_records_of_tags_only_stay_apart() -> None:
    recs = [DealRecord(players=4), DealRecord(players=3, dealer="N"), DealRecord(players=5)]
    text = dumps(recs)
    got = [d.record for d in reads(text)]
    assert [r.model_dump() if r else None for r in got] == [r.model_dump() for r in recs]


@settings(max_examples=budget.cases(25))
@given(st.lists(records(), min_size=2, max_size=3))
def test_several_random_records_in_one_text(recs: list[DealRecord]) -> None:
    got = [d.record for d in reads(dumps(recs))]
    assert [r.model_dump() if r else None for r in got] == [r.model_dump() for r in recs]


@pytest.mark.parametrize(
    "name", ["aliases-and-free-layout.tarot", "crlf-line-ends.tarot", "utf8-bom.tarot"],
)
def test_any_valid_text_reaches_canonical_in_one_pass(name: str) -> None:
    [deal] = list(read_file(FIXTURES / name))
    assert deal.record is not None
    once = dumps(deal.record)
    twice = dumps(loads(once))
    assert once == twice
    _same(loads(once), deal.record)


def test_free_layout_reads_as_written() -> None:
    [deal] = list(read_file(FIXTURES / "aliases-and-free-layout.tarot"))
    rec = deal.record
    assert rec is not None
    assert rec.ruleset == "fft"
    assert [s.name for s in rec.seats] == ["Alice", "Bruno", "Chloé", "David"]
    assert [b.contract.keyword if b.contract else "pass" for b in rec.auction] == [
        "pass", "prise", "pass", "garde_sans"]
    assert rec.auction[1].glyph == "!"
    assert rec.auction[3].comments == ("enfin",)
    assert rec.ecart is not None
    assert rec.ecart.cards is None
    assert str(rec.ecart.shown) == "T17"
    assert rec.play[0].leader == "S"
    assert rec.play[1].cards[0].glyph == "??"
    assert rec.result is not None
    assert str(rec.result.taker_points) == "40.5"
    assert rec.result.annulled


def test_comments_stay_separate_and_in_order() -> None:
    rec = DealRecord(
        players=4,
        comments=("first", "second"),
        auction=[Bid(contract="pass", comments=("a", "b", "c")), Bid(contract="garde")],
        play=[Trick(cards=[PlayedCard(card="7H", comments=("x", "y"))], comments=("t1", "t2"))],
    )
    back = loads(_check_model(rec))
    assert back.comments == ("first", "second")
    assert back.auction[0].comments == ("a", "b", "c")
    assert back.play[0].comments == ("t1", "t2")
    assert back.play[0].cards[0].comments == ("x", "y")


@pytest.mark.parametrize(
    "comment",
    ["back\\slash", "ends with \\", "braces { and } inside", "\\}", "two\nlines",
     "line\n[Event \"not a tag\"]", "  padded  ", "\\\\{"],
)
def test_awkward_comments_round_trip(comment: str) -> None:
    rec = DealRecord(players=4, call=Call(card="KH", comments=(comment,)))
    text = _check_model(rec)
    assert len(list(reads(text + "\n" + text))) == 2


@pytest.mark.parametrize(
    "name", ["Jean-Pierre Martin", "O'Brien", "Dupont, Jean", "a\\b", "", "ends\\", "x\\,y"]
)
def test_seat_names_round_trip(name: str) -> None:
    seats = (Seat(id="S", name=name), Seat(id="E"), Seat(id="N", name="Zoë"), Seat(id="W"))
    _check_model(DealRecord(players=4, seats=seats))


@pytest.mark.parametrize("value", ["", " padded ", 'quote " inside', "back\\slash", "{x}"])
def test_tag_values_round_trip(value: str) -> None:
    _check_model(DealRecord(players=4, tags=(("Event", value), ("Event", "again"))))


def test_empty_parts_round_trip() -> None:
    # The model reads empty hands and scores as absent; an empty poignée stays.
    rec = DealRecord(players=4, hands={}, ecart=Ecart(), result=Result(scores={}),
                     declarations=[Poignee(seat="E", cards=[])])
    assert rec.hands is None
    assert rec.result is not None
    assert rec.result.scores is None
    text = _check_model(rec)
    assert "poignee E: -" in text
    assert loads("[Players \"4\"]\nhands: -\n").hands is None


def test_lines_are_wrapped_without_splitting_a_card_from_its_notes() -> None:
    rec = random_deal(random.Random(5), 3)
    long_note = "une longue remarque " * 3
    play = list(rec.play)
    cards = list(play[0].cards)
    cards[1] = cards[1].model_copy(update={"glyph": "!?", "comments": (long_note.strip(),)})
    play[0] = play[0].model_copy(update={"cards": tuple(cards)})
    rec = rec.model_copy(update={"play": tuple(play)})
    text = _check_model(rec)
    for line in text.splitlines():
        if line.startswith("    "):  # a continuation never starts with a note
            assert not line.lstrip().startswith(("{", "!", "?"))
        if "{" not in line and not line.startswith("["):
            assert len(line) <= WIDTH
    assert any(line.startswith("    ") for line in text.splitlines())  # the hands wrap


def test_model_refuses_what_the_notation_cannot_hold() -> None:
    with pytest.raises(ValueError, match="the record's players field"):
        DealRecord(players=4, tags=(("Players", "4"),))
    with pytest.raises(ValueError, match="one line"):
        DealRecord(players=4, tags=(("Event", "two\nlines"),))
    with pytest.raises(ValueError, match="pattern"):
        DealRecord(players=4, seats=[{"id": "S", "name": "a\nb"}, {"id": "E"},
                                     {"id": "N"}, {"id": "W"}])
