"""A deal to play move by move: :class:`Game`, as a chess program's board.

A :class:`Game` is a deal from the cards dealt to the last trick: the auction
(:meth:`Game.push_bid`), the call at five players (:meth:`Game.push_call`), the écart
(:meth:`Game.push_ecart`), the declarations (:meth:`Game.push_declaration`) and every card
(:meth:`Game.push`), each one taken back by :meth:`Game.pop`. A move the rules forbid
raises :class:`IllegalMoveError` (a ``ValueError``) with the code and the words
``tarot validate`` would give it.

Nothing here is a rule: the cards are played on the kernel's
:class:`~tarotnotation.kernel.PlayState` (its legal set, its tricks, its counting), and a
bid, call, écart or declaration is judged by the replay (:func:`tarotnotation.replay.replay`)
of the record with that move added, so a game and ``tarot validate`` cannot disagree.
:meth:`Game.record` is the deal as a :class:`~tarotnotation.records.DealRecord`, and
:meth:`Game.result` the replay of the finished deal.

>>> game = Game.deal(players=4, seed=7)
>>> game.phase, game.turn
(<Phase.AUCTION: 'auction'>, 'S')
>>> for bid in ("pass", "garde", "pass", "pass"):
...     game.push_bid(bid)
>>> game.taker, game.contract, game.phase
('E', <Contract.GARDE: 2>, <Phase.ECART: 'ecart'>)
>>> game.push_ecart(sorted(game.ecart_choices)[:6])
Traceback (most recent call last):
...
tarotnotation.game.IllegalMoveError: E102 error: seat E: KS in the écart: expected no King ...
>>> from tarotnotation.kernel import ecart_plain
>>> game.push_ecart(sorted(CardSet(ecart_plain(game.ecart_choices.bits)))[:6])
>>> while not game.is_over():
...     game.push(min(game.legal_moves))
>>> r = game.result()
>>> r.taker_half + r.defence_half, r.ok
(182, True)
>>> game.pop()
<Card...>
>>> game.is_over(), len(game.trick)
(False, 3)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Final, NoReturn

from . import kernel
from .cards import ALL_MASK, Card, CardSet, mask_of
from .diagnostics import Code, Diagnostic, Location, Severity, TarotError
from .i18n import Msg, comma_list
from .legality import constraint
from .records import (
    DEFAULT_SEATS,
    Bid,
    Call,
    ChelemAnnouncement,
    DealRecord,
    Declaration,
    Ecart,
    Misere,
    PlayedCard,
    Poignee,
    Result,
    Trick,
)
from .rules import Camp, Contract, Ruleset, table
from .status import Status

if TYPE_CHECKING:
    from .analysis.position import Position
    from .replay import Replay

__all__ = ["Game", "IllegalMoveError", "Move", "Phase"]

#: A move of a game: a bid, the call, the écart, a declaration or a card.
Move = Bid | Call | Ecart | Poignee | ChelemAnnouncement | Misere | Card

_CAMPS: Final = {Camp.TAKER: kernel.TAKER, Camp.DEFENCE: kernel.DEFENCE}


class Phase(StrEnum):
    """Where a game stands: what the next move is."""

    AUCTION = "auction"
    """Each player bids in turn (:meth:`Game.push_bid`)."""
    CALL = "call"
    """At five players, the taker calls a card (:meth:`Game.push_call`)."""
    ECART = "ecart"
    """In a Prise or Garde, the taker makes his écart (:meth:`Game.push_ecart`)."""
    PLAY = "play"
    """The cards (:meth:`Game.push`); a player declares before his first card."""
    OVER = "over"
    """Every trick played, or the deal annulled: :meth:`Game.result`."""


class IllegalMoveError(TarotError):
    """A move the rules forbid where it was made. ``diagnostic`` says which rule (its
    stable code), where (trick, seat, card, the record's path) and what was expected;
    ``reason`` is its message. It is a ``ValueError``."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic)
        self.diagnostic = diagnostic

    @property
    def code(self) -> Code:
        """The diagnostic code of the rule that forbids the move."""
        return self.diagnostic.code

    @property
    def reason(self) -> str:
        """What the rule says, and what was expected."""
        return self.diagnostic.message


def _out_of_order(message: str, path: str, seat: str | None = None) -> IllegalMoveError:
    return IllegalMoveError(Diagnostic.make(Code.MOVE_OUT_OF_ORDER, message, path=path,
                                            seat=seat))


def _card(value: Card | str | int) -> Card:
    if isinstance(value, str):
        return Card.from_code(value)
    return Card(value)


def _cards(values: Iterable[Card | str | int] | CardSet | str) -> CardSet:
    if isinstance(value := values, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)
    return CardSet(mask_of(int(_card(c)) for c in value))


class Game:
    """A deal played move by move, on the kernel's :class:`~tarotnotation.kernel.PlayState`.

    Build one with :meth:`deal` (a shuffled deal), :meth:`new` (given hands),
    :meth:`from_record` (a recorded deal, its moves pushed) or :meth:`from_position` (a
    deal in play, for the card play only). Seats are seat ids (``'S'``); points are
    half-points. A game is mutable (push and pop), as a board is; :meth:`record` and
    :meth:`result` are immutable values.
    """

    def __init__(self, base: DealRecord) -> None:
        """A game at the start of ``base``'s deal: its tags, ruleset, seats, dealer, hands
        and chien (every hand given); its auction, call, écart, declarations, play and
        result are left out (use :meth:`from_record` to push them)."""
        ids = base.seat_ids
        hands = base.hands or {}
        missing = [s for s in ids if s not in hands]
        if missing:
            raise ValueError(Msg("a game needs every hand as dealt: {seats} not given",
                                 seats=comma_list(missing)))
        dealt = tuple(hands[s].bits for s in ids)
        chien = ALL_MASK & ~mask_of(c for h in dealt for c in range(78) if h >> c & 1)
        self._base = base.model_copy(update={
            "hands": {s: hands[s] for s in ids}, "chien": CardSet(chien), "auction": (),
            "call": None, "ecart": None, "declarations": (), "play": (), "result": None})
        self._ids = ids
        self._n = len(ids)
        self._first_seat = ids.index(base.first_seat)
        self._cards_in_deal = self._n * table(self._n).tricks
        self._best_bid: tuple[Contract, int] | None = None
        self._rules = base.rules
        self._dealt = dealt
        self._chien = chien
        self._auction: list[Bid] = []
        self._call: Call | None = None
        self._ecart: Ecart | None = None
        self._declarations: list[Declaration] = []
        self._cards: list[int] = []
        self._moves: list[Move] = []
        self._state: kernel.PlayState | None = None
        self._position: Position | None = None

    # --- ways to start ------------------------------------------------------------------

    @classmethod
    def new(cls, hands: Mapping[str, Iterable[Card | str | int] | CardSet | str], *,
            players: int | None = None, dealer: str | None = None,
            rules: Ruleset | str = "fft", tags: Mapping[str, str] | None = None) -> Game:
        """A game from the hands as dealt, by seat id (the chien is the cards left).

        >>> g = Game.new({"S": "T1 T2"}, players=4)
        Traceback (most recent call last):
        ...
        pydantic_core._pydantic_core.ValidationError: 1 validation error for DealRecord
          Value error, hands.S: a hand has 18 cards at 4 players, found 2 ...
        """
        n = players if players is not None else len(hands)
        record = DealRecord(players=n, dealer=dealer, ruleset=rules,
                            tags=tuple((tags or {}).items()),
                            hands={s: _cards(h) for s, h in hands.items()})
        return cls(record)

    @classmethod
    def deal(cls, players: int = 4, *, seed: int | random.Random | None = None,
             dealer: str | None = None, rules: Ruleset | str = "fft") -> Game:
        """A shuffled deal (``seed`` makes it the same every time). A shuffle that would
        give a player the Petit sec (the deal annulled, §2) is shuffled again.

        >>> g = Game.deal(5, seed=1)
        >>> len(g.hands["F"]), len(g.chien), g.dealer, g.turn
        (15, 3, 'F', 'S')
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        tab = table(players)
        order = list(range(78))
        while True:
            rng.shuffle(order)
            hands = [mask_of(order[i * tab.hand:(i + 1) * tab.hand]) for i in range(players)]
            if not any(map(kernel.petit_sec, hands)):
                break
        ids = DEFAULT_SEATS[players]
        return cls.new({s: CardSet(h) for s, h in zip(ids, hands, strict=True)}, players=players,
                       dealer=dealer if dealer is not None else ids[-1], rules=rules)

    @classmethod
    def from_record(cls, record: DealRecord) -> Game:
        """The game of a recorded deal, each of its moves pushed in turn (the first one
        the rules forbid raises :class:`IllegalMoveError`). The record needs every hand
        as dealt, or a whole play with the chien and the écart, from which the replay
        finds them. Comments and glyphs of the cards are not kept.

        >>> from tarotnotation import notation
        >>> rec = notation.load("examples/prise.tarot")
        >>> g = Game.from_record(rec)
        >>> g.is_over(), g.record().play == rec.play
        (True, True)
        """
        hands = record.hands or {}
        if any(s not in hands for s in record.seat_ids):
            hands = _dealt_hands(record)
        game = cls(record.model_copy(update={"hands": hands}))
        for bid in record.auction:
            game.push_bid(bid)
        if record.call is not None:
            game.push_call(record.call)
        if record.ecart is not None:
            game.push_ecart(record.ecart)
        for decl in record.declarations:
            game.push_declaration(decl)
        for card in record.cards_played():
            game.push(card)
        return game

    @classmethod
    def from_position(cls, position: Position) -> Game:
        """A game from a deal in play with every hand open (an
        :class:`~tarotnotation.analysis.position.Position`): its card play only, from
        there (:meth:`record` cannot be given: the deal's start is not known).

        >>> from tarotnotation.analysis import Position
        >>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S"
        ...                      " won=60/1 tricks=9/7")
        >>> g = Game.from_position(pos)
        >>> g.turn, str(g.legal_moves), g.phase
        ('S', 'KH T21', <Phase.PLAY: 'play'>)
        """
        ids = position.seats
        game = cls.__new__(cls)
        game._base = DealRecord(players=len(ids), seats=[{"id": s} for s in ids],
                                ruleset=position.rules)
        game._ids = ids
        game._n = len(ids)
        game._first_seat = 0
        game._cards_in_deal = len(ids) * position.tricks
        game._best_bid = (position.contract, position.taker)
        game._rules = position.rules
        game._dealt = position.hands
        game._chien = position.aside
        game._auction = []
        game._call = None
        game._ecart = None
        game._declarations = []
        game._cards = []
        game._moves = []
        game._state = position.state()
        game._position = position
        return game

    # --- where the game stands ----------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat ids, in the order of play."""
        return self._ids

    @property
    def rules(self) -> Ruleset:
        """The ruleset the deal is played under."""
        return self._rules

    @property
    def dealer(self) -> str | None:
        """The dealer's seat id."""
        return self._base.dealer

    @property
    def first_seat(self) -> str:
        """The dealer's right-hand neighbour: the first to speak (and to lead, unless a
        chelem is announced)."""
        return self._ids[self._first()]

    @property
    def dealt(self) -> Mapping[str, CardSet]:
        """Each seat's hand as dealt (before the chien is taken)."""
        return {s: CardSet(h) for s, h in zip(self._ids, self._dealt, strict=True)}

    @property
    def called(self) -> Card | None:
        """The card called at five players, once called."""
        return None if self._call is None else Card(self._call.card)

    @property
    def ecart(self) -> Ecart | None:
        """The taker's écart, once made."""
        return self._ecart

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The poignées, chelem and misères declared so far, in order."""
        return tuple(self._declarations)

    @property
    def auction(self) -> tuple[Bid, ...]:
        """The bids so far, in order of speech from :attr:`first_seat`."""
        return tuple(self._auction)

    @property
    def cards_played(self) -> tuple[Card, ...]:
        """Every card played so far, in order.

        >>> g = Game.deal(3, seed=2)
        >>> g.cards_played
        ()
        """
        return tuple(Card(c) for c in self._cards)

    @property
    def chien(self) -> CardSet:
        """The chien as dealt (for a game from a position: the cards never played)."""
        return CardSet(self._chien)

    @property
    def contract(self) -> Contract | None:
        """The highest bid so far (the contract, once the auction is over)."""
        best = self._best()
        return None if best is None else best[0]

    @property
    def taker(self) -> str | None:
        """The seat id of the highest bidder so far (the taker, once the auction is over)."""
        if self._position is not None:
            return self._ids[self._position.taker]
        best = self._best()
        return None if best is None else self._ids[best[1]]

    @property
    def partner(self) -> str | None:
        """At five players, the holder of the called card once called (None when the
        taker called his own card or one in the chien); None at three and four."""
        if self._position is not None:
            p = self._position.partner
            return None if p is None or p == self._position.taker else self._ids[p]
        if self._call is None:
            return None
        card = int(self._call.card)
        holder = next((s for s, h in enumerate(self._dealt) if h >> card & 1), None)
        return None if holder is None or self._ids[holder] == self.taker else self._ids[holder]

    @property
    def phase(self) -> Phase:
        """What the next move is."""
        if self._position is not None:
            return Phase.OVER if self._state is not None and self._state.over else Phase.PLAY
        n = self._n
        if len(self._auction) < n:
            return Phase.AUCTION
        best = self._best()
        if best is None or kernel.petit_in_chien_annuls(self._rules, best[0], self._chien):
            return Phase.OVER
        if n == 5 and self._call is None:
            return Phase.CALL
        if best[0].takes_chien and self._ecart is None:
            return Phase.ECART
        if len(self._cards) == self._cards_in_deal:
            return Phase.OVER
        return Phase.PLAY

    def is_over(self) -> bool:
        """True once every trick is played, or the deal is annulled (every player passed;
        the Petit in the chien under ``petit_in_chien = annuls``)."""
        return self.phase is Phase.OVER

    @property
    def turn(self) -> str | None:
        """The seat id of the player to move: to bid, to call, to discard, to play; None
        once the game is over."""
        phase = self.phase
        if phase is Phase.AUCTION:
            return self._ids[(self._first() + len(self._auction)) % self._n]
        if phase in (Phase.CALL, Phase.ECART):
            return self.taker
        if phase is Phase.PLAY:
            return self._ids[self._play_state().to_play]
        return None

    @property
    def hands(self) -> Mapping[str, CardSet]:
        """Each seat's cards now: as dealt until the écart, the taker's with the chien
        taken and the écart made from then on, less the cards played."""
        if self._state is not None or self.phase is Phase.PLAY:
            held = tuple(self._play_state().hands)
        else:
            held = self._dealt
        return {s: CardSet(h) for s, h in zip(self._ids, held, strict=True)}

    @property
    def ecart_choices(self) -> CardSet:
        """The cards the taker discards from in the écart phase: his hand and the chien
        (empty in any other phase)."""
        if self.phase is not Phase.ECART:
            return CardSet()
        taker = self._ids.index(self.taker or "")
        return CardSet(self._dealt[taker] | self._chien)

    @property
    def legal_moves(self) -> CardSet:
        """The cards the player to move may play (the kernel's legal set); empty outside
        the card play. It iterates as :class:`~tarotnotation.cards.Card` values."""
        if self.phase is not Phase.PLAY:
            return CardSet()
        return CardSet(self._play_state().legal())

    @property
    def legal_bids(self) -> tuple[Contract | None, ...]:
        """The bids the player to speak may make (None is a pass); empty once the auction
        is over."""
        if self.phase is not Phase.AUCTION:
            return ()
        best = self._best()
        top = None if best is None else best[0]
        return (None, *(c for c in Contract if kernel.outbids(c, top)))

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, from its leader's (empty between tricks)."""
        if self.phase is not Phase.PLAY:
            return ()
        return tuple(Card(c) for c in self._play_state().trick)

    @property
    def trick_number(self) -> int:
        """The 1-based number of the trick in progress (or to be led)."""
        if self._state is None and self._position is None:
            return 1
        return self._play_state().trick_number + 1

    @property
    def trick_leader(self) -> str | None:
        """The seat id of the player who leads (or led) the trick in progress."""
        if self.phase is not Phase.PLAY:
            return None
        return self._ids[self._play_state().leader]

    @property
    def trick_winner(self) -> str | None:
        """The seat id of the player winning the trick in progress so far (the kernel's
        :func:`~tarotnotation.kernel.winner_index`); None before its first card, or
        while only the Excuse is in it."""
        st = self._state
        if st is None or not st.trick:
            return None
        index = kernel.winner_index(st.trick)
        return None if index is None else self._ids[(st.leader + index) % self._n]

    @property
    def previous_trick(self) -> tuple[Card, ...]:
        """The cards of the last trick completed, from its leader's."""
        st = self._state
        return () if st is None else tuple(Card(c) for c in st.previous)

    def camp(self, seat: str) -> Camp | None:
        """A seat's camp, once the camps are known (at five players, after the call)."""
        taker = self.taker
        if taker is None or self.phase in (Phase.AUCTION, Phase.CALL):
            return None
        return Camp.TAKER if seat in (taker, self.partner) else Camp.DEFENCE

    def points(self, camp: Camp) -> int:
        """The half-points a camp has won so far (the Excuse settled; the chien or the
        écart counted once the deal is over, for its camp).

        >>> g = Game.from_record(__import__("tarotnotation").notation.load(
        ...     "examples/prise.tarot"))
        >>> g.points(Camp.TAKER) + g.points(Camp.DEFENCE)
        182
        """
        return 0 if self._state is None else self._state.half(_CAMPS[Camp(camp)])

    def bouts(self, camp: Camp) -> int:
        """The bouts a camp has won so far (the chien's or écart's counted at the end)."""
        return 0 if self._state is None else self._state.bouts(_CAMPS[Camp(camp)])

    def tricks_won(self, camp: Camp) -> int:
        """The tricks a camp has won so far."""
        return 0 if self._state is None else self._state.tricks_won[_CAMPS[Camp(camp)]]

    # --- moves --------------------------------------------------------------------------

    def push_bid(self, bid: Bid | Contract | str | None) -> None:
        """The player to speak bids (a :class:`~tarotnotation.rules.Contract`, its
        keyword, or None or ``"pass"`` for a pass; a :class:`~tarotnotation.records.Bid`
        naming another seat is a bid out of turn, A101)."""
        move = bid if isinstance(bid, Bid) else Bid(contract=bid)
        i = len(self._auction)
        if self.phase is not Phase.AUCTION:
            raise _out_of_order(Msg("the auction is over: each player speaks once"),
                                path=f"auction[{i}]")
        self._judge(f"auction[{i}]", {"auction": (*self._auction, move)},
                    seat=self._ids[(self._first() + i) % self._n])
        self._auction.append(move)
        self._moves.append(move)
        self._best_bid = self._find_best()

    def push_call(self, card: Call | Card | str) -> None:
        """At five players, the taker calls a card (a King, or a lower face card when he
        holds every card of each higher rank)."""
        move = card if isinstance(card, Call) else Call(card=_card(card))
        if self._n != 5 or self.phase is not Phase.CALL:
            self._not_now("call")
        self._judge("call", {"call": move}, seat=self.taker)
        self._call = move
        self._moves.append(move)

    def push_ecart(self, cards: Ecart | Iterable[Card | str | int] | CardSet | str) -> None:
        """The taker's écart, from his hand and the chien: as many cards as the chien,
        no King nor bout, a trump only when it cannot be helped (then shown: the trumps
        of the écart are shown unless an :class:`~tarotnotation.records.Ecart` says
        otherwise)."""
        if isinstance(cards, Ecart):
            move = cards
        else:
            chosen = _cards(cards)
            move = Ecart(cards=chosen, shown=chosen.trumps())
        best = self._best()
        takes_chien = best is not None and best[0].takes_chien
        if self.phase is not Phase.ECART and (takes_chien or self.phase is not Phase.PLAY
                                              or self._cards):
            self._not_now("ecart")
        self._judge("ecart", {"ecart": move}, seat=self.taker)
        self._ecart = move
        self._moves.append(move)

    def push_declaration(self, declaration: Declaration) -> None:
        """A poignée or a misère, declared by a player before his first card; a chelem,
        announced by the taker before the first lead (he then leads)."""
        i = len(self._declarations)
        path = f"declarations[{i}]"
        seat = declaration.seat
        if seat not in self._ids:
            raise ValueError(Msg("{seat} is not a seat of this deal (seats: {seats})",
                                 seat=seat, seats=comma_list(self._ids)))
        if (self.phase is not Phase.PLAY or self._ids.index(seat) in self._players()
                or (isinstance(declaration, ChelemAnnouncement) and self._cards)):
            raise _out_of_order(Msg("{seat} declares before his first card, after the auction"
                                    " and the écart", seat=seat), path=path, seat=seat)
        self._judge(path, {"declarations": (*self._declarations, declaration)}, seat=seat)
        self._declarations.append(declaration)
        self._moves.append(declaration)
        if isinstance(declaration, ChelemAnnouncement):
            self._state = None  # (the taker leads)

    def push(self, card: Card | str | int) -> None:
        """The player to move plays ``card``; raises :class:`IllegalMoveError` with the
        rule's code and what was expected when he may not."""
        move = card if type(card) is Card else _card(card)
        if self.phase is not Phase.PLAY:
            self._not_now("play")
        st = self._play_state()
        if not st.legal() >> move & 1:
            raise self._illegal(st, move)
        st.play(move)
        self._cards.append(int(move))
        self._moves.append(move)

    def _illegal(self, st: kernel.PlayState, move: Card) -> IllegalMoveError:
        """Why ``move`` may not be played: not held (P103), or the rule that forbids it."""
        seat = st.to_play
        where = Location(trick=st.trick_number + 1, seat=self._ids[seat], card=move.code,
                         path=f"play[{st.trick_number}].cards[{len(st.trick)}]")
        hand = st.hands[seat]
        if not hand >> move & 1:
            return IllegalMoveError(Diagnostic(
                Code.NOT_IN_HAND, Severity.ERROR, Msg("{seat} does not hold {card}{where}",
                                                      seat=self._ids[seat], card=move.code,
                                                      where=""), where))
        called = st.called if st.trick_number == 0 else None
        illegal = constraint(hand, st.trick, called).explain(move)
        assert illegal is not None  # (the kernel's legal set: the same rule)
        return IllegalMoveError(Diagnostic(illegal.code, Severity.ERROR, illegal.message, where))

    def pop(self) -> Move:
        """Take back the last move (a card, a declaration, the écart, the call, a bid)
        and return it; IndexError when no move was made."""
        if not self._moves:
            raise IndexError(Msg("no move to take back: the game is at its start"))
        move = self._moves.pop()
        if isinstance(move, Card):
            self._cards.pop()
            self._play_state().unplay()
            return move
        if isinstance(move, Bid):
            self._auction.pop()
            self._best_bid = self._find_best()
        elif isinstance(move, Call):
            self._call = None
        elif isinstance(move, Ecart):
            self._ecart = None
        else:
            self._declarations.pop()
        if not self._cards:
            self._state = None
        return move

    def peek(self) -> Move:
        """The last move made; IndexError when none was."""
        if not self._moves:
            raise IndexError(Msg("no move to take back: the game is at its start"))
        return self._moves[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move made, in order."""
        return tuple(self._moves)

    # --- what it gives ------------------------------------------------------------------

    def record(self) -> DealRecord:
        """The deal so far as a record (the notation and JSON write it, and read it back
        equal); once the game is over, with each seat's score as its result."""
        if self._position is not None:
            raise ValueError(Msg("a game started from a position has no record: the deal's"
                                 " start is not known"))
        record = self._record({})
        if not self.is_over():
            return record
        from .replay import replay  # (the replay is a layer above the records)

        rep = replay(record)
        result = (Result(annulled=True) if rep.status is Status.ANNULLED
                  else Result(scores=dict(rep.scores)) if rep.scores is not None else None)
        return record.model_copy(update={"result": result})

    def result(self) -> Replay:
        """The finished deal replayed (:func:`tarotnotation.replay.replay` of
        :meth:`record`): its contract, taker, camps' points, bouts and score; ValueError
        while the game is not over."""
        if not self.is_over():
            raise ValueError(Msg("the deal is not over: expected {expected} next",
                                 expected=self._expected()))
        from .replay import replay

        return replay(self.record())

    def __repr__(self) -> str:
        return (f"<Game {self._n} players, {self.phase.value}, trick {self.trick_number},"
                f" {len(self._moves)} moves>")

    # --- inside -------------------------------------------------------------------------

    def _first(self) -> int:
        return self._first_seat

    def _best(self) -> tuple[Contract, int] | None:
        """The highest bid so far and its seat (kept as the bids are pushed and popped)."""
        return self._best_bid

    def _find_best(self) -> tuple[Contract, int] | None:
        best: tuple[Contract, int] | None = None
        first = self._first()
        for i, bid in enumerate(self._auction):
            if bid.contract is not None:
                best = (bid.contract, (first + i) % self._n)
        return best

    def _players(self) -> set[int]:
        """The seats that played a card."""
        st = self._state
        if st is None or not self._cards:
            return set()
        seats: set[int] = set()
        leader = st.leader
        # (each trick's leader is the winner of the one before: walk back from the state)
        done = len(st.trick)
        seats.update((leader + i) % self._n for i in range(done))
        if st.trick_number > 0:
            seats.update(range(self._n))
        return seats

    def _record(self, update: Mapping[str, object]) -> DealRecord:
        n = self._n
        tricks = [self._cards[i:i + n] for i in range(0, len(self._cards), n)]
        parts: dict[str, object] = {
            "auction": tuple(self._auction), "call": self._call, "ecart": self._ecart,
            "declarations": tuple(self._declarations),
            "play": tuple(Trick(cards=tuple(PlayedCard(card=Card(c)) for c in t))
                          for t in tricks)}
        parts.update(update)
        return self._base.model_copy(update=parts)

    def _judge(self, path: str, update: Mapping[str, object], seat: str | None) -> None:
        """Raise the first error the replay finds at ``path`` with the move added."""
        from .replay import replay

        rep = replay(self._record(update))
        for d in rep.diagnostics:
            where = d.location.path or ""
            if d.severity is Severity.ERROR and (
                    where == path or where.startswith((f"{path}.", f"{path}["))):
                raise IllegalMoveError(d if d.location.seat is not None or seat is None
                                       else d.at(seat=seat))

    def _expected(self) -> str:
        """The next move, in words."""
        return {Phase.AUCTION: Msg("a bid"), Phase.CALL: Msg("the call"),
                Phase.ECART: Msg("the écart"), Phase.PLAY: Msg("a card"),
                Phase.OVER: Msg("nothing: the deal is over")}[self.phase]

    def _not_now(self, path: str) -> NoReturn:
        """Raise: a move made out of its turn (``path`` is its part of the record)."""
        raise _out_of_order(Msg("not the time for this move: expected {expected}",
                                expected=self._expected()), path=path)

    def _play_state(self) -> kernel.PlayState:
        if self._state is None:
            from .analysis.position import deal_start

            start, _ = deal_start(self._record({}))
            self._state = start.state()
        return self._state


def _dealt_hands(record: DealRecord) -> dict[str, CardSet]:
    """The hands as dealt of a record that does not give them all: the hands at the first
    card (the replay's, from a whole play), the taker's with the écart put back and the
    chien taken out."""
    from .replay import replay

    rep = replay(record)
    ids = record.seat_ids
    if any(s not in rep.hands for s in ids):
        raise ValueError(Msg("a game needs every hand as dealt: record the hands, or the"
                             " whole play"))
    hands = {s: rep.hands[s] for s in ids}
    contract, taker = rep.contract, rep.taker
    if contract is not None and taker is not None and contract.takes_chien:
        ecart = record.ecart.cards if record.ecart is not None else None
        if record.chien is None or ecart is None:
            raise ValueError(Msg("a game needs every hand as dealt: record the hands, or the"
                                 " chien and the écart"))
        hands[taker] = (hands[taker] | ecart) - record.chien
    return hands

