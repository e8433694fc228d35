//! `skymines render --seed S --players P [--luna LEVEL] [--rounds R] --out DIR`: plays R rounds
//! of a seeded random game (engine + `sim::choose`) and writes the snapshots: `board.png`,
//! `player-<n>.png` (public), `player-<n>-private.png` (the owner's) and `luna.png` when Luna
//! plays, plus `summary.txt`.

use crate::data::GameData;
use crate::engine::view::SeatView;
use crate::engine::{self, GameOptions, GameState, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Usage line for the command.
pub const USAGE: &str = "skymines render --seed S --players P [--luna LEVEL] [--board moon|belt] [--missions] [--threats] [--rounds R] [--decisions N] [--language en|de] --out DIR
                                             play R rounds (then N more decisions) of a seeded random game and write board and player PNGs";

struct Args {
    seed: u64,
    players: usize,
    luna: Option<u8>,
    belt: bool,
    missions: bool,
    threats: bool,
    rounds: u8,
    decisions: u32,
    /// The language of the image labels.
    texts: &'static crate::text::Texts,
    out: PathBuf,
}

fn parse(rest: &[&str]) -> Result<Args, String> {
    let mut seed = 1u64;
    let mut players = 2usize;
    let mut luna = None;
    let mut belt = false;
    let mut missions = false;
    let mut threats = false;
    let mut rounds = 3u8;
    let mut decisions = 0u32;
    let mut out: Option<PathBuf> = None;
    let mut texts = crate::text::english();
    let mut i = 0;
    while i < rest.len() {
        if rest[i] == "--threats" || rest[i] == "--missions" {
            threats |= rest[i] == "--threats";
            missions |= rest[i] == "--missions";
            i += 1;
            continue;
        }
        let value = rest
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", rest[i]))?;
        let num = |what: &str| format!("{}: `{value}` is not {what}", rest[i]);
        match rest[i] {
            "--seed" => seed = value.parse().map_err(|_| num("a number"))?,
            "--players" => players = value.parse().map_err(|_| num("a number"))?,
            "--luna" => luna = Some(value.parse().map_err(|_| num("a level 0-8"))?),
            "--rounds" => rounds = value.parse().map_err(|_| num("a number from 0 to 255"))?,
            "--decisions" => decisions = value.parse().map_err(|_| num("a number"))?,
            "--board" => {
                belt = match *value {
                    "moon" => false,
                    "belt" => true,
                    _ => return Err(num("moon or belt")),
                }
            }
            "--out" => out = Some(PathBuf::from(value)),
            "--language" => {
                texts = crate::text::language_codes()
                    .find(|code| code == value)
                    .map(crate::text::for_language)
                    .ok_or_else(|| num("a language: en or de"))?
            }
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    let out = out.ok_or_else(|| "--out DIR is required".to_string())?;
    Ok(Args {
        seed,
        players,
        luna,
        belt,
        missions,
        threats,
        rounds,
        decisions,
        texts,
        out,
    })
}

/// Plays seeded random decisions until round `rounds` is over (or the game ends).
pub fn simulate(
    data: &GameData,
    seed: u64,
    players: usize,
    rounds: u8,
) -> Result<GameState, String> {
    simulate_with(data, seed, players, None, rounds, 0)
}

/// As [`simulate`], with Luna at a level if asked for, then `decisions` more decisions.
pub fn simulate_with(
    data: &GameData,
    seed: u64,
    players: usize,
    luna: Option<u8>,
    rounds: u8,
    decisions: u32,
) -> Result<GameState, String> {
    let options = GameOptions {
        players,
        luna,
        seed,
        ..GameOptions::default()
    };
    simulate_options(data, &options, rounds, decisions)
}

/// Plays a game with these options: `rounds` rounds, then `decisions` more decisions.
pub fn simulate_options(
    data: &GameData,
    options: &GameOptions,
    rounds: u8,
    decisions: u32,
) -> Result<GameState, String> {
    let seed = options.seed;
    let humans = crate::sim::seat_names(options.players);
    let mut state = engine::new_game(data, options, &humans)
        .map_err(|e| format!("cannot set up that game: {e}"))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7265_6e64);
    let mut steps = 0u32;
    let mut extra = 0u32;
    while state.phase != Phase::Finished && (state.round <= rounds || extra < decisions) {
        if state.round > rounds {
            extra += 1;
        }
        steps += 1;
        if steps > 50_000 {
            return Err("the game did not advance".to_string());
        }
        let waiting = engine::waiting_on(&state);
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            return Err("nobody to move".to_string());
        };
        let legal = engine::legal_decisions(data, &state, seat);
        let Some(d) = crate::sim::choose(&mut rng, data, &state, seat, &legal) else {
            return Err(format!("seat {seat} has no legal decision"));
        };
        engine::apply(data, &mut state, seat, d).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the command; returns the exit code.
pub fn run(rest: &[&str], out: &mut dyn Write) -> i32 {
    let args = match parse(rest) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\nusage: {USAGE}");
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
    let options = GameOptions {
        players: args.players,
        luna: args.luna,
        seed: args.seed,
        board: if args.belt {
            engine::BoardSide::Belt
        } else {
            engine::BoardSide::Moon
        },
        missions: args.missions,
        threats: args.threats,
        ..GameOptions::default()
    };
    let state = match simulate_options(&data, &options, args.rounds, args.decisions) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let result = (|| -> Result<Vec<PathBuf>, String> {
        let renderer = super::Renderer::new().map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
        let mut written = Vec::new();
        let public = engine::view(&data, &state, None);
        let path = args.out.join("board.png");
        write(
            &path,
            &renderer
                .board_png_in(&data, &public, args.texts)
                .map_err(|e| e.to_string())?,
        )?;
        written.push(path);
        let mut summary = renderer.summary_text_in(&data, &public, args.texts);
        // One player board image (public or the owner's private one) and its summary text.
        let mut seat_image = |file: String, view: &SeatView, seat: usize, private: bool| {
            let path = args.out.join(file);
            let png = renderer
                .player_png_in(&data, view, seat, private, args.texts)
                .map_err(|e| e.to_string())?;
            write(&path, &png)?;
            written.push(path);
            renderer
                .player_summary_text_in(&data, view, seat, private, args.texts)
                .map_err(|e| e.to_string())
        };
        for seat in 0..state.seats.len() {
            let text = if state.seats[seat].is_luna() {
                seat_image("luna.png".into(), &public, seat, false)?
            } else {
                let n = seat + 1;
                let own = engine::view(&data, &state, Some(seat));
                seat_image(format!("player-{n}.png"), &public, seat, false)?;
                seat_image(format!("player-{n}-private.png"), &own, seat, true)?
            };
            summary.push_str("\n\n");
            summary.push_str(&text);
        }
        let path = args.out.join("summary.txt");
        write(&path, summary.as_bytes())?;
        written.push(path);
        let _ = writeln!(out, "{summary}\n");
        Ok(written)
    })();
    match result {
        Ok(paths) => {
            for p in paths {
                let _ = writeln!(out, "wrote {}", p.display());
            }
            0
        }
        Err(e) => {
            eprintln!("render failed: {e}");
            1
        }
    }
}
