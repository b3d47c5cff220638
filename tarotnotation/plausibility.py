"""What a deal can produce, and the cross-check of a recorded result against it.

A score sheet records facts: the contract, the taker, the taker's camp's card points, its
bouts, the petit au bout, the chelem, the poignées, the partner, each seat's score. The
replay recomputes the score from them (:mod:`tarotnotation.scoring`); this module asks
first whether the facts can be true at all, under the record's ruleset, contract and
number of players: a chelem with 58 points, 95 points, a petit au bout for a camp that
took no trick, scores that do not share the way the rules share them.

Pure: ints, enums and frozen dataclasses (no pydantic, no text). Two parts:

- **Bounds.** :func:`reachable_points` gives, for each number of bouts, every count of
  half-points the taker's camp can end a deal with, given whether it won every trick, some
  or none. It is *derived* from the rules, not copied from a table: :func:`accountings`
  lists every way the cards can end up (how many tricks each camp takes, where the chien
  goes, what becomes of the Excuse), and the values of the other cards are then chosen
  freely from the pack (:func:`plain_range`). :func:`points_bounds` gives the extremes for
  either camp. :func:`poignee_trumps` and :func:`score_bounds` bound the declarations and
  the amount of a score. The derivation counts cards; of the order of play it knows what
  the Excuse and the lead of the last trick imply (:func:`accountings`), not every
  constraint of following suit. So the chelems' bounds are exact (a built deal reaches
  each one: ``tests/kernel/test_plausibility_bounds.py``), and another bound may be loose (at
  four players 81.5 points with one bout passes, though following suit forbids it): a
  loose bound lets an impossible count pass, it never flags a true one.
- **The cross-check.** :func:`check` takes a :class:`Facts` (the recorded result as plain
  values) and returns a :class:`Finding` for each fact that cannot be true, with the code
  (``R2xx``, or ``R102`` for scores that do not sum to zero) and words that say why. One
  impossible fact never stops the others from being checked. :func:`deal_number` and
  :class:`SessionDeals` find the same deal number twice in one session of a file
  (``R301``).

The rules are cited by their sections in ``docs/rules.md``.

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

from array import array
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Final

from . import kernel
from .cards import BOUTS_MASK, EXCUSE_BIT, TRUMP_MASK, Card, card_points, points_text
from .diagnostics import Code
from .i18n import Msg, and_list, nmsg, pmsg
from .rules import (
    Camp,
    Contract,
    ExcuseLastTrick,
    MisereKind,
    Ruleset,
    table,
    threshold,
)
from .scoring import DealFacts, score
from .values import Value

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "PACK_HALF",
    "Accounting",
    "Facts",
    "Finding",
    "SessionDeals",
    "Won",
    "accountings",
    "check",
    "deal_number",
    "plain_number",
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
    return _accountings(players, contract, _counting_rules(rules), attackers)


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
    card at a time can be swapped for one worth 2 more (``tests/test_plausibility_bounds``
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
    return _reachable(players, contract, _counting_rules(rules), attackers, won)


def _counting_rules(rules: Ruleset) -> Ruleset:
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


# --- the cross-check ---------------------------------------------------------------------


class Facts(Value):
    """A recorded result and what the replay knows around it, as plain values.

    Seats are indices into ``seat_ids``. ``contract``, ``taker`` and the partner are the
    replay's (from the auction, the call and the cards, else from the result).
    """

    __slots__ = (
        "annulled",
        "bouts",
        "chelem",
        "chelem_announced",
        "contract",
        "misere_seats",
        "miseres",
        "partner",
        "partner_known",
        "petit_au_bout",
        "players",
        "poignees",
        "points",
        "points_written",
        "recorded_partner",
        "rules",
        "scores",
        "seat_ids",
        "taker",
    )
    players: int
    rules: Ruleset
    seat_ids: tuple[str, ...]
    contract: Contract | None
    taker: int | None
    partner: int | None
    """The partner's seat at five players; None when the taker is alone or unknown."""
    partner_known: bool
    """True when it is known whether (and with whom) the taker played with a partner."""
    points: Fraction | None
    """The taker's camp's points as recorded (any number: this module judges it)."""
    points_written: str | None
    """Those points as the record writes them (``45.3``), for the messages."""
    bouts: int | None
    petit_au_bout: Camp | None
    chelem: Camp | None
    chelem_announced: bool
    annulled: bool
    """The deal is annulled (all passed, a Petit sec, the Petit in the chien under
    ``petit_in_chien=annuls``), or the result says so."""
    recorded_partner: int | None
    """The partner the result names (the taker's own seat when alone)."""
    poignees: tuple[tuple[int, int, int], ...]
    """``(declaration index, seat, cards shown)`` of each poignée."""
    miseres: tuple[tuple[int, int, MisereKind], ...]
    """``(declaration index, seat, kind)`` of each misère declared."""
    misere_seats: tuple[int, ...]
    """The seats whose misère counts in the score."""
    scores: tuple[int | None, ...]
    """Each seat's recorded score (None where not recorded)."""

    def __init__(self, players: int, rules: Ruleset, seat_ids: tuple[str, ...],
                 contract: Contract | None = None, taker: int | None = None,
                 partner: int | None = None, partner_known: bool = False,
                 points: Fraction | None = None, points_written: str | None = None,
                 bouts: int | None = None, petit_au_bout: Camp | None = None,
                 chelem: Camp | None = None, chelem_announced: bool = False, annulled: bool = False,
                 recorded_partner: int | None = None,
                 poignees: tuple[tuple[int, int, int], ...] = (),
                 miseres: tuple[tuple[int, int, MisereKind], ...] = (),
                 misere_seats: tuple[int, ...] = (), scores: tuple[int | None, ...] = ()) -> None:
        setfield = object.__setattr__
        setfield(self, "players", players)
        setfield(self, "rules", rules)
        setfield(self, "seat_ids", seat_ids)
        setfield(self, "contract", contract)
        setfield(self, "taker", taker)
        setfield(self, "partner", partner)
        setfield(self, "partner_known", partner_known)
        setfield(self, "points", points)
        setfield(self, "points_written", points_written)
        setfield(self, "bouts", bouts)
        setfield(self, "petit_au_bout", petit_au_bout)
        setfield(self, "chelem", chelem)
        setfield(self, "chelem_announced", chelem_announced)
        setfield(self, "annulled", annulled)
        setfield(self, "recorded_partner", recorded_partner)
        setfield(self, "poignees", poignees)
        setfield(self, "miseres", miseres)
        setfield(self, "misere_seats", misere_seats)
        setfield(self, "scores", scores)


class Finding(Value):
    """A fact that cannot be true: a code, words that say why, and where (a record path
    and, where it applies, a seat)."""

    __slots__ = ("code", "message", "path", "seat")
    code: Code
    message: str
    path: str
    seat: int | None

    def __init__(self, code: Code, message: str, path: str, seat: int | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "code", code)
        setfield(self, "message", message)
        setfield(self, "path", path)
        setfield(self, "seat", seat)


def check(facts: Facts) -> tuple[Finding, ...]:
    """Every recorded fact that a deal under these rules cannot produce.

    >>> from fractions import Fraction
    >>> from tarotnotation.rules import Ruleset
    >>> f = Facts(players=4, rules=Ruleset.fft(), seat_ids=("S", "E", "N", "W"),
    ...           contract=Contract.GARDE, taker=0, points=Fraction(58), bouts=3,
    ...           chelem=Camp.TAKER)
    >>> for finding in check(f):
    ...     print(finding.code.value, finding.path)
    ...     print(finding.message)
    R207 result.taker_points
    a chelem by the taker's camp in a Garde at 4 players leaves it 91 points with 3 bouts,
    or 87 with 2 (the defence kept the Excuse, which counts 4): not 58 with 3 bouts
    """
    return tuple(_Checker(facts).run())


class _Checker:
    def __init__(self, facts: Facts) -> None:
        self.f = facts
        self.out: list[Finding] = []

    def add(self, code: Code, message: str, path: str, seat: int | None = None) -> None:
        self.out.append(Finding(code, message, path, seat))

    def run(self) -> list[Finding]:
        f = self.f
        half = self.points()
        bouts = self.bouts()
        if f.recorded_partner is not None and f.players != 5:
            self.add(Code.PARTNER_AT_FEWER_THAN_FIVE, Msg("the result names a partner ({seat}),"
                                                          " but a taker has a partner only at"
                                                          " five players, not at {players}"
                                                          " (docs/rules.md §3)",
                                                          seat=f.seat_ids[f.recorded_partner],
                                                          players=f.players),
                     "result.partner", f.recorded_partner)
        self.declarations()
        if f.annulled:
            self.annulled()
        else:
            self.card_facts(half, bouts)
        self.scores(half, bouts)
        return self.out

    # --- points and bouts ---------------------------------------------------------------

    def points(self) -> int | None:
        """The recorded points in half-points when they can be card points, else None
        (each reason reported)."""
        points = self.f.points
        if points is None:
            return None
        doubled = points * 2
        if doubled.denominator == 1 and 0 <= doubled.numerator <= PACK_HALF:
            return doubled.numerator  # card points, as nearly every record gives them
        from fractions import Fraction  # (only for points that are not card points)

        text = self.f.points_written or str(float(points))
        usable = True
        if not 0 <= points <= Fraction(PACK_HALF, 2):
            self.add(Code.POINTS_OUT_OF_RANGE, Msg("{text} points: a camp's card points lie"
                                                   " between 0 and {points}, the value of the"
                                                   " whole pack (docs/rules.md §1)",
                                                   text=text, points=points_text(PACK_HALF)),
                                               "result.taker_points")
            usable = False
        doubled = points * 2
        if doubled.denominator != 1:
            below = Fraction(int(doubled // 1), 2)
            self.add(Code.POINTS_NOT_HALF, Msg("{text} points: every card is worth a whole number"
                                               " of half points, so a camp's points are whole or"
                                               " end in .5 (docs/rules.md §1): expected {points}"
                                               " or {points2}",
                                               text=text, points=points_text(int(below * 2)),
                                               points2=points_text(int(below * 2) + 1)),
                                           "result.taker_points")
            usable = False
        return int(doubled) if usable else None

    def bouts(self) -> int | None:
        bouts = self.f.bouts
        if bouts is None:
            return None
        if not 0 <= bouts <= 3:
            self.add(Code.BOUTS_OUT_OF_RANGE, Msg("{bouts} bouts: there are three bouts, the"
                                                  " Petit, the 21 and the Excuse (docs/rules.md"
                                                  " §1): expected 0 to 3", bouts=bouts),
                     "result.bouts")
            return None
        return bouts

    def contracts(self) -> tuple[Contract, ...]:
        return (self.f.contract,) if self.f.contract is not None else tuple(Contract)

    def camp_sizes(self) -> tuple[int, ...]:
        f = self.f
        if f.players != 5:
            return (1,)
        if f.partner_known:
            return (2,) if f.partner is not None else (1,)
        return (1, 2)

    def reachable(self, won: Iterable[Won]) -> Mapping[int, frozenset[int]]:
        return _reachable_any(self.f.players, self.contracts(), _counting_rules(self.f.rules),
                              self.camp_sizes(), tuple(won))

    def setting(self) -> str:
        """``a Garde at 4 players``: where the bound holds."""
        f = self.f
        if f.contract is None:
            return Msg("a deal at {players} players", players=f.players)
        return Msg("a {contract} at {players} players", contract=f.contract.french,
                   players=f.players)

    def card_facts(self, half: int | None, bouts: int | None) -> None:
        f = self.f
        if f.chelem is not None:
            self.chelem(f.chelem, half, bouts)
        elif half is not None:
            self.points_for_bouts(half, bouts)
        pab = f.petit_au_bout
        if pab is not None:
            if f.chelem is pab.other:
                self.add(Code.PETIT_AU_BOUT_AGAINST_CHELEM, Msg("the petit au bout goes to the"
                                                                " {camp}, but the {camp2} won"
                                                                " every trick: the last trick (or"
                                                                " the one before it, when the"
                                                                " Excuse is led last in a chelem)"
                                                                " is the chelem camp's"
                                                                " (docs/rules.md §8)",
                                                                camp=_camp(pab),
                                                                camp2=_camp(f.chelem)),
                         "result.petit_au_bout")
            elif bouts == (0 if pab is Camp.TAKER else 3):
                gives = (Msg("it no bout") if pab is Camp.TAKER
                         else Msg("the taker's camp all 3 bouts"))
                self.add(Code.PETIT_AU_BOUT_WITHOUT_PETIT, Msg("the petit au bout goes to the"
                                                               " {camp}, which then ends with the"
                                                               " Petit in its tricks, but the"
                                                               " result gives {gives}"
                                                               " (docs/rules.md §8)",
                                                               camp=_camp(pab), gives=gives),
                         "result.petit_au_bout")

    def chelem(self, camp: Camp, half: int | None, bouts: int | None) -> None:
        won = Won.EVERY if camp is Camp.TAKER else Won.NONE
        found = self.reachable([won])
        code = (Code.CHELEM_ATTACK_IMPOSSIBLE if camp is Camp.TAKER
                else Code.CHELEM_DEFENCE_IMPOSSIBLE)
        if bouts is not None and bouts not in found:
            self.add(code, Msg("a chelem by the {camp} in {setting} leaves {whom} {counts}: not"
                               " {given}", camp=_camp(camp), setting=self.setting(),
                               whom=_whom(camp), counts=_describe(found, camp),
                               given=_bouts_text(bouts)),
                     "result.bouts")
            return
        if half is None:
            return
        allowed = found[bouts] if bouts is not None else set().union(*found.values())
        if half not in allowed:
            given = Msg("{points}{with_bouts}", points=points_text(half),
                        with_bouts=_with_bouts(bouts))
            self.add(code, Msg("a chelem by the {camp} in {setting} leaves {whom} {counts}: not"
                               " {given}", camp=_camp(camp), setting=self.setting(),
                               whom=_whom(camp), counts=_describe(found, camp), given=given),
                     "result.taker_points")

    def points_for_bouts(self, half: int, bouts: int | None) -> None:
        found = self.reachable(Won)
        allowed = found.get(bouts, set()) if bouts is not None else set().union(
            *found.values())
        if half in allowed:
            return
        with_bouts = _with_bouts(bouts)
        lo, hi = min(allowed), max(allowed)
        given = (Msg("{points} point{with_bouts} in {setting}", points=points_text(half),
                     with_bouts=with_bouts, setting=self.setting()) if half == 2 else
                 Msg("{points} points{with_bouts} in {setting}", points=points_text(half),
                     with_bouts=with_bouts, setting=self.setting()))
        if half < lo:
            self.add(Code.POINTS_BELOW_BOUTS, Msg("{given}: the taker's camp has at least"
                                                  " {points} (its bouts count 4.5 points each,"
                                                  " and every other card it counts, in its tricks"
                                                  " or the chien or écart that goes to it, at"
                                                  " least half a point; docs/rules.md §1, §4, §9)",
                                                  given=given, points=points_text(lo)),
                     "result.taker_points")
        elif half > hi:
            left = (Msg("") if bouts is None or bouts == 3
                    else Msg(" the other {bouts} and", bouts=_bouts_text(3 - bouts)))
            self.add(Code.POINTS_ABOVE_BOUTS, Msg("{given}: the defence holds{left} the cards of"
                                                  " its own tricks (or the chien), so the taker's"
                                                  " camp has at most {points} (docs/rules.md §1,"
                                                  " §4, §9)",
                                                  given=given, left=left, points=points_text(hi)),
                                              "result.taker_points")
        else:
            below = max(h for h in allowed if h < half)
            above = min(h for h in allowed if h > half)
            self.add(Code.POINTS_UNREACHABLE, Msg("{given}: no deal counts so; the nearest counts"
                                                  " are {points} and {points2}{why_gap}"
                                                  " (docs/rules.md §7, §9)",
                                                  given=given, points=points_text(below),
                                                  points2=points_text(above),
                                                  why_gap=_why_gap(self.f, half)),
                     "result.taker_points")

    # --- declarations -----------------------------------------------------------------

    def declarations(self) -> None:
        f = self.f
        shown = 0
        limit = poignee_trumps()
        for index, _seat, count in f.poignees:
            shown += count
            if shown > limit and shown - count <= limit:
                each = ", ".join(f"{f.seat_ids[s]} {c}" for _, s, c in f.poignees)
                self.add(Code.POIGNEES_TOO_MANY_TRUMPS, Msg("the poignées shown ({each}) need"
                                                            " {sum} trumps, but there are {limit}"
                                                            " trumps and the Excuse, which stands"
                                                            " in for one (docs/rules.md §5)",
                                                            each=each,
                                                            sum=sum(c for _, _, c in f.poignees),
                                                            limit=limit - 1),
                                                        f"declarations[{index}]", _seat)
        atout = {s: i for i, s, kind in f.miseres if kind is MisereKind.ATOUT}
        if f.rules.misere:
            for index, seat, _count in f.poignees:
                if seat in atout:
                    self.add(Code.POIGNEE_WITH_MISERE, Msg("{seat} shows a poignée and declares a"
                                                           " misère d'atout (no trump, no"
                                                           " Excuse): both cannot be true"
                                                           " (docs/rules.md §5, §12)",
                                                           seat=f.seat_ids[seat]),
                             f"declarations[{max(index, atout[seat])}]", seat)

    def annulled(self) -> None:
        f = self.f
        facts = [name for name, value in ((Msg("points"), f.points), (Msg("bouts"), f.bouts),
                                          (Msg("a petit au bout"), f.petit_au_bout),
                                          (Msg("a chelem"), f.chelem)) if value is not None]
        if facts:
            self.add(Code.ANNULLED_WITH_FACTS, Msg("the result gives {facts} for an annulled deal"
                                                   " (by its auction, or as the result says): an"
                                                   " annulled deal is not played, so it has none"
                                                   " (docs/rules.md §2, §3)",
                                                   facts=and_list(facts)), "result")

    # --- scores -----------------------------------------------------------------------

    def scores(self, half: int | None, bouts: int | None) -> None:
        f = self.f
        recorded = f.scores
        if not recorded or all(s is None for s in recorded):
            return
        if None not in recorded:
            total = sum(s for s in recorded if s is not None)
            if total != 0:
                self.add(Code.SCORES_NOT_ZERO_SUM, Msg("the recorded scores sum to {total}:"
                                                       " expected 0",
                                                       total=format(total, '+d')), "result.scores")
        if f.annulled or f.taker is None:
            return
        misere = [0] * f.players
        if f.misere_seats:  # settled apart from the contract, whatever it is
            misere = list(score(DealFacts(players=f.players, taker=f.taker,
                                          contract=Contract.PRISE, taker_half=threshold(0),
                                          bouts=0, miseres=f.misere_seats)).misere_amounts)
        own = [None if s is None else s - m for s, m in zip(recorded, misere, strict=True)]
        x = self.shares(own)
        if x is not None and f.contract is not None:
            self.sign(x, half, bouts)

    def weights(self, partner: int | None) -> list[int]:
        """Each seat's share in units of what a defender pays, with ``partner``."""
        f = self.f
        taker_w, partner_w, defender_w = share_weights(f.players, partner is not None)
        out = [defender_w] * f.players
        if partner is not None and partner_w is not None:
            out[partner] = partner_w
        assert f.taker is not None
        out[f.taker] = taker_w
        return out

    def shares(self, own: Sequence[int | None]) -> int | None:
        """Check that the scores share the way the rules share a deal (docs/rules.md §10);
        return what each defender pays (X) when they do and it is known."""
        f = self.f
        taker = f.taker
        assert taker is not None
        known = {s: v for s, v in enumerate(own) if v is not None}
        if f.players == 5 and not f.partner_known:
            # Alone, or with any other seat as partner: the scores must fit one of them.
            fits = {x for partner in (None, *(s for s in range(5) if s != taker))
                    for x in [_fit(known, self.weights(partner))] if x is not None}
            if not fits:
                listed = ", ".join(f"{f.seat_ids[s]} {v:+d}" for s, v in known.items())
                self.add(Code.SCORES_NOT_SHARED, Msg("the scores ({listed}) are not shared as a"
                                                     " deal is at 5 players: each defender pays"
                                                     " the same, the taker gets 4 times that"
                                                     " alone, or 2 times with a partner who gets"
                                                     " as much (docs/rules.md §10)",
                                                     listed=listed), "result.scores")
            return next(iter(fits)) if len(fits) == 1 else None
        partner = f.partner if f.players == 5 else None
        weights = self.weights(partner)
        defenders = [s for s in known if weights[s] < 0]
        if len({known[s] for s in defenders}) > 1:
            listed = ", ".join(f"{f.seat_ids[s]} {known[s]:+d}" for s in defenders)
            self.add(Code.SCORES_NOT_SHARED, Msg("the defenders are recorded with different"
                                                 " scores ({listed}): every defender pays or"
                                                 " receives the same (docs/rules.md §10)",
                                                 listed=listed),
                                             f"result.scores.{f.seat_ids[defenders[-1]]}",
                     defenders[-1])
            return None
        x = -known[defenders[0]] if defenders else None
        alone = ""
        if f.players == 5 and f.recorded_partner is not None:
            alone = (Msg(" (the result names the taker as partner: he played alone)")
                     if f.recorded_partner == taker else
                     Msg(" (the result names {seat} as partner)",
                         seat=f.seat_ids[f.recorded_partner]))
        for seat in (taker, partner):
            if seat is None or seat not in known:
                continue
            role = Msg("the taker") if seat == taker else Msg("the partner")
            value, weight = known[seat], weights[seat]
            if x is None:
                if value % weight == 0:
                    x = value // weight
                    continue
                self.add(Code.SCORES_NOT_SHARED, Msg("{role} ({seat}) is recorded with {value},"
                                                     " which is not {weight} times what a"
                                                     " defender pays{alone} (docs/rules.md §10)",
                                                     role=role, seat=f.seat_ids[seat],
                                                     value=format(value, '+d'), weight=weight,
                                                     alone=alone),
                         f"result.scores.{f.seat_ids[seat]}", seat)
                return None
            if value != weight * x:
                self.add(Code.SCORES_NOT_SHARED, Msg("{role} ({seat}) is recorded with {value}"
                                                     " and each defender with {value2}: at"
                                                     " {players} players {role} gets {times} what"
                                                     " a defender pays, {weight}{alone}"
                                                     " (docs/rules.md §10)",
                                                     role=role, seat=f.seat_ids[seat],
                                                     value=format(value, '+d'),
                                                     value2=format(-x, '+d'), players=f.players,
                                                     times=_times(weight),
                                                     weight=format(weight * x, '+d'), alone=alone),
                         f"result.scores.{f.seat_ids[seat]}", seat)
                return None
        return x

    def sign(self, x: int, half: int | None, bouts: int | None) -> None:
        """A made contract pays the taker, a lost one the defence, by at least the
        contract's least amount (:func:`score_bounds`)."""
        f = self.f
        contract = f.contract
        assert contract is not None
        assert f.taker is not None
        most_lost, least_made = score_bounds(contract, announced=f.chelem_announced)
        made: bool | None = None
        if half is not None and bouts is not None:
            made = kernel.margin(half, bouts) >= 0
        elif half is not None and kernel.margin(half, 0) >= 0:
            made = True  # enough with no bout
        elif half is not None and kernel.margin(half, 3) < 0:
            made = False  # too few even with three
        taker_id = f.seat_ids[f.taker]
        who = (Msg("each defender pays {x}", x=x) if x >= 0
               else Msg("each defender gets {x}", x=-x))
        path = f"result.scores.{taker_id}" if f.scores[f.taker] is not None else "result.scores"
        if made is True and x < least_made:
            need = threshold(bouts if bouts is not None else 0)
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the taker ({taker_id}) made the {contract}"
                                                    " ({points} points{value}; {points2} needed),"
                                                    " so each defender pays at least"
                                                    " {least_made}, but the scores say {who}"
                                                    " (docs/rules.md §9, §10)",
                                                    taker_id=taker_id, contract=contract.french,
                                                    points=points_text(half or 0),
                                                    value=_with_bouts(bouts),
                                                    points2=points_text(need),
                                                    least_made=least_made, who=who), path, f.taker)
        elif made is False and x > most_lost:
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the taker ({taker_id}) lost the {contract}"
                                                    " ({points} points{value}), so each defender"
                                                    " gets at least {value2}, but the scores say"
                                                    " {who} (docs/rules.md §9, §10)",
                                                    taker_id=taker_id, contract=contract.french,
                                                    points=points_text(half or 0),
                                                    value=_with_bouts(bouts),
                                                    value2=-most_lost, who=who), path, f.taker)
        elif made is None and most_lost < x < least_made:
            self.add(Code.SCORE_AGAINST_RESULT, Msg("the scores say {who} in a {contract}: a made"
                                                    " contract pays each defender's share at"
                                                    " least {least_made}, a lost one at least"
                                                    " {value} the other way (docs/rules.md §10)",
                                                    who=who, contract=contract.french,
                                                    least_made=least_made, value=-most_lost),
                                                path, f.taker)


@lru_cache(maxsize=256)
def _reachable_any(players: int, contracts: tuple[Contract, ...], rules: Ruleset,
                   sizes: tuple[int, ...], wons: tuple[Won, ...]
                   ) -> Mapping[int, frozenset[int]]:
    """Bouts -> the points any of these contracts, camp sizes and outcomes allow."""
    out: dict[int, set[int]] = {}
    for contract in contracts:
        for size in sizes:
            for w in wons:
                for b, half in _reachable(players, contract, rules, size, w).items():
                    out.setdefault(b, set()).update(half)
    return {b: frozenset(half) for b, half in sorted(out.items())}


def _fit(known: Mapping[int, int], weights: Sequence[int]) -> int | None:
    """The X with ``known[s] == weights[s] * X`` for every seat, or None."""
    xs = {v // weights[s] if v % weights[s] == 0 else None for s, v in known.items()}
    if len(xs) != 1 or None in xs:
        return None
    return next(iter(xs))


def _why_gap(f: Facts, half: int) -> str:
    if f.players == 4 and half % 2:
        if f.rules.excuse_last_trick is ExcuseLastTrick.CHANGES_CAMP:
            return Msg(": at 4 players a half point arises only when the Excuse changes camp"
                       " on the last trick")
        return Msg(": at 4 players under excuse_last_trick=to_trick_winner every count is a"
                   " whole number of points")
    return Msg(": the cards a camp counts come by whole tricks")


def _whom(camp: Camp) -> str:
    return pmsg("to camp", "it") if camp is Camp.TAKER else pmsg("to camp", "the taker's camp")


def _camp(camp: Camp | None) -> str:
    return pmsg("camp", "taker's camp") if camp is Camp.TAKER else pmsg("camp", "defence")


def _bouts_text(bouts: int) -> str:
    return nmsg("{n} bout", "{n} bouts", bouts, n=bouts)


def _with_bouts(bouts: int | None) -> str:
    return Msg("") if bouts is None else Msg(" with {bouts}", bouts=_bouts_text(bouts))


def _times(weight: int) -> str:
    return Msg("as much as") if weight == 1 else Msg("{n} times", n=weight)


def _and(items: Sequence[str]) -> str:
    return and_list(items)


def _describe(found: Mapping[int, Collection[int]], camp: Camp) -> str:
    """The taker's camp's possible counts by bouts, in words."""
    parts: list[tuple[str, int]] = []
    for bouts in sorted(found, reverse=True):
        values = sorted(found[bouts])
        if len(values) <= 3:
            text = points_text(values[0])
            for v in values[1:]:
                text = Msg("{items} or {item}", items=text, item=points_text(v))
        else:
            text = Msg("between {low} and {high}", low=points_text(values[0]),
                       high=points_text(values[-1]))
        parts.append((text, bouts))
    words: list[str] = []
    for i, (text, bouts) in enumerate(parts):
        if i == 0:
            words.append(Msg("{values} points with {bouts}", values=text,
                             bouts=_bouts_text(bouts)))
        else:
            words.append(Msg("{values} with {n}", values=text, n=bouts))
    out = words[0]
    for word in words[1:-1]:
        out = Msg("{items}, {item}", items=out, item=word)
    if len(words) > 1:
        out = Msg("{items}, or {item}", items=out, item=words[-1])
    if camp is Camp.TAKER and len(parts) == 2 and all(len(v) == 1 for v in found.values()):
        out = Msg("{counts} (the defence kept the Excuse, which counts 4)", counts=out)
    return out


# --- sessions (across a file) ------------------------------------------------------------

#: The tags that name a session: the same deal number twice under the same values is a
#: fault; the same deal at several tables (another Table) is a duplicate tournament.
SESSION_TAGS: Final = ("Event", "Site", "Date", "Round", "Table")


def deal_number(tags: Iterable[tuple[str, str]]) -> tuple[tuple[str, ...], str] | None:
    """``(session, deal number)`` of a record from its tags, or None without a ``Deal``
    tag. The session is the values of :data:`SESSION_TAGS` (empty when absent); a number
    is compared without leading zeros.

    >>> deal_number([("Event", "Club"), ("Deal", "07"), ("Table", "2")])
    (('Club', '', '', '', '2'), '7')
    >>> deal_number([("Event", "Club")]) is None
    True
    """
    values: dict[str, str] = {}
    for name, value in tags:
        values.setdefault(name.lower(), value.strip())
    number = values.get("deal")
    if number is None or not number:
        return None
    if number.isdigit():
        number = str(int(number))
    return tuple(values.get(t.lower(), "") for t in SESSION_TAGS), number


class SessionDeals:
    """The deal numbers seen in one file, by session: :meth:`see` says when a number comes
    again (docs/notation.md §2 tags).

    Numbers are kept as runs: ``n`` to ``m`` first seen at deals ``d`` to ``d + m - n``
    (a file numbered 1, 2, 3… holds one run a session, whatever its size), so a file of
    a million numbered deals is checked in bounded memory; :meth:`see_run` takes a run
    at once. A number that is not written as a plain decimal (``12a``, ``007`` given as
    such) is kept as it is.

    >>> seen = SessionDeals()
    >>> seen.see((("Club", "", "", "", ""), "1"), 1) is None
    True
    >>> seen.see((("Club", "", "", "", ""), "1"), 4)
    1
    >>> seen.see_run(("Club", "", "", "", ""), 2, 3, 2)  # numbers 2-4 at deals 2-4
    []
    >>> seen.see_run(("Club", "", "", "", ""), 3, 4, 5)  # 3-6 at deals 5-8: 3 and 4 again
    [(5, 3), (6, 4)]
    >>> seen.see((("Club", "", "", "", ""), "6"), 9)
    8
    """

    def __init__(self) -> None:
        self.named: dict[tuple[tuple[str, ...], str], int] = {}
        self.runs: dict[tuple[str, ...], _Runs] = {}
        # (session, number, deal, runs): the key that would continue the highest run of a
        # session, as the last one seen did
        self._next: tuple[tuple[str, ...], str, int, _Runs] | None = None

    def see(self, key: tuple[tuple[str, ...], str] | None, deal: int) -> int | None:
        """The deal (index in the file) that first had ``key``, or None the first time."""
        if key is None:
            return None
        session, number = key
        then = self._next
        if then is not None and number == then[1] and deal == then[2] and session == then[0]:
            # (the usual case: the number after the last one seen, at the next deal)
            then[3].highs[-1] += 1
            self._next = (session, str(int(number) + 1), deal + 1, then[3])
            return None
        n = plain_number(number)
        if n is None:
            first = self.named.setdefault(key, deal)
            return None if first == deal else first
        runs = self.runs.get(session)
        if runs is None:
            runs = self.runs[session] = _Runs()
        again = runs.see(n, 1, deal)
        self._next = (session, str(n + 1), deal + 1, runs) if runs.extends(n + 1, deal + 1,
                                                                          probe=True) else None
        return again[0][1] if again else None

    def see_run(self, session: tuple[str, ...], number: int, count: int, deal: int
                ) -> list[tuple[int, int]]:
        """See the numbers ``number`` to ``number + count - 1`` of ``session`` at deals
        ``deal`` to ``deal + count - 1``: ``(deal, first)`` for each deal whose number an
        earlier deal ``first`` had (as :meth:`see` says it of each in turn)."""
        self._next = None  # (its runs may change)
        runs = self.runs.get(session)
        if runs is None:
            runs = self.runs[session] = _Runs()
        return runs.see(number, count, deal)

    @staticmethod
    def message(key: tuple[tuple[str, ...], str], first: int) -> str:
        """The words of an R301 diagnostic."""
        session, number = key
        named = ", ".join(f'{t} "{v}"' for t, v in zip(SESSION_TAGS, session, strict=True)
                          if v)
        where = (Msg("session {named}", named=named) if named
                 else Msg("session (no Event, Site, Date, Round or Table tag)"))
        return Msg("deal number {number} of {where} was already given to deal {first} of"
                   " this file: a session numbers each deal once (the same deal at another"
                   " Table is a duplicate tournament)", number=number, where=where,
                   first=first)


#: The longest deal number kept as an int in a run (a 64-bit one).
_PLAIN_DIGITS: Final = 18


def plain_number(number: str) -> int | None:
    """A deal number written as a plain decimal (no leading zero, as :func:`deal_number`
    gives it), as an int; None for any other.

    >>> plain_number("12"), plain_number("012"), plain_number("12a"), plain_number("0")
    (12, None, None, 0)
    """
    if (number.isascii() and number.isdigit() and len(number) <= _PLAIN_DIGITS
            and (number[0] != "0" or number == "0")):
        return int(number)
    return None


class _Runs:
    """The plain numbers seen in one session: sorted runs that do not overlap, run ``i``
    the numbers ``lows[i]`` to ``highs[i]``, first seen at deals ``firsts[i]`` on."""

    __slots__ = ("firsts", "highs", "lows")

    def __init__(self) -> None:
        self.lows = array("q")
        self.highs = array("q")
        self.firsts = array("q")

    def extends(self, number: int, deal: int, *, probe: bool = False) -> bool:
        """Whether ``number`` at ``deal`` continues the highest run (the next number, at
        the next deal); taken there unless ``probe``."""
        highs = self.highs
        if highs and number == highs[-1] + 1 and (
                deal == self.firsts[-1] + number - self.lows[-1]):
            if not probe:
                highs[-1] = number
            return True
        return False

    def see(self, low: int, count: int, deal: int) -> list[tuple[int, int]]:
        high = low + count - 1
        lows, highs, firsts = self.lows, self.highs, self.firsts
        again: list[tuple[int, int]] = []
        new: list[tuple[int, int]] = []  # the numbers not seen yet: (from, to)
        at = low
        i = bisect_right(lows, low) - 1
        if i < 0 or highs[i] < low:
            i += 1
        while i < len(lows) and lows[i] <= high:
            if at < lows[i]:
                new.append((at, lows[i] - 1))
            for n in range(max(at, lows[i]), min(high, highs[i]) + 1):
                first = firsts[i] + n - lows[i]
                if first != deal + n - low:
                    again.append((deal + n - low, first))
            at = highs[i] + 1
            i += 1
        if at <= high:
            new.append((at, high))
        for start, end in new:
            self._add(start, end, deal + start - low)
        return again

    def _add(self, low: int, high: int, first: int) -> None:
        """Add numbers ``low`` to ``high`` (none seen yet), first seen at deal ``first`` on,
        joined to the run before or after when they continue it."""
        lows, highs, firsts = self.lows, self.highs, self.firsts
        i = bisect_right(lows, low)
        before = i > 0 and highs[i - 1] == low - 1 and firsts[i - 1] + low - lows[i - 1] == first
        after = i < len(lows) and lows[i] == high + 1 and firsts[i] == first + high + 1 - low
        if before and after:
            highs[i - 1] = highs[i]
            del lows[i], highs[i], firsts[i]
        elif before:
            highs[i - 1] = high
        elif after:
            lows[i], firsts[i] = low, first
        else:
            lows.insert(i, low)
            highs.insert(i, high)
            firsts.insert(i, first)
