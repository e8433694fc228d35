//! Engine speed, on one core, in two parts:
//! - the engine alone: complete random 4-player games, each decision drawn uniformly from
//!   `legal_decisions` but for the mild bias against dropping out early (DECISIONS B12), so
//!   games run their full length; games/s, decisions/s, decisions per game (goal: at least
//!   1,000 games/s);
//! - the self-play policy of `sim` (`skymines simulate`), whose weighing costs time of its own,
//!   with the invariant checks off and on;
//!
//! and the largest serialized `GameState`. Every decision must be accepted by `apply`, every
//! game must finish, and the checks must find nothing, or the benchmark fails.
//! `cargo bench --bench engine` (`BENCH_QUICK=1`: a few games).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::data::GameData;
use skymines::engine::{self, Decision, GameOptions, GameState, Phase};
use skymines::sim::{self, SimConfig};
use std::time::Instant;
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

/// Plays one random game to its end; returns its decisions and rounds, or why it did not end.
fn random_game(data: &GameData, seed: u64) -> Result<(u64, u8), String> {
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
        let legal = engine::legal_decisions(data, &state, seat);
        let Some(d) = random_choice(&mut rng, &legal) else {
            fail(
                "a random game",
                format!("seed {seed}: seat {seat} is asked but has no legal decision"),
            );
        };
        assert_accepted(
            &format!("seed {seed}, decision {decisions}: {d:?}"),
            engine::apply(data, &mut state, seat, d),
        );
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
        match random_game(data, seed) {
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
    self_play(&data, size(500, 20));
    largest_state(&data, size(20, 2));
}
