-- Skymines game store on PostgreSQL, schema version 10: the twin of ../0010_status_pins.sql.
ALTER TABLE discord_status ADD COLUMN pinned BIGINT NOT NULL DEFAULT 1;
CREATE INDEX discord_status_pinned ON discord_status (game_id) WHERE pinned = 1;
