//! Games stored by older engine versions and other data: they continue from their snapshots
//! (the check against a replay is skipped), and the games of engines 1, 3 and 4 restore and
//! play on with the rules they were stored under.

use super::basics::sql;
use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rusqlite::Connection;
use skymines::engine::{self, GameState, Phase, ENGINE_VERSION};
use skymines::store::replay;
use skymines::store::torture::{next_move, torture_game, Move};
use skymines::store::{Location, LogEntry, NewGame, NewSeat, Notify, SeatOwner};

/// After an engine upgrade (or with other data) games continue from their snapshots, without
/// the replay check.
#[test]
fn other_engine_versions_and_data_continue_from_the_snapshot() {
    for column in ["engine_version", "data_hash"] {
        let dir = TempDir::new("basics-upgrade");
        let (store, _) = open(&dir.db(), 4);
        let game = play(&store, 48, 14);
        drop(store);
        let conn = sql(&dir);
        let value = if column == "engine_version" {
            format!("{}", ENGINE_VERSION + 1)
        } else {
            "'0000'".to_string()
        };
        conn.execute(&format!("UPDATE games SET {column} = {value}"), [])
            .expect("age the game");
        // The snapshot is authoritative: change it, and the game continues from it.
        let text: String = conn
            .query_row(
                "SELECT state FROM snapshots WHERE game_id = ?1 AND seq = 12",
                [game],
                |r| r.get(0),
            )
            .expect("snapshot");
        let mut state: GameState = serde_json::from_str(&text).expect("state");
        state.seats[1].coins += 3;
        conn.execute(
            "UPDATE snapshots SET state = ?2 WHERE game_id = ?1 AND seq = 12",
            rusqlite::params![game, serde_json::to_string(&state).expect("json")],
        )
        .expect("update");
        drop(conn);
        let (store, report) = open(&dir.db(), 4);
        assert_eq!(report.restored, 1, "{column}");
        assert_eq!(report.verified, 0, "{column}");
        assert_eq!(report.unverified.len(), 1, "{column}");
        assert!(report.damaged.is_empty());
        let log = store.games().log(game).expect("log");
        let undone = replay::undone_set(&log);
        let continued =
            replay::replay_onto(&data(), state, log.iter().filter(|e| e.seq() > 12), &undone)
                .expect("replays");
        assert_eq!(*store.games().live_state(game).expect("state").0, continued);
        // And it plays on.
        let before = store.games().game(game).expect("game").seq;
        let seq = step(&store, game, 48).expect("a move").expect("stored");
        assert_eq!(seq, before + 1);
    }
}

/// Makes a new game look as if engine version `version` had written it: its game row and its
/// set-up snapshot say that version. Returns the set-up state.
fn age_game(dir: &TempDir, game: i64, version: u32) -> GameState {
    let conn = sql(dir);
    let mut start = stored_snapshot(&conn, game, 0);
    start.engine_version = version;
    conn.execute(
        "UPDATE snapshots SET state = ?2, engine_version = ?3 WHERE game_id = ?1 AND seq = 0",
        rusqlite::params![game, serde_json::to_string(&start).expect("json"), version],
    )
    .expect("age the snapshot");
    conn.execute(
        "UPDATE games SET engine_version = ?2 WHERE id = ?1",
        rusqlite::params![game, version],
    )
    .expect("age the game");
    start
}

/// The stored snapshot of move `seq`.
fn stored_snapshot(conn: &Connection, game: i64, seq: u64) -> GameState {
    let text: String = conn
        .query_row(
            "SELECT state FROM snapshots WHERE game_id = ?1 AND seq = ?2",
            rusqlite::params![game, seq as i64],
            |r| r.get(0),
        )
        .expect("the snapshot");
    serde_json::from_str(&text).expect("a state")
}

/// A Luna game stored under engine version 1, before Luna drew both majority cards ahead of
/// their reveals (DECISIONS A15): its moves after the last snapshot cross the start of round 2,
/// where her left card's reveal reaches a Luna token, so the two orders differ there. It
/// restores without being marked damaged and plays on with the old order (DECISIONS B18).
#[test]
fn a_luna_game_stored_under_engine_1_restores_and_plays_on_with_the_old_majority_order() {
    // Level 8, solo, seed 17: move 16 (all planned for round 2) is where the orders differ.
    let (seed, crossing, moves) = (17u64, 16u64, 20u64);
    let options = engine::GameOptions {
        players: 1,
        luna: Some(8),
        seed,
        ..Default::default()
    };
    let dir = TempDir::new("basics-old-luna");
    let (store, _) = open(&dir.db(), 15);
    let (game, _) = store
        .games()
        .create_game(NewGame {
            location: Location {
                guild: None,
                channel: 61,
            },
            options,
            seats: vec![NewSeat {
                owner: SeatOwner::Local,
                name: "Ann".to_string(),
                notify: Notify::Ephemeral,
            }],
            bot_level: None,
            language: None,
            waits: None,
        })
        .expect("the game is created");
    drop(store);
    // What engine version 1 wrote: the game row and its set-up snapshot say version 1.
    age_game(&dir, game, 1);
    // Played under version 1 (its state carries the version), without undos.
    let (store, _) = open(&dir.db(), 15);
    for seq in 0..moves {
        let (state, _) = store.games().live_state(game).expect("state");
        let Some(Move::Batch { seat, decisions }) = next_move(&data(), &state, None, seed, seq)
        else {
            panic!("move {seq}: the game goes on");
        };
        store
            .games()
            .apply(game, seat, &decisions)
            .expect("the move stores");
    }
    let (played, seq) = store.games().live_state(game).expect("state");
    assert_eq!(seq, moves);
    assert_eq!(played.engine_version, 1);
    assert_eq!(played.round, 2);
    let log = store.games().log(game).expect("log");
    drop(store);

    // The last snapshot is move 15; the moves after it cross the round start at move 16, and
    // there the new order would give Luna other cards.
    let conn = sql(&dir);
    let last: i64 = conn
        .query_row(
            "SELECT max(seq) FROM snapshots WHERE game_id = ?1",
            [game],
            |r| r.get(0),
        )
        .expect("snapshots");
    assert_eq!(last, 15);
    assert!(crossing > last as u64 && crossing <= moves);
    let snapshot = stored_snapshot(&conn, game, 15);
    drop(conn);
    assert_eq!(snapshot.engine_version, 1);
    let before = log.iter().filter(|e| e.seq() > 15 && e.seq() < crossing);
    let at_crossing =
        replay::replay_onto(&data(), snapshot, before, &Default::default()).expect("replays");
    let entry = log.iter().filter(|e| e.seq() == crossing);
    let old = replay::replay_onto(
        &data(),
        at_crossing.clone(),
        entry.clone(),
        &Default::default(),
    )
    .expect("the old order");
    let mut newer = at_crossing;
    newer.engine_version = ENGINE_VERSION;
    let new = replay::replay_onto(&data(), newer, entry, &Default::default()).expect("new order");
    let luna = old.seats.len() - 1;
    assert_eq!(old.round, 2);
    assert_ne!(
        old.seats[luna].luna, new.seats[luna].luna,
        "the order matters at move {crossing}"
    );

    // Restored without the replay check, not damaged, with the old order, and it plays on.
    let (store, report) = open(&dir.db(), 15);
    assert_eq!(report.restored, 1);
    assert!(report.damaged.is_empty(), "{:?}", report.damaged);
    assert_eq!(report.unverified.len(), 1);
    let (restored, _) = store.games().live_state(game).expect("state");
    assert_eq!(*restored, *played);
    let seq = step(&store, game, seed).expect("a move").expect("stored");
    assert_eq!(seq, moves + 1);
    assert_eq!(
        store
            .games()
            .live_state(game)
            .expect("state")
            .0
            .engine_version,
        1
    );
}

/// A game stored under engine version 3, before a Moon sector became one option (its column a
/// second question when it matters) and before dropping out in the last round stopped asking
/// which resting deck to take and where to rest each card (issue 18, engine version 4): its
/// moves after the last snapshot enter sectors the old way and cross such a drop-out, whose
/// answers the new version would refuse. It restores without being marked damaged, with the answers it was played with, and
/// plays on under version 3 (DECISIONS B18).
#[test]
fn a_game_stored_under_engine_3_restores_with_its_last_round_drop_out_answers() {
    let seed = 5u64;
    let options = engine::GameOptions {
        players: 2,
        seed,
        ..Default::default()
    };
    let dir = TempDir::new("basics-old-drop-out");
    // Only the set-up snapshot: every move is replayed on restore.
    let (store, _) = open(&dir.db(), 100_000);
    let (game, _) = store
        .games()
        .create_game(NewGame {
            location: Location {
                guild: None,
                channel: 62,
            },
            options,
            seats: ["Ann", "Ben"]
                .map(|name| NewSeat {
                    owner: SeatOwner::Local,
                    name: name.to_string(),
                    notify: Notify::Ephemeral,
                })
                .to_vec(),
            bot_level: None,
            language: None,
            waits: None,
        })
        .expect("the game is created");
    drop(store);
    let start = age_game(&dir, game, 3);
    // Played under version 3 past a drop-out in the last round and the questions it asked.
    let (store, _) = open(&dir.db(), 100_000);
    let last_round = start.specials.len() as u8 + 1;
    let (mut crossing, mut answered) = (None, false);
    for seq in 0..5_000u64 {
        let (state, _) = store.games().live_state(game).expect("state");
        let Some(Move::Batch { seat, decisions }) = next_move(&data(), &state, None, seed, seq)
        else {
            panic!("move {seq}: the game goes on");
        };
        let last = state.round == last_round;
        let drops = last && decisions.contains(&engine::Decision::DropOut);
        answered |= last
            && decisions.iter().any(|d| {
                matches!(
                    d,
                    engine::Decision::TakeRestingDeck { .. } | engine::Decision::RestCard { .. }
                )
            });
        let outcome = store
            .games()
            .apply(game, seat, &decisions)
            .expect("the move stores");
        if drops && crossing.is_none() {
            crossing = Some(outcome.seq);
        }
        if answered {
            break;
        }
    }
    let crossing = crossing.expect("a seat dropped out in the last round");
    assert!(answered, "version 3 asked where to rest the cards");
    let (played, played_seq) = store.games().live_state(game).expect("state");
    assert!(played_seq >= crossing);
    assert_eq!(played.engine_version, 3);
    let log = store.games().log(game).expect("log");
    drop(store);
    // Its sectors were entered the old way, one option per column, which still replays.
    let per_column = log.iter().any(|e| match e {
        LogEntry::Batch { decisions, .. } => decisions
            .iter()
            .any(|d| matches!(d, engine::Decision::EnterSector { .. })),
        _ => false,
    });
    assert!(per_column, "version 3 entered sectors with their column");

    // From the drop-out on, version 4 plays these moves otherwise (or refuses them).
    let none = Default::default();
    let before = log.iter().filter(|e| e.seq() < crossing);
    let at_crossing = replay::replay_onto(&data(), start, before, &none).expect("replays");
    let after = log.iter().filter(|e| e.seq() >= crossing);
    let old = replay::replay_onto(&data(), at_crossing.clone(), after.clone(), &none)
        .expect("the old questions");
    let mut newer = at_crossing;
    newer.engine_version = ENGINE_VERSION;
    assert!(
        replay::replay_onto(&data(), newer, after, &none).map_or(true, |new| new != old),
        "version 4 asks nothing there"
    );

    // Restored, not damaged, equal to what was played, and it plays on under version 3.
    let (store, report) = open(&dir.db(), 100_000);
    assert!(report.damaged.is_empty(), "{:?}", report.damaged);
    let (restored, _) = store.games().live_state(game).expect("state");
    assert_eq!(*restored, *played);
    assert_eq!(*restored, old);
    if restored.phase != Phase::Finished {
        let seq = step(&store, game, seed).expect("a move").expect("stored");
        assert_eq!(seq, played_seq + 1);
        assert_eq!(
            store
                .games()
                .live_state(game)
                .expect("state")
                .0
                .engine_version,
            3
        );
    }
}

/// DECISIONS B18 for issue 19's starting-token rule (engine version 5, DECISIONS A17): a game
/// stored under engine version 4, whose moves after its last snapshot put a plan on the
/// starting screen (allowed then), restores without being marked damaged, keeps that plan and
/// plays on; the same moves under the new rule are refused.
#[test]
fn a_game_stored_under_engine_4_keeps_a_plan_covering_the_starting_token() {
    let covered = |s: &GameState| {
        s.seats.iter().any(|seat| {
            seat.research[0].is_some_and(|p| p.plan != skymines::engine::state::PlanRef::Token)
        })
    };
    // The first torture seed whose version-4 game covers a starting token (the policy then
    // places a plan there now and again), with snapshots rare enough that it comes after the last.
    let mut found = None;
    for seed in 1..60u64 {
        let dir = TempDir::new("basics-old-token");
        let (store, _) = open(&dir.db(), 100_000);
        let game = torture_game(&store, seed).expect("the game is created");
        drop(store);
        let start = age_game(&dir, game, 4);
        let (store, _) = open(&dir.db(), 100_000);
        let mut hit = None;
        for _ in 0..400 {
            let Some(Ok(seq)) = step(&store, game, seed) else {
                break;
            };
            let Ok((state, _)) = store.games().live_state(game) else {
                break;
            };
            if covered(&state) {
                hit = Some(seq);
                break;
            }
        }
        if let Some(seq) = hit {
            drop(store);
            found = Some((dir, game, seed, seq, start));
            break;
        }
    }
    let (dir, game, seed, seq, start) = found.expect("a version-4 game covers a starting token");
    let conn = sql(&dir);
    let last: i64 = conn
        .query_row(
            "SELECT max(seq) FROM snapshots WHERE game_id = ?1",
            [game],
            |r| r.get(0),
        )
        .expect("snapshots");
    drop(conn);
    assert!(
        (last as u64) < seq,
        "the covering move ({seq}) is after the last snapshot ({last})"
    );

    let (store, report) = open(&dir.db(), 100_000);
    assert_eq!(report.restored, 1);
    assert!(report.damaged.is_empty(), "{:?}", report.damaged);
    let (restored, at) = store.games().live_state(game).expect("state");
    assert_eq!(at, seq);
    assert_eq!(restored.engine_version, 4);
    assert!(covered(&restored), "the old rule's plan stays");
    let log = store.games().log(game).expect("log");
    let mut newer = start;
    newer.engine_version = ENGINE_VERSION;
    assert!(
        replay::replay_onto(&data(), newer, log.iter(), &replay::undone_set(&log)).is_err(),
        "the new rule refuses the covering move"
    );
    let next = step(&store, game, seed).expect("a move").expect("stored");
    assert_eq!(next, seq + 1);
    assert_eq!(
        store
            .games()
            .live_state(game)
            .expect("state")
            .0
            .engine_version,
        4
    );
}
