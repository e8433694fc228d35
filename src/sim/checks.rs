//! The invariants self-play checks after every decision (coins, outposts and shuttles
//! conserved, cards conserved, seats consistent) and the check that no seat's view depends on
//! another seat's hidden cards.

use crate::data::{CardId, Company, GameData};
use crate::engine::state::{GameState, Phase, SlotCard};
use crate::engine::{self, Task};

/// Every broken invariant of a state, in words.
pub fn invariants(data: &GameData, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    if state.belt.is_some() {
        belt_invariants(data, state, &mut out);
    } else {
        moon_outposts(state, &mut out);
    }
    let shape = state.station_shape(data);
    for c in Company::ALL {
        for (i, col) in state.stations[c.index()].iter().enumerate() {
            if col.outposts > col.base_in(shape.spaces[i]) {
                out.push(format!(
                    "{} column {} holds {} pieces above its lowest usable space",
                    c.id(),
                    i + 1,
                    col.outposts
                ));
            }
        }
    }
    if let Some(t) = &state.threat {
        if t.removed_by.is_some() == t.on_board {
            out.push("the threat card is both on the board and removed (or neither)".to_string());
        }
    }
    cards_and_seats(data, state, &mut out);
    out
}

/// 15 outposts per company on the Moon: station + board + removed from the game + ousted ones on
/// their way home during an expansion.
fn moon_outposts(state: &GameState, out: &mut Vec<String>) {
    for c in Company::ALL {
        let in_transit = state
            .agenda
            .iter()
            .map(|t| match t {
                Task::ReturnOusted { company, .. } if *company == c => 1,
                Task::Expand { entered, .. } => {
                    entered.iter().filter(|(_, o)| *o == Some(c)).count() as u32
                }
                _ => 0,
            })
            .sum::<u32>();
        let total = state.outposts_in_station(c)
            + state.outposts_on_board(c)
            + state.removed_outposts[c.index()] as u32
            + in_transit;
        if total != 15 {
            out.push(format!("{} has {total} outposts, not 15", c.id()));
        }
    }
}

/// On the Belt: 12 outposts and 5 shuttles per company, conserved (station, Belt, removed from
/// the game, ousted on their way home).
fn belt_invariants(data: &GameData, state: &GameState, out: &mut Vec<String>) {
    let Some(belt) = &state.belt else { return };
    let shape = state.station_shape(data);
    let want_outposts: u32 = shape
        .outpost_columns
        .iter()
        .map(|i| shape.spaces[*i] as u32)
        .sum();
    let want_shuttles: u32 = shape
        .shuttle_column
        .map(|i| shape.spaces[i] as u32)
        .unwrap_or(0);
    for c in Company::ALL {
        let (mut outposts_moving, mut shuttles_moving) = (0u32, 0u32);
        for t in &state.agenda {
            match t {
                Task::ReturnOusted { company, .. } if *company == c => outposts_moving += 1,
                Task::Expand { entered, .. } => {
                    for (target, o) in entered {
                        if *o == Some(c) {
                            if engine::belt::is_shuttle_space(data, *target) {
                                shuttles_moving += 1;
                            } else {
                                outposts_moving += 1;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let outposts = state.outposts_in_station(c)
            + belt.outposts_of(c)
            + state.removed_outposts[c.index()] as u32
            + outposts_moving;
        if outposts != want_outposts {
            out.push(format!(
                "{} has {outposts} outposts, not {want_outposts}",
                c.id()
            ));
        }
        let shuttles = state.shuttles_in_station(c)
            + belt.shuttles_of(c)
            + belt.removed_shuttles[c.index()] as u32
            + shuttles_moving;
        if shuttles != want_shuttles {
            out.push(format!(
                "{} has {shuttles} shuttles, not {want_shuttles}",
                c.id()
            ));
        }
    }
    if state.sectors.iter().any(Option::is_some) {
        out.push("an outpost stands in a Moon sector on the Belt side".to_string());
    }
}

fn cards_and_seats(data: &GameData, state: &GameState, out: &mut Vec<String>) {
    // Cards: every card in play exactly once (counted by id: this runs after every decision).
    let mut seen = [0u16; CardId::MAX as usize + 1];
    let all = state
        .action_stack
        .iter()
        .chain(state.discard.iter())
        .chain(state.display.iter().flatten())
        .copied()
        .chain(state.seats.iter().flat_map(|s| s.owned_cards()));
    for c in all {
        seen[c as usize] += 1;
    }
    if let Some((c, n)) = seen.iter().enumerate().find(|(_, n)| **n > 1) {
        let card = &data.card(c as CardId).id;
        out.push(format!("card {card} is in {n} places"));
    }
    let distinct = seen.iter().filter(|n| **n > 0).count();
    let humans = state.seats.iter().filter(|s| !s.is_luna()).count();
    let expected = data.action_cards.cards.len() + humans * 10;
    if distinct != expected {
        out.push(format!("{distinct} cards in play, expected {expected}"));
    }
    for (i, s) in state.seats.iter().enumerate() {
        if let Some(l) = &s.luna {
            // Luna's cards: deck, grade-2 stack, discard pile, slots and majority slots.
            let mut cards: Vec<u8> = l
                .deck
                .iter()
                .chain(l.grade2.iter())
                .chain(l.discard.iter())
                .chain(l.slots.iter().flatten().map(|x| &x.card))
                .chain(l.majority.iter().flatten())
                .copied()
                .collect();
            let n = cards.len();
            cards.sort();
            cards.dedup();
            let want = if data
                .luna_board
                .level(l.level as u32)
                .is_some_and(|x| x.grade2_in_game)
            {
                data.luna_cards.cards.len()
            } else {
                data.luna_cards
                    .cards
                    .iter()
                    .filter(|c| c.grade == 1)
                    .count()
            };
            if n != cards.len() || n != want {
                out.push(format!(
                    "Luna's cards: {n} held ({} distinct), expected {want}",
                    cards.len()
                ));
            }
        }
        for c in Company::ALL {
            let track = &data.tracks.tracks[state.tracks[c.index()]];
            if s.track_pos[c.index()] as u32 > track.last_space {
                out.push(format!("seat {i} is past the end of the {} track", c.id()));
            }
        }
        if s.tank as u32 > data.player_board.tank_track.final_step {
            out.push(format!("seat {i} is past the final tank space"));
        }
        if s.upload
            .is_some_and(|u| u as u32 > data.player_board.research_track.final_screen)
        {
            out.push(format!("seat {i} is past the final research screen"));
        }
        // DECISIONS A17: the upload marker stands on the starting research token from setup, so
        // no plan covers it (engine version 5 on); the policy only aims at legal screens.
        if state.engine_version >= 5
            && s.token.is_some()
            && state.phase != Phase::Setup
            && s.research
                .first()
                .is_some_and(|p| p.is_some_and(|p| p.plan != engine::state::PlanRef::Token))
        {
            out.push(format!(
                "seat {i}: a plan covers the starting research token"
            ));
        }
        let personal: Vec<engine::state::Marker> = state
            .seats
            .iter()
            .filter_map(|x| x.mission.as_ref().and_then(|m| m.personal))
            .collect();
        let placed = state
            .bonus_spaces
            .iter()
            .chain(state.track_bonus_spaces.iter())
            .flatten()
            .chain(personal.iter())
            .filter(|m| m.seat == i && !m.one_time)
            .count();
        if placed + s.markers_reserve as usize != s.markers_total as usize {
            out.push(format!("seat {i}'s bonus markers do not add up"));
        }
        if let Some(m) = &s.mission {
            if s.is_luna() {
                out.push("Luna has a mission status card".to_string());
            }
            if (m.one_time_reserve + m.one_time_placed) as u32 != m.markers_gone() {
                out.push(format!("seat {i}'s one-time bonus markers do not add up"));
            }
            if let Some(p) = m.personal {
                if p.seat != i {
                    out.push(format!(
                        "another seat's marker on seat {i}'s personal space"
                    ));
                }
            }
        }
        if state.phase == Phase::Action
            && s.slots
                .iter()
                .flatten()
                .any(|c| matches!(c, SlotCard::Planned(_)))
        {
            out.push(format!(
                "seat {i} has an unrevealed card in the Action phase"
            ));
        }
    }
}

/// Changes every other seat's hidden cards and checks each seat's view stays the same.
pub fn view_leaks(data: &GameData, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    // Once the game is over the final scores are public, and they count the shares in hand.
    if state.phase == Phase::Finished {
        return out;
    }
    for viewer in 0..state.seats.len() {
        let before = engine::view(data, state, Some(viewer));
        let mut changed = state.clone();
        for (i, s) in changed.seats.iter_mut().enumerate() {
            if i == viewer {
                continue;
            }
            // Replace hidden cards with other cards (same count): a view must not notice.
            for c in s.hand.iter_mut() {
                *c = c.wrapping_add(1);
            }
            for slot in s.slots.iter_mut() {
                if let Some(SlotCard::Planned(c)) = slot {
                    *c = c.wrapping_add(1);
                }
            }
            s.token_choices.reverse();
        }
        let after = engine::view(data, &changed, Some(viewer));
        if before != after {
            out.push(format!(
                "seat {viewer}'s view depends on another seat's hidden cards"
            ));
        }
    }
    out
}
