//! Computer players: the levels a seat can be played at (easy, normal, hard), behind one entry
//! point, [`decide`]. A player never sees the real game: `decide` first rewrites it into what the
//! seat knows (`engine::sample::canonical`, DECISIONS B16), and the players search on samples of
//! that, dealt from their own generator. `value` estimates a position's final score for them;
//! `weighted` is the self-play policy the invariant harness uses and the players' tie-breaker.

mod easy;
pub mod features;
pub mod handmade;
mod hard;
pub use hard::chooses_action;
mod normal;
pub mod train;
pub mod value;
pub mod weighted;
pub use value::Estimator;

use crate::data::GameData;
use crate::engine::{self, Decision, GameState};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How strong a computer player is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// One step ahead: the decision that scores most as the game stands.
    Easy,
    /// Plans the cards that promise most this round, plays each of its turns to the end in
    /// thought and weighs where it leaves the seat by an estimate of the final score
    /// (`value`).
    #[default]
    Normal,
    /// As normal, but when planning and at a turn's choice of action it plays its best few
    /// options on to the end of the next round on samples of the hidden cards, every seat
    /// answering, and leaves the normal player's choice where the samples clearly favour another.
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level's name in commands and stored games.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// How much thinking a decision may take: a number of playouts (the same result on every
/// machine) and, optionally, a time limit on top of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub playouts: u32,
    pub time: Option<Duration>,
    /// The estimate positions are judged by (the hand-weighted one, unless comparing).
    pub estimator: Estimator,
}

impl Budget {
    /// A fixed number of playouts and no clock: reproducible, for tests and tables.
    pub fn playouts(playouts: u32) -> Budget {
        Budget {
            playouts,
            time: None,
            estimator: Estimator::default(),
        }
    }

    /// The budget a level plays with in a real game.
    pub fn for_play(level: Level) -> Budget {
        match level {
            Level::Easy | Level::Normal => Budget::playouts(1),
            Level::Hard => Budget {
                playouts: 400,
                time: Some(Duration::from_millis(900)),
                estimator: Estimator::default(),
            },
        }
    }

    /// A player at `level` with this budget, in words ("hard, 400 playouts within 900 ms").
    pub fn describe(&self, level: Level) -> String {
        let mut out = level.name().to_string();
        if level == Level::Hard {
            out.push_str(&format!(", {} playouts", self.playouts));
            if let Some(t) = self.time {
                out.push_str(&format!(" within {} ms", t.as_millis()));
            }
        }
        if self.estimator != Estimator::default() {
            out.push_str(&format!(", {} estimate", self.estimator.name()));
        }
        out
    }

    /// The same budget judging positions by `estimator`.
    pub fn with_estimator(self, estimator: Estimator) -> Budget {
        Budget { estimator, ..self }
    }

    /// Whether thinking must stop now, `done` playouts in, started at `since`.
    fn spent(&self, done: u32, since: Instant) -> bool {
        done >= self.playouts || self.time.is_some_and(|t| since.elapsed() >= t)
    }
}

/// What `seat` decides now when played at `level`, or None when it is not waited on (or has no
/// legal decision). Depends only on what the seat knows, `rng` and the budget.
pub fn decide(
    level: Level,
    data: &GameData,
    state: &GameState,
    seat: usize,
    rng: &mut ChaCha8Rng,
    budget: Budget,
) -> Option<Decision> {
    let known = engine::sample::canonical(data, state, seat);
    let legal = engine::legal_decisions(data, &known, seat);
    match legal.as_slice() {
        [] => None,
        [only] => Some(*only),
        _ => match level {
            Level::Easy => easy::decide(data, &known, seat, &legal, rng),
            Level::Normal => normal::decide(data, &known, seat, &legal, rng, budget.estimator),
            Level::Hard => hard::decide(data, &known, seat, &legal, rng, budget),
        },
    }
}

/// The legal options whose value is within `tolerance` of the best (None: the option was
/// refused), the tie split by the self-play policy's taste on `state`: many options change
/// nothing that scores, and the policy knows which of those still lead somewhere.
fn best_by_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    legal: &[Decision],
    values: &[Option<f64>],
    tolerance: f64,
    rng: &mut ChaCha8Rng,
) -> Option<Decision> {
    let best = values.iter().flatten().copied().fold(f64::MIN, f64::max);
    let tied: Vec<Decision> = legal
        .iter()
        .zip(values)
        .filter(|(_, v)| v.is_some_and(|v| v >= best - tolerance))
        .map(|(d, _)| *d)
        .collect();
    weighted::choose(rng, data, state, seat, &tied)
}
