//! Every stored game checked whole (issue #37): damage the start-up check against a replay
//! alone did not see — a missing seat row, a seed that is not the options' seed, a changed move
//! row that still replays, a status nobody knows — sets the game aside with a report naming it;
//! "last good move" is the move before the first bad log entry or snapshot; a damaged game's
//! channel hears why on `/skymines status` and on a move (never the generic apology), and the
//! admin's rollback that mends it also rewrites its seats. On both databases where the damage
//! can be made on both (PostgreSQL when `SKYMINES_TEST_PG_URL` names a server).
//!
//! These tests use only what the store and the chat layer offered before the check came in,
//! so they also run (and fail) on the code before it.

use super::backends::{options, places, Place};
use crate::support::chat::{owner_alice_config, private_to, public_text, Backing, Table};
use crate::support::store::play;
use skymines::store::{GameId, GameStatus, Store};

/// Runs an UPDATE of the append-only move log on either backend (its triggers off meanwhile).
fn tamper_moves(place: &Place, update: &str) {
    match place {
        Place::Sqlite(_) => place.execute(&format!(
            "DROP TRIGGER moves_no_update; {update}; \
             CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves \
             BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;"
        )),
        Place::Postgres(_) => place.execute(&format!(
            "ALTER TABLE moves DISABLE TRIGGER moves_no_update; {update}; \
             ALTER TABLE moves ENABLE TRIGGER moves_no_update;"
        )),
    }
}

/// A torture game of `seed` played to `moves` entries with a snapshot every `k`, then closed.
fn stored_game(place: &Place, seed: u64, moves: u64, k: u64) -> GameId {
    let (store, _) = place.open(k);
    let game = play(&store, seed, moves);
    assert_eq!(store.games().log(game).expect("log").len() as u64, moves);
    game
}

/// The start-up report's reason for `game`, which must be set aside.
fn damage_reason(store: &Store, damaged: &[(GameId, String)], game: GameId, name: &str) -> String {
    let reason = damaged
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, r)| r.clone())
        .unwrap_or_else(|| panic!("{name}: game {game} not set aside: {damaged:?}"));
    let record = store.games().game(game).expect("record");
    assert_eq!(record.status, GameStatus::Damaged, "{name}");
    let refused = store
        .games()
        .apply(game, 0, &[])
        .expect_err("a damaged game takes no move");
    assert!(refused.to_string().contains("damaged"), "{name}: {refused}");
    reason
}

#[test]
fn a_missing_seat_row_sets_the_game_aside_and_the_rollback_re_seats_it() {
    for place in places("integrity-seat") {
        let name = place.name();
        let game = stored_game(&place, 11, 24, 8);
        place.execute(&format!(
            "DELETE FROM seats WHERE game_id = {game} AND seat = 1"
        ));
        let (store, report) = place.open(8);
        let reason = damage_reason(&store, &report.damaged, game, name);
        assert!(
            reason.contains("seat 1") && reason.contains("no seat row"),
            "{name}: {reason}"
        );
        // Its moves all hold up: the rollback to the last one brings it back, re-seated.
        let history = store.admin().history(game).expect("history");
        assert_eq!((history.last_good, history.entries), (24, 24), "{name}");
        let out = store
            .games()
            .rollback(game, 24, 7, None)
            .expect("the rollback mends it");
        assert!(out.revived, "{name}");
        let seats = store.people().seats(game).expect("seats");
        let state = store.games().state(game).expect("state");
        assert_eq!(seats.len(), state.seats.len(), "{name}");
        assert_eq!(seats[1].name, state.seats[1].name, "{name}");
        drop(store);
        let (store, report) = place.open(8);
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        assert!(store.games().is_live(game), "{name}");
    }
}

#[test]
fn a_seat_name_that_is_not_the_games_sets_it_aside() {
    for place in places("integrity-name") {
        let name = place.name();
        let game = stored_game(&place, 12, 10, 8);
        place.execute(&format!(
            "UPDATE seats SET name = 'mallory' WHERE game_id = {game} AND seat = 0"
        ));
        let (store, report) = place.open(8);
        let reason = damage_reason(&store, &report.damaged, game, name);
        assert!(
            reason.contains("seat 0") && reason.contains("mallory"),
            "{name}: {reason}"
        );
    }
}

#[test]
fn a_seed_that_is_not_the_options_seed_sets_the_game_aside() {
    for place in places("integrity-seed") {
        let name = place.name();
        let game = stored_game(&place, 13, 10, 8);
        place.execute(&format!(
            "UPDATE games SET seed = seed + 1 WHERE id = {game}"
        ));
        let (store, report) = place.open(8);
        let reason = damage_reason(&store, &report.damaged, game, name);
        assert!(reason.contains("seed"), "{name}: {reason}");
    }
}

/// A move row changed after it was written (here only its time, so it still decodes and
/// replays exactly as before) no longer matches its checksum.
#[test]
fn a_changed_move_row_is_found_by_its_checksum() {
    for place in places("integrity-checksum") {
        let name = place.name();
        let game = stored_game(&place, 14, 20, 8);
        tamper_moves(
            &place,
            &format!("UPDATE moves SET at = at + 1 WHERE game_id = {game} AND seq = 15"),
        );
        let (store, report) = place.open(8);
        let reason = damage_reason(&store, &report.damaged, game, name);
        assert!(
            reason.contains("log entry 15") && reason.contains("checksum"),
            "{name}: {reason}"
        );
        let history = store.admin().history(game).expect("history");
        assert_eq!((history.last_good, history.entries), (14, 20), "{name}");
    }
}

/// A log entry that does not decode: the last good move is the one before it (it was 0).
#[test]
fn a_bad_log_entry_makes_the_move_before_it_the_last_good_one() {
    for place in places("integrity-entry") {
        let name = place.name();
        let game = stored_game(&place, 15, 60, 10);
        tamper_moves(
            &place,
            &format!("UPDATE moves SET seat = -1 WHERE game_id = {game} AND seq = 30"),
        );
        let (store, report) = place.open(10);
        let reason = damage_reason(&store, &report.damaged, game, name);
        assert!(reason.contains("log entry 30"), "{name}: {reason}");
        let history = store.admin().history(game).expect("history");
        assert_eq!((history.last_good, history.entries), (29, 60), "{name}");
        store
            .games()
            .rollback(game, 29, 7, None)
            .expect("back to the last good move");
    }
}

/// A bad latest snapshot, as text that is not UTF-8 and as JSON of no state: the last good
/// move is the one before it, either way (it was 0 for the first).
#[test]
fn a_bad_snapshot_makes_the_move_before_it_the_last_good_one() {
    for (i, bad) in ["CAST(X'FF7B' AS TEXT)", "'{}'"].into_iter().enumerate() {
        let place = Place::Sqlite(crate::support::TempDir::new("integrity-snapshot"));
        let game = stored_game(&place, 16 + i as u64, 60, 10);
        place.execute(&format!(
            "UPDATE snapshots SET state = {bad} WHERE game_id = {game} AND seq = 60"
        ));
        let (store, report) = place.open(10);
        let reason = damage_reason(&store, &report.damaged, game, bad);
        assert!(reason.contains("snapshot"), "{bad}: {reason}");
        let history = store.admin().history(game).expect("history");
        assert_eq!((history.last_good, history.entries), (59, 60), "{bad}");
    }
}

/// A status byte flipped into one nobody knows made a running game vanish from start-up.
#[test]
fn a_game_with_an_unknown_status_is_set_aside_not_lost() {
    let place = Place::Sqlite(crate::support::TempDir::new("integrity-status"));
    let game = stored_game(&place, 17, 10, 8);
    place.execute(&format!(
        "PRAGMA ignore_check_constraints = ON; UPDATE games SET status = 'activf' WHERE id = {game}"
    ));
    let (store, report) = place.open(8);
    let reason = damage_reason(&store, &report.damaged, game, "sqlite");
    assert!(reason.contains("status"), "{reason}");
}

/// Runs SQL on the table's database (a hand edit or a disk fault while the bot runs).
fn run_sql(backing: &Backing, sql: &str) {
    match backing {
        Backing::Sqlite(dir) => rusqlite::Connection::open(dir.db())
            .expect("open")
            .execute_batch(sql)
            .expect("SQL runs"),
        Backing::Postgres(db) => postgres::Client::connect(db.url(), postgres::NoTls)
            .expect("connect")
            .batch_execute(sql)
            .expect("SQL runs"),
    }
}

/// The chat table on `backing` with a torture game of `seed` in its channel, played to
/// `moves`, its seat 0 alice's.
fn table_with_game(backing: Backing, seed: u64, moves: u64) -> (Table, GameId) {
    let mut table = Table::on(backing, options(8), owner_alice_config());
    let game = play(&table.store(), seed, moves);
    table.place.channel = seed;
    let alice = skymines::chat::local_user_id("alice") as i64;
    run_sql(
        &table.backing,
        &format!(
            "UPDATE seats SET kind = 'discord', user_id = {alice} WHERE game_id = {game} AND seat = 0"
        ),
    );
    (table, game)
}

/// The text of every reply.
fn all_text(replies: &[skymines::chat::Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A damaged game's channel hears what is wrong on `/skymines status` and on a move, never
/// "something went wrong"; the admin report sets a running game it finds broken aside (never
/// "healthy") and names the problem and what mends it (for a missing seat: the rollback that
/// re-seats), and that mend works.
#[test]
fn a_damaged_games_channel_and_admin_hear_what_is_wrong() {
    let internal = skymines::text::english().t("error.internal");
    for backing in Backing::both("integrity-chat") {
        let (mut table, game) = table_with_game(backing, 21, 12);
        // Damaged while the bot runs: the report finds it.
        run_sql(
            &table.backing,
            &format!("DELETE FROM seats WHERE game_id = {game} AND seat = 1"),
        );
        let text = private_to(
            &table.say(&format!("alice /skymines admin report game:{game}")),
            "alice",
        );
        assert!(!text.contains("healthy"), "{text}");
        assert!(
            text.contains("damaged") && text.contains("seat 1") && text.contains("no seat row"),
            "{text}"
        );
        assert!(
            text.contains(&format!("/skymines admin rollback game:{game} move:12")),
            "{text}"
        );
        assert_eq!(
            table.store().games().game(game).expect("record").status,
            GameStatus::Damaged
        );
        for line in [
            "alice /skymines status",
            "alice /undo",
            "bob /undo",
            "bob /pass",
        ] {
            let all = all_text(&table.say(line));
            assert!(!all.contains(&internal), "{line}: {all}");
            assert!(
                all.contains("damaged") && all.contains("seat 1"),
                "{line}: {all}"
            );
        }
        // The mend the report named.
        let replies = table.say(&format!(
            "alice /skymines admin rollback game:{game} move:12"
        ));
        assert!(
            public_text(&replies).contains(&format!("#{game}")),
            "{replies:?}"
        );
        assert_eq!(
            table.store().people().seats(game).expect("seats").len(),
            table
                .store()
                .games()
                .state(game)
                .expect("state")
                .seats
                .len()
        );
        let report = table.say(&format!("alice /skymines admin report game:{game}"));
        assert!(private_to(&report, "alice").contains("healthy"));
    }
}

/// A game whose stored seed is not a number: its channel's status says so (it was the generic
/// apology), and the report says no rollback mends it.
#[test]
fn a_game_row_that_does_not_read_is_explained_not_apologised_for() {
    let internal = skymines::text::english().t("error.internal");
    let (table, game) = table_with_game(Backing::sqlite("integrity-row"), 22, 6);
    run_sql(
        &table.backing,
        &format!("UPDATE games SET seed = 'not a number' WHERE id = {game}"),
    );
    // A restart: start-up sets the game aside.
    let mut table = table.reopened(owner_alice_config());
    let text = all_text(&table.say("alice /skymines status"));
    assert!(!text.contains(&internal), "{text}");
    assert!(text.contains("damaged") && text.contains("seed"), "{text}");
    let report = private_to(
        &table.say(&format!("alice /skymines admin report game:{game}")),
        "alice",
    );
    assert!(
        report.contains("seed") && report.contains("backup"),
        "{report}"
    );
    assert!(!report.contains("admin rollback"), "{report}");
}
