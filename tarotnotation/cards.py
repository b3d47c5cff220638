"""The 78 cards of French Tarot, their values, and a compact card set.

A card is a small integer (``Card`` is an ``IntEnum``): the four suits in the order
Spades, Hearts, Diamonds, Clubs, each from the 1 up to the King, then the trumps 1 to 21,
then the Excuse. A :class:`CardSet` is an immutable bitset over those 78 integers, so a
hand, a trick or a pile is one Python ``int`` and set operations are single instructions.

Card values are in **half-points** (docs/rules.md §1): the whole pack is worth 182.

>>> Card.T21.code, Card.HK.code, Card.EXCUSE.code
('T21', 'KH', 'EX')
>>> str(Card.DQ), Card.DQ.english
('QD', 'Queen of Diamonds')
>>> Card.SN.points, Card.T1.points, Card.C7.points
(5, 9, 1)
>>> CardSet.all().points()
182
>>> hand = CardSet.of(Card.T1, Card.T21, Card.HK)
>>> len(hand), Card.HK in hand, hand.bouts()
(3, True, 2)
>>> print(hand)
KH T1 T21
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from .diagnostics import quote
from .i18n import Msg

__all__ = [
    "ALL_MASK",
    "BIT_OF_CODE",
    "BOUTS_MASK",
    "CARD_OF_CODE",
    "EXCUSE_BIT",
    "FACES_MASK",
    "KINGS_MASK",
    "SUIT_MASKS",
    "TRUMPS_ABOVE",
    "TRUMP_MASK",
    "Card",
    "CardSet",
    "Suit",
    "card_points",
    "card_suit",
    "lowest",
    "mask_of",
    "points_text",
    "popcount",
]


class Suit(IntEnum):
    """The four plain suits, then the trumps and the Excuse as suits of their own."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    TRUMPS = 4
    EXCUSE = 5

    @property
    def letter(self) -> str:
        """The one-letter code used in card codes (``S``, ``H``, ``D``, ``C``, ``T``, ``EX``)."""
        return _SUIT_LETTERS[self]

    @property
    def is_plain(self) -> bool:
        """True for Spades, Hearts, Diamonds and Clubs."""
        return self <= Suit.CLUBS


_SUIT_LETTERS: Final = ("S", "H", "D", "C", "T", "EX")
_SUIT_ENGLISH: Final = ("Spades", "Hearts", "Diamonds", "Clubs")
_SUIT_FRENCH: Final = ("Pique", "Cœur", "Carreau", "Trèfle")
#: The suits as a sentence names them (``Suit.name`` in lower case, in English).
_SUIT_WORDS: Final = (Msg("spades"), Msg("hearts"), Msg("diamonds"), Msg("clubs"),
                      Msg("trumps"), Msg("excuse"))
_RANK_CODES: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
_RANK_ENGLISH: Final = (*(str(r) for r in range(1, 11)), "Jack", "Knight", "Queen", "King")
_RANK_FRENCH: Final = (*(str(r) for r in range(1, 11)), "Valet", "Cavalier", "Dame", "Roi")
_RANK_POINTS: Final = (1,) * 10 + (3, 5, 7, 9)


class Card(IntEnum):
    """One of the 78 cards; the value is its index in the canonical order.

    Member names put the suit first (``Card.HK`` is the King of Hearts) so that they sort
    and complete by suit; the card *code*, used in the notation and in JSON, puts the rank
    first (``KH``), and ``Card("KH")`` is the card of a code. Ranks: 1-10, ``J`` Jack,
    ``N`` Knight, ``Q`` Queen, ``K`` King. Trumps are ``T1``..``T21``; the Excuse is ``EX``.

    >>> Card("KH") is Card.HK is Card.from_code("KH") is Card(27)
    True
    """

    S1 = 0
    S2 = 1
    S3 = 2
    S4 = 3
    S5 = 4
    S6 = 5
    S7 = 6
    S8 = 7
    S9 = 8
    S10 = 9
    SJ = 10
    SN = 11
    SQ = 12
    SK = 13
    H1 = 14
    H2 = 15
    H3 = 16
    H4 = 17
    H5 = 18
    H6 = 19
    H7 = 20
    H8 = 21
    H9 = 22
    H10 = 23
    HJ = 24
    HN = 25
    HQ = 26
    HK = 27
    D1 = 28
    D2 = 29
    D3 = 30
    D4 = 31
    D5 = 32
    D6 = 33
    D7 = 34
    D8 = 35
    D9 = 36
    D10 = 37
    DJ = 38
    DN = 39
    DQ = 40
    DK = 41
    C1 = 42
    C2 = 43
    C3 = 44
    C4 = 45
    C5 = 46
    C6 = 47
    C7 = 48
    C8 = 49
    C9 = 50
    C10 = 51
    CJ = 52
    CN = 53
    CQ = 54
    CK = 55
    T1 = 56
    T2 = 57
    T3 = 58
    T4 = 59
    T5 = 60
    T6 = 61
    T7 = 62
    T8 = 63
    T9 = 64
    T10 = 65
    T11 = 66
    T12 = 67
    T13 = 68
    T14 = 69
    T15 = 70
    T16 = 71
    T17 = 72
    T18 = 73
    T19 = 74
    T20 = 75
    T21 = 76
    EXCUSE = 77

    @classmethod
    def _missing_(cls, value: object) -> Card | None:
        """``Card("KH")``: a card from its canonical code, as :meth:`from_code`."""
        if isinstance(value, str):
            return CARD_OF_CODE.get(value)
        return None

    @classmethod
    def suited(cls, suit: Suit, rank: int) -> Card:
        """The card of a plain ``suit`` and ``rank`` (1-10, 11 Jack, 12 Knight, 13 Queen, 14 King).

        >>> Card.suited(Suit.CLUBS, 14)
        <Card.CK: 55>
        """
        if not suit.is_plain or not 1 <= rank <= 14:
            raise ValueError(Msg("no card of rank {rank} in {suit}", rank=rank,
                                 suit=_SUIT_WORDS[suit]))
        return cls(suit * 14 + rank - 1)

    @classmethod
    def trump(cls, number: int) -> Card:
        """The trump numbered 1 (the Petit) to 21.

        >>> Card.trump(21)
        <Card.T21: 76>
        """
        if not 1 <= number <= 21:
            raise ValueError(Msg("no trump numbered {number}: trumps run from 1 to 21",
                                 number=number))
        return cls(55 + number)

    @classmethod
    def from_code(cls, code: str) -> Card:
        """The card of a canonical code such as ``7H``, ``KS``, ``T21`` or ``EX``.

        The notation reader accepts more spellings; this is the strict, canonical form.

        >>> Card.from_code("10D"), Card.from_code("T1")
        (<Card.D10: 37>, <Card.T1: 56>)
        >>> Card.from_code("ZZ")
        Traceback (most recent call last):
        ...
        ValueError: 'ZZ' is not a card code: expected a card such as 7H, KS, T21 or EX
        """
        card = CARD_OF_CODE.get(code)
        if card is None:
            raise ValueError(Msg(
                "{code} is not a card code: expected a card such as 7H, KS, T21 or EX",
                code=quote(code)))
        return card

    @property
    def suit(self) -> Suit:
        """The card's suit; trumps are ``Suit.TRUMPS``, the Excuse ``Suit.EXCUSE``."""
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """Rank within the suit: 1-14 for plain cards, 1-21 for trumps, 0 for the Excuse."""
        return _RANK_OF[self]

    @property
    def points(self) -> int:
        """Value in half-points: 9 for a bout or King, 7 Queen, 5 Knight, 3 Jack, else 1."""
        return _POINTS_OF[self]

    @property
    def is_trump(self) -> bool:
        """True for the trumps 1-21 (not the Excuse)."""
        return 56 <= self <= 76

    @property
    def is_bout(self) -> bool:
        """True for the Petit (trump 1), the 21 and the Excuse."""
        return self in (Card.T1, Card.T21, Card.EXCUSE)

    @property
    def is_king(self) -> bool:
        """True for the four Kings."""
        return self < 56 and self % 14 == 13

    @property
    def code(self) -> str:
        """The canonical code: ``7H``, ``10S``, ``NC`` (Knight of Clubs), ``T21``, ``EX``."""
        return _CODES[self]

    @property
    def english(self) -> str:
        """A readable English name: ``King of Hearts``, ``Trump 21``, ``the Excuse``."""
        return _ENGLISH[self]

    @property
    def french(self) -> str:
        """A readable French name: ``Roi de Cœur``, ``21 d'atout``, ``l'Excuse``."""
        return _FRENCH[self]

    @property
    def bit(self) -> int:
        """This card's bit in a :class:`CardSet`."""
        return 1 << self

    def __str__(self) -> str:
        return _CODES[self]


def _build_tables() -> tuple[
    tuple[Suit, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[str, ...],
    tuple[str, ...],
]:
    suits: list[Suit] = []
    ranks: list[int] = []
    points: list[int] = []
    codes: list[str] = []
    english: list[str] = []
    french: list[str] = []
    for s in range(4):
        for r in range(14):
            suits.append(Suit(s))
            ranks.append(r + 1)
            points.append(_RANK_POINTS[r])
            codes.append(_RANK_CODES[r] + _SUIT_LETTERS[s])
            english.append(f"{_RANK_ENGLISH[r]} of {_SUIT_ENGLISH[s]}")
            french.append(f"{_RANK_FRENCH[r]} de {_SUIT_FRENCH[s]}")
    for t in range(1, 22):
        suits.append(Suit.TRUMPS)
        ranks.append(t)
        points.append(9 if t in (1, 21) else 1)
        codes.append(f"T{t}")
        english.append("the Petit (Trump 1)" if t == 1 else f"Trump {t}")
        french.append("le Petit" if t == 1 else f"{t} d'atout")
    suits.append(Suit.EXCUSE)
    ranks.append(0)
    points.append(9)
    codes.append("EX")
    english.append("the Excuse")
    french.append("l'Excuse")
    return tuple(suits), tuple(ranks), tuple(points), tuple(codes), tuple(english), tuple(french)


_SUIT_OF, _RANK_OF, _POINTS_OF, _CODES, _ENGLISH, _FRENCH = _build_tables()
#: The card of each canonical code (``"KH"``, ``"T21"``, ``"EX"``…).
CARD_OF_CODE: Final[dict[str, Card]] = {code: Card(i) for i, code in enumerate(_CODES)}
#: The bit of each canonical code's card in a bitset.
BIT_OF_CODE: Final[dict[str, int]] = {code: 1 << i for i, code in enumerate(_CODES)}
_CARDS: Final[tuple[Card, ...]] = tuple(Card)

#: Bitset of all 78 cards.
ALL_MASK: Final = (1 << 78) - 1
#: Bitset of the cards of each suit, indexed by ``Suit`` (Spades..Clubs, trumps, Excuse).
SUIT_MASKS: Final[tuple[int, ...]] = (
    *(((1 << 14) - 1) << (14 * s) for s in range(4)),
    ((1 << 21) - 1) << 56,
    1 << 77,
)
#: Bitset of the 21 trumps.
TRUMP_MASK: Final = SUIT_MASKS[Suit.TRUMPS]
#: The Excuse's bit.
EXCUSE_BIT: Final = 1 << 77
#: Bitset of the three bouts.
BOUTS_MASK: Final = (1 << Card.T1) | (1 << Card.T21) | EXCUSE_BIT
#: ``TRUMPS_ABOVE[n]``: bitset of the trumps strictly higher than trump ``n`` (0 gives all).
TRUMPS_ABOVE: Final[tuple[int, ...]] = tuple(
    TRUMP_MASK & ~((1 << (56 + n)) - 1) for n in range(22)
)
#: Bitset of the four Kings.
KINGS_MASK: Final = sum(1 << (14 * s + 13) for s in range(4))
_QUEENS_MASK: Final = KINGS_MASK >> 1
_KNIGHTS_MASK: Final = KINGS_MASK >> 2
_JACKS_MASK: Final = KINGS_MASK >> 3
#: Bitset of the face cards (Kings, Queens, Knights, Jacks).
FACES_MASK: Final = KINGS_MASK | _QUEENS_MASK | _KNIGHTS_MASK | _JACKS_MASK
_NINE_MASK: Final = KINGS_MASK | BOUTS_MASK


def mask_of(cards: Iterable[int]) -> int:
    """The bitset of some cards.

    >>> mask_of([Card.S1, Card.EXCUSE]) == 1 | EXCUSE_BIT
    True
    """
    bits = 0
    for c in cards:
        bits |= 1 << c
    return bits


def popcount(bits: int) -> int:
    """Number of cards in a bitset."""
    return bits.bit_count()


def lowest(bits: int) -> int:
    """Index of the lowest card in a non-empty bitset."""
    return (bits & -bits).bit_length() - 1


def points_text(half: int) -> str:
    """Half-points (the unit of every point count in the library) as a scorer writes
    them: ``12`` or ``12.5``.

    >>> points_text(25), points_text(24), points_text(-3)
    ('12.5', '12', '-1.5')
    """
    sign = "-" if half < 0 else ""
    whole, odd = divmod(abs(half), 2)
    return f"{sign}{whole}.5" if odd else f"{sign}{whole}"


def card_points(bits: int) -> int:
    """Value in half-points of the cards of a bitset, without looping over them.

    >>> card_points(ALL_MASK)
    182
    """
    return (
        bits.bit_count()
        + 8 * (bits & _NINE_MASK).bit_count()
        + 6 * (bits & _QUEENS_MASK).bit_count()
        + 4 * (bits & _KNIGHTS_MASK).bit_count()
        + 2 * (bits & _JACKS_MASK).bit_count()
    )


def card_suit(card: int) -> Suit:
    """The suit of a card given as a plain int (no enum lookup)."""
    return _SUIT_OF[card]


class CardSet:
    """An immutable set of cards stored as one int bitset (bit ``i`` is ``Card(i)``).

    Iteration yields cards in canonical order (Spades, Hearts, Diamonds, Clubs from low to
    high, then trumps 1-21, then the Excuse); ``str`` prints their codes.

    >>> a = CardSet.of(Card.S1, Card.T5)
    >>> b = a | CardSet.of(Card.EXCUSE)
    >>> list(b - a)
    [<Card.EXCUSE: 77>]
    >>> CardSet.parse("KH T21 EX") == CardSet.of(Card.EXCUSE, Card.HK, Card.T21)
    True
    """

    __slots__ = ("bits",)
    bits: int

    def __init__(self, bits: int = 0) -> None:
        if bits < 0 or bits > ALL_MASK:
            raise ValueError(Msg("a CardSet holds bits 0..77 only"))
        object.__setattr__(self, "bits", bits)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (self.bits,))

    @classmethod
    def of(cls, *cards: Card | int) -> CardSet:
        """The set of the given cards."""
        return cls(mask_of(cards))

    @classmethod
    def from_cards(cls, cards: Iterable[Card | int]) -> CardSet:
        """The set of the cards of an iterable (duplicates collapse)."""
        return cls(mask_of(cards))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """The set of whitespace-separated canonical card codes."""
        return cls.from_cards(Card.from_code(code) for code in text.split())

    @classmethod
    def all(cls) -> CardSet:
        """All 78 cards."""
        return cls(ALL_MASK)

    @classmethod
    def suit(cls, suit: Suit) -> CardSet:
        """All cards of one suit (or all trumps, or the Excuse)."""
        return cls(SUIT_MASKS[suit])

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 78 and bool(self.bits >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        bits = self.bits
        cards = _CARDS
        while bits:
            low = bits & -bits
            yield cards[low.bit_length() - 1]
            bits ^= low

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __bool__(self) -> bool:
        return self.bits != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.bits == self.bits

    def __hash__(self) -> int:
        return hash(self.bits)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.bits | other.bits)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.bits & other.bits)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.bits & ~other.bits)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.bits ^ other.bits)

    def __le__(self, other: CardSet) -> bool:
        return self.bits & ~other.bits == 0

    def __lt__(self, other: CardSet) -> bool:
        return self.bits != other.bits and self.bits & ~other.bits == 0

    def __ge__(self, other: CardSet) -> bool:
        return other <= self

    def __gt__(self, other: CardSet) -> bool:
        return other < self

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def __str__(self) -> str:
        return " ".join(_CODES[c] for c in self)

    def with_card(self, card: Card | int) -> CardSet:
        """A copy with ``card`` added."""
        return CardSet(self.bits | 1 << card)

    def without(self, card: Card | int) -> CardSet:
        """A copy with ``card`` removed."""
        return CardSet(self.bits & ~(1 << card))

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of this set in one suit."""
        return CardSet(self.bits & SUIT_MASKS[suit])

    def trumps(self) -> CardSet:
        """The trumps of this set (not the Excuse)."""
        return CardSet(self.bits & TRUMP_MASK)

    def points(self) -> int:
        """Value in half-points."""
        return card_points(self.bits)

    def bouts(self) -> int:
        """Number of bouts (Petit, 21, Excuse) in the set."""
        return (self.bits & BOUTS_MASK).bit_count()

    def sorted(self) -> list[Card]:
        """The cards in canonical order."""
        return list(self)
