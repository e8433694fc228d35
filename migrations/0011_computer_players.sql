-- Skymines game store, schema version 11: computer players (issue 23). A seat of kind 'vacant'
-- (no person holds it: seated as a computer player, or its player left or was kicked) is
-- played by a computer player at its game's level, until someone takes it over with
-- /skymines join. Applied by src/store/migrate.rs after 0010_status_pins.sql.

-- The level every computer player of the game plays at. Rows written before this version had
-- no computer players; their vacant seats now play at the default level.
ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (bot_level IN ('easy', 'normal', 'hard'));
