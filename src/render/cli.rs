//! `skymines render` (its options are parsed in `crate::cli`): plays R rounds of a seeded
//! random game (engine + `bots::weighted::choose`) and writes the snapshots: `board.png`,
//! `player-<n>.png` (public), `player-<n>-private.png` (the owner's) and `luna.png` when Luna
//! plays, plus `summary.txt`.

use crate::data::GameData;
use crate::engine::view::SeatView;
use crate::engine::{self, GameOptions, GameState, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::{Path, PathBuf};

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
        let Some(d) = crate::bots::weighted::choose(&mut rng, data, &state, seat, &legal) else {
            return Err(format!("seat {seat} has no legal decision"));
        };
        engine::apply(data, &mut state, seat, d).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A PNG scaled to `width` pixels wide (height in proportion), as a chat preview shows it;
/// unchanged when `width` is None or not smaller.
fn scaled(png: Vec<u8>, width: Option<u32>) -> Result<Vec<u8>, String> {
    let Some(w) = width.filter(|w| *w > 0) else {
        return Ok(png);
    };
    let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?
        .to_rgb8();
    if w >= img.width() {
        return Ok(png);
    }
    let h = ((img.height() as u64 * w as u64) / img.width() as u64).max(1) as u32;
    let small = image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
    let mut out = Vec::new();
    small
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Runs the command: plays `rounds` rounds and `decisions` more decisions of a game with
/// these options and writes its images (labels in `texts`, scaled to `width` pixels wide if
/// given) into `dir`; returns the exit code.
#[allow(clippy::too_many_arguments)]
pub fn run(
    options: &GameOptions,
    rounds: u8,
    decisions: u32,
    texts: &crate::text::Texts,
    width: Option<u32>,
    dir: &Path,
    out: &mut dyn Write,
) -> i32 {
    let data = match GameData::embedded() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    let state = match simulate_options(&data, options, rounds, decisions) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let result = (|| -> Result<Vec<PathBuf>, String> {
        let renderer = super::Renderer::new().map_err(|e| e.to_string())?;
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut written = Vec::new();
        let public = engine::view(&data, &state, None);
        let path = dir.join("board.png");
        let board = renderer
            .board_png_in(&data, &public, texts)
            .map_err(|e| e.to_string())?;
        write(&path, &scaled(board, width)?)?;
        written.push(path);
        let mut summary = renderer.summary_text_in(&data, &public, texts);
        // One player board image (public or the owner's private one) and its summary text.
        let mut seat_image = |file: String, view: &SeatView, seat: usize, private: bool| {
            let path = dir.join(file);
            let png = renderer
                .player_png_in(&data, view, seat, private, texts)
                .map_err(|e| e.to_string())?;
            write(&path, &scaled(png, width)?)?;
            written.push(path);
            renderer
                .player_summary_text_in(&data, view, seat, private, texts)
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
        let path = dir.join("summary.txt");
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
