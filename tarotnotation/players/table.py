"""The table: who is asked what next, and the answers judged and pushed on the game.

A :class:`Table` wraps a :class:`~tarotnotation.game.Game`. :meth:`Table.pending` says
which seat is asked which question (a :class:`Decision`); :meth:`Table.answer` judges
the answer (the game raises :class:`~tarotnotation.game.IllegalMoveError` for a move the
rules forbid, and nothing changes) and pushes it; :meth:`Table.log` lists every answer as
text, so that a table is saved and made again (:meth:`Table.restore`), answer by answer, as
a game server keeps a game through a restart. :func:`play_deal` plays a whole deal with
one :class:`~.protocol.Player` per seat.

>>> from tarotnotation.game import Game
>>> from tarotnotation.players import RandomPlayer
>>> t = Table(Game.deal(4, seed=11))
>>> t.pending()
Decision(seat='S', kind=<Kind.BID: 'bid'>)
>>> record = play_deal(t, {s: RandomPlayer(seed=5) for s in t.game.seats})
>>> t.pending() is None, t.game.is_over(), t.game.result().ok
(True, True, True)
>>> again = Table.restore(Game.deal(4, seed=11), t.log)
>>> again.game.record() == record
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

import orjson

from .. import kernel
from ..cards import Card, CardSet
from ..diagnostics import quote
from ..game import Game, IllegalMoveError, Phase
from ..i18n import Msg, pmsg
from ..records import ChelemAnnouncement, DealRecord, Declaration, Misere, Poignee
from ..rules import Contract, table
from .protocol import Player
from .view import SeatView, view_of

__all__ = ["Answer", "Decision", "Kind", "Table", "legal_calls", "play_deal", "poignee_sizes"]


class Kind(StrEnum):
    """The questions of a deal, in the order they come."""

    BID = "bid"
    CALL = "call"
    ECART = "ecart"
    CHELEM = "chelem"
    DECLARE = "declare"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Decision:
    """A question: ``seat`` is asked ``kind``."""

    seat: str
    kind: Kind


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer as text: a bid's keyword or ``pass``, a card's code, the écart's codes,
    ``yes``/``no`` for the chelem, the declarations as JSON."""

    seat: str
    kind: Kind
    value: str


#: The name of each question, in the messages.
_QUESTIONS: Final = {
    Kind.BID: pmsg("question", "bid"), Kind.CALL: pmsg("question", "call"),
    Kind.ECART: pmsg("question", "ecart"), Kind.CHELEM: pmsg("question", "chelem"),
    Kind.DECLARE: pmsg("question", "declare"), Kind.PLAY: pmsg("question", "play"),
}


def _question(kind: Kind) -> Msg:
    """The name of a question, in the messages (``bid``, ``play``...)."""
    return _QUESTIONS[kind]


def legal_calls(hand: CardSet) -> tuple[Card, ...]:
    """The cards a taker holding ``hand`` (as dealt) may call at five players (§3): the
    four Kings, and a lower face card only holding every card of each higher rank
    (the kernel's :func:`~tarotnotation.kernel.call_fault`).

    >>> [c.code for c in legal_calls(CardSet.parse("KS KH KD KC QS"))][:6]
    ['QS', 'KS', 'QH', 'KH', 'QD', 'KD']
    """
    return tuple(Card(c) for c in range(56) if kernel.call_fault(c, hand.bits) == 0)


def poignee_sizes(hand: CardSet, players: int) -> tuple[int, ...]:
    """How many trumps each poignée a holder of ``hand`` may show has (the Excuse
    counted as a trump), smallest first.

    >>> poignee_sizes(CardSet.parse("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 EX"), 4)
    (10,)
    """
    count = len(hand.trumps()) + (1 if Card.EXCUSE in hand else 0)
    return tuple(n for n in table(players).poignee if n <= count)


class Table:
    """A game and the questions it asks its seats (see the module)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._asked: set[str] = set()
        self._chelem_asked = False
        self._log: list[Answer] = []

    @classmethod
    def restore(cls, game: Game, log: Iterable[Answer]) -> Table:
        """The table of ``game`` (at its start) with the answers of ``log`` given again."""
        t = cls(game)
        for a in log:
            t.answer_text(a)
        return t

    @property
    def log(self) -> tuple[Answer, ...]:
        """Every answer given, in order."""
        return tuple(self._log)

    def pending(self) -> Decision | None:
        """The next question, or None once the deal is over."""
        g = self.game
        phase = g.phase
        seat = g.turn
        if phase is Phase.OVER or seat is None:
            return None
        if phase is Phase.AUCTION:
            return Decision(seat, Kind.BID)
        if phase is Phase.CALL:
            return Decision(seat, Kind.CALL)
        if phase is Phase.ECART:
            return Decision(seat, Kind.ECART)
        if not self._chelem_asked and not g.cards_played and g.taker is not None:
            return Decision(g.taker, Kind.CHELEM)
        if seat not in self._asked:
            return Decision(seat, Kind.DECLARE)
        return Decision(seat, Kind.PLAY)

    def view(self, seat: str, *, open_hands: bool = False) -> SeatView:
        """What ``seat`` may know now."""
        return view_of(self.game, seat, open_hands=open_hands)

    def ask(self, player: Player) -> Answer:
        """Ask the pending question of ``player`` (the seat's player) and give its
        answer; returns it. ValueError when nothing is pending."""
        d = self.pending()
        if d is None:
            raise ValueError(Msg("the deal is over: nothing to ask"))
        v = self.view(d.seat, open_hands=player.sees_all)
        g = self.game
        if d.kind is Kind.BID:
            return self.answer_bid(d.seat, player.bid(v, g.legal_bids))
        if d.kind is Kind.CALL:
            return self.answer_call(d.seat, player.call(v, legal_calls(g.dealt[d.seat])))
        if d.kind is Kind.ECART:
            size = table(len(g.seats)).chien
            return self.answer_ecart(d.seat, player.ecart(v, g.ecart_choices, size))
        if d.kind is Kind.CHELEM:
            return self.answer_chelem(d.seat, player.chelem(v))
        if d.kind is Kind.DECLARE:
            return self.answer_declare(d.seat, player.declare(v))
        return self.answer_play(d.seat, player.play(v, g.legal_moves))

    # --- answers ------------------------------------------------------------------------

    def _expect(self, seat: str, kind: Kind) -> None:
        d = self.pending()
        if d is None or d.seat != seat or d.kind is not kind:
            expected = (Msg("nothing: the deal is over") if d is None
                        else Msg("{question} from {seat}", question=_question(d.kind),
                                 seat=d.seat))
            raise ValueError(Msg("not {seat}'s {question} now: expected {expected}", seat=seat,
                                 question=_question(kind), expected=expected))

    def _done(self, seat: str, kind: Kind, value: str) -> Answer:
        a = Answer(seat, kind, value)
        self._log.append(a)
        return a

    def answer_bid(self, seat: str, bid: Contract | None) -> Answer:
        """``seat`` bids ``bid`` (None: pass)."""
        self._expect(seat, Kind.BID)
        self.game.push_bid(bid)
        return self._done(seat, Kind.BID, "pass" if bid is None else bid.keyword)

    def answer_call(self, seat: str, card: Card) -> Answer:
        """The taker ``seat`` calls ``card``."""
        self._expect(seat, Kind.CALL)
        self.game.push_call(card)
        return self._done(seat, Kind.CALL, Card(card).code)

    def answer_ecart(self, seat: str, cards: CardSet) -> Answer:
        """The taker ``seat`` puts ``cards`` aside."""
        self._expect(seat, Kind.ECART)
        self.game.push_ecart(cards)
        return self._done(seat, Kind.ECART, str(cards))

    def answer_chelem(self, seat: str, announce: bool) -> Answer:
        """The taker ``seat`` announces a chelem, or not."""
        self._expect(seat, Kind.CHELEM)
        if announce:
            self.game.push_declaration(ChelemAnnouncement(seat=seat))
        self._chelem_asked = True
        return self._done(seat, Kind.CHELEM, "yes" if announce else "no")

    def answer_declare(self, seat: str, declarations: Iterable[Poignee | Misere]) -> Answer:
        """``seat`` declares ``declarations`` before its first card (all or none: one the
        rules forbid takes back those before it)."""
        self._expect(seat, Kind.DECLARE)
        made = tuple(declarations)
        pushed = 0
        try:
            for d in made:
                if not isinstance(d, Poignee | Misere) or d.seat != seat:
                    raise ValueError(Msg("{seat} declares only his own poignée or misère",
                                         seat=seat))
                self.game.push_declaration(d)
                pushed += 1
        except (IllegalMoveError, ValueError):
            for _ in range(pushed):
                self.game.pop()
            raise
        self._asked.add(seat)
        text = orjson.dumps([d.model_dump(mode="json", exclude_none=True) for d in made])
        return self._done(seat, Kind.DECLARE, text.decode())

    def answer_play(self, seat: str, card: Card) -> Answer:
        """``seat`` plays ``card``."""
        self._expect(seat, Kind.PLAY)
        self.game.push(card)
        return self._done(seat, Kind.PLAY, Card(card).code)

    def answer_text(self, a: Answer) -> Answer:
        """Give an answer written as text (an :class:`Answer`, as :meth:`log` lists them)."""
        if a.kind is Kind.BID:
            bid = None if a.value == "pass" else Contract.from_keyword(a.value)
            return self.answer_bid(a.seat, bid)
        if a.kind is Kind.CALL:
            return self.answer_call(a.seat, Card.from_code(a.value))
        if a.kind is Kind.ECART:
            return self.answer_ecart(a.seat, CardSet.parse(a.value))
        if a.kind is Kind.CHELEM:
            if a.value not in ("yes", "no"):
                raise ValueError(Msg("a chelem answer is yes or no, not {value}",
                                     value=quote(a.value)))
            return self.answer_chelem(a.seat, a.value == "yes")
        if a.kind is Kind.DECLARE:
            return self.answer_declare(a.seat, _declarations(a.value))
        return self.answer_play(a.seat, Card.from_code(a.value))


def _declarations(text: str) -> tuple[Poignee | Misere, ...]:
    from pydantic import TypeAdapter

    items = TypeAdapter(list[Declaration]).validate_json(text)
    out: list[Poignee | Misere] = []
    for d in items:
        if not isinstance(d, Poignee | Misere):
            raise ValueError(Msg("a chelem is announced by its own question, not declared"))
        out.append(d)
    return tuple(out)


def play_deal(table_or_game: Table | Game, players: Mapping[str, Player]) -> DealRecord:
    """Play the deal to its end, each question asked of its seat's player; the
    finished deal's record."""
    t = table_or_game if isinstance(table_or_game, Table) else Table(table_or_game)
    while (d := t.pending()) is not None:
        t.ask(players[d.seat])
    return t.game.record()
