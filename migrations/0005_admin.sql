-- Skymines game store, schema version 5: the admin tools.
--
-- Applied by src/store/migrate.rs inside one transaction after 0004_seats.sql. Never edit a
-- released migration: add 0006_….sql instead.

-- The move log learns a third kind of entry: a rollback, ordered by a server moderator or an
-- owner, that returns the game to the state after an earlier entry (`back_to`). Like an undo it
-- is appended, never erased; replay honours it (src/store/replay.rs). SQLite cannot change a
-- CHECK constraint in place, so the table is rebuilt with the same rows. (Dropping a table
-- fires none of its triggers; the append-only triggers are created again below.)
CREATE TABLE moves_v3 (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL CHECK (kind IN ('batch', 'undo', 'rollback')),
    seat      INTEGER NOT NULL,                -- the seat that acted (0 for a rollback)
    decisions TEXT,                            -- JSON array of engine Decisions (kind 'batch')
    undoes    INTEGER,                         -- seq of the reverted batch (kind 'undo')
    back_to   INTEGER,                         -- the entry whose state returns (kind 'rollback')
    by_user   INTEGER,                         -- who ordered the rollback (Discord id, bit for bit)
    at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    CHECK ((kind = 'batch' AND decisions IS NOT NULL AND undoes IS NULL AND back_to IS NULL)
        OR (kind = 'undo' AND undoes IS NOT NULL AND decisions IS NULL AND back_to IS NULL)
        OR (kind = 'rollback' AND back_to IS NOT NULL AND back_to < seq
            AND decisions IS NULL AND undoes IS NULL))
) WITHOUT ROWID;
INSERT INTO moves_v3 (game_id, seq, kind, seat, decisions, undoes, at)
    SELECT game_id, seq, kind, seat, decisions, undoes, at FROM moves;
DROP TABLE moves;
ALTER TABLE moves_v3 RENAME TO moves;
CREATE UNIQUE INDEX moves_undo_once ON moves (game_id, undoes) WHERE kind = 'undo';
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

-- Idle games, as the chat layer's timer sees them: the log version it last saw, since when (its
-- clock, Unix ms), and the warning it posted before deleting the game (NULL: none yet). A move
-- changes the version, which cancels the warning.
CREATE TABLE idle_watch (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id),
    seq       INTEGER NOT NULL,
    since     INTEGER NOT NULL,
    warned_at INTEGER,
    delete_at INTEGER,
    CHECK ((warned_at IS NULL) = (delete_at IS NULL))
);
