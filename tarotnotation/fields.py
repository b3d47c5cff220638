"""The plain values of a record, without its model: seat ids, bid words, the tags that
are fields, exact points, and the checks of the usual JSON shape.

:mod:`tarotnotation.records` (the pydantic model) and :mod:`tarotnotation.builder` (records
built without validating them again) are built on these, and so are the quick check
(:mod:`tarotnotation.quick`) and the notation's fast scanner: a clean deal is judged with
what is here, and pydantic is imported only when a deal needs the model (issue 17: nothing a
command does not use is imported). The names are also exported by ``records`` and
``builder``, where they were first defined.

>>> DEFAULT_SEATS[4], BID_WORDS["garde"].name
(('S', 'E', 'N', 'W'), 'GARDE')
>>> keys_of({"glyph": "!"}, NOTE_KEYS)
{'glyph': '!'}
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from .diagnostics import quote
from .i18n import Msg
from .lexicon import GLYPH_SET
from .limits import MAX_DIGITS
from .rules import Contract

if TYPE_CHECKING:
    from collections.abc import Callable
    from fractions import Fraction


def _first_fraction(value: Any) -> Fraction:
    """``Fraction(value)``, :mod:`fractions` imported on first use (a deal that writes no
    points never needs it: issue 17), then :data:`_Fraction` is the class itself."""
    global _Fraction
    from fractions import Fraction

    _Fraction = Fraction
    return Fraction(value)


#: :class:`fractions.Fraction`, once a number of points has been read.
_Fraction: Callable[..., Fraction] = _first_fraction

__all__ = [
    "BID_KEYS",
    "BID_WORDS",
    "CALL_KEYS",
    "DECL_KEYS",
    "DEFAULT_SEATS",
    "ECART_KEYS",
    "FIELD_TAGS",
    "NAME_RE",
    "NOTE_KEYS",
    "PLAYED_KEYS",
    "RESULT_KEYS",
    "SEAT_KEYS",
    "TRICK_KEYS",
    "UNRECORDED_TAG",
    "Points",
    "UnusualDataError",
    "check_notes",
    "check_tags",
    "find_tag",
    "keys_of",
]

#: A player's name: one line.
NAME_RE: Final = re.compile(r"[^\r\n]*")
#: The bid words of the record (``pass`` and the contracts' keywords).
BID_WORDS: Final[dict[str, Contract | None]] = {
    "pass": None, **{c.keyword: c for c in Contract}}

#: Seat ids used when a record names none, in order of play (counter-clockwise).
DEFAULT_SEATS: Final[dict[int, tuple[str, ...]]] = {
    3: ("S", "E", "N"),
    4: ("S", "E", "N", "W"),
    5: ("S", "E", "N", "W", "F"),
}

#: Tag names that stand for record fields (the text notation writes those fields as these
#: tags); they cannot be extra tags.
FIELD_TAGS: Final = ("Players", "Seats", "Dealer", "Ruleset")
_FIELD_TAG_KEYS: Final = frozenset(t.lower() for t in FIELD_TAGS)

#: The tag a reader adds to say what the record's source format cannot hold (words
#: separated by spaces, e.g. ``call``: a 5-player TarotClub log has no called card). The
#: replay then reports the missing part as a limit of the format, not a fault of the game.
UNRECORDED_TAG: Final = "Unrecorded"


def find_tag(tags: Iterable[tuple[str, str]], name: str, default: str | None = None
             ) -> str | None:
    """The value of the first tag named ``name`` (case-insensitive), or ``default``.

    >>> find_tag([("Event", "Club"), ("Date", "2026.11.??")], "date")
    '2026.11.??'
    """
    key = name.lower()
    for k, v in tags:
        if k.lower() == key:
            return v
    return default


class Points:
    """An exact number of card points as recorded, held in half-points (``Points(97)`` is
    48.5).

    Numbers given to the model are points: ``48.5`` validates to ``Points(97)``. A record
    may hold a number that no deal gives (95, or 45.3, which is not a whole or half
    number): the model keeps it as written, and the replay says why it cannot be true
    (:mod:`tarotnotation.plausibility`, R201 and R202). Only a number too long to be
    anyone's count (more than ``MAX_DIGITS`` digits) is refused.

    >>> Points.parse(48.5), Points.parse("41"), str(Points(97))
    (Points(97), Points(82), '48.5')
    >>> p = Points.parse("45,3")
    >>> str(p), p.as_number(), p.is_card_points, p.exact_half is None
    ('45.3', 45.3, False, True)
    >>> Points.parse(95).is_card_points, Points.parse(95).half
    (False, 190)
    >>> Points.parse(1e300)
    Traceback (most recent call last):
    ...
    ValueError: 1e+300 is not a number of points a record can hold (more than 18 digits)
    """

    __slots__ = ("_double",)
    _double: Fraction

    def __init__(self, half: int | Fraction) -> None:
        object.__setattr__(self, "_double", _Fraction(half))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Points is immutable")

    def __reduce__(self) -> tuple[type[Points], tuple[int | Fraction]]:
        return (Points, (self.exact_half if self.exact_half is not None else self._double,))

    @property
    def value(self) -> Fraction:
        """The number of points, exactly."""
        return self._double / 2

    @property
    def exact_half(self) -> int | None:
        """The points in half-points, or None when they are not a whole or half number."""
        d = self._double
        return d.numerator if d.denominator == 1 else None

    @property
    def half(self) -> int:
        """The points in half-points (raises ValueError when not a whole or half number)."""
        d = self._double
        if d.denominator != 1:
            raise ValueError(Msg("{points} is not a whole or half number of points",
                                 points=str(self)))
        return d.numerator

    @property
    def is_card_points(self) -> bool:
        """True for a count a camp can have: a whole or half number from 0 to 91."""
        d = self._double
        return d.denominator == 1 and 0 <= d.numerator <= 182

    @classmethod
    def parse(cls, value: Any) -> Points:
        """Points from a number or a string such as ``"48.5"`` or ``"48,5"``."""
        if isinstance(value, Points):
            return value
        if isinstance(value, bool):
            raise ValueError(Msg("expected a number of points"))
        shown = value
        if isinstance(value, str):
            text = value.strip().replace(",", ".")
            if _NUMBER_RE.fullmatch(text) is None:
                raise ValueError(Msg("{value} is not a number of points", value=quote(value)))
            shown = text
        elif isinstance(value, float):
            if not math.isfinite(value):  # inf, nan
                raise ValueError(Msg("{value} is not a number of points", value=quote(value)))
            text = repr(value)
        elif isinstance(value, int):
            if abs(value) >= 10 ** MAX_DIGITS:
                raise ValueError(Msg("a number of more than {digits} digits is not a number of"
                                     " points a record can hold", digits=MAX_DIGITS))
            text = str(value)
        else:
            raise ValueError(Msg("expected a number of points, not {value}", value=quote(value)))
        mantissa = text.lower().partition("e")[0]
        exact = _Fraction(text) if sum(c.isdigit() for c in mantissa) <= MAX_DIGITS else None
        limit = 10 ** MAX_DIGITS
        if exact is None or abs(exact) >= limit or exact.denominator >= limit:
            raise ValueError(Msg("{value} is not a number of points a record can hold (more"
                                 " than {digits} digits)", value=quote(shown), digits=MAX_DIGITS))
        return cls(exact * 2)

    def as_number(self) -> int | float:
        """``48`` or ``48.5`` (``45.3``...): an int when whole."""
        v = self.value
        return v.numerator if v.denominator == 1 else float(v)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Points) and other._double == self._double

    def __hash__(self) -> int:
        return hash(self._double)

    def __repr__(self) -> str:
        half = self.exact_half
        return f"Points({half})" if half is not None else f"Points({self._double!r})"

    def __str__(self) -> str:
        v = self.value
        if v.denominator == 1:
            return str(v.numerator)
        sign, v = ("-", -v) if v < 0 else ("", v)
        whole = v.numerator // v.denominator
        rest, digits = v - whole, ""
        while rest:  # a finite decimal: the points were written as one
            rest *= 10
            digits += str(rest.numerator // rest.denominator)
            rest -= rest.numerator // rest.denominator
        return f"{sign}{whole}.{digits}"


#: A number of points as a string may be written (after ``,`` is read as ``.``).
_NUMBER_RE: Final = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def check_tags(tags: Iterable[tuple[str, str]]) -> None:
    """The checks of the tags field (raises ValueError)."""
    for name, text in tags:
        if not name or not name.isascii() or not name.replace("_", "").isalnum():
            raise ValueError(Msg("tag name {name} must be ASCII letters, digits and _",
                                 name=quote(name)))
        if name.lower() in _FIELD_TAG_KEYS:
            raise ValueError(Msg("tag {name} is the record's {field} field: set the field"
                                 " instead of a tag", name=name, field=name.lower()))
        if "\n" in text or "\r" in text:
            raise ValueError(Msg("tag {name}: a tag value is one line", name=name))


class UnusualDataError(Exception):
    """Data the fast path does not take: the model validates it instead (and says what
    is wrong, if anything)."""


def check_notes(data: dict[str, Any]) -> None:
    """A glyph of the notation's and comments that are a list of strings, or neither."""
    glyph = data.get("glyph")
    if glyph is not None and (type(glyph) is not str or glyph not in GLYPH_SET):
        raise UnusualDataError
    if "comments" in data:
        comments = data["comments"]
        if type(comments) is not list or any(type(c) is not str for c in comments):
            raise UnusualDataError


def keys_of(data: Any, allowed: frozenset[str]) -> dict[str, Any]:
    """``data`` when it is a dict with no key outside ``allowed``."""
    if type(data) is not dict or not data.keys() <= allowed:
        raise UnusualDataError
    return data


NOTE_KEYS: Final = frozenset({"glyph", "comments"})
PLAYED_KEYS: Final = frozenset({"card", "seat"}) | NOTE_KEYS
TRICK_KEYS: Final = frozenset({"cards", "leader"}) | NOTE_KEYS
BID_KEYS: Final = frozenset({"contract", "seat"}) | NOTE_KEYS
CALL_KEYS: Final = frozenset({"card"}) | NOTE_KEYS
ECART_KEYS: Final = frozenset({"cards", "shown"}) | NOTE_KEYS
SEAT_KEYS: Final = frozenset({"id", "name"})
DECL_KEYS: Final = {
    "poignee": frozenset({"kind", "seat", "size", "cards"}) | NOTE_KEYS,
    "chelem": frozenset({"kind", "seat"}) | NOTE_KEYS,
    "misere": frozenset({"kind", "seat", "misere"}) | NOTE_KEYS,
}
RESULT_KEYS: Final = frozenset({"contract", "taker", "partner", "taker_points", "bouts",
                                 "petit_au_bout", "chelem", "annulled", "scores"}) | NOTE_KEYS
