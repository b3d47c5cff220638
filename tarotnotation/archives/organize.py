"""Archives split into files and sorted by tags: safe file names, bounded memory.

:func:`safe_name` turns a tag value into a file name that cannot escape the output
folder or surprise a shell or a file system; :class:`Names` numbers the collisions.
:func:`sort_key` orders tag values as people expect (numbers as numbers, dates by their
known parts, text without regard to case or accents); :func:`sorted_records` sorts any
number of records in bounded memory (runs written to temporary files, then merged).

>>> safe_name("../../etc/passwd"), safe_name("Lyon / Villeurbanne"), safe_name("  ")
('_._etc_passwd', 'Lyon _ Villeurbanne', '_')
>>> names = Names()
>>> names.take("Lyon"), names.take("lyon"), names.take("Lyon")
('Lyon', 'lyon-2', 'Lyon-3')
"""

from __future__ import annotations

import contextlib
import heapq
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from pathlib import Path
from typing import IO, Any, Final

from .. import atomic
from ..records import DealRecord, find_tag

__all__ = ["Names", "Splitter", "is_tag", "record_key", "safe_name", "sort_fields", "sort_key",
           "sorted_records"]

_UNSAFE: Final = re.compile(r'[\x00-\x1f\x7f-\x9f/\\:*?"<>|\u061c\u200e\u200f\u202a-\u202e'
                            r"\u2066-\u2069]+")
_DOTS: Final = re.compile(r"\.{2,}")
_RESERVED: Final = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
     *(f"lpt{i}" for i in range(10))})
#: The longest file name made, in bytes of UTF-8 (file systems allow 255).
MAX_NAME_BYTES: Final = 120


def safe_name(value: str, *, empty: str = "_") -> str:
    """A file name from a tag value: no path separator, no ``..``, no control character
    or text-reordering mark, no name a system reserves (``CON``, ``NUL``...), no leading
    dot or dash, at most :data:`MAX_NAME_BYTES` bytes; ``empty`` when nothing is left.

    >>> safe_name("Tournoi d'été 2026"), safe_name("..."), safe_name("nul.x"), safe_name("-rf")
    ("Tournoi d'été 2026", '_', 'nul_.x', '_rf')
    >>> safe_name("a\\x1b[31mb"), safe_name("x" * 300) == "x" * 120
    ('a_[31mb', True)
    """
    text = unicodedata.normalize("NFC", value)
    text = _UNSAFE.sub("_", text)  # separators, control characters, reserved characters
    text = _DOTS.sub(".", text)  # no ".."
    text = text.strip(" .")  # no hidden file, nothing a system trims
    if text.startswith("-"):  # not an option to the next command
        text = "_" + text[1:]
    if not text.strip("_ "):
        return empty
    base, dot, rest = text.partition(".")
    if base.lower() in _RESERVED:
        text = f"{base}_{dot}{rest}"
    text = text.encode("utf-8")[:MAX_NAME_BYTES].decode("utf-8", "ignore").rstrip(" .")
    return text or empty


class Names:
    """File names handed out once each: a name taken again (or differing only in case,
    as some file systems see it) is numbered ``name-2``, ``name-3``..."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, name: str, suffix: str = "") -> str:
        """``name`` (with ``suffix``), or the first free numbered variant."""
        candidate = name
        n = 1
        while (candidate + suffix).casefold() in self.taken:
            n += 1
            candidate = f"{name}-{n}"
        self.taken.add((candidate + suffix).casefold())
        return candidate + suffix


# --- sorting ---------------------------------------------------------------------------------

_DATE: Final = re.compile(r"^\s*(\d{4}|\?{4})[.\-/](\d\d|\?\?)[.\-/](\d\d|\?\?)\s*$")
_NUMBER: Final = re.compile(r"^\s*[+-]?\d+(?:[.,]\d+)?\s*$")
_CHUNKS: Final = re.compile(r"(\d+)")


def _text_key(text: str) -> tuple[Any, ...]:
    plain = "".join(c for c in unicodedata.normalize("NFD", text)
                    if not unicodedata.combining(c)).casefold()
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in _CHUNKS.split(plain) if part)


def sort_key(value: str | None) -> tuple[Any, ...]:
    """The key of a tag value: dates (``2026.11.??``: unknown parts first) before
    numbers before text (digit runs as numbers, case and accents aside); a missing tag
    last.

    >>> sorted(["10", "9", "Table 10", "Table 9", "2026.01.??", "2025.12.31"], key=sort_key)
    ['2025.12.31', '2026.01.??', '9', '10', 'Table 9', 'Table 10']
    """
    if value is None or not value.strip():
        return (3,)
    m = _DATE.match(value)
    if m is not None:
        return (0, tuple(-1 if "?" in p else int(p) for p in m.groups()))
    if _NUMBER.match(value):
        return (1, float(value.strip().replace(",", ".")))
    return (2, _text_key(value))


def is_tag(name: str) -> bool:
    """A name to sort by is a tag (``Event``, ``Date``, any name a record may give a tag)
    unless it is a field of the query language (``contract``, ``taker``: docs/query.md).

    >>> is_tag("Event"), is_tag("Contract"), is_tag("contract")
    (True, True, False)
    """
    from .query import FIELDS

    return name not in FIELDS


def sort_fields() -> list[str]:
    """The fields of the query language a deal can be sorted by: all but a player's own
    (``player``, ``score``, ``camp``) and where the deal is (``file``, ``deal``: the order
    of the input already)."""
    from .query import FIELDS

    return sorted(name for name, field in FIELDS.items()
                  if not field.per_player and name not in ("file", "deal"))


def _value_key(value: object) -> tuple[Any, ...]:
    """The key of a field's value: numbers (a contract, a seat, true after false) before
    text; a missing value last, as a missing tag."""
    if value is None:
        return (3,)
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool | int | float):
        return (1, value)
    if isinstance(value, tuple):
        return (2, tuple(_value_key(v) for v in value))
    return (2, _text_key(str(value)))


def record_key(names: list[str], reverse: bool = False) -> Callable[[DealRecord], Any]:
    """The sort key of a record by ``names``: tags (a capital: their values, as
    :func:`sort_key` orders them) and fields of the query language (:func:`sort_fields`:
    ``contract``, ``taker``, ``points``...: worked out from the record, replayed when the
    field needs the play). A name that is neither is a ``ValueError``."""
    fields = [name for name in names if not is_tag(name)]
    if not fields:  # (the query language is not loaded for tags alone)

        def key(record: DealRecord) -> Any:
            return tuple(sort_key(find_tag(record.tags, tag)) for tag in names)

        return key
    from ..i18n import Msg, Quoted
    from .query import FIELDS, READ_FIELDS
    from .summary import summarize, summarize_record

    allowed = sort_fields()
    for name in fields:
        if name not in allowed:
            raise ValueError(Msg("{name} is a field of one player, or where a deal is: deals"
                                 " are sorted by tags or by {fields}", name=Quoted(name),
                                 fields=", ".join(allowed)))
    replayed = any(name not in READ_FIELDS for name in fields)

    def field_key(record: DealRecord) -> Any:
        if replayed:
            from ..replay import replay

            summary = summarize(record, replay(record), file="", index=0)
        else:
            summary = summarize_record(record, file="", index=0)
        return tuple(sort_key(find_tag(record.tags, name)) if is_tag(name)
                     else _value_key(FIELDS[name].get(summary, -1)) for name in names)

    return field_key


#: Records held in memory at once while sorting (then a run is written to disk).
RUN: Final = 2000


def sorted_records(records: Iterable[DealRecord], key: Callable[[DealRecord], Any], *,
                   reverse: bool = False, run: int = RUN, folder: str | None = None
                   ) -> Iterator[DealRecord]:
    """``records`` in the order of ``key`` (stable: equal keys keep their order), in
    bounded memory: runs of ``run`` records are sorted and written to temporary JSON
    Lines files, then merged as they are read back. The files are removed at the end,
    however it ends."""
    from ..formats import json as json_format

    held: list[DealRecord] = []
    runs: list[Path] = []
    scratch: tempfile.TemporaryDirectory[str] | None = None
    try:
        for record in records:
            held.append(record)
            if len(held) >= run:
                if scratch is None:
                    scratch = tempfile.TemporaryDirectory(prefix="tarot-sort-", dir=folder)
                path = Path(scratch.name) / f"run-{len(runs):06d}.jsonl"
                held.sort(key=key, reverse=reverse)
                with path.open("wb") as fh:
                    json_format.write(held, fh, lines=True)
                runs.append(path)
                held = []
        held.sort(key=key, reverse=reverse)
        if not runs:
            yield from held
            return

        def read_run(path: Path) -> Iterator[DealRecord]:
            for item in json_format.read(path):
                assert item.record is not None
                yield item.record

        streams = [read_run(p) for p in runs]
        yield from heapq.merge(*streams, iter(held), key=key, reverse=reverse)
    finally:
        if scratch is not None:
            with contextlib.suppress(OSError):
                scratch.cleanup()


#: Writes records to a binary file in some format; returns how many.
Writer = Callable[[Iterable[DealRecord], IO[bytes]], int]

#: Group files kept open at once while splitting by tags (the others are reopened).
OPEN_AT_ONCE: Final = 64


class Splitter:
    """Records sorted into files, one per deal or per value of some tags, made aside in a
    hidden folder inside ``folder`` and moved into place only by :meth:`place`: all the
    files or none. Memory holds the group names only; records are appended to their
    group's file (JSON Lines) as they come, then written in the output format.

    ``tags`` None makes one file per deal (named after its file and number); ``write``
    writes records in the output format, ``suffix`` is that format's file extension,
    ``lines`` says the format is JSON Lines (a group's file is then kept as it is).
    """

    def __init__(self, folder: Path, tags: list[str] | None, suffix: str, write: Writer,
                 *, lines: bool = False) -> None:
        self.folder = folder
        self.tags = tags
        self.suffix = suffix
        self.write = write
        self.lines = lines
        self.names = Names()
        self.scratch = tempfile.TemporaryDirectory(prefix=".tarot-split-", dir=folder)
        self.stage = Path(self.scratch.name)
        self.made: list[tuple[Path, str]] = []
        self.groups: dict[tuple[str | None, ...], tuple[str, Path]] = {}
        self.open: dict[tuple[str | None, ...], IO[bytes]] = {}

    def add(self, file: str, index: int, record: DealRecord) -> None:
        """One more deal, deal ``index`` of ``file``."""
        if self.tags is None:
            stem = "stdin" if file == "-" else Path(file).stem
            name = self.names.take(f"{safe_name(stem)}-{index:04d}", self.suffix)
            path = self.stage / f"{len(self.made):08d}"
            with path.open("wb") as one:
                self.write([record], one)
            self.made.append((path, name))
            return
        from ..formats import json as json_format

        key = tuple(find_tag(record.tags, tag) for tag in self.tags)
        if key not in self.groups:
            label = "-".join(safe_name(value) if value else f"no-{safe_name(tag)}"
                             for value, tag in zip(key, self.tags, strict=True))
            self.groups[key] = (self.names.take(label, self.suffix),
                                self.stage / f"{len(self.groups):08d}")
        fh = self.open.get(key)
        if fh is None:
            if len(self.open) >= OPEN_AT_ONCE:
                self.open.pop(next(iter(self.open))).close()
            fh = self.open[key] = self.groups[key][1].open("ab")
        fh.write(json_format.dumps_bytes(record) + b"\n")

    def finish(self) -> list[Path]:
        """Write each group in the output format (still aside); the targets, in order."""
        from ..formats import json as json_format

        for fh in self.open.values():
            fh.close()
        self.open.clear()
        for name, path in self.groups.values():
            if self.lines:
                self.made.append((path, name))
                continue
            final = path.with_suffix(".out")
            with final.open("wb") as fh:
                self.write((item.record for item in json_format.read(path)
                            if item.record is not None), fh)
            path.unlink()
            self.made.append((final, name))
        self.groups.clear()
        return [self.folder / name for _, name in self.made]

    def place(self) -> int:
        """Move every file made into place, each on the disk first; how many."""
        atomic.sync_tree(self.stage)
        for path, name in self.made:
            replace_into(path, self.folder / name)
        atomic.sync_folder(self.folder)
        return len(self.made)

    def close(self) -> None:
        """Remove what is left aside (everything, unless :meth:`place` ran)."""
        for fh in self.open.values():
            fh.close()
        self.open.clear()
        with contextlib.suppress(OSError):
            self.scratch.cleanup()

    def __enter__(self) -> Splitter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def replace_into(made: Path, target: Path) -> None:
    """Move a finished file into place, with the mode a new file would have."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(made, 0o666 & ~mask)
    os.replace(made, target)
