"""docs/rules.md §13: one record with several faults yields all of them, each located.

A legal 4-player deal (drawn by the simulator, then frozen here) is spoiled in three
places, keeping everything else consistent by swapping cards between two tricks of the
same player, so that every trick keeps its winner and its points:

* trick 3 (Diamonds led): S plays T3 instead of KD, and KD at trick 12 (a Diamond trick)
  instead of T3: a revoke at trick 3 (S held KD);
* trick 7 (trumps led, S played T18): E plays T9 instead of T19, and T19 at trick 11
  instead of T9: a trump under at trick 7 while holding a higher one;
* the recorded scores say the taker made his Garde by 4 (X = 58) when he made it by 2.
"""

from __future__ import annotations

from typing import Any

from builders import camp_half_points, literal_deal, trick_winner

from tarotnotation.diagnostics import Code, Severity
from tarotnotation.records import Result
from tarotnotation.replay import replay

FOUR_LEGAL: dict[str, Any] = {
    'players': 4, 'dealer': 'W',
    'hands': {
        'S': '1S 4S 7S 10S KS 5H 6H NH 3D KD 4C 10C T3 T4 T6 T11 T14 T18',
        'E': '6S QS 3H 9H QH 1D 4D 7D 9D 10D JD 1C 2C JC NC T9 T19 EX',
        'N': '9S 1H 2H JH 6D 8D QD 3C 7C 8C QC T5 T7 T8 T15 T17 T20 T21',
        'W': '2S 3S 5S 4H 7H 10H KH 2D 5D 6C 9C KC T1 T2 T10 T12 T13 T16',
    },
    'chien': '8S JS NS 8H ND 5C',
    'auction': ['pass', 'pass', 'garde', 'pass'],
    'call': None,
    'ecart': 'NS 1H JH 8D QD 5C',
    'play': (
        'S:7S E:QS N:JS W:2S',
        'E:7D N:6D W:2D S:3D',
        'E:JD N:ND W:5D S:KD',
        'S:T14 E:EX N:T17 W:T2',
        'N:8S W:5S S:1S E:6S',
        'N:8C W:9C S:4C E:2C',
        'W:T13 S:T18 E:T19 N:T20',
        'N:2H W:4H S:5H E:QH',
        'E:3H N:8H W:10H S:6H',
        'W:KH S:NH E:9H N:T15',
        'N:9S W:3S S:4S E:T9',
        'E:1D N:T8 W:T16 S:T3',
        'W:KC S:10C E:JC N:3C',
        'W:T1 S:T6 E:NC N:T7',
        'N:T5 W:T12 S:T4 E:1C',
        'W:7H S:T11 E:10D N:T21',
        'N:7C W:6C S:KS E:4D',
        'N:QC W:T10 S:10S E:9D',
    ),
}


def _spoiled() -> dict[str, Any]:
    play = list(FOUR_LEGAL["play"])
    assert play[2] == "E:JD N:ND W:5D S:KD"
    assert play[11] == "E:1D N:T8 W:T16 S:T3"
    play[2], play[11] = "E:JD N:ND W:5D S:T3", "E:1D N:T8 W:T16 S:KD"
    assert play[6] == "W:T13 S:T18 E:T19 N:T20"
    assert play[10] == "N:9S W:3S S:4S E:T9"
    play[6], play[10] = "W:T13 S:T18 E:T9 N:T20", "N:9S W:3S S:4S E:T19"
    return {**FOUR_LEGAL, "play": tuple(play)}


def test_the_legal_deal_is_clean() -> None:
    right = Result(scores={"S": -54, "E": -54, "N": 162, "W": -54})
    r = replay(literal_deal(**FOUR_LEGAL, result=right))
    assert r.ok
    assert not r.diagnostics
    # N takes a Garde: 86 half-points = 43 with 2 bouts (threshold 41): made by 2,
    # X = 27 x 2 = 54, N gets 3X.
    assert camp_half_points(literal_deal(**FOUR_LEGAL), {"N"}) == (86, 2)


def test_swaps_keep_every_winner() -> None:
    for before, after in zip(FOUR_LEGAL["play"], _spoiled()["play"], strict=True):
        b = [w.split(":") for w in before.split()]
        a = [w.split(":") for w in after.split()]
        assert b[trick_winner([c for _, c in b])][0] == a[trick_winner([c for _, c in a])][0]


def test_multiple_faults_are_all_reported_with_their_location() -> None:
    wrong = Result(scores={"S": -58, "E": -58, "N": 174, "W": -58})
    rec = literal_deal(**_spoiled(), result=wrong)
    # The camps' points do not change: the swapped cards are worth the same, or stay in
    # tricks won by the same camp (KD moves from S's trick 3 to W's trick 12, both defence).
    assert camp_half_points(rec, {"N"}) == (86, 2)
    r = replay(rec)
    found = [(d.code, d.location.trick, d.location.seat, d.location.card)
             for d in r.diagnostics]
    assert found == [
        (Code.MUST_FOLLOW_SUIT, 3, "S", "T3"),
        (Code.MUST_OVERTRUMP, 7, "E", "T9"),
        (Code.SCORE_MISMATCH, None, "S", None),
        (Code.SCORE_MISMATCH, None, "E", None),
        (Code.SCORE_MISMATCH, None, "N", None),
        (Code.SCORE_MISMATCH, None, "W", None),
    ]
    assert all(d.severity is Severity.ERROR for d in r.diagnostics)
    revoke, under, *scores = r.diagnostics
    assert revoke.code.value == "P105"
    assert under.code.value == "P107"
    assert revoke.message == "Diamonds led and the player holds Diamonds: expected KD"
    assert under.message == ("trumps led, the trick holds trump 18 and the player holds a"
                             " higher trump: expected a trump (T19)")
    assert revoke.location.path == "play[2].cards[3]"
    assert under.location.path == "play[6].cards[2]"
    assert all(d.code.value == "R101" for d in scores)
    assert scores[2].message == "N is recorded with +174; the rules give +162"
    assert scores[0].message == "S is recorded with -58; the rules give -54"
    # The replay went on: the score is still computed from the play.
    assert r.scores == {"S": -54, "E": -54, "N": 162, "W": -54}


def test_multiple_faults_without_recorded_hands() -> None:
    # The hands left out: the complete play shows them, and the same two faults appear.
    rec = literal_deal(**_spoiled()).model_copy(update={"hands": None, "chien": None})
    r = replay(rec)
    assert [(d.code, d.location.trick, d.location.seat) for d in r.errors] == [
        (Code.MUST_FOLLOW_SUIT, 3, "S"), (Code.MUST_OVERTRUMP, 7, "E")]


def test_illegal_bid_false_poignee_wrong_ecart_and_revoke_all_reported() -> None:
    from builders import TAIL_EXCUSE_LAST_DEFENCE_WINS, cards, slam_deal

    from tarotnotation.records import Bid, Ecart, Poignee, Trick

    rec = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS)
    # E bids a Prise after S's Garde; E shows ten trumps but holds only T1-T5; the écart
    # is shown with a Spade; E plays 3H to trick 1 (Spades) and 3S to trick 2 (Hearts).
    auction = (Bid(contract="garde", seat="S"), Bid(contract="prise", seat="E"),
               Bid(contract=None, seat="N"), Bid(contract=None, seat="W"))
    play = [list(t.cards) for t in rec.play]
    play[0][1], play[1][1] = play[1][1], play[0][1]
    bad = rec.model_copy(update={
        "auction": auction,
        "declarations": (Poignee(seat="E", cards=cards(" ".join(f"T{i}" for i in range(1, 11)))),),
        "ecart": Ecart(cards=rec.ecart.cards if rec.ecart else None, shown=cards("1S")),
        "play": tuple(Trick(cards=tuple(t)) for t in play),
    })
    r = replay(bad)
    found = [(d.code.value, d.location.path, d.location.trick, d.location.seat)
             for d in r.diagnostics]
    assert found == [
        ("A102", "auction[1]", None, "E"),
        ("E107", "ecart", None, "S"),
        ("H102", "declarations[0]", None, "E"),
        ("P105", "play[0].cards[1]", 1, "E"),
        ("P105", "play[1].cards[1]", 2, "E"),
    ]
    assert r.diagnostics[2].message == "T6 T7 T8 T9 T10 shown but not in E's hand"
    assert r.status.value == "scored"
    assert r.taker_half == 179


def test_card_played_twice_in_tricks_of_both_camps_is_reported_and_counted_once() -> None:
    # E plays 10D again at trick 18 (won by W, defence); it was played at trick 16 (won
    # by N, the taker). The replay reports it and goes on: 182 half-points in all.
    play = list(FOUR_LEGAL["play"])
    assert play[15] == "W:7H S:T11 E:10D N:T21"
    assert play[17] == "N:QC W:T10 S:10S E:9D"
    play[17] = "N:QC W:T10 S:10S E:10D"
    r = replay(literal_deal(**{**FOUR_LEGAL, "play": tuple(play)}))
    found = [(d.code, d.location.trick, d.location.seat) for d in r.errors]
    assert (Code.PLAYED_TWICE, 18, "E") in found
    assert (Code.CARDS_LEFT, None, "E") in found  # 9D was never played
    assert r.taker_half is not None
    assert r.defence_half is not None
    assert r.taker_half + r.defence_half == 182
