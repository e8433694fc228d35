//! Helpers shared by the store tests: the data, throw-away folders, stores with a given K, and
//! seeded games played through the store or on the bare engine.
#![allow(dead_code)]

use skymines::data::GameData;
use skymines::engine::GameState;
use skymines::store::torture::{next_move, reference, torture_game, Move};
use skymines::store::{GameId, LogEntry, RestoreReport, Store, StoreError, StoreOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The built-in component data, loaded once.
pub fn data() -> Arc<GameData> {
    static DATA: OnceLock<Arc<GameData>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(GameData::embedded().expect("the built-in data loads")))
        .clone()
}

/// A folder removed when dropped. On a RAM disk (/dev/shm) when there is one: the tests
/// kill processes and inject failures, they do not cut the power, so flushes to a real disk
/// would only make them slow (the benchmark measures on the real disk).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let shm = Path::new("/dev/shm");
        let base = if shm.is_dir() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!(
            "skymines-store-{}-{name}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn db(&self) -> PathBuf {
        self.0.join("games.db")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn options(k: u64) -> StoreOptions {
    StoreOptions {
        snapshot_every: k,
        ..StoreOptions::default()
    }
}

pub fn open(path: &Path, k: u64) -> (Store, RestoreReport) {
    Store::open(path, data(), options(k)).expect("the store opens")
}

/// One driver move of torture game `seed` through the store (None: the game is over).
pub fn step(store: &Store, game: GameId, seed: u64) -> Option<Result<u64, StoreError>> {
    let (state, seq) = store.games().live_state(game).ok()?;
    let undoable = match store.games().last_entry(game) {
        Ok(Some(LogEntry::Batch { seat, .. })) => Some(seat),
        Ok(_) => None,
        Err(e) => return Some(Err(e)),
    };
    Some(
        match next_move(store.data(), &state, undoable, seed, seq)? {
            Move::Batch { seat, decisions } => {
                store.games().apply(game, seat, &decisions).map(|o| o.seq)
            }
            Move::Undo { seat } => store.games().undo(game, seat).map(|o| o.seq),
        },
    )
}

/// Plays torture game `seed` to `moves` log entries; returns the game.
pub fn play(store: &Store, seed: u64, moves: u64) -> GameId {
    let game = torture_game(store, seed).expect("the game is created");
    skymines::store::torture::drive(store, game, seed, moves, |_| {}).expect("the moves store");
    game
}

/// Torture game `seed` after `moves` moves on the bare engine.
pub fn expected(seed: u64, moves: u64) -> GameState {
    let (state, made) = reference(&data(), seed, moves);
    assert_eq!(made, moves, "seed {seed}: the reference game ended early");
    state
}

/// The file's bytes (with its WAL, if any).
pub fn bytes(path: &Path) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    (
        std::fs::read(path).expect("the file reads"),
        std::fs::read(PathBuf::from(wal)).ok(),
    )
}

/// Rewrites the latest snapshot of `game` with 7 more coins for seat 0 (a disk fault or a hand
/// edit the start-up replay must catch); returns the snapshot's move and its new text.
pub fn tamper_latest_snapshot(conn: &rusqlite::Connection, game: i64) -> (i64, String) {
    let (seq, text): (i64, String) = conn
        .query_row(
            "SELECT seq, state FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("snapshot");
    let mut state: GameState = serde_json::from_str(&text).expect("state");
    state.seats[0].coins += 7;
    let text = serde_json::to_string(&state).expect("json");
    conn.execute(
        "UPDATE snapshots SET state = ?3 WHERE game_id = ?1 AND seq = ?2",
        rusqlite::params![game, seq, text],
    )
    .expect("tamper");
    (seq, text)
}

/// The server for the PostgreSQL runs of the store tests (CI starts a throw-away one:
/// `.ci/pg-cluster`).
pub const PG_URL: &str = "SKYMINES_TEST_PG_URL";

/// The server's URL from `SKYMINES_TEST_PG_URL`; None, with a printed line saying the
/// PostgreSQL run of `test` is skipped, when it is not set.
pub fn pg_server(test: &str) -> Option<String> {
    match std::env::var(PG_URL) {
        Ok(admin) if !admin.trim().is_empty() => Some(admin),
        _ => {
            println!(
                "{test}: PostgreSQL run skipped: set {PG_URL} (see README, \"Testing on PostgreSQL\")"
            );
            None
        }
    }
}

/// A database of its own on the server `admin` names, dropped when this is dropped.
pub struct PgTestDb {
    admin: String,
    name: String,
    url: String,
}

impl PgTestDb {
    pub fn create(admin: &str, label: &str) -> PgTestDb {
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "skymines_t{}_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed),
            label
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .take(24)
                .collect::<String>()
        );
        postgres::Client::connect(admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("{PG_URL} is set but the server is not reachable: {e}"))
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("a test database");
        PgTestDb {
            url: with_database(admin, &name),
            admin: admin.to_string(),
            name,
        }
    }

    /// The database's URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for PgTestDb {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// The URL of database `db` on the server of `admin` (the same URL with another path).
pub fn with_database(admin: &str, db: &str) -> String {
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let (scheme, rest) = base.split_once("://").expect("a URL");
    let server = rest.split_once('/').map_or(rest, |(s, _)| s);
    format!("{scheme}://{server}/{db}{query}")
}
