"""Which format a file or a stream holds, from its first bytes (its name is only a fallback).

The formats are those of :mod:`tarotnotation.formats.registry`, asked in its order; each
says from the first bytes (a :class:`~tarotnotation.formats.base.Head`) whether the content
is its own:

========================  ===============================================================
``xlsx``                  an Excel workbook (a ZIP archive with ``xl/`` parts)
``foreign``               another ZIP archive (``.ods``, a backup) or a legacy Office file
                          (``.xls``): named, with what to do, not read
``scoreit``               a ScoreIt game (``{"type": "TAROT", …, "laps": […]}``)
``tarotclub``             a TarotClub played-deal log (a ``deal_info`` key)
``tarotclub-deal``        a TarotClub deal file, hands only (``FirstPlayer``, ``Dog``)
``matocolotoe``           a Matocolotoe month of games (a list of ``attack_score`` objects)
``matocolotoe-players``   Matocolotoe's ``players.json`` (no deal)
``jsonl``                 JSON Lines: a complete record object on the first line, and
                          another value after it
``json``                  one JSON value: a record object, an archive document
                          ``{"tarotnotation": 1, "deals": […]}`` or a list of records
``tarot``                 the text notation: a tag ``[Event "…"]``, a ``{comment}``, or
                          a section (``hand S:``, ``auction:``, ``result:``…)
``csv``                   a CSV score sheet: its first rows hold a sheet's header
========================  ===============================================================

A first line that holds one of the project's own records, in the layout it writes, is
told by the compiled scanner (:attr:`~tarotnotation.formats.base.Head.own_record`):
``jsonl``, or ``json`` when nothing follows it, without asking the other formats (none of
theirs starts so) or importing a JSON reader.

A UTF-8 byte order mark and leading white space are skipped. A JSON object is
``{`` followed by ``"`` or ``}``; any other ``{`` opens a notation comment, and ``[``
followed by a letter opens a notation tag. Content that looks like none of them (empty,
binary junk) takes the format of its extension, and the text notation when the extension
says nothing: its reader then reports what is wrong.

Detection reads at most :data:`HEAD` bytes, or the first line up to the limit of one record
(:data:`~tarotnotation.limits.MAX_JSON_RECORD_BYTES`) and 1 KiB after it: memory is bounded
whatever the input (``/dev/zero``, a line of a gigabyte). The stream is read once: the
caller goes on from the bytes read (:func:`detect_stream` returns them), so a pipe or a
FIFO is detected and read alike.

>>> sniff(b'[Event "Club"]\\n[Players "4"]\\nresult: garde taker E points 48')
'tarot'
>>> sniff(b'{"tarotnotation":1,"players":4}\\n{"tarotnotation":1,"players":3}\\n')
'jsonl'
>>> sniff(b'{\\n  "tarotnotation": 1,\\n  "players": 4\\n}\\n')
'json'
>>> sniff(b'{"version": "3", "deal_info": {"number_of_players": 4}, "tricks": []}')
'tarotclub'
>>> sniff(b'{"version":"3","FirstPlayer":"East","Dog":"","South":""}')
'tarotclub-deal'
>>> sniff(b'{"type":"TAROT","players":[],"laps":[]}')
'scoreit'
>>> sniff("Donne;Preneur;Contrat;Points;Bouts\\n1;Alice;Garde;48;2\\n".encode())
'csv'
>>> sniff(b'\\x00\\x01junk', suffix=".json"), sniff(b'', suffix=".txt")
('json', 'tarot')
>>> format_name("jsonl")
'JSON Lines (one record per line)'
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

from ..inputs import open_bytes
from ..limits import MAX_JSON_RECORD_BYTES
from . import registry
from .base import Format, Head

__all__ = [
    "FORMATS",
    "HEAD",
    "SUFFIXES",
    "BinaryError",
    "Prefixed",
    "binary_at",
    "detect",
    "detect_stream",
    "detected",
    "format_name",
    "read_head",
    "records_format",
    "sniff",
    "sniff_head",
]

if TYPE_CHECKING:  # (worked out when first asked for: see __getattr__ below)
    #: The formats told apart, and how a person names each.
    FORMATS: dict[str, str]
#: File extensions and the format each suggests (folders are searched for these).
SUFFIXES: Final = registry.SUFFIXES
#: How many bytes of a stream detection reads at first.
HEAD: Final = 1 << 16
_AFTER_LINE: Final = 1 << 10

format_name = registry.title


def __getattr__(name: str) -> Any:
    """``FORMATS``, worked out when first asked for (it imports every format)."""
    if name == "FORMATS":
        return {f.name: f.title for f in registry.FORMATS}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sniff_head(head: Head) -> Format:
    """The format of content that starts with ``head``: the first of the registry that
    says it is its own (of those whose gate it passes: no other is imported), else the
    format of the name's suffix, else the default."""
    if head.text:
        own = _own(head)
        if own is not None:
            return registry.get(own)
        for fmt in registry.asked(head):
            if fmt.sniff(head):
                return fmt
    return registry.by_suffix(head.suffix) or registry.DEFAULT


def sniff(head: bytes, *, suffix: str = "", complete: bool = False) -> str:
    """The format's name of content that starts with ``head``; ``suffix`` is the fallback.

    ``complete`` says that ``head`` is the whole content (it is then parsed whole when it
    looks like JSON, for an exact answer).
    """
    whole = Head.of(head, complete=complete, suffix=suffix)
    return _own(whole) or sniff_head(whole).name


def _own(head: Head) -> str | None:
    """``jsonl`` or ``json`` when the first line holds one of the project's records in
    the layout it writes (:attr:`~tarotnotation.formats.base.Head.own_record`), without
    asking the other formats (none of theirs starts so) or importing a format: what they
    would answer, found without a JSON reader (``tests/formats/test_detect.py`` holds the two
    ways to the same answer)."""
    if not head.own_record:
        return None
    return "jsonl" if head.more_lines else "json"


def read_head(fh: IO[bytes]) -> tuple[bytes, bool]:
    """The first bytes of a binary stream, as detection needs them: :data:`HEAD` bytes, or
    when no line ends in them, the first line (up to MAX_JSON_RECORD_BYTES) and 1 KiB
    after it (is another record next?). Returns them and whether they are the whole
    stream."""
    head = fh.read(HEAD)
    complete = len(head) < HEAD
    if not complete and b"\n" not in head:  # one long first line: a JSON Lines record?
        head += fh.readline(MAX_JSON_RECORD_BYTES + 1 - len(head))
        if head.endswith(b"\n"):
            head += fh.read(_AFTER_LINE)  # and what follows it: another record?
    return head, complete


def detect_stream(fh: IO[bytes], *, suffix: str = "") -> tuple[str, bytes]:
    """The format of a binary stream and the bytes read from it to tell (see
    :func:`read_head`); the caller reads on from there."""
    head, complete = read_head(fh)
    return sniff(head, suffix=suffix, complete=complete), head


def detect(path: str | Path) -> str:
    """The format of a file, from its content (its extension is only a fallback).

    Raises ``OSError`` when the file cannot be read.
    """
    with open_bytes(str(path)) as fh:
        return detect_stream(fh, suffix=Path(path).suffix)[0]


class BinaryError(ValueError):
    """The first bytes are binary (``/dev/zero``, an image, a program), and no format
    takes them: not a record. ``offset`` is where the first NUL byte is."""

    def __init__(self, offset: int) -> None:
        super().__init__(f"binary content: a NUL byte at byte offset {offset}")
        self.offset = offset


def binary_at(head: Head) -> int | None:
    """Where the first NUL byte of ``head`` is, when it is binary: NUL bytes at even and
    at odd offsets alike, and no UTF-16 or UTF-32 byte-order mark (text in UTF-16 has its
    NULs on one side only: the text reader says how to convert it). None for text.

    >>> binary_at(Head.of(bytes(4096))), binary_at(Head.of(b"PK\\x03\\x04\\x14\\x00\\x00\\x00"))
    (0, 5)
    >>> binary_at(Head.of("[Event]".encode("utf-16"))), binary_at(Head.of(b"[Ev\\x00nt]"))
    (None, None)
    """
    raw = head.raw
    first = raw.find(b"\x00")
    if first < 0 or raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    second = raw.find(b"\x00", first + 1)
    while second >= 0 and (second - first) % 2 == 0:
        second = raw.find(b"\x00", second + 1)
    return first if second >= 0 else None


def detected(fh: IO[bytes], *, suffix: str = "") -> tuple[Format, IO[bytes]]:
    """The format of a binary stream, and the stream to read from its start: the bytes
    read to tell, then the rest (the stream itself is read once, never sought).

    :class:`BinaryError` when no format takes the first bytes and they are binary
    (:func:`binary_at`): such a stream is not read on (``/dev/zero`` never ends)."""
    head, complete = read_head(fh)
    first = Head.of(head, complete=complete, suffix=suffix)
    fmt = _not_binary(first, sniff_head(first))
    return fmt, io.BufferedReader(Prefixed(head, fh)) if head else fh


def records_format(path: str | Path) -> str:
    """The format's name of a file's records, as :func:`detected` tells it (importing no
    format for one of the project's own records); :class:`BinaryError` when its first
    bytes are binary, ``OSError`` when it cannot be read."""
    with open_bytes(str(path)) as fh:
        head, complete = read_head(fh)
    first = Head.of(head, complete=complete, suffix=Path(path).suffix)
    return _own(first) or _not_binary(first, sniff_head(first)).name


def _not_binary(head: Head, fmt: Format) -> Format:
    """``fmt``, unless ``head`` is binary and ``fmt`` does not take it (it was only the
    fallback, the name's or the default): then :class:`BinaryError`."""
    offset = binary_at(head)
    if offset is not None and not fmt.sniff(head):
        raise BinaryError(offset)
    return fmt


class Prefixed(io.RawIOBase):
    """A binary stream: bytes already read (to detect the format), then the rest."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        """Always: it is read from."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from the head, then from the rest."""
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)
