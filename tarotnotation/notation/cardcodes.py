"""Card codes of the text notation: one canonical spelling per card, and the aliases read.

The canonical code puts the rank first, then the suit: ``1S`` .. ``10S``, ``JS`` (Jack),
``NS`` (Knight), ``QS`` (Queen), ``KS`` (King), the same in ``H``, ``D`` and ``C``;
trumps ``T1`` .. ``T21``; the Excuse ``EX``. The reader also accepts, in any case:

- the French rank letters ``V`` (valet, Jack), ``C`` (cavalier, Knight), ``D`` (dame,
  Queen) and ``R`` (roi, King): no canonical code starts with them, so they cannot be
  confused (``CH`` is the Knight of Hearts, ``D♣`` the Queen of Clubs), but never with
  the letter ``C``: ``RC`` reads « Roi de Cœur » to a French player, and the notation's
  ``C`` is Clubs, so it is refused, and :func:`misreading` says how to write either card
  (``R♣`` or ``KC``, ``R♥`` or ``KH``); French suit initials (``DP``, Dame de Pique) are
  refused the same way;
- the suit symbols ``♠ ♥ ♦ ♣`` (and their white forms ``♤ ♡ ♢ ♧``) for ``S H D C``.

French output writes cards in these aliases (``R♣``, ``D♠``, ``10♥``; ``atout 21``,
``Excuse``: :func:`tarotnotation.lexicon.french_card`), so that what it writes reads back.

>>> parse_card("7H"), parse_card("rh"), parse_card("D♣"), parse_card("t21"), parse_card("Ex")
(<Card.H7: 20>, <Card.HK: 27>, <Card.CQ: 54>, <Card.T21: 76>, <Card.EXCUSE: 77>)
>>> parse_card("ZZ") is None, parse_card("RC") is None, parse_card("DP") is None
(True, True, True)
>>> card_code("T22")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tarotnotation.notation.cardcodes.CardCodeError: 'T22' is not a card: expected a card such as 7H...
"""

from __future__ import annotations

import re
from typing import Final

from ..cards import Card
from ..diagnostics import quote
from ..i18n import Msg, written
from ..lexicon import ALIAS_RANKS, ALIAS_SUITS, FRENCH_RANK_SUITS, french_card

__all__ = [
    "ALIAS_RANKS",
    "ALIAS_SUITS",
    "WORDS",
    "CardCodeError",
    "card_code",
    "code_table",
    "misreading",
    "parse_card",
    "read_card",
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
                if r in ALIAS_RANKS and s not in FRENCH_RANK_SUITS:
                    continue  # RC: misread by a French player (misreading)
                table[r + s] = card
    return table


#: Every spelling of every card (upper case) -> the card.
WORDS: Final[dict[str, Card]] = _build()


def parse_card(word: str) -> Card | None:
    """The card a word spells (canonical code or alias, any case), or None."""
    return WORDS.get(word.upper())


#: A French rank letter with the letter C (``RC``), or a rank with a French suit initial
#: (``DP``, Dame de Pique; ``7T``, 7 de Trèfle): words a French player writes for a card.
_FRENCH_WORD: Final = re.compile(r"([RDCV])(C)|(10|[1-9]|[JNQKRDCV])([PT])", re.IGNORECASE)
_FRENCH_INITIALS: Final = {"P": "S", "T": "C"}
_SUIT_NAMES: Final = {"S": Msg("Spades"), "H": Msg("Hearts"), "C": Msg("Clubs")}


def _rank(letter: str) -> str:
    return ALIAS_RANKS.get(letter, letter)


def misreading(word: str) -> Msg | None:
    """Why ``word``, which a French player may write for a card, is no card of the
    notation, and how to write the card (None for any other word): a French rank letter
    with ``C`` (Clubs in the notation, Cœur to a French player), or a French suit initial
    (``P`` Pique, ``T`` Trèfle).

    >>> print(misreading("RC"))
    'RC' is ambiguous: C is Clubs in the notation, Cœur (Hearts) to a French player:
    write R♣ or KC for Clubs, R♥ or KH for Hearts
    >>> misreading("dp").render("fr")
    "«\xa0dp\xa0» n'est pas une carte de la notation...; écrivez D♠ ou QS pour Pique"
    >>> misreading("KC") is None, misreading("ZZ") is None
    (True, True)
    """
    m = _FRENCH_WORD.fullmatch(word)
    if m is None:
        return None
    if m.group(1):
        clubs, hearts = _rank(m.group(1).upper()) + "C", _rank(m.group(1).upper()) + "H"
        return Msg("{word} is ambiguous: C is Clubs in the notation, Cœur (Hearts) to a"
                   " French player: write {clubs} or {clubs_code} for {clubs_suit},"
                   " {hearts} or {hearts_code} for {hearts_suit}", word=quote(word),
                   clubs=written(french_card(clubs) or clubs), clubs_code=written(clubs),
                   clubs_suit=_SUIT_NAMES["C"], hearts=written(french_card(hearts) or hearts),
                   hearts_code=written(hearts), hearts_suit=_SUIT_NAMES["H"])
    suit = _FRENCH_INITIALS[m.group(4).upper()]
    code = _rank(m.group(3).upper()) + suit
    return Msg("{word} is not a card of the notation: its suits are written S H D C or"
               " ♠ ♥ ♦ ♣, not with French initials; write {card} or {code} for {suit}",
               word=quote(word), card=written(french_card(code) or code), code=written(code),
               suit=_SUIT_NAMES[suit])


#: Every card as French output writes it (:func:`~tarotnotation.lexicon.french_card`),
#: in lower case, a space for the no-break space: ``r♣``, ``atout 21``, ``excuse``.
_FRENCH_WORDS: Final[dict[str, Card]] = {
    (french_card(card.code) or card.code).lower().replace("\u00a0", " "): card for card in Card}


def read_card(word: str) -> Card | None:
    """The card a word spells as the notation reads it (:func:`parse_card`) or as French
    output writes it (``atout 21``, ``Excuse``), or None.

    >>> read_card("R♣"), read_card("atout 21"), read_card("Atout\u00a01"), read_card("1♠")
    (<Card.CK: 55>, <Card.T21: 76>, <Card.T1: 56>, <Card.S1: 0>)
    """
    card = parse_card(word)  # (a Card is an int: the 1 of Spades is 0)
    return card if card is not None else _FRENCH_WORDS.get(" ".join(word.split()).lower())


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
