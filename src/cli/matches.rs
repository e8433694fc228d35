//! `simulate --bots`: the players of a match from the per-player options, and a match's report
//! printed (wins, scores, points by category, decision times) or merged from parts run apart.

use crate::bots::{Budget, Estimator, Level};
use std::io::Write;
use std::path::PathBuf;

/// The players of a match: one level each, with the budget its entries of the per-player
/// options give (one entry: every player's; otherwise player `p`'s own).
pub(super) fn players(
    levels: &[Level],
    playouts: &[u32],
    think_ms: &[u64],
    estimators: &[Estimator],
) -> Vec<(Level, Budget)> {
    /// Player `p`'s entry of a per-player option: the only one, or its own.
    fn of<T: Copy>(list: &[T], p: usize) -> Option<T> {
        match list {
            [one] => Some(*one),
            many => many.get(p).copied(),
        }
    }
    levels
        .iter()
        .enumerate()
        .map(|(p, l)| {
            let budget = Budget {
                playouts: of(playouts, p).unwrap_or(64),
                time: of(think_ms, p)
                    .filter(|ms| *ms > 0)
                    .map(std::time::Duration::from_millis),
                estimator: of(estimators, p).unwrap_or_default(),
            };
            (*l, budget)
        })
        .collect()
}

/// `simulate --merge`: the reports of parts of one match as one.
pub(super) fn merge_match_reports(files: &[PathBuf], json: bool, out: &mut dyn Write) -> i32 {
    let mut parts = Vec::new();
    for file in files {
        let read = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                serde_json::from_str::<crate::sim::MatchReport>(&text).map_err(|e| e.to_string())
            });
        match read {
            Ok(r) => parts.push(r),
            Err(e) => {
                eprintln!("{}: not a match report: {e}", file.display());
                return 1;
            }
        }
    }
    let report = match report_unless_done(
        crate::sim::merge_reports(&parts),
        "cannot merge the reports",
        json,
        out,
    ) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let _ = writeln!(out, "{} games in {} parts", report.games, parts.len());
    let luna = report.luna_mean_score > 0.0;
    print_match(&report, luna, out);
    0
}

/// A match's wins, scores, points by category and decision times, a line or two per player.
pub(super) fn print_match(report: &crate::sim::MatchReport, luna: bool, out: &mut dyn Write) {
    for p in 0..report.wins.len() {
        let _ = writeln!(
            out,
            "player {} ({}): wins {:.1} ({:.0} %), mean score {:.1}, a decision p50 {:.2} ms, p99 {:.2} ms",
            p + 1,
            report.players.get(p).map_or("?", String::as_str),
            report.wins[p],
            100.0 * report.wins[p] / report.games.max(1) as f64,
            report.mean_score[p],
            report.think_p50_ms[p],
            report.think_p99_ms[p]
        );
        let _ = writeln!(out, "  points from: {}", categories(&report.points_from[p]));
    }
    if luna {
        let _ = writeln!(
            out,
            "Luna: wins {:.1} ({:.0} %), mean score {:.1}",
            report.luna_wins,
            100.0 * report.luna_wins / report.games.max(1) as f64,
            report.luna_mean_score
        );
        let _ = writeln!(
            out,
            "  points from: {}",
            categories(&report.luna_points_from)
        );
    }
}

/// Mean points by category in the scoring pad's order: cash, shares by company, tank, research.
fn categories(points: &std::collections::BTreeMap<String, f64>) -> String {
    let mut keys: Vec<&String> = points.keys().collect();
    let rank = |k: &str| match k {
        "cash" => 0,
        "tank" => 2,
        "research" => 3,
        _ => 1,
    };
    keys.sort_by_key(|k| rank(k));
    keys.iter()
        .map(|k| format!("{k} {:.1}", points[*k]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report of a run of games to print as text, or the exit code when nothing is left to
/// print: the run failed (said on stderr, code 1) or `--json` printed the report (code 0).
pub(super) fn report_unless_done<T: serde::Serialize, E: std::fmt::Display>(
    run: Result<T, E>,
    failed: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<T, i32> {
    let report = run.map_err(|e| {
        eprintln!("{failed}: {e}");
        1
    })?;
    if json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&report).unwrap_or_default()
        );
        return Err(0);
    }
    Ok(report)
}
