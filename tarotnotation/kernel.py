"""The rules kernel: every rule of play and counting, written once, over plain ints.

Cards are ints 0-77 and sets of cards are int bitsets (:mod:`tarotnotation.cards`);
seats are indices in the order of play; camps are ``0`` (the taker's camp, ``TAKER``) and
``1`` (the defence, ``DEFENCE``). Points are half-points. Nothing here knows records,
text or pydantic: the replay (which words every fault), the quick check, the annotations
and the solver all call these functions, so they cannot disagree, and the compiled twin
(``tarotnotation._kernel``, when built) is held to them by differential tests.

The rules are those of ``docs/rules.md``; each function cites its section.

The deal, the auction, the écart and the declarations (docs/rules.md §2-§5):
:func:`petit_sec`, :func:`petit_in_chien_annuls`, :func:`outbids`, :func:`call_fault`,
:func:`first_leader`,
:func:`ecart_forbidden`, :func:`ecart_plain`, :func:`ecart_trumps_allowed`,
:func:`poignee_wrong_cards`, :func:`poignee_hidden_trumps`, :func:`misere_faults`.

Play (docs/rules.md §6):

- :func:`step` and :func:`trick_state`: what a trick asks of the next player (the suit
  led and the highest trump so far);
- :func:`legal_in`, :func:`first_lead`, :func:`rule_in` and :func:`rule`: the legal
  cards of a hand, and which rule restricts them;
- :func:`winning_card` and :func:`winner_index`: the card that wins a trick;
- :func:`transitions`: the same rule as a table, worked out from :func:`legal_in` and
  :func:`step`, for the callers that judge many cards (the replay, the quick check).

Counting (docs/rules.md §7-§9):

- :func:`excuse_wins_last_trick` and :func:`petit_trick_before_last`: the chelem cases of
  the Excuse led to the last trick;
- :func:`excuse_settlement`: where the Excuse ends and the low card it costs;
- :func:`settle_trick`: what one trick brings each camp;
- :func:`unplayed_camp`: who counts the chien or the écart;
- :func:`petit_au_bout` and :func:`chelem_camp`: the bonuses' camps;
- :func:`margin`: the taker's camp's points against the threshold its bouts set.

:class:`PlayState` is a deal in play built on those functions: the hands, the trick so
far, who is to play and what each camp has won; it plays and unplays a card cheaply, for
the replay's steps, the legal-move API and a search.

>>> from tarotnotation.cards import CardSet
>>> hand = CardSet.parse("T4 T9 3C KC EX").bits
>>> led, top = trick_state([Card.H5, Card.T18])
>>> legal, kind = legal_in(hand, led, top)
>>> str(CardSet(legal)), kind == TRUMP
('T4 T9 EX', True)
>>> winner_index([Card.H5, Card.HK, Card.T2, Card.EXCUSE])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, reduce
from itertools import repeat
from operator import or_
from typing import Final, NamedTuple

from .cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    FACES_MASK,
    KINGS_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    card_points,
)
from .rules import (
    Contract,
    ExcuseLastTrick,
    MisereKind,
    PetitAuBout,
    PetitInChien,
    Ruleset,
    threshold,
)

__all__ = [
    "CALLED_SUIT",
    "CAN_WIN",
    "DEFENCE",
    "FOLLOW",
    "FREE",
    "NO_SUIT",
    "OVERTRUMP",
    "OVERTRUMP_LED",
    "SUIT_OF",
    "TAKER",
    "TRUMP",
    "TRUMPS_LED",
    "TRUMP_LED",
    "PlayState",
    "Transitions",
    "chelem_camp",
    "ecart_forbidden",
    "ecart_plain",
    "ecart_trumps_allowed",
    "excuse_settlement",
    "excuse_wins_last_trick",
    "first_lead",
    "first_leader",
    "led_top",
    "legal_in",
    "margin",
    "misere_faults",
    "outbids",
    "petit_au_bout",
    "petit_in_chien_annuls",
    "petit_sec",
    "petit_trick_before_last",
    "poignee_hidden_trumps",
    "poignee_wrong_cards",
    "rule",
    "rule_in",
    "settle_trick",
    "state_of",
    "step",
    "suit_of",
    "transitions",
    "trick_state",
    "unplayed_camp",
    "winner_index",
    "winning_card",
]

#: The camps, as ints: the taker's camp (the attack) and the defence.
TAKER: Final = 0
DEFENCE: Final = 1

#: ``led`` before any card sets the suit (nothing played, or only the Excuse).
NO_SUIT: Final = -1
#: ``led`` when trumps were led.
TRUMPS_LED: Final = 4

#: The rule that restricts the player to move (the ``kind`` of :func:`legal_in`).
FREE, CALLED_SUIT, FOLLOW, OVERTRUMP, TRUMP, OVERTRUMP_LED, TRUMP_LED = range(7)

_EXCUSE: Final = int(Card.EXCUSE)
_PETIT: Final = int(Card.T1)
#: ``SUIT_OF[card]``: 0-3 the plain suits, 4 the trumps, 5 the Excuse.
SUIT_OF: Final[tuple[int, ...]] = (*(c // 14 for c in range(56)), *(4,) * 21, 5)
_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(78))
_new: Final = tuple.__new__
#: ``CAN_WIN[led]``: the cards that can win a trick whose suit led is ``led`` (its suit
#: and the trumps; any trump, when trumps are led).
CAN_WIN: Final[tuple[int, ...]] = (*(SUIT_MASKS[s] | TRUMP_MASK for s in range(4)), TRUMP_MASK)


def suit_of(card: int) -> int:
    """The suit of a card: 0-3 Spades, Hearts, Diamonds, Clubs; 4 trumps; 5 the Excuse.

    >>> suit_of(Card.HK), suit_of(Card.T1), suit_of(Card.EXCUSE)
    (1, 4, 5)
    """
    return SUIT_OF[card]


# --- the deal, the auction, the écart and the declarations (docs/rules.md §2-§5) ------------


def petit_sec(hand: int) -> bool:
    """True for a hand whose only trump is the Petit, without the Excuse (§2): the deal
    is annulled.

    >>> from tarotnotation.cards import CardSet
    >>> petit_sec(CardSet.parse("T1 KH 2S").bits), petit_sec(CardSet.parse("T1 EX").bits)
    (True, False)
    """
    return hand & TRUMP_MASK == 1 << _PETIT and not hand & EXCUSE_BIT


def petit_in_chien_annuls(rules: Ruleset, contract: Contract, chien: int) -> bool:
    """True when the Petit turned up in the chien of a Prise or Garde annuls the deal
    (``petit_in_chien = annuls``, §12).

    >>> petit_in_chien_annuls(Ruleset.fft(), Contract.GARDE, 1 << Card.T1)
    False
    """
    return (rules.petit_in_chien is PetitInChien.ANNULS and contract.takes_chien
            and bool(chien >> _PETIT & 1))


def outbids(bid: Contract, best: Contract | None) -> bool:
    """True when ``bid`` may follow the highest bid so far (§3): it must be higher.

    >>> outbids(Contract.GARDE, Contract.PRISE), outbids(Contract.GARDE, Contract.GARDE)
    (True, False)
    """
    return best is None or bid > best


def call_fault(called: int, hand: int) -> int:
    """What keeps a taker whose hand as dealt is ``hand`` from calling ``called`` at five
    players (§3): 0 when he may call it; a King always, a Queen, Knight or Jack only
    holding every card of each higher rank, else the highest rank (14 King, 13 Queen,
    12 Knight) of which he lacks a card; -1 for a card that is never called (a trump,
    the Excuse, a plain card below the Jack).

    >>> from tarotnotation.cards import CardSet
    >>> kings = CardSet.parse("KS KH KD KC").bits
    >>> call_fault(Card.HK, 0), call_fault(Card.HQ, 0), call_fault(Card.HQ, kings)
    (0, 14, 0)
    >>> call_fault(Card.HN, kings), call_fault(Card.T21, kings), call_fault(Card.H10, kings)
    (13, -1, -1)
    """
    if called >= 56 or called % 14 < 10:
        return -1
    for rank in range(13, called % 14, -1):  # (rank r + 1 is the card 14 * suit + r)
        mask = KINGS_MASK >> (13 - rank)
        if hand & mask != mask:
            return rank + 1
    return 0


def first_leader(first: int, announcer: int | None) -> int:
    """Who leads the first trick (§2, §5): the dealer's right-hand neighbour ``first``,
    or the taker who announced a chelem.

    >>> first_leader(1, None), first_leader(1, 3)
    (1, 3)
    """
    return first if announcer is None else announcer


def ecart_forbidden(ecart: int) -> int:
    """The cards that may never go to the écart (§4): Kings and bouts.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(ecart_forbidden(CardSet.parse("KH 7H T1 EX T5").bits)))
    'KH T1 EX'
    """
    return ecart & (KINGS_MASK | BOUTS_MASK)


def ecart_plain(pool: int) -> int:
    """The cards of ``pool`` (hand and chien) that may always go to the écart (§4): no
    trump, no King, not the Excuse.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(ecart_plain(CardSet.parse("KH 7H T5 EX 2C").bits)))
    '7H 2C'
    """
    return pool & ~TRUMP_MASK & ~KINGS_MASK & ~EXCUSE_BIT


def ecart_trumps_allowed(pool: int, size: int) -> int:
    """How many trumps an écart of ``size`` cards may hold (§4): only those needed when
    the cards of :func:`ecart_plain` are too few.

    >>> from tarotnotation.cards import CardSet
    >>> ecart_trumps_allowed(CardSet.parse("7H 2C T5 T6 T7 KH").bits, 6)
    4
    """
    return max(0, size - ecart_plain(pool).bit_count())


def poignee_wrong_cards(shown: int) -> int:
    """The cards a poignée may not show (§5): anything but trumps and the Excuse.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(poignee_wrong_cards(CardSet.parse("T2 T3 KH EX").bits)))
    'KH'
    """
    return shown & ~TRUMP_MASK & ~EXCUSE_BIT


def poignee_hidden_trumps(hand: int, shown: int) -> int:
    """The trumps a poignée leaves hidden while the Excuse stands in for a trump (§5: it
    may only when no other trump is left unshown); 0 when the poignée is right.

    >>> from tarotnotation.cards import CardSet
    >>> hand = CardSet.parse("T2 T3 T4 EX").bits
    >>> str(CardSet(poignee_hidden_trumps(hand, CardSet.parse("T2 T3 EX").bits)))
    'T4'
    """
    if not shown & EXCUSE_BIT:
        return 0
    return hand & TRUMP_MASK & ~shown


def misere_faults(hand: int, kind: MisereKind) -> int:
    """The cards that make a misère false (§12, ``misere = on``): trumps and the Excuse
    for a misère d'atout, face cards for a misère de tête; 0 when it is true.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(misere_faults(CardSet.parse("KH 2C T4").bits, MisereKind.TETE)))
    'KH'
    """
    if kind is MisereKind.ATOUT:
        return hand & (TRUMP_MASK | EXCUSE_BIT)
    return hand & FACES_MASK


# --- play (docs/rules.md §6) ---------------------------------------------------------------


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


# --- counting (docs/rules.md §7-§10) -------------------------------------------------------


def excuse_wins_last_trick(rules: Ruleset, excuse_led: bool, leader_won_all: bool) -> bool:
    """True when the Excuse, led to the last trick, wins it (§7): under
    ``chelem_excuse_wins``, when the leader's camp won every earlier trick.

    >>> excuse_wins_last_trick(Ruleset.fft(), True, True)
    True
    >>> excuse_wins_last_trick(Ruleset.fft().with_switch("chelem_excuse_wins", "false"),
    ...                        True, True)
    False
    """
    return excuse_led and leader_won_all and rules.chelem_excuse_wins


def petit_trick_before_last(excuse_led: bool, leader_won_all: bool,
                            same_camp_takes_last: bool) -> bool:
    """True when the second-to-last trick counts as the last one for petit au bout (§8):
    a camp that won every earlier trick leads the Excuse to the last trick and takes that
    trick too (the Excuse itself under ``chelem_excuse_wins``, otherwise a partner).

    >>> petit_trick_before_last(True, True, True), petit_trick_before_last(True, True, False)
    (True, False)
    """
    return excuse_led and leader_won_all and same_camp_takes_last


def excuse_settlement(rules: Ruleset, owner: int, winner: int, last: bool,
                      excuse_won: bool) -> tuple[int, int]:
    """Where the Excuse ends, and the low card it costs (§7): ``(camp, low)``.

    ``owner`` is the camp of the player of the Excuse, ``winner`` the camp that won the
    trick, ``last`` whether it is the last trick, ``excuse_won`` whether the Excuse won
    it (:func:`excuse_wins_last_trick`). Its owner's camp keeps it and gives the winner's
    camp a low card (``low`` = 1 half-point, 0 when the owner's camp won the trick); on
    the last trick it changes camp whole (``excuse_last_trick = changes_camp``) or goes to
    the trick's winner (``to_trick_winner``), with no low card.

    >>> fft = Ruleset.fft()
    >>> excuse_settlement(fft, DEFENCE, TAKER, False, False)
    (1, 1)
    >>> excuse_settlement(fft, TAKER, TAKER, True, False)   # changes camp on the last trick
    (1, 0)
    >>> excuse_settlement(Ruleset.pagat(), TAKER, TAKER, True, False)
    (0, 0)
    """
    if last and not excuse_won:
        if rules.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP:
            return 1 - owner, 0
        return winner, 0
    return owner, int(owner != winner)


def settle_trick(rules: Ruleset, bits: int, winner: int, owner: int, last: bool,
                 excuse_won: bool) -> tuple[int, int, int]:
    """What one trick brings each camp, the Excuse settled (§7): ``(cards to the taker's
    camp, cards to the defence, half-points the low card moves to the taker's camp)``.

    ``bits`` are the trick's cards (a card counted in an earlier trick left out),
    ``winner`` the winner's camp, ``owner`` the camp that played the Excuse (-1 when it
    is not in ``bits``); ``last`` and ``excuse_won`` as in :func:`excuse_settlement`. The
    winner's camp takes the cards, except the Excuse, which goes where
    :func:`excuse_settlement` sends it; the low card given in exchange is counted as
    one half-point moved from the owner's camp to the winner's (the last element: +1, -1
    or 0), so that a camp's points are ``card_points(its cards) ± moved``.

    >>> from tarotnotation.cards import CardSet
    >>> trick = CardSet.parse("2H 3H KH EX").bits
    >>> taker, defence, moved = settle_trick(Ruleset.fft(), trick, TAKER, DEFENCE, False, False)
    >>> str(CardSet(taker)), str(CardSet(defence)), moved      # the low card: +1 to the taker
    ('2H 3H KH', 'EX', 1)
    >>> card_points(taker) + moved, card_points(defence) - moved
    (12, 8)
    """
    piles = [0, 0]
    moved = 0
    if owner >= 0:
        ends, low = excuse_settlement(rules, owner, winner, last, excuse_won)
        bits &= ~EXCUSE_BIT
        piles[ends] = EXCUSE_BIT
        if low:
            moved = 1 if winner == TAKER else -1
    piles[winner] |= bits
    return piles[0], piles[1], moved


def unplayed_camp(contract: Contract) -> int:
    """The camp that counts the cards never played, the chien or the écart (§9): the
    defence in a Garde contre, the taker's camp otherwise.

    >>> unplayed_camp(Contract.GARDE_CONTRE), unplayed_camp(Contract.GARDE_SANS)
    (1, 0)
    """
    return DEFENCE if contract is Contract.GARDE_CONTRE else TAKER


def petit_au_bout(rules: Ruleset, trick: Sequence[int], winner: int) -> int:
    """The camp that scores petit au bout from the trick that counts as the last (§8),
    or -1: the Petit is in it, and the camp that ``winner`` (a camp) names won it; under
    ``petit_au_bout = wins_last_trick`` only when the Petit itself won (it is the only
    trump of the trick).

    >>> petit_au_bout(Ruleset.fft(), [Card.T1, Card.H2, Card.T5], DEFENCE)
    1
    >>> rules = Ruleset.fft().with_switch("petit_au_bout", "wins_last_trick")
    >>> petit_au_bout(rules, [Card.T1, Card.H2, Card.T5], DEFENCE)
    -1
    """
    if _PETIT not in trick:
        return -1
    if rules.petit_au_bout is PetitAuBout.IN_LAST_TRICK:
        return winner
    if any(57 <= c <= 76 for c in trick):
        return -1
    return winner


def chelem_camp(taker_tricks: int, tricks: int) -> int:
    """The camp that won every trick (§10), or -1, from the taker's camp's count.

    >>> chelem_camp(18, 18), chelem_camp(0, 18), chelem_camp(3, 18)
    (0, 1, -1)
    """
    if taker_tricks == tricks:
        return TAKER
    if taker_tricks == 0:
        return DEFENCE
    return -1


def margin(taker_half: int, taker_bouts: int) -> int:
    """The taker's camp's points minus the threshold its bouts set (§9), in half-points:
    made when not negative.

    >>> margin(96, 2), margin(102, 1)
    (14, 0)
    """
    return taker_half - threshold(taker_bouts)


def shares(players: int, partner: bool) -> tuple[int, int, int]:
    """How a deal's score is shared (§10): what the taker, the partner and each defender
    get, in units of what one defender pays. Alone, the taker gets what the others pay,
    ``(players - 1)``; with a partner (five players) the partner gets one unit and the
    taker the rest, two.

    >>> shares(4, False), shares(5, True), shares(5, False), shares(3, False)
    ((3, 0, -1), (2, 1, -1), (4, 0, -1), (2, 0, -1))
    """
    if not partner:
        return players - 1, 0, -1
    return players - 3, 1, -1



class TrickEnd(NamedTuple):
    """One trick counted (§6-§8), by :func:`end_trick`."""

    place: int
    """The place in the trick of the card that wins it (0: the leader's)."""
    camp: int
    """The winner's camp."""
    taker: int
    """The cards the taker's camp takes from the trick (the Excuse where it ends)."""
    defence: int
    """The cards the defence takes from the trick."""
    moved: int
    """The half-points the Excuse's low card moves to the taker's camp: +1, -1 or 0."""
    excuse: int
    """The camp the Excuse ends with, -1 when it is not in the trick."""
    petit: int
    """On the last trick: the camp that scores petit au bout, or -1."""
    petit_before_last: bool
    """On the last trick: petit au bout counted in the trick before (§8)."""


def end_trick(rules: Ruleset, trick: Sequence[int], camps: Sequence[int], last: bool,
              leader_won_all: bool, previous: Sequence[int] = (), counted: int = 0,
              place: int | None = None, bits: int | None = None) -> TrickEnd:
    """Who wins a whole trick and what it brings each camp (§6-§8): the winning card
    (:func:`winner_index`; the Excuse led to the last trick by a camp that won every
    earlier one, :func:`excuse_wins_last_trick`), the cards settled with the Excuse's
    exchange (:func:`settle_trick`), and on the last trick petit au bout, in it or in the
    trick before (``previous``: :func:`petit_trick_before_last`, :func:`petit_au_bout`).

    ``camps[i]`` is the camp of the player of ``trick[i]`` (from the leader's card);
    ``leader_won_all`` whether the leader's camp won every earlier trick; ``counted`` the
    cards counted in earlier tricks (a card written twice counts once, where it is first);
    ``place`` the winning card's place when the caller has it from the kernel's compiled
    twin (:func:`winner_index`'s answer; the Excuse's case is settled here all the same);
    ``bits`` the trick's cards as a set, when the caller has it.

    >>> end = end_trick(Ruleset.fft(), [Card.H2, Card.HK, Card.EXCUSE, Card.H3],
    ...                 (TAKER, DEFENCE, TAKER, DEFENCE), False, False)
    >>> end.place, end.camp, end.moved, end.excuse
    (1, 1, -1, 0)
    >>> end_trick(Ruleset.fft(), [Card.EXCUSE, Card.H2, Card.HK, Card.H3],
    ...           (TAKER, DEFENCE, DEFENCE, DEFENCE), True, True).camp  # a chelem's last
    0
    """
    excuse_led = last and trick[0] == _EXCUSE
    excuse_won = excuse_wins_last_trick(rules, excuse_led, leader_won_all)
    if excuse_won:
        place = 0
    elif place is None:
        place = winner_index(trick) or 0
    camp = camps[place]
    if bits is None:
        bits = 0
        for card in trick:
            bits |= _BIT[card]
    bits &= ~counted
    owner = camps[trick.index(_EXCUSE)] if bits & EXCUSE_BIT else -1
    taker, defence, moved = settle_trick(rules, bits, camp, owner, last, excuse_won)
    excuse = -1 if owner < 0 else TAKER if taker & EXCUSE_BIT else DEFENCE
    petit, before = -1, False
    if last:
        before = petit_trick_before_last(excuse_led, leader_won_all, camp == camps[0])
        # (the trick before was won by the leader of this one)
        petit = (petit_au_bout(rules, previous, camps[0]) if before
                 else petit_au_bout(rules, trick, camp))
    return TrickEnd(place, camp, taker, defence, moved, excuse, petit, before)


class Counting(NamedTuple):
    """A deal's tricks counted (§6-§10), by :func:`count_tricks`."""

    tricks: tuple[TrickEnd, ...]
    """Each trick counted, in order."""
    winners: tuple[int, ...]
    """The seat that won each trick."""
    taker: int
    """The cards of the taker's camp's tricks (the Excuse where it ends)."""
    defence: int
    """The cards of the defence's tricks."""
    moved: int
    """The half-points the Excuse's low card moved to the taker's camp."""
    taker_tricks: int
    """The tricks the taker's camp won."""
    petit: int
    """The camp that scores petit au bout, -1 none (or the play not whole)."""
    petit_trick: int
    """The trick petit au bout counts in (the last or the one before), -1 when the play
    is not whole."""
    chelem: int
    """The camp that won every trick, -1 none (or the play not whole)."""


def count_tricks(rules: Ruleset, tricks: Sequence[Sequence[int]], by_seat: Sequence[int],
                 total: int, *, leader: int = 0, seats: Sequence[Sequence[int]] | None = None,
                 winners: Sequence[int] | None = None) -> Counting:
    """The tricks of a deal counted, each by :func:`end_trick` (§6-§10): who won each,
    each camp's cards with the Excuse's exchange, petit au bout and chelem
    (:func:`chelem_camp`) once the ``total`` tricks of the deal are all there. The cards
    aside are the caller's (:func:`unplayed_camp`).

    ``tricks[t]`` are the cards of the whole trick ``t`` from its leader's, ``by_seat[s]``
    the camp of seat ``s``, and ``seats[t][i]`` the seat that played ``tricks[t][i]``: by
    default ``leader`` leads the first trick and each winner the next. ``winners``: each
    trick's winner as the kernel's compiled twin found it, when the caller has them.

    >>> import random
    >>> from tarotnotation.cards import mask_of
    >>> order = list(range(78)); random.Random(1).shuffle(order)
    >>> hands = [mask_of(order[18 * s:18 * s + 18]) for s in range(4)]
    >>> state = PlayState(Ruleset.fft(), hands, (0, 1, 1, 1), 2)
    >>> tricks, winners = [], []
    >>> while not state.over:
    ...     legal = state.legal(); card = (legal & -legal).bit_length() - 1
    ...     if not state.trick:
    ...         tricks.append([])
    ...     tricks[-1].append(card); state.play(card)
    ...     if not state.trick:
    ...         winners.append(state.leader)
    >>> counting = count_tricks(Ruleset.fft(), tricks, (0, 1, 1, 1), 18, leader=2)
    >>> (counting.taker, counting.taker_tricks) == (state.won[0], state.tricks_won[0])
    True
    >>> list(counting.winners) == winners
    True
    """
    n = len(tricks[0]) if tricks else 0
    bit = _BIT.__getitem__
    last = total - 1
    if winners is not None and tricks:
        every = list(map(sum, map(map, repeat(bit), tricks)))
        if reduce(or_, every, 0).bit_count() == n * len(tricks):  # (no card twice)
            return _count_known(rules, tricks, by_seat, total, leader, winners, every,
                                seats)
    # (each leader's order of play and its camps, worked out once)
    orders = [tuple((first + i) % n for i in range(n)) for first in range(n)]
    camps_of = [tuple(by_seat[s] for s in order) for order in orders]
    ends: list[TrickEnd] = []
    won: list[int] = []
    piles = [0, 0]
    tricks_won = [0, 0]
    moved = counted = 0
    previous: Sequence[int] = ()
    for t, trick in enumerate(tricks):
        if seats is None:
            played_by: Sequence[int] = orders[leader]
            camps: Sequence[int] = camps_of[leader]
        else:
            played_by = seats[t]
            camps = [by_seat[s] for s in played_by]
        bits = reduce(or_, map(bit, trick))
        place = None if winners is None else played_by.index(winners[t])
        if t != last and not bits & EXCUSE_BIT:
            # (a trick before the last without the Excuse: its winner takes it all; the
            # same as end_trick, without its calls)
            if place is None:
                place = winner_index(trick) or 0
            camp = camps[place]
            live = bits & ~counted
            end = _new(TrickEnd, (place, camp, 0 if camp else live, live if camp else 0, 0,
                                  -1, -1, False))
        else:
            end = end_trick(rules, trick, camps, t == last, tricks_won[1 - camps[0]] == 0,
                            previous, counted, place, bits)
        counted |= bits
        ends.append(end)
        leader = played_by[end.place]
        won.append(leader)
        piles[TAKER] |= end.taker
        piles[DEFENCE] |= end.defence
        moved += end.moved
        tricks_won[end.camp] += 1
        previous = trick
    whole = len(ends) == total
    petit = ends[last].petit if whole else -1
    petit_trick = (last - 1 if ends[last].petit_before_last else last) if whole else -1
    return Counting(tuple(ends), tuple(won), piles[TAKER], piles[DEFENCE], moved,
                    tricks_won[TAKER], petit, petit_trick,
                    chelem_camp(tricks_won[TAKER], total) if whole else -1)


def _count_known(rules: Ruleset, tricks: Sequence[Sequence[int]], by_seat: Sequence[int],
                 total: int, leader: int, winners: Sequence[int], every: list[int],
                 seats: Sequence[Sequence[int]] | None) -> Counting:
    """:func:`count_tricks` of tricks of distinct cards (``every``: each trick's) whose
    winners the caller found (the compiled twin, the quick check's pass, the replay's
    attribution, all by :func:`winner_index`): each trick goes whole to its winner's camp,
    but the Excuse's trick and the last one, which :func:`end_trick` counts."""
    n = len(tricks[0])
    last = total - 1
    if seats is None:
        leaders = [leader, *winners[:-1]]
        seats = [[(first + i) % n for i in range(n)] for first in leaders]
    places = [order.index(w) for order, w in zip(seats, winners, strict=True)]
    camps = list(map(by_seat.__getitem__, winners))
    ends = [_new(TrickEnd, (place, camp, 0 if camp else cards, cards if camp else 0, 0,
                            -1, -1, False))
            for place, camp, cards in zip(places, camps, every, strict=True)]
    excuse = next((t for t, cards in enumerate(every) if cards & EXCUSE_BIT), -1)
    for t in sorted({excuse, last if last < len(tricks) else -1} - {-1}):
        first = [by_seat[s] for s in seats[t]]
        end = end_trick(rules, tricks[t], first, t == last,
                        camps[:t].count(1 - first[0]) == 0, tricks[t - 1] if t else (), 0,
                        places[t], every[t])
        ends[t] = end
        camps[t] = end.camp
    won = list(winners)
    if last < len(ends):  # (the Excuse led to the last trick may win it)
        won[last] = seats[last][ends[last].place]
    taker = defence = moved = 0
    for end in ends:
        taker |= end.taker
        defence |= end.defence
        moved += end.moved
    taker_tricks = camps.count(TAKER)
    whole = len(ends) == total
    petit = ends[last].petit if whole else -1
    petit_trick = (last - 1 if ends[last].petit_before_last else last) if whole else -1
    return Counting(tuple(ends), tuple(won), taker, defence, moved, taker_tricks, petit,
                    petit_trick, chelem_camp(taker_tricks, total) if whole else -1)


# --- a deal in play ---------------------------------------------------------------------


class PlayState:
    """A deal in play: each seat's hand, the trick so far, who is to play, what each camp
    has won. :meth:`play` and :meth:`unplay` step it one card at a time (no check: ask
    :meth:`legal` first); every rule is one of the kernel's functions above.

    ``camps[s]`` is the camp of seat ``s`` (0 the taker's, 1 the defence). ``won`` holds
    the cards of each camp's tricks so far with the Excuse where it ends, ``adjust`` the
    half-points the Excuse's low cards moved to the taker's camp (a camp's points are
    :meth:`half`), ``tricks_won`` each camp's count of tricks; ``aside`` the cards never
    played (the chien or the écart), counted at the end for :func:`unplayed_camp`'s camp.
    ``called`` restricts the first lead at five players (:func:`first_lead`).
    ``trick_number`` is the 0-based trick being played of ``tricks``; ``trick`` the cards
    already in it, from the leader's; ``previous`` the cards of the trick before (petit
    au bout may count there, §8).

    >>> import random
    >>> from tarotnotation.cards import mask_of
    >>> order = list(range(78)); random.Random(1).shuffle(order)
    >>> hands = [mask_of(order[18 * s:18 * s + 18]) for s in range(4)]
    >>> state = PlayState(Ruleset.fft(), hands, (0, 1, 1, 1), 0, aside=mask_of(order[72:]),
    ...                   contract=Contract.GARDE_SANS)
    >>> while not state.over:
    ...     legal = state.legal()
    ...     state.play((legal & -legal).bit_length() - 1)
    >>> state.half(TAKER) + state.half(DEFENCE)
    182
    >>> while state.history:
    ...     state.unplay()
    >>> state.hands == hands, state.leader, state.trick_number
    (True, 0, 0)
    """

    __slots__ = (
        "adjust",
        "aside",
        "called",
        "camps",
        "contract",
        "excuse_owner",
        "hands",
        "history",
        "leader",
        "led",
        "n",
        "petit",
        "previous",
        "rules",
        "top",
        "trick",
        "trick_number",
        "tricks",
        "tricks_won",
        "won",
    )

    def __init__(self, rules: Ruleset, hands: Sequence[int], camps: Sequence[int],
                 leader: int, *, aside: int = 0, contract: Contract = Contract.GARDE,
                 called: int | None = None, trick: Sequence[int] = (),
                 trick_number: int = 0, tricks: int | None = None,
                 won: tuple[int, int] = (0, 0), tricks_won: tuple[int, int] = (0, 0),
                 adjust: int = 0, previous: Sequence[int] = ()) -> None:
        self.rules = rules
        self.n = len(hands)
        self.hands = list(hands)
        self.camps = tuple(camps)
        self.leader = leader
        self.aside = aside
        self.contract = contract
        self.called = called
        self.trick_number = trick_number
        self.tricks = tricks if tricks is not None else trick_number + max(
            h.bit_count() for h in hands)
        self.won = list(won)
        self.tricks_won = list(tricks_won)
        self.adjust = adjust
        self.previous = tuple(previous)
        self.petit = -1
        """The camp that scores petit au bout, once the deal is over (-1 none)."""
        self.history: list[tuple[int, ...]] = []
        self.trick: list[int] = []
        self.led, self.top = NO_SUIT, 0
        self.excuse_owner = -1
        """The camp that played the Excuse to the current trick, -1 if none."""
        for i, card in enumerate(trick):
            if card == _EXCUSE:
                self.excuse_owner = self.camps[(leader + i) % self.n]
            self.led, self.top = step(self.led, self.top, card)
            self.trick.append(card)

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % self.n

    @property
    def over(self) -> bool:
        """True once every trick is played."""
        return self.trick_number >= self.tricks

    def legal(self) -> int:
        """The legal cards of the player to move (§6)."""
        hand = self.hands[(self.leader + len(self.trick)) % self.n]
        if self.called is not None and not self.trick and self.trick_number == 0:
            return first_lead(hand, self.called)[0]
        return legal_in(hand, self.led, self.top)[0]

    def half(self, camp: int) -> int:
        """A camp's half-points so far: its tricks with the Excuse settled, and once the
        deal is over the cards aside, for the camp that counts them."""
        half = card_points(self.won[camp]) + (self.adjust if camp == TAKER else -self.adjust)
        if self.over and unplayed_camp(self.contract) == camp:
            half += card_points(self.aside)
        return half

    def bouts(self, camp: int) -> int:
        """The bouts a camp holds so far (the cards aside counted once the deal is over)."""
        held = self.won[camp]
        if self.over and unplayed_camp(self.contract) == camp:
            held |= self.aside
        return (held & BOUTS_MASK).bit_count()

    def play(self, card: int) -> None:
        """Play ``card`` for the player to move; the trick ends when every seat played."""
        trick = self.trick
        seat = (self.leader + len(trick)) % self.n
        self.history.append((card, self.led, self.top, self.excuse_owner))
        self.hands[seat] &= ~(1 << card)
        if card == _EXCUSE:
            self.excuse_owner = self.camps[seat]
        self.led, self.top = step(self.led, self.top, card)
        trick.append(card)
        if len(trick) == self.n:
            self._end_trick()

    def _end_trick(self) -> None:
        """Who wins the trick, what it brings each camp (§6-§8: :func:`end_trick`), and
        the next leader."""
        trick = self.trick
        n = self.n
        camps = [self.camps[(self.leader + i) % n] for i in range(n)]
        last = self.trick_number == self.tricks - 1
        end = end_trick(self.rules, trick, camps, last,
                        self.tricks_won[1 - camps[0]] == 0, self.previous)
        self.history.append((-1, self.leader, self.won[0], self.won[1], self.adjust,
                             self.petit, *self.previous))
        self.won[0] |= end.taker
        self.won[1] |= end.defence
        self.adjust += end.moved
        self.tricks_won[end.camp] += 1
        if last:
            self.petit = end.petit
        self.previous = tuple(trick)
        self.trick = []
        self.led, self.top = NO_SUIT, 0
        self.excuse_owner = -1
        self.leader = (self.leader + end.place) % n
        self.trick_number += 1

    def unplay(self) -> None:
        """Take back the last card played (and the end of the trick it completed)."""
        entry = self.history.pop()
        if entry[0] == -1:
            self.trick_number -= 1
            self.tricks_won[self.camps[self.leader]] -= 1
            self.trick = list(self.previous)
            (_, self.leader, won0, won1, self.adjust, self.petit) = entry[:6]
            self.won = [won0, won1]
            self.previous = entry[6:]
            entry = self.history.pop()
        card, self.led, self.top, self.excuse_owner = entry
        self.trick.pop()
        self.hands[(self.leader + len(self.trick)) % self.n] |= 1 << card

    def result(self) -> tuple[int, int, int, int]:
        """Once the deal is over: ``(taker's half-points, taker's bouts, petit au bout's
        camp or -1, chelem's camp or -1)``."""
        return (self.half(TAKER), self.bouts(TAKER), self.petit,
                chelem_camp(self.tricks_won[TAKER], self.tricks))
