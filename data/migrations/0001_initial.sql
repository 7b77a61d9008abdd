-- Active tables: the whole state, the game record and the version, rewritten with each
-- accepted action (compare-and-swap on version); the actions themselves, append-only.
CREATE TABLE active_tables (
    id          TEXT PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    host_id     BIGINT NOT NULL,
    game        TEXT NOT NULL,
    status      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,
    record      TEXT NOT NULL,
    deadline    DOUBLE PRECISION,
    message_id  BIGINT,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX active_tables_status ON active_tables (status);

CREATE TABLE table_actions (
    table_id  TEXT NOT NULL REFERENCES active_tables (id) ON DELETE CASCADE,
    version   INTEGER NOT NULL,
    action    TEXT NOT NULL,
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- Finished games, their rounds and seats.
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    table_id     TEXT NOT NULL,
    guild_id     BIGINT NOT NULL,
    game         TEXT NOT NULL,
    finished_at  DOUBLE PRECISION NOT NULL,
    record       TEXT NOT NULL
);

CREATE TABLE game_rounds (
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL,
    reason   TEXT NOT NULL,
    winner   INTEGER,
    points   TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);

CREATE TABLE game_seats (
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    team            INTEGER NOT NULL,
    user_id         BIGINT,
    computer_level  TEXT,
    final_score     INTEGER NOT NULL,
    won             INTEGER NOT NULL,
    rounds_won      INTEGER NOT NULL,
    points          INTEGER NOT NULL,
    dominoes        INTEGER NOT NULL,
    blocked_wins    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Running totals per player, game kind and server (guild_id 0: every server), kept up to
-- date by record_finished_game so that leaderboards never scan the games. ``rating`` is
-- the player's global rating ordinal for that game, copied onto each row so that a
-- leaderboard by rating reads one index in order.
CREATE TABLE player_stats (
    user_id       BIGINT NOT NULL,
    game          TEXT NOT NULL,
    guild_id      BIGINT NOT NULL,
    games         INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    rounds_won    INTEGER NOT NULL,
    points        INTEGER NOT NULL,
    dominoes      INTEGER NOT NULL,
    blocked_wins  INTEGER NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game, guild_id)
);
CREATE INDEX player_stats_rating ON player_stats (game, guild_id, rating DESC, games DESC, user_id);
CREATE INDEX player_stats_wins ON player_stats (game, guild_id, wins DESC, games DESC, user_id);
CREATE INDEX player_stats_points ON player_stats (game, guild_id, points DESC, games DESC, user_id);

-- One openskill rating per player and game kind.
CREATE TABLE ratings (
    user_id  BIGINT NOT NULL,
    game     TEXT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    ordinal  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_ordinal ON ratings (game, ordinal DESC);

CREATE TABLE guild_settings (
    guild_id            BIGINT PRIMARY KEY,
    turn_timer_seconds  INTEGER NOT NULL,
    default_targets     TEXT NOT NULL,
    use_threads         INTEGER NOT NULL
);
