"""What the game page and the server say to each other: pydantic models and their making.

The page asks for the :class:`State` and posts an :class:`Action`. The state is built
from the person's seat's view (:func:`~tarotnotation.players.view_of`) and never from the
game itself, so it holds no card the person may not see: the hand, the chien when it is
shown, the person's own écart (the trumps shown with another's), the poignées shown, the
tricks. Besides, the answers given since the page's last request (:class:`Event`, to show
the bots' bids and cards as they come; another seat's écart said without its cards), the
question the person is asked with its legal choices (:class:`Question`: the kernel's legal
cards, and the kernel's words for each card that may not be played), and once the deal is
over the score (the replay's) and, unless the server keeps it back (the day's deal of
``tarot serve`` before the day is over), the record.

>>> from tarotnotation.server.session import Session, Start
>>> s = Session(Start(players=4, seed=3))
>>> st = state_of(s, since=0, lang="en")
>>> st.seat, st.phase, len(st.hand), st.question.kind, st.question.bids[:2]
('S', 'auction', 18, 'bid', ['pass', 'prise'])
>>> st.chien is None, st.score is None
(True, True)
"""

from __future__ import annotations

from typing import Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field

from ..cards import TRUMP_MASK, Card, CardSet, points_text
from ..game import IllegalMoveError
from ..i18n import render
from ..kernel import ecart_forbidden, ecart_plain, ecart_trumps_allowed, misere_faults
from ..narrator import score_lines
from ..players import (
    Answer,
    Kind,
    SeatView,
    SeenTrick,
    legal_calls,
    poignee_sizes,
    view_of,
)
from ..records import Misere, Poignee
from ..rules import MisereKind, table
from ..status import Status
from .session import Session

__all__ = ["MAX_ACTION_BYTES", "Action", "DealOver", "Event", "Question", "Score", "State",
           "Trick", "answer_of", "state_of"]

#: The most bytes an action's body may hold (an écart of six codes is under 100).
MAX_ACTION_BYTES = 2048

_Kind = Literal["bid", "call", "ecart", "chelem", "declare", "play"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Trick(_Model):
    """A trick as every seat saw it: its leader, its cards in order, its winner."""

    leader: str
    cards: list[str]
    winner: str | None = None


class Event(_Model):
    """An answer given at the table: the ``index``-th of the session, in deal ``deal``;
    ``value`` as the table logs it (a bid's keyword, a card's code...), but another seat's
    écart is only the trumps shown with it."""

    index: int
    deal: int
    seat: str
    kind: _Kind
    value: str


class Question(_Model):
    """The question the person is asked, with what may be answered: ``bids`` (``pass``
    and the contracts above the best bid); ``cards`` (the cards that may be called, put
    aside or played); ``size`` (the écart's); ``refused`` (each card of the hand that may
    not be played, and the kernel's words why); ``poignees`` (the poignées that may be
    shown, each its cards); ``miseres`` (under ``misere=on``, the misères the hand may
    declare: ``atout``, ``tete``, those the kernel's :func:`misere_faults` finds true)."""

    kind: _Kind
    bids: list[str] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list)
    size: int = 0
    refused: dict[str, str] = Field(default_factory=dict)
    poignees: list[list[str]] = Field(default_factory=list)
    miseres: list[str] = Field(default_factory=list)


class Score(_Model):
    """The score of a deal played out (the replay's): the contract and taker, whether
    it was made, the taker's camp's points and bouts, each seat's score, and the score
    worked out in words."""

    contract: str | None
    taker: str | None
    made: bool | None
    points: str
    bouts: int
    scores: dict[str, int]
    lines: list[str]


class DealOver(_Model):
    """A deal of the session that is over: its number, whether it was annulled (every
    player passed), and its scores."""

    deal: int
    annulled: bool
    scores: dict[str, int] = Field(default_factory=dict)


class State(_Model):
    """What the page shows (see the module)."""

    deal: int
    seen: int
    seat: str
    seats: list[str]
    rules: str
    dealer: str | None
    phase: str
    hand: list[str]
    auction: list[str]
    taker: str | None
    contract: str | None
    called: str | None
    partner: str | None
    partner_known: bool
    chien: list[str] | None
    ecart: list[str] | None
    ecart_shown: list[str]
    declarations: list[dict[str, object]]
    tricks: list[Trick]
    trick: Trick | None
    question: Question | None
    events: list[Event]
    deals: list[DealOver]
    score: Score | None = None
    record: str | None = None


class Action(_Model):
    """An answer from the page: ``kind`` and its ``value`` (a bid's keyword or ``pass``,
    a card's code, ``yes`` or ``no`` for a chelem, the misères declared, ``atout`` or
    ``tete`` or both, space-separated); ``cards`` for the écart and a poignée's cards
    (none: no poignée); or ``next``, the next deal once one is over."""

    kind: Literal["bid", "call", "ecart", "chelem", "declare", "play", "next"]
    value: str = Field(default="", max_length=16)
    cards: list[str] = Field(default_factory=list, max_length=24)


def _codes(cards: CardSet | None) -> list[str] | None:
    return None if cards is None else [c.code for c in sorted(cards)]


def _trick(t: SeenTrick) -> Trick:
    return Trick(leader=t.leader, cards=[c.code for c in t.cards], winner=t.winner)


def answer_of(action: Action, seat: str) -> Answer:
    """The table's :class:`~tarotnotation.players.Answer` for ``action`` from ``seat``;
    ValueError for a card code that names no card, or for ``next`` (not an answer).

    >>> answer_of(Action(kind="ecart", cards=["2C", "3C"]), "S").value
    '2C 3C'
    """
    kind = Kind(action.kind)  # (ValueError for "next")
    if kind is Kind.ECART:
        return Answer(seat, kind, str(CardSet.from_cards(Card.from_code(c)
                                                         for c in action.cards)))
    if kind is Kind.DECLARE:
        made: list[Poignee | Misere] = []
        if action.cards:
            made.append(Poignee(seat=seat, cards=CardSet.from_cards(
                Card.from_code(c) for c in action.cards)))
        made.extend(Misere(seat=seat, misere=MisereKind(word))  # (ValueError: no such)
                    for word in dict.fromkeys(action.value.split()))
        text = orjson.dumps([d.model_dump(mode="json", exclude_none=True) for d in made])
        return Answer(seat, kind, text.decode())
    return Answer(seat, kind, action.value)


def _event(index: int, deal: int, a: Answer, view: SeatView) -> Event:
    value = a.value
    if a.kind is Kind.ECART and a.seat != view.seat:
        value = str(view.ecart_shown) if value else ""
    return Event(index=index, deal=deal, seat=a.seat, kind=a.kind.value, value=value)


def _question(session: Session, view: SeatView, lang: str) -> Question | None:
    d = session.pending()
    if d is None or d.seat != session.human:
        return None
    game = session.game
    if d.kind is Kind.BID:
        return Question(kind="bid", bids=["pass" if c is None else c.keyword
                                          for c in game.legal_bids])
    if d.kind is Kind.CALL:
        return Question(kind="call", cards=[c.code for c in legal_calls(view.dealt)])
    if d.kind is Kind.ECART:
        pool = view.hand | (view.chien or CardSet())
        size = table(view.players).chien
        choosable = ecart_plain(pool.bits)
        if ecart_trumps_allowed(pool.bits, size):
            choosable |= pool.bits & TRUMP_MASK & ~ecart_forbidden(pool.bits)
        return Question(kind="ecart", cards=_codes(CardSet(choosable)) or [], size=size)
    if d.kind is Kind.CHELEM:
        return Question(kind="chelem")
    if d.kind is Kind.DECLARE:
        miseres = [k.value for k in MisereKind
                   if game.rules.misere and not misere_faults(view.hand.bits, k)]
        return Question(kind="declare", poignees=[_poignee(view.hand, n)
                                                  for n in poignee_sizes(view.hand,
                                                                         view.players)],
                        miseres=miseres)
    legal = game.legal_moves
    refused: dict[str, str] = {}
    for card in sorted(view.hand - legal):
        try:
            game.push(card)
        except IllegalMoveError as err:
            refused[card.code] = render(err.reason, lang)
        else:  # (never: the kernel's legal set and its judge are one rule)
            game.pop()
    return Question(kind="play", cards=_codes(legal) or [], refused=refused)


def _poignee(hand: CardSet, size: int) -> list[str]:
    """The cards of a poignée of ``size`` shown from ``hand``: its lowest trumps, the
    Excuse only when the trumps are too few."""
    trumps = sorted(hand.trumps())
    if len(trumps) >= size:
        return [c.code for c in trumps[:size]]
    return [c.code for c in trumps] + [Card.EXCUSE.code]


def _score(session: Session, lang: str) -> Score | None:
    game = session.game
    if not game.is_over():
        return None
    rep = game.result()
    if rep.status is Status.ANNULLED:
        return None
    scores = dict(rep.scores or {})
    return Score(contract=rep.contract.keyword if rep.contract is not None else None,
                 taker=rep.taker, made=rep.made, points=points_text(rep.taker_half or 0),
                 bouts=rep.bouts or 0, scores=scores,
                 lines=[render(line, lang) for line in score_lines(rep)])


def state_of(session: Session, since: int, lang: str, *, with_record: bool = True) -> State:
    """The state the page is sent: the person's view of the deal in progress, the answers
    given after the ``since``-th of the session (the bots' to show), the question asked;
    once the deal is over its score, and its record when ``with_record`` (the record holds
    every hand as dealt, the chien and the écart: ``tarot serve`` sends it only once the
    day's deal is no longer secret)."""
    view = view_of(session.game, session.human)
    events: list[Event] = []
    index = 0
    deals: list[DealOver] = []
    for number, log in enumerate(session.logs):
        for a in log:
            if index >= since and number == session.number:
                events.append(_event(index, number, a, view))
            elif index >= since:  # (an earlier deal: its bids only, every card hidden)
                events.append(Event(index=index, deal=number, seat=a.seat,
                                    kind=a.kind.value, value=a.value)
                              if a.kind is Kind.BID else
                              Event(index=index, deal=number, seat=a.seat,
                                    kind=a.kind.value, value=""))
            index += 1
    for number, record in enumerate(session.records):
        annulled = record.result is not None and record.result.annulled
        deals.append(DealOver(deal=number, annulled=bool(annulled),
                              scores=dict(record.result.scores or {})
                              if record.result is not None and not annulled else {}))
    over = session.game.is_over()
    return State(
        deal=session.number, seen=index, seat=view.seat, seats=list(view.seats),
        rules=view.rules.spec(), dealer=view.dealer, phase=view.phase.value,
        hand=_codes(view.hand) or [],
        auction=["pass" if c is None else c.keyword for c in view.auction],
        taker=view.taker, contract=view.contract.keyword if view.contract else None,
        called=view.called.code if view.called is not None else None,
        partner=view.partner, partner_known=view.partner_known,
        chien=_codes(view.chien), ecart=_codes(view.ecart),
        ecart_shown=_codes(view.ecart_shown) or [],
        declarations=[d.model_dump(mode="json", exclude_none=True)
                      for d in view.declarations],
        tricks=[_trick(t) for t in view.tricks],
        trick=_trick(view.trick) if view.trick is not None else None,
        question=_question(session, view, lang), events=events, deals=deals,
        score=_score(session, lang),
        record=str(session.game.record()) if over and with_record else None)
