-- When a game's analysis was announced (issue 35: the coach runs at every game's end and
-- says each member's accuracy where the game was played, once). NULL: stored, not yet
-- announced; a start takes up the last day's games whose analysis is missing or not
-- announced (by when they finished: the index). Analyses stored before this file were
-- made when a member asked, and shown to them alone: nothing to announce.
ALTER TABLE game_analysis ADD COLUMN announced_at DOUBLE PRECISION;
UPDATE game_analysis SET announced_at = created_at;
CREATE INDEX games_finished ON games (finished_at);
