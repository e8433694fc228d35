-- Skymines game store, schema version 14: a checksum on every move row (src/store/integrity.rs),
-- so that a row changed after it was written (a flipped bit on the disk, a hand edit) is found
-- when the game is read, instead of replaying silently into another game. Rows written before
-- this version keep NULL: they are not checked. Applied by src/store/migrate.rs after
-- 0013_shown_lists.sql.
ALTER TABLE moves ADD COLUMN checksum INTEGER;
