"""The rules kernel's rules of play (docs/rules.md §6), over plain ints:

- :func:`step` and :func:`trick_state`: what a trick asks of the next player (the suit
  led and the highest trump so far);
- :func:`legal_in`, :func:`first_lead`, :func:`rule_in` and :func:`rule`: the legal
  cards of a hand, and which rule restricts them;
- :func:`winning_card` and :func:`winner_index`: the card that wins a trick;
- :func:`transitions`: the same rule as a table, worked out from :func:`legal_in` and
  :func:`step`, for the callers that judge many cards (the replay, the quick check).

A part of the kernel: :mod:`tarotnotation.kernel` gives them, and the other modules call
them there.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from .cards import (
    EXCUSE_BIT,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
)

__all__ = [
    "CALLED_SUIT",
    "CAN_WIN",
    "FOLLOW",
    "FREE",
    "NO_SUIT",
    "OVERTRUMP",
    "OVERTRUMP_LED",
    "SUIT_OF",
    "TRUMP",
    "TRUMPS_LED",
    "TRUMP_LED",
    "Transitions",
    "first_lead",
    "led_card",
    "led_top",
    "legal_in",
    "rule",
    "rule_in",
    "state_of",
    "step",
    "suit_of",
    "transitions",
    "trick_state",
    "winner_index",
    "winning_card",
]

#: ``led`` before any card sets the suit (nothing played, or only the Excuse).
NO_SUIT: Final = -1
#: ``led`` when trumps were led.
TRUMPS_LED: Final = 4

#: The rule that restricts the player to move (the ``kind`` of :func:`legal_in`).
FREE, CALLED_SUIT, FOLLOW, OVERTRUMP, TRUMP, OVERTRUMP_LED, TRUMP_LED = range(7)

_EXCUSE: Final = int(Card.EXCUSE)
#: ``SUIT_OF[card]``: 0-3 the plain suits, 4 the trumps, 5 the Excuse.
SUIT_OF: Final[tuple[int, ...]] = (*(c // 14 for c in range(56)), *(4,) * 21, 5)
_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(78))
#: ``CAN_WIN[led]``: the cards that can win a trick whose suit led is ``led`` (its suit
#: and the trumps; any trump, when trumps are led).
CAN_WIN: Final[tuple[int, ...]] = (*(SUIT_MASKS[s] | TRUMP_MASK for s in range(4)), TRUMP_MASK)


def suit_of(card: int) -> int:
    """The suit of a card: 0-3 Spades, Hearts, Diamonds, Clubs; 4 trumps; 5 the Excuse.

    >>> suit_of(Card.HK), suit_of(Card.T1), suit_of(Card.EXCUSE)
    (1, 4, 5)
    """
    return SUIT_OF[card]


def step(led: int, top: int, card: int) -> tuple[int, int]:
    """A trick's state after ``card``: the suit led and the rank of its highest trump.

    ``led`` is :data:`NO_SUIT` until a card other than the Excuse is played (the Excuse
    sets no suit: the card after it does, §6), then that card's suit (4 for trumps);
    ``top`` is the highest trump's number so far, 0 for none.

    >>> step(NO_SUIT, 0, Card.EXCUSE)
    (-1, 0)
    >>> step(NO_SUIT, 0, Card.H5)
    (1, 0)
    >>> step(1, 0, Card.T18)
    (1, 18)
    """
    if card == _EXCUSE:
        return led, top
    suit = SUIT_OF[card]
    if led == NO_SUIT:
        led = suit
    if suit == 4 and card - 55 > top:
        top = card - 55
    return led, top


def trick_state(trick: Sequence[int]) -> tuple[int, int]:
    """``(led, top)`` after the cards of ``trick``, from the leader's (see :func:`step`).

    >>> trick_state([Card.EXCUSE, Card.D3, Card.T7])
    (2, 7)
    """
    led, top = NO_SUIT, 0
    for card in trick:
        led, top = step(led, top, card)
    return led, top


def legal_in(hand: int, led: int, top: int) -> tuple[int, int]:
    """The legal cards of ``hand`` in a trick whose state is ``(led, top)``, and the rule
    that restricts them (§6): follow the suit led; unable to, trump; when the trick holds
    a trump, overtrump if possible (even over a partner), else any trump; on a trump
    lead, overtrump if possible, else any trump; with none of these, any card. The
    Excuse may always be played. Returns ``(legal, kind)``: ``kind`` is :data:`FREE`
    when nothing restricts the player.

    >>> from tarotnotation.cards import CardSet
    >>> hand = CardSet.parse("2H T3 T9 EX").bits
    >>> str(CardSet(legal_in(hand, 1, 5)[0]))           # Hearts led: follow
    '2H EX'
    >>> str(CardSet(legal_in(hand, 4, 5)[0]))           # trumps led, 5 the highest
    'T9 EX'
    >>> legal_in(hand, NO_SUIT, 0) == (hand, FREE)      # leading
    True
    """
    if led == NO_SUIT:
        return hand, FREE
    excuse = hand & EXCUSE_BIT
    trumps = hand & TRUMP_MASK
    if led != TRUMPS_LED:
        same = hand & SUIT_MASKS[led]
        if same:
            return same | excuse, FOLLOW
        if not trumps:
            return hand, FREE
        higher = trumps & TRUMPS_ABOVE[top]
        if top and higher:
            return higher | excuse, OVERTRUMP
        return trumps | excuse, TRUMP
    if not trumps:
        return hand, FREE
    higher = trumps & TRUMPS_ABOVE[top]
    if higher:
        return higher | excuse, OVERTRUMP_LED
    return trumps | excuse, TRUMP_LED


def first_lead(hand: int, called: int) -> tuple[int, int]:
    """The legal leads of the first trick at five players under
    ``five_player_first_lead = no_called_suit`` (§6): not the called suit, except the
    called card itself; a hand holding nothing else (not even the Excuse) may lead any
    card of it.

    >>> from tarotnotation.cards import CardSet
    >>> hand = CardSet.parse("3H KH 4C").bits
    >>> str(CardSet(first_lead(hand, Card.HK)[0]))
    'KH 4C'
    >>> str(CardSet(first_lead(hand, Card.HQ)[0]))
    '4C'

    Only a card of a suit calls a suit: a trump or the Excuse called (K103) binds no lead.

    >>> first_lead(hand, Card.T21) == (hand, FREE)
    True
    """
    suit = SUIT_OF[called]
    if suit >= 4:
        return hand, FREE
    allowed = hand & ~(SUIT_MASKS[suit] & ~(1 << called))
    if allowed != hand and allowed:
        return allowed, CALLED_SUIT
    return hand, FREE


def rule(hand: int, trick: Sequence[int], called: int | None = None
         ) -> tuple[int, int, int, int]:
    """The rule that binds the player holding ``hand`` after ``trick``'s cards (from the
    leader's), as ``(legal, kind, led, top)``: see :func:`rule_in`. Pass ``called`` only
    for the first trick at five players under ``no_called_suit`` (it binds the lead
    only).

    >>> from tarotnotation.cards import CardSet
    >>> legal, kind, led, top = rule(CardSet.parse("T4 T9 3C KC EX").bits, [Card.H5, Card.T18])
    >>> str(CardSet(legal)), kind == TRUMP, led, top
    ('T4 T9 EX', True, 1, 18)
    """
    led, top = trick_state(trick)
    return rule_in(hand, led, top, None if trick else called)


def rule_in(hand: int, led: int, top: int, called: int | None = None
            ) -> tuple[int, int, int, int]:
    """The rule that binds the player holding ``hand`` in a trick whose state is
    ``(led, top)`` (:func:`step`), as ``(legal, kind, led, top)``: the legal cards, the
    rule that restricts them (:func:`legal_in`), the suit led and the highest trump.
    ``called``, given for the first lead at five players, applies :func:`first_lead`;
    ``led`` is then the called suit when it binds.

    >>> from tarotnotation.cards import CardSet
    >>> legal, kind, led, top = rule_in(CardSet.parse("3H KH 4C").bits, NO_SUIT, 0, Card.HQ)
    >>> str(CardSet(legal)), kind == CALLED_SUIT, led
    ('4C', True, 1)
    """
    if called is not None:
        legal, kind = first_lead(hand, called)
        if kind == CALLED_SUIT:
            return legal, kind, SUIT_OF[called], 0
    legal, kind = legal_in(hand, led, top)
    return legal, kind, led, top


def winning_card(bits: int, led: int) -> int:
    r"""The card that wins a trick of the cards ``bits`` whose suit led is ``led``: the
    highest trump, else the highest card of the suit led (§6). Cards are numbered so that
    the trumps come above the suits and each suit runs from its 1 to its King: the
    winner is the highest-numbered card of :data:`CAN_WIN`\ ``[led]``.

    >>> from tarotnotation.cards import CardSet
    >>> Card(winning_card(CardSet.parse("5H KH 2S QH").bits, 1))
    <Card.HK: 27>
    """
    return (bits & CAN_WIN[led]).bit_length() - 1


def led_card(trick: Sequence[int]) -> int:
    """The card that sets the suit of a trick (§6): the first, or after the Excuse the
    next one (the Excuse when it is alone).

    >>> Card(led_card([Card.EXCUSE, Card.D3, Card.S1])), Card(led_card([Card.D3, Card.EXCUSE]))
    (<Card.D3: 30>, <Card.D3: 30>)
    """
    lead = trick[0]
    if lead == _EXCUSE:  # the Excuse sets no suit: the next card does
        lead = next((c for c in trick if c != _EXCUSE), _EXCUSE)
    return lead


def winner_index(trick: Sequence[int]) -> int | None:
    """Index of the card that wins a trick (:func:`winning_card`). The Excuse never wins
    here (its chelem case is :func:`excuse_wins_last_trick`); a trick of only the Excuse
    has no winner.

    >>> winner_index([Card.H5, Card.HK, Card.T2, Card.EXCUSE])
    2
    >>> winner_index([Card.EXCUSE, Card.D3, Card.DQ, Card.S1])
    2
    >>> winner_index([Card.EXCUSE]) is None
    True
    """
    lead = led_card(trick)
    if lead == _EXCUSE:
        return None
    bits = 0
    for card in trick:
        bits |= _BIT[card]
    led = SUIT_OF[lead]
    return trick.index(winning_card(bits, led))


class Transitions(NamedTuple):
    """The play rule of §6 as a table, worked out from :func:`legal_in` and :func:`step`
    (:func:`transitions`), for callers that judge many cards: the replay and the quick
    check of archives. A trick's state is the int ``(led * 22 + top) * 78`` (``led`` 0-4,
    or 5 for :data:`NO_SUIT`; ``top`` 0-21): :func:`state_of`.
    """

    table: tuple[tuple[int, int], ...]
    """``table[state + card]``: ``(forbid, next state)``: ``card`` is illegal exactly when
    the hand holds one of ``forbid``; the trick's state after it."""
    after_lead: tuple[int, ...]
    """``after_lead[card]``: the state after the card that leads."""
    can_be_illegal: tuple[int, ...]
    """``can_be_illegal[led]``: the cards that can be illegal in a trick led in ``led``
    (a trick of none of them is legal as a whole: every card followed)."""


def state_of(led: int, top: int) -> int:
    """The :class:`Transitions` state of ``(led, top)``.

    >>> state_of(NO_SUIT, 0) == 5 * 22 * 78, state_of(1, 0) == 22 * 78
    (True, True)
    """
    return ((5 if led == NO_SUIT else led) * 22 + top) * 78


def led_top(state: int) -> tuple[int, int]:
    """The ``(led, top)`` of a :class:`Transitions` state (:func:`state_of` undone).

    >>> led_top(state_of(4, 17)), led_top(state_of(NO_SUIT, 0))
    ((4, 17), (-1, 0))
    """
    led, top = divmod(state // 78, 22)
    return (NO_SUIT if led == 5 else led), top


@lru_cache(maxsize=1)
def transitions() -> Transitions:
    """The :class:`Transitions` table, worked out once from :func:`legal_in` and
    :func:`step` (not written again): a card is illegal when the hand holds a card the
    rule prefers, and one such card is enough to make it so (§6 asks for a card of a
    kind the hand holds: the suit led, a trump, a higher trump), so the forbidding cards
    are found by asking :func:`legal_in` about hands of the card and one other card, one
    of each group the rule tells apart (each suit, the trumps above the highest one
    played, the other trumps, the Excuse). ``tests/kernel/test_kernel.py`` holds the table to
    :func:`legal_in` on random hands.

    >>> from tarotnotation.cards import SUIT_MASKS, TRUMPS_ABOVE
    >>> table = transitions().table
    >>> forbid, state = table[state_of(NO_SUIT, 0) + Card.HK]   # the King of Hearts leads
    >>> forbid, led_top(state)                                  # Hearts led, no trump yet
    (0, (1, 0))
    >>> forbid, state = table[state + Card.T5]                  # trumped: no Heart in hand
    >>> forbid == SUIT_MASKS[1], led_top(state)
    (True, (1, 5))
    >>> forbid, _ = table[state + Card.T3]                      # undertrumped: no Heart,
    >>> forbid == SUIT_MASKS[1] | TRUMPS_ABOVE[5]               # no trump above the 5
    True
    """
    out = []
    known: dict[tuple[int, int, int, bool], int] = {}
    for state_led in range(6):
        led = NO_SUIT if state_led == 5 else state_led
        for top in range(22):
            groups = (*SUIT_MASKS[:4], TRUMPS_ABOVE[top], TRUMP_MASK & ~TRUMPS_ABOVE[top],
                      EXCUSE_BIT)
            for card in range(78):
                bit = 1 << card
                key = (led, top, SUIT_OF[card], bool(bit & TRUMPS_ABOVE[top]))
                forbid = known.get(key)
                if forbid is None:
                    forbid = 0
                    for group in groups:
                        other = group & ~bit
                        if other and not legal_in(bit | (other & -other), led, top)[0] & bit:
                            forbid |= other
                    known[key] = forbid
                out.append((forbid & ~bit, state_of(*step(led, top, card))))
    table = tuple(out)
    nothing = state_of(NO_SUIT, 0)
    after_lead = tuple(table[nothing + card][1] for card in range(78))
    can_be_illegal = tuple(
        sum(1 << card for card in range(78)
            if any(table[(led * 22 + top) * 78 + card][0] for top in range(22)))
        for led in range(5))
    return Transitions(table, after_lead, can_be_illegal)
