-- Skymines game store, schema version 10: whether each game's status message is pinned, so
-- the Discord adapter unpins it once the game has ended, was aborted or archived (the message
-- itself stays, with the final result), and tries nothing for a message it never pinned (a
-- full pin list or a missing permission). Applied by src/store/migrate.rs after
-- 0009_dm_refusals.sql.

-- Rows written before this version were pinned where the bot could pin.
ALTER TABLE discord_status ADD COLUMN pinned INTEGER NOT NULL DEFAULT 1;

-- The adapter's timer looks only at pinned status messages.
CREATE INDEX discord_status_pinned ON discord_status (game_id) WHERE pinned = 1;
