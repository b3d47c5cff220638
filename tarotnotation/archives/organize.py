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
from pathlib import Path
from typing import Any, Final

from ..records import DealRecord, find_tag

__all__ = ["Names", "safe_name", "sort_key", "sorted_records"]

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


def record_key(tags: list[str], reverse: bool = False) -> Callable[[DealRecord], Any]:
    """The sort key of a record by the values of ``tags``."""

    def key(record: DealRecord) -> Any:
        return tuple(sort_key(find_tag(record.tags, tag)) for tag in tags)

    return key


#: Records held in memory at once while sorting (then a run is written to disk).
RUN: Final = 5000


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


def staging(folder: Path) -> tempfile.TemporaryDirectory[str]:
    """A hidden folder inside ``folder`` where files are made before they are moved into
    place (a rename within one file system), removed at the end."""
    return tempfile.TemporaryDirectory(prefix=".tarot-split-", dir=folder)


def replace_into(made: Path, target: Path) -> None:
    """Move a finished file into place, with the mode a new file would have."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(made, 0o666 & ~mask)
    os.replace(made, target)
