//! Crash safety, on SQLite always and on PostgreSQL when `SKYMINES_TEST_PG_URL` names a server
//! (without it the PostgreSQL runs are skipped with a printed line; each seed gets a database
//! of its own there, dropped at the end): seeded games are interrupted and restored, and each
//! restored game must equal an uninterrupted run of the same seed up to its last committed
//! move (GameState ==). 20 of them run in a child process (`skymines store-torture`, with
//! `--db` or `--database-url`) that is SIGKILLed at random points, several times; others (180
//! on SQLite, 40 on PostgreSQL) get failures injected inside the move transaction (after the
//! decisions, after the snapshot, before the commit) and are closed and reopened at random
//! points. Snapshots come every K = 2..6 moves, so restores replay across snapshots; undo
//! records are part of the games.

use crate::support::pg::{pg_server, PgTestDb};
use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::store::torture::{drive, reference_trace, torture_game};
use skymines::store::{Database, FailPoint, RestoreReport, Store, StoreError};
use std::io::{BufRead, BufReader};
use std::ops::Range;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Where one seed's games live: a fresh SQLite file or a fresh PostgreSQL database.
enum Target {
    Sqlite(TempDir),
    Postgres(PgTestDb),
}

impl Target {
    /// A fresh one on the server `pg` (PostgreSQL) or in a temporary folder (SQLite).
    fn fresh(pg: Option<&str>, label: &str) -> Target {
        match pg {
            Some(admin) => Target::Postgres(PgTestDb::create(admin, label)),
            None => Target::Sqlite(TempDir::new(label)),
        }
    }

    fn database(&self) -> Database {
        match self {
            Target::Sqlite(dir) => Database::Sqlite(dir.db()),
            Target::Postgres(db) => Database::Postgres(db.url().to_string()),
        }
    }

    /// The child's options naming this database.
    fn torture_args(&self) -> Vec<String> {
        match self {
            Target::Sqlite(dir) => vec!["--db".into(), dir.db().display().to_string()],
            Target::Postgres(db) => vec!["--database-url".into(), db.url().to_string()],
        }
    }

    fn open(&self, k: u64) -> (std::sync::Arc<Store>, RestoreReport) {
        self.database()
            .open(data(), options(k))
            .expect("the store opens")
    }
}

#[test]
fn sigkilled_runs_restore_to_their_last_committed_move_sqlite() {
    sigkilled_runs_restore_to_their_last_committed_move(None);
}

#[test]
fn sigkilled_runs_restore_to_their_last_committed_move_postgres() {
    if let Some(admin) = pg_server("sigkilled_runs_restore_to_their_last_committed_move") {
        sigkilled_runs_restore_to_their_last_committed_move(Some(&admin));
    }
}

fn sigkilled_runs_restore_to_their_last_committed_move(pg: Option<&str>) {
    let exe = env!("CARGO_BIN_EXE_skymines");
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let (rounds, per_round) = (3u64, 40u64);
    let (mut mid_run, mut kills) = (0, 0);
    for seed in 1000..1020u64 {
        let target = Target::fresh(pg, &format!("kill{seed}"));
        let k = 2 + seed % 5;
        let trace = reference_trace(&data(), seed, rounds * per_round);
        assert_eq!(
            trace.len() as u64,
            rounds * per_round + 1,
            "seed {seed} lasts long enough"
        );
        let mut seq = 0;
        for round in 1..=rounds {
            // Each run continues the game towards a further target and is killed on the way.
            let goal = round * per_round;
            let mut child = Command::new(exe)
                .arg("store-torture")
                .args(target.torture_args())
                .args(["--seed", &seed.to_string(), "--moves", &goal.to_string()])
                .args(["--snapshot-every", &k.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the helper starts");
            // Most often after it reported a random number of committed moves (it is then
            // busy with the next one), sometimes while it is still opening the store.
            if rng.gen_ratio(5, 6) {
                let wait_for = rng.gen_range(0..per_round - 1);
                if let Some(out) = child.stdout.take() {
                    let mut lines = BufReader::new(out).lines();
                    let _ready = lines.next();
                    for _ in 0..wait_for {
                        if lines.next().is_none() {
                            break;
                        }
                    }
                    std::thread::sleep(Duration::from_micros(rng.gen_range(0..300)));
                }
            } else {
                std::thread::sleep(Duration::from_micros(rng.gen_range(0..3_000)));
            }
            if child.kill().is_ok() {
                kills += 1;
            }
            let _ = child.wait();

            let (store, report) = target.open(k);
            assert!(
                report.damaged.is_empty(),
                "seed {seed}: {:?}",
                report.damaged
            );
            let Some(game) = store.games().game_in_channel(seed).expect("lookup") else {
                continue; // killed before the game was created
            };
            assert_eq!((report.restored, report.verified), (1, 1), "seed {seed}");
            let (state, now) = store.games().live_state(game).expect("state");
            assert_eq!(store.games().log(game).expect("log").len() as u64, now);
            assert!(now >= seq, "seed {seed}: committed moves never disappear");
            assert_eq!(*state, trace[now as usize], "seed {seed} after {now} moves");
            if now > seq && now < goal {
                mid_run += 1;
            }
            seq = now;
        }
        // And it plays on to the end like an uninterrupted run.
        let (store, _) = target.open(k);
        let store = store.as_ref();
        let game = torture_game(store, seed).expect("game");
        let end = rounds * per_round;
        drive(store, game, seed, end, |_| {}).expect("drive");
        assert_eq!(
            *store.games().live_state(game).expect("state").0,
            trace[end as usize]
        );
    }
    assert!(kills >= 30, "{kills} kills");
    assert!(
        mid_run >= 30,
        "only {mid_run} of 60 runs were killed mid-run"
    );
}

#[test]
fn injected_failures_and_reopening_lose_nothing_sqlite() {
    injected_failures_and_reopening_lose_nothing(None, 2000..2180);
}

#[test]
fn injected_failures_and_reopening_lose_nothing_postgres() {
    // Fewer seeds than on SQLite: every reopen is a new connection, and each seed a database.
    if let Some(admin) = pg_server("injected_failures_and_reopening_lose_nothing") {
        injected_failures_and_reopening_lose_nothing(Some(&admin), 2000..2040);
    }
}

fn injected_failures_and_reopening_lose_nothing(pg: Option<&str>, seeds: Range<u64>) {
    let points = [
        FailPoint::AfterDecisions,
        FailPoint::AfterSnapshot,
        FailPoint::BeforeCommit,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa11);
    let (mut failures, mut reopens, mut undos) = (0, 0, 0);
    let n = seeds.clone().count();
    for seed in seeds {
        let target = Target::fresh(pg, &format!("fail{seed}"));
        let k = 2 + seed % 5;
        let moves = 24 + seed % 24;
        let trace = reference_trace(&data(), seed, moves);
        assert_eq!(trace.len() as u64, moves + 1);
        let (mut store, _) = target.open(k);
        let game = torture_game(store.as_ref(), seed).expect("game");
        loop {
            let (before, seq) = store.games().live_state(game).expect("state");
            assert_eq!(
                *before, trace[seq as usize],
                "seed {seed} after {seq} moves"
            );
            if seq >= moves {
                break;
            }
            if rng.gen_ratio(1, 3) {
                let point = points[rng.gen_range(0..points.len())];
                store.fail_next(point);
                match step(store.as_ref(), game, seed) {
                    Some(Err(StoreError::Injected(p))) => assert_eq!(p, point),
                    other => panic!("seed {seed}: expected the injected failure, got {other:?}"),
                }
                failures += 1;
                let (after, seq_after) = store.games().live_state(game).expect("state");
                assert_eq!((seq_after, *after == *before), (seq, true), "seed {seed}");
                assert_eq!(store.games().log(game).expect("log").len() as u64, seq);
                assert_eq!(store.games().game(game).expect("game").seq, seq);
            }
            if rng.gen_ratio(1, 5) {
                drop(store);
                let (s, report) = target.open(k);
                store = s;
                reopens += 1;
                assert!(
                    report.damaged.is_empty(),
                    "seed {seed}: {:?}",
                    report.damaged
                );
                assert_eq!((report.restored, report.verified), (1, 1), "seed {seed}");
                continue;
            }
            let done = step(store.as_ref(), game, seed)
                .expect("the game goes on")
                .expect("the move is stored");
            assert_eq!(done, seq + 1);
            if matches!(
                store.games().last_entry(game).expect("last"),
                Some(skymines::store::LogEntry::Undo { .. })
            ) {
                undos += 1;
            }
        }
        drop(store);
        let (store, report) = target.open(k);
        assert_eq!(report.verified, 1);
        assert_eq!(
            *store.games().live_state(game).expect("state").0,
            trace[moves as usize],
            "seed {seed}"
        );
    }
    // The same shares of the 180 SQLite seeds' 500 failures, 300 reopens and 100 undos.
    assert!(failures * 180 > 500 * n, "{failures} failures");
    assert!(reopens * 180 > 300 * n, "{reopens} reopens");
    assert!(undos * 180 > 100 * n, "{undos} undos");
}
