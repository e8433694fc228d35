-- Skymines game store, schema version 7: games being gathered (lobbies), so a restart of the
-- bot keeps them. Applied by src/store/migrate.rs after 0006_reminder_settings.sql.

CREATE TABLE lobbies (
    channel    INTEGER PRIMARY KEY,     -- Discord snowflake, bit for bit (one lobby per channel)
    body       TEXT    NOT NULL,        -- the chat layer's JSON document of the lobby
    updated_at INTEGER NOT NULL
);
