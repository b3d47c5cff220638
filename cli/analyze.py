"""``tarot analyze``: the double-dummy cost of every card, written into the records."""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from tarotnotation.analysis import DEFAULT_TABLE_MB, MAX_TABLE_MB, analyse_record
from tarotnotation.analysis.analyse import (
    DEFAULT_BUDGET,
    DEFAULT_PRECISION,
    DEFAULT_SPLIT,
    Executor,
)
from tarotnotation.archive import STDIN, check_deal, format_of, read_path, walk
from tarotnotation.diagnostics import Diagnostic, Severity
from tarotnotation.formats import registry
from tarotnotation.i18n import Msg, nmsg, render
from tarotnotation.inputs import is_url, size_of
from tarotnotation.journal import Entry, Journal, JournalError, journal_path, run_key
from tarotnotation.records import DealRecord
from tarotnotation.source import ReadDeal, read_deal
from tarotnotation.workers import Pending, Workers

from . import declare
from .common import (
    EXIT_FAULTS,
    EXIT_OK,
    checked_spec,
    diagnostic_lines,
    echo_err,
    exit_status,
    expand_arguments,
    fail,
    ruleset_spec,
    use_color,
    worker_count,
    worst,
)
from .options import ForceOpt, PathsArg, RulesOpt, SchedulerOpt, SetOpt, on_cluster
from .output import opened, output_format, target, write_records
from .progress import wanted
from .terminal import safe

if TYPE_CHECKING:
    from tarotnotation.cluster import Cluster, Task

EPILOG = """\
Examples:

  tarot analyze examples/analysis.tarot

  tarot analyze club.tarot -o club-analysed.tarot

  tarot analyze club.tarot --in-place -j 2

  tarot analyze deal.tarot --all-cards --budget 600000000 --precision 0

  tarot analyze deal.tarot --from-trick 12

Each card analysed gets a computed comment such as
{tarot: dd -1.5, best T12; made by 1 with best play; ? added}: its cost
to its camp in card points, a best card in its place, and the outcome
with best play after it; a card that cost points gets ?, one that
changed the outcome ??, unless a person already marked it. Analysing
again gives the same file; people's comments and glyphs are kept.

Within each deal's --budget the outcome before and after every card is
decided first, then each card's cost is narrowed, the costliest first,
to --precision; past the budget the values are bounds (dd -5..-3,
dd ≤ -3, undecided) and a warning says so. The same file and options
give the same comments on any machine and with any -j. Exit status: 0
when every deal was analysed, 1 when a deal could not be read or
analysed, 2 for a usage or I/O error, 130 when interrupted (no output
file is written then).
"""

#: Formats that keep comments (TarotClub's files hold none).

#: A deal's result: its record, its diagnostics, whether it was analysed.
_Result = tuple[DealRecord | None, tuple[Diagnostic, ...], bool]
#: On a cluster, the deals handed over and not yet taken back, a worker: enough that a
#: worker never waits for the command to take a result back and hand it another (100
#: bots' deals, most of them short, on 2 workers: the workers idle 14-17% of the time
#: with 2 a worker, 3-4% with 8; docs/distributed.md), few enough to stay small (a deal
#: in flight is a few kB here).
AHEAD: Final = 8


def _half(points: float, option: str) -> int:
    half = points * 2
    if half < 0 or half != int(half):
        fail(Msg("{option} {points}: expected points, whole or .5 (0.5, 3, 10)",
                 option=option, points=format(points, 'g')))
    return int(half)


def analyze(
    paths: PathsArg,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="OUT",
        help="Write every deal to OUT (its extension gives the format; written whole or"
        " not at all); standard output if left out.")] = None,
    in_place: Annotated[bool, typer.Option(
        "--in-place", help="Rewrite each input file with its analysis (atomically).")] = False,
    from_trick: Annotated[int, typer.Option(
        "--from-trick", min=1, metavar="N", help="Analyse from trick N on.")] = 1,
    budget: Annotated[int, typer.Option(
        "--budget", min=1, metavar="NODES",
        help="Positions each deal's searches may visit (the same comments on any"
        " machine); past them, bounds.")] = DEFAULT_BUDGET,
    precision: Annotated[float, typer.Option(
        "--precision", min=0, metavar="POINTS",
        help="A card's cost is known when its bounds differ by at most this many"
        " points (0: exact).")] = DEFAULT_PRECISION / 2,
    split: Annotated[int, typer.Option(
        "--split", min=1, max=64, metavar="N",
        help="Cut each deal's hard cards into N parts searched apart (in parallel with"
        " -j; the comments depend on N, not on -j).")] = DEFAULT_SPLIT,
    all_cards: Annotated[bool, typer.Option(
        "--all-cards", help="Value every legal card at each point, not only the one"
        " played.")] = False,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", min=0.001, metavar="S",
        help="Seconds for each deal, instead of --budget (depends on the machine).")
    ] = None,
    node_limit: Annotated[int | None, typer.Option(
        "--node-limit", min=1, metavar="N", hidden=True,
        help="The former name of --budget.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, metavar="N",
                                      help="Worker processes (0: one per core).")] = 1,
    mistake: Annotated[float, typer.Option(
        "--mistake", min=0, metavar="POINTS",
        help="Mark ? a card that cost at least this many points.")] = 0.5,
    blunder: Annotated[float | None, typer.Option(
        "--blunder", min=0, metavar="POINTS",
        help="Mark ?? a card that cost at least this many points (a card that changed"
        " the outcome always is).")] = None,
    table_mb: Annotated[float, typer.Option(
        "--table-mb", min=1, max=MAX_TABLE_MB, metavar="MB",
        help="Memory for the search's table, per worker.")] = DEFAULT_TABLE_MB,
    rules: RulesOpt = None,
    sets: SetOpt = None,
    force: ForceOpt = None,
    scheduler: SchedulerOpt = None,
    resume: Annotated[bool, declare.Option(
        "--resume", help="Continue an analysis to a file that stopped in the middle (a"
        " scheduler lost, an interruption) from its journal, OUT.journal: no finished"
        " deal is analysed again.")] = False,
) -> None:
    """Analyse the card play of every deal: each card's double-dummy cost.

    For each card, the value of the deal with best play by both camps
    before and after it (the taker's camp's points against its
    threshold); the difference is what the card cost its camp. The
    records come back with the analysis as computed comments.
    """
    default = ruleset_spec(rules, sets)
    forced = checked_spec(force, "--ruleset")
    args = expand_arguments(paths)
    walked = list(walk(args))
    files = [str(p) for p in walked if isinstance(p, Path)]
    if not walked:  # no deal read: exit status 1, as every command (the README's table)
        echo_err(Msg("tarot: warning: no record file found in {paths}", paths=", ".join(args)))
        raise SystemExit(EXIT_FAULTS)
    if in_place and output is not None:
        fail(Msg("--in-place and --output cannot be given together"))
    if in_place and STDIN in files:
        fail(Msg("--in-place cannot rewrite standard input"))
    if in_place and any(is_url(f) for f in files):
        fail(Msg("--in-place cannot rewrite a URL: write the analysis to a file (-o OUT)"))
    output = target(output, inputs=files)  # never over an input: refused before reading
    if resume and output in (None, STDIN):
        fail(Msg("--resume needs an output file (-o OUT): its journal is kept beside it"))
    # With --scheduler or --resume, each finished deal is noted in a journal beside the
    # output (refused, as the output is, when it is an input), so that --resume goes on.
    journal_at = (journal_path(output) if output not in (None, STDIN)
                  and (scheduler is not None or resume) and _a_file(output) else None)
    if journal_at is not None:
        target(journal_at, inputs=files)
    fmt = registry.DEFAULT if in_place else output_format(None, output)
    if not _holds_comments(fmt):
        fail(Msg("{output}: {fmt} cannot hold the analysis's comments",
                 output=output, fmt=fmt.title))
    options = {"from_trick": from_trick, "time_limit": time_limit,
               "budget": budget if node_limit is None else node_limit,
               "precision": _half(precision, "--precision"), "all_cards": all_cards,
               "split": split,
               "mistake": _half(mistake, "--mistake"),
               "blunder": None if blunder is None else _half(blunder, "--blunder"),
               "table_mb": table_mb}
    asked, jobs = jobs, worker_count(jobs)
    color = use_color(sys.stderr)
    faulty = False
    status = EXIT_OK
    deals = 0
    for fault in walked:  # the paths that cannot be used, reported; the others analysed
        if not isinstance(fault, Path):
            _report((fault,), color)
            status = worst(status, exit_status([fault]))

    def read(f: str) -> Iterator[ReadDeal]:
        """The deals of a file; what is said of the whole file reported on the way."""
        nonlocal status, deals
        for item in read_path(f):
            if item.about_file:
                _report(item.diagnostics, color)
                status = worst(status, exit_status(item.diagnostics))
                continue
            deals += 1
            yield item

    with on_cluster(scheduler, asked) as cluster, _Progress() as progress:
        if in_place:
            for f in files:
                kind = registry.get(format_of(f))
                if not _holds_comments(kind):
                    fail(Msg("{f}: {kind} cannot hold the analysis's comments",
                             f=f, kind=kind.title))
                before = status
                items = list(read(f))
                if not items or status != before:
                    continue  # nothing to rewrite, or the file could not be read whole
                out: list[DealRecord] = []
                bad = False
                for record, diags, _ in _analyse(items, f, jobs, options, forced, default,
                                                 progress, cluster):
                    bad |= _report(diags, color)
                    if record is not None:
                        out.append(record)
                if bad and len(out) != len(items):
                    echo_err(Msg("tarot: {file}: not rewritten: a deal cannot be read", file=f))
                    faulty = True
                    continue
                faulty |= bad
                with opened(f) as fh:
                    write_records(out, kind, fh)
        else:
            analysed = 0
            journal = None if journal_at is None else _journal(
                journal_at, files, options, forced, default, resume)
            with opened(output) as fh, contextlib.ExitStack() as held:
                if journal is not None:
                    held.enter_context(journal)

                def records() -> Iterator[DealRecord]:
                    nonlocal faulty, analysed
                    for f in files:
                        def run(items: Iterable[ReadDeal], f: str = f) -> Iterator[_Result]:
                            return _analyse(items, f, jobs, options, forced, default,
                                            progress, cluster, journal)

                        for record, diags, done, said in _journaled(read(f), f, journal, run):
                            faulty |= _report(diags, color) or said
                            analysed += done
                            if record is not None:
                                yield record

                count = write_records(records(), fmt, fh)
            if journal is not None:
                journal.remove()  # (the output is written whole)
                if journal.resumed:
                    echo_err(nmsg("{n} deal taken from the journal {journal}",
                                  "{n} deals taken from the journal {journal}",
                                  journal.resumed, n=journal.resumed, journal=journal.path))
            if output not in (None, STDIN):
                echo_err(nmsg("{n} deal written to {output}, {analysed} analysed",
                              "{n} deals written to {output}, {analysed} analysed", count,
                              n=count, output=output, analysed=analysed))
    raise typer.Exit(worst(status, EXIT_FAULTS if faulty or not deals else EXIT_OK))


def _a_file(output: str) -> bool:
    """Whether ``output`` is a regular file or none yet: a device (``/dev/null``) or a
    pipe gets no journal beside it."""
    try:
        return stat.S_ISREG(os.stat(output).st_mode)
    except OSError:
        return True


def _journal(path: str, files: list[str], options: dict[str, Any], forced: str | None,
             default: str | None, resume: bool) -> Journal:
    """The run's journal (:mod:`tarotnotation.journal`); one that cannot be used is a
    usage error."""
    from tarotnotation import __version__

    key = run_key(files, {**options, "ruleset": forced, "rules": default}, __version__)
    try:
        return Journal(path, key, resume=resume)
    except JournalError as err:
        fail(err.message)


def _journaled(items: Iterable[ReadDeal], file: str, journal: Journal | None,
               run: Callable[[Iterable[ReadDeal]], Iterator[_Result]]
               ) -> Iterator[tuple[DealRecord | None, tuple[Diagnostic, ...], bool, bool]]:
    """Each deal's result, in order, and whether it is an error said in an earlier run:
    the deals the journal holds taken from it (their diagnostics were said when they were
    analysed), the others given to ``run`` and noted in the journal as they come."""
    if journal is None:
        for record, diags, done in run(items):
            yield record, diags, done, False
        return
    order: deque[tuple[ReadDeal, Entry | None]] = deque()

    def fresh() -> Iterator[ReadDeal]:
        for item in items:
            entry = journal.get(file, item.index)
            order.append((item, entry))
            if entry is None:
                yield item

    def stored() -> Iterator[tuple[DealRecord | None, tuple[Diagnostic, ...], bool, bool]]:
        while order and order[0][1] is not None:
            entry = order.popleft()[1]
            assert entry is not None
            yield entry.record, (), False, entry.error

    for record, diags, done in run(fresh()):
        yield from stored()
        item, _ = order.popleft()
        if not journal.has(file, item.index):
            journal.add(file, item.index, record, error=_errors(diags), done=done)
        yield record, diags, done, False
    yield from stored()


def _errors(diags: tuple[Diagnostic, ...]) -> bool:
    return any(d.severity is Severity.ERROR for d in diags)


def _holds_comments(fmt: registry.Format) -> bool:
    """Whether a format holds everything a record holds, the analysis's comments
    included (the registry lists nothing it cannot hold)."""
    return fmt.write is not None and fmt.cannot_hold is None


def _report(diags: tuple[Diagnostic, ...], color: bool) -> bool:
    """Print diagnostics on standard error; True when one is an error."""
    for d in diags:
        for line in diagnostic_lines(d, color):
            echo_err(line)
    return any(d.severity is Severity.ERROR for d in diags)


def _located(item: ReadDeal, diags: tuple[Diagnostic, ...], file: str
             ) -> tuple[Diagnostic, ...]:
    out = []
    for d in diags:
        d = d.at(deal=item.index) if d.location.deal is None else d
        if item.source is not None:
            d = item.source.locate(d)
        if d.location.file is None:
            d = d.at(file=file)
        out.append(d)
    return tuple(out)


def _one(item: ReadDeal, file: str, options: dict[str, Any], forced: str | None,
         default: str | None, progress: _Progress | None, executor: Executor | None = None
         ) -> tuple[DealRecord | None, tuple[Diagnostic, ...], bool]:
    """Analyse one deal as read: the record to write, the analysis's diagnostics, and
    whether it was analysed (a deal that cannot be comes back as it was)."""
    if item.record is None:
        return None, (), False
    checked = check_deal(read_deal(item.index, item.record), file, forced,
                         default_ruleset=default)
    rep = checked.replay
    assert rep is not None
    callback = None if progress is None else progress.cards
    record, analysis, diags = analyse_record(rep.record, rep=rep, progress=callback,
                                             executor=executor, **options)
    return record, diags, analysis is not None


#: What a worker gives back for a deal: its record, its diagnostics, whether it was analysed.
_Worked = tuple[DealRecord | None, tuple[Diagnostic, ...], bool]


def _work(task: tuple[ReadDeal, str, dict[str, Any], str | None, str | None]) -> _Worked:
    item, file, options, forced, default = task
    return _one(item, file, options, forced, default, None)


def _analyse(items: Iterable[ReadDeal], file: str, jobs: int, options: dict[str, Any],
             forced: str | None, default: str | None, progress: _Progress,
             cluster: Cluster | None = None, journal: Journal | None = None
             ) -> Iterator[tuple[DealRecord | None, tuple[Diagnostic, ...], bool]]:
    """Each deal's record, diagnostics (located in the file) and whether it was
    analysed, in order; ``jobs`` worker processes, or the tasks of ``cluster``."""
    if jobs > 1 or cluster is not None:
        # One deal: its parts (``--split``) searched at once by the workers; more: a
        # deal a worker. The comments are the same either way.
        items = iter(items)
        head = list(itertools.islice(items, 2))
        items = itertools.chain(head, items)
        if len(head) == 1:
            progress.deal(file, head[0].index)
            with Workers(jobs) if cluster is None else contextlib.nullcontext(
                    cluster) as workers:
                record, diags, done = _one(head[0], file, options, forced, default,
                                           progress, workers)
            yield record, _located(head[0], head[0].diagnostics + diags, file), done
            return
    if cluster is not None:
        yield from _on_cluster(items, file, options, forced, default, progress, cluster,
                               journal)
        return
    if jobs <= 1:
        for item in items:
            progress.deal(file, item.index)
            record, diags, done = _one(item, file, options, forced, default, progress)
            yield record, _located(item, item.diagnostics + diags, file), done
        return
    # A deal a worker, :data:`AHEAD` a worker handed out, the results taken in order (so
    # that a slow deal at the head keeps no worker idle). Leaving the block by an
    # exception (an interruption, a reader that stops) terminates the workers at once.
    window: deque[tuple[ReadDeal, Pending[_Worked]]] = deque()

    def finish() -> _Worked:
        item, call = window.popleft()
        record, diags, done = call.result()
        progress.deal(file, item.index)
        return record, _located(item, item.diagnostics + diags, file), done

    with Workers(jobs) as workers:
        for item in items:
            if len(window) >= AHEAD * jobs:
                yield finish()
            task = (read_deal(item.index, item.record), file, options, forced, default)
            window.append((item, workers.submit(_work, task)))
        while window:
            yield finish()


def _on_cluster(items: Iterable[ReadDeal], file: str, options: dict[str, Any],
                forced: str | None, default: str | None, progress: _Progress,
                cluster: Cluster, journal: Journal | None
                ) -> Iterator[tuple[DealRecord | None, tuple[Diagnostic, ...], bool]]:
    """:func:`_analyse` on a Dask cluster: a task a deal (the one of ``-j``: :func:`_work`),
    :data:`AHEAD` a worker in flight, the results taken in order (and noted in ``journal`` as soon
    as they are back, in any order)."""
    pending: deque[tuple[ReadDeal, Task[_Result]]] = deque()

    def first() -> tuple[DealRecord | None, tuple[Diagnostic, ...], bool]:
        if journal is not None:  # the deals finished early: noted now, in case
            for item, task in pending:
                if task.done() and not journal.has(file, item.index):
                    record, diags, done = task.result()
                    journal.add(file, item.index, record, done=done,
                                error=_errors(item.diagnostics + diags))
        item, task = pending.popleft()
        record, diags, done = task.result()
        progress.gathered(file, item)
        return record, _located(item, item.diagnostics + diags, file), done

    for item in items:
        task = (read_deal(item.index, item.record), file, options, forced, default)
        pending.append((item, cluster.submit(_work, task)))
        while len(pending) > AHEAD * cluster.workers:
            yield first()
    while pending:
        yield first()


class _Progress:
    """A transient progress line on a terminal: the file, the deal and its cards."""

    def __init__(self) -> None:
        self.enabled = wanted()
        self.start = time.monotonic()
        self.delay = float(os.environ.get("TAROT_PROGRESS_DELAY", "1.0"))
        self.bar: Any = None
        self.task: Any = None
        self.label = ""
        self.settled: tuple[int, int] | None = None
        #: On a cluster: the deals back, the bar in bytes of the file with the time left.
        self.back = 0
        self.sizes: dict[str, int] = {}

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
        if kind is KeyboardInterrupt and self.label:  # Ctrl-C: where the search was
            said = (Msg("{label}: {done}/{total} cards settled", label=self.label,
                        done=self.settled[0], total=self.settled[1])
                    if self.settled is not None else self.label)
            echo_err(Msg("tarot: interrupted at {where}; nothing written", where=said))

    def _show(self, completed: int, total: int, text: str) -> None:
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(TextColumn(render(Msg("analysing")), markup=False), BarColumn(),
                                TimeRemainingColumn() if self.back else TimeElapsedColumn(),
                                TextColumn("{task.description}", markup=False),
                                console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("", total=total)
            self.bar.start()
        self.bar.update(self.task, completed=completed, total=total, description=safe(text))

    def deal(self, file: str, index: int) -> None:
        """A new deal begins."""
        self.label = render(Msg("{file} deal {deal}", file=Path(file).name, deal=index))
        self._show(0, 1, self.label)

    def gathered(self, file: str, item: ReadDeal) -> None:
        """A deal analysed on a cluster is back (its cards were followed elsewhere): the
        deals back, and the bar in bytes of the file, with the time left."""
        self.back += 1
        self.label = render(Msg("{file} deal {deal}", file=Path(file).name, deal=item.index))
        if not self.enabled:
            return
        if file not in self.sizes:
            try:
                self.sizes[file] = size_of(file) if file != STDIN else 0
            except OSError:
                self.sizes[file] = 0
        size = self.sizes[file]
        self._show(min(item.offset or 0, size), max(size, 1), render(nmsg(
            "{n} deal analysed · {file}", "{n} deals analysed · {file}", self.back,
            n=f"{self.back:,}", file=Path(file).name)))

    def cards(self, done: int, total: int) -> None:
        """Cards of the current deal whose analysis is settled."""
        self.settled = (done, total)
        self._show(done, total, render(Msg("{label}: {done}/{total} cards settled",
                                           label=self.label, done=done, total=total)))
