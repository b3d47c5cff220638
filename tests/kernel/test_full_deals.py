"""Full deals played through to the score (docs/rules.md §9, §10), checked by counting.

The deals are written out literally (they were first drawn by the simulator, then frozen
here). For each, the taker's camp's points are counted independently by
:func:`builders.camp_half_points` (card values of §1, trick winners of §6, the Excuse of
§7), and the score is worked out by hand in the comments from §9 and §10.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from builders import (
    TAIL_EXCUSE_LAST_DEFENCE_WINS,
    camp_half_points,
    literal_deal,
    petit_au_bout_camp,
    seat_play,
    slam_deal,
    trick_winner,
)

from tarotnotation.records import Result
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp, Contract, Ruleset
from tarotnotation.simulate import random_deal

THREE_PLAYER_GARDE: dict[str, Any] = {
    'players': 3, 'dealer': 'N',
    'hands': {
        'S': '4S 6S 8S NS QS 5H 9H QH 5D 7D ND KD 2C 3C 4C 7C 10C JC NC T2 T4 T8 T12 T19',
        'E': '3S 7S KS 2H 4H 6H 7H 8H 10H NH KH 1D 4D 8D 9D 10D JD 5C QC T1 T3 T15 T16 EX',
        'N': '1S 2S 5S 9S 10S JS 1H JH 2D 6D QD 1C 8C 9C KC T6 T7 T9 T10 T11 T13 T17 T18 T21',
    },
    'chien': '3H 3D 6C T5 T14 T20',
    'auction': ['pass', 'pass', 'garde'],
    'call': None,
    'ecart': '2S 3H JH 2D 3D 6C',
    'play': (
        'S:8S E:KS N:1S',
        'E:9D N:6D S:5D',
        'E:KH N:1H S:9H',
        'E:4H N:T5 S:5H',
        'N:T10 S:T19 E:EX',
        'S:2C E:5C N:1C',
        'E:4D N:QD S:7D',
        'N:JS S:4S E:3S',
        'N:T18 S:T8 E:T15',
        'N:10S S:QS E:7S',
        'S:T12 E:T16 N:T20',
        'N:T6 S:T2 E:T3',
        'N:T9 S:T4 E:T1',
        'N:T21 S:JC E:QC',
        'N:T14 S:NS E:JD',
        'N:T17 S:3C E:1D',
        'N:9C S:10C E:8D',
        'S:ND E:10D N:T13',
        'N:8C S:4C E:8H',
        'N:T11 S:KD E:2H',
        'N:T7 S:QH E:6H',
        'N:KC S:NC E:10H',
        'N:9S S:6S E:NH',
        'N:5S S:7C E:7H',
    ),
}

FIVE_PARTNER: dict[str, Any] = {
    'players': 5, 'dealer': 'N',
    'hands': {
        'S': '3S 5S 8S NS 5H 6H 8H NH 2D ND QD T12 T18 T20 T21',
        'E': '6S 10S JS 3H 10H 3D 9D 1C 9C JC QC T1 T3 T10 T13',
        'N': 'KS 9H JH KH 4D 6D 8D 2C 4C 6C NC T4 T11 T16 T19',
        'W': '1S 2S 7S 1H 7H 1D 7D 10D KD 3C 5C 10C T6 T15 EX',
        'F': '4S QS 2H QH 5D JD 7C 8C KC T2 T5 T7 T8 T9 T14',
    },
    'chien': '9S 4H T17',
    'auction': ['pass', 'garde', 'pass', 'pass', 'pass'],
    'call': 'KD',
    'ecart': '9S JD 8C',
    'play': (
        'W:10C F:KC S:T20 E:QC N:2C',
        'S:NH E:3H N:JH W:EX F:QH',
        'F:T8 S:T21 E:T13 N:T11 W:T6',
        'S:ND E:3D N:4D W:7D F:5D',
        'S:8H E:10H N:KH W:7H F:4H',
        'N:T16 W:T15 F:T17 S:T18 E:T10',
        'S:T12 E:T1 N:T19 W:1S F:T9',
        'N:6C W:3C F:7C S:QD E:9C',
        'E:9D N:8D W:1D F:T7 S:2D',
        'F:T5 S:3S E:T3 N:T4 W:KD',
        'F:T14 S:8S E:6S N:NC W:1H',
        'F:4S S:5S E:10S N:KS W:7S',
        'N:9H W:10D F:2H S:6H E:JS',
        'N:6D W:5C F:T2 S:NS E:1C',
        'F:QS S:5H E:JC N:4C W:2S',
    ),
}

FIVE_SELF_CALL: dict[str, Any] = {
    'players': 5, 'dealer': 'F',
    'hands': {
        'S': '2S 9S NS 1H 5H 4D 10D QD 1C QC T2 T8 T11 T21 EX',
        'E': '3S 8S JS QS 2H JH NH QH 2D 5D KD 3C 6C JC T17',
        'N': '1S 4S KS 7H 9H 10H 1D 9C KC T1 T3 T5 T12 T19 T20',
        'W': '5S 10S 3H 6H 8H 3D 7D 8D 2C 5C T4 T13 T14 T15 T16',
        'F': '7S 4H KH 6D 9D JD ND 4C 7C 10C T6 T7 T9 T10 T18',
    },
    'chien': '6S 8C NC',
    'auction': ['pass', 'pass', 'garde', 'pass', 'pass'],
    'call': 'KS',
    'ecart': '7H 10H 9C',
    'play': (
        'S:T11 E:T17 N:T20 W:T4 F:T18',
        'N:T12 W:T16 F:T9 S:T21 E:2H',
        'S:NS E:8S N:4S W:5S F:7S',
        'S:1C E:3C N:8C W:2C F:4C',
        'N:1S W:10S F:T10 S:EX E:QS',
        'F:7C S:QC E:6C N:NC W:5C',
        'S:4D E:5D N:1D W:8D F:JD',
        'F:KH S:5H E:QH N:9H W:6H',
        'F:10C S:T8 E:JC N:KC W:T13',
        'W:T15 F:T7 S:T2 E:KD N:T19',
        'N:T1 W:T14 F:T6 S:10D E:3S',
        'W:3H F:4H S:1H E:JH N:T3',
        'N:6S W:8H F:ND S:2S E:JS',
        'E:2D N:T5 W:7D F:6D S:QD',
        'N:KS W:3D F:9D S:9S E:NH',
    ),
}

FIVE_KING_IN_CHIEN: dict[str, Any] = {
    'players': 5, 'dealer': 'E',
    'hands': {
        'S': '3S QS 6H 9D 2C 3C 4C 6C 8C JC NC T1 T7 T13 T18',
        'E': '4S 9S NS 1H 5H QH 2D 3D ND T5 T6 T10 T17 T19 T20',
        'N': '1S 2S 5S 6S 7S 8S 8H JH NH KH KD 5C T8 T14 EX',
        'W': 'JS 3H 4H 9H 10H 8D QD 1C 7C 10C QC T3 T9 T11 T16',
        'F': '10S 2H 7H 1D 5D 6D 7D 10D JD 9C KC T2 T4 T15 T21',
    },
    'chien': 'KS 4D T12',
    'auction': ['pass', 'garde', 'pass', 'pass', 'pass'],
    'call': 'KS',
    'ecart': '1C 7C 10C',
    'play': (
        'N:T14 W:T16 F:T21 S:T18 E:T10',
        'F:10D S:9D E:3D N:EX W:QD',
        'W:KS F:10S S:QS E:9S N:2S',
        'W:QC F:KC S:2C E:T20 N:5C',
        'E:T5 N:T8 W:T12 F:T15 S:T1',
        'F:JD S:T13 E:2D N:KD W:8D',
        'S:NC E:T17 N:8H W:T9 F:9C',
        'E:4S N:8S W:JS F:T4 S:3S',
        'F:5D S:T7 E:ND N:5S W:4D',
        'S:6H E:1H N:KH W:9H F:7H',
        'N:7S W:T3 F:T2 S:4C E:NS',
        'W:3H F:2H S:8C E:QH N:JH',
        'E:5H N:NH W:10H F:6D S:JC',
        'N:6S W:T11 F:1D S:3C E:T19',
        'E:T6 N:1S W:4H F:7D S:6C',
    ),
}


def test_full_deal_three_players_half_point_to_the_winner() -> None:
    rec = literal_deal(**THREE_PLAYER_GARDE)
    r = replay(rec)
    assert r.ok
    assert r.status is Status.SCORED
    assert not r.diagnostics
    # N takes a Garde. Counting N's tricks and his écart: 131 half-points = 65.5, with
    # the 21 and the Petit (E's Petit fell to N's T9 at trick 13): 2 bouts.
    assert camp_half_points(rec, {"N"}) == (131, 2)
    assert petit_au_bout_camp(rec, {"N"}) is None
    assert (r.taker, r.taker_half, r.bouts) == ("N", 131, 2)
    # Threshold 41: 65.5 is made by 24.5, the half point to the taker: 25.
    # X = (25 + 25) x 2 = 100; at 3 players the taker gets 2X.
    assert r.score is not None
    assert (r.score.made, r.score.margin, r.score.x) == (True, 25, 100)
    assert r.scores == {"S": -100, "E": -100, "N": 200}


def test_full_deal_three_players_excuse_kept_by_its_camp() -> None:
    # Trick 5: E (defence) discards the Excuse and S (defence) wins: no exchange.
    rec = literal_deal(**THREE_PLAYER_GARDE)
    row = THREE_PLAYER_GARDE["play"][4].split()
    assert row == ["N:T10", "S:T19", "E:EX"]
    assert trick_winner([w.split(":")[1] for w in row]) == 1
    assert replay(rec).defence_half == 182 - 131


def test_full_deal_five_players_called_king_with_partner_share() -> None:
    rec = literal_deal(**FIVE_PARTNER)
    r = replay(rec)
    assert r.ok
    assert not r.diagnostics
    # F takes a Garde and calls KD, dealt to W: W is the partner (and plays KD at trick 10).
    assert (r.taker, r.partner, r.called) == ("F", "W", rec.call.card if rec.call else None)
    assert r.camps == {"S": Camp.DEFENCE, "E": Camp.DEFENCE, "N": Camp.DEFENCE,
                       "W": Camp.TAKER, "F": Camp.TAKER}
    # F and W's tricks with the écart: 79 half-points = 39.5, one bout: the Excuse, which
    # W played to trick 2, won by F (the 21 and the Petit fell to the defence at 3 and 7).
    half, bouts = camp_half_points(rec, {"F", "W"})
    assert (half, bouts) == (79, 1) == (r.taker_half, r.bouts)
    # Threshold 51: lost by 11.5, the half point to the defence: 12. X = -(25+12) x 2.
    assert r.score is not None
    assert (r.score.made, r.score.margin, r.score.x) == (False, 12, -74)
    assert r.scores == {"S": 74, "E": 74, "N": 74, "W": -74, "F": -148}
    assert sum(r.scores.values()) == 0


def test_full_deal_five_players_self_call_taker_alone_4x() -> None:
    rec = literal_deal(**FIVE_SELF_CALL)
    r = replay(rec)
    assert r.ok
    assert not r.diagnostics
    # N takes a Garde and calls KS, which he holds: he plays alone.
    assert rec.hands is not None
    assert rec.call is not None
    assert rec.call.card in rec.hands["N"]
    assert (r.taker, r.partner) == ("N", None)
    assert all(r.camps[s] is Camp.DEFENCE for s in "SEWF")
    half, bouts = camp_half_points(rec, {"N"})
    assert (half, bouts) == (61, 0) == (r.taker_half, r.bouts)
    # 30.5 with 0 bouts (threshold 56): lost by 25.5 -> 26. X = -(51 x 2) = -102.
    assert r.score is not None
    assert r.score.x == -102
    assert r.scores == {"S": 102, "E": 102, "N": -408, "W": 102, "F": 102}


def test_full_deal_five_players_king_in_chien_taker_alone() -> None:
    rec = literal_deal(**FIVE_KING_IN_CHIEN)
    r = replay(rec)
    assert r.ok
    assert not r.diagnostics
    # W takes a Garde and calls KS, which lies in the chien: he takes it and plays alone.
    assert rec.chien is not None
    assert rec.call is not None
    assert rec.call.card in rec.chien
    assert (r.taker, r.partner) == ("W", None)
    half, bouts = camp_half_points(rec, {"W"})
    assert (half, bouts) == (42, 0) == (r.taker_half, r.bouts)
    # 21 points with 0 bouts: lost by 35. X = -(60 x 2) = -120; W pays 4X.
    assert r.score is not None
    assert r.score.x == -120
    assert r.scores == {"S": 120, "E": 120, "N": 120, "W": -480, "F": 120}


def test_full_deal_five_players_excuse_exchange_with_a_taker_trick() -> None:
    # Trick 2 of the King-in-chien deal: N (defence) discards the Excuse, W (taker) wins
    # with QD: the defence keeps it (8), W's camp gets a low card (1). Without that
    # exchange the taker would have 42 - 1 = 41 half-points of cards in his tricks.
    row = FIVE_KING_IN_CHIEN["play"][1].split()
    assert row == ["F:10D", "S:9D", "E:3D", "N:EX", "W:QD"]
    assert replay(literal_deal(**FIVE_KING_IN_CHIEN)).taker_half == 42


def test_full_deal_four_players_crafted_with_half_point() -> None:
    rec = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS,
                    result=Result(taker_points=89.5, bouts=3,
                                  scores={"S": 474, "E": -158, "N": -158, "W": -158}))
    r = replay(rec)
    assert r.ok
    assert not r.diagnostics
    assert r.status is Status.SCORED
    assert camp_half_points(rec, {"S"}) == (179, 3)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_full_deals_random_legal_deals_agree_with_independent_counting(players: int) -> None:
    # Random legal deals of every contract, under fft and pagat: the taker's camp's
    # points, bouts and petit au bout, counted by builders.camp_half_points from the
    # rules text, agree with the replay; every score is zero-sum.
    checked = 0
    for seed in range(40):
        contract = list(Contract)[seed % 4]
        rules = Ruleset.pagat() if seed % 5 == 0 else Ruleset.fft()
        rec = random_deal(random.Random(1000 * players + seed), players, contract=contract,
                          ruleset=rules, poignee_chance=0.3, chelem_chance=0.05)
        r = replay(rec)
        assert r.ok, [str(d) for d in r.errors]
        assert r.taker is not None
        assert rec.hands is not None
        team = {r.taker}
        if players == 5:
            assert rec.call is not None
            holder = [s for s, h in rec.hands.items() if rec.call.card in h]
            team |= set(holder)
        if seat_play(rec)[-1][0][1] == "EX":
            continue  # the chelem case of §7 is not counted by the helper
        expected = camp_half_points(rec, team, excuse_last=rules.excuse_last_trick.value)
        assert (r.taker_half, r.bouts) == expected
        pab = petit_au_bout_camp(rec, team)
        assert r.petit_au_bout == (None if pab is None else Camp(pab))
        assert r.scores is not None
        assert sum(r.scores.values()) == 0
        checked += 1
    assert checked >= 35
