//! What a position is worth to a seat: its estimated final score, and its estimated lead over
//! the best other seat at the end. The players judge their options by the lead.
//!
//! Two estimates, the same for every level: the hand-weighted one ([`Estimator::Handmade`],
//! `bots::handmade`), which the players use, and the learned one ([`Estimator::Learned`]): a
//! linear model over the features of `bots::features`, with the weights `skymines train` fitted
//! to the final scores of many games (`assets/estimate.toml`, read into `GameData::estimate`).
//! The learned one predicts final scores better (held-out error about 30 points against the
//! hand-weighted one's 44) but plays worse: the normal player with it scored 128 against Luna's
//! level 2 where the hand-weighted one scored 174 (40 solo games), so it is there to compare and
//! to train on, not the players' default. Both judge the seat with its own view (hand and plans
//! known) and every other seat, Luna included, from what is public.
//!
//! Once the game is over both are the real scores.

use super::features::{self, Context, View};
use super::handmade;
use crate::data::GameData;
use crate::engine::{self, GameState, Phase};

/// Which estimate a player judges positions by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Estimator {
    /// The weights fitted by `skymines train`, for comparison.
    Learned,
    /// The hand-weighted estimate of `bots::handmade` (the players' estimate).
    #[default]
    Handmade,
}

impl Estimator {
    pub fn name(self) -> &'static str {
        match self {
            Estimator::Learned => "learned",
            Estimator::Handmade => "handmade",
        }
    }

    pub fn from_name(name: &str) -> Option<Estimator> {
        [Estimator::Learned, Estimator::Handmade]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// The seat's estimated final score.
pub fn estimate(est: Estimator, data: &GameData, state: &GameState, seat: usize) -> f64 {
    if state.phase == Phase::Finished {
        return actual(data, state, seat);
    }
    match est {
        Estimator::Handmade => handmade::estimate(data, state, seat),
        Estimator::Learned => {
            let ctx = Context::of(data, state);
            own(data, state, &ctx, seat)
        }
    }
}

/// The seat's estimated lead over the best other seat at the end (its own estimate when it
/// plays alone).
pub fn lead(est: Estimator, data: &GameData, state: &GameState, seat: usize) -> f64 {
    if state.phase == Phase::Finished {
        let scores = engine::final_scores(data, state);
        let own = scores.get(seat).map_or(0.0, |s| s.total as f64);
        let best_other = scores
            .iter()
            .filter(|s| s.seat != seat)
            .map(|s| s.total as f64)
            .fold(f64::MIN, f64::max);
        return if best_other == f64::MIN {
            own
        } else {
            own - best_other
        };
    }
    match est {
        Estimator::Handmade => handmade::lead(data, state, seat),
        Estimator::Learned => {
            let ctx = Context::of(data, state);
            let own = own(data, state, &ctx, seat);
            let best_other = (0..state.seats.len())
                .filter(|j| *j != seat)
                .map(|j| public(data, state, &ctx, j))
                .fold(f64::MIN, f64::max);
            if best_other == f64::MIN {
                own
            } else {
                own - best_other
            }
        }
    }
}

/// The learned estimate of `seat`'s final score by its own view.
pub fn own(data: &GameData, state: &GameState, ctx: &Context, seat: usize) -> f64 {
    let base = features::base(data, state, ctx, seat, View::Own);
    features::predict(&data.estimate.own, &base, ctx.left)
}

/// The learned estimate of `seat`'s final score from what is public.
pub fn public(data: &GameData, state: &GameState, ctx: &Context, seat: usize) -> f64 {
    let base = features::base(data, state, ctx, seat, View::Public);
    features::predict(&data.estimate.public, &base, ctx.left)
}

fn actual(data: &GameData, state: &GameState, seat: usize) -> f64 {
    engine::final_scores(data, state)
        .get(seat)
        .map_or(0.0, |s| s.total as f64)
}
