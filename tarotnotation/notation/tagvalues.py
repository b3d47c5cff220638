"""The values of the notation's tags that become fields of the record, read the same way by
the grammar path (``reader.py``) and the fast scanner (``scanner.py``).

>>> seats_entries("S:Alice Martin, E:Bruno")
[{'id': 'S', 'name': 'Alice Martin'}, {'id': 'E', 'name': 'Bruno'}]
>>> ruleset_spec("FFT  misere=on"), players_of({"hands": {"S": ["7H"] * 15}})
('fft misere=on', 5)
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from ..diagnostics import quote
from ..lexicon import SEAT_ID_RE
from ..rules import Ruleset, table

__all__ = ["players_of", "ruleset_spec", "seats_entries"]

_SEAT_UNESCAPE: Final = re.compile(r"\\([\\,])")


def _split_commas(value: str) -> list[str]:
    """Split at commas not escaped by a backslash; ``\\,`` and ``\\\\`` stay escaped."""
    out: list[str] = []
    start = i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\":
            i += 2
            continue
        if ch == ",":
            out.append(value[start:i])
            start = i + 1
        i += 1
    out.append(value[start:])
    return out


def seats_entries(value: str) -> list[dict[str, Any]] | str:
    """The seats of a Seats tag's value, or the message saying why it is not one."""
    entries = _split_commas(value) if "," in value else value.split()
    seats: list[dict[str, Any]] = []
    for entry in entries:
        entry = entry.strip()
        if not entry:
            continue
        sid, sep, name = entry.partition(":")
        if not SEAT_ID_RE.fullmatch(sid):
            return (f"Seats: {quote(sid)} is not a seat id (a letter, then up to 15"
                    " letters, digits or _), as in \"S:Alice, E:Bruno\"")
        seat: dict[str, Any] = {"id": sid}
        if sep:
            seat["name"] = _SEAT_UNESCAPE.sub(r"\1", name) if "\\" in name else name
        seats.append(seat)
    return seats


@lru_cache(maxsize=256)
def ruleset_spec(value: str) -> str:
    return Ruleset.from_spec(value).spec()


def players_of(data: dict[str, Any]) -> int:
    """The number of players when no Players tag says it."""
    if "seats" in data:
        return len(data["seats"])
    hands = data.get("hands")
    if hands:
        size = len(next(iter(hands.values())))
        for n in (3, 4, 5):
            if table(n).hand == size:
                return n
    result = data.get("result")
    if result and result.get("scores") and len(result["scores"]) in (3, 5):
        return len(result["scores"])
    return 4
