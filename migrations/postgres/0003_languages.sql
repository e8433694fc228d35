-- Skymines game store on PostgreSQL, schema version 3: the twin of ../0003_languages.sql.
CREATE TABLE user_languages (
    user_id    BIGINT PRIMARY KEY,
    language   TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE TABLE game_languages (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id),
    language   TEXT   NOT NULL,
    updated_at BIGINT NOT NULL
);
