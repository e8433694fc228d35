//! Helpers for the render tests: the data and one shared renderer, seeded positions, and
//! pixel comparisons.
#![allow(dead_code)]

use image::RgbImage;
use skymines::engine::{self, GameOptions, GameState, Phase};
use skymines::render::layout::Colour;
use skymines::render::Renderer;
use std::sync::OnceLock;

pub use crate::support::data;

pub fn renderer() -> &'static Renderer {
    static R: OnceLock<Renderer> = OnceLock::new();
    R.get_or_init(|| Renderer::new().expect("fonts and layout load"))
}

/// A fresh game.
pub fn new_game(players: usize, luna: Option<u8>, seed: u64) -> GameState {
    let options = GameOptions {
        players,
        luna,
        seed,
        ..GameOptions::default()
    };
    let humans = skymines::sim::seat_names(players);
    engine::new_game(data(), &options, &humans).expect("the game sets up")
}

/// A seeded random game played until `rounds` rounds are over.
pub fn position(seed: u64, players: usize, rounds: u8) -> GameState {
    skymines::render::cli::simulate(data(), seed, players, rounds).expect("the game plays")
}

/// The game in the Action phase of its first round (Planning done by random choices).
pub fn action_phase(players: usize, seed: u64) -> GameState {
    use rand::{Rng, SeedableRng};
    let mut state = new_game(players, None, seed);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut guard = 0;
    while state.phase != Phase::Action && guard < 10_000 {
        guard += 1;
        let waiting = engine::waiting_on(&state);
        let seat = waiting[rng.gen_range(0..waiting.len())];
        let legal = engine::legal_decisions(data(), &state, seat);
        let d = skymines::bots::weighted::choose(&mut rng, data(), &state, seat, &legal)
            .expect("a decision");
        engine::apply(data(), &mut state, seat, d).expect("legal");
    }
    state
}

pub fn pixel(img: &RgbImage, (x, y): (u32, u32)) -> Colour {
    Colour(img.get_pixel(x, y).0)
}

/// Pixels whose channels differ by more than `tolerance`.
pub fn differing_pixels(a: &RgbImage, b: &RgbImage, tolerance: u8) -> usize {
    if a.dimensions() != b.dimensions() {
        return usize::MAX;
    }
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| {
            p.0.iter()
                .zip(q.0.iter())
                .any(|(x, y)| x.abs_diff(*y) > tolerance)
        })
        .count()
}

/// Half-size image by 2 × 2 box averaging: what Discord shows at its ~550 px preview width.
pub fn half(img: &RgbImage) -> RgbImage {
    let (w, h) = (img.width() / 2, img.height() / 2);
    RgbImage::from_fn(w, h, |x, y| {
        let mut sum = [0u32; 3];
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let p = img.get_pixel(2 * x + dx, 2 * y + dy).0;
            for k in 0..3 {
                sum[k] += p[k] as u32;
            }
        }
        image::Rgb(sum.map(|s| ((s + 2) / 4) as u8))
    })
}

pub fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory(png).expect("a valid PNG").to_rgb8()
}
