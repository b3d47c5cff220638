"""docs/rules.md §5: poignées and the chelem announcement, before the first card."""

from __future__ import annotations

import pytest
from builders import SEATS4, SEATS5, auction_for, cards, fill_hands

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.records import (
    Call,
    ChelemAnnouncement,
    DealRecord,
    Declaration,
    Ecart,
    PlayedCard,
    Poignee,
    Result,
    Trick,
)
from tarotnotation.replay import Replay, replay
from tarotnotation.rules import Contract, PoigneeSize, table

POIGNEE_TABLE = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
SIZES = (PoigneeSize.SIMPLE, PoigneeSize.DOUBLE, PoigneeSize.TRIPLE)


def trumps(low: int, high: int) -> str:
    """Codes of the trumps ``low`` to ``high``."""
    return " ".join(f"T{i}" for i in range(low, high + 1))


def _declare(players: int, e_hand: str, *decls: Declaration, s_hand: str = "",
             contract: Contract = Contract.GARDE_SANS, chien: str = "",
             ecart: Ecart | None = None, result: Result | None = None) -> Replay:
    """S takes; E (a defender) holds ``e_hand``; the declarations are made."""
    seats = SEATS5[:players]
    hands, pile = fill_hands(players, {"E": e_hand, "S": s_hand}, chien)
    return replay(DealRecord(
        players=players, dealer=seats[-1], hands=hands, chien=pile,
        auction=auction_for(seats, "S", "S", contract),
        call=Call(card=Card.SK) if players == 5 else None, ecart=ecart, declarations=decls,
        result=result or Result(taker_points=60, bouts=1),
    ))


def _codes(r: Replay) -> list[Code]:
    return [d.code for d in r.diagnostics]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rule_5_poignee_sizes_per_player_count(players: int) -> None:
    assert table(players).poignee == POIGNEE_TABLE[players]
    for size, count in zip(SIZES, POIGNEE_TABLE[players], strict=True):
        shown = trumps(2, 1 + count)
        r = _declare(players, trumps(2, 19) if players == 3 else trumps(2, 16),
                     Poignee(seat="E", cards=cards(shown)))
        assert [c for c in _codes(r) if c.value.startswith("H")] == []
        assert r.poignees == (("E", size),)
        assert size.bonus == {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30,
                              PoigneeSize.TRIPLE: 40}[size]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rule_5_poignee_shows_exactly_n_trumps(players: int) -> None:
    simple = POIGNEE_TABLE[players][0]
    r = _declare(players, trumps(2, 16), Poignee(seat="E", cards=cards(trumps(2, simple + 2))))
    bad = [d for d in r.diagnostics if d.code is Code.POIGNEE_SIZE]
    assert len(bad) == 1
    assert f"exactly {simple}" in bad[0].message
    assert r.poignees == ()


def test_rule_5_poignee_declared_size_must_match_the_cards_shown() -> None:
    r = _declare(4, trumps(2, 16), Poignee(seat="E", size=PoigneeSize.DOUBLE,
                                           cards=cards(trumps(2, 11))))
    assert Code.POIGNEE_DECLARED_SIZE in _codes(r)


def test_rule_5_poignee_shows_only_trumps() -> None:
    r = _declare(4, trumps(2, 10) + " KS", Poignee(seat="E", cards=cards(trumps(2, 10) + " KS")))
    assert Code.POIGNEE_NOT_TRUMP in _codes(r)


def test_rule_5_poignee_bonus_is_not_multiplied_and_goes_to_the_winner_of_the_deal() -> None:
    shown = Poignee(seat="E", cards=cards(trumps(2, 11)))  # a defender's simple poignée
    won = _declare(4, trumps(2, 16), shown, result=Result(taker_points=60, bouts=1))
    # Garde sans made by 9: X = 34 x 4 + 20 = 156 (the poignée goes to the taker's side).
    assert won.score is not None
    assert won.score.poignee_amount == 20
    assert won.score.x == 156
    lost = _declare(4, trumps(2, 16), shown, result=Result(taker_points=40, bouts=1))
    # Lost by 11: X = -(36 x 4) - 20 = -164.
    assert lost.score is not None
    assert lost.score.poignee_amount == -20
    assert lost.score.x == -164
    assert lost.scores is not None
    assert lost.scores["S"] == -492


def test_rule_5_excuse_may_stand_in_when_no_other_trump_is_left_unshown() -> None:
    # E holds exactly nine trumps and the Excuse: showing all of them is a simple poignée.
    r = _declare(4, trumps(2, 10) + " EX", Poignee(seat="E", cards=cards(trumps(2, 10) + " EX")))
    assert not [c for c in _codes(r) if c.value.startswith("H")]
    assert r.poignees == (("E", PoigneeSize.SIMPLE),)


def test_rule_5_excuse_may_not_stand_in_while_a_trump_stays_hidden() -> None:
    r = _declare(4, trumps(2, 11) + " EX", Poignee(seat="E", cards=cards(trumps(2, 10) + " EX")))
    bad = [d for d in r.diagnostics if d.code is Code.POIGNEE_EXCUSE]
    assert len(bad) == 1
    assert "T11" in bad[0].message
    assert bad[0].location.seat == "E"


def test_rule_5_poignee_cards_must_be_in_the_players_hand() -> None:
    r = _declare(4, trumps(2, 10), Poignee(seat="E", cards=cards(trumps(2, 10) + " T21").without(
        Card.T2)))
    bad = [d for d in r.diagnostics if d.code is Code.POIGNEE_NOT_IN_HAND]
    assert len(bad) == 1
    assert "T21" in bad[0].message


# S's hand for the taker cases: eight trumps; the chien brings two more.
TAKER_HAND = "T2 T3 T4 T5 T6 T7 T8 T9 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"
TAKER_CHIEN = "T10 T11 1H 2H 3H 4H"


def test_rule_5_taker_shows_trumps_taken_from_the_chien() -> None:
    r = _declare(4, "", Poignee(seat="S", cards=cards(trumps(2, 11))), s_hand=TAKER_HAND,
                 contract=Contract.GARDE, chien=TAKER_CHIEN,
                 ecart=Ecart(cards=cards("1H 2H 3H 4H 1S 2S")))
    assert r.ok, r.diagnostics
    assert r.poignees == (("S", PoigneeSize.SIMPLE),)


def test_rule_5_taker_cannot_show_a_trump_he_discarded() -> None:
    # Four Kings and fourteen trumps: two trumps must go to the écart (shown); showing
    # one of them again in a poignée shows a card no longer in hand.
    hand = "KS KH KD KC " + trumps(2, 15)
    r = _declare(4, "", Poignee(seat="S", cards=cards(trumps(4, 16))), s_hand=hand,
                 contract=Contract.GARDE, chien="1S 2S 3S 4S T16 T17",
                 ecart=Ecart(cards=cards("1S 2S 3S 4S T16 T17"), shown=cards("T16 T17")))
    bad = [d for d in r.diagnostics if d.code is Code.POIGNEE_NOT_IN_HAND]
    assert len(bad) == 1
    assert "T16" in bad[0].message
    assert Code.ECART_TRUMP_AVOIDABLE not in _codes(r)


def test_rule_5_a_declaration_is_made_once() -> None:
    p = Poignee(seat="E", cards=cards(trumps(2, 11)))
    r = _declare(4, trumps(2, 16), p, p)
    assert Code.DECLARATION_TWICE in _codes(r)
    assert r.poignees == (("E", PoigneeSize.SIMPLE),)


# --- chelem announcement ----------------------------------------------------------------


def _first_trick(leader: str | None, *decls: Declaration) -> Replay:
    # W deals, so S would lead; E takes.
    return replay(DealRecord(
        players=4, dealer="W", auction=auction_for(SEATS4, "S", "E", Contract.GARDE),
        declarations=decls,
        play=[Trick(leader=leader, cards=[PlayedCard(card=Card.HK)])],
    ))


def test_rule_5_chelem_announcer_leads_the_first_trick() -> None:
    r = _first_trick(None, ChelemAnnouncement(seat="E"))
    assert r.chelem_announced
    assert r.tricks[0].leader == SEATS4.index("E")
    assert Code.WRONG_LEADER not in _codes(_first_trick("E", ChelemAnnouncement(seat="E")))
    wrong = _first_trick("S", ChelemAnnouncement(seat="E"))
    bad = [d for d in wrong.diagnostics if d.code is Code.WRONG_LEADER]
    assert len(bad) == 1
    assert "E leads this trick" in bad[0].message


def test_rule_5_without_announcement_the_first_seat_leads() -> None:
    assert _first_trick(None).tricks[0].leader == SEATS4.index("S")
    assert Code.WRONG_LEADER in _codes(_first_trick("E"))


def test_rule_5_only_the_taker_announces_a_chelem() -> None:
    r = _first_trick(None, ChelemAnnouncement(seat="N"))
    bad = [d for d in r.diagnostics if d.code is Code.CHELEM_NOT_TAKER]
    assert len(bad) == 1
    assert bad[0].location.seat == "N"
    assert r.tricks[0].leader == SEATS4.index("S")
