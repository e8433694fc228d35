//! Strips below the main board that spell out what the board's icons only hint at: every
//! majority space's reward tiers (what each tier needs and gives), and the threat card's
//! requirement and consequence while it is in play. Everything comes from the data files.

use super::icons::{self, Ctx, Piece};
use super::layout::{Layout, Rect};
use super::paint::{Align, Painter, Weight};
use super::widgets::{bonus_space_label, panel};
use crate::data::board::BonusSpaceKind;
use crate::engine::view::SeatView;

/// The majority tiers strip's height.
pub(crate) fn tiers_height(layout: &Layout) -> f32 {
    layout.board.tiers.h
}

/// The threat strip's height (0 without a threat card).
pub(crate) fn threat_height(layout: &Layout, view: &SeatView) -> f32 {
    if view.threat.is_some() {
        layout.board.threat.h
    } else {
        0.0
    }
}

/// One column per majority space: its label, then per tier what it needs and what it gives.
pub(crate) fn draw_tiers(p: &mut Painter, ctx: &Ctx, y: f32) {
    let l = &ctx.layout.board.tiers;
    let rect = Rect::new(l.x, y, l.w, l.h);
    let body = panel(
        p,
        ctx,
        rect,
        &ctx.title(&l.title),
        &ctx.t("image.tiers_note"),
    );
    let spaces: Vec<_> = ctx
        .data
        .board
        .bonus_spaces
        .iter()
        .filter(|s| s.kind == BonusSpaceKind::Majority)
        .collect();
    let n = spaces.len().max(1) as f32;
    let gap = 8.0;
    let col_w = (body.w - gap * (n - 1.0)) / n;
    let line_h = (body.h / 4.0).min(28.0);
    let t = ctx.text();
    for (k, space) in spaces.iter().enumerate() {
        let x = body.x + k as f32 * (col_w + gap);
        let col = Rect::new(x, body.y, col_w, body.h);
        p.round_box(
            col,
            6.0,
            super::layout::Colour([0xF6, 0xF4, 0xEF]),
            ctx.layout.canvas.panel_border,
            1.2,
        );
        let head = bonus_space_label(ctx, space);
        icons::draw_row(p, ctx, x + 8.0, body.y + line_h / 2.0 + 2.0, &head);
        for (i, tier) in space.tiers.iter().enumerate() {
            let cy = body.y + line_h * (i as f32 + 1.5) + 2.0;
            let need = if tier.min_research_scientists > 0 || tier.min_other_scientists > 0 {
                let mut s = format!("{}", tier.min_research_scientists);
                if tier.min_other_scientists > 0 {
                    s.push_str(&format!("+{}", tier.min_other_scientists));
                }
                s
            } else {
                format!("≥{}", tier.min)
            };
            let mut pieces = vec![
                Piece::Muted(crate::data::numbering::ordinal(i).to_string()),
                Piece::Text(need, Weight::Bold),
                Piece::Muted("→".into()),
            ];
            for rw in &tier.reward {
                icons::reward_pieces(ctx, rw, &mut pieces);
            }
            let w = icons::row_width(p, ctx, &pieces);
            if w > col_w - 12.0 {
                // Too wide: the words alone, shortened to fit.
                let words: Vec<String> = tier
                    .reward
                    .iter()
                    .map(|r| ctx.texts.resolve(&ctx.data.reward_name(r)))
                    .collect();
                p.text_fit(
                    x + 8.0,
                    cy,
                    t.small,
                    Weight::Regular,
                    ctx.ink(),
                    Align::Left,
                    &words.join(", "),
                    col_w - 16.0,
                );
            } else {
                icons::draw_row(p, ctx, x + 8.0, cy, &pieces);
            }
        }
    }
}

/// The threat card: its name, what removes it and what happens if it stays.
pub(crate) fn draw_threat(p: &mut Painter, ctx: &Ctx, view: &SeatView, y: f32) {
    let Some(state) = view.threat.as_ref() else {
        return;
    };
    let Some(card) = ctx.data.threats.threats.get(state.card as usize) else {
        return;
    };
    let l = &ctx.layout.board.threat;
    let rect = Rect::new(l.x, y, l.w, l.h);
    let name = ctx.texts.resolve(&card.display_name());
    let status = if state.on_board {
        String::new()
    } else {
        ctx.t("image.dealt_with")
    };
    let title = ctx.f("image.threat_title", &[("name", &name)]);
    let body = panel(p, ctx, rect, &title, &status);
    let t = ctx.text();
    let reach = &ctx.data.threats.module.reach;
    let spaces: Vec<String> = reach.shuttle_on.iter().map(|s| s.to_string()).collect();
    let lines = [
        ctx.f(
            "image.threat_remove",
            &[
                ("energy", &reach.energy),
                ("spaces", &spaces.join(&ctx.t("image.or"))),
                ("requirement", &ctx.texts.resolve(&card.requirement_words())),
            ],
        ),
        ctx.f(
            "image.threat_stays",
            &[("consequence", &ctx.texts.resolve(&card.consequence_words()))],
        ),
    ];
    let mut cy = body.y + 14.0;
    for line in &lines {
        let mut wrapped = p.wrap(t.small, Weight::Regular, line, body.w - 8.0);
        if wrapped.len() > 2 {
            let rest = wrapped.split_off(1).join(" ");
            wrapped.push(rest);
        }
        for w in &wrapped {
            p.text_fit(
                body.x + 4.0,
                cy,
                t.small,
                Weight::Regular,
                ctx.ink(),
                Align::Left,
                w,
                body.w - 8.0,
            );
            cy += 22.0;
        }
    }
}
