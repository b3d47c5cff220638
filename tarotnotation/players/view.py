"""What one seat may know: :class:`SeatView`, made by :func:`view_of` from a game.

A virtual player (and the game page of ``tarot play``) is given a seat's view, never the
game itself: its own hand (as dealt and now), the auction, the call, the chien when it is
shown (Prise and Garde: docs/rules.md §4), its own écart (the taker's; the trumps shown with
it to all), the declarations (a poignée's cards are shown), the tricks played, and its
partner once it is known (at five players: to the holder of the called card at once, to the
others when that card is played, or when the chien shows it). Nothing else: two deals that
look the same from a seat give the same view, and so (see :func:`decision_rng`) the same
decisions from a seat's bot.

>>> from tarotnotation.game import Game
>>> g = Game.deal(4, seed=7)
>>> v = view_of(g, "S")
>>> v.seat, v.phase.value, len(v.hand), v.chien, v.open_hands
('S', 'auction', 18, None, None)
>>> view_of(g, "E").hand == v.hand
False
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import kernel
from ..cards import Card, CardSet
from ..diagnostics import quote
from ..game import Game, Phase
from ..i18n import Msg, comma_list
from ..records import ChelemAnnouncement, Declaration
from ..rules import Contract, Ruleset

__all__ = ["SeatView", "SeenTrick", "decision_rng", "view_of"]


@dataclass(frozen=True, slots=True)
class SeenTrick:
    """A trick as every seat saw it: its leader, its cards in order of play, and the seat
    that won it (None for the trick in progress)."""

    leader: str
    cards: tuple[Card, ...]
    winner: str | None = None

    def seat_of(self, index: int, seats: tuple[str, ...]) -> str:
        """The seat that played the ``index``-th card of the trick."""
        return seats[(seats.index(self.leader) + index) % len(seats)]


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know at a moment of the deal (an immutable value).

    ``chien`` is None while it is not shown (before the auction's end, and in a Garde
    Sans or Garde Contre); ``ecart`` is the taker's own écart, given to the taker only
    (``ecart_shown`` are the trumps shown with it, given to all). ``partner`` is the
    taker's partner as this seat knows it and ``partner_known`` says whether it does
    (at three and four players the taker plays alone: known, None). ``open_hands`` is
    every seat's hand now, given only to a player that sees every hand (the oracle),
    never to a person or to a bot that plays fair.
    """

    seat: str
    seats: tuple[str, ...]
    rules: Ruleset
    dealer: str | None
    first_seat: str
    phase: Phase
    dealt: CardSet
    hand: CardSet
    auction: tuple[Contract | None, ...]
    taker: str | None
    contract: Contract | None
    called: Card | None
    partner: str | None
    partner_known: bool
    chien: CardSet | None
    ecart: CardSet | None
    ecart_shown: CardSet
    declarations: tuple[Declaration, ...]
    tricks: tuple[SeenTrick, ...]
    trick: SeenTrick | None
    open_hands: Mapping[str, CardSet] | None = field(default=None, compare=False)

    @property
    def players(self) -> int:
        """The number of players at the table."""
        return len(self.seats)

    @property
    def played(self) -> CardSet:
        """Every card played so far (tricks done and the trick in progress)."""
        bits = 0
        for t in (*self.tricks, *((self.trick,) if self.trick is not None else ())):
            for c in t.cards:
                bits |= 1 << c
        return CardSet(bits)

    @property
    def unseen(self) -> CardSet:
        """The cards this seat has not seen: not in its hand, not played, not in the
        chien shown, not in its own écart. The other hands (and a chien or écart it was
        not shown) hold exactly these."""
        seen = self.hand | self.played
        if self.chien is not None:
            seen = seen | self.chien
        if self.ecart is not None:
            seen = seen | self.ecart
        return CardSet.all() - seen

    def camp_of(self, seat: str) -> str | None:
        """``'taker'`` or ``'defence'`` for a seat whose camp this seat knows, else None."""
        if self.taker is None:
            return None
        if seat == self.taker or (self.partner_known and seat == self.partner):
            return "taker"
        if self.partner_known or self.players < 5:
            return "defence"
        return None

    def key(self) -> bytes:
        """A digest of what this seat knows (not of ``open_hands``): equal views, equal
        keys. Bots draw their random choices from it (:func:`decision_rng`)."""
        parts = [
            self.seat, ",".join(self.seats), self.rules.spec(), self.dealer or "-",
            self.phase.value, str(self.dealt.bits), str(self.hand.bits),
            ",".join("-" if c is None else c.name for c in self.auction),
            self.taker or "-", self.called.code if self.called is not None else "-",
            f"{self.partner}:{self.partner_known}",
            "-" if self.chien is None else str(self.chien.bits),
            "-" if self.ecart is None else str(self.ecart.bits), str(self.ecart_shown.bits),
            ";".join(d.model_dump_json() for d in self.declarations),
            ";".join(f"{t.leader}:{','.join(c.code for c in t.cards)}"
                     for t in (*self.tricks, *((self.trick,) if self.trick else ()))),
        ]
        return hashlib.blake2b("|".join(parts).encode(), digest_size=16).digest()


def decision_rng(seed: int, view: SeatView, what: str = "") -> random.Random:
    """The random source of a bot's decision: drawn from its seed and the seat's view
    (and ``what`` is being decided), so that a seeded bot decides the same wherever the
    view is the same, whatever was played at other tables or before.

    >>> from tarotnotation.game import Game
    >>> g = Game.deal(4, seed=3)
    >>> v = view_of(g, "S")
    >>> a = decision_rng(1, v).random()
    >>> a == decision_rng(1, v).random(), a == decision_rng(2, v).random()
    (True, False)
    """
    digest = hashlib.blake2b(view.key() + what.encode(), digest_size=8,
                             key=seed.to_bytes(8, "big", signed=True)).digest()
    return random.Random(int.from_bytes(digest, "big"))


def view_of(game: Game, seat: str, *, open_hands: bool = False) -> SeatView:
    """What ``seat`` may know of ``game`` now. ``open_hands`` adds every hand (for the
    oracle only)."""
    seats = game.seats
    if seat not in seats:
        raise ValueError(Msg("{seat} is not a seat of this deal (seats: {seats})",
                             seat=quote(seat), seats=comma_list(seats)))
    phase = game.phase
    auction_over = phase is not Phase.AUCTION
    contract = game.contract
    taker = game.taker
    # The chien is turned over once the auction (and, at five players, the call) is over.
    chien_shown = (auction_over and phase is not Phase.CALL and contract is not None
                   and contract.takes_chien)
    chien = game.chien if chien_shown else None
    ecart_move = game.ecart
    ecart = (ecart_move.cards if ecart_move is not None and seat == taker else None)
    shown = ecart_move.shown if ecart_move is not None else CardSet()
    tricks, current = _tricks(game)
    called = game.called
    partner, known = _partner(game, seat, called, chien, tricks, current)
    declarations = game.declarations
    return SeatView(
        seat=seat, seats=seats, rules=game.rules, dealer=game.dealer,
        first_seat=game.first_seat, phase=phase, dealt=game.dealt[seat],
        hand=game.hands[seat], auction=tuple(b.contract for b in game.auction),
        taker=taker, contract=contract, called=called, partner=partner,
        partner_known=known, chien=chien, ecart=ecart, ecart_shown=shown,
        declarations=declarations, tricks=tricks, trick=current,
        open_hands=dict(game.hands) if open_hands else None)


def _tricks(game: Game) -> tuple[tuple[SeenTrick, ...], SeenTrick | None]:
    """The tricks played, with their leaders and winners (the kernel's
    :func:`~tarotnotation.kernel.winner_index`), and the trick in progress."""
    seats = game.seats
    n = len(seats)
    cards = game.cards_played
    announcer = next((seats.index(d.seat) for d in game.declarations
                      if isinstance(d, ChelemAnnouncement)), None)
    leader = kernel.first_leader(seats.index(game.first_seat), announcer)
    done: list[SeenTrick] = []
    for start in range(0, len(cards) - len(cards) % n, n):
        trick = cards[start:start + n]
        w = kernel.winner_index([int(c) for c in trick])
        assert w is not None  # (a whole trick always has a winner)
        winner = (leader + w) % n
        done.append(SeenTrick(seats[leader], tuple(trick), seats[winner]))
        leader = winner
    rest = cards[len(cards) - len(cards) % n:]
    current = SeenTrick(seats[leader], tuple(rest)) if game.phase is Phase.PLAY else None
    return tuple(done), current


def _partner(game: Game, seat: str, called: Card | None, chien: CardSet | None,
             tricks: tuple[SeenTrick, ...], current: SeenTrick | None
             ) -> tuple[str | None, bool]:
    """The taker's partner as ``seat`` knows it, and whether it knows."""
    if len(game.seats) != 5:
        return None, True
    if called is None:
        return None, False
    truth = game.partner  # (the holder of the called card, None when the taker is alone)
    if called in game.dealt[seat]:
        return truth, True
    if chien is not None and called in chien:
        return None, True
    for t in (*tricks, *((current,) if current is not None else ())):
        if called in t.cards:
            return truth, True
    return None, False
