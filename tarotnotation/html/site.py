"""Reading deals for pages, and writing them: one page, a site (a folder), or one file.

:func:`read_sources` reads every deal of the files named, replays it
(:func:`tarotnotation.archive.check_deal`) and keeps its own text: the deal's slice of a
notation or JSON Lines file, the whole file when it holds one deal, else the record in
the notation. One broken deal never stops the rest: it gets a page that shows its faults
and its text.

:func:`write_page` writes one self-contained page; :func:`write_book` one file holding
every deal and an index; :func:`write_site` a folder: an ``index.html``, a page per deal
(``deal-N.html``) and the script and stylesheet they share. A site is built in a hidden
folder beside its target and renamed into place when complete: a run that fails or is
interrupted leaves the target as it was and no temporary folder behind.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "site"
>>> tally = write_site(read_sources(["examples/annotated.tarot", "examples/prise.tarot"]),
...                    out, title="Two deals")
>>> tally.deals, sorted(p.name for p in out.iterdir())
(2, ['deal-1.html', 'deal-2.html', 'index.html', 'tarot.css', 'tarot.js'])
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import stat
import tempfile
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import IO, Final, TypeVar

from .. import atomic
from ..archive import (
    STDIN,
    Part,
    check_deal,
    expand_paths,
    format_of,
    parts_of,
    read_part,
    read_path,
)
from ..diagnostics import Diagnostic
from ..formats import registry
from ..i18n import Msg, language, render, set_language
from ..source import ReadDeal
from ..workers import Pending, Workers
from . import fast
from .data import DealSource, deal_data, index_row
from .layout import (
    SCRIPT_NAME,
    STYLE_NAME,
    asset,
    book_deal,
    book_end,
    book_start,
    deal_page,
    deal_page_bytes,
    index_data,
    index_page,
)

__all__ = [
    "PAGE_NAME",
    "NoDealError",
    "Tally",
    "build_site",
    "page_problem",
    "read_sources",
    "site_problem",
    "write_book",
    "write_page",
    "write_site",
]

#: How a site names each deal's page.
PAGE_NAME: Final = "deal-{n}.html"
_SITE_FILE: Final = re.compile(r"^(index\.html|tarot\.js|tarot\.css|deal-[0-9]+\.html)$")
_GENERATOR: Final = b'<meta name="generator" content="tarotnotation'
#: The largest text kept as a deal's own text (a bigger file: the record in the notation).
_MAX_TEXT: Final = 4 << 20

_T = TypeVar("_T")


class NoDealError(ValueError):
    """The files hold no deal: nothing was written. ``faults`` says what was said of
    the files (cannot be read, no deal)."""

    def __init__(self, message: str, faults: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.faults = list(faults or ())


@dataclass(slots=True)
class Tally:
    """What was written: deals, those with errors or warnings, those unreadable."""

    deals: int = 0
    with_errors: int = 0
    with_warnings: int = 0
    unreadable: int = 0
    faults: list[Diagnostic] = field(default_factory=list)
    """What was said of whole files: one that cannot be read (F002), one with no deal
    (F005); their deals are not counted."""

    def add(self, other: Tally) -> None:
        """Add another tally's counts."""
        self.deals += other.deals
        self.with_errors += other.with_errors
        self.with_warnings += other.with_warnings
        self.unreadable += other.unreadable

    def count(self, src: DealSource) -> None:
        """Count one deal."""
        self.deals += 1
        self.with_errors += src.errors > 0
        self.with_warnings += src.warnings > 0
        self.unreadable += src.record is None


def _canonical(item: ReadDeal) -> str:
    if item.record is None:
        return ""
    from .. import notation

    return notation.dumps([item.record])


def _text(data: bytes) -> str | None:
    """A deal's own text from its bytes (None: too big to keep, or blank)."""
    if len(data) > _MAX_TEXT:
        return None
    text = data.decode("utf-8", "replace").lstrip("\ufeff").rstrip()
    return text + "\n" if text else None


class _Texts:
    """The own text of each deal of one file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.kind: str | None = None
        self.fh: IO[bytes] | None = None
        if path == STDIN:
            return
        with contextlib.suppress(OSError):
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise OSError  # a FIFO, <(…): read once, by the reader; no text kept
            self.kind = format_of(path)
            self.fh = open(path, "rb")  # noqa: SIM115 (closed by close())
        p = Path(path)
        self.stem, self.suffix = p.stem, p.suffix or registry.DEFAULT.file_suffix
        self.name = p.name

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()

    def _read(self, start: int, end: int | None) -> str | None:
        if self.fh is None:
            return None
        size = _MAX_TEXT + 1 if end is None else end - start
        if end is not None and size > _MAX_TEXT:
            return None
        self.fh.seek(start)
        return _text(self.fh.read(size))

    def whole(self) -> str | None:
        """The text of a file of one deal: the whole file (None: too big to keep)."""
        return self._read(0, None)

    def between(self, index: int, start: int, end: int, lines: Sequence[bytes],
                starts: Sequence[int]) -> tuple[str, str] | None:
        """The own text of deal ``index`` of a JSON Lines file of several deals, from
        ``start`` to the next deal's (``end``), and its name; taken from ``lines`` (a
        part of the file, each line starting at its offset in ``starts``) when the deal
        starts a line of it, else read from the file. None when it is too big to keep."""
        at = bisect_left(starts, start)
        if at < len(lines) and starts[at] == start and end <= starts[-1]:
            if end - start > _MAX_TEXT:
                return None
            text = _text(b"".join(lines[at:bisect_left(starts, end, at)]))
        else:
            text = self._read(start, end)
        return None if text is None else (text, f"{self.stem}-{index}{self.suffix}")

    def of(self, item: ReadDeal, nxt: ReadDeal | None) -> tuple[str, str]:
        """The deal's own text and the file name to download it as."""
        if self.path == STDIN:
            return _canonical(item), f"deal-{item.index}.tarot"
        alone = item.index == 1 and nxt is None
        text: str | None = None
        if self.kind in ("tarot", "jsonl") and item.offset is not None:
            end = nxt.offset if nxt is not None else None
            text = self._read(item.offset, end)
        elif alone:
            text = self._read(0, None)
        if text is not None:
            return text, self.name if alone else f"{self.stem}-{item.index}{self.suffix}"
        return _canonical(item), f"{self.stem}-{item.index}.tarot"


def read_sources(paths: Iterable[str], *, ruleset: str | None = None,
                 default_ruleset: str | None = None,
                 faults: list[Diagnostic] | None = None,
                 source_name: str | None = None) -> Iterator[DealSource]:
    """Every deal of the files named (folders searched, ``-`` standard input), read,
    replayed and numbered from 1 in order, with its own text.

    ``ruleset`` overrides every record's own; ``default_ruleset`` applies to records
    that name none. What is said of a whole file (it cannot be read, it holds no deal)
    goes to ``faults`` when given. ``source_name`` is the name the pages show for the
    source (:attr:`DealSource.name`), whatever it was read from.
    """
    for src, _ in _sources(paths, ruleset, default_ruleset, faults=faults,
                           source_name=source_name):
        yield src


def _sources(paths: Iterable[str], ruleset: str | None, default_ruleset: str | None,
             select: Callable[[int], bool] | None = None, seen: list[int] | None = None,
             faults: list[Diagnostic] | None = None, source_name: str | None = None
             ) -> Iterator[tuple[DealSource, bool]]:
    """Each deal whose number ``select`` keeps (all by default), with whether another
    deal follows it. Every deal is read (and numbered); only those kept are replayed and
    get their text. ``seen`` receives the number of deals read, ``faults`` what is said
    of whole files (not deals); ``source_name`` is the source's name in the pages."""
    def read() -> Iterator[tuple[int, str, ReadDeal, str, str]]:
        number = 0
        for path in expand_paths(paths):
            name = str(path)
            texts = _Texts(name)
            try:
                items = _deals_of(read_path(name), faults)
                item = next(items, None)
                while item is not None:
                    nxt = next(items, None)
                    number += 1
                    if seen is not None:
                        seen[:] = [number]
                    text, text_name = (texts.of(item, nxt) if select is None or select(number)
                                       else ("", ""))
                    yield number, name, item, text, text_name
                    item = nxt
            finally:
                texts.close()

    deals = read()
    cur = next(deals, None)
    while cur is not None:
        nxt = next(deals, None)
        number, name, item, text, text_name = cur
        if select is None or select(number):
            file = "<stdin>" if name == STDIN else name
            checked = check_deal(item, file, ruleset, default_ruleset=default_ruleset)
            yield DealSource(number, None if name == STDIN else name, item.index,
                             item.record, checked.replay, checked.diagnostics, text,
                             text_name, source_name), nxt is not None
        cur = nxt


def _deals_of(items: Iterator[ReadDeal], faults: list[Diagnostic] | None
              ) -> Iterator[ReadDeal]:
    for item in items:
        if item.about_file:
            if faults is not None:
                faults.extend(item.diagnostics)
            continue
        yield item


def _with_next(items: Iterable[_T]) -> Iterator[tuple[_T, bool]]:
    it = iter(items)
    cur = next(it, None)
    while cur is not None:
        nxt = next(it, None)
        yield cur, nxt is not None
        cur = nxt


def write_page(src: DealSource, fh: IO[bytes]) -> None:
    """One self-contained page for one deal."""
    fh.write(deal_page(deal_data(src)).encode("utf-8"))


def _title(rows: list[dict[str, object]]) -> str:
    events = {row["event"] for row in rows}
    event = events.pop() if len(events) == 1 else None
    return str(event) if event else render(Msg("Tarot deals"))


def write_book(sources: Iterable[DealSource], fh: IO[bytes], *, title: str | None = None
               ) -> Tally:
    """One self-contained file holding every deal, with an index; ``#deal=N`` shows
    deal N. The deals' data is spooled to an anonymous temporary file (removed by the
    system whatever happens) so that the index comes first."""
    tally = Tally()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryFile() as spool:
        for src, more in _with_next(sources):
            tally.count(src)
            n = src.number
            rows.append(index_row(src))
            nav = {"index": "#index", "prev": f"#deal={n - 1}" if n > 1 else None,
                   "next": f"#deal={n + 1}" if more else None}
            book_deal(spool, deal_data(src, nav))
        book_start(fh, title or _title(rows), index_data(rows))
        spool.seek(0)
        shutil.copyfileobj(spool, fh, 1 << 20)
    book_end(fh)
    return tally


def site_problem(folder: str | os.PathLike[str], inputs: Iterable[str] = ()) -> str | None:
    """Why ``folder`` cannot receive a site, or None: it must be new, empty, or a site
    written before (its files are replaced), and hold none of the ``inputs``."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        return Msg("exists and is not a folder")
    target = path.resolve()
    for name in inputs:
        if name != STDIN and target in Path(name).resolve().parents:
            return Msg("holds the input {name}: choose another folder", name=name)
    if not path.exists():
        return None
    entries = list(path.iterdir())
    if not entries:
        return None
    foreign = [e.name for e in entries if not _SITE_FILE.match(e.name) or not e.is_file()]
    index = path / "index.html"
    ours = index.is_file() and _GENERATOR in index.read_bytes()[:2048]
    if foreign or not ours:
        shown = ", ".join(sorted(foreign)[:3]) or "index.html"
        return Msg("holds files not written by tarot html ({shown}): give a new or empty"
                   " folder", shown=shown)
    return None


def page_problem(page: str | os.PathLike[str]) -> str | None:
    """Why ``page`` cannot be written, or None: a file there is replaced only when it is a
    page ``tarot html`` wrote (its generator mark in its head), never the user's own
    ``notes.html``. What is not a regular file (``/dev/null``, a FIFO) is written to, and
    a symbolic link is written through (the page it names is checked)."""
    target = atomic.target_of(page)
    try:
        if not stat.S_ISREG(target.stat().st_mode):  # (a FIFO is never opened here)
            return None
        with open(target, "rb") as fh:
            head = fh.read(2048)
    except OSError:  # (none there; one that cannot be read: writing says why)
        return None
    if _GENERATOR in head:
        return None
    return Msg("a file not written by tarot html is there: remove it first to replace it,"
               " or give another name")


def _pages(deals: Iterable[tuple[DealSource, bool]], folder: Path,
           on_deal: Callable[[DealSource], None] | None = None
           ) -> tuple[list[dict[str, object]], Tally]:
    """Write each deal's page into ``folder``; its index row, and the tally."""
    tally = Tally()
    rows: list[dict[str, object]] = []
    for src, more in deals:
        if on_deal is not None:
            on_deal(src)
        tally.count(src)
        n = src.number
        href = PAGE_NAME.format(n=n)
        rows.append(index_row(src))
        nav = {"index": "index.html",
               "prev": PAGE_NAME.format(n=n - 1) if n > 1 else None,
               "next": PAGE_NAME.format(n=n + 1) if more else None}
        _write(folder / href, deal_page_bytes(deal_data(src, nav), inline=False))
    return rows, tally


class _Writer:
    """Pages written to new files in ``folder`` by a thread of their own while this one
    makes the next ones: creating a file is mostly the kernel's work (finding a free
    inode), done outside the interpreter's lock, so on a machine with a free core it
    costs no time. At most :data:`_DEPTH` pages wait, so memory stays bounded; leaving
    the block, however it is left, waits for the thread (no file is created after it),
    and raises what writing raised.

    A signal's handler runs in the maker's thread and may raise (Ctrl-C, SIGTERM)
    between any two steps of it, so the maker never waits in a lock written in Python:
    a :class:`queue.Queue` whose lock a signal's exception left taken hung ``tarot html``
    under SIGTERM for ever, and :meth:`threading.Thread.join`, interrupted, takes a
    thread still running for ended. The pages, the free places and the thread's end go
    through :class:`queue.SimpleQueue` (each ``put`` and ``get`` one step, in C), and the
    thread is born with SIGINT, SIGTERM and SIGHUP held, so that every signal comes to
    the maker. A writer that a signal kept from its ending is ended by
    :func:`_site_folder` before the folder is removed (:func:`_end_writers`)."""

    _DEPTH: Final = 64

    def __init__(self, folder: Path) -> None:
        import queue
        import threading

        self._folder = folder
        self._pages: queue.SimpleQueue[tuple[Path, bytes] | None] = queue.SimpleQueue()
        self._room: queue.SimpleQueue[None] = queue.SimpleQueue()
        self._done: queue.SimpleQueue[None] = queue.SimpleQueue()
        for _ in range(self._DEPTH):
            self._room.put(None)
        self._error: BaseException | None = None
        self._stop = False
        self._ended = False  # (set by the thread before it says so on _done)
        self._thread = threading.Thread(target=self._run, name="tarot-html-writer",
                                        daemon=True)

    def __enter__(self) -> _Writer:
        with atomic.signals_held():  # (the thread keeps the mask it is born with)
            self._thread.start()
            _WRITERS.setdefault(self._folder, []).append(self)
        return self

    def _run(self) -> None:
        try:
            while True:
                item = self._pages.get()
                if item is None:
                    return
                try:
                    if not self._stop and self._error is None:
                        _write(*item)
                except BaseException as err:  # (raised in the maker's thread)
                    self._error = err
                finally:
                    self._room.put(None)
        finally:
            self._ended = True
            self._done.put(None)

    def write(self, path: Path, page: bytes) -> None:
        """Queue one page, once fewer than :data:`_DEPTH` wait (raises what writing an
        earlier one raised)."""
        if self._error is not None:
            raise self._error
        self._room.get()  # (a signal here takes a free place with it: no harm)
        self._pages.put((path, page))

    def end(self, *, stop: bool) -> None:
        """Let the thread write what waits (``stop``: drop it) and wait for its end.
        Done again after a signal, it only waits (a second end marker is never read)."""
        if stop:
            self._stop = True
        self._pages.put(None)
        while not self._ended:
            self._done.get()

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: object) -> None:
        interrupted: BaseException | None = None
        stop = kind is not None  # (an error, an interruption: the rest is dropped)
        while not self._ended:  # (a signal while waiting: the rest is dropped, wait on)
            try:
                self.end(stop=stop)
            except BaseException as caught:
                stop = True
                interrupted = interrupted or caught
        with atomic.signals_held():
            _forget_writer(self._folder, self)
        if interrupted is not None:
            raise interrupted
        if kind is None and self._error is not None:
            raise self._error


#: The page writers of this process not yet ended, by the folder they write in.
_WRITERS: dict[Path, list[_Writer]] = {}


def _forget_writer(folder: Path, writer: _Writer) -> None:
    writers = _WRITERS.get(folder, [])
    if writer in writers:
        writers.remove(writer)
    if not writers:
        _WRITERS.pop(folder, None)


def _end_writers(folder: Path) -> None:
    """End the page writers still writing in ``folder``, their pages dropped: those whose
    block a signal left before it waited for them. Called with the signals held."""
    for writer in list(_WRITERS.get(folder, ())):
        writer.end(stop=True)
        _forget_writer(folder, writer)


def _write(path: Path, page: bytes) -> None:
    """A new file of the site's folder (flushed with the whole folder, :func:`_site_folder`)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(page)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _part(task: tuple[list[str], str, int, int, str | None, str | None, str, str | None]
          ) -> tuple[list[dict[str, object]], Tally, int]:
    """A worker's share of a site: the deals whose number modulo ``parts`` is ``part``
    (every worker reads every deal; each replays and writes only its own; the first
    tells what is said of whole files), in the language of the run that started it,
    the source named as the run chose (None: as given)."""
    paths, folder, part, parts, ruleset, default, lang, source_name = task
    set_language(lang)
    seen = [0]
    faults: list[Diagnostic] = []
    rows, tally = _pages(_sources(paths, ruleset, default,
                                  lambda n: n % parts == part, seen, faults, source_name),
                         Path(folder))
    if part == 0:
        tally.faults = faults
    return rows, tally, seen[0]


@contextlib.contextmanager
def _site_folder(folder: str | os.PathLike[str]) -> Iterator[Path]:
    """A hidden folder beside ``folder`` to build a site in, renamed over ``folder``
    when the block ends without an exception, removed whatever happens. SIGINT, SIGTERM
    and SIGHUP are held while a folder is made, swapped or removed (then let through),
    so that a signal never leaves one behind."""
    target = atomic.target_of(folder)  # (a symbolic link to a site: the site it names)
    parent = target.parent
    tmp: Path | None = None
    old: Path | None = None
    try:
        with atomic.signals_held(), atomic.naming(folder, ""):
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)
        (tmp / SCRIPT_NAME).write_text(asset(SCRIPT_NAME), encoding="utf-8")
        (tmp / STYLE_NAME).write_text(asset(STYLE_NAME), encoding="utf-8")
        yield tmp
        atomic.sync_tree(tmp)  # every page on the disk before the rename shows them
        with atomic.signals_held():
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old",
                                            dir=parent))
                os.replace(target, old / "site")
                try:
                    os.replace(tmp, target)
                except BaseException:
                    os.replace(old / "site", target)  # put the earlier site back
                    raise
            else:
                os.replace(tmp, target)
        atomic.sync_folder(parent)
    finally:
        with atomic.signals_held():
            if tmp is not None:
                _end_writers(tmp)  # (no page is written after the folder is removed)
            if tmp is not None and tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)


def _index(tmp: Path, rows: list[dict[str, object]], title: str | None) -> None:
    (tmp / "index.html").write_bytes(
        index_page(title or _title(rows), index_data(rows), pages=PAGE_NAME).encode("utf-8"))


def write_site(sources: Iterable[DealSource], folder: str | os.PathLike[str], *,
               title: str | None = None) -> Tally:
    """A folder: ``index.html``, a page per deal and the script and stylesheet they
    share. Built beside ``folder`` and renamed into place whole (see the module's doc);
    a site written there before is replaced. Check :func:`site_problem` first."""
    with _site_folder(folder) as tmp:
        rows, tally = _pages(_with_next(sources), tmp)
        _index(tmp, rows, title)
    return tally


#: A worker's share of a site of JSON Lines files: a part of a file (:func:`parts_of`),
#: the deals of the files before it, the deals of the file and of the site, the folder,
#: the ruleset override and default, the run's language, the source's name in the pages.
_ChunkTask = tuple[Part, int, int, int, str, str | None, str | None, str, str | None]
#: What a worker did: the index rows, the tally, what was said of the file, the numbers
#: of the pages written.
_ChunkDone = tuple[list[dict[str, object]], Tally, list[Diagnostic], list[int]]
_BOM: Final = b"\xef\xbb\xbf"


class _RenumberedError(RuntimeError):
    """The pages' numbers were not each deal's once: the site is built the plain way."""


def _read_once(name: str) -> bool:
    """Standard input, or a file that is not a regular one (a FIFO, ``<(…)``): its bytes
    can be read once, by one reader."""
    if name == STDIN:
        return True
    try:
        return not stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False  # (the reader says why it cannot be read)


def _lines_plan(files: list[str]) -> list[tuple[str, int]] | None:
    """Each file with its number of deals, when every file is JSON Lines that
    :func:`parts_of` cuts into parts, of one deal or more; else None. (The parts are
    read and dropped: memory holds one at a time.)"""
    plan = []
    for name in files:
        if name == STDIN:
            return None
        count = None
        for part in parts_of(name):
            if isinstance(part, str):
                return None
            count = part.index + sum(1 for raw in part.lines if raw.strip().removeprefix(_BOM))
        if not count:
            return None
        plan.append((name, count))
    return plan


def _chunk_pages(task: _ChunkTask, on_deal: Callable[[str | None], None] | None = None
                 ) -> _ChunkDone:
    """The pages of one part of a JSON Lines file. A plain clean deal is judged from its
    line and its page made from the quick facts (:mod:`.fast`); any other is read and
    replayed. Each deal's number is its index in the file after the deals of the files
    before it, so its page's name and its neighbours' follow from it alone."""
    part, base, total, count, folder, ruleset, default, lang, source_name = task
    if isinstance(part, str):
        raise TypeError("a part of JSON Lines")
    set_language(lang)
    path = part.path
    out = Path(folder)
    rows: list[dict[str, object]] = []
    tally = Tally()
    faults: list[Diagnostic] = []
    numbers: list[int] = []
    starts = list(accumulate((len(raw) for raw in part.lines), initial=part.offset))
    items: list[tuple[int, int | None, ReadDeal | fast.FastDeal, int]] = []
    for item in read_part(part, fast.reader(ruleset, default)):
        if isinstance(item, ReadDeal):
            if item.about_file:
                faults.extend(item.diagnostics)
            else:
                items.append((item.index, item.offset, item, 0))
        else:
            index, lineno, judged = item
            items.append((index, starts[lineno - 1 - part.lineno], judged, lineno))
    texts = _Texts(path)
    try:
        with _Writer(out) as writer:
            _chunk_loop(items, starts, part, base, total, count, texts, writer, out, rows,
                        tally, numbers, ruleset, default, on_deal, source_name)
    finally:
        texts.close()
    return rows, tally, faults, numbers


def _chunk_loop(items: list[tuple[int, int | None, ReadDeal | fast.FastDeal, int]],
                starts: list[int], part: Part, base: int, total: int, count: int,
                texts: _Texts, writer: _Writer, out: Path, rows: list[dict[str, object]],
                tally: Tally, numbers: list[int], ruleset: str | None, default: str | None,
                on_deal: Callable[[str | None], None] | None, source_name: str | None
                ) -> None:
    """The pages of :func:`_chunk_pages`' deals, handed to ``writer``; ``source_name`` is the
    source's name in the pages (None: its path, as :func:`.data.published_name` shows it)."""
    if isinstance(part, str):
        raise TypeError("a part of JSON Lines")
    path = part.path
    for k, (index, start, got, lineno) in enumerate(items):
        end = (items[k + 1][1] if k + 1 < len(items) else None) or starts[-1]
        number = base + index
        nav = {"index": "index.html",
               "prev": PAGE_NAME.format(n=number - 1) if number > 1 else None,
               "next": PAGE_NAME.format(n=number + 1) if number < total else None}
        if count == 1:  # a file of one deal: the whole file is its text
            whole = texts.whole()
            text = None if whole is None else (whole, texts.name)
        else:
            text = (None if start is None else
                    texts.between(index, start, end, part.lines, starts))
        if isinstance(got, fast.FastDeal) and text is not None:
            shown = path if source_name is None else source_name
            data = fast.deal_data(got, number, shown, index, *text, nav)
            rows.append(fast.index_row(got, number, shown, index))
            tally.deals += 1
        else:
            deal = got if isinstance(got, ReadDeal) else _read_line(
                part.lines[lineno - 1 - part.lineno], path, index, lineno, start or 0)
            checked = check_deal(deal, path, ruleset, default_ruleset=default)
            own, own_name = text or (_canonical(deal), f"{texts.stem}-{index}.tarot")
            src = DealSource(number, path, index, deal.record, checked.replay,
                             checked.diagnostics, own, own_name, source_name)
            data = deal_data(src, nav)
            rows.append(index_row(src))
            tally.count(src)
        writer.write(out / PAGE_NAME.format(n=number), deal_page_bytes(data, inline=False))
        numbers.append(number)
        if on_deal is not None:
            on_deal(path)


def _read_line(raw: bytes, path: str, index: int, lineno: int, offset: int) -> ReadDeal:
    """A line of JSON Lines read as the reader reads it (one judged clean, whose text is
    too long to keep: its page shows the record in the notation)."""
    from ..formats import json as json_format

    return next(iter(json_format.read_lines(io.BytesIO(raw), path, index=index - 1,
                                            lineno=lineno - 1, offset=offset)))


def _site_of_lines(plan: list[tuple[str, int]], tmp: Path, jobs: int,
                   ruleset: str | None, default: str | None,
                   on_deal: Callable[[str | None], None] | None,
                   source_name: str | None) -> tuple[
                       list[dict[str, object]], Tally]:
    """The pages of a site of JSON Lines files, their parts shared among ``jobs``
    workers (a bounded number in flight), or written by this process with one job."""
    total = sum(count for _, count in plan)

    def tasks() -> Iterator[_ChunkTask]:
        base = 0
        for name, count in plan:
            for part in parts_of(name):
                yield (part, base, total, count, str(tmp), ruleset, default, language(),
                       source_name)
            base += count

    done: list[_ChunkDone] = []
    if jobs <= 1:
        done = [_chunk_pages(task, on_deal) for task in tasks()]
    else:
        with Workers(jobs) as workers:
            pending: deque[Pending[_ChunkDone]] = deque()
            for task in tasks():
                if len(pending) >= 2 * jobs:
                    done.append(pending.popleft().result())
                pending.append(workers.submit(_chunk_pages, task))
            while pending:
                done.append(pending.popleft().result())
    rows = [row for part_rows, _, _, _ in done for row in part_rows]
    numbers = [n for _, _, _, part_numbers in done for n in part_numbers]
    if numbers != list(range(1, total + 1)):
        raise _RenumberedError
    tally = Tally()
    for _, part_tally, faults, _ in done:
        tally.add(part_tally)
        tally.faults.extend(faults)
    return rows, tally


def build_site(paths: Iterable[str], folder: str | os.PathLike[str], *, jobs: int = 1,
               ruleset: str | None = None, default_ruleset: str | None = None,
               title: str | None = None,
               on_deal: Callable[[str | None], None] | None = None,
               source_name: str | None = None) -> Tally:
    """:func:`write_site` of the deals of ``paths``, in ``jobs`` worker processes: every
    worker reads every deal (reading is the cheap part), then replays and writes the
    pages of its share; this process writes the index. ``on_deal`` is called with each
    deal as it is done (one process only); ``source_name`` is the name the pages show
    for the source (:func:`read_sources`). Raises :class:`NoDealError` when the files
    hold no deal (nothing is written)."""
    names = [str(p) for p in paths]
    files = [str(p) for p in expand_paths(names)]
    # A stream read once (standard input, a FIFO, <(…)): this process alone reads it; two
    # workers would each take a share of its bytes.
    once = any(map(_read_once, files))
    plan = None if once else _lines_plan(files)
    if plan is not None:
        try:
            with _site_folder(folder) as tmp:
                rows, tally = _site_of_lines(plan, tmp, jobs, ruleset, default_ruleset,
                                             on_deal, source_name)
                _index(tmp, rows, title)
            return tally
        except _RenumberedError:  # (never seen: the reader's count is the parts')
            pass
    if jobs <= 1 or once:
        seen = [0]
        faults: list[Diagnostic] = []
        with _site_folder(folder) as tmp:
            rows, tally = _pages(_sources(names, ruleset, default_ruleset, None, seen,
                                          faults, source_name), tmp,
                                 None if on_deal is None else lambda src: on_deal(src.file))
            if not seen[0]:
                raise NoDealError("no deal found", faults)
            _index(tmp, rows, title)
        tally.faults = faults
        return tally
    with _site_folder(folder) as tmp:
        tasks = [(names, str(tmp), part, jobs, ruleset, default_ruleset, language(),
                  source_name) for part in range(jobs)]
        # Leaving the block by an exception terminates the workers, so an interrupted run
        # stops them at once, before the folder is removed. They ignore Ctrl-C themselves
        # (this process stops them), so none prints a traceback.
        with Workers(jobs) as workers:
            calls = [workers.submit(_part, task) for task in tasks]
            done = [call.result() for call in calls]
        if not max(total for _, _, total in done):
            raise NoDealError("no deal found", done[0][1].faults)
        rows = sorted((row for part_rows, _, _ in done for row in part_rows),
                      key=lambda row: int(str(row["n"])))
        tally = Tally()
        for _, part_tally, _ in done:
            tally.add(part_tally)
        tally.faults = done[0][1].faults
        _index(tmp, rows, title)
    return tally
