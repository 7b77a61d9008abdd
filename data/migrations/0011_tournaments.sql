-- Tournaments (issue 34), kept as tables are: one row whose state is the tournament
-- service's own JSON document, rewritten by compare-and-swap on its version, and an
-- append-only log of what was done to it. ``due`` is the next moment the service must act
-- (check-in opens, a round's deadline), so it survives a restart.
CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    status      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,
    due         DOUBLE PRECISION,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);
-- A server's open tournaments; the next deadline among the open ones (the same predicate
-- the store's queries use, so both databases can use the partial index).
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_due ON tournaments (due)
    WHERE status IN ('signup', 'running', 'paused');

-- Which tournament table each of the table service's tables is: a table's end is heard by
-- its id, and its tournament is found here, also after a restart.
CREATE TABLE tournament_tables (
    table_id       TEXT PRIMARY KEY,
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    position       INTEGER NOT NULL
);
CREATE INDEX tournament_tables_tournament ON tournament_tables (tournament_id, round, position);

-- What was done to a tournament, one line per version: the command, who gave it, and an
-- organiser's reason for an adjustment.
CREATE TABLE tournament_log (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    version        INTEGER NOT NULL,
    at             DOUBLE PRECISION NOT NULL,
    action         TEXT NOT NULL,
    PRIMARY KEY (tournament_id, version)
);
