"""Every record format in one table: its name, its file names, how it is told from its
first bytes, how it is read and written, and what it cannot hold.

Everything that deals with more than one format looks it up here: detection
(:mod:`tarotnotation.formats.detect`), the archive reader (:mod:`tarotnotation.archive`),
and the command line (``tarot convert --to``, ``tarot validate``, the output files of every
command). **Adding a format** is one module that declares a
:class:`~tarotnotation.formats.base.Format` (its reader reads an already-open binary
stream, so standard input and named pipes work; see ``docs/architecture.md``) and one line
in :data:`FORMATS`, in the order detection asks: the first format whose ``sniff`` says yes
wins, so a format whose content also looks like another's comes before it.

>>> names()  # doctest: +NORMALIZE_WHITESPACE
('xlsx', 'scoreit', 'tarotclub', 'tarotclub-deal', 'matocolotoe', 'matocolotoe-players',
 'jsonl', 'json', 'tarot', 'csv')
>>> names(writable=True)
('tarotclub', 'jsonl', 'json', 'tarot', 'csv')
>>> by_suffix(".NDJSON").name, by_suffix("club/deal.tarot").name, by_suffix(".txt")
('jsonl', 'tarot', None)
>>> by_suffix("scores.json").name, by_suffix("saison.XLSX").name
('json', 'xlsx')
>>> get("jsonl").title
'JSON Lines (one record per line)'
>>> get("pgn")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tarotnotation.formats.registry.UnknownFormatError: unknown format 'pgn': expected ...
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Final

from .base import Format, Head
from .csvsheet import CSV
from .json import JSON, JSON_LINES
from .matocolotoe import MATOCOLOTOE, MATOCOLOTOE_PLAYERS
from .scoreit import SCOREIT
from .tarotclub import DEAL_FILE, LOG
from .text import NOTATION
from .xlsx import XLSX

__all__ = [
    "DEFAULT",
    "FORMATS",
    "SUFFIXES",
    "Format",
    "Head",
    "UnknownFormatError",
    "by_suffix",
    "get",
    "listed",
    "names",
    "title",
]

#: Every format, in the order detection asks them.
FORMATS: Final[tuple[Format, ...]] = (
    XLSX,  # a ZIP archive with xl/ parts
    SCOREIT,  # a JSON object: "type" first, or type and laps
    LOG,  # TarotClub's logs and deal files: JSON told by their keys, before any record
    DEAL_FILE,
    MATOCOLOTOE,  # a JSON list of games (attack_score)
    MATOCOLOTOE_PLAYERS,  # a JSON list of {"id", "name"}, whole in the head
    JSON_LINES,  # a whole record object on the first line, and more after it
    JSON,  # any other JSON: a record, an archive document, a list
    NOTATION,  # a tag, a comment, a section keyword
    CSV,  # text whose first rows hold a score sheet's header (last: any text could be)
)
#: What content that looks like no format is read as, when its file name says nothing.
DEFAULT: Final = NOTATION

_BY_NAME: Final = {f.name: f for f in FORMATS}
#: File name endings (lower case) and the format each suggests: the first format that
#: declares it. Folders are searched for files with these endings.
SUFFIXES: Final = {s: f.name for f in reversed(FORMATS) for s in f.suffixes}
assert len(_BY_NAME) == len(FORMATS), "two formats share a name"


class UnknownFormatError(ValueError):
    """A format name that the registry does not know."""


def get(name: str) -> Format:
    """The format named ``name`` (case and surrounding spaces ignored)."""
    fmt = _BY_NAME.get(name.strip().lower())
    if fmt is None:
        raise UnknownFormatError(f"unknown format {name!r}: expected {listed(names())}")
    return fmt


def names(*, writable: bool = False) -> tuple[str, ...]:
    """The names of the formats (only those that can be written, with ``writable``)."""
    return tuple(f.name for f in FORMATS if f.write is not None or not writable)


def by_suffix(name: str | PurePath) -> Format | None:
    """The format a file name's ending suggests (``.tarot``, or ``club/deal.jsonl``)."""
    text = str(name)
    suffix = text if text.startswith(".") and "/" not in text else PurePath(text).suffix
    found = SUFFIXES.get(suffix.lower())
    return None if found is None else _BY_NAME[found]


def title(name: str) -> str:
    """How a person names a format id (the id itself when it is unknown)."""
    fmt = _BY_NAME.get(name)
    return name if fmt is None else fmt.title


def listed(words: tuple[str, ...] | list[str]) -> str:
    """``a, b or c``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
