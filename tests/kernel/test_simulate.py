"""``simulate.random_deal``: the random deals that ``tarot new``, the tests and the
benchmark are built from are legal, complete and never the Petit sec (§2)."""

from __future__ import annotations

import random

import pytest
from budget import cases

from tarotnotation.cards import EXCUSE_BIT, TRUMP_MASK, Card
from tarotnotation.diagnostics import Code
from tarotnotation.replay import Status, replay
from tarotnotation.simulate import random_deal


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deals_never_deal_the_petit_sec(players: int) -> None:
    rng = random.Random(7)
    for _ in range(cases(400)):  # (80 in the quick lane)
        record = random_deal(rng, players)
        assert record.hands is not None
        for hand in record.hands.values():
            bits = hand.bits
            assert not (bits & TRUMP_MASK == 1 << Card.T1 and not bits & EXCUSE_BIT)
        result = replay(record)
        assert Code.PETIT_SEC not in {d.code for d in result.diagnostics}
        assert not result.diagnostics, [str(d) for d in result.diagnostics]
        assert result.status in (Status.SCORED, Status.ANNULLED)


def test_a_given_deck_is_dealt_as_given_even_with_the_petit_sec() -> None:
    """An explicit deck is the caller's: it is dealt as it is, Petit sec or not."""
    deck = [Card.T1, *[c for c in Card if not c.is_trump and c is not Card.EXCUSE][:17]]
    rest = [c for c in Card if c not in deck]
    record = random_deal(random.Random(1), 4, deck=deck + rest)
    assert record.hands is not None
    assert record.hands["S"].bits & TRUMP_MASK == 1 << Card.T1
