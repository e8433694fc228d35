-- Skymines game store, schema version 3: the languages replies are written in.
--
-- Applied by src/store/migrate.rs inside one transaction after 0002_discord.sql. Never edit a
-- released migration: add a new numbered file instead.

-- A user's language for their private replies and DMs (every game); no row: the default.
CREATE TABLE user_languages (
    user_id    INTEGER PRIMARY KEY,         -- Discord snowflake (or local id), bit for bit
    language   TEXT    NOT NULL,            -- a catalog code: 'en', 'de'
    updated_at INTEGER NOT NULL             -- Unix ms
);

-- A game's language for its public replies and pings; no row: the configured default.
CREATE TABLE game_languages (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    language   TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
