//! Strips below the main board that spell out what the board's icons only hint at: every
//! majority space's reward tiers (the space named as the text names it, what each tier needs
//! and gives), and the threat card's requirement, reward and consequence while it is in play,
//! every word of them (each strip is as tall as its text needs). Everything comes from the
//! data files and the catalog.

use super::icons::{self, Ctx, Piece};
use super::layout::Rect;
use super::paint::{Align, Painter, Weight};
use super::widgets::{panel, wrap};
use crate::data::board::{BonusSpaceEntry, BonusSpaceKind, MajorityTier};
use crate::engine::view::SeatView;

/// Line height of a majority space's name at the head of its column.
const HEAD_LINE_H: f32 = 21.0;
/// Line height of a tier.
const TIER_LINE_H: f32 = 27.0;

/// The majority spaces (their index among the bonus spaces, and the space), in board order.
fn majority_spaces<'a>(ctx: &Ctx<'a>) -> Vec<(usize, &'a BonusSpaceEntry)> {
    ctx.data
        .board
        .bonus_spaces
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == BonusSpaceKind::Majority)
        .collect()
}

/// The width of one column of the tiers strip.
fn tier_column_w(ctx: &Ctx) -> f32 {
    let n = majority_spaces(ctx).len().max(1) as f32;
    (ctx.layout.board.tiers.w - 16.0 - TIER_GAP * (n - 1.0)) / n
}

const TIER_GAP: f32 = 8.0;

/// Each majority space's name as the text names it (`bonus_space.<id>`), wrapped to its column.
fn head_lines(p: &Painter, ctx: &Ctx) -> Vec<Vec<String>> {
    let width = tier_column_w(ctx) - 16.0;
    majority_spaces(ctx)
        .iter()
        .map(|(i, _)| {
            let name = ctx.texts.resolve(&ctx.data.bonus_space_name(*i));
            wrap(p, ctx, ctx.text().small, Weight::Bold, &name, width)
        })
        .collect()
}

/// The majority tiers strip's height: the panel's title, the longest name, three tiers.
pub(crate) fn tiers_height(p: &Painter, ctx: &Ctx) -> f32 {
    let heads = head_lines(p, ctx).iter().map(Vec::len).max().unwrap_or(1);
    let tiers = majority_spaces(ctx)
        .iter()
        .map(|(_, s)| s.tiers.len())
        .max()
        .unwrap_or(0);
    (32.0 + 6.0 + heads as f32 * HEAD_LINE_H + tiers as f32 * TIER_LINE_H + 8.0 + 8.0)
        .max(ctx.layout.board.tiers.h)
}

/// One column per majority space: its name, then per tier what it needs and what it gives.
pub(crate) fn draw_tiers(p: &mut Painter, ctx: &Ctx, y: f32) {
    let l = &ctx.layout.board.tiers;
    let rect = Rect::new(l.x, y, l.w, tiers_height(p, ctx));
    let heads = head_lines(p, ctx);
    let body = panel(
        p,
        ctx,
        rect,
        &ctx.title(&l.title),
        &ctx.t("image.tiers_note"),
    );
    let col_w = tier_column_w(ctx);
    let head_h = heads.iter().map(Vec::len).max().unwrap_or(1) as f32 * HEAD_LINE_H;
    for (k, ((_, space), head)) in majority_spaces(ctx).iter().zip(&heads).enumerate() {
        let x = body.x + k as f32 * (col_w + TIER_GAP);
        let col = Rect::new(x, body.y, col_w, body.h);
        p.round_box(
            col,
            6.0,
            super::layout::Colour([0xF6, 0xF4, 0xEF]),
            ctx.layout.canvas.panel_border,
            1.2,
        );
        for (n, line) in head.iter().enumerate() {
            p.text(
                x + 8.0,
                body.y + 4.0 + HEAD_LINE_H * (n as f32 + 0.5),
                ctx.text().small,
                Weight::Bold,
                ctx.ink(),
                Align::Left,
                line,
            );
        }
        for (i, tier) in space.tiers.iter().enumerate() {
            let cy = body.y + 6.0 + head_h + TIER_LINE_H * (i as f32 + 0.5);
            tier_row(p, ctx, i, tier, x, cy, col_w);
        }
    }
}

/// Tier `i`: its place, what it needs, what it gives.
fn tier_row(
    p: &mut Painter,
    ctx: &Ctx,
    i: usize,
    tier: &MajorityTier,
    x: f32,
    cy: f32,
    col_w: f32,
) {
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
    if icons::row_width(p, ctx, &pieces) > col_w - 12.0 {
        // Too wide for icons: the rewards in words.
        let words: Vec<String> = tier
            .reward
            .iter()
            .map(|r| ctx.texts.resolve(&ctx.data.reward_name(r)))
            .collect();
        p.text(
            x + 8.0,
            cy,
            ctx.text().small,
            Weight::Regular,
            ctx.ink(),
            Align::Left,
            &words.join(", "),
        );
    } else {
        icons::draw_row(p, ctx, x + 8.0, cy, &pieces);
    }
}

/// Line height of the threat strip's text.
const THREAT_LINE_H: f32 = 25.0;

/// What the threat strip says, wrapped to its width: what removes the card (reaching it and its
/// requirement), what removing it gives, and what happens if it stays; None without a threat.
fn threat_lines(p: &Painter, ctx: &Ctx, view: &SeatView) -> Option<Vec<String>> {
    let state = view.threat.as_ref()?;
    let card = ctx.data.threats.threats.get(state.card as usize)?;
    let reach = &ctx.data.threats.module.reach;
    let spaces: Vec<String> = reach.shuttle_on.iter().map(|s| s.to_string()).collect();
    let paragraphs = [
        ctx.f(
            "image.threat_remove",
            &[
                ("energy", &reach.energy),
                ("spaces", &spaces.join(&ctx.t("image.or"))),
                ("requirement", &ctx.texts.resolve(&card.requirement_words())),
            ],
        ),
        ctx.t("image.threat_reward"),
        ctx.f(
            "image.threat_stays",
            &[("consequence", &ctx.texts.resolve(&card.consequence_words()))],
        ),
    ];
    // The panel's body is 8 px in from each side, the text 4 px more.
    let width = ctx.layout.board.threat.w - 24.0;
    let size = ctx.text().body;
    Some(
        paragraphs
            .iter()
            .flat_map(|text| wrap(p, ctx, size, Weight::Regular, text, width))
            .collect(),
    )
}

/// The threat strip's height (0 without a threat card): its title and every line of its text.
pub(crate) fn threat_height(p: &Painter, ctx: &Ctx, view: &SeatView) -> f32 {
    match threat_lines(p, ctx, view) {
        Some(lines) => {
            (32.0 + lines.len() as f32 * THREAT_LINE_H + 12.0).max(ctx.layout.board.threat.h)
        }
        None => 0.0,
    }
}

/// The threat card: its name, what removes it, what that gives, and what happens if it stays,
/// every word of it.
pub(crate) fn draw_threat(p: &mut Painter, ctx: &Ctx, view: &SeatView, y: f32) {
    let (Some(state), Some(lines)) = (view.threat.as_ref(), threat_lines(p, ctx, view)) else {
        return;
    };
    let Some(card) = ctx.data.threats.threats.get(state.card as usize) else {
        return;
    };
    let l = &ctx.layout.board.threat;
    let rect = Rect::new(l.x, y, l.w, threat_height(p, ctx, view));
    let name = ctx.texts.resolve(&card.display_name());
    let status = if state.on_board {
        String::new()
    } else {
        ctx.t("image.dealt_with")
    };
    let title = ctx.f("image.threat_title", &[("name", &name)]);
    let body = panel(p, ctx, rect, &title, &status);
    let mut cy = body.y + 14.0;
    for line in &lines {
        p.text(
            body.x + 4.0,
            cy,
            ctx.text().body,
            Weight::Regular,
            ctx.ink(),
            Align::Left,
            line,
        );
        cy += THREAT_LINE_H;
    }
}
