"""The tags of a stream's records skimmed, without reading the records
(:func:`skim_tags`): what the archive tools sort and select by."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

from ..fields import find_tag
from ..lexicon import TAG_RE, untag
from ..values import Value

if TYPE_CHECKING:
    # The grammar (lark) and the model (pydantic) are imported by the functions that use
    # them: a plain record the fast scanner reads and the quick check judges needs neither.

    pass
from .chunks import record_chunks

__all__ = ["SkimmedDeal", "skim_tags"]

class SkimmedDeal(Value):
    """The tags of one record, as written (Players, Seats… included), and where it starts."""

    __slots__ = ("index", "line", "offset", "tags")
    index: int
    tags: tuple[tuple[str, str], ...]
    line: int
    offset: int

    def __init__(self, index: int, tags: tuple[tuple[str, str], ...], line: int,
                 offset: int) -> None:
        setfield = object.__setattr__
        setfield(self, "index", index)
        setfield(self, "tags", tags)
        setfield(self, "line", line)
        setfield(self, "offset", offset)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag named ``name`` (case-insensitive), or ``default``."""
        return find_tag(self.tags, name, default)


def skim_tags(source: str | os.PathLike[str] | IO[str] | IO[bytes]) -> Iterator[SkimmedDeal]:
    """The tags and start of every record, without parsing the sections (for indexing).

    >>> import io
    >>> text = '[Deal "1"] [Players "4"]\\nresult: garde taker E\\n[Deal "2"]\\nplay: 1. 7H\\n'
    >>> [(d.index, d.tag("Deal"), d.line, d.offset) for d in skim_tags(io.StringIO(text))]
    [(1, '1', 1, 0), (2, '2', 3, 47)]
    """
    if isinstance(source, (str, os.PathLike)):
        with open(os.fspath(source), "rb") as fp:
            yield from _skim(fp)
    else:
        yield from _skim(source)


def _skim(source: IO[str] | IO[bytes]) -> Iterator[SkimmedDeal]:
    """The records as :func:`read` numbers them: a comment cut by a line that starts with
    ``[`` (an S005 the reader reports) goes on in the next chunk, which is no record of
    its own (its "tags" are the comment's words)."""
    index = 0
    inside = False
    for chunk in record_chunks(source, tags_only=True):
        first = chunk.lines[0] if chunk.lines else ""
        if inside and TAG_RE.sub("", first).strip():  # the rest of the comment before
            inside = chunk.in_comment
            continue
        inside = chunk.in_comment
        index += 1
        tags = tuple(
            (m.group(1), untag(m.group(2)))
            for line in chunk.lines for m in TAG_RE.finditer(line)
        )
        yield SkimmedDeal(index, tags, chunk.line, chunk.offset)
