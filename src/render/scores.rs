//! The final scores on the main board image once the game is over: one row per seat with the
//! rulebook's scoring categories (CrypCoin, each company's shares × share value, the tank
//! track, the research track) and the total, the winners marked. The numbers are the engine's
//! (`SeatView::scores`), the same the chat's score table prints.

use super::icons::{self, Ctx};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use super::widgets::panel;
use crate::data::Company;
use crate::engine::view::SeatView;
use crate::engine::ScoreBreakdown;

/// The score table's columns after the name, in order (the `category` of [`Role::Score`]):
/// CrypCoin, the four companies, tank, research, total.
pub(crate) const CATEGORIES: usize = 8;

/// The panel's height for this view (0 while the game runs).
pub(crate) fn height(ctx_layout: &super::layout::Layout, view: &SeatView) -> f32 {
    let l = &ctx_layout.board.scores;
    match &view.scores {
        Some(rows) => l.title_px + l.head_px + rows.len() as f32 * l.row_px + 12.0,
        None => 0.0,
    }
}

/// Draws the score table in a panel whose top is at `y`.
pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, y: f32) {
    let Some(scores) = view.scores.as_ref() else {
        return;
    };
    let l = &ctx.layout.board.scores;
    let rect = Rect::new(l.x, y, l.w, height(ctx.layout, view));
    let body = panel(p, ctx, rect, &ctx.title(&l.title), "");
    let t = ctx.text();
    let name_w = l.name_px;
    let col_w = (body.w - name_w) / CATEGORIES as f32;
    let col_x = |k: usize| body.x + name_w + k as f32 * col_w + col_w / 2.0;
    // Column heads: words for cash, tank, research and total; company chips for the shares.
    let head_y = body.y + l.head_px / 2.0;
    for k in 0..CATEGORIES {
        let x = col_x(k);
        match k {
            1..=4 => {
                let c = Company::from_index(k - 1);
                icons::company_chip(p, ctx, c, x, head_y, 26.0);
            }
            _ => {
                let key = match k {
                    0 => "image.score.cash",
                    5 => "image.score.tank",
                    6 => "image.score.research",
                    _ => "image.score.total",
                };
                p.text_fit(
                    x,
                    head_y,
                    t.small,
                    Weight::Regular,
                    ctx.muted(),
                    Align::Centre,
                    &ctx.t(key),
                    col_w - 6.0,
                );
            }
        }
    }
    for (i, s) in scores.iter().enumerate() {
        let top = body.y + l.head_px + i as f32 * l.row_px;
        let row = Rect::new(body.x, top, body.w, l.row_px - 4.0);
        score_row(p, ctx, view, i, s, row, &col_x);
    }
}

/// One seat's row of the score table: symbol and name (the winner's mark under it), then each
/// category's points (a company's shares × value under its points).
fn score_row(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    i: usize,
    s: &ScoreBreakdown,
    row: Rect,
    col_x: &dyn Fn(usize) -> f32,
) {
    let l = &ctx.layout.board.scores;
    let t = ctx.text();
    let name_w = l.name_px;
    let bg = if s.winner {
        ctx.layout.canvas.highlight.mix(Colour::WHITE, 0.4)
    } else if i.is_multiple_of(2) {
        Colour([0xF6, 0xF4, 0xEF])
    } else {
        ctx.panel()
    };
    p.round_rect(row, 6.0, bg);
    let cy = row.cy();
    let colour = view.seats.get(s.seat).map(|v| v.colour).unwrap_or(0);
    let name = crate::text::sanitize_name(&s.name);
    // The winner's mark goes under the name, as a company's shares × value go under its
    // points: appended to the name it cut long names short.
    let name_y = if s.winner { cy - 9.0 } else { cy };
    icons::seat_marker(p, ctx, colour, row.x + 16.0, name_y, 24.0);
    p.text_fit(
        row.x + 34.0,
        name_y,
        t.body,
        Weight::Bold,
        ctx.ink(),
        Align::Left,
        &name,
        name_w - 40.0,
    );
    if s.winner {
        // (From under the seat's symbol: the words are longer than most names.)
        p.text_fit(
            row.x + 8.0,
            cy + 11.0,
            t.small,
            Weight::Bold,
            ctx.muted(),
            Align::Left,
            &ctx.t("image.score.winner"),
            name_w - 12.0,
        );
    }
    // Each category: its points, and for a company how they come about (shares × value).
    let by_company = |c: Company| s.companies.iter().find(|x| x.company == c);
    for k in 0..CATEGORIES {
        let (points, detail) = match k {
            0 => (s.cash, None),
            1..=4 => {
                let c = Company::from_index(k - 1);
                match by_company(c) {
                    Some(cs) => (cs.points, Some(format!("{}×{}", cs.shares, cs.share_value))),
                    None => (0, None),
                }
            }
            5 => (s.tank, None),
            6 => (s.research, None),
            _ => (s.total, None),
        };
        let x = col_x(k);
        let (py, size) = match detail {
            Some(_) => (cy - 9.0, t.body),
            None => (cy, if k == CATEGORIES - 1 { t.label } else { t.body }),
        };
        p.role(Role::Score {
            seat: s.seat,
            category: k,
        });
        p.text(
            x,
            py,
            size,
            Weight::Bold,
            ctx.ink(),
            Align::Centre,
            &points.to_string(),
        );
        if let Some(d) = detail {
            p.text(
                x,
                cy + 11.0,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Centre,
                &d,
            );
        }
    }
}
