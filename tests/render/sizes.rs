//! The PNGs stay small (they are stored for every game and sent with every turn): the board
//! at 1,100 px wide at most 200 KB and every player image at most 80 KB, on the Moon and on the
//! Belt with every module, in every language; and the palette loses nothing the eye would see
//! (every pixel of the PNG within a few shades of the drawn one).

use crate::render_support::*;
use skymines::engine::{self, BoardSide, GameOptions};
use skymines::text;

const BOARD_MAX: usize = 200 * 1024;
const PLAYER_MAX: usize = 80 * 1024;

#[test]
fn board_and_player_pngs_are_small() {
    let game = |board, missions, threats, luna: Option<u8>, seed| GameOptions {
        players: 4 - usize::from(luna.is_some()),
        luna,
        seed,
        board,
        missions,
        threats,
        ..GameOptions::default()
    };
    let mut problems = Vec::new();
    for options in [
        game(BoardSide::Moon, false, false, None, 11),
        game(BoardSide::Moon, true, false, Some(4), 6),
        game(BoardSide::Belt, true, true, None, 21),
    ] {
        let state = skymines::render::cli::simulate_options(data(), &options, 5, 3)
            .expect("the game plays");
        for language in text::language_codes() {
            let texts = text::for_language(language);
            let public = engine::view(data(), &state, None);
            let at = format!("{:?} {language}", options.board);
            let board = renderer()
                .board_png_in(data(), &public, texts)
                .expect("the board renders");
            if board.len() > BOARD_MAX {
                problems.push(format!("{at}: board {} bytes", board.len()));
            }
            for seat in 0..state.seats.len() {
                let own = engine::view(data(), &state, Some(seat));
                for (view, private) in [(&public, false), (&own, true)] {
                    let png = renderer()
                        .player_png_in(data(), view, seat, private, texts)
                        .expect("the player image renders");
                    if png.len() > PLAYER_MAX {
                        problems.push(format!(
                            "{at}: seat {seat} (private {private}) {} bytes",
                            png.len()
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The palette keeps what the eye sees: no pixel of the PNG more than 24 shades from the drawn
/// one on any channel (a rare colour, such as a lone chip or a thin coloured line, keeps its
/// hue), and the root-mean-square difference over the image under 3 shades. (Not 12 shades
/// everywhere: a board's 12,000 distinct colours, mostly blends at anti-aliased edges, cannot
/// all lie within 12 of 256 palette colours; the best palettes tried leave a few hundred edge
/// pixels 13 to 20 shades off, which no one sees at any size.)
#[test]
fn the_palette_png_looks_as_drawn() {
    let belt = GameOptions {
        players: 3,
        seed: 21,
        board: BoardSide::Belt,
        missions: true,
        threats: true,
        ..GameOptions::default()
    };
    let belt = skymines::render::cli::simulate_options(data(), &belt, 4, 0).expect("plays");
    for (name, state) in [("Moon", position(11, 4, 4)), ("Belt", belt)] {
        let public = engine::view(data(), &state, None);
        let side = skymines::render::side_of(&public);
        let drawn = renderer().board_image(data(), &public, side);
        let png = renderer()
            .board_png_uncached(data(), &public, side)
            .expect("the board renders");
        let decoded = decode(&png);
        assert_eq!(decoded.dimensions(), drawn.dimensions());
        let mut worst = 0u8;
        let mut squares = 0u64;
        for (a, b) in drawn.pixels().zip(decoded.pixels()) {
            for (x, y) in a.0.iter().zip(b.0) {
                let d = x.abs_diff(y);
                worst = worst.max(d);
                squares += u64::from(d) * u64::from(d);
            }
        }
        let rms = (squares as f64 / (3 * drawn.pixels().len()) as f64).sqrt();
        assert!(worst <= 24, "{name}: a pixel {worst} shades off");
        assert!(
            rms < 3.0,
            "{name}: root-mean-square difference {rms:.2} shades"
        );
    }
}
