//! Matches between computer players (and Luna): whole games played by the bots, their scores
//! and thinking times, and the balance report of `skymines simulate --bots … --stats`.

use super::reports::{points_by_company, MatchReport};
use super::selfplay::seat_names;
use super::threads::in_threads;
use crate::bots::{self, Budget, Level};
use crate::data::GameData;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision, GameOptions};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// A game played to its end by computer players, and how long each seat thought.
pub struct BotGame {
    pub state: GameState,
    /// Per seat, the time of each decision it thought about (forced ones are not counted).
    pub thinking: Vec<Vec<std::time::Duration>>,
    /// Every decision of the game in order, with its seat.
    pub decisions: Vec<(usize, Decision)>,
}

/// Plays a game with `options` where human seat `i` is played at `players[i]` with `budget`;
/// each seat thinks with its own generator, drawn from `seed`.
pub fn play_bots(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    seed: u64,
) -> Result<BotGame, String> {
    let mut state =
        engine::new_game(data, options, &seat_names(options.players)).map_err(|e| e.to_string())?;
    let mut rngs: Vec<ChaCha8Rng> = (0..state.seats.len())
        .map(|i| ChaCha8Rng::seed_from_u64(seed ^ 0x0b07 ^ ((i as u64) << 40)))
        .collect();
    let mut thinking = vec![Vec::new(); state.seats.len()];
    let mut decisions = Vec::new();
    let mut steps = 0;
    while state.phase != Phase::Finished {
        steps += 1;
        if steps > 20_000 {
            return Err("the game did not finish".to_string());
        }
        let seat = *engine::waiting_on(&state).first().ok_or("nobody to move")?;
        let (level, budget) = *players.get(seat).ok_or("a seat without a player")?;
        let started = std::time::Instant::now();
        let d = bots::decide(level, data, &state, seat, &mut rngs[seat], budget)
            .ok_or("no legal decision")?;
        if engine::legal_decisions(data, &state, seat).len() > 1 {
            thinking[seat].push(started.elapsed());
        }
        engine::apply(data, &mut state, seat, d).map_err(|e| e.to_string())?;
        decisions.push((seat, d));
    }
    Ok(BotGame {
        state,
        thinking,
        decisions,
    })
}

/// Plays one solo game (the human seat played by the easy computer player) against Luna at
/// `level`; returns (human score, Luna score).
pub fn solo_vs_luna(data: &GameData, level: u8, seed: u64) -> Result<(u32, u32), String> {
    let options = GameOptions {
        players: 1,
        luna: Some(level),
        seed,
        ..GameOptions::default()
    };
    let game = play_bots(data, &options, &[(Level::Easy, Budget::playouts(1))], seed)?;
    let scores = engine::final_scores(data, &game.state);
    let human = scores.first().map(|s| s.total).unwrap_or(0);
    let luna = scores.last().map(|s| s.total).unwrap_or(0);
    Ok((human, luna))
}

/// One game of a match, by player: win shares, final scores, Luna's win share and final score,
/// thinking times.
type GameResult = (
    Vec<f64>,
    Vec<engine::ScoreBreakdown>,
    f64,
    Option<engine::ScoreBreakdown>,
    Vec<Vec<std::time::Duration>>,
);

/// Plays `games` seeded games (game `i` uses seed `options.seed + i`) between `players`, who
/// change seats from game to game so no one always starts; spread over `threads` threads.
pub fn bot_match(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    games: usize,
    threads: usize,
) -> Result<MatchReport, String> {
    let n = players.len();
    let play = |g: usize| -> Result<GameResult, String> {
        let game = play_match_game(data, options, players, g)?;
        let breakdown = engine::final_scores(data, &game.state);
        let scores: Vec<u32> = breakdown.iter().map(|s| s.total).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = scores.iter().filter(|s| **s == best).count() as f64;
        let share = |seat: usize| {
            if scores[seat] == best {
                1.0 / winners
            } else {
                0.0
            }
        };
        let seat_of = |p: usize| (p + g) % n;
        let wins = (0..n).map(|p| share(seat_of(p))).collect();
        let own = (0..n).map(|p| breakdown[seat_of(p)].clone()).collect();
        let luna = if scores.len() > n {
            (share(n), breakdown.get(n).cloned())
        } else {
            (0.0, None)
        };
        let think = (0..n).map(|p| game.thinking[seat_of(p)].clone()).collect();
        Ok((wins, own, luna.0, luna.1, think))
    };
    let results = in_threads(games, threads, play);
    let mut report = MatchReport {
        players: players.iter().map(|(l, b)| b.describe(*l)).collect(),
        games,
        wins: vec![0.0; n],
        mean_score: vec![0.0; n],
        points_from: vec![BTreeMap::new(); n],
        ..MatchReport::default()
    };
    let mut think: Vec<Vec<std::time::Duration>> = vec![Vec::new(); n];
    let per_game = 1.0 / games.max(1) as f64;
    let add = |into: &mut BTreeMap<String, f64>, score: &engine::ScoreBreakdown| {
        for (what, points) in points_by_company(score) {
            *into.entry(what).or_default() += points as f64 * per_game;
        }
    };
    for r in results {
        let (wins, own, luna_win, luna_score, t) = r?;
        for p in 0..n {
            report.wins[p] += wins[p];
            report.mean_score[p] += own[p].total as f64 * per_game;
            add(&mut report.points_from[p], &own[p]);
            think[p].extend(&t[p]);
        }
        report.luna_wins += luna_win;
        if let Some(luna) = luna_score {
            report.luna_mean_score += luna.total as f64 * per_game;
            add(&mut report.luna_points_from, &luna);
        }
    }
    let percentile = |v: &mut Vec<std::time::Duration>, q: f64| -> f64 {
        v.sort_unstable();
        let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len().max(1)) - 1;
        v.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    for t in think.iter_mut() {
        report.think_p50_ms.push(percentile(t, 0.5));
        report.think_p99_ms.push(percentile(t, 0.99));
    }
    Ok(report)
}

/// Game `g` of a match: seed `options.seed + g`, player p in seat (p + g) % n, so no player
/// always starts.
fn play_match_game(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    g: usize,
) -> Result<BotGame, String> {
    let n = players.len();
    let seed = options.seed + g as u64;
    let seated: Vec<(Level, Budget)> = (0..n).map(|s| players[(s + n - g % n) % n]).collect();
    play_bots(
        data,
        &GameOptions {
            seed,
            ..options.clone()
        },
        &seated,
        seed,
    )
}

/// A spread of numbers: count, mean, standard deviation and quantiles.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
    pub max: f64,
}

impl Distribution {
    pub fn of(values: &[f64]) -> Distribution {
        if values.is_empty() {
            return Distribution::default();
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        let mean = sorted.iter().sum::<f64>() / n;
        let var = sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
        Distribution {
            count: sorted.len(),
            mean,
            sd: var.sqrt(),
            min: sorted[0],
            p10: q(0.1),
            p50: q(0.5),
            p90: q(0.9),
            max: sorted[sorted.len() - 1],
        }
    }
}

/// Games played and won (a shared first place counts as a share of a win) by the players who
/// had something in common.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct WinRate {
    pub players: usize,
    pub wins: f64,
    pub win_rate: f64,
}

impl WinRate {
    fn add(&mut self, win: f64) {
        self.players += 1;
        self.wins += win;
        self.win_rate = self.wins / self.players as f64;
    }
}

/// The balance report (`skymines simulate --bots LEVEL --players P --stats`): what seeded games
/// between computer players looked like. Every rate is over player seats (Luna, when she
/// plays, only takes wins away); `fair_share` is what a rate would be with no advantage.
#[derive(Debug, Clone, Serialize, Default)]
pub struct BalanceReport {
    pub games: usize,
    /// Seats in a game, Luna included.
    pub seats: usize,
    /// 1 / seats.
    pub fair_share: f64,
    /// Final scores of the player seats.
    pub score: Distribution,
    /// The winners' scores.
    pub winning_score: Distribution,
    /// Mean points per player seat by scoring category (cash, shares, tank, research); they
    /// add up to the mean score.
    pub points_from: BTreeMap<String, f64>,
    /// Luna's mean points a game by the same categories (empty when she does not play): where
    /// she outscores the players.
    pub luna_points_from: BTreeMap<String, f64>,
    /// Luna's mean final score (0 when she does not play).
    pub luna_score: f64,
    pub rounds: Distribution,
    /// Decisions a game (every small choice, all seats).
    pub decisions: Distribution,
    /// Turns (actions taken, drop-outs included) per player seat and game.
    pub turns: Distribution,
    /// Mean per player seat and game of each kind of turn action, and of cards bought, plans
    /// taken and sectors entered inside actions.
    pub action_mix: BTreeMap<String, f64>,
    /// By seat in clockwise order from the first player of round 1.
    pub by_seat: Vec<WinRate>,
    /// By starting research token.
    pub by_token: BTreeMap<String, WinRate>,
    /// By company focus: the company a player's share points came most from.
    pub by_focus: BTreeMap<String, WinRate>,
    /// By the track of the focus company: "A1 (skymine)".
    pub by_focus_track: BTreeMap<String, WinRate>,
}

/// A final score by scoring category: cash, shares (all companies), tank, research.
fn points_by_category(score: &engine::ScoreBreakdown) -> [(&'static str, u32); 4] {
    let shares = score.companies.iter().map(|c| c.points).sum();
    [
        ("cash", score.cash),
        ("shares", shares),
        ("tank", score.tank),
        ("research", score.research),
    ]
}

/// The turn action (or counted step inside one) a decision is, for the action mix.
fn action_kind(d: &Decision) -> Option<&'static str> {
    Some(match d {
        Decision::UseResources { .. } => "use resources",
        Decision::UseEnergy => "use energy",
        Decision::UseResearch { .. } => "use research scientist",
        Decision::UseField { .. } => "use field scientist",
        Decision::PlaceBonus { .. } => "place bonus marker",
        Decision::DropOut => "drop out",
        Decision::BuyCard { .. } => "cards bought",
        Decision::TakePlan { .. } | Decision::TakeSpecial { .. } => "plans taken",
        Decision::EnterSector { .. } | Decision::ExpandInto { .. } => "sectors entered",
        _ => return None,
    })
}

/// Whether a kind of `action_kind` is a turn (the rest are steps inside one).
fn is_turn(kind: &str) -> bool {
    !matches!(kind, "cards bought" | "plans taken" | "sectors entered")
}

/// Plays `games` seeded games between `players` (seated as in [`bot_match`]) and reports the
/// balance figures.
pub fn balance(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    games: usize,
    threads: usize,
) -> Result<BalanceReport, String> {
    let results = in_threads(games, threads, |g| {
        play_match_game(data, options, players, g)
    });
    let n = players.len();
    let mut report = BalanceReport {
        games,
        by_seat: vec![WinRate::default(); n],
        ..BalanceReport::default()
    };
    let (mut scores, mut winning, mut rounds, mut decisions, mut turns) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut from: BTreeMap<String, f64> = BTreeMap::new();
    let mut mix: BTreeMap<String, f64> = BTreeMap::new();
    for r in results {
        let game = r?;
        let state = &game.state;
        report.seats = state.seats.len();
        let final_scores = engine::final_scores(data, state);
        let best = final_scores.iter().map(|s| s.total).max().unwrap_or(0);
        let sharing = final_scores.iter().filter(|s| s.total == best).count() as f64;
        winning.push(best as f64);
        rounds.push(state.round as f64);
        decisions.push(game.decisions.len() as f64);
        for (seat, score) in final_scores.iter().enumerate() {
            if state.seats[seat].is_luna() {
                report.luna_score += score.total as f64 / games as f64;
                for (what, points) in points_by_category(score) {
                    *report.luna_points_from.entry(what.to_string()).or_default() +=
                        points as f64 / games as f64;
                }
                continue;
            }
            let win = if score.total == best {
                1.0 / sharing
            } else {
                0.0
            };
            scores.push(score.total as f64);
            for (what, points) in points_by_category(score) {
                *from.entry(what.to_string()).or_default() += points as f64;
            }
            report.by_seat[seat].add(win);
            let s = &state.seats[seat];
            if let Some(token) = s.token.and_then(|t| data.research.starting_tokens.get(t)) {
                report
                    .by_token
                    .entry(token.id.clone())
                    .or_default()
                    .add(win);
            }
            if let Some(focus) = score
                .companies
                .iter()
                .filter(|c| c.points > 0)
                .max_by_key(|c| c.points)
            {
                let track = &data.tracks.tracks[state.tracks[focus.company.index()]];
                let company = focus.company.id();
                report
                    .by_focus
                    .entry(company.to_string())
                    .or_default()
                    .add(win);
                report
                    .by_focus_track
                    .entry(format!("{} ({company})", track.id))
                    .or_default()
                    .add(win);
            }
            let mut own_turns = 0.0;
            for kind in game
                .decisions
                .iter()
                .filter(|(by, _)| *by == seat)
                .filter_map(|(_, d)| action_kind(d))
            {
                *mix.entry(kind.to_string()).or_default() += 1.0;
                if is_turn(kind) {
                    own_turns += 1.0;
                }
            }
            turns.push(own_turns);
        }
    }
    let per_player = (games * n).max(1) as f64;
    report.fair_share = 1.0 / report.seats.max(1) as f64;
    report.score = Distribution::of(&scores);
    report.winning_score = Distribution::of(&winning);
    report.rounds = Distribution::of(&rounds);
    report.decisions = Distribution::of(&decisions);
    report.turns = Distribution::of(&turns);
    report.points_from = from.into_iter().map(|(k, v)| (k, v / per_player)).collect();
    report.action_mix = mix.into_iter().map(|(k, v)| (k, v / per_player)).collect();
    Ok(report)
}
