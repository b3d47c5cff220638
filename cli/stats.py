"""``tarot stats``: statistics of archives, per player, seat or contract."""

from __future__ import annotations

import csv
import io
from enum import StrEnum
from typing import Annotated

import orjson

from tarotnotation.archives.safety import for_csv
from tarotnotation.archives.stats import Stats, csv_header

from . import declare
from .common import stdout_bytes
from .options import ForceOpt, OutOpt, PathsArg, RulesOpt, SchedulerOpt, SetOpt
from .output import opened, report_format
from .reading import JobsOpt, Reading, StrictOpt, StrictStopError

EPILOG = """\
Examples:

  tarot stats club/

  tarot stats season.jsonl --by contract

  tarot stats season.jsonl --by seat --format csv -o seats.csv

  tarot stats 'archive/**/*.jsonl' -j 2 --format json | jq '.archive.codes'

Per player (by the names in the records' seats; a record that names
no players counts its seats as players, with a note): deals played,
times taker, take rate, success rate by contract, average margin as
taker, average and total score, poignées, petits au bout, chelems. For
the archive: the contract mix, success rates, average margin, the
half-point deals, the diagnostic codes counted. Memory stays flat
whatever the size of the archive. A deal that cannot be read is
reported and left out of every figure (exit status 1).
"""


class By(StrEnum):
    """What ``--by`` accepts."""

    PLAYER = "player"
    SEAT = "seat"
    CONTRACT = "contract"


class StatsFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"


def stats(
    paths: PathsArg,
    by: Annotated[By, declare.Option("--by", "-b", case_sensitive=False,
                                   help="Rows per player, seat or contract.")] = By.PLAYER,
    given: Annotated[StatsFormat | None, declare.Option(
        "--format", "-f", case_sensitive=False, show_default=False,
        help="text (for people), json (everything), csv (the rows) [default: text, or from"
        " the name of -o FILE: .json, .csv].")] = None,
    output: OutOpt = None,
    jobs: JobsOpt = 1,
    strict: StrictOpt = False,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Statistics per player, seat or contract, and of the archive as a whole."""
    reading = Reading(paths, jobs=jobs, rules=rules, sets=sets, force=force, strict=strict,
                      scheduler=scheduler)
    reading.refuse_overwrite(output)
    fmt = report_format(given, output, {"json": StatsFormat.JSON, "csv": StatsFormat.CSV},
                        StatsFormat.TEXT)  # (stats -o s.json wrote a text table)
    tally = Stats(by.value)
    try:
        for summary in reading.summaries():
            tally.add(summary)
    except StrictStopError:
        reading.stopped()
    if not reading.read and reading.status:  # nothing read, and a path could not be:
        reading.finish()  # said above; no empty table (exit status 2)
    tally.unreadable = reading.unreadable
    if fmt is StatsFormat.JSON:
        data = orjson.dumps(tally.to_json(), option=orjson.OPT_INDENT_2) + b"\n"
    elif fmt is StatsFormat.CSV:
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(csv_header(by.value))
        for row in tally.rows():
            writer.writerow([for_csv(v) if isinstance(v, str) else ("" if v is None else v)
                             for v in row.values()])
        data = text.getvalue().encode("utf-8")
    else:
        data = ("\n".join(tally.text()) + "\n").encode("utf-8")
    if output in (None, "-"):
        stdout_bytes(data)
    else:
        with opened(output) as fh:
            fh.write(data)
    reading.finish()
