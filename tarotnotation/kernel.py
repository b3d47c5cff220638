"""The rules kernel: every rule of play and counting, written once, over plain ints.

Cards are ints 0-77 and sets of cards are int bitsets (:mod:`tarotnotation.cards`);
seats are indices in the order of play; camps are ``0`` (the taker's camp, ``TAKER``) and
``1`` (the defence, ``DEFENCE``). Points are half-points. Nothing here knows records,
text or pydantic: the replay (which words every fault), the quick check, the annotations
and the solver all call these functions, so they cannot disagree, and the compiled twin
(``tarotnotation._kernel``, when built) is held to them by differential tests.

The rules are those of ``docs/rules.md``; each function cites its section. Those of the
deal and of play are written in :mod:`tarotnotation.kerneldeal` and
:mod:`tarotnotation.kernelplay`; this module gives them, and the other modules call them
here (``kernel.legal_in``), so that the kernel stays their one home.

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
from functools import reduce
from itertools import repeat
from operator import or_
from typing import Final, NamedTuple

from .cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    Card,
    card_points,
)
from .kerneldeal import (
    call_fault,
    ecart_forbidden,
    ecart_plain,
    ecart_trumps_allowed,
    first_leader,
    misere_faults,
    outbids,
    petit_in_chien_annuls,
    petit_sec,
    poignee_hidden_trumps,
    poignee_wrong_cards,
)
from .kernelplay import (
    CALLED_SUIT,
    CAN_WIN,
    FOLLOW,
    FREE,
    NO_SUIT,
    OVERTRUMP,
    OVERTRUMP_LED,
    SUIT_OF,
    TRUMP,
    TRUMP_LED,
    TRUMPS_LED,
    Transitions,
    first_lead,
    led_card,
    led_top,
    legal_in,
    rule,
    rule_in,
    state_of,
    step,
    suit_of,
    transitions,
    trick_state,
    winner_index,
    winning_card,
)
from .rules import (
    Contract,
    ExcuseLastTrick,
    PetitAuBout,
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
    "call_fault",
    "chelem_camp",
    "ecart_forbidden",
    "ecart_plain",
    "ecart_trumps_allowed",
    "excuse_settlement",
    "excuse_wins_last_trick",
    "first_lead",
    "first_leader",
    "led_card",
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

_EXCUSE: Final = int(Card.EXCUSE)
_PETIT: Final = int(Card.T1)
_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(78))
_new: Final = tuple.__new__


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
