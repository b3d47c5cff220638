"""Where records come from: text positions, and one deal as a reader yields it.

Every format's reader yields :class:`ReadDeal` values, one per deal in its input, in
order. A deal that cannot be read at all has ``record`` None and diagnostics saying why;
the reader then goes on to the next deal, so one broken deal never stops an archive.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from .diagnostics import Diagnostic, Severity
from .values import Value

if TYPE_CHECKING:
    from .records import DealRecord
    from .replay import Replay

__all__ = ["ReadDeal", "ReadDealFailed", "ReadDealOk", "SourceMap", "read_deal"]


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


class _ReadDealType:
    """What both kinds of :data:`ReadDeal` have: the deal's place and what it is said to
    be, and :meth:`replay`. At run time ``ReadDeal`` is this class: ``isinstance(x,
    ReadDeal)`` holds for both kinds, and ``ReadDeal(...)`` still builds the right kind,
    with a DeprecationWarning naming :func:`read_deal` (typed code cannot call a union)."""

    __slots__ = ()
    index: int
    record: DealRecord | None
    diagnostics: tuple[Diagnostic, ...]
    source: SourceMap | None
    line: int | None
    offset: int | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is _ReadDealType:
            warnings.warn("ReadDeal(...) is deprecated: call tarotnotation.source.read_deal"
                          "(...), which gives a ReadDealOk or a ReadDealFailed",
                          DeprecationWarning, stacklevel=2)
            return read_deal(*args, **kwargs)
        return object.__new__(cls)

    @property
    def about_file(self) -> bool:
        """True for what is said of the input as a whole (index 0), not of one deal."""
        return self.index == 0

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


class ReadDealOk(Value, _ReadDealType):
    """A deal read without an error: ``ok`` is True and ``record`` is the record (see
    :data:`ReadDeal`; :func:`read_deal` builds the right kind: as every value class, this
    one does not check what it is given)."""

    __slots__ = ("diagnostics", "index", "line", "offset", "record", "source")
    index: int
    record: DealRecord
    diagnostics: tuple[Diagnostic, ...]
    source: SourceMap | None
    line: int | None
    offset: int | None

    def __init__(self, index: int, record: DealRecord,
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
    def ok(self) -> Literal[True]:
        """True: the deal was read without an error."""
        return True


class ReadDealFailed(Value, _ReadDealType):
    """A deal read with an error, or not read at all (``record`` None): ``ok`` is False
    (see :data:`ReadDeal`, built by :func:`read_deal`)."""

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
    def ok(self) -> Literal[False]:
        """False: the deal could not be read, or was read with an error."""
        return False


if TYPE_CHECKING:
    ReadDeal: TypeAlias = ReadDealOk | ReadDealFailed
else:
    ReadDeal = _ReadDealType
"""One deal as a reader yields it: the record (None if unreadable) and what went wrong.

A :class:`ReadDealOk` (``ok`` True: ``record`` is the record, no error) or a
:class:`ReadDealFailed` (``ok`` False: ``record`` None when the deal could not be read at
all, else the record that holds an error); checking ``ok`` narrows ``record`` for a type
checker. :func:`read_deal` builds the right kind.

``index`` is the 1-based number of the deal in its input; ``line`` the line where it
starts (text formats) and ``offset`` its byte or character offset, for indexing.
``index`` 0 is no deal but the input itself (:attr:`about_file`): it cannot be read,
or it holds no deal (the ``F`` codes), as :func:`tarotnotation.archive.read_path` says.
"""


def read_deal(index: int, record: DealRecord | None, diagnostics: tuple[Diagnostic, ...] = (),
              source: SourceMap | None = None, line: int | None = None,
              offset: int | None = None) -> ReadDeal:
    """The :data:`ReadDeal` of a deal: a :class:`ReadDealOk` when ``record`` was read
    without an error, else a :class:`ReadDealFailed`.

    >>> from tarotnotation.diagnostics import Code, Diagnostic
    >>> gone = read_deal(2, None, (Diagnostic.make(Code.ALL_PASSED, "x"),))
    >>> type(gone).__name__, gone.ok, gone.record, isinstance(gone, ReadDeal)
    ('ReadDealFailed', False, None, True)
    """
    if record is not None and not any(d.severity is Severity.ERROR for d in diagnostics):
        return ReadDealOk(index, record, diagnostics, source, line, offset)
    return ReadDealFailed(index, record, diagnostics, source, line, offset)
