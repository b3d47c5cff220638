"""The rules kernel's rules of the deal, the auction, the écart and the declarations
(docs/rules.md §2-§5), over plain ints: :func:`petit_sec`, :func:`petit_in_chien_annuls`,
:func:`outbids`, :func:`call_fault`, :func:`first_leader`, :func:`ecart_forbidden`,
:func:`ecart_plain`, :func:`ecart_trumps_allowed`, :func:`poignee_wrong_cards`,
:func:`poignee_hidden_trumps`, :func:`misere_faults`. A part of the kernel:
:mod:`tarotnotation.kernel` gives them, and the other modules call them there."""

from __future__ import annotations

from typing import Final

from .cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    FACES_MASK,
    KINGS_MASK,
    TRUMP_MASK,
    Card,
)
from .rules import (
    Contract,
    MisereKind,
    PetitInChien,
    Ruleset,
)

__all__ = [
    "call_fault",
    "ecart_forbidden",
    "ecart_plain",
    "ecart_trumps_allowed",
    "first_leader",
    "misere_faults",
    "outbids",
    "petit_in_chien_annuls",
    "petit_sec",
    "poignee_hidden_trumps",
    "poignee_wrong_cards",
]

_PETIT: Final = int(Card.T1)


def petit_sec(hand: int) -> bool:
    """True for a hand whose only trump is the Petit, without the Excuse (§2): the deal
    is annulled.

    >>> from tarotnotation.cards import CardSet
    >>> petit_sec(CardSet.parse("T1 KH 2S").bits), petit_sec(CardSet.parse("T1 EX").bits)
    (True, False)
    """
    return hand & TRUMP_MASK == 1 << _PETIT and not hand & EXCUSE_BIT


def petit_in_chien_annuls(rules: Ruleset, contract: Contract, chien: int) -> bool:
    """True when the Petit turned up in the chien of a Prise or Garde annuls the deal
    (``petit_in_chien = annuls``, §12).

    >>> petit_in_chien_annuls(Ruleset.fft(), Contract.GARDE, 1 << Card.T1)
    False
    """
    return (rules.petit_in_chien is PetitInChien.ANNULS and contract.takes_chien
            and bool(chien >> _PETIT & 1))


def outbids(bid: Contract, best: Contract | None) -> bool:
    """True when ``bid`` may follow the highest bid so far (§3): it must be higher.

    >>> outbids(Contract.GARDE, Contract.PRISE), outbids(Contract.GARDE, Contract.GARDE)
    (True, False)
    """
    return best is None or bid > best


def call_fault(called: int, hand: int) -> int:
    """What keeps a taker whose hand as dealt is ``hand`` from calling ``called`` at five
    players (§3): 0 when he may call it; a King always, a Queen, Knight or Jack only
    holding every card of each higher rank, else the highest rank (14 King, 13 Queen,
    12 Knight) of which he lacks a card; -1 for a card that is never called (a trump,
    the Excuse, a plain card below the Jack).

    >>> from tarotnotation.cards import CardSet
    >>> kings = CardSet.parse("KS KH KD KC").bits
    >>> call_fault(Card.HK, 0), call_fault(Card.HQ, 0), call_fault(Card.HQ, kings)
    (0, 14, 0)
    >>> call_fault(Card.HN, kings), call_fault(Card.T21, kings), call_fault(Card.H10, kings)
    (13, -1, -1)
    """
    if called >= 56 or called % 14 < 10:
        return -1
    for rank in range(13, called % 14, -1):  # (rank r + 1 is the card 14 * suit + r)
        mask = KINGS_MASK >> (13 - rank)
        if hand & mask != mask:
            return rank + 1
    return 0


def first_leader(first: int, announcer: int | None) -> int:
    """Who leads the first trick (§2, §5): the dealer's right-hand neighbour ``first``,
    or the taker who announced a chelem.

    >>> first_leader(1, None), first_leader(1, 3)
    (1, 3)
    """
    return first if announcer is None else announcer


def ecart_forbidden(ecart: int) -> int:
    """The cards that may never go to the écart (§4): Kings and bouts.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(ecart_forbidden(CardSet.parse("KH 7H T1 EX T5").bits)))
    'KH T1 EX'
    """
    return ecart & (KINGS_MASK | BOUTS_MASK)


def ecart_plain(pool: int) -> int:
    """The cards of ``pool`` (hand and chien) that may always go to the écart (§4): no
    trump, no King, not the Excuse.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(ecart_plain(CardSet.parse("KH 7H T5 EX 2C").bits)))
    '7H 2C'
    """
    return pool & ~TRUMP_MASK & ~KINGS_MASK & ~EXCUSE_BIT


def ecart_trumps_allowed(pool: int, size: int) -> int:
    """How many trumps an écart of ``size`` cards may hold (§4): only those needed when
    the cards of :func:`ecart_plain` are too few.

    >>> from tarotnotation.cards import CardSet
    >>> ecart_trumps_allowed(CardSet.parse("7H 2C T5 T6 T7 KH").bits, 6)
    4
    """
    return max(0, size - ecart_plain(pool).bit_count())


def poignee_wrong_cards(shown: int) -> int:
    """The cards a poignée may not show (§5): anything but trumps and the Excuse.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(poignee_wrong_cards(CardSet.parse("T2 T3 KH EX").bits)))
    'KH'
    """
    return shown & ~TRUMP_MASK & ~EXCUSE_BIT


def poignee_hidden_trumps(hand: int, shown: int) -> int:
    """The trumps a poignée leaves hidden while the Excuse stands in for a trump (§5: it
    may only when no other trump is left unshown); 0 when the poignée is right.

    >>> from tarotnotation.cards import CardSet
    >>> hand = CardSet.parse("T2 T3 T4 EX").bits
    >>> str(CardSet(poignee_hidden_trumps(hand, CardSet.parse("T2 T3 EX").bits)))
    'T4'
    """
    if not shown & EXCUSE_BIT:
        return 0
    return hand & TRUMP_MASK & ~shown


def misere_faults(hand: int, kind: MisereKind) -> int:
    """The cards that make a misère false (§12, ``misere = on``): trumps and the Excuse
    for a misère d'atout, face cards for a misère de tête; 0 when it is true.

    >>> from tarotnotation.cards import CardSet
    >>> str(CardSet(misere_faults(CardSet.parse("KH 2C T4").bits, MisereKind.TETE)))
    'KH'
    """
    if kind is MisereKind.ATOUT:
        return hand & (TRUMP_MASK | EXCUSE_BIT)
    return hand & FACES_MASK
