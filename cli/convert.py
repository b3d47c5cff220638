"""``tarot convert``: records from one format to another."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from tarotnotation.archive import STDIN, expand_paths, format_name, format_of, read_path
from tarotnotation.i18n import Msg
from tarotnotation.records import DealRecord

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    diagnostic_lines,
    echo_err,
    existing_file,
    expand_arguments,
    fail,
    use_color,
)
from .options import ColumnsOpt, OutOpt, ToOpt, use_columns
from .output import opened, output_format, write_records

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

The input's format is recognised from its content. What the output
format cannot hold (e.g. comments in a TarotClub log) is named in a
warning.
"""

def convert(
    sources: Annotated[list[str], typer.Argument(
        metavar="IN...", help="Record files of any format (folders, globs), or - for"
        " standard input; several are merged in order.")],
    output: OutOpt = None,
    to: ToOpt = None,
    skip_unreadable: Annotated[bool, typer.Option(
        "--skip-unreadable", help="Write OUT even when some deals cannot be read (they are"
        " left out and reported).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="Say which format IN is read as.")] = False,
    columns: ColumnsOpt = None,
) -> None:
    """Convert records between the text notation, JSON, JSON Lines, TarotClub
    and CSV score sheets (and read Excel sheets, ScoreIt and Matocolotoe).

    A deal that cannot be read is reported; OUT is then not written at all
    unless --skip-unreadable is given. On standard output the readable
    deals are written.
    """
    fmt = output_format(to, output)
    use_columns(columns)
    files = [str(p) for p in expand_paths(expand_arguments(sources))]
    for source in files:
        if source != STDIN:
            existing_file(source)
            if verbose:
                echo_err(f"{source}: read as {format_name(format_of(source))}")
    source = ", ".join(files)
    color = use_color(sys.stderr)
    unreadable = 0

    def records() -> Iterator[DealRecord]:
        nonlocal unreadable
        for item in (item for f in files for item in read_path(f)):
            for d in item.diagnostics:
                for line in diagnostic_lines(d, color):
                    echo_err(line)
            if not item.ok:
                unreadable += 1
                continue
            assert item.record is not None
            if fmt == "tarotclub":
                from tarotnotation.formats import tarotclub

                lost = tarotclub.dropped(item.record)
                if lost:
                    echo_err(f"tarot: warning: deal {item.index}: a TarotClub log cannot hold"
                             f" {'; '.join(lost)}")
            elif fmt == "csv":
                from tarotnotation.formats import csvsheet

                lost = csvsheet.cannot_hold(item.record)
                if lost:
                    echo_err(f"tarot: warning: deal {item.index}: a CSV score sheet cannot"
                             f" hold {'; '.join(lost)}")
            yield item.record

    to_file = output not in (None, "-")
    try:
        with opened(output) as fh:
            count = write_records(records(), fmt, fh)
            if unreadable and to_file and not skip_unreadable:
                raise _IncompleteError
    except ValueError as err:
        fail(Msg("cannot write {fmt}: {err}", fmt=fmt, err=err))
    except _IncompleteError:
        echo_err(f"tarot: {output} not written: {_deals(unreadable)} of {source} could not"
                 " be read cleanly (see above); --skip-unreadable writes the others")
        raise typer.Exit(EXIT_FAULTS) from None
    if to_file:
        echo_err(f"{_deals(count)} written to {output} ({fmt})")
    if unreadable:
        echo_err(f"tarot: {_deals(unreadable)} of {source} could not be read cleanly"
                 f" (see above){' and were left out' if to_file else ''}")
    raise typer.Exit(EXIT_FAULTS if unreadable else EXIT_OK)


class _IncompleteError(Exception):
    """Some deals could not be read: the output file is not written."""


def _deals(n: int) -> str:
    return f"{n} deal{'s' if n != 1 else ''}"
