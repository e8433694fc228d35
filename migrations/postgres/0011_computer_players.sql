-- Skymines game store on PostgreSQL, schema version 11: the twin of ../0011_computer_players.sql.
ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (bot_level IN ('easy', 'normal', 'hard'));
