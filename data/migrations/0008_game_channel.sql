-- The channel (or thread) a finished game was played in: a rematch opens only there.
-- Games finished before this are NULL (their rematch opens wherever it is asked for).
ALTER TABLE games ADD COLUMN channel_id BIGINT;
