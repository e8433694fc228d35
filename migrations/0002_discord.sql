-- Skymines game store, schema version 2: what the Discord adapter keeps across restarts.
--
-- Applied by src/store/migrate.rs inside one transaction after 0001_initial.sql. Never edit a
-- released migration: add 0003_….sql instead.

-- The status message of each game: an ordinary channel message the bot edits in place.
CREATE TABLE discord_status (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    channel_id INTEGER NOT NULL,            -- Discord snowflake, bit for bit
    message_id INTEGER NOT NULL,            -- Discord snowflake, bit for bit
    updated_at INTEGER NOT NULL             -- Unix ms
);

-- Small facts the adapter remembers, by key (e.g. the hash of the registered command set).
CREATE TABLE discord_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
