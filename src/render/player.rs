//! The player board image. The public version shows what everyone may see: the action area
//! (face-down planned cards as card backs), the resting decks, the tank and research tracks with
//! their markers and plans, inside the header and footer every player board shares
//! (`seat_frame`: coins, hand size, shares per company with the share value, bonus markers,
//! track bonuses, tiles). The private version, for the owner only, adds the hand and shows the
//! planned cards face up. Luna's seat has a board of its own (`luna`).
//!
//! The public version is drawn from a view stripped of every private field, so nothing hidden
//! can reach its pixels.

use super::icons::{self, CardFace, Ctx, Icon, Piece, PlanFace};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::seat_frame::{footer, header, step_track, StepTrack};
use super::widgets::{empty_slot, panel, wrap};
use crate::data::numbering;
use crate::data::CardId;
use crate::engine::state::{GameState, PlanRef, TileKind, TileState};
use crate::engine::view::{PublicSeat, SeatView, SlotView};

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
            if p.text_width(t.small, Weight::Regular, &why) <= col.w - 90.0 {
                p.text(
                    col.right() - 10.0,
                    title_y,
                    t.small,
                    Weight::Regular,
                    ctx.muted(),
                    Align::Right,
                    &why,
                );
            } else {
                // Too long for the title row: in the middle of the (empty) slot.
                let lines = wrap(p, ctx, t.small, Weight::Regular, &why, col.w - 20.0);
                let first = col.cy() + 17.0 - 11.0 * (lines.len() as f32 - 1.0);
                for (k, line) in lines.iter().enumerate() {
                    p.text(
                        col.cx(),
                        first + 22.0 * k as f32,
                        t.small,
                        Weight::Regular,
                        ctx.muted(),
                        Align::Centre,
                        line,
                    );
                }
            }
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
        research_screen(p, ctx, seat, s, k, screen_rect(k));
    }
    // Before the first plan: the upload marker on the left half of the starting token.
    if s.upload.is_none() {
        let r = screen_rect(0);
        let (mx, my) = (r.x + 14.0, r.y + 26.0 + (r.h - 29.0) / 2.0);
        icons::seat_marker(p, ctx, s.colour, mx, my, 26.0);
        p.mark(Role::UploadMarker { seat }, mx, my);
    }
}

/// Research screen `k` in `r`: its number, the value on the cable into it, the upload marker,
/// "ON" on the screen that switches a slot on, a crossed-out "A", the plan placed there.
fn research_screen(p: &mut Painter, ctx: &Ctx, seat: usize, s: &PublicSeat, k: usize, r: Rect) {
    let rt = &ctx.data.player_board.research_track;
    let t = ctx.text();
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
