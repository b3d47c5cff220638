"""Each check of the recorded result against the play, and the auction and turn checks
that the rule tests do not reach: every diagnostic code is exercised somewhere."""

from __future__ import annotations

import random

from tarotnotation.diagnostics import Code, Severity
from tarotnotation.records import DealRecord, PlayedCard, Result, Trick
from tarotnotation.replay import Status, replay
from tarotnotation.rules import Camp, Contract
from tarotnotation.simulate import random_deal


def _legal(players: int = 4, seed: int = 12) -> DealRecord:
    return random_deal(random.Random(seed), players, poignee_chance=0, chelem_chance=0)


def _with_result(rec: DealRecord, **fields: object) -> DealRecord:
    assert rec.result is not None
    result = Result.model_validate({**rec.result.model_dump(), **fields})
    return rec.model_copy(update={"result": result})


def _codes(rec: DealRecord) -> list[tuple[Code, str | None]]:
    return [(d.code, d.location.path) for d in replay(rec).diagnostics]


def test_recorded_facts_that_match_the_play_raise_nothing() -> None:
    rec = _legal()
    r = replay(rec)
    assert r.taker is not None
    assert r.taker_half is not None
    assert r.contract is not None
    good = _with_result(rec, contract=r.contract, taker=r.taker, bouts=r.bouts,
                        taker_points=r.taker_half / 2)
    assert _codes(good) == []


def test_recorded_points_bouts_contract_and_taker_are_checked() -> None:
    rec = _legal()
    r = replay(rec)
    assert r.taker is not None
    assert r.taker_half is not None
    assert r.bouts is not None
    other = next(s for s in rec.seat_ids if s != r.taker)
    wrong_contract = Contract.GARDE_CONTRE if r.contract is not Contract.GARDE_CONTRE \
        else Contract.PRISE
    bad = _with_result(rec, taker_points=(r.taker_half + 2) / 2, bouts=(r.bouts + 1) % 4,
                       contract=wrong_contract, taker=other)
    found = _codes(bad)
    assert (Code.CONTRACT_MISMATCH, "result.contract") in found
    assert (Code.TAKER_MISMATCH, "result.taker") in found
    assert (Code.POINTS_MISMATCH, "result.taker_points") in found
    assert (Code.BOUTS_MISMATCH, "result.bouts") in found
    message = next(d.message for d in replay(bad).diagnostics
                   if d.code is Code.POINTS_MISMATCH)
    assert message.endswith(f"the play gives {r.taker_half // 2}" if r.taker_half % 2 == 0
                            else f"the play gives {r.taker_half / 2}")


def test_recorded_petit_au_bout_and_chelem_are_checked() -> None:
    rec = _legal()
    r = replay(rec)
    assert r.chelem is None
    wrong_pab = Camp.TAKER if r.petit_au_bout is not Camp.TAKER else Camp.DEFENCE
    found = _codes(_with_result(rec, petit_au_bout=wrong_pab, chelem=Camp.DEFENCE))
    assert (Code.PETIT_AU_BOUT_MISMATCH, "result.petit_au_bout") in found
    assert (Code.CHELEM_MISMATCH, "result.chelem") in found


def test_recorded_partner_is_checked_at_five_players() -> None:
    rec = _legal(5, seed=3)
    r = replay(rec)
    holder = r.partner or r.taker
    wrong = next(s for s in rec.seat_ids if s != holder)
    assert (Code.PARTNER_MISMATCH, "result.partner") in _codes(_with_result(rec, partner=wrong))
    assert _codes(_with_result(rec, partner=holder)) == []


def test_recorded_scores_that_do_not_sum_to_zero_are_reported() -> None:
    rec = _legal()
    assert rec.result is not None
    assert rec.result.scores is not None
    scores = dict(rec.result.scores)
    first = next(iter(scores))
    scores[first] += 5
    found = _codes(_with_result(rec, scores=scores))
    assert (Code.SCORES_NOT_ZERO_SUM, "result.scores") in found
    assert (Code.SCORE_MISMATCH, f"result.scores.{first}") in found


def test_short_auction_is_a_warning() -> None:
    rec = DealRecord(players=4, auction=[{"contract": "pass"}, {"contract": "garde"}])
    r = replay(rec)
    [d] = r.diagnostics
    assert (d.code, d.severity, d.location.path) == (
        Code.AUCTION_INCOMPLETE, Severity.WARNING, "auction[1]")


def test_play_after_all_passed_is_an_error() -> None:
    rec = DealRecord(players=4, auction=[{"contract": "pass"}] * 4,
                     play=[Trick(cards=[PlayedCard(card="7H")])])
    r = replay(rec)
    assert r.status is Status.ANNULLED
    assert [d.code for d in r.diagnostics] == [Code.ALL_PASSED, Code.PLAY_AFTER_ANNULMENT]


def test_card_written_for_the_wrong_seat_is_out_of_turn() -> None:
    rec = _legal()
    trick = rec.play[1]
    cards = list(trick.cards)
    r = replay(rec)
    seats = r.tricks[1].seats
    wrong = rec.seat_ids[(seats[2] + 1) % 4]
    cards[2] = cards[2].model_copy(update={"seat": wrong})
    play = list(rec.play)
    play[1] = trick.model_copy(update={"cards": tuple(cards)})
    found = [(d.code, d.location.trick, d.location.seat)
             for d in replay(rec.model_copy(update={"play": tuple(play)})).diagnostics]
    assert (Code.OUT_OF_TURN, 2, wrong) in found
