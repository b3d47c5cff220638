"""The bounds of tarotnotation.plausibility: each one reached exactly by a built deal.

The reachable points are derived from the rules (``plausibility.accountings``); these tests
hold the derivation to real deals: for every chelem, by the attack and by the defence, in
every contract at 3, 4 and 5 players (alone or with a partner) and under the switches that
move the Excuse, the least and the most the taker's camp can count with each number of
bouts is reached by a legal deal built on purpose (:mod:`tests.chelems`), which replays
clean and passes every cross-check. The parts of the derivation (the sums of plain cards,
the shares, the least score) are checked against independent workings.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Final

import pytest
from chelems import (
    EXCUSE_PLANS,
    best_chien,
    best_ecart,
    chelem_deal,
    highest_plain,
    low_suit_cards,
    scripted_deal,
)

from tarotnotation.cards import KINGS_MASK, Card
from tarotnotation.diagnostics import Code
from tarotnotation.plausibility import (
    PACK_HALF,
    Won,
    accountings,
    plain_sums,
    poignee_trumps,
    points_bounds,
    reachable_points,
    score_bounds,
    share_weights,
)
from tarotnotation.records import DealRecord
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Contract, Ruleset, table, threshold

RULESETS: Final = {
    "fft": Ruleset.fft(),
    "pagat": Ruleset.pagat(),  # the Excuse on the last trick goes to the trick's winner
    "no-chelem-excuse": Ruleset.from_spec("fft chelem_excuse_wins=false"),
}
#: (players, with a partner): the sizes of the taker's camp.
TABLES: Final = ((3, False), (4, False), (5, False), (5, True))


# --- the parts of the derivation --------------------------------------------------------


def _card_sums(count: int, open_places: int) -> set[int]:
    """Every total of ``count`` cards that are neither bouts nor the Excuse, at most
    ``open_places`` of them Kings, worked out card by card (independently of
    plain_sums' counting by value)."""
    bouts = {Card.T1, Card.T21, Card.EXCUSE}
    states: dict[tuple[int, int], set[int]] = {(0, 0): {0}}
    for card in Card:
        if card in bouts:
            continue
        king = bool(KINGS_MASK >> card & 1)
        grown = {key: set(v) for key, v in states.items()}
        for (taken, kings), totals in states.items():
            if taken == count or (king and kings == open_places):
                continue
            grown.setdefault((taken + 1, kings + king), set()).update(
                t + card.points for t in totals)
        states = grown
    return {t for (taken, _), totals in states.items() if taken == count for t in totals}


def _every_choice(count: int, open_places: int) -> set[int]:
    """Every total of ``count`` plain cards, choosing how many Kings (at most
    ``open_places``), Queens, Knights and Jacks, the rest low cards."""
    faces = [c for c in Card if c < Card.T1 and c.rank >= 11]
    lows = [c for c in Card if c not in faces and c not in (Card.T1, Card.T21, Card.EXCUSE)]
    totals = set()
    for kings, queens, knights, jacks in product(range(5), repeat=4):
        low = count - kings - queens - knights - jacks
        if kings <= open_places and 0 <= low <= len(lows):
            totals.add(9 * kings + 7 * queens + 5 * knights + 3 * jacks + low)
    return totals


def test_plain_sums_are_every_choice_of_cards() -> None:
    # Every count of cards, with up to six in an écart (the largest one).
    for count in range(78):
        for open_places in range(max(0, count - 6), count + 1):
            assert plain_sums(count, open_places) == _every_choice(count, open_places), (
                count, open_places)


@pytest.mark.parametrize(("count", "open_places"),
                         [(0, 0), (1, 0), (1, 1), (3, 0), (3, 3), (6, 0), (6, 2), (6, 6),
                          (9, 3)])
def test_plain_sums_are_the_sums_of_real_cards(count: int, open_places: int) -> None:
    assert plain_sums(count, open_places) == _card_sums(count, open_places)


@pytest.mark.parametrize(("players", "partner"), TABLES)
@pytest.mark.parametrize("contract", list(Contract))
def test_every_way_the_cards_end_up_holds_the_pack(players: int, partner: bool,
                                                   contract: Contract) -> None:
    ways = accountings(players, contract, Ruleset.fft(), attackers=2 if partner else 1)
    tricks = table(players).tricks
    assert {a.tricks for a in ways} == set(range(tricks + 1))
    for a in ways:
        assert a.taker_open + a.taker_ecart + a.defence_places == 77
        assert (a.taker_ecart > 0) == contract.takes_chien
        assert a.won is (Won.EVERY if a.tricks == tricks else Won.NONE if a.tricks == 0
                         else Won.SOME)
    for won in Won:
        for half in reachable_points(players, contract, Ruleset.fft(), won,
                                     attackers=2 if partner else 1).values():
            assert 0 <= min(half) <= max(half) <= PACK_HALF


def test_the_poignees_share_21_trumps_and_the_excuse() -> None:
    assert poignee_trumps() == len([c for c in Card if c.is_trump]) + 1


def test_the_shares_are_the_scoring_shares() -> None:
    # docs/rules.md §10: 4 players 3X; 3 players 2X; 5 players 2X and X, or 4X alone.
    assert share_weights(4, False) == (3, None, -1)
    assert share_weights(3, False) == (2, None, -1)
    assert share_weights(5, True) == (2, 1, -1)
    assert share_weights(5, False) == (4, None, -1)


@pytest.mark.parametrize("contract", list(Contract))
def test_the_least_score_of_a_made_or_lost_contract(contract: Contract) -> None:
    m = contract.multiplier
    # Made by 0 with the petit au bout against the taker: (25 - 10) x m; lost by the half
    # point that goes to the defence, petit au bout for the taker: (25 + 1 - 10) x m.
    assert score_bounds(contract, announced=False) == (-16 * m, 15 * m)
    assert score_bounds(contract, announced=True) == (-16 * m - 200, 15 * m - 200)


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=list(RULESETS))
@pytest.mark.parametrize(("players", "partner"), TABLES)
def test_a_defence_chelem_never_leaves_the_taker_his_contract(players: int, partner: bool,
                                                              rules: Ruleset) -> None:
    # score_bounds leaves the defence's chelem out of a made contract's least score: the
    # taker's camp then holds at most the chien or écart and the Excuse, never enough.
    for contract in Contract:
        found = reachable_points(players, contract, rules, Won.NONE,
                                 attackers=2 if partner else 1)
        for bouts, half in found.items():
            assert max(half) < threshold(bouts), (contract, bouts)


def test_bounds_for_the_defence_are_the_takers_turned_round() -> None:
    fft = Ruleset.fft()
    for bouts in range(4):
        taker = points_bounds(Camp.TAKER, 3 - bouts, Won.SOME, 4, Contract.GARDE, fft)
        defence = points_bounds(Camp.DEFENCE, bouts, Won.SOME, 4, Contract.GARDE, fft)
        assert taker is not None
        assert defence == (PACK_HALF - taker[1], PACK_HALF - taker[0])


def test_a_garde_at_four_players_by_hand() -> None:
    # Worked by hand from docs/rules.md: an attack chelem leaves 91 with every bout, or 87
    # when the defence kept its Excuse (it counts 4); a defence chelem leaves the taker his
    # écart (at most 4 Queens and 2 Knights: 19) and the Excuse kept (4) or given whole on
    # the last trick (4.5).
    fft = Ruleset.fft()
    assert reachable_points(4, Contract.GARDE, fft, Won.EVERY) == {2: {174}, 3: {182}}
    assert points_bounds(Camp.TAKER, 0, Won.NONE, 4, Contract.GARDE, fft) == (6, 38)
    assert points_bounds(Camp.TAKER, 1, Won.NONE, 4, Contract.GARDE, fft) == (14, 47)
    assert points_bounds(Camp.TAKER, 1, Won.NONE, 4, Contract.GARDE, RULESETS["pagat"]) \
        == (14, 46)


# --- every chelem bound, reached by a built deal ------------------------------------------


def _chiens(players: int, contract: Contract) -> Iterator[list[Card]]:
    """Chiens that reach the extremes: an écart of low cards or of Queens and Knights; a
    chien of any bouts and the highest or lowest other cards."""
    size = table(players).chien
    if contract.takes_chien:
        yield low_suit_cards(size)
        yield best_ecart(size)
        return
    # The Petit and the 21 are worth the same: the Petit stands for either when alone.
    for bouts in ((), (Card.T1,), (Card.T1, Card.T21), (Card.EXCUSE,),
                  (Card.EXCUSE, Card.T1), (Card.EXCUSE, Card.T1, Card.T21)):
        if len(bouts) <= size:
            rest = size - len(bouts)
            yield [*bouts, *low_suit_cards(rest)]
            yield [*bouts, *highest_plain(rest)]


def _built(players: int, partner: bool, contract: Contract, winner: Camp, rules: Ruleset
           ) -> Iterator[DealRecord]:
    for chien in _chiens(players, contract):
        for plan in EXCUSE_PLANS:
            if (plan == "chien") != (Card.EXCUSE in chien):
                continue
            winning_camp = (2 if partner else 1) if winner is Camp.TAKER else (
                players - (2 if partner else 1))
            if plan in ("winning-last", "winning-early") and winning_camp < 2:
                continue
            try:
                record = chelem_deal(players, contract, winner, chien=chien, excuse=plan,
                                     partner=partner, rules=rules)
            except AssertionError:
                continue  # not a legal deal that way (a chelem lost, say): not a witness
            assert record.result is not None
            if record.result.chelem is winner:
                yield record


@pytest.mark.parametrize("rules", list(RULESETS), ids=str)
@pytest.mark.parametrize("winner", list(Camp), ids=lambda c: c.value)
@pytest.mark.parametrize("contract", list(Contract), ids=lambda c: c.keyword)
@pytest.mark.parametrize(("players", "partner"), TABLES,
                         ids=lambda v: str(v) if isinstance(v, int) else
                         ("partner" if v else "alone"))
def test_each_chelem_bound_is_reached_by_a_built_deal(players: int, partner: bool,
                                                      contract: Contract, winner: Camp,
                                                      rules: str) -> None:
    ruleset = RULESETS[rules]
    won = Won.EVERY if winner is Camp.TAKER else Won.NONE
    bounds = reachable_points(players, contract, ruleset, won,
                              attackers=2 if partner else 1)
    targets = {(b, extreme(half)) for b, half in bounds.items() for extreme in (min, max)}
    reached: dict[int, set[int]] = {}
    for record in _built(players, partner, contract, winner, ruleset):
        r = replay(record)
        assert r.diagnostics == (), [str(d) for d in r.diagnostics]  # every fact is true
        assert r.bouts is not None
        assert r.taker_half is not None
        assert r.taker_half in bounds[r.bouts]
        reached.setdefault(r.bouts, set()).add(r.taker_half)
        targets.discard((r.bouts, r.taker_half))
        if not targets:
            break
    for bouts, half in bounds.items():
        got = reached.get(bouts, set())
        assert got, f"no built deal with {bouts} bouts"
        assert (min(got), max(got)) == (min(half), max(half)), bouts


def test_a_built_chelem_with_a_fact_beyond_its_bound_is_flagged() -> None:
    # The attack chelem of a Garde contre at 4 players, with the chien of 4 Kings, the
    # Petit and the 21 and the defence's Excuse kept: 60 points, the least it can leave.
    record = chelem_deal(4, Contract.GARDE_CONTRE, Camp.TAKER, chien=best_chien(6),
                         excuse="losing-early")
    assert record.result is not None
    assert record.result.taker_points is not None
    assert record.result.taker_points.half == 120
    lower = record.model_copy(update={"result": record.result.model_copy(
        update={"taker_points": record.result.taker_points.__class__(118)})})
    codes = [d.code for d in replay(lower).diagnostics]
    assert Code.CHELEM_ATTACK_IMPOSSIBLE in codes
    assert Code.POINTS_MISMATCH in codes  # and the play says 60


# --- the bounds of a deal that is no chelem, at four players ---------------------------------


def _trump(number: int) -> Card:
    return Card[f"T{number}"]


_LOW_ECART: Final = low_suit_cards(6)
_SUITS: Final = sorted((c for c in Card if c < Card.T1 and c not in _LOW_ECART),
                       key=lambda c: (c.rank, c))


def _defence_takes_the_first_trick(excuse_last: bool) -> DealRecord:
    """E leads the 21 over the Petit (N), the taker's 2 and W's 3: the defence's only
    trick; then S trumps E's lead and draws every trump. N's Excuse goes to a trick of the
    taker's, or to the last one (where it changes camp)."""
    hands = {0: [_trump(2), *(_trump(i) for i in range(4, 21))],
             1: [_trump(21), *_SUITS[:17]],
             2: [_trump(1), Card.EXCUSE, *_SUITS[17:33]],
             3: [_trump(3), *_SUITS[33:50]]}
    script = {(0, 1): _trump(21), (0, 0): _trump(2), (0, 2): _trump(1), (0, 3): _trump(3)}
    if not excuse_last:
        script[(1, 2)] = Card.EXCUSE
    return scripted_deal(4, Contract.PRISE, dealer=0, hands=hands, chien=_LOW_ECART,
                         script=script)


def _taker_takes_the_first_trick(petit: bool) -> DealRecord:
    """S leads the 21 over E's Petit (or E's 2) and two low trumps: his only trick; he
    holds nothing else but the lowest cards and the Excuse, played to the second trick."""
    hands = {0: [_trump(21), Card.EXCUSE, *_SUITS[:16]],
             1: [_trump(1), _trump(2), *_SUITS[16:32]],
             2: [_trump(3), *_SUITS[32:49]],
             3: [*(_trump(i) for i in range(4, 21)), *_SUITS[49:50]]}
    script = {(0, 0): _trump(21), (0, 1): _trump(1) if petit else _trump(2),
              (0, 2): _trump(3), (0, 3): _trump(4), (1, 0): Card.EXCUSE}
    return scripted_deal(4, Contract.PRISE, dealer=3, hands=hands, chien=_LOW_ECART,
                         script=script)


def test_the_bounds_of_a_prise_at_four_players_are_reached() -> None:
    fft = Ruleset.fft()
    found: dict[int, set[int]] = {}
    for won in Won:
        for bouts, half in reachable_points(4, Contract.PRISE, fft, won).items():
            found.setdefault(bouts, set()).update(half)

    def reached(record: DealRecord) -> tuple[int, int]:
        r = replay(record)
        assert r.diagnostics == (), [str(d) for d in r.diagnostics]
        assert r.chelem is None
        assert r.bouts is not None
        assert r.taker_half is not None
        return r.bouts, r.taker_half

    # The least with 0 and 1 bout, the most with 2 and 3 are the chelems' (above).
    assert reached(_defence_takes_the_first_trick(False)) == (0, max(found[0]))  # 77
    assert reached(_taker_takes_the_first_trick(False)) == (2, min(found[2]))  # 13
    assert reached(_taker_takes_the_first_trick(True)) == (3, min(found[3]))  # 17
    # With 1 bout the accounting allows 81.5 (the defence's only trick the last one, the
    # 21 and the Petit in it with its own Excuse, which changes camp); but keeping the 21
    # to the last trick without ever being void in the suit led takes more cards of the
    # suits than there are at four players: the deal gives 81 at most, the bound is loose
    # by that half point (a count that passes, never a false alarm).
    assert reached(_defence_takes_the_first_trick(True)) == (1, max(found[1]) - 1)
