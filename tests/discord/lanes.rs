//! Concurrency on the path the bot uses from its async tasks to the store
//! (`skymines::discord::lanes`: each place's work in order, on tokio's blocking pool): 8 tasks
//! firing commands at one game, and 8 tasks each at 50 games at once. No move may be lost or
//! duplicated, and the only errors allowed are the rules' ("not your turn", a decision no
//! longer legal). Different games proceed in parallel: a long command on one game does not
//! hold up another (shown without timing: the busy game is held until the other has moved).

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::discord::lanes::{blocking, Lanes, OrderKey};
use skymines::engine::{self, Decision};
use skymines::store::replay;
use skymines::store::torture::torture_game;
use skymines::store::{GameId, LogEntry, Store, StoreError};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// What one task saw succeed: (seq, seat, decisions).
type Done = Vec<(u64, usize, Vec<Decision>)>;

/// The store and the bot's path to it.
struct Hub {
    store: Arc<Store>,
    lanes: Lanes,
}

impl Hub {
    /// Runs `f` on the store in the game's lane, on the blocking pool.
    async fn with_game<T, F>(&self, game: GameId, f: F) -> Result<T, StoreError>
    where
        F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        // As the bot handles a request: in the place's lane, the work on the blocking pool.
        let store = self.store.clone();
        self.lanes
            .ordered(OrderKey::Game(game), || blocking(move || f(&store)))
            .await
            .map_err(StoreError::Worker)?
    }

    async fn state(&self, game: GameId) -> Result<(Arc<engine::GameState>, u64), StoreError> {
        self.with_game(game, move |s| s.games().live_state(game))
            .await
    }

    async fn apply(
        &self,
        game: GameId,
        seat: usize,
        decisions: Vec<Decision>,
    ) -> Result<skymines::store::MoveOutcome, StoreError> {
        self.with_game(game, move |s| s.games().apply(game, seat, &decisions))
            .await
    }

    fn store(&self) -> &Store {
        &self.store
    }
}

/// Fires `attempts` commands at `game`: reads the state, picks a seat (often one that is not to
/// move, or a decision gone stale by the time it arrives) and a legal-looking decision.
async fn fire(hub: Arc<Hub>, game: GameId, task: u64, attempts: usize) -> (Done, usize) {
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
fn check_game(hub: &Hub, game: GameId, mut done: Done) {
    let store = hub.store();
    let log = store.games().log(game).expect("log");
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
    let rec = store.games().game(game).expect("game");
    assert_eq!(rec.seq, log.len() as u64);
    let replayed =
        replay::replay_from_seed(&data(), &rec.options, &rec.seat_names, &log).expect("replays");
    assert_eq!(
        *store.games().state(game).expect("state"),
        replayed,
        "game {game}"
    );
}

fn hub(dir: &TempDir) -> Arc<Hub> {
    let (store, _) = open(&dir.db(), 8);
    Arc::new(Hub {
        store: Arc::new(store),
        lanes: Lanes::new(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_tasks_at_one_game() {
    let dir = TempDir::new("conc-one");
    let hub = hub(&dir);
    let game = torture_game(hub.store(), 300).expect("game");
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
    assert_eq!(store.games().live_state(game).expect("state"), (state, seq));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_games_at_once() {
    let dir = TempDir::new("conc-fifty");
    let hub = hub(&dir);
    let games: Vec<GameId> = (0..50u64)
        .map(|i| torture_game(hub.store(), 400 + i).expect("game"))
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
    let a = torture_game(hub.store(), 501).expect("game");
    let b = torture_game(hub.store(), 502).expect("game");
    // Game a is busy until the test lets it go (no timing: a move on b that waited for a
    // would never end, and the deadline says so).
    let (busy, is_busy) = tokio::sync::oneshot::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let slow = {
        let hub = hub.clone();
        tokio::spawn(async move {
            hub.with_game(a, move |_| {
                let _ = busy.send(());
                let _ = released.recv();
                Ok(())
            })
            .await
        })
    };
    is_busy.await.expect("game a is busy");
    let move_on_b = async {
        let (state, _) = hub.state(b).await.expect("state");
        let seat = engine::waiting_on(&state)[0];
        let d = engine::legal_decisions(&data(), &state, seat)[0];
        hub.apply(b, seat, vec![d]).await.expect("move on b");
    };
    tokio::time::timeout(Duration::from_secs(60), move_on_b)
        .await
        .expect("game b waits for game a");
    // A command on game a waits until a is let go (looked at after a pause: one that did not
    // wait would be done by then).
    let on_a = {
        let hub = hub.clone();
        tokio::spawn(async move { hub.state(a).await.map(|_| ()) })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!on_a.is_finished(), "a command on game a did not wait");
    release.send(()).expect("game a let go");
    on_a.await.expect("task").expect("state of a");
    slow.await.expect("task").expect("slow command");
    // Once nobody holds or waits for a game's lane, it is forgotten.
    assert_eq!(hub.lanes.busy_places(), 0);
}
