"""Which cards a player may play (docs/rules.md §6), and why a card is illegal, in words.

The rule itself is the kernel's (:func:`tarotnotation.kernel.rule`); this module puts
its answer into words: a :class:`Constraint` says which cards are legal and which rule
restricts them, and :meth:`Constraint.explain` what was expected instead of a card. The
replay words every illegal card with it, and the legal-move API answers with it, so
validation and move generation can never disagree.

Example 6 of docs/rules.md §11: Hearts led, the taker trumped with the 18; a defender with no
Hearts holding trumps 4 and 9 and some Clubs must play the 4 or the 9 (or the Excuse).

>>> hand = CardSet.of(Card.T4, Card.T9, Card.C3, Card.CK, Card.EXCUSE)
>>> trick = [Card.H5, Card.T18]
>>> print(legal_cards(hand, trick))
T4 T9 EX
>>> bad = why_illegal(Card.C3, hand, trick)
>>> bad.code
<Code.MUST_TRUMP: 'P106'>
>>> print(bad.message)
cannot follow Hearts and holds a trump: expected a trump (T4 or T9) or the Excuse
>>> why_illegal(Card.T9, hand, trick) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import EXCUSE_BIT, Card, CardSet
from .diagnostics import Code
from .i18n import Msg, or_list
from .kernel import (
    CALLED_SUIT,
    FOLLOW,
    FREE,
    OVERTRUMP,
    OVERTRUMP_LED,
    TRUMP,
    rule,
)

__all__ = [
    "Constraint",
    "Illegal",
    "constraint",
    "constraint_of",
    "legal_cards",
    "legal_mask",
    "why_illegal",
]

_SUIT_NAMES = (Msg("Spades"), Msg("Hearts"), Msg("Diamonds"), Msg("Clubs"))


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why a card may not be played: a diagnostic code and a message saying what was expected."""

    code: Code
    message: str


@dataclass(frozen=True, slots=True)
class Constraint:
    """The rule that binds the player to move: the legal cards and, if it restricts, why."""

    legal: int
    """Bitset of the legal cards (always includes the Excuse when held)."""
    code: Code | None
    """None when every card in hand is legal."""
    reason: str
    """The situation, e.g. ``cannot follow Hearts and holds a trump``."""

    def explain(self, card: int) -> Illegal | None:
        """None if ``card`` is legal here, else the code and what was expected."""
        if self.legal >> card & 1 or self.code is None:
            return None
        return Illegal(self.code, Msg("{reason}: expected {cards}", reason=self.reason,
                                      cards=_describe(self.legal)))


def _describe(bits: int) -> str:
    cards = [c.code for c in CardSet(bits & ~EXCUSE_BIT)]
    text = or_list(cards)
    if cards and (cards[0].startswith("T") and all(c.startswith("T") for c in cards)):
        text = Msg("a trump ({cards})", cards=text)
    if bits & EXCUSE_BIT:
        return Msg("{cards} or the Excuse", cards=text) if cards else Msg("the Excuse")
    return text


def constraint(hand: int, trick: Sequence[int], called: int | None = None) -> Constraint:
    """The legal cards for a player holding ``hand`` (a bitset) after ``trick``'s cards,
    and the rule that restricts them, in words (see :func:`tarotnotation.kernel.rule`)."""
    return constraint_of(*rule(hand, trick, called))


def constraint_of(legal: int, kind: int, led: int, top: int) -> Constraint:
    """A :class:`Constraint` from :func:`tarotnotation.kernel.rule`'s answer."""
    if kind == FREE:
        return Constraint(legal, None, Msg("free"))
    if kind == CALLED_SUIT:
        return Constraint(legal, Code.CALLED_SUIT_LED,
                          Msg("the called suit ({suit}) may not be led to the first trick",
                              suit=_SUIT_NAMES[led]))
    if kind == FOLLOW:
        return Constraint(legal, Code.MUST_FOLLOW_SUIT,
                          Msg("{suit} led and the player holds {suit}", suit=_SUIT_NAMES[led]))
    if kind == OVERTRUMP:
        return Constraint(legal, Code.MUST_OVERTRUMP,
                          Msg("cannot follow {suit}, the trick holds trump {top} and the player"
                              " holds a higher trump", suit=_SUIT_NAMES[led], top=top))
    if kind == TRUMP:
        return Constraint(legal, Code.MUST_TRUMP,
                          Msg("cannot follow {suit} and holds a trump", suit=_SUIT_NAMES[led]))
    if kind == OVERTRUMP_LED:
        return Constraint(legal, Code.MUST_OVERTRUMP,
                          Msg("trumps led, the trick holds trump {top} and the player holds a"
                              " higher trump", top=top))
    return Constraint(legal, Code.MUST_TRUMP, Msg("trumps led and the player holds trumps"))


def legal_mask(hand: int, trick: Sequence[int], called: int | None = None) -> int:
    """Bitset of the legal cards (see :func:`tarotnotation.kernel.rule`)."""
    return rule(hand, trick, called)[0]


def legal_cards(hand: CardSet, trick: Sequence[Card], called: Card | None = None) -> CardSet:
    """The legal cards as a :class:`CardSet` (see :func:`constraint`)."""
    return CardSet(constraint(hand.bits, trick, called).legal)


def why_illegal(
    card: Card, hand: CardSet, trick: Sequence[Card], called: Card | None = None
) -> Illegal | None:
    """None if ``card`` may be played from ``hand`` after ``trick``, else why not.

    A card not in the hand is not judged here (the replay reports it separately).
    """
    return constraint(hand.bits, trick, called).explain(card)

