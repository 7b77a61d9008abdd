-- The version of each open table that its channel has been shown (the transactional
-- outbox: the actions after it, in table_actions, are still to be announced). NULL for
-- tables stored before this file: they count as shown up to their version.
ALTER TABLE active_tables ADD COLUMN announced_version INTEGER;
