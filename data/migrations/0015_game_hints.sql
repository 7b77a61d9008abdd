-- Whether a game was played with hints, apart from whether it counts (a tournament may
-- be played unrated, without hints): a rematch plays again with hints as they were. A
-- game stored before this file that was not rated is taken to have had hints, as the
-- rematch took it until now.
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
UPDATE games SET hints = 1 WHERE rated = 0;
