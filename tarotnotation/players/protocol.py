"""The protocol a virtual player implements: :class:`Player`.

A player is asked one question at a time, each with the seat's :class:`~.view.SeatView`
(what it may know) and what it may answer:

========================  ===============================================================
``bid(view, legal)``      a contract from ``legal`` (None is a pass)
``call(view, legal)``     at five players, the taker calls a card from ``legal``
``ecart(view, pool, n)``  the taker puts ``n`` cards of ``pool`` (hand and chien) aside
``chelem(view)``          the taker, after the écart: announce a chelem? (True or False)
``declare(view)``         before its first card: the poignées and misères it declares
``play(view, legal)``     a card from ``legal`` (the kernel's legal set)
========================  ===============================================================

An answer the rules forbid is refused by the table (:class:`~.table.Table`), with the
rule's code and words, as ``tarot validate`` would give them: a player cannot cheat.
A player that sees every hand (the oracle) says so with ``sees_all = True``; the table
then fills the view's ``open_hands``. A player is deterministic given its seed and the
views it is shown (bots draw their random choices from
:func:`~.view.decision_rng`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..cards import Card, CardSet
from ..records import Misere, Poignee
from ..rules import Contract
from .view import SeatView

__all__ = ["Player"]


@runtime_checkable
class Player(Protocol):
    """A virtual player: one method per question of the deal (see the module's table)."""

    @property
    def name(self) -> str:
        """The player's kind and settings, as ``tarot match`` prints them (``'heuristic'``)."""
        ...

    @property
    def sees_all(self) -> bool:
        """True for a player shown every hand (the oracle); False for one that plays fair."""
        ...

    def bid(self, view: SeatView, legal: tuple[Contract | None, ...]) -> Contract | None:
        """The bid: one of ``legal`` (None: pass)."""
        ...

    def call(self, view: SeatView, legal: tuple[Card, ...]) -> Card:
        """At five players, the taker's call: one of ``legal``."""
        ...

    def ecart(self, view: SeatView, pool: CardSet, size: int) -> CardSet:
        """The taker's écart: ``size`` cards of ``pool`` (no King, no bout; a trump only
        when there are not enough other cards)."""
        ...

    def chelem(self, view: SeatView) -> bool:
        """The taker, once the écart is made: True to announce a chelem (he then leads)."""
        ...

    def declare(self, view: SeatView) -> tuple[Poignee | Misere, ...]:
        """Before its first card: the poignée (and misère, when the rules have it) it
        declares; () for none."""
        ...

    def play(self, view: SeatView, legal: CardSet) -> Card:
        """The card to play: one of ``legal``."""
        ...
