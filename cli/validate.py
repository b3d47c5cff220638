"""``tarot validate``: check every deal of files, folders, globs or standard input."""

# (No ``from __future__ import annotations`` here: the front door reads the command's
# annotations (cli/declare.py), and as strings each would be compiled at start-up.)

import contextlib
import io
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated

from tarotnotation.archive import CleanDeals, check_paths, check_paths_batched, walk
from tarotnotation.diagnostics import Code, Diagnostic
from tarotnotation.i18n import Msg
from tarotnotation.values import replace

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    STDIN,
    checked_spec,
    echo_err,
    expand_arguments,
    fail,
    read_as,
    ruleset_spec,
    use_color,
    worker_count,
)
from .options import (
    ColumnsOpt,
    ForceOpt,
    PathsArg,
    RulesOpt,
    SchedulerOpt,
    SetOpt,
    columns_inputs,
    on_cluster,
    use_columns,
)
from .output import opened, report_format, target
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
1 when one has or no deal was read at all, 2 when a path or a file
cannot be read (after the others were checked) or for a usage error,
130 when interrupted. --exit-zero: 0 even when faults are found (2 and
130 still mean what they say). -o names the report's file (its format
from the name: .json, .jsonl, .xml for JUnit, else text); it is written
whole or not at all, and never over one of the files checked.
"""

#: The reports that print nothing of a deal with nothing to say (they take clean deals in
#: bulk: :func:`tarotnotation.archive.check_paths_batched`).
_BULK_FORMATS = frozenset({OutputFormat.TEXT, OutputFormat.GITHUB})

#: The report format an output file's name implies, when --format is not given.
_REPORT_KINDS = {"json": OutputFormat.JSON, "jsonl": OutputFormat.JSONL,
                 "xml": OutputFormat.JUNIT}


def validate(
    paths: PathsArg,
    output_format: Annotated[
        OutputFormat | None, declare.Option(
            "--format", "-f", case_sensitive=False, show_default=False,
            help="Report format [default: text, or from the name of -o FILE: .json,"
            " .jsonl, .xml for junit].")] = None,
    strict: Annotated[bool, declare.Option("--strict", help="Fail on warnings too.")] = False,
    quiet: Annotated[bool, declare.Option("--quiet", "-q",
                                        help="Text format: only the summary.")] = False,
    statistics: Annotated[bool, declare.Option(
        "--statistics", help="Text format: the count of each code before the"
        " summary.")] = False,
    jobs: Annotated[int, declare.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Worker processes (0: one per core).")] = 1,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    ignore: Annotated[list[str] | None, declare.Option(
        "--ignore", metavar="CODE", help="Leave out diagnostics with this code or code"
        " prefix, e.g. D103 or R1 (repeatable; see `tarot codes`).")] = None,
    output: Annotated[str | None, declare.Option(
        "--output", "-o", metavar="FILE",
        help="Write the report to FILE (written whole or not at all; - for standard"
        " output).")] = None,
    verbose: Annotated[bool, declare.Option("--verbose", "-v",
                                          help="Also show the faults that follow from a"
                                          " cause (Y codes), and say which format each"
                                          " file is read as (on standard error).")] = False,
    max_errors: Annotated[int | None, declare.Option(
        "--max-errors", min=1, metavar="N",
        help="Show at most N faults of each deal (all are counted).")] = None,
    exit_zero: Annotated[bool, declare.Option(
        "--exit-zero", help="Exit 0 even when faults are found (2 still means the command"
        " could not run).")] = False,
    columns: ColumnsOpt = None,
    scheduler: SchedulerOpt = None,
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
    ignored = _ignored(ignore or [])
    args = expand_arguments(paths)
    asked, jobs = jobs, worker_count(jobs)
    items = list(walk(args))
    files = [str(p) for p in items if isinstance(p, Path)]
    # never over an input: refused before any reading
    out = target(output, inputs=[*files, *columns_inputs(columns)])
    fmt = _report_format(output_format, out)
    use_columns(columns)
    if not items:
        echo_err(Msg("tarot: warning: no record file found in {paths}", paths=", ".join(args)))
    if verbose:
        for f in files:
            echo_err(Msg("{file}: read as {format}", file="<stdin>" if f == STDIN else f,
                         format=read_as(f)))
    with on_cluster(scheduler, asked, files) as cluster, _report_file(out) as sink:
        report = reporter(fmt.value, color=out is None and use_color(sys.stdout),
                          quiet=quiet, strict=strict, statistics=statistics, out=sink)
        tally = Tally()
        with FileProgress(files) as progress:
            # Text and GitHub reports say nothing of a clean deal: the deals a worker found
            # clean come in bulk, counted and never one by one (issue 17).
            checking = (check_paths_batched if fmt in _BULK_FORMATS else check_paths)
            for checked in checking(items, jobs=jobs if cluster is None else cluster.workers,
                                    ruleset=forced, default_ruleset=default, keep=False,
                                    pool=cluster):
                if isinstance(checked, CleanDeals):
                    progress.reached(checked.file, checked.offset, checked.count)
                    tally.add_clean(checked.file, checked.count)
                    continue
                progress.reached(checked.file, checked.offset)
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
    if out is not None and fmt is not OutputFormat.TEXT:
        echo_err(tally.line())
    status = tally.status(strict)
    raise SystemExit(EXIT_OK if exit_zero and status == EXIT_FAULTS else status)


def _without(diagnostics: tuple[Diagnostic, ...], ignored: frozenset[Code]
             ) -> tuple[Diagnostic, ...]:
    """The diagnostics whose code is not ignored; a fault whose cause is ignored counts
    again as it was (``--ignore Y`` shows every fault of the replay)."""
    return tuple(d if d.cause not in ignored else replace(d, cause=None)
                 for d in diagnostics if d.code not in ignored)


def _report_format(given: OutputFormat | None, out: str | None) -> OutputFormat:
    """--format, else what the report file's name says, else text. A name that says a
    format of records, not a report, is refused unless --format says what to write."""
    return report_format(given, out, _REPORT_KINDS, OutputFormat.TEXT)


@contextlib.contextmanager
def _report_file(out: str | None) -> Iterator[IO[str]]:
    """The report's text stream: standard output, or a file written whole at the end."""
    if out is None:
        yield sys.stdout
        return
    with opened(out) as fh:
        text = io.TextIOWrapper(fh, encoding="utf-8", newline="\n")
        try:
            yield text
            text.flush()
        finally:
            text.detach()


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
