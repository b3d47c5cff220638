"""The text notation (``.tarot``) as the format registry knows it.

The notation itself lives in :mod:`tarotnotation.notation` (its grammar, reader and
writer); this module only declares it as a :class:`~tarotnotation.formats.base.Format`,
importing the reader when a file is read, so that detecting a format or writing JSON never
loads the grammar.

>>> NOTATION.sniff(Head.of(b'[Event "Club"]')), NOTATION.sniff(Head.of(b"{a comment} hand"))
(True, True)
>>> NOTATION.sniff(Head.of(b'{"players": 4}')), NOTATION.sniff(Head.of(b"auction: pass"))
(False, True)
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Final

from ..lexicon import SECTIONS
from ..source import ReadDeal
from .base import Format, Head

if TYPE_CHECKING:
    from ..records import DealRecord

__all__ = ["NOTATION"]

#: A section keyword of the notation, in any of its spellings (lexicon.SECTIONS, without
#: the colon), as bytes.
_SECTION: Final = re.compile(
    ("(?:" + "|".join(sorted({re.escape(w.rstrip(":")) for w in SECTIONS}, key=len,
                             reverse=True)) + r")\b").encode(), re.IGNORECASE)


def _sniff(head: Head) -> bool:
    """A tag ``[Name``, a ``{comment}`` (a ``{`` that does not open JSON), or a section."""
    text = head.text
    if head.looks_like_json:
        return False
    return (text[:1] == b"{" or (text[:1] == b"[" and text[1:].lstrip()[:1].isalpha())
            or _SECTION.match(text) is not None)


def _read(stream: IO[bytes], name: str | None) -> Iterator[ReadDeal]:
    from .. import notation

    return notation.read(stream, name=name)


def _write(records: Iterable[DealRecord], fp: IO[bytes]) -> int:
    from .. import notation

    count = 0

    def counted() -> Iterator[DealRecord]:
        nonlocal count
        for record in records:
            count += 1
            yield record

    text = io.TextIOWrapper(fp, encoding="utf-8", newline="\n", write_through=True)
    try:
        notation.dump(counted(), text)
        text.flush()
    finally:
        text.detach()
    return count


NOTATION: Final = Format(
    name="tarot",
    title="the Tarot text notation",
    suffixes=(".tarot",),
    sniff=_sniff,
    read=_read,
    write=_write,
)
