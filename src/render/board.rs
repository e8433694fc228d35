//! The main board image, top to bottom: the header (round, phase, whose turn, the seats), the
//! map (`moon` or `belt`), the card display, the bonus spaces and tiles, the company tracks
//! (`tracks`), the research display with the supplement space, the round track, the majority
//! tiers strip; below it the threat card's requirement and consequence (`notes`), the mission
//! cards strip (`missions`) when those modules are in play, and the final scores (`scores`) once
//! the game is over. This module draws the header and the panels on the right and at the
//! bottom itself and calls the others in order; shared pieces come from `widgets`.

use super::geometry::MoonGeometry;
use super::icons::{self, Ctx, Icon, Piece};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::widgets::{bonus_space_label, empty_slot, panel, phase_key, task_words};
use crate::data::board::{BonusSpaceEntry, BonusSpaceKind, MajorityCompare};
use crate::data::{BoardSide, Requirement, Reward};
use crate::engine;
use crate::engine::state::{GameState, Phase, PlanRef, TileKind, TileState};
use crate::engine::view::{PublicSeat, SeatView};

const HEADER_BG: Colour = Colour([0x23, 0x27, 0x33]);
const HEADER_CHIP: Colour = Colour([0x38, 0x3E, 0x4E]);
const HEADER_TEXT: Colour = Colour([0xE8, 0xE6, 0xE1]);

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, side: BoardSide, below: &Below) {
    header(p, ctx, view);
    let geom = MoonGeometry::new(ctx.data, ctx.layout);
    match side {
        BoardSide::Moon => super::moon::draw(p, ctx, view, &geom),
        BoardSide::Belt => super::belt::draw(p, ctx, view, &geom),
    }
    card_display(p, ctx, view);
    bonus_spaces(p, ctx, view);
    super::tracks::draw(p, ctx, view);
    research_display(p, ctx, view);
    rounds(p, ctx, view);
    super::notes::draw_tiers(p, ctx, below.tiers);
    super::notes::draw_threat(p, ctx, view, below.threat);
    super::missions::board_strip(p, ctx, view, below.missions);
    super::scores::draw(p, ctx, view, below.scores);
}

/// The tops of the strips at the bottom of the board image, in order: majority tiers (part of
/// the board), threat, missions, final scores; and the image's height.
pub(crate) struct Below {
    pub tiers: f32,
    pub threat: f32,
    pub missions: f32,
    pub scores: f32,
    pub height: u32,
}

/// Where each strip below the board goes for this view: each strip is as tall as its text
/// needs (measured with `p`), and the image grows to hold them.
pub(crate) fn below(p: &Painter, ctx: &Ctx, view: &SeatView) -> Below {
    let layout = ctx.layout;
    let gap = 8.0;
    let after = |top: f32, h: f32| if h > 0.0 { top + h + gap } else { top };
    // The tiers strip is the bottom of the board itself (the board's height leaves room for
    // its usual height); the others follow it.
    let tiers = layout.board.height as f32 - gap - layout.board.tiers.h;
    let threat = after(tiers, super::notes::tiers_height(p, ctx));
    let missions = after(threat, super::notes::threat_height(p, ctx, view));
    let scores = after(missions, super::missions::strip_height(p, ctx, view));
    let bottom = after(scores, super::scores::height(layout, view));
    Below {
        tiers,
        threat,
        missions,
        scores,
        height: bottom.ceil() as u32,
    }
}

fn header(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let r = ctx.layout.board.header.rect;
    let t = ctx.text();
    p.fill_rect(r, HEADER_BG);
    let line1 = r.y + r.h * 0.28;
    let line2 = r.y + r.h * 0.72;
    let light = HEADER_TEXT;
    let rounds = ctx.rounds();
    let mut x = r.x + 14.0;
    if view.phase == Phase::Finished {
        x += p.text(
            x,
            line1,
            t.big,
            Weight::Bold,
            Colour::WHITE,
            Align::Left,
            &ctx.t("image.game_over"),
        );
    } else {
        x += p.text(
            x,
            line1,
            t.big,
            Weight::Bold,
            Colour::WHITE,
            Align::Left,
            &ctx.f(
                "image.round",
                &[("round", &view.round), ("rounds", &rounds)],
            ),
        );
        x += 14.0;
        x += p.text(
            x,
            line1,
            t.label,
            Weight::Regular,
            light,
            Align::Left,
            &ctx.t(phase_key(&view.phase)),
        );
    }
    whose_turn(p, ctx, view, x + 24.0, r.right() - 14.0, line1);
    // Seat chips.
    let n = view.seats.len().max(1) as f32;
    let gap = 8.0;
    let chip_w = ((r.w - 20.0 - gap * (n - 1.0)) / n).min(300.0);
    for (i, seat) in view.seats.iter().enumerate() {
        let cr = Rect::new(
            r.x + 10.0 + i as f32 * (chip_w + gap),
            line2 - 17.0,
            chip_w,
            34.0,
        );
        seat_chip(p, ctx, view, i, seat, cr);
    }
}

/// Right of the round: the active seat and what it is doing, or whom the planning waits for.
fn whose_turn(p: &mut Painter, ctx: &Ctx, view: &SeatView, status_x: f32, right: f32, line1: f32) {
    let t = ctx.text();
    let light = HEADER_TEXT;
    match (&view.phase, view.active) {
        (Phase::Action, Some(a)) => {
            if let Some(seat) = view.seats.get(a) {
                let what = view
                    .pending
                    .as_ref()
                    .map(|t| task_words(ctx, t))
                    .unwrap_or_default();
                let name = &crate::text::sanitize_name(&seat.name);
                let name_w = p.text_width(t.label, Weight::Bold, name).min(260.0);
                let what_w = p.text_width(t.body, Weight::Regular, &what);
                let total = 22.0 + 30.0 + name_w + 12.0 + what_w;
                let mut sx = (right - total).max(status_x);
                // Play arrow.
                p.polygon(
                    &[(sx, line1 - 9.0), (sx + 14.0, line1), (sx, line1 + 9.0)],
                    ctx.layout.canvas.highlight,
                );
                sx += 22.0;
                icons::seat_marker(p, ctx, seat.colour, sx + 13.0, line1, 26.0);
                sx += 30.0;
                sx += p.text_fit(
                    sx,
                    line1,
                    t.label,
                    Weight::Bold,
                    ctx.layout.canvas.highlight,
                    Align::Left,
                    name,
                    260.0,
                );
                sx += 12.0;
                p.text_fit(
                    sx,
                    line1,
                    t.body,
                    Weight::Regular,
                    light,
                    Align::Left,
                    &what,
                    (right - sx).max(40.0),
                );
            }
        }
        (Phase::Planning | Phase::Setup, _) if !view.waiting_on.is_empty() => {
            let label = ctx.t("image.waiting_for");
            let label = label.as_str();
            let lw = p.text_width(t.body, Weight::Regular, label);
            let n = view.waiting_on.len() as f32;
            let total = lw + 8.0 + n * 30.0;
            let mut sx = (right - total).max(status_x);
            sx += p.text(
                sx,
                line1,
                t.body,
                Weight::Regular,
                light,
                Align::Left,
                label,
            );
            sx += 8.0;
            for &s in &view.waiting_on {
                if let Some(seat) = view.seats.get(s) {
                    icons::seat_marker(p, ctx, seat.colour, sx + 13.0, line1, 26.0);
                    sx += 30.0;
                }
            }
        }
        _ => {}
    }
}

/// One seat's chip in the header: symbol, name, coins, first player and status tags.
fn seat_chip(p: &mut Painter, ctx: &Ctx, view: &SeatView, i: usize, seat: &PublicSeat, cr: Rect) {
    let t = ctx.text();
    let active = view.active == Some(i) && view.phase == Phase::Action;
    let (bg, fg) = if active {
        (ctx.layout.canvas.highlight, ctx.ink())
    } else {
        (HEADER_CHIP, Colour::WHITE)
    };
    p.round_rect(cr, 8.0, bg);
    icons::seat_marker(p, ctx, seat.colour, cr.x + 18.0, cr.cy(), 24.0);
    // Right side: coins, then first player / status.
    let mut rx = cr.right() - 8.0;
    let coins = seat.coins.to_string();
    let cw = p.text_width(t.small, Weight::Bold, &coins).max(16.0) / 2.0 + 4.0;
    icons::coin(p, ctx, rx - cw, cr.cy(), cw.max(12.0), &coins);
    rx -= cw * 2.0 + 6.0;
    let first = ctx.t("image.first");
    let status = if view.first_player == i {
        Some(first.clone())
    } else {
        None
    };
    let extra = if seat.dropped_out {
        Some(ctx.t("image.out"))
    } else if view.phase == Phase::Planning && seat.planned {
        Some("✓".to_string())
    } else {
        None
    };
    for word in [extra, status].into_iter().flatten() {
        let word = word.as_str();
        let w = p.text_width(t.small, Weight::Bold, word) + 10.0;
        let tr = Rect::new(rx - w, cr.cy() - 11.0, w, 22.0);
        let tag_bg = if word == first {
            Colour::WHITE
        } else {
            Colour([0x8E, 0x96, 0xA8])
        };
        p.round_rect(tr, 6.0, tag_bg);
        p.text(
            tr.cx(),
            tr.cy(),
            t.small,
            Weight::Bold,
            ctx.ink(),
            Align::Centre,
            word,
        );
        rx -= w + 5.0;
    }
    let name_x = cr.x + 36.0;
    p.text_fit(
        name_x,
        cr.cy(),
        t.body,
        Weight::Bold,
        fg,
        Align::Left,
        &crate::text::sanitize_name(&seat.name),
        (rx - name_x - 4.0).max(10.0),
    );
}

// ------------------------------------------------------------------ card display

fn card_display(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.cards;
    let note = ctx.f(
        "image.stack_discard",
        &[
            ("stack", &view.action_stack_size),
            ("discard", &view.discard.len()),
        ],
    );
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), &note);
    let d = &ctx.data.board.card_display;
    let (cols, rows) = (d.columns.max(1) as f32, d.rows.max(1) as f32);
    let cw = (body.w - l.gap * (cols - 1.0)) / cols;
    let ch = (body.h - l.gap * (rows - 1.0)) / rows;
    for space in &d.spaces {
        let r = Rect::new(
            body.x + space.col as f32 * (cw + l.gap),
            body.y + space.row as f32 * (ch + l.gap),
            cw,
            ch,
        );
        let label = format!("#{}", space.number);
        match view
            .display
            .get(space.number as usize - 1)
            .copied()
            .flatten()
        {
            Some(id) => {
                let cost = ctx
                    .data
                    .cards
                    .get(id as usize)
                    .map(|c| c.cost + space.board_cost);
                icons::card(p, ctx, r, id, icons::CardFace::Up, cost, Some(&label));
            }
            None => {
                empty_slot(p, ctx, r, &label);
            }
        }
        p.tag_last(
            &label,
            Role::DisplaySpace {
                number: space.number,
            },
        );
    }
}

// ------------------------------------------------------------------ bonus spaces

fn bonus_spaces(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.bonus;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let area = &ctx.data.board.bonus_area;
    let (cols, rows) = (area.columns.max(1) as f32, area.rows.max(1) as f32);
    let cw = (body.w - l.gap * (cols - 1.0)) / cols;
    let ch = (body.h - l.gap * (rows - 1.0)) / rows;
    for (i, space) in ctx.data.board.bonus_spaces.iter().enumerate() {
        let r = Rect::new(
            body.x + space.col as f32 * (cw + l.gap),
            body.y + space.row as f32 * (ch + l.gap),
            cw,
            ch,
        );
        bonus_space(p, ctx, view, i, space, r);
    }
}

/// One bonus space: its label, what it compares or costs and gives, the state of its tile,
/// Luna's value to beat, and the bonus marker on it.
fn bonus_space(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    i: usize,
    space: &BonusSpaceEntry,
    r: Rect,
) {
    let t = ctx.text();
    let marker = view.bonus_spaces.get(i).copied().flatten();
    let fill = match marker.and_then(|m| view.seats.get(m.seat)) {
        Some(seat) => ctx.seat_style(seat.colour).1.mix(Colour::WHITE, 0.6),
        None => Colour([0xF6, 0xF4, 0xEF]),
    };
    p.round_box(r, 8.0, fill, ctx.layout.canvas.panel_border, 1.5);
    let label = bonus_space_label(ctx, space);
    let lw = icons::row_width(p, ctx, &label);
    icons::draw_row(p, ctx, r.cx() - lw / 2.0, r.y + 17.0, &label);
    // What it compares / costs and gives.
    let pieces = space_pieces(ctx, space);
    let pw = icons::row_width(p, ctx, &pieces);
    icons::draw_row(p, ctx, r.cx() - pw / 2.0, r.y + r.h * 0.47, &pieces);
    // Tile state on tile spaces.
    let tile = space.reward.iter().find_map(|rw| match rw {
        Reward::ReserveBonusTile { tile } => TileKind::from_data_id(tile),
        _ => None,
    });
    let by = r.bottom() - 16.0;
    if let Some(kind) = tile {
        tile_state(p, ctx, view, kind, r, marker.is_some(), by);
    }
    // Luna's majority cards: the value a human has to beat here.
    if let (BonusSpaceKind::Majority, Some(cmp), None) = (space.kind, space.compare, marker) {
        luna_values(p, ctx, view, cmp, r, by);
    }
    if let Some(m) = marker {
        if let Some(seat) = view.seats.get(m.seat) {
            let mx = if tile.is_some() {
                r.right() - 17.0
            } else {
                r.cx()
            };
            icons::seat_marker(p, ctx, seat.colour, mx, by - 2.0, 28.0);
            if m.one_time {
                p.text(
                    r.cx() + 18.0,
                    by,
                    t.small,
                    Weight::Bold,
                    ctx.ink(),
                    Align::Left,
                    "1×",
                );
            }
        }
    }
}

/// What a bonus space compares (a majority's first-tier reward) or costs and gives.
fn space_pieces(ctx: &Ctx, space: &BonusSpaceEntry) -> Vec<Piece> {
    let mut pieces = Vec::new();
    match space.kind {
        BonusSpaceKind::Majority => {
            // The first tier's reward: the company track (or coins) it moves.
            if let Some(tier) = space.tiers.first() {
                for rw in &tier.reward {
                    icons::reward_pieces(ctx, rw, &mut pieces);
                }
            }
        }
        BonusSpaceKind::Standard | BonusSpaceKind::Tile => {
            for rq in &space.requirement {
                if !matches!(rq, Requirement::DiscardFromHand { .. }) {
                    icons::requirement_pieces(ctx, rq, &mut pieces);
                }
            }
            for rw in &space.reward {
                match rw {
                    Reward::TakeFirstPlayerMarker
                    | Reward::ReserveBonusTile { .. }
                    | Reward::BuyDisplayCard { discount: 0 } => {}
                    other => icons::reward_pieces(ctx, other, &mut pieces),
                }
            }
        }
    }
    pieces
}

/// A tile space's tile: free, or held (used or not) by a seat; left of a bonus marker on the
/// space.
fn tile_state(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    kind: TileKind,
    r: Rect,
    marked: bool,
    by: f32,
) {
    let t = ctx.text();
    let state = view.tiles.get(GameState::tile_index(kind)).copied();
    let (who, word) = match state {
        Some(TileState::Held {
            seat, used: true, ..
        }) => (Some(seat), ctx.t("image.used")),
        Some(TileState::Held { seat, .. }) => (Some(seat), ctx.t("image.held")),
        // A marker on the space says it all: the tile is reserved by that marker's player, or
        // (Luna's marker) stays where it is but is not free to take this round.
        _ if marked => (None, String::new()),
        _ => (None, ctx.t("image.free")),
    };
    let word = word.as_str();
    // With a bonus marker on the space, the tile's state moves left of it.
    let (x0, align) = if marked {
        (r.x + 5.0, Align::Left)
    } else {
        (r.cx(), Align::Centre)
    };
    match who.and_then(|s| view.seats.get(s)) {
        Some(seat) => {
            let ww = p.text_width(t.small, Weight::Regular, word);
            let left = if align == Align::Left {
                x0
            } else {
                x0 - (20.0 + ww) / 2.0
            };
            icons::seat_marker(p, ctx, seat.colour, left + 9.0, by, 18.0);
            p.text(
                left + 20.0,
                by,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Left,
                word,
            );
        }
        None => {
            p.text(x0, by, t.small, Weight::Regular, ctx.muted(), align, word);
        }
    }
}

/// Each Luna seat's value on a majority space: what a human has to beat there.
fn luna_values(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    cmp: MajorityCompare,
    r: Rect,
    by: f32,
) {
    let t = ctx.text();
    for seat in &view.seats {
        // Nothing to beat while her majority slots are empty (between Preparation and
        // Planning step b).
        let Some(v) = seat
            .luna
            .as_ref()
            .filter(|l| l.majority.iter().any(Option::is_some))
            .and_then(|l| engine::luna_majority_value(ctx.data, &l.majority, cmp))
        else {
            continue;
        };
        let label = v.to_string();
        let ww = p.text_width(t.small, Weight::Bold, &label);
        let x0 = r.cx() - (22.0 + ww) / 2.0;
        icons::seat_marker(p, ctx, seat.colour, x0 + 9.0, by, 18.0);
        p.text(
            x0 + 22.0,
            by,
            t.small,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &label,
        );
    }
}

// ------------------------------------------------------------------ research display

fn research_display(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.research;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let rd = &ctx.data.board.research_display;
    let rows = rd.rows.max(1) as f32;
    let per_row = rd.positions_per_row.max(1) as f32;
    let rh = (body.h - l.gap * (rows - 1.0)) / rows;
    let t = ctx.text();
    // Supplement space: a hexagon with its coins.
    let hx = Rect::new(body.x, body.y, l.hex_px, body.h);
    let (cx, cy) = (hx.cx(), hx.cy());
    let (w2, h2) = (hx.w / 2.0, (hx.h / 2.0).min(hx.w * 0.9));
    let hex = |d: f32| {
        vec![
            (cx - w2 - d, cy),
            (cx - w2 * 0.5 - d * 0.5, cy - h2 - d),
            (cx + w2 * 0.5 + d * 0.5, cy - h2 - d),
            (cx + w2 + d, cy),
            (cx + w2 * 0.5 + d * 0.5, cy + h2 + d),
            (cx - w2 * 0.5 - d * 0.5, cy + h2 + d),
        ]
    };
    p.polygon(&hex(0.0), ctx.layout.canvas.alert);
    p.polygon(&hex(-3.0), Colour([0xFB, 0xEE, 0xEC]));
    icons::coin(p, ctx, cx, cy, 17.0, &view.supplement_coins.to_string());
    // Rows.
    let supply_x = hx.right() + l.gap;
    let plans_x = supply_x + l.supply_px + l.gap;
    let pw = (body.right() - plans_x - l.gap * (per_row - 1.0)) / per_row;
    for (ri, letter) in rd.row_letters.iter().enumerate() {
        let y = body.y + ri as f32 * (rh + l.gap);
        let left = view.plan_supply_sizes.get(ri).copied().unwrap_or(0);
        let sr = Rect::new(supply_x, y, l.supply_px, rh);
        p.round_box(sr, 6.0, Colour([0x46, 0x4E, 0x63]), ctx.ink(), 1.5);
        p.text(
            sr.cx(),
            sr.y + rh * 0.32,
            t.label,
            Weight::Bold,
            Colour::WHITE,
            Align::Centre,
            &letter.to_string(),
        );
        p.text(
            sr.cx(),
            sr.y + rh * 0.72,
            t.small,
            Weight::Regular,
            Colour([0xD0, 0xD4, 0xE0]),
            Align::Centre,
            &left.to_string(),
        );
    }
    for (i, space) in rd.spaces.iter().enumerate() {
        let r = Rect::new(
            plans_x + space.position as f32 * (pw + l.gap),
            body.y + space.row as f32 * (rh + l.gap),
            pw,
            rh,
        );
        let outline = if space.red_framed {
            ctx.layout.canvas.alert
        } else {
            ctx.layout.canvas.panel_border
        };
        match view
            .research_display
            .get(i)
            .copied()
            .flatten()
            .and_then(|id| ctx.data.research.plans.get(id as usize))
        {
            Some(plan) => icons::plan(
                p,
                ctx,
                r,
                &icons::PlanFace {
                    id: plan.id.clone(),
                    requirements: &plan.requirements,
                    reward: &plan.reward,
                },
                outline,
            ),
            None => {
                empty_slot(p, ctx, r, "");
                if space.red_framed {
                    p.stroke_rect(r, 2.0, outline);
                }
            }
        }
    }
}

// ------------------------------------------------------------------ round track

fn rounds(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.rounds;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let spaces = &ctx.data.board.round_track.spaces;
    let n = spaces.len().max(1) as f32;
    let rh = body.h / n;
    let t = ctx.text();
    for (i, &round) in spaces.iter().enumerate() {
        let y = body.y + i as f32 * rh;
        let cy = y + rh / 2.0;
        let current = round == view.round as u32 && view.phase != Phase::Finished;
        let past = (round as u8) < view.round || view.phase == Phase::Finished;
        let br = Rect::new(body.x, cy - rh / 2.0 + 1.5, 30.0, rh - 3.0);
        let (bg, fg) = if current {
            (ctx.layout.canvas.highlight, ctx.ink())
        } else if past {
            (ctx.layout.canvas.faint, ctx.muted())
        } else {
            (Colour([0x46, 0x4E, 0x63]), Colour::WHITE)
        };
        p.round_rect(br, 6.0, bg);
        if current {
            p.round_box(br, 6.0, bg, ctx.ink(), 2.0);
        }
        p.text(
            br.cx(),
            cy,
            t.small,
            Weight::Bold,
            fg,
            Align::Centre,
            &round.to_string(),
        );
        let Some(sp) = ctx
            .data
            .research
            .special_plans
            .iter()
            .find(|s| s.round == round)
        else {
            continue;
        };
        let index = ctx
            .data
            .research
            .special_plans
            .iter()
            .position(|s| s.round == round);
        let slot = index.and_then(|k| view.specials.get(k)).copied();
        // Taken by a player, or discarded by Luna: one that nobody holds in a game with Luna
        // (a player could also have covered it with a later plan, which is never worth it).
        let plan = PlanRef::Special(index.unwrap_or(0) as u8);
        let held = view.seats.iter().any(|s| {
            s.luna.is_none()
                && (s.acquired.contains(&plan)
                    || s.research.iter().flatten().any(|p| p.plan == plan))
        }) || view.seats.iter().all(|s| s.luna.is_none());
        let mut x = br.right() + 8.0;
        let (taken, face_up, coin_under) = slot
            .map(|s| (s.taken, s.face_up, s.coin_under))
            .unwrap_or((false, false, false));
        let ink = if taken || !face_up {
            ctx.muted()
        } else {
            ctx.ink()
        };
        x += p.text(x, cy, t.small, Weight::Bold, ink, Align::Left, &sp.id);
        x += 6.0;
        if taken {
            p.text(
                x,
                cy,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Left,
                &ctx.t(if held {
                    "image.taken"
                } else {
                    "image.discarded"
                }),
            );
        } else {
            let pieces = [
                Piece::Icon(Icon::Coins, format!("-{}", sp.coin_cost)),
                Piece::Muted("→".into()),
                Piece::Icon(Icon::Points, sp.value.to_string()),
            ];
            x += icons::draw_row(p, ctx, x, cy, &pieces);
            if face_up {
                p.text(
                    x + 6.0,
                    cy,
                    t.small,
                    Weight::Bold,
                    ctx.layout.canvas.positive,
                    Align::Left,
                    &ctx.t("image.open"),
                );
            }
        }
        if coin_under {
            icons::coin(p, ctx, body.right() - 12.0, cy, 10.0, "");
        }
    }
}
