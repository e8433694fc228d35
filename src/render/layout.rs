//! The drawing layout (`assets/layout.toml`): canvas size, panel rectangles, text sizes and
//! colours. Only picture placement lives here; every game number comes from `GameData`.

use super::error::RenderError;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The layout file built into the binary.
pub const EMBEDDED: &str = include_str!("../../assets/layout.toml");

/// An sRGB colour read from "#RRGGBB".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Colour(pub [u8; 3]);

impl TryFrom<String> for Colour {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let hex = s
            .strip_prefix('#')
            .filter(|h| h.len() == 6 && h.is_ascii())
            .ok_or_else(|| format!("`{s}` is not a #RRGGBB colour"))?;
        let byte = |i: usize| {
            u8::from_str_radix(&hex[i..i + 2], 16)
                .map_err(|_| format!("`{s}` is not a #RRGGBB colour"))
        };
        Ok(Colour([byte(0)?, byte(2)?, byte(4)?]))
    }
}

impl Colour {
    pub const WHITE: Colour = Colour([255, 255, 255]);
    pub const BLACK: Colour = Colour([0, 0, 0]);

    /// Mixes `t` (0..1) of `other` into this colour.
    pub fn mix(self, other: Colour, t: f32) -> Colour {
        let t = t.clamp(0.0, 1.0);
        let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Colour([
            m(self.0[0], other.0[0]),
            m(self.0[1], other.0[1]),
            m(self.0[2], other.0[2]),
        ])
    }

    /// Relative luminance (WCAG).
    pub fn luminance(self) -> f32 {
        let lin = |c: u8| {
            let c = c as f32 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0[0]) + 0.7152 * lin(self.0[1]) + 0.0722 * lin(self.0[2])
    }

    /// Black or white, whichever reads better on this colour.
    pub fn text_on(self) -> Colour {
        let l = self.luminance();
        // Contrast with white vs with black.
        if (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) {
            Colour::WHITE
        } else {
            Colour([20, 20, 20])
        }
    }
}

/// [x, y, width, height] in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(from = "[f32; 4]")]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl From<[f32; 4]> for Rect {
    fn from(r: [f32; 4]) -> Self {
        Rect {
            x: r[0],
            y: r[1],
            w: r[2],
            h: r[3],
        }
    }
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn cx(&self) -> f32 {
        self.x + self.w / 2.0
    }
    pub fn cy(&self) -> f32 {
        self.y + self.h / 2.0
    }
    pub fn inset(&self, d: f32) -> Rect {
        Rect::new(
            self.x + d,
            self.y + d,
            (self.w - 2.0 * d).max(0.0),
            (self.h - 2.0 * d).max(0.0),
        )
    }
    pub fn contains(&self, x: f32, y: f32) -> bool {
        x >= self.x && x < self.right() && y >= self.y && y < self.bottom()
    }
    /// The rectangle below a title row of `h` pixels.
    pub fn below(&self, h: f32) -> Rect {
        Rect::new(self.x, self.y + h, self.w, (self.h - h).max(0.0))
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct CanvasStyle {
    pub width: u32,
    pub min_text_px: f32,
    pub background: Colour,
    pub panel: Colour,
    pub panel_border: Colour,
    pub ink: Colour,
    pub muted: Colour,
    pub faint: Colour,
    pub highlight: Colour,
    pub alert: Colour,
    pub positive: Colour,
    pub coin: Colour,
    pub coin_rim: Colour,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct TextSizes {
    pub small: f32,
    pub body: f32,
    pub label: f32,
    pub big: f32,
    pub huge: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Diamond,
    Star,
    Triangle,
    Circle,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SeatStyle {
    pub shape: Shape,
    pub colour: Colour,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ChipStyle {
    pub colour: Colour,
    pub label: String,
    pub short: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct IconStyle {
    pub colour: Colour,
    pub word: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Icons {
    pub coins: IconStyle,
    pub track: IconStyle,
    pub tank: IconStyle,
    pub research: IconStyle,
    pub points: IconStyle,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Panel {
    pub rect: Rect,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub gap: f32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Placement {
    pub badge: [f32; 2],
    pub icon: [f32; 2],
    pub token: [f32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct MoonLayout {
    pub origin: [f32; 2],
    pub cell_px: f32,
    pub station_depth_px: f32,
    pub sector_fill: Colour,
    pub sector_fill_alt: Colour,
    pub border: Colour,
    pub single_line_px: f32,
    pub double_line_px: f32,
    pub badge_radius: f32,
    pub icon_px: f32,
    pub token_px: f32,
    pub placements: Vec<Placement>,
    pub station_column_px: f32,
    pub station_gap_px: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TracksLayout {
    pub rect: Rect,
    pub label_px: f32,
    pub gap: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ResearchLayout {
    pub rect: Rect,
    pub title: String,
    pub hex_px: f32,
    pub supply_px: f32,
    pub gap: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BeltLayout {
    pub asteroid_px: f32,
    pub shuttle_px: f32,
    pub path: Colour,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BoardLayout {
    pub height: u32,
    pub header: Panel,
    pub moon: MoonLayout,
    pub cards: Panel,
    pub bonus: Panel,
    pub tracks: TracksLayout,
    pub research: ResearchLayout,
    pub rounds: Panel,
    pub belt: BeltLayout,
    /// The mission cards strip below the board (only when the module is in play).
    pub missions: Panel,
    /// The majority spaces' reward tiers, below the board.
    pub tiers: Strip,
    /// The threat card's requirement and consequence, below that (only with a threat card).
    pub threat: Strip,
    /// The final scores below everything else (only once the game is over).
    pub scores: ScoresLayout,
}

/// A full-width strip below the board: its title, left edge, width and height (the top follows
/// what is above it).
#[derive(Debug, Clone, Deserialize)]
pub struct Strip {
    pub title: String,
    pub x: f32,
    pub w: f32,
    pub h: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ScoresLayout {
    pub title: String,
    /// Left edge and width; the top follows what is above it.
    pub x: f32,
    pub w: f32,
    pub title_px: f32,
    pub head_px: f32,
    pub row_px: f32,
    pub name_px: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CardPanel {
    pub rect: Rect,
    pub card: [f32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct RestingPanel {
    pub rect: Rect,
    pub chip_px: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ResearchTrackPanel {
    pub rect: Rect,
    pub per_row: usize,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PlayerLayout {
    pub height: u32,
    pub private_height: u32,
    pub header: Panel,
    pub slots: CardPanel,
    pub resting: RestingPanel,
    pub tank: Panel,
    pub research: ResearchTrackPanel,
    pub footer: Panel,
    pub hand: CardPanel,
}

/// Everything `assets/layout.toml` holds.
#[derive(Debug, Clone, Deserialize)]
pub struct Layout {
    pub schema_version: u32,
    pub canvas: CanvasStyle,
    pub text: TextSizes,
    pub company_colours: BTreeMap<String, Colour>,
    pub seat_styles: BTreeMap<String, SeatStyle>,
    pub card_styles: BTreeMap<String, ChipStyle>,
    pub icons: Icons,
    pub bonus_labels: BTreeMap<String, String>,
    pub board: BoardLayout,
    pub player: PlayerLayout,
}

impl Layout {
    /// The layout built into the binary.
    pub fn embedded() -> Result<Layout, RenderError> {
        Layout::parse(EMBEDDED)
    }

    /// Parses and checks a layout file.
    pub fn parse(text: &str) -> Result<Layout, RenderError> {
        let layout: Layout = toml::from_str(text).map_err(|e| RenderError::Layout {
            message: e.to_string().trim().replace('\n', " "),
        })?;
        layout.check()?;
        Ok(layout)
    }

    fn check(&self) -> Result<(), RenderError> {
        let bad = |message: String| Err(RenderError::Layout { message });
        if self.schema_version != 1 {
            return bad(format!(
                "schema_version {} is not supported",
                self.schema_version
            ));
        }
        let t = &self.text;
        let min = self.canvas.min_text_px;
        for (name, size) in [
            ("small", t.small),
            ("body", t.body),
            ("label", t.label),
            ("big", t.big),
            ("huge", t.huge),
        ] {
            if size < min {
                return bad(format!(
                    "[text] {name} = {size} is below min_text_px = {min}"
                ));
            }
        }
        if self.board.moon.placements.is_empty() {
            return bad("[board.moon] placements is empty".to_string());
        }
        if self.board.moon.cell_px <= 0.0 || self.board.moon.station_depth_px <= 0.0 {
            return bad("[board.moon] cell_px and station_depth_px must be positive".to_string());
        }
        if self.player.research.per_row == 0 {
            return bad("[player.research] per_row must be at least 1".to_string());
        }
        if self.seat_styles.is_empty() {
            return bad("[seat_styles] is empty".to_string());
        }
        Ok(())
    }

    /// Style of player colour `id` (starting-cards.toml), or the first style as a fallback.
    pub fn seat_style(&self, id: &str) -> Option<&SeatStyle> {
        self.seat_styles
            .get(id)
            .or_else(|| self.seat_styles.values().next())
    }

    /// Colour of a company colour name (moon.toml), neutral grey when unknown.
    pub fn company_colour(&self, name: &str) -> Colour {
        self.company_colours
            .get(name)
            .copied()
            .unwrap_or(Colour([128, 128, 128]))
    }

    /// Style of a card type / resource id, neutral when unknown.
    pub fn card_style(&self, id: &str) -> ChipStyle {
        self.card_styles.get(id).cloned().unwrap_or(ChipStyle {
            colour: Colour([128, 128, 128]),
            label: id.to_string(),
            short: id.chars().take(2).collect(),
        })
    }

    pub fn bonus_label<'a>(&'a self, id: &'a str) -> &'a str {
        self.bonus_labels.get(id).map(String::as_str).unwrap_or(id)
    }
}
