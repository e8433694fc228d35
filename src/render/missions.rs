//! The mission cards module on the images: a strip under the main board with the face-up
//! mission cards, their three tasks and the seats that fulfilled each; on a player board, the
//! seat's mission status card (linked card, fulfilled columns, markers still to place).

use super::icons::{self, Ctx, Piece};
use super::layout::Colour;
use super::paint::{Align, Painter, Weight};
use super::widgets::panel;
use crate::engine::view::SeatView;

/// The tops of the strips at the bottom of the board image, in order: majority tiers (part of
/// the board), threat, missions, final scores; and the image's height.
pub(crate) struct Below {
    pub tiers: f32,
    pub threat: f32,
    pub missions: f32,
    pub scores: f32,
    pub height: u32,
}

/// Where each strip below the board goes for this view (the image grows to hold them).
pub(crate) fn below(layout: &super::layout::Layout, view: &SeatView) -> Below {
    let gap = 8.0;
    let after = |top: f32, h: f32| if h > 0.0 { top + h + gap } else { top };
    // The tiers strip is the bottom of the board itself; the others follow it.
    let threat = layout.board.height as f32;
    let tiers = threat - gap - super::notes::tiers_height(layout);
    let missions = after(threat, super::notes::threat_height(layout, view));
    let missions_h = if view.missions.is_some() {
        layout.board.missions.rect.h
    } else {
        0.0
    };
    let scores = after(missions, missions_h);
    let bottom = after(scores, super::scores::height(layout, view));
    Below {
        tiers,
        threat,
        missions,
        scores,
        height: bottom.ceil() as u32,
    }
}

/// The face-up mission cards, side by side, each task with the markers of the seats that
/// fulfilled it.
pub(crate) fn board_strip(p: &mut Painter, ctx: &Ctx, view: &SeatView, y: f32) {
    let Some(missions) = view.missions.as_ref() else {
        return;
    };
    let l = &ctx.layout.board.missions;
    let rect = super::layout::Rect::new(l.rect.x, y, l.rect.w, l.rect.h);
    let body = panel(p, ctx, rect, &ctx.title(&l.title), "");
    let t = ctx.text();
    let n = missions.face_up.len().max(1) as f32;
    let card_w = (body.w - l.gap * (n - 1.0)) / n;
    for (k, id) in missions.face_up.iter().enumerate() {
        let Some(card) = ctx.data.missions.card(*id) else {
            continue;
        };
        let x = body.x + k as f32 * (card_w + l.gap);
        let box_rect = super::layout::Rect::new(x, body.y, card_w, body.h);
        p.round_box(
            box_rect,
            8.0,
            ctx.panel(),
            ctx.layout.canvas.panel_border,
            1.5,
        );
        // The card's number, as the player boards ("M4") and the text ("mission card 4") say.
        let num_w = 48.0;
        let num = super::layout::Rect::new(x + 4.0, body.y + 4.0, num_w, body.h - 8.0);
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
        let x = x + num_w;
        let card_w = card_w - num_w;
        let row_h = (body.h - 8.0) / card.tasks.len().max(1) as f32;
        for (row, task) in card.tasks.iter().enumerate() {
            let cy = body.y + 4.0 + row_h * (row as f32 + 0.5);
            let column = task.column;
            // Seats whose status card is linked to this mission and fulfilled this column.
            let done: Vec<usize> = view
                .seats
                .iter()
                .filter(|s| {
                    s.mission.as_ref().is_some_and(|m| {
                        m.card == Some(*id) && m.fulfilled.get(column - 1).copied() == Some(true)
                    })
                })
                .map(|s| s.colour)
                .collect();
            icons::tag(
                p,
                ctx,
                x + 22.0,
                cy,
                &column.to_string(),
                ctx.layout.canvas.faint,
            );
            let markers_w = done.len() as f32 * 28.0;
            for (m, colour) in done.iter().enumerate() {
                icons::seat_marker(
                    p,
                    ctx,
                    *colour,
                    box_rect.right() - 18.0 - m as f32 * 28.0,
                    cy,
                    24.0,
                );
            }
            // Two lines at most; whatever is left goes on the second, shortened with "…".
            let mut lines = p.wrap(
                t.small,
                Weight::Regular,
                &ctx.texts.resolve(&task.common_text(card.id)),
                card_w - 52.0 - markers_w,
            );
            if lines.len() > 2 {
                let rest = lines.split_off(1).join(" ");
                lines.push(rest);
            }
            let shown = lines.len();
            for (k, line) in lines.iter().enumerate() {
                let y = cy + (k as f32 - (shown as f32 - 1.0) / 2.0) * 21.0;
                p.text_fit(
                    x + 40.0,
                    y,
                    t.small,
                    Weight::Regular,
                    ctx.ink(),
                    Align::Left,
                    line,
                    card_w - 52.0 - markers_w,
                );
            }
        }
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
