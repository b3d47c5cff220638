"""``tarot standings``: the league table of an evening, a tournament or a season."""

from __future__ import annotations

import csv
import io
from enum import StrEnum
from typing import Annotated

import orjson

from tarotnotation.archives.safety import for_csv, for_terminal, ljust, rjust, width
from tarotnotation.archives.standings import (
    Standings,
    column,
    html_page,
    lines,
    session_text,
)
from tarotnotation.i18n import Msg, render, said

from . import declare
from .common import echo_err, stdout_bytes
from .options import ForceOpt, OutOpt, PathsArg, RulesOpt, SetOpt
from .output import opened, page_target, report_format, target
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError

EPILOG = """\
Examples:

  tarot standings club/2026-11-14/

  tarot standings tournament/*.tarot -m matchpoints --html standings.html

  tarot standings season.jsonl --method mean --format csv -o season.csv

A session is one table's sitting: the deals with the same Event, Round
and Table tags. The same deal (the same hands and chien, whoever held
them) played in several sessions is a duplicate deal: each player's
result on it is compared with those who held the same hand elsewhere
(score minus the mean of that hand, or matchpoints). docs/standings.md
works an example through. Exit status 1 when a deal cannot be read or
a deal is recorded twice in one session.
"""


class Method(StrEnum):
    """What ``--method`` accepts."""

    TOTAL = "total"
    MEAN = "mean"
    MATCHPOINTS = "matchpoints"


class StandingsFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"


def standings(
    paths: PathsArg,
    method: Annotated[Method, declare.Option(
        "--method", "-m", case_sensitive=False,
        help="total (sum of results), mean (per deal played) or matchpoints (duplicate"
        " deals ranked among the sessions).")] = Method.TOTAL,
    html: Annotated[str | None, declare.Option(
        "--html", metavar="PAGE",
        help="Also write the table as a web page, each player's running result drawn"
        " (self-contained: opens from file://).")] = None,
    title: Annotated[str | None, declare.Option(
        "--title", help="The page's title (default: the Event tags).")] = None,
    given: Annotated[StandingsFormat | None, declare.Option(
        "--format", "-f", case_sensitive=False, show_default=False,
        help="text, json or csv [default: text, or from the name of -o FILE: .json,"
        " .csv].")] = None,
    output: OutOpt = None,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
) -> None:
    """The league table across files; duplicate deals compared table by table."""
    reading = Reading(paths, jobs=jobs, rules=rules, sets=sets, force=force, strict=strict)
    reading.refuse_overwrite(output)
    target(html, inputs=reading.files)
    fmt = report_format(given, output, {"json": StandingsFormat.JSON,
                                        "csv": StandingsFormat.CSV}, StandingsFormat.TEXT)
    if html is not None:
        page_target(html, "--html")  # (standings --html x.tarot wrote a page into x.tarot)
    table = Standings(method.value)
    try:
        for summary in reading.summaries():
            table.add(summary)
    except StrictStopError:
        reading.stopped()
    if not reading.read and reading.status:  # nothing read, and a path could not be:
        reading.finish()  # said above; no empty table (exit status 2)
    for repeat in table.repeats:
        echo_err(for_terminal(render(Msg("{where}: the same deal as {first} in the same"
                                         " session ({session}): left out (see tarot dedupe)",
                                         where=repeat.where, first=repeat.first,
                                         session=session_text(repeat.session)))))
    if fmt is StandingsFormat.JSON:
        data = orjson.dumps(table.to_json(), option=orjson.OPT_INDENT_2) + b"\n"
    elif fmt is StandingsFormat.CSV:
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        for row in lines(table):
            writer.writerow([for_csv(cell) for cell in row])
        data = text.getvalue().encode("utf-8")
    else:
        data = _text(table).encode("utf-8")
    if html is not None:
        with opened(html) as fh:
            fh.write(html_page(table, title).encode("utf-8"))
    if output in (None, "-"):
        stdout_bytes(data)
    else:
        with opened(output) as fh:
            fh.write(data)
    if html is not None:
        echo_err(render(Msg("standings page written to {page}", page=for_terminal(html))))
    reading.finish(faults=bool(table.repeats))


def _text(table: Standings) -> str:
    table_lines = list(lines(table))
    table_lines[0] = [column(key) for key in table_lines[0]]  # a table for people
    rows = [[for_terminal(cell if i == 0 else said(cell)) for cell in row]  # as people read them
            for i, row in enumerate(table_lines)]
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        out.append("  ".join(ljust(cell, widths[i]) if i == 1 else rjust(cell, widths[i])
                             for i, cell in enumerate(row)).rstrip())
    out.extend(for_terminal(render(Msg("note: {note}", note=n))) for n in table.notes())
    return "\n".join(out) + "\n"
