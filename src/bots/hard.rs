//! The hard player: determinized Monte Carlo search. Each playout deals the hidden cards afresh
//! (a sample of what the seat knows), takes one option — the next by an upper confidence bound,
//! so promising options get more playouts — and plays the game to its end with the self-play
//! policy for every seat. The option with the best mean final lead over the best other seat wins.

use super::{margin, weighted, Budget};
use crate::data::GameData;
use crate::engine::{self, Decision, GameState, Phase};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Decisions a playout may take before it is scored as it stands (a game takes far fewer).
const PLAYOUT_STEPS: usize = 5_000;
/// How much an option's uncertainty counts against its mean, in points of lead.
const EXPLORATION: f64 = 40.0;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    let started = Instant::now();
    let mut visits = vec![0u32; legal.len()];
    let mut totals = vec![0f64; legal.len()];
    let mut done = 0u32;
    while done < legal.len() as u32 || !budget.spent(done, started) {
        let pick = if (done as usize) < legal.len() {
            done as usize
        } else {
            upper_bound_pick(&visits, &totals, done)
        };
        let mut game = engine::sample::sample(data, known, seat, rng);
        let value = match engine::apply(data, &mut game, seat, legal[pick]) {
            Ok(_) => {
                play_out(data, &mut game, rng);
                margin(data, &game, seat)
            }
            Err(_) => f64::MIN / 4.0,
        };
        visits[pick] += 1;
        totals[pick] += value;
        done += 1;
    }
    (0..legal.len())
        .filter(|i| visits[*i] > 0)
        .max_by(|a, b| {
            let mean = |i: usize| totals[i] / visits[i] as f64;
            mean(*a).total_cmp(&mean(*b))
        })
        .map(|i| legal[i])
}

fn upper_bound_pick(visits: &[u32], totals: &[f64], done: u32) -> usize {
    let ln = (done as f64).ln();
    (0..visits.len())
        .max_by(|a, b| {
            let bound = |i: usize| {
                totals[i] / visits[i] as f64 + EXPLORATION * (ln / visits[i] as f64).sqrt()
            };
            bound(*a).total_cmp(&bound(*b))
        })
        .unwrap_or(0)
}

/// Plays every seat with the self-play policy to the end of the game.
fn play_out(data: &GameData, game: &mut GameState, rng: &mut ChaCha8Rng) {
    for _ in 0..PLAYOUT_STEPS {
        if game.phase == Phase::Finished {
            return;
        }
        let waiting = engine::waiting_on(game);
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            return;
        };
        let legal = engine::legal_decisions(data, game, seat);
        let Some(d) = weighted::choose(rng, data, game, seat, &legal) else {
            return;
        };
        if engine::apply(data, game, seat, d).is_err() {
            return;
        }
    }
}
