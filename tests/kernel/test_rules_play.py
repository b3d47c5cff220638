"""docs/rules.md §6: the play, and the legal-move API that says what was expected."""

from __future__ import annotations

import pytest
from builders import SEATS4, SEATS5, auction_for, cards, fill_hands, slam_deal

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.kernel import winner_index
from tarotnotation.legality import constraint, legal_cards, why_illegal
from tarotnotation.records import Bid, Call, DealRecord, PlayedCard, Trick
from tarotnotation.replay import legal_moves, replay
from tarotnotation.rules import Contract, table


def trick(text: str) -> list[Card]:
    """Cards of a trick so far, in order of play."""
    return [Card.from_code(c) for c in text.split()]


def legal(hand: str, played: str, called: str | None = None) -> str:
    """The legal cards, as codes in canonical order."""
    return str(legal_cards(cards(hand), trick(played),
                           None if called is None else Card.from_code(called)))


# --- suit led ------------------------------------------------------------------------------


def test_rule_6_follow_suit_with_any_card_of_the_suit_led() -> None:
    # Any Heart, high or low, even when the trick is already lost; trumps and other suits
    # are not allowed; the Excuse always is.
    assert legal("2H KH 5S T4 EX", "QH") == "2H KH EX"
    bad = why_illegal(Card.T4, cards("2H KH 5S T4 EX"), trick("QH"))
    assert bad is not None
    assert bad.code is Code.MUST_FOLLOW_SUIT
    assert bad.message == "Hearts led and the player holds Hearts: expected 2H or KH or the Excuse"


def test_rule_6_cannot_follow_must_trump() -> None:
    assert legal("5S 9S T3 T12", "QH") == "T3 T12"
    bad = why_illegal(Card.S9, cards("5S 9S T3 T12"), trick("QH"))
    assert bad is not None
    assert bad.code is Code.MUST_TRUMP
    assert "expected a trump (T3 or T12)" in bad.message


def test_rule_6_must_overtrump_a_trump_already_in_the_trick() -> None:
    assert legal("5S T3 T12 T15", "QH T10") == "T12 T15"
    bad = why_illegal(Card.T3, cards("5S T3 T12 T15"), trick("QH T10"))
    assert bad is not None
    assert bad.code is Code.MUST_OVERTRUMP
    assert "trump 10" in bad.message
    assert "expected a trump (T12 or T15)" in bad.message


def test_rule_6_must_overtrump_even_over_partner() -> None:
    # 4 players, S takes a Garde sans and leads KH. E (defence) trumps with T10; W, E's
    # partner in defence, has no Heart and holds T12 and T5: he must overtrump his own
    # partner with the T12, and the T5 is reported.
    hands, chien = fill_hands(4, {
        "S": "KH", "E": "T10 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1D 2D 3D",
        "N": "2H", "W": "T12 T5 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC NC QC KC 4D 5D"})
    assert not hands["E"].of_suit(Card.H1.suit)
    assert not hands["W"].of_suit(Card.H1.suit)
    play = [Trick(cards=(PlayedCard(card=Card.HK), PlayedCard(card=Card.T10),
                         PlayedCard(card=Card.H2), PlayedCard(card=Card.T5)))]
    rec = DealRecord(players=4, dealer="W", hands=hands, chien=chien,
                     auction=auction_for(SEATS4, "S", "S", Contract.GARDE_SANS), play=play)
    r = replay(rec)
    bad = [d for d in r.diagnostics if d.code is Code.MUST_OVERTRUMP]
    assert len(bad) == 1
    assert (bad[0].location.trick, bad[0].location.seat, bad[0].location.card) == (1, "W", "T5")
    assert "expected a trump (T12)" in bad[0].message
    # The rule looks only at the cards: whoever played the T10, the T12 is due.
    assert legal("T12 T5 3C", "KH T10") == legal("T12 T5 3C", "2H T10") == "T12"


def test_rule_6_sous_couper_when_unable_to_overtrump() -> None:
    # Worked example 6 is the same rule; here the trick holds the 18 and the hand the 4
    # and the 9: a trump must still be played, under.
    assert legal("T4 T9 3C KC", "5H T18") == "T4 T9"
    bad = why_illegal(Card.CK, cards("T4 T9 3C KC"), trick("5H T18"))
    assert bad is not None
    assert bad.code is Code.MUST_TRUMP


def test_rule_6_neither_suit_nor_trump_play_any_card() -> None:
    assert legal("3C KC 4D EX", "5H T18") == "4D 3C KC EX"
    c = constraint(cards("3C KC 4D EX").bits, trick("5H T18"))
    assert c.code is None
    assert c.reason == "free"


# --- trump led ------------------------------------------------------------------------------


def test_rule_6_trump_led_play_a_higher_trump_if_possible() -> None:
    assert legal("T2 T8 T14 5H", "T7") == "T8 T14"
    assert legal("T2 T8 T14 5H", "T7 T11") == "T14"
    bad = why_illegal(Card.T8, cards("T2 T8 T14 5H"), trick("T7 T11"))
    assert bad is not None
    assert bad.code is Code.MUST_OVERTRUMP
    assert bad.message.startswith("trumps led, the trick holds trump 11")


def test_rule_6_trump_led_else_any_trump() -> None:
    assert legal("T2 T3 5H EX", "T7") == "T2 T3 EX"
    bad = why_illegal(Card.H5, cards("T2 T3 5H EX"), trick("T7"))
    assert bad is not None
    assert bad.code is Code.MUST_TRUMP


def test_rule_6_trump_led_else_any_card() -> None:
    assert legal("5H 6D", "T7") == "5H 6D"


# --- the Excuse ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "played"),
    [("2H EX", "QH"), ("T3 EX 5S", "QH"), ("T3 T15 EX", "QH T10"), ("T2 T8 EX", "T7"),
     ("5S EX", ""), ("5S EX 9D", "T7")],
)
def test_rule_6_excuse_may_be_played_at_any_trick(hand: str, played: str) -> None:
    assert why_illegal(Card.EXCUSE, cards(hand), trick(played)) is None


def test_rule_6_led_excuse_lets_the_next_card_set_the_suit() -> None:
    # After the Excuse, the next player is free; then his card sets the suit to follow.
    assert legal("5H T4 3C", "EX") == "5H 3C T4"
    assert legal("5H T4 3C", "EX 9C") == "3C"
    assert legal("5H T4 3C", "EX 9D") == "T4"
    assert legal("5H T4 T9", "EX T6") == "T9"


def test_rule_6_trick_goes_to_the_highest_trump_else_highest_of_suit_led() -> None:
    assert winner_index(trick("5H KH 2H QH")) == 1
    assert winner_index(trick("5H KS 2H QD")) == 0  # other suits never win
    assert winner_index(trick("5H KH T2 QH")) == 2
    assert winner_index(trick("T3 KH T2 T21")) == 3
    assert winner_index(trick("EX 9D KD T1")) == 3


def test_rule_6_the_excuse_never_wins_a_trick() -> None:
    assert winner_index(trick("EX 2C 3C 1C")) == 2
    assert winner_index(trick("2C EX 1C")) == 0


def test_rule_6_number_of_tricks_per_player_count() -> None:
    assert [table(n).tricks for n in (3, 4, 5)] == [24, 18, 15]


def test_rule_6_winner_of_a_trick_leads_the_next() -> None:
    # S wins trick 1 with KS; N leading trick 2 is a wrong leader.
    first = Trick(cards=[PlayedCard(card=Card.from_code(c)) for c in ["KS", "1S", "2S", "3S"]])
    good = Trick(cards=[PlayedCard(card=Card.HK)])
    bad = Trick(leader="N", cards=[PlayedCard(card=Card.HK)])
    assert replay(DealRecord(players=4, dealer="W", play=[first, good])).tricks[1].leader == 0
    r = replay(DealRecord(players=4, dealer="W", play=[first, bad]))
    wrong = [d for d in r.diagnostics if d.code is Code.WRONG_LEADER]
    assert len(wrong) == 1
    assert wrong[0].location.trick == 2
    assert "S leads this trick (it won the previous one)" in wrong[0].message


def test_rule_6_a_card_not_in_hand_is_reported() -> None:
    hands, chien = fill_hands(4, {"S": "KS", "E": "KH"})
    rec = DealRecord(players=4, dealer="W", hands=hands, chien=chien,
                     play=[Trick(cards=[PlayedCard(card=Card.HK)])])
    bad = [d for d in replay(rec).diagnostics if d.code is Code.NOT_IN_HAND]
    assert len(bad) == 1
    assert bad[0].location.seat == "S"
    assert bad[0].message == "S does not hold KH: it was dealt to E"


def test_rule_6_a_revoke_is_caught_from_the_play_alone() -> None:
    # No hands: E does not follow Spades at trick 1 but plays a Spade later.
    rec = slam_deal([
        {"S": "T21", "E": "T1", "N": "T6", "W": "T11"},
        {"S": "T20", "E": "T2", "N": "T7", "W": "T12"},
        {"S": "T19", "E": "T3", "N": "T8", "W": "T13"},
        {"S": "T18", "E": "T4", "N": "T9", "W": "T14"},
        {"S": "T17", "E": "T5", "N": "T10", "W": "T15"},
        {"S": "1C", "E": "EX", "N": "2C", "W": "T16"},
    ])
    play = list(rec.play)
    e1, e2 = play[0].cards[1], play[1].cards[1]  # E's 3S (trick 1) and 3H (trick 2)
    assert (e1.card, e2.card) == (Card.S3, Card.H3)
    swapped = [list(t.cards) for t in play]
    swapped[0][1], swapped[1][1] = e2, e1
    bad_rec = rec.model_copy(update={
        "hands": None, "play": tuple(Trick(cards=tuple(t)) for t in swapped)})
    # E plays 3H to Spades (he plays 4S and 5S later) and 3S to Hearts (4H, 5H later).
    bad = [d for d in replay(bad_rec).diagnostics if d.code is Code.MUST_FOLLOW_SUIT]
    assert [(d.location.trick, d.location.seat, d.location.card) for d in bad] == [
        (1, "E", "3H"), (2, "E", "3S")]
    assert bad[0].message.endswith("expected 3S, 4S or 5S or the Excuse")


# --- five players: the first lead -----------------------------------------------------------


def test_rule_6_five_players_called_suit_may_not_be_led_to_the_first_trick() -> None:
    assert legal("5H 9H KS 3C", "", called="KH") == "KS 3C"
    bad = why_illegal(Card.H5, cards("5H 9H KS 3C"), [], Card.HK)
    assert bad is not None
    assert bad.code is Code.CALLED_SUIT_LED
    assert "called suit (Hearts)" in bad.message
    assert "expected KS or 3C" in bad.message


def test_rule_6_five_players_the_called_card_itself_may_be_led() -> None:
    assert legal("5H KH 3C", "", called="KH") == "KH 3C"


def test_rule_6_five_players_lead_the_excuse_rather_than_the_called_suit() -> None:
    # Holding only Hearts and the Excuse, the leader can avoid the called suit: he must
    # lead the Excuse. With only Hearts, he cannot avoid it and any card is allowed.
    assert legal("5H 9H EX", "", called="KH") == "EX"
    bad = why_illegal(Card.H5, cards("5H 9H EX"), [], Card.HK)
    assert bad is not None
    assert bad.code is Code.CALLED_SUIT_LED
    assert bad.message.endswith("expected the Excuse")
    assert legal("5H 9H", "", called="KH") == "5H 9H"


def test_rule_6_five_players_first_lead_rule_binds_only_the_lead() -> None:
    # After a led Excuse, the card that sets the suit is free; following is unaffected.
    assert legal("5H 9H 3C", "EX", called="KH") == "5H 9H 3C"
    assert legal("5H 9H 3C", "2H", called="KH") == "5H 9H"


def test_rule_6_five_players_first_lead_rule_in_a_replay() -> None:
    hands, chien = fill_hands(5, {"S": "5H 3C KS", "N": "KH"})
    base = {"players": 5, "dealer": "F", "hands": hands, "chien": chien,
                "auction": tuple(Bid(contract="garde_sans" if s == "N" else None)
                              for s in SEATS5),
                "call": Call(card=Card.HK)}
    led_heart = DealRecord(**base, play=[Trick(cards=[PlayedCard(card=Card.H5)])])
    bad = [d for d in replay(led_heart).diagnostics if d.code is Code.CALLED_SUIT_LED]
    assert [(d.location.trick, d.location.seat, d.location.card) for d in bad] == [
        (1, "S", "5H")]
    # Trick 2 is not the first: any suit may be led then (only trick 1 is checked).
    pos = legal_moves(DealRecord(**base), 1, 0)
    assert pos.seat == "S"
    assert Card.H5 not in pos.legal
    assert Card.C3 in pos.legal


# --- the legal-move API --------------------------------------------------------------------


def test_legal_moves_give_the_position_and_what_was_expected() -> None:
    rec = slam_deal([
        {"S": "T21", "E": "T1", "N": "T6", "W": "T11"},
        {"S": "T20", "E": "T2", "N": "T7", "W": "T12"},
        {"S": "T19", "E": "T3", "N": "T8", "W": "T13"},
        {"S": "T18", "E": "T4", "N": "T9", "W": "T14"},
        {"S": "T17", "E": "T5", "N": "T10", "W": "T15"},
        {"S": "1C", "E": "EX", "N": "2C", "W": "T16"},
    ])
    # Trick 18, second card: S led 1C; E holds only the Excuse.
    pos = legal_moves(rec, 18, 1)
    assert (pos.trick, pos.seat, pos.exact) == (18, "E", True)
    assert pos.played == (Card.C1,)
    assert pos.legal == cards("EX")
    # Trick 18, last card: W holds only T16, which he must play (a trump, no Club).
    pos = legal_moves(rec, 18, 3)
    assert pos.seat == "W"
    assert pos.hand == cards("T16")
    assert pos.legal == cards("T16")
    # Trick 13, second card: trumps led, E holds T1-T5 and must play one of them.
    pos = legal_moves(rec, 13, 1)
    assert pos.seat == "E"
    assert pos.legal == cards("T1 T2 T3 T4 T5 EX")
    assert pos.constraint.code is Code.MUST_TRUMP
    bad = pos.constraint.explain(Card.C1)
    assert bad is not None
    assert bad.message == (
        "trumps led and the player holds trumps: expected a trump (T1, T2, T3, T4 or T5)"
        " or the Excuse")
    with pytest.raises(ValueError, match="beyond the recorded play"):
        legal_moves(rec.model_copy(update={"play": rec.play[:3]}), 6, 0)


def test_legal_moves_just_past_the_recorded_play() -> None:
    rec = slam_deal([
        {"S": "T21", "E": "T1", "N": "T6", "W": "T11"},
        {"S": "T20", "E": "T2", "N": "T7", "W": "T12"},
        {"S": "T19", "E": "T3", "N": "T8", "W": "T13"},
        {"S": "T18", "E": "T4", "N": "T9", "W": "T14"},
        {"S": "T17", "E": "T5", "N": "T10", "W": "T15"},
        {"S": "1C", "E": "EX", "N": "2C", "W": "T16"},
    ])
    partial = rec.model_copy(update={"play": rec.play[:2]})
    pos = legal_moves(partial, 3, 0)  # S won trick 2 and leads trick 3
    assert pos.seat == "S"
    assert pos.constraint.code is None
    assert pos.hand == cards("NS QS NH QH KD QD ND KC QC NC T17 T18 T19 T20 T21 1C")
    first = rec.model_copy(update={"play": (Trick(cards=rec.play[2].cards[:1]),)})
    # Only the first card of a Diamonds trick recorded (S's KD); E must follow Diamonds.
    pos = legal_moves(first, 1, 1)
    assert pos.seat == "E"
    assert pos.legal == cards("3D 4D 5D EX")
    bad = pos.constraint.explain(Card.S3)
    assert bad is not None
    assert bad.code is Code.MUST_FOLLOW_SUIT
    assert bad.message == (
        "Diamonds led and the player holds Diamonds: expected 3D, 4D or 5D or the Excuse")


def test_why_illegal_is_none_for_every_legal_card() -> None:
    hand = cards("2H KH 5S T4 T9 EX")
    for played in ("QH", "QS T10", "T5", "", "EX 3D"):
        ok = legal_cards(hand, trick(played))
        for c in hand:
            assert (why_illegal(c, hand, trick(played)) is None) == (c in ok)
