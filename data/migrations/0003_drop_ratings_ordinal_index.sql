-- Leaderboards by rating read the rating copied onto player_stats (its own index), and a
-- rating is only ever looked up by its key, so this index was never read; dropping it
-- saves a write per rating update.
DROP INDEX ratings_ordinal;
