"""What the archive commands (query, stats, standings, dedupe, split, sort) share: their
options, reading archives with unreadable deals reported as ``validate`` reports them,
and the refusal to write over an input."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Annotated

import typer

from tarotnotation.archive import STDIN, expand_paths
from tarotnotation.archives.stream import ArchiveDeal, Options, scan
from tarotnotation.archives.summary import DealSummary
from tarotnotation.i18n import Msg

from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    expand_arguments,
    fail,
    ruleset_spec,
    unopenable,
    use_color,
)

JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, metavar="N",
    help="Worker processes (0: one per core); the output keeps the order of -j 1.")]
StrictOpt = Annotated[bool, typer.Option(
    "--strict", help="Stop at the first deal that cannot be read (exit status 1; no"
    " output file is written).")]


class StrictStopError(Exception):
    """``--strict``: a deal could not be read."""


class Reading:
    """Read archives for a command: the files named (folders searched, globs expanded,
    ``-`` standard input), each deal summarized; a deal that cannot be read is reported
    on standard error as ``tarot validate`` reports it, counted, and left out (with
    ``strict``, it stops the command)."""

    def __init__(self, paths: list[str], *, jobs: int = 1, rules: str | None = None,
                 sets: list[str] | None = None, force: str | None = None,
                 strict: bool = False, replay: bool = True) -> None:
        self.default = ruleset_spec(rules, sets)
        self.forced = checked_spec(force, "--ruleset")
        args = expand_arguments(paths)
        if args.count(STDIN) > 1:
            fail(Msg("standard input ('-') can be named only once"))
        self.files = [str(p) for p in expand_paths(args)]
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self.strict = strict
        self.replay = replay
        self.unreadable = 0
        self.read = 0
        self.broken = unopenable(self.files)
        self.color = use_color(sys.stderr)
        if not self.files:
            echo_err(f"tarot: warning: no record file found in {', '.join(args)}")

    def options(self, records: object = False) -> Options:
        """The scan's options."""
        return Options(ruleset=self.forced, default_ruleset=self.default,
                       replay=self.replay, records=records)  # type: ignore[arg-type]

    def deals(self, records: object = False,
              skipped: Callable[[ArchiveDeal], None] | None = None) -> Iterator[ArchiveDeal]:
        """Every deal that could be read, in order (see the class doc); ``records``: the
        records of all (True), none (False), or those a predicate picks; ``skipped`` is
        told of each deal that could not be read."""
        for deal in scan(self.files, jobs=self.jobs, options=self.options(records)):
            if deal.summary is None:
                self.unreadable += 1
                if skipped is not None:
                    skipped(deal)
                for d in deal.diagnostics:
                    for line in diagnostic_lines(d, self.color):
                        echo_err(line)
                if self.strict:
                    raise StrictStopError
                continue
            self.read += 1
            yield deal

    def summaries(self) -> Iterator[DealSummary]:
        """The summary of every deal that could be read."""
        for deal in self.deals():
            assert deal.summary is not None
            yield deal.summary

    def refuse_overwrite(self, output: str | None) -> None:
        """A usage error when ``output`` is one of the inputs (the same file, a link to
        it), before anything is read or written."""
        refuse_overwrite(output, self.files)

    def finish(self, *, faults: bool = False) -> None:
        """Say what was left out and end with the exit status: 2 when a file could not be
        opened, 1 when a deal could not be read, when no deal was read at all, or on
        ``faults``; 0 otherwise."""
        empty = self.read == 0 and self.unreadable == 0
        if empty and not self.broken:
            echo_err("tarot: no deal was read")
        if self.unreadable:
            echo_err(f"tarot: {_deals(self.unreadable)} could not be read and"
                     f" {'was' if self.unreadable == 1 else 'were'} left out (see above)")
        if self.broken:
            echo_err(f"tarot: {len(self.broken)} file{'s' if len(self.broken) != 1 else ''}"
                     f" could not be read: {', '.join(self.broken)}")
            raise typer.Exit(2)
        raise typer.Exit(EXIT_FAULTS if self.unreadable or faults or empty else EXIT_OK)

    def stopped(self) -> None:
        """End a command stopped by ``--strict``."""
        echo_err("tarot: stopped at the first deal that could not be read (--strict);"
                 " no output file was written")
        raise typer.Exit(EXIT_FAULTS)


def refuse_overwrite(output: str | None, inputs: list[str]) -> None:
    """A usage error when ``output`` names one of ``inputs`` (or a link to one)."""
    if output is None or output == STDIN or not os.path.exists(output):
        return
    for f in inputs:
        if f == STDIN:
            continue
        try:
            same = os.path.samefile(output, f)
        except OSError:
            continue
        if same:
            fail(Msg("{output}: is one of the inputs ({f}); the tool never writes over its input:"
                     " name another file", output=output, f=f))


def _deals(n: int) -> str:
    return f"{n:,} deal{'s' if n != 1 else ''}"
