"""Many files of any format as one stream of deals; checking archives, in parallel.

:func:`read_path` picks a reader by the file's content (the text notation, JSON, JSON
Lines, TarotClub's logs and deal files, CSV and Excel score sheets, ScoreIt's and
Matocolotoe's files; see :mod:`tarotnotation.formats.detect`), the
extension being only a fallback, and yields :class:`~tarotnotation.source.ReadDeal`
values; ``-`` is standard input. :func:`check_paths` reads and replays
every deal of every file, each deal on its own: a deal that cannot be read or replayed
is reported and the next one goes on. With ``jobs > 1`` files are checked in parallel
worker processes.

>>> import tempfile, pathlib
>>> from tarotnotation.records import DealRecord
>>> from tarotnotation.formats import json as tjson
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "sheet.json").write_bytes(tjson.dumps_bytes(DealRecord(players=4,
...     result={"contract": "garde", "taker": "E", "taker_points": 48, "bouts": 2,
...             "scores": {"S": -64, "E": 190, "N": -64, "W": -64}})))
>>> for checked in check_paths([folder]):
...     for d in checked.diagnostics:
...         print(d.location.deal, d.code.value, d.message)
1 R102 the recorded scores sum to -2: expected 0
1 R214 the taker (E) is recorded with +190 and each defender with -64: at 4 players the
  taker gets 3 times what a defender pays, +192 (docs/rules.md §10)
1 R101 E is recorded with +190; the rules give +192
"""


from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

from . import cutting
from .checking import (
    CheckedDeal,
    CleanDeals,
    Done,
    check_deal,
    check_lines,
    check_task,
    checked_file,
    unpack,
)
from .cutting import (
    CHUNK_BYTES,
    PROBE,
    TAROT_CUT,
    TASKS_A_WORKER,
    Chunk,
    LineRange,
    TarotPart,
    blocks_a_task,
    chunks_of,
    count_lines,
    is_json_lines,
    json_lines_chunks,
    json_lines_ranges,
    line_content,
    range_chunks,
    tarot_cuts,
    tarot_parts,
)
from .diagnostics import Code, Diagnostic
from .opening import (
    STDIN,
    SUFFIXES,
    binary_fault,
    expand_paths,
    file_fault,
    format_name,
    format_of,
    open_input,
    read_path,
    read_stream,
    stdin_stream,
    walk,
)
from .parts import Part, in_chunks, parts_of, read_part, stdin_parts
from .plausibility import SessionDeals
from .values import replace

if TYPE_CHECKING:
    from .workers import Pending, Pool

__all__ = [
    "CHUNK_BYTES",
    "PROBE",
    "STDIN",
    "SUFFIXES",
    "TAROT_CUT",
    "TASKS_A_WORKER",
    "CheckedDeal",
    "CleanDeals",
    "Part",
    "binary_fault",
    "blocks_a_task",
    "check_deal",
    "check_paths",
    "check_paths_batched",
    "chunks_of",
    "count_lines",
    "expand_paths",
    "file_fault",
    "format_name",
    "format_of",
    "in_chunks",
    "json_lines_chunks",
    "json_lines_ranges",
    "line_content",
    "open_input",
    "parts_of",
    "range_chunks",
    "read_part",
    "read_path",
    "read_stream",
    "stdin_parts",
    "stdin_stream",
    "tarot_cuts",
    "tarot_parts",
    "walk",
]

#: Chunks (or parts of a .tarot file) in flight a worker in a parallel check: at 2, the
#: workers of -j 2 waited for this process (168-173% of CPU used on 1,000,000 deals of
#: JSON Lines); at 8, 182-184%, and 10% less time; the results of a chunk are small.
_AHEAD: Final = 8

def check_paths(paths: Iterable[str | Path | Diagnostic], *, jobs: int = 1,
                ruleset: str | None = None, default_ruleset: str | None = None,
                keep: bool = True, pool: Pool | None = None) -> Iterator[CheckedDeal]:
    """Read and replay every deal of every file, in order; ``jobs`` worker processes.

    ``ruleset`` overrides every record's own; ``default_ruleset`` applies to the records
    that do not name one. A path that cannot be used (:func:`walk`), a file that cannot be
    read or holds no deal (:func:`read_path`) gives a :class:`CheckedDeal` of index 0 with
    its F diagnostic, in its place, and the other files are checked.

    In parallel runs the deals come out in the same order as in a serial run; a JSON Lines
    file is cut into ranges of bytes (:data:`~tarotnotation.cutting.CHUNK_BYTES` each, or a
    few) whose lines the workers find, a .tarot file into parts at record starts, shared
    among the workers; other files are checked whole by one worker each; a bounded number
    of chunks is in flight, so memory does not grow with the archive. The workers end with
    the run, however it ends (an exception, an interruption, the caller leaving the
    loop), and with this process if it is killed. Parallel results carry no replay object
    (``CheckedDeal.replay`` is None), nor do serial ones with ``keep=False``: that lets
    plain clean deals of JSON Lines pass a quick check (:mod:`tarotnotation.quick`)
    without being replayed, which is several times faster and reports the same. A deal
    whose ``Deal`` number an earlier deal of the same session of its file had gets an
    R301 error (same Event, Site, Date, Round and Table tags;
    :func:`tarotnotation.plausibility.deal_number`).

    ``pool``: the workers to run the same tasks on, instead of ``jobs`` processes of this
    machine (a :class:`tarotnotation.cluster.Cluster`, whose ``jobs`` run at once): the
    same deals come out, in the same order.
    """
    batched = check_paths_batched(paths, jobs=jobs, ruleset=ruleset,
                                  default_ruleset=default_ruleset, keep=keep, pool=pool)
    try:
        for item in batched:
            if isinstance(item, CleanDeals):
                yield from item.deals()
            else:
                yield item
    finally:
        batched.close()  # (the workers end now)


def check_paths_batched(paths: Iterable[str | Path | Diagnostic], *, jobs: int = 1,
                        ruleset: str | None = None, default_ruleset: str | None = None,
                        keep: bool = True, pool: Pool | None = None
                        ) -> Generator[CheckedDeal | CleanDeals, None, None]:
    """:func:`check_paths`, where a run of deals with nothing to say that a worker of a
    parallel check settled comes as one :class:`CleanDeals` (R301 settled: a deal that
    repeats a number comes alone, with its diagnostic): a caller that needs nothing of
    such deals but their count (a report of faults and a summary) takes them in bulk, at
    no cost a deal."""
    checked = _check_paths(paths, jobs, ruleset, default_ruleset, keep, pool)
    try:
        yield from _numbered(checked)
    finally:
        checked.close()  # (the workers end now, not when the generator is collected)


def _numbered(deals: Iterable[CheckedDeal | CleanDeals]
              ) -> Iterator[CheckedDeal | CleanDeals]:
    """R301: a deal whose session and number an earlier deal of its file had."""
    seen = SessionDeals()
    file, last = None, 0
    for checked in deals:
        if checked.file != file or checked.index <= last:  # a file (again)
            seen, file = SessionDeals(), checked.file
        if isinstance(checked, CleanDeals):
            last = checked.index + checked.count - 1
            again: dict[int, int] = {}
            for session, number, count, k in checked.numbers:
                deal = checked.index + k
                if isinstance(number, str):
                    first = seen.see((session, number), deal)
                    if first is not None:
                        again[deal] = first
                else:
                    again.update(seen.see_run(session, number, count, deal))
            if not again:
                yield checked
                continue
            for one in checked.deals():
                first = again.get(one.index)
                yield one if first is None else _repeated(one, first)
            continue
        last = checked.index
        first = seen.see(checked.number, checked.index)
        yield checked if first is None else _repeated(checked, first)


def _repeated(checked: CheckedDeal, first: int) -> CheckedDeal:
    """The deal with an R301 error: deal ``first`` of its file had its number."""
    if checked.number is None:
        return checked
    repeated = Diagnostic.make(
        Code.DEAL_NUMBER_REPEATED, SessionDeals.message(checked.number, first),
        file=checked.file, line=checked.line, deal=checked.index, path="tags")
    return replace(checked, diagnostics=(*checked.diagnostics, repeated))


def _check_paths(paths: Iterable[str | Path | Diagnostic], jobs: int, ruleset: str | None,
                 default_ruleset: str | None, keep: bool, given: Pool | None = None
                 ) -> Generator[CheckedDeal | CleanDeals, None, None]:
    items = list(walk(paths))  # (paths already walked pass through unchanged)
    if jobs <= 1 and given is None:
        for item in items:
            if isinstance(item, Diagnostic):
                yield CheckedDeal(item.location.file or "", 0, (item,), None)
                continue
            f = str(item)
            chunks = None if keep or f == STDIN else json_lines_chunks(f)
            if chunks is not None:
                for chunk in chunks:
                    yield from check_lines(chunk, ruleset, default_ruleset)
                continue
            if not keep:
                yield from checked_file(f, ruleset, default_ruleset)
                continue
            for read in read_path(f):
                yield check_deal(read, f, ruleset, keep=True, default_ruleset=default_ruleset)
        return
    from .workers import Workers

    workers = max(1, jobs) if given is not None else min(jobs, os.cpu_count() or 1)
    with Workers(workers) if given is None else contextlib.nullcontext(given) as pool:
        pending: deque[tuple[Pending[Done], LineRange | TarotPart | Chunk | str, int]
                       ] = deque()
        # The parts of .tarot files and the ranges of JSON Lines (by the file's place in
        # the list): the deals (and for JSON Lines the lines) of the file before the next
        # one, and the .tarot files whose parts no longer fit (read by this process from
        # there: see _tarot_checked).
        before: dict[int, int] = {}
        lines_before: dict[int, int] = {}
        redone: set[int] = set()

        def collect() -> Iterator[CheckedDeal | CleanDeals]:
            future, task, key = pending.popleft()
            done = future.result()
            if isinstance(task, LineRange):
                lines, count = lines_before.get(key, 0), before.get(key, 0)
                yield from unpack(done, count, lines)
                counted = done[3] or (0, 0)
                lines_before[key], before[key] = lines + counted[0], count + counted[1]
                return
            if not isinstance(task, TarotPart):
                yield from unpack(done)
                return
            if key in redone:
                return  # read again below, from where its parts stopped fitting
            count = before.get(key, 0)
            yield from unpack(done, count)
            before[key] = count = count + sum(
                item.count if isinstance(item, CleanDeals) else 1 for item in done[1])
            if task.end is not None and done[2] != task.end:
                redone.add(key)
                for read in read_path(task.path):
                    if read.index > count:
                        yield check_deal(read, task.path, ruleset, keep=False,
                                         default_ruleset=default_ruleset)

        for key, item in enumerate(items):
            if isinstance(item, Diagnostic):
                while pending:
                    yield from collect()
                yield CheckedDeal(item.location.file or "", 0, (item,), None)
                continue
            f = str(item)
            tasks: Iterable[LineRange | TarotPart | Chunk | str]
            if f == STDIN:
                # Standard input is this process's own: read here, in its place in order;
                # on a cluster, JSON Lines go to the workers in chunks as they take them.
                while pending:
                    yield from collect()
                if given is None:
                    yield from checked_file(f, ruleset, default_ruleset)
                    continue
                tasks, here = stdin_parts()
                for read in here:  # (not JSON Lines: read here)
                    yield check_deal(read, f, ruleset, keep=False,
                                     default_ruleset=default_ruleset)
            else:
                blocks = blocks_a_task(f, workers)
                tasks = (json_lines_ranges(f, blocks * cutting.CHUNK_BYTES)
                         if is_json_lines(f) else tarot_parts(f, blocks) or (f,))
            for task in tasks:
                if key in redone:
                    break
                pending.append((pool.submit(check_task, task, ruleset, default_ruleset),
                                task, key))
                # Chunks and parts (about CHUNK_BYTES each): several a worker ahead, so
                # that no worker waits while this process takes the results in order;
                # whole files (their results can be large): fewer.
                ahead = _AHEAD if not isinstance(task, str) else 2
                while len(pending) > ahead * workers:
                    yield from collect()
        while pending:
            yield from collect()

