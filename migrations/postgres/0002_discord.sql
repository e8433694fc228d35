-- Skymines game store on PostgreSQL, schema version 2: the twin of ../0002_discord.sql.
CREATE TABLE discord_status (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id),
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE discord_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
