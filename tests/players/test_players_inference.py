"""players.inference: what the auction says of the hands, read as the point count bids,
and pimc's samples drawn to fit it (``pimc:auction=N``)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tarotnotation.cards import Card, CardSet
from tarotnotation.game import Game, Phase
from tarotnotation.players import PimcPlayer, Player, Table, make, play_deal, view_of
from tarotnotation.players.heuristic import THRESHOLDS, HeuristicPlayer, hand_points
from tarotnotation.players.inference import (
    ANY,
    auction_ranges,
    dealt_hand,
    misfit,
    most_likely,
    play_misfit,
    sample_fitting,
)
from tarotnotation.players.pimc import SAMPLES
from tarotnotation.players.sampling import SampledDeal, constraints, sample_deal
from tarotnotation.players.view import SeatView
from tarotnotation.rules import Contract


def _after_auction(players: int, seed: int) -> Table:
    t = Table(Game.deal(players, seed=seed))
    bot = make("heuristic", seed=seed)
    while t.game.phase is Phase.AUCTION:
        t.ask(bot)
    return t


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_auction_ranges_hold_every_hand_the_heuristic_bid(players: int) -> None:
    # The reading is the heuristic's bidding turned round: exact for it, every seat of
    # every deal, passes and bids, whatever the seat that reads it.
    spoke = 0
    for seed in range(60):
        t = _after_auction(players, seed)
        for reader in t.game.seats:
            ranges = auction_ranges(t.view(reader))
            assert reader not in ranges
            for seat, (low, high) in ranges.items():
                assert low <= hand_points(t.game.dealt[seat]) < high, (seed, seat)
                spoke += 1
    assert spoke == 60 * players * (players - 1)


def test_a_bid_gives_its_band_and_a_pass_the_lowest_contract_still_open() -> None:
    t = Table(Game.deal(4, seed=1))
    for bid in (None, Contract.PRISE, None, Contract.GARDE_CONTRE):
        t.answer_bid(t.game.turn or "", bid)
    first, second, third, fourth = (t.game.seats[(t.game.seats.index(t.game.first_seat) + i)
                                                 % 4] for i in range(4))
    prise, garde, _, contre = THRESHOLDS[4]
    ranges = auction_ranges(view_of(t.game, fourth))
    assert ranges == {first: (-ANY, prise), second: (prise, garde), third: (-ANY, garde)}
    assert auction_ranges(view_of(t.game, first))[fourth] == (contre, ANY)
    # other thresholds, other ranges
    assert auction_ranges(view_of(t.game, fourth), (10, 20, 30, 40))[second] == (10, 20)


def _taken(players: int, seeds: range) -> Iterator[tuple[Table, Player]]:
    """The heuristic games of ``seeds`` where someone took, past the auction, and their
    bot."""
    for seed in seeds:
        t = _after_auction(players, seed)
        if t.game.taker is not None:
            yield t, make("heuristic", seed=seed)


def _moments(players: int, seeds: range) -> Iterator[tuple[Game, SeatView]]:
    """A defender's and the taker's views at trick 6 of heuristic games with a taker."""
    for t, bot in _taken(players, seeds):
        while (d := t.pending()) is not None and len(t.game.cards_played) < 5 * players:
            t.ask(bot)
        if d is None:
            continue
        g, taker = t.game, t.game.taker
        assert taker is not None  # (_taken's games have a taker)
        defender = next(s for s in g.seats if s != taker)
        for seat in (defender, taker):
            yield g, view_of(g, seat)


def _truth(g: Game) -> SampledDeal:
    aside = g.ecart.cards if g.ecart is not None and g.ecart.cards is not None else g.chien
    return SampledDeal(hands=dict(g.hands), aside=aside)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_real_deal_fits_the_auction_and_its_hands_as_dealt_are_found(
        players: int) -> None:
    seen = 0
    for g, v in _moments(players, range(40)):
        truth = _truth(g)
        for seat in g.seats:
            if seat != v.seat:
                assert dealt_hand(v, truth, seat) == g.dealt[seat], (seat, g.contract)
        assert misfit(v, truth, auction_ranges(v)) == 0
        seen += 1
    assert seen >= 20


def test_misfit_counts_the_points_outside_each_range() -> None:
    g, v = next(_moments(4, range(40)))
    truth = _truth(g)
    seat = next(s for s in g.seats if s != v.seat)
    points = hand_points(g.dealt[seat])
    assert misfit(v, truth, {seat: (points, points + 1)}) == 0
    assert misfit(v, truth, {seat: (points + 7, ANY)}) == 7
    assert misfit(v, truth, {seat: (-ANY, points - 2)}) == 3  # (points is 3 over points-3)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_samples_fit_the_auction_far_more_often_than_the_plain_draws(
        players: int) -> None:
    fit = plain = total = 0
    for _, v in _moments(players, range(16)):
        cons, ranges = constraints(v), auction_ranges(v)
        rng = random.Random(5)
        for _ in range(4):
            deal = sample_fitting(v, rng, tries=30, cons=cons, ranges=ranges)
            assert deal.hands[v.seat] == v.hand
            placed = CardSet()
            for s in v.seats:
                assert not placed & deal.hands[s]
                placed = placed | deal.hands[s]
            fit += misfit(v, deal, ranges) == 0
            plain += misfit(v, sample_deal(v, rng, cons=cons), ranges) == 0
            total += 1
    assert total >= 32
    assert fit >= 0.95 * total
    assert plain < fit


def test_with_no_draw_that_fits_the_best_fitting_is_kept() -> None:
    g, v = next(_moments(4, range(40)))
    # no hand reaches ANY - 1 points: none of the five draws fits, the closest is kept
    impossible = {s: (ANY - 1, ANY) for s in g.seats if s != v.seat}
    kept = sample_fitting(v, random.Random(2), tries=5, ranges=impossible)
    rng, cons = random.Random(2), constraints(v)
    five = [sample_deal(v, rng, cons=cons) for _ in range(5)]
    best = min(misfit(v, d, impossible) for d in five)
    assert kept == next(d for d in five if misfit(v, d, impossible) == best)
    assert len({misfit(v, d, impossible) for d in five}) > 1  # (a choice was made)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pimc_reading_the_auction_plays_whole_deals(players: int) -> None:
    t = Table(Game.deal(players, seed=4))
    # (the auction alone: the play not read, as it is by default at four players)
    bots = {s: PimcPlayer(seed=2, samples=2, nodes=500, auction=10, habits=0)
            for s in t.game.seats}
    assert play_deal(t, bots).result is not None
    assert make("pimc:auction=30").name == "pimc(nodes=20000,auction=30)"
    with pytest.raises(ValueError, match="auction"):
        PimcPlayer(auction=-1)


def _play_moments(players: int, seeds: range) -> Iterator[tuple[Game, SeatView]]:
    """Every seat's view before every fourth card of heuristic games with a taker."""
    for t, bot in _taken(players, seeds):
        while (d := t.pending()) is not None:
            g = t.game
            if d.kind.value == "play" and len(g.cards_played) % 4 == 3:
                yield g, view_of(g, d.seat)
            t.ask(bot)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_real_deal_is_played_as_the_heuristic_plays_it(players: int) -> None:
    # Every past card of every other seat, replayed by the heuristic from the view rebuilt
    # in the real deal (its hand then, the écart, the partner as it knew it, the
    # declarations made so far), is the card it played.
    seen = 0
    for g, v in _play_moments(players, range(12)):
        assert play_misfit(v, _truth(g)) == 0, (g.cards_played, v.seat)
        seen += 1
    assert seen >= 40


def test_other_hands_explain_the_play_worse_and_most_likely_keeps_the_real_deal() -> None:
    found = 0
    for g, v in _play_moments(4, range(12)):
        if len(g.cards_played) < 40:
            continue
        truth = _truth(g)
        others = [s for s in g.seats if s != v.seat]
        a, b = others[0], others[1]
        if len(truth.hands[a]) != len(truth.hands[b]) or len(truth.hands[a]) < 2:
            continue  # (hands of one card or none: the swap may change nothing played)
        swapped = SampledDeal(hands={**truth.hands, a: truth.hands[b], b: truth.hands[a]},
                              aside=truth.aside)
        wrong = play_misfit(v, swapped)
        assert wrong > 0
        assert play_misfit(v, swapped, bound=0) == 1  # (counting stops past the bound)
        assert most_likely(v, [swapped, truth, swapped], 1) == [truth]
        assert most_likely(v, [swapped, truth], 2) == [truth, swapped]
        found += 1
    assert found >= 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_most_likely_keeps_the_deals_of_fewest_misses_in_the_order_drawn_among_equals(
        players: int) -> None:
    # most_likely judges the deals best first and stops each as soon as it is told from
    # those kept: it keeps exactly the deals that whole counts, sorted, put first.
    seen = 0
    for _, v in itertools.islice(_play_moments(players, range(12)), 1, 46, 9):
        deals = [sample_deal(v, random.Random(k)) for k in range(12)]
        ranked = sorted((play_misfit(v, d), j) for j, d in enumerate(deals))
        for keep in (1, 4, 9, 12, 20):
            assert most_likely(v, deals, keep) == [deals[j] for _, j in ranked[:keep]]
        seen += len({m for m, _ in ranked}) > 2  # (deals told apart, not all alike)
    assert seen >= 3


def test_pimc_reading_the_play_keeps_the_samples_it_solves_among_more_drawn() -> None:
    t = Table(Game.deal(4, seed=6))
    bots = {s: PimcPlayer(seed=2, samples=2, nodes=500, auction=10, habits=6)
            for s in t.game.seats}
    assert play_deal(t, bots).result is not None
    assert make("pimc:auction=30,habits=40").name == "pimc(nodes=20000,auction=30,habits=40)"
    with pytest.raises(ValueError, match="habits"):
        PimcPlayer(samples=10, habits=5)
    with pytest.raises(ValueError, match="habits"):
        PimcPlayer(habits=-5)


@pytest.mark.parametrize("players", [3, 4])
def test_pimc_reading_the_play_draws_at_least_its_default_samples(players: int) -> None:
    # samples left to their default (30 at three players, 10 at four): a habits below
    # them draws the samples and solves them all, as habits equal to them does; named so
    samples = SAMPLES[players]
    g, v = next((g, v) for g, v in _play_moments(players, range(12))
                if len(g.cards_played) >= 12 and len(g.legal_moves) > 1 and g.turn == v.seat)
    fewer = PimcPlayer(seed=1, nodes=300, auction=10, habits=samples - 5)
    assert fewer.totals(v, g.legal_moves) == \
        PimcPlayer(seed=1, nodes=300, auction=10, habits=samples).totals(v, g.legal_moves)
    assert f"samples={samples}," in fewer.name_at(players)
    assert f"habits={samples - 5}" in fewer.name_at(players)


@dataclass(frozen=True, slots=True)
class _Lowest(HeuristicPlayer):
    """The heuristic's bids and écart, and the lowest legal card always (a model whose
    first lead at five players is often in the called suit when the rules let it)."""

    def play(self, view: SeatView, legal: CardSet) -> Card:
        return min(legal)


@pytest.mark.parametrize("rules", ["fft", "fft five_player_first_lead=free"])
def test_the_play_is_read_under_the_rules_first_lead_at_five_players(rules: str) -> None:
    seen = 0
    for seed in range(30):
        t = Table(Game.deal(5, seed=seed, rules=rules))
        bot = _Lowest(seed=seed)
        while (d := t.pending()) is not None:
            g = t.game
            if d.kind.value == "play" and len(g.cards_played) == 5 and g.taker is not None:
                assert play_misfit(view_of(g, d.seat), _truth(g), _Lowest()) == 0, seed
                seen += 1
            t.ask(bot)
    assert seen >= 10


def test_reading_the_auction_and_the_play_changes_what_pimc_solves_and_the_same_seed_the_same(
        ) -> None:
    plain = PimcPlayer(seed=3, samples=2, nodes=300, auction=0, habits=0)
    auction = PimcPlayer(seed=3, samples=2, nodes=300, auction=20, habits=0)
    habits = PimcPlayer(seed=3, samples=2, nodes=300, auction=20, habits=6)
    every = PimcPlayer(seed=3, samples=6, nodes=300, auction=20, habits=0)  # (6 drawn, all solved)
    moved = {"auction": 0, "habits": 0, "chosen": 0}
    seen = 0
    for g, v in _play_moments(4, range(16)):
        if len(g.cards_played) < 30 or len(g.legal_moves) < 2 or g.turn != v.seat:
            continue
        legal = g.legal_moves
        base = plain.totals(v, legal)
        for name, bot in (("auction", auction), ("habits", habits)):
            first = bot.totals(v, legal)
            assert first == bot.totals(v, legal)  # (the same seed, the same samples)
            moved[name] += first != base
            if name == "habits":
                moved["chosen"] += first != every.totals(v, legal)
        seen += 1
        if seen == 10:
            break
    assert seen == 10
    assert moved["auction"] > 0
    assert moved["habits"] > 0
    assert moved["chosen"] > 0  # (two of the six drawn solved, not all six)
