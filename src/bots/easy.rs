//! The easy player: one step ahead. It takes the decision after which its score, counted as if
//! the game ended now, is highest; ties go to the self-play policy's taste.

use super::best_by_value;
use crate::data::GameData;
use crate::engine::{self, Decision, GameState};
use rand_chacha::ChaCha8Rng;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let sampled = engine::sample::sample(data, known, seat, rng);
    best_now(data, &sampled, seat, legal, rng)
}

/// The decisions scoring most for `seat` one step on in `state`, split by the self-play policy.
pub(super) fn best_now(
    data: &GameData,
    state: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let values: Vec<Option<f64>> = legal
        .iter()
        .map(|d| {
            let mut next = state.clone();
            engine::apply_quiet(data, &mut next, seat, *d).ok()?;
            let scores = engine::final_scores(data, &next);
            Some(scores.get(seat).map_or(0, |s| s.total) as f64)
        })
        .collect();
    best_by_value(data, state, seat, legal, &values, 0.0, rng)
}
