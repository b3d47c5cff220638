"""Statistics of archives: per player, per seat or per contract, and for the whole archive.

:class:`Stats` takes deal summaries one at a time and keeps only counts (memory grows with
the number of players, never with the number of deals); :meth:`Stats.rows`,
:meth:`Stats.to_json` and :meth:`Stats.text` give the figures.

Per player (by name, from the record's seats): deals played, times taker (and partner at
five), take rate, success rate as taker by contract, average margin as taker, average and
total score, poignées shown, petits au bout played, chelems. For the archive: the contract
mix and success rates, the average margin, the half-point deals, petits au bout and
chelems by camp, poignées by size, and every diagnostic code counted. A deal whose record
names no players counts its seats as players (``S``, ``E``...), with a note.

>>> from tarotnotation.archives.stream import scan
>>> stats = Stats(by="player")
>>> for deal in scan(["examples/garde-poignee.tarot", "examples/prise.tarot"]):
...     stats.add(deal.summary)
>>> row = next(r for r in stats.rows() if r["key"] == "Alice Martin")
>>> row["deals"], row["taker"], row["made"], row["total_score"]
(2, 2, 0, -393)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from ..i18n import Msg, nmsg, pmsg, render, said
from ..replay import Status
from ..rules import Camp, Contract
from .safety import for_terminal, ljust, rjust, sort_key, width
from .summary import DealSummary

__all__ = ["BY", "Stats"]

#: What ``--by`` accepts.
BY: Final = ("player", "seat", "contract")
_CONTRACTS: Final = tuple(Contract)
#: Each status as counted (``read``: a deal read but not replayed).
_STATUS_KEY: Final[dict[Status | None, str]] = {None: "read", **{st: st.value for st in Status}}


@dataclass(slots=True)
class _Tally:
    """The counts of one player, seat or contract."""

    deals: int = 0
    scored: int = 0
    total: int = 0
    taker: int = 0
    partner: int = 0
    taken: list[int] = field(default_factory=lambda: [0] * len(_CONTRACTS))
    made: list[int] = field(default_factory=lambda: [0] * len(_CONTRACTS))
    margin_sum: int = 0
    margin_count: int = 0
    poignees: int = 0
    petits: int = 0
    chelems: int = 0


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100 * part / whole, 1)


def _mean(total: int, count: int) -> float | None:
    return None if count == 0 else round(total / count, 2)


class Stats:
    """Counts over deal summaries; ``by`` is ``player``, ``seat`` or ``contract``."""

    def __init__(self, by: str = "player") -> None:
        if by not in BY:
            raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")
        self.by = by
        self.keys: dict[str, _Tally] = {}
        self.deals = 0
        self.status: Counter[str] = Counter()
        self.contracts = [0] * len(_CONTRACTS)
        self.contracts_made = [0] * len(_CONTRACTS)
        self.margin_sum = 0
        self.margin_count = 0
        self.half_points = 0
        self.petits: Counter[str] = Counter()
        self.chelems: Counter[str] = Counter()
        self.chelems_announced = 0
        self.poignees: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self.with_faults = 0
        self.unnamed = 0
        self.unreadable = 0
        self.players: Counter[int] = Counter()

    def _tally(self, key: str) -> _Tally:
        tally = self.keys.get(key)
        if tally is None:
            tally = self.keys[key] = _Tally()
        return tally

    def add(self, s: DealSummary) -> None:
        """Count one deal."""
        self.deals += 1
        self.players[s.players] += 1
        status = s.status
        self.status[_STATUS_KEY[status]] += 1
        if s.codes:
            self.codes.update(s.codes)
        self.with_faults += s.errors > 0
        names = s.names
        if not all(names):
            self.unnamed += 1
        scores = s.scores_in_order
        scored = status is Status.SCORED and scores is not None
        contract = s.contract
        c = None if contract is None or status is Status.ANNULLED else contract - 1
        made = s.made
        if c is not None:
            self.contracts[c] += 1
            if made:
                self.contracts_made[c] += 1
        margin = s.margin_points
        if scored and margin is not None:
            self.margin_sum += margin
            self.margin_count += 1
            if s.taker_half is not None and s.taker_half % 2:
                self.half_points += 1
        if s.petit_au_bout is not None:
            self.petits[s.petit_au_bout.value] += 1
        chelem = s.chelem
        if chelem is not None:
            self.chelems[chelem.value] += 1
        self.chelems_announced += s.chelem_announced
        poignees = s.poignees
        for _, size in poignees:
            self.poignees[size.value] += 1
        if self.by == "contract":
            if c is not None:
                self._contract_row(s, self._tally(_CONTRACTS[c].keyword), c)
            return
        taker = s.taker_index
        partner = s.partner_index
        pab_seat = s.petit_au_bout_seat
        camps = s.camps if chelem is not None else None
        keys = self.keys
        by_player = self.by == "player"
        seats = s.seats
        for seat in range(s.players):
            if by_player:
                name = names[seat]
                key = name if name else seats[seat]
            else:
                key = seats[seat]
            t = keys.get(key)
            if t is None:
                t = keys[key] = _Tally()
            t.deals += 1
            if scored:
                assert scores is not None
                t.scored += 1
                t.total += scores[seat]
            if seat == taker:
                t.taker += 1
                if c is not None:
                    t.taken[c] += 1
                    t.made[c] += bool(made)
                if scored and margin is not None:
                    t.margin_sum += margin
                    t.margin_count += 1
            elif seat == partner:
                t.partner += 1
            if poignees:
                t.poignees += sum(1 for who, _ in poignees if who == seat)
            if pab_seat == seat:
                t.petits += 1
            if camps is not None and camps[seat] is chelem:
                t.chelems += 1

    def _contract_row(self, s: DealSummary, t: _Tally, c: int) -> None:
        t.deals += 1
        t.taker += 1
        t.taken[c] += 1
        t.made[c] += bool(s.made)
        if s.scored and s.scores_in_order is not None and s.taker_index is not None:
            t.scored += 1
            t.total += s.scores_in_order[s.taker_index]
            if s.margin_points is not None:
                t.margin_sum += s.margin_points
                t.margin_count += 1
        t.poignees += len(s.poignees)
        t.petits += s.petit_au_bout is Camp.TAKER
        t.chelems += s.chelem is Camp.TAKER

    # --- the figures ---

    def rows(self) -> Iterator[dict[str, Any]]:
        """One row per player, seat or contract (players: most deals first)."""
        if self.by == "contract":
            items = [(c.keyword, self.keys[c.keyword]) for c in _CONTRACTS
                     if c.keyword in self.keys]
        else:
            items = sorted(self.keys.items(), key=lambda kv: (-kv[1].deals, sort_key(kv[0])))
        for key, t in items:
            row: dict[str, Any] = {"key": key, "deals": t.deals}
            if self.by != "contract":
                row["taker"] = t.taker
                row["take_rate"] = _rate(t.taker, t.deals)
                row["partner"] = t.partner
            made = sum(t.made)
            row["made"] = made
            row["success_rate"] = _rate(made, sum(t.taken))
            for i, contract in enumerate(_CONTRACTS):
                row[f"{contract.keyword}_taken"] = t.taken[i]
                row[f"{contract.keyword}_made"] = t.made[i]
            row["average_margin"] = _mean(t.margin_sum, t.margin_count)
            row["scored"] = t.scored
            row["average_score"] = _mean(t.total, t.scored)
            row["total_score"] = t.total
            row["poignees"] = t.poignees
            row["petits_au_bout"] = t.petits
            row["chelems"] = t.chelems
            yield row

    def archive(self) -> dict[str, Any]:
        """The figures of the archive as a whole."""
        contracts = {}
        for i, contract in enumerate(_CONTRACTS):
            contracts[contract.keyword] = {
                "deals": self.contracts[i], "made": self.contracts_made[i],
                "success_rate": _rate(self.contracts_made[i], self.contracts[i])}
        return {
            "deals": self.deals,
            "unreadable": self.unreadable,
            "players": {str(n): count for n, count in sorted(self.players.items())},
            "status": dict(sorted(self.status.items())),
            "contracts": contracts,
            "success_rate": _rate(sum(self.contracts_made), sum(self.contracts)),
            "average_margin": _mean(self.margin_sum, self.margin_count),
            "half_point_deals": self.half_points,
            "petits_au_bout": {c.value: self.petits[c.value] for c in Camp},
            "chelems": {c.value: self.chelems[c.value] for c in Camp},
            "chelems_announced": self.chelems_announced,
            "poignees": {size: self.poignees[size] for size in ("simple", "double", "triple")},
            "deals_with_errors": self.with_faults,
            "codes": dict(sorted(self.codes.items())),
            "deals_without_names": self.unnamed,
        }

    def to_json(self) -> dict[str, Any]:
        """Everything, for machines."""
        return {"by": self.by, "archive": self.archive(), "rows": list(self.rows())}

    def notes(self) -> list[str]:
        """What a reader of the figures should know (in English; each a :class:`Msg`
        that :func:`~tarotnotation.i18n.render` translates)."""
        out: list[str] = []
        if self.unnamed and self.by == "player":
            out.append(nmsg("{n} deal names no player for some seats: those seats are"
                            " counted as players by their seat id (S, E, N, W, F)",
                            "{n} deals name no player for some seats: those seats are"
                            " counted as players by their seat id (S, E, N, W, F)",
                            self.unnamed, n=f"{self.unnamed:,}"))
        if self.unreadable:
            out.append(nmsg("{n} deal could not be read and was left out",
                            "{n} deals could not be read and were left out",
                            self.unreadable, n=f"{self.unreadable:,}"))
        return out

    def text(self) -> list[str]:
        """The figures as lines for people (user strings made terminal-safe)."""
        a = self.archive()
        counted = nmsg("{n} deal counted", "{n} deals counted", self.deals, n=f"{self.deals:,}")
        if a["players"]:
            per = ", ".join(render(Msg("{n} players: {deals}", n=n, deals=f"{k:,}"))
                            for n, k in a["players"].items())
            counted = Msg("{counted} ({per})", counted=counted, per=per)
        lines = [render(counted)]
        mix = []
        for keyword, figures in a["contracts"].items():
            if figures["deals"]:
                mix.append(render(Msg("{contract} {deals} ({rate} made)", contract=keyword,
                                      deals=f"{figures['deals']:,}",
                                      rate=_percent(figures["success_rate"]))))
        status = a["status"]
        others = [f"{render(_STATUS.get(name, name))} {count:,}"
                  for name, count in status.items() if name not in ("scored",)]
        lines.append(render(Msg("contracts: {mix}", mix=", ".join(mix) or render(Msg("none"))))
                     + (f"; {', '.join(others)}" if others else ""))
        lines.append(render(Msg("success rate {rate}, average margin {margin}, half-point deals"
                                " {half}", rate=_percent(a["success_rate"]),
                                margin=_signed(a["average_margin"]),
                                half=f"{a['half_point_deals']:,}")))
        lines.append(render(Msg(
            "petits au bout: taker {pab_taker}, defence {pab_defence}; chelems: taker {taker},"
            " defence {defence} ({announced}); poignées: {poignees}",
            pab_taker=f"{a['petits_au_bout']['taker']:,}",
            pab_defence=f"{a['petits_au_bout']['defence']:,}",
            taker=f"{a['chelems']['taker']:,}", defence=f"{a['chelems']['defence']:,}",
            announced=nmsg("{n} announced", "{n} announced", a["chelems_announced"],
                           n=f"{a['chelems_announced']:,}"),
            poignees=", ".join(f"{render(_SIZES[k])} {v:,}" for k, v in a["poignees"].items()))))
        if a["codes"]:
            lines.append(render(nmsg("diagnostics ({n} deal with errors): {codes}",
                                     "diagnostics ({n} deals with errors): {codes}",
                                     a["deals_with_errors"], n=f"{a['deals_with_errors']:,}",
                                     codes=", ".join(f"{code} ×{n:,}"
                                                     for code, n in a["codes"].items()))))
        else:
            lines.append(render(Msg("diagnostics: none")))
        rows = list(self.rows())
        if rows:
            lines.append("")
            lines.extend(_aligned(self.by, rows))
        notes = self.notes()
        if notes:
            lines.append("")
            lines.extend(render(Msg("note: {note}", note=n)) for n in notes)
        return lines


#: A deal's status and a poignée's size, in words for people (the JSON keeps the keys).
_STATUS: Final = {"annulled": Msg("annulled"), "incomplete": Msg("incomplete"),
                  "unscored": Msg("unscored"), "unreadable": Msg("unreadable")}
_SIZES: Final = {"simple": Msg("simple"), "double": Msg("double"), "triple": Msg("triple")}
#: The columns of the table for people (``--format csv`` keeps its machine keys).
COLUMNS: Final = {
    "player": pmsg("column", "player"), "seat": pmsg("column", "seat"),
    "contract": pmsg("column", "contract"), "deals": pmsg("column", "deals"),
    "taker": pmsg("column", "taker"), "take%": pmsg("column", "take%"),
    "made%": pmsg("column", "made%"), "margin": pmsg("column", "margin"),
    "avg score": pmsg("column", "avg score"), "total": pmsg("column", "total"),
    "poignées": pmsg("column", "poignées"), "petits": pmsg("column", "petits"),
    "chelems": pmsg("column", "chelems"),
}


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:g}%"


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+g}"


def _ratio(made: int, taken: int) -> str:
    return f"{made}/{taken}" if taken else "-"


def _aligned(by: str, rows: list[dict[str, Any]]) -> list[str]:
    head = [by, "deals"]
    if by != "contract":
        head += ["taker", "take%"]
    head += ["made%"]
    if by != "contract":
        head += ["prise", "garde", "g.sans", "g.contre"]
    head += ["margin", "avg score", "total", "poignées", "petits", "chelems"]
    table = [[render(COLUMNS[h]) if h in COLUMNS else h for h in head]]
    for r in rows:
        cells = [str(r["key"]), f"{r['deals']:,}"]
        if by != "contract":
            cells += [f"{r['taker']:,}", _percent(r["take_rate"])]
        cells += [_percent(r["success_rate"])]
        if by != "contract":
            cells += [_ratio(r[f"{c.keyword}_made"], r[f"{c.keyword}_taken"])
                      for c in _CONTRACTS]
        cells += [_signed(r["average_margin"]), _signed(r["average_score"]),
                  f"{r['total_score']:+,}", f"{r['poignees']:,}", f"{r['petits_au_bout']:,}",
                  f"{r['chelems']:,}"]
        table.append(cells)
    table = [table[0], *([said(cell) for cell in row] for row in table[1:])]  # as people
    table = [[for_terminal(cell) for cell in row] for row in table]            # read them
    widths = [max(width(row[i]) for row in table) for i in range(len(head))]
    out = []
    for row in table:
        out.append("  ".join(ljust(cell, widths[0]) if i == 0 else rjust(cell, widths[i])
                             for i, cell in enumerate(row)).rstrip())
    return out


def csv_header(by: str) -> list[str]:
    """The columns of :meth:`Stats.rows` for ``by``."""
    probe = Stats(by)
    probe.keys[_CONTRACTS[0].keyword if by == "contract" else "x"] = _Tally()
    return list(next(probe.rows()))
