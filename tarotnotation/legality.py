"""Which cards a player may play (RULES.md §6), with the reason a card is illegal.

Pure functions over bitsets: no records, no pydantic. The replay engine calls
:func:`constraint` for every card, and the legal-move API is the same function, so
validation and move generation can never disagree.

Example 6 of RULES.md §11: Hearts led, the taker trumped with the 18; a defender with no
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

from .cards import (
    EXCUSE_BIT,
    KINGS_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    CardSet,
    Suit,
    card_suit,
)
from .diagnostics import Code

__all__ = [
    "Constraint",
    "Illegal",
    "constraint",
    "constraint_of",
    "ecart_plain",
    "legal_cards",
    "legal_mask",
    "rule",
    "why_illegal",
    "winning_index",
]

_SUIT_NAMES = ("Spades", "Hearts", "Diamonds", "Clubs")


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
        return Illegal(self.code, f"{self.reason}: expected {_describe(self.legal)}")


def _describe(bits: int) -> str:
    cards = [c.code for c in CardSet(bits & ~EXCUSE_BIT)]
    text = " or ".join(cards) if len(cards) <= 2 else f"{', '.join(cards[:-1])} or {cards[-1]}"
    if cards and (cards[0].startswith("T") and all(c.startswith("T") for c in cards)):
        text = f"a trump ({text})"
    if bits & EXCUSE_BIT:
        return f"{text} or the Excuse" if cards else "the Excuse"
    return text


# What binds the player: the kinds of :func:`rule`'s answer.
FREE, CALLED_SUIT, FOLLOW, OVERTRUMP, TRUMP, OVERTRUMP_LED, TRUMP_LED = range(7)


def rule(hand: int, trick: Sequence[int], called: int | None = None
         ) -> tuple[int, int, int, int]:
    """The rule of §6 that binds the player to move, as plain ints (the fast path).

    Returns ``(legal, kind, led, top)``: the bitset of legal cards, which rule restricts
    them (``FREE``, ``CALLED_SUIT``, ``FOLLOW``, ``OVERTRUMP``, ``TRUMP``,
    ``OVERTRUMP_LED``, ``TRUMP_LED``), the suit led (-1 if none yet) and the highest trump
    in the trick (0 if none). :func:`constraint` turns it into words.

    ``trick`` holds the cards already played to the trick, from the leader's. Pass
    ``called`` (the called card) only for the lead of the first trick at five players
    under ``five_player_first_lead = no_called_suit``: the called suit may not be led,
    except the called card itself (if the hand holds nothing else, not even the Excuse,
    any card is allowed).
    """
    excuse = hand & EXCUSE_BIT
    led: int = -1
    top = 0
    for c in trick:
        if c == 77:
            continue
        if led < 0:
            led = card_suit(c)
        if 56 <= c <= 76 and c - 55 > top:
            top = c - 55
    if led < 0:
        # Leading, or following a led Excuse: free, except the five-player first lead.
        # Only a card of a suit calls a suit: a trump or the Excuse called (K103, a fault
        # of the record) binds no lead.
        if called is not None and not trick and (suit := card_suit(called)) < Suit.TRUMPS:
            allowed = hand & ~(SUIT_MASKS[suit] & ~(1 << called))
            # Any other card, the Excuse included, avoids the called suit; a hand of
            # nothing but that suit (without the called card) may lead any of it.
            if allowed != hand and allowed:
                return allowed, CALLED_SUIT, suit, 0
        return hand, FREE, led, top
    trumps = hand & TRUMP_MASK
    if led != Suit.TRUMPS:
        same = hand & SUIT_MASKS[led]
        if same:
            return same | excuse, FOLLOW, led, top
        if not trumps:
            return hand, FREE, led, top
        higher = trumps & TRUMPS_ABOVE[top]
        if top and higher:
            return higher | excuse, OVERTRUMP, led, top
        return trumps | excuse, TRUMP, led, top
    if not trumps:
        return hand, FREE, led, top
    higher = trumps & TRUMPS_ABOVE[top]
    if higher:
        return higher | excuse, OVERTRUMP_LED, led, top
    return trumps | excuse, TRUMP_LED, led, top


def constraint(hand: int, trick: Sequence[int], called: int | None = None) -> Constraint:
    """The legal cards for a player holding ``hand`` (a bitset) after ``trick``'s cards,
    and the rule that restricts them, in words (see :func:`rule`)."""
    return constraint_of(*rule(hand, trick, called))


def constraint_of(legal: int, kind: int, led: int, top: int) -> Constraint:
    """A :class:`Constraint` from :func:`rule`'s answer."""
    if kind == FREE:
        return Constraint(legal, None, "free")
    if kind == CALLED_SUIT:
        return Constraint(legal, Code.CALLED_SUIT_LED, f"the called suit ({_SUIT_NAMES[led]})"
                          " may not be led to the first trick")
    if kind == FOLLOW:
        return Constraint(legal, Code.MUST_FOLLOW_SUIT,
                          f"{_SUIT_NAMES[led]} led and the player holds {_SUIT_NAMES[led]}")
    if kind == OVERTRUMP:
        return Constraint(legal, Code.MUST_OVERTRUMP,
                          f"cannot follow {_SUIT_NAMES[led]}, the trick holds trump"
                          f" {top} and the player holds a higher trump")
    if kind == TRUMP:
        return Constraint(legal, Code.MUST_TRUMP,
                          f"cannot follow {_SUIT_NAMES[led]} and holds a trump")
    if kind == OVERTRUMP_LED:
        return Constraint(legal, Code.MUST_OVERTRUMP,
                          f"trumps led, the trick holds trump {top}"
                          " and the player holds a higher trump")
    return Constraint(legal, Code.MUST_TRUMP, "trumps led and the player holds trumps")


def ecart_plain(pool: int) -> int:
    """The cards of ``pool`` (hand and chien) that may always go to the écart (§4): no
    trump, no King, not the Excuse. Trumps may go only when these are too few.

    >>> print(CardSet(ecart_plain(CardSet.parse("KH 7H T5 EX 2C").bits)))
    7H 2C
    """
    return pool & ~TRUMP_MASK & ~KINGS_MASK & ~EXCUSE_BIT


def legal_mask(hand: int, trick: Sequence[int], called: int | None = None) -> int:
    """Bitset of the legal cards (see :func:`rule`)."""
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


def winning_index(trick: Sequence[int]) -> int | None:
    """Index of the card that wins a trick (highest trump, else highest of the suit led).

    The Excuse never wins here (the chelem case of RULES.md §7 is the replay's concern);
    a trick holding only the Excuse has no winner yet.

    >>> winning_index([Card.H5, Card.HK, Card.T2, Card.EXCUSE])
    2
    >>> winning_index([Card.EXCUSE, Card.D3, Card.DQ, Card.S1])
    2
    """
    best = -1
    best_key = -1
    led = -1
    for i, c in enumerate(trick):
        if c == 77:
            continue
        suit = 4 if c >= 56 else c // 14  # Suit.TRUMPS is 4
        if led < 0:
            led = suit
        if suit == 4:
            key = 100 + c
        elif suit == led:
            key = c
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best if best >= 0 else None
