//! The hard player: the normal player's way of thinking a turn through, on many samples of the
//! hidden cards at once (determinized search). In the Action phase every option is played to the
//! end of the seat's turn on each sample, the samples shared by all options so they compare on
//! equal cards, and the option with the best mean lead over the best other seat wins (ties to the
//! self-play policy's taste). It plans as the normal player does. Measured (closing note of
//! session 7): about as strong as the normal player so far; a search that looks past the turn is
//! the next step.

use super::normal::finish_turn;
use super::{best_by_value, margin, weighted, Budget};
use crate::data::GameData;
use crate::engine::{self, Decision, GameState, Phase};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Means closer than this (points of lead) count as a tie.
const TIE: f64 = 0.01;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    match known.phase {
        Phase::Action => think_turns_through(data, known, seat, legal, rng, budget),
        _ => {
            let sampled = engine::sample::sample(data, known, seat, rng);
            weighted::choose(rng, data, &sampled, seat, legal)
        }
    }
}

/// Action phase: each option's mean lead after the seat's turn, over shared samples.
fn think_turns_through(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    let started = Instant::now();
    let mut totals = vec![0f64; legal.len()];
    let mut samples = 0u32;
    while samples == 0 || !budget.spent(samples * legal.len() as u32, started) {
        let sampled = engine::sample::sample(data, known, seat, rng);
        let seed: u64 = rng.gen();
        for (i, d) in legal.iter().enumerate() {
            let mut next = sampled.clone();
            totals[i] += match engine::apply(data, &mut next, seat, *d) {
                Ok(_) => {
                    // The same continuation generator for every option: they differ only by
                    // the option.
                    let mut turn_rng = rand::SeedableRng::seed_from_u64(seed);
                    finish_turn(data, &mut next, seat, &mut turn_rng);
                    margin(data, &next, seat)
                }
                Err(_) => f64::MIN / 4.0,
            };
        }
        samples += 1;
    }
    let values: Vec<Option<f64>> = totals.into_iter().map(Some).collect();
    let sampled = engine::sample::sample(data, known, seat, rng);
    best_by_value(
        data,
        &sampled,
        seat,
        legal,
        &values,
        TIE * samples as f64,
        rng,
    )
}
