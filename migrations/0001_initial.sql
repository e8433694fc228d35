-- Skymines game store, schema version 1.
--
-- Applied by src/store/migrate.rs inside one transaction; the runner then sets
-- PRAGMA user_version = 1. Never edit a released migration: add 0002_….sql instead.
--
-- Discord snowflakes (guild, channel, user ids) and seeds are u64 values stored bit for bit
-- in INTEGER columns (i64). Times are Unix milliseconds.

-- One row per game. A channel holds at most one game that is active or damaged (a damaged game
-- keeps its channel until an owner abandons it, so nobody starts over it by accident).
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    guild          INTEGER,                 -- NULL outside Discord (local mode)
    channel        INTEGER NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'abandoned', 'damaged')),
    options        TEXT    NOT NULL,        -- GameOptions as JSON
    seed           INTEGER NOT NULL,
    seat_names     TEXT    NOT NULL,        -- JSON array: the names given to engine::new_game
    engine_version INTEGER NOT NULL,        -- ENGINE_VERSION the game started with
    data_hash      TEXT    NOT NULL,        -- GameData hash the game started with
    last_seq       INTEGER NOT NULL DEFAULT 0,
    damage_report  TEXT,                    -- why the game was set aside (status 'damaged')
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE UNIQUE INDEX games_one_per_channel ON games (channel) WHERE status IN ('active', 'damaged');
CREATE INDEX games_by_status ON games (status);

-- The seats of a game, in engine seat order.
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    kind    TEXT    NOT NULL CHECK (kind IN ('discord', 'local', 'luna')),
    user_id INTEGER,                        -- the Discord user (kind 'discord' only)
    name    TEXT    NOT NULL,
    colour  INTEGER NOT NULL,
    notify  TEXT    NOT NULL DEFAULT 'ephemeral' CHECK (notify IN ('ephemeral', 'dm')),
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'discord') = (user_id IS NOT NULL))
);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- The append-only log: every applied decision batch and every undo record, numbered 1, 2, …
-- per game. An undo never deletes: it names the batch it reverts.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL CHECK (kind IN ('batch', 'undo')),
    seat      INTEGER NOT NULL,
    decisions TEXT,                         -- JSON array of engine Decisions (kind 'batch')
    undoes    INTEGER,                      -- seq of the reverted batch (kind 'undo')
    at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    CHECK ((kind = 'batch' AND decisions IS NOT NULL AND undoes IS NULL)
        OR (kind = 'undo' AND undoes IS NOT NULL AND decisions IS NULL))
) WITHOUT ROWID;
CREATE UNIQUE INDEX moves_undo_once ON moves (game_id, undoes) WHERE kind = 'undo';
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

-- The state after log entries 1..=seq (seq 0: the state new_game built). Written every K
-- moves, after every undo and when the game ends. The latest one is authoritative.
CREATE TABLE snapshots (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL CHECK (seq >= 0),
    engine_version INTEGER NOT NULL,        -- the engine that produced this state
    state          TEXT    NOT NULL,        -- GameState as JSON
    at             INTEGER NOT NULL,
    UNIQUE (game_id, seq)
);

-- The public board image of each stored state version (version = log seq, 0 = the start).
-- A row appears with png NULL when the state is stored; the renderer fills it in later.
CREATE TABLE board_images (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    version     INTEGER NOT NULL CHECK (version >= 0),
    png         BLOB,
    rendered_at INTEGER,
    UNIQUE (game_id, version)
);
CREATE INDEX board_images_pending ON board_images (game_id, version) WHERE png IS NULL;

-- Campaigns (four chapters played in a row) and what each chapter's game gave.
CREATE TABLE campaigns (
    id         INTEGER PRIMARY KEY,
    guild      INTEGER,
    channel    INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
    options    TEXT    NOT NULL,            -- JSON, the campaign layer's own
    created_at INTEGER NOT NULL
);
CREATE TABLE campaign_chapters (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    chapter      INTEGER NOT NULL CHECK (chapter BETWEEN 1 AND 4),
    game_id      INTEGER REFERENCES games (id),
    result       TEXT,                      -- JSON, NULL until the chapter is over
    completed_at INTEGER,
    PRIMARY KEY (campaign_id, chapter)
);

-- Reminders the chat layer has scheduled; the Discord adapter runs the timer.
CREATE TABLE reminders (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    due_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
);
CREATE INDEX reminders_due ON reminders (due_at);

-- Messages to send, queued in the same transaction as the move that caused them.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER REFERENCES games (id),
    payload    TEXT    NOT NULL,            -- JSON, the Discord adapter's own format
    created_at INTEGER NOT NULL,
    sent       INTEGER NOT NULL DEFAULT 0 CHECK (sent IN (0, 1)),
    sent_at    INTEGER
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent = 0;
