//! The store's everyday behaviour: games, moves, snapshots, undo records, restore with the
//! replay check, damaged games, upgrades, export/import, notifications, reminders, images,
//! campaigns and the configuration key. Games stored by older engine versions are `upgrades`'.

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rusqlite::Connection;
use skymines::engine::{self, GameState, Phase, ENGINE_VERSION};
use skymines::store::export::{state_digest, GameExport};
use skymines::store::replay;
use skymines::store::torture::{next_move, torture_game, Move};
use skymines::store::{
    config, FailPoint, GameStatus, Location, LogEntry, MoveEffects, NewGame, NewSeat, Notify,
    SeatOwner, Store, StoreError, WaitPlan,
};

pub(super) fn sql(dir: &TempDir) -> Connection {
    Connection::open(dir.db()).expect("open")
}

pub(super) fn count(conn: &Connection, query: &str) -> i64 {
    conn.query_row(query, [], |r| r.get(0)).expect("count")
}

#[test]
fn moves_are_numbered_logged_and_snapshotted_every_k() {
    let dir = TempDir::new("basics-moves");
    let (store, _) = open(&dir.db(), 5);
    let game = play(&store, 40, 23);
    let rec = store.games().game(game).expect("game");
    assert_eq!(rec.seq, 23);
    assert_eq!(rec.status, GameStatus::Active);
    assert_eq!(rec.engine_version, ENGINE_VERSION);
    assert_eq!(rec.data_hash, data().hash);
    let log = store.games().log(game).expect("log");
    let seqs: Vec<u64> = log.iter().map(LogEntry::seq).collect();
    assert_eq!(seqs, (1..=23).collect::<Vec<_>>());
    let (state, seq) = store.games().live_state(game).expect("state");
    assert_eq!(seq, 23);
    assert_eq!(*state, expected(40, 23));
    assert_eq!(
        *state,
        replay::replay_from_seed(&data(), &rec.options, &rec.seat_names, &log).expect("replays")
    );
    drop(store);
    let conn = sql(&dir);
    // Set-up, every 5th move, and every undo.
    let undos: Vec<u64> = log
        .iter()
        .filter(|e| matches!(e, LogEntry::Undo { .. }))
        .map(LogEntry::seq)
        .collect();
    let mut want: Vec<u64> = (0..=23).filter(|s| s % 5 == 0).chain(undos).collect();
    want.sort();
    want.dedup();
    let mut stmt = conn
        .prepare("SELECT seq FROM snapshots WHERE game_id = ?1 ORDER BY seq")
        .expect("prepare");
    let have: Vec<u64> = stmt
        .query_map([game], |r| r.get::<_, i64>(0))
        .expect("query")
        .map(|r| r.expect("row") as u64)
        .collect();
    assert_eq!(have, want);
    assert_eq!(
        count(&conn, "SELECT count(*) FROM board_images WHERE png IS NULL"),
        24,
        "one image row per stored state version"
    );
}

#[test]
fn old_snapshots_are_pruned_but_the_setup_one_stays() {
    let dir = TempDir::new("basics-prune");
    let options = skymines::store::StoreOptions {
        snapshot_every: 4,
        snapshot_window: 12,
        ..Default::default()
    };
    let (store, _) = Store::open(dir.db(), data(), options.clone()).expect("open");
    let game = play(&store, 41, 60);
    drop(store);
    let conn = sql(&dir);
    let oldest_kept = count(&conn, "SELECT min(seq) FROM snapshots WHERE seq > 0");
    assert!(oldest_kept >= 60 - 12 - 4, "oldest kept {oldest_kept}");
    assert_eq!(
        count(&conn, "SELECT count(*) FROM snapshots WHERE seq = 0"),
        1
    );
    let (store, report) = Store::open(dir.db(), data(), options).expect("open");
    assert_eq!(report.verified, 1);
    assert_eq!(
        *store.games().live_state(game).expect("state").0,
        expected(41, 60)
    );
}

#[test]
fn a_refused_decision_changes_nothing() {
    let dir = TempDir::new("basics-refused");
    let (store, _) = open(&dir.db(), 3);
    let game = play(&store, 42, 6);
    // On to a position where someone is not to move.
    let data = data();
    let mut not_your_turn = 0;
    for _ in 0..200 {
        let (before, seq) = store.games().live_state(game).expect("state");
        let waiting = engine::waiting_on(&before);
        let d = engine::legal_decisions(&data, &before, waiting[0])[0];
        if let Some(idle) = (0..before.seats.len()).find(|s| !waiting.contains(s)) {
            if let Err(err) = store.games().apply(game, idle, &[d]) {
                assert!(matches!(err, StoreError::Rule(_)), "{err}");
                not_your_turn += usize::from(matches!(
                    err,
                    StoreError::Rule(engine::RuleError::NotYourTurn(_))
                ));
            } else {
                // The other seat's decision happened to be legal for this one too.
                continue;
            }
        }
        // A batch with an illegal decision after a legal one is refused as a whole.
        let err = store
            .games()
            .apply(
                game,
                waiting[0],
                &[d, engine::Decision::BuyCard { space: 200 }],
            )
            .expect_err("buying from display space 200 is illegal");
        assert!(matches!(err, StoreError::Rule(_)), "{err}");
        let (after, seq_after) = store.games().live_state(game).expect("state");
        assert_eq!(*after, *before);
        assert_eq!(seq_after, seq);
        assert_eq!(store.games().log(game).expect("log").len() as u64, seq);
        assert!(matches!(
            store.games().apply(game, 9, &[d]),
            Err(StoreError::Rule(engine::RuleError::NoSuchSeat(9)))
        ));
        step(&store, game, 42).expect("a move").expect("stored");
    }
    assert!(not_your_turn > 10, "{not_your_turn}");
}

#[test]
fn one_active_game_per_channel() {
    let dir = TempDir::new("basics-channel");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 43, 2);
    let again = NewGame {
        location: Location {
            guild: Some(1),
            channel: 43,
        },
        options: skymines::store::torture::torture_options(7),
        seats: skymines::sim::seat_names(3)
            .into_iter()
            .map(|name| NewSeat {
                owner: SeatOwner::Discord(0xFFFF_FFFF_FFFF_0000),
                name,
                notify: Notify::Dm,
            })
            .collect(),
        bot_level: None,
        language: None,
        waits: None,
    };
    let err = store.games().create_game(again.clone()).expect_err("busy");
    assert!(matches!(err, StoreError::ChannelBusy), "{err}");
    store.games().abandon(game).expect("abandon");
    assert_eq!(
        store.games().game(game).expect("game").status,
        GameStatus::Abandoned
    );
    assert!(matches!(
        store.games().apply(game, 0, &[engine::Decision::PlanDone]),
        Err(StoreError::NotActive { .. })
    ));
    let (second, _) = store
        .games()
        .create_game(again)
        .expect("the channel is free again");
    let seats = store.people().seats(second).expect("seats");
    assert_eq!(seats.len(), 3);
    assert_eq!(seats[0].owner, SeatOwner::Discord(0xFFFF_FFFF_FFFF_0000));
    assert_eq!(seats[0].notify, Notify::Dm);
    store
        .people()
        .set_notify(second, 1, Notify::Ephemeral)
        .expect("set");
    assert_eq!(
        store.people().seats(second).expect("seats")[1].notify,
        Notify::Ephemeral
    );
    assert!(matches!(
        store.people().set_notify(second, 7, Notify::Dm),
        Err(StoreError::NoSuchSeat(7))
    ));
    assert_eq!(
        store.games().game_in_channel(43).expect("lookup"),
        Some(second)
    );
    assert_eq!(
        store.games().game(second).expect("game").location,
        Location {
            guild: Some(1),
            channel: 43
        }
    );
}

/// Undo appends a record; the reverted batch stays in the log; replay honours it.
#[test]
fn undo_is_recorded_and_replayed() {
    let dir = TempDir::new("basics-undo");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 44, 10);
    let (before, _) = store.games().live_state(game).expect("state");
    let data = data();
    // A batch of the seat to move, then its undo.
    let seat = engine::waiting_on(&before)[0];
    let legal = engine::legal_decisions(&data, &before, seat);
    let moved = store.games().apply(game, seat, &legal[..1]).expect("move");
    let undo = store.games().undo(game, seat).expect("undo");
    assert_eq!(undo.undone, moved.seq);
    assert_eq!(undo.seq, moved.seq + 1);
    assert_eq!(*undo.state, *before);
    let log = store.games().log(game).expect("log");
    assert!(matches!(log.last(), Some(LogEntry::Undo { undoes, .. }) if *undoes == moved.seq));
    assert!(
        matches!(log[moved.seq as usize - 1], LogEntry::Batch { .. }),
        "the batch stays"
    );
    // The same batch cannot be undone twice; a seat that never moved has nothing to undo.
    let seats = before.seats.len();
    let fresh = torture_game(&store, 1044).expect("game");
    for s in 0..seats.min(2) {
        assert!(matches!(
            store.games().undo(fresh, s),
            Err(StoreError::NothingToUndo { .. })
        ));
    }
    assert!(matches!(
        store.games().undo(game, 17),
        Err(StoreError::NoSuchSeat(17))
    ));
    drop(store);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.damaged, vec![]);
    assert_eq!(*store.games().live_state(game).expect("state").0, *before);
}

/// Undoing a batch with a later move of another seat after it is refused and changes nothing
/// (DECISIONS B6: no other seat's batch may lie after a batch that is undone).
#[test]
fn undo_past_another_seats_move_is_refused() {
    let mut refused = 0;
    for seed in 50..70u64 {
        let dir = TempDir::new("basics-undo-back");
        let (store, _) = open(&dir.db(), 3);
        let game = play(&store, seed, 25);
        let log = store.games().log(game).expect("log");
        let undone = replay::undone_set(&log);
        let Some(LogEntry::Batch { seat, .. }) = log.last() else {
            continue;
        };
        // A seat whose last batch is not the last entry.
        let others: Vec<usize> = (0..4).filter(|s| s != seat).collect();
        let Some(victim) = others.iter().copied().find(|&s| {
            log.iter().any(
                |e| matches!(e, LogEntry::Batch { seat: b, seq, .. } if *b == s && !undone.contains(seq)),
            )
        }) else {
            continue;
        };
        let (before, seq) = store.games().live_state(game).expect("state");
        match store.games().undo(game, victim) {
            Err(StoreError::UndoAfterOthers { seat }) => {
                assert_eq!(seat, victim);
                refused += 1;
                let (after, seq_after) = store.games().live_state(game).expect("state");
                assert_eq!((*after == *before, seq_after), (true, seq));
                assert_eq!(store.games().log(game).expect("log").len() as u64, seq);
            }
            other => panic!("seed {seed}: {other:?}"),
        }
        // The last mover may still take its own batch back.
        store
            .games()
            .undo(game, *seat)
            .expect("the last batch is its seat's to undo");
    }
    assert!(refused > 5, "{refused} refused");
}

#[test]
fn a_finished_game_frees_its_channel_and_stays_readable() {
    let dir = TempDir::new("basics-finish");
    let (store, _) = open(&dir.db(), 16);
    let game = play(&store, 45, 100_000);
    let rec = store.games().game(game).expect("game");
    assert_eq!(rec.status, GameStatus::Finished);
    let state = store.games().state(game).expect("a finished game's state");
    assert_eq!(state.phase, Phase::Finished);
    let (reference, moves) = skymines::store::torture::reference(&data(), 45, 100_000);
    assert_eq!(moves, rec.seq);
    assert_eq!(*state, reference);
    assert_eq!(store.games().game_in_channel(45).expect("lookup"), None);
    assert!(!store.games().is_live(game));
    assert!(matches!(
        store.games().apply(game, 0, &[engine::Decision::PlanDone]),
        Err(StoreError::NotActive {
            status: GameStatus::Finished,
            ..
        })
    ));
    assert!(matches!(
        store.games().undo(game, 0),
        Err(StoreError::NotActive { .. })
    ));
    drop(store);
    let (store, report) = open(&dir.db(), 16);
    assert_eq!(report.restored, 0);
    assert_eq!(*store.games().state(game).expect("state"), reference);
}

/// A stored state that disagrees with a replay from the seed marks the game damaged, with a
/// report; nothing in the file is "repaired".
#[test]
fn a_tampered_snapshot_or_log_marks_the_game_damaged() {
    for what in ["snapshot", "log"] {
        let dir = TempDir::new("basics-damaged");
        let (store, _) = open(&dir.db(), 4);
        let game = play(&store, 46, 18);
        let healthy = play(&store, 47, 9);
        drop(store);
        let conn = sql(&dir);
        let (tampered_seq, tampered): (i64, String) = if what == "snapshot" {
            tamper_latest_snapshot(&conn, game)
        } else {
            // Rewrite the history under the store: swap the log for another game's (bypassing
            // the append-only trigger the way a broken disk or a hand edit could).
            conn.execute_batch("DROP TRIGGER moves_no_update;")
                .expect("drop");
            let n = conn
                .execute(
                    "UPDATE moves SET seat = (seat + 1) % 2 WHERE game_id = ?1 AND seq = 1",
                    [game],
                )
                .expect("tamper");
            assert_eq!(n, 1);
            (1, String::new())
        };
        drop(conn);
        let (store, report) = open(&dir.db(), 4);
        assert_eq!(report.restored, 1, "{what}: the healthy game is restored");
        assert_eq!(report.damaged.len(), 1, "{what}");
        assert_eq!(report.damaged[0].0, game);
        let rec = store.games().game(game).expect("game");
        assert_eq!(rec.status, GameStatus::Damaged);
        let text = rec.damage_report.expect("a report");
        assert!(!text.is_empty());
        assert!(matches!(
            store.games().live_state(game),
            Err(StoreError::Damaged { .. })
        ));
        assert!(matches!(
            store.games().apply(game, 0, &[engine::Decision::PlanDone]),
            Err(StoreError::Damaged { .. })
        ));
        assert_eq!(
            store.games().game_in_channel(46).expect("lookup"),
            Some(game),
            "it keeps its channel"
        );
        assert_eq!(
            *store.games().live_state(healthy).expect("state").0,
            expected(47, 9)
        );
        // Export still works (for the bug report); abandoning frees the channel.
        let doc = store
            .admin()
            .export(game)
            .expect("export of a damaged game");
        assert_eq!(doc.status, GameStatus::Damaged);
        store.games().abandon(game).expect("abandon");
        assert_eq!(store.games().game_in_channel(46).expect("lookup"), None);
        drop(store);
        if what == "snapshot" {
            let conn = sql(&dir);
            let kept: String = conn
                .query_row(
                    "SELECT state FROM snapshots WHERE game_id = ?1 AND seq = ?2",
                    rusqlite::params![game, tampered_seq],
                    |r| r.get(0),
                )
                .expect("still there");
            assert_eq!(kept, tampered, "never silently altered");
        }
    }
}

#[test]
fn export_and_import_replay_to_the_same_state() {
    let dir = TempDir::new("basics-export");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 49, 40);
    let (state, seq) = store.games().live_state(game).expect("state");
    let doc = store.admin().export(game).expect("export");
    assert_eq!(doc.log.len() as u64, seq);
    assert_eq!(doc.seed, 49);
    assert_eq!(doc.engine_version, ENGINE_VERSION);
    assert_eq!(doc.data_hash, data().hash);
    assert_eq!(
        doc.state_sha256.as_deref(),
        Some(state_digest(&state).as_str())
    );
    let text = doc.to_json();
    assert!(!text.contains("user_id"));
    let parsed = GameExport::from_json(&text).expect("parses");
    assert_eq!(parsed, doc);

    // Into another channel of the same store, and into a new store.
    let here = Location {
        guild: None,
        channel: 9049,
    };
    let (copy, copied) = store.admin().import(&parsed, here, &[]).expect("imports");
    assert_eq!(*copied, *state);
    assert_eq!(
        store.games().log(copy).expect("log"),
        store.games().log(game).expect("log")
    );
    assert_eq!(
        store
            .admin()
            .import(&parsed, here, &[])
            .err()
            .map(|e| e.to_string()),
        Some(StoreError::ChannelBusy.to_string())
    );
    let other = TempDir::new("basics-import");
    let (fresh, _) = open(&other.db(), 7);
    let (id, imported) = fresh
        .admin()
        .import(&parsed, here, &[SeatOwner::Discord(5)])
        .expect("imports");
    assert_eq!(*imported, *state);
    assert_eq!(
        fresh.people().seats(id).expect("seats")[0].owner,
        SeatOwner::Discord(5)
    );
    drop(fresh);
    let (fresh, report) = open(&other.db(), 7);
    assert_eq!(report.verified, 1);
    assert_eq!(*fresh.games().live_state(id).expect("state").0, *state);
    // The imported game plays on like the original.
    let a = step(&store, game, 49).expect("move").expect("stored");
    let b = step(&fresh, id, 49).expect("move").expect("stored");
    assert_eq!(a, b);
    assert_eq!(
        *store.games().live_state(game).expect("s").0,
        *fresh.games().live_state(id).expect("s").0
    );

    // A changed decision or a wrong digest is refused.
    let mut wrong = parsed.clone();
    wrong.state_sha256 = Some("00".repeat(32));
    assert!(matches!(
        fresh.admin().import(
            &wrong,
            Location {
                guild: None,
                channel: 1
            },
            &[]
        ),
        Err(StoreError::BadExport(_))
    ));
    let mut wrong = parsed.clone();
    if let Some(LogEntry::Batch { seat, .. }) = wrong.log.first_mut() {
        *seat += 1;
    }
    assert!(matches!(
        fresh.admin().import(
            &wrong,
            Location {
                guild: None,
                channel: 2
            },
            &[]
        ),
        Err(StoreError::BadExport(_))
    ));
    let mut wrong = parsed;
    wrong.format = "something-else".into();
    assert!(matches!(
        fresh.admin().import(
            &wrong,
            Location {
                guild: None,
                channel: 3
            },
            &[]
        ),
        Err(StoreError::BadExport(_))
    ));
    assert!(GameExport::from_json("{").is_err());

    // A finished game imports as finished.
    let done = play(&store, 145, 100_000);
    let doc = store.admin().export(done).expect("export");
    assert_eq!(doc.status, GameStatus::Finished);
    let (id, state) = fresh
        .admin()
        .import(
            &doc,
            Location {
                guild: None,
                channel: 4,
            },
            &[],
        )
        .expect("imports");
    assert_eq!(state.phase, Phase::Finished);
    assert_eq!(
        fresh.games().game(id).expect("game").status,
        GameStatus::Finished
    );
}

#[test]
fn notifications_and_reminders_commit_with_the_move() {
    let dir = TempDir::new("basics-outbox");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 60, 3);
    let (state, _) = store.games().live_state(game).expect("state");
    let data = data();
    let Some(Move::Batch { seat, decisions }) = next_move(&data, &state, None, 60, 3) else {
        panic!("a move");
    };
    // Every seat's reminders are planned; those of the seats the move leaves the game waiting
    // on are stored, since the time of the plan.
    let players = state.seats.len();
    let plan = WaitPlan {
        now: 500,
        fresh: true,
        reminders: (0..players)
            .map(|s| (s, vec![("turn".to_string(), 1_000 + s as i64)]))
            .collect(),
    };
    let effects = |_: &GameState, s: &GameState, events: &[engine::Event]| MoveEffects {
        notifications: vec![
            serde_json::json!({"to": "channel", "events": events.len(), "round": s.round}),
        ],
        waits: Some(plan.clone()),
    };
    // A failed move queues nothing.
    store.fail_next(FailPoint::BeforeCommit);
    assert!(matches!(
        store.games().apply_with(game, seat, &decisions, &effects),
        Err(StoreError::Injected(FailPoint::BeforeCommit))
    ));
    assert!(store
        .schedule()
        .pending_notifications(10)
        .expect("outbox")
        .is_empty());
    assert!(store
        .schedule()
        .reminders(game)
        .expect("reminders")
        .is_empty());
    let out = store
        .games()
        .apply_with(game, seat, &decisions, &effects)
        .expect("move");
    let waited = engine::waiting_on(&out.state);
    assert!(!waited.is_empty());
    let pending = store.schedule().pending_notifications(10).expect("outbox");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].game, Some(game));
    assert_eq!(pending[0].payload["to"], "channel");
    let stored: Vec<(usize, String, i64)> = store
        .schedule()
        .reminders(game)
        .expect("reminders")
        .into_iter()
        .map(|r| (r.seat, r.kind, r.due_at))
        .collect();
    let expected: Vec<(usize, String, i64)> = waited
        .iter()
        .map(|&s| (s, "turn".to_string(), 1_000 + s as i64))
        .collect();
    assert_eq!(stored, expected);
    for s in 0..players {
        let since = store.schedule().waiting_since(game, s).expect("since");
        assert_eq!(since, waited.contains(&s).then_some(500), "seat {s}");
    }
    let first = waited[0];
    let due = store
        .schedule()
        .due_reminders(1_000 + first as i64)
        .expect("due");
    assert_eq!(due.len(), 1);
    assert_eq!((due[0].seat, due[0].kind.as_str()), (first, "turn"));
    store.schedule().mark_sent(pending[0].id).expect("sent");
    assert!(store
        .schedule()
        .pending_notifications(10)
        .expect("outbox")
        .is_empty());
    let id = store
        .schedule()
        .queue_notification(None, &serde_json::json!({"to": "owner"}))
        .expect("queue");
    assert_eq!(
        store.schedule().pending_notifications(10).expect("outbox")[0].id,
        id
    );
    let other = (0..players)
        .find(|s| !waited.contains(s))
        .unwrap_or(players);
    store
        .schedule()
        .set_reminder(game, other, "plan", 10)
        .expect("set");
    store
        .schedule()
        .clear_reminders(game, Some(first))
        .expect("clear");
    let left: Vec<(usize, String)> = store
        .schedule()
        .reminders(game)
        .expect("reminders")
        .into_iter()
        .map(|r| (r.seat, r.kind))
        .collect();
    let mut expected: Vec<(usize, String)> = waited[1..]
        .iter()
        .map(|&s| (s, "turn".to_string()))
        .chain([(other, "plan".to_string())])
        .collect();
    expected.sort();
    assert_eq!(left, expected);
    // Reminders of games that are no longer active are not due.
    store.games().abandon(game).expect("abandon");
    assert!(store
        .schedule()
        .due_reminders(i64::MAX)
        .expect("due")
        .is_empty());
}

#[test]
fn board_images_wait_for_the_renderer() {
    let dir = TempDir::new("basics-images");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 61, 3);
    let pending = store.images().pending_renders(100).expect("pending");
    assert_eq!(pending, vec![(game, 0), (game, 1), (game, 2), (game, 3)]);
    assert_eq!(store.images().board_png(game, 3).expect("read"), None);
    let png = vec![0x89, b'P', b'N', b'G', 1, 2, 3];
    store
        .images()
        .store_board_png(game, 3, &png)
        .expect("store");
    assert_eq!(store.images().board_png(game, 3).expect("read"), Some(png));
    assert_eq!(
        store.images().pending_renders(100).expect("pending").len(),
        3
    );
    assert_eq!(store.images().board_png(game, 99).expect("read"), None);
}

#[test]
fn campaigns_keep_their_chapters() {
    let dir = TempDir::new("basics-campaign");
    let (store, _) = open(&dir.db(), 4);
    let place = Location {
        guild: Some(3),
        channel: 77,
    };
    let id = store
        .campaigns()
        .create_campaign(place, &serde_json::json!({"players": 2, "luna": 3}))
        .expect("create");
    let game = play(&store, 62, 2);
    store
        .campaigns()
        .set_chapter_game(id, 1, game)
        .expect("chapter game");
    store
        .campaigns()
        .record_chapter_result(id, 1, &serde_json::json!({"success_points": 12}))
        .expect("result");
    assert!(store.campaigns().set_chapter_game(id, 5, game).is_err());
    assert_eq!(
        store.campaigns().campaign_in_channel(77).expect("lookup"),
        Some(id)
    );
    let c = store
        .campaigns()
        .campaign(id)
        .expect("read")
        .expect("exists");
    assert_eq!(c.location, place);
    assert_eq!(c.options["luna"], 3);
    assert_eq!(c.chapters.len(), 1);
    assert_eq!(c.chapters[0].game, Some(game));
    assert_eq!(
        c.chapters[0]
            .result
            .as_ref()
            .map(|r| r["success_points"].clone()),
        Some(12.into())
    );
    assert!(c.chapters[0].completed_at.is_some());
    store
        .campaigns()
        .set_campaign_status(id, skymines::store::CampaignStatus::Finished)
        .expect("status");
    assert_eq!(
        store.campaigns().campaign_in_channel(77).expect("lookup"),
        None
    );
    assert_eq!(store.campaigns().campaign(id + 1).expect("read"), None);
}

#[test]
fn the_database_path_comes_from_the_config() {
    let here = std::path::Path::new("config.toml");
    assert_eq!(
        config::database_path_from_str("data_dir = \"\"\n", here).expect("ok"),
        std::path::PathBuf::from("skymines.db")
    );
    assert_eq!(
        config::database_path_from_str("database_path = \"/var/lib/skymines/games.db\"", here)
            .expect("ok"),
        std::path::PathBuf::from("/var/lib/skymines/games.db")
    );
    assert_eq!(
        config::database_path_from_str("database_path = \"\"", here).expect("ok"),
        std::path::PathBuf::from("skymines.db")
    );
    let err = config::database_path_from_str("database_path = 3", here).expect_err("bad");
    assert!(err.to_string().contains("database_path"), "{err}");
    assert!(config::database_path_from_str("database_path = ", here).is_err());
    let dir = TempDir::new("basics-config");
    assert_eq!(
        config::database_path(&dir.path().join("missing.toml")).expect("default"),
        std::path::PathBuf::from("skymines.db")
    );
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
    let text = std::fs::read_to_string(&example).expect("config.example.toml");
    assert!(
        text.contains("database_path"),
        "the example documents the key"
    );
    config::database_path(&example).expect("the example parses");
}

#[test]
fn the_log_format_is_stable_json() {
    let entry = LogEntry::Batch {
        seq: 3,
        seat: 1,
        decisions: vec![engine::Decision::PlanDone, engine::Decision::TakeCoin],
        at: 17,
    };
    assert_eq!(
        serde_json::to_string(&entry).expect("json"),
        r#"{"kind":"batch","seq":3,"seat":1,"decisions":[{"d":"plan_done"},{"d":"take_coin"}],"at":17}"#
    );
    let undo = LogEntry::Undo {
        seq: 4,
        seat: 1,
        undoes: 3,
        at: 18,
    };
    assert_eq!(
        serde_json::to_string(&undo).expect("json"),
        r#"{"kind":"undo","seq":4,"seat":1,"undoes":3,"at":18}"#
    );
}

/// Issue 20 point 5: the status messages the Discord adapter unpins are the pinned ones of
/// finished, aborted and archived games; not a running game's, not one never pinned, not one
/// already unpinned; a new status message starts unpinned.
#[test]
fn the_status_messages_to_unpin_are_the_pinned_ones_of_ended_games() {
    use skymines::store::StatusMessage;
    let dir = TempDir::new("basics-pins");
    let (store, _) = open(&dir.db(), 16);
    let finished = play(&store, 60, 100_000);
    let running = play(&store, 61, 2);
    let aborted = play(&store, 62, 2);
    let archived = play(&store, 63, 2);
    let never_pinned = play(&store, 64, 2);
    store.games().abandon(aborted).expect("abort");
    store.games().abandon(never_pinned).expect("abort");
    store.games().archive_channel(63).expect("archive");
    assert_eq!(
        store.games().game(finished).expect("game").status,
        GameStatus::Finished
    );
    for (game, channel) in [
        (finished, 60),
        (running, 61),
        (aborted, 62),
        (archived, 63),
        (never_pinned, 64),
    ] {
        let status = StatusMessage {
            channel,
            message: 1_000 + channel,
        };
        store.discord().set_status(game, status).expect("status");
        store
            .discord()
            .set_pinned(game, game != never_pinned)
            .expect("pinned");
    }
    let to_unpin = |store: &Store| -> Vec<skymines::store::GameId> {
        store
            .discord()
            .pinned_of_ended_games()
            .expect("query")
            .into_iter()
            .map(|(g, m)| {
                assert_eq!(m.message, 1_000 + m.channel);
                g
            })
            .collect()
    };
    let mut expected = vec![finished, aborted, archived];
    expected.sort_unstable();
    assert_eq!(to_unpin(&store), expected);
    store
        .discord()
        .set_pinned(aborted, false)
        .expect("unpinned");
    expected.retain(|g| *g != aborted);
    assert_eq!(to_unpin(&store), expected);
    // A new status message of a finished game is not pinned until the adapter says so.
    let again = StatusMessage {
        channel: 60,
        message: 2_000,
    };
    store.discord().set_status(finished, again).expect("status");
    assert_eq!(to_unpin(&store), vec![archived]);
}

/// A new game whose computer players play at `level`.
fn with_level(mut new: NewGame, level: &str) -> NewGame {
    new.bot_level = Some(level.to_string());
    new
}

/// A seat of a new game: a person's (Discord) or a computer player's (vacant).
fn seat_of(owner: SeatOwner, name: &str) -> NewSeat {
    NewSeat {
        owner,
        name: name.to_string(),
        notify: Notify::Ephemeral,
    }
}

fn three_player_game(channel: u64, seats: Vec<NewSeat>) -> NewGame {
    let mut options = skymines::store::torture::torture_options(11);
    options.players = seats.len();
    options.luna = None;
    NewGame {
        location: Location {
            guild: Some(1),
            channel,
        },
        options,
        seats,
        bot_level: None,
        language: None,
        waits: None,
    }
}

/// Issue 23: computer players' seats (vacant seats) and their game's level survive a restart;
/// a person takes a computer player's seat over; a game of computer players only, or the last
/// person leaving, is refused with `NoPerson` and changes nothing.
#[test]
fn computer_seats_and_their_level_survive_a_restart_and_need_a_person() {
    let dir = TempDir::new("basics-computers");
    let (store, _) = open(&dir.db(), 16);
    let ann = 0x1111_2222_3333_0001;
    let (game, _) = store
        .games()
        .create_game(with_level(
            three_player_game(
                71,
                vec![
                    seat_of(SeatOwner::Discord(ann), "Ann"),
                    seat_of(SeatOwner::Vacant, "Computer 1"),
                    seat_of(SeatOwner::Vacant, "Computer 2"),
                ],
            ),
            "hard",
        ))
        .expect("a game of one person and two computer players");
    // Another game keeps the default level.
    let (other, _) = store
        .games()
        .create_game(three_player_game(
            72,
            vec![
                seat_of(SeatOwner::Discord(ann), "Ann"),
                seat_of(SeatOwner::Vacant, "Computer 1"),
            ],
        ))
        .expect("created");
    drop(store);

    let (store, report) = open(&dir.db(), 16);
    assert_eq!(report.restored, 2);
    assert_eq!(store.games().bot_level(game).expect("level"), "hard");
    assert_eq!(store.games().bot_level(other).expect("level"), "normal");
    let owners: Vec<SeatOwner> = store
        .people()
        .seats(game)
        .expect("seats")
        .iter()
        .map(|s| s.owner)
        .collect();
    assert_eq!(
        owners,
        vec![
            SeatOwner::Discord(ann),
            SeatOwner::Vacant,
            SeatOwner::Vacant
        ]
    );

    // The last person cannot leave: refused, nothing changed.
    let before = store.people().seats(game).expect("seats");
    assert!(matches!(
        store.people().vacate_seat(game, 0),
        Err(StoreError::NoPerson)
    ));
    assert_eq!(store.people().seats(game).expect("seats"), before);

    // Bob takes Computer 2's seat over; then Ann may leave, and a computer plays her seat.
    let bob = 0x1111_2222_3333_0002;
    store
        .people()
        .take_seat(game, 2, bob, "Bob", None)
        .expect("Bob takes seat 3");
    store
        .people()
        .vacate_seat(game, 0)
        .expect("Ann leaves: Bob is still there");
    drop(store);
    let (store, _) = open(&dir.db(), 16);
    let seats = store.people().seats(game).expect("seats");
    assert_eq!(seats[0].owner, SeatOwner::Vacant);
    assert_eq!(seats[1].owner, SeatOwner::Vacant);
    assert_eq!(seats[2].owner, SeatOwner::Discord(bob));
    assert_eq!(seats[2].name, "Bob");
    assert_eq!(store.games().bot_level(game).expect("level"), "hard");
    // A seat already taken is not taken again.
    assert!(matches!(
        store.people().take_seat(game, 2, ann, "Ann", None),
        Err(StoreError::NoSuchSeat(2))
    ));

    // A game with no person at all is refused and nothing is stored.
    let conn = sql(&dir);
    let games_before = count(&conn, "SELECT count(*) FROM games");
    let refused = store.games().create_game(with_level(
        three_player_game(
            73,
            vec![
                seat_of(SeatOwner::Vacant, "Computer 1"),
                seat_of(SeatOwner::Vacant, "Computer 2"),
            ],
        ),
        "easy",
    ));
    assert!(matches!(refused, Err(StoreError::NoPerson)), "{refused:?}");
    assert_eq!(
        refused.err().map(|e| e.to_string()).unwrap_or_default(),
        "a game needs at least one person among its players"
    );
    assert_eq!(count(&conn, "SELECT count(*) FROM games"), games_before);
    assert_eq!(store.games().game_in_channel(73).expect("query"), None);
}
