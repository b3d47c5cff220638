"""The rules kernel: every rule of play and counting, written once, over plain ints.

Cards are ints 0-77 and sets of cards are int bitsets (:mod:`tarotnotation.cards`);
seats are indices in the order of play; camps are ``0`` (the taker's camp, ``TAKER``) and
``1`` (the defence, ``DEFENCE``). Points are half-points. Nothing here knows records,
text or pydantic: the replay (which words every fault), the quick check, the annotations
and the solver all call these functions, so they cannot disagree, and the compiled twin
(``tarotnotation._kernel``, when built) is held to them by differential tests.

The rules are those of ``docs/rules.md``; each function cites its section.

Play (docs/rules.md §6):

- :func:`step` and :func:`trick_state`: what a trick asks of the next player (the suit
  led and the highest trump so far);
- :func:`legal_in`, :func:`first_lead` and :func:`rule`: the legal cards of a hand, and
  which rule restricts them;
- :func:`winner_index`: the card that wins a trick.

Counting (docs/rules.md §7-§9):

- :func:`excuse_wins_last_trick` and :func:`petit_trick_before_last`: the chelem cases of
  the Excuse led to the last trick;
- :func:`excuse_settlement`: where the Excuse ends and the low card it costs;
- :func:`trick_count`: what one trick brings each camp;
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
from typing import Final

from .cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    SUIT_MASKS,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Card,
    card_points,
)
from .rules import Contract, ExcuseLastTrick, PetitAuBout, Ruleset, threshold

__all__ = [
    "CALLED_SUIT",
    "DEFENCE",
    "FOLLOW",
    "FREE",
    "NO_SUIT",
    "OVERTRUMP",
    "OVERTRUMP_LED",
    "TAKER",
    "TRUMP",
    "TRUMPS_LED",
    "TRUMP_LED",
    "PlayState",
    "chelem_camp",
    "excuse_settlement",
    "excuse_wins_last_trick",
    "first_lead",
    "legal_in",
    "margin",
    "petit_au_bout",
    "petit_trick_before_last",
    "rule",
    "step",
    "suit_of",
    "trick_count",
    "trick_state",
    "unplayed_camp",
    "winner_index",
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
#: suit_of[card]: 0-3 the plain suits, 4 the trumps, 5 the Excuse.
_SUITS: Final[tuple[int, ...]] = (*(c // 14 for c in range(56)), *(4,) * 21, 5)


def suit_of(card: int) -> int:
    """The suit of a card: 0-3 Spades, Hearts, Diamonds, Clubs; 4 trumps; 5 the Excuse.

    >>> suit_of(Card.HK), suit_of(Card.T1), suit_of(Card.EXCUSE)
    (1, 4, 5)
    """
    return _SUITS[card]


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
    suit = _SUITS[card]
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
    """
    suit = _SUITS[called]
    allowed = hand & ~(SUIT_MASKS[suit] & ~(1 << called))
    if allowed != hand and allowed:
        return allowed, CALLED_SUIT
    return hand, FREE


def rule(hand: int, trick: Sequence[int], called: int | None = None
         ) -> tuple[int, int, int, int]:
    """The rule that binds the player holding ``hand`` after ``trick``'s cards (from the
    leader's), as ``(legal, kind, led, top)`` (see :func:`legal_in`). Pass ``called``
    only for the first lead at five players under ``no_called_suit``
    (:func:`first_lead`); for the first lead, ``led`` is then the called suit.

    >>> from tarotnotation.cards import CardSet
    >>> legal, kind, led, top = rule(CardSet.parse("T4 T9 3C KC EX").bits, [Card.H5, Card.T18])
    >>> str(CardSet(legal)), kind == TRUMP, led, top
    ('T4 T9 EX', True, 1, 18)
    """
    if called is not None and not trick:
        legal, kind = first_lead(hand, called)
        if kind == CALLED_SUIT:
            return legal, kind, _SUITS[called], 0
    led, top = trick_state(trick)
    legal, kind = legal_in(hand, led, top)
    return legal, kind, led, top


def winner_index(trick: Sequence[int]) -> int | None:
    """Index of the card that wins a trick: the highest trump, else the highest card of
    the suit led (§6). The Excuse never wins here (its chelem case is
    :func:`excuse_wins_last_trick`); a trick of only the Excuse has no winner.

    >>> winner_index([Card.EXCUSE, Card.D3, Card.DQ, Card.S1])
    2
    >>> winner_index([Card.EXCUSE]) is None
    True
    """
    best = -1
    best_key = -1
    led = NO_SUIT
    for i, card in enumerate(trick):
        if card == _EXCUSE:
            continue
        suit = _SUITS[card]
        if led == NO_SUIT:
            led = suit
        if suit == 4:
            key = 100 + card
        elif suit == led:
            key = card
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best if best >= 0 else None


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


def trick_count(rules: Ruleset, bits: int, winner: int, owner: int, last: bool,
                excuse_won: bool) -> tuple[int, int, int]:
    """What one trick brings each camp, in half-points, with the Excuse settled (§7):
    ``(taker's camp, defence, camp the Excuse ends with or -1)``.

    ``bits`` are the trick's cards (a card counted in an earlier trick left out),
    ``winner`` the winner's camp, ``owner`` the camp that played the Excuse (-1 if it is
    not in ``bits``); ``last`` and ``excuse_won`` as in :func:`excuse_settlement`.

    >>> fft = Ruleset.fft()
    >>> trick = (1 << Card.HK) | (1 << Card.H2) | (1 << Card.H3) | EXCUSE_BIT
    >>> trick_count(fft, trick, TAKER, DEFENCE, False, False)     # 9 + 1 + 1, the low card
    (12, 8, 1)
    """
    gains = [0, 0]
    ends = -1
    if owner >= 0:
        ends, low = excuse_settlement(rules, owner, winner, last, excuse_won)
        bits &= ~EXCUSE_BIT
        gains[ends] += 9
        gains[owner] -= low
        gains[winner] += low
    gains[winner] += card_points(bits)
    return gains[0], gains[1], ends


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
        """Who wins the trick, what it brings each camp (§6-§8), and the next leader."""
        rules = self.rules
        trick = self.trick
        last = self.trick_number == self.tricks - 1
        leader_camp = self.camps[self.leader]
        excuse_led = last and trick[0] == _EXCUSE
        leader_won_all = self.tricks_won[1 - leader_camp] == 0
        excuse_won = excuse_wins_last_trick(rules, excuse_led, leader_won_all)
        index = 0 if excuse_won else (winner_index(trick) or 0)
        winner = (self.leader + index) % self.n
        wcamp = self.camps[winner]
        self.history.append((-1, self.leader, self.won[0], self.won[1], self.adjust,
                             self.petit, *self.previous))
        bits = 0
        for c in trick:
            bits |= 1 << c
        owner = self.excuse_owner
        if owner >= 0:
            ends, low = excuse_settlement(rules, owner, wcamp, last, excuse_won)
            bits &= ~EXCUSE_BIT
            self.won[ends] |= EXCUSE_BIT
            if low:
                self.adjust += 1 if wcamp == TAKER else -1
        self.won[wcamp] |= bits
        self.tricks_won[wcamp] += 1
        if last:
            if petit_trick_before_last(excuse_led, leader_won_all, wcamp == leader_camp):
                # The previous trick's winner led this one.
                self.petit = petit_au_bout(rules, self.previous, leader_camp)
            else:
                self.petit = petit_au_bout(rules, trick, wcamp)
        self.previous = tuple(trick)
        self.trick = []
        self.led, self.top = NO_SUIT, 0
        self.excuse_owner = -1
        self.leader = winner
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
