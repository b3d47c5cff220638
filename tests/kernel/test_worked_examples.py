"""docs/rules.md §11: every worked example is a test (all fft, 4 players unless said)."""

from __future__ import annotations

from builders import SEATS4, SEATS5, TAIL_PETIT_LAST_DEFENCE, auction_for, cards, fill_hands

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.legality import legal_cards, why_illegal
from tarotnotation.records import Bid, Call, DealRecord, Poignee, Result
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, PoigneeSize
from tarotnotation.scoring import DealFacts, score


def _outcome(contract: Contract, points: float, bouts: int, **kw: object) -> DealRecord:
    """A score-sheet record: S takes at four players, W deals."""
    return DealRecord(players=4, dealer="W", auction=auction_for(SEATS4, "S", "S", contract),
                      result=Result(taker_points=points, bouts=bouts, **kw))


def test_example_1_garde_2_bouts_48_points() -> None:
    # d = 7, X = 32 x 2 = 64; taker +192, defenders -64 each.
    s = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=96, bouts=2))
    assert (s.made, s.margin, s.x, s.seats) == (True, 7, 64, (192, -64, -64, -64))
    r = replay(_outcome(Contract.GARDE, 48, 2))
    assert r.scores == {"S": 192, "E": -64, "N": -64, "W": -64}


def test_example_2_prise_1_bout_exactly_51_made_by_0() -> None:
    s = score(DealFacts(players=4, taker=0, contract=Contract.PRISE, taker_half=102, bouts=1))
    assert (s.made, s.margin, s.x, s.seats[0]) == (True, 0, 25, 75)
    assert replay(_outcome(Contract.PRISE, 51, 1)).scores == {
        "S": 75, "E": -25, "N": -25, "W": -25}


def test_example_3_garde_sans_2_bouts_56_points_petit_au_bout_to_defence() -> None:
    # X = 40 x 4 - 40 = 120; taker +360.
    s = score(DealFacts(players=4, taker=0, contract=Contract.GARDE_SANS, taker_half=112,
                        bouts=2, petit_au_bout=Camp.DEFENCE))
    assert (s.contract_amount, s.petit_au_bout_amount, s.x, s.seats[0]) == (160, -40, 120, 360)
    r = replay(_outcome(Contract.GARDE_SANS, 56, 2, petit_au_bout=Camp.DEFENCE))
    assert r.scores is not None
    assert r.scores["S"] == 360
    # In a played deal: the crafted deal where N takes the last trick over E's Petit.
    from builders import slam_deal

    played = replay(slam_deal(TAIL_PETIT_LAST_DEFENCE, contract=Contract.GARDE_SANS))
    assert played.petit_au_bout is Camp.DEFENCE
    assert played.score is not None
    assert played.score.petit_au_bout_amount == -40


def test_example_4_garde_won_by_5_defender_shows_simple_poignee() -> None:
    # X = 30 x 2 + 20 = 80; taker +240 (the bonus goes to the winner, whoever showed it).
    s = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=2 * 56,
                        bouts=1, poignees=(PoigneeSize.SIMPLE,)))
    assert s.margin == 5
    assert s.x == 80
    assert s.seats[0] == 240
    trumps = " ".join(f"T{i}" for i in range(2, 12))
    hands, _ = fill_hands(4, {"E": trumps})
    rec = DealRecord(players=4, dealer="W", hands={"E": hands["E"]},
                     auction=auction_for(SEATS4, "S", "S", Contract.GARDE),
                     declarations=[Poignee(seat="E", cards=cards(trumps))],
                     result=Result(taker_points=56, bouts=1))
    r = replay(rec)
    assert r.ok
    assert r.poignees == (("E", PoigneeSize.SIMPLE),)
    assert r.scores == {"S": 240, "E": -80, "N": -80, "W": -80}


def test_example_5_five_players_garde_made_by_10() -> None:
    # X = 35 x 2 = 70; taker +140, partner +70, each defender -70; called himself: +280.
    with_partner = score(DealFacts(players=5, taker=0, partner=2, contract=Contract.GARDE,
                                   taker_half=2 * 51, bouts=2))
    assert with_partner.x == 70
    assert with_partner.seats == (140, -70, 70, -70, -70)
    alone = score(DealFacts(players=5, taker=0, partner=0, contract=Contract.GARDE,
                            taker_half=2 * 51, bouts=2))
    assert alone.seats == (280, -70, -70, -70, -70)
    # The same from a record: S calls KH, held by N; then KH in S's own hand.
    for holder, expected in (("N", {"S": 140, "E": -70, "N": 70, "W": -70, "F": -70}),
                             ("S", {"S": 280, "E": -70, "N": -70, "W": -70, "F": -70})):
        hands, chien = fill_hands(5, {holder: "KH"})
        rec = DealRecord(players=5, dealer="F", hands=hands, chien=chien,
                         auction=tuple(Bid(contract="garde" if s == "S" else None)
                                       for s in SEATS5),
                         call=Call(card=Card.HK), result=Result(taker_points=51, bouts=2))
        assert replay(rec).scores == expected


def test_example_6_must_trump_with_4_or_9_not_a_club() -> None:
    # Hearts led, the taker trumped with the 18; a defender with no Hearts holds trumps 4
    # and 9 and some Clubs: the 4 or the 9 (or the Excuse); a Club is illegal.
    hand = cards("T4 T9 3C 7C KC EX")
    trick = [Card.H5, Card.T18]
    assert legal_cards(hand, trick) == cards("T4 T9 EX")
    for club in (Card.C3, Card.C7, Card.CK):
        bad = why_illegal(club, hand, trick)
        assert bad is not None
        assert bad.code is Code.MUST_TRUMP
        assert bad.message == ("cannot follow Hearts and holds a trump:"
                               " expected a trump (T4 or T9) or the Excuse")
