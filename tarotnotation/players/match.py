"""A duplicate match between two bots: every deal played at 2×n tables, and the
statistics of the difference.

At ``n`` players each deal (the same cards) is played at ``2n`` tables
(:func:`tables`): bot A in each seat in turn with B in the others, then B in each seat
with A in the others. The deal's result (:attr:`DealOutcome.result`) is the sum over the
seats of A's score in that seat minus B's score in the same seat: the luck of the cards
cancels, what is left is the players' skill. Over the deals, :func:`summary` gives the
mean result per deal and its 95% interval (Student's t over the per-deal results, which
are paired by construction: :func:`t975`), the deals won and lost, and for each bot how
many contracts it bid (took) and made, and (when asked: costly) how many of them were
makeable with every hand open (the solver's :func:`~tarotnotation.analysis.makeable`,
node-budgeted: ``unknown`` counts those the budget left open).

A deal's cards and the bots' decisions follow from the seed and the deal's number only,
so a match gives the same outcomes whatever order (and whichever worker) plays its deals.

>>> spec = MatchSpec("heuristic", "random", players=3, seed=1)
>>> out = [play_duplicate(spec, k) for k in (1, 2)]
>>> len(tables(3)), [o.index for o in out]
(6, [1, 2])
>>> s = summary(out)
>>> s.deals, s.won + s.lost + s.even
(2, 2)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from ..game import Game
from ..records import DEFAULT_SEATS, DealRecord, Seat
from ..replay import replay
from .roster import make
from .table import Table, play_deal

__all__ = ["BotStats", "DealOutcome", "MatchSpec", "MatchSummary", "deal_game",
           "play_duplicate", "summary", "t975", "tables"]

#: Student's t at 97.5% for 1 to 30 degrees of freedom (the two-sided 95% interval).
_T975: Final = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
                2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
                2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975: Final = 1.959964


def t975(df: int) -> float:
    """Student's t quantile at 97.5% for ``df`` degrees of freedom: the table up to 30,
    beyond it the Cornish-Fisher expansion around the normal quantile (within 0.001).

    >>> t975(1), t975(30), round(t975(100), 3), round(t975(10**6), 3)
    (12.706, 2.042, 1.984, 1.96)
    """
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """What a match plays: bot ``a`` against bot ``b`` at ``players`` players, the deals
    drawn from ``seed`` under ``rules`` (a ruleset spec); ``save`` keeps every table's
    record; ``makeable`` is the solver's node budget for the makeable count (None: not
    counted)."""

    a: str
    b: str
    players: int = 4
    seed: int = 0
    rules: str = "fft"
    save: bool = False
    makeable: int | None = None


@dataclass(frozen=True, slots=True)
class BotStats:
    """A bot's contracts over some tables: taken, made, makeable with every hand open
    (and how many the solver's budget left unknown), and the tables it sat at."""

    taken: int = 0
    made: int = 0
    makeable: int = 0
    unknown: int = 0

    def __add__(self, other: BotStats) -> BotStats:
        return BotStats(self.taken + other.taken, self.made + other.made,
                        self.makeable + other.makeable, self.unknown + other.unknown)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One deal of a match: its number, its result (A's seat scores minus B's in the same
    seats, summed), each bot's contracts, and the tables' records when kept."""

    index: int
    result: int
    a: BotStats
    b: BotStats
    records: tuple[DealRecord, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match's figures (see the module): the mean result per deal, its 95% interval
    (``low``, ``high``; None with fewer than two deals), the deals A won, lost and drew,
    and each bot's contracts."""

    deals: int
    mean: float
    low: float | None
    high: float | None
    won: int
    lost: int
    even: int
    a: BotStats
    b: BotStats


def tables(players: int) -> tuple[tuple[str, ...], ...]:
    """The ``2 × players`` tables of a deal: which bot (``'A'`` or ``'B'``) sits at each
    seat.

    >>> ["".join(t) for t in tables(3)]
    ['ABB', 'BAB', 'BBA', 'BAA', 'ABA', 'AAB']
    """
    ones = [tuple("A" if s == i else "B" for s in range(players)) for i in range(players)]
    return (*ones, *(tuple("B" if x == "A" else "A" for x in t) for t in ones))


def deal_game(spec: MatchSpec, index: int) -> Game:
    """The ``index``-th deal of the match (1-based): its cards drawn from the seed and the
    number alone; the deal passes to the right from one to the next."""
    seats = DEFAULT_SEATS[spec.players]
    rng = random.Random(f"tarot match {spec.seed} {index}")
    return Game.deal(spec.players, seed=rng, dealer=seats[(index - 2) % spec.players],
                     rules=spec.rules)


def play_duplicate(spec: MatchSpec, index: int) -> DealOutcome:
    """Play deal ``index`` at its ``2n`` tables (:func:`tables`); its outcome. The result
    is, summed over the seats ``i``, the score of A at the table where A alone sits at
    ``i`` minus the score of B at the table where B alone sits at ``i`` (the same cards,
    the same seat, the other bots the same): by zero sum, A's total over the ``2n``
    tables."""
    bots = {"A": make(spec.a, seed=spec.seed), "B": make(spec.b, seed=spec.seed)}
    names = {"A": spec.a, "B": spec.b}
    n = spec.players
    result = 0
    stats = {"A": BotStats(), "B": BotStats()}
    kept: list[DealRecord] = []
    for number, seating in enumerate(tables(n)):
        game = deal_game(spec, index)
        seats = game.seats
        record = play_deal(Table(game), {s: bots[who] for s, who in zip(seats, seating,
                                                                          strict=True)})
        r = replay(record)
        lone = seats[number % n]  # (the seat of the one bot alone at this table)
        result += (1 if number < n else -1) * (r.scores or {}).get(lone, 0)
        if r.taker is not None and r.score is not None:
            who = seating[seats.index(r.taker)]
            stats[who] = stats[who] + _contract_stats(record, r.score.made, spec.makeable)
        if spec.save:
            kept.append(record.model_copy(update={
                "seats": tuple(Seat(id=s, name=names[w]) for s, w in zip(seats, seating,
                                                                        strict=True)),
                "tags": (*record.tags, ("Event", f"{spec.a} v {spec.b}"),
                         ("Deal", str(index)), ("Table", str(number + 1)))}))
    return DealOutcome(index, result, stats["A"], stats["B"], tuple(kept))


def _contract_stats(record: DealRecord, made: bool, budget: int | None) -> BotStats:
    """One contract taken: made or not, and (with a node ``budget``) makeable or not with
    every hand open from the first lead, after the auction and the écart as played."""
    if budget is None:
        return BotStats(1, int(made))
    from ..analysis import makeable
    from ..analysis.position import PositionError, deal_start

    try:
        start, _ = deal_start(record)
    except PositionError:
        return BotStats(1, int(made), 0, 1)
    answer = makeable(start, node_limit=budget)
    return BotStats(1, int(made), int(answer is True), int(answer is None))


def summary(outcomes: Iterable[DealOutcome]) -> MatchSummary:
    """The match's figures from its deals' outcomes (see the module)."""
    results: list[int] = []
    a, b = BotStats(), BotStats()
    for o in outcomes:
        results.append(o.result)
        a, b = a + o.a, b + o.b
    n = len(results)
    mean = sum(results) / n if n else 0.0
    low = high = None
    if n > 1:
        var = sum((x - mean) ** 2 for x in results) / (n - 1)
        half = t975(n - 1) * math.sqrt(var / n)
        low, high = mean - half, mean + half
    return MatchSummary(n, mean, low, high, sum(x > 0 for x in results),
                        sum(x < 0 for x in results), sum(x == 0 for x in results), a, b)

