//! The hard player: the normal player's judgement, then a look past the round. When it chooses
//! a turn's action it takes the few options the normal player values most and plays each on in
//! thought to the end of the next round (or of the game) — every seat, itself included, playing
//! on quickly (each step the best by the estimate one step ahead, planning as the normal player
//! plans), on samples of the hidden cards dealt from its own generator, so what the others plan
//! and buy answers its choice — and compares the mean estimated leads there (flat Monte Carlo).
//! The samples are shared by the options, so they compare on equal cards, and it leaves the
//! normal player's choice only for an option whose lead over it is clear of the noise (more than
//! [`EVIDENCE`] standard errors of the paired differences): with few samples it plays as the
//! normal player does (taking the best noisy mean cost 22 points a game against Luna), and more
//! time buys more samples, a smaller error, so more of the choices where the normal player is
//! wrong. Planning is weighed the same way: the few card sets the normal player's judgement likes
//! best are each placed and the game played on to the same horizon. Inside an action it decides
//! as the normal player does.

use super::normal::{self, finish_turn};
use super::value::{self, Estimator};
use super::{weighted, Budget};
use crate::data::{CardId, GameData};
use crate::engine::{self, Decision, GameState, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// The lead of an option the game refused (the worst; finite, so differences stay numbers).
const REFUSED: f64 = -1.0e6;
/// Standard errors by which an option's mean lead must beat the normal player's choice's for
/// the hard player to take it instead (see `Judged::best`).
const EVIDENCE: f64 = 1.0;
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
/// Rounds after the current one a playout plays before the estimate judges (a plan that pays
/// only in later rounds is seen there; a round played on costs about 10 ms with two players).
const HORIZON_ROUNDS: u8 = 1;
/// Decisions a playout makes at most (a round is about 50 for two players, 100 for four).
const PLAYOUT_STEPS: usize = 1_000;

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
        return normal::decide(data, known, seat, legal, rng, budget.estimator);
    }
    let started = Instant::now();
    let sampled = engine::sample::sample(data, known, seat, rng);
    // The normal player's judgement picks the candidates.
    let mut judged: Vec<(usize, f64)> =
        normal::judge(data, &sampled, seat, legal, rng, budget.estimator)
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
        |state, d, _| engine::apply_quiet(data, state, seat, *d).is_ok(),
    );
    Some(options[means.best()])
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
        ..budget
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
            finish_planning(data, state, seat, set, r, budget.estimator);
            true
        },
    );
    normal::plan_with(data, known, seat, legal, &sets[means.best()], rng)
}

/// What the playouts said of each option: its mean estimated lead, and the standard error of its
/// mean difference from the first option's (the normal player's choice), from the paired samples.
struct Judged {
    mean: Vec<f64>,
    se_diff: Vec<f64>,
}

impl Judged {
    /// The option with the best mean lead among the first and those whose lead over the first
    /// is more than [`EVIDENCE`] standard errors: the search leaves the normal player's choice
    /// only on evidence, so a small budget (a noisy mean) plays about as the normal player
    /// does, and more playouts, a smaller error, let it leave that choice where it is wrong.
    fn best(&self) -> usize {
        let mut best = 0;
        for i in 1..self.mean.len() {
            let clear = self.mean[i] - self.mean[0] > EVIDENCE * self.se_diff[i];
            if clear && self.mean[i] > self.mean[best] {
                best = i;
            }
        }
        best
    }
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
) -> Judged {
    let mut totals = vec![0f64; options.len()];
    // Per option: the sum of its paired difference from the first option, and of its square.
    let mut diffs = vec![(0f64, 0f64); options.len()];
    let mut leads = vec![0f64; options.len()];
    let mut samples = 0u32;
    let horizon = known.round.saturating_add(HORIZON_ROUNDS);
    while samples == 0 || !budget.spent(samples * options.len() as u32, started) {
        let sample = engine::sample::sample(data, known, seat, rng);
        let seed: u64 = rng.gen();
        for (lead, option) in leads.iter_mut().zip(options) {
            let mut next = sample.clone();
            let mut playout_rng = ChaCha8Rng::seed_from_u64(seed);
            *lead = if start(&mut next, option, &mut playout_rng) {
                play_on(data, &mut next, horizon, &mut playout_rng, budget.estimator);
                value::lead(budget.estimator, data, &next, seat)
            } else {
                REFUSED
            };
        }
        for ((total, diff), lead) in totals.iter_mut().zip(diffs.iter_mut()).zip(&leads) {
            *total += lead;
            let d = lead - leads[0];
            diff.0 += d;
            diff.1 += d * d;
        }
        samples += 1;
    }
    let n = samples as f64;
    Judged {
        mean: totals.iter().map(|t| t / n).collect(),
        se_diff: diffs
            .iter()
            .map(|(sum, squares)| {
                if samples < 2 {
                    return f64::INFINITY;
                }
                let mean = sum / n;
                let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
                (variance / n).sqrt()
            })
            .collect(),
    }
}

/// Plays the Planning phase on to its end: `seat` places `wanted`, every other seat plans as
/// the normal player does.
fn finish_planning(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    wanted: &[CardId],
    rng: &mut ChaCha8Rng,
    est: Estimator,
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
                let set =
                    sets[next].get_or_insert_with(|| normal::plan_cards_by(data, state, next, est));
                normal::plan_with(data, state, next, &legal, set, rng)
            }
        };
        let Some(d) = decision else { return };
        if engine::apply_quiet(data, state, next, d).is_err() {
            return;
        }
    }
}

/// Whether these options are a turn's choice of action (dropping out is always one of them),
/// not a step inside an action.
pub fn chooses_action(legal: &[Decision]) -> bool {
    legal.contains(&Decision::DropOut)
}

/// Plays on until round `horizon` is over (or the game): every seat planning as the normal
/// player does and taking each other step as the best by the estimate one step ahead
/// (`normal::finish_turn`), Luna by her own rules.
fn play_on(
    data: &GameData,
    state: &mut GameState,
    horizon: u8,
    rng: &mut ChaCha8Rng,
    est: Estimator,
) {
    // Each seat's card set for the Planning phase under way, chosen once.
    let mut sets: Vec<Option<Vec<CardId>>> = vec![None; state.seats.len()];
    let mut planning_round = 0;
    for _ in 0..PLAYOUT_STEPS {
        if state.phase == Phase::Finished || state.round > horizon {
            return;
        }
        let Some(&seat) = engine::waiting_on(state).first() else {
            return;
        };
        let legal = engine::legal_decisions(data, state, seat);
        let decision = match (legal.as_slice(), state.phase) {
            ([], _) => return,
            ([only], _) => *only,
            (_, Phase::Planning) => {
                if planning_round != state.round {
                    planning_round = state.round;
                    sets.iter_mut().for_each(|s| *s = None);
                }
                let set =
                    sets[seat].get_or_insert_with(|| normal::plan_cards_by(data, state, seat, est));
                match normal::plan_with(data, state, seat, &legal, set, rng) {
                    Some(d) => d,
                    None => return,
                }
            }
            (_, Phase::Action) => {
                let before = state.decisions_applied;
                finish_turn(data, state, seat, rng, est);
                if state.decisions_applied != before {
                    continue;
                }
                legal[0]
            }
            _ => match weighted::choose(rng, data, state, seat, &legal) {
                Some(d) => d,
                None => return,
            },
        };
        if engine::apply_quiet(data, state, seat, decision).is_err() {
            return;
        }
    }
}
