"""The store (tarotnotation/server/store.py) on SQLite and on PostgreSQL: the migrations,
players, games written answer by answer and restored, results."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tarotnotation.game import Game
from tarotnotation.players import Answer, Kind, RandomPlayer, Table
from tarotnotation.server.store import (
    AlreadyPlayedError,
    AnswerConflictError,
    NameTakenError,
    Store,
    StoreError,
    migrations,
    statements,
)


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    s = Store.open(database)
    s.migrate(now=1)
    yield s
    s.close()


def test_the_migrations_are_numbered_from_one_without_a_gap() -> None:
    versions = [v for v, _ in migrations()]
    assert versions == list(range(1, len(versions) + 1))
    assert all(statements(sql) for _, sql in migrations())


def test_migrating_twice_is_a_no_op(database: str) -> None:
    s = Store.open(database)
    try:
        assert s.versions() == ()
        assert s.migrate(now=5) == tuple(v for v, _ in migrations())
        tables = s.tables()
        assert {"players", "games", "answers", "results", "secrets",
                "schema_versions"} <= set(tables)
        assert s.migrate(now=6) == ()
        assert s.tables() == tables
        assert s.versions() == tuple(v for v, _ in migrations())
    finally:
        s.close()
    again = Store.open(database)
    try:
        assert again.migrate() == ()
    finally:
        again.close()


def test_a_name_is_unique_without_regard_to_case(store: Store) -> None:
    p = store.add_player("Élodie", "h1", now=10)
    for other in ("élodie", "ÉLODIE", "e\u0301lodie"):
        with pytest.raises(NameTakenError):
            store.add_player(other, "h2", now=11)
    assert store.player_by_name("ÉLODIE") == p
    assert store.player_by_token_hash("h1") == p
    assert store.player_by_token_hash("h2") is None
    assert store.player(p.id) == p


def test_a_token_hash_belongs_to_one_player(store: Store) -> None:
    store.add_player("Ana", "same", now=1)
    with pytest.raises(NameTakenError):
        store.add_player("Bruno", "same", now=2)
    assert store.player_by_name("Bruno") is None


def test_the_secret_is_made_once_and_kept(store: Store, database: str) -> None:
    first = store.secret("daily")
    assert len(first) == 64
    assert store.secret("daily", lambda: "other") == first
    again = Store.open(database)
    try:
        assert again.secret("daily") == first
    finally:
        again.close()


def test_one_game_a_day_per_player_and_per_address(store: Store) -> None:
    a = store.add_player("Ana", "ha", now=1)
    b = store.add_player("Bruno", "hb", now=1)
    g = store.start_game(a.id, "2026-12-05", seat="S", address_key="addr1", now=2, seed=7)
    with pytest.raises(AlreadyPlayedError):
        store.start_game(a.id, "2026-12-05", seat="S", address_key="addr2", now=3, seed=7)
    with pytest.raises(AlreadyPlayedError):  # a new name from the same address
        store.start_game(b.id, "2026-12-05", seat="S", address_key="addr1", now=3, seed=7)
    store.start_game(a.id, "2026-12-06", seat="S", address_key="addr1", now=4, seed=8)
    assert store.game_of(a.id, "2026-12-05") == g
    assert store.game_of(b.id, "2026-12-05") is None
    assert store.in_progress() == 2


def test_a_game_half_played_is_restored_from_the_store(store: Store, database: str) -> None:
    """A game written answer by answer, the store closed (the server killed), opened again:
    the table made again from the deal and the answers is where it was."""
    p = store.add_player("Ana", "ha", now=1)
    deal = Game.deal(4, seed=3).record()
    g = store.start_game(p.id, "2026-12-05", seat="S", address_key="k", now=2, deal=str(deal))
    table = Table(Game(deal))
    bots = {s: RandomPlayer(seed=9) for s in table.game.seats}
    for i in range(30):
        a = table.ask(bots[table.pending().seat])  # type: ignore[union-attr]
        store.add_answer(g.id, i, a.seat, a.kind.value, a.value, now=3 + i)
    store.close()
    reopened = Store.open(database)
    try:
        row = reopened.game(g.id)
        assert row is not None
        assert row.state == "playing"
        assert row.updated == 32
        from tarotnotation import notation

        log = [Answer(r.seat, Kind(r.kind), r.value) for r in reopened.answers(g.id)]
        again = Table.restore(Game(notation.loads(row.deal or "")), log)
        assert again.log == table.log
        assert again.pending() == table.pending()
        assert again.game.record() == table.game.record()
    finally:
        reopened.close()


def test_an_answer_given_twice_is_refused_and_changes_nothing(store: Store) -> None:
    p = store.add_player("Ana", "ha", now=1)
    g = store.start_game(p.id, "2026-12-05", seat="S", address_key="k", now=2, seed=1)
    store.add_answer(g.id, 0, "S", "bid", "pass", now=3)
    with pytest.raises(AnswerConflictError):
        store.add_answer(g.id, 0, "S", "bid", "prise", now=4)
    assert [(r.index, r.value) for r in store.answers(g.id)] == [(0, "pass")]
    assert store.game(g.id).updated == 3  # type: ignore[union-attr]


def test_a_finished_game_takes_no_answer_and_gives_its_result(store: Store) -> None:
    p = store.add_player("Ana", "ha", now=1)
    g = store.start_game(p.id, "2026-12-05", seat="S", address_key="k", now=2, seed=1)
    store.finish_game(g.id, score=75, record="[Players \"4\"]\n", now=9)
    with pytest.raises(StoreError):
        store.add_answer(g.id, 0, "S", "bid", "pass", now=10)
    with pytest.raises(StoreError):
        store.finish_game(g.id, score=1, record="", now=11)
    assert store.game(g.id).state == "over"  # type: ignore[union-attr]
    assert store.in_progress() == 0
    (r,) = store.results(first_day="2026-12-01", last_day="2026-12-31")
    assert (r.player, r.score, r.finished, r.day) == ("Ana", 75, 9, "2026-12-05")
    assert store.results(first_day="2026-12-06", last_day="2026-12-31") == ()
    assert store.results(first_day="2026-12-01", last_day="2026-12-31", player_id="x") == ()


def test_an_expired_game_is_marked_so(store: Store) -> None:
    p = store.add_player("Ana", "ha", now=1)
    g = store.start_game(p.id, "2026-12-05", seat="S", address_key="k", now=2, seed=1)
    assert store.games(state="playing", updated_before=3) == (store.game(g.id),)
    assert store.games(state="playing", updated_before=2) == ()
    store.finish_game(g.id, score=-30, record="r", now=500, expired=True)
    row = store.game(g.id)
    assert row is not None
    assert (row.state, row.expired) == ("expired", 500)


def test_sql_is_sent_with_parameters_only(store: Store) -> None:
    """Text that would break a statement spliced into SQL is stored as written (the store
    takes any text: the names' rules are tokens.valid_name's)."""
    name = "Robert'); DROP TABLE players;--"
    p = store.add_player(name, "h'; --", now=1)
    assert store.player_by_token_hash("h'; --") == p
    assert store.player_by_name(name) == p
    assert "players" in store.tables()


def test_a_bad_address_is_a_store_error(tmp_path: object) -> None:
    with pytest.raises(StoreError, match="not a database address"):
        Store.open("mysql://x")
    with pytest.raises(StoreError, match="cannot open"):
        Store.open("/nonexistent/folder/serve.db")


def test_answers_written_together_are_all_written_or_none(store: Store) -> None:
    p = store.add_player("Ana", "ha", now=1)
    g = store.start_game(p.id, "2026-12-05", seat="S", address_key="k", now=2, seed=1)
    store.add_answers(g.id, 0, [("S", "bid", "pass"), ("E", "bid", "prise")], now=3)
    with pytest.raises(AnswerConflictError):  # place 1 is taken: place 2 not written either
        store.add_answers(g.id, 1, [("E", "bid", "garde"), ("N", "bid", "pass")], now=4)
    assert [(r.index, r.value) for r in store.answers(g.id)] == [(0, "pass"), (1, "prise")]
    assert store.game(g.id).updated == 3  # type: ignore[union-attr]
    store.add_answers(g.id, 2, [("N", "bid", "pass")], now=5)
    assert [r.index for r in store.answers(g.id)] == [0, 1, 2]


@pytest.mark.process
def test_a_store_reconnects_once_when_postgresql_restarts_under_it(
        postgres_server: str | None) -> None:
    """PostgreSQL restarted under a running store: the next statement opens the connection
    again and runs, a write and a transaction included, and nothing is lost or doubled."""
    import pg_server

    if postgres_server is None:
        pytest.skip("PostgreSQL cannot start here: " + "; ".join(pg_server.WHY_NOT))
    url = pg_server.fresh_database(postgres_server, "tarot_test_reconnect")
    store = Store.open(url)
    try:
        store.migrate(now=1)
        ana = store.add_player("Ana", "ha", now=1)
        game = store.start_game(ana.id, "2026-12-05", seat="S", address_key="a", now=2,
                                seed=7)
        store.add_answer(game.id, 0, "E", "bid", "pass", now=3)
        pg_server.restart(postgres_server)
        assert store.player_by_name("Ana") == ana  # a read: opened again, run again
        assert store.reconnections == 1
        pg_server.restart(postgres_server)
        store.add_answer(game.id, 1, "S", "bid", "pass", now=4)  # a write, once
        assert store.reconnections == 2
        pg_server.restart(postgres_server)
        store.add_answers(game.id, 2, [("W", "bid", "pass"), ("N", "bid", "pass")], now=5)
        assert store.reconnections == 3  # (a transaction's BEGIN: run again)
        assert [(a.index, a.seat) for a in store.answers(game.id)] == [
            (0, "E"), (1, "S"), (2, "W"), (3, "N")]
    finally:
        store.close()
