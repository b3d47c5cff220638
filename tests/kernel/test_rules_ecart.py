"""docs/rules.md §4: the chien and the écart."""

from __future__ import annotations

import pytest
from builders import SEATS4, auction_for, camp_half_points, cards, fill_hands, slam_deal

from tarotnotation.diagnostics import Code
from tarotnotation.records import DealRecord, Ecart, Result
from tarotnotation.replay import Replay, replay
from tarotnotation.rules import Contract

# S takes a Garde; W deals. S's hand and the chien are fixed; the rest is dealt around.
RICH_HAND = "KS QS 5S 6S 7S 8S 9S 10S KH 5H 6H T21 T5 T6 T7 T8 T9 EX"
RICH_CHIEN = "1C 2C 3C 4C 5C 6C"
# Four Kings and fourteen trumps: with the chien only four plain cards can be discarded.
POOR_HAND = "KS KH KD KC T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15"
POOR_CHIEN = "1S 2S 3S 4S T16 T17"


def _ecart(hand: str, chien: str, ecart: str | None, shown: str = "",
           contract: Contract = Contract.GARDE, ruleset: str = "fft") -> Replay:
    hands, pile = fill_hands(4, {"S": hand}, chien)
    assert hands["S"] == cards(hand)
    assert pile == cards(chien)
    rec = DealRecord(
        ruleset=ruleset, players=4, dealer="W", hands=hands, chien=pile,
        auction=auction_for(SEATS4, "S", "S", contract),
        ecart=None if ecart is None else Ecart(cards=cards(ecart), shown=cards(shown)),
        result=Result(taker_points=50, bouts=1),
    )
    return replay(rec)


def _codes(r: Replay) -> set[str]:
    return {d.code.value for d in r.diagnostics}


def test_rule_4_a_legal_ecart_of_chien_size_is_accepted() -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S 7S")
    assert r.ok
    assert not r.diagnostics
    assert r.hands["S"] == (cards(RICH_HAND) | cards(RICH_CHIEN)) - cards("1C 2C 3C 5S 6S 7S")


@pytest.mark.parametrize("ecart", ["1C 2C 3C 5S 6S", "1C 2C 3C 5S 6S 7S 8S"])
def test_rule_4_ecart_has_as_many_cards_as_the_chien(ecart: str) -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, ecart)
    bad = [d for d in r.diagnostics if d.code is Code.ECART_SIZE]
    assert len(bad) == 1
    assert "the écart has 6 cards" in bad[0].message


@pytest.mark.parametrize("card", ["KS", "KH", "T21", "EX"])
def test_rule_4_ecart_never_holds_a_king_or_a_bout(card: str) -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S " + card, shown=card if card == "T21"
               else "")
    bad = [d for d in r.diagnostics if d.code is Code.ECART_KING_OR_BOUT]
    assert len(bad) == 1
    assert card in bad[0].message
    assert bad[0].location.seat == "S"


def test_rule_4_queen_in_the_ecart_is_allowed() -> None:
    assert _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S QS").ok


def test_rule_4_ecart_trump_when_avoidable_is_a_violation() -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S T5", shown="T5")
    bad = [d for d in r.diagnostics if d.code is Code.ECART_TRUMP_AVOIDABLE]
    assert len(bad) == 1
    assert "expected at most 0 trump" in bad[0].message


def test_rule_4_ecart_trumps_when_unavoidable_and_shown_are_legal() -> None:
    r = _ecart(POOR_HAND, POOR_CHIEN, "1S 2S 3S 4S T16 T17", shown="T16 T17")
    assert r.ok
    assert not r.diagnostics


def test_rule_4_ecart_more_trumps_than_unavoidable_is_a_violation() -> None:
    # Four plain cards could go; discarding three trumps keeps one of them back.
    r = _ecart(POOR_HAND, POOR_CHIEN, "1S 2S 3S T15 T16 T17", shown="T15 T16 T17")
    bad = [d for d in r.diagnostics if d.code is Code.ECART_TRUMP_AVOIDABLE]
    assert len(bad) == 1
    assert "expected at most 2 trump" in bad[0].message


def test_rule_4_each_discarded_trump_is_shown() -> None:
    r = _ecart(POOR_HAND, POOR_CHIEN, "1S 2S 3S 4S T16 T17", shown="T16")
    bad = [d for d in r.diagnostics if d.code is Code.ECART_TRUMP_NOT_SHOWN]
    assert len(bad) == 1
    assert "T17" in bad[0].message


def test_rule_4_only_trumps_of_the_ecart_are_shown() -> None:
    r = _ecart(POOR_HAND, POOR_CHIEN, "1S 2S 3S 4S T16 T17", shown="T16 T17 1S")
    assert Code.ECART_SHOWN_WRONG.value in _codes(r)


def test_rule_4_ecart_comes_from_the_hand_and_the_chien() -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S 2H")
    bad = [d for d in r.diagnostics if d.code is Code.ECART_NOT_IN_HAND]
    assert len(bad) == 1
    assert "2H" in bad[0].message


@pytest.mark.parametrize("contract", [Contract.GARDE_SANS, Contract.GARDE_CONTRE])
def test_rule_4_garde_sans_and_garde_contre_have_no_ecart(contract: Contract) -> None:
    r = _ecart(RICH_HAND, RICH_CHIEN, "1C 2C 3C 5S 6S 7S", contract=contract)
    assert Code.ECART_NOT_ALLOWED.value in _codes(r)
    assert _ecart(RICH_HAND, RICH_CHIEN, None, contract=contract).ok


# --- who the chien / écart counts for ---------------------------------------------------

# The crafted deal: S wins every trick but the last, which W wins with T16 over S's 1C;
# E's Excuse goes to the last trick (it changes camp, to the taker).
TAIL = [
    {"S": "T21", "E": "T1", "N": "T6", "W": "T11"},
    {"S": "T20", "E": "T2", "N": "T7", "W": "T12"},
    {"S": "T19", "E": "T3", "N": "T8", "W": "T13"},
    {"S": "T18", "E": "T4", "N": "T9", "W": "T14"},
    {"S": "T17", "E": "T5", "N": "T10", "W": "T15"},
    {"S": "1C", "E": "EX", "N": "2C", "W": "T16"},
]


@pytest.mark.parametrize(
    ("contract", "chien_to_taker"),
    [(Contract.PRISE, True), (Contract.GARDE, True), (Contract.GARDE_SANS, True),
     (Contract.GARDE_CONTRE, False)],
)
def test_rule_4_chien_counts_for_the_taker_except_in_garde_contre(
    contract: Contract, chien_to_taker: bool
) -> None:
    rec = slam_deal(TAIL, contract=contract)
    r = replay(rec)
    assert r.ok
    # By hand: the defence wins only the last trick: 1C, 2C and T16 (1 half-point each);
    # the Excuse goes whole to the taker. The chien/écart 1S 2S 1H 2H 1D 2D is 6 halves.
    chien_half = 6
    expected = 182 - 3 - (0 if chien_to_taker else chien_half)
    assert r.taker_half == expected
    assert camp_half_points(rec, {"S"}) == (expected, 3)
    assert r.taker_half is not None
    assert r.defence_half == 182 - r.taker_half
