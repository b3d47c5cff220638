"""The ``pimc`` bot: Perfect Information Monte Carlo card play.

For each card to play, :class:`PimcPlayer` draws ``samples`` deals the seat cannot tell
from the real one (:mod:`.sampling`: the hidden hands dealt consistently with everything
it has seen), solves each with the double-dummy solver (:mod:`.solving`: within ``nodes``
nodes a sample, a yes/no test at the contract's threshold first within ``test_share`` per
cent of them, then the value; exact in the last ``exact_tricks`` tricks) and plays the
card with the best rating summed over the samples; ties are broken by the seed. Its
effort is set in samples and nodes, never in seconds, so a seed gives the same game on
any machine at any load.

The bid, the call, the écart and the declarations are the ``fallback`` player's (by
default the ``heuristic`` bot, with the same seed, bidding on ``bid_shift`` points less:
:data:`BID_SHIFT`), and so are the cards of
the first ``fallback_tricks`` tricks (at most 3; 0, the default, plays every card by
sampling). A card with no choice is played at once. With ``auction`` on (the most draws a
sample), the samples are deals whose hands fit the auction as the point count bids; with
``habits`` on (the deals drawn), the ``samples`` solved are those the heuristic's habits
explain the play of best (:mod:`.inference`).

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import Table, play_deal
>>> t = Table(Game.deal(3, seed=2))
>>> bots = {s: PimcPlayer(seed=1, samples=2, nodes=2000) for s in t.game.seats}
>>> play_deal(t, bots).result is not None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..cards import Card, CardSet
from .fallback import FallbackDecisions
from .inference import auction_ranges, most_likely, sample_fitting
from .protocol import Player
from .sampling import constraints, sample_deal
from .solving import TEST_SHARE, card_values, position_of
from .view import SeatView, decision_rng

__all__ = ["AUCTION", "BID_SHIFT", "DEFAULT_EXACT_TRICKS", "DEFAULT_NODES", "DEFAULT_SAMPLES",
           "HABITS", "MAX_FALLBACK_TRICKS", "SAMPLES", "PimcPlayer", "best_of"]

#: The samples a card decision draws by default (at four and five players:
#: :data:`SAMPLES`), and the solver's node budget a sample: set by the CPU budget of the
#: issue's 4-player benchmark (576,000 pimc cards within about 12 CPU hours with the
#: oracle's and the heuristic's matches: 10 × 20,000 spends 0.028 to 0.033 CPU seconds a
#: card on average, 4.5 to 5.3 hours; docs/bots.md).
DEFAULT_SAMPLES: Final = 10
DEFAULT_NODES: Final = 20_000
#: The samples by number of players: :data:`DEFAULT_SAMPLES`, but 30 at three players,
#: whose benchmark (500 deals) has a fifth of the 4-player one's cards: more samples is
#: the budget lever the double-dummy screen shows to help, and a card stays within the
#: speed goal (docs/bots.md, "Thirty samples at three players").
SAMPLES: Final[Mapping[int, int]] = {3: 30, 4: DEFAULT_SAMPLES, 5: DEFAULT_SAMPLES}
#: The points added to the heuristic fallback's bidding thresholds, by number of players:
#: pimc plays the heuristic's contracts better than the heuristic does, so it bids on
#: weaker hands (measured in duplicate against the heuristic on the benchmark's deals,
#: docs/bots.md "pimc's bidding": at four players -3 gains pimc and the oracle alike; at
#: three -5 was not shown to gain either, and at five no shift was measured).
BID_SHIFT: Final[Mapping[int, int]] = {3: 0, 4: -3, 5: 0}
#: Reading the auction and the play, by number of players (``auction``: the most draws a
#: sample to fit the auction; :data:`HABITS`: the deals drawn a card for each sample
#: solved, the samples the heuristic's habits explain best; 0: not read). At four players
#: both are read: on top of the bid shift, over the benchmark's 2,000 deals, +4.0 a deal
#: paired with not reading them (-0.2 to +8.2), for 3.5 times the CPU; half the gap to
#: the oracle closed and shown by the deals (pimc less half the oracle, a deal: +6.0,
#: +0.1 to +12.0; +2.1, -3.8 to +8.0, not reading); the cards' double-dummy loss 0.59 a
#: decision less (docs/bots.md, "Reading the auction and the play at four players"). At
#: three players the screen showed nothing (+0.05); at five no match measured them.
AUCTION: Final[Mapping[int, int]] = {3: 0, 4: 30, 5: 0}
HABITS: Final[Mapping[int, int]] = {3: 0, 4: 4, 5: 0}
#: The tricks left from which each sample is solved exactly.
DEFAULT_EXACT_TRICKS: Final = 4
#: The most tricks the fallback may play (the issue's bound).
MAX_FALLBACK_TRICKS: Final = 3


def best_of(totals: dict[Card, float], seed: int, view: SeatView) -> Card:
    """The card of ``totals`` with the highest total; ties broken by the seed and the
    view (:func:`~.view.decision_rng`)."""
    top = max(totals.values())
    ties = sorted(c for c, v in totals.items() if v == top)
    return ties[0] if len(ties) == 1 else decision_rng(seed, view, "tie").choice(ties)


@dataclass(frozen=True, slots=True)
class PimcPlayer(FallbackDecisions):
    """Plays the card with the best rating over ``samples`` sampled deals, each solved
    within ``nodes`` nodes (see the module)."""

    seed: int = 0
    samples: int | None = None
    """The deals sampled a card (None, the default: :data:`SAMPLES` for the number of
    players)."""
    nodes: int = DEFAULT_NODES
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    test_share: int = TEST_SHARE
    """The per cent of a sample's nodes spent on the yes/no tests at the threshold, the
    rest on the values (:func:`~.solving.card_values`)."""
    fallback_tricks: int = 0
    fallback: Player | None = None
    """The bids', call's, écart's and declarations' player (None: the ``heuristic`` bot
    with this bot's seed)."""
    auction: int | None = None
    """Read the auction (:mod:`.inference`): the draws a sample at most to find a deal
    whose hands fit the words each seat said, read as the point count bids (0: the
    auction is not read; None, the default: :data:`AUCTION` for the number of
    players)."""
    habits: int | None = None
    """Read the play (:mod:`.inference`): the deals drawn a card, of which the ``samples``
    that the ``heuristic`` bot's habits explain best are solved (0: the ``samples`` drawn
    are solved; else at least ``samples``; None, the default: :data:`HABITS` times the
    samples for the number of players, 40 of the 10 at four). Where ``samples`` is left
    to its default, which depends on the number of players, a ``habits`` smaller than the
    samples draws the samples and solves them all: the play is then read for nothing."""
    bid_shift: int | None = None
    """Added to a ``heuristic`` fallback's bidding thresholds: -5 bids with 5 points
    less (None, the default: :data:`BID_SHIFT` for the number of players)."""
    score: int = 0
    """1: rate the cards by the deal's score (petit au bout, the poignées declared and
    the chelem with the contract: :func:`~.solving.card_values`'s ``"score"``); 0, the
    default: by the margin and the contract."""
    sees_all: bool = False

    def __post_init__(self) -> None:
        self._check_bid_shift(self.bid_shift)
        self._set_fallback()
        if self.score not in (0, 1):
            raise ValueError(f"score is 0 (the margin) or 1 (the deal's score), not {self.score}")
        if (self.samples is not None and self.samples < 1) or self.nodes < 1:
            raise ValueError("pimc needs at least one sample and one node")
        if not 0 <= self.fallback_tricks <= MAX_FALLBACK_TRICKS:
            raise ValueError(f"fallback_tricks is 0 to {MAX_FALLBACK_TRICKS}, not"
                             f" {self.fallback_tricks}")
        if self.exact_tricks < 0:
            raise ValueError("exact_tricks is 0 or more")
        if not 0 <= self.test_share <= 100:
            raise ValueError(f"test_share is 0 to 100 (per cent), not {self.test_share}")
        if self.auction is not None and self.auction < 0:
            raise ValueError("auction is 0 (the auction not read) or more")
        if self.habits is not None and (self.habits < 0 or (
                self.habits and self.samples is not None and self.habits < self.samples)):
            raise ValueError(f"habits is 0 (the play not read) or at least samples"
                             f" ({self.samples}), not {self.habits}")

    @property
    def name(self) -> str:
        """``pimc(samples=S,nodes=N)``, and each other setting that is not its default
        (``samples``, ``auction``, ``habits`` and ``bid_shift`` when given: their
        defaults depend on the number of players, which :meth:`name_at` writes out).

        >>> PimcPlayer().name
        'pimc(nodes=20000)'
        >>> PimcPlayer(samples=10, auction=30, fallback_tricks=3).name
        'pimc(samples=10,nodes=20000,fallback_tricks=3,auction=30)'
        >>> PimcPlayer(auction=0, habits=0).name
        'pimc(nodes=20000,auction=0,habits=0)'
        """
        return self._named(self.samples, self.auction, self.habits, self.bid_shift)

    def _named(self, samples: int | None, auction: int | None, habits: int | None,
               bid_shift: int | None) -> str:
        """The name with these ``samples``, ``auction``, ``habits`` and ``bid_shift``
        (None: left out; not checked against the other settings, as a bot made with
        them would be)."""
        more = "".join(f",{key}={value}" for key, value, default in (
            ("exact_tricks", self.exact_tricks, DEFAULT_EXACT_TRICKS),
            ("test_share", self.test_share, TEST_SHARE),
            ("fallback_tricks", self.fallback_tricks, 0),
            ("auction", auction, None), ("habits", habits, None),
            ("bid_shift", bid_shift, None), ("score", self.score, 0)) if value != default)
        drawn = "" if samples is None else f"samples={samples},"
        return f"pimc({drawn}nodes={self.nodes}{more})"

    def samples_at(self, players: int) -> int:
        """``samples``, or :data:`SAMPLES` at ``players`` players when it is None.

        >>> [PimcPlayer().samples_at(n) for n in (3, 4, 5)]
        [30, 10, 10]
        >>> PimcPlayer(samples=4).samples_at(3)
        4
        """
        return SAMPLES.get(players, DEFAULT_SAMPLES) if self.samples is None else self.samples

    def auction_at(self, players: int) -> int:
        """``auction``, or :data:`AUCTION` at ``players`` players when it is None.

        >>> [PimcPlayer().auction_at(n) for n in (3, 4, 5)]
        [0, 30, 0]
        >>> PimcPlayer(auction=0).auction_at(4)
        0
        """
        return AUCTION.get(players, 0) if self.auction is None else self.auction

    def habits_at(self, players: int) -> int:
        """``habits``, or when it is None :data:`HABITS` at ``players`` players times the
        samples drawn there.

        >>> [PimcPlayer().habits_at(n) for n in (3, 4, 5)]
        [0, 40, 0]
        >>> PimcPlayer(samples=20).habits_at(4), PimcPlayer(habits=0).habits_at(4)
        (80, 0)
        """
        if self.habits is not None:
            return self.habits
        return HABITS.get(players, 0) * self.samples_at(players)

    def bid_shift_at(self, players: int) -> int:
        """``bid_shift``, or :data:`BID_SHIFT` at ``players`` players when it is None.

        >>> [PimcPlayer().bid_shift_at(n) for n in (3, 4, 5)]
        [0, -3, 0]
        >>> PimcPlayer(bid_shift=-5).bid_shift_at(3)
        -5
        """
        return BID_SHIFT.get(players, 0) if self.bid_shift is None else self.bid_shift

    def name_at(self, players: int) -> str:
        """The name, the samples it draws, how it reads the auction and the play and the
        shift it bids with at ``players`` players written out (each none when 0): what a
        benchmark's plan records, so that a changed default shows.

        >>> PimcPlayer().name_at(4)
        'pimc(samples=10,nodes=20000,auction=30,habits=40,bid_shift=-3)'
        >>> PimcPlayer().name_at(3), PimcPlayer().name_at(5)
        ('pimc(samples=30,nodes=20000)', 'pimc(samples=10,nodes=20000)')
        >>> PimcPlayer(auction=0, habits=0, bid_shift=0).name_at(4)
        'pimc(samples=10,nodes=20000)'
        >>> PimcPlayer(auction=30, habits=20).name_at(3)
        'pimc(samples=30,nodes=20000,auction=30,habits=20)'
        """
        return self._named(self.samples_at(players), self.auction_at(players) or None,
                           self.habits_at(players) or None,
                           self.shift_applied(players) or None)

    def play(self, view: SeatView, legal: CardSet) -> Card:
        cards = sorted(legal)
        if len(cards) == 1:
            return cards[0]
        if len(view.tricks) < self.fallback_tricks:
            return self._fallback.play(view, legal)
        return best_of(self.totals(view, legal), self.seed, view)

    def totals(self, view: SeatView, legal: CardSet) -> dict[Card, float]:
        """Each legal card's rating summed over the samples."""
        rng = decision_rng(self.seed, view, "sample")
        cons = constraints(view)
        auction = self.auction_at(view.players)
        habits = self.habits_at(view.players)
        ranges = auction_ranges(view) if auction else None
        totals = dict.fromkeys(sorted(legal), 0.0)
        samples = self.samples_at(view.players)
        deals = [sample_deal(view, rng, cons=cons) if ranges is None else
                 sample_fitting(view, rng, tries=auction, cons=cons, ranges=ranges)
                 for _ in range(max(habits, samples))]
        if habits:
            deals = most_likely(view, deals, samples)
        for deal in deals:
            pos = position_of(view, deal.hands, deal.aside)
            for r in card_values(pos, nodes=self.nodes, exact_tricks=self.exact_tricks,
                                 test_share=self.test_share,
                                 objective="score" if self.score else "margin"):
                if r.card in totals:
                    totals[r.card] += r.rating
        return totals
