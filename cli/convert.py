"""``tarot convert``: records from one format to another; several inputs merged into one."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

from tarotnotation.archive import read_path, walk
from tarotnotation.i18n import Msg, nmsg
from tarotnotation.records import DealRecord

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    diagnostic_lines,
    echo_err,
    exit_status,
    expand_arguments,
    read_as,
    use_color,
    worst,
)
from .options import ColumnsOpt, OutOpt, ToOpt, columns_inputs, use_columns
from .output import opened, output_format, target, warn_lost, write_records

EPILOG = """\
Examples:

  tarot convert club.tarot -o club.jsonl

  tarot convert export.json

  tarot convert deal.tarot --to tarotclub -o deal.json

  tarot convert jeudi.csv -o jeudi.tarot --columns 'Joueur 1=Alice'

  tarot convert club.tarot -o club.csv

  tarot convert old.tarot -o old.jsonl --skip-unreadable

  tarot convert club/*.tarot online.jsonl -o all.jsonl

Several inputs are merged into one output, in the order named.

The input's format is recognised from its content; the output's comes
from --to or OUT's name. What the output format cannot hold (e.g.
comments in a TarotClub log) is named in a warning. OUT is written whole
or not at all, never over an input.

JSON Lines (.jsonl) is the format for archives: a record a line, read
and checked a line at a time (and shared among workers by tarot
validate -j N). A JSON archive document (--to json) is read a record at
a time too, but only one process can read it.
"""

def convert(
    sources: Annotated[list[str], declare.Argument(
        metavar="IN...", help="Record files of any format (folders, globs), or - for"
        " standard input; several are merged in order.")],
    output: OutOpt = None,
    to: ToOpt = None,
    skip_unreadable: Annotated[bool, declare.Option(
        "--skip-unreadable", help="Write OUT even when some deals cannot be read (they are"
        " left out and reported).")] = False,
    verbose: Annotated[bool, declare.Option("--verbose", "-v",
                                          help="Say which format IN is read as.")] = False,
    columns: ColumnsOpt = None,
) -> None:
    """Convert records between the text notation, JSON, JSON Lines, TarotClub
    and CSV score sheets (and read Excel sheets, ScoreIt and Matocolotoe).

    A deal that cannot be read is reported; OUT is then not written at all
    unless --skip-unreadable is given. On standard output the readable
    deals are written.
    """
    args = expand_arguments(sources)
    items = list(walk(args))
    files = [str(p) for p in items if isinstance(p, Path)]
    # never over an input: refused before anything is read or written
    out = target(output, inputs=[*files, *columns_inputs(columns)])
    fmt = output_format(to, out)
    use_columns(columns)
    if verbose:
        for source in files:
            echo_err(Msg("{file}: read as {format}", file=source, format=read_as(source)))
    source = ", ".join(files) or ", ".join(args)
    color = use_color(sys.stderr)
    unreadable = 0
    deals = 0
    status = EXIT_OK

    def records() -> Iterator[DealRecord]:
        nonlocal unreadable, deals, status
        for path in items:
            if not isinstance(path, Path):  # a path that cannot be used, in its place
                for line in diagnostic_lines(path, color):
                    echo_err(line)
                status = worst(status, exit_status([path]))
                continue
            for item in read_path(path):
                for d in item.diagnostics:
                    for line in diagnostic_lines(d, color):
                        echo_err(line)
                if item.about_file:
                    status = worst(status, exit_status(item.diagnostics))
                    continue
                deals += 1
                if not item.ok:
                    unreadable += 1
                    continue
                assert item.record is not None
                warn_lost(item.record, fmt, item.index)
                yield item.record

    to_file = out is not None
    try:
        with opened(out) as fh:
            count = write_records(records(), fmt, fh)
            if to_file and (status or not deals or (unreadable and not skip_unreadable)):
                raise _IncompleteError
    except _IncompleteError:
        if unreadable:
            echo_err(nmsg("tarot: {output} not written: {n} deal of {source} could not be read"
                          " cleanly (see above); --skip-unreadable writes the others",
                          "tarot: {output} not written: {n} deals of {source} could not be read"
                          " cleanly (see above); --skip-unreadable writes the others",
                          unreadable, output=out, n=f"{unreadable:,}", source=source))
        elif status:
            echo_err(Msg("tarot: {output} not written: not every input could be read (see"
                         " above)", output=out))
        else:
            echo_err(Msg("tarot: {output} not written: no deal was read from {source}",
                         output=out, source=source))
        raise SystemExit(worst(status, EXIT_FAULTS)) from None
    if to_file:
        echo_err(nmsg("{n} deal written to {output} ({fmt})",
                      "{n} deals written to {output} ({fmt})", count, n=f"{count:,}",
                      output=out, fmt=fmt.name))
    if unreadable and to_file:
        echo_err(nmsg("tarot: {n} deal of {source} could not be read cleanly (see above) and"
                      " was left out",
                      "tarot: {n} deals of {source} could not be read cleanly (see above) and"
                      " were left out", unreadable, n=f"{unreadable:,}", source=source))
    elif unreadable:
        echo_err(nmsg("tarot: {n} deal of {source} could not be read cleanly (see above)",
                      "tarot: {n} deals of {source} could not be read cleanly (see above)",
                      unreadable, n=f"{unreadable:,}", source=source))
    raise SystemExit(worst(status, EXIT_FAULTS if unreadable or not deals else EXIT_OK))


class _IncompleteError(Exception):
    """Some deals could not be read: the output file is not written."""

