"""One row of a score sheet read into an outcome-only record
(:mod:`tarotnotation.formats.sheet` finds the header, the players' columns and the layout;
:class:`SheetDeal` reads a row with them): the players, the tags, the contract and the
taker, the points and bouts, the camps inferred from the scores, the petit au bout, the
chelem, the poignées and the misères, each fault at its row and column."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .. import kernel
from ..diagnostics import Code, Diagnostic, Severity, quote
from ..fields import DEFAULT_SEATS
from ..i18n import Msg, message_of
from ..rules import Camp, Contract, MisereKind, table
from ..scoring import DealFacts, score
from ..source import ReadDeal, SourceMap, read_deal

if TYPE_CHECKING:  # (the model is imported when a row makes a record)
    from pydantic import ValidationError

    from ..records import DealRecord
    from .sheet import SheetReader
from .sheetwords import (
    ALL_PASSED,
    TAG_ROLES,
    bouts_of,
    call_of,
    chelem_of,
    contract_of,
    date_of,
    is_blank,
    misere_of,
    norm,
    poignee_parts,
    poignee_size_of,
    points_of,
    ruleset_of,
    score_of,
    side_of,
)

__all__ = ["NOTE", "Player", "Row", "SheetDeal", "named_by", "show_cells", "validated"]

#: How the comments the reader adds begin.
NOTE: Final = "sheet: "
_ALONE: Final = frozenset({"personne", "none", "seul", "seule", "alone", "lui meme",
                           "elle meme", "soi meme", "himself", "herself", "self", "aucun",
                           "nobody", "no one", "sans", "preneur", "le preneur", "taker",
                           "solo"})
_NUMBERED: Final = re.compile(r"(?:(?:joueur|joueuse|j|player|p)\s*)?(\d)")


#: Whose name a cell of a sheet gives, in words (the messages translate them).
_NAMES_OF: Final = {
    "dealer": Msg("the dealer's name"), "taker": Msg("the taker's name"),
    "partner": Msg("the partner's name"), "petit au bout's": Msg("the petit au bout's's name"),
    "poignée holder": Msg("the poignée holder's name"),
    "misère declarer": Msg("the misère declarer's name"),
}



@dataclass(frozen=True, slots=True)
class Row:
    """One row of a table: its line (a CSV's physical line, a worksheet's row number), its
    cells as text, the first in column 1 (A), and what the file's reader found wrong with
    them (a formula without its value, a cell past a limit): the row's deal carries it."""

    line: int
    cells: tuple[str, ...]
    faults: tuple[Diagnostic, ...] = ()



@dataclass
class Player:
    name: str
    key: str
    aliases: set[str] = field(default_factory=set)
    """The headers of its columns when a mapping renamed them (normalized)."""
    score: int | None = None
    """Column (0-based) of the deal's score."""
    total: int | None = None
    """Column (0-based) of the running total."""
    running: int = 0
    """Sum of this player's scores so far."""
    last_total: int | None = None




def named_by(key: str, named: set[str]) -> bool:
    """A header is named by a cell: the same name, or its first name or a word of it."""
    if key in named:
        return True
    words = key.split()
    return any(w.startswith(name) for name in named if len(name) >= 2 for w in words)



def show_cells(cells: Sequence[str]) -> str:
    shown = " | ".join(c.strip() for c in cells if not is_blank(c))
    return repr(shown if len(shown) <= 60 else shown[:57] + "...")



def _match(players: Sequence[Player], text: str) -> int | None:
    """The index of the player a cell names: the name (accents and case aside), a seat id
    of the deal, a number or ``Joueur 2``, or the unique player whose name starts so."""
    key = norm(text)
    if not key:
        return None
    for i, p in enumerate(players):
        if p.key == key:
            return i
    for i, p in enumerate(players):
        if key in p.aliases:
            return i
    ids = DEFAULT_SEATS.get(len(players), ())
    if text.strip() in ids:
        return ids.index(text.strip())
    numbered = _NUMBERED.fullmatch(key)
    if numbered is not None:
        number = int(numbered.group(1))
        if 1 <= number <= len(players):
            return number - 1
    if len(key) >= 2:
        found = [i for i, p in enumerate(players)
                 if p.key.startswith(key) or any(w.startswith(key) for w in p.key.split())]
        if len(found) == 1:
            return found[0]
    return None


class SheetDeal:
    """One row being read into a record."""

    def __init__(self, sheet: SheetReader, row: Row) -> None:
        self.sheet = sheet
        self.row = row
        self.diags: list[Diagnostic] = list(row.faults)
        self.notes: list[str] = []
        self.positions: dict[str, tuple[int, int]] = {"": (row.line, 1)}
        self.result: dict[str, Any] = {}
        self.record: dict[str, Any] = {}
        self.declarations: list[tuple[dict[str, Any], int]] = []
        self.players: list[Player] = []
        self.ids: tuple[str, ...] = ()

    # --- cells -----------------------------------------------------------------------

    def cell(self, role: str) -> tuple[str, int] | None:
        col = self.sheet.layout.roles.get(role)
        if col is None or col >= len(self.row.cells) or is_blank(self.row.cells[col]):
            return None
        return self.row.cells[col].strip(), col

    def at(self, path: str, col: int) -> None:
        self.positions[path] = (self.row.line, col + 1)

    def bad(self, col: int, message: str, code: Code = Code.SHEET_BAD_CELL,
            severity: Severity | None = None) -> None:
        self.diags.append(self.sheet.diag(code, Msg("{header}: {message}",
                                                    header=self.sheet.header_text(col),
                                                    message=message),
                                          self.row.line, col, severity=severity))

    def who(self, text: str, col: int, what: str) -> int | None:
        found = _match(self.players, text)
        if found is None:
            names = ", ".join(p.name for p in self.players)
            self.bad(col, Msg("{text} is not a player of this deal: expected {name} ({names})",
                              text=quote(text), name=_NAMES_OF.get(what) or Msg(
                                  "the {what}'s name", what=what), names=names))
        return found

    # --- the row ---------------------------------------------------------------------

    def build(self) -> ReadDeal | None:
        sheet = self.sheet
        scores = self.read_players()
        if scores is None:
            return None
        facts = [r for r in ("taker", "contract", "points", "bouts", "partner", "petit",
                             "chelem", "poignee", "misere", "call") if self.cell(r)]
        if not facts and not scores:
            sheet.pending.append(sheet.diag(
                Code.SHEET_ROW_NOT_A_DEAL, Msg("this row names no taker, contract, points or"
                                               " score: left out ({show_cells})",
                                               show_cells=show_cells(self.row.cells)),
                                           self.row.line, 0))
            return None
        n = len(self.players)
        self.ids = DEFAULT_SEATS[n]
        sheet.index += 1
        index = sheet.index
        self.read_tags()
        self.read_fields(scores)
        record = self.make_record()
        src = SourceMap(sheet.file, self.positions)
        diags = tuple(d.at(deal=index) for d in self.diags)
        return read_deal(index, record, diags, src, self.row.line)

    def read_players(self) -> dict[int, int] | None:
        """The players of this deal and each one's score where the row gives it (from the
        score column, else from the running total), checking running totals."""
        lay = self.sheet.layout
        cells = self.row.cells
        values: dict[str, int | None] = {}
        totals: dict[str, int | None] = {}
        for p in lay.players:
            values[p.key] = self.number(p.score, p.name)
            totals[p.key] = self.number(p.total, p.name)
        players = lay.players
        scored = [p for p in lay.players
                  if values[p.key] is not None or totals[p.key] is not None]
        if len(players) <= 5 and 3 <= len(scored) < len(players):
            # The others' cells are blank: they sit this deal out, unless the row names
            # them (the taker whose score was not written) or their cell is not blank in
            # the file (a formula whose value it does not hold).
            named = self.sheet.named_in([self.row])
            faulty = {d.location.col for d in self.row.faults}
            players = [p for p in lay.players if p in scored or named_by(p.key, named)
                       or any(c is not None and c + 1 in faulty for c in (p.score, p.total))]
        elif len(players) > 5:
            players = scored
            if not 3 <= len(players) <= 5:
                self.sheet.pending.append(self.sheet.diag(
                    Code.SHEET_ROW_NOT_A_DEAL, Msg("with {count} player columns, the players of a"
                                                   " deal are those with a score in its row; this"
                                                   " row has {count2}: left out ({show_cells})",
                                                   count=len(lay.players), count2=len(players),
                                                   show_cells=show_cells(cells)),
                                               self.row.line, 0))
                return None
        self.players = players
        out: dict[int, int] = {}
        derived = False
        for i, p in enumerate(players):
            value, total = values[p.key], totals[p.key]
            if value is None and total is not None and p.score is None:
                value = total - (p.last_total or 0)
                derived = True
            if total is not None:
                assert p.total is not None
                expected = (p.last_total or 0) + value if value is not None else None
                if expected is not None and total != expected:
                    self.bad(p.total, Msg("the running total of {p} is {total}; the one before,"
                                          " {value}, and this deal's {value2} make {expected}",
                                          p=p.name, total=format(total, '+d'),
                                          value=format(p.last_total or 0, '+d'),
                                          value2=format(value, '+d'),
                                          expected=format(expected, '+d')),
                                      Code.SHEET_TOTALS_MISMATCH)
                p.last_total = total
            elif value is not None and p.total is not None:
                p.last_total = (p.last_total or 0) + value
            if value is not None:
                p.running += value
                out[i] = value
                col = p.score if p.score is not None else p.total
                assert col is not None
                self.at(f"result.scores.{DEFAULT_SEATS[len(players)][i]}", col)
        if derived:
            self.notes.append("the scores are worked out from the running totals")
        rowsum = self.cell("rowsum")
        if rowsum is not None and out:
            text, col = rowsum
            try:
                given = score_of(text)
            except ValueError as err:
                self.bad(col, message_of(err))
                given = None
            if given is not None and given != sum(out.values()):
                self.bad(col, Msg("the row's sum is given as {given}; its scores add up to {sum}",
                                  given=format(given, '+d'), sum=format(sum(out.values()), '+d')),
                              Code.SHEET_TOTALS_MISMATCH)
        return out

    def number(self, col: int | None, name: str) -> int | None:
        if col is None or col >= len(self.row.cells) or is_blank(self.row.cells[col]):
            return None
        text = self.row.cells[col]
        try:
            value = score_of(text)
        except ValueError as err:
            self.bad(col, message_of(err))
            return None
        if value is None:
            self.bad(col, Msg("{strip} is not a score: expected {name}'s score for the deal, a"
                              " whole number such as -64 or +192",
                              strip=quote(text.strip()), name=name))
        return value

    def read_tags(self) -> None:
        tags = list(self.sheet.tags)
        for role, tag in TAG_ROLES:
            got = self.cell(role)
            if got is None:
                continue
            text, col = got
            if role == "date":
                value = date_of(text)
                if value is None:
                    self.bad(col, Msg("{text} is not a date: expected 2026-11-19, 19/11/2026 or"
                                      " 2026.11.19", text=quote(text)))
                    continue
                text = value
            tags = [(k, v) for k, v in tags if k != tag]
            tags.append((tag, text))
            self.at(f"tags.{tag}", col)
        if tags:
            self.record["tags"] = tags

    def read_fields(self, scores: dict[int, int]) -> None:
        ids = self.ids
        n = len(ids)
        res = self.result
        got = self.cell("rules")
        if got is not None:
            try:
                self.record["ruleset"] = ruleset_of(got[0])
                self.at("ruleset", got[1])
            except ValueError as err:
                self.bad(got[1], message_of(err))
        got = self.cell("dealer")
        if got is not None:
            d = self.who(got[0], got[1], "dealer")
            if d is not None:
                self.record["dealer"] = ids[d]
                self.at("dealer", got[1])
        annulled = False
        got = self.cell("contract")
        if got is not None:
            text, col = got
            contract = contract_of(text)
            if contract is not None:
                res["contract"] = contract.keyword
                self.at("result.contract", col)
            elif norm(text) in ALL_PASSED:
                annulled = True
                res["annulled"] = True
                self.record["auction"] = [{"contract": "pass"}] * n
                self.at("result.annulled", col)
                self.at("auction", col)
            else:
                self.bad(col, Msg("{text} is not a contract: expected Prise (Petite), Garde,"
                                  " Garde sans, Garde contre, or Passe for a deal everyone passed",
                                  text=quote(text)))
        taker: int | None = None
        got = self.cell("taker")
        if got is not None:
            taker = self.who(got[0], got[1], "taker")
            if taker is not None:
                res["taker"] = ids[taker]
                self.at("result.taker", got[1])
        partner: int | None = None
        alone = False
        got = self.cell("partner")
        if got is not None:
            text, col = got
            if norm(text) in _ALONE:
                alone = n == 5  # at three or four players: no partner, as it should be
            else:
                partner = self.who(text, col, "partner")
                if n == 5 and partner is not None and partner == taker:
                    partner, alone = None, True
            if partner is not None or alone:
                self.at("result.partner", col)
        if alone and taker is not None:
            res["partner"] = ids[taker]
        elif partner is not None:
            res["partner"] = ids[partner]  # at three or four players, R213 says so
        got = self.cell("call")
        if got is not None:
            card = call_of(got[0])
            if card is None:
                self.bad(got[1], Msg("{got} is not a card: expected the called King, e.g. Roi de"
                                     " Cœur, KH or cœur", got=quote(got[0])))
            else:
                self.record["call"] = {"card": card.code}
                self.at("call", got[1])
        got = self.cell("points")
        if got is not None:
            try:
                pts = points_of(got[0])
            except ValueError as err:
                self.bad(got[1], message_of(err))
            else:
                if pts is None:
                    self.bad(got[1], Msg("{got} is not a number of points: expected the taker's"
                                         " card points, such as 41 or 40,5", got=quote(got[0])))
                else:
                    res["taker_points"] = pts.as_number()
                    self.at("result.taker_points", got[1])
        got = self.cell("bouts")
        if got is not None:
            bouts = bouts_of(got[0])
            if bouts is None:
                self.bad(got[1], Msg("{got} is not a number of bouts: expected 0 to 3 (or the"
                                     " bouts named: petit, 21, excuse)", got=quote(got[0])))
            else:
                res["bouts"] = bouts
                self.at("result.bouts", got[1])
        if scores:
            res["scores"] = {ids[i]: v for i, v in sorted(scores.items())}
            self.positions.setdefault("result.scores", self.positions[
                f"result.scores.{ids[min(scores)]}"])
        if not annulled:
            self.infer_camps(scores)
        self.read_chelem()
        self.read_poignees()
        self.read_miseres()
        self.read_petit(scores)
        got = self.cell("comment")
        if got is not None:
            self.record["comments"] = [c.strip() for c in got[0].split(" | ") if c.strip()]

    # --- inference -------------------------------------------------------------------

    def infer_camps(self, scores: dict[int, int]) -> None:
        """The taker and, at five players, the partner from the scores' pattern."""
        res, ids = self.result, self.ids
        n = len(ids)
        if len(scores) != n or not any(scores.values()):
            return
        values = [scores[i] for i in range(n)]
        shape = _camps_of(values)
        if shape is None:
            return
        taker, partner = shape
        if "taker" not in res and self.cell("taker") is None:
            res["taker"] = ids[taker]
            self.notes.append(f"the taker, {self.players[taker].name}, is inferred from the"
                              " scores")
        if n == 5 and "partner" not in res and self.cell("partner") is None and (
                res.get("taker") == ids[taker]):
            res["partner"] = ids[taker if partner is None else partner]
            if partner is None:
                self.notes.append("the taker played alone: inferred from the scores"
                                  " (4 : −1)")
            else:
                self.notes.append(f"the partner, {self.players[partner].name}, is inferred"
                                  " from the scores (2 : 1 : −1)")

    def read_petit(self, scores: dict[int, int]) -> None:
        got = self.cell("petit")
        if got is None:
            return
        text, col = got
        side = side_of(text)
        if side is None:
            return
        res = self.result
        if isinstance(side, Camp):
            res["petit_au_bout"] = side.value
            self.at("result.petit_au_bout", col)
            return
        if side != "yes":
            who = self.who(side, col, "petit au bout's")
            if who is None:
                return
            camp = self.camp_of(who)
            if camp is not None:
                res["petit_au_bout"] = camp.value
                self.at("result.petit_au_bout", col)
                return
            self.notes.append(f"the petit au bout went to {self.players[who].name}'s camp,"
                              " which the sheet does not settle (no taker or partner)")
            self.bad(col, Msg("the petit au bout's camp cannot be told: the sheet names no"
                              " partner; the score leaves it out"), Code.SHEET_FACT_UNKNOWN)
            return
        for camp in Camp:
            if self.scores_fit(scores, camp):
                res["petit_au_bout"] = camp.value
                self.at("result.petit_au_bout", col)
                self.notes.append(f"the petit au bout went to the {camp.value}: inferred"
                                  " from the scores")
                return
        self.notes.append("petit au bout: the camp is not on the sheet")
        self.bad(col, Msg("{text} says a petit au bout but not whose, and the scores do not tell:"
                          " the score leaves it out", text=quote(text)), Code.SHEET_FACT_UNKNOWN)

    def camp_of(self, seat: int) -> Camp | None:
        res, ids = self.result, self.ids
        taker = res.get("taker")
        if taker is None:
            return None
        if ids[seat] == taker or res.get("partner") == ids[seat]:
            return Camp.TAKER
        if len(ids) == 5 and res.get("partner") is None:
            return None
        return Camp.DEFENCE

    def scores_fit(self, scores: dict[int, int], camp: Camp) -> bool:
        """The recorded scores are those the facts give with the petit au bout to
        ``camp`` (every fact the score needs known)."""
        res, ids = self.result, self.ids
        n = len(ids)
        if len(scores) != n or any(k not in res for k in ("taker", "contract",
                                                           "taker_points", "bouts")):
            return False
        if n == 5 and "partner" not in res:
            return False
        try:
            facts = DealFacts(
                players=n, taker=ids.index(res["taker"]),
                contract=Contract.from_keyword(res["contract"]),
                taker_half=round(float(res["taker_points"]) * 2), bouts=int(res["bouts"]),
                partner=ids.index(res["partner"]) if "partner" in res else None,
                petit_au_bout=camp, poignees=tuple(
                    d["size"] for d, _ in self.declarations if d["kind"] == "poignee"),
                chelem_announced=any(d["kind"] == "chelem" for d, _ in self.declarations),
                chelem=Camp(res["chelem"]) if res.get("chelem") else None,
                miseres=tuple(ids.index(d["seat"]) for d, _ in self.declarations
                              if d["kind"] == "misere"))
            got = score(facts).seats
        except (ValueError, KeyError):
            return False
        return all(got[i] == scores[i] for i in range(n))

    # --- declarations ----------------------------------------------------------------

    def read_chelem(self) -> None:
        got = self.cell("chelem")
        if got is None:
            return
        text, col = got
        try:
            cell = chelem_of(text)
        except ValueError as err:
            self.bad(col, message_of(err))
            return
        if cell is None:
            return
        if cell.camp is not None:
            self.result["chelem"] = cell.camp.value
            self.at("result.chelem", col)
        if cell.announced:
            taker = self.result.get("taker")
            if taker is None:
                self.bad(col, Msg("a chelem is announced, but the sheet names no taker (the one"
                                  " who announces it): the announcement is left out"))
                return
            self.declarations.append(({"kind": "chelem", "seat": taker}, col))

    def read_poignees(self) -> None:
        got = self.cell("poignee")
        if got is None:
            return
        text, col = got
        parts = poignee_parts(text)
        if not parts:
            return
        counts = table(len(self.ids)).poignee
        for part in parts:
            size, rest = poignee_size_of(part, counts)
            if size is None:
                self.bad(col, Msg("{part} is not a poignée: expected simple, double or triple (or"
                                  " {counts}, {counts2} or {counts3} atouts at {count} players),"
                                  " and the player's name if known",
                                  part=quote(part), counts=counts[0], counts2=counts[1],
                                  counts3=counts[2], count=len(self.ids)))
                continue
            seat = self.holder(rest, col, size.value)
            if seat is not None:
                self.declarations.append(({"kind": "poignee", "seat": seat,
                                           "size": size.value}, col))

    def holder(self, words: str, col: int, what: str) -> str | None:
        """The seat of a poignée's holder; the taker's (or a defender's) when the sheet
        does not name it, with a note."""
        res, ids = self.result, self.ids
        key = norm(words)
        camp = side_of(words) if key else None
        if key and not isinstance(camp, Camp):
            who = self.who(words, col, "poignée holder")
            return None if who is None else ids[who]
        taker = res.get("taker")
        if taker is None:
            self.bad(col, Msg("a {what} poignée, but neither its holder nor the taker is on the"
                              " sheet: left out", what=what))
            return None
        seat: str = taker
        if camp is Camp.DEFENCE:
            partner = res.get("partner")
            seat = next(s for s in ids if s not in (taker, partner))
        self.notes.append(f"the {what} poignée's holder is not on the sheet: recorded on"
                          f" {seat}{' (the taker)' if seat == taker else ', a defender'}")
        return seat

    def read_miseres(self) -> None:
        got = self.cell("misere")
        if got is None:
            return
        text, col = got
        if norm(text) in ("non", "no", "aucune", "aucun", "none", "0", "pas de misere"):
            return
        for part in poignee_parts(text) or ():
            kind, who_text = misere_of(part)
            if not who_text:
                self.bad(col, Msg("{part}: a misère, but not whose: expected the player's name"
                                  " (and atout or tête)", part=quote(part)))
                continue
            who = self.who(who_text, col, "misère declarer")
            if who is None:
                continue
            if kind is None:
                kind = MisereKind.ATOUT
                self.notes.append(f"{self.players[who].name}'s misère: its kind (atout or"
                                  " tête) is not on the sheet; recorded as atout")
            self.declarations.append(({"kind": "misere", "seat": self.ids[who],
                                       "misere": kind.value}, col))
        if any(d["kind"] == "misere" for d, _ in self.declarations) and (
                "ruleset" not in self.record):
            self.record["ruleset"] = "fft misere=on"

    # --- the record ------------------------------------------------------------------

    def make_record(self) -> DealRecord | None:
        data: dict[str, Any] = {
            "players": len(self.ids),
            # A column headed by its seat's own id names no one (how unnamed seats are
            # written).
            "seats": [{"id": s, "name": None if p.name == s else p.name}
                      for s, p in zip(self.ids, self.players, strict=True)],
            **self.record,
        }
        if self.declarations:
            data["declarations"] = [d for d, _ in self.declarations]
            for i, (_, col) in enumerate(self.declarations):
                self.at(f"declarations[{i}]", col)
        data["result"] = self.result
        notes = [NOTE + note for note in self.notes]
        if notes:
            data["comments"] = [*data.get("comments", ()), *notes]
        if "tags" in data:
            data["tags"] = [list(t) for t in data["tags"]]
        from pydantic import ValidationError

        from ..builder import build_record
        from ..records import DealRecord

        fast = build_record(data)  # the usual shape, without pydantic's validation
        if fast is not None:
            return fast
        for _ in range(8):
            try:
                return DealRecord.model_validate(data)
            except ValidationError as err:
                if not self.drop_fault(data, err):
                    break
        self.diags.append(self.sheet.diag(Code.SHEET_BAD_CELL, Msg("this row does not make a"
                                                                   " record"), self.row.line, 0))
        return None

    def drop_fault(self, data: dict[str, Any], err: ValidationError) -> bool:
        """Report the model's first fault at its cell and leave that fact out."""
        first = err.errors()[0]
        loc = [str(p) for p in first["loc"]]
        message = _words(err, first)
        if loc[:1] == ["result"] and len(loc) >= 2 and loc[1] in data["result"]:
            key = loc[1]
            path = f"result.{key}"
            col = self.positions.get(path, (0, 1))[1] - 1
            self.bad(col, Msg("{message}: left out", message=message))
            del data["result"][key]
            return True
        if loc[:1] == ["declarations"] and len(loc) >= 2 and loc[1].isdigit():
            i = int(loc[1])
            col = self.positions.get(f"declarations[{i}]", (0, 1))[1] - 1
            self.bad(col, Msg("{message}: left out", message=message))
            del data["declarations"][i]
            return True
        if loc and loc[0] in data and loc[0] not in ("players", "seats"):
            col = self.positions.get(loc[0], (0, 1))[1] - 1
            self.bad(col, Msg("{message}: left out", message=message))
            del data[loc[0]]
            return True
        return False


def _words(err: ValidationError, first: Mapping[str, Any]) -> str:
    """The model's first fault in Tarot words (:func:`tarotnotation.faults.model_faults`)."""
    from ..faults import model_faults

    worded = model_faults(err)
    return worded[0].message if worded else str(first.get("msg", "not a valid value"))


def _camps_of(values: Sequence[int]) -> tuple[int, int | None] | None:
    """``(taker, partner)`` from a deal's scores when they have the shape the rules share
    scores in (3 : −1 … at four players, 2 : 1 : −1 at five; partner None when alone)."""
    n = len(values)
    alone, _, defender = kernel.shares(n, False)  # (the units of one defender's payment)
    with_taker, with_partner, with_defender = kernel.shares(n, True)
    for taker in range(n):
        x = values[taker]
        others = [v for i, v in enumerate(values) if i != taker]
        if x == 0:
            continue
        if all(v * alone == x * defender for v in others):
            return taker, None
        if n == 5 and x % with_taker == 0:
            unit = x // with_taker
            part = [i for i, v in enumerate(values) if i != taker and v == with_partner * unit]
            rest = [v for i, v in enumerate(values) if i != taker and i not in part[:1]]
            if len(part) >= 1 and all(v == with_defender * unit for v in rest) and unit:
                return taker, part[0]
    return None


def validated(data: dict[str, Any], *, file: str | None, path: str, deal: int
              ) -> tuple[DealRecord | None, list[Diagnostic]]:
    """A record from data in the JSON layout, for the score apps' readers: a fault of the
    model is reported (C102, at ``path``, the app file's JSON path) and that part left
    out, as a sheet's cell is."""
    from pydantic import ValidationError

    from ..builder import build_record
    from ..records import DealRecord

    diags: list[Diagnostic] = []
    if "tags" in data:
        data["tags"] = [list(t) for t in data["tags"]]
    fast = build_record(data)
    if fast is not None:
        return fast, diags
    for _ in range(8):
        try:
            return DealRecord.model_validate(data), diags
        except ValidationError as err:
            first = err.errors()[0]
            loc = [str(p) for p in first["loc"]]
            where = ".".join(loc)
            diags.append(Diagnostic.make(Code.SHEET_BAD_CELL,
                                         Msg("{where}: {words}: left out",
                                             where=where, words=_words(err, first)),
                                         file=file, deal=deal, path=path))
            if loc[:1] == ["result"] and len(loc) >= 2 and loc[1] in data.get("result", {}):
                del data["result"][loc[1]]
            elif loc[:1] == ["declarations"] and len(loc) >= 2 and loc[1].isdigit():
                del data["declarations"][int(loc[1])]
            elif loc and loc[0] in data and loc[0] not in ("players", "seats"):
                del data[loc[0]]
            else:
                break
    return None, diags
