-- Skymines game store, schema version 8: a user's named time zone (IANA, e.g. Europe/Berlin), so
-- quiet hours follow daylight-saving time. NULL: the fixed UTC offset of 0004 applies. Applied by
-- src/store/migrate.rs after 0007_lobbies.sql.

ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
