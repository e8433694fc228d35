-- Skymines game store on PostgreSQL, schema version 8: the twin of ../0008_time_zones.sql.
ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
