//! Damage to the SQLite file itself (issue #37): its files removed or replaced under the
//! running store (the move in flight is refused and nothing confirmed is lost: a removed WAL
//! is copied into the file through the open connection, a removed file is written out beside
//! it), and single flipped bits anywhere in a file of three games (each is found and named,
//! or changes nothing; none answers with the generic apology).
//!
//! `SKYMINES_FLIPS=N` sets the number of flips (100 by default); the counts are printed:
//! `cargo test --release --test store damage:: -- --nocapture`.
//!
//! These tests use only what the store and the chat layer offered before the watch and the
//! checks came in, so they also run (and fail) on the code before them.

use super::backends::options;
use crate::support::chat::{owner_alice_config, private_to};
use crate::support::store::{play, step};
use crate::support::{shared_data, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::{Chat, ManualClock, Reply};
use skymines::local::parse_line;
use skymines::store::{GameId, Location, Store};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The number of moves of `game` in a copy of the file `path` (alone: no WAL beside it).
fn moves_in_copy(path: &Path, game: GameId) -> i64 {
    let dir = TempDir::new("damage-copy");
    let copy = dir.join("copy.db");
    std::fs::copy(path, &copy).expect("the file copies");
    rusqlite::Connection::open(&copy)
        .expect("the copy opens")
        .query_row(
            "SELECT COUNT(*) FROM moves WHERE game_id = ?1",
            [game],
            |r| r.get(0),
        )
        .expect("the copy reads")
}

fn wal(path: &Path) -> PathBuf {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    PathBuf::from(wal)
}

/// The files `<name>.rescued-…` in `dir`.
fn rescued(dir: &TempDir) -> Vec<PathBuf> {
    std::fs::read_dir(dir.path())
        .expect("the folder lists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.to_string_lossy();
            // Not SQLite's journal of a copy under way.
            name.contains(".rescued-") && !name.ends_with("-journal")
        })
        .collect()
}

#[test]
fn a_removed_wal_stops_moves_and_loses_nothing_confirmed() {
    let dir = TempDir::new("damage-wal");
    let (store, _) = Store::open(dir.db(), shared_data(), options(1000)).expect("opens");
    let game = play(&store, 41, 10);
    std::fs::remove_file(wal(&dir.db())).expect("the WAL is there");
    // The next move is refused (it would go into a file nobody can open any more) ...
    let refused = step(&store, game, 41).expect("a move to make");
    let e = refused.expect_err("no move is confirmed into a removed WAL");
    assert!(e.to_string().contains("WAL"), "{e}");
    assert_eq!(store.games().log(game).expect("log").len(), 10);
    // ... and the ten confirmed moves are in the database file itself.
    assert_eq!(moves_in_copy(&dir.db(), game), 10);
}

#[test]
fn a_removed_database_file_stops_moves_and_what_was_stored_is_written_out() {
    let dir = TempDir::new("damage-file");
    let (store, _) = Store::open(dir.db(), shared_data(), options(1000)).expect("opens");
    let game = play(&store, 42, 6);
    std::fs::remove_file(dir.db()).expect("the file is there");
    let refused = step(&store, game, 42).expect("a move to make");
    let e = refused.expect_err("no move is confirmed into a removed file");
    assert!(e.to_string().contains("removed"), "{e}");
    let saved = rescued(&dir);
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert_eq!(moves_in_copy(&saved[0], game), 6);
    assert!(
        !dir.db().exists(),
        "no new, empty file where the old one was"
    );
}

/// Nothing is written, and still the replaced file is noticed (within the checkpointer's
/// round) and what the store holds written out.
#[test]
fn a_replaced_database_file_is_noticed_without_a_move() {
    let dir = TempDir::new("damage-replaced");
    let (store, _) = Store::open(dir.db(), shared_data(), options(1000)).expect("opens");
    let game = play(&store, 43, 4);
    std::fs::rename(dir.db(), dir.join("moved.db")).expect("renames");
    std::fs::copy(dir.join("moved.db"), dir.db()).expect("copies");
    let deadline = Instant::now() + Duration::from_secs(5);
    while rescued(&dir).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let saved = rescued(&dir);
    assert_eq!(saved.len(), 1, "noticed without a move: {saved:?}");
    // The next move is refused (it waits for the copy under way).
    let refused = step(&store, game, 43).expect("a move to make");
    assert_eq!(moves_in_copy(&saved[0], game), 4);
    let e = refused.expect_err("no move into a replaced file");
    assert!(e.to_string().contains("replaced"), "{e}");
}

/// How one flipped bit came out, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// Some answer was the generic apology (or start-up failed with a bare database error).
    Generic,
    /// A game changed (its state or seats) and nothing said so.
    Silent,
    /// The damage was found and named: games set aside with their reason, or the file refused
    /// at start-up with what is wrong with it.
    Detected,
    /// Every game is as it was.
    Unchanged,
}

/// Whether a start-up error is the bare database error players and operators cannot act on.
fn generic_error(text: &str) -> bool {
    text.starts_with("database error") || text.contains("worker thread")
}

/// The seeds and lengths of the file's three games.
const GAMES: [(u64, u64); 3] = [(31, 30), (32, 45), (33, 60)];

fn say(chat: &Chat, channel: u64, line: &str) -> Vec<Reply> {
    let owners = [skymines::chat::local_user_id("alice")];
    let mut req = parse_line(line, &owners).expect("parses").expect("a line");
    req.place = Location {
        guild: None,
        channel,
    };
    chat.handle(&req)
}

/// Opens a copy of the file with one flipped bit and asks about every game as a player and
/// an admin would.
fn judge(path: &Path, expected: &[(GameId, String)]) -> (Outcome, String) {
    let internal = skymines::text::english().t("error.internal");
    let (store, report) = match Store::open(path, shared_data(), options(8)) {
        Err(e) if generic_error(&e.to_string()) => return (Outcome::Generic, e.to_string()),
        Err(e) => return (Outcome::Detected, format!("start-up refused: {e}")),
        Ok(opened) => opened,
    };
    let store = Arc::new(store);
    let chat = Chat::new(
        store.clone(),
        Arc::new(ManualClock::new(crate::support::chat::START)),
        owner_alice_config(),
    );
    let mut worst = Outcome::Unchanged;
    let mut notes = Vec::new();
    for ((seed, _), (game, before)) in GAMES.iter().zip(expected) {
        let status = say(&chat, *seed, "alice /skymines status");
        let admin = say(
            &chat,
            *seed,
            &format!("alice /skymines admin report game:{game}"),
        );
        let texts: Vec<String> = status
            .iter()
            .chain(&admin)
            .map(|r| r.text.clone())
            .collect();
        let report_text = private_to(&admin, "alice");
        let outcome = if texts.iter().any(|t| t.contains(&internal)) {
            Outcome::Generic
        } else if report.damaged.iter().any(|(g, _)| g == game)
            || report_text.contains("damaged")
            || texts.iter().any(|t| t.contains("damaged"))
        {
            Outcome::Detected
        } else if now(&store, *game).as_deref() == Some(before.as_str()) {
            Outcome::Unchanged
        } else {
            Outcome::Silent
        };
        if outcome != Outcome::Unchanged {
            notes.push(format!("game {game}: {outcome:?}: {}", texts.join(" | ")));
        }
        worst = worst.min(outcome);
    }
    (worst, notes.join("; "))
}

/// A game's state and seats as text (None: they do not read).
fn now(store: &Store, game: GameId) -> Option<String> {
    let state = store.games().state(game).ok()?;
    let seats = store.people().seats(game).ok()?;
    Some(format!(
        "{}\n{seats:?}",
        serde_json::to_string(&*state).ok()?
    ))
}

#[test]
fn single_bit_flips_are_named_or_harmless_never_a_generic_error() {
    let flips: usize = std::env::var("SKYMINES_FLIPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = TempDir::new("damage-flips");
    let base = dir.join("base.db");
    let expected: Vec<(GameId, String)> = {
        let (store, _) = Store::open(&base, shared_data(), options(8)).expect("opens");
        GAMES
            .iter()
            .map(|(seed, moves)| {
                let game = play(&store, *seed, *moves);
                (game, now(&store, game).expect("the game reads"))
            })
            .collect()
    };
    // Closed: the WAL is in the file now.
    let bytes = std::fs::read(&base).expect("the file reads");
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let mut counts = std::collections::BTreeMap::new();
    let mut generic = Vec::new();
    for trial in 0..flips {
        let (at, bit) = (rng.gen_range(0..bytes.len()), rng.gen_range(0..8u8));
        let mut flipped = bytes.clone();
        flipped[at] ^= 1 << bit;
        let trial_dir = TempDir::new("damage-flip");
        let path = trial_dir.db();
        std::fs::write(&path, &flipped).expect("the copy writes");
        let (outcome, notes) = judge(&path, &expected);
        *counts.entry(outcome).or_insert(0usize) += 1;
        if outcome <= Outcome::Silent {
            println!("flip {trial}: byte {at} bit {bit}: {outcome:?}: {notes}");
        }
        if outcome == Outcome::Generic {
            generic.push(format!("byte {at} bit {bit}: {notes}"));
        }
    }
    println!(
        "{flips} single-bit flips of a {}-byte file of three games: {counts:?}",
        bytes.len()
    );
    assert!(generic.is_empty(), "generic errors: {generic:#?}");
}
