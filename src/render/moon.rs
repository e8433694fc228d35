//! The Moon side of the main board: the sectors (coloured by the company whose outpost stands
//! there), their borders (single and double lines), badges, structures and outposts, the four
//! stations with their home-space columns and labels, and the legend in the map's corners.

use super::geometry::MoonGeometry;
use super::icons::{self, Ctx, Icon};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::widgets::StationFrame;
use crate::data::moon::{BorderEnd, LineType};
use crate::data::Company;
use crate::engine::view::SeatView;
use std::collections::HashMap;

const SPACE_BG: Colour = Colour([0x2B, 0x30, 0x3C]);

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
    let m = &ctx.layout.board.moon;
    let panel = g.panel();
    p.round_rect(panel, 12.0, SPACE_BG);
    // Sector fills.
    for row in 0..g.rows() {
        for col in 0..g.cols() {
            let Some(sector) = g.sector_at(col, row) else {
                continue;
            };
            let owner = view.sectors.get(sector as usize - 1).copied().flatten();
            let fill = match owner {
                Some(c) => ctx.company_colour(c),
                None if ctx
                    .data
                    .moon
                    .sector(sector)
                    .is_some_and(|s| s.enclave_in.is_some()) =>
                {
                    m.sector_fill_alt
                }
                None => m.sector_fill,
            };
            p.fill_rect(g.cell_rect(col, row), fill);
        }
    }
    borders(p, ctx, g);
    for station in &ctx.data.moon.stations {
        moon_station(p, ctx, view, g, station);
    }
    // Sector badges, structures and outposts.
    for s in &ctx.data.moon.sectors {
        let pl = g.placement(ctx.data, ctx.layout, s.id);
        let (bx, by) = pl.badge;
        p.disc(bx, by, m.badge_radius, Colour::WHITE, ctx.ink(), 2.0);
        p.role(Role::Sector { id: s.id });
        p.text(
            bx,
            by,
            ctx.text().small,
            Weight::Bold,
            ctx.ink(),
            Align::Centre,
            &s.id.to_string(),
        );
        if let Some(st) = s.structures.first() {
            let (kind, n) = icons::structure_icon(st);
            icons::icon(
                p,
                ctx,
                kind,
                pl.icon.0,
                pl.icon.1,
                m.icon_px,
                &n.to_string(),
            );
        }
        if let Some(Some(c)) = view.sectors.get(s.id as usize - 1) {
            icons::outpost_token(p, ctx, *c, pl.token.0, pl.token.1, m.token_px);
        }
    }
    legend(p, ctx, panel);
}

/// The legend in the map panel's four corners: what the structure icons give.
fn legend(p: &mut Painter, ctx: &Ctx, panel: Rect) {
    let m = &ctx.layout.board.moon;
    let corners = [
        (
            panel.x,
            panel.y,
            Icon::Coins,
            ctx.layout_word("image.icon.coins", &ctx.layout.icons.coins.word),
        ),
        (
            panel.right(),
            panel.y,
            Icon::Track,
            ctx.layout_word("image.icon.track", &ctx.layout.icons.track.word),
        ),
        (
            panel.x,
            panel.bottom(),
            Icon::Tank,
            ctx.layout_word("image.icon.tank", &ctx.layout.icons.tank.word),
        ),
        (
            panel.right(),
            panel.bottom(),
            Icon::Research,
            ctx.layout_word("image.icon.research", &ctx.layout.icons.research.word),
        ),
    ];
    let band = m.station_depth_px;
    for (x, y, kind, word) in corners {
        let cx = if x > panel.cx() {
            x - band / 2.0
        } else {
            x + band / 2.0
        };
        let cy = if y > panel.cy() {
            y - band / 2.0
        } else {
            y + band / 2.0
        };
        icons::icon(p, ctx, kind, cx, cy - 12.0, 22.0, "");
        // A word wider than the corner starts at the panel's edge and runs along it (the
        // stations leave that stretch of the band free).
        let small = ctx.text().small;
        let (wx, align) = if p.text_width(small, Weight::Regular, &word) <= band - 4.0 {
            (cx, Align::Centre)
        } else if x > panel.cx() {
            (x - 4.0, Align::Right)
        } else {
            (x + 4.0, Align::Left)
        };
        p.text(
            wx,
            cy + 16.0,
            small,
            Weight::Regular,
            Colour([0xDD, 0xDD, 0xDD]),
            align,
            &word,
        );
    }
}

fn borders(p: &mut Painter, ctx: &Ctx, g: &MoonGeometry) {
    let m = &ctx.layout.board.moon;
    let mut between: HashMap<(u32, u32), LineType> = HashMap::new();
    let mut station_line: HashMap<(String, u32), LineType> = HashMap::new();
    for b in &ctx.data.moon.borders {
        match b.a {
            BorderEnd::Sector(a) => {
                between.insert((a.min(b.b), a.max(b.b)), b.line);
            }
            BorderEnd::Station(c) => {
                if let Some(st) = ctx.data.moon.stations.iter().find(|s| s.company == c) {
                    station_line.insert((st.edge.clone(), b.b), b.line);
                }
            }
        }
    }
    // (x0, y0, x1, y1, line) segments along cell edges.
    let mut segs: Vec<(f32, f32, f32, f32, LineType)> = Vec::new();
    let (cols, rows) = (g.cols(), g.rows());
    for row in 0..rows {
        for col in 0..cols {
            let Some(a) = g.sector_at(col, row) else {
                continue;
            };
            let rc = g.cell_rect(col, row);
            // Right neighbour.
            if col + 1 < cols {
                if let Some(b) = g.sector_at(col + 1, row) {
                    if a != b {
                        let line = between
                            .get(&(a.min(b), a.max(b)))
                            .copied()
                            .unwrap_or(LineType::Single);
                        segs.push((rc.right(), rc.y, rc.right(), rc.bottom(), line));
                    }
                }
            }
            if row + 1 < rows {
                if let Some(b) = g.sector_at(col, row + 1) {
                    if a != b {
                        let line = between
                            .get(&(a.min(b), a.max(b)))
                            .copied()
                            .unwrap_or(LineType::Single);
                        segs.push((rc.x, rc.bottom(), rc.right(), rc.bottom(), line));
                    }
                }
            }
            // The rim.
            let rim = |edge: &str| {
                station_line
                    .get(&(edge.to_string(), a))
                    .copied()
                    .unwrap_or(LineType::Single)
            };
            if row == 0 {
                segs.push((rc.x, rc.y, rc.right(), rc.y, rim("top")));
            }
            if row + 1 == rows {
                segs.push((rc.x, rc.bottom(), rc.right(), rc.bottom(), rim("bottom")));
            }
            if col == 0 {
                segs.push((rc.x, rc.y, rc.x, rc.bottom(), rim("left")));
            }
            if col + 1 == cols {
                segs.push((rc.right(), rc.y, rc.right(), rc.bottom(), rim("right")));
            }
        }
    }
    let seg_rect = |s: &(f32, f32, f32, f32, LineType), w: f32, extend: f32| {
        if (s.0 - s.2).abs() < 0.5 {
            Rect::new(s.0 - w / 2.0, s.1 - extend, w, s.3 - s.1 + 2.0 * extend)
        } else {
            Rect::new(s.0 - extend, s.1 - w / 2.0, s.2 - s.0 + 2.0 * extend, w)
        }
    };
    let ink = m.border;
    for s in segs.iter().filter(|s| s.4 == LineType::Single) {
        let w = m.single_line_px;
        p.fill_rect(seg_rect(s, w, w / 2.0), ink);
    }
    for s in segs.iter().filter(|s| s.4 == LineType::Double) {
        let w = m.double_line_px;
        p.fill_rect(seg_rect(s, w, w / 2.0), ink);
    }
    let inner = Colour([0xF4, 0xF1, 0xE8]);
    for s in segs.iter().filter(|s| s.4 == LineType::Double) {
        let w = (m.double_line_px - 2.0 * m.single_line_px).max(1.0);
        p.fill_rect(seg_rect(s, w, -m.single_line_px), inner);
    }
}

fn moon_station(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    g: &MoonGeometry,
    st: &crate::data::moon::StationEntry,
) {
    let m = &ctx.layout.board.moon;
    let rect = g.rect(st.rect.map(|v| v as f32)).inset(3.0);
    let frame = StationFrame {
        r: rect,
        edge: st.edge.clone(),
    };
    let colour = ctx.company_colour(st.company);
    p.round_box(rect, 8.0, colour.mix(Colour::WHITE, 0.62), ctx.ink(), 2.0);
    let layout = &ctx.data.moon.station_layout;
    let coins = layout.column_coins();
    let n_cols = coins.len().max(1);
    let spaces = layout.home_spaces_per_column.max(1);
    let col_w = m.station_column_px;
    let gap = m.station_gap_px;
    let along = frame.along_len();
    let depth = frame.depth_len();
    let label_len = (along - n_cols as f32 * (col_w + gap) - gap).max(0.0);
    let columns = view.stations.get(st.company.index());
    // Columns.
    for (ci, col_coins) in coins.iter().enumerate() {
        let a0 = label_len + gap + ci as f32 * (col_w + gap);
        let space_d = (depth - 2.0 * gap) / spaces as f32;
        let column = columns.and_then(|c| c.get(ci)).copied();
        for sp in 1..=spaces {
            let d0 = gap + (sp - 1) as f32 * space_d;
            let cell = frame.rect(a0, col_w, d0 + 0.5, space_d - 1.0);
            let covered = column.is_some_and(|c| c.covers(sp as u8));
            if covered {
                p.fill_rect(cell, ctx.ink());
                p.fill_rect(cell.inset(1.5), colour);
            } else {
                let n = col_coins.get(sp - 1).copied().unwrap_or(0);
                free_home_space(p, ctx, &frame, cell, n, sp == layout.crossed_out_space);
            }
        }
    }
    // Label: letter, share value, outposts left.
    let lab = frame.rect(0.0, label_len, 0.0, depth);
    let left: u32 = columns
        .map(|c| c.iter().map(|x| x.outposts as u32).sum())
        .unwrap_or(0);
    station_label(p, ctx, view, st.company, frame.horizontal(), lab, left);
}

/// A home space no outpost covers: its coins, crossed out if the rules cross it out.
fn free_home_space(
    p: &mut Painter,
    ctx: &Ctx,
    frame: &StationFrame,
    cell: Rect,
    n: u32,
    crossed: bool,
) {
    p.fill_rect(cell, ctx.layout.canvas.faint);
    p.fill_rect(cell.inset(1.0), Colour::WHITE);
    let (cx, cy) = (cell.cx(), cell.cy());
    let rr = (cell.w.min(cell.h) * 0.26).clamp(2.0, 5.0);
    for k in 0..n {
        let off = (k as f32 - (n as f32 - 1.0) / 2.0) * (rr * 2.4);
        let (x, y) = if frame.horizontal() {
            (cx + off, cy)
        } else {
            (cx, cy + off)
        };
        p.disc(
            x,
            y,
            rr,
            ctx.layout.canvas.coin,
            ctx.layout.canvas.coin_rim,
            1.0,
        );
    }
    if crossed {
        let a = ctx.layout.canvas.alert;
        p.line(
            (cell.x + 2.0, cell.y + 2.0),
            (cell.right() - 2.0, cell.bottom() - 2.0),
            1.5,
            a,
        );
        p.line(
            (cell.x + 2.0, cell.bottom() - 2.0),
            (cell.right() - 2.0, cell.y + 2.0),
            1.5,
            a,
        );
    }
}

/// A station's label: company chip and name, share value, outposts left in the station.
fn station_label(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    company: Company,
    horizontal: bool,
    lab: Rect,
    left: u32,
) {
    let value = view.share_values.get(company.index()).copied().unwrap_or(0);
    let t = ctx.text();
    if horizontal {
        let cy = lab.cy();
        let mut x = lab.x + 10.0;
        icons::company_chip(p, ctx, company, x + 15.0, cy, 30.0);
        x += 38.0;
        x += p.text(
            x,
            cy,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            ctx.company_short(company),
        );
        x += 14.0;
        icons::coin(p, ctx, x + 17.0, cy, 17.0, &value.to_string());
        x += 42.0;
        icons::outpost_token(p, ctx, company, x + 11.0, cy, 22.0);
        x += 26.0;
        p.text(
            x,
            cy,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &format!("×{left}"),
        );
    } else {
        let cx = lab.cx();
        let step = (lab.h / 3.0).min(70.0);
        let top = lab.cy() - step;
        icons::company_chip(p, ctx, company, cx, top, 30.0);
        icons::coin(p, ctx, cx, top + step, 17.0, &value.to_string());
        icons::outpost_token(p, ctx, company, cx - 14.0, top + 2.0 * step, 22.0);
        p.text(
            cx + 2.0,
            top + 2.0 * step,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &format!("×{left}"),
        );
    }
}
