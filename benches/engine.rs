//! Engine speed: complete random 4-player games per second on one core, with the invariant
//! checks off and on, the time per decision (including `legal_decisions`), and the largest
//! serialized `GameState`. Run with `cargo bench --bench engine`.

use rand::SeedableRng;
use skymines::data::GameData;
use skymines::engine::{self, GameOptions, Phase};
use skymines::sim::{self, SimConfig};

fn main() {
    let data = GameData::embedded().expect("data");
    let games = 500;
    for check in [false, true] {
        let config = SimConfig {
            games,
            options: GameOptions {
                players: 4,
                seed: 1,
                ..GameOptions::default()
            },
            check,
            max_decisions: 20_000,
            vary: false,
        };
        let r = sim::run(&data, &config);
        let per_decision_us = 1e6 / (r.games_per_second * r.decisions as f64 / r.games as f64);
        println!(
            "4 players, checks {}: {:.0} games/s, {:.2} µs per decision ({} decisions in {} games, {} violations)",
            if check { "on " } else { "off" },
            r.games_per_second,
            per_decision_us,
            r.decisions,
            r.games,
            r.invariant_violations
        );
    }
    // Largest serialized state over a few whole games.
    let mut largest = 0usize;
    for seed in 0..20u64 {
        let options = GameOptions {
            players: 4,
            seed,
            ..GameOptions::default()
        };
        let mut state = engine::new_game(&data, &options, &sim::seat_names(4)).expect("setup");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while state.phase != Phase::Finished {
            let seat = engine::waiting_on(&state)[0];
            let legal = engine::legal_decisions(&data, &state, seat);
            let Some(d) = sim::choose(&mut rng, &data, &state, seat, &legal) else {
                break;
            };
            if engine::apply(&data, &mut state, seat, d).is_err() {
                break;
            }
            largest = largest.max(serde_json::to_vec(&state).map(|v| v.len()).unwrap_or(0));
        }
    }
    println!(
        "largest serialized GameState (JSON): {largest} bytes ({:.1} KiB)",
        largest as f64 / 1024.0
    );
}
