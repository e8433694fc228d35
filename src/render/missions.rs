//! The mission cards module on the images: a strip under the main board with the face-up
//! mission cards, their three tasks and the seats that fulfilled each; on a player board, the
//! seat's mission status card (linked card, fulfilled columns, markers still to place).

use super::icons::{self, Ctx, Piece};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Weight};
use super::widgets::{panel, wrap};
use crate::engine::view::SeatView;

/// One task of a face-up mission card as the strip draws it: its column, its text wrapped to
/// the room beside the markers, and the seats (by colour) that fulfilled it.
struct TaskRow {
    column: usize,
    lines: Vec<String>,
    done: Vec<usize>,
}

/// Width of the card number on the left of each mission card.
const NUMBER_W: f32 = 48.0;
/// Line height of the task texts.
const LINE_H: f32 = 24.0;
/// The least height of a task row (room for a seat marker and the column tag).
const ROW_MIN_H: f32 = 49.0;

fn row_height(row: &TaskRow) -> f32 {
    (row.lines.len() as f32 * LINE_H + 8.0).max(ROW_MIN_H)
}

/// Each face-up mission card with its task rows, wrapped to the width each card gets.
fn cards(p: &Painter, ctx: &Ctx, view: &SeatView) -> Vec<(u32, Vec<TaskRow>)> {
    let Some(missions) = view.missions.as_ref() else {
        return Vec::new();
    };
    let l = &ctx.layout.board.missions;
    let n = missions.face_up.len().max(1) as f32;
    let card_w = (l.rect.w - 16.0 - l.gap * (n - 1.0)) / n - NUMBER_W;
    let mut out = Vec::new();
    for id in &missions.face_up {
        let Some(card) = ctx.data.missions.card(*id) else {
            continue;
        };
        let rows = card
            .tasks
            .iter()
            .map(|task| {
                let column = task.column;
                // Seats whose status card is linked to this mission and fulfilled this column.
                let done: Vec<usize> = view
                    .seats
                    .iter()
                    .filter(|s| {
                        s.mission.as_ref().is_some_and(|m| {
                            m.card == Some(*id)
                                && m.fulfilled.get(column - 1).copied() == Some(true)
                        })
                    })
                    .map(|s| s.colour)
                    .collect();
                let width = card_w - 52.0 - done.len() as f32 * 28.0;
                let text = ctx.texts.resolve(&task.common_text(card.id));
                let lines = wrap(p, ctx, ctx.text().body, Weight::Regular, &text, width);
                TaskRow {
                    column,
                    lines,
                    done,
                }
            })
            .collect();
        out.push((*id, rows));
    }
    out
}

/// The strip's height for this view (0 without the mission cards): the panel's title and the
/// tallest card, each task as many lines as its text needs.
pub(crate) fn strip_height(p: &Painter, ctx: &Ctx, view: &SeatView) -> f32 {
    if view.missions.is_none() {
        return 0.0;
    }
    let tallest = cards(p, ctx, view)
        .iter()
        .map(|(_, rows)| rows.iter().map(row_height).sum::<f32>())
        .fold(0.0, f32::max);
    (32.0 + 4.0 + tallest + 4.0 + 8.0).max(ctx.layout.board.missions.rect.h)
}

/// The face-up mission cards, side by side, each task with the markers of the seats that
/// fulfilled it.
pub(crate) fn board_strip(p: &mut Painter, ctx: &Ctx, view: &SeatView, y: f32) {
    let cards = cards(p, ctx, view);
    if view.missions.is_none() {
        return;
    }
    let l = &ctx.layout.board.missions;
    let rect = Rect::new(l.rect.x, y, l.rect.w, strip_height(p, ctx, view));
    let body = panel(p, ctx, rect, &ctx.title(&l.title), "");
    let t = ctx.text();
    let n = cards.len().max(1) as f32;
    let card_w = (body.w - l.gap * (n - 1.0)) / n;
    for (k, (id, rows)) in cards.iter().enumerate() {
        let x = body.x + k as f32 * (card_w + l.gap);
        let box_rect = Rect::new(x, body.y, card_w, body.h);
        p.round_box(
            box_rect,
            8.0,
            ctx.panel(),
            ctx.layout.canvas.panel_border,
            1.5,
        );
        // The card's number, as the player boards ("M4") and the text ("mission card 4") say.
        let num = Rect::new(x + 4.0, body.y + 4.0, NUMBER_W, body.h - 8.0);
        p.round_rect(num, 8.0, ctx.layout.canvas.highlight);
        p.text(
            num.cx(),
            num.cy(),
            t.label,
            Weight::Bold,
            ctx.layout.canvas.highlight.text_on(),
            Align::Centre,
            &format!("M{id}"),
        );
        let x = x + NUMBER_W;
        let mut top = body.y + 4.0;
        for row in rows {
            let h = row_height(row);
            task_row(p, ctx, row, x, top + h / 2.0, box_rect.right());
            top += h;
        }
    }
}

/// One task: its column tag, its text, the markers of the seats that fulfilled it.
fn task_row(p: &mut Painter, ctx: &Ctx, row: &TaskRow, x: f32, cy: f32, right: f32) {
    icons::tag(
        p,
        ctx,
        x + 22.0,
        cy,
        &row.column.to_string(),
        ctx.layout.canvas.faint,
    );
    for (m, colour) in row.done.iter().enumerate() {
        icons::seat_marker(p, ctx, *colour, right - 18.0 - m as f32 * 28.0, cy, 24.0);
    }
    let shown = row.lines.len() as f32;
    for (k, line) in row.lines.iter().enumerate() {
        let y = cy + (k as f32 - (shown - 1.0) / 2.0) * LINE_H;
        p.text(
            x + 40.0,
            y,
            ctx.text().body,
            Weight::Regular,
            ctx.ink(),
            Align::Left,
            line,
        );
    }
}

/// The seat's mission status card as row pieces for the player board's footer.
pub(crate) fn status_pieces(ctx: &Ctx, view: &SeatView, seat: usize, out: &mut Vec<Piece>) {
    let Some(status) = view.seats.get(seat).and_then(|s| s.mission.as_ref()) else {
        return;
    };
    out.push(Piece::Gap(10.0));
    out.push(Piece::Muted(ctx.t("image.mission")));
    match status.card {
        Some(id) => out.push(Piece::Chip(ctx.layout.canvas.highlight, format!("M{id}"))),
        None => out.push(Piece::Muted("–".into())),
    }
    for (k, done) in status.fulfilled.iter().enumerate() {
        let (colour, label) = if *done {
            (
                ctx.layout.canvas.positive.mix(Colour::WHITE, 0.5),
                format!("{}✓", k + 1),
            )
        } else {
            (ctx.layout.canvas.faint, (k + 1).to_string())
        };
        out.push(Piece::Chip(colour, label));
    }
    if status.one_time_reserve > 0 {
        out.push(Piece::Muted(ctx.f(
            "image.one_time_to_place",
            &[("n", &status.one_time_reserve)],
        )));
    }
    if status.personal_unlocked() {
        out.push(Piece::Muted(ctx.t("image.personal_space_open")));
    }
}
