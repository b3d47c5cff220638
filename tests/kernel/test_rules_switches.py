"""docs/rules.md §12: every switch, both values, and the presets."""

from __future__ import annotations

import pytest
from builders import (
    SEATS4,
    SEATS5,
    TAIL_CHELEM_EXCUSE_LED,
    TAIL_CHELEM_EXCUSE_LED_PETIT_LAST,
    TAIL_EXCUSE_LAST_DEFENCE_WINS,
    TAIL_PETIT_LAST_DEFENCE,
    TAIL_PETIT_WINS_LAST,
    auction_for,
    camp_half_points,
    cards,
    fill_hands,
    slam_deal,
)

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.legality import legal_cards
from tarotnotation.records import Bid, Call, DealRecord, Ecart, Misere, PlayedCard, Result, Trick
from tarotnotation.replay import Replay, Status, replay
from tarotnotation.rules import (
    Camp,
    Contract,
    EcartTrumps,
    ExcuseLastTrick,
    FivePlayerFirstLead,
    MisereKind,
    PetitAuBout,
    PetitInChien,
    Ruleset,
    RulesetError,
)


def _codes(r: Replay) -> list[Code]:
    return [d.code for d in r.diagnostics]


# --- presets and overrides ---------------------------------------------------------------


def test_rule_12_fft_preset_is_the_default() -> None:
    fft = Ruleset.fft()
    assert Ruleset.from_spec("") == fft == Ruleset.preset("FFT") == Ruleset()
    assert fft.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP
    assert fft.petit_au_bout is PetitAuBout.IN_LAST_TRICK
    assert fft.ecart_trumps is EcartTrumps.IF_UNAVOIDABLE_SHOWN
    assert fft.petit_in_chien is PetitInChien.NO_EFFECT
    assert fft.chelem_excuse_wins is True
    assert fft.misere is False
    assert fft.five_player_first_lead is FivePlayerFirstLead.NO_CALLED_SUIT
    assert DealRecord(players=4).rules == fft


def test_rule_12_pagat_preset_is_fft_with_two_switches() -> None:
    pagat = Ruleset.pagat()
    assert pagat.excuse_last_trick is ExcuseLastTrick.TO_TRICK_WINNER
    assert pagat.ecart_trumps is EcartTrumps.NEVER
    others = set(Ruleset.switch_names()) - {"excuse_last_trick", "ecart_trumps"}
    assert all(pagat.switch(n) == Ruleset.fft().switch(n) for n in others)
    assert pagat.same_rules(Ruleset.from_spec(
        "fft excuse_last_trick=to_trick_winner ecart_trumps=never"))


def test_rule_12_switch_names_in_table_order() -> None:
    assert Ruleset.switch_names() == (
        "excuse_last_trick", "petit_au_bout", "ecart_trumps", "petit_in_chien",
        "chelem_excuse_wins", "misere", "five_player_first_lead")


def test_rule_12_override_a_switch_by_name() -> None:
    r = Ruleset.from_spec("pagat misere=on petit_au_bout=wins_last_trick")
    assert r.misere
    assert r.petit_au_bout is PetitAuBout.WINS_LAST_TRICK
    assert r.spec() == "pagat petit_au_bout=wins_last_trick misere=on"
    assert Ruleset.from_spec("chelem_excuse_wins=false").spec() == "fft chelem_excuse_wins=false"
    assert Ruleset.fft().with_switch("five_player_first_lead", "free").switch(
        "five_player_first_lead") == "free"
    rec = DealRecord(players=4, ruleset="pagat   misere=on")
    assert rec.ruleset == "pagat misere=on"
    assert rec.rules.misere


@pytest.mark.parametrize("spec", ["tournament", "fft misere=maybe", "fft nosuch=on", "fft misere"])
def test_rule_12_unknown_preset_switch_or_value_is_refused(spec: str) -> None:
    with pytest.raises(RulesetError):
        Ruleset.from_spec(spec)


@pytest.mark.parametrize("name", Ruleset.switch_names())
def test_rule_12_every_switch_has_two_values(name: str) -> None:
    values = Ruleset.switch_values(name)
    assert len(values) == 2
    for v in values:
        assert Ruleset.fft().with_switch(name, v).switch(name) == v


# --- excuse_last_trick --------------------------------------------------------------------


def test_rule_12_excuse_last_trick_both_values() -> None:
    # E's Excuse goes to the last trick, won by W (E's own camp).
    fft = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS)
    winner = slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS,
                       ruleset="fft excuse_last_trick=to_trick_winner")
    # changes_camp: to the taker, whole: 182 - (1C 2C T16) = 179, 3 bouts.
    r1 = replay(fft)
    assert (r1.taker_half, r1.bouts) == (179, 3) == camp_half_points(fft, {"S"})
    # to_trick_winner: it stays with the defence, who won the trick: 170, 2 bouts.
    r2 = replay(winner)
    assert (r2.taker_half, r2.bouts) == (170, 2) == camp_half_points(
        winner, {"S"}, excuse_last="to_trick_winner")
    assert r1.score is not None
    assert r2.score is not None
    assert (r1.score.x, r2.score.x) == (79 * 2, 69 * 2)
    assert replay(slam_deal(TAIL_EXCUSE_LAST_DEFENCE_WINS, ruleset="pagat")).taker_half == 170


def test_rule_12_excuse_last_trick_to_trick_winner_same_when_other_camp_wins() -> None:
    # The defence's Excuse in a last trick won by the taker: to the taker both ways.
    for spec in ("fft", "pagat"):
        assert replay(slam_deal(TAIL_PETIT_WINS_LAST, ruleset=spec)).taker_half == 182


# --- petit_au_bout ------------------------------------------------------------------------


def test_rule_12_petit_au_bout_both_values() -> None:
    # The Petit is in the last trick but N's T16 wins it.
    r1 = replay(slam_deal(TAIL_PETIT_LAST_DEFENCE))
    r2 = replay(slam_deal(TAIL_PETIT_LAST_DEFENCE, ruleset="fft petit_au_bout=wins_last_trick"))
    assert r1.petit_au_bout is Camp.DEFENCE
    assert r2.petit_au_bout is None
    assert r1.score is not None
    assert r2.score is not None
    assert (r1.score.x, r2.score.x) == (110 - 20, 110)


def test_rule_12_petit_au_bout_wins_last_trick_when_the_petit_wins_it() -> None:
    for spec in ("fft", "fft petit_au_bout=wins_last_trick"):
        r = replay(slam_deal(TAIL_PETIT_WINS_LAST, ruleset=spec))
        assert r.petit_au_bout is Camp.TAKER


# --- ecart_trumps -------------------------------------------------------------------------

POOR_HAND = "KS KH KD KC T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15"
POOR_CHIEN = "1S 2S 3S 4S T16 T17"


def _ecart_record(spec: str, with_hands: bool) -> DealRecord:
    hands, chien = fill_hands(4, {"S": POOR_HAND}, POOR_CHIEN)
    return DealRecord(
        ruleset=spec, players=4, dealer="W",
        hands=hands if with_hands else None, chien=chien if with_hands else None,
        auction=auction_for(SEATS4, "S", "S", Contract.GARDE),
        ecart=Ecart(cards=cards(POOR_CHIEN), shown=cards("T16 T17")),
        result=Result(taker_points=50, bouts=1),
    )


def test_rule_12_ecart_trumps_both_values() -> None:
    # The hands are not recorded: fft accepts shown trumps in the écart; never refuses
    # them since nothing shows they were unavoidable.
    assert _codes(replay(_ecart_record("fft", False))) == []
    assert Code.ECART_TRUMP_AVOIDABLE in _codes(replay(_ecart_record("pagat", False)))


def test_rule_12_ecart_trumps_never_falls_back_when_unavoidable() -> None:
    # With the hands: two trumps are unavoidable; both values accept them.
    for spec in ("fft", "fft ecart_trumps=never"):
        assert _codes(replay(_ecart_record(spec, True))) == []


# --- petit_in_chien -----------------------------------------------------------------------


def _petit_chien(spec: str, contract: Contract) -> Replay:
    hands, chien = fill_hands(4, {"S": "1S 2S 3S 4S 5S 6S"}, "T1 KH 2H 3H 4H 5H")
    return replay(DealRecord(
        ruleset=spec, players=4, dealer="W", hands=hands, chien=chien,
        auction=auction_for(SEATS4, "S", "S", contract),
        ecart=Ecart(cards=cards("1S 2S 3S 4S 5S 6S")) if contract.takes_chien else None,
        result=Result(taker_points=50, bouts=1)))


def test_rule_12_petit_in_chien_both_values() -> None:
    r1 = _petit_chien("fft", Contract.PRISE)
    assert r1.status is Status.SCORED
    assert Code.PETIT_IN_CHIEN not in _codes(r1)
    r2 = _petit_chien("fft petit_in_chien=annuls", Contract.PRISE)
    assert r2.status is Status.ANNULLED
    assert r2.score is None
    assert Code.PETIT_IN_CHIEN in _codes(r2)


def test_rule_12_petit_in_chien_annuls_only_a_prise_or_garde() -> None:
    assert _petit_chien("fft petit_in_chien=annuls", Contract.GARDE).status is Status.ANNULLED
    for contract in (Contract.GARDE_SANS, Contract.GARDE_CONTRE):
        assert _petit_chien("fft petit_in_chien=annuls", contract).status is Status.SCORED


# --- chelem_excuse_wins ----------------------------------------------------------------------


def test_rule_12_chelem_excuse_wins_both_values() -> None:
    # S has won 1-17 and leads the Excuse to 18, where W's T16 is the highest trump.
    r1 = replay(slam_deal(TAIL_CHELEM_EXCUSE_LED))
    r2 = replay(slam_deal(TAIL_CHELEM_EXCUSE_LED, ruleset="fft chelem_excuse_wins=false"))
    assert r1.ok
    assert r2.ok
    assert (r1.tricks[17].winner, r2.tricks[17].winner) == (0, 3)
    # true: chelem, 91 points, petit au bout from trick 17: X = 80x2 + 20 + 200 = 380.
    assert (r1.taker_half, r1.chelem, r1.petit_au_bout) == (182, Camp.TAKER, Camp.TAKER)
    assert r1.score is not None
    assert r1.score.x == 380
    # false: W wins 18; the Excuse on the last trick changes camp (to the defence):
    # 182 - (EX 9, 1C 2C T16) = 170, bouts T1 T21: made by 44, no bonus: X = 69 x 2.
    assert (r2.taker_half, r2.bouts, r2.chelem, r2.petit_au_bout) == (170, 2, None, None)
    assert r2.score is not None
    assert r2.score.x == 138


def test_rule_12_chelem_excuse_wins_false_petit_in_last_trick() -> None:
    # E's Petit in the Excuse trick: with the switch off, E wins it with the Petit.
    r = replay(slam_deal(TAIL_CHELEM_EXCUSE_LED_PETIT_LAST,
                         ruleset="fft chelem_excuse_wins=false"))
    assert r.tricks[17].winner == 1
    assert r.petit_au_bout is Camp.DEFENCE
    # 182 - (EX 9, T1 9, 1C, 2C) = 162 with 1 bout: made by 30: X = 55x2 - 20 = 90.
    assert r.taker_half == 162
    assert r.score is not None
    assert r.score.x == 90


# --- misere ---------------------------------------------------------------------------------


E_LOW = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H"


def _misere(spec: str, kind: MisereKind, last: str) -> Replay:
    """E holds E_LOW and ``last``; S and N hold every trump, the Excuse and most faces."""
    hands, chien = fill_hands(4, {
        "E": E_LOW + " " + last,
        "S": " ".join(f"T{i}" for i in range(1, 19)),
        "N": "T19 T20 T21 EX KS QS NS JS KH QH NH JH KD QD ND JD KC QC",
    })
    return replay(DealRecord(
        ruleset=spec, players=4, dealer="W", hands=hands, chien=chien,
        auction=auction_for(SEATS4, "S", "S", Contract.GARDE_SANS),
        declarations=[Misere(seat="E", misere=kind)],
        result=Result(taker_points=61, bouts=1)))


def test_rule_12_misere_both_values() -> None:
    # E holds no trump and no Excuse.
    on = _misere("fft misere=on", MisereKind.ATOUT, "8H")
    assert on.ok
    assert on.score is not None
    # Garde sans made by 10: X = 140. Misère: E +10 from each of 3 others, unmultiplied.
    assert on.score.misere_amounts == (-10, 30, -10, -10)
    assert on.scores == {"S": 420 - 10, "E": -140 + 30, "N": -140 - 10, "W": -140 - 10}
    assert sum(on.scores.values()) == 0
    off = _misere("fft", MisereKind.ATOUT, "8H")
    assert Code.MISERE_NOT_ALLOWED in _codes(off)
    assert off.scores == {"S": 420, "E": -140, "N": -140, "W": -140}


def test_rule_12_misere_needs_a_hand_that_qualifies() -> None:
    false_tete = _misere("fft misere=on", MisereKind.TETE, "NC")
    bad = [d for d in false_tete.diagnostics if d.code is Code.MISERE_FALSE]
    assert len(bad) == 1
    assert "E holds NC" in bad[0].message
    false_atout = _misere("fft misere=on", MisereKind.ATOUT, "NC")
    assert Code.MISERE_FALSE not in _codes(false_atout)
    assert false_tete.score is not None
    assert false_tete.score.misere_amounts == (0, 0, 0, 0)
    tete = _misere("fft misere=on", MisereKind.TETE, "8H")
    assert not tete.hands["E"] & cards("KS QS NS JS KH QH NH JH KD QD ND JD KC QC NC JC")
    assert tete.score is not None
    assert tete.score.misere_amounts == (-10, 30, -10, -10)


# --- five_player_first_lead ------------------------------------------------------------------


def _five_first_lead(spec: str) -> Replay:
    hands, chien = fill_hands(5, {"S": "5H 3C KS", "N": "KH"})
    return replay(DealRecord(
        ruleset=spec, players=5, dealer="F", hands=hands, chien=chien,
        auction=tuple(Bid(contract="garde_sans" if s == "N" else None) for s in SEATS5),
        call=Call(card=Card.HK), play=[Trick(cards=[PlayedCard(card=Card.H5)])]))


def test_rule_12_five_player_first_lead_both_values() -> None:
    assert Code.CALLED_SUIT_LED in _codes(_five_first_lead("fft"))
    assert Code.CALLED_SUIT_LED not in _codes(_five_first_lead("fft five_player_first_lead=free"))
    hand = cards("5H 9H 3C")
    assert legal_cards(hand, [], Card.HK) == cards("3C")
    assert legal_cards(hand, []) == hand  # free: no called card is passed
