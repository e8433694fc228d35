//! The drawing pieces several drawers share: a titled panel, an empty card space, a station's
//! local frame (for the Moon and the Belt), a bonus space's label, and the short words for what
//! the active seat is doing (the board's header and the alt text). A leaf of `render/`: it
//! draws with `paint` and `icons` and knows no drawer, so every drawer can use it.

use super::icons::{Ctx, Piece};
use super::layout::Rect;
use super::paint::{Align, Painter, Weight};
use crate::data::board::{BonusSpaceKind, MajorityCompare};
use crate::data::{Company, Reward};
use crate::engine::{Phase, Task};

/// Short words for what the active seat is doing.
pub(crate) fn task_words(ctx: &Ctx, task: &Task) -> String {
    let short = |c: &Company| ctx.company_short(*c).to_string();
    let t = |key: &str| ctx.t(&format!("image.task.{key}"));
    match task {
        Task::ChooseAction { .. } => t("choose_action"),
        Task::SelectResources { .. } => t("select_resources"),
        Task::BuyWithUnits { .. } => t("buy_card"),
        Task::SpendUnits { units, .. } => ctx.f("image.task.spend_units", &[("n", units)]),
        Task::ChooseExpansion { energy, .. } => {
            ctx.f("image.task.choose_expansion", &[("energy", energy)])
        }
        Task::Expand {
            company, energy, ..
        } => ctx.f(
            "image.task.expand",
            &[("company", &short(company)), ("energy", energy)],
        ),
        Task::ResearchFlip { .. } => t("research_flip"),
        Task::ResearchAdvance { .. } => t("research_advance"),
        Task::SpendResearch { points, .. } => ctx.f("image.task.spend_research", &[("n", points)]),
        Task::TrackMove { company, steps, .. } => format!("{} +{steps}", short(company)),
        Task::TrackOfChoice { steps, .. } => ctx.f("image.task.track_of_choice", &[("n", steps)]),
        Task::OtherTracks { .. } => t("other_tracks"),
        Task::RemoveOutposts { n, .. } => ctx.f("image.task.remove_outposts", &[("n", n)]),
        Task::ReturnOusted { company, .. } => {
            ctx.f("image.task.return_ousted", &[("company", &short(company))])
        }
        Task::ChooseTier { .. } => t("choose_tier"),
        Task::ChooseRewards { .. } => t("choose_rewards"),
        Task::BuyForCoins { .. } => t("buy_for_coins"),
        Task::DiscardFromHand { .. } => t("discard_from_hand"),
        Task::DiscardActionChoice { .. } => t("discard_action_choice"),
        Task::TakeFromDiscard { .. } => t("take_from_discard"),
        Task::Reward { .. } => t("reward"),
        Task::TakeRestingDeck { .. } => t("take_resting_deck"),
        Task::RestCards { .. } => t("rest_cards"),
        Task::PlacePlans { .. } => t("place_plans"),
        Task::FlipUsed { .. } => t("flip_used"),
        Task::EndTurn { .. } => t("end_turn"),
        Task::ClaimTasks { .. } => t("claim_tasks"),
        Task::DiscardEnergy { n, .. } => ctx.f("image.task.discard_energy", &[("n", n)]),
        Task::ThreatReward { .. } => t("threat_reward"),
        Task::PickColumn { .. } => t("pick_column"),
    }
}

/// The catalog key of a phase's name, the same for the images, the alt text and the chat
/// ("Action phase").
pub(crate) fn phase_key(phase: &Phase) -> &'static str {
    match phase {
        Phase::Setup => "phase.setup",
        Phase::Planning => "phase.planning",
        Phase::Action => "phase.action",
        Phase::Finished => "phase.finished",
    }
}

/// A white panel with a title; returns the body below the title.
pub(crate) fn panel(p: &mut Painter, ctx: &Ctx, r: Rect, title: &str, note: &str) -> Rect {
    p.round_box(r, 10.0, ctx.panel(), ctx.layout.canvas.panel_border, 2.0);
    let t = ctx.text();
    let title_h = 32.0;
    if !title.is_empty() {
        p.text(
            r.x + 12.0,
            r.y + title_h / 2.0 + 2.0,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            title,
        );
    }
    if !note.is_empty() {
        p.text(
            r.right() - 12.0,
            r.y + title_h / 2.0 + 2.0,
            t.small,
            Weight::Regular,
            ctx.muted(),
            Align::Right,
            note,
        );
    }
    let body = r.below(title_h);
    Rect::new(body.x + 8.0, body.y, body.w - 16.0, body.h - 8.0)
}

/// Maps station-local coordinates (along the edge clockwise, depth away from the map) to pixels.
pub(crate) struct StationFrame {
    pub r: Rect,
    pub edge: String,
}

impl StationFrame {
    pub fn along_len(&self) -> f32 {
        match self.edge.as_str() {
            "left" | "right" => self.r.h,
            _ => self.r.w,
        }
    }
    pub fn depth_len(&self) -> f32 {
        match self.edge.as_str() {
            "left" | "right" => self.r.w,
            _ => self.r.h,
        }
    }
    /// Local rectangle (along a0..a0+la, depth d0..d0+ld) → pixels.
    pub fn rect(&self, a0: f32, la: f32, d0: f32, ld: f32) -> Rect {
        let r = self.r;
        match self.edge.as_str() {
            "top" => Rect::new(r.x + a0, r.bottom() - d0 - ld, la, ld),
            "right" => Rect::new(r.x + d0, r.y + a0, ld, la),
            "bottom" => Rect::new(r.right() - a0 - la, r.y + d0, la, ld),
            _ => Rect::new(r.right() - d0 - ld, r.bottom() - a0 - la, ld, la),
        }
    }
    pub fn horizontal(&self) -> bool {
        !matches!(self.edge.as_str(), "left" | "right")
    }
}

/// A dashed empty space with a label.
pub(crate) fn empty_slot(p: &mut Painter, ctx: &Ctx, r: Rect, label: &str) {
    let c = ctx.layout.canvas.panel_border;
    p.dashed((r.x, r.y), (r.right(), r.y), 2.0, 6.0, c);
    p.dashed((r.x, r.bottom()), (r.right(), r.bottom()), 2.0, 6.0, c);
    p.dashed((r.x, r.y), (r.x, r.bottom()), 2.0, 6.0, c);
    p.dashed((r.right(), r.y), (r.right(), r.bottom()), 2.0, 6.0, c);
    if !label.is_empty() {
        p.text(
            r.cx(),
            r.cy(),
            ctx.text().small,
            Weight::Regular,
            ctx.muted(),
            Align::Centre,
            label,
        );
    }
}

/// A bonus space's label: "most <chip>" for majorities, "tile <chip>" for tiles, a word
/// otherwise.
pub(crate) fn bonus_space_label(
    ctx: &Ctx,
    space: &crate::data::board::BonusSpaceEntry,
) -> Vec<Piece> {
    let tile_id = space.reward.iter().find_map(|rw| match rw {
        Reward::ReserveBonusTile { tile } => Some(tile.as_str()),
        _ => None,
    });
    match (space.kind, space.compare, tile_id) {
        (BonusSpaceKind::Majority, Some(cmp), _) => {
            let st = ctx.card_style(compare_style(cmp));
            vec![
                Piece::Muted(ctx.t("image.most")),
                Piece::Chip(st.colour, st.short),
            ]
        }
        (BonusSpaceKind::Tile, _, Some(tile)) => {
            let st = ctx.card_style(tile);
            vec![
                Piece::Muted(ctx.t("image.tile")),
                Piece::Chip(st.colour, st.short),
            ]
        }
        _ => vec![Piece::Text(ctx.bonus_label(&space.id), Weight::Bold)],
    }
}

/// The card style that stands for what a majority space compares.
fn compare_style(c: MajorityCompare) -> &'static str {
    match c {
        MajorityCompare::ResearchScientistCards => "research_scientist",
        MajorityCompare::TitaniumUnits => "titanium",
        MajorityCompare::CarbonUnits => "carbon",
        MajorityCompare::MineralsUnits => "minerals",
        MajorityCompare::EnergyPoints => "energy",
    }
}

/// `text` in lines no wider than `max_w`: broken at spaces and after hyphens, and a word too
/// long for a line at the points the catalog gives for it (`image.hyphenation`, e.g.
/// "Zeit|anomalie"), with a hyphen where it breaks, as print does. A word with no break point
/// that still does not fit keeps a line of its own (the legibility tests find it).
pub(crate) fn wrap(
    p: &Painter,
    ctx: &Ctx,
    size: f32,
    weight: Weight,
    text: &str,
    max_w: f32,
) -> Vec<String> {
    let mut out = Vec::new();
    for line in p.wrap(size, weight, text, max_w) {
        if p.text_width(size, weight, &line) <= max_w {
            out.push(line);
        } else {
            out.extend(hyphenate(p, ctx, size, weight, &line, max_w));
        }
    }
    out
}

/// A word broken over lines at the catalog's break points, each part but the last ending in a
/// hyphen; the word as it is if the catalog gives no break points for it.
fn hyphenate(
    p: &Painter,
    ctx: &Ctx,
    size: f32,
    weight: Weight,
    word: &str,
    max_w: f32,
) -> Vec<String> {
    let catalog = ctx.t("image.hyphenation");
    let Some(parts) = catalog
        .split_whitespace()
        .map(|entry| entry.split('|').collect::<Vec<_>>())
        .find(|parts| parts.concat() == word)
    else {
        return vec![word.to_string()];
    };
    let mut lines = Vec::new();
    let mut line = String::new();
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let longer = format!("{line}{part}");
        let shown = if last {
            longer.clone()
        } else {
            format!("{longer}-")
        };
        if !line.is_empty() && p.text_width(size, weight, &shown) > max_w {
            lines.push(format!("{line}-"));
            line = part.to_string();
        } else {
            line = longer;
        }
    }
    lines.push(line);
    lines
}
