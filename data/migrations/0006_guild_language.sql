-- The language a server's tables speak (a Discord locale code such as es-ES), chosen with
-- /domino settings language. NULL: the server's own preferred locale.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
