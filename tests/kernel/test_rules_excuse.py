"""docs/rules.md §7 (the Excuse) and §8 (petit au bout), on the crafted deal of builders.

In the crafted deal S takes a Garde (×2) and wins the first twelve tricks; the écart is the
chien ``1S 2S 1H 2H 1D 2D`` (6 half-points, for S). Every expected number below is counted
by hand in the comment above it, and cross-checked with :func:`builders.camp_half_points`.
"""

from __future__ import annotations

from builders import (
    TAIL_CHELEM_DEFENCE_EXCUSE,
    TAIL_CHELEM_EXCUSE_LED,
    TAIL_CHELEM_EXCUSE_LED_PETIT_LAST,
    TAIL_EXCUSE_LAST_DEFENCE_WINS,
    TAIL_PETIT_LAST_DEFENCE,
    TAIL_PETIT_LOST_LAST,
    TAIL_PETIT_WINS_LAST,
    attack_chelem_excuse_led_last,
    camp_half_points,
    defence_chelem_excuse_led_last,
    petit_au_bout_camp,
    slam_deal,
    taker_excuse_tail,
)

from tarotnotation.cards import Card
from tarotnotation.quick import quick_check_record
from tarotnotation.records import ChelemAnnouncement
from tarotnotation.replay import Replay, replay
from tarotnotation.rules import Camp, Contract


def _run(tail: list[dict[str, str]], *, taker: str = "S",
         contract: Contract = Contract.GARDE,
         declarations: tuple[ChelemAnnouncement, ...] = ()) -> Replay:
    r = replay(slam_deal(tail, taker=taker, contract=contract, declarations=declarations))
    assert r.ok, [str(d) for d in r.diagnostics]
    return r


def test_rule_7_excuse_exchange_owner_counts_8_winner_counts_1() -> None:
    # E (defence) discards the Excuse to trick 17, won by S. The defence keeps it (9) and
    # gives a low card (1): the defence counts 8 for it, the taker 1. The defence's only
    # trick is the last: 1C 2C (1 each) T1 (9) T16 (1) = 12. Taker: 182 - 12 - 8 = 162.
    rec = slam_deal(TAIL_PETIT_LAST_DEFENCE)
    r = _run(TAIL_PETIT_LAST_DEFENCE)
    assert r.taker_half == 162
    assert r.defence_half == 20
    assert camp_half_points(rec, {"S"}) == (162, 1)


def test_rule_7_excuse_exchange_when_the_taker_owns_it() -> None:
    # S leads his own Excuse to trick 13, won by W (T5 T10 T15: 3 half-points). S keeps
    # the Excuse and gives W's camp a low card: taker 182 - 3 - 1 = 178 (89 points).
    rec = slam_deal(taker_excuse_tail())
    r = _run(taker_excuse_tail())
    assert (r.taker_half, r.bouts) == (178, 3)
    assert camp_half_points(rec, {"S"}) == (178, 3)
    assert r.tricks[12].winner == 3
    assert r.tricks[13].leader == 3


def test_rule_7_excuse_owner_with_no_trick_yet_same_accounting() -> None:
    # W discards the Excuse to trick 13 although the defence has won no trick (it never
    # will): the accounting is still 8 for the defence and 1 for the taker: 182 - 8 = 174.
    r = _run(TAIL_CHELEM_DEFENCE_EXCUSE)
    assert r.taker_half == 174
    assert r.defence_half == 8


def test_rule_7_excuse_last_trick_changes_camp() -> None:
    # E's Excuse goes to the last trick, won by W (defence): under changes_camp it goes
    # whole to the taker. Defence: 1C 2C T16 = 3; taker 179 (89.5), and 3 bouts.
    rec = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS)
    r = _run(TAIL_EXCUSE_LAST_DEFENCE_WINS)
    assert (r.taker_half, r.bouts) == (179, 3)
    assert camp_half_points(rec, {"S"}) == (179, 3)


def test_rule_7_excuse_last_trick_changes_camp_whoever_wins_it() -> None:
    # The defence's Excuse in the last trick won by the taker with the Petit: it goes to
    # the taker too, whole, with no low card back: the taker has all 182 half-points.
    r = _run(TAIL_PETIT_WINS_LAST)
    assert (r.taker_half, r.bouts) == (182, 3)


def test_rule_7_chelem_excuse_led_to_last_trick_wins_it() -> None:
    # S has won tricks 1-17 and leads the Excuse: he wins trick 18 (where W's T16 would
    # otherwise win) and keeps everything: 182, 3 bouts, chelem.
    r = _run(TAIL_CHELEM_EXCUSE_LED)
    assert r.tricks[17].winner == 0
    assert (r.taker_half, r.bouts, r.chelem) == (182, 3, Camp.TAKER)


def test_rule_7_chelem_excuse_wins_for_the_defence_too() -> None:
    # The same play with E as taker: now it is the defence (S, N, W) that won tricks 1-17
    # and S, a defender, leads the Excuse: the defence wins the last trick and a chelem.
    r = _run(TAIL_CHELEM_EXCUSE_LED, taker="E")
    assert r.tricks[17].winner == 0
    assert r.chelem is Camp.DEFENCE
    # E took the chien and discarded it back: the écart (6) is all the taker has.
    assert (r.taker_half, r.bouts) == (6, 0)


def test_rule_7_chelem_with_defence_excuse_counts_4_points_for_its_owners() -> None:
    # S wins every trick; the defence discarded its Excuse earlier: it counts 4 points for
    # the defence, and the chelem camp has 87.
    r = _run(TAIL_CHELEM_DEFENCE_EXCUSE)
    assert r.chelem is Camp.TAKER
    assert r.taker_points == 87
    assert r.defence_half == 8


def test_rule_8_petit_au_bout_in_last_trick_for_the_camp_that_wins_it() -> None:
    # The Petit (E's) falls in the last trick, won by N (defence): against the taker.
    rec = slam_deal(TAIL_PETIT_LAST_DEFENCE)
    r = _run(TAIL_PETIT_LAST_DEFENCE)
    assert r.petit_au_bout is Camp.DEFENCE == Camp(petit_au_bout_camp(rec, {"S"}) or "")
    # 1 bout (T21): threshold 51, 81 points: made by 30. X = 55 x 2 - 10 x 2 = 90.
    assert r.score is not None
    assert (r.score.contract_amount, r.score.petit_au_bout_amount, r.score.x) == (110, -20, 90)


def test_rule_8_petit_au_bout_is_scored_whatever_the_deal_result() -> None:
    # E takes with the same play: E wins no trick and loses, and the Petit in the last
    # trick is won by N, a defender: the petit au bout still counts, against the taker.
    r = _run(TAIL_PETIT_LAST_DEFENCE, taker="E")
    assert r.score is not None
    assert not r.score.made
    assert r.petit_au_bout is Camp.DEFENCE
    assert r.score.petit_au_bout_amount == -20


def test_rule_8_petit_au_bout_is_multiplied() -> None:
    for contract in Contract:
        r = _run(TAIL_PETIT_LAST_DEFENCE, contract=contract)
        assert r.score is not None
        assert r.score.petit_au_bout_amount == -10 * contract.multiplier


def test_rule_8_petit_au_bout_for_the_taker() -> None:
    # The taker leads the Petit to the last trick and wins it: +10 x 2; with the chelem
    # (S won every trick, 91 points with 3 bouts: made by 55):
    # X = 80 x 2 + 20 + 200 = 380.
    r = _run(TAIL_PETIT_WINS_LAST)
    assert r.petit_au_bout is Camp.TAKER
    assert r.score is not None
    assert (r.score.petit_au_bout_amount, r.score.chelem_amount, r.score.x) == (20, 200, 380)


def test_rule_8_petit_au_bout_lost_by_the_taker_who_led_it() -> None:
    # S leads the Petit to the last trick and W overtrumps: the defence scores it.
    r = _run(TAIL_PETIT_LOST_LAST)
    assert r.petit_au_bout is Camp.DEFENCE
    assert r.score is not None
    assert r.score.petit_au_bout_amount == -20


def test_rule_8_petit_au_bout_chelem_case_second_to_last_trick() -> None:
    # S leads the Excuse to trick 18 after winning 1-17; the Petit fell in trick 17, won
    # by S: the second-to-last trick counts as the last one, for the taker.
    r = _run(TAIL_CHELEM_EXCUSE_LED)
    assert r.petit_au_bout is Camp.TAKER
    assert r.score is not None
    assert r.score.petit_au_bout_amount == 20


def test_rule_8_petit_au_bout_chelem_case_petit_in_the_excuse_trick_does_not_count() -> None:
    # Same, but the Petit is played to the very last trick (the Excuse's): the trick
    # that counts as last is 17, which holds no Petit: no petit au bout.
    r = _run(TAIL_CHELEM_EXCUSE_LED_PETIT_LAST)
    assert r.petit_au_bout is None
    assert r.tricks[17].winner == 0
    assert r.score is not None
    assert r.score.petit_au_bout_amount == 0
    # 91 points, 3 bouts, made by 55, chelem not announced: X = 80 x 2 + 200 = 360.
    assert r.score.x == 360


def test_rule_7_chelem_announced_and_made() -> None:
    r = _run(TAIL_CHELEM_DEFENCE_EXCUSE, declarations=(ChelemAnnouncement(seat="S"),))
    # 87 points, 2 bouts: made by 46: X = 71 x 2 + 400 = 542; taker +3X.
    assert r.chelem_announced
    assert r.score is not None
    assert (r.score.chelem_amount, r.score.x) == (400, 542)
    assert r.scores == {"S": 1626, "E": -542, "N": -542, "W": -542}


# --- §8: the Excuse led to the last trick by a camp that won every other trick ------------
# (rules.md §8, docs/rulings.md), on the scripted deals of builders.



def test_rule_8_excuse_led_last_petit_before_counts_when_a_fellow_defender_takes_the_last() -> None:
    # 4 players, chelem_excuse_wins=false: the defence won tricks 1-17 (the Petit won
    # trick 17 alone), W leads the Excuse to trick 18 and E, a fellow defender, takes it:
    # the defence took the last trick too, so trick 17 counts as the last one for petit au
    # bout (rules.md §8): 10 × 4 to the defence.
    rec = defence_chelem_excuse_led_last("E")
    r = replay(rec)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert Card.T1 in r.tricks[16].cards
    assert r.tricks[16].winner == 3
    assert r.tricks[17].cards[0] is Card.EXCUSE
    assert r.tricks[17].winner == 1
    assert r.chelem is Camp.DEFENCE
    assert r.petit_au_bout is Camp.DEFENCE
    assert r.score is not None
    assert r.score.petit_au_bout_amount == -40
    # The quick check of archives counts it the same way (it calls the same kernel).
    assert quick_check_record(rec) == (r.status, r.scores, r.taker_half)


def test_rule_8_excuse_led_last_last_trick_counts_when_the_other_camp_takes_it() -> None:
    # The same deal but S, the taker, takes the last trick: it is the last one, as usual,
    # and the Petit is not in it: no petit au bout (and no chelem).
    rec = defence_chelem_excuse_led_last("S")
    r = replay(rec)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert r.tricks[17].cards[0] is Card.EXCUSE
    assert r.tricks[17].winner == 0
    assert r.chelem is None
    assert r.petit_au_bout is None
    assert quick_check_record(rec) == (r.status, r.scores, r.taker_half)


def test_rule_8_excuse_led_last_petit_before_counts_when_the_partner_takes_the_last() -> None:
    # 5 players, chelem_excuse_wins=false: S and his partner E won tricks 1-14 (the Petit
    # won trick 14 alone); S leads the Excuse to trick 15, E takes it with the called
    # King: trick 14 counts as the last one, petit au bout to the taker's camp, 10 × 4.
    rec = attack_chelem_excuse_led_last(True)
    r = replay(rec)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert r.partner == "E"
    assert Card.T1 in r.tricks[13].cards
    assert r.tricks[13].winner == 0
    assert r.tricks[14].cards[0] is Card.EXCUSE
    assert r.tricks[14].winner == 1
    assert r.chelem is Camp.TAKER
    assert r.petit_au_bout is Camp.TAKER
    assert r.score is not None
    assert r.score.petit_au_bout_amount == 40


def test_rule_8_excuse_led_last_five_players_other_camp_takes_the_last() -> None:
    # The same deal but E leads a low Spade after the Excuse and N (defence) takes the
    # last trick with the King of Spades: it is the last trick, without the Petit.
    rec = attack_chelem_excuse_led_last(False)
    r = replay(rec)
    assert r.ok, [str(d) for d in r.diagnostics]
    assert r.tricks[14].cards[0] is Card.EXCUSE
    assert r.tricks[14].winner == 2
    assert r.chelem is None
    assert r.petit_au_bout is None
