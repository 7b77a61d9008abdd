-- Whether a server's tables let the member to move take a whole turn more on their clock
-- (the More time button, /domino more-time), chosen with /domino settings more_time; on
-- unless the server turns it off. A table keeps the setting it opened with.
ALTER TABLE guild_settings ADD COLUMN more_time INTEGER NOT NULL DEFAULT 1;
