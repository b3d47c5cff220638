"""docs/rules.md §1 (cards) and §2 (players, seats, deal)."""

from __future__ import annotations

import pytest
from builders import SEATS4, auction_for, cards, fill_hands, half_points, slam_deal

from tarotnotation.cards import Card, CardSet, Suit
from tarotnotation.diagnostics import Code, Severity
from tarotnotation.records import Bid, DealRecord, PlayedCard, Result, Seat, Trick
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Contract, table


def test_rule_1_deck_has_four_suits_of_14_ranks_21_trumps_and_the_excuse() -> None:
    deck = CardSet.all()
    assert len(deck) == 78
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        assert len(deck.of_suit(suit)) == 14
        assert {c.rank for c in deck.of_suit(suit)} == set(range(1, 15))
    assert [c.rank for c in deck.trumps()] == list(range(1, 22))
    assert Card.EXCUSE in deck
    assert not Card.EXCUSE.is_trump
    assert str(CardSet.parse("KH QH NH JH 10H 1H")) == "1H 10H JH NH QH KH"


def test_rule_1_bouts_are_the_petit_the_21_and_the_excuse() -> None:
    assert {c for c in Card if c.is_bout} == {Card.T1, Card.T21, Card.EXCUSE}
    assert CardSet.all().bouts() == 3


def test_rule_1_card_values_total_91() -> None:
    # Every card's value against the table of §1, written independently in builders.
    for card in Card:
        assert card.points == half_points(card.code), card.code
    assert sum(half_points(c.code) for c in Card) == 182
    assert CardSet.all().points() == 182 == 2 * 91


@pytest.mark.parametrize(
    ("code", "half"),
    [("T1", 9), ("T21", 9), ("EX", 9), ("KS", 9), ("QH", 7), ("ND", 5), ("JC", 3),
     ("10S", 1), ("1H", 1), ("T2", 1), ("T20", 1)],
)
def test_rule_1_card_values_in_half_points(code: str, half: int) -> None:
    assert Card.from_code(code).points == half
    assert cards(code).points() == half


def test_rule_1_every_card_is_odd_in_half_points() -> None:
    assert all(card.points % 2 == 1 for card in Card)


@pytest.mark.parametrize(
    ("players", "hand", "chien", "dealt_by", "tricks"),
    [(3, 24, 6, 4, 24), (4, 18, 6, 3, 18), (5, 15, 3, 3, 15)],
)
def test_rule_2_table_per_player_count(
    players: int, hand: int, chien: int, dealt_by: int, tricks: int
) -> None:
    tab = table(players)
    assert (tab.hand, tab.chien, tab.dealt_by) == (hand, chien, dealt_by)
    assert tab.tricks == tricks
    assert players * hand + chien == 78


def test_rule_2_no_table_for_other_player_counts() -> None:
    with pytest.raises(ValueError, match="3, 4 or 5 players"):
        table(6)


def test_rule_2_hand_of_wrong_size_is_not_a_record() -> None:
    with pytest.raises(ValueError, match="a hand has 18 cards"):
        DealRecord(players=4, hands={"S": cards("1S 2S 3S")})


def test_rule_2_dealers_right_hand_neighbour_speaks_and_leads_first() -> None:
    # Counter-clockwise order S, E, N, W: W deals, S speaks and leads first.
    rec = DealRecord(players=4, dealer="W")
    assert rec.first_seat == "S"
    assert DealRecord(players=4, dealer="S").first_seat == "E"
    # E leading the first trick when N dealt is right; S leading it is a wrong leader.
    good = DealRecord(players=4, dealer="N", play=[Trick(cards=[PlayedCard(card=Card.H5)])])
    assert replay(good).tricks[0].leader == 3  # W, right of N
    bad = DealRecord(
        players=4, dealer="N", play=[Trick(leader="S", cards=[PlayedCard(card=Card.H5)])]
    )
    wrong = [d for d in replay(bad).diagnostics if d.code is Code.WRONG_LEADER]
    assert len(wrong) == 1
    assert wrong[0].location.trick == 1
    assert "W leads this trick" in wrong[0].message


def test_rule_2_first_to_speak_is_dealers_right_hand_neighbour() -> None:
    rec = DealRecord(players=4, dealer="N", auction=[Bid(contract="garde", seat="S")])
    codes = [d.code for d in replay(rec).diagnostics]
    assert Code.BID_OUT_OF_TURN in codes
    ok = DealRecord(players=4, dealer="N", auction=auction_for(SEATS4, "W", "S", Contract.PRISE))
    assert Code.BID_OUT_OF_TURN not in [d.code for d in replay(ok).diagnostics]


def _petit_sec_record(extra: str) -> DealRecord:
    """E holds the Petit as only trump (plus ``extra``); the deal is played out legally."""
    hands, chien = fill_hands(4, {"E": "T1 " + extra})
    return DealRecord(players=4, dealer="W", hands=hands, chien=chien,
                      auction=auction_for(SEATS4, "S", "S", Contract.GARDE_SANS),
                      result=Result(taker_points=50, bouts=1))


def test_rule_2_petit_sec_is_flagged_as_a_warning_not_rejected() -> None:
    plain = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"
    hands, _ = fill_hands(4, {"E": "T1 " + plain})
    assert hands["E"].trumps() == cards("T1")
    assert Card.EXCUSE not in hands["E"]
    r = replay(_petit_sec_record(plain))
    sec = [d for d in r.diagnostics if d.code is Code.PETIT_SEC]
    assert len(sec) == 1
    assert sec[0].severity is Severity.WARNING
    assert sec[0].location.seat == "E"
    assert r.ok
    assert r.status is Status.SCORED


def test_rule_2_petit_with_the_excuse_is_not_petit_sec() -> None:
    plain = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H"
    r = replay(_petit_sec_record("EX " + plain))
    assert Code.PETIT_SEC not in [d.code for d in r.diagnostics]


def test_rule_2_petit_with_another_trump_is_not_petit_sec() -> None:
    plain = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H"
    r = replay(_petit_sec_record("T2 " + plain))
    assert Code.PETIT_SEC not in [d.code for d in r.diagnostics]


def test_rule_2_petit_sec_detected_from_a_complete_play_without_hands() -> None:
    # Garde sans with T2-T7 in the chien; E's only trump is the Petit (no Excuse). The
    # hands are not recorded: the complete play shows them.
    tail = [
        {"S": "T21", "E": "T1", "N": "T8", "W": "T13"},
        {"S": "T20", "E": "1S", "N": "T9", "W": "T14"},
        {"S": "T19", "E": "2S", "N": "T10", "W": "T15"},
        {"S": "T18", "E": "1H", "N": "T11", "W": "EX"},
        {"S": "T17", "E": "2H", "N": "T12", "W": "1C"},
        {"S": "T16", "E": "1D", "N": "2D", "W": "2C"},
    ]
    rec = slam_deal(tail, contract=Contract.GARDE_SANS, chien="T2 T3 T4 T5 T6 T7")
    rec = rec.model_copy(update={"hands": None})
    r = replay(rec)
    sec = [d for d in r.diagnostics if d.code is Code.PETIT_SEC]
    assert [d.location.seat for d in sec] == ["E"]
    assert r.ok
    assert r.status is Status.SCORED


def test_rule_2_seats_must_match_the_player_count() -> None:
    with pytest.raises(ValueError, match="5 players need 5 seats"):
        DealRecord(players=5, seats=tuple(Seat(id=s) for s in SEATS4))


def test_rule_2_petit_sec_of_the_taker_detected_from_a_complete_play() -> None:
    # The same play with E as the taker of a Garde sans: his cards are his dealt hand.
    tail = [
        {"S": "T21", "E": "T1", "N": "T8", "W": "T13"},
        {"S": "T20", "E": "1S", "N": "T9", "W": "T14"},
        {"S": "T19", "E": "2S", "N": "T10", "W": "T15"},
        {"S": "T18", "E": "1H", "N": "T11", "W": "EX"},
        {"S": "T17", "E": "2H", "N": "T12", "W": "1C"},
        {"S": "T16", "E": "1D", "N": "2D", "W": "2C"},
    ]
    rec = slam_deal(tail, taker="E", contract=Contract.GARDE_SANS, chien="T2 T3 T4 T5 T6 T7")
    r = replay(rec.model_copy(update={"hands": None}))
    assert [d.location.seat for d in r.diagnostics if d.code is Code.PETIT_SEC] == ["E"]



def test_rule_2_petit_sec_declared_annuls_the_deal() -> None:
    # The record says the deal was annulled, and E's hand is petit sec: no score, and no
    # warning (the rule was followed).
    plain = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"
    hands, chien = fill_hands(4, {"E": "T1 " + plain})
    rec = DealRecord(players=4, dealer="W", hands=hands, chien=chien,
                     result=Result(annulled=True, scores=dict.fromkeys(SEATS4, 0)))
    r = replay(rec)
    assert r.status is Status.ANNULLED
    assert r.score is None
    assert r.diagnostics == ()
    # Not annulled on the record: the hand is flagged.
    r2 = replay(rec.model_copy(update={"result": None}))
    assert [d.code for d in r2.diagnostics] == [Code.PETIT_SEC]
