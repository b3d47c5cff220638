"""The server's database: SQLite (a file, WAL, foreign keys) or PostgreSQL (psycopg 3),
behind one interface, :class:`Store`.

Every statement takes its values as parameters (never spliced into the SQL); the schema
is built by the numbered migrations of ``server/migrations`` (``0001_initial.sql``...),
each applied once and noted in ``schema_versions``, so that :meth:`Store.migrate` run
twice does nothing the second time. What the tables hold is in docs/serve.md.

A game is written answer by answer as it is given (:meth:`Store.add_answer`): its deal
and its answers are its whole state, so a server killed in the middle of a game finds it
again where it was (:meth:`Store.answers`, then ``Table.restore``).

>>> import tempfile, pathlib
>>> store = Store.open(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'serve.db'}")
>>> store.migrate(), store.migrate(), store.versions()
((1,), (), (1,))
>>> p = store.add_player("Zoé", "hash-1", now=100)
>>> store.add_player("ZOÉ", "hash-2", now=101)
Traceback (most recent call last):
...
tarotnotation.server.store.NameTakenError: the name 'ZOÉ' is taken
>>> store.player_by_token_hash("hash-1") == p
True
>>> store.close()
"""

from __future__ import annotations

import contextlib
import importlib.resources
import re
import secrets
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from ..i18n import Msg, Quoted

__all__ = ["AlreadyPlayedError", "AnswerConflictError", "AnswerRow", "GameRow",
           "NameTakenError", "PlayerRow", "ResultRow", "Store", "StoreError", "migrations",
           "name_key"]

#: The states a game is in.
PLAYING: Final = "playing"
OVER: Final = "over"
EXPIRED: Final = "expired"


class StoreError(Exception):
    """The database refused a change, or cannot be reached (the message says which)."""


class NameTakenError(StoreError):
    """Another player holds a name equal to this one without regard to case."""


class AlreadyPlayedError(StoreError):
    """The player, or the address, already has a game of that day."""


class AnswerConflictError(StoreError):
    """An answer was already written at that place of the game (given twice)."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    name: str
    created: int


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    player_id: str
    day: str
    seed: int | None
    deal: str | None
    seat: str
    state: str
    started: int
    updated: int
    expired: int | None


@dataclass(frozen=True, slots=True)
class AnswerRow:
    index: int
    seat: str
    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    game_id: str
    day: str
    player_id: str
    player: str
    score: int
    record: str
    finished: int


def name_key(name: str) -> str:
    """What two names equal without regard to case share: the name case-folded, NFC.

    >>> name_key("Zoé") == name_key("ZOÉ") == name_key("zoe\\u0301")
    True
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def migrations() -> tuple[tuple[int, str], ...]:
    """The migrations, ``(version, SQL)``, in order: the files ``NNNN_*.sql`` of
    ``server/migrations``."""
    folder = importlib.resources.files(__package__ or "tarotnotation.server") / "migrations"
    out = []
    for entry in folder.iterdir():
        m = re.fullmatch(r"(\d{4})_[a-z0-9_]+\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), entry.read_text(encoding="utf-8")))
    return tuple(sorted(out))


def statements(sql: str) -> list[str]:
    """A migration's statements: comments dropped, cut at each ``;`` that ends a line.

    >>> statements("-- a table\\nCREATE TABLE t (a TEXT);\\nCREATE INDEX i ON t (a);\\n")
    ['CREATE TABLE t (a TEXT)', 'CREATE INDEX i ON t (a)']
    """
    lines = [line for line in sql.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in re.split(r";[ \t]*$", "\n".join(lines), flags=re.M) if s.strip()]


_SCHEMA_VERSIONS: Final = ("CREATE TABLE IF NOT EXISTS schema_versions"
                           " (version INTEGER PRIMARY KEY, applied BIGINT NOT NULL)")
#: A change cut by a lost connection (opened again since).
_LOST: Final = Msg("the connection to the database was lost in the middle of a change,"
                   " which was not made: it is open again, try again")
_GAME_COLUMNS: Final = ("id, player_id, day, seed, deal, seat, state, started, updated,"
                        " expired")


class Store:
    """One connection to the database, used by one thread at a time (a lock), in
    autocommit with explicit transactions. Open with :meth:`open`.

    A PostgreSQL connection lost (the server restarted, a proxy cut it) is opened again
    once, at the statement that finds it lost: a statement on its own is then run again
    (the keys make a write given twice a conflict, never a double: one answer per place,
    one game per player and day, one name), a transaction's first statement too; a
    transaction cut in its middle is refused (StoreError: the server rolled it back) and
    the next one runs on the new connection."""

    def __init__(self, connection: Any, dialect: str, integrity: type[Exception],
                 errors: tuple[type[Exception], ...],
                 reconnect: Callable[[], Any] | None = None) -> None:
        self._db = connection
        self.dialect = dialect
        self._integrity = integrity
        self._errors = errors
        self._reconnect = reconnect
        self._lock = threading.RLock()
        self._in_transaction = False
        self.reconnections = 0
        """How many times the connection was lost and opened again."""

    # --- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, url: str) -> Store:
        """``sqlite:///PATH`` (or a bare path) or ``postgresql://...``. StoreError when
        the database cannot be opened."""
        if url.startswith(("postgresql://", "postgres://")):
            return cls._postgres(url)
        path = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
        if "://" in path:
            raise StoreError(Msg("{url} is not a database address: expected sqlite:///PATH,"
                                 " a path, or postgresql://...", url=Quoted(_redacted(url))))
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                 timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as err:
            raise StoreError(Msg("cannot open the database {where}: {err}",
                                 where=Quoted(path), err=err)) from None
        return cls(db, "sqlite", sqlite3.IntegrityError, (sqlite3.Error,))

    @classmethod
    def _postgres(cls, url: str) -> Store:
        try:
            import psycopg
        except ImportError:
            raise StoreError(Msg("PostgreSQL needs psycopg: pip install"
                                 " 'tarotnotation[postgres]'")) from None
        def connect() -> Any:
            try:
                return psycopg.connect(url, autocommit=True, connect_timeout=10)
            except psycopg.Error as err:
                raise StoreError(Msg("cannot open the database {where}: {err}",
                                     where=Quoted(_redacted(url)),
                                     err=str(err).strip().splitlines()[0])) from None

        return cls(connect(), "postgresql", psycopg.IntegrityError, (psycopg.Error,),
                   reconnect=connect)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the plumbing -----------------------------------------------------------------

    def _sql(self, sql: str) -> str:
        return sql if self.dialect == "sqlite" else sql.replace("?", "%s")

    def _lost(self) -> bool:
        """Is the connection lost, and can it be opened again?"""
        return self._reconnect is not None and bool(getattr(self._db, "broken", False))

    def _reopen(self) -> None:
        """Open the lost connection again (StoreError when it cannot be)."""
        assert self._reconnect is not None
        with contextlib.suppress(Exception):
            self._db.close()
        self._db = self._reconnect()
        self.reconnections += 1

    def _execute(self, sql: str, params: Sequence[object] = (), *, again: bool = True) -> Any:
        """Run one statement; on a lost connection, open it again and (``again``) run the
        statement once more."""
        try:
            return self._db.execute(sql, tuple(params))
        except self._errors:
            if not self._lost():
                raise
            self._reopen()
            if not again:
                raise StoreError(_LOST) from None
            return self._db.execute(sql, tuple(params))

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            cur = self._execute(self._sql(sql), params, again=not self._in_transaction)
            rows = cur.fetchall() if cur.description is not None else []
            return [tuple(r) for r in rows]

    @contextmanager
    def _transaction(self) -> Iterator[Callable[[str, Sequence[object]], list[tuple[Any, ...]]]]:
        """A transaction: the statements run through the function given, all or none."""
        with self._lock:
            self._execute("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")
            self._in_transaction = True
            try:
                yield self._rows
            except BaseException:
                self._in_transaction = False
                if self._lost():  # (the server rolled it back)
                    self._reopen()
                    raise StoreError(_LOST) from None
                self._db.execute("ROLLBACK")
                raise
            self._in_transaction = False
            self._execute("COMMIT", again=False)

    # --- the schema -------------------------------------------------------------------

    def versions(self) -> tuple[int, ...]:
        """The migrations applied, in order."""
        self._rows(_SCHEMA_VERSIONS)
        return tuple(r[0] for r in self._rows("SELECT version FROM schema_versions"
                                              " ORDER BY version"))

    def migrate(self, now: int = 0) -> tuple[int, ...]:
        """Apply the migrations not applied yet, each in its transaction; the versions
        applied now (none when the schema is up to date)."""
        done = set(self.versions())
        applied = []
        for version, sql in migrations():
            if version in done:
                continue
            with self._transaction() as run:
                if run("SELECT 1 FROM schema_versions WHERE version = ?", (version,)):
                    continue  # another server applied it meanwhile
                for statement in statements(sql):
                    run(statement, ())
                run("INSERT INTO schema_versions (version, applied) VALUES (?, ?)",
                    (version, now))
            applied.append(version)
        return tuple(applied)

    def tables(self) -> tuple[str, ...]:
        """The names of the tables (for the tests and ``--help``'s curious)."""
        if self.dialect == "sqlite":
            sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        else:
            sql = ("SELECT table_name FROM information_schema.tables"
                   " WHERE table_schema = current_schema() ORDER BY table_name")
        return tuple(r[0] for r in self._rows(sql))

    # --- secrets ----------------------------------------------------------------------

    def secret(self, name: str, make: Callable[[], str] | None = None) -> str:
        """The secret called ``name``, made (by ``make``, default 32 random bytes in hex)
        and kept the first time it is asked for: the same for every server on the
        database afterwards."""
        found = self._rows("SELECT value FROM secrets WHERE name = ?", (name,))
        if found:
            return str(found[0][0])
        value = (make or (lambda: secrets.token_hex(32)))()
        # (two servers starting at once: the first one's is kept, and both read it)
        self._rows("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name)"
                   " DO NOTHING", (name, value))
        return str(self._rows("SELECT value FROM secrets WHERE name = ?", (name,))[0][0])

    # --- players ----------------------------------------------------------------------

    def add_player(self, name: str, token_hash: str, *, now: int) -> PlayerRow:
        """A new player ``name`` (valid, NFC: see tokens.valid_name) known by the hash of
        their token; NameTakenError when the name is taken without regard to case."""
        row = PlayerRow(secrets.token_hex(12), name, now)
        try:
            with self._transaction() as run:
                run("INSERT INTO players (id, name, name_key, token_hash, created)"
                    " VALUES (?, ?, ?, ?, ?)", (row.id, name, name_key(name), token_hash, now))
        except self._integrity:
            raise NameTakenError(Msg("the name {name} is taken", name=Quoted(name))) from None
        return row

    def player_by_token_hash(self, token_hash: str) -> PlayerRow | None:
        rows = self._rows("SELECT id, name, created FROM players WHERE token_hash = ?",
                          (token_hash,))
        return PlayerRow(*rows[0]) if rows else None

    def player(self, player_id: str) -> PlayerRow | None:
        rows = self._rows("SELECT id, name, created FROM players WHERE id = ?", (player_id,))
        return PlayerRow(*rows[0]) if rows else None

    def player_by_name(self, name: str) -> PlayerRow | None:
        rows = self._rows("SELECT id, name, created FROM players WHERE name_key = ?",
                          (name_key(name),))
        return PlayerRow(*rows[0]) if rows else None

    # --- games ------------------------------------------------------------------------

    def start_game(self, player_id: str, day: str, *, seat: str, address_key: str, now: int,
                   seed: int | None = None, deal: str | None = None) -> GameRow:
        """A new game of ``day`` for the player, from ``seed`` or ``deal`` (a record's
        text); AlreadyPlayedError when the player, or someone from the same address,
        already has a game of that day (one attempt each)."""
        if seed is None and deal is None:
            raise ValueError("a game starts from a seed or a deal")
        row = GameRow(secrets.token_hex(12), player_id, day, seed, deal, seat, PLAYING, now,
                      now, None)
        try:
            with self._transaction() as run:
                if run("SELECT 1 FROM games WHERE day = ? AND (player_id = ? OR address_key = ?)",
                       (day, player_id, address_key)):
                    raise AlreadyPlayedError(Msg("the deal of {day} was already played from"
                                                 " this token or this address", day=day))
                run(f"INSERT INTO games ({_GAME_COLUMNS}, address_key)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (row.id, player_id, day, seed, deal, seat, PLAYING, now, now, None,
                     address_key))
        except self._integrity:
            raise AlreadyPlayedError(Msg("the deal of {day} was already played from this"
                                         " token or this address", day=day)) from None
        return row

    def game(self, game_id: str) -> GameRow | None:
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*rows[0]) if rows else None

    def game_of(self, player_id: str, day: str) -> GameRow | None:
        """The player's game of ``day``, if any."""
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE player_id = ? AND day = ?",
                          (player_id, day))
        return GameRow(*rows[0]) if rows else None

    def games(self, *, day: str | None = None, state: str | None = None,
              updated_before: int | None = None) -> tuple[GameRow, ...]:
        """The games, oldest first, of a day, in a state, or not touched since a time."""
        where: list[str] = ["1 = 1"]
        params: list[object] = []
        if day is not None:
            where.append("day = ?")
            params.append(day)
        if state is not None:
            where.append("state = ?")
            params.append(state)
        if updated_before is not None:
            where.append("updated < ?")
            params.append(updated_before)
        rows = self._rows(f"SELECT {_GAME_COLUMNS} FROM games WHERE {' AND '.join(where)}"
                          " ORDER BY started, id", params)
        return tuple(GameRow(*r) for r in rows)

    def days(self) -> tuple[str, ...]:
        """The days that have games, oldest first."""
        return tuple(str(r[0]) for r in self._rows("SELECT DISTINCT day FROM games ORDER BY day"))

    def in_progress(self) -> int:
        """How many games are being played."""
        return int(self._rows("SELECT COUNT(*) FROM games WHERE state = ?", (PLAYING,))[0][0])

    def add_answer(self, game_id: str, index: int, seat: str, kind: str, value: str, *,
                   now: int) -> None:
        """Write the game's answer number ``index`` (0, 1, 2... in the order given) as it
        is given; AnswerConflictError when that place is taken (an answer given twice),
        StoreError when the game is not being played."""
        try:
            with self._transaction() as run:
                if not run("SELECT 1 FROM games WHERE id = ? AND state = ?", (game_id, PLAYING)):
                    raise StoreError(Msg("the game is not being played"))
                run("INSERT INTO answers (game_id, idx, seat, kind, value, given)"
                    " VALUES (?, ?, ?, ?, ?, ?)", (game_id, index, seat, kind, value, now))
                run("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        except self._integrity:
            raise AnswerConflictError(Msg("answer {index} of the game is already written",
                                          index=index)) from None

    def add_answers(self, game_id: str, first: int, answers: Sequence[tuple[str, str, str]],
                    *, now: int) -> None:
        """Write answers ``first``, ``first + 1``... of the game (``(seat, kind, value)``
        each), all in one transaction: all or none (AnswerConflictError when a place is
        taken, StoreError when the game is not being played)."""
        if not answers:
            return
        rows = [(game_id, first + i, seat, kind, value, now)
                for i, (seat, kind, value) in enumerate(answers)]
        try:
            with self._transaction() as run:
                if not run("SELECT 1 FROM games WHERE id = ? AND state = ?", (game_id, PLAYING)):
                    raise StoreError(Msg("the game is not being played"))
                with self._lock:
                    cur = self._db.cursor()
                    cur.executemany(self._sql("INSERT INTO answers (game_id, idx, seat, kind,"
                                              " value, given) VALUES (?, ?, ?, ?, ?, ?)"), rows)
                run("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        except self._integrity:
            raise AnswerConflictError(Msg("answer {index} of the game is already written",
                                          index=first)) from None

    def answers(self, game_id: str) -> tuple[AnswerRow, ...]:
        """The game's answers, in the order given."""
        rows = self._rows("SELECT idx, seat, kind, value FROM answers WHERE game_id = ?"
                          " ORDER BY idx", (game_id,))
        return tuple(AnswerRow(*r) for r in rows)

    def finish_game(self, game_id: str, *, score: int, record: str, now: int,
                    expired: bool = False) -> None:
        """The game is over (or expired, finished for the player): its result (the
        player's score and the whole record's text) is written with its new state, at
        once. StoreError when the game is not being played."""
        with self._transaction() as run:
            rows = run("SELECT player_id, day FROM games WHERE id = ? AND state = ?",
                       (game_id, PLAYING))
            if not rows:
                raise StoreError(Msg("the game is not being played"))
            player_id, day = rows[0]
            run("UPDATE games SET state = ?, updated = ?, expired = ? WHERE id = ?",
                (EXPIRED if expired else OVER, now, now if expired else None, game_id))
            run("INSERT INTO results (game_id, day, player_id, score, record, finished)"
                " VALUES (?, ?, ?, ?, ?, ?)", (game_id, day, player_id, score, record, now))

    # --- results ----------------------------------------------------------------------

    def results(self, *, first_day: str, last_day: str,
                player_id: str | None = None) -> tuple[ResultRow, ...]:
        """The results of the days from ``first_day`` to ``last_day`` (``YYYY-MM-DD``,
        both included), oldest first; only one player's with ``player_id``."""
        sql = ("SELECT r.game_id, r.day, r.player_id, p.name, r.score, r.record, r.finished"
               " FROM results r JOIN players p ON p.id = r.player_id"
               " WHERE r.day >= ? AND r.day <= ?")
        params: list[object] = [first_day, last_day]
        if player_id is not None:
            sql += " AND r.player_id = ?"
            params.append(player_id)
        rows = self._rows(sql + " ORDER BY r.day, r.finished, r.game_id", params)
        return tuple(ResultRow(*r) for r in rows)


def _redacted(url: str) -> str:
    """A database address without its password (never printed).

    >>> _redacted("postgresql://tarot:s3cret@db.example/tarot")
    'postgresql://tarot:***@db.example/tarot'
    """
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)
