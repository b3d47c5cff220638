"""A deal in play with every hand open: what the solver searches from.

A :class:`Position` holds the hands (the cards each seat still holds), the camps, who
leads the trick in progress and the cards already in it, the trick's number, what each
camp has won, the cards never played (the chien or the écart) and what the score of the
deal depends on. It is immutable; :meth:`Position.state` gives the kernel's
:class:`~tarotnotation.kernel.PlayState` for it, and :meth:`Position.play` the position
after a card.

Three ways to get one:

- :meth:`Position.from_record`: a point of a recorded deal (the record's hands and play,
  replayed on the rules kernel);
- :meth:`Position.parse`: the one-line form, written by hand (an endgame puzzle), as
  ``docs/analysis.md`` describes it; a bad one raises :class:`PositionError` with
  located ``Q1xx`` diagnostics;
- the constructor, with plain ints.

>>> pos = Position.parse("S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7")
>>> pos.players, pos.trick_number, pos.tricks, pos.seats[pos.to_play]
(4, 16, 18, 'S')
>>> print(pos.fen())
S=KH,T21 E=2H,T5 N=3H,EX W=4H,T2 taker=S lead=S won=60/1 tricks=9/7 contract=garde rules=fft
>>> str(pos.legal()), pos.play(Card.HK).trick
('KH T21', (<Card.HK: 27>,))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ..cards import ALL_MASK, BOUTS_MASK, Card, CardSet, card_points, mask_of
from ..diagnostics import Code, Diagnostic, TarotError
from ..i18n import Msg, Quoted, message_of, nmsg
from ..kernel import DEFENCE, TAKER, PlayState, legal_in, trick_state, unplayed_camp
from ..notation.cardcodes import parse_card
from ..records import SEAT_ID_RE, DealRecord
from ..replay import Replay, replay
from ..rules import (
    Camp,
    Contract,
    FivePlayerFirstLead,
    PoigneeSize,
    Ruleset,
    RulesetError,
    table,
)

__all__ = ["Position", "PositionError", "deal_start", "position_at"]

_FIELDS: Final = ("taker", "partner", "lead", "trick", "won", "tricks", "contract", "rules",
                  "called", "poignees", "chelem")
_POINTS: Final = re.compile(r"^(\d{1,3})(?:[.,](5|0))?$")


class PositionError(TarotError):
    """A position that cannot be searched: its diagnostics say why and where."""


@dataclass(frozen=True, slots=True)
class Position:
    """A deal in play with every hand open. Seats are indices in the order of play;
    camps are ``0`` (the taker's, :data:`~tarotnotation.kernel.TAKER`) and ``1``; cards
    and sets of cards are plain ints (:mod:`tarotnotation.cards`); points half-points.
    """

    rules: Ruleset
    seats: tuple[str, ...]
    """The seat ids, in the order of play."""
    hands: tuple[int, ...]
    """The cards each seat still holds."""
    camps: tuple[int, ...]
    taker: int
    leader: int
    """The seat that leads the trick in progress (or is to lead it)."""
    trick: tuple[int, ...] = ()
    """The cards already in the trick in progress, from the leader's."""
    trick_number: int = 0
    """The 0-based number of the trick in progress."""
    tricks: int = 18
    """The deal's number of tricks."""
    won: tuple[int, int] = (0, 0)
    """The cards of each camp's tricks so far, the Excuse where it ends."""
    adjust: int = 0
    """The half-points the Excuse's low cards moved to the taker's camp."""
    tricks_won: tuple[int, int] = (0, 0)
    aside: int = 0
    """The cards never played (the chien or the écart)."""
    contract: Contract = Contract.GARDE
    called: int | None = None
    """The called card, while it restricts the first lead (five players)."""
    previous: tuple[int, ...] = ()
    """The cards of the trick before (petit au bout may count there)."""
    partner: int | None = None
    """At five players, the partner's seat (the taker's own when alone)."""
    poignees: tuple[PoigneeSize, ...] = ()
    chelem_announced: bool = False
    miseres: tuple[int, ...] = ()
    """Seats that declared a misère (for the score only)."""
    petit: int = -1
    """Once the deal is over, the camp that scored petit au bout (-1 none)."""
    history: tuple[int, ...] = field(default=(), compare=False)
    """The cards played from the first lead to here, when known (for the notation)."""

    # --- what it is ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        """3, 4 or 5."""
        return len(self.hands)

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def over(self) -> bool:
        """True once every trick is played."""
        return self.trick_number >= self.tricks

    @property
    def tricks_left(self) -> int:
        """The tricks still to be completed, the one in progress included."""
        return self.tricks - self.trick_number

    def state(self) -> PlayState:
        """The kernel's play state for this position (a new, mutable object)."""
        st = PlayState(self.rules, self.hands, self.camps, self.leader, aside=self.aside,
                       contract=self.contract, called=self.first_lead_card(),
                       trick=self.trick, trick_number=self.trick_number,
                       tricks=self.tricks, won=self.won, tricks_won=self.tricks_won,
                       adjust=self.adjust, previous=self.previous)
        st.petit = self.petit
        return st

    def first_lead_card(self) -> int | None:
        """The called card when it restricts this trick's lead, else None."""
        if self.called is None or self.trick_number != 0 or self.rules.five_player_first_lead \
                is FivePlayerFirstLead.FREE:
            return None
        return self.called

    def legal(self) -> CardSet:
        """The legal cards of the player to move."""
        if self.over:
            return CardSet()
        return CardSet(self.state().legal())

    def play(self, card: int) -> Position:
        """The position after ``card`` (which must be legal: ask :meth:`legal`)."""
        if self.over or not self.state().legal() >> card & 1:
            raise ValueError(f"{Card(card).code} is not a legal card here")
        st = self.state()
        st.play(card)
        return self.with_state(st, history=(*self.history, card))

    def with_state(self, st: PlayState, *, history: tuple[int, ...] = ()) -> Position:
        """This deal at the point ``st`` has reached."""
        return replace(self, hands=tuple(st.hands), leader=st.leader, trick=tuple(st.trick),
                       trick_number=st.trick_number, won=(st.won[0], st.won[1]),
                       adjust=st.adjust, tricks_won=(st.tricks_won[0], st.tricks_won[1]),
                       previous=tuple(st.previous), petit=st.petit, history=history)

    def half(self, camp: int = TAKER) -> int:
        """A camp's half-points so far (its tricks; the cards aside once the deal is over,
        as :meth:`PlayState.half`)."""
        return self.state().half(camp)

    def holding(self, camp: int = TAKER) -> tuple[int, int]:
        """Everything ``camp`` holds outside the hands and the trick: its half-points and
        bouts so far, with the cards aside when it counts them."""
        st = self.state()
        half, bouts = st.half(camp), st.bouts(camp)
        if not st.over and unplayed_camp(self.contract) == camp:
            half += card_points(self.aside)
            bouts += (self.aside & BOUTS_MASK).bit_count()
        return half, bouts

    # --- the one-line form --------------------------------------------------------------

    def fen(self) -> str:
        """The one-line form of this position (:meth:`parse` reads it back).

        The taker's camp's holding outside the hands (``won``) includes the cards aside
        when it counts them."""
        parts = [f"{seat}={_cards(hand)}" for seat, hand in zip(self.seats, self.hands,
                                                                 strict=True)]
        parts.append(f"taker={self.seats[self.taker]}")
        if self.players == 5:
            partner = self.partner if self.partner is not None else self.taker
            parts.append(f"partner={self.seats[partner]}")
        parts.append(f"lead={self.seats[self.leader]}")
        if self.trick:
            parts.append("trick=" + ",".join(Card(c).code for c in self.trick))
        half, bouts = self.holding(TAKER)
        parts.append(f"won={_points(half)}/{bouts}")
        parts.append(f"tricks={self.tricks_won[0]}/{self.tricks_won[1]}")
        if self.first_lead_card() is not None:
            assert self.called is not None
            parts.append(f"called={Card(self.called).code}")
        parts.append(f"contract={self.contract.keyword}")
        parts.append("rules=" + self.rules.spec().replace(" ", ","))
        if self.poignees:
            parts.append("poignees=" + ",".join(p.value for p in self.poignees))
        if self.chelem_announced:
            parts.append("chelem=announced")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.fen()

    @classmethod
    def parse(cls, text: str, *, file: str | None = None, line: int = 1,
              col: int = 1) -> Position:
        """Read the one-line form (see ``docs/analysis.md``). A position that cannot be
        searched raises :class:`PositionError`, whose diagnostics say where (``file``,
        ``line`` and ``col`` place the text, for their locations).

        >>> Position.parse("S=KH E=2H N=3H taker=S lead=S won=60/1 trick=4H")
        Traceback (most recent call last):
        ...
        tarotnotation.analysis.position.PositionError: <position>:1:46: Q104 error: ...
        """
        return _Parser(text, file or "<position>", line, col).run()

    # --- from a record ------------------------------------------------------------------

    @classmethod
    def from_record(cls, record: DealRecord, *, trick: int | None = None,
                    card: int = 0, rep: Replay | None = None) -> Position:
        """The position before card ``card`` (0-based) of trick ``trick`` (1-based) of a
        recorded deal; the first lead by default; a ``trick`` one past the recorded
        play, or ``card`` one past a trick's recorded cards, is the next card to play.
        The record needs every hand (as dealt, or derived from a complete play), the
        taker and contract, and at five players the partner. Raises
        :class:`PositionError` (Q110 or Q111) when it cannot be done.
        """
        base, cards = deal_start(record, rep)
        target = 0 if trick is None else _card_index(record, trick, card, base.players)
        if target > len(cards):
            raise PositionError(Diagnostic.make(
                Code.ANALYSIS_IMPOSSIBLE,
                Msg("trick {trick}, card {card} is beyond the recorded play",
                    trick=trick, card=card),
                trick=trick))
        return position_at(base, cards[:target], record)


def position_at(start: Position, cards: Sequence[int], record: DealRecord | None = None
                ) -> Position:
    """The position after ``cards`` played from ``start``; raises :class:`PositionError`
    (Q111) at the first card that is not legal there."""
    st = start.state()
    for card in cards:
        if st.over or not st.legal() >> card & 1:
            seat = start.seats[(st.leader + len(st.trick)) % start.players]
            where = f"play[{st.trick_number}].cards[{len(st.trick)}]"
            held = "" if any(h >> card & 1 for h in st.hands) else " (no hand holds it)"
            raise PositionError(Diagnostic.make(
                Code.ANALYSIS_STOPPED,
                Msg("{card} is not a legal card here{held}: the analysis stops before it (legal:"
                    " {cardset})", card=Card(card).code, held=held, cardset=CardSet(st.legal())),
                trick=st.trick_number + 1, seat=seat, card=Card(card).code, path=where))
        st.play(card)
    return start.with_state(st, history=(*start.history, *cards))


# --- from a record ------------------------------------------------------------------------


def _card_index(record: DealRecord, trick: int, card: int, n: int) -> int:
    """The index in the whole play of card ``card`` of trick ``trick``; past the end of
    the recorded play (by more than the next card) gives a huge index."""
    if trick < 1 or card < 0:
        raise PositionError(Diagnostic.make(
            Code.ANALYSIS_IMPOSSIBLE, Msg("tricks are numbered from 1 and cards from 0")))
    play = record.play
    done = sum(len(t.cards) for t in play[:trick - 1])
    if trick - 1 < len(play):
        ok = card <= len(play[trick - 1].cards) and card < n
    else:
        ok = trick - 1 == len(play) and card == 0 and (not play or len(play[-1].cards) == n)
    return done + card if ok else 1 << 30


def _impossible(message: str) -> PositionError:
    return PositionError(Diagnostic.make(Code.ANALYSIS_IMPOSSIBLE, message))


def deal_start(record: DealRecord, rep: Replay | None = None) -> tuple[Position, list[int]]:
    """The position at the first lead of a recorded deal, and every card its play
    records, in order. Raises :class:`PositionError` (Q110) when the deal cannot be
    analysed."""
    if rep is None:
        rep = replay(record)
    ids = record.seat_ids
    n = len(ids)
    if rep.contract is None or rep.taker is None:
        raise _impossible("the deal has no contract or taker to analyse (all passed, or the"
                          " auction is not recorded)")
    missing = [s for s in ids if s not in rep.hands]
    if missing:
        raise _impossible(f"the hands of {', '.join(missing)} are not known (record the hands,"
                          " or the whole play)")
    if not rep.camps or len(rep.camps) != n:
        raise _impossible("the camps are not known (at five players, the partner: record"
                          " the hands or the play of the called card)")
    hands = tuple(rep.hands[s].bits for s in ids)
    if len({h.bit_count() for h in hands}) != 1:
        raise _impossible("the hands at the first card are not all the same size")
    camps = tuple(TAKER if rep.camps[s] is Camp.TAKER else DEFENCE for s in ids)
    taker = ids.index(rep.taker)
    partner = None
    if n == 5:
        partner = ids.index(rep.partner) if rep.partner is not None else taker
    tricks = table(n).tricks
    if hands[0].bit_count() != tricks:
        raise _impossible(f"the hands hold {hands[0].bit_count()} cards at the first lead,"
                          f" expected {tricks}")
    leader = ids.index(record.first_seat)
    if rep.chelem_announced:
        leader = taker
    if rep.tricks:
        leader = rep.tricks[0].leader
    aside = ALL_MASK & ~mask_of(c for h in hands for c in range(78) if h >> c & 1)
    miseres: tuple[int, ...] = ()
    if rep.score is not None:
        miseres = tuple(i for i, v in enumerate(rep.score.misere_amounts) if v > 0)
    start = Position(
        rules=rep.rules, seats=tuple(ids), hands=hands, camps=camps, taker=taker,
        leader=leader, tricks=tricks, aside=aside, contract=rep.contract,
        called=int(rep.called) if rep.called is not None else None, partner=partner,
        poignees=tuple(size for _, size in rep.poignees),
        chelem_announced=rep.chelem_announced, miseres=miseres)
    cards = [int(pc.card) for t in record.play for pc in t.cards]
    return start, cards


# --- the one-line form ------------------------------------------------------------------


def _cards(bits: int) -> str:
    return ",".join(c.code for c in CardSet(bits)) or "-"


def _points(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half // 2}.5"


class _Parser:
    """The one-line form, word by word, with each fault located at its word."""

    def __init__(self, text: str, file: str, line: int, col: int) -> None:
        self.text = text
        self.file = file
        self.line = line
        self.col = col
        self.diags: list[Diagnostic] = []

    def fault(self, code: Code, message: str, at: int) -> None:
        self.diags.append(Diagnostic.make(code, message, file=self.file, line=self.line,
                                          col=self.col + at))

    def stop(self) -> PositionError:
        return PositionError(self.diags)

    def cards(self, value: str, at: int, what: str) -> list[int]:
        out: list[int] = []
        if value == "-":
            return out
        offset = at
        for word in value.split(","):
            card = parse_card(word.strip())
            if card is None:
                self.fault(Code.POSITION_CARD, Msg("{word} in {what} is not a card: expected"
                                                   " codes such as 7H, KS, T21 or EX, separated"
                                                   " by commas",
                                                   word=Quoted(word), what=what), offset)
            else:
                out.append(int(card))
            offset += len(word) + 1
        return out

    def run(self) -> Position:
        words = [(m.group(), m.start()) for m in re.finditer(r"\S+", self.text)]
        if not words:
            self.fault(Code.POSITION_MISSING, Msg("the position is empty: expected each seat's"
                                                  " hand (S=KH,T21 ...), taker=SEAT and lead=SEAT"),
                                              0)
            raise self.stop()
        hands: dict[str, tuple[list[int], int]] = {}
        fields: dict[str, tuple[str, int]] = {}
        for word, at in words:
            name, sep, value = word.partition("=")
            if not sep or not name or not value:
                self.fault(Code.POSITION_SYNTAX, Msg("{word}: expected field=value (a seat's hand"
                                                     " such as S=KH,T21, or one of {fields})",
                                                     word=Quoted(word), fields=", ".join(_FIELDS)),
                           at)
                continue
            key = name.lower()
            if key in _FIELDS:
                if key in fields:
                    self.fault(Code.POSITION_SYNTAX, Msg("{name} is given twice", name=name), at)
                fields[key] = (value, at + len(name) + 1)
            elif SEAT_ID_RE.fullmatch(name) and (value == "-" or any(
                    parse_card(w.strip()) is not None for w in value.split(","))):
                if name in hands:
                    self.fault(Code.POSITION_SEAT, Msg("the hand of {name} is given twice",
                                                       name=name), at)
                hands[name] = (self.cards(value, at + len(name) + 1, f"{name}'s hand"), at)
            else:
                self.fault(Code.POSITION_SYNTAX, Msg("{word}: {name} is not a field ({fields}) and"
                                                     " its value holds no card, so it is not a"
                                                     " seat's hand either", word=Quoted(word),
                                                     name=name, fields=", ".join(_FIELDS)), at)
        if self.diags:
            raise self.stop()
        return self.build(hands, fields)

    def seat(self, fields: dict[str, tuple[str, int]], key: str, seats: list[str]
             ) -> int | None:
        if key not in fields:
            return None
        value, at = fields[key]
        if value not in seats:
            self.fault(Code.POSITION_SEAT, Msg("{key}={value}: no hand is given for {value}"
                                               " (seats: {join})",
                                               key=key, value=value, join=', '.join(seats)), at)
            return None
        return seats.index(value)

    def build(self, hands: dict[str, tuple[list[int], int]],
              fields: dict[str, tuple[str, int]]) -> Position:
        seats = list(hands)
        n = len(seats)
        end = len(self.text)
        if n not in (3, 4, 5):
            self.fault(Code.POSITION_SEAT, nmsg("{n} hand given: a deal has 3, 4 or 5 players",
                                                "{n} hands given: a deal has 3, 4 or 5 players",
                                                n, n=n),
                       0)
            raise self.stop()
        rules = Ruleset.fft()
        if "rules" in fields:
            value, at = fields["rules"]
            try:
                rules = Ruleset.from_spec(value.replace(",", " "))
            except RulesetError as err:
                self.fault(Code.POSITION_SYNTAX, Msg("rules={value}: {err}",
                                                     value=value, err=err), at)
        contract = Contract.GARDE
        if "contract" in fields:
            value, at = fields["contract"]
            try:
                contract = Contract.from_keyword(value)
            except ValueError as err:
                self.fault(Code.POSITION_SYNTAX, message_of(err), at)
        taker = self.seat(fields, "taker", seats)
        leader = self.seat(fields, "lead", seats)
        partner = self.seat(fields, "partner", seats)
        for key, seat_index in (("taker", taker), ("lead", leader)):
            if seat_index is None and key not in fields:
                self.fault(Code.POSITION_MISSING,
                           Msg("taker=SEAT is missing: who took") if key == "taker" else
                           Msg("lead=SEAT is missing: who leads the trick in progress"), end)
        if n == 5 and partner is None and "partner" not in fields:
            self.fault(Code.POSITION_MISSING, Msg("partner=SEAT is missing: at five players, the"
                                                  " holder of the called card (the taker's own"
                                                  " seat when alone)"), end)
        if n != 5 and "partner" in fields:
            self.fault(Code.POSITION_SEAT, Msg("partner= is for five players only"),
                       fields["partner"][1])
        trick: list[int] = []
        if "trick" in fields:
            value, at = fields["trick"]
            trick = self.cards(value, at, "the trick")
        poignees: list[PoigneeSize] = []
        if "poignees" in fields:
            value, at = fields["poignees"]
            for word in value.split(","):
                try:
                    poignees.append(PoigneeSize(word.lower()))
                except ValueError:
                    self.fault(Code.POSITION_SYNTAX, Msg("poignees={value}: expected simple,"
                                                         " double or triple, separated by commas",
                                                         value=value), at)
        announced = False
        if "chelem" in fields:
            value, at = fields["chelem"]
            if value.lower() != "announced":
                self.fault(Code.POSITION_SYNTAX, Msg("chelem={value}: expected chelem=announced",
                                                     value=value),
                           at)
            announced = True
        called: int | None = None
        if "called" in fields:
            value, at = fields["called"]
            card = parse_card(value)
            if card is None:
                self.fault(Code.POSITION_CARD, Msg("called={value}: not a card code",
                                                   value=value), at)
            else:
                called = int(card)
        if self.diags:
            raise self.stop()
        assert taker is not None
        assert leader is not None
        # Each card once.
        seen: dict[int, str] = {}
        for seat, (cards, at) in hands.items():
            for c in cards:
                if c in seen:
                    self.fault(Code.POSITION_CARD_TWICE, Msg("{card} is in {seen}'s hand and"
                                                             " {seat}'s",
                                                             card=Card(c).code, seen=seen[c],
                                                             seat=seat), at)
                seen[c] = seat
        for c in trick:
            if c in seen:
                self.fault(Code.POSITION_CARD_TWICE, Msg("{card} is in the trick and in {seen}'s"
                                                         " hand",
                                                         card=Card(c).code, seen=seen[c]),
                                                     fields["trick"][1])
            seen[c] = "the trick"
        if self.diags:
            raise self.stop()
        # Sizes: the seats that played to the trick hold one card fewer.
        if len(trick) >= n:
            self.fault(Code.POSITION_HAND_SIZES, Msg("the trick holds {count} cards: a trick in"
                                                     " progress holds at most {n}",
                                                     count=len(trick), n=n - 1), fields["trick"][1])
            raise self.stop()
        played = {(leader + i) % n for i in range(len(trick))}
        sizes = {s: len(hands[seats[s]][0]) + (1 if s in played else 0) for s in range(n)}
        left = max(sizes.values())
        tricks = table(n).tricks
        if len(set(sizes.values())) != 1 or left == 0 or left > tricks:
            detail = ", ".join(f"{seats[s]} {len(hands[seats[s]][0])}" for s in range(n))
            self.fault(Code.POSITION_HAND_SIZES, Msg("the hands hold {detail} cards: each seat"
                                                     " holds the same number (1 to {tricks}), one"
                                                     " fewer once it has played to the trick in"
                                                     " progress",
                                                     detail=detail, tricks=tricks),
                                                 fields["trick"][1] if trick else 0)
            raise self.stop()
        trick_number = tricks - left
        hand_bits = [mask_of(hands[s][0]) for s in seats]
        # The trick's cards must have been legal from the hands they came from.
        led, top = -1, 0
        for i, c in enumerate(trick):
            who = (leader + i) % n
            before = hand_bits[who] | 1 << c
            legal = legal_in(before, led, top)[0]
            if not legal >> c & 1:
                self.fault(Code.POSITION_ILLEGAL_TRICK, Msg("{seats} could not play {card} to"
                                                            " this trick: with {cardset} the"
                                                            " legal cards were {cardset2}",
                                                            seats=seats[who], card=Card(c).code,
                                                            cardset=CardSet(before),
                                                            cardset2=CardSet(legal)),
                                                        fields["trick"][1])
            led, top = trick_state(trick[:i + 1])
        # What was won.
        live = mask_of(seen)
        gone = ALL_MASK & ~live
        camps = tuple(TAKER if s in (taker, partner) else DEFENCE for s in range(n))
        tw: tuple[int, int]
        if "tricks" in fields:
            value, at = fields["tricks"]
            m = re.fullmatch(r"(\d+)/(\d+)", value)
            if m is None:
                self.fault(Code.POSITION_SYNTAX, Msg("tricks={value}: expected T/D, the tricks"
                                                     " won by the taker's camp and by the defence",
                                                     value=value), at)
                tw = (0, 0)
            else:
                tw = (int(m[1]), int(m[2]))
                if sum(tw) != trick_number:
                    self.fault(Code.POSITION_WON, Msg("tricks={value}: {sum} tricks won, but the"
                                                      " hands say {trick_number} tricks are over",
                                                      value=value, sum=sum(tw),
                                                      trick_number=trick_number), at)
        elif trick_number == 0:
            tw = (0, 0)
        elif trick_number == 1:
            self.fault(Code.POSITION_MISSING, Msg("tricks=T/D is missing: one trick is over; say"
                                                  " which camp won it (tricks=1/0 or tricks=0/1)"),
                                              end)
            tw = (0, 0)
        else:
            tw = (1, trick_number - 1)
        aside = 0
        won0 = won1 = 0
        adjust = 0
        if "won" in fields:
            value, at = fields["won"]
            m = re.fullmatch(r"([0-9.,]+)/([0-3])", value)
            pm = _POINTS.match(m[1]) if m is not None else None
            if m is None or pm is None:
                self.fault(Code.POSITION_SYNTAX, Msg("won={value}: expected POINTS/BOUTS, the"
                                                     " taker's camp's card points (whole or .5)"
                                                     " and bouts so far", value=value), at)
            else:
                half = int(pm[1]) * 2 + (1 if pm[2] == "5" else 0)
                bouts = int(m[2])
                gone_bouts = [c for c in (Card.T1, Card.T21, Card.EXCUSE) if gone >> c & 1]
                if bouts > len(gone_bouts):
                    self.fault(Code.POSITION_WON, Msg("won={value}: {bouts} bouts won, but only"
                                                      " {count} are out of the hands",
                                                      value=value, bouts=bouts,
                                                      count=len(gone_bouts)), at)
                elif half > card_points(gone) or (
                        card_points(gone) - half < len(gone_bouts) - bouts):
                    self.fault(Code.POSITION_WON, Msg("won={value}: the cards out of the hands"
                                                      " are worth {points} points",
                                                      value=value,
                                                      points=_points(card_points(gone))), at)
                else:
                    won0 = mask_of(gone_bouts[:bouts])
                    won1 = gone & ~won0
                    adjust = half - card_points(won0)
        elif trick_number == 0 and not trick:
            aside = gone
        else:
            self.fault(Code.POSITION_MISSING, Msg("won=POINTS/BOUTS is missing: what the taker's"
                                                  " camp holds outside the hands (its tricks, and"
                                                  " the chien or écart when it counts them)"), end)
        if called is not None and (n != 5 or trick_number != 0):
            self.fault(Code.POSITION_SYNTAX, Msg("called= restricts the first lead at five"
                                                 " players only"), fields["called"][1])
        if self.diags:
            raise self.stop()
        return Position(
            rules=rules, seats=tuple(seats), hands=tuple(hand_bits), camps=camps, taker=taker,
            leader=leader, trick=tuple(trick), trick_number=trick_number, tricks=tricks,
            won=(won0, won1), adjust=adjust, tricks_won=tw, aside=aside, contract=contract,
            called=called, partner=partner if n == 5 else None, poignees=tuple(poignees),
            chelem_announced=announced)
