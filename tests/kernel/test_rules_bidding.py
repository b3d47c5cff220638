"""docs/rules.md §3: bidding, and the five-player call."""

from __future__ import annotations

import pytest
from builders import SEATS5, fill_hands

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.records import Bid, Call, DealRecord, Result
from tarotnotation.replay import Replay, Status, replay
from tarotnotation.rules import Contract


def _auction(*bids: str, players: int = 4, result: Result | None = None) -> Replay:
    return replay(DealRecord(players=players, dealer="W" if players == 4 else "F",
                             auction=tuple(Bid(contract=b) for b in bids), result=result))


def _codes(r: Replay) -> list[Code]:
    return [d.code for d in r.diagnostics]


def test_rule_3_contracts_low_to_high_with_multipliers_1_2_4_6() -> None:
    order = [Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    assert sorted(order) == order
    assert [c.multiplier for c in order] == [1, 2, 4, 6]
    assert Contract.from_keyword("petite") is Contract.PRISE


def test_rule_3_highest_bidder_is_the_taker() -> None:
    r = _auction("prise", "garde", "pass", "garde_contre")
    assert (r.taker, r.contract) == ("W", Contract.GARDE_CONTRE)
    assert Code.BID_NOT_HIGHER not in _codes(r)


def test_rule_3_a_bid_must_be_higher_than_every_earlier_bid() -> None:
    r = _auction("garde", "prise", "pass", "pass")
    bad = [d for d in r.diagnostics if d.code is Code.BID_NOT_HIGHER]
    assert len(bad) == 1
    assert bad[0].location.seat == "E"
    assert "prise is not higher than garde" in bad[0].message
    assert (r.taker, r.contract) == ("S", Contract.GARDE)


def test_rule_3_an_equal_bid_is_not_higher() -> None:
    r = _auction("garde", "pass", "garde", "pass")
    assert [d.location.seat for d in r.diagnostics if d.code is Code.BID_NOT_HIGHER] == ["N"]


def test_rule_3_each_player_speaks_once() -> None:
    r = _auction("prise", "pass", "pass", "pass", "garde")
    assert Code.AUCTION_TOO_LONG in _codes(r)


def test_rule_3_bids_follow_the_order_from_the_dealers_right() -> None:
    rec = DealRecord(players=4, dealer="W",
                     auction=[Bid(contract="garde", seat="E"), Bid(contract=None, seat="E")])
    r = replay(rec)
    assert Code.BID_OUT_OF_TURN in _codes(r)


def test_rule_3_all_pass_annuls_the_deal_with_no_score() -> None:
    r = _auction("pass", "pass", "pass", "pass")
    assert r.status is Status.ANNULLED
    assert r.score is None
    assert Code.ALL_PASSED in _codes(r)
    # A recorded score for an annulled deal is wrong: the score is 0 for everyone.
    r2 = _auction("pass", "pass", "pass", "pass",
                  result=Result(scores={"S": 25, "E": -25, "N": 0, "W": 0}))
    assert [d.location.seat for d in r2.diagnostics if d.code is Code.SCORE_MISMATCH] == [
        "S", "E"]


# --- the five-player call ----------------------------------------------------------------


def _five(taker_fixed: str, call: str, *, contract: str = "garde", chien: str = "",
          others: dict[str, str] | None = None,
          result: Result | None = None) -> Replay:
    """Five players, dealer F, S takes and calls ``call``; S holds ``taker_fixed``."""
    fixed = {"S": taker_fixed, **(others or {})}
    hands, pile = fill_hands(5, fixed, chien)
    return replay(DealRecord(
        players=5, dealer="F", hands=hands, chien=pile,
        auction=tuple(Bid(contract=contract if s == "S" else None) for s in SEATS5),
        call=Call(card=Card.from_code(call)),
        result=result or Result(taker_points=60, bouts=1),
    ))


def test_rule_3_five_players_the_taker_calls_a_king() -> None:
    r = _five("", "KH", others={"N": "KH"})
    assert Code.CALL_WRONG_RANK not in _codes(r)
    assert r.partner == "N"


def test_rule_3_five_players_queen_only_when_holding_all_four_kings() -> None:
    r = _five("KS KD KC", "QH", others={"N": "KH QH"})
    bad = [d for d in r.diagnostics if d.code is Code.CALL_WRONG_RANK]
    assert len(bad) == 1
    assert "expected a King" in bad[0].message
    ok = _five("KS KH KD KC", "QH", others={"N": "QH"})
    assert Code.CALL_WRONG_RANK not in _codes(ok)
    assert ok.partner == "N"


def test_rule_3_five_players_knight_only_when_holding_all_kings_and_queens() -> None:
    bad = _five("KS KH KD KC QS QH QD", "NC")
    assert Code.CALL_WRONG_RANK in _codes(bad)
    assert "expected a Queen" in next(
        d.message for d in bad.diagnostics if d.code is Code.CALL_WRONG_RANK)
    ok = _five("KS KH KD KC QS QH QD QC", "NC", others={"E": "NC"})
    assert Code.CALL_WRONG_RANK not in _codes(ok)
    assert ok.partner == "E"


def test_rule_3_five_players_jack_only_when_holding_kings_queens_and_knights() -> None:
    held = "KS KH KD KC QS QH QD QC NS NH ND NC"
    assert Code.CALL_WRONG_RANK not in _codes(_five(held, "JD", others={"W": "JD"}))
    assert Code.CALL_WRONG_RANK in _codes(_five(held.replace(" NC", ""), "JD"))


@pytest.mark.parametrize("call", ["T21", "EX", "10H"])
def test_rule_3_five_players_only_a_face_card_can_be_called(call: str) -> None:
    assert Code.CALL_WRONG_RANK in _codes(_five("", call))


def test_rule_3_five_players_the_holder_of_the_called_card_is_the_partner() -> None:
    r = _five("", "KD", others={"W": "KD"}, result=Result(taker_points=61, bouts=2))
    # Garde made by 20: X = 45 x 2 = 90; taker 2X, partner X, defenders -X.
    assert r.partner == "W"
    assert r.camps["W"].value == "taker"
    assert r.scores == {"S": 180, "E": -90, "N": -90, "W": 90, "F": -90}


def test_rule_3_five_players_calling_a_card_he_holds_the_taker_plays_alone() -> None:
    r = _five("KD", "KD", result=Result(taker_points=61, bouts=2))
    assert r.partner is None
    assert r.scores == {"S": 360, "E": -90, "N": -90, "W": -90, "F": -90}


def test_rule_3_five_players_king_in_chien_plays_alone() -> None:
    for contract in ("garde", "garde_sans"):
        r = _five("", "KD", contract=contract, chien="KD",
                  result=Result(taker_points=61, bouts=2))
        m = Contract.from_keyword(contract).multiplier
        assert r.partner is None
        assert r.scores is not None
        assert r.scores["S"] == 4 * 45 * m
        assert all(r.scores[s] == -45 * m for s in "ENWF")


def test_rule_3_five_players_a_call_is_required() -> None:
    hands, pile = fill_hands(5, {})
    rec = DealRecord(players=5, dealer="F", hands=hands, chien=pile,
                     auction=tuple(Bid(contract="prise" if s == "S" else None) for s in SEATS5))
    assert Code.CALL_MISSING in _codes(replay(rec))


def test_rule_3_no_call_at_four_players() -> None:
    rec = DealRecord(players=4, dealer="W", auction=[Bid(contract="prise")],
                     call=Call(card=Card.HK))
    assert Code.CALL_NOT_ALLOWED in _codes(replay(rec))


def test_rule_3_five_players_score_sheet_names_the_partner() -> None:
    # A score sheet: the call and the partner are written, no cards. Garde made by 10.
    for call in (None, Call(card=Card.HK)):
        rec = DealRecord(players=5, dealer="F",
                         auction=tuple(Bid(contract="garde" if s == "S" else None)
                                       for s in SEATS5),
                         call=call, result=Result(taker_points=51, bouts=2, partner="N"))
        r = replay(rec)
        assert r.status is Status.SCORED, [str(d) for d in r.diagnostics]
        assert r.partner == "N"
        assert r.scores == {"S": 140, "E": -70, "N": 70, "W": -70, "F": -70}
    alone = DealRecord(players=5, dealer="F",
                       auction=tuple(Bid(contract="garde" if s == "S" else None)
                                     for s in SEATS5),
                       call=Call(card=Card.HK), result=Result(taker_points=51, bouts=2,
                                                              partner="S"))
    assert replay(alone).scores == {"S": 280, "E": -70, "N": -70, "W": -70, "F": -70}


def test_rule_3_five_players_partner_known_once_the_called_card_is_played() -> None:
    # No hands recorded: the partner is whoever plays the called card.
    from builders import literal_deal
    from test_full_deals import FIVE_PARTNER

    rec = literal_deal(**FIVE_PARTNER).model_copy(update={"hands": None})
    r = replay(rec)
    assert r.partner == "W"
    assert r.ok
    assert r.scores == {"S": 74, "E": 74, "N": 74, "W": -74, "F": -148}
    # Before KD is played (trick 10), the partner is secret: no camps, no score.
    early = replay(rec.model_copy(update={"play": rec.play[:9], "chien": None}))
    assert early.partner is None
    assert dict(early.camps) == {}
    assert early.score is None
