"""The rules kernel's C twin (``tarotnotation._kernel``) gives the Python kernel's answers.

Over every card of generated deals at 3, 4 and 5 players under every ruleset that changes
play or counting: the legal cards (``legal_in``, ``first_lead``, ``rule_in``), each
trick's winner (``winner_index``, ``winning_card``) and settlement (``settle_trick``), and
the whole deal's count (``play`` against ``PlayState.result``); then each function on
random arguments. Skipped when the twin is not built, unless ``TAROT_REQUIRE_NATIVE=1``
(CI sets it). ``TAROT_TWIN_DEALS`` sets the number of deals (default 1500; 20000 under
``TAROT_SLOW=1``).
"""

from __future__ import annotations

import os
import random
from types import ModuleType

import pytest
from budget import cases
from native_twin import Emptying, twin_or_skip
from solver_cases import RULESETS

from tarotnotation import kernel
from tarotnotation.cards import ALL_MASK, EXCUSE_BIT, TRUMP_MASK, card_points, mask_of
from tarotnotation.native import rule_flags
from tarotnotation.records import DealRecord
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal

DEALS = int(os.environ.get("TAROT_TWIN_DEALS", cases(1500, slow=20000)))


@pytest.fixture(scope="module")
def twin() -> ModuleType:
    return twin_or_skip()


def _deals(count: int, seed: int) -> list[tuple[Ruleset, DealRecord]]:
    rng = random.Random(seed)
    out: list[tuple[Ruleset, DealRecord]] = []
    for _ in range(count):
        rules = rng.choice(RULESETS)
        players = rng.choice((3, 4, 5))
        rec = random_deal(rng, players, ruleset=rules, chelem_chance=0.1,
                          poignee_chance=0.0, with_result=False)
        out.append((rules, rec))
    return out


def test_every_card_of_generated_deals_agrees(twin: ModuleType) -> None:
    from tarotnotation.analysis.position import PositionError, deal_start

    checked = 0
    for rules, rec in _deals(DEALS, 1):
        try:
            start, cards = deal_start(rec)
        except PositionError:
            continue  # annulled (the Petit in the chien)
        flags = rule_flags(rules)
        st = start.state()
        called = start.first_lead_card()
        for card in cards:
            hand = st.hands[st.to_play]
            first = called if not st.trick and st.trick_number == 0 else None
            want = kernel.rule_in(hand, st.led, st.top, first)
            assert twin.rule_in(hand, st.led, st.top, first) == want
            assert twin.legal_in(hand, st.led, st.top) == kernel.legal_in(hand, st.led, st.top)
            assert st.legal() == want[0]
            if called is not None:
                assert twin.first_lead(hand, called) == kernel.first_lead(hand, called)
            assert twin.step(st.led, st.top, card) == kernel.step(st.led, st.top, card)
            trick = [*st.trick, card]
            assert twin.winner_index(trick) == kernel.winner_index(trick)
            if len(trick) == st.n:
                bits = mask_of(trick)
                led = kernel.trick_state(trick)[0]
                if led != kernel.NO_SUIT:
                    assert twin.winning_card(bits, led) == kernel.winning_card(bits, led)
                owner = -1
                if 77 in trick:
                    owner = st.camps[(st.leader + trick.index(77)) % st.n]
                for winner in (0, 1):
                    for last in (False, True):
                        for won in (False, True):
                            assert twin.settle_trick(flags, bits, winner, owner, last, won) \
                                == kernel.settle_trick(rules, bits, winner, owner, last, won)
                assert twin.petit_au_bout(flags, trick, 1) == kernel.petit_au_bout(rules,
                                                                                   trick, 1)
            st.play(card)
            checked += 1
        # The whole deal's count: the C play state against PlayState.
        played, _winners, half, bouts, won, petit = twin.play(
            flags, start.hands, start.camps, start.leader, cards,
            called=-1 if called is None else called)
        assert played == len(cards)
        result = st.result()
        aside_half = card_points(start.aside) if kernel.unplayed_camp(start.contract) == 0 \
            else 0
        aside_bouts = (start.aside & (1 << 56 | 1 << 76 | EXCUSE_BIT)).bit_count() \
            if kernel.unplayed_camp(start.contract) == 0 else 0
        assert (half + aside_half, bouts + aside_bouts, petit) == result[:3]
        assert kernel.chelem_camp(won[0], start.tricks) == result[3]
        assert twin.chelem_camp(won[0], start.tricks) == result[3]
    assert checked > DEALS * 40


def test_play_stops_before_an_illegal_card(twin: ModuleType) -> None:
    from tarotnotation.analysis.position import deal_start

    rec = random_deal(random.Random(3), 4, with_result=False)
    start, cards = deal_start(rec)
    st = start.state()
    for card in cards[:9]:
        st.play(card)
    wrong = next(c for c in range(78) if st.hands[st.to_play] >> c & 1
                 and not st.legal() >> c & 1) if st.legal() != st.hands[st.to_play] else None
    bad = [*cards[:9], 77 if wrong is None else wrong]
    if wrong is None:
        bad[-1] = next(c for c in range(78) if not any(h >> c & 1 for h in st.hands))
    played = twin.play(rule_flags(Ruleset.fft()), start.hands, start.camps, start.leader,
                       bad)[0]
    assert played == 9


def test_functions_on_random_arguments(twin: ModuleType) -> None:
    rng = random.Random(5)
    for _ in range(cases(20000)):  # (4,000 in the quick lane)
        rules = rng.choice(RULESETS)
        flags = rule_flags(rules)
        hand = mask_of(rng.sample(range(78), rng.randint(0, 24)))
        led = rng.choice((-1, 0, 1, 2, 3, 4))
        top = rng.randint(0, 21)
        assert twin.legal_in(hand, led, top) == kernel.legal_in(hand, led, top)
        card = rng.randrange(78)
        assert twin.step(led, top, card) == kernel.step(led, top, card)
        called = rng.randrange(56)
        assert twin.first_lead(hand, called) == kernel.first_lead(hand, called)
        trick = rng.sample(range(78), rng.randint(1, 5))
        assert twin.winner_index(trick) == kernel.winner_index(trick)
        assert twin.card_points(hand) == card_points(hand)
        a, b, c = rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5
        assert twin.excuse_wins_last_trick(flags, a, b) == kernel.excuse_wins_last_trick(
            rules, a, b)
        assert twin.petit_trick_before_last(a, b, c) == kernel.petit_trick_before_last(a, b, c)
        owner, winner = rng.randrange(2), rng.randrange(2)
        assert twin.excuse_settlement(flags, owner, winner, a, b) == \
            kernel.excuse_settlement(rules, owner, winner, a, b)
        assert twin.petit_au_bout(flags, trick, winner) == kernel.petit_au_bout(
            rules, trick, winner)
        tricks = rng.choice((15, 18, 24))
        taker = rng.randint(0, tricks)
        assert twin.chelem_camp(taker, tricks) == kernel.chelem_camp(taker, tricks)
        half, bouts = rng.randint(0, 182), rng.randint(0, 3)
        assert twin.margin(half, bouts) == kernel.margin(half, bouts)
    for contract in Contract:
        assert twin.unplayed_camp(int(contract)) == kernel.unplayed_camp(contract)


def test_the_call_rank_rule_agrees(twin: ModuleType) -> None:
    """call_fault over every card, with hands that hold every higher rank or miss one."""
    from tarotnotation.cards import FACES_MASK

    rng = random.Random(6)
    faults = set()
    for _ in range(3000):
        hand = mask_of(rng.sample(range(78), rng.randint(0, 24)))
        if rng.random() < 0.7:  # most faces held: the Queens, Knights and Jacks callable
            hand |= FACES_MASK & ~mask_of(rng.sample(range(56), rng.randint(0, 2)))
        for called in range(78):
            fault = kernel.call_fault(called, hand)
            assert twin.call_fault(called, hand) == fault
            faults.add(fault)
    assert faults == {-1, 0, 12, 13, 14}


def test_card_sets_out_of_range_are_refused(twin: ModuleType) -> None:
    with pytest.raises(ValueError, match="bits 0 to 77"):
        twin.card_points(ALL_MASK + 1)
    with pytest.raises(ValueError, match="bits 0 to 77"):
        twin.legal_in(-1, 0, 0)
    with pytest.raises(TypeError):
        twin.card_points("T21")
    assert twin.card_points(TRUMP_MASK) == card_points(TRUMP_MASK)


def test_the_first_lead_at_five_players_may_not_be_the_called_suit(twin: ModuleType) -> None:
    from tarotnotation.analysis.position import deal_start

    rng = random.Random(8)
    checked = 0
    while checked < 20:
        rec = random_deal(rng, 5, with_result=False)
        start, cards = deal_start(rec)
        called = start.first_lead_card()
        if called is None:
            continue
        hand = start.hands[start.leader]
        suit = kernel.SUIT_OF[called]
        wrong = [c for c in range(78) if hand >> c & 1 and kernel.SUIT_OF[c] == suit
                 and c != called]
        if not wrong or hand == kernel.first_lead(hand, called)[0]:
            continue
        args = (rule_flags(start.rules), start.hands, start.camps, start.leader)
        assert twin.play(*args, [wrong[0]], called=called)[0] == 0
        assert twin.play(*args, [wrong[0]])[0] == 1   # without the rule, it is legal
        assert twin.play(*args, cards, called=called)[0] == len(cards)
        checked += 1



def test_the_search_core_refuses_what_it_cannot_search(twin: ModuleType) -> None:
    blank = twin.Search.__new__(twin.Search)
    with pytest.raises(RuntimeError, match="not initialised"):
        blank.stats()
    leaf = bytes(4 * twin.LEAF_SIZE)
    search = twin.Search(4, 0, (0, 1, 1, 1), -1, 18, 0, 0, leaf, True, 1.0)
    with pytest.raises(ValueError, match="leaf table"):
        twin.Search(4, 0, (0, 1, 1, 1), -1, 18, 0, 0, b"x", True, 1.0)
    hands = (1 << 0 | 1 << 1, 1 << 2 | 1 << 3, 1 << 4 | 1 << 5, 1 << 6 | 1 << 7)
    good = (hands, 0, (), 16, 0, 0, (8, 8), ())
    assert search.bounds(good)[0] <= search.bounds(good)[1]
    for bad, message in [
        (((1, 1, 4, 8), 0, (), 17, 0, 0, (9, 8), ()), "two hands"),
        ((hands, 0, (), 17, 0, 0, (9, 8), ()), "holds 2 cards"),
        ((hands, 5, (), 16, 0, 0, (8, 8), ()), "no seat"),
        ((hands, 0, (), 16, 0, 0, (8, 7), ()), "tricks won"),
        ((hands, 0, (), 16, 200, 0, (8, 8), ()), "out of range"),
        ((hands, 0, (0,), 16, 0, 0, (8, 8), ()), "trick is in a hand"),
    ]:
        with pytest.raises(ValueError, match=message):
            search.test(bad, 0)


def test_a_sequence_emptied_while_it_is_read_is_read_whole(twin: ModuleType) -> None:
    # An item whose conversion runs Python code that empties the list: the twin reads a
    # copy of the items (a list's own items read one by one would be freed under it).
    trick: list[object] = [5, 40, 41]
    trick.insert(0, Emptying(trick, 3))
    assert twin.winner_index(trick) == kernel.winner_index([3, 5, 40, 41])
    hands = [1 << 3, 1 << 5, 1 << 7]
    camps: list[object] = [1, 1]
    camps.insert(0, Emptying(camps, 3))  # (read as 3: not a camp)
    with pytest.raises(ValueError, match="camp"):
        twin.play(0, hands, camps, 0, [3])
    assert camps == []  # (emptied, and read whole all the same)
