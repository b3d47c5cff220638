"""What the solver says of each legal card in one deal with every hand placed: the
common ground of the ``pimc`` bot (each sampled deal) and the ``oracle`` (the real one).

:func:`position_of` builds the solver's :class:`~tarotnotation.analysis.Position` from a
seat's view and the hands (sampled or real): the hands at the first lead, the camps (at
five players the partner is the holder of the called card in that deal), and the cards
played so far replayed on the rules kernel (what each camp has won, the Excuse's
exchange, who leads). :func:`card_values` rates each legal card for the player to move:

- in the endgame (``exact_tricks`` tricks left or fewer) the exact value after it;
- otherwise, within ``nodes`` nodes, first a yes/no test at the threshold (is the
  contract made after this card?) within ``test_share`` per cent of them (half by
  default), then the value narrowed with what is left: bounds;
- the rating is the deal's score for the taker's camp as the margin makes it, in
  half-points (:func:`utility`): the margin, and 25 points more (made) or less (lost),
  so that the outcome weighs first and the points after it; a card whose outcome the
  budget left open is rated by the middle of its bounds alone;
- or, with ``objective="score"``, the deal's whole score (the solver's score objective:
  petit au bout, the poignées declared and the chelem with it), in the same unit: what
  one defender pays, in half-points of a contract with no multiplier
  (:func:`score_unit`); the yes/no test then asks whether the score reaches that of the
  contract made by 0 with petit au bout to the defence.

Equivalent cards (the solver's :func:`~tarotnotation.analysis.search.equivalent_cards`)
are searched once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .. import kernel
from ..analysis.position import Position, position_at
from ..analysis.pycore import leaf_index
from ..analysis.search import Objective, Solver, equivalent_cards
from ..cards import Card, CardSet
from ..records import ChelemAnnouncement, Misere, Poignee
from ..rules import table, threshold
from .view import SeatView

__all__ = ["CONTRACT_BONUS", "TABLE_MB", "TEST_SHARE", "CardRating", "card_values",
           "position_of", "score_unit", "utility"]

#: The contract's 25 points, in half-points: what making it is worth beside the margin.
CONTRACT_BONUS: Final = 50
#: The solver's table for one decision's searches, in MiB (it starts small and grows).
TABLE_MB: Final = 16.0
#: The share of a decision's nodes spent on the yes/no tests at the threshold, in per
#: cent (the rest narrows the values).
TEST_SHARE: Final = 50


def position_of(view: SeatView, hands: Mapping[str, CardSet], aside: CardSet) -> Position:
    """The solver's position for ``view``'s moment of the deal, with ``hands`` (each
    seat's cards now) and ``aside`` (the chien or écart) placed. Raises ValueError when
    the view has no contract or no play yet (nothing to solve)."""
    if view.contract is None or view.taker is None:
        raise ValueError("no contract: nothing to solve")
    seats = view.seats
    n = view.players
    tab = table(n)
    played = [0] * n
    order: list[int] = []
    for t in (*view.tricks, *((view.trick,) if view.trick is not None else ())):
        for i, c in enumerate(t.cards):
            played[seats.index(t.seat_of(i, seats))] |= 1 << c
            order.append(int(c))
    start = tuple(hands[s].bits | played[i] for i, s in enumerate(seats))
    taker = seats.index(view.taker)
    partner: int | None = None
    if n == 5:
        called = view.called
        partner = next((i for i, h in enumerate(start) if called is not None
                        and h >> int(called) & 1), taker)
    camps = tuple(kernel.TAKER if i in (taker, partner) else kernel.DEFENCE for i in range(n))
    announcer = next((seats.index(d.seat) for d in view.declarations
                      if isinstance(d, ChelemAnnouncement)), None)
    # (a bot shows the cards, the size follows from their count)
    poignees = tuple(filter(None, (d.size or tab.poignee_size(len(d.cards or ()))
                                   for d in view.declarations if isinstance(d, Poignee))))
    miseres = tuple(seats.index(d.seat) for d in view.declarations if isinstance(d, Misere))
    leader = kernel.first_leader(seats.index(view.first_seat), announcer)
    base = Position(rules=view.rules, seats=seats, hands=start, camps=camps, taker=taker,
                    leader=leader, tricks=tab.tricks, aside=aside.bits,
                    contract=view.contract,
                    called=int(view.called) if view.called is not None else None,
                    partner=partner, poignees=poignees,
                    chelem_announced=announcer is not None, miseres=miseres)
    return position_at(base, order)


def utility(lower: int, upper: int) -> float:
    """A card's rating for the taker's camp from the bounds of the margin after it
    (half-points): the margin (the middle of the bounds), with :data:`CONTRACT_BONUS`
    added when the bounds say made, taken away when they say lost.

    >>> utility(4, 4), utility(-2, -2), utility(-10, 30)
    (54.0, -52.0, 10.0)
    """
    middle = (lower + upper) / 2
    if lower >= 0:
        return middle + CONTRACT_BONUS
    if upper < 0:
        return middle - CONTRACT_BONUS
    return middle


def score_unit(pos: Position, value: float) -> float:
    """A value of the solver's score objective (the taker's seat's score for the deal)
    in the unit of :func:`utility`: what one defender pays (:func:`kernel.shares`), in
    half-points of the contract without its multiplier.

    >>> from tarotnotation.analysis.position import Position
    >>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1"
    ...                      " tricks=9/7 contract=garde")
    >>> score_unit(pos, 3 * 2 * 31)  # the taker's 186 at a Garde: 62 from each defender,
    62.0

    (31 points without the Garde's x2: 62 half-points.)
    """
    alone = pos.partner is None or pos.partner == pos.taker
    share = kernel.shares(pos.players, not alone)[0]
    return 2 * value / (share * pos.contract.multiplier)


def made_floor(solver: Solver) -> int:
    """The least score of the taker's seat among the ends where the contract is made by
    0 and petit au bout goes to the defence (no chelem): the score objective's yes/no
    test at the threshold asks whether the score reaches it."""
    return min(solver.leaf[leaf_index(threshold(b), b, kernel.DEFENCE, -1)] for b in range(4))


@dataclass(frozen=True, slots=True)
class CardRating:
    """A legal card and its rating for the player to move's camp (higher is better),
    with the bounds of the margin after it."""

    card: Card
    rating: float
    lower: int
    upper: int


def card_values(pos: Position, *, nodes: int, exact_tricks: int,
                table_mb: float = TABLE_MB, test_share: int = TEST_SHARE,
                objective: Objective | str = Objective.MARGIN) -> list[CardRating]:
    """Each legal card of the player to move in ``pos``, rated (see the module): exact
    with ``exact_tricks`` tricks left or fewer, else within ``nodes`` nodes in all, of
    which ``test_share`` per cent (0 to 100) go to the yes/no tests at the threshold; by
    the margin and the contract (``objective="margin"``) or by the deal's score
    (``"score"``). The bounds of each rating are the objective's."""
    if not 0 <= test_share <= 100:
        raise ValueError(f"test_share is 0 to 100 (per cent), not {test_share}")
    objective = Objective(objective)
    st = pos.state()
    mover_camp = pos.camps[pos.to_play]
    sign = 1 if mover_camp == kernel.TAKER else -1
    same = equivalent_cards(st, petit_apart=objective is Objective.SCORE)
    tried = sorted(set(same.values()))
    solver = Solver(pos, table_mb=table_mb, objective=objective)
    at_least = 0 if objective is Objective.MARGIN else made_floor(solver)
    exact = pos.tricks_left <= exact_tricks
    bounds: dict[int, tuple[int | None, int | None]] = dict.fromkeys(tried, (None, None))
    children = {c: pos.play(c) for c in tried}
    spent = 0
    if exact or test_share:
        share = max(1, nodes * test_share // 100 // len(tried))
        for c in tried:
            child = children[c]
            if exact or child.over:
                sol = solver.solve(child, line=False, find_best=False)
            else:
                sol = solver.solve(child, at_least=at_least, node_limit=share, line=False,
                                   find_best=False)
            bounds[c] = (sol.lower, sol.upper)
        spent = share * len(tried)
    if not exact:
        share = max(1, max(0, nodes - spent) // len(tried))
        for c in tried:
            lo, hi = bounds[c]
            if lo is None or hi is None or lo < hi:
                sol = solver.solve(children[c], node_limit=share, line=False, guess=at_least,
                                   find_best=False, known_lower=lo, known_upper=hi)
                bounds[c] = (sol.lower, sol.upper)
    out = []
    for c, r in same.items():
        lo, hi = bounds[r]
        # (every card searched once at least)
        assert lo is not None
        assert hi is not None
        rating = (utility(lo, hi) if objective is Objective.MARGIN
                  else score_unit(pos, (lo + hi) / 2))
        out.append(CardRating(Card(c), sign * rating, lo, hi))
    return out
