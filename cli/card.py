"""``tarot card``: a card named from its code, in any spelling the notation reads."""

from __future__ import annotations

from typing import Annotated

from tarotnotation.i18n import Msg
from tarotnotation.notation.cardcodes import parse_card

from . import declare
from .common import echo, fail

EPILOG = ("Examples:\n\n  tarot card T21\n\n  tarot card kh\n\n  tarot card 'K♥'\n\n"
          "  tarot card DC\n")


def card(code: Annotated[str, declare.Argument(
        help="A card code such as KH or T21, in any spelling the notation reads: any case,"
        " the French rank letters R D C V (roi, dame, cavalier, valet), the suit symbols"
        " ♠ ♥ ♦ ♣.")]) -> None:
    """Name a card from its code."""
    c = parse_card(code.strip())
    if c is None:
        fail(Msg("{code} is not a card code: expected a card such as 7H, KS, T21 or EX (the"
                 " French letters R D C V and the suit symbols ♠ ♥ ♦ ♣ are read too)",
                 code=repr(code)))
    echo(f"{c.code}: {c.english} / {c.french}, {c.points / 2:g} points"
         f"{', a bout' if c.is_bout else ''}")
