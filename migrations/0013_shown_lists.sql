-- Skymines game store, schema version 13: the numbered list each user was last shown in a game
-- (DECISIONS B19), kept with the game so that `/choose N` means the same option after a
-- restart as before it. One row per (game, user): the click version the list belongs to and
-- its options, a JSON document only the chat layer reads. Applied by src/store/migrate.rs
-- after 0012_outbox_claims.sql.
CREATE TABLE shown_lists (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    user_id  INTEGER NOT NULL,
    version  INTEGER NOT NULL,
    options  TEXT    NOT NULL,
    shown_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
