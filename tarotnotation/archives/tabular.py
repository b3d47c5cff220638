"""Tables of deals: chosen fields of each deal, as aligned text, CSV or JSON Lines.

``tarot query --fields contract,taker,made,margin --format table-csv`` prints one row per
matching deal. A column is a field of the query language (:data:`~.query.FIELDS`), a
tag (a name with a capital), or one of ``line`` and ``scores``.

>>> from tarotnotation.archives.stream import scan
>>> [deal] = scan(["examples/garde-poignee.tarot"])
>>> cols = columns("Site,contract,taker,made,margin,scores")
>>> [cell(deal.summary, c) for c in cols]
['Lyon', 'garde', 'Alice Martin', False, -13, 'S:-288 E:+96 N:+96 W:+96']
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Any, Final

import orjson

from ..i18n import Msg, pmsg, render
from .query import FIELDS, READ_FIELDS
from .safety import for_csv, for_terminal, ljust, width
from .summary import DealSummary

__all__ = ["DEFAULT_COLUMNS", "TABLE_FORMATS", "Column", "TableWriter", "cell", "columns"]

#: The formats of a table.
TABLE_FORMATS: Final = ("table", "table-csv", "table-jsonl")
#: The columns of a table when none is named.
DEFAULT_COLUMNS: Final = "file,deal,contract,taker,partner,made,margin,points,bouts"

Cell = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its heading and how a deal's cell is worked out."""

    name: str
    get: Callable[[DealSummary], Cell]

    @property
    def needs_replay(self) -> bool:
        """True when only the replay knows the cell (see :attr:`.Query.needs_replay`)."""
        return not (self.name[:1].isupper() or self.name in READ_FIELDS
                    or self.name in ("line", "names"))


def _points(s: DealSummary) -> Cell:
    if s.taker_half is None:
        return None
    return s.taker_half // 2 if s.taker_half % 2 == 0 else s.taker_half / 2


def _scores(s: DealSummary) -> Cell:
    scores = s.scores_in_order
    if scores is None:
        return None
    return " ".join(f"{seat}:{value:+d}" for seat, value in zip(s.seats, scores, strict=True))


def _seat(getter: Callable[[DealSummary, int], Any]) -> Callable[[DealSummary], Cell]:
    def get(s: DealSummary) -> Cell:
        seat = getter(s, -1)
        return None if seat is None else s.player(seat)

    return get


def _plain(getter: Callable[[DealSummary, int], Any]) -> Callable[[DealSummary], Cell]:
    def get(s: DealSummary) -> Cell:
        value: Any = getter(s, -1)
        if value is None or (isinstance(value, (bool, int, float)) and not hasattr(
                value, "value")):
            return value
        if isinstance(value, tuple):
            return ",".join(str(getattr(v, "value", v)) for v in value if v is not None)
        keyword = getattr(value, "keyword", None)
        if keyword is not None:
            return str(keyword)
        return str(getattr(value, "value", value))

    return get


def _tag(name: str) -> Callable[[DealSummary], Cell]:
    def get(s: DealSummary) -> Cell:
        return s.tag(name)

    return get


_EXTRA: Final[dict[str, Callable[[DealSummary], Cell]]] = {
    "line": lambda s: s.line,
    "scores": _scores,
    "points": _points,
    "names": lambda s: "; ".join(s.player(i) for i in range(s.players)),
}


#: The headings of an aligned table (for people, in the run's language); a tag keeps its
#: name, and ``table-csv`` and ``table-jsonl`` keep the fields' names (machine keys).
HEADINGS: Final = {
    "players": pmsg("column", "players"),
    "contract": pmsg("column", "contract"),
    "taker": pmsg("column", "taker"),
    "partner": pmsg("column", "partner"),
    "dealer": pmsg("column", "dealer"),
    "called_self": pmsg("column", "called_self"),
    "made": pmsg("column", "made"),
    "margin": pmsg("column", "margin"),
    "points": pmsg("column", "points"),
    "bouts": pmsg("column", "bouts"),
    "petit_au_bout": pmsg("column", "petit_au_bout"),
    "chelem": pmsg("column", "chelem"),
    "chelem_announced": pmsg("column", "chelem_announced"),
    "poignee": pmsg("column", "poignee"),
    "poignees": pmsg("column", "poignees"),
    "taker_score": pmsg("column", "taker_score"),
    "status": pmsg("column", "status"),
    "tricks": pmsg("column", "tricks"),
    "errors": pmsg("column", "errors"),
    "warnings": pmsg("column", "warnings"),
    "valid": pmsg("column", "valid"),
    "names": pmsg("column", "names"),
    "file": pmsg("column", "file"),
    "deal": pmsg("column", "deal"),
    "ruleset": pmsg("column", "ruleset"),
    "player": pmsg("column", "player"),
    "score": pmsg("column", "score"),
    "camp": pmsg("column", "camp"),
    "line": pmsg("column", "line"),
    "scores": pmsg("column", "scores"),
}


def heading(name: str, lang: str | None = None) -> str:
    """A column's heading in an aligned table, in ``lang`` (default: the run's).

    >>> heading("taker", "fr"), heading("Event", "fr"), heading("taker", "en")
    ('preneur', 'Event', 'taker')
    """
    word = HEADINGS.get(name)
    return render(word, lang) if word is not None else name


def columns(spec: str) -> list[Column]:
    """The columns a comma-separated list names; ``ValueError`` names an unknown one."""
    out = []
    for raw in spec.split(","):
        name = raw.strip()
        if not name:
            continue
        if name in _EXTRA:
            out.append(Column(name, _EXTRA[name]))
        elif name[:1].isupper():
            out.append(Column(name, _tag(name)))
        elif name in FIELDS:
            field = FIELDS[name]
            if field.per_player:
                raise ValueError(Msg("{name} is a field of one player (for --where), not a"
                                     " column: use names or scores", name=name))
            get = _seat(field.get) if field.kind == "seat" else _plain(field.get)
            out.append(Column(name, get))
        else:
            known = sorted({*(n for n, f in FIELDS.items() if not f.per_player), *_EXTRA})
            raise ValueError(Msg("unknown column '{name}': the columns are {known}, or a tag"
                                 " written with a capital (Event, Date...)", name=name,
                                 known=", ".join(known)))
    if not out:
        raise ValueError(Msg("no column named"))
    return out


def cell(summary: DealSummary, column: Column) -> Cell:
    """The cell of one deal in one column."""
    return column.get(summary)


def _text(value: Cell, people: bool = False) -> str:
    """A cell as text: yes and no in the run's language for ``people`` (an aligned
    table), in English for a spreadsheet (the CSV's values do not change)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        word = Msg("yes") if value else Msg("no")
        return render(word) if people else str(word)
    return str(value)


class TableWriter:
    """Rows written as they come: ``table`` (aligned text, widths from the first rows),
    ``table-csv`` (for a spreadsheet) or ``table-jsonl`` (one object per row)."""

    SAMPLE: Final = 200
    """Rows held to work out the widths of an aligned table."""

    def __init__(self, fmt: str, cols: list[Column], out: IO[str]) -> None:
        self.fmt = fmt
        self.cols = cols
        self.out = out
        self.held: list[list[str]] = []
        self.widths: list[int] | None = None
        self.count = 0
        if fmt == "table-csv":
            self.csv = csv.writer(out, lineterminator="\n")
            self.csv.writerow([c.name for c in cols])

    def row(self, summary: DealSummary) -> None:
        """Add one deal's row."""
        self.count += 1
        values = [c.get(summary) for c in self.cols]
        if self.fmt == "table-jsonl":
            self.out.write(orjson.dumps(dict(zip((c.name for c in self.cols), values,
                                                 strict=True))).decode() + "\n")
            return
        if self.fmt == "table-csv":
            self.csv.writerow([for_csv(v) if isinstance(v, str) else _text(v)
                               for v in values])
            return
        cells = [for_terminal(_text(v, people=True)) for v in values]
        if self.widths is None:
            self.held.append(cells)
            if len(self.held) >= self.SAMPLE:
                self._flush()
        else:
            self._line(cells)

    def _flush(self) -> None:
        rows = self.held
        heads = [for_terminal(heading(c.name)) for c in self.cols]
        self.widths = [max([width(h), *(width(r[i]) for r in rows)])
                       for i, h in enumerate(heads)]
        self._line(heads)
        for cells in rows:
            self._line(cells)
        self.held = []

    def _line(self, cells: Iterable[str]) -> None:
        assert self.widths is not None
        parts = []
        for i, text in enumerate(cells):
            columns = self.widths[i]
            if width(text) > columns:
                self.widths[i] = columns = width(text)
            parts.append(ljust(text, columns))
        self.out.write("  ".join(parts).rstrip() + "\n")

    def close(self) -> None:
        """End the table (an aligned table held fewer rows than its sample)."""
        if self.fmt == "table" and self.widths is None:
            self._flush()
