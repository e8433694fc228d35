//! The normal player: it plans a round and thinks each of its turns through to the end.
//!
//! Planning: it places the hand cards that promise most this round ([`plan_cards`]): what each
//! card brings when used, plus the research screens a research scientist could carry the upload
//! marker through with those cards face up. Action phase: for every option it plays the rest of
//! its own turn in thought on a sample of the hidden cards (each later step the best by the
//! estimate) and keeps the option that leaves it furthest ahead of the best other seat by
//! [`value::lead`], the estimated final score: the score as it stands plus what the seat has
//! built for later rounds.

use super::{best_by_value, value, weighted};
use crate::data::{CardId, GameData};
use crate::engine::{self, Decision, GameState, Phase};
use rand_chacha::ChaCha8Rng;

/// Steps of its own turn the player thinks ahead at most (a turn is rarely longer).
const TURN_STEPS: usize = 40;
/// Points one research screen the upload marker can pass this round is worth when planning.
const SCREEN: f64 = 4.0;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let sampled = engine::sample::sample(data, known, seat, rng);
    match sampled.phase {
        Phase::Action => {
            let values = judge(data, &sampled, seat, legal, rng);
            best_by_value(data, &sampled, seat, legal, &values, 1e-9, rng)
        }
        Phase::Planning => plan(data, &sampled, seat, legal, rng),
        _ => weighted::choose(rng, data, &sampled, seat, legal),
    }
}

/// The normal player's judgement of each option on `sampled`: the estimated lead once the rest
/// of its turn is played ([`finish_turn`]); None where the option is refused.
pub(super) fn judge(
    data: &GameData,
    sampled: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Vec<Option<f64>> {
    legal
        .iter()
        .map(|d| {
            let mut next = sampled.clone();
            engine::apply(data, &mut next, seat, *d).ok()?;
            finish_turn(data, &mut next, seat, rng);
            Some(value::lead(data, &next, seat))
        })
        .collect()
}

/// Planning: the next card of the best plan, or done once it is all placed.
pub(super) fn plan(
    data: &GameData,
    state: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let wanted = plan_cards(data, state, seat);
    plan_with(data, state, seat, legal, &wanted, rng)
}

/// Planning toward `wanted`: the next of those cards into a slot, or done once none is left.
pub(super) fn plan_with(
    data: &GameData,
    state: &GameState,
    seat: usize,
    legal: &[Decision],
    wanted: &[CardId],
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let places: Vec<Decision> = legal
        .iter()
        .filter(|d| matches!(d, Decision::PlanCard { card, .. } if wanted.contains(card)))
        .copied()
        .collect();
    if places.is_empty() {
        if legal.contains(&Decision::PlanDone) {
            return Some(Decision::PlanDone);
        }
        return weighted::choose(rng, data, state, seat, legal);
    }
    // Which slot (it matters with linked slots) is the self-play policy's taste.
    weighted::choose(rng, data, state, seat, &places)
}

/// The hand cards to place now: of the sets that fill the free slots, the one whose cards
/// bring most when used this round, counting the research screens a research scientist could
/// then pass.
pub(super) fn plan_cards(data: &GameData, state: &GameState, seat: usize) -> Vec<CardId> {
    plan_sets(data, state, seat, 1).pop().unwrap_or_default()
}

/// The `count` sets of hand cards that promise most this round (see [`plan_cards`]), best
/// first.
pub(super) fn plan_sets(
    data: &GameData,
    state: &GameState,
    seat: usize,
    count: usize,
) -> Vec<Vec<CardId>> {
    let s = &state.seats[seat];
    let free = (0..5)
        .filter(|i| s.slot_on[*i] && s.slots[*i].is_none())
        .count();
    let mut hand: Vec<CardId> = s
        .hand
        .iter()
        .copied()
        .filter(|c| data.card(*c).is_playable())
        .collect();
    // The best cards first, so the search below can stop at a bounded number of sets.
    hand.sort_by(|a, b| value::use_value(data, *b).total_cmp(&value::use_value(data, *a)));
    hand.truncate(14);
    let size = free.min(hand.len());
    // The best sets so far, best first.
    let mut best: Vec<(f64, Vec<CardId>)> = Vec::with_capacity(count + 1);
    let mut chosen = Vec::with_capacity(size);
    subsets(&hand, size, 0, &mut chosen, &mut |set| {
        let used: f64 = set.iter().map(|c| value::use_value(data, *c)).sum();
        let reach = weighted::research_reach_with(data, state, seat, set).max(0);
        let v = used + SCREEN * reach as f64;
        if best.len() < count || best.last().is_some_and(|(worst, _)| v > *worst) {
            let at = best.partition_point(|(b, _)| *b >= v);
            best.insert(at, (v, set.to_vec()));
            best.truncate(count);
        }
    });
    best.into_iter().map(|(_, set)| set).collect()
}

/// Calls `visit` with every set of `size` cards from `cards[from..]` added to `chosen`.
fn subsets(
    cards: &[CardId],
    size: usize,
    from: usize,
    chosen: &mut Vec<CardId>,
    visit: &mut dyn FnMut(&[CardId]),
) {
    if chosen.len() == size {
        visit(chosen);
        return;
    }
    for (i, card) in cards.iter().enumerate().skip(from) {
        if cards.len() - i < size - chosen.len() {
            return;
        }
        chosen.push(*card);
        subsets(cards, size, i + 1, chosen, visit);
        chosen.pop();
    }
}

/// Plays `seat`'s decisions, each the best lead by the estimate one step ahead, until the game waits
/// on someone else (or the round ends). Not just to the end of its turn: when nobody else decides
/// (Luna alone plays by her cards within the seat's steps; the others have dropped out) the seat's
/// later turns follow at once, and playing them on weighs an option far better than the estimate
/// after one turn (stopping at the turn's end cost hard 14 points a game against normal and
/// normal 20 against Luna).
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
        let values: Vec<Option<f64>> = legal
            .iter()
            .map(|d| {
                let mut next = state.clone();
                engine::apply(data, &mut next, seat, *d).ok()?;
                Some(value::lead(data, &next, seat))
            })
            .collect();
        let Some(d) = best_by_value(data, state, seat, &legal, &values, 1e-9, rng) else {
            return;
        };
        if engine::apply(data, state, seat, d).is_err() {
            return;
        }
    }
}
