"""``tarot card``: a card named from its code, in any spelling the notation reads (and
as French output writes it: ``R♣``, ``atout 21``)."""

from __future__ import annotations

from typing import Annotated

from tarotnotation.cards import points_text
from tarotnotation.i18n import Msg, language, nmsg, render
from tarotnotation.notation.cardcodes import misreading, read_card

from . import declare
from .common import echo, fail

EPILOG = ("Examples:\n\n  tarot card T21\n\n  tarot card kh\n\n  tarot card 'K♥'\n\n"
          "  tarot card D♣\n")


def card(code: Annotated[str, declare.Argument(
        help="A card code such as KH or T21, in any spelling the notation reads: any case,"
        " the French rank letters R D C V (roi, dame, cavalier, valet), the suit symbols"
        " ♠ ♥ ♦ ♣.")]) -> None:
    """Name a card from its code."""
    c = read_card(code.strip())
    if c is None:
        fail(misreading(code.strip()) or Msg(
            "{code} is not a card code: expected a card such as 7H, KS, T21 or EX (the"
            " French letters R D C V and the suit symbols ♠ ♥ ♦ ♣ are read too)",
            code=repr(code)))
    # (the English names the card in both languages; French in French only)
    name = f"{c.english} / {c.french}" if language() == "en" else c.french
    echo(render(nmsg("{code}: {name}, {points} point{bout}",
                     "{code}: {name}, {points} points{bout}", c.points // 2, code=c.code,
                     name=name, points=points_text(c.points),
                     bout=Msg(", a bout") if c.is_bout else "")))
