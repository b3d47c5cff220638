"""TarotClub's words (:mod:`tarotnotation.formats.tarotclub` reads and writes its files):
its card codes (``14-H``, ``00-T``), its places and their seats, its contract names and
the file version it writes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..cards import Card, Suit
from ..fields import DEFAULT_SEATS
from ..i18n import Msg, Quoted, or_list
from ..rules import Contract

__all__ = [
    "CONTRACTS",
    "CONTRACT_NAMES",
    "PLACES",
    "SEATS",
    "VERSION",
    "card_code",
    "parse_card",
    "place_of_seat",
    "seat_of_place",
]

#: The file version TarotClub writes (both kinds of file).
VERSION: Final = "3"
#: TarotClub's places, in its order of play (``Place::Next``).
PLACES: Final = ("South", "East", "North", "West", "Fifth")
#: TarotClub's contract names.
CONTRACTS: Final[Mapping[str, Contract]] = {
    "Take": Contract.PRISE,
    "Guard": Contract.GARDE,
    "Guard without": Contract.GARDE_SANS,
    "Guard against": Contract.GARDE_CONTRE,
}
#: The contracts by TarotClub's name.
CONTRACT_NAMES: Final = {c: name for name, c in CONTRACTS.items()}
#: The seat ids of the places, in their order.
SEATS: Final = DEFAULT_SEATS[5]
_SUIT_LETTERS: Final = "SHDC"
_CARD_RE: Final = re.compile(r"(\d\d)-([SHDCT])")
_EXPECTED_CARD: Final = Msg(
    "expected a TarotClub card code NN-X: 01-14 of S, H, D or C (11 Jack, 12 Knight,"
    " 13 Queen, 14 King), 01-21 of T for trumps, 00-T for the Excuse"
)


# --- cards and places ---------------------------------------------------------------------


def parse_card(code: str) -> Card:
    """The card of a TarotClub code such as ``14-H`` (King of Hearts) or ``00-T``.

    >>> parse_card("14-H"), parse_card("12-C"), parse_card("21-T"), parse_card("00-T")
    (<Card.HK: 27>, <Card.CN: 53>, <Card.T21: 76>, <Card.EXCUSE: 77>)
    >>> parse_card("15-S")
    Traceback (most recent call last):
    ...
    ValueError: '15-S' is not a card: expected a TarotClub card code NN-X: ...
    """
    m = _CARD_RE.fullmatch(code.strip())
    if m is not None:
        value, suit = int(m.group(1)), m.group(2)
        if suit == "T":
            if value == 0:
                return Card.EXCUSE
            if value <= 21:
                return Card.trump(value)
        elif 1 <= value <= 14:
            return Card.suited(Suit(_SUIT_LETTERS.index(suit)), value)
    raise ValueError(Msg("{code} is not a card: {expected}", code=Quoted(code),
                         expected=_EXPECTED_CARD))


def card_code(card: Card) -> str:
    """TarotClub's code of a card.

    >>> card_code(Card.HK), card_code(Card.S1), card_code(Card.T21), card_code(Card.EXCUSE)
    ('14-H', '01-S', '21-T', '00-T')
    """
    if card is Card.EXCUSE:
        return "00-T"
    if card.is_trump:
        return f"{card.rank:02d}-T"
    return f"{card.rank:02d}-{_SUIT_LETTERS[card.suit]}"


def seat_of_place(place: str, players: int) -> str:
    """The seat id of a TarotClub place at a table of ``players``.

    >>> seat_of_place("West", 4), seat_of_place("Fifth", 5)
    ('W', 'F')
    >>> seat_of_place("West", 3)
    Traceback (most recent call last):
    ...
    ValueError: 'West' is not a place at 3 players: expected South, East or North
    """
    places = PLACES[:players]
    if place not in places:
        raise ValueError(Msg("{place} is not a place at {players} players: expected {places}",
                             place=Quoted(place), players=players, places=or_list(places)))
    return SEATS[places.index(place)]


def place_of_seat(index: int) -> str:
    """TarotClub's place for the seat at ``index`` in the order of play (0 is South).

    >>> [place_of_seat(i) for i in range(4)]
    ['South', 'East', 'North', 'West']
    """
    return PLACES[index]
