//! Golden images: a few fixed positions rendered and compared with the PNGs checked in under
//! `tests/golden/`, so an unintended change to the pictures shows up in review.
//!
//! Each case stores the position as the engine's `SeatView` (JSON, seat 0's own view) next to
//! its images, so the goldens depend only on the drawing code, the layout and the data, not on
//! the rules engine or the self-play chooser. The images are kept at half size (550 px wide:
//! what Discord shows in its preview), made by 2 × 2 box averaging, and compared pixel by pixel
//! with a small tolerance for floating-point differences between machines.
//!
//! Regenerate the images after an intended change to the drawing with `UPDATE_GOLDEN=1 cargo
//! test --release --test render golden::` (the positions stay as stored; a case is played
//! again only when its JSON file is deleted); a failing comparison writes the new pictures to
//! `target/golden-actual/`.

use crate::render_support::*;
use image::RgbImage;
use skymines::engine::{self, SeatView};
use std::path::{Path, PathBuf};

struct Case {
    name: &'static str,
    seed: u64,
    players: usize,
    luna: Option<u8>,
    rounds: u8,
    decisions: u32,
    /// On the Belt, with a threat card.
    belt: bool,
}

const CASES: &[Case] = &[
    Case {
        name: "start-3p",
        seed: 3,
        players: 3,
        luna: None,
        rounds: 0,
        decisions: 0,
        belt: false,
    },
    Case {
        name: "round6-4p",
        seed: 11,
        players: 4,
        luna: None,
        rounds: 5,
        decisions: 0,
        belt: false,
    },
    Case {
        name: "action-2p-luna",
        seed: 5,
        players: 2,
        luna: Some(4),
        rounds: 3,
        decisions: 40,
        belt: false,
    },
    Case {
        name: "belt-3p-threat",
        seed: 9,
        players: 3,
        luna: None,
        rounds: 4,
        decisions: 20,
        belt: true,
    },
];

/// Per-channel difference below which two pixels count as equal.
const TOLERANCE: u8 = 8;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn updating() -> bool {
    crate::support::update_golden()
}

fn encode_small(img: &RgbImage) -> Vec<u8> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::ImageEncoder;
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Best, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("encodes");
    out
}

/// The case's position, read from its JSON file. Only a case without one is simulated (and
/// its file written), and only when updating: regenerating the images after a change to the
/// drawing must not move the positions under them, or the review would compare different
/// games (the rules engine and the chooser change the game a seed plays). To play a case's
/// position again on purpose, delete its JSON file and update.
fn view_of(case: &Case) -> SeatView {
    let path = golden_dir().join(format!("render-{}.json", case.name));
    if updating() && !path.exists() {
        let options = engine::GameOptions {
            players: case.players,
            luna: case.luna,
            seed: case.seed,
            board: if case.belt {
                engine::BoardSide::Belt
            } else {
                engine::BoardSide::Moon
            },
            threats: case.belt,
            ..engine::GameOptions::default()
        };
        let state =
            skymines::render::cli::simulate_options(data(), &options, case.rounds, case.decisions)
                .expect("the case plays");
        let view = engine::view(data(), &state, Some(0));
        let json = serde_json::to_string_pretty(&view).expect("serialises");
        std::fs::write(&path, json).expect("writes the view");
        view
    } else {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; create it with UPDATE_GOLDEN=1 cargo test --release --test render golden::",
                path.display()
            )
        });
        serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "{}: the SeatView format changed ({e}); regenerate with UPDATE_GOLDEN=1",
                path.display()
            )
        })
    }
}

/// The images of a case, by file-name suffix.
fn images(view: &SeatView) -> Vec<(String, RgbImage)> {
    let r = renderer();
    let d = data();
    let mut out = vec![(
        "board".to_string(),
        r.board_image(d, view, skymines::render::side_of(view)),
    )];
    for (seat, s) in view.seats.iter().enumerate() {
        let name = if s.luna.is_some() {
            "luna".to_string()
        } else if seat == 0 {
            "player-1".to_string()
        } else {
            continue;
        };
        out.push((
            name,
            r.player_image(d, view, seat, false).expect("public image"),
        ));
    }
    out.push((
        "player-1-private".to_string(),
        r.player_image(d, view, 0, true).expect("private image"),
    ));
    out
}

#[test]
fn golden_images_are_unchanged() {
    let mut failures = Vec::new();
    for case in CASES {
        let view = view_of(case);
        for (suffix, img) in images(&view) {
            let small = half(&img);
            let file = golden_dir().join(format!("render-{}-{suffix}.png", case.name));
            let png = encode_small(&small);
            if updating() {
                std::fs::write(&file, &png).expect("writes the golden image");
                assert!(
                    png.len() < 256 * 1024,
                    "{}: {} bytes",
                    file.display(),
                    png.len()
                );
                continue;
            }
            let golden = match std::fs::read(&file) {
                Ok(bytes) => decode(&bytes),
                Err(e) => {
                    failures.push(format!("{}: {e}", file.display()));
                    continue;
                }
            };
            let differing = differing_pixels(&small, &golden, TOLERANCE);
            if differing > 0 {
                let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/golden-actual");
                let _ = std::fs::create_dir_all(&dir);
                let actual = dir.join(format!("render-{}-{suffix}.png", case.name));
                let _ = std::fs::write(&actual, &png);
                failures.push(format!(
                    "{}: {} pixels differ (new picture: {})",
                    file.display(),
                    if differing == usize::MAX {
                        "all (size changed)".to_string()
                    } else {
                        differing.to_string()
                    },
                    actual.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "golden images changed; if intended, run UPDATE_GOLDEN=1 cargo test --release --test render golden::\n{}",
        failures.join("\n")
    );
}

#[test]
fn golden_views_still_render_through_the_png_api() {
    // The stored views are valid input for the public entry points, and their PNGs are small.
    for case in CASES {
        let view = view_of(case);
        let png = skymines::render::board_png(data(), &view).expect("board");
        assert!(png.len() < 1024 * 1024);
        assert!(!skymines::render::summary_text(data(), &view).is_empty());
    }
}
