//! Engine speed, on one core, in two parts:
//! - the engine alone: complete random 4-player games, each decision drawn uniformly from
//!   `legal_decisions` but for the mild bias against dropping out early (DECISIONS B12), so
//!   games run their full length; games/s, decisions/s, decisions per game (goal: at least
//!   1,000 games/s);
//! - the operations a search repeats, each timed alone on positions taken from random games:
//!   cloning a `GameState`, `sample::canonical` and `sample::sample` (a seat's view made up into a
//!   full game), `legal_decisions`, and `apply` of one legal decision;
//! - the self-play policy of `sim` (`skymines simulate`), whose weighing costs time of its own,
//!   with the invariant checks off and on;
//!
//! and the largest serialized `GameState`. Every decision must be accepted by `apply`, every
//! game must finish, every clone must equal its original, every sample must offer its seat the
//! decisions the real game offers, and the checks must find nothing, or the benchmark fails.
//! `cargo bench --bench engine` (`BENCH_QUICK=1`: a few games).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::data::GameData;
use skymines::engine::{self, Decision, GameOptions, GameState, Phase};
use skymines::sim::{self, SimConfig};
use std::time::{Duration, Instant};
use support::{assert_accepted, fail, size, Samples};

/// A game not finished after this many decisions is stuck (a game takes a few hundred).
const MAX_DECISIONS: u64 = 20_000;

/// Weights of the engine-alone player: dropping out is six times less likely than any other
/// legal decision (DECISIONS B12's mild bias; without it games end after a round or two).
const DROP_OUT_WEIGHT: u32 = 1;
const OTHER_WEIGHT: u32 = 6;

fn options(seed: u64) -> GameOptions {
    GameOptions {
        players: 4,
        seed,
        ..GameOptions::default()
    }
}

/// Uniform over `legal`, but for the bias against dropping out.
fn random_choice(rng: &mut ChaCha8Rng, legal: &[Decision]) -> Option<Decision> {
    let weight = |d: &Decision| match d {
        Decision::DropOut => DROP_OUT_WEIGHT,
        _ => OTHER_WEIGHT,
    };
    let total: u32 = legal.iter().map(weight).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.gen_range(0..total);
    for d in legal {
        if pick < weight(d) {
            return Some(*d);
        }
        pick -= weight(d);
    }
    None
}

/// Plays one random game to its end, showing `visit` every position before its decision (the
/// state and the seat asked); returns its decisions and rounds, or why it did not end.
/// Never inlined, so a profiler (`valgrind --tool=callgrind --toggle-collect='*random_game*'`)
/// can count the random games alone.
#[inline(never)]
fn random_game(
    data: &GameData,
    seed: u64,
    mut visit: impl FnMut(&GameState, usize),
) -> Result<(u64, u8), String> {
    let mut state = assert_accepted(
        "new game",
        engine::new_game(data, &options(seed), &sim::seat_names(4)),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut decisions = 0u64;
    while state.phase != Phase::Finished {
        if decisions >= MAX_DECISIONS {
            return Err("stuck: not finished after the decision cap".into());
        }
        let Some(&seat) = engine::waiting_on(&state).first() else {
            fail(
                "a random game",
                format!("seed {seed}: unfinished and waiting on nobody"),
            );
        };
        visit(&state, seat);
        let legal = engine::legal_decisions(data, &state, seat);
        let Some(d) = random_choice(&mut rng, &legal) else {
            fail(
                "a random game",
                format!("seed {seed}: seat {seat} is asked but has no legal decision"),
            );
        };
        // The failure's description is written only on a failure: formatting it for every
        // decision cost the timed games about 5 % of their instructions.
        if let Err(e) = engine::apply(data, &mut state, seat, d) {
            fail(&format!("seed {seed}, decision {decisions}: {d:?}"), e);
        }
        decisions += 1;
    }
    Ok((decisions, state.round))
}

fn engine_alone(data: &GameData, games: u64) {
    let mut samples = Samples::new("random games (one sample a game)");
    let (mut decisions, mut rounds) = (0u64, 0u64);
    let cpu = support::thread_cpu_time();
    for seed in 0..games {
        let t = Instant::now();
        match random_game(data, seed, |_, _| {}) {
            Ok((n, r)) => {
                samples.keep(t.elapsed(), Ok(()));
                decisions += n;
                rounds += r as u64;
            }
            Err(why) => samples.skip(&why),
        }
    }
    let cpu_secs = (support::thread_cpu_time() - cpu).as_secs_f64().max(1e-9);
    let kept = samples.kept().max(1) as f64;
    let secs = samples.total().as_secs_f64().max(1e-9);
    println!(
        "engine alone, random 4-player games (uniform over legal_decisions, drop-outs 1:{OTHER_WEIGHT}): {:.0} games/s (goal ≥ 1,000), {:.0} decisions/s ({:.2} µs a decision), {:.0} decisions a game, {:.1} rounds a game",
        kept / secs,
        decisions as f64 / secs,
        secs * 1e6 / decisions.max(1) as f64,
        decisions as f64 / kept,
        rounds as f64 / kept,
    );
    println!(
        "  per CPU second of this thread (what one core does, without the waits of a shared machine): {:.0} games/s, {:.0} decisions/s",
        samples.kept() as f64 / cpu_secs,
        decisions as f64 / cpu_secs,
    );
    samples.finish(games as usize * 9 / 10);
}

/// Seeds of the games the operations' positions come from (apart from the timed games').
const POSITION_SEEDS: u64 = 1_000_000;

/// A position a search starts from: the game and the seat it asks.
struct Position {
    state: GameState,
    seat: usize,
}

/// Every `every`-th position of `games` random games.
fn positions(data: &GameData, games: u64, every: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in POSITION_SEEDS..POSITION_SEEDS + games {
        let mut n = 0u64;
        let played = random_game(data, seed, |state, seat| {
            if n.is_multiple_of(every) {
                out.push(Position {
                    state: state.clone(),
                    seat,
                });
            }
            n += 1;
        });
        if let Err(why) = played {
            fail("a random game for positions", format!("seed {seed}: {why}"));
        }
    }
    out
}

/// Times `op` once on every position, on an input `prepare` makes untimed; keeps the sample only
/// when `accepted` approves the result. Prints the median and the 90th and 99th percentiles of
/// one operation (no mean: on a shared machine one preempted sample would swamp it).
fn time_each<I, T>(
    what: &str,
    positions: &[Position],
    mut prepare: impl FnMut(&Position) -> I,
    mut op: impl FnMut(&Position, I) -> T,
    accepted: impl Fn(&Position, &T) -> Result<(), String>,
) {
    let mut samples = Samples::new(what);
    for p in positions {
        let input = prepare(p);
        let t = Instant::now();
        let out = op(p, input);
        let elapsed = t.elapsed();
        samples.keep(elapsed, accepted(p, &out));
    }
    println!(
        "  {what}: median {:.2} µs, p90 {:.2} µs, p99 {:.2} µs",
        micros(samples.percentile(0.5)),
        micros(samples.percentile(0.9)),
        micros(samples.percentile(0.99)),
    );
    samples.finish(positions.len());
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// A made-up game is of use to a search only when it asks its seat what the real game asks.
fn same_question(data: &GameData, p: &Position, made_up: &GameState) -> Result<(), String> {
    let real = engine::legal_decisions(data, &p.state, p.seat);
    let offered = engine::legal_decisions(data, made_up, p.seat);
    if made_up.phase != p.state.phase || offered != real {
        return Err(format!(
            "seat {} is offered {offered:?} instead of {real:?} (phase {:?})",
            p.seat, p.state.phase
        ));
    }
    Ok(())
}

/// The operations a search repeats, each alone, over positions of random 4-player games.
fn operations(data: &GameData, games: u64) {
    let positions = positions(data, games, 10);
    println!(
        "operations a search repeats, each timed once on {} positions of {games} random 4-player games:",
        positions.len()
    );
    time_each(
        "GameState clone",
        &positions,
        |_| (),
        |p, ()| p.state.clone(),
        |p, copy| {
            if *copy == p.state {
                Ok(())
            } else {
                Err("the clone differs from its original".into())
            }
        },
    );
    time_each(
        "sample::canonical (the seat's view)",
        &positions,
        |_| (),
        |p, ()| engine::sample::canonical(data, &p.state, p.seat),
        |p, known| same_question(data, p, known),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(POSITION_SEEDS);
    time_each(
        "sample::sample (a full game from the view)",
        &positions,
        |_| (),
        |p, ()| engine::sample::sample(data, &p.state, p.seat, &mut rng),
        |p, sampled| same_question(data, p, sampled),
    );
    time_each(
        "legal_decisions",
        &positions,
        |_| (),
        |p, ()| engine::legal_decisions(data, &p.state, p.seat),
        |p, legal| {
            if legal.is_empty() {
                Err(format!("seat {} is asked but offered nothing", p.seat))
            } else {
                Ok(())
            }
        },
    );
    let mut rng = ChaCha8Rng::seed_from_u64(POSITION_SEEDS);
    time_each(
        "apply (one legal decision, drawn as in the random games)",
        &positions,
        |p| {
            let legal = engine::legal_decisions(data, &p.state, p.seat);
            let d = random_choice(&mut rng, &legal);
            (p.state.clone(), d)
        },
        // The state is handed back so that dropping it is not timed.
        |p, (mut state, d)| {
            let applied = d.map(|d| engine::apply(data, &mut state, p.seat, d));
            (state, applied)
        },
        |p, (_, applied)| match applied {
            Some(Ok(_)) => Ok(()),
            Some(Err(e)) => Err(format!("refused: {e}")),
            None => Err(format!("seat {} is asked but offered nothing", p.seat)),
        },
    );
}

fn self_play(data: &GameData, games: usize) {
    for check in [false, true] {
        let config = SimConfig {
            games,
            options: options(1),
            check,
            max_decisions: MAX_DECISIONS,
            vary: false,
        };
        let cpu = support::thread_cpu_time();
        let r = sim::run(data, &config);
        let cpu_secs = (support::thread_cpu_time() - cpu).as_secs_f64().max(1e-9);
        if r.invariant_violations > 0 {
            fail(
                "self-play",
                format!(
                    "{} violations or refused decisions: {:?}",
                    r.invariant_violations, r.violation_examples
                ),
            );
        }
        let secs = r.games as f64 / r.games_per_second.max(1e-9);
        println!(
            "self-play policy (bots::weighted::choose), 4 players, checks {}: {:.0} games/s, {:.0} decisions/s ({:.2} µs a decision), {:.0} decisions a game",
            if check { "on " } else { "off" },
            r.games_per_second,
            r.decisions as f64 / secs,
            secs * 1e6 / r.decisions.max(1) as f64,
            r.decisions as f64 / r.games.max(1) as f64,
        );
        println!(
            "  per CPU second: {:.0} games/s, {:.0} decisions/s",
            r.games as f64 / cpu_secs,
            r.decisions as f64 / cpu_secs,
        );
        // `sim::run` times the games together: one account for the run.
        println!(
            "  self-play: kept {} games, skipped {} (not finished within {MAX_DECISIONS} decisions)",
            r.completed,
            r.games - r.completed
        );
        if r.completed * 10 < r.games * 9 {
            fail(
                "self-play",
                format!("only {} of {} games finished", r.completed, r.games),
            );
        }
    }
}

/// The largest serialized state over a few whole self-play games.
fn largest_state(data: &GameData, games: u64) {
    let mut largest = 0usize;
    for seed in 0..games {
        let mut state: GameState = assert_accepted(
            "new game",
            engine::new_game(data, &options(seed), &sim::seat_names(4)),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while state.phase != Phase::Finished {
            let seat = engine::waiting_on(&state)[0];
            let legal = engine::legal_decisions(data, &state, seat);
            let Some(d) = skymines::bots::weighted::choose(&mut rng, data, &state, seat, &legal)
            else {
                fail(
                    "a self-play game",
                    format!("seed {seed}: no decision offered"),
                );
            };
            assert_accepted(
                "a self-play decision",
                engine::apply(data, &mut state, seat, d),
            );
            largest = largest.max(assert_accepted("serialize", serde_json::to_vec(&state)).len());
        }
    }
    println!(
        "largest serialized GameState (JSON) over {games} games: {largest} bytes ({:.1} KiB)",
        largest as f64 / 1024.0
    );
}

fn main() {
    let data = assert_accepted("the built-in data", GameData::embedded());
    println!("engine benchmark ({})", support::mode());
    engine_alone(&data, size(2000, 100));
    operations(&data, size(200, 5));
    self_play(&data, size(500, 20));
    largest_state(&data, size(20, 2));
}
