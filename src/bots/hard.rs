//! The hard player: the normal player's judgement, then a look past its own turn. When it
//! chooses a turn's action it takes the few options the normal player values most and plays
//! each on to the end of the round in thought — every seat, itself included, playing its turns
//! as the normal player would, on samples of the hidden cards dealt from its own generator (so
//! what the others plan and buy answers its choice) — and keeps the option with the best mean
//! estimated lead at the end of the round. The samples are shared by the options, so they
//! compare on equal cards. Planning is weighed the same way: the few card sets the normal
//! player's judgement likes best are each placed and the round played on to its end, the other
//! seats planning as the normal player does. Inside an action it decides as the normal player
//! does.

use super::normal::{self, finish_turn};
use super::{best_by_value, value, Budget};
use crate::data::{CardId, GameData};
use crate::engine::{self, Decision, GameState, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Options played on to the end of the round (the rest are the normal player's judgement's
/// losers).
const CANDIDATES: usize = 5;
/// Card sets weighed when planning.
const PLAN_SETS: usize = 6;
/// Planning's playouts, in multiples of the budget's (a round has one planning and a dozen
/// turns' choices).
const PLAN_FACTOR: u32 = 4;
/// Decisions the Planning phase's playout makes at most.
const PLAN_STEPS: usize = 60;
/// Decisions a round's playout makes at most (a round is about 50 for two players).
const ROUND_STEPS: usize = 400;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    if budget.playouts >= 2 && known.phase == Phase::Planning {
        return plan(data, known, seat, legal, rng, budget);
    }
    if !chooses_action(legal) || budget.playouts < 2 {
        return normal::decide(data, known, seat, legal, rng);
    }
    let started = Instant::now();
    let sampled = engine::sample::sample(data, known, seat, rng);
    // The normal player's judgement picks the candidates.
    let mut judged: Vec<(usize, f64)> = normal::judge(data, &sampled, seat, legal, rng)
        .into_iter()
        .enumerate()
        .filter_map(|(i, v)| Some((i, v?)))
        .collect();
    judged.sort_by(|a, b| b.1.total_cmp(&a.1));
    judged.truncate(CANDIDATES);
    if judged.len() < 2 {
        return judged.first().map(|(i, _)| legal[*i]);
    }
    let options: Vec<Decision> = judged.iter().map(|(i, _)| legal[*i]).collect();
    let means = mean_leads(
        data,
        known,
        seat,
        &options,
        rng,
        budget,
        started,
        |state, d, _| engine::apply(data, state, seat, *d).is_ok(),
    );
    let values: Vec<Option<f64>> = means.into_iter().map(Some).collect();
    best_by_value(data, &sampled, seat, &options, &values, 1e-9, rng)
}

/// Planning: the few card sets the normal player's judgement likes best, each placed and the
/// round played on to its end on samples of the hidden cards (the other seats planning as the
/// normal player does), and the next card of the set with the best mean lead then.
fn plan(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    let started = Instant::now();
    let sets = normal::plan_sets(data, known, seat, PLAN_SETS);
    if sets.len() < 2 {
        let wanted = sets.into_iter().next().unwrap_or_default();
        return normal::plan_with(data, known, seat, legal, &wanted, rng);
    }
    let playouts = Budget {
        playouts: budget.playouts.saturating_mul(PLAN_FACTOR),
        time: budget.time,
    };
    let means = mean_leads(
        data,
        known,
        seat,
        &sets,
        rng,
        playouts,
        started,
        |state, set, r| {
            finish_planning(data, state, seat, set, r);
            true
        },
    );
    let best = means
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
        .map_or(0, |(k, _)| k);
    normal::plan_with(data, known, seat, legal, &sets[best], rng)
}

/// Each option's mean estimated lead at the end of the round (`value::lead`), over samples of
/// the hidden cards dealt until the budget is spent: on each sample `start` plays the option
/// (false: it was refused, the worst lead) and the round is played on. The samples, and the
/// playouts' generator, are shared by the options, so they compare on equal cards and differ
/// by the option alone.
#[allow(clippy::too_many_arguments)]
fn mean_leads<T>(
    data: &GameData,
    known: &GameState,
    seat: usize,
    options: &[T],
    rng: &mut ChaCha8Rng,
    budget: Budget,
    started: Instant,
    start: impl Fn(&mut GameState, &T, &mut ChaCha8Rng) -> bool,
) -> Vec<f64> {
    let mut totals = vec![0f64; options.len()];
    let mut samples = 0u32;
    while samples == 0 || !budget.spent(samples * options.len() as u32, started) {
        let sample = engine::sample::sample(data, known, seat, rng);
        let seed: u64 = rng.gen();
        for (total, option) in totals.iter_mut().zip(options) {
            let mut next = sample.clone();
            let mut playout_rng = ChaCha8Rng::seed_from_u64(seed);
            *total += if start(&mut next, option, &mut playout_rng) {
                finish_round(data, &mut next, &mut playout_rng);
                value::lead(data, &next, seat)
            } else {
                f64::MIN / 4.0
            };
        }
        samples += 1;
    }
    totals.iter().map(|t| t / samples as f64).collect()
}

/// Plays the Planning phase on to its end: `seat` places `wanted`, every other seat plans as
/// the normal player does.
fn finish_planning(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    wanted: &[CardId],
    rng: &mut ChaCha8Rng,
) {
    // Each other seat's set is chosen once: choosing is the costly part.
    let mut sets: Vec<Option<Vec<CardId>>> = vec![None; state.seats.len()];
    sets[seat] = Some(wanted.to_vec());
    for _ in 0..PLAN_STEPS {
        if state.phase != Phase::Planning {
            return;
        }
        let Some(&next) = engine::waiting_on(state).first() else {
            return;
        };
        let legal = engine::legal_decisions(data, state, next);
        let decision = match legal.as_slice() {
            [] => return,
            [only] => Some(*only),
            _ => {
                let set = sets[next].get_or_insert_with(|| normal::plan_cards(data, state, next));
                normal::plan_with(data, state, next, &legal, set, rng)
            }
        };
        let Some(d) = decision else { return };
        if engine::apply(data, state, next, d).is_err() {
            return;
        }
    }
}

/// Whether these options are a turn's choice of action (dropping out is always one of them),
/// not a step inside an action.
pub fn chooses_action(legal: &[Decision]) -> bool {
    legal.contains(&Decision::DropOut)
}

/// Plays the round on to its end, every seat's turns as the normal player's judgement plays
/// them (each step the best lead one step ahead), Luna by her own rules.
fn finish_round(data: &GameData, state: &mut GameState, rng: &mut ChaCha8Rng) {
    let round = state.round;
    for _ in 0..ROUND_STEPS {
        if state.phase != Phase::Action || state.round != round {
            return;
        }
        let Some(&seat) = engine::waiting_on(state).first() else {
            return;
        };
        let before = state.decisions_applied;
        finish_turn(data, state, seat, rng);
        if state.decisions_applied == before {
            // Nothing to decide by judgement (a single option is still a step).
            let legal = engine::legal_decisions(data, state, seat);
            let Some(d) = legal.first() else { return };
            if engine::apply(data, state, seat, *d).is_err() {
                return;
            }
        }
    }
}
