"""What a record format declares to the registry: :class:`Format`, and :class:`Head`, the
first bytes of an input as detection sees them.

A format module (``formats/json.py``, ``formats/tarotclub.py``, ``formats/text.py``…)
declares one :class:`Format` per format it holds; :mod:`tarotnotation.formats.registry`
lists them, in the order detection asks them. Nothing here imports a format, so a format
module and the registry never import each other.

>>> head = Head.of(b'\\xef\\xbb\\xbf  {"players": 4}\\n{"players": 3}\\n')
>>> head.text[:14], head.looks_like_json, head.line_object, head.more_lines
(b'{"players": 4}', True, {'players': 4}, True)
>>> Head.of(b'[Event "x"]').looks_like_json, Head.of(b"[{").looks_like_json
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any, Final

from ..source import ReadDeal
from ..values import Value

if TYPE_CHECKING:  # (the model: imported by the readers and writers that build records)
    from ..records import DealRecord

__all__ = ["BOM", "Format", "Head", "Reader", "Writer"]

BOM: Final = b"\xef\xbb\xbf"

#: Reads every deal of an open binary stream (``name`` goes into diagnostics). It reads
#: the stream as it comes, from where it stands, and never seeks: a FIFO works.
Reader = Callable[[IO[bytes], "str | None"], Iterator[ReadDeal]]
#: Writes records to an open binary stream as they come; returns how many were written.
Writer = Callable[[Iterable["DealRecord"], IO[bytes]], int]


class Head(Value):
    """The first bytes of an input (at most :data:`~tarotnotation.formats.registry.HEAD`
    of them, or the first line and a little more), as each format's ``sniff`` sees them.

    ``complete`` says that ``raw`` is the whole input. The parsed views are worked out
    once, when a format first asks for them.
    """

    raw: bytes
    complete: bool
    suffix: str

    def __init__(self, raw: bytes, complete: bool = False, suffix: str = "") -> None:
        object.__setattr__(self, "raw", raw)
        object.__setattr__(self, "complete", complete)
        object.__setattr__(self, "suffix", suffix)

    @classmethod
    def of(cls, raw: bytes, *, complete: bool = False, suffix: str = "") -> Head:
        """The head of content starting with ``raw``."""
        return cls(raw, complete, suffix.lower())

    @cached_property
    def text(self) -> bytes:
        """The bytes after a UTF-8 byte-order mark and leading white space."""
        raw = self.raw[len(BOM):] if self.raw.startswith(BOM) else self.raw
        return raw.lstrip()

    @cached_property
    def looks_like_json(self) -> bool:
        """``{`` followed by ``"`` or ``}``, or ``[`` followed by ``{``, ``]`` or nothing:
        JSON (any other ``{`` opens a notation comment, ``[`` and a letter a tag)."""
        text = self.text
        if text.startswith(b"{"):
            return text[1:].lstrip()[:1] in (b'"', b"}")
        if text.startswith(b"["):
            return text[1:].lstrip()[:1] in (b"{", b"]", b"")
        return False

    @cached_property
    def own_record(self) -> bool:
        """The first line holds one of the project's records whole, in the layout it
        writes, as the compiled scanner reads it (``_kernel.scan_json`` takes an object
        with a record's keys only, nothing after it); False without the compiled core.
        No other format's content starts so, so detection needs ask no other and needs
        no JSON reader (:func:`tarotnotation.formats.detect.sniff`)."""
        if not self.text.startswith(b'{"'):
            return False
        from .. import native

        twin = native.compiled()
        first = self.text.partition(b"\n")[0].rstrip(b" \t\r")
        return twin is not None and twin.scan_json(first) is not None

    @cached_property
    def line_object(self) -> dict[str, Any] | None:
        """The JSON object written whole on the first line, or None."""
        if not self.text.startswith(b"{"):
            return None
        import orjson  # (here: a head of the notation needs no JSON reader)

        first = self.text.partition(b"\n")[0]
        try:
            obj = orjson.loads(first)
        except orjson.JSONDecodeError:
            return None
        return obj if isinstance(obj, dict) else None

    @cached_property
    def whole_object(self) -> dict[str, Any] | None:
        """The JSON object the whole input holds, when the head is the whole input and it
        is not already an object on one line; else None."""
        if not self.complete or self.line_object is not None or not self.text.startswith(
                b"{"):
            return None
        import orjson

        try:
            obj = orjson.loads(self.text)
        except orjson.JSONDecodeError:
            return None
        return obj if isinstance(obj, dict) else None

    @property
    def json_object(self) -> dict[str, Any] | None:
        """The object of the first line, or of the whole input; None when neither parses
        (a long pretty-printed object, broken JSON)."""
        return self.line_object if self.line_object is not None else self.whole_object

    @cached_property
    def more_lines(self) -> bool:
        """Something other than white space after the first line."""
        return bool(self.text.partition(b"\n")[2].strip())


class Format(Value):
    """A record format, as the registry knows it.

    ``sniff`` answers from the first bytes whether the input is in this format (the
    registry asks the formats in its order; the first that says yes wins). ``read`` reads
    every deal of an already-open binary stream; ``write`` writes records to one (None:
    the format is read only). ``cannot_hold`` lists, in short phrases, what a file of this
    format written from a record loses (empty when nothing is); ``one_deal`` says a file
    holds one deal; ``holds_deals`` is False for a companion file with no deal.
    """

    name: str
    """The id on the command line and in the API (``tarot``, ``jsonl``)."""
    title: str
    """How a person names it (``JSON Lines (one record per line)``)."""
    suffixes: tuple[str, ...]
    """File name endings that suggest it (lower case, with the dot); folders are searched
    for these."""
    sniff: Callable[[Head], bool]
    read: Reader
    write: Writer | None
    cannot_hold: Callable[[DealRecord], list[str]] | None
    one_deal: bool
    holds_deals: bool
    """False for a file that goes with record files and holds none (Matocolotoe's
    ``players.json``): reading it gives nothing, and that is no fault (no F005)."""
    written_suffix: str | None
    """The ending of a file written in this format, when it is not the first of
    ``suffixes`` (a TarotClub log is a ``.json`` file that JSON's name claims)."""

    def __init__(self, name: str, title: str, suffixes: tuple[str, ...],
                 sniff: Callable[[Head], bool], read: Reader, write: Writer | None = None,
                 cannot_hold: Callable[[DealRecord], list[str]] | None = None,
                 one_deal: bool = False, holds_deals: bool = True,
                 written_suffix: str | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "name", name)
        setfield(self, "title", title)
        setfield(self, "suffixes", suffixes)
        setfield(self, "sniff", sniff)
        setfield(self, "read", read)
        setfield(self, "write", write)
        setfield(self, "cannot_hold", cannot_hold)
        setfield(self, "one_deal", one_deal)
        setfield(self, "holds_deals", holds_deals)
        setfield(self, "written_suffix", written_suffix)

    @property
    def file_suffix(self) -> str:
        """The ending of a file written in this format (``.tarot``, ``.jsonl``)."""
        return self.written_suffix or (self.suffixes[0] if self.suffixes else "")

    def __repr__(self) -> str:
        return f"<Format {self.name}>"
