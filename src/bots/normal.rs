//! The normal player: it plans a round and thinks each of its turns through to the end.
//!
//! Planning: it places the hand cards that promise most this round ([`plan_cards`]): what each
//! card brings when used, plus the research screens a research scientist could carry the upload
//! marker through with those cards face up. Action phase: for every option it plays the rest of
//! its own turn in thought on a sample of the hidden cards (each later step the best by the
//! estimate) and keeps the option that leaves it furthest ahead of the best other seat by
//! [`value::lead`], the estimated final score: the score as it stands plus what the seat has
//! built for later rounds.

use super::value::{self, Estimator};
use super::{best_by_value, handmade, weighted};
use crate::data::{CardId, GameData};
use crate::engine::state::{TileKind, TileState};
use crate::engine::{self, Decision, GameState, Phase};
use rand_chacha::ChaCha8Rng;

/// Steps of its own turn the player thinks ahead at most (a turn is rarely longer).
const TURN_STEPS: usize = 40;
/// Points one research screen the upload marker can pass this round is worth when planning.
const SCREEN: f64 = 4.0;
/// Card sets the learned estimate weighs when planning (the best of the sets' promise by
/// [`plan_sets`]).
const PLAN_SETS: usize = 8;

pub(super) fn decide(
    data: &GameData,
    known: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    est: Estimator,
) -> Option<Decision> {
    let sampled = engine::sample::sample(data, known, seat, rng);
    match sampled.phase {
        Phase::Action => {
            let values = judge(data, &sampled, seat, legal, rng, est);
            best_by_value(data, &sampled, seat, legal, &values, 1e-9, rng)
        }
        Phase::Planning => plan(data, &sampled, seat, legal, rng, est),
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
    est: Estimator,
) -> Vec<Option<f64>> {
    judge_by(data, sampled, seat, legal, rng, &|s| {
        value::lead(est, data, s, seat)
    })
}

/// What a position is worth to the seat judging it (higher is better).
pub(crate) type Eval<'a> = &'a dyn Fn(&GameState) -> f64;

/// [`judge`] by any judgement of positions: each option's worth by `eval` once the rest of the
/// turn is played, each later step the best by `eval` one step ahead.
pub(crate) fn judge_by(
    data: &GameData,
    sampled: &GameState,
    seat: usize,
    legal: &[Decision],
    rng: &mut ChaCha8Rng,
    eval: Eval,
) -> Vec<Option<f64>> {
    legal
        .iter()
        .map(|d| {
            let mut next = sampled.clone();
            engine::apply_quiet(data, &mut next, seat, *d).ok()?;
            finish_turn_by(data, &mut next, seat, rng, eval);
            Some(eval(&next))
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
    est: Estimator,
) -> Option<Decision> {
    let wanted = plan_cards_by(data, state, seat, est);
    plan_with(data, state, seat, legal, &wanted, rng)
}

/// The hand cards to place now, judged by `est`: with the hand-weighted estimate the set of
/// [`plan_cards`]; with the learned one, of the few sets [`plan_sets`] likes best, the one after
/// which the seat's estimated lead is highest.
pub(super) fn plan_cards_by(
    data: &GameData,
    state: &GameState,
    seat: usize,
    est: Estimator,
) -> Vec<CardId> {
    if est == Estimator::Handmade {
        return plan_cards(data, state, seat);
    }
    let sets = plan_sets(data, state, seat, PLAN_SETS);
    let mut best: Option<(f64, Vec<CardId>)> = None;
    for set in sets {
        let Some(planned) = with_planned(data, state, seat, &set) else {
            continue;
        };
        let v = value::lead(est, data, &planned, seat);
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, set));
        }
    }
    best.map(|(_, set)| set).unwrap_or_default()
}

/// `state` with `cards` placed in `seat`'s free action slots (the first free slot each takes),
/// or None when one cannot be placed.
pub(super) fn with_planned(
    data: &GameData,
    state: &GameState,
    seat: usize,
    cards: &[CardId],
) -> Option<GameState> {
    let mut next = state.clone();
    for card in cards {
        let place = engine::legal_decisions(data, &next, seat)
            .into_iter()
            .find(|d| matches!(d, Decision::PlanCard { card: c, .. } if c == card))?;
        engine::apply_quiet(data, &mut next, seat, place).ok()?;
    }
    Some(next)
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
/// bring most when used this round, counting the research screens the upload marker could then
/// pass when the set (or the seat's research scientist tile) brings a research scientist to
/// carry it (counting them without one left the scientist in hand: 1.1 research points a game
/// against Luna's level 2, 7.3 with the scientist counted, 40 solo games).
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
    hand.sort_by(|a, b| handmade::use_value(data, *b).total_cmp(&handmade::use_value(data, *a)));
    hand.truncate(14);
    let size = free.min(hand.len());
    // The best sets so far, best first.
    let mut best: Vec<(f64, Vec<CardId>)> = Vec::with_capacity(count + 1);
    let mut chosen = Vec::with_capacity(size);
    let tile = match state.tile(TileKind::ResearchScientist) {
        TileState::Held { seat: s, used, .. } => s == seat && !used,
        TileState::Reserved { seat: s } => s == seat,
        _ => false,
    };
    subsets(&hand, size, 0, &mut chosen, &mut |set| {
        let used: f64 = set.iter().map(|c| handmade::use_value(data, *c)).sum();
        // Screens count only when a research scientist will be there to carry the marker.
        let scientist = tile || set.iter().any(|c| data.card(*c).is_research_scientist());
        let reach = if scientist {
            weighted::research_reach_with(data, state, seat, set).max(0)
        } else {
            0
        };
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
    est: Estimator,
) {
    finish_turn_by(data, state, seat, rng, &|s| value::lead(est, data, s, seat));
}

/// [`finish_turn`] by any judgement of positions.
pub(crate) fn finish_turn_by(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    rng: &mut ChaCha8Rng,
    eval: Eval,
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
                engine::apply_quiet(data, &mut next, seat, *d).ok()?;
                Some(eval(&next))
            })
            .collect();
        let values = prefer_more_cards(&legal, values);
        let Some(d) = best_by_value(data, state, seat, &legal, &values, 1e-9, rng) else {
            return;
        };
        if engine::apply_quiet(data, state, seat, d).is_err() {
            return;
        }
    }
}

/// Selecting one more resource card for an action changes nothing an estimate sees until the
/// units are spent, so a step ahead ties it with finishing the selection; in thought the seat
/// uses the cards it selects, rather than leave it to chance (the choice to use fewer is
/// weighed where the action is chosen). Finishing loses the tie.
fn prefer_more_cards(legal: &[Decision], mut values: Vec<Option<f64>>) -> Vec<Option<f64>> {
    let select = legal
        .iter()
        .zip(&values)
        .filter(|(d, _)| matches!(d, Decision::SelectCard { .. }))
        .filter_map(|(_, v)| *v)
        .fold(f64::MIN, f64::max);
    for (d, v) in legal.iter().zip(values.iter_mut()) {
        if *d == Decision::FinishSelecting && v.is_some_and(|v| v <= select + 1e-9) {
            *v = v.map(|v| v - 1e-6);
        }
    }
    values
}
