"""The ``random`` bot: a uniformly random legal answer to every question (seeded).

Each answer is drawn from the seed and the seat's view (:func:`~.view.decision_rng`), so
the bot is the same wherever the view is: the floor the other bots are measured from.

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import Table, play_deal
>>> t = Table(Game.deal(5, seed=4))
>>> rec = play_deal(t, {s: RandomPlayer(seed=1) for s in t.game.seats})
>>> t.game.result().ok
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import BOUTS_MASK, TRUMP_MASK, Card, CardSet
from ..kernel import ecart_plain
from ..records import Misere, Poignee
from ..rules import Contract
from .table import poignee_sizes
from .view import SeatView, decision_rng

__all__ = ["RandomPlayer"]


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """A uniformly random legal answer to each question, drawn from ``seed`` and the view.

    The auction is the one exception to "uniform": a bid is drawn half the time and a pass
    the other half (else three players in four would bid and almost every deal would be a
    Garde Contre)."""

    seed: int = 0
    name: str = "random"
    sees_all: bool = False

    def bid(self, view: SeatView, legal: tuple[Contract | None, ...]) -> Contract | None:
        rng = decision_rng(self.seed, view, "bid")
        bids = [c for c in legal if c is not None]
        if not bids or rng.random() < 0.5:
            return None
        return rng.choice(bids)

    def call(self, view: SeatView, legal: tuple[Card, ...]) -> Card:
        return decision_rng(self.seed, view, "call").choice(legal)

    def ecart(self, view: SeatView, pool: CardSet, size: int) -> CardSet:
        rng = decision_rng(self.seed, view, "ecart")
        plain = sorted(CardSet(ecart_plain(pool.bits)))
        if len(plain) >= size:
            return CardSet.from_cards(rng.sample(plain, size))
        trumps = sorted(CardSet(pool.bits & TRUMP_MASK & ~BOUTS_MASK))
        return CardSet.from_cards([*plain, *rng.sample(trumps, size - len(plain))])

    def chelem(self, view: SeatView) -> bool:
        return False

    def declare(self, view: SeatView) -> tuple[Poignee | Misere, ...]:
        rng = decision_rng(self.seed, view, "declare")
        sizes = poignee_sizes(view.hand, view.players)
        choice = rng.choice((0, *sizes))
        if not choice:
            return ()
        trumps = sorted(view.hand.trumps())
        shown = (CardSet.from_cards(rng.sample(trumps, choice)) if len(trumps) >= choice
                 else view.hand.trumps().with_card(Card.EXCUSE))
        return (Poignee(seat=view.seat, cards=shown),)

    def play(self, view: SeatView, legal: CardSet) -> Card:
        return decision_rng(self.seed, view, "play").choice(sorted(legal))
