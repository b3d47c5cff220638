-- tarot serve's first schema (docs/serve.md#the-schema). Portable SQL: SQLite and
-- PostgreSQL read it the same way. Times are seconds since the epoch (UTC); identifiers
-- are random text made by the server. Statements end with a semicolon at the end of a line.
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created BIGINT NOT NULL
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id),
    day TEXT NOT NULL,
    seed BIGINT,
    deal TEXT,
    seat TEXT NOT NULL,
    address_key TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('playing', 'over', 'expired')),
    started BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    expired BIGINT,
    CHECK (seed IS NOT NULL OR deal IS NOT NULL),
    UNIQUE (day, player_id),
    UNIQUE (day, address_key)
);
CREATE INDEX games_by_day ON games (day, state);
CREATE INDEX games_by_state ON games (state, updated);
CREATE TABLE answers (
    game_id TEXT NOT NULL REFERENCES games (id),
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    given BIGINT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE results (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    day TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    score INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished BIGINT NOT NULL
);
CREATE INDEX results_by_day ON results (day);
CREATE INDEX results_by_player ON results (player_id, day);
