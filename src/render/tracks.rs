//! The four company tracks on the main board: each track's label (company, track id, share
//! value), its spaces numbered as the text counts them, the share icons, the money barriers and
//! bonus thresholds with what each unlocks, and the seats' markers.

use super::geometry::TrackGeometry;
use super::icons::{self, Ctx};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use crate::data::tracks::TrackEntry;
use crate::data::Company;
use crate::engine::view::SeatView;

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let g = TrackGeometry::new(ctx.data, ctx.layout, &view.tracks);
    for c in Company::ALL {
        let Some(track) = view.tracks.get(c.index()).and_then(|id| ctx.data.track(id)) else {
            continue;
        };
        company_track(p, ctx, view, &g, c, track);
    }
}

/// One company's track: its label, the spaces with their numbers, share icons, barriers and
/// thresholds, and the seats' markers.
fn company_track(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    g: &TrackGeometry,
    c: Company,
    track: &TrackEntry,
) {
    let t = ctx.text();
    let colour = ctx.company_colour(c);
    let row = g.row(c);
    track_label(p, ctx, view, c, track, g.label(c), colour);
    // Spaces.
    let light = colour.mix(Colour::WHITE, 0.82);
    let lighter = colour.mix(Colour::WHITE, 0.9);
    let last = track.last_space as usize;
    for s in 0..=last {
        let cell = g.space(c, s);
        p.fill_rect(cell, if s % 2 == 0 { light } else { lighter });
    }
    let span = Rect::new(
        g.space(c, 0).x,
        row.y,
        g.space(c, last).right() - g.space(c, 0).x,
        row.h,
    );
    p.stroke_rect(span, 1.5, colour.mix(ctx.ink(), 0.35));
    // Space numbers, as the text counts them (DECISIONS B17): steps from the start space.
    let numbers_y = row.bottom() - TrackGeometry::BOTTOM_STRIP - TrackGeometry::NUMBERS / 2.0;
    for s in 0..=last {
        let cell = g.space(c, s);
        p.role(Role::TrackSpace {
            company: c.index(),
            space: s,
        });
        p.text(
            cell.cx(),
            numbers_y,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Centre,
            &s.to_string(),
        );
    }
    share_certificates(p, ctx, g, c, track, colour, row);
    barriers_and_thresholds(p, ctx, view, g, c, track, row);
    // Seat markers.
    let mut by_space: Vec<(usize, Vec<usize>)> = Vec::new();
    for seat in &view.seats {
        let pos = (seat.track_pos.get(c.index()).copied().unwrap_or(0) as usize).min(last);
        match by_space.iter_mut().find(|(s, _)| *s == pos) {
            Some((_, v)) => v.push(seat.colour),
            None => by_space.push((pos, vec![seat.colour])),
        }
    }
    for (space, colours) in by_space {
        let area = g.marker_area(c, space);
        markers_in(p, ctx, area, &colours);
    }
}

/// A track's label: company letter and short name, the track's id, the share value.
fn track_label(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    c: Company,
    track: &TrackEntry,
    lab: Rect,
    colour: Colour,
) {
    let t = ctx.text();
    p.round_box(lab, 8.0, colour, ctx.ink(), 2.0);
    let fg = colour.text_on();
    let y1 = lab.y + lab.h * 0.3;
    let y2 = lab.y + lab.h * 0.72;
    p.disc(lab.x + 20.0, y1, 14.0, Colour::WHITE, ctx.ink(), 1.5);
    p.text(
        lab.x + 20.0,
        y1,
        t.body,
        Weight::Bold,
        ctx.ink(),
        Align::Centre,
        &ctx.company_letter(c),
    );
    p.text_fit(
        lab.x + 40.0,
        y1,
        t.body,
        Weight::Bold,
        fg,
        Align::Left,
        ctx.company_short(c),
        lab.w - 44.0,
    );
    p.text(
        lab.x + 8.0,
        y2,
        t.small,
        Weight::Regular,
        fg,
        Align::Left,
        &track.id,
    );
    let value = view.share_values.get(c.index()).copied().unwrap_or(0);
    let coin_x = lab.right() - 20.0;
    p.text(
        coin_x - 20.0,
        y2,
        t.small,
        Weight::Regular,
        fg,
        Align::Right,
        &ctx.t("image.share"),
    );
    icons::coin(p, ctx, coin_x, y2, 15.0, &value.to_string());
}

/// The share icons above a track's spaces: little certificates with the number of shares.
fn share_certificates(
    p: &mut Painter,
    ctx: &Ctx,
    g: &TrackGeometry,
    c: Company,
    track: &TrackEntry,
    colour: Colour,
    row: Rect,
) {
    let t = ctx.text();
    let strip_y = row.y + TrackGeometry::STRIP / 2.0;
    for &(space, n) in &track.share_icons {
        let cell = g.space(c, space as usize);
        let label = n.to_string();
        // A share certificate: a little document with a folded corner.
        let w = (p.text_width(t.small, Weight::Bold, &label) + 10.0).max(22.0);
        let cert = Rect::new(cell.cx() - w / 2.0, strip_y - 11.0, w, 22.0);
        let fold = 6.0;
        let doc = |d: f32| {
            vec![
                (cert.x - d, cert.y - d),
                (cert.right() - fold + d * 0.4, cert.y - d),
                (cert.right() + d, cert.y + fold - d * 0.4),
                (cert.right() + d, cert.bottom() + d),
                (cert.x - d, cert.bottom() + d),
            ]
        };
        p.polygon(&doc(1.5), ctx.ink());
        p.polygon(&doc(0.0), colour);
        p.polygon(
            &[
                (cert.right() - fold, cert.y),
                (cert.right(), cert.y + fold),
                (cert.right() - fold, cert.y + fold),
            ],
            colour.mix(Colour::WHITE, 0.6),
        );
        p.text(
            cert.cx() - 1.0,
            cert.cy(),
            t.small,
            Weight::Bold,
            colour.text_on(),
            Align::Centre,
            &label,
        );
    }
}

/// Money barriers (red: pay) and bonus thresholds (green: gain, unlocks a track bonus) between
/// a track's spaces, with what each threshold unlocks and the marker on its track bonus space.
fn barriers_and_thresholds(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    g: &TrackGeometry,
    c: Company,
    track: &TrackEntry,
    row: Rect,
) {
    let bar_top = row.y + TrackGeometry::STRIP;
    let bar_bottom = row.bottom() - 2.0;
    let coin_y = row.bottom() - TrackGeometry::BOTTOM_STRIP / 2.0 - 1.0;
    for b in &track.money_barriers {
        let x = g.space(c, b.after_space as usize + 1).x;
        p.fill_rect(
            Rect::new(x - 2.0, bar_top, 4.0, bar_bottom - bar_top),
            ctx.layout.canvas.alert,
        );
        p.circle(x, coin_y, 12.0, ctx.layout.canvas.alert);
        icons::coin(p, ctx, x, coin_y, 9.5, &b.cost.to_string());
    }
    for th in &track.bonus_thresholds {
        let x = g.space(c, th.after_space as usize + 1).x;
        p.dashed(
            (x, bar_top),
            (x, bar_bottom),
            3.0,
            5.0,
            ctx.layout.canvas.positive,
        );
        p.circle(x, coin_y, 12.0, ctx.layout.canvas.positive);
        icons::coin(p, ctx, x, coin_y, 9.5, &th.coins.to_string());
        // What it unlocks, right of the coin, and a marker on its track bonus space.
        let idx = ctx
            .data
            .tracks
            .bonuses
            .iter()
            .position(|bn| bn.id == th.unlocks);
        let mut ux = x + 16.0;
        if let Some(bonus) = idx.and_then(|i| ctx.data.tracks.bonuses.get(i)) {
            ux += icons::draw_row(p, ctx, ux, coin_y, &icons::unlock_pieces(ctx, bonus)) + 4.0;
        }
        if let Some(m) = idx.and_then(|i| view.track_bonus_spaces.get(i).copied().flatten()) {
            if let Some(seat) = view.seats.get(m.seat) {
                icons::seat_marker(p, ctx, seat.colour, ux + 10.0, coin_y, 20.0);
            }
        }
    }
}

/// Seat markers sharing a box: one big one, or a cluster of overlapping ones (each keeps its
/// outline, so all stay recognisable even where they overlap the neighbouring space a little).
fn markers_in(p: &mut Painter, ctx: &Ctx, area: Rect, colours: &[usize]) {
    let n = colours.len();
    let (cx, cy) = (area.cx(), area.cy());
    let offsets: &[(f32, f32)] = match n {
        0 => return,
        1 => &[(0.0, 0.0)],
        2 => &[(-0.42, 0.0), (0.42, 0.0)],
        3 => &[(-0.42, -0.3), (0.42, -0.3), (0.0, 0.32)],
        _ => &[(-0.42, -0.3), (0.42, -0.3), (-0.42, 0.32), (0.42, 0.32)],
    };
    let size = if n == 1 {
        (area.w.min(area.h) - 4.0).clamp(10.0, 34.0)
    } else if n == 2 {
        (area.h - 4.0).min(area.w * 0.7).clamp(10.0, 30.0)
    } else {
        (area.h / 1.62).clamp(10.0, 30.0)
    };
    for (i, colour) in colours.iter().enumerate() {
        let (dx, dy) = offsets.get(i).copied().unwrap_or((0.0, 0.0));
        icons::seat_marker(p, ctx, *colour, cx + dx * size, cy + dy * size, size);
    }
}
