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
use std::hash::{BuildHasherDefault, Hasher};

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
/// The compression of the palette places: zlib level 4 takes about half the time of level 6
/// (`png`'s `Balanced`) for a PNG about 5% larger (`cargo bench --bench render` compares them);
/// level 1 and `fdeflate` are faster still but miss the size limit.
pub const DEFLATE: png::DeflateCompression = png::DeflateCompression::Level(4);
/// The row filter before the compression.
pub const FILTER: png::Filter = png::Filter::NoFilter;

/// `img` as an indexed-colour PNG.
pub fn encode(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    encode_with(img, DEFLATE, FILTER)
}

/// [`encode`] with another compression and row filter (to weigh speed against size).
pub fn encode_with(
    img: &RgbImage,
    deflate: png::DeflateCompression,
    filter: png::Filter,
) -> Result<Vec<u8>, RenderError> {
    let (palette, pixels) = indexed(img);
    let mut out = Vec::new();
    let fail = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut encoder = png::Encoder::new(&mut out, img.width(), img.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.iter().flat_map(|c| unpack(*c)).collect::<Vec<u8>>());
    encoder.set_deflate_compression(deflate);
    encoder.set_filter(filter);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&pixels).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

/// The palette of `img` and each pixel's place in it, row by row.
pub fn indexed(img: &RgbImage) -> (Vec<u32>, Vec<u8>) {
    let runs = Runs::of(img);
    let colours = runs.by_use();
    let (palette, places) = choose_palette(&colours);
    (palette, runs.places(&colours, &places))
}

/// A hash for packed RGB keys: one multiplication (the standard SipHash costs several times
/// more, and these keys are the drawing's own colours, not anyone's input).
#[derive(Default)]
struct RgbHasher(u64);

impl Hasher for RgbHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(u32::from(*b) ^ (self.0 as u32).rotate_left(8));
        }
    }

    fn write_u32(&mut self, n: u32) {
        let h = (u64::from(n) ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The table picks its bucket by the low bits: fold the well-mixed high bits in.
        self.0 = h ^ (h >> 32);
    }
}

type RgbMap<V> = HashMap<u32, V, BuildHasherDefault<RgbHasher>>;

/// The image read once, as runs of one colour (rows read one after another): each distinct
/// colour numbered in order of appearance, with its number of pixels.
pub struct Runs {
    /// Colour → its number.
    ids: RgbMap<u32>,
    /// Number → colour (packed RGB).
    rgb: Vec<u32>,
    /// Number → pixels of that colour.
    count: Vec<u32>,
    /// (colour number, length) of each run, in pixel order.
    runs: Vec<(u32, u32)>,
}

impl Runs {
    pub fn of(img: &RgbImage) -> Runs {
        let mut r = Runs {
            ids: RgbMap::with_capacity_and_hasher(4096, Default::default()),
            rgb: Vec::new(),
            count: Vec::new(),
            runs: Vec::new(),
        };
        let mut run: Option<(u32, u32)> = None;
        for px in img.as_raw().chunks_exact(3) {
            let c = pack([px[0], px[1], px[2]]);
            match run.as_mut() {
                Some((colour, n)) if *colour == c => *n += 1,
                _ => {
                    if let Some((colour, n)) = run.replace((c, 1)) {
                        r.push(colour, n);
                    }
                }
            }
        }
        if let Some((colour, n)) = run {
            r.push(colour, n);
        }
        r
    }

    fn push(&mut self, colour: u32, n: u32) {
        let next = self.rgb.len() as u32;
        let id = *self.ids.entry(colour).or_insert(next);
        if id == next {
            self.rgb.push(colour);
            self.count.push(0);
        }
        self.count[id as usize] += n;
        self.runs.push((id, n));
    }

    /// Each pixel's place in the palette, given each colour's place (`places`, in the order
    /// of `colours`, a list of every colour).
    pub fn places(&self, colours: &[(u32, u32)], places: &[u8]) -> Vec<u8> {
        // Each colour's place, by the colour's number here.
        let mut place_of = vec![0u8; self.rgb.len()];
        for ((colour, _), place) in colours.iter().zip(places) {
            if let Some(&id) = self.ids.get(colour) {
                place_of[id as usize] = *place;
            }
        }
        let total: usize = self.count.iter().map(|n| *n as usize).sum();
        let mut pixels = Vec::with_capacity(total);
        for &(id, n) in &self.runs {
            pixels.resize(pixels.len() + n as usize, place_of[id as usize]);
        }
        pixels
    }

    /// Every colour with its number of pixels, most used first (ties by colour, so that the
    /// same image always gives the same palette).
    pub fn by_use(&self) -> Vec<(u32, u32)> {
        let mut colours: Vec<(u32, u32)> = self
            .rgb
            .iter()
            .copied()
            .zip(self.count.iter().copied())
            .collect();
        colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        colours
    }
}

fn pack([r, g, b]: [u8; 3]) -> u32 {
    (r as u32) << 16 | (g as u32) << 8 | b as u32
}

fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// A colour's channels, ready for [`distance`].
fn channels(c: u32) -> [i32; 3] {
    unpack(c).map(i32::from)
}

/// The squared RGB distance of two colours.
fn distance(a: [i32; 3], b: [i32; 3]) -> u32 {
    let d = |i: usize| (a[i] - b[i]).pow(2) as u32;
    d(0) + d(1) + d(2)
}

/// Colours as one list per channel, so that a search through them is one tight loop.
#[derive(Default)]
struct Channels {
    r: Vec<i32>,
    g: Vec<i32>,
    b: Vec<i32>,
}

impl Channels {
    fn push(&mut self, [r, g, b]: [i32; 3]) {
        self.r.push(r);
        self.g.push(g);
        self.b.push(b);
    }

    /// The nearest colour to `c` (place, squared distance); the first of equals.
    fn nearest(&self, [r, g, b]: [i32; 3]) -> (u8, u32) {
        let mut best = (0u8, u32::MAX);
        for (i, ((pr, pg), pb)) in self.r.iter().zip(&self.g).zip(&self.b).enumerate() {
            let d = ((pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2)) as u32;
            if d < best.1 {
                best = (i as u8, d);
            }
        }
        best
    }

    /// Whether every colour is at least `spread` (squared) from `c`.
    fn all_apart(&self, [r, g, b]: [i32; 3], spread: u32) -> bool {
        let near = |((pr, pg), pb): ((&i32, &i32), &i32)| {
            (((pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2)) as u32) < spread
        };
        !self.r.iter().zip(&self.g).zip(&self.b).any(near)
    }
}

/// At most 256 colours (all of them if there are no more, else the most used spread apart,
/// then the farthest from those) and each colour's place in it (its own, or the nearest
/// colour's), in the order of `colours` (most used first).
pub fn choose_palette(colours: &[(u32, u32)]) -> (Vec<u32>, Vec<u8>) {
    if colours.len() <= PALETTE {
        let palette: Vec<u32> = colours.iter().map(|(c, _)| *c).collect();
        let places = (0..palette.len()).map(|i| i as u8).collect();
        return (palette, places);
    }
    let rgb: Vec<[i32; 3]> = colours.iter().map(|(c, _)| channels(*c)).collect();
    let mut palette = frequent_colours(&rgb);
    // Each colour's nearest palette colour (place, squared distance), kept up to date as the
    // farthest colour joins the palette.
    let mut chosen = Channels::default();
    for p in &palette {
        chosen.push(rgb[*p]);
    }
    let mut nearest: Vec<(u8, u32)> = rgb.iter().map(|c| chosen.nearest(*c)).collect();
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
        palette.push(far);
        for (c, near) in rgb.iter().zip(nearest.iter_mut()) {
            let d = distance(rgb[far], *c);
            if d < near.1 {
                *near = (place, d);
            }
        }
    }
    let palette = palette.iter().map(|k| colours[*k].0).collect();
    (palette, nearest.iter().map(|(i, _)| *i).collect())
}

/// The first places of the palette (as positions in the list, most used first): the most used
/// colours, spread apart.
fn frequent_colours(rgb: &[[i32; 3]]) -> Vec<usize> {
    let candidates = &rgb[..rgb.len().min(CANDIDATES)];
    let mut chosen: Vec<usize> = Vec::with_capacity(PALETTE);
    let mut apart = Channels::default();
    let mut taken = vec![false; candidates.len()];
    for spread in SPREADS {
        for (k, c) in candidates.iter().enumerate() {
            if chosen.len() == FREQUENT {
                return chosen;
            }
            if !taken[k] && apart.all_apart(*c, spread) {
                chosen.push(k);
                apart.push(*c);
                taken[k] = true;
            }
        }
    }
    chosen
}
