-- One open table per channel, kept by the database itself: two /domino new at the same
-- moment (two tasks, or two processes) cannot both open a table in one channel.
-- Before the index, any channel that already holds several open tables (opened by that
-- race) keeps one: the one in play, else the newest lobby; the others are cancelled.
UPDATE active_tables SET status = 'cancelled'
WHERE status IN ('lobby', 'playing')
  AND id <> (
    SELECT keep.id FROM active_tables AS keep
    WHERE keep.channel_id = active_tables.channel_id AND keep.status IN ('lobby', 'playing')
    ORDER BY keep.status = 'playing' DESC, keep.updated_at DESC, keep.id
    LIMIT 1
  );
CREATE UNIQUE INDEX active_tables_open_channel ON active_tables (channel_id)
WHERE status IN ('lobby', 'playing');
