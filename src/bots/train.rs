//! `skymines train`: fits the learned estimate (`assets/estimate.toml`) to the final scores of
//! seeded games. Deterministic: the same command writes the same numbers, on any number of
//! threads (the games are seeded one by one and their positions fitted in game order; the fit
//! itself is single-threaded).
//!
//! The games must cover the whole game, not only what today's players do (a fit on players who
//! never fill their tank would learn that the tank is worthless), so each round of fitting plays
//! games between *exploring* players: each judges its options like the normal player (the rest
//! of its turn played in thought, the result weighed by the estimate) but adds a bias toward one
//! way of scoring (the tank, research, shares or cash, or none) and now and then takes a random
//! option instead (ε-greedy). Luna's seats are examples too (of another seat's final score).
//! The explorers judge by the hand-weighted estimate (`bots::handmade`) plus their bias in every
//! round, so a fit never depends on the file it replaces and the games keep covering what a
//! young fit undervalues; every later round also seats the normal player judging by the
//! previous round's fit (expert iteration) and fits again on all positions so far.
//!
//! A position is recorded now and then (a share of the decisions) from every seat's view: the
//! seat's own features (`features::View::Own`) with its final score, and every seat's public
//! features with its final score. Every fifth game is held out: its positions are not fitted but
//! measure the fit's error, and the hand-weighted estimate's on the same positions.
//!
//! The fit is ridge regression on standardized features (closed form, a Cholesky solve) of the
//! points each seat still scored after the position (its final score less its score as it stood,
//! `features::standing`).

use super::features::{self, Base, Context, View};
use super::normal::{self, Eval};
use super::value::{self, Estimator};
use super::{best_by_value, handmade, weighted, Budget, Level};
use crate::data::estimate::{
    self, feature_names, EstimateFile, EstimateProvenance, BASE_FEATURES, FEATURE_COUNT, KNOTS_LAST,
};
use crate::data::GameData;
use crate::engine::TrackSetup;
use crate::engine::{self, BoardSide, Decision, GameOptions, GameState, Phase, TokenSetup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// How a training run is set up.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// Games a round of fitting plays.
    pub games: u64,
    /// Seed of the first game; the games of all rounds are numbered on from it.
    pub seed: u64,
    /// Rounds of fitting (1: exploring players only).
    pub iterations: u32,
    /// Ridge penalty on standardized features.
    pub ridge: f64,
    /// Share of the decisions at which a position is recorded.
    pub record: f64,
    /// Threads the games of a round are played on (the numbers do not depend on it: each game
    /// is seeded alone and the positions are fitted in game order).
    pub threads: usize,
    /// The command line, for the file's provenance.
    pub command: String,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            games: 400,
            seed: 1,
            iterations: 3,
            ridge: 0.1,
            record: 0.1,
            threads: 1,
            command: String::new(),
        }
    }
}

/// What one round of fitting measured.
#[derive(Debug, Clone)]
pub struct RoundReport {
    pub iteration: u32,
    pub games: u64,
    pub positions: u64,
    pub held_out_positions: u64,
    pub rmse_own: f64,
    pub rmse_handmade: f64,
    pub rmse_public: f64,
    pub rmse_constant: f64,
    /// Per exploring bias (and the normal player): seats, mean final score, and its tank and
    /// research points.
    pub by_policy: Vec<(String, u64, f64, f64, f64)>,
}

/// A way of playing a training seat.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Policy {
    /// The normal player's judgement plus `bias`, with a random option now and then.
    Explorer { bias: Bias, epsilon: f64 },
    /// The normal player judging by the estimate fitted so far.
    Normal,
}

/// Extra worth an exploring player sees in one way of scoring (points per tank step, per
/// research screen entered, per 10 points of shares as they stand, per coin).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bias {
    name: &'static str,
    tank: f64,
    research: f64,
    shares: f64,
    cash: f64,
}

const BIASES: [Bias; 5] = [
    Bias {
        name: "neutral",
        tank: 0.0,
        research: 0.0,
        shares: 0.0,
        cash: 0.0,
    },
    Bias {
        name: "tank",
        tank: 4.0,
        research: 0.0,
        shares: 0.0,
        cash: 0.0,
    },
    Bias {
        name: "research",
        tank: 0.0,
        research: 5.0,
        shares: 0.0,
        cash: 0.0,
    },
    Bias {
        name: "shares",
        tank: 0.0,
        research: 0.0,
        shares: 2.0,
        cash: 0.0,
    },
    Bias {
        name: "cash",
        tank: 0.0,
        research: 0.0,
        shares: 0.0,
        cash: 0.7,
    },
];

impl Policy {
    fn name(self) -> &'static str {
        match self {
            Policy::Explorer { bias, .. } => bias.name,
            Policy::Normal => "normal",
        }
    }
}

/// The options and seat policies of training game `seed` in round `iteration`.
fn game_setup(seed: u64, iteration: u32) -> (GameOptions, Vec<Policy>) {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x7a1_u64.wrapping_mul(0x9e37));
    let players = match r.gen_range(0..20) {
        0..=5 => 1,
        6..=12 => 2,
        13..=16 => 3,
        _ => 4,
    };
    let luna = if players == 1 || (players < 4 && r.gen_bool(0.25)) {
        Some(r.gen_range(0..=8u8))
    } else {
        None
    };
    let options = GameOptions {
        players,
        luna,
        board: if r.gen_bool(0.15) {
            BoardSide::Belt
        } else {
            BoardSide::Moon
        },
        tracks: if r.gen_bool(0.5) {
            TrackSetup::Random
        } else {
            TrackSetup::Default
        },
        tokens: if r.gen_bool(0.5) {
            TokenSetup::Draft
        } else {
            TokenSetup::Fixed
        },
        linked_slots: r.gen_bool(0.15),
        seed,
        ..GameOptions::default()
    };
    let policies = (0..players)
        .map(|_| {
            if iteration > 0 && r.gen_bool(0.4) {
                Policy::Normal
            } else {
                Policy::Explorer {
                    bias: BIASES[r.gen_range(0..BIASES.len())],
                    epsilon: if r.gen_bool(0.5) { 0.03 } else { 0.15 },
                }
            }
        })
        .collect();
    (options, policies)
}

/// The exploring player's bias: its extra worth of `state` for `seat`.
fn bias_worth(data: &GameData, state: &GameState, seat: usize, bias: &Bias) -> f64 {
    if bias.tank == 0.0 && bias.research == 0.0 && bias.shares == 0.0 && bias.cash == 0.0 {
        return 0.0;
    }
    let s = &state.seats[seat];
    let f = features::base(data, state, &Context::of(data, state), seat, View::Own);
    let at = |name: &str| {
        crate::data::estimate::BASE_FEATURES
            .iter()
            .position(|n| *n == name)
            .map_or(0.0, |i| f[i])
    };
    let entered = s.upload.map_or(0.0, |u| u as f64 + 1.0);
    // What leads toward each way of scoring counts too (cards that move the marker, plans that
    // lie ready), or a biased player would never buy a field scientist.
    bias.tank * (s.tank as f64 + 0.5 * at("field_now") + 1.5 * at("field_steps_owned"))
        + bias.research
            * (entered
                + 0.5 * at("research_reach_now")
                + 0.5 * at("plans_in_reach")
                + 0.25 * at("plans_ahead")
                + at("research_scientists_owned"))
        + bias.shares * at("share_points") / 10.0
        + bias.cash * s.coins as f64
}

/// The exploring player's decision for `seat` (on a sample of what it knows).
fn explore(
    data: &GameData,
    state: &GameState,
    seat: usize,
    rng: &mut ChaCha8Rng,
    bias: &Bias,
    epsilon: f64,
) -> Option<Decision> {
    // Explorers always judge by the hand-weighted estimate plus their bias, in every round: a
    // fit that has not yet seen the research chain pay would talk them out of it, and the
    // positions would stop covering it. The fitted estimate plays in the normal player's seats.
    let est = Estimator::Handmade;
    let known = engine::sample::canonical(data, state, seat);
    let legal = engine::legal_decisions(data, &known, seat);
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let sampled = engine::sample::sample(data, &known, seat, rng);
    // Exploring: now and then a random turn action (never dropping out while something else
    // is open) or a random one of the card sets weighed; the steps inside an action and the
    // planning of a chosen set stay sensible (a random "done planning" would waste the round).
    let explore = rng.gen_bool(epsilon);
    if explore && sampled.phase == Phase::Action && super::chooses_action(&legal) {
        let open: Vec<Decision> = legal
            .iter()
            .copied()
            .filter(|d| *d != Decision::DropOut)
            .collect();
        let options = if open.is_empty() { &legal } else { &open };
        return options.get(rng.gen_range(0..options.len())).copied();
    }
    let eval: Eval =
        &|s: &GameState| value::lead(est, data, s, seat) + bias_worth(data, s, seat, bias);
    match sampled.phase {
        Phase::Planning => {
            let mut sets = normal::plan_sets(data, &sampled, seat, 6);
            if explore && !sets.is_empty() {
                let pick = rng.gen_range(0..sets.len());
                sets = vec![sets.swap_remove(pick)];
            }
            let mut best: Option<(f64, Vec<u8>)> = None;
            for set in sets {
                let Some(planned) = normal::with_planned(data, &sampled, seat, &set) else {
                    continue;
                };
                let v = eval(&planned);
                if best.as_ref().is_none_or(|(b, _)| v > *b) {
                    best = Some((v, set));
                }
            }
            let wanted = best.map(|(_, s)| s).unwrap_or_default();
            normal::plan_with(data, &sampled, seat, &legal, &wanted, rng)
        }
        Phase::Action => {
            let values = normal::judge_by(data, &sampled, seat, &legal, rng, eval);
            best_by_value(data, &sampled, seat, &legal, &values, 1e-9, rng)
        }
        _ => weighted::choose(rng, data, &sampled, seat, &legal),
    }
}

/// The training games' seat names (those of `sim::seat_names`, which this layer may not use).
fn seat_names(players: usize) -> Vec<String> {
    ["Lin", "Malik", "Amber", "Jo"]
        .iter()
        .take(players)
        .map(|s| s.to_string())
        .collect()
}

/// `play(i)` for every i in 0..count, spread over `threads` threads, the results in order of i
/// (so what is fitted does not depend on the number of threads).
fn in_threads<T: Send>(count: usize, threads: usize, play: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let threads = threads.clamp(1, count.max(1));
    let mut results: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let play = &play;
                scope.spawn(move || {
                    (t..count)
                        .step_by(threads)
                        .map(|i| (i, play(i)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// A recorded position of one seat: its features and the time left.
struct Row {
    view: View,
    seat: usize,
    base: Base,
    left: f64,
    /// The hand-weighted estimate of the same position (held-out own rows only).
    handmade: f64,
}

/// One game played for training: its recorded rows with their targets, and the seats' final
/// scores by category.
struct PlayedGame {
    rows: Vec<(Row, f64)>,
    /// Per human seat: policy name, total, tank, research.
    seats: Vec<(&'static str, f64, f64, f64)>,
}

fn play_game(
    data: &GameData,
    seed: u64,
    iteration: u32,
    record: f64,
    held_out: bool,
    est: Estimator,
) -> Result<PlayedGame, String> {
    let (options, policies) = game_setup(seed, iteration);
    let mut state = engine::new_game(data, &options, &seat_names(options.players))
        .map_err(|e| e.to_string())?;
    let mut rngs: Vec<ChaCha8Rng> = (0..state.seats.len())
        .map(|i| ChaCha8Rng::seed_from_u64(seed.wrapping_mul(31) ^ (i as u64) << 48))
        .collect();
    let mut recorder = ChaCha8Rng::seed_from_u64(seed ^ 0x5ec0_4d00);
    let mut rows = Vec::new();
    let mut steps = 0;
    while state.phase != Phase::Finished {
        steps += 1;
        if steps > 20_000 {
            return Err(format!("training game {seed} did not finish"));
        }
        let seat = *engine::waiting_on(&state)
            .first()
            .ok_or_else(|| format!("training game {seed}: nobody to move"))?;
        if recorder.gen_bool(record) {
            record_position(data, &state, &policies, held_out, &mut rows);
        }
        let policy = policies
            .get(seat)
            .copied()
            .ok_or_else(|| format!("training game {seed}: a seat without a player"))?;
        let d = match policy {
            Policy::Explorer { bias, epsilon } => {
                explore(data, &state, seat, &mut rngs[seat], &bias, epsilon)
            }
            Policy::Normal => super::decide(
                Level::Normal,
                data,
                &state,
                seat,
                &mut rngs[seat],
                Budget::playouts(1).with_estimator(est),
            ),
        }
        .ok_or_else(|| format!("training game {seed}: no decision"))?;
        engine::apply_quiet(data, &mut state, seat, d).map_err(|e| e.to_string())?;
    }
    let scores = engine::final_scores(data, &state);
    let rows = rows
        .into_iter()
        .map(|r: Row| {
            let target = scores.get(r.seat).map_or(0.0, |s| s.total as f64);
            (r, target)
        })
        .collect();
    let seats = policies
        .iter()
        .zip(&scores)
        .map(|(p, s)| (p.name(), s.total as f64, s.tank as f64, s.research as f64))
        .collect();
    Ok(PlayedGame { rows, seats })
}

/// Records `state` from every seat's view: its own features (human seats) and its public ones,
/// each with how the seat is played.
fn record_position(
    data: &GameData,
    state: &GameState,
    policies: &[Policy],
    held_out: bool,
    rows: &mut Vec<Row>,
) {
    let ctx = Context::of(data, state);
    for seat in 0..state.seats.len() {
        let mark = |base: &mut Base| {
            if let Some(Policy::Explorer { bias, epsilon }) = policies.get(seat) {
                let on = |v: f64| (v > 0.0) as u8 as f64;
                features::trained_as(
                    base,
                    on(bias.tank),
                    on(bias.research),
                    on(bias.shares),
                    on(bias.cash),
                    *epsilon,
                );
            }
        };
        if !state.seats[seat].is_luna() {
            let known = engine::sample::canonical(data, state, seat);
            let mut base = features::base(data, &known, &ctx, seat, View::Own);
            mark(&mut base);
            rows.push(Row {
                view: View::Own,
                seat,
                base,
                left: ctx.left,
                handmade: if held_out {
                    handmade::estimate(data, &known, seat)
                } else {
                    0.0
                },
            });
        }
        let mut base = features::base(data, state, &ctx, seat, View::Public);
        mark(&mut base);
        rows.push(Row {
            view: View::Public,
            seat,
            base,
            left: ctx.left,
            handmade: 0.0,
        });
    }
}

/// Sums for a least-squares fit, added row by row.
struct Normal {
    n: f64,
    xtx: Vec<f64>,
    xty: Vec<f64>,
    sum_x: Vec<f64>,
    sum_y: f64,
}

impl Normal {
    fn new() -> Normal {
        Normal {
            n: 0.0,
            xtx: vec![0.0; FEATURE_COUNT * FEATURE_COUNT],
            xty: vec![0.0; FEATURE_COUNT],
            sum_x: vec![0.0; FEATURE_COUNT],
            sum_y: 0.0,
        }
    }

    fn add(&mut self, base: &Base, left: f64, y: f64) {
        let x = features::expand(base, left);
        // Each row is mostly zeros (two points in time of eight).
        let nonzero: Vec<usize> = (0..FEATURE_COUNT).filter(|i| x[*i] != 0.0).collect();
        self.n += 1.0;
        self.sum_y += y;
        for (a, &i) in nonzero.iter().enumerate() {
            self.sum_x[i] += x[i];
            self.xty[i] += x[i] * y;
            let row = &mut self.xtx[i * FEATURE_COUNT..(i + 1) * FEATURE_COUNT];
            for &j in &nonzero[a..] {
                row[j] += x[i] * x[j];
            }
        }
    }

    fn mean_y(&self) -> f64 {
        if self.n == 0.0 {
            0.0
        } else {
            self.sum_y / self.n
        }
    }

    /// Ridge regression with the penalty `ridge` on standardized features; the weights are
    /// returned for the raw features (the constant one, "bias", carries the intercept). A
    /// feature that never varies gets weight 0. The weights of [`NONNEGATIVE`] features are
    /// kept at 0 or above.
    fn solve(&self, ridge: f64) -> Vec<f64> {
        let k = FEATURE_COUNT;
        let mut w = vec![0.0; k];
        if self.n < 2.0 {
            for knot in 0..=KNOTS_LAST {
                w[knot * BASE_FEATURES.len()] = self.mean_y();
            }
            return w;
        }
        let n = self.n;
        let xtx = |i: usize, j: usize| {
            let (a, b) = if i <= j { (i, j) } else { (j, i) };
            self.xtx[a * k + b]
        };
        let mean: Vec<f64> = (0..k).map(|i| self.sum_x[i] / n).collect();
        let my = self.mean_y();
        let sd: Vec<f64> = (0..k)
            .map(|i| (xtx(i, i) / n - mean[i] * mean[i]).max(0.0).sqrt())
            .collect();
        // The varying features (the intercept is added to every "bias@k": their hats sum to 1).
        let used: Vec<usize> = (0..k).filter(|i| sd[*i] > 1e-9).collect();
        let m = used.len();
        let mut a = vec![0.0; m * m];
        let mut b = vec![0.0; m];
        for (p, &i) in used.iter().enumerate() {
            for (q, &j) in used.iter().enumerate() {
                let cov = xtx(i, j) / n - mean[i] * mean[j];
                a[p * m + q] = cov / (sd[i] * sd[j]);
            }
            a[p * m + p] += ridge;
            b[p] = (self.xty[i] / n - mean[i] * my) / sd[i];
        }
        let bounded: Vec<bool> = used
            .iter()
            .map(|i| NONNEGATIVE.contains(&BASE_FEATURES[i % BASE_FEATURES.len()]))
            .collect();
        let beta = bounded_solve(&a, &b, m, &bounded);
        let mut intercept = my;
        for (p, &i) in used.iter().enumerate() {
            w[i] = beta[p] / sd[i];
            intercept -= w[i] * mean[i];
        }
        for knot in 0..=KNOTS_LAST {
            w[knot * BASE_FEATURES.len()] += intercept;
        }
        w
    }
}

/// Features whose weight the fit keeps at 0 or above: more of what a seat has built (points,
/// track positions, cards, plans, markers, slots) never makes its estimate lower. The players
/// choose by the estimate's differences, so a weight is a price: fitted freely, the correlations
/// between features and with how a training seat was played gave some a negative price (a tank
/// point already scored counted -1.2 points six rounds before the end, a research point -10.7),
/// and the players then steered away from the tank and the research track however well they
/// paid.
pub const NONNEGATIVE: &[&str] = &[
    "cash",
    "share_points",
    "share_headroom",
    "shares",
    "next_shares",
    "track_spaces",
    "track_bonuses",
    "tank_points",
    "tank_ahead_3",
    "tank_ahead_6",
    "tank_ahead_10",
    "research_points",
    "research_ahead_1",
    "research_ahead_2",
    "research_ahead_4",
    "plans_ahead",
    "plans_in_reach",
    "resource_units_owned",
    "energy_owned",
    "research_points_owned",
    "research_scientists_owned",
    "field_steps_owned",
    "hand_cards",
    "resource_units_now",
    "energy_now",
    "research_now",
    "field_now",
    "research_reach_now",
    "markers",
    "extra_slots",
    "tiles",
];

/// Minimizes `x'ax/2 - b'x` for a symmetric positive definite `a` (m × m) with `x[i] >= 0`
/// where `bounded[i]`: the unconstrained solution, then coordinate descent from it clamped
/// (deterministic: a fixed order of sweeps).
fn bounded_solve(a: &[f64], b: &[f64], m: usize, bounded: &[bool]) -> Vec<f64> {
    let mut x = cholesky_solve(&mut a.to_vec(), b, m);
    if !bounded.iter().zip(&x).any(|(on, v)| *on && *v < 0.0) {
        return x;
    }
    for (v, on) in x.iter_mut().zip(bounded) {
        if *on {
            *v = v.max(0.0);
        }
    }
    // g = a x - b, kept up to date as x moves.
    let mut g: Vec<f64> = (0..m)
        .map(|i| (0..m).map(|j| a[i * m + j] * x[j]).sum::<f64>() - b[i])
        .collect();
    for _ in 0..5_000 {
        let mut moved = 0f64;
        for i in 0..m {
            let d = a[i * m + i];
            let mut next = x[i] - g[i] / d;
            if bounded[i] {
                next = next.max(0.0);
            }
            let step = next - x[i];
            if step != 0.0 {
                x[i] = next;
                for (j, gj) in g.iter_mut().enumerate() {
                    *gj += a[j * m + i] * step;
                }
                moved = moved.max(step.abs());
            }
        }
        if moved < 1e-9 {
            break;
        }
    }
    x
}

/// Solves `a x = b` for a symmetric positive definite `a` (m × m, overwritten).
fn cholesky_solve(a: &mut [f64], b: &[f64], m: usize) -> Vec<f64> {
    for j in 0..m {
        let mut d = a[j * m + j];
        for k in 0..j {
            d -= a[j * m + k] * a[j * m + k];
        }
        let d = d.max(1e-12).sqrt();
        a[j * m + j] = d;
        for i in j + 1..m {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= a[i * m + k] * a[j * m + k];
            }
            a[i * m + j] = s / d;
        }
    }
    let mut y = vec![0.0; m];
    for i in 0..m {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * m + k] * y[k];
        }
        y[i] = s / a[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        let mut s = y[i];
        for k in i + 1..m {
            s -= a[k * m + i] * x[k];
        }
        x[i] = s / a[i * m + i];
    }
    x
}

fn rmse(errors: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for e in errors {
        sum += e * e;
        n += 1.0;
    }
    if n == 0.0 {
        0.0
    } else {
        (sum / n).sqrt()
    }
}

/// Trains the estimate; `progress` hears a line per round of fitting (and per 50 games).
pub fn train(
    data: &GameData,
    config: &TrainConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<(EstimateFile, Vec<RoundReport>), String> {
    let mut own = Normal::new();
    let mut public = Normal::new();
    let mut held_own: Vec<(Base, f64, f64, f64)> = Vec::new();
    let mut held_public: Vec<(Base, f64, f64)> = Vec::new();
    let mut hasher = Sha256::new();
    let mut file = EstimateFile {
        schema_version: estimate::SCHEMA_VERSION,
        features: feature_names(),
        own: vec![0.0; FEATURE_COUNT],
        public: vec![0.0; FEATURE_COUNT],
        provenance: EstimateProvenance::default(),
    };
    let mut reports = Vec::new();
    // Sum and count of the fitted own positions' final scores.
    let mut own_scores = (0.0f64, 0.0f64);
    let mut fitted = data.clone();
    let mut game = 0u64;
    for iteration in 0..config.iterations.max(1) {
        let est = if iteration == 0 {
            Estimator::Handmade
        } else {
            Estimator::Learned
        };
        let mut by_policy: Vec<(String, u64, f64, f64, f64)> = Vec::new();
        let mut positions = 0u64;
        // Games are played in batches spread over the threads, then taken in game order.
        let batch = (config.threads.max(1) * 16) as u64;
        let mut g = 0u64;
        while g < config.games {
            let count = batch.min(config.games - g);
            let first = game;
            let fitted_ref = &fitted;
            let played_batch = in_threads(count as usize, config.threads, |i| {
                let index = first + i as u64;
                play_game(
                    fitted_ref,
                    config.seed + index,
                    iteration,
                    config.record,
                    index % 5 == 4,
                    est,
                )
            });
            for played in played_batch {
                let held_out = game % 5 == 4;
                game += 1;
                g += 1;
                let played = played?;
                for (name, total, tank, research) in played.seats {
                    let entry = match by_policy.iter_mut().find(|e| e.0 == name) {
                        Some(e) => e,
                        None => {
                            by_policy.push((name.to_string(), 0, 0.0, 0.0, 0.0));
                            by_policy.last_mut().expect("just pushed")
                        }
                    };
                    entry.1 += 1;
                    entry.2 += total;
                    entry.3 += tank;
                    entry.4 += research;
                }
                for (row, target) in played.rows {
                    if held_out {
                        match row.view {
                            View::Own => held_own.push((row.base, row.left, target, row.handmade)),
                            View::Public => held_public.push((row.base, row.left, target)),
                        }
                        continue;
                    }
                    positions += 1;
                    if row.view == View::Own {
                        own_scores.0 += target;
                        own_scores.1 += 1.0;
                    }
                    hasher.update([matches!(row.view, View::Own) as u8]);
                    hasher.update(target.to_le_bytes());
                    hasher.update(row.left.to_le_bytes());
                    for x in row.base.iter() {
                        hasher.update(x.to_le_bytes());
                    }
                    match row.view {
                        // The weights predict the points still to come (`features::predict`).
                        View::Own => {
                            own.add(&row.base, row.left, target - features::standing(&row.base))
                        }
                        View::Public => {
                            public.add(&row.base, row.left, target - features::standing(&row.base))
                        }
                    }
                }
            }
            progress(&format!(
                "  round {}: {} of {} games",
                iteration + 1,
                g,
                config.games
            ));
        }
        file.own = own.solve(config.ridge);
        file.public = public.solve(config.ridge);
        fitted.estimate = file.clone();
        // The constant to beat: the training positions' mean final score (not the mean of the
        // points still to come that the weights fit).
        let constant = own_scores.0 / own_scores.1.max(1.0);
        let report = RoundReport {
            iteration: iteration + 1,
            games: config.games,
            positions,
            held_out_positions: held_own.len() as u64,
            rmse_own: rmse(
                held_own
                    .iter()
                    .map(|(x, left, y, _)| features::predict(&file.own, x, *left) - y),
            ),
            rmse_handmade: rmse(held_own.iter().map(|(_, _, y, h)| h - y)),
            rmse_public: rmse(
                held_public
                    .iter()
                    .map(|(x, left, y)| features::predict(&file.public, x, *left) - y),
            ),
            rmse_constant: rmse(held_own.iter().map(|(_, _, y, _)| constant - y)),
            by_policy: by_policy
                .into_iter()
                .map(|(name, n, total, tank, research)| {
                    let n_f = n.max(1) as f64;
                    (name, n, total / n_f, tank / n_f, research / n_f)
                })
                .collect(),
        };
        progress(&round_line(&report));
        reports.push(report);
    }
    let last = reports.last().cloned().ok_or("no round of fitting")?;
    let digest = hasher.finalize();
    file.provenance = EstimateProvenance {
        command: config.command.clone(),
        seed: config.seed,
        games: game,
        iterations: config.iterations.max(1),
        positions: (own.n + public.n) as u64,
        held_out_positions: (held_own.len() + held_public.len()) as u64,
        training_hash: digest.iter().take(16).map(|b| format!("{b:02x}")).collect(),
        component_data_hash: data.hash.clone(),
        held_out_rmse_own: last.rmse_own,
        held_out_rmse_handmade: last.rmse_handmade,
        held_out_rmse_public: last.rmse_public,
        held_out_rmse_constant: last.rmse_constant,
        ridge: config.ridge,
    };
    Ok((file, reports))
}

/// A round's report as one line (and the policies' scores after it).
pub fn round_line(r: &RoundReport) -> String {
    let mut line = format!(
        "round {}: {} games, {} positions fitted; held-out error (RMSE, points): learned {:.2}, hand-weighted {:.2}, public {:.2}, constant {:.2} ({} positions)",
        r.iteration,
        r.games,
        r.positions,
        r.rmse_own,
        r.rmse_handmade,
        r.rmse_public,
        r.rmse_constant,
        r.held_out_positions
    );
    for (name, n, total, tank, research) in &r.by_policy {
        line.push_str(&format!(
            "\n  {name}: {n} seats, mean {total:.1} (tank {tank:.1}, research {research:.1})"
        ));
    }
    line
}
