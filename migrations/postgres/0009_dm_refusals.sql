-- Skymines game store on PostgreSQL, schema version 9: the twin of ../0009_dm_refusals.sql.
CREATE TABLE dm_refusals (
    user_id    BIGINT PRIMARY KEY,
    refused_at BIGINT NOT NULL
);
