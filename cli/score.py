"""``tarot score``: each deal's score and the running score sheet of each file."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

from tarotnotation.archive import CheckedDeal, check_paths
from tarotnotation.cards import points_text
from tarotnotation.i18n import Msg, pmsg, render, said
from tarotnotation.status import Status

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    echo_styled,
    exit_status,
    expand_arguments,
    ruleset_spec,
    safe,
    style,
    use_color,
    worst,
)
from .options import ForceOpt, PathsArg, RulesOpt, SetOpt
from .terminal import ljust, rjust, width

EPILOG = """\
Examples:

  tarot score examples/score-sheet.tarot

  tarot score club/ --format json | jq .taker_score

Each file's deals make one score sheet: each row gives the players'
running totals, and each deal is checked to sum to zero. Exit status 1
when a deal has an error.
"""


class ScoreFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"


def deal_entry(checked: CheckedDeal, running: dict[str, int], verbose: bool = False
               ) -> dict[str, Any]:
    """One deal's score for machines (a line of JSON Lines). Fields the deal does not
    have (not read, not scored) are null; the faults that follow from a cause only with
    ``verbose``."""
    rep = checked.replay
    out: dict[str, Any] = {
        "file": checked.file, "deal": checked.index,
        "status": None if checked.status is None else checked.status.value,
        "contract": None, "taker": None, "partner": None, "made": None, "points": None,
        "bouts": None, "taker_score": None, "scores": None, "breakdown": None,
    }
    if rep is not None:
        out["contract"] = None if rep.contract is None else rep.contract.keyword
        out["taker"], out["partner"] = rep.taker, rep.partner
        if rep.status is Status.SCORED and rep.score is not None and rep.scores is not None:
            half = rep.taker_half or 0
            out["made"] = rep.score.made
            out["points"] = half // 2 if half % 2 == 0 else half / 2
            out["bouts"] = rep.bouts
            out["scores"] = dict(rep.scores)
            out["taker_score"] = rep.scores.get(rep.taker or "")
            out["breakdown"] = rep.score.breakdown(rep.record.seat_ids)
        elif rep.outcome is not None:  # the camp's count known, the seats' scores not
            half = rep.taker_half or 0
            out["made"] = rep.outcome[0]
            out["points"] = half // 2 if half % 2 == 0 else half / 2
            out["bouts"] = rep.bouts
    out["running"] = dict(running)
    out["violations"] = [
        {"code": d.code.value, "name": d.code.slug, "severity": d.severity.value,
         "message": d.message,
         **{k: v for k, v in (("line", d.location.line), ("col", d.location.col),
                              ("cause", d.cause and d.cause.value)) if v is not None}}
        for d in checked.diagnostics if verbose or d.counts]
    return out


def players_of(rep: Any) -> dict[str, str]:
    """Whom each seat's score counts for: the player the record names at that seat, else
    the seat's id (as ``tarot standings`` counts), so that a file whose players change
    seats (a score app that puts the taker in S, members taking turns at a club's table)
    totals each player's scores, not each seat's."""
    return {seat.id: seat.name or seat.id for seat in rep.record.seats}


def add_scores(running: dict[str, int], rep: Any) -> None:
    """Add a scored deal's scores to the running totals, by player."""
    players = players_of(rep)
    for seat, value in rep.scores.items():
        key = players.get(seat, seat)
        running[key] = running.get(key, 0) + value


#: The sheet's columns (a table for people: translated; ``--format json`` keeps its keys).
HEAD = (pmsg("column", "deal"), pmsg("column", "contract"), pmsg("column", "taker"),
         pmsg("column", "points"), pmsg("column", "bouts"), pmsg("column", "result"),
         pmsg("column", "score"), "")
#: A deal's status in the sheet, in words.
_STATUS = {Status.SCORED: Msg("scored"), Status.ANNULLED: Msg("annulled"),
           Status.INCOMPLETE: Msg("incomplete"), Status.UNSCORED: Msg("unscored")}
_RIGHT = frozenset({0, 3, 4, 6})


class Sheet:
    """The score sheet of one file: a row per deal with the players' running totals."""

    def __init__(self, file: str, color: bool, verbose: bool = False) -> None:
        self.file = file
        self.color = color
        self.verbose = verbose
        self.seats: list[str] = []
        """The players (named, else seats) in the order they first score."""
        self.running: dict[str, int] = {}
        self.rows: list[tuple[list[str], dict[str, int], list[str]]] = []
        """Each row's cells, the running totals after it, and the lines under it."""

    def add(self, checked: CheckedDeal) -> bool:
        """Add a deal; False when its scores do not sum to zero."""
        rep = checked.replay
        notes = [line for d in checked.diagnostics if self.verbose or d.counts
                 for line in diagnostic_lines(d, self.color)]
        balanced = True
        errors = checked.errors
        mark = f"✗{errors}" if errors else ""
        if rep is None:
            cells = [str(checked.index), render(Msg("unreadable")), "", "", "", "", "", mark]
        elif ((rep.status is not Status.SCORED or rep.scores is None or rep.score is None)
              and rep.contract is not None and rep.taker is not None
              and rep.outcome is not None):
            # The taker's camp's count without the seats' scores (a 5-player TarotClub log:
            # no called card, so no partner): every figure but the score.
            made, margin = rep.outcome
            cells = [str(checked.index), said(rep.contract.keyword), said(rep.taker),
                     said(points_text(rep.taker_half or 0)), str(rep.bouts),
                     render(Msg("made by {margin}", margin=margin) if made
                            else Msg("lost by {margin}", margin=margin)), "", mark]
        elif rep.status is not Status.SCORED or rep.scores is None or rep.score is None:
            cells = [str(checked.index), render(_STATUS[rep.status]), "", "", "", "", "", mark]
        else:
            assert rep.contract is not None
            assert rep.taker is not None
            players = players_of(rep)
            for seat in rep.scores:
                if players.get(seat, seat) not in self.seats:
                    self.seats.append(players.get(seat, seat))
            add_scores(self.running, rep)
            total = sum(rep.scores.values())
            if total:
                balanced = False
                notes.append(style(render(Msg("deal {deal}: the scores sum to {total}, not zero",
                                              deal=checked.index, total=f"{total:+d}")),
                                   self.color, fg="red"))
            sc = rep.score
            taker = said(rep.taker)
            if rep.partner is not None and rep.partner != rep.taker:
                taker += f"+{said(rep.partner)}"
            cells = [str(checked.index), said(rep.contract.keyword), taker,
                     said(points_text(rep.taker_half or 0)), str(rep.bouts),
                     render(Msg("made by {margin}", margin=abs(sc.margin_points)) if sc.made
                            else Msg("lost by {margin}", margin=abs(sc.margin_points))),
                     f"{rep.scores[rep.taker]:+d}", mark]
        self.rows.append((cells, dict(self.running), notes))
        return balanced

    def print(self) -> None:
        """The sheet: a header, a row per deal with the running totals, the totals."""
        head = [*(render(h) for h in HEAD), *(safe(said(s)) for s in self.seats)]
        widths = [width(h) for h in head]
        for cells, _, _ in self.rows:
            for i, cell in enumerate(cells):
                widths[i] = max(widths[i], width(safe(cell)))
        for i in range(len(HEAD), len(head)):
            widths[i] = max(6, widths[i])

        def line(cells: list[str]) -> str:
            out = [rjust(safe(cell), widths[i]) if i in _RIGHT or i >= len(HEAD)
                   else ljust(safe(cell), widths[i]) for i, cell in enumerate(cells)]
            return "  " + "  ".join(out).rstrip()

        def totals(running: dict[str, int]) -> list[str]:
            return [f"{running[s]:+d}" if s in running else "" for s in self.seats]

        legend = Msg("  (score: the taker's for the deal; {seats}: running totals)",
                     seats=(" " if all(" " not in s for s in self.seats) else ", ").join(
                         said(s) for s in self.seats))
        echo_styled(style(self.file, self.color, bold=True)
                    + safe(render(legend) if self.seats else ""))
        echo_styled(style(line(head), self.color, bold=True))
        for cells, running, notes in self.rows:
            echo_styled(line(cells + totals(running)))
            for note in notes:
                echo_styled(f"      {note}")
        total = sum(self.running.values())
        check = render(Msg("zero-sum") if total == 0 else
                       Msg("sum {total}: NOT zero-sum", total=f"{total:+d}"))
        last = ["", render(pmsg("column", "total")), "", "", "", "", "", "",
                *totals(self.running)]
        echo_styled(style(line(last), self.color, bold=True) + f"   ({check})")


def score(
    paths: PathsArg,
    output_format: Annotated[ScoreFormat, declare.Option(
        "--format", "-f", case_sensitive=False,
        help="text: a score sheet per file; json: one JSON object per deal"
        " (JSON Lines).")] = ScoreFormat.TEXT,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    verbose: Annotated[bool, declare.Option(
        "--verbose", "-v", help="Also show the faults that follow from a cause (Y codes).")
    ] = False,
) -> None:
    """Score each deal; each file's running score sheet, checked zero-sum."""
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    files = expand_arguments(paths)
    color = output_format is ScoreFormat.TEXT and use_color(sys.stdout)
    failed = False
    status = EXIT_OK
    deals = 0
    sheet: Sheet | None = None
    running: dict[str, int] = {}
    current: str | None = None
    for checked in check_paths(files, ruleset=forced, default_ruleset=default):
        status = worst(status, exit_status(checked.diagnostics))
        if checked.about_file:  # a path that cannot be read, a file with no deal
            if output_format is ScoreFormat.JSON:
                import orjson  # (only for JSON: it imports dataclasses and more)

                sys.stdout.write(orjson.dumps({
                    "file": checked.file, "deal": None,
                    "violations": [d.to_dict() for d in checked.diagnostics]}).decode() + "\n")
            else:
                for d in checked.diagnostics:
                    for line in diagnostic_lines(d, use_color(sys.stderr)):
                        echo_err(line)
            continue
        deals += 1
        failed |= checked.errors > 0
        if output_format is ScoreFormat.JSON:
            import orjson

            if checked.file != current:
                current, running = checked.file, {}
            rep = checked.replay
            if rep is not None and rep.status is Status.SCORED and rep.scores is not None:
                add_scores(running, rep)
                failed |= sum(rep.scores.values()) != 0
            sys.stdout.write(orjson.dumps(deal_entry(checked, running, verbose)).decode() + "\n")
            continue
        if sheet is None or sheet.file != checked.file:
            if sheet is not None:
                sheet.print()
                echo_styled("")
            sheet = Sheet(checked.file, color, verbose)
        failed |= not sheet.add(checked)
    if sheet is not None:
        sheet.print()
    if not deals and status == EXIT_OK:  # (files with no deal and nothing said of them)
        echo_err(Msg("no deal to score in {path}", path=files[0]) if len(files) == 1 else
                 Msg("no deal to score in the {n} files given", n=len(files)))
    raise SystemExit(worst(status, EXIT_FAULTS if failed or not deals else EXIT_OK))
