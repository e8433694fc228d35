//! Command-line entry points: `data check`, and (as they land) `simulate`, `render`, `local`.

use crate::data::{DataError, GameData};
use std::io::Write;
use std::path::PathBuf;

/// Runs the command line; returns the process exit code.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["data", "check", rest @ ..] => data_check(rest, out),
        ["help"] | ["--help"] | ["-h"] => {
            let _ = writeln!(out, "{USAGE}");
            0
        }
        [] => {
            // Until the bot exists, the main job prints what the box holds.
            data_check(&[], out)
        }
        _ => {
            eprintln!("unknown command: {}\n{USAGE}", words.join(" "));
            2
        }
    }
}

const USAGE: &str = "usage:
  skymines data check [--dir DIR] [--json]   load and validate the component data";

fn data_check(rest: &[&str], out: &mut dyn Write) -> i32 {
    let mut dir: Option<PathBuf> = None;
    let mut json = false;
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            "--json" => json = true,
            "--dir" => {
                i += 1;
                match rest.get(i) {
                    Some(d) => dir = Some(PathBuf::from(d)),
                    None => {
                        eprintln!("--dir needs a folder");
                        return 2;
                    }
                }
            }
            other => {
                eprintln!("unknown option for data check: {other}");
                return 2;
            }
        }
        i += 1;
    }
    let loaded: Result<GameData, DataError> = match &dir {
        Some(d) => GameData::from_dir(d),
        None => GameData::embedded(),
    };
    match loaded {
        Ok(data) => {
            let summary = data_summary(&data);
            if json {
                let _ = writeln!(out, "{summary}");
            } else {
                let _ = writeln!(
                    out,
                    "data ok ({}): {}",
                    dir.map(|d| d.display().to_string())
                        .unwrap_or_else(|| "built-in assets".to_string()),
                    serde_json::to_string_pretty(&summary).unwrap_or_default()
                );
            }
            0
        }
        Err(e) => {
            eprintln!("data check failed: {e}");
            1
        }
    }
}

/// The counts `skymines data check --json` prints.
pub fn data_summary(data: &GameData) -> serde_json::Value {
    let plans = |l: char| data.research.plans.iter().filter(|p| p.letter == l).count();
    let (stated, inferred, reconstructed) = data.provenance_counts();
    serde_json::json!({
        "action_cards": data.action_cards.cards.len(),
        "starting_cards": data.starting_cards.starting_cards.len() * data.starting_cards.colours.len(),
        "single_energy_cards": data.starting_cards.single_energy.len(),
        "research_plans": {"A": plans('A'), "B": plans('B'), "C": plans('C')},
        "special_research_plans": data.research.special_plans.len(),
        "starting_research_tokens": data.research.starting_tokens.len(),
        "company_tracks": data.tracks.tracks.len(),
        "track_bonuses": data.tracks.bonuses.len(),
        "moon_sectors": data.moon.sectors.len(),
        "bonus_spaces": data.board.bonus_spaces.len(),
        "luna_cards": data.luna_cards.cards.len(),
        "mission_cards": data.missions.cards.len(),
        "threat_cards": data.threats.threats.len(),
        "belt_asteroids": data.belt.asteroids.len(),
        "campaign_chapters": data.campaign.chapter_list.len(),
        "stated_values": stated,
        "inferred_values": inferred,
        "reconstructed_values": reconstructed,
        "data_hash": data.hash,
    })
}
