//! Store speed: persisting one move (median, p99; goal: median under 2 ms) with WAL and
//! synchronous=NORMAL (the default) and, for comparison, FULL; restoring 10,000 stored games at
//! start-up with the check against a replay from the seed (goal: under 10 s). A timed move is
//! kept only if the store accepted it (its sequence number, the state's version, is the next
//! one); the restore must bring back every game, each verified and none damaged; otherwise
//! the benchmark fails. The 10,000 games are written through the store's own API (`import`
//! of exported games), so the benchmark follows the schema.
//!
//! PostgreSQL too, when `SKYMINES_TEST_PG_URL` names a server (CI starts one on a Unix socket,
//! see `.ci/pg-cluster`; without it the PostgreSQL part is skipped with a printed line, or
//! fails under `SKYMINES_REQUIRE_PG=1`, as CI runs it): the
//! same persisted moves (goal: median under 2 ms), and 10,000 games restored (goal: under
//! 20 s). There the games are built from `distinct` games played through the store, copied
//! server-side in SQL (no import on that backend yet); the restore still checks every one
//! against a replay from its seed, so a wrong copy fails the benchmark.
//! `cargo bench --bench store` (`-- persist` or `-- restore` runs one part, `-- sqlite` or
//! `-- postgres` one backend; `BENCH_QUICK=1`: 300 moves, 100 games).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

#[path = "../tests/support/pg.rs"]
mod pg;

use pg::{pg_server, PgTestDb};
use skymines::data::GameData;
use skymines::store::torture::{drive, next_move, torture_game, Move};
use skymines::store::{Location, RestoreReport, Store, StoreOptions, Synchronous};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use support::{assert_accepted, ms, size, Samples};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skymines-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_accepted("the bench folder", std::fs::create_dir_all(&dir));
    dir
}

/// Plays `games` torture games round-robin until `moves` moves were stored, timing each
/// `apply`.
fn play(store: &Store, first_seed: u64, games: u64, moves: usize, samples: &mut Samples) {
    let ids: Vec<_> = (0..games)
        .map(|i| assert_accepted("a new game", torture_game(store, first_seed + i)))
        .collect();
    let mut k = 0usize;
    let mut over = 0;
    while samples.kept() < moves && over < ids.len() {
        let (i, id) = (k % ids.len(), ids[k % ids.len()]);
        k += 1;
        let Ok((state, seq)) = store.games().live_state(id) else {
            samples.skip("the game is over");
            over += 1;
            continue;
        };
        let seed = first_seed + i as u64;
        match next_move(store.data(), &state, None, seed, seq) {
            Some(Move::Batch { seat, decisions }) => {
                let t = Instant::now();
                let result = store.games().apply(id, seat, &decisions);
                let elapsed = t.elapsed();
                samples.keep(elapsed, moved(seq, result.map(|o| o.seq)));
            }
            _ => {
                samples.skip("no move left (the game ended)");
                over += 1;
            }
        }
    }
}

/// A move was stored if it got the next sequence number.
fn moved<E: std::fmt::Display>(before: u64, after: Result<u64, E>) -> Result<(), String> {
    match after {
        Ok(seq) if seq == before + 1 => Ok(()),
        Ok(seq) => Err(format!("stored as move {seq} after move {before}")),
        Err(e) => Err(format!("refused after move {before}: {e}")),
    }
}

fn persist(data: &Arc<GameData>, sync: Synchronous, moves: usize) {
    let dir = fresh_dir("persist");
    let options = StoreOptions {
        synchronous: sync,
        ..StoreOptions::default()
    };
    let (store, _) = assert_accepted(
        "opening the store",
        Store::open(dir.join("bench.db"), data.clone(), options),
    );
    // Warm up: file growth, statement cache.
    play(&store, 1, 20, moves / 10, &mut Samples::new("warm-up"));
    let mut samples = Samples::new(&format!("persisted moves, synchronous={sync:?}"));
    play(&store, 1000, 20, moves, &mut samples);
    println!(
        "persist one move, WAL + synchronous={sync:?}, snapshot every {}: median {:.3} ms (goal < 2 ms), p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        store.options().snapshot_every,
        ms(samples.percentile(0.5)),
        ms(samples.percentile(0.9)),
        ms(samples.percentile(0.99)),
        ms(samples.percentile(1.0)),
    );
    samples.finish(moves);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `distinct` games stopped at different points of their lives (10 to 250 moves, undos
/// included; a game lasts about 190 moves, finished ones are replaced), each exported and
/// imported `copies - 1` times more into other channels: `distinct * copies` active games.
fn build_many(data: &Arc<GameData>, path: &Path, distinct: usize, copies: u64) {
    let (store, _) = assert_accepted(
        "opening the store",
        Store::open(path, data.clone(), StoreOptions::default()),
    );
    let mut seed = 50_000u64;
    while store.games().live_games().len() < distinct {
        let id = assert_accepted("a new game", torture_game(&store, seed));
        let target = 10 + (seed * 37) % 241;
        assert_accepted("playing a game", drive(&store, id, seed, target, |_| {}));
        seed += 1;
    }
    let mut originals = store.games().live_games();
    originals.sort();
    let docs: Vec<_> = originals
        .iter()
        .map(|id| assert_accepted("exporting a game", store.admin().export(*id)))
        .collect();
    // An import replays the game outside the store's write lock: one thread per core.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (store, docs) = (&store, &docs);
            scope.spawn(move || {
                for (i, doc) in docs.iter().enumerate().skip(t).step_by(threads) {
                    for copy in 1..copies {
                        let place = Location {
                            guild: None,
                            channel: 10_000_000 + copy * 100_000 + i as u64,
                        };
                        assert_accepted("importing a copy", store.admin().import(doc, place, &[]));
                    }
                }
            });
        }
    });
}

/// A restore is accepted when every game came back, verified against its replay, none damaged.
pub fn restored_whole(report: &RestoreReport, expected: usize, verify: bool) -> Result<(), String> {
    if report.restored != expected {
        return Err(format!("{} of {expected} games restored", report.restored));
    }
    if let Some((id, why)) = report.damaged.first() {
        return Err(format!(
            "{} damaged, e.g. game {id:?}: {why}",
            report.damaged.len()
        ));
    }
    if verify && report.verified != expected {
        let example = report
            .unverified
            .first()
            .map(|(id, why)| format!(", e.g. game {id:?}: {why}"));
        return Err(format!(
            "{} of {expected} games verified{}",
            report.verified,
            example.unwrap_or_default()
        ));
    }
    Ok(())
}

fn restore(data: &Arc<GameData>, distinct: usize, copies: u64) {
    let expected = distinct * copies as usize;
    let dir = fresh_dir("restore");
    let path = dir.join("many.db");
    let t = Instant::now();
    build_many(data, &path, distinct, copies);
    let built = t.elapsed();
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mut samples = Samples::new("restores");
    let cpu = cpu_seconds();
    let (store, report) = assert_accepted(
        "opening the store",
        Store::open(&path, data.clone(), StoreOptions::default()),
    );
    let cpu = cpu_seconds() - cpu;
    samples.keep(report.elapsed, restored_whole(&report, expected, true));
    println!(
        "restore at start-up: {} active games, {} verified against a replay from the seed, in {:.2} s, {cpu:.2} s of processor time (goal < 10 s for 10,000; {:.3} ms a game, {} threads); file {:.0} MB, built in {:.1} s",
        report.restored,
        report.verified,
        report.elapsed.as_secs_f64(),
        ms(report.elapsed) / report.restored.max(1) as f64,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        size as f64 / 1e6,
        built.as_secs_f64()
    );
    drop(store);
    let (store, report) = assert_accepted(
        "opening the store",
        Store::open(
            &path,
            data.clone(),
            StoreOptions {
                verify_on_restore: false,
                ..StoreOptions::default()
            },
        ),
    );
    samples.keep(report.elapsed, restored_whole(&report, expected, false));
    println!(
        "restore without the replay check: {} games in {:.2} s",
        report.restored,
        report.elapsed.as_secs_f64()
    );
    samples.finish(2);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The processor time this process has used so far (every thread), in seconds: a restore's
/// cost that a busy machine changes less than its wall time.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A database of its own on the server of `SKYMINES_TEST_PG_URL` (the tests' kind, from
/// `tests/support/pg.rs`), dropped at the end.
struct PgDatabase(PgTestDb);

impl PgDatabase {
    fn create(admin: &str, name: &str) -> PgDatabase {
        PgDatabase(PgTestDb::create(admin, &format!("bench{name}")))
    }

    fn open(&self, data: &Arc<GameData>, options: StoreOptions) -> (Store, RestoreReport) {
        assert_accepted(
            "opening the PostgreSQL store",
            Store::open_postgres(self.0.url(), data.clone(), options),
        )
    }
}

/// The server's own message: a `postgres::Error` shows only "db error".
fn pg_error(e: postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{e}: {}", db.message()),
        None => e.to_string(),
    }
}

fn pg_persist(data: &Arc<GameData>, admin: &str, sync: Synchronous, moves: usize) {
    let db = PgDatabase::create(admin, "persist");
    let options = StoreOptions {
        synchronous: sync,
        ..StoreOptions::default()
    };
    let (store, _) = db.open(data, options);
    play(&store, 1, 20, moves / 10, &mut Samples::new("warm-up"));
    let mut samples = Samples::new("persisted moves, PostgreSQL");
    play(&store, 1000, 20, moves, &mut samples);
    println!(
        "persist one move, PostgreSQL over {}, synchronous={sync:?} (synchronous_commit {}), snapshot every {}: median {:.3} ms (goal < 2 ms), p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        store.describe(),
        if sync == Synchronous::Full { "on" } else { "off" },
        store.options().snapshot_every,
        ms(samples.percentile(0.5)),
        ms(samples.percentile(0.9)),
        ms(samples.percentile(0.99)),
        ms(samples.percentile(1.0)),
    );
    samples.finish(moves);
}

/// `distinct` games played through the PostgreSQL store (stopped at 10 to 250 moves, as on
/// SQLite), then copied `copies - 1` times into other channels by SQL on the server.
fn pg_build_many(data: &Arc<GameData>, db: &PgDatabase, distinct: usize, copies: u64) {
    let (store, _) = db.open(data, StoreOptions::default());
    let mut seed = 50_000u64;
    while store.games().live_games().len() < distinct {
        let id = assert_accepted("a new game", torture_game(&store, seed));
        let target = 10 + (seed * 37) % 241;
        assert_accepted("playing a game", drive(&store, id, seed, target, |_| {}));
        seed += 1;
    }
    drop(store);
    // Copies live in channels copy * 1,000,000 + the original's (the originals are < 1,000,000).
    let sql = format!(
        "INSERT INTO games (guild, channel, status, options, seed, seat_names, engine_version, \
             data_hash, last_seq, created_at, updated_at) \
         SELECT guild, channel + c * 1000000, status, options, seed, seat_names, engine_version, \
             data_hash, last_seq, created_at, updated_at \
         FROM games, generate_series(1, {last}) AS c WHERE status = 'active'; \
         CREATE TEMP TABLE copies AS SELECT n.id AS new_id, o.id AS old_id FROM games n \
             JOIN games o ON o.channel = n.channel % 1000000 AND o.channel < 1000000 \
             WHERE n.channel >= 1000000; \
         INSERT INTO seats SELECT m.new_id, s.seat, s.kind, s.user_id, s.name, s.colour, s.notify, \
             s.waiting_since FROM seats s JOIN copies m ON m.old_id = s.game_id; \
         INSERT INTO moves (game_id, seq, kind, seat, decisions, undoes, at, back_to, by_user) \
             SELECT m.new_id, seq, kind, seat, decisions, undoes, at, back_to, by_user \
             FROM moves JOIN copies m ON m.old_id = moves.game_id; \
         INSERT INTO snapshots SELECT m.new_id, seq, engine_version, state, at \
             FROM snapshots JOIN copies m ON m.old_id = snapshots.game_id; \
         ANALYZE;",
        last = copies.saturating_sub(1)
    );
    let mut c = assert_accepted(
        "connecting",
        postgres::Client::connect(db.0.url(), postgres::NoTls),
    );
    assert_accepted("copying the games", c.batch_execute(&sql).map_err(pg_error));
}

fn pg_restore(data: &Arc<GameData>, admin: &str, distinct: usize, copies: u64) {
    let expected = distinct * copies as usize;
    let db = PgDatabase::create(admin, "restore");
    let t = Instant::now();
    pg_build_many(data, &db, distinct, copies);
    let built = t.elapsed();
    let mut samples = Samples::new("restores, PostgreSQL");
    let (store, report) = db.open(data, StoreOptions::default());
    samples.keep(report.elapsed, restored_whole(&report, expected, true));
    println!(
        "restore at start-up, PostgreSQL over {}: {} active games, {} verified against a replay from the seed, in {:.2} s (goal < 20 s for 10,000; {:.3} ms a game, {} threads); built in {:.1} s",
        store.describe(),
        report.restored,
        report.verified,
        report.elapsed.as_secs_f64(),
        ms(report.elapsed) / report.restored.max(1) as f64,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        built.as_secs_f64()
    );
    drop(store);
    samples.finish(1);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let named = |names: &[&str], name: &str| {
        !args.iter().any(|a| names.contains(&a.as_str())) || args.iter().any(|a| a == name)
    };
    let only = |name: &str| named(&["persist", "restore"], name);
    let backend = |name: &str| named(&["sqlite", "postgres"], name);
    let data = Arc::new(assert_accepted("the built-in data", GameData::embedded()));
    println!("store benchmark ({})", support::mode());
    let moves = size(3000, 300);
    let (distinct, copies) = size((100, 100), (20, 5));
    if backend("sqlite") {
        if only("persist") {
            persist(&data, Synchronous::Normal, moves);
            persist(&data, Synchronous::Full, moves);
        }
        if only("restore") {
            restore(&data, distinct, copies);
        }
    }
    if backend("postgres") {
        // Skipped with a printed line without a server; fails under SKYMINES_REQUIRE_PG=1.
        if let Some(admin) = pg_server("the store benchmark's PostgreSQL part") {
            if only("persist") {
                pg_persist(&data, &admin, Synchronous::Normal, moves);
                pg_persist(&data, &admin, Synchronous::Full, moves);
            }
            if only("restore") {
                pg_restore(&data, &admin, distinct, copies);
            }
        }
    }
}
