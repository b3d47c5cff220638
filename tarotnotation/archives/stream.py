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

import contextlib
import os
import warnings
from abc import ABC
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeAlias

import orjson

from .. import cutting
from ..archive import (
    STDIN,
    Part,
    check_deal,
    expand_paths,
    in_chunks,
    parts_of,
    read_part,
    stdin_parts,
)
from ..diagnostics import Diagnostic, TarotError
from ..formats import json as json_format
from ..inputs import size_of
from ..quick import QuickFacts, quick_facts_reader
from ..records import DealRecord
from ..source import ReadDeal, read_deal
from ..workers import Pending, Pool, Workers
from .summary import DealSummary, summarize, summarize_quick, summarize_record

__all__ = [
    "WHOLE_BLOCKS",
    "ArchiveDeal",
    "ArchiveDealFailed",
    "ArchiveDealOk",
    "Options",
    "archive_deal",
    "scan",
]


class ArchiveDealOk(NamedTuple):
    """A deal of an archive that was read: ``ok`` is True and ``summary`` its summary
    (see :data:`ArchiveDeal`; an immutable value, as cheap to build as a tuple: an
    archive makes one a deal)."""

    file: str
    index: int  # type: ignore[assignment]  # (tuple.index, shadowed)
    summary: DealSummary
    diagnostics: tuple[Diagnostic, ...] = ()
    """Empty: the deal was read."""
    record: DealRecord | None = None
    """The record, when the scan was asked for it (``records=``)."""

    @property
    def ok(self) -> Literal[True]:
        """True: the deal was read."""
        return True

    @property
    def about_file(self) -> bool:
        """True when this is no deal but what is said of the whole file (index 0)."""
        return self.index == 0


class ArchiveDealFailed(NamedTuple):
    """A deal of an archive that could not be read: ``ok`` is False, ``summary`` None
    and ``diagnostics`` say why (see :data:`ArchiveDeal`)."""

    file: str
    index: int  # type: ignore[assignment]  # (tuple.index, shadowed)
    summary: None
    diagnostics: tuple[Diagnostic, ...] = ()
    """Why the deal could not be read."""
    record: None = None

    @property
    def ok(self) -> Literal[False]:
        """False: the deal could not be read."""
        return False

    @property
    def about_file(self) -> bool:
        """True when this is no deal but what is said of the whole file: it cannot be
        read, or holds no deal (index 0, as :attr:`ReadDeal.about_file`)."""
        return self.index == 0


class _ArchiveDealType(ABC):  # noqa: B024  (no abstract method: a union's runtime face)
    """At run time ``ArchiveDeal`` is this class: ``isinstance(x, ArchiveDeal)`` holds for
    both kinds, and ``ArchiveDeal(...)`` still builds the right kind, with a
    DeprecationWarning naming :func:`archive_deal` (typed code cannot call a union)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        warnings.warn("ArchiveDeal(...) is deprecated: call tarotnotation.archives.stream."
                      "archive_deal(...), which gives an ArchiveDealOk or an "
                      "ArchiveDealFailed", DeprecationWarning, stacklevel=2)
        return archive_deal(*args, **kwargs)


_ArchiveDealType.register(ArchiveDealOk)
_ArchiveDealType.register(ArchiveDealFailed)

if TYPE_CHECKING:
    ArchiveDeal: TypeAlias = ArchiveDealOk | ArchiveDealFailed
else:
    ArchiveDeal = _ArchiveDealType
"""One deal of an archive: an :class:`ArchiveDealOk` (``ok`` True, ``summary`` its
summary) or an :class:`ArchiveDealFailed` (``ok`` False, ``summary`` None, the
diagnostics saying why it could not be read); checking ``ok`` narrows ``summary`` for a
type checker. :func:`archive_deal` builds the right kind."""


def archive_deal(file: str, index: int, summary: DealSummary | None,
                 diagnostics: tuple[Diagnostic, ...] = (), record: DealRecord | None = None
                 ) -> ArchiveDeal:
    """The :data:`ArchiveDeal` of a deal: an :class:`ArchiveDealOk` when it has a
    summary, else an :class:`ArchiveDealFailed` (no summary, no record).

    >>> gone = archive_deal("x.tarot", 3, None)
    >>> type(gone).__name__, gone.ok, isinstance(gone, ArchiveDeal)
    ('ArchiveDealFailed', False, True)
    """
    if summary is None:
        return ArchiveDealFailed(file, index, None, diagnostics)
    return ArchiveDealOk(file, index, summary, diagnostics, record)


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
    quick_facts_line`), no record built and no replay; False reads and replays every
    deal (the slow path the tests hold the fast one to)."""


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
    return ArchiveDealOk(file, item.index, summary, (), record)


def _unreadable(item: ReadDeal, file: str) -> ArchiveDeal:
    located = tuple(d if d.location.file is not None else d.at(file=file)
                    for d in item.diagnostics)
    return ArchiveDealFailed(file, item.index, None, located)


# --- the fast path of JSON Lines (see archive.read_part) ------------------------------------
#
# The fast path takes the bytes of a JSON Lines record and returns what stands for the
# deal, or None: the line is then read by the reader, which words its faults. A plain
# clean deal is judged by the quick check that ``tarot validate`` uses
# (:func:`tarotnotation.quick.quick_facts_line`: the C scanner and the kernel's twin, no
# record built, no replay) and summarized from its facts (:func:`summarize_quick`).


def _record(line: bytes) -> DealRecord | None:
    """The record, when the line reads cleanly (as the reader would read it)."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    try:
        return json_format.from_dict(obj)
    except TarotError:
        return None


_Fast = DealRecord | QuickFacts | tuple[QuickFacts, bytes]


def _fast(options: Options) -> Callable[[bytes], _Fast | None]:
    """The fast path for a scan: the quick check's facts of a plain clean deal (for a
    summary with them, or without with ``replay=False``), and its bytes too when a
    predicate picks the records to keep (the record is built for those only); the
    record itself when every record is kept, replayed for its facts or not."""
    if not options.quick or options.records is True:
        return _record
    facts_of = quick_facts_reader(options.ruleset, options.default_ruleset)
    if callable(options.records):
        def with_line(line: bytes) -> tuple[QuickFacts, bytes] | None:
            facts = facts_of(line)
            return None if facts is None else (facts, line)

        return with_line
    return facts_of


def _deals(part: Part, options: Options) -> Iterator[ArchiveDeal]:
    """Every deal of a part, one at a time (a part read in this process is never held
    whole: a .tarot file or standard input is one part, however long)."""
    file = part if isinstance(part, str) else part.path
    judged = options.replay
    keep = options.records
    for item in read_part(part, _fast(options)):
        if type(item) is tuple:
            index, line, value = item
            if type(value) is QuickFacts:
                yield ArchiveDealOk(file, index, summarize_quick(
                    value, file=file, index=index, line=line, judged=judged))
                continue
            if type(value) is tuple:  # (facts, bytes): the record kept when picked
                facts, data = value
                summary = summarize_quick(facts, file=file, index=index, line=line,
                                          judged=judged)
                picked = callable(keep) and keep(summary)
                yield ArchiveDealOk(file, index, summary, (),
                                  _record(data) if picked else None)
                continue
            assert isinstance(value, DealRecord)
            item = read_deal(index, value, line=line)
        assert isinstance(item, ReadDeal)
        yield _summarize(item, file, options)


def _read(part: Part, options: Options) -> list[ArchiveDeal]:
    """A worker's task: every deal of a part (sent back whole)."""
    return list(_deals(part, options))


#: The largest file a worker of :func:`scan` reads whole and sends back as one list (a
#: file that is not cut into chunks: the text notation, the other formats), in blocks of
#: ``cutting.CHUNK_BYTES`` (read when asked, as the cutting reads it): two, a few
#: thousand deals.
WHOLE_BLOCKS: Final = 2


def _sent_whole_too_big(path: str) -> bool:
    """Whether ``path`` is a file that :func:`tarotnotation.archive.parts_of` gives as one
    part (not JSON Lines) and too big for a worker to send back whole."""
    try:
        if size_of(path) <= WHOLE_BLOCKS * cutting.CHUNK_BYTES:
            return False
    except OSError:  # (said by the reader, in a worker)
        return False
    return not in_chunks(path)


def scan(paths: Iterable[str | Path], *, jobs: int = 1, options: Options | None = None,
         pool: Pool | None = None) -> Iterator[ArchiveDeal]:
    """Every deal of every file, in order (see the module doc); ``jobs`` processes, or
    ``pool``'s workers (a :class:`tarotnotation.cluster.Cluster`, ``jobs`` tasks at once:
    the same parts, the same deals in the same order)."""
    options = options or Options()
    files = [str(p) for p in expand_paths(paths)]
    if jobs <= 1 and pool is None:
        for f in files:
            for part in parts_of(f):
                yield from _deals(part, options)
        return
    workers = max(1, jobs) if pool is not None else min(jobs, os.cpu_count() or 1)
    pending: deque[Pending[list[ArchiveDeal]]] = deque()
    cluster = pool is not None
    with Workers(workers) if pool is None else contextlib.nullcontext(pool) as pool:
        for f in files:
            parts: Iterable[Part] = ()
            if f == STDIN and cluster:
                # On a cluster, standard input's JSON Lines go to the workers in chunks
                # as they take them (another format is read here, in its place).
                while pending:
                    yield from pending.popleft().result()
                parts, here = stdin_parts()
                for item in here:
                    yield _summarize(item, f, options)
            elif f == STDIN or _sent_whole_too_big(f):
                # Read here, a deal at a time, in its place in the order: standard input
                # is this process's own, and a worker sends a file that is one part back
                # whole (its deals' list would grow with the file).
                while pending:
                    yield from pending.popleft().result()
                yield from _deals(f, options)
                continue
            else:
                parts = parts_of(f)
            for part in parts:
                pending.append(pool.submit(_read, part, options))
                while len(pending) > 2 * workers:
                    yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
