"""The writer: :class:`~tarotnotation.records.DealRecord` -> canonical Tarot notation.

The canonical form (``docs/notation.md``, section *Canonical form*) is what the writer
prints: the record's own tags in their order, then ``Players``, ``Seats`` (when not the
default ids), ``Dealer`` (when known) and ``Ruleset``, one per line (side by side, up to
79 columns, for an outcome-only record); the deal's glyph and comments; then
the sections in a fixed order (hands, chien, auction, call, écart, declarations, play,
result), card lists in canonical card order, one trick per line with its number, lines
wrapped at 79 columns without ever breaking before a glyph or a comment. Reading canonical
text and writing it again gives the same bytes.

>>> from tarotnotation.records import DealRecord, Bid, Result
>>> rec = DealRecord(players=4, dealer="W", tags=(("Event", "Club"),),
...                  auction=[Bid(contract="pass"), Bid(contract="garde", glyph="!"),
...                           Bid(contract="pass"), Bid(contract="pass")],
...                  result=Result(contract="garde", taker="E", taker_points=48, bouts=2,
...                                scores={"S": -64, "E": 192, "N": -64, "W": -64}))
>>> print(dumps(rec), end="")
[Event "Club"] [Players "4"] [Dealer "W"] [Ruleset "fft"]
auction: pass garde! pass pass
result: garde taker E points 48 bouts 2 scores S-64 E+192 N-64 W-64
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Final

from pydantic import BaseModel

from ..cards import CardSet
from ..fields import DEFAULT_SEATS
from ..rules import Contract

if TYPE_CHECKING:  # the writer reads records; records.DealRecord.__str__ calls it
    from ..records import DealRecord, Result, Trick

__all__ = ["WIDTH", "dump", "dumps", "dumps_bytes", "write_record", "write_trick"]

#: The column at which the writer wraps lines.
WIDTH: Final = 79
_INDENT: Final = "    "

_Unit = tuple[str, bool]  # text, glued to the unit before (never a line break before it)


def _comment(text: str) -> str:
    out: list[str] = ["{"]
    n = len(text)
    line_start = True
    for i, ch in enumerate(text):
        if ch == "\\":
            nxt = text[i + 1] if i + 1 < n else ""
            out.append("\\\\" if nxt in ("", "\\", "{", "}", "[") else "\\")
        elif ch in "{}":
            out.append("\\" + ch)
        elif ch == "[" and line_start:
            out.append("\\[")
        else:
            out.append(ch)
        if ch == "\n":
            line_start = True
        elif ch not in " \t":
            line_start = False
    out.append("}")
    return "".join(out)


def _notes(units: list[_Unit], glyph: str | None, comments: Iterable[str],
           attached: bool) -> None:
    """Append a glyph (attached to the unit before, or spaced) and the comments."""
    if glyph is not None:
        if attached and units:
            text, glued = units[-1]
            units[-1] = (text + glyph, glued)
        else:
            units.append((glyph, bool(units)))
    units.extend((_comment(c), True) for c in comments)


def _lines(head: str, units: list[_Unit], out: list[str]) -> None:
    """``head`` then the units, wrapped at :data:`WIDTH` (continuations indented)."""
    line = head
    width = len(head)
    fresh = True  # nothing after the head yet: the first unit always joins it
    for text, glued in units:
        last = text.rsplit("\n", 1)
        if fresh or glued or width + 1 + len(text) <= WIDTH:
            sep = " " if line else ""
            line += sep + text
            width = len(last[-1]) if len(last) > 1 else width + len(sep) + len(text)
        else:
            out.append(line)
            line = _INDENT + text
            width = len(last[-1]) if len(last) > 1 else len(line)
        fresh = False
    out.append(line)


def _cards(cards: CardSet) -> list[_Unit]:
    if not cards:
        return [("-", False)]
    return [(c.code, False) for c in cards]


def _tag(name: str, value: str) -> str:
    # The model keeps tag values and seat names on one line.
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _seats_value(record: DealRecord) -> str | None:
    ids = record.seat_ids
    if ids == DEFAULT_SEATS[record.players] and all(s.name is None for s in record.seats):
        return None
    parts = []
    for seat in record.seats:
        if seat.name is None:
            parts.append(seat.id)
        else:
            name = seat.name.replace("\\", "\\\\").replace(",", "\\,")
            parts.append(f"{seat.id}:{name}")
    return ", ".join(parts)


def _tags(record: DealRecord) -> list[str]:
    out = []
    for name, value in record.tags:  # never a field's tag: the model refuses those
        out.append(_tag(name, value))
    out.append(_tag("Players", str(record.players)))
    seats = _seats_value(record)
    if seats is not None:
        out.append(_tag("Seats", seats))
    if record.dealer is not None:
        out.append(_tag("Dealer", record.dealer))
    out.append(_tag("Ruleset", record.ruleset))
    return out


def _trick_units(trick: Trick) -> list[_Unit]:
    units: list[_Unit] = []
    if trick.leader is not None:
        units.append((f"({trick.leader})", False))
    _notes(units, trick.glyph, trick.comments, attached=False)
    for pc in trick.cards:
        units.append((pc.card.code if pc.seat is None else f"{pc.seat}:{pc.card.code}", False))
        _notes(units, pc.glyph, pc.comments, attached=True)
    return units


def _trick(number: int, trick: Trick, out: list[str]) -> None:
    _lines(f"{number:>2}.", _trick_units(trick), out)


def write_trick(trick: Trick) -> str:
    """One trick as the notation writes it in a record's play, without its number: its
    leader when written, its cards (with their seats when written), glyphs and comments.

    >>> from tarotnotation.records import Trick
    >>> print(write_trick(Trick(leader="E", cards=[{"card": "KH", "glyph": "!"},
    ...                                            {"card": "2H"}])))
    (E) KH! 2H
    """
    out: list[str] = []
    _lines("", _trick_units(trick), out)
    return "\n".join(out)


def _result(record: DealRecord, res: Result, out: list[str]) -> None:
    units: list[_Unit] = []

    def add(*words: str) -> None:
        units.append((" ".join(words), False))

    if res.contract is not None:
        add(res.contract.keyword)
    if res.taker is not None:
        add("taker", res.taker)
    if res.partner is not None:
        add("partner", res.partner)
    if res.taker_points is not None:
        add("points", str(res.taker_points))
    if res.bouts is not None:
        add("bouts", str(res.bouts))
    if res.petit_au_bout is not None:
        add("petit_au_bout", res.petit_au_bout.value)
    if res.chelem is not None:
        add("chelem", res.chelem.value)
    if res.annulled:
        add("annulled")
    if res.scores is not None:
        order = {s: i for i, s in enumerate(record.seat_ids)}
        seats = sorted(res.scores, key=lambda s: order.get(s, len(order)))
        units.append(("scores", False))
        units.extend((f"{s}{res.scores[s]:+d}", False) for s in seats)
    _notes(units, res.glyph, res.comments, attached=False)
    _lines("result:", units, out)


def write_record(record: DealRecord) -> str:
    """The canonical text of one record, ending with a line break."""
    out: list[str] = []
    tags = _tags(record)
    if record.is_outcome_only:  # a score-sheet line: tags side by side
        line = tags[0]
        for tag in tags[1:]:
            if len(line) + 1 + len(tag) <= WIDTH:
                line += " " + tag
            else:
                out.append(line)
                line = tag
        out.append(line)
    else:
        out.extend(tags)
    if record.glyph is not None or record.comments:
        units: list[_Unit] = []
        _notes(units, record.glyph, record.comments, attached=False)
        _lines("", units, out)
    if record.hands is not None:
        order = {s: i for i, s in enumerate(record.seat_ids)}
        for seat in sorted(record.hands, key=lambda s: order.get(s, len(order))):
            _lines(f"hand {seat}:", _cards(record.hands[seat]), out)
    if record.chien is not None:
        _lines("chien:", _cards(record.chien), out)
    if record.auction:
        units = []
        for bid in record.auction:
            word = "pass" if bid.contract is None else Contract(bid.contract).keyword
            units.append((word if bid.seat is None else f"{bid.seat}:{word}", False))
            _notes(units, bid.glyph, bid.comments, attached=True)
        _lines("auction:", units, out)
    if record.call is not None:
        units = [(record.call.card.code, False)]
        _notes(units, record.call.glyph, record.call.comments, attached=True)
        _lines("call:", units, out)
    if record.ecart is not None:
        ecart = record.ecart
        units = [] if ecart.cards is None else _cards(ecart.cards)
        if ecart.shown:
            units.append(("shown:", False))
            units.extend(_cards(ecart.shown))
        _notes(units, ecart.glyph, ecart.comments, attached=False)
        _lines("ecart:", units, out)
    for decl in record.declarations:
        units = []
        if decl.kind == "poignee":
            if decl.size is None:
                head = f"poignee {decl.seat}:"
            else:
                head = f"poignee {decl.seat} {decl.size.value}" + (
                    ":" if decl.cards is not None else "")
            if decl.cards is not None:
                units.extend(_cards(decl.cards))
        elif decl.kind == "chelem":
            head = f"chelem {decl.seat}"
        else:
            head = f"misere {decl.seat} {decl.misere.value}"
        _notes(units, decl.glyph, decl.comments, attached=False)
        _lines(head, units, out)
    if record.play:
        out.append("play:")
        for t, trick in enumerate(record.play, 1):
            _trick(t, trick, out)
    if record.result is not None:
        _result(record, record.result, out)
    return "\n".join(out) + "\n"


def _each(records: DealRecord | Iterable[DealRecord]) -> Iterable[DealRecord]:
    """The records given: one record (a pydantic model, which iterates over its own
    fields) or any other iterable of them."""
    if isinstance(records, BaseModel):
        return (records,)
    return records


def dumps(records: DealRecord | Iterable[DealRecord]) -> str:
    """The canonical text of one record or of several (separated by a blank line), a
    ``str`` as :func:`tarotnotation.formats.json.dumps` gives JSON; :func:`dumps_bytes`
    gives its UTF-8 bytes."""
    return "\n".join(write_record(r) for r in _each(records))


def dumps_bytes(records: DealRecord | Iterable[DealRecord]) -> bytes:
    """The canonical text of one record or of several as UTF-8 bytes (:func:`dumps`,
    encoded), as a ``.tarot`` file holds it."""
    return dumps(records).encode("utf-8")


def dump(records: DealRecord | Iterable[DealRecord], fp: IO[str]) -> None:
    """Write the canonical text of one record or of several to a text stream."""
    first = True
    for record in _each(records):
        if not first:
            fp.write("\n")
        fp.write(write_record(record))
        first = False
