//! What every player board has around its own middle, for the human player boards and Luna's
//! alike: the header (seat, name, status tags, hand or deck, coins), the footer (shares and
//! share values, bonus markers, track bonuses, tiles, the removed threat card, the starting
//! token, the mission status), and the step tracks (tank, Luna's two tracks).

use super::icons::{self, Ctx, Icon, Piece};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::widgets::panel;
use crate::data::numbering;
use crate::data::tracks::BonusKind;
use crate::data::{CardId, Company};
use crate::engine::state::{SeatKind, TileKind, TileState};
use crate::engine::view::{PublicSeat, SeatView, SlotView};

const HEADER_BG: Colour = Colour([0x23, 0x27, 0x33]);

pub(crate) fn header(p: &mut Painter, ctx: &Ctx, view: &SeatView, seat: usize, s: &PublicSeat) {
    let r = ctx.layout.player.header.rect;
    let t = ctx.text();
    p.fill_rect(r, HEADER_BG);
    let cy = r.cy();
    icons::seat_marker(p, ctx, s.colour, r.x + 36.0, cy, 44.0);
    // Right side first, so the name gets what is left.
    let mut rx = r.right() - 14.0;
    let coins = s.coins.to_string();
    let cr = (p.text_width(t.big, Weight::Bold, &coins) / 2.0 + 6.0).max(22.0);
    icons::coin(p, ctx, rx - cr, cy, cr, "");
    p.text(
        rx - cr,
        cy,
        t.big,
        Weight::Bold,
        ctx.ink(),
        Align::Centre,
        &coins,
    );
    rx -= cr * 2.0 + 18.0;
    // Hand size (Luna: her deck): a card back and the count.
    let count = match &s.luna {
        Some(l) => l.deck_size,
        None => s.hand_size,
    }
    .to_string();
    let cw = p.text_width(t.big, Weight::Bold, &count);
    p.text(
        rx,
        cy,
        t.big,
        Weight::Bold,
        Colour::WHITE,
        Align::Right,
        &count,
    );
    rx -= cw + 6.0;
    icons::card_back(p, ctx, Rect::new(rx - 28.0, cy - 20.0, 28.0, 40.0), "");
    rx -= 28.0 + 18.0;
    let mut tags: Vec<(String, Colour)> = Vec::new();
    if view.first_player == seat {
        tags.push((ctx.t("image.first"), Colour::WHITE));
    }
    if view.active == Some(seat) {
        tags.push((ctx.t("image.to_play"), ctx.layout.canvas.highlight));
    } else if view.waiting_on.contains(&seat) {
        tags.push((ctx.t("image.deciding"), ctx.layout.canvas.highlight));
    }
    if s.dropped_out {
        tags.push((ctx.t("image.dropped_out"), Colour([0x8E, 0x96, 0xA8])));
    }
    for (word, bg) in &tags {
        let word = word.as_str();
        let bg = *bg;
        let w = p.text_width(t.body, Weight::Bold, word) + 16.0;
        let tr = Rect::new(rx - w, cy - 15.0, w, 30.0);
        p.round_rect(tr, 8.0, bg);
        p.text(
            tr.cx(),
            cy,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Centre,
            word,
        );
        rx -= w + 8.0;
    }
    let name_x = r.x + 68.0;
    let mut nx = name_x;
    nx += p.text_fit(
        nx,
        cy,
        t.huge,
        Weight::Bold,
        Colour::WHITE,
        Align::Left,
        &crate::text::sanitize_name(&s.name),
        (rx - name_x - 120.0).max(60.0),
    );
    if let SeatKind::Luna { level } = s.kind {
        nx += 12.0;
        let name = ctx
            .data
            .luna_board
            .level(level as u32)
            .map(|l| {
                let name = ctx.layout_word(&format!("image.luna_level.{}", l.name), &l.name);
                ctx.f("image.luna_level", &[("level", &level), ("name", &name)])
            })
            .unwrap_or_else(|| ctx.f("image.level", &[("level", &level)]));
        p.text(
            nx,
            cy,
            t.body,
            Weight::Regular,
            Colour([0xD0, 0xD4, 0xE0]),
            Align::Left,
            &name,
        );
    }
}

/// A row of steps with a marker: the tank track (and Luna's two tracks).
pub(crate) struct StepTrack<'a> {
    pub title: &'a str,
    pub seat: usize,
    /// Research screens (numbered from 1, DECISIONS B17) rather than tank steps (from 0).
    pub screens: bool,
    pub steps: usize,
    /// The step that switches an action slot on.
    pub on_step: Option<usize>,
    /// (first step after the printed value, value).
    pub links: Vec<(usize, u32)>,
    pub score: u32,
    /// The marker's step (None: before the first step).
    pub pos: Option<usize>,
    pub fill: Colour,
    /// Steps holding a Luna token.
    pub tokens: &'a [u32],
}

impl StepTrack<'_> {
    /// How people number a position on this track.
    fn number(&self, k: usize) -> usize {
        if self.screens {
            numbering::screen(k)
        } else {
            k
        }
    }

    /// What the number under position `k` stands for.
    fn role(&self, k: usize) -> Role {
        if self.screens {
            Role::Screen {
                seat: self.seat,
                index: k,
            }
        } else {
            Role::TankStep {
                seat: self.seat,
                step: k,
            }
        }
    }
}

pub(crate) fn step_track(p: &mut Painter, ctx: &Ctx, rect: Rect, tr: &StepTrack, colour: usize) {
    panel(p, ctx, rect, "", "");
    let t = ctx.text();
    let label_w = 126.0;
    p.text(
        rect.x + 12.0,
        rect.y + 30.0,
        t.label,
        Weight::Bold,
        ctx.ink(),
        Align::Left,
        tr.title,
    );
    icons::icon(
        p,
        ctx,
        Icon::Points,
        rect.x + 40.0,
        rect.y + 66.0,
        24.0,
        &tr.score.to_string(),
    );
    if let Some(pos) = tr.pos {
        let label = if tr.screens {
            ctx.f("image.screen", &[("screen", &tr.number(pos))])
        } else {
            ctx.f("image.step", &[("step", &pos)])
        };
        p.text(
            rect.x + 12.0,
            rect.y + 100.0,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Left,
            &label,
        );
    }
    let steps = tr.steps.max(1);
    let x0 = rect.x + label_w;
    let w = (rect.right() - 10.0 - x0) / steps as f32;
    let badges_y = rect.y + 20.0;
    let cells_top = rect.y + 38.0;
    let cells_h = 46.0;
    for k in 0..steps {
        let r = Rect::new(x0 + k as f32 * w, cells_top, w - 2.0, cells_h);
        step_cell(p, ctx, tr, k, r, w);
    }
    for &(after, value) in &tr.links {
        let x = x0 + after as f32 * w - 1.0;
        p.line(
            (x, badges_y + 8.0),
            (x, cells_top),
            2.0,
            ctx.layout.icons.points.colour,
        );
        link_badge(p, ctx, x, badges_y, value);
    }
    if let Some(pos) = tr.pos {
        let pos = pos.min(steps - 1);
        let r = Rect::new(x0 + pos as f32 * w, cells_top, w - 2.0, cells_h);
        icons::seat_marker(p, ctx, colour, r.cx(), r.cy(), (w - 4.0).min(34.0));
        if tr.screens {
            p.mark(Role::UploadMarker { seat: tr.seat }, r.cx(), r.cy());
        }
    }
}

/// Step `k` of a step track in `r`: reached or not, the step that switches a slot on, the
/// number under the first, every fifth and the last step, a Luna token.
fn step_cell(p: &mut Painter, ctx: &Ctx, tr: &StepTrack, k: usize, r: Rect, w: f32) {
    let t = ctx.text();
    let steps = tr.steps.max(1);
    let reached = tr.pos.is_some_and(|p| k <= p);
    let fill = if reached {
        tr.fill.mix(Colour::WHITE, 0.45)
    } else {
        Colour([0xF1, 0xF4, 0xF6])
    };
    p.round_box(r, 5.0, fill, ctx.layout.canvas.panel_border, 1.2);
    if tr.on_step == Some(k) {
        p.round_box(r, 5.0, fill, ctx.layout.canvas.positive, 3.0);
        p.text(
            r.cx(),
            r.bottom() + 15.0,
            t.small,
            Weight::Bold,
            ctx.layout.canvas.positive,
            Align::Centre,
            "ON",
        );
    } else if tr.number(k).is_multiple_of(5) || k == 0 || k + 1 == steps {
        p.role(tr.role(k));
        p.text(
            r.cx(),
            r.bottom() + 15.0,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Centre,
            &tr.number(k).to_string(),
        );
    }
    if tr.tokens.contains(&(k as u32)) {
        // A Luna token: a dark disc with a light rim.
        p.disc(
            r.cx(),
            r.cy(),
            (w * 0.3).min(10.0),
            ctx.ink(),
            Colour::WHITE,
            2.0,
        );
    }
}

/// A value badge on a link between two positions.
fn link_badge(p: &mut Painter, ctx: &Ctx, x: f32, cy: f32, value: u32) {
    icons::icon(p, ctx, Icon::Points, x, cy, 22.0, &value.to_string());
}

/// Shares a seat owns of each company, counting only cards this image may show.
pub(crate) fn shares(ctx: &Ctx, view: &SeatView, seat: usize, private: bool) -> [u32; 4] {
    let Some(s) = view.seats.get(seat) else {
        return [0; 4];
    };
    let mut out = s.shares;
    let mut count = |id: CardId| {
        if let Some(c) = ctx.data.cards.get(id as usize).and_then(|d| d.share) {
            out[c.index()] += 1;
        }
    };
    for slot in &s.slots {
        match slot {
            SlotView::Up(c) | SlotView::Used(c) => count(*c),
            SlotView::OwnPlanned(c) if private => count(*c),
            _ => {}
        }
    }
    for deck in &s.resting {
        for c in deck {
            count(*c);
        }
    }
    if let Some(l) = &s.luna {
        for c in &l.reserve_cards {
            count(*c);
        }
    }
    if private {
        if let Some(own) = view.own.as_ref().filter(|o| o.seat == seat) {
            for c in &own.hand {
                count(*c);
            }
        }
    }
    out
}

pub(crate) fn footer(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    seat: usize,
    s: &PublicSeat,
    private: bool,
) {
    let l = &ctx.layout.player.footer;
    p.round_box(
        l.rect,
        10.0,
        ctx.panel(),
        ctx.layout.canvas.panel_border,
        2.0,
    );
    let t = ctx.text();
    let line1 = l.rect.y + 32.0;
    let line2 = l.rect.y + 88.0;
    shares_line(p, ctx, view, seat, private, line1);
    // Bonus markers: filled in reserve, hollow when out on the board.
    let total = s.markers_total as usize;
    let reserve = s.markers_reserve as usize;
    let mut mx = l.rect.right() - 14.0 - total as f32 * 30.0;
    p.text(
        mx - 8.0,
        line1,
        t.small,
        Weight::Regular,
        ctx.muted(),
        Align::Right,
        &ctx.t("image.markers"),
    );
    for k in 0..total {
        let cx = mx + 15.0;
        if k < reserve {
            icons::seat_marker(p, ctx, s.colour, cx, line1, 26.0);
        } else {
            p.circle(cx, line1, 11.0, ctx.layout.canvas.faint);
            p.circle(cx, line1, 8.0, ctx.panel());
        }
        mx += 30.0;
    }
    // Second line: track bonuses, tiles, starting token, threat card, mission status.
    let pieces = footer_pieces(ctx, view, seat, s);
    // Wrap onto two lines if needed.
    let max_w = l.rect.w - 28.0;
    let mut line: Vec<Piece> = Vec::new();
    let mut y = line2 - 12.0;
    for piece in pieces {
        line.push(piece);
        if icons::row_width(p, ctx, &line) > max_w {
            let last = line.pop();
            icons::draw_row(p, ctx, l.rect.x + 14.0, y, &line);
            line.clear();
            line.extend(last);
            y += 30.0;
        }
    }
    icons::draw_row(p, ctx, l.rect.x + 14.0, y, &line);
}

/// The footer's first line: the shares the seat owns of each company (what this image may
/// show) with each share value.
fn shares_line(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    seat: usize,
    private: bool,
    line1: f32,
) {
    let l = &ctx.layout.player.footer;
    let t = ctx.text();
    let sh = shares(ctx, view, seat, private);
    let mut x = l.rect.x + 14.0;
    x += p.text(
        x,
        line1,
        t.body,
        Weight::Bold,
        ctx.ink(),
        Align::Left,
        &ctx.t("image.shares"),
    );
    x += 12.0;
    for c in Company::ALL {
        let value = view.share_values.get(c.index()).copied().unwrap_or(0);
        let n = sh[c.index()];
        icons::company_chip(p, ctx, c, x + 15.0, line1, 30.0);
        x += 36.0;
        x += p.text(
            x,
            line1,
            t.label,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &n.to_string(),
        );
        x += p.text(
            x + 3.0,
            line1,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Left,
            "×",
        ) + 6.0;
        let vs = value.to_string();
        let cr = (p.text_width(t.small, Weight::Bold, &vs) / 2.0 + 4.0).max(13.0);
        icons::coin(p, ctx, x + cr, line1, cr, &vs);
        x += cr * 2.0 + 22.0;
    }
}

/// The footer's second line: track bonuses (active, or pending until next turn), tiles held,
/// the threat card removed, the starting token, the mission status card.
fn footer_pieces(ctx: &Ctx, view: &SeatView, seat: usize, s: &PublicSeat) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    pieces.push(Piece::Text(ctx.t("image.bonuses"), Weight::Bold));
    let mut any = false;
    for (i, b) in ctx.data.tracks.bonuses.iter().enumerate() {
        let active = s.bonus_active & (1u32 << i) != 0;
        let pending = s.bonus_pending & (1u32 << i) != 0;
        if !(active || pending) {
            continue;
        }
        any = true;
        let company = view
            .tracks
            .iter()
            .position(|id| *id == b.track)
            .map(Company::from_index);
        let colour = company
            .map(|c| ctx.company_colour(c))
            .unwrap_or(ctx.layout.canvas.faint);
        let colour = if pending {
            colour.mix(Colour::WHITE, 0.6)
        } else {
            colour
        };
        if let Some(c) = company {
            pieces.push(Piece::Company(c));
        }
        let kind = match b.kind {
            BonusKind::Permanent => "",
            BonusKind::BonusSpace => " □",
        };
        pieces.push(Piece::Chip(colour, format!("{}{kind}", b.id)));
        if pending {
            pieces.push(Piece::Muted(ctx.t("image.next_turn")));
        }
    }
    if !any {
        pieces.push(Piece::Muted(ctx.t("image.none")));
    }
    // Tiles.
    for (k, ts) in view.tiles.iter().enumerate() {
        let kind = TileKind::ALL.get(k).copied();
        let (mine, word) = match ts {
            TileState::Held { seat: h, used, .. } if *h == seat => {
                let word = if *used { "image.used" } else { "image.ready" };
                (true, ctx.t(word))
            }
            _ => (false, String::new()),
        };
        if let (true, Some(kind)) = (mine, kind) {
            let st = ctx.card_style(kind.data_id());
            pieces.push(Piece::Gap(10.0));
            pieces.push(Piece::Muted(ctx.t("image.tile")));
            pieces.push(Piece::Chip(st.colour, st.short));
            pieces.push(Piece::Muted(word));
        }
    }
    // The threat card the seat removed, face down as a wild share (and, once scored, the
    // company it counted for).
    if view
        .threat
        .as_ref()
        .is_some_and(|t| t.removed_by == Some(seat))
    {
        pieces.push(Piece::Gap(10.0));
        pieces.push(Piece::Text(ctx.t("image.wild_share"), Weight::Bold));
        let counted = view
            .scores
            .as_ref()
            .and_then(|all| all.iter().find(|b| b.seat == seat))
            .and_then(|b| b.wild_share);
        if let Some(c) = counted {
            pieces.push(Piece::Muted("→".into()));
            pieces.push(Piece::Company(c));
        }
    }
    if let Some(tok) = s
        .token
        .and_then(|i| ctx.data.research.starting_tokens.get(i))
    {
        pieces.push(Piece::Gap(10.0));
        pieces.push(Piece::Muted(ctx.f("image.token_id", &[("token", &tok.id)])));
    }
    super::missions::status_pieces(ctx, view, seat, &mut pieces);
    pieces
}
