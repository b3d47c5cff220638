"""Every record format in one table: its name, its file names, how it is told from its
first bytes, how it is read and written, and what it cannot hold.

Everything that deals with more than one format looks it up here: detection
(:mod:`tarotnotation.formats.detect`), the archive reader (:mod:`tarotnotation.archive`),
and the command line (``tarot convert --to``, ``tarot validate``, the output files of every
command). **Adding a format** is one module that declares a
:class:`~tarotnotation.formats.base.Format` (its reader reads an already-open binary
stream, so standard input and named pipes work; see ``docs/architecture.md``) and one line
in the registry's table, in the order detection asks: the first format whose ``sniff`` says
yes wins, so a format whose content also looks like another's comes before it.

Detection asks only the formats that could say yes: each line of the registry names the
module that declares the format and a *gate*, what every ``sniff`` of its family needs of
the first bytes (a ZIP archive, text that looks like JSON, text that does not), and a
module is imported when its format is first asked or looked up. Checking one ``.tarot``
file so imports no JSON, spreadsheet or TarotClub reader (issue 17's start-up);
``tests/formats/test_format_registry.py`` holds each format to its line.

>>> names()  # doctest: +NORMALIZE_WHITESPACE
('xlsx', 'foreign', 'scoreit', 'tarotclub', 'tarotclub-deal', 'matocolotoe',
 'matocolotoe-players', 'jsonl', 'json', 'tarot', 'csv')
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

import importlib
from collections.abc import Callable, Iterator
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Final

from .base import Format, Head

__all__ = [
    "DEFAULT",
    "FORMATS",
    "SUFFIXES",
    "Entry",
    "Format",
    "Head",
    "UnknownFormatError",
    "asked",
    "by_suffix",
    "entries",
    "get",
    "listed",
    "names",
    "title",
]

if TYPE_CHECKING:  # (worked out when first asked for: see __getattr__ below)
    #: Every format, in the order detection asks them (importing every format module).
    FORMATS: tuple[Format, ...]
    #: What content that looks like no format is read as, when its name says nothing.
    DEFAULT: Format


def _zip(head: Head) -> bool:
    """A ZIP archive (a workbook)."""
    return head.raw.startswith(b"PK\x03\x04")


def _container(head: Head) -> bool:
    """A ZIP archive or a legacy Office file (a Compound File)."""
    return head.raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"))


def _json(head: Head) -> bool:
    """Text that looks like JSON (``{"``, ``[{``…)."""
    return head.looks_like_json


def _array(head: Head) -> bool:
    """Text that opens a JSON array, whatever its first element: ``[`` and no notation
    tag's name (``[Event``)."""
    if not head.text.startswith(b"["):
        return False
    first = head.text[1:].lstrip()
    return not first[:1].isalpha() or first.startswith((b"null", b"true", b"false"))


def _text(head: Head) -> bool:
    """Text that does not look like JSON (a notation tag or comment, a CSV row)."""
    return not head.looks_like_json


class Entry:
    """A line of the registry: a format's ``name``, its file name ``suffixes``, whether it
    can be written, the module (under ``tarotnotation.formats``) and the name it is
    declared by, and its ``gate``: what its ``sniff`` needs of the head to say yes."""

    __slots__ = ("attr", "gate", "module", "name", "suffixes", "writable")

    def __init__(self, name: str, suffixes: tuple[str, ...], writable: bool, module: str,
                 attr: str, gate: Callable[[Head], bool]) -> None:
        self.name, self.suffixes, self.writable = name, suffixes, writable
        self.module, self.attr, self.gate = module, attr, gate

    def load(self) -> Format:
        """The format itself (its module imported the first time)."""
        fmt = _LOADED.get(self.name)
        if fmt is None:
            module = importlib.import_module(f"{__package__}.{self.module}")
            fmt = _LOADED[self.name] = getattr(module, self.attr)
        return fmt

    def __repr__(self) -> str:
        return f"<Entry {self.name}: {self.module}.{self.attr}>"


#: Every format, in the order detection asks them.
_ENTRIES: Final[tuple[Entry, ...]] = (
    # a ZIP archive with xl/ parts
    Entry("xlsx", (".xlsx", ".xlsm"), False, "xlsx", "XLSX", _zip),
    # any other ZIP archive (.ods, a backup) or a legacy Office file (.xls): named, not read
    Entry("foreign", (".ods", ".xls", ".zip"), False, "foreign", "FOREIGN", _container),
    # a JSON object: "type" first, or type and laps
    Entry("scoreit", (), False, "scoreit", "SCOREIT", _json),
    # TarotClub's logs and deal files: JSON told by their keys, before any record
    Entry("tarotclub", (), True, "tarotclub", "LOG", _json),
    Entry("tarotclub-deal", (), False, "tarotclub", "DEAL_FILE", _json),
    # a JSON list of games (attack_score), whatever its first element
    Entry("matocolotoe", (), False, "matocolotoe", "MATOCOLOTOE", _array),
    # a JSON list of {"id", "name"}, whole in the head
    Entry("matocolotoe-players", (), False, "matocolotoe", "MATOCOLOTOE_PLAYERS", _json),
    # a whole record object on the first line, and more after it
    Entry("jsonl", (".jsonl", ".ndjson"), True, "json", "JSON_LINES", _json),
    # any other JSON: a record, an archive document, a list
    Entry("json", (".json",), True, "json", "JSON", _json),
    # a tag, a comment, a section keyword
    Entry("tarot", (".tarot",), True, "text", "NOTATION", _text),
    # text whose first rows hold a score sheet's header (last: any text could be)
    Entry("csv", (".csv", ".tsv"), True, "csvsheet", "CSV", _text),
)
#: The name of the format content that looks like no format is read as.
_DEFAULT: Final = "tarot"
_LOADED: dict[str, Format] = {}
_BY_NAME: Final = {e.name: e for e in _ENTRIES}
#: File name endings (lower case) and the format each suggests: the first format that
#: declares it. Folders are searched for files with these endings.
SUFFIXES: Final = {s: e.name for e in reversed(_ENTRIES) for s in e.suffixes}
assert len(_BY_NAME) == len(_ENTRIES), "two formats share a name"


def __getattr__(name: str) -> Any:
    """``FORMATS`` and ``DEFAULT``, worked out when first asked for."""
    if name == "FORMATS":
        return tuple(e.load() for e in _ENTRIES)
    if name == "DEFAULT":
        return _BY_NAME[_DEFAULT].load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class UnknownFormatError(ValueError):
    """A format name that the registry does not know."""


def entries() -> tuple[Entry, ...]:
    """The registry's lines, in the order detection asks them (nothing imported)."""
    return _ENTRIES


def asked(head: Head) -> Iterator[Format]:
    """The formats detection asks about ``head``, in order: those whose gate it passes
    (only their modules are imported)."""
    return (e.load() for e in _ENTRIES if e.gate(head))


def get(name: str) -> Format:
    """The format named ``name`` (case and surrounding spaces ignored)."""
    entry = _BY_NAME.get(name.strip().lower())
    if entry is None:
        raise UnknownFormatError(f"unknown format {name!r}: expected {listed(names())}")
    return entry.load()


def names(*, writable: bool = False) -> tuple[str, ...]:
    """The names of the formats (only those that can be written, with ``writable``)."""
    return tuple(e.name for e in _ENTRIES if e.writable or not writable)


def by_suffix(name: str | PurePath) -> Format | None:
    """The format a file name's ending suggests (``.tarot``, or ``club/deal.jsonl``)."""
    text = str(name)
    suffix = text if text.startswith(".") and "/" not in text else PurePath(text).suffix
    found = SUFFIXES.get(suffix.lower())
    return None if found is None else _BY_NAME[found].load()


def title(name: str) -> str:
    """How a person names a format id (the id itself when it is unknown)."""
    entry = _BY_NAME.get(name)
    return name if entry is None else entry.load().title


def listed(words: tuple[str, ...] | list[str]) -> str:
    """``a, b or c``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
