//! The public view as a flat list of facts: every quantity a spectator can see
//! (`engine::view(…, None)`), keyed so that two views can be compared fact by fact. What is
//! left out, and why, is listed at [`facts`].

use crate::data::{Company, GameData};
use crate::engine::view::{SeatView, SlotView};
use crate::engine::GameState;
use std::collections::BTreeMap;

/// One public quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Fact {
    Round,
    Phase,
    FirstPlayer,
    NextFirstPlayer,
    ShareValue(Company),
    /// Outposts (Moon) or outposts and shuttles (Belt) in the company's station.
    Station(Company),
    /// Crossed-out home spaces revealed in the company's station.
    Floors(Company),
    /// The company holding a Moon sector (1-based).
    Sector(u8),
    RemovedOutposts(Company),
    ActionStack,
    DiscardPile,
    /// The card on a card display space (1-based).
    Display(u8),
    /// The plan on a research display space (index in the board data).
    ResearchDisplay(u8),
    Supplement,
    /// A special research plan on the round track (index 0 = round 2's).
    Special(u8),
    BonusSpace(u8),
    TrackBonusSpace(u8),
    Tile(u8),
    /// A Belt outpost space: (asteroid, space).
    BeltOutpost(u8, u8),
    /// A Belt shuttle space (flight path).
    Shuttle(u8),
    RemovedShuttles(Company),
    Threat,
    MissionCards,
    Seat(usize, SeatFact),
}

/// One public quantity of a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum SeatFact {
    Coins,
    HandSize,
    Track(Company),
    Tank,
    Upload,
    /// The plan on a research track screen (index as stored: 0 = the starting screen).
    Screen(u8),
    MarkersReserve,
    MarkersTotal,
    SlotOn(u8),
    /// An action slot (0-based, left to right).
    Slot(u8),
    /// A resting deck's size (0-based slot).
    Resting(u8),
    Planned,
    DroppedOut,
    Token,
    BonusActive,
    Mission,
    LunaDiscard,
    LunaSlot(u8),
    LunaMajority(u8),
    LunaReserve,
    LunaTokens,
}

/// A fact's value: a number, or a short description compared as text.
pub(crate) type Value = String;

/// The facts of the spectator's view of `state`.
///
/// Left out, each for its reason: whose turn it is and what they are asked (`active`,
/// `waiting_on`, `pending`: the ping and the prompt say it); shares (they follow from the track
/// positions, which are checked); the research plan supplies' and Luna's deck's sizes (they
/// follow from the refills and her cards, which are checked); a seat's plans taken this turn and
/// its track bonuses unlocked this turn (they last only within the turn: what they become is
/// checked); the final scores (their own message at the end).
pub(crate) fn facts(data: &GameData, state: &GameState) -> BTreeMap<Fact, Value> {
    let view = crate::engine::view(data, state, None);
    let mut out = BTreeMap::new();
    let mut put = |fact: Fact, value: String| {
        out.insert(fact, value);
    };
    put(Fact::Round, view.round.to_string());
    put(Fact::Phase, format!("{:?}", view.phase));
    put(Fact::FirstPlayer, view.first_player.to_string());
    put(Fact::NextFirstPlayer, view.next_first_player.to_string());
    for c in Company::ALL {
        put(
            Fact::ShareValue(c),
            view.share_values[c.index()].to_string(),
        );
        let station = &view.stations[c.index()];
        put(
            Fact::Station(c),
            station
                .iter()
                .map(|col| u32::from(col.outposts))
                .sum::<u32>()
                .to_string(),
        );
        put(
            Fact::Floors(c),
            station
                .iter()
                .filter(|col| col.floor_revealed)
                .count()
                .to_string(),
        );
        put(
            Fact::RemovedOutposts(c),
            view.removed_outposts[c.index()].to_string(),
        );
    }
    for (i, holder) in view.sectors.iter().enumerate() {
        put(Fact::Sector(i as u8 + 1), company_value(*holder));
    }
    put(Fact::ActionStack, view.action_stack_size.to_string());
    put(Fact::DiscardPile, view.discard.len().to_string());
    for (i, card) in view.display.iter().enumerate() {
        put(Fact::Display(i as u8 + 1), opt(card.map(u32::from)));
    }
    for (i, plan) in view.research_display.iter().enumerate() {
        put(Fact::ResearchDisplay(i as u8), opt(plan.map(u32::from)));
    }
    put(Fact::Supplement, view.supplement_coins.to_string());
    for (i, s) in view.specials.iter().enumerate() {
        put(
            Fact::Special(i as u8),
            format!("coin {} up {} taken {}", s.coin_under, s.face_up, s.taken),
        );
    }
    for (i, m) in view.bonus_spaces.iter().enumerate() {
        put(Fact::BonusSpace(i as u8), marker(m));
    }
    for (i, m) in view.track_bonus_spaces.iter().enumerate() {
        put(Fact::TrackBonusSpace(i as u8), marker(m));
    }
    for (i, t) in view.tiles.iter().enumerate() {
        put(Fact::Tile(i as u8), format!("{t:?}"));
    }
    if let Some(belt) = &view.belt {
        for (a, spaces) in belt.outposts.iter().enumerate() {
            for (s, holder) in spaces.iter().enumerate() {
                put(Fact::BeltOutpost(a as u8, s as u8), company_value(*holder));
            }
        }
        for (p, holder) in belt.shuttles.iter().enumerate() {
            put(Fact::Shuttle(p as u8), company_value(*holder));
        }
        for c in Company::ALL {
            put(
                Fact::RemovedShuttles(c),
                belt.removed_shuttles[c.index()].to_string(),
            );
        }
    }
    if let Some(threat) = &view.threat {
        put(
            Fact::Threat,
            format!(
                "on board {} removed by {:?}",
                threat.on_board, threat.removed_by
            ),
        );
    }
    if let Some(missions) = &view.missions {
        put(Fact::MissionCards, format!("{:?}", missions.face_up));
    }
    seat_facts(&view, &mut put);
    out
}

fn seat_facts(view: &SeatView, put: &mut impl FnMut(Fact, String)) {
    for (i, s) in view.seats.iter().enumerate() {
        let mut seat = |fact: SeatFact, value: String| put(Fact::Seat(i, fact), value);
        seat(SeatFact::Coins, s.coins.to_string());
        seat(SeatFact::HandSize, s.hand_size.to_string());
        for c in Company::ALL {
            seat(SeatFact::Track(c), s.track_pos[c.index()].to_string());
        }
        seat(SeatFact::Tank, s.tank.to_string());
        seat(SeatFact::Upload, opt(s.upload.map(u32::from)));
        for (k, plan) in s.research.iter().enumerate() {
            seat(SeatFact::Screen(k as u8), format!("{plan:?}"));
        }
        seat(SeatFact::MarkersReserve, s.markers_reserve.to_string());
        seat(SeatFact::MarkersTotal, s.markers_total.to_string());
        for (k, on) in s.slot_on.iter().enumerate() {
            seat(SeatFact::SlotOn(k as u8), on.to_string());
        }
        for (k, slot) in s.slots.iter().enumerate() {
            seat(SeatFact::Slot(k as u8), slot_value(*slot));
        }
        for (k, deck) in s.resting.iter().enumerate() {
            seat(SeatFact::Resting(k as u8), deck.len().to_string());
        }
        seat(SeatFact::Planned, s.planned.to_string());
        seat(SeatFact::DroppedOut, s.dropped_out.to_string());
        seat(SeatFact::Token, opt(s.token.map(|t| t as u32)));
        seat(SeatFact::BonusActive, s.bonus_active.to_string());
        if let Some(m) = &s.mission {
            seat(
                SeatFact::Mission,
                format!(
                    "card {:?} fulfilled {:?} reserve {} placed {} personal {:?}",
                    m.card, m.fulfilled, m.one_time_reserve, m.one_time_placed, m.personal
                ),
            );
        }
        if let Some(l) = &s.luna {
            seat(SeatFact::LunaDiscard, l.discard.len().to_string());
            for k in 0..5 {
                let v = match (l.slots[k], l.face_down[k]) {
                    (Some(card), _) => format!("up {card}"),
                    (None, true) => "down".to_string(),
                    (None, false) => "empty".to_string(),
                };
                seat(SeatFact::LunaSlot(k as u8), v);
            }
            for (k, card) in l.majority.iter().enumerate() {
                seat(SeatFact::LunaMajority(k as u8), opt(card.map(u32::from)));
            }
            seat(SeatFact::LunaReserve, l.reserve_cards.len().to_string());
            seat(
                SeatFact::LunaTokens,
                format!("{:?} {:?}", l.helium_tokens, l.research_tokens),
            );
        }
    }
}

/// A slot as a spectator sees it: empty, face down (planned), up or used, with the card.
fn slot_value(slot: SlotView) -> String {
    match slot {
        SlotView::Empty => "empty".to_string(),
        SlotView::Hidden | SlotView::OwnPlanned(_) => "planned".to_string(),
        SlotView::Up(c) => format!("up {c}"),
        SlotView::Used(c) => format!("used {c}"),
    }
}

fn company_value(holder: Option<Company>) -> String {
    holder.map_or_else(|| "-".to_string(), |c| c.id().to_string())
}

fn marker(m: &Option<crate::engine::state::Marker>) -> String {
    m.map_or_else(
        || "-".to_string(),
        |m| format!("{}{}", m.seat, if m.one_time { " one-time" } else { "" }),
    )
}

fn opt(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}
