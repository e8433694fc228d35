//! The renderer's parts below its public face: the embedded layout and its colours, the image
//! cache's byte budget, text centred where the painter was asked to put it (moved here from
//! the crate's unit tests).

use skymines::render::layout::{Colour, Layout};
use skymines::render::testing::{Align, Fonts, Key, Lru, Painter, Weight};
use std::sync::Arc;

#[test]
fn embedded_layout_loads() {
    let l = Layout::embedded().expect("layout.toml loads");
    assert!(l.text.small >= l.canvas.min_text_px);
}

#[test]
fn colour_parsing() {
    assert_eq!(
        Colour::try_from("#FF8000".to_string()),
        Ok(Colour([255, 128, 0]))
    );
    assert!(Colour::try_from("FF8000".to_string()).is_err());
    assert!(Colour::try_from("#FF80".to_string()).is_err());
    assert!(Colour::try_from("#ÄÄÄ".to_string()).is_err());
}

fn key(n: u8) -> Key {
    [n; 32]
}

#[test]
fn the_image_cache_stays_within_its_byte_budget() {
    let mut lru = Lru::new(1000);
    lru.put(key(1), Arc::new(vec![0; 400]));
    lru.put(key(2), Arc::new(vec![0; 400]));
    assert!(lru.get(&key(1)).is_some(), "1 is now the most recent");
    lru.put(key(3), Arc::new(vec![0; 400]));
    assert_eq!(lru.bytes(), 800);
    assert!(lru.get(&key(2)).is_none(), "the least recent went first");
    assert!(lru.get(&key(1)).is_some() && lru.get(&key(3)).is_some());
    // Replacing an entry counts its new size only.
    lru.put(key(3), Arc::new(vec![0; 100]));
    assert_eq!(lru.bytes(), 500);
    // An image larger than the whole budget is not kept and evicts nothing.
    lru.put(key(4), Arc::new(vec![0; 1001]));
    assert!(lru.get(&key(4)).is_none());
    assert_eq!(lru.bytes(), 500);
    assert_eq!(lru.images(), 2);
}

#[test]
fn text_is_centred_on_cy() {
    let fonts = Fonts::load().expect("the embedded fonts");
    let mut p = Painter::new(200, 100, Colour::WHITE, &fonts, 18.0);
    p.text(
        10.0,
        50.0,
        40.0,
        Weight::Bold,
        Colour::BLACK,
        Align::Left,
        "HH",
    );
    let (mut top, mut bottom) = (u32::MAX, 0);
    for (_, y, px) in p.img.enumerate_pixels() {
        if px.0[0] < 128 {
            top = top.min(y);
            bottom = bottom.max(y);
        }
    }
    assert!(
        (top as i32 + bottom as i32 - 100).abs() <= 2,
        "{top}..{bottom}"
    );
}
