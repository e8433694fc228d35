-- Skymines game store on PostgreSQL, schema version 14: the twin of ../0014_move_checksums.sql
-- (a checksum on every move row; rows written before this version keep NULL).
ALTER TABLE moves ADD COLUMN checksum BIGINT;
