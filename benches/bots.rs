//! Computer players' strength (issues 23 and 36), over seeded games in which the players change
//! seats from game to game:
//! - 2-player pairings: hard vs easy, normal vs easy, hard vs normal, and the normal player with
//!   the hand-weighted estimate (the players' default) against the normal player with the learned
//!   one (win rates, mean scores, decision time p50 and p99 per level);
//! - more thinking against less: hard at 4 times its table budget against hard at the table
//!   budget (the full-budget figure, with the clock, is `scripts/bots-full-budget.sh`);
//! - hard alone against Luna at each level 0–8: 100 games at levels 0, 2 (the booklet's standard
//!   level) and 5, 20 at the others (wins, mean lead, and the Spearman rank correlation of both
//!   with the level);
//! - the mean points by scoring category (cash, shares of each company, tank, research) of hard,
//!   normal and Luna at level 2;
//! - the learned estimate's held-out error against the hand-weighted one's (from its file);
//! - hard at its full budget of play (`Budget::for_play`) on a small sample, timed.
//!
//! The tables use a fixed playout budget (the same games on every machine). Every game must be
//! played to its end with no refused decision (`sim::bot_match` fails otherwise, and so does
//! this benchmark). `cargo bench --bench bots` (`BENCH_QUICK=1`: a handful of games, and a few
//! decisions timed at the full budget instead of games).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skymines::bots::{self, Budget, Estimator, Level};
use skymines::data::GameData;
use skymines::engine::{self, GameOptions, Phase};
use skymines::sim::{self, MatchReport};
use std::collections::BTreeMap;
use std::time::Instant;
use support::{assert_accepted, fail, size};

/// Playouts a hard decision makes in the tables (see `bots::hard`).
const HARD_PLAYOUTS: u32 = 12;
/// Threads the matches are spread over (the machine's two cores).
const THREADS: usize = 2;
/// Luna's levels played with the larger sample.
const MAIN_LEVELS: [u8; 3] = [0, 2, 5];

fn main() {
    let data = assert_accepted("the built-in data", GameData::embedded());
    let started = Instant::now();
    let games = size(200, 4);
    let hard = (Level::Hard, Budget::playouts(HARD_PLAYOUTS));
    let normal = (Level::Normal, Budget::playouts(1));
    let easy = (Level::Easy, Budget::playouts(1));
    let learned = (
        Level::Normal,
        Budget::playouts(1).with_estimator(Estimator::Learned),
    );
    println!("Computer players' strength ({})", support::mode());
    println!(
        "budget: hard {HARD_PLAYOUTS} playouts a turn's choice, no clock; {games} two-player games a pairing (seeds 1000…), {THREADS} threads"
    );
    println!("pairing | games | first wins | second wins | mean scores | decision p50 / p99 (ms)");
    let two = GameOptions {
        players: 2,
        seed: 1000,
        ..GameOptions::default()
    };
    pairing(&data, &two, [hard, easy], "hard vs easy", games);
    let normal_easy = pairing(&data, &two, [normal, easy], "normal vs easy", games);
    let hard_normal = pairing(&data, &two, [hard, normal], "hard vs normal", games);
    pairing(
        &data,
        &two,
        [normal, learned],
        "normal (hand-weighted estimate, the default) vs normal (learned estimate)",
        games,
    );
    let more = (Level::Hard, Budget::playouts(4 * HARD_PLAYOUTS));
    pairing(
        &data,
        &two,
        [more, hard],
        &format!(
            "hard at {} playouts vs hard at {HARD_PLAYOUTS}",
            4 * HARD_PLAYOUTS
        ),
        size(40, 2),
    );
    println!(
        "decision time by level, p50 / p99 (ms): easy {:.2} / {:.2}, normal {:.2} / {:.2}, hard {:.2} / {:.2}",
        normal_easy.think_p50_ms[1],
        normal_easy.think_p99_ms[1],
        normal_easy.think_p50_ms[0],
        normal_easy.think_p99_ms[0],
        hard_normal.think_p50_ms[0],
        hard_normal.think_p99_ms[0],
    );

    println!("Luna level | games | hard wins | hard mean | Luna mean | hard's mean lead | hard decision p99 (ms)");
    let mut rates = Vec::new();
    let mut leads = Vec::new();
    let mut at_standard = None;
    for level in 0..=8u8 {
        let luna_games = if MAIN_LEVELS.contains(&level) {
            size(100, 2)
        } else {
            size(20, 1)
        };
        let r = solo(&data, level, hard, luna_games);
        let rate = r.wins[0] / luna_games as f64;
        let lead = r.mean_score[0] - r.luna_mean_score;
        rates.push(rate);
        leads.push(lead);
        println!(
            "{level} | {luna_games} | {:.1} ({:.0} %) | {:.1} | {:.1} | {lead:+.1} | {:.1}",
            r.wins[0],
            100.0 * rate,
            r.mean_score[0],
            r.luna_mean_score,
            r.think_p99_ms[0]
        );
        if level == 2 {
            at_standard = Some(r);
        }
    }
    let levels: Vec<f64> = (0..=8).map(f64::from).collect();
    println!(
        "Spearman rank correlation of hard's win rate with Luna's level: {:.2}",
        spearman(&levels, &rates)
    );
    println!(
        "Spearman rank correlation of hard's mean lead over Luna with her level: {:.2}",
        spearman(&levels, &leads)
    );

    // Where the points come from, against the booklet's standard level.
    let normal_games = size(20, 1);
    let normal_solo = solo(&data, 2, normal, normal_games);
    if let Some(hard_solo) = at_standard {
        println!("points by category against Luna level 2 (mean a game): who | games | cash | shares by company | tank | research | tank + research | total");
        category_row("hard", hard_solo.games, &hard_solo.points_from[0]);
        category_row("normal", normal_games, &normal_solo.points_from[0]);
        category_row(
            "Luna (level 2)",
            hard_solo.games,
            &hard_solo.luna_points_from,
        );
    }

    let p = &data.estimate.provenance;
    println!(
        "learned estimate (assets/estimate.toml): held-out error (RMSE of the final score, {} positions of held-out games) {:.2} points, the hand-weighted estimate on the same positions {:.2}, a constant {:.2}; another seat from what is public {:.2}; trained by `{}`",
        p.held_out_positions, p.held_out_rmse_own, p.held_out_rmse_handmade, p.held_out_rmse_constant, p.held_out_rmse_public, p.command
    );

    let full = Budget::for_play(Level::Hard);
    if support::quick() {
        full_budget_decisions(&data, full);
    } else {
        let games = 6;
        let r = sim::bot_match(&data, &two, &[(Level::Hard, full), normal], games, THREADS);
        let r = played("hard at its full budget vs normal", r, games);
        println!(
            "full budget ({} playouts within {:?}): hard wins {:.1} of {games} against normal, mean {:.1} vs {:.1}, p50 {:.0} ms, p99 {:.0} ms",
            full.playouts,
            full.time.unwrap_or_default(),
            r.wins[0],
            r.mean_score[0],
            r.mean_score[1],
            r.think_p50_ms[0],
            r.think_p99_ms[0]
        );
    }
    println!("whole benchmark: {:.1} s", started.elapsed().as_secs_f64());
}

/// A match of two players, printed as a table row.
fn pairing(
    data: &GameData,
    options: &GameOptions,
    players: [(Level, Budget); 2],
    names: &str,
    games: usize,
) -> MatchReport {
    let r = played(
        names,
        sim::bot_match(data, options, &players, games, THREADS),
        games,
    );
    println!(
        "{names} | {games} | {:.1} ({:.0} %) | {:.1} ({:.0} %) | {:.1} / {:.1} | {:.2} / {:.2} and {:.2} / {:.2}",
        r.wins[0],
        100.0 * r.wins[0] / games as f64,
        r.wins[1],
        100.0 * r.wins[1] / games as f64,
        r.mean_score[0],
        r.mean_score[1],
        r.think_p50_ms[0],
        r.think_p99_ms[0],
        r.think_p50_ms[1],
        r.think_p99_ms[1],
    );
    r
}

/// Solo games of `player` against Luna at `level` (seeds 2000…).
fn solo(data: &GameData, level: u8, player: (Level, Budget), games: usize) -> MatchReport {
    let options = GameOptions {
        players: 1,
        luna: Some(level),
        seed: 2000,
        ..GameOptions::default()
    };
    played(
        &format!("{} against Luna {level}", player.0.name()),
        sim::bot_match(data, &options, &[player], games, THREADS),
        games,
    )
}

/// One row of the points-by-category table.
fn category_row(who: &str, games: usize, points: &BTreeMap<String, f64>) {
    let get = |k: &str| points.get(k).copied().unwrap_or(0.0);
    let shares: Vec<String> = points
        .iter()
        .filter_map(|(k, v)| Some(format!("{} {v:.1}", k.strip_prefix("shares ")?)))
        .collect();
    let total: f64 = points.values().sum();
    println!(
        "{who} | {games} | {:.1} | {} | {:.1} | {:.1} | {:.1} | {total:.1}",
        get("cash"),
        shares.join(", "),
        get("tank"),
        get("research"),
        get("tank") + get("research"),
    );
}

/// The report of a match whose every game was played to its end: `bot_match` fails on a refused
/// decision or a stuck game, and every game has a winner (shared wins add up to one).
fn played(what: &str, report: Result<MatchReport, String>, games: usize) -> MatchReport {
    let r = assert_accepted(what, report);
    let wins: f64 = r.wins.iter().sum::<f64>() + r.luna_wins;
    if r.games != games || (wins - games as f64).abs() > 1e-6 {
        fail(what, format!("{} games reported, {wins} wins", r.games));
    }
    r
}

/// Quick mode: the hard player's full budget timed on a few decisions of a seeded game, each
/// applied (a refused one fails the benchmark).
fn full_budget_decisions(data: &GameData, full: Budget) {
    let options = GameOptions {
        players: 2,
        seed: 7,
        ..GameOptions::default()
    };
    let mut state = assert_accepted(
        "a game",
        engine::new_game(data, &options, &sim::seat_names(2)),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut timed = Vec::new();
    while timed.len() < 3 && state.phase != Phase::Finished {
        let seat = engine::waiting_on(&state)[0];
        let turn = bots::chooses_action(&engine::legal_decisions(data, &state, seat));
        let level = if turn { Level::Hard } else { Level::Normal };
        let t = Instant::now();
        let Some(d) = bots::decide(level, data, &state, seat, &mut rng, full) else {
            fail("a full-budget decision", "none was made");
        };
        if turn {
            timed.push(t.elapsed());
        }
        assert_accepted(
            "a full-budget decision",
            engine::apply(data, &mut state, seat, d),
        );
    }
    let ms: Vec<String> = timed
        .iter()
        .map(|t| format!("{:.0}", support::ms(*t)))
        .collect();
    println!(
        "full budget ({} playouts within {:?}): {} turn decisions took {} ms",
        full.playouts,
        full.time.unwrap_or_default(),
        timed.len(),
        ms.join(", ")
    );
}

/// Spearman's rank correlation (ties get their mean rank).
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let cov: f64 = rx
        .iter()
        .zip(&ry)
        .map(|(a, b)| (a - mean) * (b - mean))
        .sum();
    let sd = |r: &[f64]| r.iter().map(|a| (a - mean).powi(2)).sum::<f64>().sqrt();
    let denominator = sd(&rx) * sd(&ry);
    if denominator == 0.0 {
        0.0
    } else {
        cov / denominator
    }
}

/// 1-based ranks, ties sharing their mean rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|a, b| v[*a].total_cmp(&v[*b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for k in &order[i..=j] {
            out[*k] = rank;
        }
        i = j + 1;
    }
    out
}
