"""docs/rules.md §9 (counting the taker's points) and §10 (the score of a deal)."""

from __future__ import annotations

import pytest
from builders import (
    TAIL_CHELEM_DEFENCE_EXCUSE,
    TAIL_EXCUSE_LAST_DEFENCE_WINS,
    TAIL_PETIT_LOST_LAST,
    camp_half_points,
    slam_deal,
)

from tarotnotation.records import ChelemAnnouncement, Result
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, PoigneeSize, threshold
from tarotnotation.scoring import DealFacts, Score, score


def facts(points: float, bouts: int, contract: Contract = Contract.PRISE, *,
          players: int = 4, partner: int | None = None,
          petit_au_bout: Camp | None = None, poignees: tuple[PoigneeSize, ...] = (),
          chelem: Camp | None = None, chelem_announced: bool = False) -> Score:
    """The score of a deal where seat 0 took and made ``points``."""
    return score(DealFacts(players=players, taker=0, contract=contract,
                           taker_half=int(points * 2), bouts=bouts, partner=partner,
                           petit_au_bout=petit_au_bout, poignees=poignees, chelem=chelem,
                           chelem_announced=chelem_announced))


@pytest.mark.parametrize(("bouts", "points"), [(3, 36), (2, 41), (1, 51), (0, 56)])
def test_rule_9_threshold_by_bouts(bouts: int, points: int) -> None:
    assert threshold(bouts) == 2 * points
    assert facts(points, bouts).threshold == points


@pytest.mark.parametrize(("bouts", "points"), [(3, 36), (2, 41), (1, 51), (0, 56)])
def test_rule_9_made_by_0_at_exactly_the_threshold(bouts: int, points: int) -> None:
    s = facts(points, bouts)
    assert s.made
    assert s.margin == 0
    assert s.x == 25
    below = facts(points - 1, bouts)
    assert not below.made
    assert below.margin == 1
    assert below.x == -26


def test_rule_9_half_point_40_5_with_2_bouts_is_lost_by_1() -> None:
    s = facts(40.5, 2, Contract.GARDE)
    assert not s.made
    assert s.margin == 1
    assert s.x == -26 * 2


def test_rule_9_half_point_41_5_with_2_bouts_is_made_by_1() -> None:
    s = facts(41.5, 2, Contract.GARDE)
    assert s.made
    assert s.margin == 1
    assert s.x == 26 * 2


@pytest.mark.parametrize(
    ("points", "made", "margin"),
    [(36.5, False, 5), (45.5, True, 5), (50.5, False, 1), (51.5, True, 1)],
)
def test_rule_9_half_point_goes_to_winner(points: float, made: bool, margin: int) -> None:
    bouts = 2 if points < 50 else 1
    s = facts(points, bouts)
    assert (s.made, s.margin) == (made, margin)


def test_rule_9_half_point_at_4_players_when_the_excuse_changed_camp() -> None:
    # The Excuse changes camp on the last trick: 89.5 points with 3 bouts is 90, made by
    # 54 (not 53). Garde: X = 79 x 2 = 158.
    rec = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS)
    half, bouts = camp_half_points(rec, {"S"})
    assert (half, bouts) == (179, 3)
    r = replay(rec)
    assert r.taker_points == 89.5
    assert r.score is not None
    assert (r.score.made, r.score.margin, r.score.x) == (True, 54, 158)
    assert r.scores == {"S": 474, "E": -158, "N": -158, "W": -158}


def test_rule_9_bouts_counted_at_the_end_of_the_deal() -> None:
    # The Petit, played by E at trick 13, was won by S: S counts it with T21 and the
    # Excuse he received on the last trick.
    r = replay(slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS))
    assert r.bouts == 3


# --- §10 the score ---------------------------------------------------------------------


@pytest.mark.parametrize("contract", list(Contract))
def test_rule_10_contract_amount_is_25_plus_d_times_multiplier(contract: Contract) -> None:
    m = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4,
         Contract.GARDE_CONTRE: 6}[contract]
    made = facts(61, 1, contract)  # d = 10
    assert made.multiplier == m
    assert made.contract_amount == 35 * m == made.x
    lost = facts(45, 1, contract)  # d = 6
    assert lost.contract_amount == -31 * m == lost.x


def test_rule_10_petit_au_bout_is_multiplied_and_signed() -> None:
    assert facts(61, 1, Contract.GARDE_SANS, petit_au_bout=Camp.TAKER).x == 35 * 4 + 40
    assert facts(61, 1, Contract.GARDE_SANS, petit_au_bout=Camp.DEFENCE).x == 35 * 4 - 40
    # Whatever the result: the taker loses and still scores his petit au bout.
    assert facts(45, 1, Contract.GARDE, petit_au_bout=Camp.TAKER).x == -31 * 2 + 20


@pytest.mark.parametrize(("size", "bonus"), [(PoigneeSize.SIMPLE, 20),
                                             (PoigneeSize.DOUBLE, 30),
                                             (PoigneeSize.TRIPLE, 40)])
def test_rule_10_poignee_not_multiplied_and_to_the_winner(size: PoigneeSize, bonus: int) -> None:
    for contract in Contract:
        m = contract.multiplier
        assert facts(61, 1, contract, poignees=(size,)).x == 35 * m + bonus
        assert facts(45, 1, contract, poignees=(size,)).x == -31 * m - bonus


def test_rule_10_poignees_each_count() -> None:
    s = facts(61, 1, Contract.GARDE, poignees=(PoigneeSize.SIMPLE, PoigneeSize.DOUBLE))
    assert s.poignee_amount == 50
    assert s.x == 70 + 50


def test_rule_10_chelem_bonuses_not_multiplied() -> None:
    for contract in Contract:
        m = contract.multiplier
        base = facts(91, 3, contract).contract_amount
        assert base == 80 * m
        assert facts(91, 3, contract, chelem=Camp.TAKER).x == base + 200
        assert facts(91, 3, contract, chelem=Camp.TAKER, chelem_announced=True).x == base + 400
        assert facts(80, 3, contract, chelem_announced=True).x == 69 * m - 200
        lost = facts(0, 0, contract, chelem=Camp.DEFENCE)
        assert lost.x == -81 * m - 200
        both = facts(0, 0, contract, chelem=Camp.DEFENCE, chelem_announced=True)
        assert both.x == -81 * m - 400
        assert both.chelem_amount == -400


def test_rule_10_x_with_every_bonus() -> None:
    s = facts(91, 3, Contract.GARDE, petit_au_bout=Camp.TAKER,
              poignees=(PoigneeSize.TRIPLE,), chelem=Camp.TAKER, chelem_announced=True)
    # (25 + 55) x 2 + 10 x 2 + 40 + 400
    assert (s.contract_amount, s.petit_au_bout_amount, s.poignee_amount, s.chelem_amount) == (
        160, 20, 40, 400)
    assert s.x == 620
    assert s.seats == (1860, -620, -620, -620)


def test_rule_10_chelem_announced_not_made_in_play() -> None:
    # S announces, leads the Petit to the last trick and W overtrumps it. 81 points with
    # 1 bout: made by 30. X = 55 x 2 - 10 x 2 (petit au bout to the defence) - 200 = -110.
    r = replay(slam_deal(TAIL_PETIT_LOST_LAST, declarations=[ChelemAnnouncement(seat="S")]))
    assert r.ok
    assert r.chelem is None
    assert r.score is not None
    assert (r.score.made, r.score.chelem_amount, r.score.x) == (True, -200, -110)
    assert r.scores == {"S": -330, "E": 110, "N": 110, "W": 110}


def test_rule_10_defence_won_every_trick() -> None:
    # E takes; the defence (S) wins every trick. E has only his écart: 3 points, 0 bouts,
    # lost by 53: X = -(78 x 2) - 200 = -356.
    r = replay(slam_deal(TAIL_CHELEM_DEFENCE_EXCUSE, taker="E"))
    assert r.ok
    assert r.chelem is Camp.DEFENCE
    assert r.score is not None
    assert (r.taker_half, r.bouts) == (6, 0)
    assert (r.score.chelem_amount, r.score.x) == (-200, -356)
    assert r.scores == {"S": 356, "E": -1068, "N": 356, "W": 356}


def test_rule_10_announced_chelem_and_defence_took_every_trick_adds_up() -> None:
    # The same, E having announced a chelem (so E leads the first trick, and loses it).
    rec = slam_deal(TAIL_CHELEM_DEFENCE_EXCUSE, taker="E",
                    declarations=[ChelemAnnouncement(seat="E")])
    r = replay(rec)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert r.tricks[0].leader == 1
    assert r.chelem is Camp.DEFENCE
    assert r.score is not None
    assert (r.score.chelem_amount, r.score.x) == (-400, -556)


@pytest.mark.parametrize(
    ("players", "partner", "taker_share", "partner_share"),
    [(3, None, 2, None), (4, None, 3, None), (5, 2, 2, 1), (5, None, 4, None), (5, 0, 4, None)],
)
def test_rule_10_sharing_and_zero_sum(
    players: int, partner: int | None, taker_share: int, partner_share: int | None
) -> None:
    s = facts(61, 1, Contract.GARDE, players=players, partner=partner)
    x = 70
    assert s.x == x
    assert sum(s.seats) == 0
    assert len(s.seats) == players
    assert s.seats[0] == taker_share * x
    for seat in range(1, players):
        assert s.seats[seat] == (partner_share * x if seat == partner and partner_share
                                 else -x)


def test_rule_10_recorded_score_differing_is_reported_with_both_values() -> None:
    rec = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS,
                    result=Result(scores={"S": 471, "E": -157, "N": -157, "W": -157}))
    r = replay(rec)
    bad = [d for d in r.result_differences if d.code.value == "R101"]
    assert [d.location.seat for d in bad] == ["S", "E", "N", "W"]
    assert "S is recorded with +471; the rules give +474" in bad[0].message
    ok = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS,
                   result=Result(taker_points=89.5, bouts=3,
                                 scores={"S": 474, "E": -158, "N": -158, "W": -158}))
    assert replay(ok).ok
    assert not replay(ok).diagnostics
