"""``tarot card``: a card named from its code."""

from __future__ import annotations

from typing import Annotated

import typer

from tarotnotation.cards import Card

from .common import echo, fail

EPILOG = "Examples:\n\n  tarot card T21\n\n  tarot card kh\n"


def card(code: Annotated[str, typer.Argument(help="A card code such as KH or T21.")]) -> None:
    """Name a card from its code."""
    try:
        c = Card.from_code(code.strip().upper())
    except ValueError as err:
        fail(str(err))
    echo(f"{c.code}: {c.english} / {c.french}, {c.points / 2:g} points"
         f"{', a bout' if c.is_bout else ''}")
