//! Command-line entry points: `data check`, and (as they land) `simulate`, `render`, `local`.

use crate::data::{DataError, GameData};
use std::io::Write;
use std::path::PathBuf;

/// Runs the command line; returns the process exit code.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["data", "check", rest @ ..] => data_check(rest, out),
        ["simulate", rest @ ..] => simulate(rest, out),
        ["render", rest @ ..] => crate::render::cli::run(rest, out),
        ["store-torture", rest @ ..] => crate::store::torture::cli(rest, out),
        ["help"] | ["--help"] | ["-h"] => {
            let _ = writeln!(out, "{USAGE}");
            0
        }
        ["local", rest @ ..] => local_mode(rest, out),
        [] => main_job(out),
        _ => {
            eprintln!("unknown command: {}\n{USAGE}", words.join(" "));
            2
        }
    }
}

const USAGE: &str = "usage:
  skymines                                   the bot (with a Discord token) or the local terminal mode
  skymines local [--db PATH] [--script FILE] [--out DIR] [--no-images] [--config PATH]
                                             play in the terminal: one `<user> /command option:value` per line
  skymines data check [--dir DIR] [--json]   load and validate the component data
  skymines simulate --games N --players P [--seed S] [--json] [--no-check] [--tracks default|random] [--tokens fixed|draft] [--linked_slots] [--vary]
                   [--luna L] [--board moon|belt] [--missions] [--threats] [--threat ID] [--campaign]
                                             seeded random self-play with invariant checks
                                             (--campaign: N whole 4-chapter campaigns;
                                             --threat: always this threat card, e.g. singularity)
  skymines render --seed S --players P [--luna L] [--board moon|belt] [--missions] [--threats] [--rounds R] [--decisions N] --out DIR
                                             write board and player PNGs (and luna.png) of a seeded random game
  skymines store-torture --db PATH --seed S --moves N [--snapshot-every K]
                                             test helper: play a seeded game into a database (the kill tests stop it at random)";

/// Parses `--name value` / `--flag` options into a map.
fn parse_flags(
    rest: &[&str],
    flags: &[&str],
) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut map = std::collections::BTreeMap::new();
    let mut i = 0;
    while i < rest.len() {
        let Some(name) = rest[i].strip_prefix("--") else {
            return Err(format!("unexpected argument `{}`", rest[i]));
        };
        let name = name.replace('-', "_");
        if flags.contains(&name.as_str()) {
            map.insert(name, "true".to_string());
            i += 1;
        } else {
            let Some(value) = rest.get(i + 1) else {
                return Err(format!("--{name} needs a value"));
            };
            map.insert(name, value.to_string());
            i += 2;
        }
    }
    Ok(map)
}

fn number<T: std::str::FromStr>(
    map: &std::collections::BTreeMap<String, String>,
    key: &str,
    default: T,
) -> Result<T, String> {
    match map.get(key) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| format!("--{key}: `{v}` is not a number")),
    }
}

fn simulate(rest: &[&str], out: &mut dyn Write) -> i32 {
    use crate::engine::{GameOptions, TokenSetup, TrackSetup};
    let parsed = parse_flags(
        rest,
        &[
            "json",
            "no_check",
            "linked_slots",
            "vary",
            "missions",
            "threats",
            "campaign",
        ],
    )
    .and_then(|m| {
        let known = [
            "games",
            "players",
            "seed",
            "json",
            "no_check",
            "tracks",
            "tokens",
            "linked_slots",
            "luna",
            "vary",
            "board",
            "missions",
            "threats",
            "threat",
            "campaign",
        ];
        if let Some(k) = m.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(format!("unknown option --{k}"));
        }
        let options = GameOptions {
            players: number(&m, "players", 2)?,
            luna: match m.get("luna") {
                Some(_) => Some(number(&m, "luna", 2u8)?),
                None => None,
            },
            tracks: match m.get("tracks").map(String::as_str) {
                None | Some("default") => TrackSetup::Default,
                Some("random") => TrackSetup::Random,
                Some(other) => {
                    TrackSetup::Chosen(other.split(',').map(|s| s.trim().to_string()).collect())
                }
            },
            tokens: match m.get("tokens").map(String::as_str) {
                None | Some("fixed") => TokenSetup::Fixed,
                Some("draft") => TokenSetup::Draft,
                Some(other) => return Err(format!("--tokens: `{other}` is not fixed or draft")),
            },
            linked_slots: m.contains_key("linked_slots"),
            board: match m.get("board").map(String::as_str) {
                None | Some("moon") => crate::engine::BoardSide::Moon,
                Some("belt") => crate::engine::BoardSide::Belt,
                Some(other) => return Err(format!("--board: `{other}` is not moon or belt")),
            },
            missions: m.contains_key("missions"),
            threats: m.contains_key("threats") || m.contains_key("threat"),
            threat_card: m.get("threat").cloned(),
            seed: number(&m, "seed", 1)?,
            ..GameOptions::default()
        };
        Ok((m, options))
    });
    let (map, options) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return 2;
        }
    };
    let data = match GameData::embedded() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    let config = crate::sim::SimConfig {
        games: number(&map, "games", 100).unwrap_or(100),
        options,
        check: !map.contains_key("no_check"),
        max_decisions: 20_000,
        vary: map.contains_key("vary"),
    };
    let campaign = map.contains_key("campaign");
    let check_options = if campaign {
        crate::engine::campaign::chapter_options(
            &data,
            1,
            config.options.players,
            config.options.luna,
            config.options.seed,
        )
    } else {
        Ok(config.options.clone())
    };
    if let Err(e) = check_options
        .and_then(|o| crate::engine::new_game(&data, &o, &crate::sim::seat_names(o.players)))
    {
        eprintln!("cannot set up that game: {e}");
        return 2;
    }
    let report = if campaign {
        crate::sim::run_campaigns(&data, &config)
    } else {
        crate::sim::run(&data, &config)
    };
    if map.contains_key("json") {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&report).unwrap_or_default()
        );
    } else {
        let _ = writeln!(
            out,
            "{} games, {} completed, {} invariant violations, {:.1} games/s, mean final score {:.1}, digest {}",
            report.games, report.completed, report.invariant_violations, report.games_per_second, report.mean_final_score, report.digest
        );
        if report.time_loops > 0 || campaign {
            let _ = writeln!(
                out,
                "time anomaly loops: {} game(s) ended in the loop, {} loop(s) abandoned at the cap of {} games",
                report.time_loops,
                report.time_loops_capped,
                crate::sim::TIME_LOOP_CAP
            );
        }
        if campaign {
            let _ = writeln!(
                out,
                "{} campaign(s), mean success points per seat {:.1}",
                report.campaigns, report.mean_campaign_sp
            );
        }
        for v in &report.violation_examples {
            let _ = writeln!(out, "  violation: {v}");
        }
    }
    if report.invariant_violations == 0 && report.completed == report.games {
        0
    } else {
        1
    }
}

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

/// `skymines` with no arguments: the bot when a Discord token is configured, otherwise the
/// local terminal mode on the configured (or default) SQLite database.
fn main_job(out: &mut dyn Write) -> i32 {
    let config = match crate::config::Config::load(std::path::Path::new("config.toml")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read the configuration: {e}");
            return 2;
        }
    };
    if config.has_token() {
        let _ = writeln!(
            out,
            "A Discord token is configured: starting the bot on {} (Ctrl-C stops it).",
            config.database_path.display()
        );
        return crate::discord::run(&config);
    } else {
        let _ = writeln!(
            out,
            "No Discord token configured (set DISCORD_TOKEN or discord_token in config.toml): starting the local terminal mode."
        );
    }
    run_local(
        &config,
        &config.database_path.clone(),
        None,
        std::path::Path::new("skymines-images"),
        true,
        out,
    )
}

fn local_mode(rest: &[&str], out: &mut dyn Write) -> i32 {
    let map = match parse_flags(rest, &["no_images"]) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return 2;
        }
    };
    let known = ["db", "script", "out", "no_images", "config"];
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        eprintln!("unknown option --{k}\n{USAGE}");
        return 2;
    }
    let config_path = map
        .get("config")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("config.toml"));
    let config = match crate::config::Config::load(&config_path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read the configuration: {e}");
            return 2;
        }
    };
    let db = map
        .get("db")
        .map(PathBuf::from)
        .unwrap_or_else(|| config.database_path.clone());
    let out_dir = map
        .get("out")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("skymines-images"));
    let mut config = config;
    if map.contains_key("no_images") {
        config.deadline_hours = config.deadline_hours.max(0.0);
    }
    let script = map.get("script").map(PathBuf::from);
    let images = !map.contains_key("no_images");
    run_local_with(&config, &db, script.as_deref(), &out_dir, images, out)
}

fn run_local(
    config: &crate::config::Config,
    db: &std::path::Path,
    script: Option<&std::path::Path>,
    out_dir: &std::path::Path,
    images: bool,
    out: &mut dyn Write,
) -> i32 {
    run_local_with(config, db, script, out_dir, images, out)
}

fn run_local_with(
    config: &crate::config::Config,
    db: &std::path::Path,
    script: Option<&std::path::Path>,
    out_dir: &std::path::Path,
    images: bool,
    out: &mut dyn Write,
) -> i32 {
    let data = match config.data_dir() {
        Some(dir) => GameData::from_dir(&dir),
        None => GameData::embedded(),
    };
    let data = match data {
        Ok(d) => std::sync::Arc::new(d),
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    let store = match crate::store::Store::open(db, data, crate::store::StoreOptions::default()) {
        Ok((store, _report)) => std::sync::Arc::new(store),
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut chat_config = config.chat_config();
    chat_config.images = images;
    if script.is_some() {
        // A script is one author typing every player's moves at machine speed.
        chat_config.rate_limit = 0;
    }
    let chat = crate::chat::Chat::new(
        store,
        std::sync::Arc::new(crate::chat::SystemClock),
        chat_config,
    );
    let result = match script {
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => crate::local::run(&chat, &mut std::io::BufReader::new(f), out, out_dir, false),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 2;
            }
        },
        None => {
            let _ = writeln!(out, "Local Skymines on {} — one `<user> /command option:value` per line, e.g. `alice /skymines new players:2`, then `bob /skymines join`, `alice /skymines start`. `quit` ends.", db.display());
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            crate::local::run(&chat, &mut lock, out, out_dir, true)
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
