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
from .i18n import AT, Msg, message_of
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
_SEAT_RULE: Final = Msg("expected a letter, then up to 15 letters, digits or _")

#: What each place of a record is, in words.
_WORDS: Final[dict[str, str]] = {
    "players": Msg("the number of players"),
    "dealer": Msg("the dealer"),
    "ruleset": Msg("the ruleset"),
    "seats": Msg("the seats"),
    "id": Msg("a seat id"),
    "name": Msg("a player's name"),
    "tags": Msg("the tags"),
    "hands": Msg("the hands"),
    "chien": Msg("the chien"),
    "auction": Msg("the auction"),
    "contract": Msg("the contract"),
    "seat": Msg("the seat"),
    "call": Msg("the call"),
    "card": Msg("the card"),
    "cards": Msg("the cards"),
    "ecart": Msg("the écart"),
    "shown": Msg("the cards shown"),
    "declarations": Msg("the declarations"),
    "kind": Msg("the kind of declaration"),
    "size": Msg("the poignée's size"),
    "misere": Msg("the kind of misère (atout or tete)"),
    "play": Msg("the play"),
    "leader": Msg("the leader"),
    "result": Msg("the result"),
    "taker": Msg("the taker"),
    "partner": Msg("the partner"),
    "taker_points": Msg("the taker's points"),
    "bouts": Msg("the bouts"),
    "petit_au_bout": Msg("the petit au bout"),
    "chelem": Msg("the chelem"),
    "annulled": Msg("annulled"),
    "scores": Msg("the scores"),
    "glyph": Msg("the glyph"),
    "comments": Msg("the comments"),
}
#: The same, as what a container lacks ("a bid needs its contract").
_ITS: Final[dict[str, str]] = {
    "players": Msg("its number of players"),
    "dealer": Msg("its dealer"),
    "ruleset": Msg("its ruleset"),
    "seats": Msg("its seats"),
    "tags": Msg("its tags"),
    "hands": Msg("its hands"),
    "chien": Msg("its chien"),
    "auction": Msg("its auction"),
    "contract": Msg("its contract"),
    "seat": Msg("its seat"),
    "call": Msg("its call"),
    "card": Msg("its card"),
    "cards": Msg("its cards"),
    "ecart": Msg("its écart"),
    "shown": Msg("its cards shown"),
    "declarations": Msg("its declarations"),
    "kind": Msg("its kind of declaration"),
    "size": Msg("its poignée's size"),
    "misere": Msg("its kind of misère (atout or tete)"),
    "play": Msg("its play"),
    "leader": Msg("its leader"),
    "result": Msg("its result"),
    "taker": Msg("its taker"),
    "partner": Msg("its partner"),
    "taker_points": Msg("its taker's points"),
    "bouts": Msg("its bouts"),
    "petit_au_bout": Msg("its petit au bout"),
    "chelem": Msg("its chelem"),
    "scores": Msg("its scores"),
    "glyph": Msg("its glyph"),
    "comments": Msg("its comments"),
}
#: The values a field may take, in words, for enums and literals.
_CHOICES: Final[dict[str, tuple[str, str]]] = {
    "size": (Msg("a poignée size"), Msg("simple, double or triple")),
    "misere": (Msg("a misère"), Msg("atout or tete")),
    "petit_au_bout": (Msg("a camp"), Msg("taker or defence")),
    "chelem": (Msg("a camp"), Msg("taker or defence")),
    "glyph": (Msg("a glyph"), Msg("! ? !! ?? !? or ?!")),
    "kind": (Msg("a declaration"), Msg("poignee, chelem or misere")),
}
#: What each container of a record holds (for unknown and missing fields).
_OWNERS: Final[dict[str, tuple[str, type[BaseModel]]]] = {
    "": (Msg("a deal record"), DealRecord),
    "seats[]": (Msg("a seat"), Seat),
    "auction[]": (Msg("a bid"), Bid),
    "call": (Msg("the call"), Call),
    "ecart": (Msg("the écart"), Ecart),
    "play[]": (Msg("a trick"), Trick),
    "play[].cards[]": (Msg("a played card"), PlayedCard),
    "result": (Msg("the result"), Result),
}
_DECLARATIONS: Final[dict[str, type[BaseModel]]] = {
    "poignee": Poignee, "chelem": ChelemAnnouncement, "misere": Misere}
_DECLARATION_WORDS: Final = {"poignee": Msg("a poignée"),
                              "chelem": Msg("a chelem announcement"), "misere": Msg("a misère")}
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
    return _WORDS.get(field, field.replace("_", " ") or Msg("the record"))


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
        said = message.template if isinstance(message, Msg) else message  # the English
        if "not a card" in said or "card code" in said:
            return Code.BAD_CARD_CODE
        if "appears twice" in said:
            return Code.BAD_VALUE
        if "expected a list" in said:
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
        if isinstance(err, BaseException):
            said = message_of(err)  # the model's own check: a Msg, read in any language
            if isinstance(said, Msg):
                return said
        text = str(err) if err is not None else str(e.get("msg", ""))
        for lead in ("Value error, ", "Assertion failed, "):
            text = text.removeprefix(lead)
        return text
    if kind == "string_pattern_mismatch":
        if field == "name":
            return Msg("a player's name is one line: this one holds a line break")
        if (loc and loc[-1] == "[key]") or field in _SEAT_FIELDS:
            return Msg("{value} is not a seat id: {rule}", value=quote(value), rule=_SEAT_RULE)
        return Msg("{what}: {value} cannot be read here", what=what, value=quote(value))
    if kind == "missing":
        if isinstance(loc[-1], int):  # a tag pair too short
            return Msg('a tag is a pair of a name and a value: ["Event", "Club"]')
        owner, _ = _owner(loc)
        its = _ITS.get(field) or str(what).replace("the ", "its ", 1)
        if field == "players":
            return Msg("{owner} needs {its} (3, 4 or 5)", owner=owner, its=its)
        return Msg("{owner} needs {its}", owner=owner, its=its)
    if field == "players":
        return Msg("the number of players must be 3, 4 or 5, not {value}", value=quote(value))
    if field == "bouts" and kind not in ("missing",):
        return Msg("the bouts must be 0 to 3, not {value}", value=quote(value))
    if kind.startswith("int_") or kind in ("greater_than_equal", "less_than_equal",
                                           "greater_than", "less_than"):
        whose = (Msg("{seat}'s score", seat=loc[-1])
                 if "scores" in loc and isinstance(loc[-1], str) else what)
        return Msg("{what} must be a whole number, not {value}", what=whose,
                   value=quote(value))
    if kind.startswith("bool_"):
        return Msg("{what} must be true or false, not {value}", what=what, value=quote(value))
    if kind.startswith("float_"):
        return Msg("{what} must be a number, not {value}", what=what, value=quote(value))
    if kind in ("enum", "literal_error"):
        choices = _CHOICES.get(field)
        if choices is None:
            return Msg("{what}: {value} is not one of the values it can take", what=what,
                       value=quote(value))
        return Msg("{value} is not {noun}: expected {values}", value=quote(value),
                   noun=choices[0], values=choices[1])
    if kind == "string_type":
        return Msg("{what} must be text (a JSON string), not {value}", what=what,
                   value=quote(value))
    if kind in ("list_type", "tuple_type", "set_type"):
        return Msg("{what} must be a list, not {value}", what=what, value=quote(value))
    if kind in ("dict_type", "model_type", "model_attributes_type", "dataclass_type"):
        return Msg("{what} must be an object, not {value}", what=what, value=quote(value))
    if kind == "extra_forbidden":
        owner, model = _owner(loc)
        fields = ", ".join(model.model_fields) if model is not None else ""
        if fields:
            return Msg("{name} is not a field of {owner}: expected {fields}",
                       name=quote(str(loc[-1])), owner=owner, fields=fields)
        return Msg("{name} is not a field of {owner}", name=quote(str(loc[-1])), owner=owner)
    if kind == "union_tag_invalid":
        return Msg("{tag} is not a kind of declaration: expected poignee, chelem or misere",
                   tag=quote(ctx.get("tag")))
    if kind == "union_tag_not_found":
        return Msg("a declaration needs its kind: poignee, chelem or misere")
    if kind in ("too_long", "too_short"):
        return Msg("{what} does not have as many items as it should", what=what)
    return Msg("{what}: {value} cannot be read here", what=what, value=quote(value))


def _after_place(message: str, end: int) -> str:
    """What a message says after the place it names first (``hands.S: …``)."""
    if isinstance(message, Msg) and message.template == AT:
        said = message.params.get("message")
        if isinstance(said, str):
            return said  # a Msg still, to be read in the run's language
    return message[end:]


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
            # the model's own checks (i18n.at): the place, then the message still a Msg
            path, message = m.group(1), _after_place(message, m.end())
            code = Code.MALFORMED_RECORD
        elif not loc or (kind in ("value_error", "assertion_error") and (
                isinstance(_parts(loc)[-1], int))):
            code = Code.MALFORMED_RECORD  # a check of a whole part (a poignée…)
        else:
            code = _code(kind, field, loc, message)
        out.append(Diagnostic.make(code, message, path=_join(prefix, path) or None))
    return out
