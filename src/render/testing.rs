//! What the test binaries check below this module's public face: the image cache's byte
//! budget, the painter's text placement, and the palette PNG encoding (the render benchmark
//! times its parts). Built only with the `test-support` feature.

pub use super::cache::{Key, Lru};
pub use super::paint::{Align, Fonts, Painter, Weight};
pub use super::palette::{choose_palette, indexed, Runs, DEFLATE, FILTER};
pub use super::palette::{encode as encode_png, encode_with as encode_png_with};
