-- A Discord nickname belongs to one server: the name a member played under is kept per
-- server (member_names), and with each seat of a finished game (game_seats.name), so
-- that no server's board or game shows a name given in another (a private server's
-- nickname may be a real name). player_names kept one name per member, the last played
-- under anywhere: it names the server of the game that wrote it (finished at its
-- updated_at), and the seats of the games stored before this file in that server; their
-- seats in other servers' games are left unnamed (a face names them as it can), rather
-- than by a name those servers never gave.
ALTER TABLE game_seats ADD COLUMN name TEXT NOT NULL DEFAULT '';
CREATE TABLE member_names (
    user_id     BIGINT NOT NULL,
    guild_id    BIGINT NOT NULL,
    name        TEXT NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, guild_id)
);
INSERT INTO member_names (user_id, guild_id, name, updated_at)
    SELECT DISTINCT n.user_id, g.guild_id, n.name, n.updated_at
    FROM player_names n
    JOIN game_seats s ON s.user_id = n.user_id
    JOIN games g ON g.id = s.game_id
    WHERE g.finished_at = n.updated_at;
UPDATE game_seats SET name = COALESCE(
    (SELECT m.name FROM member_names m, games g
     WHERE g.id = game_seats.game_id AND m.user_id = game_seats.user_id
       AND m.guild_id = g.guild_id), '')
    WHERE user_id IS NOT NULL;
DROP TABLE player_names;
