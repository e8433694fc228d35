-- Skymines game store, schema version 9: users whose DMs Discord refused (error 50007). The bot
-- stops trying DMs for them until they ask for DMs again (DECISIONS B14). Applied by
-- src/store/migrate.rs after 0008_time_zones.sql.

CREATE TABLE dm_refusals (
    user_id    INTEGER PRIMARY KEY,     -- Discord snowflake, bit for bit
    refused_at INTEGER NOT NULL         -- Unix ms of the first refusal
);
