"""The record model's faults in Tarot words, with the code each format gives them.

Every reader turns a record's data into a :class:`~tarotnotation.records.DealRecord`
through pydantic, whose messages speak of patterns, tuples and "valid dictionaries".
:func:`model_faults` is the one place that turns a pydantic error into a diagnostic: the
message says, in Tarot words, what is wrong and what was expected (no library wording
ever reaches a user), and the code is the one the fault has in every format, so the same
fault has the same code in the notation and in JSON:

- a word or value where a card was expected that is not a card code: ``S003``;
- a malformed field tag's value (players, seats and their names, the dealer, a tag's
  name): ``S004``;
- another value that cannot be read (a card twice in a list, a seat, a number, a bid, a
  camp, a poignée size…): ``S006``;
- an unknown ruleset, switch or value: ``X001``;
- a record that cannot be (a hand of the wrong size, a card in two places, a seat that
  does not exist): ``M001``;
- JSON of the wrong shape, which the notation cannot write (a list where an object was
  expected, a missing or unknown field): ``J002``.

>>> from pydantic import ValidationError
>>> try:
...     DealRecord.model_validate({"players": "-1", "dealer": "S!",
...                                "play": [{"cards": [{"card": "ZZ"}]}]})
... except ValidationError as err:
...     for d in model_faults(err, "$"):
...         print(d.code.value, d.location.path, d.message)
S004 $.players the number of players must be 3, 4 or 5, not '-1'
S004 $.dealer 'S!' is not a seat id: expected a letter, then up to 15 letters, digits or _
S003 $.play[0].cards[0].card 'ZZ' is not a card code: expected a card such as 7H, KS, T21 or EX
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from .diagnostics import Code, Diagnostic, quote
from .records import (
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Ecart,
    Misere,
    PlayedCard,
    Poignee,
    Result,
    Seat,
    Trick,
)

__all__ = ["model_faults", "path_of"]

#: The names of the declarations' kinds (the JSON discriminator), dropped from paths.
_KINDS: Final = frozenset({"poignee", "chelem", "misere"})
#: Fields whose value is written as a tag in the notation (a fault there is S004).
_TAG_FIELDS: Final = frozenset({"players", "seats", "dealer", "tags"})
#: Fields that hold cards (a bad code there is S003).
_CARD_FIELDS: Final = frozenset({"card", "cards", "hands", "chien", "shown"})
_SEAT_FIELDS: Final = frozenset({"id", "dealer", "seat", "taker", "partner", "leader",
                                 "hands", "scores"})
_SHAPE: Final = frozenset({"missing", "extra_forbidden", "dict_type", "model_type",
                           "model_attributes_type", "list_type", "tuple_type", "set_type",
                           "union_tag_invalid", "union_tag_not_found", "too_short",
                           "too_long", "is_instance_of", "dataclass_type"})
_SEAT_RULE: Final = "expected a letter, then up to 15 letters, digits or _"

#: What each place of a record is, in words.
_WORDS: Final[dict[str, str]] = {
    "players": "the number of players",
    "dealer": "the dealer",
    "ruleset": "the ruleset",
    "seats": "the seats",
    "id": "a seat id",
    "name": "a player's name",
    "tags": "the tags",
    "hands": "the hands",
    "chien": "the chien",
    "auction": "the auction",
    "contract": "the contract",
    "seat": "the seat",
    "call": "the call",
    "card": "the card",
    "cards": "the cards",
    "ecart": "the écart",
    "shown": "the cards shown",
    "declarations": "the declarations",
    "kind": "the kind of declaration",
    "size": "the poignée's size",
    "misere": "the kind of misère (atout or tete)",
    "play": "the play",
    "leader": "the leader",
    "result": "the result",
    "taker": "the taker",
    "partner": "the partner",
    "taker_points": "the taker's points",
    "bouts": "the bouts",
    "petit_au_bout": "the petit au bout",
    "chelem": "the chelem",
    "annulled": "annulled",
    "scores": "the scores",
    "glyph": "the glyph",
    "comments": "the comments",
}
#: The values a field may take, in words, for enums and literals.
_CHOICES: Final[dict[str, str]] = {
    "size": "a poignée size: simple, double or triple",
    "misere": "a misère: atout or tete",
    "petit_au_bout": "a camp: taker or defence",
    "chelem": "a camp: taker or defence",
    "glyph": "a glyph: ! ? !! ?? !? or ?!",
    "kind": "a declaration: poignee, chelem or misere",
}
#: What each container of a record holds (for unknown and missing fields).
_OWNERS: Final[dict[str, tuple[str, type[BaseModel]]]] = {
    "": ("a deal record", DealRecord),
    "seats[]": ("a seat", Seat),
    "auction[]": ("a bid", Bid),
    "call": ("the call", Call),
    "ecart": ("the écart", Ecart),
    "play[]": ("a trick", Trick),
    "play[].cards[]": ("a played card", PlayedCard),
    "result": ("the result", Result),
}
_DECLARATIONS: Final[dict[str, type[BaseModel]]] = {
    "poignee": Poignee, "chelem": ChelemAnnouncement, "misere": Misere}
_DECLARATION_WORDS: Final = {"poignee": "a poignée", "chelem": "a chelem announcement",
                              "misere": "a misère"}
_PATH_FIRST: Final = re.compile(r"^([a-z_]+(?:\[\d+\]|\.[A-Za-z0-9_]+)*): ")


def path_of(loc: Iterable[int | str], prefix: str = "") -> str:
    """A record path (``play[2].cards[0]``) or, after ``prefix`` ``$``, a JSON path, from
    a pydantic error location (the declarations' kinds and dict-key markers dropped).

    >>> path_of(("declarations", 0, "poignee", "cards"), "$")
    '$.declarations[0].cards'
    >>> path_of(("hands", "S9!", "[key]"))
    'hands'
    """
    out = prefix
    for part in _parts(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return f"{prefix}.{path}" if path and not path.startswith("[") else prefix + path


def _parts(loc: Iterable[int | str]) -> list[int | str]:
    """A location without its dict-key marker and the declarations' kinds."""
    parts = list(loc)
    if parts and parts[-1] == "[key]":
        parts = parts[:-2]
    return [p for i, p in enumerate(parts)
            if not (p in _KINDS and i and isinstance(parts[i - 1], int))]


def _field(loc: tuple[int | str, ...]) -> str:
    """The last named field of a location (``""`` for the record itself)."""
    for part in reversed(_parts(loc)):
        if isinstance(part, str):
            return part
    return ""


def _words(field: str) -> str:
    return _WORDS.get(field, field.replace("_", " ") or "the record")


def _owner(loc: tuple[int | str, ...]) -> tuple[str, type[BaseModel] | None]:
    """What holds the last part of ``loc``: its name in words and its model."""
    shape = ""
    for i, part in enumerate(loc[:-1]):
        if isinstance(part, int):
            shape += "[]"
        elif part in _KINDS and i and isinstance(loc[i - 1], int):
            return _DECLARATION_WORDS[part], _DECLARATIONS[part]
        else:
            shape += f".{part}" if shape else part
    name, model = _OWNERS.get(shape, ("", None))
    return name or _words(_field(loc[:-1])), model


def _code(kind: str, field: str, loc: tuple[int | str, ...], message: str) -> Code:
    if kind in _SHAPE:
        return Code.JSON_SCHEMA
    if field == "ruleset":
        return Code.UNKNOWN_RULESET if kind == "value_error" else Code.BAD_VALUE
    top = next((p for p in loc if isinstance(p, str)), "")
    if field in _CARD_FIELDS or top in ("hands", "chien"):
        if "not a card" in message or "card code" in message:
            return Code.BAD_CARD_CODE
        if "appears twice" in message:
            return Code.BAD_VALUE
        if "expected a list" in message:
            return Code.JSON_SCHEMA
    if top in _TAG_FIELDS:
        return Code.BAD_TAG
    return Code.BAD_VALUE


def _message(e: Mapping[str, Any], field: str, loc: tuple[int | str, ...]) -> str:
    kind = str(e.get("type", ""))
    value = e.get("input")
    ctx = e.get("ctx") or {}
    what = _words(field)
    if kind in ("value_error", "assertion_error"):
        err = ctx.get("error")
        text = str(err) if err is not None else str(e.get("msg", ""))
        for lead in ("Value error, ", "Assertion failed, "):
            text = text.removeprefix(lead)
        return text
    if kind == "string_pattern_mismatch":
        if field == "name":
            return "a player's name is one line: this one holds a line break"
        if (loc and loc[-1] == "[key]") or field in _SEAT_FIELDS:
            return f"{quote(value)} is not a seat id: {_SEAT_RULE}"
        return f"{what}: {quote(value)} cannot be read here"
    if kind == "missing":
        if isinstance(loc[-1], int):  # a tag pair too short
            return "a tag is a pair of a name and a value: [\"Event\", \"Club\"]"
        owner, _ = _owner(loc)
        extra = " (3, 4 or 5)" if field == "players" else ""
        return f"{owner} needs {what.replace('the ', 'its ', 1)}{extra}"
    if field == "players":
        return f"the number of players must be 3, 4 or 5, not {quote(value)}"
    if field == "bouts" and kind not in ("missing",):
        return f"the bouts must be 0 to 3, not {quote(value)}"
    if kind.startswith("int_") or kind in ("greater_than_equal", "less_than_equal",
                                           "greater_than", "less_than"):
        whose = f"{loc[-1]}'s score" if "scores" in loc and isinstance(loc[-1], str) else what
        return f"{whose} must be a whole number, not {quote(value)}"
    if kind.startswith("bool_"):
        return f"{what} must be true or false, not {quote(value)}"
    if kind.startswith("float_"):
        return f"{what} must be a number, not {quote(value)}"
    if kind in ("enum", "literal_error"):
        choices = _CHOICES.get(field)
        if choices is None:
            return f"{what}: {quote(value)} is not one of the values it can take"
        return f"{quote(value)} is not {choices.split(':')[0]}: expected {choices.split(': ')[1]}"
    if kind == "string_type":
        return f"{what} must be text (a JSON string), not {quote(value)}"
    if kind in ("list_type", "tuple_type", "set_type"):
        return f"{what} must be a list, not {quote(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type", "dataclass_type"):
        return f"{what} must be an object, not {quote(value)}"
    if kind == "extra_forbidden":
        owner, model = _owner(loc)
        fields = ", ".join(model.model_fields) if model is not None else ""
        known = f": expected {fields}" if fields else ""
        return f"{quote(str(loc[-1]))} is not a field of {owner}{known}"
    if kind == "union_tag_invalid":
        return (f"{quote(ctx.get('tag'))} is not a kind of declaration: expected poignee,"
                " chelem or misere")
    if kind == "union_tag_not_found":
        return "a declaration needs its kind: poignee, chelem or misere"
    if kind in ("too_long", "too_short"):
        return f"{what} does not have as many items as it should"
    return f"{what}: {quote(value)} cannot be read here"


def model_faults(err: ValidationError, prefix: str = "") -> list[Diagnostic]:
    """One diagnostic per fault pydantic found in a record's data, in Tarot words, at its
    path: a record path (``hands.S``), or a JSON path after ``prefix`` (``$.hands.S``).

    A check of the whole record names its field first (``hands.S: a hand has…``): that
    field becomes the path, and the message does not repeat it.
    """
    out = []
    for e in err.errors(include_url=False):
        loc = tuple(e.get("loc", ()))
        field = _field(loc)
        kind = str(e.get("type", ""))
        message = _message(e, field, loc)
        path = path_of(loc)
        m = _PATH_FIRST.match(message)
        if m is not None and (not path or m.group(1).startswith(path)):
            path, message = m.group(1), message[m.end():]  # the model's own checks
            code = Code.MALFORMED_RECORD
        elif not loc or (kind in ("value_error", "assertion_error") and (
                isinstance(_parts(loc)[-1], int))):
            code = Code.MALFORMED_RECORD  # a check of a whole part (a poignée…)
        else:
            code = _code(kind, field, loc, message)
        out.append(Diagnostic.make(code, message, path=_join(prefix, path) or None))
    return out
