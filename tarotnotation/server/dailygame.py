"""The daily game of ``tarot serve``: one deal a day for everyone, secret until the day
is over; each player's game kept answer by answer, expired when left, published at the
day's end (docs/serve.md).

- **The deal** (:func:`day_deal`) is the generator of the public deal of the day
  (:mod:`tarotnotation.archives.daily`: the shuffle, the Petit sec shuffled again, the
  deal) fed with another random stream: HMAC-SHA256 under the server's secret key (32
  random bytes made at the first start and kept in the database, never printed) of
  ``PREFIX | DATE | PLAYERS | COUNTER``. Without the key nobody can compute it beforehand.
- **The day** begins at midnight in the server's time zone (``--time-zone``):
  :func:`day_of`, :func:`day_start`; a day of a change of the clocks has 23 or 25 hours.
- **The referee** is ``tarot play``'s :class:`~.session.Session` on a
  :class:`DailyStart` (the day's deal, the FFT rules): the player sits South, the other
  seats are its bots (:data:`BOT`, ``tarot play``'s default bot, bidding from
  :data:`BOT_THRESHOLDS`; seeded from the key and the day: the same bots for everyone
  that day, so that each result is compared with the others' on equal terms). The
  store keeps the game's deal and answers (:func:`persist`), from which
  :func:`session_of` makes the session again.
- **All pass**: the deal is annulled and the game is over; it counts as played, every
  seat scoring 0 (the leaderboard compares it as a 0).
- **A game left half played** expires :attr:`Limits.expire_after` seconds after its last
  answer (:func:`expire`): the day's bots play the rest for every seat, the player's
  included (the same bot as the others'), and the game counts as played with the score it ends with.
- **The export** (:func:`export`), once the day is over and its games finished: the
  deal as dealt (``deal.tarot``) and every game with each card's cost and the best line
  of the double-dummy solver (``games.tarot``, node-budgeted), records that ``tarot
  validate`` finds clean.
"""

from __future__ import annotations

import datetime
import hmac
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from .. import notation
from ..archives.daily import deal_from_stream
from ..atomic import writing
from ..game import Game, IllegalMoveError
from ..i18n import Msg, Quoted
from ..players import Answer, Kind
from ..records import DealRecord, Seat
from ..rules import Ruleset
from .session import DEFAULT_BOT, Session, Start
from .store import PLAYING, GameRow, Store, StoreError

__all__ = ["BOT", "BOT_NAME", "BOT_THRESHOLDS", "PREFIX", "RULES", "SEAT", "DailyStart",
           "Expired", "RefusedError",
           "TooManyGamesError", "answer", "day_deal", "day_of", "day_seed", "day_start",
           "expire", "export", "finish", "game_record", "key_of", "parse_zone", "persist",
           "secret_stream", "session_of", "start", "start_of"]

#: The fixed start of every block of the secret stream.
PREFIX: Final = b"tarot serve daily deal v1"
#: The player's seat.
SEAT: Final = "S"
#: How a bot's seat is named in the records ({seat}: its id); a player's name cannot be
#: written so (no parentheses in names).
BOT_NAME: Final = "bot ({seat})"
#: What the records of the daily game say they are.
EVENT: Final = "tarot serve: the daily game"
#: The rules of the daily game.
RULES: Final = "fft"
#: The secret's name in the store.
KEY_NAME: Final = "daily-key"
#: The daily game's bots: ``tarot play``'s default bot (the heuristic)...
BOT: Final = DEFAULT_BOT
#: ...bidding from the books' thresholds (Prise, Garde, Garde Sans, Garde Contre) with the
#: Prise lowered from 40 to 35, so that a deal the player passes is rarely passed out:
#: over 1,000 days, 14% of them against 38% with the books' 40 and 65% with the bot's own
#: 45 (docs/serve.md, ``bench/daily_passes.py``).
BOT_THRESHOLDS: Final = (35, 56, 71, 81)
#: The solver's budget a game at the export (nodes; docs/serve.md).
EXPORT_BUDGET: Final = 2_000_000


def key_of(store: Store) -> bytes:
    """The server's secret key (made at the first start, kept in the store)."""
    return bytes.fromhex(store.secret(KEY_NAME))


def secret_stream(key: bytes, day: datetime.date, players: int) -> Iterator[int]:
    """The random bytes of a day under ``key`` (endless)."""
    head = PREFIX + b"\x00" + day.isoformat().encode("ascii") + b"\x00" + str(players).encode()
    counter = 0
    while True:
        yield from hmac.digest(key, head + b"\x00" + counter.to_bytes(8, "big"), "sha256")
        counter += 1


def day_deal(key: bytes, day: datetime.date, players: int = 4) -> DealRecord:
    """The day's deal under ``key``: hands and chien, South first to speak."""
    if players not in (3, 4, 5):
        raise ValueError(f"the daily game is for 3, 4 or 5 players, not {players}")
    return deal_from_stream(secret_stream(key, day, players), players, (
        ("Event", EVENT), ("Date", day.isoformat().replace("-", "."))))


def parse_zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone called ``name`` (``Europe/Paris``); ValueError says what was expected."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(Msg("{name} is not a time zone: expected a name such as Europe/Paris"
                             " or UTC", name=Quoted(name))) from None


def day_of(moment: float, zone: datetime.tzinfo) -> datetime.date:
    """The day (in ``zone``) of a moment (seconds since the epoch).

    >>> paris = parse_zone("Europe/Paris")
    >>> day_of(1764975600.0, paris), day_of(1764975599.0, paris)  # 2025-12-05 23:00 UTC
    (datetime.date(2025, 12, 6), datetime.date(2025, 12, 5))
    """
    return datetime.datetime.fromtimestamp(moment, zone).date()


def day_start(day: datetime.date, zone: datetime.tzinfo) -> float:
    """When ``day`` begins: midnight in ``zone``, in seconds since the epoch.

    >>> paris = parse_zone("Europe/Paris")
    >>> day_start(datetime.date(2026, 3, 30), paris) - day_start(datetime.date(2026, 3, 29), paris)
    82800.0
    """
    return datetime.datetime.combine(day, datetime.time(0), tzinfo=zone).timestamp()


@dataclass(frozen=True, slots=True)
class DailyStart(Start):
    """A session of ``tarot play`` (:mod:`.session`) on the day's deal (``deal``: its
    record's text), once: after an all-pass the game is over, no deal follows (the page
    shows the annulled deal over instead of asking a bid the server refuses)."""

    deal: str = ""
    redeal: bool = False

    def game(self, number: int) -> Game:
        record = notation.loads(self.deal)
        return Game(record.model_copy(update={"ruleset": Ruleset.from_spec(self.rules).spec()}))


def day_seed(key: bytes, day: str) -> int:
    """The day's seed of the bots (the same in every game of the day)."""
    return int.from_bytes(hmac.digest(key, b"bots\x00" + day.encode("ascii"), "sha256")[:4],
                          "big") >> 1


def start_of(key: bytes, game: GameRow) -> DailyStart:
    """How the game's session deals: the game's deal, the FFT rules, the player at the
    game's seat, the day's bots (:data:`BOT`, :data:`BOT_THRESHOLDS`) seeded for the day."""
    return DailyStart(players=4, rules=RULES, seed=day_seed(key, game.day), human=game.seat,
                      bots=BOT, settings=(("thresholds", BOT_THRESHOLDS),),
                      deal=game.deal or "")


def session_of(store: Store, key: bytes, game: GameRow) -> Session:
    """The game's session as the store has it: the deal, then every answer given again
    (the bots answer on if the server stopped before they did: :func:`persist` them)."""
    log = tuple(Answer(a.seat, Kind(a.kind), a.value) for a in store.answers(game.id))
    return Session(start_of(key, game), [log])


def persist(store: Store, game: GameRow, session: Session, *, now: int,
            written: int | None = None, expired: bool = False) -> int:
    """Write the answers of the game's deal not written yet (``written`` of them are:
    default, ask the store), each at its place; once the deal is over, the result. The
    number of answers written in all."""
    log = session.logs[0]
    done = len(store.answers(game.id)) if written is None else written
    store.add_answers(game.id, done, [(a.seat, a.kind.value, a.value) for a in log[done:]],
                      now=now)
    over = len(session.logs) > 1 or session.game.is_over()
    row = store.game(game.id)
    if over and row is not None and row.state == PLAYING:
        owner = store.player(game.player_id)
        finish(store, game, session.records[0], owner.name if owner else game.player_id,
               now=now, expired=expired)
    return len(log)


def game_record(record: DealRecord, game: GameRow, player: str) -> DealRecord:
    """The game's record: the deal as played, the player named at their seat and the bots
    at theirs, the game's tags (its id as the ``Table``: each game a session of the day,
    as ``tarot standings`` compares them)."""
    seats = [Seat(id=s, name=player if s == game.seat else BOT_NAME.format(seat=s))
             for s in record.seat_ids]
    tags = (("Event", EVENT), ("Date", game.day.replace("-", ".")), ("Table", game.id))
    return record.model_copy(update={"seats": seats, "tags": tags})


def finish(store: Store, game: GameRow, played: DealRecord, player: str, *, now: int,
           expired: bool = False) -> DealRecord:
    """Write the finished game's result: the player's score (0 when the deal was
    annulled) and its record (``played``, named by :func:`game_record`)."""
    record = game_record(played, game, player)
    scores = record.result.scores if record.result is not None else None
    score = 0 if scores is None else scores[game.seat]
    store.finish_game(game.id, score=score, record=str(record), now=now, expired=expired)
    return record


def start(store: Store, key: bytes, player_id: str, *, address_key: str, now: int,
          zone: datetime.tzinfo, max_games: int, players: int = 4) -> GameRow:
    """The player's game of today (in ``zone``): one attempt per player and per address
    (AlreadyPlayedError), at most ``max_games`` games in progress (TooManyGamesError);
    the bots answer until the player is asked."""
    if store.in_progress() >= max_games:
        raise TooManyGamesError(Msg("{n} games are being played, the most this server"
                                    " allows: try again in a few minutes", n=max_games))
    today = day_of(now, zone)
    game = store.start_game(player_id, today.isoformat(), seat=SEAT, address_key=address_key,
                            now=now, deal=str(day_deal(key, today, players)))
    persist(store, game, session_of(store, key, game), now=now, written=0)
    return game


class RefusedError(ValueError):
    """An answer the session refused (:class:`~.session.Refusal`): its ``code`` (the
    rule's diagnostic code, ``not-your-turn``, ``bad-answer``) and words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def answer(store: Store, key: bytes, game: GameRow, a: Answer, *, now: int) -> Session:
    """The player's answer ``a``, judged by the session (RefusedError: not the player's
    question, or a move the rules forbid; nothing is written), written with the bots'
    answers that follow it; the session after them."""
    if game.state != PLAYING:
        raise RefusedError("game-over", Msg("the game is over"))
    session = session_of(store, key, game)
    refusal = session.answer(a)
    if refusal is not None:
        raise RefusedError(refusal.code, refusal.message)
    persist(store, game, session, now=now)
    return session


class TooManyGamesError(Exception):
    """The server plays as many games as it allows."""


@dataclass(frozen=True, slots=True)
class Expired:
    """What :func:`expire` did: the games it finished, and those it could not (the id
    and why: one broken game never stops the others)."""

    finished: tuple[str, ...]
    failed: tuple[tuple[str, str], ...]


def expire(store: Store, key: bytes, *, now: int, expire_after: int,
           day: str | None = None) -> Expired:
    """Finish every game not touched for ``expire_after`` seconds (of ``day`` only, when
    given): the day's bots play the rest for every seat, the player's by the same bot as
    the others, each answer written as given, and the game counts as played."""
    finished, failed = [], []
    for game in store.games(day=day, state=PLAYING, updated_before=now - expire_after + 1):
        try:
            session = session_of(store, key, game)
            written = persist(store, game, session, now=now)
            for_player = session.start.player(game.seat)
            while (d := session.table.pending()) is not None:
                session.table.ask(session.bots.get(d.seat, for_player))
            persist(store, game, session, now=now, written=written, expired=True)
            finished.append(game.id)
        except (ValueError, IllegalMoveError, StoreError) as err:
            failed.append((game.id, str(err)))
    return Expired(tuple(finished), tuple(failed))


def export(store: Store, key: bytes, day: datetime.date, folder: Path, *, now: int,
           zone: datetime.tzinfo, expire_after: int,
           budget: int | None = EXPORT_BUDGET) -> tuple[Path, Path]:
    """Publish a day that is over: ``FOLDER/DAY/deal.tarot`` (the deal as dealt) and
    ``FOLDER/DAY/games.tarot`` (every game of the day with the solver's analysis),
    each written whole or not at all. The games left half played are expired first;
    ValueError while the day is not over or one of its games may still be played."""
    from ..analysis.comments import analyse_record

    text = day.isoformat()
    if now < day_start(day + datetime.timedelta(days=1), zone):
        raise ValueError(Msg("the day {day} is not over: its deal stays secret until"
                             " midnight", day=text))
    expire(store, key, now=now, expire_after=expire_after, day=text)
    playing = store.games(day=text, state=PLAYING)
    if playing:
        raise ValueError(Msg("{n} games of {day} are still being played: export again once"
                             " they are over or expired", n=len(playing), day=text))
    out = folder / text
    out.mkdir(parents=True, exist_ok=True)
    deal = day_deal(key, day)
    with writing(out / "deal.tarot") as fh:
        fh.write(str(deal).encode("utf-8"))
    results = store.results(first_day=text, last_day=text)
    with writing(out / "games.tarot") as fh:
        for i, r in enumerate(results):
            record = notation.loads(r.record)
            analysed, _, _ = analyse_record(record, budget=budget)
            fh.write((("\n" if i else "") + str(analysed)).encode("utf-8"))
    return out / "deal.tarot", out / "games.tarot"
