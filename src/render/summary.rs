//! Text that goes with every image: alt text for the picture and a text-only status for
//! screen readers and for chats where images are off. Public information only, unless a
//! private player summary is asked for by its owner's view. Written in the language of the
//! catalog it is given (`alt.*` keys; component names through their name references).

use super::icons::Ctx;
use super::layout::Layout;
use super::widgets::{phase_key, task_words};
use crate::data::{numbering, CardId, Company, GameData};
use crate::engine::state::Phase;
use crate::engine::view::{SeatView, SlotView};
use crate::text::Texts;
use std::fmt::Write;

/// A card in a few words ("2 carbon +M"), in the summary's language.
fn card_words(ctx: &Ctx, id: CardId) -> String {
    let data = ctx.data;
    let Some(def) = data.cards.get(id as usize) else {
        return "?".to_string();
    };
    let mut s = ctx.texts.resolve(&data.card_kind_name(def));
    if let Some(c) = def.share {
        let _ = write!(s, " +{}", ctx.company_letter(c));
    }
    s
}

/// One line per seat: the public facts.
fn seat_line(ctx: &Ctx, view: &SeatView, i: usize) -> String {
    let Some(s) = view.seats.get(i) else {
        return String::new();
    };
    let t = ctx.texts;
    let mut tracks = String::new();
    for c in Company::ALL {
        let _ = write!(
            tracks,
            " {}{}",
            ctx.company_letter(c),
            s.track_pos.get(c.index()).copied().unwrap_or(0)
        );
    }
    // Where the markers stand (the tank step, the upload marker's screen), in words that do not
    // read as the values the image draws beside "Tank" and "Research".
    let research = match s.upload {
        Some(u) => t.f(
            "alt.research_screen",
            &[("screen", &numbering::screen(u.into()))],
        ),
        None => t.t("alt.research_start"),
    };
    let mut line = t.f(
        "alt.seat",
        &[
            ("icon", &ctx.seat_icon(s.colour)),
            ("name", &s.name),
            ("coins", &s.coins),
            ("hand", &s.hand_size),
            ("tracks", &tracks),
            ("tank", &s.tank),
            ("research", &research),
        ],
    );
    let up: Vec<String> = s
        .slots
        .iter()
        .filter_map(|sl| match sl {
            SlotView::Up(c) => Some(card_words(ctx, *c)),
            _ => None,
        })
        .collect();
    if !up.is_empty() {
        line.push_str(&t.f("alt.ready", &[("cards", &up.join(", "))]));
    }
    let hidden = s
        .slots
        .iter()
        .filter(|sl| matches!(sl, SlotView::Hidden | SlotView::OwnPlanned(_)))
        .count();
    if hidden > 0 {
        line.push_str(&t.f("alt.planned_count", &[("n", &hidden)]));
    }
    if view.first_player == i {
        line.push_str(&t.t("alt.first_player"));
    }
    if s.dropped_out {
        line.push_str(&t.t("alt.dropped_out"));
    }
    line.push('.');
    line
}

fn status_line(ctx: &Ctx, view: &SeatView) -> String {
    let t = ctx.texts;
    let rounds = ctx.rounds();
    let mut s = match view.phase {
        Phase::Finished => t.t("alt.game_over"),
        _ => t.f(
            "alt.round",
            &[
                ("round", &view.round),
                ("rounds", &rounds),
                ("phase", &t.t(phase_key(&view.phase))),
            ],
        ),
    };
    match (&view.phase, view.active) {
        (Phase::Action, Some(a)) => {
            if let Some(seat) = view.seats.get(a) {
                let what = view
                    .pending
                    .as_ref()
                    .map(|task| task_words(ctx, task))
                    .unwrap_or_default();
                s.push_str(&t.f(
                    "alt.to_play",
                    &[
                        (
                            "player",
                            &format!("{} {}", ctx.seat_icon(seat.colour), seat.name),
                        ),
                        ("what", &what),
                    ],
                ));
            }
        }
        (Phase::Planning | Phase::Setup, _) if !view.waiting_on.is_empty() => {
            let names: Vec<String> = view
                .waiting_on
                .iter()
                .filter_map(|i| view.seats.get(*i))
                .map(|seat| format!("{} {}", ctx.seat_icon(seat.colour), seat.name))
                .collect();
            s.push_str(&t.f("alt.waiting_for", &[("names", &names.join(", "))]));
        }
        (Phase::Finished, _) => {}
        _ => s.push('.'),
    }
    s
}

/// Where the companies' outposts stand: sectors on the Moon; asteroids and shuttle spaces on
/// the Belt, with the threat card while it is on the board.
fn outposts(ctx: &Ctx, view: &SeatView, out: &mut String) {
    let (data, t) = (ctx.data, ctx.texts);
    match view.belt.as_ref() {
        None => {
            out.push_str(&t.t("alt.moon_outposts"));
            for c in Company::ALL {
                let sectors: Vec<String> = view
                    .sectors
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| **o == Some(c))
                    .map(|(i, _)| (i + 1).to_string())
                    .collect();
                let list = if sectors.is_empty() {
                    t.t("alt.none")
                } else {
                    sectors.join(" ")
                };
                let _ = write!(out, " {} {list};", ctx.company_letter(c));
            }
            let free = view.sectors.iter().filter(|o| o.is_none()).count();
            out.push_str(&t.f("alt.free", &[("n", &free)]));
            out.push('\n');
        }
        Some(belt) => {
            out.push_str(&t.t("alt.belt_outposts"));
            for c in Company::ALL {
                let asteroids: Vec<String> = data
                    .belt
                    .asteroids
                    .iter()
                    .zip(belt.outposts.iter())
                    .filter(|(_, spaces)| spaces.contains(&Some(c)))
                    .map(|(a, spaces)| {
                        let n = spaces.iter().filter(|s| **s == Some(c)).count();
                        if n > 1 {
                            format!("{}×{n}", a.id)
                        } else {
                            a.id.to_string()
                        }
                    })
                    .collect();
                let shuttles: Vec<String> = data
                    .belt
                    .flight_paths
                    .iter()
                    .zip(belt.shuttles.iter())
                    .filter(|(_, s)| **s == Some(c))
                    .map(|(f, _)| f.shuttle_space.to_string())
                    .collect();
                let list = |v: Vec<String>| {
                    if v.is_empty() {
                        "-".to_string()
                    } else {
                        v.join(" ")
                    }
                };
                let _ = write!(
                    out,
                    " {} {} / {};",
                    ctx.company_letter(c),
                    list(asteroids),
                    list(shuttles)
                );
            }
            out.pop();
            out.push_str(".\n");
            if let Some(card) = view
                .threat
                .as_ref()
                .filter(|t| t.on_board)
                .and_then(|t| data.threats.threats.get(t.card as usize))
            {
                out.push_str(&t.f("alt.threat", &[("threat", &card.display_name())]));
                out.push('\n');
            }
        }
    }
}

/// The alt text / text-only status of the main board in the language of `texts`: public
/// information only.
pub fn board_summary(data: &GameData, layout: &Layout, view: &SeatView, texts: &Texts) -> String {
    let ctx = Ctx {
        data,
        layout,
        texts,
    };
    let t = texts;
    let mut out = status_line(&ctx, view);
    out.push('\n');
    out.push_str(&t.t("alt.share_values"));
    for c in Company::ALL {
        let _ = write!(
            out,
            " {} ({}) {}",
            ctx.company_short(c),
            ctx.company_letter(c),
            view.share_values.get(c.index()).copied().unwrap_or(0)
        );
        out.push(if c == Company::Tawac { '.' } else { ',' });
    }
    out.push('\n');
    outposts(&ctx, view, &mut out);
    for i in 0..view.seats.len() {
        out.push_str(&seat_line(&ctx, view, i));
        out.push('\n');
    }
    out.push_str(&t.t("alt.cards"));
    for space in &data.board.card_display.spaces {
        if let Some(Some(id)) = view.display.get(space.number as usize - 1) {
            let cost = data
                .cards
                .get(*id as usize)
                .map(|d| d.cost + space.board_cost)
                .unwrap_or(0);
            let _ = write!(
                out,
                " #{} {} ({cost}),",
                space.number,
                card_words(&ctx, *id)
            );
        }
    }
    if out.ends_with(',') {
        out.pop();
    }
    out.push_str(".\n");
    out.push_str(&t.t("alt.research"));
    for id in view.research_display.iter().flatten() {
        if let Some(p) = data.research.plans.get(*id as usize) {
            let _ = write!(out, " {}", p.id);
        }
    }
    let coins = view.supplement_coins;
    out.push_str(&t.f("alt.supplement", &[("n", &coins)]));
    let taken: Vec<String> = data
        .board
        .bonus_spaces
        .iter()
        .enumerate()
        .zip(view.bonus_spaces.iter())
        .filter_map(|((i, _), m)| {
            m.and_then(|m| view.seats.get(m.seat)).map(|seat| {
                format!(
                    "{} {}",
                    ctx.texts.resolve(&data.bonus_space_name(i)),
                    ctx.seat_icon(seat.colour)
                )
            })
        })
        .collect();
    if !taken.is_empty() {
        out.push('\n');
        out.push_str(&t.f("alt.bonus_spaces", &[("list", &taken.join(", "))]));
    }
    out
}

/// The alt text of a player image (the hand only for the owner's private image).
pub fn player_summary(
    data: &GameData,
    layout: &Layout,
    view: &SeatView,
    seat: usize,
    private: bool,
    texts: &Texts,
) -> String {
    let ctx = Ctx {
        data,
        layout,
        texts,
    };
    let t = texts;
    let mut out = seat_line(&ctx, view, seat);
    let shares = super::seat_frame::shares(&ctx, view, seat, private);
    out.push('\n');
    out.push_str(&t.t("alt.shares"));
    for c in Company::ALL {
        let _ = write!(
            out,
            " {} {}×{}",
            ctx.company_letter(c),
            shares[c.index()],
            view.share_values.get(c.index()).copied().unwrap_or(0)
        );
    }
    out.push('.');
    if private {
        if let Some(own) = view.own.as_ref().filter(|o| o.seat == seat) {
            let hand: Vec<String> = own.hand.iter().map(|c| card_words(&ctx, *c)).collect();
            out.push('\n');
            out.push_str(&t.f("alt.your_hand", &[("cards", &hand.join(", "))]));
            let planned: Vec<String> = view
                .seats
                .get(seat)
                .map(|s| {
                    s.slots
                        .iter()
                        .filter_map(|sl| match sl {
                            SlotView::OwnPlanned(c) => Some(card_words(&ctx, *c)),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            if !planned.is_empty() {
                out.push('\n');
                out.push_str(&t.f("alt.planned", &[("cards", &planned.join(", "))]));
            }
        }
    }
    out
}
