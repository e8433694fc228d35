//! The main board image: header (round, phase, whose turn, the seats), the Moon map with its
//! stations (or the Belt), the card display, the bonus spaces and tiles, the four company
//! tracks (space numbers, barriers, thresholds and what each unlocks), the research display with
//! the supplement space, the round track, the majority tiers strip; below it the threat card's
//! requirement and consequence, the mission cards strip when those modules are in play, and the
//! final scores once the game is over.

use super::geometry::{MoonGeometry, TrackGeometry};
use super::icons::{self, Ctx, Icon, Piece};
use super::layout::{Colour, Rect};
use super::paint::{Align, Painter, Role, Weight};
use crate::data::board::{BonusSpaceKind, MajorityCompare};
use crate::data::moon::{BorderEnd, LineType};
use crate::data::{BoardSide, Company, Requirement, Reward};
use crate::engine::state::{Phase, TileKind, TileState};
use crate::engine::view::SeatView;
use crate::engine::Task;
use std::collections::HashMap;

const HEADER_BG: Colour = Colour([0x23, 0x27, 0x33]);
const HEADER_CHIP: Colour = Colour([0x38, 0x3E, 0x4E]);
const SPACE_BG: Colour = Colour([0x2B, 0x30, 0x3C]);

pub(crate) fn draw(p: &mut Painter, ctx: &Ctx, view: &SeatView, side: BoardSide) {
    header(p, ctx, view);
    let geom = MoonGeometry::new(ctx.data, ctx.layout);
    match side {
        BoardSide::Moon => moon(p, ctx, view, &geom),
        BoardSide::Belt => super::belt::draw(p, ctx, view, &geom),
    }
    card_display(p, ctx, view);
    bonus_spaces(p, ctx, view);
    tracks(p, ctx, view);
    research_display(p, ctx, view);
    rounds(p, ctx, view);
    let below = super::missions::below(ctx.layout, view);
    super::notes::draw_tiers(p, ctx, below.tiers);
    super::notes::draw_threat(p, ctx, view, below.threat);
    super::missions::board_strip(p, ctx, view, below.missions);
    super::scores::draw(p, ctx, view, below.scores);
}

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

/// The catalog key of a phase's name on the images.
pub(crate) fn phase_key(phase: &Phase) -> &'static str {
    match phase {
        Phase::Setup => "image.phase_setup",
        Phase::Planning => "image.phase_planning",
        Phase::Action => "image.phase_action",
        Phase::Finished => "image.game_over",
    }
}

fn header(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let r = ctx.layout.board.header.rect;
    let t = ctx.text();
    p.fill_rect(r, HEADER_BG);
    let line1 = r.y + r.h * 0.28;
    let line2 = r.y + r.h * 0.72;
    let light = Colour([0xE8, 0xE6, 0xE1]);
    let rounds = ctx.rounds();
    let mut x = r.x + 14.0;
    if view.phase == Phase::Finished {
        x += p.text(
            x,
            line1,
            t.big,
            Weight::Bold,
            Colour::WHITE,
            Align::Left,
            &ctx.t("image.game_over"),
        );
    } else {
        x += p.text(
            x,
            line1,
            t.big,
            Weight::Bold,
            Colour::WHITE,
            Align::Left,
            &ctx.f(
                "image.round",
                &[("round", &view.round), ("rounds", &rounds)],
            ),
        );
        x += 14.0;
        x += p.text(
            x,
            line1,
            t.label,
            Weight::Regular,
            light,
            Align::Left,
            &ctx.t(phase_key(&view.phase)),
        );
    }
    // Whose turn.
    let right = r.right() - 14.0;
    let status_x = x + 24.0;
    match (&view.phase, view.active) {
        (Phase::Action, Some(a)) => {
            if let Some(seat) = view.seats.get(a) {
                let what = view
                    .pending
                    .as_ref()
                    .map(|t| task_words(ctx, t))
                    .unwrap_or_default();
                let name = &crate::text::sanitize_name(&seat.name);
                let name_w = p.text_width(t.label, Weight::Bold, name).min(260.0);
                let what_w = p.text_width(t.body, Weight::Regular, &what);
                let total = 22.0 + 30.0 + name_w + 12.0 + what_w;
                let mut sx = (right - total).max(status_x);
                // Play arrow.
                p.polygon(
                    &[(sx, line1 - 9.0), (sx + 14.0, line1), (sx, line1 + 9.0)],
                    ctx.layout.canvas.highlight,
                );
                sx += 22.0;
                icons::seat_marker(p, ctx, seat.colour, sx + 13.0, line1, 26.0);
                sx += 30.0;
                sx += p.text_fit(
                    sx,
                    line1,
                    t.label,
                    Weight::Bold,
                    ctx.layout.canvas.highlight,
                    Align::Left,
                    name,
                    260.0,
                );
                sx += 12.0;
                p.text_fit(
                    sx,
                    line1,
                    t.body,
                    Weight::Regular,
                    light,
                    Align::Left,
                    &what,
                    (right - sx).max(40.0),
                );
            }
        }
        (Phase::Planning | Phase::Setup, _) if !view.waiting_on.is_empty() => {
            let label = ctx.t("image.waiting_for");
            let label = label.as_str();
            let lw = p.text_width(t.body, Weight::Regular, label);
            let n = view.waiting_on.len() as f32;
            let total = lw + 8.0 + n * 30.0;
            let mut sx = (right - total).max(status_x);
            sx += p.text(
                sx,
                line1,
                t.body,
                Weight::Regular,
                light,
                Align::Left,
                label,
            );
            sx += 8.0;
            for &s in &view.waiting_on {
                if let Some(seat) = view.seats.get(s) {
                    icons::seat_marker(p, ctx, seat.colour, sx + 13.0, line1, 26.0);
                    sx += 30.0;
                }
            }
        }
        _ => {}
    }
    // Seat chips.
    let n = view.seats.len().max(1) as f32;
    let gap = 8.0;
    let chip_w = ((r.w - 20.0 - gap * (n - 1.0)) / n).min(300.0);
    for (i, seat) in view.seats.iter().enumerate() {
        let cr = Rect::new(
            r.x + 10.0 + i as f32 * (chip_w + gap),
            line2 - 17.0,
            chip_w,
            34.0,
        );
        let active = view.active == Some(i) && view.phase == Phase::Action;
        let (bg, fg) = if active {
            (ctx.layout.canvas.highlight, ctx.ink())
        } else {
            (HEADER_CHIP, Colour::WHITE)
        };
        p.round_rect(cr, 8.0, bg);
        icons::seat_marker(p, ctx, seat.colour, cr.x + 18.0, cr.cy(), 24.0);
        // Right side: coins, then first player / status.
        let mut rx = cr.right() - 8.0;
        let coins = seat.coins.to_string();
        let cw = p.text_width(t.small, Weight::Bold, &coins).max(16.0) / 2.0 + 4.0;
        icons::coin(p, ctx, rx - cw, cr.cy(), cw.max(12.0), &coins);
        rx -= cw * 2.0 + 6.0;
        let first = ctx.t("image.first");
        let status = if view.first_player == i {
            Some(first.clone())
        } else {
            None
        };
        let extra = if seat.dropped_out {
            Some(ctx.t("image.out"))
        } else if view.phase == Phase::Planning && seat.planned {
            Some("✓".to_string())
        } else {
            None
        };
        for word in [extra, status].into_iter().flatten() {
            let word = word.as_str();
            let w = p.text_width(t.small, Weight::Bold, word) + 10.0;
            let tr = Rect::new(rx - w, cr.cy() - 11.0, w, 22.0);
            let tag_bg = if word == first {
                Colour::WHITE
            } else {
                Colour([0x8E, 0x96, 0xA8])
            };
            p.round_rect(tr, 6.0, tag_bg);
            p.text(
                tr.cx(),
                tr.cy(),
                t.small,
                Weight::Bold,
                ctx.ink(),
                Align::Centre,
                word,
            );
            rx -= w + 5.0;
        }
        let name_x = cr.x + 36.0;
        p.text_fit(
            name_x,
            cr.cy(),
            t.body,
            Weight::Bold,
            fg,
            Align::Left,
            &crate::text::sanitize_name(&seat.name),
            (rx - name_x - 4.0).max(10.0),
        );
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

// ------------------------------------------------------------------ Moon

fn moon(p: &mut Painter, ctx: &Ctx, view: &SeatView, g: &MoonGeometry) {
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
    // Legend in the four corners.
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
        p.text_fit(
            cx,
            cy + 16.0,
            ctx.text().small,
            Weight::Regular,
            Colour([0xDD, 0xDD, 0xDD]),
            Align::Centre,
            &word,
            band - 4.0,
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
                p.fill_rect(cell, ctx.layout.canvas.faint);
                p.fill_rect(cell.inset(1.0), Colour::WHITE);
                let n = col_coins.get(sp - 1).copied().unwrap_or(0);
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
                if sp == layout.crossed_out_space {
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
        }
    }
    // Label: letter, share value, outposts left.
    let lab = frame.rect(0.0, label_len, 0.0, depth);
    let value = view
        .share_values
        .get(st.company.index())
        .copied()
        .unwrap_or(0);
    let left: u32 = columns
        .map(|c| c.iter().map(|x| x.outposts as u32).sum())
        .unwrap_or(0);
    let t = ctx.text();
    if frame.horizontal() {
        let cy = lab.cy();
        let mut x = lab.x + 10.0;
        icons::company_chip(p, ctx, st.company, x + 15.0, cy, 30.0);
        x += 38.0;
        x += p.text(
            x,
            cy,
            t.body,
            Weight::Bold,
            ctx.ink(),
            Align::Left,
            ctx.company_short(st.company),
        );
        x += 14.0;
        icons::coin(p, ctx, x + 17.0, cy, 17.0, &value.to_string());
        x += 42.0;
        icons::outpost_token(p, ctx, st.company, x + 11.0, cy, 22.0);
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
        icons::company_chip(p, ctx, st.company, cx, top, 30.0);
        icons::coin(p, ctx, cx, top + step, 17.0, &value.to_string());
        icons::outpost_token(p, ctx, st.company, cx - 14.0, top + 2.0 * step, 22.0);
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

// ------------------------------------------------------------------ card display

fn card_display(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.cards;
    let note = ctx.f(
        "image.stack_discard",
        &[
            ("stack", &view.action_stack_size),
            ("discard", &view.discard.len()),
        ],
    );
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), &note);
    let d = &ctx.data.board.card_display;
    let (cols, rows) = (d.columns.max(1) as f32, d.rows.max(1) as f32);
    let cw = (body.w - l.gap * (cols - 1.0)) / cols;
    let ch = (body.h - l.gap * (rows - 1.0)) / rows;
    for space in &d.spaces {
        let r = Rect::new(
            body.x + space.col as f32 * (cw + l.gap),
            body.y + space.row as f32 * (ch + l.gap),
            cw,
            ch,
        );
        let label = format!("#{}", space.number);
        match view
            .display
            .get(space.number as usize - 1)
            .copied()
            .flatten()
        {
            Some(id) => {
                let cost = ctx
                    .data
                    .cards
                    .get(id as usize)
                    .map(|c| c.cost + space.board_cost);
                icons::card(p, ctx, r, id, icons::CardFace::Up, cost, Some(&label));
            }
            None => {
                empty_slot(p, ctx, r, &label);
            }
        }
        p.tag_last(
            &label,
            Role::DisplaySpace {
                number: space.number,
            },
        );
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

// ------------------------------------------------------------------ bonus spaces

fn bonus_spaces(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.bonus;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let area = &ctx.data.board.bonus_area;
    let (cols, rows) = (area.columns.max(1) as f32, area.rows.max(1) as f32);
    let cw = (body.w - l.gap * (cols - 1.0)) / cols;
    let ch = (body.h - l.gap * (rows - 1.0)) / rows;
    let t = ctx.text();
    for (i, space) in ctx.data.board.bonus_spaces.iter().enumerate() {
        let r = Rect::new(
            body.x + space.col as f32 * (cw + l.gap),
            body.y + space.row as f32 * (ch + l.gap),
            cw,
            ch,
        );
        let marker = view.bonus_spaces.get(i).copied().flatten();
        let fill = match marker.and_then(|m| view.seats.get(m.seat)) {
            Some(seat) => ctx.seat_style(seat.colour).1.mix(Colour::WHITE, 0.6),
            None => Colour([0xF6, 0xF4, 0xEF]),
        };
        p.round_box(r, 8.0, fill, ctx.layout.canvas.panel_border, 1.5);
        let label = bonus_space_label(ctx, space);
        let lw = icons::row_width(p, ctx, &label);
        icons::draw_row(p, ctx, r.cx() - lw / 2.0, r.y + 17.0, &label);
        // What it compares / costs and gives.
        let mut pieces = Vec::new();
        match space.kind {
            BonusSpaceKind::Majority => {
                // The first tier's reward: the company track (or coins) it moves.
                if let Some(tier) = space.tiers.first() {
                    for rw in &tier.reward {
                        icons::reward_pieces(ctx, rw, &mut pieces);
                    }
                }
            }
            BonusSpaceKind::Standard | BonusSpaceKind::Tile => {
                for rq in &space.requirement {
                    if !matches!(rq, Requirement::DiscardFromHand { .. }) {
                        icons::requirement_pieces(ctx, rq, &mut pieces);
                    }
                }
                for rw in &space.reward {
                    match rw {
                        Reward::TakeFirstPlayerMarker
                        | Reward::ReserveBonusTile { .. }
                        | Reward::BuyDisplayCard { discount: 0 } => {}
                        other => icons::reward_pieces(ctx, other, &mut pieces),
                    }
                }
            }
        }
        let pw = icons::row_width(p, ctx, &pieces);
        icons::draw_row(p, ctx, r.cx() - pw / 2.0, r.y + r.h * 0.47, &pieces);
        // Tile state on tile spaces.
        let tile = space.reward.iter().find_map(|rw| match rw {
            Reward::ReserveBonusTile { tile } => TileKind::from_data_id(tile),
            _ => None,
        });
        let by = r.bottom() - 16.0;
        if let Some(kind) = tile {
            let state = view
                .tiles
                .get(crate::engine::state::GameState::tile_index(kind))
                .copied();
            let (who, word) = match state {
                Some(TileState::Held {
                    seat, used: true, ..
                }) => (Some(seat), ctx.t("image.used")),
                Some(TileState::Held { seat, .. }) => (Some(seat), ctx.t("image.held")),
                _ => (None, ctx.t("image.free")),
            };
            let word = word.as_str();
            // With a bonus marker on the space, the tile's state moves left of it.
            let (x0, align) = if marker.is_some() {
                (r.x + 5.0, Align::Left)
            } else {
                (r.cx(), Align::Centre)
            };
            match who.and_then(|s| view.seats.get(s)) {
                Some(seat) => {
                    let ww = p.text_width(t.small, Weight::Regular, word);
                    let left = if align == Align::Left {
                        x0
                    } else {
                        x0 - (20.0 + ww) / 2.0
                    };
                    icons::seat_marker(p, ctx, seat.colour, left + 9.0, by, 18.0);
                    p.text(
                        left + 20.0,
                        by,
                        t.small,
                        Weight::Regular,
                        ctx.muted(),
                        Align::Left,
                        word,
                    );
                }
                None => {
                    p.text(x0, by, t.small, Weight::Regular, ctx.muted(), align, word);
                }
            }
        }
        // Luna's majority cards: the value a human has to beat here.
        if let (BonusSpaceKind::Majority, Some(cmp), None) = (space.kind, space.compare, marker) {
            for seat in &view.seats {
                let Some(v) = seat
                    .luna
                    .as_ref()
                    .and_then(|l| super::luna::majority_value(ctx, l, cmp))
                else {
                    continue;
                };
                let label = v.to_string();
                let ww = p.text_width(t.small, Weight::Bold, &label);
                let x0 = r.cx() - (22.0 + ww) / 2.0;
                icons::seat_marker(p, ctx, seat.colour, x0 + 9.0, by, 18.0);
                p.text(
                    x0 + 22.0,
                    by,
                    t.small,
                    Weight::Bold,
                    ctx.ink(),
                    Align::Left,
                    &label,
                );
            }
        }
        if let Some(m) = marker {
            if let Some(seat) = view.seats.get(m.seat) {
                let mx = if tile.is_some() {
                    r.right() - 17.0
                } else {
                    r.cx()
                };
                icons::seat_marker(p, ctx, seat.colour, mx, by - 2.0, 28.0);
                if m.one_time {
                    p.text(
                        r.cx() + 18.0,
                        by,
                        t.small,
                        Weight::Bold,
                        ctx.ink(),
                        Align::Left,
                        "1×",
                    );
                }
            }
        }
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

// ------------------------------------------------------------------ company tracks

fn tracks(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let g = TrackGeometry::new(ctx.data, ctx.layout, &view.tracks);
    let t = ctx.text();
    for c in Company::ALL {
        let Some(track) = view.tracks.get(c.index()).and_then(|id| ctx.data.track(id)) else {
            continue;
        };
        let colour = ctx.company_colour(c);
        let row = g.row(c);
        // Label.
        let lab = g.label(c);
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
        // Share icons.
        let strip = TrackGeometry::STRIP;
        let strip_y = row.y + strip / 2.0;
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
        // Barriers (red: pay) and thresholds (green: gain, unlocks a bonus), between spaces.
        let bar_top = row.y + strip;
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
}

/// Seat markers sharing a box: one big one, or a cluster of overlapping ones (each keeps its
/// outline, so all stay recognisable even where they overlap the neighbouring space a little).
pub(crate) fn markers_in(p: &mut Painter, ctx: &Ctx, area: Rect, colours: &[usize]) {
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

// ------------------------------------------------------------------ research display

fn research_display(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.research;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let rd = &ctx.data.board.research_display;
    let rows = rd.rows.max(1) as f32;
    let per_row = rd.positions_per_row.max(1) as f32;
    let rh = (body.h - l.gap * (rows - 1.0)) / rows;
    let t = ctx.text();
    // Supplement space: a hexagon with its coins.
    let hx = Rect::new(body.x, body.y, l.hex_px, body.h);
    let (cx, cy) = (hx.cx(), hx.cy());
    let (w2, h2) = (hx.w / 2.0, (hx.h / 2.0).min(hx.w * 0.9));
    let hex = |d: f32| {
        vec![
            (cx - w2 - d, cy),
            (cx - w2 * 0.5 - d * 0.5, cy - h2 - d),
            (cx + w2 * 0.5 + d * 0.5, cy - h2 - d),
            (cx + w2 + d, cy),
            (cx + w2 * 0.5 + d * 0.5, cy + h2 + d),
            (cx - w2 * 0.5 - d * 0.5, cy + h2 + d),
        ]
    };
    p.polygon(&hex(0.0), ctx.layout.canvas.alert);
    p.polygon(&hex(-3.0), Colour([0xFB, 0xEE, 0xEC]));
    icons::coin(p, ctx, cx, cy, 17.0, &view.supplement_coins.to_string());
    // Rows.
    let supply_x = hx.right() + l.gap;
    let plans_x = supply_x + l.supply_px + l.gap;
    let pw = (body.right() - plans_x - l.gap * (per_row - 1.0)) / per_row;
    for (ri, letter) in rd.row_letters.iter().enumerate() {
        let y = body.y + ri as f32 * (rh + l.gap);
        let left = view.plan_supply_sizes.get(ri).copied().unwrap_or(0);
        let sr = Rect::new(supply_x, y, l.supply_px, rh);
        p.round_box(sr, 6.0, Colour([0x46, 0x4E, 0x63]), ctx.ink(), 1.5);
        p.text(
            sr.cx(),
            sr.y + rh * 0.32,
            t.label,
            Weight::Bold,
            Colour::WHITE,
            Align::Centre,
            &letter.to_string(),
        );
        p.text(
            sr.cx(),
            sr.y + rh * 0.72,
            t.small,
            Weight::Regular,
            Colour([0xD0, 0xD4, 0xE0]),
            Align::Centre,
            &left.to_string(),
        );
    }
    for (i, space) in rd.spaces.iter().enumerate() {
        let r = Rect::new(
            plans_x + space.position as f32 * (pw + l.gap),
            body.y + space.row as f32 * (rh + l.gap),
            pw,
            rh,
        );
        let outline = if space.red_framed {
            ctx.layout.canvas.alert
        } else {
            ctx.layout.canvas.panel_border
        };
        match view
            .research_display
            .get(i)
            .copied()
            .flatten()
            .and_then(|id| ctx.data.research.plans.get(id as usize))
        {
            Some(plan) => icons::plan(
                p,
                ctx,
                r,
                &icons::PlanFace {
                    id: plan.id.clone(),
                    requirements: &plan.requirements,
                    reward: &plan.reward,
                },
                outline,
            ),
            None => {
                empty_slot(p, ctx, r, "");
                if space.red_framed {
                    p.stroke_rect(r, 2.0, outline);
                }
            }
        }
    }
}

// ------------------------------------------------------------------ round track

fn rounds(p: &mut Painter, ctx: &Ctx, view: &SeatView) {
    let l = &ctx.layout.board.rounds;
    let body = panel(p, ctx, l.rect, &ctx.title(&l.title), "");
    let spaces = &ctx.data.board.round_track.spaces;
    let n = spaces.len().max(1) as f32;
    let rh = body.h / n;
    let t = ctx.text();
    for (i, &round) in spaces.iter().enumerate() {
        let y = body.y + i as f32 * rh;
        let cy = y + rh / 2.0;
        let current = round == view.round as u32 && view.phase != Phase::Finished;
        let past = (round as u8) < view.round || view.phase == Phase::Finished;
        let br = Rect::new(body.x, cy - rh / 2.0 + 1.5, 30.0, rh - 3.0);
        let (bg, fg) = if current {
            (ctx.layout.canvas.highlight, ctx.ink())
        } else if past {
            (ctx.layout.canvas.faint, ctx.muted())
        } else {
            (Colour([0x46, 0x4E, 0x63]), Colour::WHITE)
        };
        p.round_rect(br, 6.0, bg);
        if current {
            p.round_box(br, 6.0, bg, ctx.ink(), 2.0);
        }
        p.text(
            br.cx(),
            cy,
            t.small,
            Weight::Bold,
            fg,
            Align::Centre,
            &round.to_string(),
        );
        let Some(sp) = ctx
            .data
            .research
            .special_plans
            .iter()
            .find(|s| s.round == round)
        else {
            continue;
        };
        let slot = ctx
            .data
            .research
            .special_plans
            .iter()
            .position(|s| s.round == round)
            .and_then(|k| view.specials.get(k))
            .copied();
        let mut x = br.right() + 8.0;
        let (taken, face_up, coin_under) = slot
            .map(|s| (s.taken, s.face_up, s.coin_under))
            .unwrap_or((false, false, false));
        let ink = if taken || !face_up {
            ctx.muted()
        } else {
            ctx.ink()
        };
        x += p.text(x, cy, t.small, Weight::Bold, ink, Align::Left, &sp.id);
        x += 6.0;
        if taken {
            p.text(
                x,
                cy,
                t.small,
                Weight::Regular,
                ctx.muted(),
                Align::Left,
                &ctx.t("image.taken"),
            );
        } else {
            let pieces = [
                Piece::Icon(Icon::Coins, format!("-{}", sp.coin_cost)),
                Piece::Muted("→".into()),
                Piece::Icon(Icon::Points, sp.value.to_string()),
            ];
            x += icons::draw_row(p, ctx, x, cy, &pieces);
            if face_up {
                p.text(
                    x + 6.0,
                    cy,
                    t.small,
                    Weight::Bold,
                    ctx.layout.canvas.positive,
                    Align::Left,
                    &ctx.t("image.open"),
                );
            }
        }
        if coin_under {
            icons::coin(p, ctx, body.right() - 12.0, cy, 10.0, "");
        }
    }
}
