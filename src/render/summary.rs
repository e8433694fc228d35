//! Text that goes with every image: alt text for the picture and a text-only status for
//! screen readers and for chats where images are off. Public information only, unless a
//! private player summary is asked for by its owner's view.

use super::board::{phase_key, task_words};
use super::icons::Ctx;
use super::layout::Layout;
use crate::data::cards::CardKind;
use crate::data::{CardId, Company, GameData};
use crate::engine::state::Phase;
use crate::engine::view::{SeatView, SlotView};
use std::fmt::Write;

fn card_words(data: &GameData, id: CardId) -> String {
    let Some(def) = data.cards.get(id as usize) else {
        return "?".to_string();
    };
    let letter = |c: Company| data.company_name(c).chars().next().unwrap_or('?');
    let mut s = match def.kind {
        CardKind::Resource { resource } => format!("{} {}", def.value, resource.id()),
        CardKind::Energy => format!("{} energy", def.value),
        CardKind::ResearchScientist => format!("scientist {} RP", def.value),
        CardKind::FieldScientist { company, .. } => match company {
            Some(c) => format!("field scientist {}", letter(c)),
            None => "field scientist".to_string(),
        },
        CardKind::SingleShare => match def.share {
            Some(c) => format!("share {}", letter(c)),
            None => "share".to_string(),
        },
    };
    if let (Some(c), false) = (def.share, matches!(def.kind, CardKind::SingleShare)) {
        let _ = write!(s, " +{}", letter(c));
    }
    s
}

/// One line per seat: the public facts.
fn seat_line(ctx: &Ctx, view: &SeatView, i: usize) -> String {
    let Some(s) = view.seats.get(i) else {
        return String::new();
    };
    let data = ctx.data;
    let mut line = format!(
        "{} {}: {} coin{}, hand {}, tracks",
        ctx.seat_icon(s.colour),
        s.name,
        s.coins,
        if s.coins == 1 { "" } else { "s" },
        s.hand_size
    );
    for c in Company::ALL {
        let _ = write!(
            line,
            " {}{}",
            ctx.company_letter(c),
            s.track_pos.get(c.index()).copied().unwrap_or(0)
        );
    }
    let research = s
        .upload
        .map(|u| u.to_string())
        .unwrap_or_else(|| "start".to_string());
    let _ = write!(line, ", tank {}, research {research}", s.tank);
    let up: Vec<String> = s
        .slots
        .iter()
        .filter_map(|sl| match sl {
            SlotView::Up(c) => Some(card_words(data, *c)),
            _ => None,
        })
        .collect();
    if !up.is_empty() {
        let _ = write!(line, ", ready: {}", up.join(", "));
    }
    let hidden = s
        .slots
        .iter()
        .filter(|sl| matches!(sl, SlotView::Hidden | SlotView::OwnPlanned(_)))
        .count();
    if hidden > 0 {
        let _ = write!(line, ", {hidden} planned");
    }
    if view.first_player == i {
        line.push_str(", first player");
    }
    if s.dropped_out {
        line.push_str(", dropped out");
    }
    line.push('.');
    line
}

fn status_line(ctx: &Ctx, view: &SeatView) -> String {
    let rounds = ctx.rounds();
    let mut s = match view.phase {
        Phase::Finished => "Skymines: game over.".to_string(),
        _ => format!(
            "Skymines, round {}/{rounds}, {}",
            view.round,
            crate::text::english()
                .t(phase_key(&view.phase))
                .to_lowercase()
        ),
    };
    match (&view.phase, view.active) {
        (Phase::Action, Some(a)) => {
            if let Some(seat) = view.seats.get(a) {
                let what = view
                    .pending
                    .as_ref()
                    .map(|t| task_words(ctx, t))
                    .unwrap_or_default();
                let _ = write!(
                    s,
                    ": {} {} to play ({what}).",
                    ctx.seat_icon(seat.colour),
                    seat.name
                );
            }
        }
        (Phase::Planning | Phase::Setup, _) if !view.waiting_on.is_empty() => {
            let names: Vec<String> = view
                .waiting_on
                .iter()
                .filter_map(|i| view.seats.get(*i))
                .map(|seat| format!("{} {}", ctx.seat_icon(seat.colour), seat.name))
                .collect();
            let _ = write!(s, ": waiting for {}.", names.join(", "));
        }
        (Phase::Finished, _) => {}
        _ => s.push('.'),
    }
    s
}

/// The alt text / text-only status of the main board: public information only.
pub fn board_summary(data: &GameData, layout: &Layout, view: &SeatView) -> String {
    let ctx = Ctx {
        data,
        layout,
        texts: crate::text::english(),
    };
    let mut out = status_line(&ctx, view);
    out.push('\n');
    out.push_str("Share values:");
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
    match view.belt.as_ref() {
        None => {
            out.push_str("Moon outposts:");
            for c in Company::ALL {
                let sectors: Vec<String> = view
                    .sectors
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| **o == Some(c))
                    .map(|(i, _)| (i + 1).to_string())
                    .collect();
                let list = if sectors.is_empty() {
                    "none".to_string()
                } else {
                    sectors.join(" ")
                };
                let _ = write!(out, " {} {list};", ctx.company_letter(c));
            }
            let free = view.sectors.iter().filter(|o| o.is_none()).count();
            let _ = writeln!(out, " {free} free.");
        }
        Some(belt) => {
            out.push_str("Belt outposts (asteroids) / shuttles (spaces):");
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
                let _ = writeln!(out, "Threat: {}.", card.name);
            }
        }
    }
    for i in 0..view.seats.len() {
        out.push_str(&seat_line(&ctx, view, i));
        out.push('\n');
    }
    out.push_str("Cards (total cost):");
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
                card_words(data, *id)
            );
        }
    }
    if out.ends_with(',') {
        out.pop();
    }
    out.push_str(".\nResearch:");
    for id in view.research_display.iter().flatten() {
        if let Some(p) = data.research.plans.get(*id as usize) {
            let _ = write!(out, " {}", p.id);
        }
    }
    let coins = view.supplement_coins;
    let _ = write!(
        out,
        "; supplement {coins} coin{}.",
        if coins == 1 { "" } else { "s" }
    );
    let taken: Vec<String> = data
        .board
        .bonus_spaces
        .iter()
        .zip(view.bonus_spaces.iter())
        .filter_map(|(space, m)| {
            m.and_then(|m| view.seats.get(m.seat)).map(|seat| {
                format!(
                    "{} {}",
                    layout.bonus_label(&space.id),
                    ctx.seat_icon(seat.colour)
                )
            })
        })
        .collect();
    if !taken.is_empty() {
        let _ = write!(out, "\nBonus spaces: {}.", taken.join(", "));
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
) -> String {
    let ctx = Ctx {
        data,
        layout,
        texts: crate::text::english(),
    };
    let mut out = seat_line(&ctx, view, seat);
    let shares = super::player::shares(&ctx, view, seat, private);
    out.push_str("\nShares:");
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
            let hand: Vec<String> = own.hand.iter().map(|c| card_words(data, *c)).collect();
            let _ = write!(out, "\nYour hand: {}.", hand.join(", "));
            let planned: Vec<String> = view
                .seats
                .get(seat)
                .map(|s| {
                    s.slots
                        .iter()
                        .filter_map(|sl| match sl {
                            SlotView::OwnPlanned(c) => Some(card_words(data, *c)),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            if !planned.is_empty() {
                let _ = write!(out, "\nPlanned: {}.", planned.join(", "));
            }
        }
    }
    out
}
