"""The leaderboards (server/leaderboard.py) on SQLite and PostgreSQL: matchpoints as
`tarot standings` computes them, the week and the month adding up the days, a player's
history; the bots left out."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest

from tarotnotation.players import Answer, RandomPlayer
from tarotnotation.server import dailygame as daily
from tarotnotation.server import leaderboard
from tarotnotation.server.store import Store

PARIS = daily.parse_zone("Europe/Paris")
DAY = datetime.date(2026, 12, 7)  # a Monday
KEY = bytes(range(32))


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    s = Store.open(database)
    s.migrate(now=1)
    yield s
    s.close()


def _play(store: Store, name: str, day: datetime.date, seed: int) -> None:
    """``name`` plays ``day``'s deal to its end, answering as a random bot seeded ``seed``."""
    now = int(daily.day_start(day, PARIS)) + 3600
    p = store.player_by_name(name) or store.add_player(name, f"h-{name}", now=now)
    game = daily.start(store, KEY, p.id, address_key=f"{name}-{day}", now=now, zone=PARIS,
                       max_games=100)
    me = RandomPlayer(seed=seed)
    while (row := store.game(game.id)) is not None and row.state == "playing":
        a = daily.session_of(store, KEY, row).table.ask(me)
        daily.answer(store, KEY, row, Answer(a.seat, a.kind, a.value), now=now)


def _oracle(scores: dict[str, int]) -> dict[str, float]:
    """Each player's matchpoints percentage against the others (the tests' own count)."""
    out = {}
    for name, mine in scores.items():
        others = [s for n, s in scores.items() if n != name]
        mp = sum(1.0 if s < mine else 0.5 if s == mine else 0.0 for s in others)
        out[name] = round(100 * mp / len(others), 2)
    return out


def test_the_days_board_is_matchpoints_among_the_days_players(store: Store) -> None:
    for i, name in enumerate(["Ana", "Bruno", "Chloé", "Émile"]):
        _play(store, name, DAY, seed=i)
    results = store.results(first_day=DAY.isoformat(), last_day=DAY.isoformat())
    scores = {r.player: r.score for r in results}
    board = leaderboard.day_board(store, DAY)
    assert sorted(r.player for r in board) == sorted(scores)  # no bot
    assert {r.player: r.percent for r in board} == _oracle(scores)
    assert [r.percent for r in board] == sorted((r.percent for r in board), reverse=True)
    for row in board:
        assert row.games == 1
        assert row.top == 3
        assert row.score == scores[row.player]
        better = sum(1 for r in board if r.percent > row.percent)
        assert row.rank == better + 1


def test_a_lone_player_has_nobody_to_be_compared_with(store: Store) -> None:
    _play(store, "Ana", DAY, seed=1)
    (row,) = leaderboard.day_board(store, DAY)
    assert (row.rank, row.player, row.percent, row.top) == (1, "Ana", 0.0, 0)


def test_the_week_and_the_month_add_up_the_days(store: Store) -> None:
    monday = datetime.date(2026, 11, 30)
    tuesday, sunday = monday + datetime.timedelta(days=1), monday - datetime.timedelta(days=1)
    for i, name in enumerate(["Ana", "Bruno", "Chloé"]):
        _play(store, name, monday, seed=i)
    for i, name in enumerate(["Ana", "Bruno"]):
        _play(store, name, tuesday, seed=10 + i)
    _play(store, "Ana", sunday, seed=5)  # the week before
    week = {r.player: r for r in leaderboard.week_board(store, tuesday)}
    assert week["Ana"].games == 2
    assert week["Ana"].top == 2 + 1
    assert week["Chloé"].games == 1
    days = [leaderboard.day_board(store, d) for d in (monday, tuesday)]
    ana_mp = sum(r.matchpoints for board in days for r in board if r.player == "Ana")
    assert week["Ana"].matchpoints == ana_mp
    assert week["Ana"].percent == round(100 * ana_mp / 3, 2)
    december = {r.player: r for r in leaderboard.month_board(store, tuesday)}
    assert (december["Ana"].games, sorted(december)) == (1, ["Ana", "Bruno"])
    november = {r.player: r for r in leaderboard.month_board(store, monday)}
    assert november["Ana"].games == 2


def test_a_players_history_gives_each_days_rank(store: Store) -> None:
    tuesday = DAY + datetime.timedelta(days=1)
    for i, name in enumerate(["Ana", "Bruno", "Chloé"]):
        _play(store, name, DAY, seed=i)
    _play(store, "Ana", tuesday, seed=3)
    ana = store.player_by_name("Ana")
    assert ana is not None
    rows = leaderboard.history(store, ana.id, DAY, tuesday)
    assert [(r.day, r.players) for r in rows] == [("2026-12-07", 3), ("2026-12-08", 1)]
    board = {r.player: r for r in leaderboard.day_board(store, DAY)}
    assert (rows[0].rank, rows[0].percent) == (board["Ana"].rank, board["Ana"].percent)
