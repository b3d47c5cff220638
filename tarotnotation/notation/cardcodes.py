"""Card codes of the text notation: one canonical spelling per card, and the aliases read.

The canonical code puts the rank first, then the suit: ``1S`` .. ``10S``, ``JS`` (Jack),
``NS`` (Knight), ``QS`` (Queen), ``KS`` (King), the same in ``H``, ``D`` and ``C``;
trumps ``T1`` .. ``T21``; the Excuse ``EX``. The reader also accepts, in any case:

- the French rank letters ``V`` (valet, Jack), ``C`` (cavalier, Knight), ``D`` (dame,
  Queen) and ``R`` (roi, King): no canonical code starts with them, so they cannot be
  confused (``CH`` is the Knight of Hearts, ``DC`` the Queen of Clubs);
- the suit symbols ``♠ ♥ ♦ ♣`` (and their white forms ``♤ ♡ ♢ ♧``) for ``S H D C``.

>>> parse_card("7H"), parse_card("rh"), parse_card("D♣"), parse_card("t21"), parse_card("Ex")
(<Card.H7: 20>, <Card.HK: 27>, <Card.CQ: 54>, <Card.T21: 76>, <Card.EXCUSE: 77>)
>>> parse_card("ZZ") is None
True
>>> card_code("T22")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tarotnotation.notation.cardcodes.CardCodeError: 'T22' is not a card: expected a card such as 7H...
"""

from __future__ import annotations

from typing import Final

from ..cards import Card
from ..diagnostics import quote
from ..lexicon import ALIAS_RANKS, ALIAS_SUITS

__all__ = [
    "ALIAS_RANKS",
    "ALIAS_SUITS",
    "WORDS",
    "CardCodeError",
    "card_code",
    "code_table",
    "parse_card",
]



class CardCodeError(ValueError):
    """A word that is not a card code."""


def _build() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in Card:
        code = card.code
        table[code] = card
        if card.is_trump or card is Card.EXCUSE:
            continue
        rank, suit = code[:-1], code[-1]
        ranks = [rank] + [alias for alias, canon in ALIAS_RANKS.items() if canon == rank]
        suits = [suit] + [sym for sym, canon in ALIAS_SUITS.items() if canon == suit]
        for r in ranks:
            for s in suits:
                table[r + s] = card
    return table


#: Every spelling of every card (upper case) -> the card.
WORDS: Final[dict[str, Card]] = _build()


def parse_card(word: str) -> Card | None:
    """The card a word spells (canonical code or alias, any case), or None."""
    return WORDS.get(word.upper())


def card_code(word: str) -> Card:
    """Like :func:`parse_card`, but raises :class:`CardCodeError` for a word that is no card."""
    card = WORDS.get(word.upper())
    if card is None:
        raise CardCodeError(f"{quote(word)} is not a card: expected a card such as 7H or T21")
    return card


def code_table() -> str:
    """The table of canonical codes, as printed in ``docs/notation.md``.

    >>> print(code_table().splitlines()[2])
    | Spades (Pique) | 1S | 2S | 3S | 4S | 5S | 6S | 7S | 8S | 9S | 10S | JS | NS | QS | KS |
    """
    head = "| suit | " + " | ".join(
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Knight", "Queen", "King"]
    ) + " |"
    lines = [head, "|" + "---|" * 15]
    names = ("Spades (Pique)", "Hearts (Cœur)", "Diamonds (Carreau)", "Clubs (Trèfle)")
    for s, name in enumerate(names):
        cells = [Card(s * 14 + r).code for r in range(14)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
