//! The normal player: it thinks each of its turns through to the end. For every option it plays
//! the rest of its own turn in thought (one step ahead, as the easy player) on a sample of the
//! hidden cards and keeps the option that leaves it furthest ahead of the best other seat. While
//! planning, where nothing scores until the reveal, it plans as the self-play policy does: a
//! research scientist with the cards its next plans need, energy and resources for its track.

use super::{best_by_value, easy, margin, weighted};
use crate::data::GameData;
use crate::engine::{self, Decision, GameState, Phase};
use rand_chacha::ChaCha8Rng;

/// Steps of its own turn the player thinks ahead at most (a turn is rarely longer).
const TURN_STEPS: usize = 40;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let sampled = engine::sample::sample(data, known, seat, rng);
    if sampled.phase != Phase::Action {
        return weighted::choose(rng, data, &sampled, seat, legal);
    }
    let values: Vec<Option<f64>> = legal
        .iter()
        .map(|d| {
            let mut next = sampled.clone();
            engine::apply(data, &mut next, seat, *d).ok()?;
            finish_turn(data, &mut next, seat, rng);
            Some(margin(data, &next, seat))
        })
        .collect();
    best_by_value(data, &sampled, seat, legal, &values, 0.0, rng)
}

/// Plays `seat`'s decisions one step ahead until the game waits on someone else (or the round
/// ends).
pub(super) fn finish_turn(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    rng: &mut ChaCha8Rng,
) {
    let round = state.round;
    for _ in 0..TURN_STEPS {
        if state.phase != Phase::Action || state.round != round {
            return;
        }
        if engine::waiting_on(state) != [seat] {
            return;
        }
        let legal = engine::legal_decisions(data, state, seat);
        let Some(d) = easy::best_now(data, state, seat, &legal, rng) else {
            return;
        };
        if engine::apply(data, state, seat, d).is_err() {
            return;
        }
    }
}
