//! The easy player: one step ahead. It takes the decision after which its score, counted as if
//! the game ended now, is highest; ties go to the self-play policy's taste.

use super::weighted;
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
    let mut best: Vec<Decision> = Vec::new();
    let mut best_score = i64::MIN;
    for d in legal {
        let mut next = state.clone();
        if engine::apply(data, &mut next, seat, *d).is_err() {
            continue;
        }
        let score = engine::final_scores(data, &next)
            .get(seat)
            .map_or(0, |s| s.total as i64);
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(*d);
        }
    }
    weighted::choose(rng, data, state, seat, &best)
}
