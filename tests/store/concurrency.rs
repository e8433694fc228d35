//! Concurrency through the async GameHub: 8 tasks firing commands at one game, and 8 tasks
//! each at 50 games at once. No move may be lost or duplicated, and the only errors allowed
//! are the rules' ("not your turn", a decision no longer legal). Different games proceed in
//! parallel: a long command on one game does not hold up another.

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::engine::{self, Decision};
use skymines::store::replay;
use skymines::store::torture::torture_game_on;
use skymines::store::{GameHub, GameId, LogEntry, StoreError};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one task saw succeed: (seq, seat, decisions).
type Done = Vec<(u64, usize, Vec<Decision>)>;

/// Fires `attempts` commands at `game`: reads the state, picks a seat (often one that is not to
/// move, or a decision gone stale by the time it arrives) and a legal-looking decision.
async fn fire(hub: Arc<GameHub>, game: GameId, task: u64, attempts: usize) -> (Done, usize) {
    let data = data();
    let mut rng = ChaCha8Rng::seed_from_u64(game as u64 * 1000 + task);
    let mut done = Vec::new();
    let mut refused = 0;
    for _ in 0..attempts {
        let (state, _) = match hub.state(game).await {
            Ok(s) => s,
            Err(StoreError::NotActive { .. }) => break,
            Err(e) => panic!("reading the state failed: {e}"),
        };
        let waiting = engine::waiting_on(&state);
        let seat = if rng.gen_ratio(1, 4) {
            rng.gen_range(0..state.seats.len())
        } else {
            waiting[rng.gen_range(0..waiting.len())]
        };
        let legal = engine::legal_decisions(&data, &state, seat);
        let decision = if legal.is_empty() {
            Decision::PlanDone
        } else {
            skymines::bots::weighted::choose(&mut rng, &data, &state, seat, &legal)
                .unwrap_or(legal[0])
        };
        tokio::task::yield_now().await;
        match hub.apply(game, seat, vec![decision]).await {
            Ok(out) => done.push((out.seq, seat, vec![decision])),
            Err(StoreError::Rule(_)) => refused += 1,
            Err(StoreError::NotActive { .. }) => break,
            Err(e) => panic!("game {game}: an error other than the rules': {e}"),
        }
    }
    (done, refused)
}

/// Every success is in the log exactly once at its number, nothing else is, and the state is
/// the replay of the log.
fn check_game(hub: &GameHub, game: GameId, mut done: Done) {
    let store = hub.store();
    let log = store.log(game).expect("log");
    done.sort_by_key(|d| d.0);
    let seqs: Vec<u64> = done.iter().map(|d| d.0).collect();
    assert_eq!(
        seqs,
        (1..=log.len() as u64).collect::<Vec<_>>(),
        "game {game}: no lost or duplicated move"
    );
    for ((seq, seat, decisions), entry) in done.iter().zip(&log) {
        match entry {
            LogEntry::Batch {
                seq: s,
                seat: t,
                decisions: d,
                ..
            } => assert_eq!((s, t, d), (seq, seat, decisions), "game {game}"),
            other => panic!("unexpected {other:?}"),
        }
    }
    let rec = store.game(game).expect("game");
    assert_eq!(rec.seq, log.len() as u64);
    let replayed =
        replay::replay_from_seed(&data(), &rec.options, &rec.seat_names, &log).expect("replays");
    assert_eq!(*store.state(game).expect("state"), replayed, "game {game}");
}

fn hub(dir: &TempDir) -> Arc<GameHub> {
    let (store, _) = open(&dir.db(), 8);
    Arc::new(GameHub::new(store))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_tasks_at_one_game() {
    let dir = TempDir::new("conc-one");
    let hub = hub(&dir);
    let game = torture_game_on(hub.store().as_ref(), 300).expect("game");
    let tasks: Vec<_> = (0..8)
        .map(|t| tokio::spawn(fire(hub.clone(), game, t, 60)))
        .collect();
    let mut done = Vec::new();
    let mut refused = 0;
    for t in tasks {
        let (d, r) = t.await.expect("task");
        done.extend(d);
        refused += r;
    }
    // How many of the 480 attempts win depends on how the tasks interleave (a loaded machine
    // makes more of them stale), so the floor only makes sure the game moved a good deal.
    assert!(done.len() >= 50, "{} moves", done.len());
    assert!(refused > 0, "some commands must have raced");
    check_game(&hub, game, done);
    // And it restores to the same state.
    let (state, seq) = hub.state(game).await.expect("state");
    drop(hub);
    let (store, report) = open(&dir.db(), 8);
    assert_eq!(report.verified, 1);
    assert_eq!(store.live_state(game).expect("state"), (state, seq));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_games_at_once() {
    let dir = TempDir::new("conc-fifty");
    let hub = hub(&dir);
    let games: Vec<GameId> = (0..50u64)
        .map(|i| torture_game_on(hub.store().as_ref(), 400 + i).expect("game"))
        .collect();
    let mut tasks = Vec::new();
    for &game in &games {
        for t in 0..8 {
            tasks.push((game, tokio::spawn(fire(hub.clone(), game, t, 8))));
        }
    }
    let mut done: BTreeMap<GameId, Done> = BTreeMap::new();
    let mut total = 0;
    for (game, t) in tasks {
        let (d, _) = t.await.expect("task");
        total += d.len();
        done.entry(game).or_default().extend(d);
    }
    assert!(total > 1000, "{total} moves");
    for (game, d) in done {
        check_game(&hub, game, d);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_game_does_not_hold_up_another() {
    let dir = TempDir::new("conc-parallel");
    let hub = hub(&dir);
    let a = torture_game_on(hub.store().as_ref(), 501).expect("game");
    let b = torture_game_on(hub.store().as_ref(), 502).expect("game");
    let slow = {
        let hub = hub.clone();
        tokio::spawn(async move {
            hub.with_game(a, |_| {
                std::thread::sleep(Duration::from_millis(600));
                Ok(())
            })
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let started = Instant::now();
    let (state, _) = hub.state(b).await.expect("state");
    let seat = engine::waiting_on(&state)[0];
    let d = engine::legal_decisions(&data(), &state, seat)[0];
    hub.apply(b, seat, vec![d]).await.expect("move on b");
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "game b waited {:?} for game a",
        started.elapsed()
    );
    // A command on game a waits for the slow one.
    let started = Instant::now();
    hub.state(a).await.expect("state");
    assert!(started.elapsed() >= Duration::from_millis(300));
    slow.await.expect("task").expect("slow command");
}
