-- A tournament's news (the outbox of what its channel is told): each piece is written in
-- the transaction that stores the change it tells, at that change's version (``ordinal``:
-- its place among the version's pieces), so a stop between storing and posting loses
-- nothing; the herald posts the unposted in order and marks each. ``state`` is the
-- tournament as the news tells it (the row's state at that version: the row itself
-- moves on, and a round's pairings or standings are told as they stood), cleared once
-- the piece is done with. ``posted_at``: when it was posted, or given up (``given_up``
-- says why: Discord refused it for good, or it was too old to tell at a start); NULL
-- until then.
CREATE TABLE tournament_news (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    version        INTEGER NOT NULL,
    ordinal        INTEGER NOT NULL,
    what           TEXT NOT NULL,
    about          TEXT NOT NULL,
    adjustment     TEXT,
    state          TEXT,
    created_at     DOUBLE PRECISION NOT NULL,
    posted_at      DOUBLE PRECISION,
    given_up       TEXT,
    PRIMARY KEY (tournament_id, version, ordinal)
);
-- The unposted, in order: what a start takes up.
CREATE INDEX tournament_news_unposted ON tournament_news (tournament_id, version, ordinal)
    WHERE posted_at IS NULL;
