"""``tarot query``: the deals of archives that match an expression, in any format."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Annotated

from tarotnotation.archives.query import QueryError, compile_query
from tarotnotation.archives.safety import for_terminal
from tarotnotation.archives.tabular import DEFAULT_COLUMNS, TABLE_FORMATS, TableWriter, columns
from tarotnotation.formats.registry import Format
from tarotnotation.i18n import Msg, message_of, nmsg, render
from tarotnotation.records import DealRecord

from . import declare
from .common import echo, echo_err, fail
from .options import ForceOpt, OutOpt, PathsArg, RulesOpt, SchedulerOpt, SetOpt
from .output import WRITE_FORMATS, opened, output_format, report_format, write_records
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError

EPILOG = """\
Examples:

  tarot query club/ --where 'contract >= garde and not made'

  tarot query season.jsonl -o alice.tarot
      --where 'player = "Alice Martin" and taker = player'

  tarot query season.jsonl --count
      --where 'Event ~ "Lyon" and Date >= 2026.01.01'

  tarot query season.jsonl --where 'poignee or chelem' --format table-csv
      --fields Date,contract,taker,made,margin > big.csv

  tarot query archive/ --where 'has P105' -j 2 -f jsonl > revokes.jsonl

The language is described with examples in docs/query.md: fields
(contract, taker, made, margin, points, bouts, petit_au_bout, chelem,
poignee, players, called_self, dealer, player, score...), tags with a
capital (Event, Date), has CODE, and, or, not, parentheses.
A deal that cannot be read is reported and left out (exit status 1).
"""

FORMATS = (*WRITE_FORMATS, *TABLE_FORMATS)


def query(
    paths: PathsArg,
    where: Annotated[str | None, declare.Option(
        "--where", "-w", metavar="EXPR",
        help="The deals to keep, e.g. 'contract >= garde and not made' (docs/query.md);"
        " every deal when left out.")] = None,
    fmt: Annotated[str | None, declare.Option(
        "--format", "-f", metavar="FORMAT",
        help=f"Output: {', '.join(FORMATS)} (default: from OUT's extension, tarot on"
        " standard output; table with --fields).")] = None,
    fields: Annotated[str | None, declare.Option(
        "--fields", metavar="F1,F2...",
        help="Columns of a table format: fields and tags, e.g. Date,contract,taker,made,"
        f"margin (default {DEFAULT_COLUMNS}).")] = None,
    count: Annotated[bool, declare.Option(
        "--count", "-c", help="Print only how many deals match.")] = False,
    output: OutOpt = None,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """The deals that match an expression, streamed, in any format.

    Every deal is read and replayed under its rules (a query of tags,
    names and files alone only reads), and kept when the expression is
    true of it. Matching deals are written as records
    (tarot, json, jsonl, tarotclub) or as a table of chosen fields
    (table, table-csv, table-jsonl); --count prints only their number.
    """
    try:
        matcher = compile_query(where)
    except QueryError as err:
        expression, caret = err.show().split("\n")
        fail(Msg("--where: {message}\n  {expression}\n  {caret}",
                 message=for_terminal(render(err.message)), expression=expression,
                 caret=caret))
    kind = _format(fmt, output, fields)
    cols = None
    if isinstance(kind, str):  # a table
        try:
            cols = columns(fields or DEFAULT_COLUMNS)
        except ValueError as err:
            fail(Msg("--fields: {err}", err=message_of(err)))
    elif fields is not None and not count:
        fail(Msg("--fields makes a table: give --format {table_formats}",
                 table_formats=' or '.join(TABLE_FORMATS)))
    # A query of tags, players and files alone reads the records without replaying them.
    replay = matcher.needs_replay or any(c.needs_replay for c in cols or ())
    reading = Reading(paths, jobs=jobs, rules=rules, sets=sets, force=force, strict=strict,
                      replay=replay, scheduler=scheduler)
    reading.refuse_overwrite(output)
    matched = 0
    try:
        if count:
            for summary in reading.summaries():
                matched += matcher(summary)
            echo(str(matched))
        elif isinstance(kind, str):
            assert cols is not None
            with opened(output) as fh:
                text = io.TextIOWrapper(fh, encoding="utf-8", newline="\n",
                                        write_through=True)
                try:
                    writer = TableWriter(kind, cols, text)
                    for summary in reading.summaries():
                        if matcher(summary):
                            matched += 1
                            writer.row(summary)
                    writer.close()
                finally:
                    text.flush()
                    text.detach()  # the stream stays open for whoever owns it
        else:
            def records() -> Iterator[DealRecord]:
                nonlocal matched
                for deal in reading.deals(records=matcher):
                    if deal.record is not None:
                        matched += 1
                        yield deal.record

            try:
                with opened(output) as fh:
                    write_records(records(), kind, fh)
            except ValueError as err:
                fail(Msg("cannot write {kind}: {err}", kind=kind.name, err=err))
    except StrictStopError:
        reading.stopped()
    if output not in (None, "-") and not count:
        echo_err(nmsg("{matched} of {n} deal matched, written to {output}",
                      "{matched} of {n} deals matched, written to {output}", reading.read,
                      matched=f"{matched:,}", n=f"{reading.read:,}",
                      output=for_terminal(output or "")))
    reading.finish()


def _format(fmt: str | None, output: str | None, fields: str | None) -> str | Format:
    """The output format: ``--format``; else a table with ``--fields`` (CSV when OUT ends
    in .csv); else from OUT's name (a .csv is the score-sheet format, a row per deal). A
    table format is its name; a format of records, the registry's."""
    if fmt is not None:
        kind = fmt.strip().lower()
        if kind not in FORMATS:
            fail(Msg("--format {fmt}: unknown format: expected {formats} or {last}",
                     fmt=fmt, formats=', '.join(FORMATS[:-1]), last=FORMATS[-1]))
        return kind if kind in TABLE_FORMATS else output_format(kind, None)
    if fields is not None:  # (query --fields Event -o f.tarot wrote a table into f.tarot)
        return report_format(None, output, {"csv": "table-csv", "jsonl": "table-jsonl"},
                             "table")
    return output_format(None, output)
