-- Skymines game store on PostgreSQL, schema version 5: the twin of ../0005_admin.sql.
-- The log learns rollback records; the append-only triggers stay as they are.
ALTER TABLE moves ADD COLUMN back_to BIGINT;
ALTER TABLE moves ADD COLUMN by_user BIGINT;
ALTER TABLE moves DROP CONSTRAINT moves_kind_check;
ALTER TABLE moves ADD CONSTRAINT moves_kind_check CHECK (kind IN ('batch', 'undo', 'rollback'));
ALTER TABLE moves DROP CONSTRAINT moves_check;
ALTER TABLE moves ADD CONSTRAINT moves_check
    CHECK ((kind = 'batch' AND decisions IS NOT NULL AND undoes IS NULL AND back_to IS NULL)
        OR (kind = 'undo' AND undoes IS NOT NULL AND decisions IS NULL AND back_to IS NULL)
        OR (kind = 'rollback' AND back_to IS NOT NULL AND back_to < seq
            AND decisions IS NULL AND undoes IS NULL));

CREATE TABLE idle_watch (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id),
    seq       BIGINT NOT NULL,
    since     BIGINT NOT NULL,
    warned_at BIGINT,
    delete_at BIGINT,
    CHECK ((warned_at IS NULL) = (delete_at IS NULL))
);
