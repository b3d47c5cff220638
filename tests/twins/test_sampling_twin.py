"""The deal sampler's compiled loops (``csrc/sampling.h``) give the pure-Python loops'
deals: ``sample_deal(..., engine="c")`` and ``engine="python"`` draw the same numbers
from the same ``rng`` and place every card alike.

Over the views of whole deals at 3, 4 and 5 players (random and heuristic bots, the
rulesets that change what a card shows), with the fills' retries at their default and at
one (a fill's dead end then hands over to the matching: the draws before it must be the
same), over constraints drawn at random, tight enough that many fills meet a dead end,
and over scripted draws (a ``random()`` that gives the same few numbers again and again:
sort keys that tie, products that land on a bin's bound, which a real generator almost
never gives). Skipped when the twin is not built, unless ``TAROT_REQUIRE_NATIVE=1`` (CI
sets it).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType

import pytest
from budget import cases
from hypothesis import given, settings
from hypothesis import strategies as st
from native_twin import Emptying, twin_or_skip

from tarotnotation.game import Game
from tarotnotation.players import SeatView, Table, make, view_of
from tarotnotation.players.sampling import ASIDE, Constraints, constraints, sample_deal


@pytest.fixture(scope="module")
def twin() -> ModuleType:
    return twin_or_skip()


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
    step = max(1, len(views) // cases(12, quick=4))
    for k, view in enumerate(views[::step]):
        cons = constraints(view)
        for retries in (50, 1):
            a, b = random.Random(k), random.Random(k)
            for _ in range(2):
                deal = sample_deal(view, a, cons=cons, retries=retries, engine="python")
                assert sample_deal(view, b, cons=cons, retries=retries, engine="c") == deal
            assert a.random() == b.random()  # (and the same numbers drawn)


def _drawn_constraints(view: SeatView, rng: random.Random) -> Constraints:
    """Constraints for ``view``'s bins with each card's bins drawn at random around a
    deal that fits them (so that one always does): most cards in one or two bins."""
    cons = constraints(view)
    places = [i for i, size in enumerate(cons.sizes) for _ in range(size)]
    rng.shuffle(places)
    every = (1 << len(cons.bins)) - 1
    allowed = {c: (1 << b) | (1 << rng.randrange(len(cons.bins))) if rng.random() < 0.95
               else every for c, b in zip(cons.allowed, places, strict=True)}
    return Constraints(bins=cons.bins, sizes=cons.sizes, allowed=allowed, hands=cons.hands,
                       aside=cons.aside)


def _play_view(players: int, at: int) -> SeatView:
    """The view of the seat to play after ``at`` tricks of random bots."""
    t = Table(Game.deal(players, seed=players))
    while len(t.game.cards_played) < at * players or t.game.turn is None \
            or t.game.phase.name != "PLAY":
        t.ask(make("random", seed=1))
    assert t.game.turn is not None
    return view_of(t.game, t.game.turn)


@settings(max_examples=cases(80), deadline=None)
@given(players=st.sampled_from((3, 4, 5)), at=st.integers(0, 10), seed=st.integers(0, 2**32))
def test_sampling_twin_deals_the_same_cards_under_drawn_constraints(
        twin: ModuleType, players: int, at: int, seed: int) -> None:
    view = _play_view(players, at)
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


def test_sampling_twin_drawn_constraints_meet_dead_ends(twin: ModuleType) -> None:
    # (the test above is worth its name only if its fills meet dead ends often)
    ends = fills = 0
    for players in (3, 4, 5):
        view = _play_view(players, 2)
        for seed in range(40):
            cons = _drawn_constraints(view, random.Random(seed))
            cards = list(cons.allowed)
            got = twin.sample_fill([cons.allowed[c] for c in cards], cons.sizes,
                                   random.Random(seed).random)
            fills += 1
            ends += got is None
    assert fills / 10 < ends < fills


class _Scripted(random.Random):
    """A generator whose ``random()`` gives ``values`` round and round (its shuffles draw
    from them too: a subclass that overrides ``random`` alone has ``random`` drawn for
    them)."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = values
        self.drawn = 0

    def random(self) -> float:
        self.drawn += 1
        return self.values[(self.drawn - 1) % len(self.values)]


@pytest.mark.parametrize("values", [[0.5], [0.25, 0.5, 0.75], [i / 16 for i in range(16)],
                                    [0.0, 1 - 2**-53], [1 / 3, 2 / 3, 0.2, 0.4, 0.6, 0.8]])
def test_sampling_twin_deals_the_same_cards_from_scripted_draws(
        twin: ModuleType, values: list[float]) -> None:
    # Keys that tie (the fill's order is then the cards' own: a stable sort) and draws
    # that land on a bin's bound (the first cumulated weight above, not at, the draw).
    for players in (3, 4, 5):
        for at in (9, 3, 0)[:cases(3, quick=1)]:
            view = _play_view(players, at)
            for cons in (constraints(view), _drawn_constraints(view, random.Random(at))):
                for retries in (50, 1):
                    a, b = _Scripted(values), _Scripted(values)
                    deal = sample_deal(view, a, cons=cons, retries=retries, engine="python")
                    assert sample_deal(view, b, cons=cons, retries=retries,
                                       engine="c") == deal
                    assert a.drawn == b.drawn


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
    with pytest.raises(ValueError, match="at most the number of cards"):
        twin.sample_mix([], [], 2, 5, rnd)
    with pytest.raises(TypeError, match="a sequence of ints"):
        twin.sample_fill(5, [1], rnd)
    masks: list[object] = [1] * 60
    masks.insert(0, Emptying(masks, 1))
    assert twin.sample_fill(masks, [61], rnd) == [0] * 61  # (read whole, not freed)
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
        sample_deal(view, random.Random(1), engine="fortran")  # type: ignore[arg-type]
