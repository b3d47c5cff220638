"""Positions written by hand (the one-line form) and taken from records: round trips, and a
located Q1xx diagnostic for each way a position can be wrong."""

from __future__ import annotations

import random

import pytest

from tarotnotation.analysis import Position, PositionError, deal_start, position_at
from tarotnotation.cards import Card, CardSet
from tarotnotation.diagnostics import Code
from tarotnotation.kernel import TAKER
from tarotnotation.records import Trick
from tarotnotation.simulate import random_deal

ENDGAME = "S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7"


def _codes(text: str) -> list[tuple[str, int | None]]:
    with pytest.raises(PositionError) as err:
        Position.parse(text)
    return [(d.code.value, d.location.col) for d in err.value.diagnostics]


def test_the_one_line_form_reads_back_what_it_writes() -> None:
    pos = Position.parse(ENDGAME)
    again = Position.parse(pos.fen())
    assert again == pos
    assert again.holding(TAKER) == (120, 1)
    assert pos.tricks_left == 2
    assert pos.seats[pos.to_play] == "S"


def test_positions_of_generated_deals_round_trip_through_the_one_line_form() -> None:
    rng = random.Random(2)
    for _ in range(40):
        players = rng.choice((3, 4, 5))
        rec = random_deal(rng, players, with_result=False)
        start, cards = deal_start(rec)
        pos = position_at(start, cards[:rng.randrange(len(cards))])
        again = Position.parse(pos.fen())
        assert (again.hands, again.leader, again.trick, again.trick_number) == (
            pos.hands, pos.leader, pos.trick, pos.trick_number)
        assert again.holding(TAKER) == pos.holding(TAKER)
        assert again.tricks_won == pos.tricks_won
        assert again.camps == pos.camps
        assert again.legal() == pos.legal()


def test_a_trick_in_progress_and_the_rules() -> None:
    pos = Position.parse("S=KH,T21 E=2H,T5 N=EX W=4H,T2 taker=S lead=N trick=3H won=60/1"
                         " tricks=9/7 rules=pagat,petit_au_bout=wins_last_trick contract=prise")
    assert pos.trick == (Card.H3,)
    assert pos.seats[pos.to_play] == "W"
    assert pos.rules.spec() == "pagat petit_au_bout=wins_last_trick"
    assert str(pos.legal()) == "4H"


def test_the_whole_deal_at_its_first_lead_needs_no_won_field() -> None:
    rec = random_deal(random.Random(1), 4, with_result=False)
    start, _ = deal_start(rec)
    text = " ".join(f"{s}={','.join(c.code for c in CardSet(h))}"
                    for s, h in zip(start.seats, start.hands, strict=True))
    pos = Position.parse(f"{text} taker={start.seats[start.taker]}"
                         f" lead={start.seats[start.leader]} contract={start.contract.keyword}")
    assert pos.aside == start.aside
    assert pos.trick_number == 0


@pytest.mark.parametrize(("text", "code"), [
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7 colour=red", "Q101"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7 lead=E", "Q101"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60-1 tricks=9/7", "Q101"),
    ("S=KH,T22 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7", "Q102"),
    ("S=KH,T21 E=KH,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7", "Q103"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H taker=S lead=S won=60/1 tricks=9/7", "Q104"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 lead=S won=60/1 tricks=9/7", "Q105"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S tricks=9/7", "Q105"),
    ("S=KH,T21 E=2H,T5 N=EX W=4H taker=S lead=N trick=3H,T2 won=60/1 tricks=9/7", "Q106"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=90/1 tricks=9/7", "Q107"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/3 tricks=9/7", "Q107"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/9", "Q107"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=X lead=S won=60/1 tricks=9/7", "Q108"),
    ("S=KH,T21 E=2H,T5 taker=S lead=S won=60/1 tricks=9/7", "Q108"),
    ("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S partner=N lead=S won=60/1 tricks=9/7",
     "Q108"),
])
def test_each_fault_of_a_written_position_is_named_and_located(text: str, code: str) -> None:
    found = _codes(text)
    assert code in [c for c, _ in found], found
    assert all(col is not None and col >= 1 for _, col in found)


def test_the_column_points_at_the_word_at_fault() -> None:
    text = "S=KH,T22 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7"
    with pytest.raises(PositionError) as err:
        Position.parse(text, file="puzzle.txt", line=3)
    [d] = err.value.diagnostics
    assert d.code is Code.POSITION_CARD
    assert str(d).startswith("puzzle.txt:3:6: Q102 error:")
    assert d.location.col is not None
    assert text[d.location.col - 1:].startswith("T22")


def test_from_record_needs_hands_and_stops_at_an_illegal_card() -> None:
    rec = random_deal(random.Random(7), 4, with_result=False)
    pos = Position.from_record(rec, trick=3, card=2)
    assert pos.trick_number == 2
    assert len(pos.trick) == 2
    with pytest.raises(PositionError) as err:
        Position.from_record(rec.model_copy(update={"hands": None, "play": ()}))
    assert err.value.diagnostics[0].code is Code.ANALYSIS_IMPOSSIBLE
    with pytest.raises(PositionError) as err:
        Position.from_record(rec, trick=30)
    assert err.value.diagnostics[0].code is Code.ANALYSIS_IMPOSSIBLE
    # Swap two cards of the second trick: one of them is now played out of its hand.
    play = list(rec.play)
    cards = list(play[1].cards)
    cards[0], cards[1] = cards[1], cards[0]
    play[1] = Trick(cards=tuple(cards))
    with pytest.raises(PositionError) as err:
        Position.from_record(rec.model_copy(update={"play": tuple(play)}), trick=5)
    d = err.value.diagnostics[0]
    assert d.code is Code.ANALYSIS_STOPPED
    assert d.location.trick == 2
    assert d.location.path == "play[1].cards[0]"
