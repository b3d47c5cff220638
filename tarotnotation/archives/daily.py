"""The deal of the day: the same hands and chien for everyone on a given date.

The generator is specified here and in docs/daily.md so that any program, in any language,
gives the same deal; it uses nothing of Python's ``random`` (whose algorithms may change
between versions) and nothing of the machine.

1. **The random stream** is the concatenation of the SHA-256 digests of
   ``PREFIX | DATE | PLAYERS | COUNTER``, for COUNTER = 0, 1, 2…, where ``|`` is the
   byte ``0x00``, ``PREFIX`` is the ASCII text ``tarotnotation daily deal v1``, ``DATE``
   the date as ASCII ``YYYY-MM-DD``, ``PLAYERS`` the digit ``3``, ``4`` or ``5``, and
   ``COUNTER`` eight bytes, big-endian. Bytes are taken from it one at a time.
2. **A number below n** (2 ≤ n ≤ 78) is drawn by rejection, without modulo bias: take the
   next byte b; if b < 256 − (256 mod n), the number is b mod n; otherwise take the next
   byte and try again.
3. **The shuffle** is Fisher–Yates on the 78 cards in their canonical order (the card
   numbers 0 to 77 of :class:`~tarotnotation.cards.Card`: Spades 1 to King, Hearts,
   Diamonds, Clubs, trumps 1 to 21, the Excuse): for i from 77 down to 1, draw j below
   i + 1 and swap the cards at i and j.
4. **The deal**: the seats in order of play get the first hand-size cards, the next, and
   so on (18, 18, 18, 18 at four players; 24 at three; 15 at five); the rest is the chien.
   If a hand holds the Petit sec (the Petit as its only trump, without the Excuse), the
   deal would be annulled (docs/rules.md §2): the shuffled pack is shuffled again, the
   stream going on, until no hand does.
5. **The record**: default seats (``S E N`` / ``S E N W`` / ``S E N W F``), the last seat
   deals (so ``S`` speaks and leads first), tags ``Event "Deal of the day"``, ``Date``
   (``YYYY.MM.DD``) and ``Daily`` (``YYYY-MM-DD/PLAYERS``), the ``fft`` ruleset.

>>> import datetime
>>> rec = daily_deal(datetime.date(2026, 11, 14), 4)
>>> rec.tag("Daily"), rec.dealer, sorted(len(h) for h in rec.hands.values()), len(rec.chien)
('2026-11-14/4', 'W', [18, 18, 18, 18], 6)
>>> rec == daily_deal(datetime.date(2026, 11, 14), 4)
True
>>> first_bytes("2026-11-14", 4, 4).hex()
'a121df23'
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator
from typing import Final

from ..cards import Card, CardSet
from ..i18n import Msg, Quoted
from ..kernel import petit_sec
from ..records import DEFAULT_SEATS, DealRecord
from ..rules import table

__all__ = ["PREFIX", "daily_deal", "deal_from_stream", "parse_date", "random_stream",
           "shuffled"]

#: The fixed start of every block of the random stream.
PREFIX: Final = b"tarotnotation daily deal v1"


def random_stream(date: str, players: int) -> Iterator[int]:
    """The random bytes of a date and a number of players (endless)."""
    head = PREFIX + b"\x00" + date.encode("ascii") + b"\x00" + str(players).encode("ascii")
    counter = 0
    while True:
        yield from hashlib.sha256(head + b"\x00" + counter.to_bytes(8, "big")).digest()
        counter += 1


def first_bytes(date: str, players: int, n: int) -> bytes:
    """The first ``n`` bytes of the stream (to check another implementation against)."""
    stream = random_stream(date, players)
    return bytes(next(stream) for _ in range(n))


def below(stream: Iterator[int], n: int) -> int:
    """A number in ``range(n)`` from the stream, by rejection (no modulo bias)."""
    limit = 256 - 256 % n
    while True:
        b = next(stream)
        if b < limit:
            return b % n


def shuffled(stream: Iterator[int], cards: list[int]) -> None:
    """Fisher–Yates, in place: for i from the last index down to 1, swap i with a number
    drawn below i + 1."""
    for i in range(len(cards) - 1, 0, -1):
        j = below(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def parse_date(text: str) -> datetime.date:
    """A date written ``YYYY-MM-DD`` (or with dots or slashes); ``ValueError`` says what
    was expected."""
    cleaned = text.strip().replace(".", "-").replace("/", "-")
    try:
        return datetime.date.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(Msg("{text} is not a date: expected YYYY-MM-DD, e.g. 2026-11-14",
                             text=Quoted(text))) from None


def daily_deal(date: datetime.date, players: int = 4) -> DealRecord:
    """The deal of the day (see the module doc for the generator)."""
    if players not in (3, 4, 5):
        raise ValueError(f"the deal of the day is for 3, 4 or 5 players, not {players}")
    day = date.isoformat()
    return deal_from_stream(random_stream(day, players), players, (
        ("Event", "Deal of the day"), ("Date", day.replace("-", ".")),
        ("Daily", f"{day}/{players}")))


def deal_from_stream(stream: Iterator[int], players: int,
                     tags: tuple[tuple[str, str], ...] = ()) -> DealRecord:
    """Steps 3 to 5 of the generator on any random stream (``tarot serve``'s secret one
    too): the pack shuffled until no hand holds the Petit sec, dealt, the record with
    ``tags``."""
    size = table(players).hand
    seats = DEFAULT_SEATS[players]
    cards = list(range(78))
    while True:
        shuffled(stream, cards)
        hands = [sum(1 << c for c in cards[i * size:(i + 1) * size]) for i in range(players)]
        if any(petit_sec(hand) for hand in hands):  # the deal would be annulled
            continue
        return DealRecord(
            tags=tags,
            players=players,
            dealer=seats[-1],
            hands={seat: CardSet(hand) for seat, hand in zip(seats, hands, strict=True)},
            chien=CardSet.from_cards(Card(c) for c in cards[players * size:]),
        )
