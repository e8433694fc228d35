-- Skymines game store on PostgreSQL, schema version 7: the twin of ../0007_lobbies.sql.
CREATE TABLE lobbies (
    channel    BIGINT PRIMARY KEY,
    body       TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
