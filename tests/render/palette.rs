//! The palette PNG encoding on its own (moved here from the crate's unit tests): an image of
//! few colours is stored exactly, a rare distinct colour keeps its place among many blends, and
//! no colour is left far from the palette.

use crate::render_support::decode;
use image::{Rgb, RgbImage};
use skymines::render::testing::encode_png as encode;

/// The squared RGB distance of two pixels.
fn distance(a: Rgb<u8>, b: Rgb<u8>) -> u32 {
    a.0.iter()
        .zip(b.0)
        .map(|(x, y)| u32::from(x.abs_diff(y)).pow(2))
        .sum()
}

#[test]
fn an_image_of_few_colours_is_stored_exactly() {
    let img = RgbImage::from_fn(300, 200, |x, y| {
        Rgb([(x % 16) as u8 * 16, (y % 16) as u8 * 16, 7])
    });
    let png = encode(&img).expect("encodes");
    assert_eq!(decode(&png), img);
}

#[test]
fn a_rare_distinct_colour_keeps_its_place_among_many_blends() {
    // 1,000 shades of grey in big blocks (blends) and one small pink square.
    let mut img = RgbImage::from_fn(1000, 400, |x, y| {
        let shade = (x / 10) * 4 + y / 100;
        let v = (shade * 255 / 404) as u8;
        Rgb([v, v, v.saturating_add((x % 3) as u8)])
    });
    for x in 500..504 {
        for y in 10..14 {
            img.put_pixel(x, y, Rgb([0xEE, 0x7F, 0xB6]));
        }
    }
    let out = decode(&encode(&img).expect("encodes"));
    assert_eq!(out.get_pixel(501, 11), &Rgb([0xEE, 0x7F, 0xB6]));
    // Every other pixel is near its own colour.
    for (a, b) in img.pixels().zip(out.pixels()) {
        assert!(distance(*a, *b) <= 3 * 6 * 6, "{a:?} became {b:?}");
    }
}

#[test]
fn no_rare_colour_is_left_far_from_the_palette() {
    // 5,120 close colours in 2 × 2 blocks (more than the candidates for the frequent places),
    // and 16 lone pixels of strong colours, each seen once.
    let mut img = RgbImage::from_fn(256, 82, |x, y| {
        let k = (y / 2) * 128 + x / 2;
        let v = (k % 256) as u8;
        Rgb([v, v, v.saturating_add((k / 256) as u8)])
    });
    let strong: Vec<Rgb<u8>> = (0..16u8)
        .map(|i| Rgb([255 - i * 4, 40 + (i % 4) * 60, 200 - (i / 4) * 60]))
        .collect();
    for (i, colour) in strong.iter().enumerate() {
        img.put_pixel(i as u32 * 16, 81, *colour);
    }
    let out = decode(&encode(&img).expect("encodes"));
    for (a, b) in img.pixels().zip(out.pixels()) {
        let off = a.0.iter().zip(b.0).map(|(x, y)| x.abs_diff(y)).max();
        assert!(off <= Some(24), "{a:?} became {b:?}");
    }
}
