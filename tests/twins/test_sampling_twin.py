"""The deal sampler's compiled loops (``csrc/sampling.h``) give the pure-Python loops'
deals: ``sample_deal(..., engine="c")`` and ``engine="python"`` draw the same numbers
from the same ``rng`` and place every card alike.

Over the views of whole deals at 3, 4 and 5 players (random and heuristic bots, the
rulesets that change what a card shows), with the fills' retries at their default and at
one (a fill's dead end then hands over to the matching: the draws before it must be the
same), and over constraints drawn at random, tight enough that most fills meet a dead
end. Skipped when the twin is not built, unless ``TAROT_REQUIRE_NATIVE=1`` (CI sets it).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from types import ModuleType

import pytest
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotnotation.game import Game
from tarotnotation.native import compiled
from tarotnotation.players import SeatView, Table, make, view_of
from tarotnotation.players.sampling import ASIDE, Constraints, constraints, sample_deal


@pytest.fixture(scope="module")
def twin() -> ModuleType:
    module = compiled(force=True)
    if module is None:
        if os.environ.get("TAROT_REQUIRE_NATIVE"):
            pytest.fail("the compiled twin tarotnotation._kernel is not built")
        pytest.skip("the compiled twin tarotnotation._kernel is not built")
    return module


def _views(players: int, seed: int, rules: str, bot: str) -> Iterator[SeatView]:
    """Every seat's view before each card of the first deal from ``seed`` on that is
    played (not passed) when ``bot`` plays every seat."""
    while True:
        t = Table(Game.deal(players, seed=seed, rules=rules))
        while (d := t.pending()) is not None:
            if d.kind.value == "play":
                for s in t.game.seats:
                    yield view_of(t.game, s)
            t.ask(make(bot, seed=seed))
        if t.game.contract is not None:
            return
        seed += 1


CASES = [(players, seed, rules, bot)
         for players in (3, 4, 5)
         for seed, rules, bot in ((1, "fft", "heuristic"), (2, "pagat", "random"),
                                  (3, "fft", "random"),
                                  (4, "fft five_player_first_lead=free", "heuristic"))]


@pytest.mark.parametrize(("players", "seed", "rules", "bot"), CASES)
def test_sampling_twin_deals_the_same_cards_in_real_deals(
        twin: ModuleType, players: int, seed: int, rules: str, bot: str) -> None:
    views = list(_views(players, seed, rules, bot))
    assert views
    for k, view in enumerate(views[::5]):
        cons = constraints(view)
        for retries in (50, 1):
            a, b = random.Random(k), random.Random(k)
            for _ in range(2):
                deal = sample_deal(view, a, cons=cons, retries=retries, engine="python")
                assert sample_deal(view, b, cons=cons, retries=retries, engine="c") == deal
            assert a.random() == b.random()  # (and the same numbers drawn)


def _drawn_constraints(view: SeatView, rng: random.Random) -> Constraints:
    """Constraints for ``view``'s bins with each card's bins drawn at random around a
    deal that fits them (so that one always does)."""
    cons = constraints(view)
    places = [i for i, size in enumerate(cons.sizes) for _ in range(size)]
    rng.shuffle(places)
    every = (1 << len(cons.bins)) - 1
    allowed = {c: (1 << b) | (rng.randrange(every + 1) if rng.random() < 0.6 else every)
               for c, b in zip(cons.allowed, places, strict=True)}
    return Constraints(bins=cons.bins, sizes=cons.sizes, allowed=allowed, hands=cons.hands,
                       aside=cons.aside)


@settings(max_examples=cases(80), deadline=None)
@given(players=st.sampled_from((3, 4, 5)), at=st.integers(0, 10), seed=st.integers(0, 2**32))
def test_sampling_twin_deals_the_same_cards_under_drawn_constraints(
        twin: ModuleType, players: int, at: int, seed: int) -> None:
    t = Table(Game.deal(players, seed=players))
    while len(t.game.cards_played) < at * players or t.game.turn is None \
            or t.game.phase.name != "PLAY":
        t.ask(make("random", seed=1))
    view = view_of(t.game, t.game.turn)
    cons = _drawn_constraints(view, random.Random(seed))
    assert ASIDE in cons.bins or len(cons.bins) == players - 1
    a, b = random.Random(seed), random.Random(seed)
    for retries in (3, 0, 50):
        deal = sample_deal(view, a, cons=cons, retries=retries, engine="python")
        assert sample_deal(view, b, cons=cons, retries=retries, engine="c") == deal
        placed = {c: next(i for i, name in enumerate(cons.bins)
                          if c in (deal.aside if name == ASIDE else deal.hands[name]))
                  for c in cons.allowed}
        assert all(cons.allowed[c] >> i & 1 for c, i in placed.items())


def test_sampling_twin_refuses_what_it_cannot_hold(twin: ModuleType) -> None:
    rnd = random.Random(1).random
    with pytest.raises(ValueError, match="masks"):
        twin.sample_fill([1] * 79, [79], rnd)
    with pytest.raises(ValueError, match="out of range"):
        twin.sample_fill([4], [1, 1], rnd)
    with pytest.raises(ValueError, match="most"):
        twin.sample_mix([1, 1], [0, 0], 9, 1, rnd)
    with pytest.raises(ValueError, match="a bin for each card"):
        twin.sample_mix([3, 3], [0], 2, 1, rnd)
    with pytest.raises(TypeError):
        twin.sample_mix([3, 3], [0, 1], 2, 5, lambda: "not a number")
    for bad in (1.0, -0.5, float("nan")):
        with pytest.raises(ValueError, match=r"not a number in \[0, 1\)"):
            twin.sample_mix([3, 3], [0, 1], 2, 5, lambda bad=bad: bad)
    with pytest.raises(ZeroDivisionError):
        twin.sample_fill([1], [1], lambda: 1 / 0)


def test_sample_deal_engine_is_c_python_or_none() -> None:
    view = next(_views(4, 1, "fft", "heuristic"))
    with pytest.raises(ValueError, match="engine"):
        sample_deal(view, random.Random(1), engine="fortran")
