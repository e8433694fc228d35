//! The picture vocabulary shared by the board and player images: seat symbols drawn as shapes,
//! company chips with letters, coins, the four structure/reward icons, cards, research plans and
//! requirement/reward rows. Names, numbers and colours come from `GameData` and the layout.

use super::layout::{Colour, Layout, Rect, Shape};
use super::paint::{Align, Painter, Weight};
use crate::data::cards::{CardDef, CardKind, CardOrigin};
use crate::data::{CardId, Company, GameData, Requirement, Reward, Structure};
use crate::text::Texts;

/// What every drawing function needs: the data, the layout and the language of the labels.
pub struct Ctx<'a> {
    pub data: &'a GameData,
    pub layout: &'a Layout,
    pub texts: &'a Texts,
}

impl<'a> Ctx<'a> {
    /// An image label (`image.*` in the catalog) in the image's language.
    pub fn t(&self, key: &str) -> String {
        self.texts.t(key)
    }

    /// An image label with arguments.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        self.texts.f(key, args)
    }

    /// A word layout.toml gives in English (chip labels, legend words, bonus space labels), in
    /// the image's language: the catalog's `key` where it has one, else the layout's own word.
    pub fn layout_word(&self, key: &str, english: &str) -> String {
        self.texts
            .resolve(&crate::text::name_ref(key, &[], english))
    }

    /// The chip style of a card type or resource, its label and short label in the image's
    /// language (`image.chip.<id>`, `image.chip_short.<id>`).
    pub fn card_style(&self, id: &str) -> super::layout::ChipStyle {
        let mut style = self.layout.card_style(id);
        style.label = self.layout_word(&format!("image.chip.{id}"), &style.label);
        style.short = self.layout_word(&format!("image.chip_short.{id}"), &style.short);
        style
    }

    /// The short label of a bonus space (`image.bonus.<id>`).
    pub fn bonus_label(&self, id: &str) -> String {
        self.layout_word(&format!("image.bonus.{id}"), self.layout.bonus_label(id))
    }

    /// A panel title from the layout, in the image's language when the catalog has
    /// `image.title.<title>` (e.g. `image.title.bonus_spaces`).
    pub fn title(&self, title: &str) -> String {
        let key = format!("image.title.{}", title.to_lowercase().replace(' ', "_"));
        if self.texts.has(&key) {
            self.texts.t(&key)
        } else {
            title.to_string()
        }
    }

    pub fn ink(&self) -> Colour {
        self.layout.canvas.ink
    }
    pub fn muted(&self) -> Colour {
        self.layout.canvas.muted
    }
    pub fn panel(&self) -> Colour {
        self.layout.canvas.panel
    }
    pub fn text(&self) -> super::layout::TextSizes {
        self.layout.text
    }

    pub fn company_colour(&self, c: Company) -> Colour {
        let name = self
            .data
            .moon
            .company(c)
            .map(|e| e.colour.as_str())
            .unwrap_or("");
        self.layout.company_colour(name)
    }

    /// The company's letter: the first letter of its name.
    pub fn company_letter(&self, c: Company) -> String {
        self.data
            .company_name(c)
            .chars()
            .next()
            .map(|ch| ch.to_uppercase().collect())
            .unwrap_or_else(|| "?".to_string())
    }

    /// The company's short name: the first word of its name.
    pub fn company_short(&self, c: Company) -> &str {
        let name = self.data.company_name(c);
        name.split_whitespace().next().unwrap_or(name)
    }

    /// Seat style by player colour index.
    pub fn seat_style(&self, colour: usize) -> (Shape, Colour) {
        let id = self
            .data
            .starting_cards
            .colours
            .get(colour)
            .map(|c| c.id.as_str())
            .unwrap_or("");
        self.layout
            .seat_style(id)
            .map(|s| (s.shape, s.colour))
            .unwrap_or((Shape::Circle, Colour([128, 128, 128])))
    }

    /// The seat's symbol character (as printed in the data), for text.
    pub fn seat_icon(&self, colour: usize) -> &str {
        self.data
            .starting_cards
            .colours
            .get(colour)
            .map(|c| c.icon.as_str())
            .unwrap_or("?")
    }

    pub fn rounds(&self) -> usize {
        self.data.board.round_track.spaces.len()
    }

    pub fn card_type_id(def: &CardDef) -> &'static str {
        match def.kind {
            CardKind::Resource { resource } => resource.id(),
            CardKind::Energy => "energy",
            CardKind::ResearchScientist => "research_scientist",
            CardKind::FieldScientist { .. } => "field_scientist",
            CardKind::SingleShare => "single_share",
        }
    }
}

/// A seat marker: the seat's shape in its colour with a dark outline.
pub fn seat_marker(p: &mut Painter, ctx: &Ctx, colour: usize, cx: f32, cy: f32, size: f32) {
    let (shape, fill) = ctx.seat_style(colour);
    shape_marker(p, shape, fill, ctx.ink(), cx, cy, size);
}

pub fn shape_points(shape: Shape, cx: f32, cy: f32, r: f32) -> Vec<(f32, f32)> {
    use std::f32::consts::PI;
    match shape {
        Shape::Diamond => vec![
            (cx, cy - r),
            (cx + r * 0.78, cy),
            (cx, cy + r),
            (cx - r * 0.78, cy),
        ],
        Shape::Star => (0..10)
            .map(|i| {
                let a = -PI / 2.0 + i as f32 * PI / 5.0;
                let rr = if i % 2 == 0 { r * 1.08 } else { r * 0.46 };
                (cx + rr * a.cos(), cy + 0.06 * r + rr * a.sin())
            })
            .collect(),
        Shape::Triangle => vec![
            (cx, cy - r),
            (cx + r * 0.98, cy + r * 0.72),
            (cx - r * 0.98, cy + r * 0.72),
        ],
        Shape::Circle => Painter::circle_points(cx, cy, r * 0.9),
    }
}

fn grow(pts: &[(f32, f32)], cx: f32, cy: f32, d: f32) -> Vec<(f32, f32)> {
    pts.iter()
        .map(|&(x, y)| {
            let (dx, dy) = (x - cx, y - cy);
            let len = (dx * dx + dy * dy).sqrt().max(0.01);
            (x + dx / len * d, y + dy / len * d)
        })
        .collect()
}

/// A seat shape of `size` pixels (outer diameter) with an outline.
pub fn shape_marker(
    p: &mut Painter,
    shape: Shape,
    fill: Colour,
    outline: Colour,
    cx: f32,
    cy: f32,
    size: f32,
) {
    let r = size / 2.0;
    let stroke = (size / 12.0).clamp(1.5, 3.0);
    let inner = shape_points(shape, cx, cy, r - stroke);
    let outer = match shape {
        // Star tips and triangle corners need more growth to keep an even outline.
        Shape::Star => grow(&inner, cx, cy + 0.06 * r, stroke * 1.9),
        Shape::Triangle => grow(&inner, cx, cy, stroke * 1.9),
        _ => grow(&inner, cx, cy, stroke),
    };
    p.polygon(&outer, outline);
    p.polygon(&inner, fill);
    if shape == Shape::Circle {
        // ○: a ring, not a dot.
        let hole = (r - stroke) * 0.42;
        p.circle(cx, cy, hole + stroke * 0.8, outline);
        p.circle(cx, cy, hole, Colour::WHITE);
    }
}

/// A company chip: a rounded square in the company colour with its letter.
pub fn company_chip(p: &mut Painter, ctx: &Ctx, c: Company, cx: f32, cy: f32, size: f32) {
    let colour = ctx.company_colour(c);
    let r = Rect::new(cx - size / 2.0, cy - size / 2.0, size, size);
    p.round_box(r, size * 0.2, colour, ctx.ink(), 1.5);
    let letter = ctx.company_letter(c);
    p.text(
        cx,
        cy,
        (size * 0.72).max(ctx.text().small),
        Weight::Bold,
        colour.text_on(),
        Align::Centre,
        &letter,
    );
}

/// An outpost token: a little house in the company colour with the company letter.
pub fn outpost_token(p: &mut Painter, ctx: &Ctx, c: Company, cx: f32, cy: f32, size: f32) {
    let colour = ctx.company_colour(c);
    let h = size / 2.0;
    let house = |d: f32| {
        vec![
            (cx, cy - h - d),
            (cx + h + d, cy - h * 0.2 - d * 0.5),
            (cx + h + d, cy + h + d),
            (cx - h - d, cy + h + d),
            (cx - h - d, cy - h * 0.2 - d * 0.5),
        ]
    };
    p.polygon(&house(1.5), ctx.ink());
    p.polygon(&house(0.0), colour);
    p.text(
        cx,
        cy + h * 0.22,
        ctx.text().small,
        Weight::Bold,
        colour.text_on(),
        Align::Centre,
        &ctx.company_letter(c),
    );
}

/// A coin with a number (or text) on it.
pub fn coin(p: &mut Painter, ctx: &Ctx, cx: f32, cy: f32, r: f32, label: &str) {
    let c = &ctx.layout.canvas;
    p.disc(cx, cy, r, c.coin, c.coin_rim, (r / 7.0).max(1.5));
    if !label.is_empty() {
        let size = p.size_to_fit(ctx.text().small.max(r * 1.05), Weight::Bold, label, r * 1.9);
        p.text(cx, cy, size, Weight::Bold, ctx.ink(), Align::Centre, label);
    }
}

/// The icons for structures and rewards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Icon {
    Coins,
    Track,
    Tank,
    Research,
    Points,
}

/// One of the four structure/reward icons, `size` pixels tall, with a label inside.
pub fn icon(p: &mut Painter, ctx: &Ctx, kind: Icon, cx: f32, cy: f32, size: f32, label: &str) {
    let h = size / 2.0;
    let ink = ctx.ink();
    let style = match kind {
        Icon::Coins => &ctx.layout.icons.coins,
        Icon::Track => &ctx.layout.icons.track,
        Icon::Tank => &ctx.layout.icons.tank,
        Icon::Research => &ctx.layout.icons.research,
        Icon::Points => &ctx.layout.icons.points,
    };
    let text_w = if label.is_empty() {
        0.0
    } else {
        p.text_width(ctx.text().small, Weight::Bold, label)
    };
    // Wide enough for the label.
    let hw = (text_w / 2.0 + 4.0).max(h);
    match kind {
        Icon::Coins => {
            coin(p, ctx, cx, cy, hw.max(h), label);
            return;
        }
        Icon::Track => {
            // An arrow pointing right.
            let tip = h * 0.7;
            let pts = |d: f32| {
                vec![
                    (cx - hw - d, cy - h - d),
                    (cx + hw - tip * 0.3 + d * 0.4, cy - h - d),
                    (cx + hw + tip * 0.7 + d, cy),
                    (cx + hw - tip * 0.3 + d * 0.4, cy + h + d),
                    (cx - hw - d, cy + h + d),
                ]
            };
            p.polygon(&pts(1.5), ink);
            p.polygon(&pts(0.0), style.colour);
        }
        Icon::Tank => {
            let r = Rect::new(cx - hw, cy - h, hw * 2.0, size);
            p.round_box(r.inset(-1.5), h + 1.5, ink, ink, 0.0);
            p.round_rect(r, h, style.colour);
        }
        Icon::Research => {
            let k = h * 0.5;
            let pts = |d: f32| {
                vec![
                    (cx - hw - k * 0.6 - d, cy),
                    (cx - hw + k * 0.4, cy - h - d),
                    (cx + hw - k * 0.4, cy - h - d),
                    (cx + hw + k * 0.6 + d, cy),
                    (cx + hw - k * 0.4, cy + h + d),
                    (cx - hw + k * 0.4, cy + h + d),
                ]
            };
            p.polygon(&pts(1.5), ink);
            p.polygon(&pts(0.0), style.colour);
        }
        Icon::Points => {
            let r = Rect::new(cx - hw, cy - h, hw * 2.0, size);
            p.round_box(r, 4.0, style.colour, ink, 1.5);
        }
    }
    if !label.is_empty() {
        p.text(
            cx,
            cy,
            ctx.text().small,
            Weight::Bold,
            style.colour.text_on(),
            Align::Centre,
            label,
        );
    }
}

/// Width an icon with this label takes.
pub fn icon_width(p: &Painter, ctx: &Ctx, kind: Icon, size: f32, label: &str) -> f32 {
    let text_w = if label.is_empty() {
        0.0
    } else {
        p.text_width(ctx.text().small, Weight::Bold, label)
    };
    let hw = (text_w / 2.0 + 4.0).max(size / 2.0);
    match kind {
        Icon::Track => hw * 2.0 + size * 0.35 + 3.0,
        Icon::Research => hw * 2.0 + size * 0.3 + 3.0,
        _ => hw * 2.0 + 3.0,
    }
}

/// The icon for a structure.
pub fn structure_icon(s: &Structure) -> (Icon, u32) {
    match *s {
        Structure::DeepMine { n } => (Icon::Coins, n),
        Structure::StripMine { n } => (Icon::Track, n),
        Structure::GasCollector { n } => (Icon::Tank, n),
        Structure::ResearchStation { n } => (Icon::Research, n),
    }
}

/// A piece of an inline row of text and icons.
pub enum Piece {
    Text(String, Weight),
    Muted(String),
    Icon(Icon, String),
    Chip(Colour, String),
    /// A chip with less room around its word, where a row must be narrow.
    TightChip(Colour, String),
    Company(Company),
    /// A neutral outpost token.
    Outpost,
    Gap(f32),
}

const ROW_ICON: f32 = 22.0;

fn piece_width(p: &Painter, ctx: &Ctx, piece: &Piece) -> f32 {
    let small = ctx.text().small;
    match piece {
        Piece::Text(s, w) => p.text_width(small, *w, s),
        Piece::Muted(s) => p.text_width(small, Weight::Regular, s),
        Piece::Icon(k, s) => icon_width(p, ctx, *k, ROW_ICON, s),
        Piece::Chip(_, s) => p.text_width(small, Weight::Bold, s) + 10.0,
        Piece::TightChip(_, s) => p.text_width(small, Weight::Bold, s) + 4.0,
        Piece::Company(_) => ROW_ICON + 2.0,
        Piece::Outpost => ROW_ICON,
        Piece::Gap(g) => *g,
    }
}

/// Width of an inline row (with 3 px between pieces).
pub fn row_width(p: &Painter, ctx: &Ctx, pieces: &[Piece]) -> f32 {
    let gaps = pieces.len().saturating_sub(1) as f32 * 3.0;
    pieces.iter().map(|x| piece_width(p, ctx, x)).sum::<f32>() + gaps
}

/// Draws an inline row starting at `x`, centred on `cy`. Returns the width.
pub fn draw_row(p: &mut Painter, ctx: &Ctx, x: f32, cy: f32, pieces: &[Piece]) -> f32 {
    let small = ctx.text().small;
    let mut cx = x;
    for piece in pieces {
        let w = piece_width(p, ctx, piece);
        match piece {
            Piece::Text(s, wt) => {
                p.text(cx, cy, small, *wt, ctx.ink(), Align::Left, s);
            }
            Piece::Muted(s) => {
                p.text(cx, cy, small, Weight::Regular, ctx.muted(), Align::Left, s);
            }
            Piece::Icon(k, s) => {
                let iw = icon_width(p, ctx, *k, ROW_ICON, s);
                let shift = match k {
                    Icon::Track => -ROW_ICON * 0.15,
                    _ => 0.0,
                };
                icon(p, ctx, *k, cx + iw / 2.0 + shift, cy, ROW_ICON, s);
            }
            Piece::Chip(colour, s) | Piece::TightChip(colour, s) => {
                let radius = if matches!(piece, Piece::Chip(..)) {
                    5.0
                } else {
                    3.0
                };
                let r = Rect::new(cx, cy - ROW_ICON / 2.0, w, ROW_ICON);
                p.round_box(r, radius, *colour, ctx.ink(), 1.2);
                p.text(
                    cx + w / 2.0,
                    cy,
                    small,
                    Weight::Bold,
                    colour.text_on(),
                    Align::Centre,
                    s,
                );
            }
            Piece::Company(c) => company_chip(p, ctx, *c, cx + w / 2.0, cy, ROW_ICON),
            Piece::Outpost => {
                let h = ROW_ICON / 2.0 - 2.0;
                let (x, y) = (cx + w / 2.0, cy);
                let house = |d: f32| {
                    vec![
                        (x, y - h - d),
                        (x + h + d, y - h * 0.2 - d * 0.5),
                        (x + h + d, y + h + d),
                        (x - h - d, y + h + d),
                        (x - h - d, y - h * 0.2 - d * 0.5),
                    ]
                };
                p.polygon(&house(1.5), ctx.ink());
                p.polygon(&house(0.0), Colour([0xB0, 0xAA, 0x9E]));
            }
            Piece::Gap(_) => {}
        }
        cx += w + 3.0;
    }
    cx - x
}

/// What a track bonus gives, in a few pieces, from its effect: a resource chip with the amount
/// for permanent bonuses, an open square and a word for a bonus space.
pub fn unlock_pieces(ctx: &Ctx, bonus: &crate::data::tracks::TrackBonusEntry) -> Vec<Piece> {
    use crate::data::tracks::TrackBonusEffect as E;
    let chip = |style: &str, text: String| {
        let st = ctx.card_style(style);
        vec![
            Piece::Chip(st.colour, st.short),
            Piece::Text(text, Weight::Bold),
        ]
    };
    match &bonus.effect {
        E::EnergyTotalBonus { n } => chip("energy", format!("+{n}")),
        E::ExtraBonusMarkers { n } => {
            vec![Piece::Text(
                ctx.f("image.unlock.markers", &[("n", n)]),
                Weight::Bold,
            )]
        }
        E::DisplayDiscount { n, resource } => chip(resource.id(), format!("-{n}")),
        E::MixedPaymentAndDiscount { n } => {
            vec![Piece::Text(
                ctx.f("image.unlock.mixed", &[("n", n)]),
                Weight::Bold,
            )]
        }
        E::TitaniumCardValueBonus { n } => chip("titanium", format!("+{n}")),
        E::VirtualFieldScientist {
            gas_collector_bonus,
        } => chip("field_scientist", format!("+{gas_collector_bonus}")),
        E::BonusSpace(_) => vec![Piece::Text(
            ctx.layout_word(&format!("image.unlock.{}", bonus.pair), &bonus.pair),
            Weight::Bold,
        )],
    }
}

/// "Units of any one resource type".
fn same_chip(ctx: &Ctx) -> Piece {
    Piece::Chip(Colour([0x8A, 0x8F, 0x99]), ctx.t("image.same"))
}

/// Pieces that show one requirement.
pub fn requirement_pieces(ctx: &Ctx, r: &Requirement, out: &mut Vec<Piece>) {
    let chip = |id: &str| {
        let s = ctx.card_style(id);
        Piece::Chip(s.colour, s.short)
    };
    match r {
        Requirement::Carbon { min } => {
            out.push(Piece::Text(min.to_string(), Weight::Bold));
            out.push(chip("carbon"));
        }
        Requirement::Minerals { min } => {
            out.push(Piece::Text(min.to_string(), Weight::Bold));
            out.push(chip("minerals"));
        }
        Requirement::Titanium { min } => {
            out.push(Piece::Text(min.to_string(), Weight::Bold));
            out.push(chip("titanium"));
        }
        Requirement::Energy { min } => {
            out.push(Piece::Text(min.to_string(), Weight::Bold));
            out.push(chip("energy"));
        }
        Requirement::ResearchScientist { min } => {
            if *min > 1 {
                out.push(Piece::Text(min.to_string(), Weight::Bold));
            }
            out.push(chip("research_scientist"));
        }
        Requirement::FieldScientist { min } => {
            if *min > 1 {
                out.push(Piece::Text(min.to_string(), Weight::Bold));
            }
            out.push(chip("field_scientist"));
        }
        Requirement::EitherScientist { min } => {
            if *min > 1 {
                out.push(Piece::Text(min.to_string(), Weight::Bold));
            }
            out.push(chip("research_scientist"));
            out.push(Piece::Muted("/".to_string()));
            out.push(chip("field_scientist"));
        }
        Requirement::FourOfOneType => {
            out.push(Piece::Text("4".to_string(), Weight::Bold));
            out.push(same_chip(ctx));
        }
        Requirement::ThreeCarbonThreeOfOneType => {
            out.push(Piece::Text("3".to_string(), Weight::Bold));
            out.push(chip("carbon"));
            out.push(Piece::Text("3".to_string(), Weight::Bold));
            out.push(same_chip(ctx));
        }
        Requirement::Pay { n } => out.push(Piece::Icon(Icon::Coins, format!("-{n}"))),
        Requirement::NotFirstPlayerOnFirstTurnOfRound => {}
        Requirement::DiscardFromHand { .. } => {
            out.push(Piece::Muted("sell".to_string()));
        }
    }
}

/// Pieces that show one reward.
pub fn reward_pieces(ctx: &Ctx, r: &Reward, out: &mut Vec<Piece>) {
    match r {
        Reward::Coins { n } => out.push(Piece::Icon(Icon::Coins, n.to_string())),
        Reward::ResearchPoints { n } => out.push(Piece::Icon(Icon::Research, n.to_string())),
        Reward::Tank { n } => out.push(Piece::Icon(Icon::Tank, format!("+{n}"))),
        Reward::TrackOfChoice { n } => out.push(Piece::Icon(Icon::Track, format!("+{n}"))),
        Reward::CompanyTrack { company, n } => {
            out.push(Piece::Company(*company));
            out.push(Piece::Icon(Icon::Track, format!("+{n}")));
        }
        Reward::RemoveOutposts { n } => {
            out.push(Piece::Text(format!("-{n}"), Weight::Bold));
            out.push(Piece::Outpost);
        }
        Reward::TitaniumMinusOne => {
            let s = ctx.card_style("titanium");
            out.push(Piece::Chip(s.colour, s.short));
            out.push(Piece::Text("-1".to_string(), Weight::Bold));
        }
        Reward::TakeFirstPlayerMarker => out.push(Piece::Text("1st".to_string(), Weight::Bold)),
        Reward::BuyDisplayCard { discount } => {
            out.push(Piece::Muted("card".to_string()));
            if *discount > 0 {
                out.push(Piece::Text(format!("-{discount}"), Weight::Bold));
            }
        }
        Reward::CoinsPrintedCostPlus { n } => {
            out.push(Piece::Icon(Icon::Coins, format!("+{n}")));
        }
        Reward::ReserveBonusTile { .. } => out.push(Piece::Muted("tile".to_string())),
    }
}

/// How a card is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardFace {
    Up,
    /// Used this round: face down for play, but everyone saw it.
    Used,
    /// The owner's planned card (private image only).
    Planned,
}

/// The value line of a card: big number and unit.
fn card_value(ctx: &Ctx, def: &CardDef) -> (String, Option<Company>) {
    match def.kind {
        CardKind::Resource { .. } | CardKind::Energy => (def.value.to_string(), None),
        CardKind::ResearchScientist => (ctx.f("image.research_points", &[("n", &def.value)]), None),
        CardKind::FieldScientist { company, tank, .. } => {
            let _ = ctx;
            (format!("+{tank}"), company)
        }
        CardKind::SingleShare => (String::new(), def.share),
    }
}

/// Draws a card face in `r`. `cost` is the number on the coin (total cost in the display,
/// printed cost elsewhere); `corner` is a small label at the bottom centre (the display space).
pub fn card(
    p: &mut Painter,
    ctx: &Ctx,
    r: Rect,
    id: CardId,
    face: CardFace,
    cost: Option<u32>,
    corner: Option<&str>,
) {
    let Some(def) = ctx.data.cards.get(id as usize) else {
        card_back(p, ctx, r, "?");
        return;
    };
    let ink = ctx.ink();
    let bg = ctx.panel();
    p.round_box(r, 8.0, bg, ink, 2.0);
    let band_h = (r.h * 0.28).clamp(24.0, 34.0);
    card_band(p, ctx, r, def, band_h);
    let small = ctx.text().small;
    // Value.
    let body_top = r.y + 2.0 + band_h;
    let foot_h = 28.0;
    let body = Rect::new(
        r.x,
        body_top,
        r.w,
        (r.bottom() - foot_h - body_top).max(0.0),
    );
    let (value, company) = card_value(ctx, def);
    let big = if r.h >= 130.0 {
        ctx.text().huge
    } else {
        ctx.text().big
    };
    match (value.is_empty(), company) {
        (false, Some(c)) => {
            let vw = p.text_width(big, Weight::Bold, &value);
            let total = vw + 6.0 + 26.0;
            let x0 = r.cx() - total / 2.0;
            company_chip(p, ctx, c, x0 + 13.0, body.cy(), 26.0);
            p.text(
                x0 + 32.0,
                body.cy(),
                big,
                Weight::Bold,
                ink,
                Align::Left,
                &value,
            );
        }
        (false, None) => {
            p.text(
                r.cx(),
                body.cy(),
                big,
                Weight::Bold,
                ink,
                Align::Centre,
                &value,
            );
        }
        (true, Some(c)) => company_chip(p, ctx, c, r.cx(), body.cy(), 32.0),
        (true, None) => {}
    }
    // Foot: extra share (left), corner label (centre), cost (right).
    let fy = r.bottom() - foot_h / 2.0 - 2.0;
    if let (Some(c), false) = (def.share, matches!(def.kind, CardKind::SingleShare)) {
        company_chip(p, ctx, c, r.x + 16.0, fy, 22.0);
    }
    if let Some(label) = corner {
        p.text(
            r.cx(),
            fy,
            small,
            Weight::Regular,
            ctx.muted(),
            Align::Centre,
            label,
        );
    }
    if let Some(cost) = cost {
        coin(p, ctx, r.right() - 16.0, fy, 12.0, &cost.to_string());
    }
    card_overlay(p, ctx, r, face, band_h);
}

/// A card's coloured band: the type's name (or its abbreviation on a narrow card) and the
/// colour symbol of a starting card or the letter of an action card.
fn card_band(p: &mut Painter, ctx: &Ctx, r: Rect, def: &CardDef, band_h: f32) {
    let style = ctx.card_style(Ctx::card_type_id(def));
    let band = Rect::new(r.x + 2.0, r.y + 2.0, r.w - 4.0, band_h);
    p.round_rect(band, 6.0, style.colour);
    p.fill_rect(
        Rect::new(band.x, band.bottom() - 6.0, band.w, 6.0),
        style.colour,
    );
    let small = ctx.text().small;
    // Starting cards carry the colour symbol; action cards their letter.
    let mut label_w = band.w - 8.0;
    match &def.origin {
        CardOrigin::Starting { colour, .. } => {
            seat_marker(p, ctx, *colour, band.right() - 9.0, band.cy(), 14.0);
            label_w -= 14.0;
        }
        CardOrigin::Action { letter } if r.w >= 140.0 => {
            let s = letter.to_string();
            p.text(
                band.right() - 6.0,
                band.cy(),
                small,
                Weight::Regular,
                style.colour.text_on(),
                Align::Right,
                &s,
            );
            label_w -= 16.0;
        }
        _ => {}
    }
    // The type's name; on a card too narrow for it, its abbreviation (`image.chip_card.<id>`,
    // e.g. "Kohlenst."), never a name cut short.
    let sz = p.size_to_fit(small, Weight::Bold, &style.label, label_w);
    let label = if p.text_width(sz, Weight::Bold, &style.label) <= label_w {
        style.label.clone()
    } else {
        let id = Ctx::card_type_id(def);
        ctx.layout_word(&format!("image.chip_card.{id}"), &style.label)
    };
    p.text_fit(
        band.x + 4.0,
        band.cy(),
        small,
        Weight::Bold,
        style.colour.text_on(),
        Align::Left,
        &label,
        label_w,
    );
}

/// What lies over a card face: nothing, a wash and a "used" tag, or the "planned" tag.
fn card_overlay(p: &mut Painter, ctx: &Ctx, r: Rect, face: CardFace, band_h: f32) {
    match face {
        CardFace::Up => {}
        CardFace::Used => {
            // Washed out, with a "used" tag.
            let wash = ctx.layout.canvas.background;
            for y in (r.y as i32 + 2)..(r.bottom() as i32 - 2) {
                if y % 4 == 0 {
                    p.fill_rect(Rect::new(r.x + 3.0, y as f32, r.w - 6.0, 2.0), wash);
                }
            }
            tag(p, ctx, r.cx(), r.cy(), &ctx.t("image.used"), ctx.muted());
        }
        CardFace::Planned => {
            tag(
                p,
                ctx,
                r.cx(),
                r.y + band_h + 12.0,
                &ctx.t("image.planned"),
                ctx.layout.canvas.positive,
            );
        }
    }
}

/// A small label on a dark pill.
pub fn tag(p: &mut Painter, ctx: &Ctx, cx: f32, cy: f32, text: &str, colour: Colour) {
    let w = p.text_width(ctx.text().small, Weight::Bold, text) + 12.0;
    p.round_rect(Rect::new(cx - w / 2.0, cy - 12.0, w, 24.0), 12.0, colour);
    p.text(
        cx,
        cy,
        ctx.text().small,
        Weight::Bold,
        colour.text_on(),
        Align::Centre,
        text,
    );
}

/// The back of a card (hidden information).
pub fn card_back(p: &mut Painter, ctx: &Ctx, r: Rect, label: &str) {
    let back = Colour([0x34, 0x3A, 0x55]);
    p.round_box(r, 8.0_f32.min(r.w / 4.0), back, ctx.ink(), 2.0);
    if r.w >= 60.0 {
        let inner = r.inset(8.0);
        p.round_box(inner, 5.0, back, Colour([0x6C, 0x75, 0x9C]), 2.0);
    } else {
        let inner = r.inset(4.0);
        p.round_box(inner, 3.0, back, Colour([0x6C, 0x75, 0x9C]), 1.5);
    }
    if !label.is_empty() {
        p.text(
            r.cx(),
            r.cy(),
            ctx.text().body,
            Weight::Bold,
            Colour::WHITE,
            Align::Centre,
            label,
        );
    }
}

/// A small card chip: type colour and value (resting decks).
pub fn mini_card(p: &mut Painter, ctx: &Ctx, cx: f32, cy: f32, size: f32, id: CardId) {
    let Some(def) = ctx.data.cards.get(id as usize) else {
        return;
    };
    let style = ctx.card_style(Ctx::card_type_id(def));
    let r = Rect::new(cx - size / 2.0, cy - size / 2.0, size, size);
    p.round_box(r, 5.0, style.colour, ctx.ink(), 1.5);
    let label = match def.kind {
        CardKind::FieldScientist { .. } => style.short.clone(),
        CardKind::SingleShare => def.share.map(|c| ctx.company_letter(c)).unwrap_or_default(),
        _ => def.value.to_string(),
    };
    p.text(
        cx,
        cy,
        ctx.text().small,
        Weight::Bold,
        style.colour.text_on(),
        Align::Centre,
        &label,
    );
}

/// Requirement and reward of a plan, for drawing.
pub struct PlanFace<'a> {
    pub id: String,
    pub requirements: &'a [Requirement],
    pub reward: &'a [Reward],
}

/// Draws a research plan: id and reward on the first line, requirements on the second.
pub fn plan(p: &mut Painter, ctx: &Ctx, r: Rect, face: &PlanFace, outline: Colour) {
    p.round_box(r, 6.0, Colour([0xF4, 0xF7, 0xFD]), outline, 2.0);
    let small = ctx.text().small;
    let line1 = r.y + r.h * 0.3;
    let line2 = r.y + r.h * 0.72;
    p.text(
        r.x + 6.0,
        line1,
        small,
        Weight::Bold,
        ctx.ink(),
        Align::Left,
        &face.id,
    );
    let mut reward = Vec::new();
    for rw in face.reward {
        reward_pieces(ctx, rw, &mut reward);
    }
    let rw = row_width(p, ctx, &reward);
    draw_row(p, ctx, r.right() - 6.0 - rw, line1, &reward);
    let mut req = Vec::new();
    for (i, rq) in face.requirements.iter().enumerate() {
        if i > 0 {
            req.push(Piece::Gap(5.0));
        }
        requirement_pieces(ctx, rq, &mut req);
    }
    let mut qw = row_width(p, ctx, &req);
    if qw > r.w - 12.0 {
        // Too wide for the plan (e.g. "3 same 2 energy", "RS/FS 5 titanium", longer in
        // German): tight chips and no extra gap between requirements, so the row stays inside.
        req = req
            .into_iter()
            .filter(|piece| !matches!(piece, Piece::Gap(_)))
            .map(|piece| match piece {
                Piece::Chip(colour, s) => Piece::TightChip(colour, s),
                other => other,
            })
            .collect();
        qw = row_width(p, ctx, &req);
    }
    let x = if qw <= r.w - 12.0 {
        r.x + 6.0
    } else {
        r.x + (r.w - qw) / 2.0
    };
    draw_row(p, ctx, x, line2, &req);
}
