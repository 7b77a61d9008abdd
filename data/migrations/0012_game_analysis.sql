-- The coach's analysis of a finished game (issue 35): its judged moves as the coach's own
-- JSON document, written once per game (insert-or-ignore: two asks that raced store the
-- first, and both analyses are the same, since the coach is deterministic). It goes with
-- its game.
CREATE TABLE game_analysis (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    analysis    TEXT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
