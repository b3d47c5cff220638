"""``tarot validate``: check every deal of files, folders, globs or standard input."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated

import typer

from tarotnotation.archive import check_paths, expand_paths, format_name, format_of
from tarotnotation.diagnostics import Code, Diagnostic
from tarotnotation.i18n import Msg

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    EXIT_USAGE,
    STDIN,
    checked_spec,
    echo_err,
    expand_arguments,
    fail,
    ruleset_spec,
    unopenable,
    use_color,
)
from .options import ColumnsOpt, ForceOpt, PathsArg, RulesOpt, SetOpt, use_columns
from .progress import FileProgress
from .report import Tally, reporter


class OutputFormat(StrEnum):
    """What ``--format`` accepts."""

    TEXT = "text"
    JSON = "json"
    JSONL = "jsonl"
    GITHUB = "github"
    JUNIT = "junit"


EPILOG = """\
Examples:

  tarot validate examples/

  tarot validate 'archive/**/*.tarot' -j 2

  cat deals.jsonl | tarot validate -

  tarot validate club/ --format github

  tarot validate club/ --format junit -o report.xml

  tarot validate old/ --rules pagat --set misere=on

  tarot validate sheets/ --ignore D103 --ignore R1

  tarot validate club/ -v --max-errors 5

Exit status: 0 when no deal has an error (nor a warning, with --strict),
1 when one has, 2 for a usage or I/O error (after reading the rest).
--exit-zero: 0 even when faults are found.
"""

def validate(
    paths: PathsArg,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="Report format.",
                                   case_sensitive=False)] = OutputFormat.TEXT,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="Text format: only the summary.")] = False,
    statistics: Annotated[bool, typer.Option(
        "--statistics", help="Text format: the count of each code before the"
        " summary.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Worker processes (0: one per core).")] = 1,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    ignore: Annotated[list[str] | None, typer.Option(
        "--ignore", metavar="CODE", help="Leave out diagnostics with this code or code"
        " prefix, e.g. D103 or R1 (repeatable; see `tarot codes`).")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE",
                                                help="Write the report to FILE.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="Also show the faults that follow from a"
                                          " cause (Y codes), and say which format each"
                                          " file is read as (on standard error).")] = False,
    max_errors: Annotated[int | None, typer.Option(
        "--max-errors", min=1, metavar="N",
        help="Show at most N faults of each deal (all are counted).")] = None,
    exit_zero: Annotated[bool, typer.Option(
        "--exit-zero", help="Exit 0 even when faults are found (2 still means the command"
        " could not run).")] = False,
    columns: ColumnsOpt = None,
) -> None:
    """Validate every deal: cards, bids, écart, poignées, play, scores.

    Reads the text notation, JSON, JSON Lines, TarotClub files, CSV and
    Excel score sheets, ScoreIt's and Matocolotoe's files. Prints
    each fault as "file:line:col: CODE severity: deal, trick, seat:
    message", then a summary of the deals read. When one slip explains
    many faults of a deal (a trick written from the wrong seat, a wrong
    dealer, a card or a trick left out...), it is said once with its fix
    (a Y code) and the faults that follow from it are not counted (-v
    shows them).
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    use_columns(columns)
    ignored = _ignored(ignore or [])
    args = expand_arguments(paths)
    if args.count(STDIN) > 1:
        fail(Msg("standard input ('-') can be named only once"))
    if jobs == 0:
        jobs = os.cpu_count() or 1
    files = [str(p) for p in expand_paths(args)]
    if not files:
        echo_err(f"tarot: warning: no record file found in {', '.join(args)}")
    if verbose:
        for f in files:
            kind = "the format its content shows" if f == STDIN else _format_of(f)
            echo_err(f"{'<stdin>' if f == STDIN else f}: read as {kind}")
    broken = unopenable(files)
    sink: IO[str] = sys.stdout
    if output is not None:
        try:
            sink = output.open("w", encoding="utf-8")
        except OSError as err:
            fail(Msg("{output}: cannot write: {value}", output=output, value=err.strerror or err))
    try:
        report = reporter(output_format.value, color=output is None and use_color(sys.stdout),
                          quiet=quiet, strict=strict, statistics=statistics, out=sink)
        tally = Tally()
        with FileProgress(files) as progress:
            for checked in check_paths(files, jobs=jobs, ruleset=forced,
                                       default_ruleset=default, keep=False):
                progress.reached(checked.file)
                if ignored and any(d.code in ignored or d.cause in ignored
                                   for d in checked.diagnostics):
                    checked = replace(checked, diagnostics=_without(checked.diagnostics,
                                                                    ignored))
                tally.add(checked)
                shown = [d for d in checked.diagnostics if verbose or d.counts]
                hidden = 0
                if max_errors is not None and len(shown) > max_errors:
                    hidden = len(shown) - max_errors
                    shown = shown[:max_errors]
                if len(shown) != len(checked.diagnostics):
                    checked = replace(checked, diagnostics=tuple(shown))
                report.deal(checked)
                if hidden:
                    report.more(checked, hidden)
        report.finish(tally)
    finally:
        if sink is not sys.stdout:
            sink.close()
    if output is not None and output_format is not OutputFormat.TEXT:
        echo_err(tally.line())
    if broken:
        echo_err(f"tarot: {len(broken)} file{'s' if len(broken) != 1 else ''} could not be"
                 f" read: {', '.join(broken)}")
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FAULTS if tally.failed(strict) and not exit_zero else EXIT_OK)


def _without(diagnostics: tuple[Diagnostic, ...], ignored: frozenset[Code]
             ) -> tuple[Diagnostic, ...]:
    """The diagnostics whose code is not ignored; a fault whose cause is ignored counts
    again as it was (``--ignore Y`` shows every fault of the replay)."""
    return tuple(d if d.cause not in ignored else replace(d, cause=None)
                 for d in diagnostics if d.code not in ignored)


def _ignored(prefixes: list[str]) -> frozenset[Code]:
    """The codes that ``--ignore`` names (each a code or a prefix of codes)."""
    out: set[Code] = set()
    for prefix in prefixes:
        word = prefix.strip().upper()
        matched = {code for code in Code if code.value.startswith(word)} if word else set()
        if not matched:
            fail(Msg("--ignore {prefix}: no diagnostic code starts with {value} (see `tarot"
                     " codes`)", prefix=prefix, value=word or Msg("nothing")))
        out |= matched
    return frozenset(out)


def _format_of(file: str) -> str:
    try:
        return format_name(format_of(Path(file)))
    except OSError as err:
        return f"nothing: {err.strerror or err}"
