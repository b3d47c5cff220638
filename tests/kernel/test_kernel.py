"""The rules kernel (tarotnotation/kernel.py) on its own: what is derived from its rules
agrees with them, and PlayState plays a deal as the replay counts it.

- The transition table (:func:`kernel.transitions`) is worked out from ``legal_in`` and
  ``step``: on any hand and any trick, "the hand holds a forbidding card" is "the card is
  not in ``legal_in``'s answer", and the table's next state is ``step``'s.
- ``PlayState`` playing a generated deal card by card ends with the replay's points,
  bouts, petit au bout and chelem (3, 4 and 5 players, every switch that counts), and
  ``unplay`` gives back every state it went through.
"""

from __future__ import annotations

import random

from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation import kernel
from tarotnotation.cards import ALL_MASK, Card, CardSet
from tarotnotation.replay import replay
from tarotnotation.rules import Camp, Ruleset
from tarotnotation.simulate import random_deal

CARDS = st.integers(min_value=0, max_value=77)


@settings(max_examples=cases(400), deadline=None)
@given(hand=st.sets(CARDS, min_size=1, max_size=24), trick=st.lists(CARDS, max_size=4),
       card=CARDS)
def test_the_transition_table_is_legal_in(hand: set[int], trick: list[int], card: int) -> None:
    led, top = kernel.trick_state(trick)
    bits = sum(1 << c for c in hand | {card})
    forbid, after = kernel.transitions().table[kernel.state_of(led, top) + card]
    legal = kernel.legal_in(bits, led, top)[0]
    assert bool(bits & forbid) == (not legal >> card & 1)
    assert kernel.led_top(after) == kernel.step(led, top, card)


def test_a_trick_of_cards_that_cannot_be_illegal_is_legal_as_a_whole() -> None:
    # can_be_illegal: a card outside it is legal whatever the hand (any top).
    table = kernel.transitions()
    for led in range(5):
        for top in range(22):
            for card in range(78):
                if not table.can_be_illegal[led] >> card & 1:
                    assert table.table[kernel.state_of(led, top) + card][0] == 0


SPECS = ("fft", "pagat", "fft chelem_excuse_wins=false", "fft petit_au_bout=wins_last_trick",
         "fft excuse_last_trick=to_trick_winner", "fft five_player_first_lead=free")


def _camp(camp: Camp | None) -> int:
    return -1 if camp is None else kernel.TAKER if camp is Camp.TAKER else kernel.DEFENCE


def test_play_state_counts_a_deal_as_the_replay_does() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(300):
        n = 3 + i % 3
        rules = Ruleset.from_spec(SPECS[i % len(SPECS)])
        rec = random_deal(rng, n, ruleset=rules, chelem_chance=0.3)
        r = replay(rec)
        if r.status.value != "scored":
            continue
        ids = rec.seat_ids
        camps = [kernel.TAKER if r.camps[s] is Camp.TAKER else kernel.DEFENCE for s in ids]
        played = 0
        for t in r.tricks:
            for c in t.cards:
                played |= 1 << c
        called = (int(r.called) if n == 5 and r.called is not None
                  and rules.five_player_first_lead.value == "no_called_suit" else None)
        assert r.contract is not None
        state = kernel.PlayState(rules, [r.hands[s].bits for s in ids], camps,
                                 r.tricks[0].leader, aside=ALL_MASK & ~played,
                                 contract=r.contract, called=called)
        seen = []
        for t in r.tricks:
            for card in t.cards:
                assert state.legal() >> card & 1, (i, t.number, card)
                seen.append((list(state.hands), state.leader, state.trick_number,
                             list(state.won), state.adjust))
                state.play(int(card))
        assert state.over
        assert state.result() == (r.taker_half, r.bouts, _camp(r.petit_au_bout),
                                  _camp(r.chelem))
        assert state.half(kernel.TAKER) + state.half(kernel.DEFENCE) == 182
        for snapshot in reversed(seen):
            state.unplay()
            assert (list(state.hands), state.leader, state.trick_number, list(state.won),
                    state.adjust) == snapshot
        checked += 1
    assert checked > 250


def test_play_state_from_a_position_in_the_middle_of_a_trick() -> None:
    # A position given by hand: the cards already in the trick set its state.
    hands = [CardSet.parse("T2").bits, CardSet.parse("2H 3S").bits,
             CardSet.parse("T5 4S").bits]
    state = kernel.PlayState(Ruleset.fft(), hands, (0, 1, 1), 0, tricks=2,
                             trick=[Card.HQ])
    assert state.to_play == 1
    assert CardSet(state.legal()) == CardSet.parse("2H")  # Hearts led: follow
    state.play(Card.H2)
    assert CardSet(state.legal()) == CardSet.parse("T5")  # no Heart: trump


def test_the_old_name_winning_index_is_the_kernels_winner_index_with_a_warning() -> None:
    # legality.winning_index was a second name of kernel.winner_index (issue 30: dead
    # code); tarotnotation.winning_index, which the package exported, keeps working.
    import warnings

    import tarotnotation

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        old = tarotnotation.winning_index
    assert old is kernel.winner_index
    assert [w.category for w in seen] == [DeprecationWarning]
    assert "tarotnotation.kernel.winner_index" in str(seen[0].message)
