-- Skymines game store, schema version 4: living with a game over days.
--
-- Applied by src/store/migrate.rs inside one transaction after 0003_languages.sql, with foreign
-- keys switched off while tables are rebuilt (SQLite cannot change a CHECK constraint in
-- place) and `PRAGMA foreign_key_check` run before the commit. Never edit a released
-- migration: add 0005_….sql instead.

-- Games gain the status 'archived' (their channel was deleted or the bot left the server:
-- kept, exportable, never restored), a pause, and why a game was archived.
CREATE TABLE games_v3 (
    id              INTEGER PRIMARY KEY,
    guild           INTEGER,
    channel         INTEGER NOT NULL,
    status          TEXT    NOT NULL
                    CHECK (status IN ('active', 'finished', 'abandoned', 'damaged', 'archived')),
    options         TEXT    NOT NULL,
    seed            INTEGER NOT NULL,
    seat_names      TEXT    NOT NULL,
    engine_version  INTEGER NOT NULL,
    data_hash       TEXT    NOT NULL,
    last_seq        INTEGER NOT NULL DEFAULT 0,
    damage_report   TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    paused_at       INTEGER,                -- Unix ms the host paused the game; NULL: running
    archived_reason TEXT                    -- 'channel_deleted' or 'guild_removed' (status 'archived')
);
INSERT INTO games_v3 (id, guild, channel, status, options, seed, seat_names, engine_version,
                      data_hash, last_seq, damage_report, created_at, updated_at)
    SELECT id, guild, channel, status, options, seed, seat_names, engine_version,
           data_hash, last_seq, damage_report, created_at, updated_at FROM games;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;
CREATE UNIQUE INDEX games_one_per_channel ON games (channel) WHERE status IN ('active', 'damaged');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_guild ON games (guild) WHERE status IN ('active', 'damaged');

-- Seats gain the kind 'vacant' (its player left or was kicked: the bot plays it safely until
-- someone joins it) and the time the game started waiting on the seat (kicks of inactive
-- players, reminders).
CREATE TABLE seats_v3 (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    kind          TEXT    NOT NULL CHECK (kind IN ('discord', 'local', 'luna', 'vacant')),
    user_id       INTEGER,
    name          TEXT    NOT NULL,
    colour        INTEGER NOT NULL,
    notify        TEXT    NOT NULL DEFAULT 'ephemeral' CHECK (notify IN ('ephemeral', 'dm')),
    waiting_since INTEGER,                  -- Unix ms; NULL: the game does not wait on the seat
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'discord') = (user_id IS NOT NULL))
);
INSERT INTO seats_v3 (game_id, seat, kind, user_id, name, colour, notify)
    SELECT game_id, seat, kind, user_id, name, colour, notify FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v3 RENAME TO seats;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Per-user settings that hold across games: away until, time zone (a fixed UTC offset) and
-- quiet hours (local hours [quiet_from, quiet_to), wrapping past midnight).
CREATE TABLE user_settings (
    user_id        INTEGER PRIMARY KEY,     -- Discord snowflake, bit for bit
    away_until     INTEGER,                 -- Unix ms; NULL: not away
    utc_offset_min INTEGER NOT NULL DEFAULT 0 CHECK (utc_offset_min BETWEEN -840 AND 840),
    quiet_from     INTEGER CHECK (quiet_from BETWEEN 0 AND 23),
    quiet_to       INTEGER CHECK (quiet_to BETWEEN 0 AND 23),
    updated_at     INTEGER NOT NULL,
    CHECK ((quiet_from IS NULL) = (quiet_to IS NULL))
);
