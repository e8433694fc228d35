-- Skymines game store on PostgreSQL, schema version 12: the twin of ../0012_outbox_claims.sql.
-- The outbox has had `claimed_until` since version 1 here (several processes claim from one
-- queue); SQLite gains it now, so both databases have the same tables and columns. Nothing
-- changes on PostgreSQL.
SELECT 1;
