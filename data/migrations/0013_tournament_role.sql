-- The role whose members may organise tournaments in a server (issue 34: "Manage Server,
-- or a role the server chooses"), chosen with /domino settings tournament_role. NULL: no
-- such role, only Manage Server (and each tournament's own creator) organise.
ALTER TABLE guild_settings ADD COLUMN tournament_role BIGINT;
