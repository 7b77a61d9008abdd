-- What each face (the Discord chat, a browser page) has shown of each open table: the
-- version it shows and, for a face that posts messages, its latest one. Until this file
-- one face was known and its notes were two columns of the table's row; they move here,
-- as the Discord face's (a row stored before 0005 has no version noted: shown up to its
-- version).
CREATE TABLE table_faces (
    table_id    TEXT NOT NULL REFERENCES active_tables (id) ON DELETE CASCADE,
    face        TEXT NOT NULL,
    version     INTEGER NOT NULL,
    message_id  BIGINT,
    PRIMARY KEY (table_id, face)
);
INSERT INTO table_faces (table_id, face, version, message_id)
SELECT id, 'discord', COALESCE(announced_version, version), message_id FROM active_tables;
ALTER TABLE active_tables DROP COLUMN announced_version;
ALTER TABLE active_tables DROP COLUMN message_id;
