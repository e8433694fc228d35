//! Store speed: persisting one move (median, p99) with WAL and synchronous=NORMAL (the default)
//! and, for comparison, FULL; restoring 10,000 stored games at start-up (with the check
//! against a replay from the seed). Run: `cargo bench --bench store`.

use skymines::data::GameData;
use skymines::store::torture::{next_move, torture_game, Move};
use skymines::store::{Store, StoreOptions, Synchronous};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skymines-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench folder");
    dir
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Plays `games` games round-robin until `moves` moves were stored, timing each `apply`.
fn play(store: &Store, first_seed: u64, games: u64, moves: usize) -> Vec<Duration> {
    let ids: Vec<_> = (0..games)
        .map(|i| torture_game(store, first_seed + i).expect("game"))
        .collect();
    let mut times = Vec::with_capacity(moves);
    let mut k = 0usize;
    let mut stalled = 0;
    while times.len() < moves && stalled < ids.len() {
        let (i, id) = (k % ids.len(), ids[k % ids.len()]);
        k += 1;
        let Ok((state, seq)) = store.live_state(id) else {
            stalled += 1;
            continue;
        };
        let seed = first_seed + i as u64;
        match next_move(store.data(), &state, None, seed, seq) {
            Some(Move::Batch { seat, decisions }) => {
                let t = Instant::now();
                store.apply(id, seat, &decisions).expect("move");
                times.push(t.elapsed());
            }
            _ => stalled += 1,
        }
    }
    times
}

fn persist(data: &Arc<GameData>, sync: Synchronous) {
    let dir = fresh_dir("persist");
    let options = StoreOptions {
        synchronous: sync,
        ..StoreOptions::default()
    };
    let (store, _) = Store::open(dir.join("bench.db"), data.clone(), options).expect("open");
    play(&store, 1, 20, 300); // warm up: file growth, statement cache
    let mut times = play(&store, 1000, 20, 3000);
    times.sort();
    println!(
        "persist one move, WAL + synchronous={sync:?}, snapshot every {}: median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} moves)",
        store.options().snapshot_every,
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.9)),
        ms(percentile(&times, 0.99)),
        ms(*times.last().unwrap_or(&Duration::ZERO)),
        times.len()
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 100 distinct games stopped at random points of their lives (10 to 250 moves, undos
/// included; a game lasts about 190 moves, finished ones are skipped), copied 100 times over
/// in SQL: 10,000 active games.
fn build_many(data: &Arc<GameData>, path: &Path) {
    let (store, _) = Store::open(path, data.clone(), StoreOptions::default()).expect("open");
    let mut seed = 50_000u64;
    while store.live_games().len() < 100 {
        let id = torture_game(&store, seed).expect("game");
        let target = 10 + (seed * 37) % 241;
        skymines::store::torture::drive(&store, id, seed, target, |_| {}).expect("drive");
        seed += 1;
    }
    drop(store);
    let conn = rusqlite::Connection::open(path).expect("open for copying");
    conn.execute_batch("BEGIN").expect("begin");
    for copy in 1..100i64 {
        let off = copy * 1000;
        conn.execute_batch(&format!(
            "INSERT INTO games (id, guild, channel, status, options, seed, seat_names, engine_version, data_hash, last_seq, damage_report, created_at, updated_at)
               SELECT id + {off}, guild, channel + {off} * 1000, status, options, seed, seat_names, engine_version, data_hash, last_seq, damage_report, created_at, updated_at FROM games WHERE id < 1000 AND status = 'active';
             INSERT INTO seats SELECT game_id + {off}, seat, kind, user_id, name, colour, notify FROM seats WHERE game_id IN (SELECT id FROM games WHERE id < 1000 AND status = 'active');
             INSERT INTO moves SELECT game_id + {off}, seq, kind, seat, decisions, undoes, at FROM moves WHERE game_id IN (SELECT id FROM games WHERE id < 1000 AND status = 'active');
             INSERT INTO snapshots (game_id, seq, engine_version, state, at) SELECT game_id + {off}, seq, engine_version, state, at FROM snapshots WHERE game_id IN (SELECT id FROM games WHERE id < 1000 AND status = 'active');"
        ))
        .expect("copy");
    }
    conn.execute_batch("COMMIT").expect("commit");
}

fn restore(data: &Arc<GameData>) {
    let dir = fresh_dir("restore");
    let path = dir.join("many.db");
    let t = Instant::now();
    build_many(data, &path);
    let built = t.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let (store, report) = Store::open(&path, data.clone(), StoreOptions::default()).expect("open");
    println!(
        "restore at start-up: {} active games ({} verified against a replay from the seed, {} damaged) in {:.2} s ({:.3} ms per game, {} threads); file {:.0} MB, built in {:.1} s",
        report.restored,
        report.verified,
        report.damaged.len(),
        report.elapsed.as_secs_f64(),
        ms(report.elapsed) / report.restored.max(1) as f64,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        size as f64 / 1e6,
        built.as_secs_f64()
    );
    drop(store);
    let (store, report) = Store::open(
        &path,
        data.clone(),
        StoreOptions {
            verify_on_restore: false,
            ..StoreOptions::default()
        },
    )
    .expect("open");
    println!(
        "restore without the replay check: {} games in {:.2} s",
        report.restored,
        report.elapsed.as_secs_f64()
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    // `cargo bench --bench store -- persist` or `-- restore` runs one part.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = |name: &str| {
        !args.iter().any(|a| a == "persist" || a == "restore") || args.iter().any(|a| a == name)
    };
    let data = Arc::new(GameData::embedded().expect("the built-in data loads"));
    if only("persist") {
        persist(&data, Synchronous::Normal);
        persist(&data, Synchronous::Full);
    }
    if only("restore") {
        restore(&data);
    }
}
