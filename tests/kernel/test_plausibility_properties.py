"""No false alarm: every result the replay computes from a deal passes every cross-check.

Deals come from random play (:func:`strategies.legal_deals`: 3, 4 and 5 players, every
contract, presets with any switches, poignées and announced chelems) and from chelems
built on purpose (:func:`chelems.chelem_deal`: by either camp, every contract, every fate
of the Excuse, the chien at its extremes). The replay's own facts (contract, taker,
partner, points, bouts, petit au bout, chelem, scores) are written into the result; the
deal must then replay without a single diagnostic, as a played deal, as a score sheet of
those facts, and with any of the facts left out.
"""

from __future__ import annotations

from typing import Any, Final

from chelems import (
    EXCUSE_PLANS,
    best_chien,
    best_ecart,
    chelem_deal,
    highest_plain,
    low_suit_cards,
    with_replayed_result,
)
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import contracts, legal_deals, rulesets

from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code
from tarotnotation.records import ChelemAnnouncement, DealRecord, Poignee, Result
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, Ruleset, table

_CROSS_CHECKS: Final = frozenset(c for c in Code if c.value[:2] in ("R2", "R3")) | {
    Code.SCORES_NOT_ZERO_SUM}
_FACTS: Final = ("contract", "taker", "partner", "taker_points", "bouts", "petit_au_bout",
                 "chelem", "scores")


def _chiens(players: int, contract: Contract) -> list[list[Card]]:
    size = table(players).chien
    if contract.takes_chien:
        return [low_suit_cards(size), best_ecart(size)]
    out = [low_suit_cards(size), highest_plain(size), best_chien(size)]
    out += [[Card.EXCUSE, *low_suit_cards(size - 1)], [Card.EXCUSE, *best_chien(size - 1)]]
    return out


@st.composite
def built_chelems(draw: st.DrawFn) -> DealRecord:
    """A chelem by either camp, built on purpose (every contract, Excuse and switch)."""
    players, partner = draw(st.sampled_from(((3, False), (4, False), (5, False),
                                             (5, True))))
    contract = draw(contracts())
    winner = draw(st.sampled_from(list(Camp)))
    chien = draw(st.sampled_from(_chiens(players, contract)))
    plans = [p for p in EXCUSE_PLANS if (p == "chien") == (Card.EXCUSE in chien)]
    plan = draw(st.sampled_from(plans))
    rules = draw(rulesets())
    try:
        record = chelem_deal(players, contract, winner, chien=chien, excuse=plan,
                             partner=partner, rules=rules)
    except AssertionError:
        assume(False)  # that way is not a legal deal (two players needed, a chelem lost)
        raise
    return record


def _deals() -> st.SearchStrategy[DealRecord]:
    return st.one_of(legal_deals().map(with_replayed_result), built_chelems())


def _score_sheet(record: DealRecord, result: Result) -> DealRecord:
    """The facts of a played deal as a club writes them down: declarations, result."""
    declarations: list[Any] = []
    r = replay(record)
    for seat, size in r.poignees:
        assert seat is not None
        declarations.append(Poignee(seat=seat, size=size))
    if r.chelem_announced and r.taker is not None:
        declarations.append(ChelemAnnouncement(seat=r.taker))
    return DealRecord(tags=record.tags, ruleset=record.ruleset, players=record.players,
                      seats=record.seats, dealer=record.dealer,
                      declarations=tuple(declarations), result=result)


def _cross_check_faults(record: DealRecord) -> list[str]:
    return [str(d) for d in replay(record).diagnostics if d.code in _CROSS_CHECKS]


@given(_deals())
def test_a_played_deal_with_every_fact_it_produces_is_clean(record: DealRecord) -> None:
    assert replay(record).diagnostics == ()


@given(_deals())
def test_its_facts_as_a_score_sheet_are_clean(record: DealRecord) -> None:
    assert record.result is not None
    sheet = _score_sheet(record, record.result)
    assert replay(sheet).diagnostics == ()


@given(_deals(), st.sets(st.sampled_from(_FACTS)), st.booleans())
def test_any_of_its_facts_left_out_raise_no_false_alarm(record: DealRecord,
                                                        left_out: set[str],
                                                        played: bool) -> None:
    assert record.result is not None
    kept = {k: v for k, v in record.result.model_dump().items() if k not in left_out}
    result = Result.model_validate(kept)
    rec = (record.model_copy(update={"result": result}) if played
           else _score_sheet(record, result))
    # (A score sheet without its chelem or petit au bout but with the scores that count
    # them is scored without them: an R101, not a cross-check; only those are held here.)
    assert _cross_check_faults(rec) == []


def test_the_strategies_reach_every_kind_of_chelem() -> None:
    # The chelem builder gives chelems of both camps in every contract, at each table.
    fft = Ruleset.fft()
    for players in (3, 4, 5):
        for contract in Contract:
            for winner in Camp:
                rec = chelem_deal(players, contract, winner,
                                  chien=low_suit_cards(table(players).chien),
                                  excuse="losing-early", rules=fft)
                assert rec.result is not None
                assert rec.result.chelem is winner
