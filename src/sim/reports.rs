//! What a match of computer players measured (`MatchReport`), by scoring category
//! (`points_by_company`), and the reports of a match played in parts (seed ranges) as one
//! (`merge_reports`): the figures `skymines simulate --bots` prints and merges.

use crate::engine;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a match of computer players measured, by player (the entries of `players`, whatever seat
/// they sat in).
#[derive(Debug, Clone, Serialize, serde::Deserialize, Default)]
pub struct MatchReport {
    /// Per player: its level and budget ("hard, 400 playouts within 900 ms").
    #[serde(default)]
    pub players: Vec<String>,
    pub games: usize,
    /// Per player: games won (a shared first place counts as a share of a win).
    pub wins: Vec<f64>,
    pub mean_score: Vec<f64>,
    /// Per player: the median and the 99th percentile time of a decision it thought about, in
    /// milliseconds.
    pub think_p50_ms: Vec<f64>,
    pub think_p99_ms: Vec<f64>,
    /// Luna's wins and mean score, when she plays.
    pub luna_wins: f64,
    pub luna_mean_score: f64,
    /// Per player, and Luna's: mean points a game by scoring category (cash, shares of each
    /// company, tank, research); they add up to the mean score.
    pub points_from: Vec<BTreeMap<String, f64>>,
    pub luna_points_from: BTreeMap<String, f64>,
}

/// A final score by category, shares by company: cash, "shares <company>" ×4, tank, research.
pub fn points_by_company(score: &engine::ScoreBreakdown) -> Vec<(String, u32)> {
    let mut out = vec![("cash".to_string(), score.cash)];
    out.extend(
        score
            .companies
            .iter()
            .map(|c| (format!("shares {}", c.company.id()), c.points)),
    );
    out.push(("tank".to_string(), score.tank));
    out.push(("research".to_string(), score.research));
    out
}

/// Reports of matches played in parts (seed ranges of one match, e.g. on several machines) as
/// one: counts and means add up by games; a decision's p99 is the largest part's, its p50 the
/// parts' mean (the parts' times are not kept).
pub fn merge_reports(parts: &[MatchReport]) -> Result<MatchReport, String> {
    let first = parts.first().ok_or("no reports to merge")?;
    let n = first.wins.len();
    if parts
        .iter()
        .any(|p| p.wins.len() != n || p.players != first.players)
    {
        return Err("the reports are of different matches".to_string());
    }
    let games: usize = parts.iter().map(|p| p.games).sum();
    let weight = |p: &MatchReport| p.games as f64 / games.max(1) as f64;
    let mut out = MatchReport {
        players: first.players.clone(),
        games,
        wins: vec![0.0; n],
        mean_score: vec![0.0; n],
        think_p50_ms: vec![0.0; n],
        think_p99_ms: vec![0.0; n],
        points_from: vec![BTreeMap::new(); n],
        ..MatchReport::default()
    };
    for p in parts {
        let w = weight(p);
        for i in 0..n {
            out.wins[i] += p.wins[i];
            out.mean_score[i] += p.mean_score[i] * w;
            out.think_p50_ms[i] +=
                p.think_p50_ms.get(i).copied().unwrap_or(0.0) / parts.len() as f64;
            out.think_p99_ms[i] =
                out.think_p99_ms[i].max(p.think_p99_ms.get(i).copied().unwrap_or(0.0));
            for (k, v) in p.points_from.get(i).into_iter().flatten() {
                *out.points_from[i].entry(k.clone()).or_default() += v * w;
            }
        }
        out.luna_wins += p.luna_wins;
        out.luna_mean_score += p.luna_mean_score * w;
        for (k, v) in &p.luna_points_from {
            *out.luna_points_from.entry(k.clone()).or_default() += v * w;
        }
    }
    Ok(out)
}
