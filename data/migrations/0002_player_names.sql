-- The name each member last played under, so leaderboards can show names for players
-- the bot cannot look up (other servers, no member cache).
CREATE TABLE player_names (
    user_id     BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);
