"""Where records come from: text positions, and one deal as a reader yields it.

Every format's reader yields :class:`ReadDeal` values, one per deal in its input, in
order. A deal that cannot be read at all has ``record`` None and diagnostics saying why;
the reader then goes on to the next deal, so one broken deal never stops an archive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic, Severity
from .values import Value

if TYPE_CHECKING:
    from .records import DealRecord
    from .replay import Replay

__all__ = ["ReadDeal", "SourceMap"]


class SourceMap(Value):
    """Text positions of a record's parts, by record path.

    Paths follow the JSON layout of a record, 0-based: ``auction[1]``,
    ``play[2].cards[0]``, ``hands.S``, ``result.scores.E``; ``""`` is the record's start.
    :meth:`locate` finds the position of the longest known prefix of a diagnostic's path.

    >>> from tarotnotation.diagnostics import Code, Diagnostic
    >>> m = SourceMap("club.tarot", {"": (1, 1), "play[2]": (14, 3), "play[2].cards[1]": (14, 6)})
    >>> d = Diagnostic.make(Code.NOT_IN_HAND, "E does not hold 7H", path="play[2].cards[1]")
    >>> m.locate(d).location.text_position()
    'club.tarot:14:6'
    >>> m.locate(Diagnostic.make(Code.WRONG_LEADER, "x", path="play[2]")).location.line
    14
    >>> m.locate(Diagnostic.make(Code.ALL_PASSED, "x", path="auction")).location.line
    1
    """

    __slots__ = ("file", "positions")
    file: str | None
    positions: Mapping[str, tuple[int, int]]

    def __init__(self, file: str | None = None,
                 positions: Mapping[str, tuple[int, int]] | None = None) -> None:
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "positions", {} if positions is None else positions)

    def locate(self, diagnostic: Diagnostic) -> Diagnostic:
        """A copy of ``diagnostic`` with this map's file, line and column."""
        if diagnostic.location.line is not None:
            return diagnostic
        path = diagnostic.location.path or ""
        while True:
            pos = self.positions.get(path)
            if pos is not None:
                return diagnostic.at(file=self.file, line=pos[0], col=pos[1])
            if not path:
                break
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return diagnostic.at(file=self.file) if self.file else diagnostic


class ReadDeal(Value):
    """One deal as a reader yields it: the record (None if unreadable) and what went wrong.

    ``index`` is the 1-based number of the deal in its input; ``line`` the line where it
    starts (text formats) and ``offset`` its byte or character offset, for indexing.
    ``index`` 0 is no deal but the input itself (:attr:`about_file`): it cannot be read,
    or it holds no deal (the ``F`` codes), as :func:`tarotnotation.archive.read_path` says.
    """

    __slots__ = ("diagnostics", "index", "line", "offset", "record", "source")
    index: int
    record: DealRecord | None
    diagnostics: tuple[Diagnostic, ...]
    source: SourceMap | None
    line: int | None
    offset: int | None

    def __init__(self, index: int, record: DealRecord | None,
                 diagnostics: tuple[Diagnostic, ...] = (), source: SourceMap | None = None,
                 line: int | None = None, offset: int | None = None) -> None:
        setfield = object.__setattr__
        setfield(self, "index", index)
        setfield(self, "record", record)
        setfield(self, "diagnostics", diagnostics)
        setfield(self, "source", source)
        setfield(self, "line", line)
        setfield(self, "offset", offset)

    @property
    def about_file(self) -> bool:
        """True for what is said of the input as a whole (index 0), not of one deal."""
        return self.index == 0

    @property
    def ok(self) -> bool:
        """True when the deal was read without an error."""
        return self.record is not None and not any(
            d.severity is Severity.ERROR for d in self.diagnostics
        )

    def replay(self, *, causes: bool = True) -> Replay:
        """What the rules make of this deal (:func:`tarotnotation.replay.replay`), its
        faults located in its file; ValueError for a deal that could not be read.

        When one slip explains many faults (a trick written from the wrong seat…), the
        slip is said once as a ``Y`` cause and the faults that follow from it are marked
        (:func:`tarotnotation.causes.explain`), as ``tarot validate`` says them;
        ``causes=False`` gives the replay's faults as they are.

        >>> from tarotnotation import notation
        >>> [deal] = notation.read("examples/faulty/revoke.tarot")
        >>> print(deal.replay().diagnostics[0])
        examples/faulty/revoke.tarot:21:8: P105 error: deal 1, trick 3, seat S, card T19: ...
        """
        from .causes import explain  # the replay and the causes are layers above the readers
        from .replay import replay

        if self.record is None:
            raise ValueError(f"deal {self.index} could not be read: nothing to replay")
        rep = replay(self.record, deal=self.index, source=self.source)
        return explain(rep, deal=self.index, source=self.source) if causes else rep
