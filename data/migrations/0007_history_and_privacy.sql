-- A game played with hints is kept but not rated (no stats, no rating); a member's games
-- are listed newest first (/domino history, a rematch's series), and closed tables are
-- pruned by age.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
CREATE INDEX game_seats_user ON game_seats (user_id, game_id);
CREATE INDEX games_guild_finished ON games (guild_id, finished_at);
CREATE INDEX active_tables_closed ON active_tables (status, updated_at);
