//! What the test binaries check below this module's public face: the image cache's byte
//! budget and the painter's text placement. Built only with the `test-support` feature.

pub use super::cache::{Key, Lru};
pub use super::paint::{Align, Fonts, Painter, Weight};
