"""Checking a deal, and the deals of a worker's task: read and replayed, or judged by the
quick check when they are plain and clean (:mod:`tarotnotation.quick`), as reading and
replaying them would report them.

:func:`check_deal` checks one deal read; :func:`check_task` a worker's part of a
parallel check (a whole file, a range of JSON Lines, a part of a .tarot file), whose
deals come back packed, runs of clean ones as one :class:`CleanDeals`
(:func:`unpack` gives them back as :class:`CheckedDeal` values); :func:`check_lines` a
chunk of JSON Lines and :func:`check_tarot_file` a .tarot file in a serial check.
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from .cutting import Chunk, LineRange, TarotPart, file_start, is_tarot, line_content, range_chunks
from .diagnostics import Diagnostic, Severity
from .inputs import open_bytes
from .limits import MAX_JSON_RECORD_BYTES
from .opening import STDIN, file_fault, read_path
from .plausibility import deal_number, plain_number
from .quick import quick_check_record
from .source import ReadDeal
from .status import Status
from .values import Value, replace

if TYPE_CHECKING:
    # Imported when used: a plain clean deal is judged by the quick check, with no record
    # model, replay or causes (issue 17).
    from .judge import QuickFacts
    from .records import DealRecord
    from .replay import Replay

__all__ = [
    "CheckedDeal",
    "CleanDeals",
    "Done",
    "check_deal",
    "check_lines",
    "check_tarot_file",
    "check_task",
    "checked_file",
    "unpack",
]

class CheckedDeal(Value):
    """One deal of an archive, read and replayed: what a check reports of it."""

    __slots__ = (
        "diagnostics",
        "file",
        "index",
        "line",
        "number",
        "offset",
        "replay",
        "scores",
        "status",
        "taker_half",
    )
    file: str
    index: int
    """1-based number of the deal in its file; 0 for what is said of the file itself
    (it cannot be read, or holds no deal: the F codes)."""
    diagnostics: tuple[Diagnostic, ...]
    """Reading diagnostics, then the replay's, located in the file; when one slip explains
    many faults, its cause first and the faults that follow from it marked
    (:mod:`tarotnotation.causes`)."""
    status: Status | None
    """The replay's status; None when the deal could not be read."""
    scores: Mapping[str, int] | None
    taker_half: int | None
    replay: Replay | None
    """The whole replay (kept only when checked in this process)."""
    number: tuple[tuple[str, ...], str] | None
    """The record's session and ``Deal`` number (:func:`plausibility.deal_number`)."""
    line: int | None
    """The line where the record starts (text formats, JSON Lines)."""
    offset: int | None
    """Where the deal starts in its file, in bytes, when known (progress is counted in
    bytes read)."""

    def __init__(self, file: str, index: int, diagnostics: tuple[Diagnostic, ...],
                 status: Status | None, scores: Mapping[str, int] | None = None,
                 taker_half: int | None = None, replay: Replay | None = None,
                 number: tuple[tuple[str, ...], str] | None = None, line: int | None = None,
                 offset: int | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "file", file)
        setfield(self, "index", index)
        setfield(self, "diagnostics", diagnostics)
        setfield(self, "status", status)
        setfield(self, "scores", scores)
        setfield(self, "taker_half", taker_half)
        setfield(self, "replay", replay)
        setfield(self, "number", number)
        setfield(self, "line", line)
        setfield(self, "offset", offset)

    @property
    def about_file(self) -> bool:
        """True for what is said of the file itself (index 0), not of one of its deals."""
        return self.index == 0

    @property
    def errors(self) -> int:
        """Number of errors (a fault that follows from a cause is not counted)."""
        return sum(d.severity is Severity.ERROR and d.cause is None for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """Number of warnings (a consequence of a cause is not counted)."""
        return sum(d.severity is Severity.WARNING and d.cause is None
                   for d in self.diagnostics)


def check_deal(item: ReadDeal, file: str, ruleset: str | None = None, *,
               keep: bool = True, default_ruleset: str | None = None) -> CheckedDeal:
    """Replay one read deal.

    ``ruleset`` overrides every record's own; ``default_ruleset`` applies only to records
    that do not name one. ``keep=False`` drops the replay object, keeping only what a
    report needs; a plain clean deal is then judged by
    :func:`tarotnotation.quick.quick_check_record` without a replay.
    """
    located = tuple(
        d if d.location.file is not None else d.at(file=file) for d in item.diagnostics
    )
    if item.record is None:
        return CheckedDeal(file, item.index, located, None, line=item.line,
                           offset=item.offset)
    record: DealRecord = item.record
    number = deal_number(record.tags)
    if not keep:
        quick = quick_check_record(record, ruleset, default_ruleset)
        if quick is not None:  # a plain clean deal: what the replay would report
            return CheckedDeal(file, item.index, located, *quick, number=number,
                               line=item.line, offset=item.offset)
    # (the spec kept as given, not in canonical form, as the reports and pages show it:
    # pydantic's own copy, which does not validate; the spec is a valid one)
    from pydantic import BaseModel  # (loaded already: the record is a model)

    if ruleset is not None:
        record = BaseModel.model_copy(record, update={"ruleset": ruleset})
    elif default_ruleset is not None and "ruleset" not in record.model_fields_set:
        record = BaseModel.model_copy(record, update={"ruleset": default_ruleset})
    from .causes import explain
    from .replay import replay

    result = explain(replay(record, deal=item.index, source=item.source),
                     deal=item.index, source=item.source)
    diags = tuple(d if d.location.file is not None else d.at(file=file)
                  for d in result.diagnostics)
    return CheckedDeal(file, item.index, located + diags, result.status, result.scores,
                       result.taker_half, result if keep else None, number, item.line,
                       item.offset)


def checked_file(path: str, ruleset: str | None, default: str | None
                 ) -> Iterator[CheckedDeal]:
    """Every deal of a whole file checked, as they are read, by the one route a whole
    file takes wherever it is checked (this process or a worker): a file of the text
    notation by :func:`check_tarot_file` (the bulk scan and the quick check, the replay
    where they say to), any other by :func:`read_path` and the replay."""
    whole = check_tarot_file(path, ruleset, default)
    if whole is not None:
        return whole
    return (check_deal(item, path, ruleset, keep=False, default_ruleset=default)
            for item in read_path(path))

#: What a worker sends back of a checked deal: CheckedDeal's fields but the file, the
#: status by its value (plain tuples, strings and ints pickle several times faster than
#: dataclasses and enums, and every deal crosses between the processes).
_Packed = tuple[int, tuple[Diagnostic, ...], str | None, Mapping[str, int] | None, int | None,
                tuple[tuple[str, ...], str] | None, int | None, int | None]
_STATUS_OF: Final = {status.value: status for status in Status}
_VALUE_OF: Final = {status: status.value for status in Status}


#: What a worker sends back of a task: the file, its deals packed, for a part of a
#: .tarot file where the record after the part starts (None: the file ended), and for a
#: range of JSON Lines the lines and deals it found (its deals and lines are numbered
#: from the range's start).
Done = tuple[str, "list[_Packed | CleanDeals]", int | None, tuple[int, int] | None]


def check_task(task: LineRange | TarotPart | Chunk | str, ruleset: str | None,
               default: str | None) -> Done:
    """A worker's part: a whole file, a range of JSON Lines, a part of a .tarot file, or
    a chunk of JSON Lines read by the command (standard input; numbered from the stream's
    start already) (packed)."""
    if isinstance(task, Chunk):
        return task.path, _folded(task.path, (
            _pack(c) if isinstance(c, CheckedDeal) else c
            for c in _lines_checked(task, ruleset, default, packed=True))), None, None
    if isinstance(task, str):
        return task, _folded(task, (_pack(c) for c in checked_file(task, ruleset, default))
                             ), None, None
    if isinstance(task, TarotPart):
        # (packed as they are checked: a plain clean deal is never a CheckedDeal here)
        after: list[int] = []
        packed = _tarot_checked(task, ruleset, default, after, packed=True)
        folded = _folded(task.path, packed)
        return task.path, folded, after[0] if after else None, None
    counted = [0, 0]
    checked = itertools.chain.from_iterable(
        _lines_checked(chunk, ruleset, default, packed=True)
        for chunk in range_chunks(task, counted))
    # (the deals the bulk check settles come packed already)
    folded = _folded(task.path, (_pack(c) if isinstance(c, CheckedDeal) else c
                                 for c in checked))
    return task.path, folded, None, (counted[0], counted[1])

def _folded(file: str, packed: Iterable[_Packed]) -> list[_Packed | CleanDeals]:
    """A worker's deals as it sends them back: each run of consecutive deals with nothing
    to say as one :class:`CleanDeals` (one object through the pipe, not one a deal), the
    others packed one by one."""
    out: list[_Packed | CleanDeals] = []
    run: list[_Packed] = []
    for p in packed:
        if p[1] or not p[0] or (run and p[0] != run[-1][0] + 1):
            if len(run) > 1:
                out.append(CleanDeals.of(file, run))
            else:
                out.extend(run)
            run = []
            if p[1] or not p[0]:
                out.append(p)
                continue
        run.append(p)
    if len(run) > 1:
        out.append(CleanDeals.of(file, run))
    else:
        out.extend(run)
    return out


_NumberRun = tuple[tuple[str, ...], int | str, int, int]


class CleanDeals(Value):
    """Consecutive deals of one file with nothing to say (no diagnostic): ``count`` deals
    numbered from ``index``, as a parallel check hands them back in bulk
    (:func:`check_paths_batched`); :meth:`deals` gives them one by one, as
    :func:`check_paths` does."""

    __slots__ = ("count", "file", "index", "lines", "numbers", "offset", "packed")
    file: str
    index: int
    """The first deal's number in its file."""
    count: int
    offset: int | None
    """Where the last of them starts in the file, in bytes, when known."""
    numbers: tuple[_NumberRun, ...]
    """Their ``Deal`` numbers (:func:`plausibility.deal_number`), for R301, in runs:
    ``(session, number, count, k)``: an int ``number``: the deals ``k`` to ``k + count -
    1`` of the run (from 0) have the numbers ``number`` to ``number + count - 1`` of the
    session; a str ``number`` (not a plain decimal): deal ``k`` alone has it."""
    packed: bytes
    """The deals, pickled (:data:`_Packed`): read only by :meth:`deals`."""
    lines: int
    """Lines of the file before the line numbers in ``packed`` count (a worker that found
    its own lines numbers them from its part's start; the parent adds the lines before)."""

    def __init__(self, file: str, index: int, count: int, offset: int | None,
                 numbers: tuple[_NumberRun, ...], packed: bytes, lines: int = 0) -> None:
        setfield = object.__setattr__
        setfield(self, "file", file)
        setfield(self, "index", index)
        setfield(self, "count", count)
        setfield(self, "offset", offset)
        setfield(self, "numbers", numbers)
        setfield(self, "packed", packed)
        setfield(self, "lines", lines)

    @classmethod
    def of(cls, file: str, run: Sequence[_Packed]) -> CleanDeals:
        """The deals ``run`` (packed, numbered one after the other, none with a
        diagnostic) of ``file``."""
        import pickle

        numbers: list[list[Any]] = []
        current: list[Any] | None = None
        for k, p in enumerate(run):
            key = p[5]
            if key is None:
                continue
            session, number = key
            n = plain_number(number)
            if n is None:
                numbers.append([session, number, 1, k])
                current = None
            elif (current is not None and current[0] == session
                  and n == current[1] + current[2] and k == current[3] + current[2]):
                current[2] += 1
            else:
                current = [session, n, 1, k]
                numbers.append(current)
        return cls(file, run[0][0], len(run), run[-1][7],
                   tuple(cast("_NumberRun", tuple(r)) for r in numbers),
                   pickle.dumps(run, protocol=pickle.HIGHEST_PROTOCOL))

    def deals(self) -> Iterator[CheckedDeal]:
        """The deals one by one."""
        import pickle

        run: list[_Packed] = pickle.loads(self.packed)
        status_of = _STATUS_OF
        shift = self.lines
        for k, (_, _, status, scores, half, number, line, offset) in enumerate(run):
            yield CheckedDeal(self.file, self.index + k, (),
                              None if status is None else status_of[status], scores, half,
                              None, number,
                              line + shift if shift and line is not None else line, offset)


#: What the quick check says of a plain clean deal: (status, scores, taker's
#: half-points), and its tags as read.
_Judged = tuple[tuple[Status, dict[str, int], int], Any]


def _judged(facts: QuickFacts | None, tags: Any) -> _Judged | None:
    """The quick check's facts of a deal as :func:`_clean` takes them, with its tags."""
    return None if facts is None else ((facts.status, facts.scores, facts.taker_half), tags)


def _clean(packed: bool, path: str, index: int, status: Status, scores: Mapping[str, int],
           half: int, number: tuple[tuple[str, ...], str] | None, line: int | None,
           offset: int | None) -> CheckedDeal | _Packed:
    """A plain clean deal the quick check judged, as reading and replaying it reports
    it: a :class:`CheckedDeal`, or ``packed`` as a worker sends it back (every route of
    a clean deal, .tarot or JSON Lines; the two bulk loops write it out, since a
    call a deal costs them about 0.5% of their instructions)."""
    if packed:
        return index, (), _VALUE_OF[status], scores, half, number, line, offset
    return CheckedDeal(path, index, (), status, scores, half, None, number, line, offset)


def _pack(c: CheckedDeal) -> _Packed:
    """A checked deal as a worker sends it back (:data:`_Packed`)."""
    return (c.index, c.diagnostics, None if c.status is None else c.status.value, c.scores,
            c.taker_half, c.number, c.line, c.offset)


def unpack(done: Done, before: int = 0, lines: int = 0
            ) -> Iterator[CheckedDeal | CleanDeals]:
    """The checked deals a worker sent back (runs of clean ones in bulk); ``before``: the
    deals of the file before them, when the worker numbered them from 1 (a part of a
    .tarot file, a range of JSON Lines); ``lines``: the file's lines before them, when the
    worker numbered its lines from its range's start (a range of JSON Lines)."""
    file, packed, _, _ = done
    status_of = _STATUS_OF
    for item in packed:
        if isinstance(item, CleanDeals):
            yield (replace(item, index=item.index + before, lines=item.lines + lines)
                   if before or lines else item)
            continue
        index, diagnostics, status, scores, half, number, line, offset = item
        if before or lines:
            index += before
            if lines and line is not None:
                line += lines
            if diagnostics:
                diagnostics = tuple(_moved(d, before, lines) for d in diagnostics)
        yield CheckedDeal(file, index, diagnostics,
                          None if status is None else status_of[status], scores, half, None,
                          number, line, offset)


def _moved(d: Diagnostic, deals: int, lines: int) -> Diagnostic:
    """A worker's diagnostic, ``deals`` deals and ``lines`` lines further in its file."""
    at = d.location
    if (at.deal is None or not deals) and (at.line is None or not lines):
        return d
    return replace(d, location=replace(
        at, deal=None if at.deal is None else at.deal + deals,
        line=None if at.line is None else at.line + lines))

def check_tarot_file(path: str, ruleset: str | None, default: str | None
                      ) -> Iterator[CheckedDeal] | None:
    """Every deal of a .tarot file checked as one part (the fast path of a serial check),
    as they are read, or None when :func:`read_path` is to read it: not the text
    notation, standard input or a FIFO, a file that cannot be read or holds no deal (its
    F code is said there)."""
    if path == STDIN or not is_tarot(path):
        return None
    checked = _tarot_checked(TarotPart(path, 0, None, 0), ruleset, default, [])
    try:
        first = next(checked, None)
    except OSError:
        return None
    if first is None:
        return None
    return _reading_on(path, itertools.chain((first,), checked))


def _reading_on(path: str, checked: Iterator[CheckedDeal]) -> Iterator[CheckedDeal]:
    """``checked``, then the F002 of a read that failed on the way, as
    :func:`read_stream` says it."""
    try:
        yield from checked
    except OSError as err:
        yield CheckedDeal(path, 0, (file_fault(path, err),), None)


def _tarot_checked(part: TarotPart, ruleset: str | None, default: str | None,
                   after: list[int], *, packed: bool = False) -> Iterator[Any]:
    """Check the records of a part of a .tarot file, numbered from 1, as reading the whole
    file checks them, as they are read; where the record after the part starts, as the
    reader sees it, is appended to ``after`` (nothing when none does: the file ended, or
    the part's last record took in the next one, its comment running on; then the caller
    reads the rest of the file itself). ``packed``: each deal as a worker sends it back
    (:data:`_Packed`), not a CheckedDeal.

    With the compiled core, the file is read in blocks and its records in the canonical
    layout are scanned in C (:func:`tarotnotation.notation.bulk.read_bulk`) and judged by
    :func:`tarotnotation.quick.quick_facts_scanned`; the reader reads the others. Without
    it (or with ``TAROT_READER=grammar``), the reader reads them all and the quick check
    judges the fast scanner's data.
    """
    from . import native, notation
    from .notation import bulk
    from .quick import parts_checker, quick_facts, quick_facts_scanned

    twin = native.compiled()
    if os.environ.get(_READER_ENV) == "grammar":
        twin = None
    check = None if twin is None else parts_checker(ruleset, default)

    # The quick judge of the one scan of a record, whichever scanner read it: the
    # compiled one's parts (judged in C, bulk.h, else in Python) or the Python one's data.
    def judge_parts(parts: tuple[Any, ...]) -> _Judged | None:
        if check is not None:
            answer = check(parts)
            if answer is not None:
                return (Status.SCORED, answer[1], answer[0]), parts[1]
        return _judged(quick_facts_scanned(parts, ruleset, default, twin), parts[1])

    def judge(data: dict[str, Any]) -> _Judged | None:
        return _judged(quick_facts(data, ruleset, default), data.get("tags"))

    path = part.path
    end = part.end
    with open_bytes(path) as fh:
        fh.seek(part.start)
        items: Iterator[ReadDeal | tuple[int, int, int, Any]]
        if twin is not None:
            items = bulk.read_bulk(fh, twin.scan_text, judge_parts, judge, name=path,
                                   line=part.line, offset=part.start)
        else:
            items = notation.read_at(fh, name=path, line=part.line, offset=part.start,
                                     judge=judge)
        for item in items:
            if type(item) is tuple:  # a plain clean deal, judged from the scanner's data
                index, line, at, ((status, scores, half), tags) = item
                if end is not None and at >= end:
                    after.append(at)
                    break
                number = deal_number(tags) if tags else None
                # (_clean's report, written out: a call a deal is about 0.5% of this
                # loop's instructions, measured with cachegrind)
                if packed:
                    yield index, (), _VALUE_OF[status], scores, half, number, line, None
                else:
                    yield CheckedDeal(path, index, (), status, scores, half, None, number,
                                      line)
                continue
            assert isinstance(item, ReadDeal)
            if end is not None and item.offset is not None and item.offset >= end:
                after.append(item.offset)
                break
            checked = check_deal(item, path, ruleset, keep=False, default_ruleset=default)
            yield _pack(checked) if packed else checked


#: The environment variable that turns the fast readers off (notation.reader.READER_ENV).
_READER_ENV: Final = "TAROT_READER"

def check_lines(chunk: Chunk, ruleset: str | None, default: str | None
                 ) -> Iterator[CheckedDeal]:
    """Check the deals of a chunk of JSON Lines, as reading and replaying them would.

    A plain clean deal passes the bulk check in C (:func:`tarotnotation.quick.
    bulk_checker`) or :func:`tarotnotation.quick.quick_check_line` and is reported at
    once; any other line (a fault, another shape, a broken line) is read by the JSON
    reader, alone, and replayed.
    """
    return cast("Iterator[CheckedDeal]", _lines_checked(chunk, ruleset, default, packed=False))


def _lines_checked(chunk: Chunk, ruleset: str | None, default: str | None, *, packed: bool
                   ) -> Iterator[CheckedDeal | _Packed]:
    """:func:`check_lines`; ``packed``: a deal the bulk check settles comes as a worker
    sends it back (:data:`_Packed`), not as a CheckedDeal."""
    from .quick import BulkAnswer, bulk_checker, quick_check_line

    path = chunk.path
    name = "<stdin>" if path == STDIN else path  # (the reader's name, as read_path's)
    lines = chunk.lines
    index, lineno, offset = chunk.index, chunk.lineno, chunk.offset
    start = 0
    if chunk.first:  # the file's start: a byte-order mark, blank lines, the first record
        head, start, data = file_start(lines)
        first = _first_quick(lines, head, ruleset, default)
        if first is not None:  # a plain clean deal: what reading and replaying it says
            yield _clean(packed, path, 1, *first[0], deal_number(first[1] or ()), head + 1,
                         first[2])
        else:
            from .formats import json as json_format  # (for a line the quick check leaves)

            for item in json_format.read_stream(io.BytesIO(data), name):
                yield check_deal(item, path, ruleset, keep=False, default_ruleset=default)
        index, lineno, offset = (1 if head < len(lines) else 0), start, len(data)
    limit = MAX_JSON_RECORD_BYTES
    # The plain clean deals judged in bulk by the compiled core (None: not settled there).
    bulk = bulk_checker(ruleset, default)
    settled: list[BulkAnswer] = ([None] * (len(lines) - start) if bulk is None
                                 else bulk(lines, start))
    scored = Status.SCORED
    scored_value: str | None = scored.value
    for raw, clean in zip(lines[start:], settled, strict=True):
        lineno += 1
        at = offset
        offset += len(raw)
        if clean is not None:
            index += 1
            half, scores, tags = clean
            number = None if tags is None else deal_number(tags)
            if packed:  # (_clean's report, written out: see _tarot_checked)
                yield index, (), scored_value, scores, half, number, lineno, at
            else:
                yield CheckedDeal(path, index, (), scored, scores, half, None, number, lineno,
                                  at)
            continue
        line = line_content(raw)
        if not line:
            continue
        index += 1
        if len(line) <= limit:
            quick = quick_check_line(line, ruleset, default)
            if quick is not None:
                yield _clean(packed, path, index, *quick[0], deal_number(quick[1] or ()),
                             lineno, at)
                continue
        from .formats import json as json_format

        for item in json_format.read_lines(io.BytesIO(raw), name, index=index - 1,
                                           lineno=lineno - 1, offset=at):
            yield check_deal(item, path, ruleset, keep=False, default_ruleset=default)


def _first_quick(lines: Sequence[bytes], head: int, ruleset: str | None, default: str | None
                 ) -> tuple[tuple[Status, dict[str, int], int], Any, int] | None:
    """:func:`tarotnotation.quick.quick_check_line` of a JSON Lines file's first record
    (line ``head``), as the JSON reader reads it (a byte-order mark taken off the file's
    first line only), and where the reader says the record starts; None when it is not a
    plain clean deal, or not a line the quick check reads as the reader does (then the
    reader reads it: its faults are located there). A one-deal file needs no record
    model (issue 17)."""
    from .quick import quick_check_line

    if head >= len(lines):
        return None
    raw = lines[head]
    skipped = 0
    if head == 0 and raw.startswith(b"\xef\xbb\xbf"):
        raw, skipped = raw[3:], 3
    line = raw.strip()
    if not line or line.startswith(b"\xef\xbb\xbf") or len(raw) > MAX_JSON_RECORD_BYTES:
        return None
    quick = quick_check_line(line, ruleset, default)
    if quick is None:
        return None
    return quick[0], quick[1], sum(map(len, lines[:head])) + skipped
