//! The Belt side of the board (belt.toml): stations with their outpost and shuttle columns,
//! printed-shuttle station paths, flight paths with their shuttle spaces and energy icons,
//! asteroids with their outpost spaces and reward screens, and the threat card's place.
//!
//! Occupancy comes from the view's `belt` (outposts per asteroid outpost space, shuttles per
//! flight path) and `stations` (the outer columns hold outposts, the middle one shuttles); a
//! view without Belt state draws the Belt empty.

use super::geometry::MoonGeometry;
use super::icons::{self, Ctx};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::widgets::{wrap, StationFrame};
use crate::engine::view::SeatView;

const SPACE_BG: Colour = Colour([0x1F, 0x24, 0x33]);

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
    let belt = &ctx.data.belt;
    let bl = &ctx.layout.board.belt;
    let panel = g.panel();
    p.round_rect(panel, 12.0, SPACE_BG);
    let map = g.map();
    p.round_rect(map, 8.0, Colour([0x2C, 0x33, 0x47]));
    let pt = |pos: [i32; 2]| g.px(pos[0] as f32, pos[1] as f32);
    let asteroid_at = |id: u32| belt.asteroid(id).map(|a| pt(a.pos));
    // The threat card's place, drawn only when a threat is in play: the card while it is on
    // the board, then who dealt with it.
    if let Some(t) = view.threat.as_ref() {
        draw_threat_place(p, ctx, view, g, t);
    }
    // Flight paths: asteroid - shuttle space - asteroid, energy icons on the parts.
    for fp in &belt.flight_paths {
        let s = pt(fp.pos);
        for (k, end) in fp.ends.iter().enumerate() {
            if let Some(a) = asteroid_at(*end) {
                p.line(s, a, 3.0, bl.path);
                if fp.energy.get(k).copied().unwrap_or(false) {
                    energy_mark(p, ctx, ((s.0 + a.0) / 2.0, (s.1 + a.1) / 2.0));
                }
            }
        }
    }
    // Station paths with their printed shuttles.
    for sp in &belt.station_paths {
        let (Some(st), Some(a)) = (belt.station(sp.station), asteroid_at(sp.asteroid)) else {
            continue;
        };
        let s = pt(st.anchor);
        p.line(
            s,
            a,
            4.0,
            ctx.company_colour(sp.station).mix(Colour::WHITE, 0.2),
        );
        let mid = ((s.0 + a.0) / 2.0, (s.1 + a.1) / 2.0);
        shuttle(p, ctx, mid, 9.0, ctx.company_colour(sp.printed_shuttle));
        if sp.energy {
            energy_mark(p, ctx, ((mid.0 + a.0) / 2.0, (mid.1 + a.1) / 2.0));
        }
    }
    shuttle_spaces(p, ctx, view, g);
    asteroids(p, ctx, view, g);
    stations(p, ctx, view, g);
}

/// Shuttle spaces: the company's colour and letter when a shuttle stands there; the letter
/// goes where it covers no asteroid, outpost space, reward or other shuttle space.
fn shuttle_spaces(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
    let belt = &ctx.data.belt;
    let bl = &ctx.layout.board.belt;
    let ink = ctx.ink();
    let pt = |pos: [i32; 2]| g.px(pos[0] as f32, pos[1] as f32);
    let small = ctx.text().small;
    let taken_spots = occupied_spots(ctx, g);
    let shuttles = view
        .belt
        .as_ref()
        .map(|b| b.shuttles.as_slice())
        .unwrap_or(&[]);
    for (i, fp) in belt.flight_paths.iter().enumerate() {
        let (x, y) = pt(fp.pos);
        let r = bl.shuttle_px / 2.0;
        if fp.reward_icon {
            icons::icon(p, ctx, icons::Icon::Track, x + r + 10.0, y + r, 16.0, "");
        }
        match shuttles.get(i).copied().flatten() {
            Some(c) => {
                let colour = ctx.company_colour(c);
                p.disc(x, y, r + 2.0, colour, ink, 2.0);
                p.role(Role::BeltSpace {
                    number: fp.shuttle_space,
                });
                p.text(
                    x,
                    y,
                    small,
                    Weight::Bold,
                    colour.text_on(),
                    Align::Centre,
                    &fp.shuttle_space.to_string(),
                );
                let (cx, cy) = chip_spot(&taken_spots, (x, y), r);
                icons::company_chip(p, ctx, c, cx, cy, CHIP);
            }
            None => {
                p.disc(x, y, r, Colour([0xE9, 0xEC, 0xF2]), ink, 2.0);
                p.role(Role::BeltSpace {
                    number: fp.shuttle_space,
                });
                p.text(
                    x,
                    y,
                    small,
                    Weight::Bold,
                    ink,
                    Align::Centre,
                    &fp.shuttle_space.to_string(),
                );
            }
        }
    }
}

/// Asteroids: number, outpost spaces below (outpost tokens where taken), reward beside.
fn asteroids(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
    let belt = &ctx.data.belt;
    let bl = &ctx.layout.board.belt;
    let ink = ctx.ink();
    let pt = |pos: [i32; 2]| g.px(pos[0] as f32, pos[1] as f32);
    let small = ctx.text().small;
    let outposts = view
        .belt
        .as_ref()
        .map(|b| b.outposts.as_slice())
        .unwrap_or(&[]);
    for (ai, a) in belt.asteroids.iter().enumerate() {
        let (x, y) = pt(a.pos);
        let r = bl.asteroid_px / 2.0;
        p.disc(x, y, r, Colour([0x9A, 0x92, 0x86]), ink, 2.0);
        p.role(Role::BeltSpace { number: a.id });
        p.text(
            x,
            y,
            small,
            Weight::Bold,
            ink,
            Align::Centre,
            &a.id.to_string(),
        );
        let n = a.outpost_spaces as usize;
        let sq = super::geometry::BELT_OUTPOST_PX;
        let taken = outposts.get(ai).map(Vec::as_slice).unwrap_or(&[]);
        for k in 0..n {
            let Some((cx, cy)) = g.belt_outpost_space(ctx.data, ctx.layout, ai, k) else {
                continue;
            };
            let linked = a
                .linked_gas_spaces
                .as_ref()
                .is_some_and(|l| l.contains(&(k as u32 + 1)));
            match taken.get(k).copied().flatten() {
                Some(c) => icons::outpost_token(p, ctx, c, cx, cy, sq),
                None => {
                    let fill = if linked {
                        ctx.layout.icons.tank.colour
                    } else {
                        Colour::WHITE
                    };
                    let cell =
                        Rect::new(cx - sq / 2.0 + 2.0, cy - sq / 2.0 + 2.0, sq - 4.0, sq - 4.0);
                    p.fill_rect(cell.inset(-1.5), ink);
                    p.fill_rect(cell, fill);
                }
            }
        }
        // Reward screen beside the asteroid.
        for (k, st) in a.reward.iter().enumerate() {
            let (kind, v) = icons::structure_icon(st);
            icons::icon(
                p,
                ctx,
                kind,
                x + r + 14.0,
                y - r * 0.5 + k as f32 * 24.0,
                20.0,
                &v.to_string(),
            );
        }
    }
}

/// The four stations: their outpost columns and shuttle column, the company chip and share
/// value beside each.
fn stations(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
    let belt = &ctx.data.belt;
    let ink = ctx.ink();
    let pt = |pos: [i32; 2]| g.px(pos[0] as f32, pos[1] as f32);
    let layout = &belt.station_layout;
    for st in &belt.stations {
        let rect = g.rect(st.rect.map(|v| v as f32)).inset(3.0);
        let frame = StationFrame {
            r: rect,
            edge: st.edge.clone(),
        };
        let colour = ctx.company_colour(st.company);
        p.round_box(rect, 8.0, colour.mix(Colour::WHITE, 0.62), ink, 2.0);
        let cols = &layout.columns;
        let col_w =
            (frame.along_len() - 6.0 * (cols.len() as f32 + 1.0)) / cols.len().max(1) as f32;
        let depth = frame.depth_len();
        let state_cols = view.stations.get(st.company.index());
        for (ci, name) in cols.iter().enumerate() {
            let spaces = layout.spaces(name).max(1);
            let coins = layout.column_coins(name);
            let crossed = layout.crossed_out_space.get(name).copied().unwrap_or(0);
            let a0 = 6.0 + ci as f32 * (col_w + 6.0);
            let sd = (depth - 8.0) / spaces as f32;
            let column = state_cols.and_then(|c| c.get(ci)).copied();
            for sp in 1..=spaces {
                let cell = frame.rect(a0, col_w, 4.0 + (sp - 1) as f32 * sd + 0.5, sd - 1.0);
                let covered = column.is_some_and(|c| c.covers_in(sp as u8, spaces as u8));
                if covered {
                    p.fill_rect(cell, ink);
                    p.fill_rect(cell.inset(1.0), colour);
                } else {
                    p.fill_rect(cell, Colour::WHITE);
                    let n = coins.get(sp - 1).copied().unwrap_or(0);
                    for k in 0..n {
                        let off = (k as f32 - (n as f32 - 1.0) / 2.0) * 7.0;
                        let (x, y) = if frame.horizontal() {
                            (cell.cx() + off, cell.cy())
                        } else {
                            (cell.cx(), cell.cy() + off)
                        };
                        p.circle(x, y, 2.5, ctx.layout.canvas.coin_rim);
                    }
                    if sp == crossed {
                        let a = ctx.layout.canvas.alert;
                        p.line((cell.x, cell.y), (cell.right(), cell.bottom()), 1.2, a);
                    }
                }
            }
            if name == &layout.shuttle_column {
                let c = frame.rect(a0, col_w, 0.0, depth);
                p.stroke_rect(c, 1.0, ink);
            }
        }
        // Letter and share value outside the columns: on the panel corner side.
        let (x, y) = pt(st.anchor);
        let _ = (x, y);
        let value = view
            .share_values
            .get(st.company.index())
            .copied()
            .unwrap_or(0);
        let (lx, ly) = if frame.horizontal() {
            (rect.x - 22.0, rect.cy())
        } else {
            (rect.cx(), rect.y - 22.0)
        };
        icons::company_chip(p, ctx, st.company, lx, ly, 26.0);
        let (vx, vy) = if frame.horizontal() {
            (rect.right() + 22.0, rect.cy())
        } else {
            (rect.cx(), rect.bottom() + 22.0)
        };
        icons::coin(p, ctx, vx, vy, 15.0, &value.to_string());
    }
}

fn energy_mark(p: &mut Painter, ctx: &Ctx, at: (f32, f32)) {
    let (x, y) = at;
    let c = ctx.card_style("energy").colour;
    let bolt = |d: f32| {
        vec![
            (x + 2.0 + d, y - 9.0 - d),
            (x - 5.0 - d, y + 1.0),
            (x - 0.5, y + 1.0),
            (x - 2.0 - d, y + 9.0 + d),
            (x + 5.0 + d, y - 1.0),
            (x + 0.5, y - 1.0),
        ]
    };
    p.polygon(&bolt(1.2), ctx.ink());
    p.polygon(&bolt(0.0), c);
}

fn shuttle(p: &mut Painter, ctx: &Ctx, at: (f32, f32), r: f32, colour: Colour) {
    let (x, y) = at;
    let pts = |d: f32| {
        vec![
            (x, y - r - d),
            (x + r * 0.7 + d, y + r * 0.8 + d),
            (x, y + r * 0.4),
            (x - r * 0.7 - d, y + r * 0.8 + d),
        ]
    };
    p.polygon(&pts(1.5), ctx.ink());
    p.polygon(&pts(0.0), colour);
}

/// The threat card between shuttle spaces 11 and 16: its name while it is on the board, then
/// "dealt with" and the seat that removed it.
fn draw_threat_place(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    g: &MoonGeometry,
    t: &crate::engine::threats::ThreatState,
) {
    let place = g.rect(ctx.data.belt.threat_space.rect.map(|v| v as f32));
    let small = ctx.text().small;
    let header = ctx.t("image.threat");
    // On the board: "Threat" and the card's name, over as many lines as it needs; the card is
    // drawn a little wider and taller than its place where the name asks for it.
    let name_lines = match ctx.data.threats.threats.get(t.card as usize) {
        Some(card) if t.on_board => {
            let name = ctx.texts.resolve(&card.display_name());
            wrap(
                p,
                ctx,
                small,
                Weight::Regular,
                &name,
                place.w + 2.0 * THREAT_WIDEN - 10.0,
            )
        }
        _ => Vec::new(),
    };
    let widest = name_lines
        .iter()
        .map(|l| p.text_width(small, Weight::Regular, l))
        .chain([p.text_width(small, Weight::Bold, &header)])
        .fold(0.0, f32::max);
    let w = (widest + 10.0).max(place.w);
    let h = (28.0 + 22.0 * name_lines.len() as f32).max(place.h);
    let tr = Rect::new(place.cx() - w / 2.0, place.cy() - h / 2.0, w, h);
    p.round_box(
        tr,
        6.0,
        Colour([0x5A, 0x2A, 0x2A]),
        ctx.layout.canvas.alert,
        2.0,
    );
    if t.on_board {
        let top = tr.cy() - 11.0 * name_lines.len() as f32;
        p.text(
            tr.cx(),
            top,
            small,
            Weight::Bold,
            Colour::WHITE,
            Align::Centre,
            &header,
        );
        for (k, line) in name_lines.iter().enumerate() {
            p.text(
                tr.cx(),
                top + 22.0 * (k + 1) as f32,
                small,
                Weight::Regular,
                Colour::WHITE,
                Align::Centre,
                line,
            );
        }
    } else {
        p.text(
            tr.cx(),
            tr.cy() - 12.0,
            small,
            Weight::Regular,
            Colour::WHITE,
            Align::Centre,
            &header,
        );
        p.text(
            tr.cx(),
            tr.cy() + 12.0,
            small,
            Weight::Regular,
            Colour::WHITE,
            Align::Centre,
            &ctx.t("image.dealt_with"),
        );
        if let Some(seat) = t.removed_by.and_then(|s| view.seats.get(s)) {
            icons::seat_marker(p, ctx, seat.colour, tr.cx(), tr.cy() + 40.0, 24.0);
        }
    }
}

/// How much wider than its place (on each side) the threat card may be drawn for its name.
const THREAT_WIDEN: f32 = 30.0;

/// The company letter chip beside a shuttle.
const CHIP: f32 = 18.0;

/// What the Belt map draws at fixed places (asteroids with their outpost spaces and reward
/// screens, shuttle spaces with their reward icons), as boxes a chip must not cover.
fn occupied_spots(ctx: &Ctx, g: &MoonGeometry) -> Vec<Rect> {
    let belt = &ctx.data.belt;
    let bl = &ctx.layout.board.belt;
    let around =
        |(x, y): (f32, f32), half: f32| Rect::new(x - half, y - half, 2.0 * half, 2.0 * half);
    let mut out = Vec::new();
    for (ai, a) in belt.asteroids.iter().enumerate() {
        let (x, y) = g.px(a.pos[0] as f32, a.pos[1] as f32);
        let r = bl.asteroid_px / 2.0;
        out.push(around((x, y), r));
        for k in 0..a.outpost_spaces as usize {
            if let Some(c) = g.belt_outpost_space(ctx.data, ctx.layout, ai, k) {
                out.push(around(c, super::geometry::BELT_OUTPOST_PX / 2.0));
            }
        }
        for k in 0..a.reward.len() {
            out.push(around((x + r + 14.0, y - r * 0.5 + k as f32 * 24.0), 10.0));
        }
    }
    for fp in &belt.flight_paths {
        let (x, y) = g.px(fp.pos[0] as f32, fp.pos[1] as f32);
        let r = bl.shuttle_px / 2.0;
        out.push(around((x, y), r + 2.0));
        if fp.reward_icon {
            out.push(around((x + r + 10.0, y + r), 8.0));
        }
    }
    out
}

/// Where the company chip of the shuttle at `(x, y)` (radius `r`) goes: the first spot around
/// it (upper left first) that covers nothing else, else the upper left.
fn chip_spot(taken: &[Rect], (x, y): (f32, f32), r: f32) -> (f32, f32) {
    let d = r + CHIP / 2.0 + 1.0;
    let diagonal = d * std::f32::consts::FRAC_1_SQRT_2;
    let candidates = [
        (x - diagonal, y - diagonal),
        (x + diagonal, y - diagonal),
        (x - diagonal, y + diagonal),
        (x + diagonal, y + diagonal),
        (x, y - d),
        (x, y + d),
        (x - d, y),
        (x + d, y),
    ];
    let half = CHIP / 2.0;
    let clear = |(cx, cy): (f32, f32)| {
        // (The shuttle's own disc is centred on it.)
        let others = taken
            .iter()
            .filter(|t| (t.cx() - x).abs() > 0.5 || (t.cy() - y).abs() > 0.5);
        others.into_iter().all(|t| {
            cx + half <= t.x
                || cx - half >= t.right()
                || cy + half <= t.y
                || cy - half >= t.bottom()
        })
    };
    candidates
        .into_iter()
        .find(|c| clear(*c))
        .unwrap_or(candidates[0])
}
