//! Board snapshots: the game state rendered to PNG for the chat, with a text summary for alt
//! text and text-only status.
//!
//! Everything is drawn with `image` + `imageproc`-style primitives and `ab_glyph` text from the
//! DejaVu fonts built into the binary (no system fonts, no network). Images are 1100 px wide so
//! that at Discord's ~550 px preview no text is smaller than 9 px. Geometry comes from the
//! data (`moon.toml`, `belt.toml`, `board.toml`, `tracks.toml`, `player-board.toml`) and from
//! `assets/layout.toml` (placement and colours only).
//!
//! The drawers (`board` with `moon`, `belt`, `tracks`, `notes`, `missions`, `scores`; `player`
//! and `luna` around `seat_frame`) draw with the leaves below them: `widgets` (shared pieces),
//! `icons` (the picture vocabulary), `paint` (the canvas), `geometry` and `layout`; no drawer
//! imports another drawer that imports it back.
//!
//! Public entry points take the engine's [`SeatView`]: [`board_png`], [`player_png`] and
//! [`summary_text`]. Public images are drawn from a copy of the view with every private field
//! removed, so hidden information cannot leak into their pixels. A [`Renderer`] holds the fonts,
//! the layout and an LRU cache keyed by a hash of what is drawn: an identical state is not
//! rendered twice.

mod belt;
mod board;
mod cache;
pub mod cli;
mod error;
pub mod geometry;
mod icons;
pub mod layout;
mod luna;
mod missions;
mod moon;
mod notes;
mod paint;
mod palette;
mod player;
mod scores;
mod seat_frame;
mod summary;
mod tracks;
mod widgets;

/// What the test binaries reach below this module's public face (`test-support` only).
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub mod testing;

pub use error::RenderError;
pub use layout::Layout;
pub use paint::{DrawnText, Role};

use cache::{Key, Lru};

use crate::data::{BoardSide, GameData};
use crate::engine::view::{SeatView, SlotView};
use crate::engine::GameState;
use crate::text::{self, Texts};
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// What one image draws (see [`Renderer::drawn_in`]).
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The image's width in pixels (text sizes scale with it when the image is shown smaller).
    pub width: u32,
    pub height: u32,
    pub texts: Vec<DrawnText>,
    pub marks: Vec<(Role, f32, f32)>,
}

/// What the board and each seat's player image draw.
#[derive(Debug, Clone)]
pub struct DrawnImages {
    pub board: Drawn,
    pub players: Vec<Drawn>,
}

/// How many renders and cache hits a renderer has seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderStats {
    pub renders: u64,
    pub cache_hits: u64,
}

/// What an image shows (part of the cache key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Board(BoardSide),
    Player { seat: usize, private: bool },
}

/// Fonts, layout and the image cache. Share one per process (it is `Sync`).
pub struct Renderer {
    fonts: paint::Fonts,
    layout: Layout,
    cache: Mutex<Lru>,
    renders: AtomicU64,
    hits: AtomicU64,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("stats", &self.stats())
            .finish()
    }
}

/// A copy of the view with everything private removed: no own hand, planned cards face down.
pub fn public_view(view: &SeatView) -> SeatView {
    let mut v = view.clone();
    v.own = None;
    for s in &mut v.seats {
        for slot in &mut s.slots {
            if let SlotView::OwnPlanned(_) = slot {
                *slot = SlotView::Hidden;
            }
        }
    }
    v
}

impl Renderer {
    /// The cache keeps at most this many bytes of PNG (a handful of images: the bot keeps the
    /// public board of every stored state in the database, and private images are cheap to
    /// draw again, so a large cache only holds memory).
    pub const CACHE_BYTES: usize = 4 * 1024 * 1024;

    /// A renderer with the built-in layout.
    pub fn new() -> Result<Renderer, RenderError> {
        Renderer::with_layout(Layout::embedded()?)
    }

    pub fn with_layout(layout: Layout) -> Result<Renderer, RenderError> {
        Ok(Renderer {
            fonts: paint::Fonts::load()?,
            layout,
            cache: Mutex::new(Lru::new(Self::CACHE_BYTES)),
            renders: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        })
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn stats(&self) -> RenderStats {
        RenderStats {
            renders: self.renders.load(Ordering::Relaxed),
            cache_hits: self.hits.load(Ordering::Relaxed),
        }
    }

    fn painter(&self, height: u32) -> paint::Painter<'_> {
        paint::Painter::new(
            self.layout.canvas.width,
            height,
            self.layout.canvas.background,
            &self.fonts,
            self.layout.canvas.min_text_px,
        )
    }

    fn key(
        data: &GameData,
        kind: Kind,
        view: &SeatView,
        texts: &Texts,
    ) -> Result<Key, RenderError> {
        let mut h = Sha256::new();
        h.update(data.hash.as_bytes());
        h.update(format!("{kind:?} {}", texts.code).as_bytes());
        h.update(serde_json::to_vec(view).map_err(|e| RenderError::Hash(e.to_string()))?);
        Ok(h.finalize().into())
    }

    fn cached(
        &self,
        key: Key,
        draw: impl FnOnce() -> Result<Vec<u8>, RenderError>,
    ) -> Result<Vec<u8>, RenderError> {
        if let Ok(mut c) = self.cache.lock() {
            if let Some(png) = c.get(&key) {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(png.as_ref().clone());
            }
        }
        let png = draw()?;
        self.renders.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut c) = self.cache.lock() {
            c.put(key, Arc::new(png.clone()));
        }
        Ok(png)
    }

    /// The main board (Moon side) as raw pixels, without the cache.
    pub fn board_image(
        &self,
        data: &GameData,
        view: &SeatView,
        side: BoardSide,
    ) -> image::RgbImage {
        let view = public_view(view);
        self.draw_board(data, &view, side, text::english()).img
    }

    fn draw_board(
        &self,
        data: &GameData,
        view: &SeatView,
        side: BoardSide,
        texts: &Texts,
    ) -> paint::Painter<'_> {
        let ctx = icons::Ctx {
            data,
            layout: &self.layout,
            texts,
        };
        // The strips below the board are as tall as their text needs: measured first.
        let below = board::below(&self.painter(1), &ctx, view);
        let mut p = self.painter(below.height);
        board::draw(&mut p, &ctx, view, side, &below);
        p
    }

    /// Draws and encodes the main board every time, bypassing the cache (benchmarks).
    pub fn board_png_uncached(
        &self,
        data: &GameData,
        view: &SeatView,
        side: BoardSide,
    ) -> Result<Vec<u8>, RenderError> {
        let view = public_view(view);
        self.renders.fetch_add(1, Ordering::Relaxed);
        self.draw_board(data, &view, side, text::english()).png()
    }

    /// The main board as PNG, on the side the view is played on (the Belt when it has Belt
    /// state, the Moon otherwise).
    pub fn board_png(&self, data: &GameData, view: &SeatView) -> Result<Vec<u8>, RenderError> {
        self.board_png_on(data, view, side_of(view))
    }

    /// The main board as PNG with its labels in the language of `texts`.
    pub fn board_png_in(
        &self,
        data: &GameData,
        view: &SeatView,
        texts: &Texts,
    ) -> Result<Vec<u8>, RenderError> {
        self.board_png_on_in(data, view, side_of(view), texts)
    }

    /// The main board as PNG on either side of the board.
    pub fn board_png_on(
        &self,
        data: &GameData,
        view: &SeatView,
        side: BoardSide,
    ) -> Result<Vec<u8>, RenderError> {
        self.board_png_on_in(data, view, side, text::english())
    }

    /// The main board as PNG on either side, with labels in the language of `texts`.
    pub fn board_png_on_in(
        &self,
        data: &GameData,
        view: &SeatView,
        side: BoardSide,
        texts: &Texts,
    ) -> Result<Vec<u8>, RenderError> {
        let view = public_view(view);
        let key = Self::key(data, Kind::Board(side), &view, texts)?;
        self.cached(key, || self.draw_board(data, &view, side, texts).png())
    }

    /// The main board for a state, on the side the game is played on.
    pub fn board_png_for_state(
        &self,
        data: &GameData,
        state: &GameState,
    ) -> Result<Vec<u8>, RenderError> {
        let view = crate::engine::view(data, state, None);
        let side = match state.options.board {
            crate::engine::BoardSide::Moon => BoardSide::Moon,
            crate::engine::BoardSide::Belt => BoardSide::Belt,
        };
        self.board_png_on(data, &view, side)
    }

    /// What a player image may show: the public view, or the owner's own view for `private`.
    fn player_view(view: &SeatView, seat: usize, private: bool) -> Result<SeatView, RenderError> {
        if seat >= view.seats.len() {
            return Err(RenderError::NoSuchSeat(seat));
        }
        if private {
            if view.own.as_ref().map(|o| o.seat) != Some(seat) {
                return Err(RenderError::NotOwnView { seat });
            }
            Ok(view.clone())
        } else {
            Ok(public_view(view))
        }
    }

    fn draw_player(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
        texts: &Texts,
    ) -> paint::Painter<'_> {
        let height = if private {
            self.layout.player.private_height
        } else {
            self.layout.player.height
        };
        let mut p = self.painter(height);
        let ctx = icons::Ctx {
            data,
            layout: &self.layout,
            texts,
        };
        player::draw(&mut p, &ctx, view, seat, private);
        p
    }

    /// A player board as raw pixels, without the cache.
    pub fn player_image(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
    ) -> Result<image::RgbImage, RenderError> {
        let view = Self::player_view(view, seat, private)?;
        Ok(self
            .draw_player(data, &view, seat, private, text::english())
            .img)
    }

    /// A player board as PNG: public (anyone may see it) or private (the owner's, with the hand
    /// and the planned cards; needs the owner's own view).
    pub fn player_png(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
    ) -> Result<Vec<u8>, RenderError> {
        self.player_png_in(data, view, seat, private, text::english())
    }

    /// A player board as PNG with its labels in the language of `texts`.
    pub fn player_png_in(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
        texts: &Texts,
    ) -> Result<Vec<u8>, RenderError> {
        let view = Self::player_view(view, seat, private)?;
        let key = Self::key(data, Kind::Player { seat, private }, &view, texts)?;
        self.cached(key, || {
            self.draw_player(data, &view, seat, private, texts).png()
        })
    }

    /// The smallest text size (em pixels) the board and a player image of this view use.
    pub fn smallest_text(&self, data: &GameData, view: &SeatView) -> f32 {
        self.smallest_text_in(data, view, text::english())
    }

    /// The smallest text size of the board and a player image with labels in `texts`.
    pub fn smallest_text_in(&self, data: &GameData, view: &SeatView, texts: &Texts) -> f32 {
        let view = public_view(view);
        let b = self
            .draw_board(data, &view, BoardSide::Moon, texts)
            .smallest_text;
        let p = self.draw_player(data, &view, 0, false, texts).smallest_text;
        b.min(p)
    }

    /// Every line of text the board and the seats' player images (the owner's private one for
    /// the viewing seat) draw with labels in `texts`.
    pub fn drawn_text_in(&self, data: &GameData, view: &SeatView, texts: &Texts) -> Vec<String> {
        let drawn = self.drawn_in(data, view, texts);
        std::iter::once(&drawn.board)
            .chain(&drawn.players)
            .flat_map(|d| d.texts.iter().map(|t| t.text.clone()))
            .collect()
    }

    /// What the board (on the side the view is played on) and every seat's player image (the
    /// owner's private one for the viewing seat) draw: each text with its place, size and role,
    /// and the marks (tests compare these numbers with the text of the same state).
    pub fn drawn_in(&self, data: &GameData, view: &SeatView, texts: &Texts) -> DrawnImages {
        let public = public_view(view);
        let drawn = |p: paint::Painter<'_>| Drawn {
            width: p.img.width(),
            height: p.img.height(),
            texts: p.drawn,
            marks: p.marks,
        };
        let board = drawn(self.draw_board(data, &public, side_of(view), texts));
        let players = (0..view.seats.len())
            .map(|seat| {
                let private = view.own.as_ref().is_some_and(|o| o.seat == seat);
                let seat_view = if private { view } else { &public };
                drawn(self.draw_player(data, seat_view, seat, private, texts))
            })
            .collect();
        DrawnImages { board, players }
    }

    /// Alt text / text-only status of the main board (English).
    pub fn summary_text(&self, data: &GameData, view: &SeatView) -> String {
        self.summary_text_in(data, view, text::english())
    }

    /// Alt text / text-only status of the main board in the language of `texts`.
    pub fn summary_text_in(&self, data: &GameData, view: &SeatView, texts: &Texts) -> String {
        summary::board_summary(data, &self.layout, &public_view(view), texts)
    }

    /// Alt text of a player image: public, or the owner's (with the hand) for `private`, which
    /// needs the owner's own view (English).
    pub fn player_summary_text(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
    ) -> Result<String, RenderError> {
        self.player_summary_text_in(data, view, seat, private, text::english())
    }

    /// Alt text of a player image in the language of `texts`.
    pub fn player_summary_text_in(
        &self,
        data: &GameData,
        view: &SeatView,
        seat: usize,
        private: bool,
        texts: &Texts,
    ) -> Result<String, RenderError> {
        let view = Self::player_view(view, seat, private)?;
        Ok(summary::player_summary(
            data,
            &self.layout,
            &view,
            seat,
            private,
            texts,
        ))
    }
}

/// The board side a view is played on.
pub fn side_of(view: &SeatView) -> BoardSide {
    if view.belt.is_some() {
        BoardSide::Belt
    } else {
        BoardSide::Moon
    }
}

/// The process-wide renderer behind the free functions.
pub fn shared() -> Result<&'static Renderer, RenderError> {
    static SHARED: OnceLock<Result<Renderer, RenderError>> = OnceLock::new();
    SHARED
        .get_or_init(Renderer::new)
        .as_ref()
        .map_err(Clone::clone)
}

/// The main board as PNG (public information only).
pub fn board_png(data: &GameData, view: &SeatView) -> Result<Vec<u8>, RenderError> {
    shared()?.board_png(data, view)
}

/// The main board as PNG with labels in the language of `texts`.
pub fn board_png_in(
    data: &GameData,
    view: &SeatView,
    texts: &Texts,
) -> Result<Vec<u8>, RenderError> {
    shared()?.board_png_in(data, view, texts)
}

/// A player board as PNG with labels in the language of `texts`.
pub fn player_png_in(
    data: &GameData,
    view: &SeatView,
    seat: usize,
    private: bool,
    texts: &Texts,
) -> Result<Vec<u8>, RenderError> {
    shared()?.player_png_in(data, view, seat, private, texts)
}

/// A player board as PNG; `private` needs the owner's own view.
pub fn player_png(
    data: &GameData,
    view: &SeatView,
    seat: usize,
    private: bool,
) -> Result<Vec<u8>, RenderError> {
    shared()?.player_png(data, view, seat, private)
}

/// The text summary that accompanies the board image (public information only), in English.
pub fn summary_text(data: &GameData, view: &SeatView) -> String {
    summary_text_in(data, view, text::english())
}

/// The text summary that accompanies the board image, in the language of `texts`.
pub fn summary_text_in(data: &GameData, view: &SeatView, texts: &Texts) -> String {
    match shared() {
        Ok(r) => r.summary_text_in(data, view, texts),
        Err(_) => match Layout::embedded() {
            Ok(l) => summary::board_summary(data, &l, &public_view(view), texts),
            Err(e) => format!("(no summary: {e})"),
        },
    }
}
