"""Score sheets written: records to the rows of a sheet, and what a sheet cannot hold.

:func:`sheet_rows` gives a header and a row per record, in French, with a column per
player (named by the seat's name, or its id): the layout :mod:`tarotnotation.formats.sheet`
reads back to the same facts. One sheet holds one table: every record must have the same
seats. :func:`cannot_hold` lists what a record loses in it.

>>> from tarotnotation.records import DealRecord
>>> rec = DealRecord(players=4, tags={"Deal": "1"}, seats=[{"id": s, "name": n} for s, n in
...     zip("SENW", ["Alice", "Bruno", "Chloé", "David"])], result={"contract": "garde",
...     "taker": "E", "taker_points": 40.5, "bouts": 2})
>>> header, row = sheet_rows([rec])
>>> [f"{h}={c}" for h, c in zip(header, row) if c]
['Donne=1', 'Preneur=Bruno', 'Contrat=Garde', 'Points=40,5', 'Bouts=2', 'Règles=fft']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..diagnostics import quote
from ..fields import DEFAULT_SEATS
from ..i18n import Msg, comma_list, nmsg, render
from ..rules import Camp

if TYPE_CHECKING:
    from ..records import DealRecord

from .sheetwords import (
    ROLE_TITLES,
    SEAT_HEADERS,
    TAG_ROLES,
    date_of,
    is_blank,
    norm,
    player_header,
    role_of,
)

__all__ = ["WRITTEN_ROLES", "cannot_hold", "sheet_rows"]

#: The columns the writer makes before the players' (roles, in order).
WRITTEN_ROLES: Final = ("event", "site", "date", "round", "table", "deal", "dealer", "taker",
                        "contract", "partner", "call", "points", "bouts", "poignee", "petit",
                        "chelem", "misere", "rules")
_TAG_OF_ROLE: Final = dict(TAG_ROLES)
_CAMP_WORD: Final = {Camp.TAKER: "attaque", Camp.DEFENCE: "défense"}



def _table_key(record: DealRecord) -> tuple[tuple[str, str | None], ...]:
    return tuple((s.id, s.name) for s in record.seats)


def sheet_rows(records: Iterable[DealRecord]) -> Iterator[list[str]]:
    """The header, then one row per record (the layout :func:`read_rows` reads back).

    Every record must be played by the same seats (ids and names) as the first:
    ValueError otherwise, before its row. A played deal's missing facts (contract, taker,
    points, bouts, the scores…) are worked out by the replay.
    """
    first: tuple[tuple[str, str | None], ...] | None = None
    for count, record in enumerate(records, 1):
        if first is None:
            first = _table_key(record)
            full = record.result is not None and record.result.scores is not None and len(
                record.result.scores) == record.players
            names = [s.name or s.id for s in record.seats]
            header = [ROLE_TITLES[r] for r in WRITTEN_ROLES]
            header += names if full or _facts(record)[1] else [f"Score {n}" for n in names]
            header.append(ROLE_TITLES["comment"])
            yield header
        elif _table_key(record) != first:
            seats = ", ".join(f"{s.id}:{s.name}" if s.name else s.id for s in record.seats)
            raise ValueError(f"deal {count} is played by {seats}, not by the players of the"
                             " first deal: a score sheet has one column per player of one"
                             " table; write each table to its own sheet")
        yield _row(record)


def _facts(record: DealRecord) -> tuple[dict[str, Any], bool]:
    """The result's facts, missing ones taken from the replay for a played deal; and
    whether every seat's score is then known."""
    res = record.result
    facts: dict[str, Any] = {} if res is None else {
        k: getattr(res, k) for k in ("contract", "taker", "partner", "taker_points", "bouts",
                                     "petit_au_bout", "chelem", "annulled", "scores")}
    if record.play:
        from ..replay import Status, replay  # the replay reads no format: no cycle

        rep = replay(record)
        if rep.status is Status.SCORED:
            from ..records import Points

            fill = {"contract": rep.contract, "taker": rep.taker,
                    "partner": (rep.partner or rep.taker) if record.players == 5 else None,
                    "taker_points": None if rep.taker_half is None else Points(rep.taker_half),
                    "bouts": rep.bouts, "petit_au_bout": rep.petit_au_bout,
                    "chelem": rep.chelem, "scores": dict(rep.scores or {}) or None}
            for k, v in fill.items():
                if facts.get(k) is None:
                    facts[k] = v
        elif rep.status is Status.ANNULLED:
            facts["annulled"] = True
    scores: Mapping[str, int] | None = facts.get("scores")
    return facts, scores is not None and len(scores) == record.players


def _row(record: DealRecord) -> list[str]:
    from ..records import Misere, Poignee  # (loaded: record is one)

    facts, _ = _facts(record)
    label = {s.id: s.name or s.id for s in record.seats}
    cells: dict[str, str] = {}
    for role in ("event", "site", "date", "round", "table", "deal"):
        value = record.tag(_TAG_OF_ROLE[role])
        if value is not None:
            cells[role] = value.replace(".", "-") if role == "date" and "?" not in value \
                else value
    if record.dealer is not None:
        cells["dealer"] = label[record.dealer]
    taker = facts.get("taker")
    if taker is not None:
        cells["taker"] = label[taker]
    if facts.get("annulled"):
        cells["contract"] = "Passe"
    elif facts.get("contract") is not None:
        cells["contract"] = facts["contract"].french
    partner = facts.get("partner")
    if partner is not None:
        alone = partner == taker and record.players == 5
        cells["partner"] = "Personne" if alone else label[partner]
    if record.call is not None:
        cells["call"] = record.call.card.french
    if facts.get("taker_points") is not None:
        cells["points"] = str(facts["taker_points"]).replace(".", ",")
    if facts.get("bouts") is not None:
        cells["bouts"] = str(facts["bouts"])
    poignees, miseres, announced = [], [], False
    for decl in record.declarations:
        if isinstance(decl, Poignee):
            size = decl.size
            if size is None and decl.cards is not None:
                size = record.table.poignee_size(len(decl.cards))
            if size is not None:
                poignees.append(f"{size.value} {label[decl.seat]}")
        elif isinstance(decl, Misere):
            kind = "tête" if decl.misere.value == "tete" else "atout"
            miseres.append(f"{label[decl.seat]} {kind}")
        else:
            announced = True
    if poignees:
        cells["poignee"] = " + ".join(poignees)
    if facts.get("petit_au_bout") is not None:
        cells["petit"] = _CAMP_WORD[facts["petit_au_bout"]]
    chelem = facts.get("chelem")
    if announced or chelem is not None:
        if announced and chelem is None:
            cells["chelem"] = "annoncé chuté"
        elif announced:
            cells["chelem"] = "annoncé" if chelem is Camp.TAKER else "annoncé, défense"
        else:
            cells["chelem"] = "oui" if chelem is Camp.TAKER else "défense"
    if miseres:
        cells["misere"] = " + ".join(miseres)
    cells["rules"] = record.ruleset
    row = [cells.get(role, "") for role in WRITTEN_ROLES]
    scores: Mapping[str, int] = facts.get("scores") or {}
    row += [str(scores[s]) if s in scores else "" for s in record.seat_ids]
    row.append(" | ".join(record.comments))
    return row


def cannot_hold(record: DealRecord) -> list[str]:
    """What a score sheet written from ``record`` by :func:`sheet_rows` cannot hold: one
    short phrase per kind of information lost (empty when nothing is).

    >>> from tarotnotation.records import DealRecord
    >>> rec = DealRecord(players=4, tags={"Event": "Club", "Annotator": "G."},
    ...                  result={"contract": "garde", "taker": "E"})
    >>> cannot_hold(rec)
    ['tags (Annotator)']
    """
    from ..records import Poignee  # (loaded: record is one)

    out: list[str] = []
    kept = set(_TAG_OF_ROLE.values())
    tags = [name for name, _ in record.tags if name not in kept]
    counts: dict[str, int] = {}
    for name, _ in record.tags:
        counts[name] = counts.get(name, 0) + 1
    twice = [name for name in kept if counts.get(name, 0) > 1]
    if tags:
        out.append(Msg("tags ({tags})", tags=", ".join(tags)))
    if twice:
        out.append(Msg("a tag given twice ({tags}: the first is kept)", tags=", ".join(twice)))
    odd = [f"{name} {quote(value)}" for name, value in record.tags if name in kept and (
        value != value.strip() or is_blank(value)
        or (name == "Date" and date_of(value) is None))]
    if odd:
        out.append(Msg("tag values a cell does not give back ({values})", values=", ".join(odd)))
    labels = [s.name or s.id for s in record.seats]
    keys = [norm(label) for label in labels]
    ids = sum(label in SEAT_HEADERS for label in labels) >= 3
    unclear = [label for label, key in zip(labels, keys, strict=True)
               if not key or keys.count(key) > 1 or label != label.strip()
               or (role_of(label) is not None and not (ids and label in SEAT_HEADERS))
               or player_header(label) is not None]
    if unclear:
        out.append(Msg("player names a header cannot tell apart or read as a player ({names})",
                       names=", ".join(repr(u) for u in unclear)))
    if record.seat_ids != DEFAULT_SEATS[record.players]:
        out.append(Msg("the seat ids ({ids} become {seats}, in the same order)",
                       ids=" ".join(record.seat_ids),
                       seats=" ".join(DEFAULT_SEATS[record.players])))
    if record.hands or record.chien is not None:
        out.append(Msg("the hands and the chien"))
    annulled = record.result is not None and record.result.annulled
    if annulled and record.result is not None and record.result.contract is not None:
        out.append(Msg("a contract with an annulled result (the column says one or the other)"))
    if annulled and not record.auction:
        out.append(Msg("an annulled result without its auction (read back, everyone passed)"))
    if record.auction and not (annulled and all(b.is_pass for b in record.auction)
                               and len(record.auction) == record.players
                               and all(b.seat is None and b.glyph is None and not b.comments
                                       for b in record.auction)):
        out.append(nmsg("the auction ({n} bid: the contract and taker are kept)",
                        "the auction ({n} bids: the contract and taker are kept)",
                        len(record.auction), n=len(record.auction)))
    if record.ecart is not None:
        out.append(Msg("the écart"))
    if record.play:
        out.append(nmsg("the play ({n} trick: the facts and scores the replay works out from it"
                        " are written)",
                        "the play ({n} tricks: the facts and scores the replay works out from"
                        " it are written)", len(record.play), n=len(record.play)))
    shown = [d.seat for d in record.declarations if isinstance(d, Poignee) and d.cards]
    if shown:
        out.append(Msg("the trumps shown in poignées ({seats}: the size is kept)",
                       seats=comma_list(shown)))
    chelems = [d.seat for d in record.declarations
               if d.kind == "chelem" and d.seat != (record.result.taker
                                                    if record.result else None)]
    if chelems:
        out.append(Msg("a chelem announced by another seat than the recorded taker ({seats})",
                       seats=comma_list(chelems)))
    notes = []
    if record.glyph is not None:
        notes.append(Msg("the deal's glyph"))
    joined = " | ".join(record.comments)
    if record.comments and (is_blank(joined) or [
            c.strip() for c in joined.split(" | ") if c.strip()] != list(record.comments)):
        notes.append(Msg("the deal's comments as they are split (one cell holds them, joined"
                         " with ' | ', each stripped)"))
    parts = [(Msg("annotations on the call"), record.call),
             (Msg("annotations on the result"), record.result)]
    for what, part in parts:
        if part is not None and (part.glyph is not None or part.comments):
            notes.append(what)
    if any(d.glyph is not None or d.comments for d in record.declarations):
        notes.append(Msg("annotations on declarations"))
    if notes:
        out.append(Msg("comments and glyphs ({notes})",
                       notes=", ".join(render(n) for n in notes)))
    return out
