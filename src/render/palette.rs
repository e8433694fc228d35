//! The PNG encoding of a drawn image, as an indexed-colour (palette) PNG. The images are flat
//! colours with anti-aliased edges: a few dozen colours of their own and the blends between
//! them (about 12,000 distinct colours on a board). An image with at most 256 colours is stored
//! exactly. A larger one keeps its most used colours, spread so that no two are near twins (a
//! rare but distinct colour, such as a small company chip, wins its place over the hundredth
//! shade of grey at a letter's edge); the last places go, one by one, to the colour then
//! farthest from the palette, so that no colour of the image, however rare, is left far from
//! its stand-in; each other pixel takes the nearest palette colour. Stored with one byte a
//! pixel instead of three, the board's PNG is a quarter of its RGB size.
//!
//! What the eye keeps (tested in `tests/render/sizes.rs`): the flat colours exact, every
//! pixel within 24 shades of the drawn one on each channel (the worst seen on the boards is
//! about 20, on a few hundred edge pixels; 256 colours cannot hold a board's 12,000 within
//! 12), and the root-mean-square difference under 3 shades.

use super::error::RenderError;
use image::RgbImage;
use std::collections::HashMap;

/// The most colours a palette PNG holds.
const PALETTE: usize = 256;
/// How many palette places go to the most used colours; the rest to the colours farthest from
/// them.
const FREQUENT: usize = 224;
/// How many of the most used colours are candidates for those places (the rest are blends seen
/// on a few pixels, always near a candidate or filled in by the farthest-colour pass).
const CANDIDATES: usize = 4096;
/// The least squared RGB distance between two frequent palette colours, tried in turn: far
/// apart first, so that the palette covers every kind of colour before it holds close shades.
const SPREADS: [u32; 3] = [48 * 48, 24 * 24, 12 * 12];

/// `img` as an indexed-colour PNG.
pub(crate) fn encode(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    let colours = colour_counts(img);
    let (palette, index) = choose_palette(&colours);
    let mut pixels = Vec::with_capacity((img.width() * img.height()) as usize);
    let mut last = None;
    let mut last_index = 0u8;
    for px in img.pixels() {
        let c = pack(px.0);
        if last != Some(c) {
            last = Some(c);
            last_index = index.get(&c).copied().unwrap_or(0);
        }
        pixels.push(last_index);
    }
    let mut out = Vec::new();
    let fail = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut encoder = png::Encoder::new(&mut out, img.width(), img.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.iter().flat_map(|c| unpack(*c)).collect::<Vec<u8>>());
    encoder.set_compression(png::Compression::Balanced);
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&pixels).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

fn pack([r, g, b]: [u8; 3]) -> u32 {
    (r as u32) << 16 | (g as u32) << 8 | b as u32
}

fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

fn distance(a: u32, b: u32) -> u32 {
    let [ar, ag, ab] = unpack(a);
    let [br, bg, bb] = unpack(b);
    let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2) as u32;
    d(ar, br) + d(ag, bg) + d(ab, bb)
}

/// Every colour of the image with its number of pixels, most used first (ties by colour, so
/// that the same image always gives the same palette).
fn colour_counts(img: &RgbImage) -> Vec<(u32, u32)> {
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut run: Option<(u32, u32)> = None;
    for px in img.pixels() {
        let c = pack(px.0);
        match run.as_mut() {
            Some((colour, n)) if *colour == c => *n += 1,
            _ => {
                if let Some((colour, n)) = run.replace((c, 1)) {
                    *counts.entry(colour).or_default() += n;
                }
            }
        }
    }
    if let Some((colour, n)) = run {
        *counts.entry(colour).or_default() += n;
    }
    let mut colours: Vec<(u32, u32)> = counts.into_iter().collect();
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    colours
}

/// At most 256 colours (all of them if there are no more, else the most used spread apart,
/// then the farthest from those) and each colour's place in it (its own, or the nearest
/// colour's).
fn choose_palette(colours: &[(u32, u32)]) -> (Vec<u32>, HashMap<u32, u8>) {
    if colours.len() <= PALETTE {
        let palette: Vec<u32> = colours.iter().map(|(c, _)| *c).collect();
        let index = palette
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i as u8))
            .collect();
        return (palette, index);
    }
    let mut palette = frequent_colours(colours);
    // Each colour's nearest palette colour (place, squared distance), kept up to date as the
    // farthest colour joins the palette.
    let mut nearest: Vec<(u8, u32)> = colours
        .iter()
        .map(|(c, _)| {
            palette
                .iter()
                .enumerate()
                .map(|(i, p)| (i as u8, distance(*p, *c)))
                .min_by_key(|(_, d)| *d)
                .unwrap_or((0, u32::MAX))
        })
        .collect();
    while palette.len() < PALETTE {
        // The farthest colour; among equals the most used (the list is most used first).
        let Some((far, &(_, d))) = nearest
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|(_, (_, d))| *d)
        else {
            break;
        };
        if d == 0 {
            break;
        }
        let place = palette.len() as u8;
        let colour = colours[far].0;
        palette.push(colour);
        for ((c, _), near) in colours.iter().zip(nearest.iter_mut()) {
            let d = distance(colour, *c);
            if d < near.1 {
                *near = (place, d);
            }
        }
    }
    let index = colours
        .iter()
        .zip(&nearest)
        .map(|((c, _), (i, _))| (*c, *i))
        .collect();
    (palette, index)
}

/// The first places of the palette: the most used colours, spread apart.
fn frequent_colours(colours: &[(u32, u32)]) -> Vec<u32> {
    let candidates = &colours[..colours.len().min(CANDIDATES)];
    let mut chosen: Vec<u32> = Vec::with_capacity(PALETTE);
    let mut taken = vec![false; candidates.len()];
    for spread in SPREADS {
        for (k, (c, _)) in candidates.iter().enumerate() {
            if chosen.len() == FREQUENT {
                return chosen;
            }
            if !taken[k] && chosen.iter().all(|p| distance(*p, *c) >= spread) {
                chosen.push(*c);
                taken[k] = true;
            }
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .expect("a PNG")
            .to_rgb8()
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
            assert!(
                distance(pack(a.0), pack(b.0)) <= 3 * 6 * 6,
                "{a:?} became {b:?}"
            );
        }
    }

    #[test]
    fn no_rare_colour_is_left_far_from_the_palette() {
        // 5,120 close colours in 2 × 2 blocks (more than the candidates for the frequent
        // places), and 16 lone pixels of strong colours, each seen once.
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
}
