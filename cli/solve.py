"""``tarot solve``: the double-dummy value of a position, and each legal card's value."""

from __future__ import annotations

import os
import sys
import time
from enum import StrEnum
from typing import Annotated, Any, Final, NoReturn

import orjson
import typer

from tarotnotation.analysis import (
    DEFAULT_TABLE_MB,
    MAX_TABLE_MB,
    CardValue,
    Objective,
    Position,
    PositionError,
    Solution,
    Solver,
)
from tarotnotation.analysis.analyse import DEFAULT_BUDGET
from tarotnotation.analysis.comments import outcome_text
from tarotnotation.analysis.first_cards import DEFAULT_SOLVE_SPLIT, solve_apart
from tarotnotation.archive import STDIN, check_deal, read_path
from tarotnotation.cards import Card, points_text
from tarotnotation.i18n import Msg, nmsg, pmsg, render
from tarotnotation.kernel import TAKER
from tarotnotation.workers import Workers

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo,
    echo_err,
    existing_file,
    exit_status,
    fail,
    ruleset_spec,
    stdout_bytes,
    use_color,
    worker_count,
    worst,
)
from .options import ForceOpt, RulesOpt, SetOpt
from .progress import wanted
from .terminal import ljust, safe

EPILOG = """\
Examples:

  tarot solve examples/analysis.tarot --trick 12

  tarot solve club.tarot --deal 3 --trick 15 --card 2

\b
  tarot solve --position \\
    'S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7'

  tarot solve deal.tarot --trick 10 --objective score --format json

The value is the taker's camp's margin with best play by both camps: its
card points minus the threshold its bouts set (made when not negative),
or with --objective score the taker's score for the deal. A position is
written on one line as docs/analysis.md describes. Exit status: 0, 1 when
the deal or position cannot be solved, 2 for a usage error, 130 when
interrupted.
"""


class SolveFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"


def _value_text(value: int, objective: Objective) -> str:
    if objective is Objective.SCORE:
        return f"{value:+d}"
    return ("+" if value >= 0 else "-") + points_text(abs(value))


def _outcome(lo: int, hi: int, objective: Objective) -> str:
    if objective is Objective.SCORE:
        return (Msg("score {value}", value=f"{lo:+d}") if lo == hi else
                Msg("score {low}..{high}", low=f"{lo:+d}", high=f"{hi:+d}"))
    return outcome_text((lo, hi))


def _bounds(lo: int, hi: int, objective: Objective) -> str:
    if lo == hi:
        return _value_text(lo, objective)
    return f"{_value_text(lo, objective)}..{_value_text(hi, objective)}"


def solve(
    path: Annotated[str | None, typer.Argument(
        metavar="FILE", help="A record file of any format, or -.")] = None,
    deal: Annotated[int, typer.Option("--deal", "-d", min=1,
                                      help="Deal number (1-based).")] = 1,
    trick: Annotated[int | None, typer.Option(
        "--trick", "-t", min=1, help="Trick number (1-based); the first lead if left out.")
    ] = None,
    card: Annotated[int, typer.Option("--card", "-c", min=0,
                                      help="Card index in the trick (0 = the lead).")] = 0,
    position: Annotated[str | None, typer.Option(
        "--position", "-p", metavar="POSITION",
        help="A position written on one line (instead of FILE).")] = None,
    objective: Annotated[Objective, typer.Option(
        "--objective", case_sensitive=False,
        help="margin: points against the threshold; score: the taker's score, bonuses"
        " included.")] = Objective.MARGIN,
    budget: Annotated[int, typer.Option(
        "--budget", min=1, metavar="NODES",
        help="Positions the searches may visit, the position's value first, then each"
        " card's; past them, bounds (the same answer on any machine).")] = DEFAULT_BUDGET,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", min=0.001, metavar="S",
        help="Seconds for the searches, instead of --budget (depends on the machine).")
    ] = None,
    node_limit: Annotated[int | None, typer.Option(
        "--node-limit", min=1, metavar="N", hidden=True,
        help="The former name of --budget.")] = None,
    table_mb: Annotated[float, typer.Option(
        "--table-mb", min=1, max=MAX_TABLE_MB, metavar="MB",
        help="Memory for the search's table.")] = DEFAULT_TABLE_MB,
    split: Annotated[int, typer.Option(
        "--split", min=1, max=64, metavar="N",
        help="Cut the legal cards into N groups searched apart, each on a table of its own"
        " with a share of --budget (in parallel with -j; the answer depends on N, not on"
        " -j).")] = DEFAULT_SOLVE_SPLIT,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=0, metavar="N",
        help="Worker processes for the groups of --split (0: one per core).")] = 1,
    output_format: Annotated[SolveFormat, typer.Option(
        "--format", "-f", case_sensitive=False, help="Output format.")] = SolveFormat.TEXT,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
) -> None:
    """The value of a position with every hand open, and each legal card's value.

    The position is a point of a recorded deal (FILE, --deal, --trick,
    --card) or one written by hand (--position).
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    color = use_color(typer.get_text_stream("stderr"))
    where = ""
    if (path is None) == (position is None):
        fail(Msg("give a record FILE or --position, not both") if path else
             Msg("give a record FILE, or a position with --position"))
    try:
        if position is not None:
            pos = Position.parse(position, file="--position")
            where = Msg("position")
        else:
            assert path is not None
            if path != STDIN:
                existing_file(path)
            item = None
            status = EXIT_OK
            for read in read_path(path):
                if read.about_file:  # the file cannot be read, or holds no deal
                    for d in read.diagnostics:
                        for line in diagnostic_lines(d, color):
                            echo_err(line)
                    status = worst(status, exit_status(read.diagnostics, strict=True))
                elif read.index == deal:
                    item = read
                    break
            if item is None:
                if status:  # said above: unreadable (2) or no deal at all (1)
                    raise typer.Exit(status)
                fail(Msg("{path}: no deal number {deal}", path=path, deal=deal))
            for d in item.diagnostics:
                for line in diagnostic_lines(d, color):
                    echo_err(line)
            if item.record is None:
                raise typer.Exit(EXIT_FAULTS)
            rep = check_deal(item, path, forced, default_ruleset=default).replay
            assert rep is not None
            pos = Position.from_record(rep.record, trick=trick, card=card, rep=rep)
            where = Msg("deal {deal}, trick {trick}, card {card}", deal=deal,
                        trick=pos.trick_number + 1, card=len(pos.trick))
    except PositionError as err:
        for d in err.diagnostics:
            if path is not None and d.location.file is None:
                d = d.at(file=path, deal=deal)
            for line in diagnostic_lines(d, color):
                echo_err(line)
        raise typer.Exit(EXIT_FAULTS) from None
    if pos.over:
        fail(Msg("{where}: the deal is over: nothing left to solve", where=where))
    solver = Solver(pos, objective=objective, table_mb=table_mb)
    if node_limit is not None:
        budget = node_limit
    nodes_cap = None if time_limit is not None else budget
    if split > 1 and time_limit is None:
        sol, cards = _apart(pos, split, budget, objective, table_mb, worker_count(jobs))
        _report(pos, where, sol, cards, objective, output_format)
    with _Progress(objective) as progress:
        progress.text(Msg("the position's value"))
        try:
            sol = solver.solve(pos, time_limit=time_limit, node_limit=nodes_cap,
                               progress=progress.bounds)
        except KeyboardInterrupt:
            progress.close()
            _interrupted(progress.last, objective)
        # What the position left goes to its cards: one test each at its value first.
        left = None if time_limit is None else max(time_limit - sol.seconds, 0.001)
        nodes = None if nodes_cap is None else max(nodes_cap - sol.nodes, 1)
        progress.text(Msg("each legal card"))
        try:
            cards = solver.best_cards(pos, time_limit=left, node_limit=nodes,
                                      value=(sol.lower, sol.upper), progress=progress.cards)
        except KeyboardInterrupt:
            progress.close()
            _interrupted((sol.lower, sol.upper), objective)
    _report(pos, where, sol, cards, objective, output_format)


def _apart(pos: Position, split: int, budget: int, objective: Objective, table_mb: float,
           jobs: int) -> tuple[Solution, list[CardValue]]:
    """The position's cards in ``split`` groups searched apart, on ``jobs`` workers."""
    with _Progress(objective) as progress:
        progress.text(Msg("each legal card, in {groups} groups", groups=split))
        try:
            if jobs <= 1:
                return solve_apart(pos, split=split, budget=budget, objective=objective,
                                   table_mb=table_mb)
            with Workers(jobs) as workers:
                return solve_apart(pos, split=split, budget=budget, objective=objective,
                                   table_mb=table_mb, executor=workers)
        except KeyboardInterrupt:
            progress.close()
            _interrupted(None, objective)


def _report(pos: Position, where: str, sol: Solution, cards: list[CardValue],
            objective: Objective, output_format: SolveFormat) -> NoReturn:
    """Print the value, the best line and each card's value; exit."""
    seat = pos.seats[pos.to_play]
    camp = "taker" if pos.camps[pos.to_play] == TAKER else "defence"
    if output_format is SolveFormat.JSON:
        data: dict[str, Any] = {
            "position": pos.fen(), "to_play": seat, "camp": camp,
            "objective": objective.value,
            # machine output: English words, the same in every language
            "unit": "half-points" if objective is Objective.MARGIN else "score points",
            "lower": sol.lower, "upper": sol.upper,
            "outcome": str(_outcome(sol.lower, sol.upper, objective)),
            "points": None if objective is not Objective.MARGIN else {
                "lower": _scorer(sol.lower), "upper": _scorer(sol.upper)},
            "exact": sol.exact, "best": None if sol.best is None else Card(sol.best).code,
            "line": None if sol.line is None else [Card(c).code for c in sol.line],
            "taker_half": sol.taker_half, "taker_bouts": sol.taker_bouts,
            "petit_au_bout": sol.petit_au_bout, "chelem": sol.chelem,
            "nodes": sol.nodes, "seconds": round(sol.seconds, 4), "engine": sol.engine,
            "cards": [{"card": Card(cv.card).code, "lower": cv.lower, "upper": cv.upper,
                       "outcome": str(_outcome(cv.lower, cv.upper, objective))}
                      for cv in cards],
        }
        stdout_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
        raise typer.Exit(EXIT_OK)
    said = render(Msg("{where}: {seat} to play ({camp})", where=where, seat=seat,
                      camp=_CAMPS[camp]))
    echo(said[:1].upper() + said[1:])
    echo(f"  {pos.fen()}")
    unit = Msg("taker's score") if objective is Objective.SCORE else Msg("margin")
    exact = (Msg("exact") if sol.exact
             else Msg("bounds only: a time or node limit was reached"))
    echo(render(Msg("Value: {value} ({unit}), {outcome} with best play",
                    value=_bounds(sol.lower, sol.upper, objective), unit=unit,
                    outcome=_outcome(sol.lower, sol.upper, objective))))
    echo(render(Msg("  {exact}; {nodes} nodes in {seconds} s ({engine} core)", exact=exact,
                    nodes=f"{sol.nodes:,}", seconds=f"{sol.seconds:.2f}", engine=sol.engine)))
    if sol.taker_half is not None and sol.taker_bouts is not None:
        extra: list[str] = []
        if sol.petit_au_bout is not None and sol.petit_au_bout >= 0:
            extra.append(Msg("petit au bout to the {camp}",
                             camp=_CAMPS["taker" if sol.petit_au_bout == TAKER else "defence"]))
        if sol.chelem is not None and sol.chelem >= 0:
            extra.append(Msg("chelem to the {camp}",
                             camp=_CAMPS["taker" if sol.chelem == TAKER else "defence"]))
        best_line: str = Msg("Best line: the taker's camp ends with {points} points and {bouts}",
                             points=points_text(sol.taker_half),
                             bouts=nmsg("{n} bout", "{n} bouts", sol.taker_bouts,
                                        n=sol.taker_bouts))
        for more in extra:
            best_line = Msg("{line}; {more}", line=best_line, more=more)
        echo(render(best_line))
        for text in _line_by_trick(pos, sol.line or ()):
            echo(f"  {text}")
    echo(render(Msg("Cards ({seat}):", seat=seat)))
    best = cards[0] if cards else None
    for cv in cards:
        note: str
        if best is not None and cv.exact and best.exact:
            cost = (best.lower - cv.lower) if camp == "taker" else (cv.lower - best.lower)
            note = (pmsg("card", "best") if cost == 0 else
                    Msg("costs {cost}", cost=points_text(cost)
                        if objective is Objective.MARGIN else cost))
        else:
            note = Msg("bounds only")
        outcome = render(_outcome(cv.lower, cv.upper, objective))
        echo(f"  {Card(cv.card).code:<4} {_bounds(cv.lower, cv.upper, objective):>9}"
             f"  {ljust(outcome, 14)} {render(note)}")
    raise typer.Exit(EXIT_OK)


def _scorer(half: int) -> int:
    """A margin in half-points as a scorer writes it: whole points, the half point to the
    camp that wins the deal (``made by 3`` for 2.5 points; the same count as the
    comments' ``made by D``)."""
    return (half + 1) // 2 if half >= 0 else -((1 - half) // 2)


def _line_by_trick(pos: Position, line: tuple[int, ...]) -> list[str]:
    """The best line trick by trick: ``12. KH 2H 3H 4H``, the trick in progress first
    with the cards already in it."""
    out: list[str] = []
    number = pos.trick_number + 1
    trick = [Card(c).code for c in pos.trick]
    shown = len(trick)
    for c in line:
        trick.append(Card(c).code)
        if len(trick) == pos.players:
            played = " ".join(trick[shown:])
            before = " ".join(trick[:shown])
            out.append(f"{number}. {'(' + before + ') ' if before else ''}{played}")
            number, trick, shown = number + 1, [], 0
    if len(trick) > shown:
        out.append(f"{number}. {' '.join(trick)}")
    return out


def _interrupted(bounds: tuple[int, int] | None, objective: Objective) -> NoReturn:
    """Ctrl-C: say the bounds reached, end with status 130."""
    if bounds is not None:
        echo(render(Msg("Interrupted: the value lies in {bounds} ({outcome})",
                        bounds=_bounds(bounds[0], bounds[1], objective),
                        outcome=_outcome(bounds[0], bounds[1], objective))))
    else:
        echo_err(render(Msg("tarot: interrupted")))
    raise typer.Exit(130)


#: The camps, as the report names them.
_CAMPS: Final = {"taker": pmsg("camp", "taker"), "defence": pmsg("camp", "defence")}


class _Progress:
    """A transient line on a terminal while a search runs: the bounds so far."""

    def __init__(self, objective: Objective) -> None:
        self.objective = objective
        self.enabled = wanted()
        self.start = time.monotonic()
        # on a terminal from the start (TAROT_PROGRESS_DELAY: seconds before it shows)
        self.delay = float(os.environ.get("TAROT_PROGRESS_DELAY", "0"))
        self.shown = False
        self.last: tuple[int, int] | None = None

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Clear the line."""
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
            self.shown = False

    def text(self, message: str) -> None:
        """Say what the search does now (after the delay, on a terminal)."""
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        elapsed = time.monotonic() - self.start
        said = render(Msg("searching ({seconds} s): {message}", seconds=f"{elapsed:.0f}",
                          message=message))
        sys.stderr.write(f"\r\x1b[2K{safe(said)}")
        sys.stderr.flush()
        self.shown = True

    def cards(self, done: int, total: int) -> None:
        """Cards valued so far."""
        self.text(Msg("each legal card: {done}/{total}", done=done, total=total))

    def bounds(self, lower: int, upper: int) -> None:
        """The value's bounds after a test."""
        self.last = (lower, upper)
        self.text(Msg("the value lies in {bounds}", bounds=_bounds(lower, upper, self.objective)))
