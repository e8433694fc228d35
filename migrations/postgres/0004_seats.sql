-- Skymines game store on PostgreSQL, schema version 4: the twin of ../0004_seats.sql.
-- PostgreSQL changes constraints in place, so no table is rebuilt.
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('active', 'finished', 'abandoned', 'damaged', 'archived'));
ALTER TABLE games ADD COLUMN paused_at BIGINT;
ALTER TABLE games ADD COLUMN archived_reason TEXT;
CREATE INDEX games_by_guild ON games (guild) WHERE status IN ('active', 'damaged');

ALTER TABLE seats DROP CONSTRAINT seats_kind_check;
ALTER TABLE seats ADD CONSTRAINT seats_kind_check
    CHECK (kind IN ('discord', 'local', 'luna', 'vacant'));
ALTER TABLE seats ADD COLUMN waiting_since BIGINT;

CREATE TABLE user_settings (
    user_id        BIGINT PRIMARY KEY,
    away_until     BIGINT,
    utc_offset_min BIGINT NOT NULL DEFAULT 0 CHECK (utc_offset_min BETWEEN -840 AND 840),
    quiet_from     BIGINT CHECK (quiet_from BETWEEN 0 AND 23),
    quiet_to       BIGINT CHECK (quiet_to BETWEEN 0 AND 23),
    updated_at     BIGINT NOT NULL,
    CHECK ((quiet_from IS NULL) = (quiet_to IS NULL))
);
