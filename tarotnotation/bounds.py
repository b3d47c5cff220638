"""What a deal can produce: the points each camp can end with, by bouts, and the bounds of
the declarations and of a score (docs/rules.md §1, §4-§10). The cross-check of a recorded
result against them is :mod:`tarotnotation.plausibility`.

Pure: ints, enums and frozen values (no pydantic, no text).
:func:`reachable_points` gives, for each number of bouts, every count of half-points the
taker's camp can end a deal with, given whether it won every trick, some or none. It is
*derived* from the rules, not copied from a table: :func:`accountings` lists every way the
cards can end up (how many tricks each camp takes, where the chien goes, what becomes of
the Excuse), and the values of the other cards are then chosen freely from the pack
(:func:`plain_range`). :func:`points_bounds` gives the extremes for either camp.
:func:`poignee_trumps` and :func:`score_bounds` bound the declarations and the amount of a
score. The derivation counts cards; of the order of play it knows what the Excuse and the
lead of the last trick imply (:func:`accountings`), not every constraint of following
suit. So the chelems' bounds are exact (a built deal reaches each one:
``tests/kernel/test_plausibility_bounds.py``), and another bound may be loose (at four players
81.5 points with one bout passes, though following suit forbids it): a loose bound lets an
impossible count pass, it never flags a true one.

Worked bounds at four players (in half-points, 182 in the pack):

>>> from tarotnotation.rules import Contract, Ruleset
>>> fft = Ruleset.fft()
>>> chelem = reachable_points(4, Contract.GARDE, fft, Won.EVERY)
>>> {bouts: sorted(half) for bouts, half in chelem.items()}
{2: [174], 3: [182]}
>>> points_bounds(Camp.TAKER, 1, Won.NONE, 4, Contract.GARDE, fft)  # a defence chelem
(14, 47)
>>> points_bounds(Camp.TAKER, 3, Won.EVERY, 4, Contract.GARDE_CONTRE, fft)
(132, 176)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import lru_cache
from itertools import product
from typing import Final

from . import kernel
from .cards import BOUTS_MASK, EXCUSE_BIT, TRUMP_MASK, Card, card_points
from .rules import Camp, Contract, ExcuseLastTrick, Ruleset, table, threshold
from .scoring import DealFacts, score
from .values import Value

__all__ = [
    "PACK_HALF",
    "Accounting",
    "Won",
    "accountings",
    "counting_rules",
    "plain_range",
    "plain_sums",
    "poignee_trumps",
    "points_bounds",
    "reachable_points",
    "score_bounds",
    "share_weights",
]


# --- the cards, by value (docs/rules.md §1) -----------------------------------------------

#: The whole pack in half-points (91 points).
PACK_HALF: Final = card_points((1 << 78) - 1)
_EXCUSE_HALF: Final = card_points(EXCUSE_BIT)
_TRUMP_BOUTS: Final = (Card.T1, Card.T21)
_TRUMP_BOUT_HALF: Final = card_points(1 << Card.T1)
assert card_points(1 << Card.T21) == _TRUMP_BOUT_HALF
#: The other cards: neither a bout nor the Excuse, by value in half-points, and how many
#: of each value may go in an écart (no King, docs/rules.md §4: kernel.ecart_forbidden).
_PLAIN: Final = tuple(c for c in range(78) if not BOUTS_MASK >> c & 1)


def _classes() -> tuple[tuple[int, int, int], ...]:
    counts: dict[int, list[int]] = {}
    for c in _PLAIN:
        slot = counts.setdefault(card_points(1 << c), [0, 0])
        slot[0] += 1
        slot[1] += 0 if kernel.ecart_forbidden(1 << c) else 1
    return tuple(sorted((v, n, e) for v, (n, e) in counts.items()))


#: ``(value, cards, of which écart-able)`` for each value of the other cards, lowest first.
_VALUE_CLASSES: Final = _classes()
#: The low card given for the Excuse in the exchange (docs/rules.md §7).
_LOW_CARD: Final = _VALUE_CLASSES[0][0]


# --- how the cards end up (docs/rules.md §4, §6, §7, §9) ---------------------------------


class Won(StrEnum):
    """How many tricks the taker's camp won: every one (its chelem), none (the defence's
    chelem), or some but not all."""

    EVERY = "every"
    SOME = "some"
    NONE = "none"


class Accounting(Value):
    """One way the cards of a deal end up, up to which plain cards lie where.

    The taker's camp counts the cards of ``taker_open`` places (cards of its tricks, and
    the chien in a Garde sans) and ``taker_ecart`` places (the écart in a Prise or Garde:
    no King and no bout), the Excuse if ``taker_excuse``, and ``adjust`` half-points from
    the Excuse exchange; the defence counts ``defence_places`` cards and the rest. The
    places exclude the Excuse, so they hold the other 77 cards.
    """

    __slots__ = (
        "adjust",
        "defence_places",
        "excuse",
        "taker_ecart",
        "taker_excuse",
        "taker_open",
        "tricks",
        "won",
    )
    tricks: int
    """Tricks won by the taker's camp."""
    won: Won
    """Every, some or no trick for the taker's camp."""
    excuse: str
    """What became of the Excuse, in words."""
    taker_excuse: bool
    adjust: int
    taker_open: int
    taker_ecart: int
    defence_places: int

    def __init__(self, tricks: int, won: Won, excuse: str, taker_excuse: bool, adjust: int,
                 taker_open: int, taker_ecart: int, defence_places: int) -> None:
        setfield = object.__setattr__
        setfield(self, "tricks", tricks)
        setfield(self, "won", won)
        setfield(self, "excuse", excuse)
        setfield(self, "taker_excuse", taker_excuse)
        setfield(self, "adjust", adjust)
        setfield(self, "taker_open", taker_open)
        setfield(self, "taker_ecart", taker_ecart)
        setfield(self, "defence_places", defence_places)


def accountings(players: int, contract: Contract, rules: Ruleset, *, attackers: int = 1
                ) -> tuple[Accounting, ...]:
    """Every way the cards can end up in a deal (docs/rules.md §4, §6, §7, §9).

    ``attackers`` is the size of the taker's camp: 1, or 2 at five players with a
    partner. For each number ``k`` of tricks the taker's camp wins (0 to all), the chien
    or écart goes where :func:`tarotnotation.kernel.unplayed_camp` sends it (an écart holds
    no King and no bout, §4). The Excuse is in the chien (Garde sans or contre: it is
    counted with it), or some camp plays it to a trick that some camp wins, the last one
    or another, led or not; :func:`tarotnotation.kernel.excuse_settlement` then says where
    it ends and whether a low card moves (§7). What decides whether such a trick can
    happen is how tricks go:

    - the Excuse never wins a trick but in the chelem case
      (:func:`tarotnotation.kernel.excuse_wins_last_trick`), so its owner's camp takes
      the trick otherwise only through a second player;
    - the camp that won the trick before the last one leads the last one: a lone player
      whose camp won every earlier trick plays his Excuse to the last trick only as its
      lead;
    - a camp takes at least as many tricks as the situation gives it.

    >>> from tarotnotation.rules import Ruleset
    >>> ways = accountings(4, Contract.GARDE, Ruleset.fft())
    >>> for fate in sorted({a.excuse for a in ways if a.tricks == 18}):
    ...     print(fate)
    the defence played it to a trick the taker's camp won
    the taker's camp led it to the last trick, and it won it

    (The defence playing it to the last trick gives the same accounting as the second.)
    """
    return _accountings(players, contract, counting_rules(rules), attackers)


_CAMP_WORDS: Final = ("the taker's camp", "the defence")


@lru_cache(maxsize=256)
def _accountings(players: int, contract: Contract, rules: Ruleset, attackers: int
                 ) -> tuple[Accounting, ...]:
    if attackers not in (1, 2) or (attackers == 2 and players != 5):
        raise ValueError("the taker's camp has 1 player, or 2 at five players")
    tab = table(players)
    n, tricks, chien = players, tab.tricks, tab.chien
    sizes = (attackers, n - attackers)
    unplayed = kernel.unplayed_camp(contract)
    out: list[Accounting] = []
    for k in range(tricks + 1):
        wins = (k, tricks - k)
        camp = kernel.chelem_camp(k, tricks)
        won = Won.EVERY if camp == kernel.TAKER else Won.NONE if camp == kernel.DEFENCE \
            else Won.SOME
        places = [k * n, (tricks - k) * n]  # trick cards, the Excuse's place taken below
        ecart = chien if contract.takes_chien else 0
        places[unplayed] += 0 if contract.takes_chien else chien
        # (words, where the Excuse ends, the low card, the camp whose trick it was in:
        # -1 for the chien, whose places were counted without it)
        fates: list[tuple[str, int, int, int]] = []
        if not contract.takes_chien:
            fates.append(("it was in the chien", unplayed, 0, -1))
        for owner, winner, last, led in product((0, 1), (0, 1), (False, True),
                                                (False, True)):
            if led and not last:
                continue  # a lead matters on the last trick only
            fate = _excuse_trick(rules, tricks, sizes, wins, owner, winner, last, led)
            if fate is not None:
                ends, low = fate
                trick = (f"the last trick, which {_CAMP_WORDS[winner]} won" if last
                         else f"a trick {_CAMP_WORDS[winner]} won")
                words = f"{_CAMP_WORDS[owner]} {'led' if led else 'played'} it to {trick}"
                if last and led and ends == owner == winner and low == 0 and (
                        kernel.excuse_wins_last_trick(rules, True, True)):
                    words = f"{_CAMP_WORDS[owner]} led it to the last trick, and it won it"
                fates.append((words, ends, low, winner))
        seen: set[tuple[int, int, int]] = set()
        for words, ends, low, trick_camp in fates:
            moved = low if trick_camp == kernel.TAKER else -low
            if (ends, moved, trick_camp) in seen:  # another way to the same accounting
                continue
            seen.add((ends, moved, trick_camp))
            if trick_camp < 0:
                taker_open, defence = places[0], places[1]
                if ends == kernel.TAKER:
                    taker_open -= 1
                else:
                    defence -= 1
            else:
                taker_open = places[0] - (trick_camp == kernel.TAKER)
                defence = places[1] - (trick_camp == kernel.DEFENCE)
            acc = Accounting(k, won, words, ends == kernel.TAKER, moved * _LOW_CARD,
                             taker_open, ecart, defence)
            assert acc.taker_open + acc.taker_ecart + acc.defence_places == 77
            out.append(acc)
    return tuple(out)


def _excuse_trick(rules: Ruleset, tricks: int, sizes: tuple[int, int],
                  wins: tuple[int, int], owner: int, winner: int, last: bool, led: bool
                  ) -> tuple[int, int] | None:
    """Where the Excuse ends and the low card it costs (the kernel's answer) when
    ``owner``'s camp plays it to a trick ``winner``'s camp takes, the last one or not,
    led or not, in a deal where the camps take ``wins`` tricks; None when no deal plays
    it so (see :func:`accountings`)."""
    if wins[winner] == 0:
        return None
    earlier = [wins[0], wins[1]]  # tricks each camp takes before the last one
    if last:
        earlier[winner] -= 1
    won_all_earlier = earlier[owner] == tricks - 1
    if last and led:
        if earlier[owner] == 0:
            return None  # the leader of the last trick won the one before
        excuse_won = kernel.excuse_wins_last_trick(rules, True, won_all_earlier)
        if excuse_won and winner != owner:
            return None
    else:
        excuse_won = False
        if last and sizes[owner] == 1 and won_all_earlier:
            return None  # alone, he won the trick before: he leads the last one
    if winner == owner and not excuse_won and sizes[owner] < 2:
        return None  # the Excuse does not win: a partner of its owner does
    return kernel.excuse_settlement(rules, owner, winner, last, excuse_won)


@lru_cache(maxsize=4096)
def plain_range(count: int, open_places: int) -> tuple[int, int] | None:
    """The least and the most, in half-points, that ``count`` cards can total when they
    are neither bouts nor the Excuse, at most ``open_places`` of them Kings (the others lie
    in an écart, docs/rules.md §4); None when the pack has no such cards.

    The pack has, besides the bouts, Kings, Queens, Knights, Jacks and low cards
    (docs/rules.md §1). Every total of the same parity in between is reached too: the
    values are 1, 3, 5, 7 and 9 half-points, and from the least choice to the most one
    card at a time can be swapped for one worth 2 more (``tests/kernel/test_plausibility_bounds``
    checks it against every choice of cards).

    >>> plain_range(6, 0)   # an écart: six low cards; four Queens and two Knights
    (6, 38)
    >>> plain_range(6, 6)   # a chien: four Kings and two Queens at most
    (6, 50)
    """
    values: list[int] = []  # every card's value, lowest first
    kings = 0
    for value, cards, ecartable in _VALUE_CLASSES:
        values += [value] * cards
        kings += cards - ecartable
    if not 0 <= count <= len(values) or count - open_places > len(values) - kings:
        return None
    lowest = sum(values[:count])  # Kings come last: in open places when needed at all
    top_kings = min(kings, open_places, count)
    king_value = max(v for v, n, e in _VALUE_CLASSES if e < n)
    others = [v for v, n, e in _VALUE_CLASSES for _ in range(e)]  # écart-able, sorted
    rest = count - top_kings
    if rest > len(others):
        return None
    highest = top_kings * king_value + sum(others[len(others) - rest:])
    return lowest, highest


def plain_sums(count: int, open_places: int) -> frozenset[int]:
    """Every total :func:`plain_range` allows: its bounds and each value of their parity
    in between."""
    bounds = plain_range(count, open_places)
    if bounds is None:
        return frozenset()
    return frozenset(range(bounds[0], bounds[1] + 1, 2))


def _taker_points(acc: Accounting) -> dict[int, set[int]]:
    """Bouts -> the taker's camp's half-points, for one way the cards end up."""
    out: dict[int, set[int]] = {}
    for trump_bouts in range(len(_TRUMP_BOUTS) + 1):
        if trump_bouts > acc.taker_open or len(_TRUMP_BOUTS) - trump_bouts > acc.defence_places:
            continue
        open_left = acc.taker_open - trump_bouts
        base = (trump_bouts * _TRUMP_BOUT_HALF + (_EXCUSE_HALF if acc.taker_excuse else 0)
                + acc.adjust)
        bounds = plain_range(open_left + acc.taker_ecart, open_left)
        if bounds is not None:
            out.setdefault(trump_bouts + acc.taker_excuse, set()).update(
                range(base + bounds[0], base + bounds[1] + 1, 2))
    return out


def reachable_points(players: int, contract: Contract, rules: Ruleset, won: Won, *,
                     attackers: int = 1) -> Mapping[int, frozenset[int]]:
    """Bouts -> every count of half-points the taker's camp can end a deal with.

    Derived from the rules (docs/rules.md §1, §4, §7, §9) through :func:`accountings`:
    for each way the cards end up, the taker's camp holds its trump bouts (the Petit and
    the 21, 4.5 points each) where it may (its tricks, the chien of a Garde sans; never the
    écart), the Excuse when it ends with it, and any other cards for the rest of its
    places; the exchange moves a low card. ``won`` says whether the taker's camp won every
    trick (its chelem), none (the defence's) or some; ``attackers`` is 2 at five players
    with a partner.

    >>> from tarotnotation.rules import Ruleset
    >>> sans = reachable_points(4, Contract.GARDE_SANS, Ruleset.fft(), Won.NONE)
    >>> max(sans[3]) / 2   # the chien of 4 Kings, the Petit and the 21, and the Excuse
    31.5
    """
    return _reachable(players, contract, counting_rules(rules), attackers, won)


def counting_rules(rules: Ruleset) -> Ruleset:
    """The switches counting depends on (§7), the others at their defaults: one cache
    entry for rulesets that count alike."""
    return _counting(rules.excuse_last_trick, rules.chelem_excuse_wins)


@lru_cache(maxsize=8)
def _counting(excuse_last: ExcuseLastTrick, chelem_excuse_wins: bool) -> Ruleset:
    return Ruleset(excuse_last_trick=excuse_last, chelem_excuse_wins=chelem_excuse_wins)


@lru_cache(maxsize=512)
def _reachable(players: int, contract: Contract, rules: Ruleset, attackers: int, won: Won
               ) -> Mapping[int, frozenset[int]]:
    found: dict[int, set[int]] = {}
    for acc in _accountings(players, contract, rules, attackers):
        if acc.won is won:
            for bouts, half in _taker_points(acc).items():
                found.setdefault(bouts, set()).update(half)
    return {b: frozenset(found[b]) for b in sorted(found)}


def points_bounds(camp: Camp, bouts: int, won: Won, players: int, contract: Contract,
                  rules: Ruleset, *, attackers: int = 1) -> tuple[int, int] | None:
    """The lowest and highest half-points ``camp`` can end a deal with, holding ``bouts``
    bouts, when the *taker's* camp won ``won`` tricks; None when it cannot hold them.

    The defence's points are the rest of the pack (docs/rules.md §9), so its bounds are
    the taker's turned round. See :func:`reachable_points` for the derivation.

    >>> from tarotnotation.rules import Ruleset
    >>> points_bounds(Camp.TAKER, 0, Won.SOME, 4, Contract.PRISE, Ruleset.fft())
    (10, 154)
    >>> points_bounds(Camp.DEFENCE, 3, Won.SOME, 4, Contract.PRISE, Ruleset.fft())
    (28, 172)
    """
    taker_bouts = bouts if camp is Camp.TAKER else 3 - bouts
    half = reachable_points(players, contract, rules, won, attackers=attackers).get(
        taker_bouts)
    if not half:
        return None
    if camp is Camp.TAKER:
        return min(half), max(half)
    return PACK_HALF - max(half), PACK_HALF - min(half)


# --- declarations and scores (docs/rules.md §5, §10) -------------------------------------


def poignee_trumps() -> int:
    """The most cards all the poignées of a deal can show together: every trump, and the
    Excuse once (it stands in for a trump, docs/rules.md §5).

    >>> poignee_trumps()
    22
    """
    return TRUMP_MASK.bit_count() + 1


@lru_cache(maxsize=16)
def share_weights(players: int, partner: bool) -> tuple[int, int | None, int]:
    """What the taker, the partner (None when alone) and each defender get, in units of
    what one defender pays (docs/rules.md §10: :func:`tarotnotation.kernel.shares`).

    >>> share_weights(4, False), share_weights(5, True), share_weights(5, False)
    ((3, None, -1), (2, 1, -1), (4, None, -1))
    """
    taker, with_partner, defender = kernel.shares(players, partner)
    return taker, (with_partner if partner else None), defender


@lru_cache(maxsize=16)
def score_bounds(contract: Contract, *, announced: bool) -> tuple[int, int]:
    """``(most, least)``: a lost contract has each defender paying at most ``most`` (a
    negative number), a made one at least ``least`` (docs/rules.md §9, §10).

    Worked out with :func:`tarotnotation.scoring.score` on the closest facts: made by 0
    with the petit au bout against the taker (and an announced chelem failed, when one was
    announced), and lost by the half point that goes to the defence with the petit au bout
    for the taker. Poignées only add to the winner's side, and a made contract never comes
    with the defence's chelem (the taker's camp then holds no more than the chien or écart
    and the Excuse, :func:`reachable_points`; tests/kernel/test_plausibility_bounds.py checks it).

    >>> score_bounds(Contract.GARDE, announced=False)
    (-32, 30)
    >>> score_bounds(Contract.PRISE, announced=True)
    (-216, -185)
    """
    thr = threshold(0)
    made = score(DealFacts(players=4, taker=0, contract=contract, taker_half=thr, bouts=0,
                           petit_au_bout=Camp.DEFENCE, chelem_announced=announced)).x
    lost = score(DealFacts(players=4, taker=0, contract=contract, taker_half=thr - 1,
                           bouts=0, petit_au_bout=Camp.TAKER,
                           chelem_announced=announced)).x
    return lost, made
