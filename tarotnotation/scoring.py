"""The score of a deal from its facts (docs/rules.md §9, §10). Pure: ints in, ints out.

:func:`score` takes a :class:`DealFacts` (who took, which contract, the taker's camp's
points in half-points, bouts, bonuses) and returns a :class:`Score` with every term of
the computation and each seat's share. The replay engine builds the facts from the play;
an outcome-only record (a score sheet) gives them directly.

Worked example 1 of docs/rules.md §11: Garde, 2 bouts, 48 points.

>>> s = score(DealFacts(players=4, taker=0, contract=Contract.GARDE, taker_half=96, bouts=2))
>>> s.made, s.margin_points, s.x, s.seats
(True, 7, 64, (192, -64, -64, -64))

Example 3: Garde sans, 2 bouts, 56 points, the defence took the Petit au bout.

>>> s = score(DealFacts(players=4, taker=0, contract=Contract.GARDE_SANS, taker_half=112,
...                     bouts=2, petit_au_bout=Camp.DEFENCE))
>>> s.contract_amount, s.petit_au_bout_amount, s.x, s.seats[0]
(160, -40, 120, 360)
"""

from __future__ import annotations

import warnings
from enum import StrEnum
from typing import Final

from . import kernel
from .rules import POIGNEE_BONUS, Camp, Contract, PoigneeSize, threshold
from .values import Value

__all__ = ["CHELEM_AMOUNTS", "ChelemTerm", "DealFacts", "Score", "chelem_terms_of", "outcome",
           "score"]


class DealFacts(Value):
    """What the score depends on. Seats are indices in the order of play."""

    __slots__ = (
        "bouts",
        "chelem",
        "chelem_announced",
        "contract",
        "miseres",
        "partner",
        "petit_au_bout",
        "players",
        "poignees",
        "taker",
        "taker_half",
    )
    players: int
    taker: int
    contract: Contract
    taker_half: int
    """The taker's camp's card points, in half-points (0-182)."""
    bouts: int
    """Bouts held by the taker's camp at the end (0-3)."""
    partner: int | None
    """At five players, the partner's seat; None or the taker's own seat when alone."""
    petit_au_bout: Camp | None
    poignees: tuple[PoigneeSize, ...]
    chelem_announced: bool
    chelem: Camp | None
    """The camp that won every trick, if one did."""
    miseres: tuple[int, ...]
    """Seats that declared a misère (only under ``misere=on``)."""

    def __init__(self, players: int, taker: int, contract: Contract, taker_half: int, bouts: int,
                 partner: int | None = None, petit_au_bout: Camp | None = None,
                 poignees: tuple[PoigneeSize, ...] = (), chelem_announced: bool = False,
                 chelem: Camp | None = None, miseres: tuple[int, ...] = ()) -> None:
        setfield = object.__setattr__
        setfield(self, "players", players)
        setfield(self, "taker", taker)
        setfield(self, "contract", contract)
        setfield(self, "taker_half", taker_half)
        setfield(self, "bouts", bouts)
        setfield(self, "partner", partner)
        setfield(self, "petit_au_bout", petit_au_bout)
        setfield(self, "poignees", poignees)
        setfield(self, "chelem_announced", chelem_announced)
        setfield(self, "chelem", chelem)
        setfield(self, "miseres", miseres)


class ChelemTerm(StrEnum):
    """The terms of a chelem in the score (docs/rules.md §10)."""

    ANNOUNCED_MADE = "announced and made"
    MADE = "made unannounced"
    ANNOUNCED_FAILED = "announced, not made"
    DEFENCE = "by the defence"


def chelem_terms_of(chelem: Camp | None, announced: bool) -> tuple[ChelemTerm, ...]:
    """The chelem's terms of a deal (docs/rules.md §10): the camp that took every trick
    (None: neither), and whether the taker announced one.

    >>> [t.name for t in chelem_terms_of(Camp.TAKER, True) + chelem_terms_of(None, True)]
    ['ANNOUNCED_MADE', 'ANNOUNCED_FAILED']
    >>> chelem_terms_of(Camp.DEFENCE, False), chelem_terms_of(None, False)
    ((<ChelemTerm.DEFENCE: 'by the defence'>,), ())
    """
    if chelem is Camp.TAKER:
        return (ChelemTerm.ANNOUNCED_MADE if announced else ChelemTerm.MADE,)
    return (((ChelemTerm.ANNOUNCED_FAILED,) if announced else ())
            + ((ChelemTerm.DEFENCE,) if chelem is Camp.DEFENCE else ()))


#: The amount of each chelem term (docs/rules.md §10).
CHELEM_AMOUNTS: Final = {ChelemTerm.ANNOUNCED_MADE: 400, ChelemTerm.MADE: 200,
                         ChelemTerm.ANNOUNCED_FAILED: -200, ChelemTerm.DEFENCE: -200}


class Score(Value):
    """Every term of a deal's score, and each seat's share (zero-sum)."""

    __slots__ = (
        "chelem_amount",
        "chelem_terms",
        "contract_amount",
        "made",
        "margin_points",
        "misere_amounts",
        "multiplier",
        "petit_au_bout_amount",
        "poignee_amount",
        "poignee_amounts",
        "seats",
        "threshold_half",
        "x",
    )
    threshold_half: int
    """Points to make, in half-points."""
    made: bool
    margin_points: int
    """The taker's camp's points over the threshold, in whole points, signed: at least 0
    when the contract is made, negative when lost (the half point goes to the camp that
    wins the deal); its absolute value is the d of the contract's amount, 25 + d."""
    multiplier: int
    contract_amount: int
    """±(25 + d) × multiplier."""
    petit_au_bout_amount: int
    """±10 × multiplier, + when the taker's camp scored it."""
    poignee_amount: int
    """The sum of the poignées' bonuses, + when the taker won the deal."""
    chelem_amount: int
    """+400, +200, −200 (announced, failed), −200 (the defence took every trick)."""
    chelem_terms: tuple[tuple[ChelemTerm, int], ...]
    """The chelem's terms, each with its amount (their sum is ``chelem_amount``)."""
    poignee_amounts: tuple[tuple[PoigneeSize, int], ...]
    """Each poignée with its signed bonus (their sum is ``poignee_amount``)."""
    x: int
    """What each defender pays the taker (negative: receives)."""
    misere_amounts: tuple[int, ...]
    """Each seat's misère settlement (10 from every other player to each declarer)."""
    seats: tuple[int, ...]
    """Each seat's score, in seat order; sums to zero."""

    def __init__(self, threshold_half: int, made: bool, margin_points: int, multiplier: int,
                 contract_amount: int, petit_au_bout_amount: int, poignee_amount: int,
                 chelem_amount: int, chelem_terms: tuple[tuple[ChelemTerm, int], ...],
                 poignee_amounts: tuple[tuple[PoigneeSize, int], ...], x: int,
                 misere_amounts: tuple[int, ...], seats: tuple[int, ...]) -> None:
        setfield = object.__setattr__
        setfield(self, "threshold_half", threshold_half)
        setfield(self, "made", made)
        setfield(self, "margin_points", margin_points)
        setfield(self, "multiplier", multiplier)
        setfield(self, "contract_amount", contract_amount)
        setfield(self, "petit_au_bout_amount", petit_au_bout_amount)
        setfield(self, "poignee_amount", poignee_amount)
        setfield(self, "chelem_amount", chelem_amount)
        setfield(self, "chelem_terms", chelem_terms)
        setfield(self, "poignee_amounts", poignee_amounts)
        setfield(self, "x", x)
        setfield(self, "misere_amounts", misere_amounts)
        setfield(self, "seats", seats)

    @property
    def threshold(self) -> int:
        """Points to make, in whole points."""
        return self.threshold_half // 2

    @property
    def margin(self) -> int:
        """Deprecated: ``abs(margin_points)``, the margin without its sign (the margin is
        signed everywhere, its unit in its name: :attr:`margin_points`)."""
        warnings.warn("Score.margin (unsigned) is deprecated: use Score.margin_points (signed"
                      " whole points; abs() of it for the d of 25 + d)", DeprecationWarning,
                      stacklevel=2)
        return abs(self.margin_points)

    def breakdown(self, seat_ids: tuple[str, ...]) -> dict[str, object]:
        """Every term of the score as plain data (for JSON), each seat's share by id.

        >>> s = score(DealFacts(players=4, taker=1, contract=Contract.GARDE, taker_half=96,
        ...                     bouts=2, poignees=(PoigneeSize.SIMPLE,)))
        >>> b = s.breakdown(("S", "E", "N", "W"))
        >>> b["threshold"], b["margin"], b["contract"], b["poignees"], b["x"], b["seats"]["E"]
        (41, 7, 64, [{'size': 'simple', 'amount': 20}], 84, 252)
        """
        return {
            "threshold": self.threshold,
            "made": self.made,
            "margin": abs(self.margin_points),
            "multiplier": self.multiplier,
            "contract": self.contract_amount,
            "petit_au_bout": self.petit_au_bout_amount,
            "poignees": [{"size": size.value, "amount": amount}
                         for size, amount in self.poignee_amounts],
            "chelem": [{"term": term.value, "amount": amount}
                       for term, amount in self.chelem_terms],
            "x": self.x,
            "misere": {sid: amount for sid, amount in zip(seat_ids, self.misere_amounts,
                                                           strict=True) if amount},
            "seats": dict(zip(seat_ids, self.seats, strict=True)),
        }


def outcome(taker_half: int, bouts: int) -> tuple[bool, int]:
    """Whether the taker's camp made its contract with ``taker_half`` half-points and
    ``bouts`` bouts, and by how many whole points (the half point goes to the camp that
    wins the deal): all a deal's result needs, the partner and the seats' shares apart.

    >>> outcome(2 * 51, 2), outcome(2 * 40 + 1, 1), outcome(2 * 56, 0)
    ((True, 10), (False, 11), (True, 0))
    """
    diff = kernel.margin(taker_half, bouts)
    return diff >= 0, (abs(diff) + 1) // 2


def score(facts: DealFacts) -> Score:
    """The score of a deal from its facts (see the module doc for examples).

    >>> f = DealFacts(players=5, taker=0, partner=2, contract=Contract.GARDE,
    ...               taker_half=2 * 51, bouts=2)
    >>> score(f).seats
    (140, -70, 70, -70, -70)
    >>> score(DealFacts(players=5, taker=0, partner=0, contract=Contract.GARDE,
    ...                 taker_half=2 * 51, bouts=2)).seats
    (280, -70, -70, -70, -70)
    """
    n = facts.players
    m = facts.contract.multiplier
    thr = threshold(facts.bouts)
    made, margin = outcome(facts.taker_half, facts.bouts)
    sign = 1 if made else -1
    contract_amount = sign * (25 + margin) * m
    pab = 0
    if facts.petit_au_bout is not None:
        pab = (10 if facts.petit_au_bout is Camp.TAKER else -10) * m
    poignees = tuple((p, sign * POIGNEE_BONUS[p]) for p in facts.poignees)
    poignee = sum(amount for _, amount in poignees)
    chelem_terms = tuple((term, CHELEM_AMOUNTS[term])
                         for term in chelem_terms_of(facts.chelem, facts.chelem_announced))
    chelem = sum(amount for _, amount in chelem_terms)
    x = contract_amount + pab + poignee + chelem
    partner = facts.partner if facts.partner != facts.taker else None
    taker_share, partner_share, defender_share = kernel.shares(n, partner is not None)
    seats = [defender_share * x] * n
    seats[facts.taker] = taker_share * x
    if partner is not None:
        seats[partner] = partner_share * x
    misere = [0] * n
    for seat in facts.miseres:
        for other in range(n):
            misere[other] -= 10
        misere[seat] += 10 * n
    return Score(
        threshold_half=thr,
        made=made,
        margin_points=margin if made else -margin,
        multiplier=m,
        contract_amount=contract_amount,
        petit_au_bout_amount=pab,
        poignee_amount=poignee,
        chelem_amount=chelem,
        chelem_terms=chelem_terms,
        poignee_amounts=poignees,
        x=x,
        misere_amounts=tuple(misere),
        seats=tuple(s + v for s, v in zip(seats, misere, strict=True)),
    )
