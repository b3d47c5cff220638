"""The leaderboards of the daily game: the day's, the week's, the month's, and a player's
history.

Each is ``tarot standings --method matchpoints`` of the games it covers
(:class:`~tarotnotation.archives.standings.Standings`: there is no second matchpoint
formula): every game is a session of its own (its id is the record's ``Table``), every
player holds South's hand of the same deal, so each result is compared with every other
player's of that day: 1 for each one it beats, ½ for each tie, as a percentage of the
most it could score. Over a week or a month the days add up, as the boards of a
duplicate tournament do. The bots' seats are left out of the table (their names, ``bot
(E)``..., cannot be a player's). A game whose deal was annulled (all passed) counts as a
0 for every seat (docs/serve.md). Only games the server refereed are in the store's
results, so only they are ranked.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from .. import notation
from ..archives.standings import Standings
from ..archives.summary import summarize
from ..replay import replay
from ..status import Status
from .dailygame import BOT_NAME
from .store import ResultRow, Store

__all__ = ["HistoryRow", "LeaderRow", "day_board", "history", "month_board", "rank_results",
           "week_board"]


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """A line of a leaderboard."""

    rank: int
    player: str
    games: int
    percent: float
    """Matchpoints as a percentage of the most that could be scored (0 with no other
    game to be compared with)."""
    matchpoints: float
    top: int
    score: int
    """The sum of the player's scores, as scored at the table."""


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One day of a player's history."""

    day: str
    score: int
    percent: float
    rank: int
    players: int


def rank_results(results: Iterable[ResultRow]) -> list[LeaderRow]:
    """The leaderboard of these games, best first; equal percentages share a rank."""
    table = Standings("matchpoints")
    for i, r in enumerate(results, 1):
        record = notation.loads(r.record)
        s = summarize(record, replay(record), file=f"game {r.game_id}", index=i)
        if not s.scored:  # annulled (all passed): a 0 for everyone (docs/serve.md)
            s = s._replace(status=Status.SCORED, scores_in_order=(0,) * s.players)
        table.add(s)
    bots = {BOT_NAME.format(seat=seat) for seat in ("S", "E", "N", "W", "F")}
    rows = [row for row in table.rows() if row.player not in bots]
    out: list[LeaderRow] = []
    for position, row in enumerate(rows, 1):
        rank = out[-1].rank if out and out[-1].percent == row.result else position
        out.append(LeaderRow(rank, row.player, row.deals, row.result, row.matchpoints or 0.0,
                             row.top, row.score))
    return out


def day_board(store: Store, day: datetime.date) -> list[LeaderRow]:
    """The day's leaderboard."""
    text = day.isoformat()
    return rank_results(store.results(first_day=text, last_day=text))


def week_board(store: Store, day: datetime.date) -> list[LeaderRow]:
    """The leaderboard of the week (Monday to Sunday) of ``day``, up to ``day``."""
    first = day - datetime.timedelta(days=day.weekday())
    return rank_results(store.results(first_day=first.isoformat(), last_day=day.isoformat()))


def month_board(store: Store, day: datetime.date) -> list[LeaderRow]:
    """The leaderboard of the month of ``day``, up to ``day``."""
    first = day.replace(day=1)
    return rank_results(store.results(first_day=first.isoformat(), last_day=day.isoformat()))


def history(store: Store, player_id: str, first_day: datetime.date,
            last_day: datetime.date) -> list[HistoryRow]:
    """The player's days from ``first_day`` to ``last_day``, oldest first: each day's
    score, matchpoints percentage and rank among the day's players."""
    mine = store.results(first_day=first_day.isoformat(), last_day=last_day.isoformat(),
                         player_id=player_id)
    out = []
    for r in mine:
        board = rank_results(store.results(first_day=r.day, last_day=r.day))
        row = next(row for row in board if row.player == r.player)
        out.append(HistoryRow(r.day, r.score, row.percent, row.rank, len(board)))
    return out
