//! The player board image. The public version shows what everyone may see: coins, hand size,
//! bonus markers, the action area (face-down planned cards as card backs), resting decks, the
//! tank and research tracks with their markers and plans, shares per company with the share
//! value, unlocked track bonuses and held tiles. The private version, for the owner only, adds
//! the hand and shows the planned cards face up.
//!
//! The public version is drawn from a view stripped of every private field, so nothing hidden
//! can reach its pixels.

use super::board::{empty_slot, panel};
use super::icons::{self, CardFace, Ctx, Icon, Piece, PlanFace};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use crate::data::numbering;
use crate::data::tracks::BonusKind;
use crate::data::{CardId, Company};
use crate::engine::state::{GameState, PlanRef, SeatKind, TileKind, TileState};
use crate::engine::view::{PublicSeat, SeatView, SlotView};

const HEADER_BG: Colour = Colour([0x23, 0x27, 0x33]);

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, seat: usize, private: bool) {
    let Some(s) = view.seats.get(seat) else {
        return;
    };
    if let Some(luna) = s.luna.as_ref() {
        super::luna::draw(p, ctx, view, seat, s, luna);
        return;
    }
    header(p, ctx, view, seat, s);
    slots(p, ctx, view, seat, s, private);
    resting(p, ctx, seat, s);
    tank(p, ctx, seat, s);
    research(p, ctx, seat, s);
    footer(p, ctx, view, seat, s, private);
    if private {
        hand(p, ctx, view);
    }
}

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

/// The five action slots with their cards.
fn slots(p: &mut Painter, ctx: &Ctx, view: &SeatView, seat: usize, s: &PublicSeat, private: bool) {
    let l = &ctx.layout.player.slots;
    let pb = &ctx.data.player_board;
    let n = pb.action_slots.count.max(1);
    let gap = 10.0;
    let cw = (l.rect.w - gap * (n as f32 - 1.0)) / n as f32;
    let t = ctx.text();
    let plus_one_on = match view.tiles.get(GameState::tile_index(TileKind::PlusOne)) {
        Some(TileState::Held {
            seat: h,
            on_card: Some(c),
            ..
        }) if *h == seat => Some(*c),
        _ => None,
    };
    for i in 0..n {
        let col = Rect::new(l.rect.x + i as f32 * (cw + gap), l.rect.y, cw, l.rect.h);
        let on = s.slot_on.get(i).copied().unwrap_or(false);
        p.round_box(
            col,
            10.0,
            if on {
                ctx.panel()
            } else {
                ctx.layout.canvas.faint
            },
            ctx.layout.canvas.panel_border,
            2.0,
        );
        let title_y = col.y + 17.0;
        p.role(Role::ActionSlot { seat, index: i });
        p.text(
            col.x + 12.0,
            title_y,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &ctx.f("image.slot", &[("slot", &numbering::slot(i))]),
        );
        if !on {
            let why = if i == pb.tank_slot() {
                ctx.f("image.off_tank", &[("step", &pb.tank_track.on_step)])
            } else if i == pb.research_slot() {
                ctx.f(
                    "image.off_screen",
                    &[(
                        "screen",
                        &numbering::screen(pb.research_track.on_screen as usize),
                    )],
                )
            } else {
                ctx.t("image.off")
            };
            p.text_fit(
                col.right() - 10.0,
                title_y,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Right,
                &why,
                col.w - 90.0,
            );
        }
        let card_r = Rect::new(
            col.cx() - l.card[0] / 2.0,
            col.y + 34.0,
            l.card[0],
            (col.h - 42.0).min(l.card[1]),
        );
        let slot = s.slots.get(i).copied().unwrap_or(SlotView::Empty);
        let face = |id: CardId, f: CardFace, p: &mut Painter| {
            let cost = ctx.data.cards.get(id as usize).map(|c| c.cost);
            icons::card(p, ctx, card_r, id, f, cost, None);
            if plus_one_on == Some(id) {
                icons::tag(
                    p,
                    ctx,
                    card_r.right() - 18.0,
                    card_r.y + 44.0,
                    "+1",
                    ctx.layout.canvas.positive,
                );
            }
        };
        match slot {
            SlotView::Empty => {
                if on {
                    empty_slot(p, ctx, card_r, &ctx.t("image.empty"));
                }
            }
            SlotView::Hidden => icons::card_back(p, ctx, card_r, &ctx.t("image.planned")),
            SlotView::OwnPlanned(id) if private => face(id, CardFace::Planned, p),
            SlotView::OwnPlanned(_) => icons::card_back(p, ctx, card_r, &ctx.t("image.planned")),
            SlotView::Up(id) => face(id, CardFace::Up, p),
            SlotView::Used(id) => face(id, CardFace::Used, p),
        }
    }
}

fn resting(p: &mut Painter, ctx: &Ctx, seat: usize, s: &PublicSeat) {
    let l = &ctx.layout.player.resting;
    let n = ctx.data.player_board.resting_slots.count.max(1);
    let gap = 10.0;
    let cw = (l.rect.w - gap * (n as f32 - 1.0)) / n as f32;
    let t = ctx.text();
    let chip = l.chip_px;
    for i in 0..n {
        let col = Rect::new(l.rect.x + i as f32 * (cw + gap), l.rect.y, cw, l.rect.h);
        p.round_box(
            col,
            10.0,
            Colour([0xEC, 0xE8, 0xDF]),
            ctx.layout.canvas.panel_border,
            1.5,
        );
        let deck = s.resting.get(i).map(Vec::as_slice).unwrap_or(&[]);
        p.role(Role::RestingSlot { seat, index: i });
        p.text(
            col.x + 12.0,
            col.y + 15.0,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Left,
            &ctx.f("image.resting", &[("slot", &numbering::slot(i))]),
        );
        p.text(
            col.right() - 12.0,
            col.y + 15.0,
            t.small,
            Weight::Bold,
            ctx.ink(),
            Align::Right,
            &deck.len().to_string(),
        );
        let per_row = (((col.w - 16.0) / (chip + 4.0)) as usize).max(1);
        let max_rows = (((col.h - 32.0) / (chip + 4.0)) as usize).max(1);
        let visible = per_row * max_rows;
        for (k, card) in deck.iter().enumerate() {
            if k >= visible {
                break;
            }
            let (cx, cy) = (
                col.x + 8.0 + (k % per_row) as f32 * (chip + 4.0) + chip / 2.0,
                col.y + 32.0 + (k / per_row) as f32 * (chip + 4.0) + chip / 2.0,
            );
            if k + 1 == visible && deck.len() > visible {
                p.text(
                    cx,
                    cy,
                    t.small,
                    Weight::Bold,
                    ctx.ink(),
                    Align::Centre,
                    &format!("+{}", deck.len() - visible + 1),
                );
            } else {
                icons::mini_card(p, ctx, cx, cy, chip, *card);
            }
        }
    }
}

/// A value badge on a link between two positions.
fn link_badge(p: &mut Painter, ctx: &Ctx, x: f32, cy: f32, value: u32) {
    icons::icon(p, ctx, Icon::Points, x, cy, 22.0, &value.to_string());
}

fn tank(p: &mut Painter, ctx: &Ctx, seat: usize, s: &PublicSeat) {
    let tt = &ctx.data.player_board.tank_track;
    let title = ctx.t("image.tank");
    let track = StepTrack {
        title: &title,
        seat,
        screens: false,
        steps: tt.final_step as usize + 1,
        on_step: Some(tt.on_step as usize),
        links: tt
            .value_links
            .iter()
            .map(|l| (l.between.1 as usize, l.value))
            .collect(),
        score: tt.score_by_step.get(s.tank as usize).copied().unwrap_or(0),
        pos: Some(s.tank as usize),
        fill: ctx.layout.icons.tank.colour,
        tokens: &[],
    };
    step_track(p, ctx, ctx.layout.player.tank.rect, &track, s.colour);
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
    // How people number a position on this track.
    let number = |k: usize| if tr.screens { numbering::screen(k) } else { k };
    let role = |k: usize| {
        if tr.screens {
            Role::Screen {
                seat: tr.seat,
                index: k,
            }
        } else {
            Role::TankStep {
                seat: tr.seat,
                step: k,
            }
        }
    };
    if let Some(pos) = tr.pos {
        let label = if tr.screens {
            ctx.f("image.screen", &[("screen", &number(pos))])
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
        } else if number(k) % 5 == 0 || k == 0 || k + 1 == steps {
            p.role(role(k));
            p.text(
                r.cx(),
                r.bottom() + 15.0,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Centre,
                &number(k).to_string(),
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

fn research(p: &mut Painter, ctx: &Ctx, seat: usize, s: &PublicSeat) {
    let l = &ctx.layout.player.research;
    let rt = &ctx.data.player_board.research_track;
    let screens = rt.screens.max(1) as usize;
    let score = s
        .upload
        .and_then(|u| rt.score_by_screen.get(u as usize))
        .copied()
        .unwrap_or(0);
    let t = ctx.text();
    let title = ctx.t("image.research");
    let body = panel(p, ctx, l.rect, &title, "");
    // Score next to the title.
    let tw = p.text_width(t.body, Weight::Bold, &title);
    icons::icon(
        p,
        ctx,
        Icon::Points,
        l.rect.x + tw + 44.0,
        l.rect.y + 18.0,
        22.0,
        &score.to_string(),
    );
    let per_row = l.per_row.max(1);
    let rows = screens.div_ceil(per_row);
    let gap = 8.0;
    let sw = (body.w - gap * (per_row as f32 - 1.0)) / per_row as f32;
    let sh = (body.h - 12.0 - gap * (rows as f32 - 1.0)) / rows as f32;
    let screen_rect = |k: usize| {
        Rect::new(
            body.x + (k % per_row) as f32 * (sw + gap),
            body.y + 10.0 + (k / per_row) as f32 * (sh + gap),
            sw,
            sh,
        )
    };
    for k in 0..screens {
        let r = screen_rect(k);
        let reached = s.upload.is_some_and(|u| k <= u as usize);
        let bg = if reached {
            ctx.layout.icons.research.colour.mix(Colour::WHITE, 0.8)
        } else {
            Colour([0xF6, 0xF4, 0xEF])
        };
        let outline = if k as u32 == rt.on_screen {
            ctx.layout.canvas.positive
        } else {
            ctx.layout.canvas.panel_border
        };
        p.round_box(
            r,
            6.0,
            bg,
            outline,
            if k as u32 == rt.on_screen { 3.0 } else { 1.5 },
        );
        let mut hx = r.x + 8.0;
        p.role(Role::Screen { seat, index: k });
        hx += p.text(
            hx,
            r.y + 14.0,
            t.small,
            Weight::Bold,
            ctx.muted(),
            Align::Left,
            &numbering::screen(k).to_string(),
        );
        // The value printed on the cable into this screen.
        if let Some(link) = rt.value_links.iter().find(|l| l.between.1 as usize == k) {
            let label = link.value.to_string();
            let iw = icons::icon_width(p, ctx, Icon::Points, 20.0, &label);
            icons::icon(
                p,
                ctx,
                Icon::Points,
                hx + 6.0 + iw / 2.0,
                r.y + 14.0,
                20.0,
                &label,
            );
            hx += iw + 6.0;
        }
        if s.upload == Some(k as u8) {
            icons::seat_marker(p, ctx, s.colour, hx + 18.0, r.y + 14.0, 26.0);
            p.mark(Role::UploadMarker { seat }, hx + 18.0, r.y + 14.0);
        }
        let mut rx = r.right() - 8.0;
        if k as u32 == rt.on_screen {
            rx -= p.text(
                rx,
                r.y + 14.0,
                t.small,
                Weight::Bold,
                ctx.layout.canvas.positive,
                Align::Right,
                "ON",
            ) + 8.0;
        }
        if rt.crossed_out_a.screens.contains(&(k as u32)) {
            let (ax, ay) = (rx - 8.0, r.y + 14.0);
            p.text(
                ax,
                ay,
                t.small,
                Weight::Bold,
                ctx.layout.canvas.alert,
                Align::Centre,
                "A",
            );
            p.line(
                (ax - 8.0, ay + 8.0),
                (ax + 8.0, ay - 8.0),
                2.0,
                ctx.layout.canvas.alert,
            );
        }
        let pr = Rect::new(r.x + 3.0, r.y + 26.0, r.w - 6.0, r.h - 29.0);
        match s.research.get(k).copied().flatten() {
            Some(placed) if placed.face_down => {
                p.round_box(pr, 6.0, Colour([0x8A, 0x90, 0x9E]), ctx.ink(), 1.5);
                p.text(
                    pr.cx(),
                    pr.cy(),
                    t.small,
                    Weight::Bold,
                    Colour::WHITE,
                    Align::Centre,
                    &ctx.t("image.face_down"),
                );
            }
            Some(placed) => placed_plan(p, ctx, pr, s, placed.plan),
            None => {}
        }
    }
    // Before the first plan: the upload marker on the left half of the starting token.
    if s.upload.is_none() {
        let r = screen_rect(0);
        let (mx, my) = (r.x + 14.0, r.y + 26.0 + (r.h - 29.0) / 2.0);
        icons::seat_marker(p, ctx, s.colour, mx, my, 26.0);
        p.mark(Role::UploadMarker { seat }, mx, my);
    }
}

fn placed_plan(p: &mut Painter, ctx: &Ctx, r: Rect, s: &PublicSeat, plan: PlanRef) {
    let border = ctx.layout.canvas.panel_border;
    match plan {
        PlanRef::Token => {
            if let Some(tok) = s
                .token
                .and_then(|i| ctx.data.research.starting_tokens.get(i))
            {
                icons::plan(
                    p,
                    ctx,
                    r,
                    &PlanFace {
                        id: tok.id.clone(),
                        requirements: &tok.plan_requirements,
                        reward: &tok.plan_reward,
                    },
                    border,
                );
            } else {
                p.round_box(r, 6.0, Colour::WHITE, border, 1.5);
                p.text(
                    r.cx(),
                    r.cy(),
                    ctx.text().small,
                    Weight::Bold,
                    ctx.muted(),
                    Align::Centre,
                    "token",
                );
            }
        }
        PlanRef::Regular(id) => {
            if let Some(pl) = ctx.data.research.plans.get(id as usize) {
                icons::plan(
                    p,
                    ctx,
                    r,
                    &PlanFace {
                        id: pl.id.clone(),
                        requirements: &pl.requirements,
                        reward: &pl.reward,
                    },
                    border,
                );
            }
        }
        PlanRef::Special(i) => {
            if let Some(sp) = ctx.data.research.special_plans.get(i as usize) {
                p.round_box(
                    r,
                    6.0,
                    Colour([0xF7, 0xEF, 0xFB]),
                    ctx.layout.icons.points.colour,
                    2.0,
                );
                let line1 = r.y + r.h * 0.3;
                let line2 = r.y + r.h * 0.72;
                p.text(
                    r.x + 6.0,
                    line1,
                    ctx.text().small,
                    Weight::Bold,
                    ctx.ink(),
                    Align::Left,
                    &sp.id,
                );
                let pieces = [
                    Piece::Icon(Icon::Coins, format!("-{}", sp.coin_cost)),
                    Piece::Muted("→".into()),
                    Piece::Icon(Icon::Points, sp.value.to_string()),
                ];
                icons::draw_row(p, ctx, r.x + 6.0, line2, &pieces);
            }
        }
    }
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
    // Second line: track bonuses, tiles, starting token.
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

fn hand(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let Some(own) = view.own.as_ref() else {
        return;
    };
    let l = &ctx.layout.player.hand;
    let mut note = String::new();
    if !own.token_choices.is_empty() {
        let ids: Vec<&str> = own
            .token_choices
            .iter()
            .filter_map(|i| ctx.data.research.starting_tokens.get(*i))
            .map(|tk| tk.id.as_str())
            .collect();
        note = ctx.f(
            "image.keep_token",
            &[("tokens", &ids.join(&ctx.t("image.or")))],
        );
    } else if !own.pending_rest.is_empty() {
        note = format!("{} cards to rest", own.pending_rest.len());
    }
    let body = panel(
        p,
        ctx,
        l.rect,
        &ctx.f("image.your_hand", &[("count", &own.hand.len())]),
        &note,
    );
    let (cw, ch) = (l.card[0], l.card[1]);
    let gap = 8.0;
    let per_row = (((body.w + gap) / (cw + gap)) as usize).max(1);
    let rows = (((body.h + gap) / (ch + gap)) as usize).max(1);
    let visible = per_row * rows;
    for (k, id) in own.hand.iter().enumerate() {
        if k >= visible {
            break;
        }
        let r = Rect::new(
            body.x + (k % per_row) as f32 * (cw + gap),
            body.y + (k / per_row) as f32 * (ch + gap),
            cw,
            ch,
        );
        if k + 1 == visible && own.hand.len() > visible {
            p.text(
                r.cx(),
                r.cy(),
                ctx.text().big,
                Weight::Bold,
                ctx.ink(),
                Align::Centre,
                &format!("+{}", own.hand.len() - visible + 1),
            );
            break;
        }
        let cost = ctx.data.cards.get(*id as usize).map(|c| c.cost);
        icons::card(p, ctx, r, *id, CardFace::Up, cost, None);
    }
}
