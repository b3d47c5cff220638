"""Card-play analysis: a double-dummy solver for French Tarot, and the cost of every card.

With every hand open, the solver finds the value of a position with best play by both
camps: the taker's camp's **margin**, its final card points minus the threshold its final
bouts set, in half-points (made when >= 0), under the deal's ruleset and switches, at 3,
4 and 5 players (at five, the partner is known). ``objective="score"`` maximises the
taker's score for the deal instead, bonuses included.

- :func:`solve`: the value of a position (exact, or bounds when a limit is reached), a
  best card and the best line's end;
- :func:`best_cards`: every legal card with the value after it;
- :func:`makeable`: the yes/no question "is the contract made with best play?";
- :func:`analyse_play`: for each card of a recorded deal, its cost to its camp and whether
  it changed the outcome; :func:`annotate_analysis` writes that into the record as
  computed comments, and :func:`parse_comment` reads them back;
- :class:`Position`: a deal in play, from a record (:meth:`Position.from_record`) or
  written by hand on one line (:meth:`Position.parse`, ``docs/analysis.md``);
- :class:`Solver`: the searches of one deal sharing one transposition table.

The search runs on the compiled core when it is built (``tarotnotation._kernel``), else
on its pure-Python twin (a warning says so; endgames only are practical then).

>>> from tarotnotation.cards import Card
>>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1"
...                      " tricks=9/7")
>>> sol = solve(pos)
>>> sol.value, sol.made, sol.best, sol.line
(62, True, <Card.HK: 27>, (<Card.HK: 27>, <Card.H2: 15>, <Card.EXCUSE: 77>, ...))
>>> [(cv.card.code, cv.value) for cv in best_cards(pos)]
[('KH', 62), ('T21', 62)]
"""

from __future__ import annotations

from .analyse import CardAnalysis, PlayAnalysis, analyse_play
from .comments import (
    AnalysisNote,
    analyse_record,
    annotate_analysis,
    parse_comment,
    strip_analysis,
)
from .position import Position, PositionError, deal_start, position_at
from .search import DEFAULT_TABLE_MB, MAX_TABLE_MB, CardValue, Objective, Solution, Solver

__all__ = [
    "DEFAULT_TABLE_MB",
    "MAX_TABLE_MB",
    "AnalysisNote",
    "CardAnalysis",
    "CardValue",
    "Objective",
    "PlayAnalysis",
    "Position",
    "PositionError",
    "Solution",
    "Solver",
    "analyse_play",
    "analyse_record",
    "annotate_analysis",
    "best_cards",
    "deal_start",
    "makeable",
    "parse_comment",
    "position_at",
    "solve",
    "strip_analysis",
]


def solve(position: Position, *, objective: Objective | str = Objective.MARGIN,
          time_limit: float | None = None, node_limit: int | None = None,
          at_least: int | None = None, table_mb: float = DEFAULT_TABLE_MB,
          engine: str | None = None) -> Solution:
    """The value of ``position`` with best play by both camps (see :meth:`Solver.solve`):
    exact unless ``time_limit`` (seconds) or ``node_limit`` ends the search first, then
    the bounds reached; ``at_least=k`` only decides whether the value is at least k."""
    solver = Solver(position, objective=objective, table_mb=table_mb, engine=engine)
    return solver.solve(position, time_limit=time_limit, node_limit=node_limit,
                        at_least=at_least, line=at_least is None)


def best_cards(position: Position, *, objective: Objective | str = Objective.MARGIN,
               time_limit: float | None = None, node_limit: int | None = None,
               table_mb: float = DEFAULT_TABLE_MB, engine: str | None = None
               ) -> list[CardValue]:
    """Every legal card of the player to move with the value after it, best first for
    that player's camp."""
    solver = Solver(position, objective=objective, table_mb=table_mb, engine=engine)
    return solver.best_cards(position, time_limit=time_limit, node_limit=node_limit)


def makeable(position: Position, *, time_limit: float | None = None,
             node_limit: int | None = None, table_mb: float = DEFAULT_TABLE_MB,
             engine: str | None = None) -> bool | None:
    """Whether the contract is made with best play from ``position`` (None when a limit
    stops the search before it knows)."""
    return solve(position, time_limit=time_limit, node_limit=node_limit, at_least=0,
                 table_mb=table_mb, engine=engine).made

