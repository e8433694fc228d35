//! The pictures, one test binary: golden images, pixel checks at positions from the board
//! geometry, and rendering of positions from random games. Run one part with its module's name
//! as the filter, e.g. `cargo test --release --test render golden::`.

#[path = "../support/mod.rs"]
mod support;

mod render_support;

mod golden;
mod legibility;
mod palette;
mod parts;
mod pixels;
mod random;
mod sizes;
