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
- **The player** sits South; the other seats are bots (the ``random`` bot, seeded from
  the key and the day: the same bots for everyone that day, so that each result is
  compared with the others' on equal terms).
- **All pass**: the deal is annulled and the game is over; it counts as played, every
  seat scoring 0 (the leaderboard compares it as a 0).
- **A game left half played** expires :attr:`Limits.expire_after` seconds after its last
  answer (:func:`expire`): the bots play the rest for every seat, the player's included,
  and the game counts as played with the score it ends with.
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
from ..players import Answer, Kind, RandomPlayer, Table
from ..records import DealRecord, Seat
from .store import PLAYING, GameRow, Store, StoreError

__all__ = [
    "BOT_NAME",
    "PREFIX",
    "SEAT",
    "Expired",
    "TooManyGamesError",
    "answer",
    "bots",
    "day_deal",
    "day_of",
    "day_start",
    "expire",
    "export",
    "finish",
    "game_record",
    "key_of",
    "parse_zone",
    "play_bots",
    "secret_stream",
    "start",
    "table_of",
]

#: The fixed start of every block of the secret stream.
PREFIX: Final = b"tarot serve daily deal v1"
#: The player's seat.
SEAT: Final = "S"
#: How a bot's seat is named in the records ({seat}: its id); a player's name cannot be
#: written so (no parentheses in names).
BOT_NAME: Final = "bot ({seat})"
#: What the records of the daily game say they are.
EVENT: Final = "tarot serve: the daily game"
#: The secret's name in the store.
KEY_NAME: Final = "daily-key"
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


def bots(key: bytes, day: str, seats: tuple[str, ...]) -> dict[str, RandomPlayer]:
    """The bots of a day: one seed for the day, the same in every game."""
    seed = int.from_bytes(hmac.digest(key, b"bots\x00" + day.encode("ascii"), "sha256")[:7],
                          "big")
    return {s: RandomPlayer(seed=seed, name=BOT_NAME.format(seat=s)) for s in seats}


def table_of(store: Store, game: GameRow) -> Table:
    """The game's table as the store has it: the deal, then every answer given again."""
    base = (Game.deal(4, seed=game.seed) if game.deal is None
            else Game(notation.loads(game.deal)))
    log = [Answer(a.seat, Kind(a.kind), a.value) for a in store.answers(game.id)]
    return Table.restore(base, log)


def game_record(table: Table, game: GameRow, player: str) -> DealRecord:
    """The game's record: the deal as played, the player named at their seat and the bots
    at theirs, the game's tags (its id as the ``Table``: each game a session of the day,
    as ``tarot standings`` compares them)."""
    record = table.game.record()
    seats = [Seat(id=s, name=player if s == game.seat else BOT_NAME.format(seat=s))
             for s in record.seat_ids]
    tags = (("Event", EVENT), ("Date", game.day.replace("-", ".")), ("Table", game.id))
    return record.model_copy(update={"seats": seats, "tags": tags})


def finish(store: Store, game: GameRow, table: Table, player: str, *, now: int,
           expired: bool = False) -> DealRecord:
    """Write the finished game's result: the player's score (0 when the deal was
    annulled) and its record."""
    record = game_record(table, game, player)
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
    play_bots(store, key, game, table_of(store, game), now=now)
    return game


def play_bots(store: Store, key: bytes, game: GameRow, table: Table, *, now: int,
              every_seat: bool = False) -> None:
    """The bots answer, each answer written as given, until the player is asked (every
    seat with ``every_seat``) or the deal is over; then the game is finished."""
    players = bots(key, game.day, table.game.seats)
    while (d := table.pending()) is not None and (every_seat or d.seat != game.seat):
        a = table.ask(players[d.seat])
        store.add_answer(game.id, len(table.log) - 1, a.seat, a.kind.value, a.value, now=now)
    if table.pending() is None:
        owner = store.player(game.player_id)
        finish(store, game, table, owner.name if owner else game.player_id, now=now,
               expired=every_seat)


def answer(store: Store, key: bytes, game: GameRow, a: Answer, *, now: int) -> Table:
    """The player's answer ``a``, judged by the rules (IllegalMoveError, ValueError: not
    the player's question, and nothing is written), written, then the bots' answers
    until the player is asked again; the table after them."""
    if game.state != PLAYING:
        raise ValueError(Msg("the game is over"))
    if a.seat != game.seat:
        raise ValueError(Msg("the player plays {seat} only", seat=game.seat))
    table = table_of(store, game)
    table.answer_text(a)
    given = table.log[-1]
    store.add_answer(game.id, len(table.log) - 1, given.seat, given.kind.value, given.value,
                     now=now)
    play_bots(store, key, game, table, now=now)
    return table


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
    given): the day's bots play the rest for every seat, each answer written as given,
    and the game counts as played."""
    finished, failed = [], []
    for game in store.games(day=day, state=PLAYING, updated_before=now - expire_after + 1):
        try:
            play_bots(store, key, game, table_of(store, game), now=now, every_seat=True)
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
