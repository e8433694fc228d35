//! Low-level drawing on an RGB canvas: crisp rectangles, anti-aliased polygons, circles and
//! rounded rectangles, and text with the DejaVu fonts shipped in `assets/fonts/` (no system
//! fonts). Glyph bitmaps are cached per canvas. Every call clips to the canvas; nothing here can
//! panic on odd coordinates (NaN and infinities are ignored).

use super::error::RenderError;
use super::layout::{Colour, Rect};
use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use image::RgbImage;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The two font faces, parsed once.
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    /// Ratio of the layout height (ascent − descent) to the em size, per face.
    height_per_em: [f32; 2],
    /// Cap height per em, per face.
    cap_per_em: [f32; 2],
    /// Rasterised glyphs shared by every canvas.
    glyphs: RwLock<HashMap<GlyphKey, Option<Arc<GlyphBitmap>>>>,
}

/// Face, glyph id, size in eighths of a pixel, horizontal quarter-pixel offset.
type GlyphKey = (usize, u16, u32, u8);

/// Glyphs kept in the shared cache before it is cleared (odd names cannot grow it forever).
const GLYPH_CACHE_LIMIT: usize = 20_000;

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fonts(DejaVu Sans, DejaVu Sans Bold)")
    }
}

impl Fonts {
    /// A glyph's coverage bitmap from the shared cache, rasterised on first use.
    fn glyph_bitmap(&self, key: GlyphKey, id: GlyphId, scale: PxScale) -> Option<Arc<GlyphBitmap>> {
        if let Ok(cache) = self.glyphs.read() {
            if let Some(g) = cache.get(&key) {
                return g.clone();
            }
        }
        let face = if key.0 == 0 {
            &self.regular
        } else {
            &self.bold
        };
        let g = id.with_scale_and_position(scale, point(key.3 as f32 / 4.0, 0.0));
        let bitmap = face.outline_glyph(g).map(|o| {
            let b = o.px_bounds();
            let (gw, gh) = (b.width() as usize, b.height() as usize);
            let mut coverage = vec![0u8; gw * gh];
            o.draw(|gx, gy, v| {
                if let Some(cell) = coverage.get_mut(gy as usize * gw + gx as usize) {
                    *cell = (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                }
            });
            Arc::new(GlyphBitmap {
                left: b.min.x as i32,
                top: b.min.y as i32,
                w: gw,
                h: gh,
                coverage,
            })
        });
        if let Ok(mut cache) = self.glyphs.write() {
            if cache.len() >= GLYPH_CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, bitmap.clone());
        }
        bitmap
    }

    pub fn load() -> Result<Fonts, RenderError> {
        let parse = |bytes: &'static [u8], name: &str| {
            FontRef::try_from_slice(bytes).map_err(|e| RenderError::Font {
                font: name.to_string(),
                message: e.to_string(),
            })
        };
        let regular = parse(REGULAR, "DejaVuSans.ttf")?;
        let bold = parse(BOLD, "DejaVuSans-Bold.ttf")?;
        let metrics = |f: &FontRef<'static>| {
            let em = f.units_per_em().unwrap_or(2048.0);
            let height = f.height_unscaled();
            let cap = f
                .outline(f.glyph_id('H'))
                .map(|o| (o.bounds.max.y - o.bounds.min.y).abs())
                .unwrap_or(em * 0.73);
            (height / em, cap / em)
        };
        let (hr, cr) = metrics(&regular);
        let (hb, cb) = metrics(&bold);
        Ok(Fonts {
            regular,
            bold,
            height_per_em: [hr, hb],
            cap_per_em: [cr, cb],
            glyphs: RwLock::new(HashMap::new()),
        })
    }

    fn face(&self, w: Weight) -> &FontRef<'static> {
        match w {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
}

impl Weight {
    fn index(self) -> usize {
        match self {
            Weight::Regular => 0,
            Weight::Bold => 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Centre,
    Right,
}

struct GlyphBitmap {
    left: i32,
    top: i32,
    w: usize,
    h: usize,
    coverage: Vec<u8>,
}

/// What a drawn text or mark stands for: the painter records it so that tests can compare the
/// numbers an image shows with the numbers the text of the same state uses (DECISIONS B17).
/// Indices are the engine's (0-based screens and slots; sectors, display and Belt spaces as
/// printed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The number of a seat's research screen `index`.
    Screen { seat: usize, index: usize },
    /// The label of a seat's action slot `index`.
    ActionSlot { seat: usize, index: usize },
    /// The label of a seat's resting slot `index`.
    RestingSlot { seat: usize, index: usize },
    /// The label of card display space `number`.
    DisplaySpace { number: u32 },
    /// The badge of Moon sector `id`.
    Sector { id: u32 },
    /// The number of Belt space `number`.
    BeltSpace { number: u32 },
    /// The number of company track space `space` (company index).
    TrackSpace { company: usize, space: usize },
    /// The number under tank step `step` of a seat.
    TankStep { seat: usize, step: usize },
    /// A seat's upload marker (a mark, not a text).
    UploadMarker { seat: usize },
    /// A seat's final score in one category (`category` indexes the score table's columns).
    Score { seat: usize, category: usize },
}

/// One line of text as drawn: where, how big (em pixels), and what it stands for if known.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnText {
    pub text: String,
    /// The anchor point the text was drawn at (its `x` by alignment, its vertical centre).
    pub x: f32,
    pub y: f32,
    /// The left, top, right and bottom of the text's box.
    pub bounds: Rect,
    pub size: f32,
    pub role: Option<Role>,
}

/// A canvas with fonts: the only thing the drawing modules touch.
pub struct Painter<'f> {
    pub img: RgbImage,
    fonts: &'f Fonts,
    min_text: f32,
    /// The smallest text size (em pixels) drawn so far.
    pub smallest_text: f32,
    /// Every line of text drawn so far, with its place, size and role (tests check an image's
    /// words, e.g. its language, and its numbers against the text).
    pub drawn: Vec<DrawnText>,
    /// Marks placed with [`Painter::mark`] (where a marker was drawn).
    pub marks: Vec<(Role, f32, f32)>,
    /// The role of the next text drawn (see [`Painter::role`]).
    next_role: Option<Role>,
    glyphs: HashMap<GlyphKey, Option<Arc<GlyphBitmap>>>,
    xs: Vec<f32>,
    acc: Vec<f32>,
}

fn finite(v: f32) -> bool {
    v.is_finite() && v.abs() < 1.0e6
}

impl<'f> Painter<'f> {
    pub fn new(
        width: u32,
        height: u32,
        background: Colour,
        fonts: &'f Fonts,
        min_text: f32,
    ) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let row: Vec<u8> = background.0.repeat(width as usize);
        let mut raw = Vec::with_capacity(row.len() * height as usize);
        for _ in 0..height {
            raw.extend_from_slice(&row);
        }
        let img = RgbImage::from_raw(width, height, raw)
            .unwrap_or_else(|| RgbImage::from_pixel(width, height, image::Rgb(background.0)));
        Painter {
            img,
            fonts,
            min_text,
            smallest_text: f32::INFINITY,
            drawn: Vec::new(),
            marks: Vec::new(),
            next_role: None,
            glyphs: HashMap::new(),
            xs: Vec::new(),
            acc: Vec::new(),
        }
    }

    #[inline]
    fn blend(&mut self, x: i32, y: i32, c: Colour, a: f32) {
        Self::blend_into(&mut self.img, x, y, c, a);
    }

    #[inline]
    fn blend_into(img: &mut RgbImage, x: i32, y: i32, c: Colour, a: f32) {
        if x < 0 || y < 0 || x >= img.width() as i32 || y >= img.height() as i32 {
            return;
        }
        let w = img.width() as usize;
        let i = (y as usize * w + x as usize) * 3;
        let buf: &mut [u8] = img;
        let Some(px) = buf.get_mut(i..i + 3) else {
            return;
        };
        if a >= 0.999 {
            px.copy_from_slice(&c.0);
        } else if a > 0.002 {
            let a = (a * 256.0) as u32;
            let b = 256 - a;
            for (v, n) in px.iter_mut().zip(c.0) {
                *v = ((*v as u32 * b + n as u32 * a) >> 8) as u8;
            }
        }
    }

    /// A crisp axis-aligned rectangle (edges rounded to whole pixels).
    pub fn fill_rect(&mut self, r: Rect, c: Colour) {
        if !(finite(r.x) && finite(r.y) && finite(r.w) && finite(r.h)) {
            return;
        }
        let (w, h) = (self.img.width() as i32, self.img.height() as i32);
        let x0 = (r.x.round() as i32).clamp(0, w);
        let x1 = (r.right().round() as i32).clamp(0, w);
        let y0 = (r.y.round() as i32).clamp(0, h);
        let y1 = (r.bottom().round() as i32).clamp(0, h);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let stride = w as usize * 3;
        let (a, b) = (x0 as usize * 3, x1 as usize * 3);
        let buf: &mut [u8] = &mut self.img;
        let first = y0 as usize * stride;
        if let Some(span) = buf.get_mut(first + a..first + b) {
            for px in span.chunks_exact_mut(3) {
                px.copy_from_slice(&c.0);
            }
        }
        for y in (y0 + 1)..y1 {
            let row = y as usize * stride;
            if row + b <= buf.len() {
                buf.copy_within(first + a..first + b, row + a);
            }
        }
    }

    /// A rectangle outline `width` pixels wide, inside `r`.
    pub fn stroke_rect(&mut self, r: Rect, width: f32, c: Colour) {
        self.fill_rect(Rect::new(r.x, r.y, r.w, width), c);
        self.fill_rect(Rect::new(r.x, r.bottom() - width, r.w, width), c);
        self.fill_rect(Rect::new(r.x, r.y, width, r.h), c);
        self.fill_rect(Rect::new(r.right() - width, r.y, width, r.h), c);
    }

    /// An anti-aliased filled polygon (even-odd rule), 4 sub-scanlines per pixel row.
    pub fn polygon(&mut self, pts: &[(f32, f32)], c: Colour) {
        if pts.len() < 3 || pts.iter().any(|(x, y)| !finite(*x) || !finite(*y)) {
            return;
        }
        let (mut minx, mut maxx, mut miny, mut maxy) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for &(x, y) in pts {
            minx = minx.min(x);
            maxx = maxx.max(x);
            miny = miny.min(y);
            maxy = maxy.max(y);
        }
        let (w, h) = (self.img.width() as i32, self.img.height() as i32);
        let px0 = (minx.floor() as i32).max(0);
        let px1 = (maxx.ceil() as i32).min(w);
        let py0 = (miny.floor() as i32).max(0);
        let py1 = (maxy.ceil() as i32).min(h);
        if px0 >= px1 || py0 >= py1 {
            return;
        }
        let span = (px1 - px0) as usize;
        let mut acc = std::mem::take(&mut self.acc);
        let mut xs = std::mem::take(&mut self.xs);
        acc.clear();
        acc.resize(span + 1, 0.0);
        // Edges as (x at top, top y, bottom y, dx/dy), skipping horizontal ones.
        let mut edges: Vec<(f32, f32, f32, f32)> = Vec::with_capacity(pts.len());
        for i in 0..pts.len() {
            let (ax, ay) = pts[i];
            let (bx, by) = pts[(i + 1) % pts.len()];
            if (by - ay).abs() < 1e-6 {
                continue;
            }
            let (tx, ty, bty, slope) = if ay < by {
                (ax, ay, by, (bx - ax) / (by - ay))
            } else {
                (bx, by, ay, (ax - bx) / (ay - by))
            };
            edges.push((tx, ty, bty, slope));
        }
        const SUB: usize = 4;
        let wgt = 1.0 / SUB as f32;
        let mut active: Vec<(f32, f32, f32, f32)> = Vec::with_capacity(edges.len());
        for py in py0..py1 {
            let (row_top, row_bottom) = (py as f32, py as f32 + 1.0);
            active.clear();
            active.extend(
                edges
                    .iter()
                    .filter(|e| e.1 < row_bottom && e.2 > row_top)
                    .copied(),
            );
            if active.len() < 2 {
                continue;
            }
            let (mut lo, mut hi) = (usize::MAX, 0usize);
            for s in 0..SUB {
                let sy = row_top + (s as f32 + 0.5) / SUB as f32;
                xs.clear();
                for &(tx, ty, by, slope) in &active {
                    if ty <= sy && by > sy {
                        xs.push(tx + (sy - ty) * slope);
                    }
                }
                xs.sort_by(|a, b| a.total_cmp(b));
                for pair in xs.chunks_exact(2) {
                    let a = (pair[0] - px0 as f32).clamp(0.0, span as f32);
                    let b = (pair[1] - px0 as f32).clamp(0.0, span as f32);
                    if b <= a {
                        continue;
                    }
                    let ia = a.floor() as usize;
                    let ib = b.floor() as usize;
                    lo = lo.min(ia);
                    hi = hi.max(ib.min(span - 1));
                    if ia == ib {
                        acc[ia] += (b - a) * wgt;
                    } else {
                        acc[ia] += (ia as f32 + 1.0 - a) * wgt;
                        for v in acc.iter_mut().take(ib).skip(ia + 1) {
                            *v += wgt;
                        }
                        if ib < acc.len() {
                            acc[ib] += (b - ib as f32) * wgt;
                        }
                    }
                }
            }
            if lo <= hi {
                for (i, a) in acc.iter_mut().enumerate().take(hi + 1).skip(lo) {
                    if *a > 0.0 {
                        let cov = a.min(1.0);
                        *a = 0.0;
                        // Inline blend: `self` is borrowed by `acc`'s owner only via the local.
                        Self::blend_into(&mut self.img, px0 + i as i32, py, c, cov);
                    }
                }
            }
        }
        self.acc = acc;
        self.xs = xs;
    }

    /// Points of a circle (enough segments to look round at this size).
    pub fn circle_points(cx: f32, cy: f32, r: f32) -> Vec<(f32, f32)> {
        let n = ((r * 1.6) as usize).clamp(16, 96);
        (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                (cx + r * a.cos(), cy + r * a.sin())
            })
            .collect()
    }

    /// An anti-aliased filled circle (coverage from the distance to the centre).
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, c: Colour) {
        if r <= 0.0 || !finite(cx) || !finite(cy) || !finite(r) {
            return;
        }
        let (w, h) = (self.img.width() as i32, self.img.height() as i32);
        let x0 = ((cx - r - 1.0).floor() as i32).max(0);
        let x1 = ((cx + r + 1.0).ceil() as i32).min(w);
        let y0 = ((cy - r - 1.0).floor() as i32).max(0);
        let y1 = ((cy + r + 1.0).ceil() as i32).min(h);
        let inner = (r - 0.75).max(0.0);
        let inner2 = inner * inner;
        let outer2 = (r + 0.75) * (r + 0.75);
        for y in y0..y1 {
            let dy = y as f32 + 0.5 - cy;
            for x in x0..x1 {
                let dx = x as f32 + 0.5 - cx;
                let d2 = dx * dx + dy * dy;
                if d2 <= inner2 {
                    Self::blend_into(&mut self.img, x, y, c, 1.0);
                } else if d2 < outer2 {
                    let cov = (r - d2.sqrt() + 0.5).clamp(0.0, 1.0);
                    Self::blend_into(&mut self.img, x, y, c, cov);
                }
            }
        }
    }

    /// A disc with an outline of `width` pixels.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, fill: Colour, outline: Colour, width: f32) {
        self.circle(cx, cy, r, outline);
        self.circle(cx, cy, (r - width).max(0.0), fill);
    }

    /// An anti-aliased rounded rectangle.
    pub fn round_rect(&mut self, r: Rect, radius: f32, c: Colour) {
        if !(finite(r.x) && finite(r.y) && finite(r.w) && finite(r.h)) || r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        let rad = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
        if rad < 0.5 {
            self.fill_rect(r, c);
            return;
        }
        // Straight parts as rectangles, the four corners as small polygons.
        let (x0, x1) = (r.x.round(), r.right().round());
        let (y0, y1) = (r.y.round(), r.bottom().round());
        let rad = rad.round().max(1.0);
        self.fill_rect(Rect::new(x0, y0 + rad, x1 - x0, y1 - y0 - 2.0 * rad), c);
        self.fill_rect(Rect::new(x0 + rad, y0, x1 - x0 - 2.0 * rad, rad), c);
        self.fill_rect(Rect::new(x0 + rad, y1 - rad, x1 - x0 - 2.0 * rad, rad), c);
        // Corners: quarter discs, coverage by the distance to the corner's centre.
        for (left, top) in [(true, true), (false, true), (false, false), (true, false)] {
            let (ccx, ccy) = (
                if left { x0 + rad } else { x1 - rad },
                if top { y0 + rad } else { y1 - rad },
            );
            let (rx, ry) = (
                if left { x0 } else { x1 - rad },
                if top { y0 } else { y1 - rad },
            );
            for yi in 0..rad as i32 {
                let y = ry + yi as f32;
                let dy = y + 0.5 - ccy;
                for xi in 0..rad as i32 {
                    let x = rx + xi as f32;
                    let dx = x + 0.5 - ccx;
                    let cov = (rad - (dx * dx + dy * dy).sqrt() + 0.5).clamp(0.0, 1.0);
                    if cov > 0.0 {
                        Self::blend_into(&mut self.img, x as i32, y as i32, c, cov);
                    }
                }
            }
        }
    }

    /// A rounded rectangle with an outline.
    pub fn round_box(&mut self, r: Rect, radius: f32, fill: Colour, outline: Colour, width: f32) {
        self.round_rect(r, radius, outline);
        self.round_rect(r.inset(width), (radius - width).max(0.0), fill);
    }

    /// A thick anti-aliased line segment.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Colour) {
        // Axis-aligned lines of whole-pixel width are plain rectangles.
        if width.fract() == 0.0 {
            if a.0 == b.0 {
                let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
                self.fill_rect(Rect::new(a.0 - width / 2.0, y0, width, y1 - y0), c);
                return;
            }
            if a.1 == b.1 {
                let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
                self.fill_rect(Rect::new(x0, a.1 - width / 2.0, x1 - x0, width), c);
                return;
            }
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 0.01 || !finite(len) {
            return;
        }
        let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
        self.polygon(
            &[
                (a.0 + nx, a.1 + ny),
                (b.0 + nx, b.1 + ny),
                (b.0 - nx, b.1 - ny),
                (a.0 - nx, a.1 - ny),
            ],
            c,
        );
    }

    /// A dashed line.
    pub fn dashed(&mut self, a: (f32, f32), b: (f32, f32), width: f32, dash: f32, c: Colour) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 0.01 || !finite(len) || dash <= 0.0 {
            return;
        }
        let n = (len / dash).ceil() as usize;
        for i in (0..n).step_by(2) {
            let t0 = i as f32 * dash / len;
            let t1 = ((i + 1) as f32 * dash / len).min(1.0);
            self.line(
                (a.0 + dx * t0, a.1 + dy * t0),
                (a.0 + dx * t1, a.1 + dy * t1),
                width,
                c,
            );
        }
    }

    fn scale(&self, size: f32, w: Weight) -> PxScale {
        PxScale::from(size * self.fonts.height_per_em[w.index()])
    }

    fn glyph(&self, w: Weight, c: char) -> GlyphId {
        let id = self.fonts.face(w).glyph_id(c);
        if id.0 == 0 {
            self.fonts.face(w).glyph_id('?')
        } else {
            id
        }
    }

    /// Width in pixels of `s` at `size` (em pixels).
    pub fn text_width(&self, size: f32, w: Weight, s: &str) -> f32 {
        let size = size.max(self.min_text);
        let font = self.fonts.face(w).as_scaled(self.scale(size, w));
        let mut width = 0.0;
        let mut prev: Option<GlyphId> = None;
        for ch in s.chars() {
            let id = self.glyph(w, ch);
            if let Some(p) = prev {
                width += font.kern(p, id);
            }
            width += font.h_advance(id);
            prev = Some(id);
        }
        width
    }

    /// `s` shortened with "…" to fit `max_w`.
    pub fn fit(&self, size: f32, w: Weight, s: &str, max_w: f32) -> String {
        if self.text_width(size, w, s) <= max_w {
            return s.to_string();
        }
        let chars: Vec<char> = s.chars().collect();
        for n in (0..chars.len()).rev() {
            let candidate: String = chars[..n].iter().collect::<String>() + "…";
            if self.text_width(size, w, &candidate) <= max_w {
                return candidate;
            }
        }
        String::new()
    }

    /// The largest size ≤ `size` (and ≥ the minimum text size) at which `s` fits `max_w`.
    pub fn size_to_fit(&self, size: f32, w: Weight, s: &str, max_w: f32) -> f32 {
        let mut sz = size;
        while sz > self.min_text && self.text_width(sz, w, s) > max_w {
            sz -= 1.0;
        }
        sz.max(self.min_text)
    }

    /// Says what the next text drawn stands for (recorded with it in [`Painter::drawn`]).
    pub fn role(&mut self, role: Role) {
        self.next_role = Some(role);
    }

    /// Gives the most recent drawn text reading `text` the role `role` (for text drawn by a
    /// helper that draws several).
    pub fn tag_last(&mut self, text: &str, role: Role) {
        if let Some(d) = self.drawn.iter_mut().rev().find(|d| d.text == text) {
            d.role = Some(role);
        }
    }

    /// Records that something standing for `role` was drawn at (`x`, `y`) (a marker).
    pub fn mark(&mut self, role: Role, x: f32, y: f32) {
        self.marks.push((role, x, y));
    }

    /// Draws one line of text whose capital letters are vertically centred on `cy`; `x` is the
    /// left edge, centre or right edge by `align`. Returns the drawn width. Sizes below the
    /// layout's minimum are raised to it.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f32,
        cy: f32,
        size: f32,
        w: Weight,
        c: Colour,
        align: Align,
        s: &str,
    ) -> f32 {
        let role = self.next_role.take();
        if !finite(x) || !finite(cy) || s.is_empty() {
            return 0.0;
        }
        let size = size.max(self.min_text);
        self.smallest_text = self.smallest_text.min(size);
        let width = self.text_width(size, w, s);
        let left = match align {
            Align::Left => x,
            Align::Centre => x - width / 2.0,
            Align::Right => x - width,
        };
        self.drawn.push(DrawnText {
            text: s.to_string(),
            x,
            y: cy,
            bounds: Rect::new(left, cy - size / 2.0, width, size),
            size,
            role,
        });
        let baseline = (cy + self.fonts.cap_per_em[w.index()] * size / 2.0).round();
        let scale = self.scale(size, w);
        let font = self.fonts.face(w).as_scaled(scale);
        let mut caret = left;
        let mut prev: Option<GlyphId> = None;
        let key_size = (size * 8.0).round() as u32;
        let mut glyphs = std::mem::take(&mut self.glyphs);
        for ch in s.chars() {
            let id = self.glyph(w, ch);
            if let Some(p) = prev {
                caret += font.kern(p, id);
            }
            let whole = caret.floor();
            let frac = ((caret - whole) * 4.0).floor() as u8;
            let key = (w.index(), id.0, key_size, frac);
            let bitmap = glyphs
                .entry(key)
                .or_insert_with(|| self.fonts.glyph_bitmap(key, id, scale));
            if let Some(g) = bitmap {
                let ox = whole as i32 + g.left;
                let oy = baseline as i32 + g.top;
                for gy in 0..g.h {
                    for gx in 0..g.w {
                        let v = g.coverage[gy * g.w + gx];
                        if v > 0 {
                            self.blend(ox + gx as i32, oy + gy as i32, c, v as f32 / 255.0);
                        }
                    }
                }
            }
            caret += font.h_advance(id);
            prev = Some(id);
        }
        self.glyphs = glyphs;
        width
    }

    /// Text that must fit `max_w`: shrunk down to the minimum size, then shortened with "…".
    #[allow(clippy::too_many_arguments)]
    pub fn text_fit(
        &mut self,
        x: f32,
        cy: f32,
        size: f32,
        w: Weight,
        c: Colour,
        align: Align,
        s: &str,
        max_w: f32,
    ) -> f32 {
        let sz = self.size_to_fit(size, w, s, max_w);
        let fitted = self.fit(sz, w, s, max_w);
        self.text(x, cy, sz, w, c, align, &fitted)
    }

    /// Splits `s` into lines no wider than `max_w` at `size`; words break at spaces and after
    /// hyphens (a single word wider than `max_w` keeps its own line, for `text_fit` to shorten).
    pub fn wrap(&self, size: f32, w: Weight, s: &str, max_w: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in s.split_whitespace().flat_map(|w| w.split_inclusive('-')) {
            let candidate = if line.is_empty() || line.ends_with('-') {
                format!("{line}{word}")
            } else {
                format!("{line} {word}")
            };
            if self.text_width(size, w, &candidate) > max_w && !line.is_empty() {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    /// Encodes the canvas as PNG (indexed colour: see `palette`).
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        super::palette::encode(&self.img)
    }
}
