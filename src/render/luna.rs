//! Luna's board (luna.png): her action slots a–e with the Luna cards in them (each action
//! spelled out for the slot it sits in), her two majority slots and what they are worth on
//! each majority space, her deck, grade-II stack and discard pile, her tank and research
//! tracks with the Luna tokens, the action cards in her reserve, shares and bonus markers.
//! Everything here is public (`LunaView`); face-down Luna cards are drawn as backs.

use super::icons::{self, Ctx, Icon, Piece};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Weight};
use super::seat_frame::{footer, header, step_track, StepTrack};
use super::widgets::{bonus_space_label, empty_slot, panel};
use crate::data::luna::{CardPick, CompanySelector, LunaAction, LunaCard, MajorityIcon, PlanPick};
use crate::engine::view::{LunaView, PublicSeat, SeatView};

const LUNA_BAND: Colour = Colour([0x4A, 0x55, 0x6E]);

pub(crate) fn draw(
    p: &mut Painter,
    ctx: &Ctx,
    view: &SeatView,
    seat: usize,
    s: &PublicSeat,
    luna: &LunaView,
) {
    header(p, ctx, view, seat, s);
    slots(p, ctx, s, luna);
    majority_and_deck(p, ctx, luna);
    let lb = &ctx.data.luna_board;
    let (tank_title, research_title) = (ctx.t("image.tank"), ctx.t("image.research"));
    let tank = StepTrack {
        title: &tank_title,
        seat,
        screens: false,
        steps: lb.tank_track.final_step as usize + 1,
        on_step: Some(lb.tank_track.switch_on_step as usize),
        links: thresholds(&lb.tank_track),
        score: lb.tank_track.score(s.tank as u32),
        pos: Some(s.tank as usize),
        fill: ctx.layout.icons.tank.colour,
        tokens: &luna.helium_tokens,
    };
    step_track(p, ctx, ctx.layout.player.tank.rect, &tank, s.colour);
    let research_rect = ctx.layout.player.research.rect;
    let upload = s.upload.map(|u| u as usize);
    let research = StepTrack {
        title: &research_title,
        seat,
        screens: true,
        steps: lb.research_track.final_step as usize + 1,
        on_step: Some(lb.research_track.switch_on_step as usize),
        links: thresholds(&lb.research_track),
        score: lb.research_track.score(upload.unwrap_or(0) as u32),
        pos: upload,
        fill: ctx.layout.icons.research.colour,
        tokens: &luna.research_tokens,
    };
    let top = Rect::new(
        research_rect.x,
        research_rect.y,
        research_rect.w,
        ctx.layout.player.tank.rect.h,
    );
    step_track(p, ctx, top, &research, s.colour);
    reserve(p, ctx, luna, research_rect.below(top.h + 8.0));
    footer(p, ctx, view, seat, s, false);
}

/// Luna's score thresholds as (first step, coins) links.
fn thresholds(t: &crate::data::luna::LunaTrack) -> Vec<(usize, u32)> {
    t.score_threshold_steps
        .iter()
        .zip(t.score_threshold_coins.iter())
        .map(|(s, c)| (*s as usize, *c))
        .collect()
}

fn selector_word(c: CompanySelector) -> &'static str {
    match c {
        CompanySelector::MostValuable => "most",
        CompanySelector::SecondMostValuable => "2nd",
        CompanySelector::LeastValuable => "least",
        CompanySelector::MostValuableTwoEach => "2 most",
        CompanySelector::LeadBiggestMargin => "lead",
        CompanySelector::LeadBiggestMarginTwoEach => "2 lead",
        CompanySelector::AllFourEach => "all 4",
    }
}

/// One action as icons and short words, for the slot letter it is carried out in.
fn action_pieces(ctx: &Ctx, a: &LunaAction, letter: char) -> Vec<Piece> {
    let chip = |id: &str| {
        let st = ctx.card_style(id);
        Piece::Chip(st.colour, st.short)
    };
    match a {
        LunaAction::GainCoins { n } => vec![Piece::Icon(Icon::Coins, n.to_string())],
        LunaAction::GainHelium { n } => vec![Piece::Icon(Icon::Tank, format!("+{n}"))],
        LunaAction::AdvanceResearch { n } => {
            vec![Piece::Icon(Icon::Research, format!("+{n}"))]
        }
        LunaAction::AdvanceCompany { n, company } => vec![
            Piece::Icon(Icon::Track, format!("+{n}")),
            Piece::Muted(selector_word(*company).into()),
        ],
        LunaAction::ExpandCompany {
            points,
            company,
            sector,
        } => vec![
            Piece::Text(points.to_string(), Weight::Bold),
            chip("energy"),
            Piece::Muted(selector_word(*company).into()),
            Piece::Muted(
                match sector {
                    crate::data::luna::SectorPick::Min => "min",
                    crate::data::luna::SectorPick::Max => "max",
                }
                .into(),
            ),
        ],
        LunaAction::GainCard(CardPick::SlotMatrix { spaces_by_slot, .. }) => {
            let spaces = spaces_by_slot
                .get(&letter)
                .map(|v| {
                    v.iter()
                        .map(|n| format!("#{n}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default();
            vec![
                Piece::Muted("card".into()),
                Piece::Text(spaces, Weight::Bold),
            ]
        }
        LunaAction::GainCard(CardPick::MostValuableShare) => vec![
            Piece::Muted("card".into()),
            Piece::Text("top share".into(), Weight::Bold),
        ],
        LunaAction::PlaceBonusMarker { cell_by_slot, .. } => {
            let mut pieces = vec![Piece::Muted("marker".into())];
            match cell_by_slot.get(&letter).and_then(|[r, c]| {
                ctx.data
                    .board
                    .bonus_spaces
                    .iter()
                    .find(|b| b.row as usize == *r && b.col as usize == *c)
            }) {
                Some(space) => pieces.extend(bonus_space_label(ctx, space)),
                None => pieces.push(Piece::Muted("-".into())),
            }
            pieces
        }
        LunaAction::DiscardResearchPlan(pick) => {
            let what = match pick.row() {
                Some((row, r)) => r
                    .position_by_slot
                    .get(&letter)
                    .map(|pos| format!("{row}{pos}"))
                    .unwrap_or_else(|| row.to_string()),
                None => match pick {
                    PlanPick::LatestSpecial => "SP".into(),
                    _ => "?".into(),
                },
            };
            vec![Piece::Muted("drop".into()), Piece::Text(what, Weight::Bold)]
        }
    }
}

/// A Luna card face in a slot with letter `letter`.
fn luna_card(p: &mut Painter, ctx: &Ctx, r: Rect, card: &LunaCard, letter: char) {
    p.round_box(r, 8.0, ctx.panel(), ctx.ink(), 2.0);
    let band = Rect::new(r.x + 2.0, r.y + 2.0, r.w - 4.0, 28.0);
    p.round_rect(band, 6.0, LUNA_BAND);
    p.fill_rect(
        Rect::new(band.x, band.bottom() - 6.0, band.w, 6.0),
        LUNA_BAND,
    );
    p.text(
        band.x + 6.0,
        band.cy(),
        ctx.text().small,
        Weight::Bold,
        Colour::WHITE,
        Align::Left,
        &card.id,
    );
    let mut y = band.bottom() + 16.0;
    for a in &card.actions {
        if y > r.bottom() - 10.0 {
            break;
        }
        let pieces = action_pieces(ctx, a, letter);
        icons::draw_row(p, ctx, r.x + 7.0, y, &pieces);
        y += 28.0;
    }
}

fn slots(p: &mut Painter, ctx: &Ctx, s: &PublicSeat, luna: &LunaView) {
    let l = &ctx.layout.player.slots;
    let letters = &ctx.data.luna_board.action_slots.order;
    let n = letters.len().max(1);
    let gap = 10.0;
    let cw = (l.rect.w - gap * (n as f32 - 1.0)) / n as f32;
    let t = ctx.text();
    for (i, letter) in letters.iter().enumerate() {
        let col = Rect::new(l.rect.x + i as f32 * (cw + gap), l.rect.y, cw, l.rect.h);
        let on = s.slot_on.get(i).copied().unwrap_or(false);
        p.round_box(
            col,
            10.0,
            if on {
                ctx.panel()
            } else {
                ctx.layout.canvas.faint
            },
            ctx.layout.canvas.panel_border,
            2.0,
        );
        p.text(
            col.x + 12.0,
            col.y + 17.0,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            &ctx.f("image.slot", &[("slot", &letter)]),
        );
        if !on {
            p.text(
                col.right() - 10.0,
                col.y + 17.0,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Right,
                &ctx.t("image.off"),
            );
        }
        let card_r = Rect::new(col.x + 8.0, col.y + 34.0, col.w - 16.0, col.h - 42.0);
        let face_down = luna.face_down.get(i).copied().unwrap_or(false);
        match luna.slots.get(i).copied().flatten() {
            Some(c) => match ctx.data.luna_cards.cards.get(c as usize) {
                Some(card) => luna_card(p, ctx, card_r, card, *letter),
                None => icons::card_back(p, ctx, card_r, "?"),
            },
            None if face_down => icons::card_back(p, ctx, card_r, "Luna"),
            None if on => empty_slot(p, ctx, card_r, &ctx.t("image.empty")),
            None => {}
        }
    }
}

fn icon_style(i: MajorityIcon) -> &'static str {
    match i {
        MajorityIcon::Titanium => "titanium",
        MajorityIcon::Carbon => "carbon",
        MajorityIcon::EnergyPoints => "energy",
        MajorityIcon::Minerals => "minerals",
    }
}

/// The majority slots (what Luna blocks on the majority spaces) and her decks.
fn majority_and_deck(p: &mut Painter, ctx: &Ctx, luna: &LunaView) {
    let rect = ctx.layout.player.resting.rect;
    let half = (rect.w - 10.0) / 2.0;
    let left = Rect::new(rect.x, rect.y, half, rect.h);
    let right = Rect::new(rect.x + half + 10.0, rect.y, half, rect.h);
    let body = panel(p, ctx, left, &ctx.t("image.majority_slots"), "");
    let slots = &ctx.data.luna_board.majority_slots;
    let mut pieces: Vec<Piece> = Vec::new();
    let mut scientists = 0;
    for (m, icons_of_slot) in [&slots.left_slot, &slots.right_slot]
        .into_iter()
        .enumerate()
    {
        let card = luna
            .majority
            .get(m)
            .copied()
            .flatten()
            .and_then(|c| ctx.data.luna_cards.cards.get(c as usize));
        if m > 0 {
            pieces.push(Piece::Gap(14.0));
        }
        match card {
            Some(c) => {
                scientists += c.majority.scientists;
                pieces.push(Piece::Muted(c.id.clone()));
                for (k, icon) in icons_of_slot.iter().enumerate() {
                    let st = ctx.card_style(icon_style(*icon));
                    pieces.push(Piece::Chip(st.colour, st.short));
                    let v = if k == 0 {
                        c.majority.left
                    } else {
                        c.majority.right
                    };
                    pieces.push(Piece::Text(v.to_string(), Weight::Bold));
                }
            }
            None => pieces.push(Piece::Muted(ctx.t("image.empty"))),
        }
    }
    if luna.majority.iter().any(Option::is_some) {
        let st = ctx.card_style("research_scientist");
        pieces.push(Piece::Gap(14.0));
        pieces.push(Piece::Chip(st.colour, st.short));
        pieces.push(Piece::Text(scientists.to_string(), Weight::Bold));
    }
    icons::draw_row(p, ctx, body.x + 4.0, body.cy(), &pieces);
    let body = panel(p, ctx, right, &ctx.t("image.luna_cards"), "");
    let deck = [
        Piece::Muted(ctx.t("image.deck")),
        Piece::Text(luna.deck_size.to_string(), Weight::Bold),
        Piece::Gap(10.0),
        Piece::Muted(ctx.t("image.grade_two")),
        Piece::Text(luna.grade2_size.to_string(), Weight::Bold),
        Piece::Gap(10.0),
        Piece::Muted(ctx.t("image.discard")),
        Piece::Text(luna.discard.len().to_string(), Weight::Bold),
    ];
    icons::draw_row(p, ctx, body.x + 4.0, body.cy(), &deck);
}

/// The action cards Luna gained (face down in her reserve; they count for shares).
fn reserve(p: &mut Painter, ctx: &Ctx, luna: &LunaView, rect: Rect) {
    let body = panel(
        p,
        ctx,
        rect,
        &ctx.f("image.reserve", &[("n", &luna.reserve_cards.len())]),
        "",
    );
    let chip = ctx.layout.player.resting.chip_px;
    let per_row = ((body.w / (chip + 6.0)) as usize).max(1);
    let rows = ((body.h / (chip + 6.0)) as usize).max(1);
    for (k, c) in luna.reserve_cards.iter().enumerate().take(per_row * rows) {
        icons::mini_card(
            p,
            ctx,
            body.x + (k % per_row) as f32 * (chip + 6.0) + chip / 2.0,
            body.y + (k / per_row) as f32 * (chip + 6.0) + chip / 2.0,
            chip,
            *c,
        );
    }
}
