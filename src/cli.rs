//! The command line, parsed by clap (derive): `local`, `data check`, `simulate`, `render`,
//! `store-torture`, and no subcommand at all (the bot when a Discord token is configured,
//! otherwise the local terminal mode). Every subcommand and option is declared once, here:
//! adding a subcommand is a variant of [`Command`] (its doc comment is its help) and its arm in
//! [`Command::run`] beside it; adding an option is a field of that subcommand's argument
//! struct. `skymines <subcommand> --help` lists the options with their defaults. Option names
//! are the `GameOptions` names (DECISIONS B11); a name of two words works with `-` and `_`
//! (`--linked-slots`, `--linked_slots`). A bad option or value is refused (exit code 2) with
//! clap's message naming it, before anything runs.

use crate::data::{DataError, GameData};
use crate::engine::{BoardSide, GameOptions, TokenSetup, TrackSetup};
use crate::store::Database;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

mod matches;
mod train;

/// Runs the command line (`args` without the program name); returns the process exit code.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    let words = std::iter::once("skymines").chain(args.iter().map(String::as_str));
    match Cli::try_parse_from(words) {
        Ok(Cli {
            command: Some(command),
        }) => command.run(out),
        Ok(Cli { command: None }) => main_job(out),
        Err(e) => {
            // `--help` and `--version` are answers (exit 0, on `out`); the rest are errors.
            let text = e.render();
            if e.use_stderr() {
                eprint!("{text}");
            } else {
                let _ = write!(out, "{text}");
            }
            e.exit_code()
        }
    }
}

/// Play the board game Skymines in Discord channels, or in the terminal.
///
/// With no subcommand: the bot when a Discord token is configured (DISCORD_TOKEN or
/// discord_token in config.toml), otherwise the local terminal mode on the configured database.
#[derive(Debug, Parser)]
#[command(name = "skymines", version, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play in the terminal: one `<user> /command option:value` per line
    Local(LocalArgs),
    /// The component data in assets/
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Seeded random self-play with invariant checks after every decision
    Simulate(SimulateArgs),
    /// Write board and player PNGs (and luna.png) of a seeded random game
    Render(RenderArgs),
    /// Test helper: play a seeded game into a database (the kill tests stop it at random)
    StoreTorture(TortureArgs),
    /// Fit the computer players' learned estimate to seeded games (the games on --threads
    /// threads, the fit deterministic: the same numbers every run) and write it, e.g. to
    /// assets/estimate.toml
    Train(train::TrainArgs),
    /// A consistent copy of the game database, also while the bot runs (restore: put it in
    /// place of the database while the bot is stopped)
    Backup(BackupArgs),
    /// The public account check: seeded games of every kind, each turn's public message
    /// against the change of the public view (DECISIONS B20)
    #[command(alias = "check-account")]
    AccountCheck(AccountCheckArgs),
}

impl Command {
    fn run(self, out: &mut dyn Write) -> i32 {
        match self {
            Command::Local(a) => local_mode(&a, out),
            Command::Data {
                command: DataCommand::Check(a),
            } => data_check(&a, out),
            Command::Simulate(a) => simulate(&a, out),
            Command::Render(a) => crate::render::cli::run(
                &a.game.options(),
                a.rounds,
                a.decisions,
                crate::text::for_language(&a.language),
                a.width,
                &a.out,
                out,
            ),
            Command::StoreTorture(a) => {
                let db = crate::store::Database::select(
                    a.database_url.as_deref(),
                    None,
                    a.db.unwrap_or_default(),
                );
                crate::store::torture::run(&db, a.seed, a.moves, a.snapshot_every, out)
            }
            Command::Backup(a) => backup(&a, out),
            Command::Train(a) => train::train(&a, out),
            Command::AccountCheck(a) => account_check(&a, out),
        }
    }
}

#[derive(Debug, Subcommand)]
enum DataCommand {
    /// Load and validate the component data; a broken file exits non-zero naming the file,
    /// the entry and the field
    Check(DataCheckArgs),
}

#[derive(Debug, Args)]
struct DataCheckArgs {
    /// A folder with the data files [default: the built-in copy of assets/]
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print the counts as JSON
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct LocalArgs {
    /// The SQLite database [default: database_path of the configuration]
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Read the commands from this file instead of the terminal
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Where board images are written
    #[arg(long, value_name = "DIR", default_value = "skymines-images")]
    out: PathBuf,
    /// Write no images
    #[arg(long, alias = "no_images")]
    no_images: bool,
    /// The configuration file
    #[arg(long, value_name = "PATH", default_value = "config.toml")]
    config: PathBuf,
    /// These names have the bot owners' rights (like local_owners in the configuration)
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    owner: Vec<String>,
    /// With --script: stop at the first refused line (exit code 1)
    #[arg(long, requires = "script")]
    strict: bool,
}

#[derive(Debug, Args)]
struct BackupArgs {
    /// The SQLite database [default: database_path of the configuration]
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// The copy to write (never overwritten)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The configuration file
    #[arg(long, value_name = "PATH", default_value = "config.toml")]
    config: PathBuf,
}

/// The game options `simulate` and `render` share.
#[derive(Debug, Args)]
struct GameArgs {
    /// Players (Luna not counted)
    #[arg(long, value_name = "P", default_value_t = 2)]
    players: usize,
    /// Luna plays at this level [default: no Luna]
    #[arg(long, value_name = "L")]
    luna: Option<u8>,
    /// The side of the main board
    #[arg(long, value_enum, default_value_t = Board::Moon)]
    board: Board,
    /// Play with the Missions module
    #[arg(long)]
    missions: bool,
    /// Play with the Threats module
    #[arg(long)]
    threats: bool,
    /// The seed (simulate: of the first game; game i uses seed + i)
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

impl GameArgs {
    fn options(&self) -> GameOptions {
        GameOptions {
            players: self.players,
            luna: self.luna,
            board: match self.board {
                Board::Moon => BoardSide::Moon,
                Board::Belt => BoardSide::Belt,
            },
            missions: self.missions,
            threats: self.threats,
            seed: self.seed,
            ..GameOptions::default()
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Board {
    Moon,
    Belt,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Tokens {
    Fixed,
    Draft,
}

#[derive(Debug, Args)]
struct SimulateArgs {
    /// How many games (or campaigns)
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    #[command(flatten)]
    game: GameArgs,
    /// Company tracks: default, random, or track ids in company order (e.g. A1,B2,C1,D2)
    #[arg(long, value_name = "TRACKS", default_value = "default", value_parser = parse_tracks)]
    tracks: TrackSetup,
    /// Starting research tokens
    #[arg(long, value_enum, default_value_t = Tokens::Fixed)]
    tokens: Tokens,
    /// Play with linked action slots
    #[arg(long, alias = "linked_slots")]
    linked_slots: bool,
    /// Always this threat card, e.g. singularity (implies --threats)
    #[arg(long, value_name = "ID")]
    threat: Option<String>,
    /// Play whole 4-chapter campaigns instead of single games
    #[arg(long)]
    campaign: bool,
    /// Vary the setup from game to game (tracks, tokens, linked slots)
    #[arg(long)]
    vary: bool,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
    /// Skip the invariant checks (for raw speed)
    #[arg(long, alias = "no_check")]
    no_check: bool,
    /// Computer players instead of the self-play policy, one level per player (easy, normal,
    /// hard), e.g. hard,easy; they change seats from game to game. One level alone plays every
    /// one of the --players seats. Reports wins, scores and thinking time per player
    #[arg(long, value_name = "LEVELS", value_delimiter = ',', value_parser = parse_level)]
    bots: Vec<crate::bots::Level>,
    /// With --bots: the balance report instead (score distribution, game length, action mix,
    /// win rate by seat, starting token, company focus and its track)
    #[arg(long)]
    stats: bool,
    /// Playouts a hard player makes per decision (the same on every machine); one for every
    /// player, or one per player like --bots (e.g. 400,12)
    #[arg(long, value_name = "N", value_delimiter = ',', default_value = "64")]
    playouts: Vec<u32>,
    /// A time limit per decision for the hard player, in milliseconds (0: none); one for every
    /// player, or one per player like --bots [default: none]
    #[arg(long, value_name = "MS", value_delimiter = ',')]
    think_ms: Vec<u64>,
    /// With --bots: the estimate each player judges positions by (learned or handmade), one per
    /// player like --bots [default: handmade]
    #[arg(long, value_name = "ESTIMATES", value_delimiter = ',', value_parser = parse_estimator)]
    estimators: Vec<crate::bots::Estimator>,
    /// With --bots: threads the games are spread over [default: the machine's cores]
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// With --bots: the learned estimate from this file instead of the built-in
    /// assets/estimate.toml (e.g. one just written by `skymines train`)
    #[arg(long, value_name = "FILE")]
    estimate: Option<PathBuf>,
    /// Instead of playing: the --bots --json reports of parts of one match (seed ranges) as one
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "bots")]
    merge: Vec<PathBuf>,
}

fn parse_estimator(value: &str) -> Result<crate::bots::Estimator, String> {
    crate::bots::Estimator::from_name(value)
        .ok_or_else(|| format!("no estimate {value:?}: learned or handmade"))
}

fn parse_level(value: &str) -> Result<crate::bots::Level, String> {
    crate::bots::Level::from_name(value)
        .ok_or_else(|| format!("no level {value:?}: easy, normal or hard"))
}

impl SimulateArgs {
    fn options(&self) -> GameOptions {
        GameOptions {
            tracks: self.tracks.clone(),
            tokens: match self.tokens {
                Tokens::Fixed => TokenSetup::Fixed,
                Tokens::Draft => TokenSetup::Draft,
            },
            linked_slots: self.linked_slots,
            threats: self.game.threats || self.threat.is_some(),
            threat_card: self.threat.clone(),
            ..self.game.options()
        }
    }
}

fn parse_tracks(value: &str) -> Result<TrackSetup, String> {
    Ok(match value {
        "default" => TrackSetup::Default,
        "random" => TrackSetup::Random,
        chosen => TrackSetup::Chosen(chosen.split(',').map(|s| s.trim().to_string()).collect()),
    })
}

#[derive(Debug, Args)]
struct RenderArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Play this many rounds
    #[arg(long, value_name = "R", default_value_t = 3)]
    rounds: u8,
    /// Then this many more decisions
    #[arg(long, value_name = "N", default_value_t = 0)]
    decisions: u32,
    /// The language of the image labels
    #[arg(long, default_value = "en",
          value_parser = clap::builder::PossibleValuesParser::new(crate::text::language_codes()))]
    language: String,
    /// Scale the images down to this width, as a chat preview shows them (e.g. 550)
    #[arg(long, value_name = "PX")]
    width: Option<u32>,
    /// The folder the images are written to
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

#[derive(Debug, Args)]
struct TortureArgs {
    /// The SQLite database file
    #[arg(long, value_name = "PATH", required_unless_present = "database_url")]
    db: Option<PathBuf>,
    /// A PostgreSQL database instead (`postgres://…`; anything else is an SQLite path)
    #[arg(
        long,
        alias = "database_url",
        value_name = "URL",
        conflicts_with = "db"
    )]
    database_url: Option<String>,
    /// The game's seed
    #[arg(long, value_name = "S")]
    seed: u64,
    /// Play until the game's log holds this many moves
    #[arg(long, value_name = "N")]
    moves: u64,
    /// A snapshot every K moves
    #[arg(long, alias = "snapshot_every", value_name = "K", default_value_t = 4)]
    snapshot_every: u64,
}

#[derive(Debug, Args)]
struct AccountCheckArgs {
    /// How many games (seeds S, S+1, …)
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// The first seed
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    /// Threads (the report is the same for any number)
    #[arg(long, value_name = "T", default_value_t = 1)]
    threads: usize,
    /// Print every message of every game as it would be posted
    #[arg(long)]
    show: bool,
    /// Print only the misses of this kind of quantity (e.g. Coins, Sector)
    #[arg(long, value_name = "KIND")]
    kind: Option<String>,
}

/// Runs the public account check; exit code 1 when anything was left unsaid or said wrongly.
fn account_check(args: &AccountCheckArgs, out: &mut dyn Write) -> i32 {
    let data = match GameData::embedded() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    let report = if args.show {
        let mut report = crate::chat::account::AccountReport::default();
        for i in 0..args.games {
            let seed = args.seed.wrapping_add(i as u64);
            let _ = writeln!(
                out,
                "== seed {seed}: {:?}",
                crate::chat::account::game_kind(seed).options
            );
            let one = crate::chat::account::check_game(&data, seed, &mut |events| {
                for e in events {
                    let _ = writeln!(out, "{}", e.text());
                }
                let _ = writeln!(out, "--");
            });
            report.absorb(one);
        }
        report
    } else {
        crate::chat::account::check_seeds(&data, args.seed, args.games, args.threads)
    };
    for e in &report.examples {
        if args
            .kind
            .as_ref()
            .is_none_or(|k| e.contains(&k.to_string()))
        {
            let _ = writeln!(out, "MISS {e}");
        }
    }
    for (kind, n) in &report.by_kind {
        let _ = writeln!(out, "misses of {kind}: {n}");
    }
    let _ = writeln!(out, "{}", report.summary());
    i32::from(report.misses > 0)
}

fn simulate(args: &SimulateArgs, out: &mut dyn Write) -> i32 {
    let mut data = match GameData::embedded() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    if let Some(file) = &args.estimate {
        let read = std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                crate::data::estimate::EstimateFile::parse(&text).map_err(|e| e.to_string())
            });
        match read {
            Ok(estimate) => data.estimate = estimate,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                return 2;
            }
        }
    }
    let data = data;
    let config = crate::sim::SimConfig {
        games: args.games,
        options: args.options(),
        check: !args.no_check,
        max_decisions: 20_000,
        vary: args.vary,
    };
    if !args.merge.is_empty() {
        return matches::merge_match_reports(&args.merge, args.json, out);
    }
    if !args.bots.is_empty() {
        return bot_match(args, &data, out);
    }
    let campaign = args.campaign;
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
    if args.json {
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

/// `simulate --bots`: a match between computer players.
fn bot_match(args: &SimulateArgs, data: &GameData, out: &mut dyn Write) -> i32 {
    let levels = match args.bots.as_slice() {
        [one] => vec![*one; args.game.players],
        many => many.to_vec(),
    };
    let players = matches::players(&levels, &args.playouts, &args.think_ms, &args.estimators);
    let options = GameOptions {
        players: players.len(),
        ..args.options()
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    if args.stats {
        return balance_report(args, data, &options, &players, threads, out);
    }
    let started = std::time::Instant::now();
    let report = match matches::report_unless_done(
        crate::sim::bot_match(data, &options, &players, args.games, threads),
        "the match stopped",
        args.json,
        out,
    ) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let _ = writeln!(
        out,
        "{} games, {:.1} s",
        report.games,
        started.elapsed().as_secs_f64()
    );
    matches::print_match(&report, options.luna.is_some(), out);
    0
}

/// `simulate --bots … --stats`: the balance report.
fn balance_report(
    args: &SimulateArgs,
    data: &GameData,
    options: &GameOptions,
    players: &[(crate::bots::Level, crate::bots::Budget)],
    threads: usize,
    out: &mut dyn Write,
) -> i32 {
    let report = match matches::report_unless_done(
        crate::sim::balance(data, options, players, args.games, threads),
        "the games stopped",
        args.json,
        out,
    ) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let levels: Vec<&str> = players.iter().map(|(l, _)| l.name()).collect();
    let dist = |d: &crate::sim::Distribution| {
        format!(
            "mean {:.1} (sd {:.1}), min {:.0}, p10 {:.0}, median {:.0}, p90 {:.0}, max {:.0}",
            d.mean, d.sd, d.min, d.p10, d.p50, d.p90, d.max
        )
    };
    let rate = |r: &crate::sim::WinRate| {
        format!(
            "{:.0} % of {} ({:.1} wins)",
            100.0 * r.win_rate,
            r.players,
            r.wins
        )
    };
    let mut lines =
        vec![
            format!(
            "{} games, {} seats ({}{}), {} playouts a hard decision; fair share of wins {:.0} %",
            report.games,
            report.seats,
            levels.join(","),
            options.luna.map_or(String::new(), |l| format!(", Luna {l}")),
            players.first().map_or(0, |(_, b)| b.playouts),
            100.0 * report.fair_share
        ),
            format!("score: {}", dist(&report.score)),
            format!("winning score: {}", dist(&report.winning_score)),
        ];
    let by_category = |m: &std::collections::BTreeMap<String, f64>| -> String {
        let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v:.1}")).collect();
        parts.join(", ")
    };
    lines.push(format!(
        "points from (mean): {}",
        by_category(&report.points_from)
    ));
    if !report.luna_points_from.is_empty() {
        lines.push(format!(
            "Luna: mean score {:.1}, points from (mean): {}",
            report.luna_score,
            by_category(&report.luna_points_from)
        ));
    }
    lines.push(format!("rounds: {}", dist(&report.rounds)));
    lines.push(format!("decisions a game: {}", dist(&report.decisions)));
    lines.push(format!("turns a player: {}", dist(&report.turns)));
    let mix: Vec<String> = report
        .action_mix
        .iter()
        .map(|(k, v)| format!("{k} {v:.1}"))
        .collect();
    lines.push(format!("action mix (a player, a game): {}", mix.join(", ")));
    for (seat, r) in report.by_seat.iter().enumerate() {
        lines.push(format!("seat {} wins {}", seat + 1, rate(r)));
    }
    for (title, table) in [
        ("starting token", &report.by_token),
        ("company focus", &report.by_focus),
        ("focus track", &report.by_focus_track),
    ] {
        for (key, r) in table {
            lines.push(format!("{title} {key} wins {}", rate(r)));
        }
    }
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    0
}

fn data_check(args: &DataCheckArgs, out: &mut dyn Write) -> i32 {
    let loaded: Result<GameData, DataError> = match &args.dir {
        Some(d) => GameData::from_dir(d),
        None => GameData::embedded(),
    };
    match loaded {
        Ok(data) => {
            let summary = data_summary(&data);
            if args.json {
                let _ = writeln!(out, "{summary}");
            } else {
                let _ = writeln!(
                    out,
                    "data ok ({}): {}",
                    args.dir
                        .as_ref()
                        .map(|d| d.display().to_string())
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
/// local terminal mode on the configured (or default) database.
fn main_job(out: &mut dyn Write) -> i32 {
    let config = match crate::config::Config::load(Path::new("config.toml")) {
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
            config.database().describe()
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
        &config.database(),
        None,
        Path::new("skymines-images"),
        true,
        false,
        out,
    )
}

fn local_mode(args: &LocalArgs, out: &mut dyn Write) -> i32 {
    let config = match crate::config::Config::load(&args.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read the configuration: {e}");
            return 2;
        }
    };
    let database = args
        .db
        .clone()
        .map(Database::Sqlite)
        .unwrap_or_else(|| config.database());
    let mut config = config;
    if args.no_images {
        config.deadline_hours = config.deadline_hours.max(0.0);
    }
    config.local_owners.extend(
        args.owner
            .iter()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty()),
    );
    run_local(
        &config,
        &database,
        args.script.as_deref(),
        &args.out,
        !args.no_images,
        args.strict,
        out,
    )
}

/// The component data the configuration names (its `data_dir`, else the built-in data).
fn config_data(config: &crate::config::Config) -> Result<std::sync::Arc<GameData>, String> {
    match config.data_dir() {
        Some(dir) => GameData::from_dir(&dir),
        None => GameData::embedded(),
    }
    .map(std::sync::Arc::new)
    .map_err(|e| format!("data check failed: {e}"))
}

/// `skymines backup --out FILE`: a consistent copy of the configured (or `--db`) database,
/// made while the bot may be running, then restored read-only to check it.
fn backup(args: &BackupArgs, out: &mut dyn Write) -> i32 {
    let config = match crate::config::Config::load(&args.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read the configuration: {e}");
            return 2;
        }
    };
    let database = args
        .db
        .clone()
        .map(Database::Sqlite)
        .unwrap_or_else(|| config.database());
    let db = match database.sqlite_file("skymines backup") {
        Ok(path) => path.to_path_buf(),
        Err(e) => {
            eprintln!("backup refused: {e}");
            return 2;
        }
    };
    let data = match config_data(&config) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match crate::store::backup::backup(&db, &args.out, data) {
        Ok(r) => {
            let _ = writeln!(
                out,
                "backup of {} written to {} ({} bytes): {} running game(s) restore from it ({} checked against a replay), {} damaged. To restore: stop the bot, move {} and its -wal and -shm files away, copy {} to {}, start the bot.",
                db.display(),
                args.out.display(),
                r.bytes,
                r.running,
                r.verified,
                r.damaged,
                db.display(),
                args.out.display(),
                db.display()
            );
            0
        }
        Err(e) => {
            eprintln!("backup failed: {e}");
            1
        }
    }
}

fn run_local(
    config: &crate::config::Config,
    database: &Database,
    script: Option<&Path>,
    out_dir: &Path,
    images: bool,
    strict: bool,
    out: &mut dyn Write,
) -> i32 {
    let data = match config_data(config) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let place = database.describe();
    let store = match database.open(data, crate::store::StoreOptions::default()) {
        Ok((store, report)) => {
            for (_, line) in report.startup_lines(Path::new(&place)) {
                eprintln!("{line}");
            }
            store
        }
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut chat_config = config.chat_config();
    chat_config.images = images;
    chat_config.anyone_may_seed = true;
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
            Ok(f) => {
                let mut lines = std::io::BufReader::new(f);
                match crate::local::run_lines(&chat, &mut lines, out, out_dir, false, strict) {
                    Ok(summary) if summary.refused > 0 => {
                        eprintln!(
                            "{}: {} of {} lines refused{}",
                            path.display(),
                            summary.refused,
                            summary.lines,
                            summary
                                .stopped_at
                                .map(|n| format!("; stopped at line {n} (--strict)"))
                                .unwrap_or_default()
                        );
                        return if summary.stopped_at.is_some() { 1 } else { 0 };
                    }
                    other => other.map(|_| ()),
                }
            }
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return 2;
            }
        },
        None => {
            let _ = writeln!(out, "Local Skymines on {} — one `<user> /command option:value` per line, e.g. `alice /skymines new players:2`, then `bob /skymines join`, `alice /skymines start`. `quit` ends.", place);
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
