"""A game session of ``tarot play``: the referee between a person and the bots.

A :class:`Session` deals (:meth:`Start.game`: a seeded shuffle, or the day's public deal),
holds the hidden hands, asks the bots (through :meth:`~tarotnotation.players.Table.ask`)
until the person's seat is asked, and takes that person's answers
(:meth:`Session.answer`), which the rules kernel judges through the
:class:`~tarotnotation.game.Game`: a refused answer changes nothing and comes back as the
kernel's code and words (:class:`Refusal`).

Its state is its :class:`Start` and the answers given, one log a deal
(:attr:`Session.logs`): nothing else. A store keeps those and makes the same session again
(``Session(start, logs)``), the bots answering as they did, since they are deterministic
given their seed and what they see. When every player passes, the deal is annulled (its
record kept, :attr:`Session.records`) and the next one dealt at once; once a deal is played
out, :meth:`Session.next_deal` deals the next.

>>> s = Session(Start(players=4, seed=3))
>>> s.pending()
Decision(seat='S', kind=<Kind.BID: 'bid'>)
>>> s.answer(Answer("S", Kind.BID, "garde"))
>>> again = Session(s.start, s.logs)
>>> again.logs == s.logs, again.pending() == s.pending()
(True, True)
>>> s.answer(Answer("S", Kind.BID, "prise")).code  # (S spoke already: not his turn)
'not-your-turn'
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..archives.daily import daily_deal, parse_date
from ..diagnostics import quote
from ..game import Game, IllegalMoveError
from ..i18n import Msg, or_list
from ..players import OPPONENTS, Answer, Decision, Kind, Player, Table, make, poignee_sizes
from ..records import DEFAULT_SEATS, DealRecord
from ..rules import Ruleset
from ..status import Status

__all__ = ["BOTS", "DEFAULT_BOT", "Refusal", "Session", "Start", "bot"]

#: The bots a session may seat against a person, by name (the roster's, but the oracle,
#: which sees every hand).
BOTS: tuple[str, ...] = OPPONENTS
#: The bot a session seats when none is named (``tarot play``'s, the daily game's).
DEFAULT_BOT: Final = "heuristic"


def bot(name: str, seed: int, **settings: Any) -> Player:
    """The bot called ``name``, seeded with ``seed``, with its ``settings`` (ValueError for
    an unknown name or setting, and for the oracle: it sees every hand, and is never a
    person's opponent).

    >>> bot("heuristic", 1, thresholds=(35, 56, 71, 81)).thresholds
    (35, 56, 71, 81)
    """
    if name not in BOTS:
        raise ValueError(Msg("no bot is called {name} among a person's opponents: expected"
                             " {names}", name=quote(name), names=or_list(list(BOTS))))
    return make(name, seed=seed, **settings)


@dataclass(frozen=True, slots=True)
class Start:
    """How a session deals: ``players`` at the table under ``rules`` (a ruleset spec),
    shuffled from ``seed``, or the deal of the day of ``daily`` (``YYYY-MM-DD``) first;
    the person sits at ``human``, the bots called ``bots`` (with their ``settings``, the
    roster's keywords: the daily game's bid thresholds) at the other seats."""

    players: int = 4
    rules: str = "pagat"
    seed: int = 0
    daily: str | None = None
    human: str = "S"
    bots: str = DEFAULT_BOT
    redeal: bool = True
    """After a deal every player passed, the next one dealt (the daily game's: none)."""
    settings: tuple[tuple[str, Any], ...] = ()
    """The bots' settings, ``(keyword, value)`` pairs given to the roster's
    :func:`~tarotnotation.players.make` (none: the bot as it comes)."""

    def __post_init__(self) -> None:
        if self.players not in (3, 4, 5):
            raise ValueError(Msg("a deal is for 3, 4 or 5 players, not {n}", n=self.players))
        if self.human not in DEFAULT_SEATS[self.players]:
            raise ValueError(Msg("{seat} is not a seat at {n} players", seat=self.human,
                                 n=self.players))
        Ruleset.from_spec(self.rules)  # (a RulesetError, a ValueError, for a bad spec)
        self.player(self.human)  # (a ValueError for an unknown bot or setting)
        if self.daily is not None:
            parse_date(self.daily)

    def player(self, seat: str) -> Player:
        """The bot at ``seat``: ``bots`` with its ``settings``, seeded for the seat (the
        same for every session started alike). At the person's seat, the bot that plays
        for a person who left (the daily game's expiry)."""
        return bot(self.bots, _bot_seed(self, seat), **dict(self.settings))

    def game(self, number: int) -> Game:
        """The ``number``-th deal of the session (0: the first): the deal of the day first
        when ``daily`` is set, else a shuffle from ``seed``; each later one a shuffle from
        the seed (or the day) and its number."""
        spec = Ruleset.from_spec(self.rules).spec()
        if self.daily is not None and number == 0:
            record = daily_deal(parse_date(self.daily), self.players)
            return Game(record.model_copy(update={"ruleset": spec}))
        source = random.Random(self.seed if number == 0 and self.daily is None
                               else f"{self.daily or self.seed}/{number}")
        return Game.deal(self.players, seed=source, rules=spec)


@dataclass(frozen=True, slots=True)
class Refusal:
    """An answer refused: ``code`` is the rule's diagnostic code (``P105``...) or
    ``not-your-turn``, ``bad-answer``; ``message`` says why, and what was expected."""

    code: str
    message: Msg | str = field(compare=False)
    """The words (a :class:`~tarotnotation.i18n.Msg` to render in the page's language)."""


class Session:
    """One person's game against bots (see the module)."""

    def __init__(self, start: Start, logs: Iterable[Sequence[Answer]] = ()) -> None:
        self.start = start
        self.bots = {seat: start.player(seat)
                     for seat in DEFAULT_SEATS[start.players] if seat != start.human}
        self._tables: list[Table] = []
        self.bots_seconds = 0.0
        """The time the bots' answers took (each asked and judged) in the last answer,
        deal dealt or restore: what the server's time for an action does not count."""
        for number, log in enumerate(logs):
            self._tables.append(Table.restore(start.game(number), log))
        if not self._tables:
            self._tables.append(Table(start.game(0)))
        self._advance()

    # --- what it holds ------------------------------------------------------------------

    @property
    def human(self) -> str:
        """The person's seat."""
        return self.start.human

    @property
    def table(self) -> Table:
        """The table of the deal in progress (or just played)."""
        return self._tables[-1]

    @property
    def game(self) -> Game:
        """The deal in progress (or just played): the referee's, with every hand."""
        return self.table.game

    @property
    def number(self) -> int:
        """The deal in progress's number in the session (0: the first)."""
        return len(self._tables) - 1

    @property
    def logs(self) -> tuple[tuple[Answer, ...], ...]:
        """Every answer given, one log a deal: with :attr:`start`, the whole state."""
        return tuple(t.log for t in self._tables)

    @property
    def records(self) -> tuple[DealRecord, ...]:
        """The records of the deals over (played out or annulled), in order."""
        return tuple(t.game.record() for t in self._tables if t.game.is_over())

    def pending(self) -> Decision | None:
        """The question the person is asked now; None once the deal is over."""
        return self.table.pending()

    # --- answers ------------------------------------------------------------------------

    def answer(self, answer: Answer) -> Refusal | None:
        """The person's answer (an :class:`~tarotnotation.players.Answer` of the human
        seat, as text): given to the table when the rules allow it, then the bots answer
        until the person is asked again or the deal is over. None when taken; else the
        :class:`Refusal`, and nothing changed."""
        d = self.table.pending()
        if d is None or answer.seat != self.human or d.seat != self.human or d.kind != answer.kind:
            expected = (Msg("nothing: the deal is over") if d is None
                        else Msg("{what} from {seat}", what=_WHAT[d.kind], seat=d.seat))
            return Refusal("not-your-turn", Msg("not the time for this answer: expected"
                                                " {expected}", expected=expected))
        try:
            self.table.answer_text(answer)
        except IllegalMoveError as err:
            return Refusal(str(err.code), err.reason)
        except ValueError as err:
            return Refusal("bad-answer", Msg("{what} cannot be {value}: {why}",
                                             what=_WHAT[answer.kind], value=answer.value,
                                             why=_why(err)))
        self._advance()
        return None

    def next_deal(self) -> bool:
        """Deal the next deal once this one is over (True); False while it is not."""
        if not self.game.is_over():
            return False
        self._tables.append(Table(self.start.game(len(self._tables))))
        self._advance()
        return True

    def _advance(self) -> None:
        """The bots answer until the person is asked or the deal is played out; a deal
        annulled (every player passed) is kept and the next one dealt. The bots' time is
        kept in :attr:`bots_seconds`."""
        self.bots_seconds = 0.0
        while True:
            d = self.table.pending()
            if d is None:
                if self.game.result().status is not Status.ANNULLED or not self.start.redeal:
                    return
                self._tables.append(Table(self.start.game(len(self._tables))))
                continue
            if d.seat == self.human:
                if d.kind is not Kind.DECLARE or self._may_declare():
                    return
                self.table.answer_declare(d.seat, ())  # (nothing he may declare)
                continue
            began = time.perf_counter()
            self.table.ask(self.bots[d.seat])
            self.bots_seconds += time.perf_counter() - began

    def _may_declare(self) -> bool:
        """Whether the person has anything to declare: a poignée, or a misère when the
        rules have it (else the referee answers "none" for him, as a table does)."""
        hand = self.game.hands[self.human]
        return bool(poignee_sizes(hand, self.start.players)) or self.game.rules.misere


#: Each question in words, as a refusal says what was expected.
_WHAT = {Kind.BID: Msg("a bid"), Kind.CALL: Msg("the call"), Kind.ECART: Msg("the écart"),
         Kind.CHELEM: Msg("the chelem's announcement"),
         Kind.DECLARE: Msg("the poignées and misères"), Kind.PLAY: Msg("a card")}


def _why(err: ValueError) -> Msg | str:
    """What a ValueError says, as a message still to translate when it is one."""
    first = err.args[0] if err.args else ""
    return first if isinstance(first, Msg) else str(err)


def _bot_seed(start: Start, seat: str) -> int:
    """The seed of the bot at ``seat``: the same for every session started alike, so the
    bots answer the same given the same answers from the person (the daily deal's too)."""
    digest = random.Random(f"{start.daily or start.seed}/{start.bots}/{seat}")
    return digest.getrandbits(32)

