-- The moves the computer chose in a member's seat (the turn timer ran out, or the seat
-- was away), as a JSON list of their indices in the game's record: the record says who
-- sat where, not who chose, and the coach grades a member's own moves only. A game
-- stored before this file kept no such list: it reads as none.
ALTER TABLE games ADD COLUMN stood_in TEXT NOT NULL DEFAULT '[]';
