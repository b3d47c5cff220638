"""What the archive commands (query, stats, standings, dedupe, split, sort) share: their
options, reading archives with unreadable deals reported as ``validate`` reports them,
and the refusal to write over an input."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from tarotnotation.archive import walk
from tarotnotation.archives.stream import ArchiveDeal, Options, scan
from tarotnotation.archives.summary import DealSummary
from tarotnotation.diagnostics import Diagnostic
from tarotnotation.i18n import Msg, nmsg

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    exit_status,
    expand_arguments,
    ruleset_spec,
    use_color,
    worker_count,
    worst,
)
from .options import on_cluster
from .output import refuse_inputs, target

if TYPE_CHECKING:
    from tarotnotation.cluster import Cluster

JobsOpt = Annotated[int, declare.Option(
    "--jobs", "-j", min=0, metavar="N",
    help="Worker processes (0: one per core); the output keeps the order of -j 1.")]
StrictOpt = Annotated[bool, declare.Option(
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
                 strict: bool = False, replay: bool = True, scheduler: str | None = None
                 ) -> None:
        self.default = ruleset_spec(rules, sets)
        self.forced = checked_spec(force, "--ruleset")
        args = expand_arguments(paths)
        items = list(walk(args))
        self.files = [str(p) for p in items if isinstance(p, Path)]
        #: The paths that cannot be used (F001-F004), reported in their place.
        self.faults = [d for d in items if not isinstance(d, Path)]
        self.asked = jobs
        self.jobs = worker_count(jobs)
        self.scheduler = scheduler
        self.strict = strict
        self.replay = replay
        self.unreadable = 0
        self.read = 0
        self.status = EXIT_OK
        self.color = use_color(sys.stderr)
        if not items:
            echo_err(Msg("tarot: warning: no record file found in {paths}",
                         paths=", ".join(args)))

    def options(self, records: object = False) -> Options:
        """The scan's options."""
        return Options(ruleset=self.forced, default_ruleset=self.default,
                       replay=self.replay, records=records)  # type: ignore[arg-type]

    def deals(self, records: object = False,
              skipped: Callable[[ArchiveDeal], None] | None = None) -> Iterator[ArchiveDeal]:
        """Every deal that could be read, in order (see the class doc); ``records``: the
        records of all (True), none (False), or those a predicate picks; ``skipped`` is
        told of each deal that could not be read. A path that cannot be used, a file that
        cannot be read and a file with no deal are reported (F001-F005), and the others
        read."""
        for fault in self.faults:
            self._report([fault])
        with on_cluster(self.scheduler, self.asked, self.files) as cluster:
            yield from self._deals(records, skipped, cluster)

    def _deals(self, records: object, skipped: Callable[[ArchiveDeal], None] | None,
               cluster: Cluster | None) -> Iterator[ArchiveDeal]:
        jobs = self.jobs if cluster is None else cluster.workers
        for deal in scan(self.files, jobs=jobs, options=self.options(records), pool=cluster):
            if deal.about_file:  # the file cannot be read, or holds no deal
                self._report(deal.diagnostics)
                continue
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

    def _report(self, diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
        for d in diagnostics:
            for line in diagnostic_lines(d, self.color):
                echo_err(line)
        self.status = worst(self.status, exit_status(diagnostics, strict=self.strict))

    def summaries(self) -> Iterator[DealSummary]:
        """The summary of every deal that could be read."""
        for deal in self.deals():
            assert deal.summary is not None
            yield deal.summary

    def refuse_overwrite(self, output: str | None) -> None:
        """A usage error when ``output`` is one of the inputs (the same file, a link to
        it), a folder, or in no folder, before anything is read or written."""
        target(output, inputs=self.files)

    def finish(self, *, faults: bool = False) -> None:
        """Say what was left out and end with the exit status (the README's table): 2 when
        a path or a file could not be read (reported in its place), 1 when a deal could
        not be read, when no deal was read at all, or on ``faults``; 0 otherwise."""
        empty = self.read == 0 and self.unreadable == 0
        if empty and not self.status:
            echo_err(Msg("tarot: no deal was read"))
        if self.unreadable:
            echo_err(nmsg("tarot: {n} deal could not be read and was left out (see above)",
                          "tarot: {n} deals could not be read and were left out (see above)",
                          self.unreadable, n=f"{self.unreadable:,}"))
        raise SystemExit(worst(self.status, EXIT_FAULTS if self.unreadable or faults or empty
                               else EXIT_OK))

    def stopped(self) -> None:
        """End a command stopped by ``--strict``."""
        echo_err(Msg("tarot: stopped at the first deal that could not be read (--strict);"
                     " no output file was written"))
        raise SystemExit(EXIT_FAULTS)


def refuse_overwrite(output: str | None, inputs: list[str]) -> None:
    """A usage error when ``output`` names one of ``inputs`` (the same file, a hard or a
    symbolic link to one), before it is written."""
    if output is not None:
        refuse_inputs(output, inputs)

