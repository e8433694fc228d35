-- Skymines game store on PostgreSQL, schema version 13: the twin of ../0013_shown_lists.sql.
CREATE TABLE shown_lists (
    game_id  BIGINT NOT NULL REFERENCES games (id),
    user_id  BIGINT NOT NULL,
    version  BIGINT NOT NULL,
    options  TEXT   NOT NULL,
    shown_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
