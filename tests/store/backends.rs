//! The store's contract on both backends: one set of tests, run on SQLite always and on
//! PostgreSQL when `SKYMINES_TEST_PG_URL` names a server (CI starts a throw-away one: see
//! `.ci/pg-cluster`; without it the PostgreSQL runs are skipped with a printed line). Each
//! PostgreSQL run gets a database of its own, dropped at the end.
//!
//! Moves are numbered, logged, snapshotted and restored with the check against a replay;
//! undo; a failed write changes nothing; one game per channel; notifications and reminders
//! commit with the move; board images; a damaged game is set aside; two processes on one
//! database never both accept a move (the loser is refused and retries against the fresh
//! state); several writers on one game lose and duplicate nothing; reminders and messages are
//! claimed by one process only. And the rest of the store the chat layer and the Discord
//! adapter use: lobbies, campaigns, seats (vacated, taken, paused, archived), user settings and
//! languages, Discord's messages, the admin tools (list, history, rollback, idle watches),
//! export and import, and a computer player's move refused once the game moved on (lobbies,
//! campaigns, seats, settings and Discord's facts are in `roles`, over this file's places). With
//! shard ranges each process restores and claims only its shards' games.

use crate::support::pg::PgTestDb;
use crate::support::{shared_data as data, TempDir};
use skymines::engine::{self, Decision};
use skymines::store::no_effects;
use skymines::store::torture::{drive, torture_game, torture_options};
use skymines::store::{
    replay, Backend, FailPoint, GameExport, GameId, GameStatus, IdleWatch, Location, LogEntry,
    MoveEffects, NewGame, NewSeat, Notify, RestoreReport, SeatOwner, ShardFilter, Store,
    StoreError, StoreOptions, WaitPlan,
};
use std::time::Duration;

/// One database on one backend, opened as often as a test likes (each store a "process").
pub(super) enum Place {
    Sqlite(TempDir),
    Postgres(PgTestDb),
}

pub(super) fn options(k: u64) -> StoreOptions {
    StoreOptions {
        snapshot_every: k,
        restore_threads: 2,
        ..StoreOptions::default()
    }
}

impl Place {
    pub(super) fn open(&self, k: u64) -> (Box<Store>, RestoreReport) {
        self.open_with(options(k))
    }

    pub(super) fn open_with(&self, options: StoreOptions) -> (Box<Store>, RestoreReport) {
        match self {
            Place::Sqlite(dir) => {
                let (s, r) = Store::open(dir.db(), data(), options).expect("SQLite opens");
                (Box::new(s), r)
            }
            Place::Postgres(db) => {
                let (s, r) =
                    Store::open_postgres(db.url(), data(), options).expect("PostgreSQL opens");
                (Box::new(s), r)
            }
        }
    }

    /// Runs one statement written in the SQL both backends understand (tampering).
    pub(super) fn execute(&self, sql: &str) {
        match self {
            Place::Sqlite(dir) => {
                rusqlite::Connection::open(dir.db())
                    .expect("open")
                    .execute_batch(sql)
                    .expect("SQL runs");
            }
            Place::Postgres(db) => {
                postgres::Client::connect(db.url(), postgres::NoTls)
                    .expect("connect")
                    .batch_execute(sql)
                    .expect("SQL runs");
            }
        }
    }

    pub(super) fn name(&self) -> &'static str {
        match self {
            Place::Sqlite(_) => "sqlite",
            Place::Postgres(_) => "postgres",
        }
    }
}

/// SQLite, and PostgreSQL when the server is configured (a fresh database per call).
pub(super) fn places(test: &str) -> Vec<Place> {
    let mut out = vec![Place::Sqlite(TempDir::new(test))];
    out.extend(PgTestDb::for_test(test).map(Place::Postgres));
    out
}

/// A plan that gives every seat of a game (of up to five seats) these reminders (kind, due
/// time) when the game starts waiting on it.
pub(super) fn every_seat_reminded(times: &[(&str, i64)]) -> WaitPlan {
    WaitPlan {
        now: 1,
        fresh: true,
        reminders: (0..5)
            .map(|seat| {
                let list = times.iter().map(|(k, t)| (k.to_string(), *t)).collect();
                (seat, list)
            })
            .collect(),
    }
}

/// A new game whose computer players play at `level`.
pub(super) fn with_level(mut new: NewGame, level: &str) -> NewGame {
    new.bot_level = Some(level.to_string());
    new
}

/// Every entry numbered 1, 2, … and the state the replay of the log from the seed.
pub(super) fn check_log_and_state(store: &Store, game: GameId, place: &str) {
    let log = store.games().log(game).expect("log");
    let seqs: Vec<u64> = log.iter().map(LogEntry::seq).collect();
    assert_eq!(seqs, (1..=log.len() as u64).collect::<Vec<_>>(), "{place}");
    let rec = store.games().game(game).expect("game");
    assert_eq!(rec.seq, log.len() as u64, "{place}");
    let replayed =
        replay::replay_from_seed(&data(), &rec.options, &rec.seat_names, &log).expect("replays");
    assert_eq!(
        *store.games().state(game).expect("state"),
        replayed,
        "{place}"
    );
}

/// A move of the seat the game waits on.
pub(super) fn a_move(store: &Store, game: GameId) -> (usize, Vec<Decision>) {
    let (state, _) = store.games().live_state(game).expect("live");
    let seat = engine::waiting_on(&state)[0];
    let d = engine::legal_decisions(&data(), &state, seat)[0];
    (seat, vec![d])
}

#[test]
fn moves_are_numbered_snapshotted_and_restored_checked() {
    for place in places("restore") {
        let name = place.name();
        let (store, report) = place.open(8);
        assert_eq!(report.restored, 0, "{name}");
        let a = torture_game(&store, 11).expect("game");
        let b = torture_game(&store, 12).expect("game");
        assert_eq!(drive(&store, a, 11, 40, |_| {}).expect("plays"), 40);
        assert_eq!(drive(&store, b, 12, 17, |_| {}).expect("plays"), 17);
        check_log_and_state(&store, a, name);
        let before = (
            store.games().live_state(a).expect("a"),
            store.games().live_state(b).expect("b"),
        );
        drop(store);
        let (store, report) = place.open(8);
        assert_eq!((report.restored, report.verified), (2, 2), "{name}");
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        assert_eq!(store.games().live_games(), vec![a, b], "{name}");
        assert_eq!(
            (
                store.games().live_state(a).expect("a"),
                store.games().live_state(b).expect("b")
            ),
            before,
            "{name}"
        );
        // And it plays on from there.
        assert_eq!(drive(&store, a, 11, 45, |_| {}).expect("plays"), 45);
        check_log_and_state(&store, a, name);
    }
}

#[test]
fn undo_is_recorded_replayed_and_restored() {
    for place in places("undo") {
        let name = place.name();
        let (store, _) = place.open(4);
        let game = torture_game(&store, 21).expect("game");
        drive(&store, game, 21, 6, |_| {}).expect("plays");
        let (before, seq) = store.games().live_state(game).expect("live");
        let (seat, decisions) = a_move(&store, game);
        store.games().apply(game, seat, &decisions).expect("move");
        let undo = store.games().undo(game, seat).expect("undo");
        assert_eq!((undo.seq, undo.undone), (seq + 2, seq + 1), "{name}");
        assert_eq!(*undo.state, *before, "{name}: the state before the batch");
        assert!(
            matches!(store.games().last_entry(game).expect("last"), Some(LogEntry::Undo { undoes, .. }) if undoes == seq + 1),
            "{name}"
        );
        check_log_and_state(&store, game, name);
        drop(store);
        let (store, report) = place.open(4);
        assert_eq!(report.verified, 1, "{name}");
        assert_eq!(
            *store.games().live_state(game).expect("live").0,
            *before,
            "{name}"
        );
    }
}

#[test]
fn a_failed_write_changes_nothing_and_the_move_then_succeeds() {
    for place in places("failpoints") {
        let name = place.name();
        let (store, _) = place.open(2);
        let game = torture_game(&store, 31).expect("game");
        drive(&store, game, 31, 3, |_| {}).expect("plays");
        for at in [
            FailPoint::AfterDecisions,
            FailPoint::AfterSnapshot,
            FailPoint::BeforeCommit,
        ] {
            let seq = store.games().live_state(game).expect("live").1;
            let log = store.games().log(game).expect("log");
            let (seat, decisions) = a_move(&store, game);
            store.fail_next(at);
            let fx = |_: &_, _: &_, _: &[_]| MoveEffects {
                notifications: vec![serde_json::json!({"text": "moved"})],
                waits: Some(every_seat_reminded(&[("turn", 5)])),
            };
            let err = store
                .games()
                .apply_with(game, seat, &decisions, &fx)
                .unwrap_err();
            assert!(
                matches!(err, StoreError::Injected(p) if p == at),
                "{name}: {err}"
            );
            assert_eq!(store.games().log(game).expect("log"), log, "{name}: {at:?}");
            assert_eq!(
                store.games().game(game).expect("row").seq,
                seq,
                "{name}: {at:?}"
            );
            assert_eq!(
                store.games().live_state(game).expect("live").1,
                seq,
                "{name}"
            );
            assert!(
                store
                    .schedule()
                    .reminders(game)
                    .expect("reminders")
                    .is_empty(),
                "{name}"
            );
            let out = store
                .games()
                .apply(game, seat, &decisions)
                .expect("the same move");
            assert_eq!(out.seq, seq + 1, "{name}");
        }
        assert!(store
            .schedule()
            .claim_notifications(10, Duration::from_secs(60))
            .expect("outbox")
            .is_empty());
        check_log_and_state(&store, game, name);
    }
}

#[test]
fn one_running_game_per_channel() {
    for place in places("channel") {
        let name = place.name();
        let (store, _) = place.open(8);
        let game = torture_game(&store, 41).expect("game");
        let options = skymines::store::torture::torture_options(42);
        let seats = (0..options.players)
            .map(|i| skymines::store::NewSeat {
                owner: if i == 0 {
                    skymines::store::SeatOwner::Discord(7)
                } else {
                    skymines::store::SeatOwner::Local
                },
                name: format!("P{i}"),
                notify: skymines::store::Notify::Dm,
            })
            .collect();
        let again = skymines::store::NewGame {
            location: store.games().game(game).expect("row").location,
            options,
            seats,
            bot_level: None,
            language: None,
            waits: None,
        };
        let busy = store.games().create_game(again.clone());
        assert!(
            matches!(busy, Err(StoreError::ChannelBusy)),
            "{name}: {busy:?}"
        );
        store.games().abandon(game).expect("abandon");
        assert_eq!(
            store.games().game(game).expect("row").status,
            GameStatus::Abandoned
        );
        assert!(matches!(
            store.games().apply(game, 0, &[Decision::PlanDone]),
            Err(StoreError::NotActive { .. })
        ));
        let (other, _) = store
            .games()
            .create_game(again)
            .expect("the channel is free");
        let seats = store.people().seats(other).expect("seats");
        assert_eq!(
            seats[0].owner,
            skymines::store::SeatOwner::Discord(7),
            "{name}"
        );
        assert_eq!(seats[0].notify, skymines::store::Notify::Dm, "{name}");
        let players = skymines::store::torture::torture_options(42).players;
        assert_eq!(
            seats.len(),
            players + usize::from(seats.len() > players),
            "{name}"
        );
        if let Some(luna) = seats.get(players) {
            assert_eq!(luna.owner, skymines::store::SeatOwner::Luna, "{name}");
        }
    }
}

#[test]
fn notifications_reminders_and_images_commit_with_the_move() {
    for place in places("effects") {
        let name = place.name();
        let (store, _) = place.open(8);
        let game = torture_game(&store, 51).expect("game");
        let (seat, decisions) = a_move(&store, game);
        let fx = |_: &_, _: &_, _: &[_]| MoveEffects {
            notifications: vec![serde_json::json!({"n": 1}), serde_json::json!({"n": 2})],
            waits: Some(every_seat_reminded(&[("turn", 1_000), ("deadline", 9_000)])),
        };
        let out = store
            .games()
            .apply_with(game, seat, &decisions, &fx)
            .expect("move");
        // The reminders of the seats the move leaves the game waiting on.
        let waited = engine::waiting_on(&out.state).len();
        assert!(waited > 0, "{name}");
        let queued = store
            .schedule()
            .claim_notifications(10, Duration::from_secs(60))
            .expect("claim");
        let payloads: Vec<_> = queued.iter().map(|o| o.payload.clone()).collect();
        assert_eq!(
            payloads,
            vec![serde_json::json!({"n": 1}), serde_json::json!({"n": 2})],
            "{name}"
        );
        store.schedule().mark_sent(queued[0].id).expect("sent");
        assert_eq!(
            store.schedule().reminders(game).expect("reminders").len(),
            2 * waited,
            "{name}"
        );
        // Due at 1,000: claimed once, due again after the lease unless set meanwhile.
        let due = store
            .schedule()
            .claim_due_reminders(1_500, 10_000)
            .expect("claim");
        assert_eq!(
            due.iter().map(|r| r.kind.as_str()).collect::<Vec<_>>(),
            vec!["turn"; waited],
            "{name}"
        );
        assert!(store
            .schedule()
            .claim_due_reminders(1_600, 10_000)
            .expect("claim")
            .is_empty());
        let again = store
            .schedule()
            .claim_due_reminders(11_500, 10_000)
            .expect("claim");
        assert_eq!(
            again.len(),
            2 * waited,
            "{name}: the lease ran out, the deadline is due"
        );
        // Board images: a row per stored state, filled in by the renderer.
        let pending = store.images().pending_renders(10).expect("pending");
        assert!(
            pending.contains(&(game, 0)) && pending.contains(&(game, out.seq)),
            "{name}"
        );
        store
            .images()
            .store_board_png(game, out.seq, b"png")
            .expect("png");
        assert_eq!(
            store
                .images()
                .board_png(game, out.seq)
                .expect("png")
                .as_deref(),
            Some(&b"png"[..])
        );
        assert!(!store
            .images()
            .pending_renders(10)
            .expect("pending")
            .contains(&(game, out.seq)));
        // Abandoning the game drops its reminders.
        store.games().abandon(game).expect("abandon");
        assert!(
            store
                .schedule()
                .reminders(game)
                .expect("reminders")
                .is_empty(),
            "{name}"
        );
    }
}

#[test]
fn a_game_whose_row_disagrees_with_its_log_is_set_aside() {
    for place in places("damaged") {
        let name = place.name();
        let (store, _) = place.open(8);
        let good = torture_game(&store, 61).expect("game");
        let bad = torture_game(&store, 62).expect("game");
        drive(&store, bad, 62, 5, |_| {}).expect("plays");
        drop(store);
        place.execute(&format!("UPDATE games SET last_seq = 9 WHERE id = {bad}"));
        let (store, report) = place.open(8);
        assert_eq!(report.restored, 1, "{name}");
        assert_eq!(report.damaged.len(), 1, "{name}");
        assert!(
            report.damaged[0].1.contains("log holds 5"),
            "{name}: {:?}",
            report.damaged
        );
        assert_eq!(
            store.games().game(bad).expect("row").status,
            GameStatus::Damaged
        );
        assert!(matches!(
            store.games().live_state(bad),
            Err(StoreError::Damaged { .. })
        ));
        assert!(store.games().live_state(good).is_ok());
    }
}

/// Two stores on one database are two processes: a move built on a state the other changed
/// is refused (nothing written) and the game reloaded; the retry builds on the fresh state.
#[test]
fn two_processes_never_both_accept_a_move() {
    for place in places("twoproc") {
        let name = place.name();
        let (a, _) = place.open(8);
        let game = torture_game(&a, 71).expect("game");
        drive(&a, game, 71, 3, |_| {}).expect("plays");
        let (b, report) = place.open(8);
        assert_eq!(report.restored, 1, "{name}");
        // Both see move 3; a moves first.
        let (seat, decisions) = a_move(&a, game);
        assert_eq!(
            a.games()
                .apply(game, seat, &decisions)
                .expect("a moves")
                .seq,
            4
        );
        let (seat_b, decisions_b) = a_move(&b, game);
        let err = b.games().apply(game, seat_b, &decisions_b).unwrap_err();
        assert!(
            matches!(err, StoreError::Changed(g) | StoreError::Conflict(g) if g == game),
            "{name}: {err}"
        );
        assert_eq!(
            a.games().log(game).expect("log").len(),
            4,
            "{name}: nothing of b's was written"
        );
        // b reloaded the game: its retry is move 5, on a's move.
        let (seat_b, decisions_b) = a_move(&b, game);
        assert_eq!(
            b.games()
                .apply(game, seat_b, &decisions_b)
                .expect("retry")
                .seq,
            5,
            "{name}"
        );
        // And a, in turn, is refused once and then follows.
        let (seat, decisions) = a_move(&a, game);
        assert!(a.games().apply(game, seat, &decisions).is_err(), "{name}");
        drive(&a, game, 71, 8, |_| {}).expect("a plays on");
        check_log_and_state(&a, game, name);
    }
}

/// Several writers, each a store of its own (a process), on one game at once: every move
/// accepted is in the log exactly once at its number; the others were refused cleanly.
#[test]
fn several_processes_writing_one_game_lose_and_duplicate_nothing() {
    for place in places("writers") {
        let name = place.name();
        let (first, _) = place.open(8);
        let game = torture_game(&first, 81).expect("game");
        let stores: Vec<Box<Store>> = (0..4).map(|_| place.open(8).0).collect();
        let done: Vec<(u64, usize, Vec<Decision>)> = std::thread::scope(|s| {
            let handles: Vec<_> = stores
                .iter()
                .enumerate()
                .map(|(w, store)| {
                    s.spawn(move || {
                        let mut done = Vec::new();
                        for i in 0..25 {
                            let (state, _) = match store.games().live_state(game) {
                                Ok(x) => x,
                                Err(StoreError::NotActive { .. }) => break,
                                Err(e) => panic!("reading failed: {e}"),
                            };
                            let waiting = engine::waiting_on(&state);
                            let seat = waiting[(w + i) % waiting.len()];
                            let legal = engine::legal_decisions(&data(), &state, seat);
                            let d = match legal.len() {
                                0 => Decision::PlanDone,
                                n => legal[(w * 7 + i) % n],
                            };
                            match store.games().apply(game, seat, &[d]) {
                                Ok(out) => done.push((out.seq, seat, vec![d])),
                                Err(
                                    StoreError::Changed(_)
                                    | StoreError::Conflict(_)
                                    | StoreError::Busy
                                    | StoreError::Rule(_),
                                ) => {}
                                Err(StoreError::NotActive { .. }) => break,
                                Err(e) => panic!("an error other than a refusal: {e}"),
                            }
                        }
                        done
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("writer"))
                .collect()
        });
        let mut done = done;
        done.sort_by_key(|d| d.0);
        let log = first.games().log(game).expect("log");
        assert!(done.len() >= 10, "{name}: only {} moves", done.len());
        assert_eq!(
            done.iter().map(|d| d.0).collect::<Vec<_>>(),
            (1..=log.len() as u64).collect::<Vec<_>>(),
            "{name}: every accepted move once, nothing else"
        );
        for ((seq, seat, decisions), entry) in done.iter().zip(&log) {
            assert!(
                matches!(entry, LogEntry::Batch { seq: s, seat: t, decisions: d, .. } if (s, t, d) == (seq, seat, decisions)),
                "{name}: {entry:?}"
            );
        }
        drop(stores);
        drop(first);
        let (store, report) = place.open(8);
        assert_eq!(report.verified, 1, "{name}");
        check_log_and_state(&store, game, name);
    }
}

/// Reminders and queued messages go to one process each (PostgreSQL: `FOR UPDATE SKIP
/// LOCKED`). SQLite has one process per file, so this runs on PostgreSQL only.
#[test]
fn reminders_and_messages_are_claimed_by_one_process() {
    for place in places("claims") {
        let name = place.name();
        let (a, _) = place.open(8);
        if a.backend() == Backend::Sqlite {
            println!("claims: SQLite skipped (one process owns an SQLite file)");
            continue;
        }
        let (b, _) = place.open(8);
        let games: Vec<GameId> = (0..10)
            .map(|i| torture_game(&a, 90 + i).expect("game"))
            .collect();
        for (i, &g) in games.iter().enumerate() {
            for n in 0..10 {
                a.schedule()
                    .queue_notification(Some(g), &serde_json::json!({ "g": g, "n": n }))
                    .expect("queued");
            }
            a.schedule()
                .set_reminder(g, 0, "turn", 100 + i as i64)
                .expect("reminder");
            a.schedule()
                .set_reminder(g, 1, "turn", 200 + i as i64)
                .expect("reminder");
        }
        let (ids, reminders) = std::thread::scope(|s| {
            let ha = s.spawn(|| claim_all(&a));
            let hb = s.spawn(|| claim_all(&b));
            let (ia, ra) = ha.join().expect("a");
            let (ib, rb) = hb.join().expect("b");
            ([ia, ib].concat(), [ra, rb].concat())
        });
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            (ids.len(), sorted.len()),
            (100, 100),
            "{name}: each message once"
        );
        let mut r = reminders.clone();
        r.sort_unstable();
        r.dedup();
        assert_eq!(
            (reminders.len(), r.len()),
            (20, 20),
            "{name}: each reminder once"
        );
    }
}

/// One process's claims: 20 rounds of up to 3 messages and the due reminders.
fn claim_all(store: &Store) -> (Vec<i64>, Vec<(GameId, usize)>) {
    let mut ids = Vec::new();
    let mut reminders = Vec::new();
    for _ in 0..20 {
        ids.extend(
            store
                .schedule()
                .claim_notifications(3, Duration::from_secs(600))
                .expect("claim")
                .into_iter()
                .map(|o| o.id),
        );
        reminders.extend(
            store
                .schedule()
                .claim_due_reminders(1_000, 600_000)
                .expect("claim")
                .into_iter()
                .map(|r| (r.game, r.seat)),
        );
    }
    (ids, reminders)
}

/// A game in `guild` (None: outside any guild), in its own channel.
fn game_in_guild(store: &Store, guild: Option<u64>, channel: u64) -> GameId {
    let options = torture_options(channel);
    let seats = skymines::sim::seat_names(options.players)
        .into_iter()
        .map(|name| NewSeat {
            owner: SeatOwner::Local,
            name,
            notify: Notify::Ephemeral,
        })
        .collect();
    let new = NewGame {
        location: Location { guild, channel },
        options,
        seats,
        bot_level: None,
        language: None,
        waits: None,
    };
    store.games().create_game(new).expect("game").0
}

/// With `shards = 2` split over two processes, each restores, and its timers claim, only the
/// games of its shard: a guild's by Discord's `(guild >> 22) % 2`, a game without a guild
/// shard 0's, a message of no game shard 0's; the SQL agrees with [`ShardFilter::holds`], also
/// for a guild id with the top bit set (stored negative).
#[test]
fn each_shard_range_restores_and_claims_only_its_games() {
    let first = ShardFilter {
        first: 0,
        last: 0,
        total: 2,
    };
    let second = ShardFilter {
        first: 1,
        last: 1,
        total: 2,
    };
    let guilds = [
        Some((10u64 << 22) | 123),
        Some((11u64 << 22) | 5),
        Some((1u64 << 63) | (7 << 22)),
        None,
    ];
    for place in places("shards") {
        let name = place.name();
        let (store, _) = place.open(8);
        let games: Vec<(GameId, Option<u64>)> = guilds
            .iter()
            .enumerate()
            .map(|(i, &guild)| (game_in_guild(&store, guild, 700 + i as u64), guild))
            .collect();
        for &(game, _) in &games {
            store
                .schedule()
                .set_reminder(game, 0, "remind", 1_000)
                .expect("reminder");
            store
                .schedule()
                .queue_notification(Some(game), &serde_json::json!({ "game": game }))
                .expect("queued");
        }
        let gameless = store
            .schedule()
            .queue_notification(None, &serde_json::json!({ "game": null }))
            .expect("queued");
        drop(store);
        let mut claimed_messages = Vec::new();
        let mut claimed_reminders = Vec::new();
        for filter in [first, second] {
            let (store, report) = place.open_with(StoreOptions {
                shards: Some(filter),
                ..options(8)
            });
            let mine: Vec<GameId> = games
                .iter()
                .filter(|(_, guild)| filter.holds(*guild))
                .map(|(game, _)| *game)
                .collect();
            assert_eq!(mine.len(), 2, "{name}: two games on each shard");
            assert_eq!(report.restored, 2, "{name} {filter:?}");
            assert_eq!(store.games().live_games(), mine, "{name} {filter:?}");
            let due: Vec<GameId> = store
                .schedule()
                .claim_due_reminders(2_000, 60_000)
                .expect("claim")
                .iter()
                .map(|r| r.game)
                .collect();
            assert_eq!(due, mine, "{name} {filter:?}: its reminders");
            let messages = store
                .schedule()
                .claim_notifications(100, Duration::from_secs(60))
                .expect("claim");
            let mut expected: Vec<Option<GameId>> = mine.iter().copied().map(Some).collect();
            if filter == first {
                assert!(messages.iter().any(|m| m.id == gameless), "{name}");
                expected.push(None);
            }
            assert_eq!(
                messages.iter().map(|m| m.game).collect::<Vec<_>>(),
                expected,
                "{name} {filter:?}: its messages"
            );
            claimed_reminders.extend(due);
            claimed_messages.extend(messages.into_iter().map(|m| m.id));
            // Another shard's game, loaded for a request that came here (a DM click), can be
            // moved on, but this process's timers leave it to its own process.
            let visitor = games
                .iter()
                .map(|(game, _)| *game)
                .find(|game| !mine.contains(game))
                .expect("a game of the other shard");
            store
                .games()
                .live_state(visitor)
                .expect("loaded for a request");
            assert!(store.games().is_live(visitor), "{name} {filter:?}");
            assert_eq!(
                store.games().live_games(),
                mine,
                "{name} {filter:?}: not a visitor"
            );
        }
        claimed_reminders.sort_unstable();
        let all: Vec<GameId> = games.iter().map(|g| g.0).collect();
        assert_eq!(claimed_reminders, all, "{name}: every reminder, once");
        assert_eq!(claimed_messages.len(), 5, "{name}: every message, once");
    }
}

/// A new game in `channel` of `guild` whose seats are Discord users `users` (2 to 4 of them).
pub(super) fn discord_new_game(guild: u64, channel: u64, users: &[u64]) -> NewGame {
    let mut options = torture_options(channel);
    options.players = users.len();
    let seats = users
        .iter()
        .map(|u| NewSeat {
            owner: SeatOwner::Discord(*u),
            name: format!("user{u}"),
            notify: Notify::Ephemeral,
        })
        .collect();
    NewGame {
        location: Location {
            guild: Some(guild),
            channel,
        },
        options,
        seats,
        bot_level: None,
        language: None,
        waits: None,
    }
}

pub(super) fn discord_game(store: &Store, guild: u64, channel: u64, users: &[u64]) -> GameId {
    store
        .games()
        .create_game(discord_new_game(guild, channel, users))
        .expect("a game")
        .0
}

#[test]
fn admin_lists_checks_history_rolls_back_and_watches_idle_games() {
    for place in places("admin") {
        let name = place.name();
        let (store, _) = place.open(4);
        let game = torture_game(&store, 81).expect("game");
        drive(&store, game, 81, 12, |_| {}).expect("plays");
        let running = discord_game(&store, 5, 501, &[1, 2]);
        let ended = discord_game(&store, 5, 502, &[1, 2]);
        store.games().abandon(ended).expect("abandon");
        let ids = |list: Vec<skymines::store::GameRecord>| -> Vec<GameId> {
            list.iter().map(|g| g.id).collect()
        };
        assert_eq!(
            ids(store.admin().list_games(Some(5), 10).expect("list")),
            vec![running, ended],
            "{name}"
        );
        let all = ids(store.admin().list_games(None, 10).expect("list"));
        assert_eq!(all.len(), 3, "{name}");
        assert_eq!(all[2], ended, "{name}: running games first");
        assert_eq!(store.admin().list_games(None, 1).expect("list").len(), 1);
        let history = store.admin().history(game).expect("history");
        assert_eq!(
            (history.entries, history.last_good, history.problem),
            (12, 12, None),
            "{name}"
        );
        assert!(matches!(
            store.games().rollback(game, 12, 77, None),
            Err(StoreError::NothingToRollBack { .. })
        ));
        assert!(matches!(
            store.games().rollback(game, 99, 77, None),
            Err(StoreError::NoSuchMove { .. })
        ));
        assert!(matches!(
            store.games().rollback(ended, 0, 77, None),
            Err(StoreError::NotActive { .. })
        ));
        let rec = store.games().game(game).expect("row");
        let log = store.games().log(game).expect("log");
        let at_five = replay::replay_from_seed(&data(), &rec.options, &rec.seat_names, &log[..5])
            .expect("replays");
        let out = store.games().rollback(game, 5, 77, None).expect("rollback");
        assert_eq!((out.seq, out.back_to, out.revived), (13, 5, false));
        assert_eq!(*out.state, at_five, "{name}");
        assert_eq!(
            store.games().live_state(game).expect("live").1,
            13,
            "{name}"
        );
        assert!(matches!(
            store.games().last_entry(game).expect("last"),
            Some(LogEntry::Rollback {
                back_to: 5,
                by: 77,
                ..
            })
        ));
        check_log_and_state(&store, game, name);
        drive(&store, game, 81, 16, |_| {}).expect("plays on");
        check_log_and_state(&store, game, name);
        // Idle watches.
        assert!(store.schedule().idle_watches().expect("q").is_empty());
        let mut first = IdleWatch {
            game,
            seq: 3,
            since: 10,
            warning: None,
        };
        let second = IdleWatch {
            game: running,
            seq: 4,
            since: 20,
            warning: Some((30, 40)),
        };
        store.schedule().set_idle_watch(&second).expect("watch");
        store.schedule().set_idle_watch(&first).expect("watch");
        first.warning = Some((50, 60));
        store.schedule().set_idle_watch(&first).expect("replace");
        assert_eq!(
            store.schedule().idle_watches().expect("q"),
            vec![first, second]
        );
        store.schedule().clear_idle_watch(game).expect("clear");
        assert_eq!(
            store.schedule().idle_watches().expect("q"),
            vec![second],
            "{name}"
        );
        drop(store);
        // After a restart: the rolled-back game restores and checks out.
        let (store, report) = place.open(4);
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        check_log_and_state(&store, game, name);
    }
}

#[test]
fn a_rollback_brings_a_damaged_game_back() {
    for place in places("revive") {
        let name = place.name();
        let (store, _) = place.open(8);
        let game = torture_game(&store, 62).expect("game");
        drive(&store, game, 62, 5, |_| {}).expect("plays");
        drop(store);
        place.execute(&format!("UPDATE games SET last_seq = 9 WHERE id = {game}"));
        let (store, report) = place.open(8);
        assert_eq!(report.damaged.len(), 1, "{name}");
        let history = store.admin().history(game).expect("history");
        assert_eq!(history.entries, 5, "{name}");
        let out = store.games().rollback(game, 4, 1, None).expect("rollback");
        assert_eq!((out.seq, out.revived), (6, true), "{name}");
        assert_eq!(
            store.games().game(game).expect("row").status,
            GameStatus::Active
        );
        assert!(store.games().is_live(game), "{name}");
        assert_eq!(store.games().live_state(game).expect("live").1, 6, "{name}");
        check_log_and_state(&store, game, name);
    }
}

#[test]
fn an_export_imports_as_the_same_game_on_either_backend() {
    let mut exported: Vec<GameExport> = Vec::new();
    for place in places("export") {
        let name = place.name();
        let (store, _) = place.open(4);
        let game = torture_game(&store, 91).expect("game");
        drive(&store, game, 91, 20, |_| {}).expect("plays");
        let doc = store.admin().export(game).expect("export");
        assert_eq!(doc.log, store.games().log(game).expect("log"), "{name}");
        let state = store.games().state(game).expect("state");
        assert_eq!(
            doc.state_sha256.as_deref(),
            Some(skymines::store::export::state_digest(&state).as_str()),
            "{name}"
        );
        assert_eq!(
            GameExport::from_json(&doc.to_json()).expect("parses"),
            doc,
            "{name}"
        );
        // Every document exported so far (from either backend) imports here.
        exported.push(doc);
        for (i, doc) in exported.iter().enumerate() {
            let channel = 9000 + i as u64;
            let here = Location {
                guild: Some(1),
                channel,
            };
            let (id, imported) = store
                .admin()
                .import(doc, here, &[SeatOwner::Discord(11)])
                .expect("import");
            assert_eq!(
                skymines::store::export::state_digest(&imported),
                doc.state_sha256.clone().expect("digest"),
                "{name}"
            );
            assert_eq!(store.games().log(id).expect("log"), doc.log, "{name}");
            assert_eq!(
                store.games().game(id).expect("row").status,
                GameStatus::Active
            );
            assert_eq!(
                store.people().seats(id).expect("seats")[0].owner,
                SeatOwner::Discord(11),
                "{name}"
            );
            assert_eq!(
                store.people().seats(id).expect("seats")[1].owner,
                SeatOwner::Local
            );
            check_log_and_state(&store, id, name);
            assert!(matches!(
                store.admin().import(doc, here, &[]),
                Err(StoreError::ChannelBusy)
            ));
            let again = store.admin().export(id).expect("export");
            assert_eq!(
                (again.log.clone(), again.state_sha256.clone()),
                (doc.log.clone(), doc.state_sha256.clone()),
                "{name}"
            );
        }
        // A document whose replay disagrees with its digest stores nothing.
        let mut forged = exported[0].clone();
        forged.state_sha256 = Some("0".repeat(64));
        let here = Location {
            guild: None,
            channel: 9100,
        };
        assert!(matches!(
            store.admin().import(&forged, here, &[]),
            Err(StoreError::BadExport(_))
        ));
        assert_eq!(
            store.games().game_in_channel(9100).expect("q"),
            None,
            "{name}"
        );
        drop(store);
        let (_, report) = place.open(4);
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        assert_eq!(report.verified, 1 + exported.len(), "{name}");
    }
}

/// A computer player's move, worked out at move `seq` without the game's lock, is refused
/// (`MovedOn`, nothing written) once the game moved on: in this store, or in another process.
#[test]
fn a_move_worked_out_on_an_old_state_is_refused() {
    for place in places("applyat") {
        let name = place.name();
        let (a, _) = place.open(8);
        let game = torture_game(&a, 95).expect("game");
        drive(&a, game, 95, 3, |_| {}).expect("plays");
        let (seat, decisions) = a_move(&a, game);
        let seq = a.games().live_state(game).expect("live").1;
        assert!(matches!(
            a.games().apply_at(game, seat, &decisions, seq - 1, &no_effects),
            Err(StoreError::MovedOn(g)) if g == game
        ));
        assert_eq!(
            a.games().log(game).expect("log").len() as u64,
            seq,
            "{name}"
        );
        // Another process moves first.
        let (b, _) = place.open(8);
        let (seat_b, decisions_b) = a_move(&b, game);
        b.games()
            .apply(game, seat_b, &decisions_b)
            .expect("b moves");
        let err = a
            .games()
            .apply_at(game, seat, &decisions, seq, &no_effects)
            .unwrap_err();
        assert!(
            matches!(err, StoreError::MovedOn(g) if g == game),
            "{name}: {err}"
        );
        assert_eq!(
            a.games().log(game).expect("log").len() as u64,
            seq + 1,
            "{name}"
        );
        // a reloaded the game: a move worked out on the fresh state is accepted.
        let fresh = a.games().live_state(game).expect("live").1;
        assert_eq!(fresh, seq + 1, "{name}");
        let (seat, decisions) = a_move(&a, game);
        assert_eq!(
            a.games()
                .apply_at(game, seat, &decisions, fresh, &no_effects)
                .expect("move")
                .seq,
            seq + 2,
            "{name}"
        );
        check_log_and_state(&a, game, name);
    }
}

/// A seat a person takes over carries their name in every state from then on: seat names are
/// not history. The snapshots written before the take-over still hold the computer player's
/// name, yet a restart checks the game against a replay from the seed without calling it
/// damaged, and an undo and a rollback across the take-over, the admin's history check and an
/// export imported elsewhere all keep the new name. The current board is drawn again.
#[test]
fn a_seat_taken_over_carries_its_new_name_through_restart_undo_rollback_and_export() {
    let names = |state: &engine::GameState| -> Vec<String> {
        state.seats.iter().map(|s| s.name.clone()).collect()
    };
    for place in places("seatname") {
        let name = place.name();
        let (store, _) = place.open(2);
        let mut new = discord_new_game(3, 600, &[1, 2]);
        new.seats[1] = NewSeat {
            owner: SeatOwner::Vacant,
            name: "Computer 1".to_string(),
            notify: Notify::Ephemeral,
        };
        let (game, state) = store
            .games()
            .create_game(with_level(new, "easy"))
            .expect("a game");
        assert_eq!(names(&state), ["user1", "Computer 1"], "{name}");
        // Five moves, snapshotted every two with the computer player's name.
        for _ in 0..5 {
            let (seat, decisions) = a_move(&store, game);
            store.games().apply(game, seat, &decisions).expect("move");
        }
        let Some(LogEntry::Batch {
            seat: last_mover, ..
        }) = store.games().last_entry(game).expect("q")
        else {
            panic!("{name}: the last entry is a move");
        };
        store
            .images()
            .store_board_png(game, 5, b"png")
            .expect("a drawn board");

        store
            .people()
            .take_seat(game, 1, 2, "bob", None)
            .expect("bob takes seat 2");
        let (state, seq) = store.games().live_state(game).expect("live");
        assert_eq!(
            (names(&state), seq),
            (vec!["user1".into(), "bob".into()], 5),
            "{name}"
        );
        assert_eq!(
            store.games().game(game).expect("row").seat_names,
            ["user1", "bob"]
        );
        assert_eq!(
            store.people().seats(game).expect("seats")[1].name,
            "bob",
            "{name}"
        );
        assert_eq!(
            store.images().board_png(game, 5).expect("q"),
            None,
            "{name}: drawn again"
        );
        check_log_and_state(&store, game, name);
        // A restart before any new snapshot: the latest one holds the old name.
        drop(store);
        let (store, report) = place.open(2);
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        assert_eq!(report.verified, 1, "{name}");
        assert_eq!(
            store.games().live_state(game).expect("live"),
            (state, seq),
            "{name}"
        );

        // An undo across the take-over rebuilds from a snapshot with the old name.
        let undo = store.games().undo(game, last_mover).expect("undo");
        assert_eq!(names(&undo.state), ["user1", "bob"], "{name}");
        check_log_and_state(&store, game, name);
        for _ in 0..3 {
            let (seat, decisions) = a_move(&store, game);
            store.games().apply(game, seat, &decisions).expect("move");
        }
        let before = store.games().live_state(game).expect("live");

        drop(store);
        let (store, report) = place.open(2);
        assert!(report.damaged.is_empty(), "{name}: {:?}", report.damaged);
        assert_eq!(report.verified, 1, "{name}");
        assert_eq!(
            store.games().live_state(game).expect("live"),
            before,
            "{name}"
        );
        let history = store.admin().history(game).expect("history");
        assert_eq!(history.problem, None, "{name}");
        assert_eq!(history.last_good, history.entries, "{name}");

        let doc = store.admin().export(game).expect("export");
        assert_eq!(doc.seat_names, ["user1", "bob"], "{name}");
        let elsewhere = Location {
            guild: Some(3),
            channel: 601,
        };
        let (copy, imported) = store
            .admin()
            .import(
                &doc,
                elsewhere,
                &[SeatOwner::Discord(1), SeatOwner::Discord(2)],
            )
            .expect("import");
        assert_eq!(names(&imported), ["user1", "bob"], "{name}");
        check_log_and_state(&store, copy, name);

        let out = store.games().rollback(game, 3, 77, None).expect("rollback");
        assert_eq!(names(&out.state), ["user1", "bob"], "{name}");
        check_log_and_state(&store, game, name);
    }
}
