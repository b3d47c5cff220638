"""Archives as a stream of :class:`ArchiveDeal` values: each deal read, judged, summarized.

:func:`scan` reads every deal of every file (any format, ``-`` for standard input) in
order and yields one :class:`ArchiveDeal` per deal: its summary, or, when it cannot be
read, the diagnostics that say why (the same as ``tarot validate`` prints). With
``jobs > 1`` the files, and the chunks of a JSON Lines file, are read by worker
processes (:func:`tarotnotation.archive.parts_of`), the deals coming out in the same
order; a bounded number of parts is in flight, so memory does not grow with the archive.

>>> deals = list(scan(["examples/garde-poignee.tarot"]))
>>> [(d.index, d.summary.contract.keyword, d.summary.made) for d in deals]
[(1, 'garde', False)]

``replay=False`` reads the records without replaying them (for the tools that only
need the cards and the tags: ``dedupe``, ``split``, ``sort``); the summaries then carry
no facts (``status`` is None).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..archive import STDIN, Part, check_deal, expand_paths, parts_of, read_part
from ..diagnostics import Diagnostic, TarotError
from ..formats import json as json_format
from ..quick import QuickFacts, quick_check, quick_facts
from ..records import DealRecord
from ..source import ReadDeal
from .summary import DealSummary, summarize, summarize_json, summarize_record

__all__ = ["ArchiveDeal", "Options", "scan"]


@dataclass(frozen=True, slots=True)
class ArchiveDeal:
    """One deal of an archive: its summary, or why it could not be read."""

    file: str
    index: int
    summary: DealSummary | None
    """None when the deal could not be read."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Why the deal could not be read (empty for a deal that was read)."""
    record: DealRecord | None = None
    """The record, when the scan was asked for it (``records=``)."""

    @property
    def ok(self) -> bool:
        """True when the deal was read."""
        return self.summary is not None

    def __reduce__(self) -> tuple[type[ArchiveDeal], tuple[Any, ...]]:
        return (ArchiveDeal, (self.file, self.index, self.summary, self.diagnostics,
                              self.record))


@dataclass(frozen=True, slots=True)
class Options:
    """What a scan does with each deal (picklable: workers get it)."""

    ruleset: str | None = None
    """Replay every record under this ruleset."""
    default_ruleset: str | None = None
    """Replay the records that name no ruleset under this one."""
    replay: bool = True
    """Replay each deal for its facts; False reads the records only."""
    records: bool | Callable[[DealSummary], bool] = False
    """Keep the records: all (True), none (False), or those a predicate picks."""
    quick: bool = True
    """Judge a plain clean JSON Lines deal from its data (:func:`tarotnotation.quick.
    quick_facts`), no record built and no replay; False reads and replays every deal
    (the slow path the tests hold the fast one to)."""


def _summarize(item: ReadDeal, file: str, options: Options) -> ArchiveDeal:
    """The deal of one read record: the one place where a deal gets its summary."""
    if not options.replay:
        if not item.ok or item.record is None:
            return _unreadable(item, file)
        summary = summarize_record(item.record, file=file, index=item.index, line=item.line)
    else:
        if item.record is None or not item.ok:
            return _unreadable(item, file)
        checked = check_deal(item, file, options.ruleset, keep=True,
                             default_ruleset=options.default_ruleset)
        assert checked.replay is not None
        summary = summarize(item.record, checked.replay, file=file, index=item.index,
                            line=item.line,
                            codes=tuple(d.code.value for d in checked.diagnostics),
                            errors=checked.errors, warnings=checked.warnings)
    keep = options.records
    record = item.record if keep is True or (callable(keep) and keep(summary)) else None
    return ArchiveDeal(file, item.index, summary, (), record)


def _unreadable(item: ReadDeal, file: str) -> ArchiveDeal:
    located = tuple(d if d.location.file is not None else d.at(file=file)
                    for d in item.diagnostics)
    return ArchiveDeal(file, item.index, None, located)


# --- the fast paths of JSON Lines (see archive.read_part) -----------------------------------
#
# A fast path takes a parsed JSON Lines record and returns what stands for the deal, or
# None: the line is then read by the reader, which words its faults. The one place where
# the quick check plugs in is :func:`_fast`.


def _record(obj: dict[str, Any]) -> DealRecord | dict[str, Any] | None:
    """The record, when the data reads cleanly (as the reader would read it)."""
    try:
        return json_format.from_dict(obj)
    except TarotError:
        return None


def _plain(obj: dict[str, Any]) -> DealRecord | dict[str, Any] | None:
    """The data itself, when the quick check finds the deal clean: its summary (tags,
    players, cards; no facts) is then made straight from it, no record built."""
    return obj if quick_check(obj) is not None else None


_Fast = DealRecord | dict[str, Any] | tuple[dict[str, Any], QuickFacts]


def _fast(options: Options) -> Callable[[dict[str, Any]], _Fast | None]:
    """The fast path for a scan: the data itself, for a summary without facts
    (``replay=False``, no record kept for every deal); the data and the quick check's
    facts for a summary with them (a clean deal, no record kept for every deal); the
    record otherwise, replayed for its facts."""
    if not options.quick or options.records is True:
        return _record
    if not options.replay:
        return _plain

    def judged(obj: dict[str, Any]) -> _Fast | None:
        facts = quick_facts(obj, options.ruleset, options.default_ruleset)
        return _record(obj) if facts is None else (obj, facts)

    return judged


def _read(part: Part, options: Options) -> list[ArchiveDeal]:
    """A worker's task: every deal of a part."""
    file = part if isinstance(part, str) else part.path
    out = []
    for item in read_part(part, _fast(options)):
        if not isinstance(item, ReadDeal):
            index, line, value = item
            if isinstance(value, dict | tuple):
                obj, facts = value if isinstance(value, tuple) else (value, None)
                summary = summarize_json(obj, file=file, index=index, line=line,
                                         facts=facts)
                keep = options.records
                record = (json_format.from_dict(obj)
                          if callable(keep) and keep(summary) else None)
                out.append(ArchiveDeal(file, index, summary, (), record))
                continue
            assert isinstance(value, DealRecord)
            item = ReadDeal(index, value, line=line)
        out.append(_summarize(item, file, options))
    return out


def _watch_parent(parent: int) -> None:
    """In each worker: end it when the process that started it ends, whatever ended that
    one (a signal it could not catch included), so that no worker outlives the command.
    On Linux the kernel sends the signal (``PR_SET_PDEATHSIG``); elsewhere a thread
    looks for a new parent twice a second."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # it ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()


def _orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def scan(paths: Iterable[str | Path], *, jobs: int = 1, options: Options | None = None
         ) -> Iterator[ArchiveDeal]:
    """Every deal of every file, in order (see the module doc); ``jobs`` processes."""
    options = options or Options()
    files = [str(p) for p in expand_paths(paths)]
    if jobs <= 1:
        for f in files:
            for part in parts_of(f):
                yield from _read(part, options)
        return
    workers = min(jobs, os.cpu_count() or 1)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent,
                               initargs=(os.getpid(),))
    pending: deque[Future[list[ArchiveDeal]]] = deque()
    try:
        for f in files:
            if f == STDIN:  # this process's own: read here, in its place in the order
                while pending:
                    yield from pending.popleft().result()
                yield from _read(f, options)
                continue
            for part in parts_of(f):
                pending.append(pool.submit(_read, part, options))
                while len(pending) > 2 * workers:
                    yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
