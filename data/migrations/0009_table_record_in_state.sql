-- An open table's game record is kept once, in its state (the match's "record", there
-- since the first release): the column that copied it with every action goes. Rows
-- stored before this load from their state, as they always did.
ALTER TABLE active_tables DROP COLUMN record;
