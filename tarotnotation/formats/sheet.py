"""Score sheets: a table with one row per deal, read into outcome-only records.

This is the part of the CSV and spreadsheet formats that does not depend on the file:
:func:`read_rows` takes the rows of a table (strings, with their line and column numbers)
and yields a :class:`~tarotnotation.source.ReadDeal` per deal
(:mod:`tarotnotation.formats.sheetwriter` turns records into rows).
:mod:`tarotnotation.formats.csvsheet` and :mod:`tarotnotation.formats.xlsx` bring the rows
in and out of their files.

**Reading.** The header row is the first row (of the first ten that are not blank) whose
cells name a column this reader knows (:mod:`tarotnotation.formats.sheetwords`, French or
English, accents and case ignored), or that the user's mapping (:class:`Columns`) names.
A column whose header is not known is a player's when the sheet's cells name that player
(as taker, partner, dealer…) or when it holds only whole numbers; otherwise it is
reported once (**C101**, with the names this reader knows) and left out. ``Score Alice``
and ``Total Alice`` (a running total) are always Alice's. Three to five players play every
deal; with more player columns (a club whose members take turns at the table), each deal
is played by those who have a score in its row.

Each row becomes an outcome-only record (docs/notation.md §5): the tags (``Event``,
``Site``, ``Date``, ``Round``, ``Table``, ``Deal``), the seats (``S E N W F`` in the
order of the player columns, named by their headers), the dealer, the declarations
(poignées, a chelem announced, misères), and the result (contract, taker, partner, points,
bouts, petit au bout, chelem, each player's score). A deal where everyone passed is an
auction of passes and an annulled result. What the sheet does not say stays out of the
record; what it implies is inferred and said in a comment of the deal (``sheet: …``):
the taker and, at five players, the partner from the scores (2 : 1 : −1), the side of the
petit au bout from the scores, the scores from running totals. Where the model needs
what the sheet does not give (the holder of a poignée, the kind of a misère), the record
holds the likeliest value and the comment says it was not on the sheet.

Every fault is located at its row and column (``sheet.csv:14:5``, the column counted from
1 = A): a cell that cannot be read (**C102**, the fact left out), a running total or a
totals row that does not add up (**C103**), a row that is no deal (**C106**). The replay's
own diagnostics (a score that the rules do not give, R101; a fact no deal can produce,
R2xx) are located the same way, through the record's
:class:`~tarotnotation.source.SourceMap`.

>>> rows = [Row(1, ("Donne", "Preneur", "Contrat", "Points", "Bouts", "Alice", "Bruno",
...                 "Chloé", "David")),
...         Row(2, ("1", "Bruno", "Garde", "48", "2", "-64", "192", "-64", "-64"))]
>>> [deal] = read_rows(rows, file="club.csv")
>>> print(deal.record, end="")
[Deal "1"] [Players "4"]
[Seats "S:Alice, E:Bruno, N:Chloé, W:David"] [Ruleset "fft"]
result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..diagnostics import Code, Diagnostic, Severity, quote
from ..i18n import Msg
from ..source import ReadDeal, read_deal
from .sheetdeal import NOTE, Player, Row, SheetDeal, named_by, show_cells, validated
from .sheetwords import (
    KNOWN_HEADERS,
    ROLE_TITLES,
    SEAT_HEADERS,
    TOTALS_WORDS,
    Columns,
    is_blank,
    misere_of,
    norm,
    player_header,
    poignee_parts,
    poignee_size_of,
    role_of,
    score_of,
)

__all__ = [
    "DEAL_ROLES",
    "HEADER_SEARCH",
    "LOOKAHEAD",
    "NOTE",
    "Row",
    "column_name",
    "is_header",
    "read_rows",
    "recognised",
    "validated",
]

#: The columns that only a score sheet has: a header naming one of them is a sheet's.
DEAL_ROLES: Final = frozenset({"taker", "contract", "partner", "call", "points", "bouts",
                               "poignee", "petit", "chelem", "misere"})
#: How many non-blank rows are searched for the header.
HEADER_SEARCH: Final = 10
#: How many rows after the header are looked at to tell the players' columns.
LOOKAHEAD: Final = 100


def column_name(col: int) -> str:
    """A spreadsheet's name of a 1-based column: ``A``, ``Z``, ``AA``.

    >>> column_name(1), column_name(26), column_name(28)
    ('A', 'Z', 'AB')
    """
    out = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


@dataclass
class _Layout:
    roles: dict[str, int] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    header: tuple[str, ...] = ()
    header_line: int = 0


def is_header(cells: Sequence[str], columns: Columns | None = None) -> bool:
    """True when a row names a column only a score sheet has (or a player's score or
    running total), or the user's mapping names one of its cells."""
    for cell in cells:
        if columns and columns.target(cell) is not None and columns.target(cell) != (
                "ignore", ""):
            return True
        if role_of(cell) in DEAL_ROLES or player_header(cell) is not None:
            return True
    return False


def recognised(rows: Sequence[Sequence[str]], columns: Columns | None = None) -> bool:
    """True when a table's first rows are a score sheet's: a header that names a column
    only a sheet has, or a header naming a date or deal number followed by three to five
    columns of whole numbers that add up to zero in every row (scores only)."""
    body = [r for r in rows if any(not is_blank(c) for c in r)][:HEADER_SEARCH + 20]
    for i, cells in enumerate(body[:HEADER_SEARCH]):
        if is_header(cells, columns):
            return True
        if any(role_of(c) is not None for c in cells):
            others = [j for j, c in enumerate(cells) if role_of(c) is None and c.strip()]
            data = body[i + 1:]
            if len(others) >= 3 and data and all(_zero_sum(r, others) for r in data):
                return True
    return False


def _zero_sum(cells: Sequence[str], cols: Sequence[int]) -> bool:
    """A row of scores only: blank, a totals row, or 3 to 5 whole numbers that add up to
    zero in those columns."""
    texts = [cells[j] if j < len(cells) else "" for j in cols]
    if all(is_blank(t) for t in texts) or (cells and norm(cells[0]) in TOTALS_WORDS):
        return True
    values = []
    for t in texts:
        if is_blank(t):
            continue
        if not _is_whole(t):
            return False
        values.append(score_of(t) or 0)
    return 3 <= len(values) <= 5 and sum(values) == 0


def read_rows(rows: Iterable[Row], *, file: str | None = None, columns: Columns | None = None,
              tags: Sequence[tuple[str, str]] = (), first: int = 0,
              pending: Sequence[Diagnostic] = (), separated: bool = False
              ) -> Iterator[ReadDeal]:
    """Every deal of a table, as outcome-only records located at their rows.

    ``file`` names the table in diagnostics; ``columns`` is the user's mapping; ``tags``
    are given to every record (before its own); ``first`` is the number of deals read
    before (from earlier sheets of a workbook); ``pending`` diagnostics are attached to
    the first deal. A table that is not a score sheet yields one unreadable deal saying so
    (C105). ``separated``: the cells were cut at commas (a CSV sheet), so a row with more
    cells than the header is one cut wrong (a decimal comma not quoted): it is left out
    with a C102 error saying so.
    """
    reader = SheetReader(file, columns or Columns(), tuple(tags), first,
                          pending if isinstance(pending, list) else list(pending))
    reader.separated = separated
    yield from reader.run(iter(rows))


class SheetReader:
    """One table, read row by row (a bounded look-ahead to tell the players' columns)."""

    def __init__(self, file: str | None, columns: Columns, tags: tuple[tuple[str, str], ...],
                 first: int, pending: list[Diagnostic]) -> None:
        self.file = file
        self.columns = columns
        self.tags = tags
        self.index = first
        self.pending = pending
        self.layout = _Layout()
        self.held: ReadDeal | None = None
        self.separated = False

    # --- diagnostics -----------------------------------------------------------------

    def diag(self, code: Code, message: str, line: int | None = None,
             col: int | None = None, *, deal: int | None = None,
             severity: Severity | None = None) -> Diagnostic:
        return Diagnostic.make(code, message, severity=severity, file=self.file, line=line,
                               col=None if col is None else col + 1, deal=deal)

    def header_text(self, col: int) -> str:
        head = self.layout.header
        name: str = head[col].strip() if col < len(head) and head[col].strip() else ""
        if len(name) > 40:
            name = name[:40] + "…"
        return Msg("column {col} ({name})", col=column_name(col + 1),
                   name=name or Msg("no header"))

    # --- the run ---------------------------------------------------------------------

    def run(self, rows: Iterator[Row]) -> Iterator[ReadDeal]:
        found = self.find_header(rows)
        if found is None:
            yield self.not_a_sheet()
            return
        header, before = found
        ahead = before + list(itertools.islice(rows, LOOKAHEAD))
        if not self.make_layout(header, ahead):
            yield self.not_a_sheet()
            return
        for row in itertools.chain(ahead, rows):
            for deal in self.read_row(row):
                if self.held is not None:
                    yield self.held
                self.held = deal
        if self.held is not None:
            if self.pending:
                held = self.held
                self.held = read_deal(held.index, held.record, held.diagnostics
                                     + tuple(self.pending), held.source, held.line)
                self.pending.clear()
            yield self.held
        elif self.pending:
            self.pending.append(self.diag(
                Code.SHEET_NOT_A_SHEET, Msg("the sheet has a header but no deal: nothing to read"),
                self.layout.header_line))
            yield read_deal(0, None, tuple(self.pending),  # (no deal: said of the sheet)
                           line=self.layout.header_line)
            self.pending.clear()

    def not_a_sheet(self) -> ReadDeal:
        if not any(d.code is Code.SHEET_NOT_A_SHEET for d in self.pending):
            self.pending.append(self.diag(
                Code.SHEET_NOT_A_SHEET, Msg("not a score sheet: no row of the first"
                                            " {header_search} names a column a sheet has"
                                            " ({known_headers}); not a record file (give"
                                            " --columns to map its headers)",
                                            header_search=HEADER_SEARCH,
                                            known_headers=KNOWN_HEADERS)))
        got = read_deal(0, None, tuple(self.pending), line=1)  # (said of the table: no deal)
        self.pending.clear()
        return got

    def find_header(self, rows: Iterator[Row]) -> tuple[Row, list[Row]] | None:
        """The header row and the rows read after it while looking; rows above it are
        reported."""
        seen: list[Row] = []
        for row in rows:
            if all(is_blank(c) for c in row.cells):
                self.pending.extend(row.faults)
                continue
            seen.append(row)
            if is_header(row.cells, self.columns):
                self.above(seen[:-1])
                self.pending.extend(row.faults)
                return row, []
            if len(seen) >= HEADER_SEARCH:
                break
        # A sheet of scores only: a date or deal column and the players' columns.
        if seen and recognised([r.cells for r in seen], self.columns):
            for i, row in enumerate(seen):
                if any(role_of(c) is not None for c in row.cells):
                    self.above(seen[:i])
                    self.pending.extend(row.faults)
                    return row, seen[i + 1:]
        return None

    def above(self, rows: list[Row]) -> None:
        for before in rows:
            self.pending.extend(before.faults)
            self.pending.append(self.diag(
                Code.SHEET_ROW_NOT_A_DEAL, Msg("a row above the header, left out: {show_cells}",
                                               show_cells=show_cells(before.cells)),
                                           before.line, 0))

    # --- the layout ------------------------------------------------------------------

    def make_layout(self, header: Row, ahead: list[Row]) -> bool:
        lay = self.layout
        lay.header = header.cells
        lay.header_line = header.line
        candidates: list[int] = []
        players: dict[str, Player] = {}

        def player(name: str) -> Player:
            key = norm(name) or name
            if key not in players:
                players[key] = Player(name.strip(), key)
            return players[key]

        seat_ids = len({c.strip() for c in header.cells} & SEAT_HEADERS) >= 3
        for col, text in enumerate(header.cells):
            if seat_ids and text.strip() in SEAT_HEADERS:
                candidates.append(col)
                continue
            if not text.strip():
                if any(col < len(r.cells) and not is_blank(r.cells[col]) for r in ahead):
                    candidates.append(col)
                continue
            target = self.columns.target(text) if self.columns else None
            if target is not None:
                kind, value = target
                if kind == "ignore":
                    continue
                if kind == "role":
                    self.take_role(value, col)
                    continue
                ph = player_header(value)
                who = player(ph.name if ph else value)
                who.aliases.add(norm(text))
                self.take_player(who, col, bool(ph and ph.total))
                continue
            role = role_of(text)
            if role is not None:
                self.take_role(role, col)
                continue
            ph = player_header(text)
            if ph is not None:
                self.take_player(player(ph.name), col, ph.total)
                continue
            candidates.append(col)
        named = self.named_in(ahead)
        unknown: list[int] = []
        for col in candidates:
            text = header.cells[col].strip()
            key = norm(text)
            cells = [r.cells[col] for r in ahead if col < len(r.cells)
                     and not is_blank(r.cells[col]) and not self.is_totals(r)]
            whole = sum(1 for c in cells if _is_whole(c))
            # A player's column: whole numbers, a stray word among them (``abs``) aside,
            # which the row reports at its cell.
            numeric = bool(cells) and len(cells) - whole <= (whole // 10 if whole >= 5 else 0
                                                               ) + (whole >= 2)
            if text and (named_by(key, named) or numeric or (seat_ids and text in SEAT_HEADERS)):
                self.take_player(player(text), col, False)
            else:
                unknown.append(col)
        lay.players = list(players.values())
        for col in unknown:
            self.pending.append(self.diag(
                Code.SHEET_UNKNOWN_COLUMN, Msg("{header_text}: not a column this reader knows,"
                                               " and not a player's (no cell names it, and it"
                                               " holds other than whole numbers): its cells are"
                                               " left out. Known: {known_headers}. A mapping"
                                               " names it: --columns 'HEADER=COLUMN' or"
                                               " 'HEADER=PLAYER'",
                                               header_text=self.header_text(col),
                                               known_headers=KNOWN_HEADERS),
                header.line, col))
        n = len(lay.players)
        if n < 3:
            found = ", ".join(p.name for p in lay.players) or "none"
            self.pending.append(self.diag(
                Code.SHEET_NOT_A_SHEET, Msg("a score sheet has a column for each player, 3 to 5"
                                            " at a table; found {n} ({found}): map the players'"
                                            " columns with --columns 'HEADER=NAME,…'",
                                            n=n, found=found), header.line))
            return False
        return True

    def take_role(self, role: str, col: int) -> None:
        roles = self.layout.roles
        if role in roles:
            self.pending.append(self.diag(
                Code.SHEET_UNKNOWN_COLUMN, Msg("{header_text}: a second {role_titles} column (the"
                                               " first is {header_text2}): left out",
                                               header_text=self.header_text(col),
                                               role_titles=ROLE_TITLES[role],
                                               header_text2=self.header_text(roles[role])),
                                           self.layout.header_line, col))
            return
        roles[role] = col

    def take_player(self, who: Player, col: int, total: bool) -> None:
        slot = "total" if total else "score"
        if getattr(who, slot) is not None:
            self.pending.append(self.diag(
                Code.SHEET_UNKNOWN_COLUMN, Msg("{header_text}: a second {value} column for {who}:"
                                               " left out",
                                               header_text=self.header_text(col),
                                               value='running total' if total else 'score',
                                               who=who.name),
                self.layout.header_line, col))
            return
        setattr(who, slot, col)

    def named_in(self, rows: list[Row]) -> set[str]:
        """The names the cells of these rows give to players (normalized): the taker,
        partner, dealer, petit au bout, poignées' holders, misères."""
        out: set[str] = set()
        roles = self.layout.roles
        for role in ("taker", "partner", "dealer", "petit", "poignee", "misere"):
            col = roles.get(role)
            if col is None:
                continue
            for r in rows:
                if col >= len(r.cells) or is_blank(r.cells[col]):
                    continue
                text = r.cells[col]
                if role in ("poignee", "misere"):
                    for part in poignee_parts(text) or ():
                        out.add(norm(poignee_size_of(part, (10, 13, 15))[1]))
                        out.add(norm(misere_of(part)[1]))
                else:
                    out.add(norm(text))
        out.discard("")
        return {name for name in out if not name.isdigit()}

    def is_totals(self, row: Row) -> bool:
        first = next((c for c in row.cells if not is_blank(c)), "")
        taker = self.layout.roles.get("taker")
        has_taker = taker is not None and taker < len(row.cells) and not is_blank(
            row.cells[taker])
        return norm(first) in TOTALS_WORDS and not has_taker

    # --- rows ------------------------------------------------------------------------

    def read_row(self, row: Row) -> Iterator[ReadDeal]:
        cells = row.cells
        if all(is_blank(c) for c in cells):
            self.pending.extend(row.faults)
            return
        if self.is_totals(row):
            self.pending.extend(row.faults)
            self.pending.extend(self.check_totals_row(row))
            return
        width = len(self.layout.header)
        if self.separated and len(cells) > width and (any(
                not is_blank(c) for c in cells[width:]) or _split_number(cells)):
            self.pending.extend(row.faults)
            self.pending.append(self.diag(Code.SHEET_BAD_CELL, Msg(
                "the row has {cells} cells, the header {header}: a cell holds the separator"
                " unquoted{example}; the row is left out", cells=len(cells), header=width,
                example=_split_number(cells)), row.line, width))
            return
        deal = SheetDeal(self, row)
        got = deal.build()
        if got is None:
            self.pending.extend(row.faults)
            return
        if self.pending:
            got = read_deal(got.index, got.record, tuple(self.pending) + got.diagnostics,
                           got.source, got.line)
            self.pending.clear()
        yield got

    def check_totals_row(self, row: Row) -> list[Diagnostic]:
        out = []
        for p in self.layout.players:
            for col, expected, what in ((p.score, p.running, Msg("the scores above add up to")),
                                        (p.total, p.last_total,
                                         Msg("the last running total is"))):
                if col is None or col >= len(row.cells) or is_blank(row.cells[col]):
                    continue
                try:
                    value = score_of(row.cells[col])
                except ValueError as err:
                    out.append(self.diag(Code.SHEET_BAD_CELL, Msg("{header_text}, totals row:"
                                                                  " {err}",
                                                                  header_text=self.header_text(col),
                                                                  err=err), row.line, col))
                    continue
                if value is None:
                    out.append(self.diag(Code.SHEET_BAD_CELL, Msg("{header_text}, totals row:"
                                                                  " {strip} is not a whole number",
                                                                  header_text=self.header_text(col),
                                                                  strip=quote(row.cells[col].strip())),
                                                              row.line, col))
                elif expected is not None and value != expected:
                    out.append(self.diag(
                        Code.SHEET_TOTALS_MISMATCH, Msg("{header_text}: the totals row gives {p}"
                                                        " {value}; {what} {expected}",
                                                        header_text=self.header_text(col),
                                                        p=p.name, value=format(value, '+d'),
                                                        what=what, expected=format(expected, '+d')),
                        row.line, col))
        return out


def _split_number(cells: Sequence[str]) -> str:
    """Where a decimal comma cut a number in two (``38`` then ``5``), in words.

    >>> print(_split_number(["1", "Alice", "38", "5", "2"]))
     (a decimal comma such as 38,5 must be quoted: "38,5")
    """
    for a, b in itertools.pairwise(cells):
        if a.strip().isdigit() and b.strip().isdigit() and len(b.strip()) <= 2:
            return Msg(" (a decimal comma such as {number} must be quoted: \"{number}\")",
                       number=f"{a.strip()},{b.strip()}")
    return ""



def _is_whole(text: str) -> bool:
    try:
        return score_of(text) is not None
    except ValueError:
        return False
