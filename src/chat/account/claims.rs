//! What each public line says about the public view: an event (its catalog key and arguments,
//! the very values its text is written from) read as claims on the facts of
//! [`super::facts`]. A claim built from a number records the argument it came from, and the
//! check makes sure that number is in the line as players read it.
//!
//! Lines that only explain (a reason, what a reward is worth, a choice declined) claim nothing;
//! [`COMMENTARY`] lists them, so an event the table does not know is a finding of its own.

use super::facts::{Fact, SeatFact, Value};
use crate::data::{CardId, Company, GameData};
use crate::engine::state::{GameState, SlotCard, TileKind};
use crate::engine::Event;

/// One thing a line says about the public view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The fact changed by this much (the message's claims on a fact add up).
    Delta(Fact, i64),
    /// The fact ends at this value (the message's last such claim stands).
    To(Fact, Value),
    /// The fact changed in the way the line says in words (a card used, a plan placed).
    Touch(Fact),
}

impl Claim {
    pub(crate) fn fact(&self) -> Fact {
        match self {
            Claim::Delta(f, _) | Claim::To(f, _) | Claim::Touch(f) => *f,
        }
    }
}

/// Events that change nothing a spectator sees, or only repeat what other lines of the same
/// message claim (the summary of an expansion's rewards before each reward's own line).
pub(crate) const COMMENTARY: &[&str] = &[
    "event.barrier_declined",
    "event.barrier_unaffordable",
    "event.track_end_forfeit",
    "event.units_forfeited",
    "event.no_tier",
    "event.no_upload",
    "event.gas_collectors",
    "event.luna_bonus_taken",
    "event.luna_majority_equal",
    "event.token_kept",
    "event.singularity_ends",
    "event.luna_token_empty",
    "event.drop_out_last_round",
    "event.luna_blocks",
    "event.luna_reopens",
    "event.luna_takes_no_card",
    "event.luna_takes_no_share_card",
    "event.luna_discards_no_plan",
    "event.luna_discards_no_special",
    "event.expanded_none",
    "event.expanded_belt_none",
    "event.expanded_belt_none_spent",
    "event.luna_blocks_nothing",
];

/// The game around a message: its states before and after, to resolve names to seats and cards
/// to slots.
pub(crate) struct Reading<'a> {
    pub data: &'a GameData,
    pub before: &'a GameState,
    pub after: &'a GameState,
}

/// The claims of one event, and the names of its number arguments that the claims rest on.
/// None: the table does not know the event.
pub(crate) fn claims(r: &Reading, e: &Event) -> Option<(Vec<Claim>, Vec<&'static str>)> {
    let mut c = Claims {
        r,
        e,
        out: Vec::new(),
        numbers: Vec::new(),
    };
    if COMMENTARY.contains(&e.key.as_str()) {
        return Some((Vec::new(), Vec::new()));
    }
    let seat = c.seat();
    let luna = r.after.seats.iter().position(|s| s.is_luna());
    match e.key.as_str() {
        "event.gain_coins"
        | "event.coins_threshold"
        | "event.luna_coins_card"
        | "event.luna_coins_tank_end"
        | "event.luna_coins_research_end"
        | "event.luna_coins_track_end" => {
            let who = seat.or(luna);
            c.delta_seat(who, SeatFact::Coins, "n", 1);
        }
        "event.barrier_paid" => c.delta_seat(seat, SeatFact::Coins, "cost", -1),
        "event.barrier_paid_partly" => c.delta_seat(seat.or(luna), SeatFact::Coins, "paid", -1),
        "event.enter_special" => c.delta_seat(seat, SeatFact::Coins, "cost", -1),
        "event.pays_for_space" => c.delta_seat(seat, SeatFact::Coins, "n", -1),
        "event.coins_supplement" => {
            c.delta_seat(seat, SeatFact::Coins, "n", 1);
            c.out.push(Claim::To(Fact::Supplement, "0".into()));
        }
        "event.flip_plan" | "event.flip_special_plan" | "event.flip_token_plan" => {
            c.delta_seat(seat, SeatFact::Coins, "cost", -1);
            c.screen_touch(seat);
        }
        "event.track_move" => {
            let company = c.company();
            c.delta_seat(
                seat,
                company.map(SeatFact::Track).unwrap_or(SeatFact::Coins),
                "moved",
                1,
            );
        }
        "event.luna_advances_all"
        | "event.luna_advances_least"
        | "event.luna_advances_lead"
        | "event.luna_advances_most_valuable"
        | "event.luna_advances_second"
        | "event.luna_advances_two_lead"
        | "event.luna_advances_two_valuable" => {
            if let Some(company) = c.company() {
                c.delta_seat(luna, SeatFact::Track(company), "n", 1);
            }
        }
        "event.tank" | "event.luna_helium" | "event.luna_helium_reveal" => {
            c.seat_to(seat.or(luna), SeatFact::Tank, "to");
        }
        "event.upload"
        | "event.upload_onto"
        | "event.upload_face_down"
        | "event.luna_research"
        | "event.luna_research_reveal" => {
            // Screens are numbered from the starting screen = 1; the stored index is one less.
            if let (Some(s), Some(n)) = (seat.or(luna), c.number("screen")) {
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::Upload),
                    (n - 1).to_string(),
                ));
            }
        }
        "event.acquire"
        | "event.buy_for_coins"
        | "event.luna_takes_card"
        | "event.luna_takes_share_card" => {
            if e.key == "event.buy_for_coins" {
                c.delta_seat(seat, SeatFact::Coins, "cost", -1);
            }
            if matches!(
                e.key.as_str(),
                "event.luna_takes_card" | "event.luna_takes_share_card"
            ) {
                c.delta_seat(luna, SeatFact::LunaReserve, "", 1);
            } else {
                c.delta_seat(seat, SeatFact::HandSize, "", 1);
            }
            if let Some(space) = c.number("space") {
                c.out
                    .push(Claim::To(Fact::Display(space as u8), "-".into()));
            }
        }
        "event.discard" | "event.threat_discard" => {
            c.delta_seat(seat, SeatFact::HandSize, "", -1);
            c.out.push(Claim::Delta(Fact::DiscardPile, 1));
        }
        "event.take_from_discard" => {
            c.delta_seat(seat, SeatFact::Coins, "cost", -1);
            c.delta_seat(seat, SeatFact::HandSize, "", 1);
            c.out.push(Claim::Delta(Fact::DiscardPile, -1));
        }
        "event.take_resting_deck" => {
            if let (Some(s), Some(slot)) = (seat, c.number("slot")) {
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::Resting(slot as u8 - 1)),
                    "0".into(),
                ));
                c.delta_seat(seat, SeatFact::HandSize, "count", 1);
            }
        }
        "event.rests_starting" => {
            if let Some(s) = seat {
                let n = e
                    .arg("cards")
                    .map_or(0, |v| v.matches("event.rested_card|").count());
                c.out
                    .push(Claim::Delta(Fact::Seat(s, SeatFact::HandSize), -(n as i64)));
                for k in 0..5u8 {
                    c.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::Resting(k))));
                }
            }
        }
        "event.rests" => {
            if let Some(s) = seat {
                for k in 0..5u8 {
                    c.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::Resting(k))));
                    c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Slot(k))));
                }
            }
        }
        "event.drop_out" => {
            if let Some(s) = seat {
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::DroppedOut),
                    "true".into(),
                ));
            }
        }
        "event.luna_drops_out" => {
            if let Some(s) = luna {
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::DroppedOut),
                    "true".into(),
                ));
                for k in 0..5u8 {
                    c.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaSlot(k))));
                }
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaDiscard)));
            }
        }
        "event.luna_discards_left" | "event.luna_discards_right" => {
            if let Some(s) = luna {
                let k = u8::from(e.key.ends_with("right"));
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::LunaMajority(k)),
                    "-".into(),
                ));
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaDiscard)));
            }
        }
        "event.luna_majority_left" | "event.luna_majority_right" => {
            if let Some(s) = luna {
                let k = u8::from(e.key.ends_with("right"));
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaMajority(k))));
            }
        }
        "event.luna_card" => {
            if let (Some(s), Some(slot)) = (luna, c.number("slot")) {
                let k = slot as u8 - 1;
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaSlot(k))));
            }
        }
        "event.luna_deals" | "event.luna_reshuffles" => {
            if let Some(s) = luna {
                for k in 0..5u8 {
                    c.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaSlot(k))));
                }
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaDiscard)));
            }
        }
        "event.use_card" | "event.use_research" | "event.use_resources" => {
            c.slots_of_cards(seat);
            // A tile used with the action (named in the line, or the +1 tile on a card used).
            for kind in TileKind::ALL {
                let named = e
                    .args
                    .iter()
                    .any(|(_, v)| v.contains(&format!("tile.{}|", kind.data_id())));
                let on_card = kind == TileKind::PlusOne && e.key == "event.use_resources";
                if named || on_card {
                    c.out
                        .push(Claim::Touch(Fact::Tile(GameState::tile_index(kind) as u8)));
                }
            }
        }
        "event.use_tile" => {
            if let Some(kind) = e.arg("tile_id").and_then(TileKind::from_data_id) {
                c.out
                    .push(Claim::Touch(Fact::Tile(GameState::tile_index(kind) as u8)));
            }
        }
        "event.expands_with" | "event.expands_with_from" => {
            // "with all energy": every face-up energy card and the energy tile.
            if let Some(s) = seat {
                for k in 0..5u8 {
                    let energy = r.before.seats[s].slots[k as usize].is_some_and(
                        |x| matches!(x, SlotCard::Up(card) if r.data.card(card).is_energy()),
                    );
                    if energy {
                        c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Slot(k))));
                    }
                }
                let i = GameState::tile_index(TileKind::Energy) as u8;
                c.out.push(Claim::Touch(Fact::Tile(i)));
            }
        }
        "event.planned" => {
            if let Some(s) = seat {
                c.out
                    .push(Claim::To(Fact::Seat(s, SeatFact::Planned), "true".into()));
                c.delta_seat(seat, SeatFact::HandSize, "n", -1);
                for k in 0..5u8 {
                    let f = Fact::Seat(s, SeatFact::Slot(k));
                    if c.after_slot(s, k)
                        .is_some_and(|x| matches!(x, SlotCard::Planned(_)))
                    {
                        c.out.push(Claim::Touch(f));
                    }
                }
            }
        }
        "event.planned_nothing" => {
            if let Some(s) = seat {
                c.out
                    .push(Claim::To(Fact::Seat(s, SeatFact::Planned), "true".into()));
            }
        }
        "event.reveals" => {
            // The planned cards turn face up (and the seat's hand already lost them).
            if let Some(s) = seat {
                c.out
                    .push(Claim::To(Fact::Seat(s, SeatFact::Planned), "true".into()));
                let n = c.card_ids("cards").len() as i64;
                c.out
                    .push(Claim::Delta(Fact::Seat(s, SeatFact::HandSize), -n));
                c.slots_of_cards(seat);
            }
        }
        "event.action_phase" => {
            c.out.push(Claim::To(Fact::Phase, "Action".into()));
            c.out.push(Claim::To(
                Fact::Round,
                e.arg("round").unwrap_or_default().into(),
            ));
            for s in 0..r.after.seats.len() {
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::DroppedOut)));
            }
        }
        "event.round_begins" => {
            c.out.push(Claim::To(Fact::Phase, "Planning".into()));
            c.fact_to(Fact::Round, "round");
            if let Some(s) = seat {
                c.out.push(Claim::To(Fact::FirstPlayer, s.to_string()));
            }
            for s in 0..r.after.seats.len() {
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Planned)));
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::DroppedOut)));
            }
        }
        "event.game_over" => c.out.push(Claim::To(Fact::Phase, "Finished".into())),
        "event.first_player" | "event.first_player_kept" => {
            if let Some(s) = seat {
                c.out.push(Claim::To(Fact::NextFirstPlayer, s.to_string()));
            }
        }
        "event.bonus_marker" | "event.one_time_marker" | "event.luna_bonus_marker" => {
            let who = seat.or(luna);
            if let (Some(s), Some(space)) = (who, c.bonus_space()) {
                let one_time = e.key == "event.one_time_marker";
                let v = format!("{s}{}", if one_time { " one-time" } else { "" });
                c.out.push(Claim::To(Fact::BonusSpace(space), v));
                if one_time {
                    c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Mission)));
                } else {
                    c.out
                        .push(Claim::Delta(Fact::Seat(s, SeatFact::MarkersReserve), -1));
                }
            }
        }
        "event.bonus_personal_space" | "event.one_time_personal_space" => {
            if let Some(s) = seat {
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Mission)));
                if e.key == "event.bonus_personal_space" {
                    c.out
                        .push(Claim::Delta(Fact::Seat(s, SeatFact::MarkersReserve), -1));
                }
            }
        }
        "event.track_bonus_marker" | "event.one_time_track_bonus_marker" => {
            if let (Some(s), Some(b)) = (seat, e.arg("bonus")) {
                if let Some(i) = r.data.tracks.bonuses.iter().position(|x| x.id == b) {
                    let one_time = e.key.contains("one_time");
                    let v = format!("{s}{}", if one_time { " one-time" } else { "" });
                    c.out.push(Claim::To(Fact::TrackBonusSpace(i as u8), v));
                    if one_time {
                        c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Mission)));
                    } else {
                        c.out
                            .push(Claim::Delta(Fact::Seat(s, SeatFact::MarkersReserve), -1));
                    }
                }
            }
        }
        "event.bonus_unlocked" => {
            if let Some(s) = seat {
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::BonusActive)));
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::MarkersReserve)));
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::MarkersTotal)));
            }
        }
        "event.slot_on_left" | "event.slot_on_right" | "event.luna_slot_on" => {
            if let Some(s) = seat.or(luna) {
                for k in 0..5u8 {
                    let f = Fact::Seat(s, SeatFact::SlotOn(k));
                    if r.before.seats[s].slot_on[k as usize] != r.after.seats[s].slot_on[k as usize]
                    {
                        c.out.push(Claim::To(f, "true".into()));
                    }
                }
            }
        }
        "event.place_plan"
        | "event.place_plan_covering"
        | "event.place_special_plan"
        | "event.place_special_plan_covering" => c.screen_touch(seat),
        "event.take_plan" | "event.luna_discards_plan" => {
            if let Some(space) = e.arg("space") {
                if let Some(i) = r
                    .data
                    .board
                    .research_display
                    .spaces
                    .iter()
                    .position(|s| s.id == space)
                {
                    c.out
                        .push(Claim::To(Fact::ResearchDisplay(i as u8), "-".into()));
                }
            }
        }
        "event.take_special" | "event.luna_discards_special" => {
            if let Some(round) = c.number("round") {
                c.out.push(Claim::Touch(Fact::Special(round as u8 - 2)));
            }
        }
        "event.research_refilled" => {
            for i in 0..r.after.research_display.len() {
                c.out.push(Claim::Touch(Fact::ResearchDisplay(i as u8)));
            }
        }
        "event.plus_one_tile"
        | "event.reserve_tile"
        | "event.tile_returned"
        | "event.gets_tile" => {
            if let Some(kind) = e.arg("tile_id").and_then(TileKind::from_data_id) {
                c.out
                    .push(Claim::Touch(Fact::Tile(GameState::tile_index(kind) as u8)));
            } else if e.key == "event.plus_one_tile" {
                let i = GameState::tile_index(TileKind::PlusOne) as u8;
                c.out.push(Claim::Touch(Fact::Tile(i)));
            } else if let Some(kind) = e.arg("tile").and_then(|t| tile_of(r.data, t)) {
                c.out
                    .push(Claim::Touch(Fact::Tile(GameState::tile_index(kind) as u8)));
            }
        }
        "event.token_revealed" => {
            // The token goes face up on the starting screen.
            if let Some(s) = seat {
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Token)));
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Screen(0))));
            }
        }
        "event.luna_token" => {}
        "event.share_value" => {
            if let Some(company) = c.company() {
                c.fact_to(Fact::ShareValue(company), "to");
                // The value says what revealing a crossed-out home space did.
                c.out.push(Claim::Touch(Fact::Floors(company)));
            }
        }
        "event.expanded" | "event.luna_expands" => {
            let company = c.company();
            let sectors = c.list("sectors");
            if let Some(company) = company {
                for s in &sectors {
                    c.out
                        .push(Claim::To(Fact::Sector(*s as u8), company.id().into()));
                }
                c.out.push(Claim::Delta(
                    Fact::Station(company),
                    -(sectors.len() as i64),
                ));
            }
        }
        "event.expanded_belt" | "event.luna_expands_belt" => {
            let company = c.company();
            let mut spaces = c.list("sectors");
            spaces.extend(c.list("spaces"));
            if let Some(company) = company {
                for n in &spaces {
                    match crate::engine::belt::target(r.data, *n as u32) {
                        Some(crate::engine::belt::Target::Asteroid(a)) => {
                            for k in 0..r.data.belt.asteroids[a].outpost_spaces {
                                c.out
                                    .push(Claim::Touch(Fact::BeltOutpost(a as u8, k as u8)));
                            }
                        }
                        Some(crate::engine::belt::Target::Shuttle(p)) => {
                            c.out
                                .push(Claim::To(Fact::Shuttle(p as u8), company.id().into()));
                        }
                        None => {}
                    }
                }
                c.out
                    .push(Claim::Delta(Fact::Station(company), -(spaces.len() as i64)));
            }
        }
        "event.oust" | "event.oust_shuttle" => {
            if let Some(company) = c.company() {
                c.number("column");
                c.out.push(Claim::Delta(Fact::Station(company), 1));
            }
        }
        "event.oust_removed" => {
            if let Some(company) = c.company() {
                c.out.push(Claim::Delta(Fact::RemovedOutposts(company), 1));
            }
        }
        "event.oust_shuttle_removed" => {
            if let Some(company) = c.company() {
                c.out.push(Claim::Delta(Fact::RemovedShuttles(company), 1));
            }
        }
        "event.remove_outpost" => {
            if let Some(company) = c.company() {
                c.out.push(Claim::Delta(Fact::Station(company), -1));
                c.out.push(Claim::Delta(Fact::RemovedOutposts(company), 1));
            }
        }
        "event.mission_task" | "event.personal_space_unlocked" => {
            if let Some(s) = seat {
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Mission)));
            }
        }
        "event.luna_token_helium" | "event.luna_token_research" => {
            if let Some(s) = luna {
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaTokens)));
            }
        }
        "event.threat_dealt" | "event.threat_dealt_paying" | "event.threat_removed" => {
            if e.key == "event.threat_dealt_paying" {
                c.delta_seat(seat, SeatFact::Coins, "coins", -1);
            }
            c.out.push(Claim::Touch(Fact::Threat));
        }
        // Round bookkeeping (the Preparation phase), said once in the round's last message.
        "event.prep_special" | "event.prep_special_no_coin" => {
            if let Some(i) = e.arg("index").and_then(|i| i.parse::<u8>().ok()) {
                c.out.push(Claim::Touch(Fact::Special(i)));
            }
            c.fact_to(Fact::Supplement, "supplement");
        }
        "event.prep_markers" => {
            for i in 0..r.after.bonus_spaces.len() {
                c.out.push(Claim::To(Fact::BonusSpace(i as u8), "-".into()));
            }
            for i in 0..r.after.track_bonus_spaces.len() {
                c.out
                    .push(Claim::To(Fact::TrackBonusSpace(i as u8), "-".into()));
            }
            for s in 0..r.after.seats.len() {
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::MarkersReserve)));
                c.out.push(Claim::Touch(Fact::Seat(s, SeatFact::Mission)));
            }
        }
        "event.prep_display" => {
            for i in 1..=12u8 {
                c.out.push(Claim::Touch(Fact::Display(i)));
            }
            c.out.push(Claim::Touch(Fact::ActionStack));
            c.delta_fact(Fact::DiscardPile, "discarded");
        }
        "event.luna_prep" => {
            c.number("n");
            if let Some(s) = luna {
                c.out
                    .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaDiscard)));
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::LunaMajority(0)),
                    "-".into(),
                ));
                c.out.push(Claim::To(
                    Fact::Seat(s, SeatFact::LunaMajority(1)),
                    "-".into(),
                ));
                for k in 0..5u8 {
                    c.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::LunaSlot(k))));
                }
            }
        }
        _ => return None,
    }
    Some((c.out, c.numbers))
}

/// A tile's kind from its name as the event carries it (a `tile.*` name reference).
fn tile_of(data: &GameData, name: &str) -> Option<TileKind> {
    let _ = data;
    TileKind::ALL
        .into_iter()
        .find(|k| name.contains(&format!("tile.{}|", k.data_id())))
}

/// The claims of one event under construction.
struct Claims<'r, 'a> {
    r: &'r Reading<'a>,
    e: &'r Event,
    out: Vec<Claim>,
    numbers: Vec<&'static str>,
}

impl Claims<'_, '_> {
    /// The seat the event's `name` argument names.
    fn seat(&self) -> Option<usize> {
        let name = self.e.arg("name")?;
        self.r.after.seats.iter().position(|s| s.name == name)
    }

    fn company(&self) -> Option<Company> {
        let name = self.e.arg("company")?;
        Company::ALL
            .into_iter()
            .find(|c| self.r.data.company_name(*c) == name)
    }

    /// A number argument, recorded as one the line must show.
    fn number(&mut self, arg: &'static str) -> Option<i64> {
        let v = self.e.arg(arg)?.trim().parse::<i64>().ok()?;
        self.numbers.push(arg);
        Some(v)
    }

    /// A list of numbers ("20, 19, 10").
    fn list(&mut self, arg: &'static str) -> Vec<i64> {
        let Some(v) = self.e.arg(arg) else {
            return Vec::new();
        };
        self.numbers.push(arg);
        // "15 ×2": a Belt asteroid entered twice (numbering::counted_list).
        let mut out = Vec::new();
        for item in v.split(',') {
            let (n, times) = item.split_once('×').unwrap_or((item, "1"));
            if let (Ok(n), Ok(times)) = (n.trim().parse::<i64>(), times.trim().parse::<usize>()) {
                out.extend(std::iter::repeat_n(n, times));
            }
        }
        out
    }

    /// `sign` × the number argument `arg` (or 1 with no argument) added to a seat's fact.
    fn delta_seat(&mut self, seat: Option<usize>, fact: SeatFact, arg: &'static str, sign: i64) {
        let Some(s) = seat else { return };
        let n = if arg.is_empty() {
            Some(1)
        } else {
            self.number(arg)
        };
        if let Some(n) = n {
            self.out.push(Claim::Delta(Fact::Seat(s, fact), sign * n));
        }
    }

    fn seat_to(&mut self, seat: Option<usize>, fact: SeatFact, arg: &'static str) {
        if let (Some(s), Some(n)) = (seat, self.number(arg)) {
            self.out.push(Claim::To(Fact::Seat(s, fact), n.to_string()));
        }
    }

    fn fact_to(&mut self, fact: Fact, arg: &'static str) {
        if let Some(n) = self.number(arg) {
            self.out.push(Claim::To(fact, n.to_string()));
        }
    }

    fn delta_fact(&mut self, fact: Fact, arg: &'static str) {
        if let Some(n) = self.number(arg) {
            self.out.push(Claim::Delta(fact, n));
        }
    }

    /// The research track screen the event names.
    fn screen_touch(&mut self, seat: Option<usize>) {
        if let (Some(s), Some(n)) = (seat, self.number("screen")) {
            self.out
                .push(Claim::Touch(Fact::Seat(s, SeatFact::Screen(n as u8 - 1))));
        }
    }

    /// The bonus space the event names (a `bonus_space.*` name reference).
    fn bonus_space(&self) -> Option<u8> {
        let name = self.e.arg("space")?;
        self.r
            .data
            .board
            .bonus_spaces
            .iter()
            .position(|b| name.contains(&format!("bonus_space.{}|", b.id)))
            .map(|i| i as u8)
    }

    /// The cards a card argument names (by the ids their name references carry).
    fn card_ids(&self, arg: &str) -> Vec<CardId> {
        let Some(v) = self.e.arg(arg) else {
            return Vec::new();
        };
        v.split("|id=")
            .skip(1)
            .filter_map(|rest| rest.split(['|', '⟧']).next())
            .filter_map(|id| self.r.data.cards.iter().position(|c| c.id == id))
            .map(|i| i as CardId)
            .collect()
    }

    fn after_slot(&self, seat: usize, k: u8) -> Option<SlotCard> {
        self.r.after.seats.get(seat)?.slots[k as usize]
    }

    /// The action slots holding the cards the event names (`card` or `cards`).
    fn slots_of_cards(&mut self, seat: Option<usize>) {
        let Some(s) = seat else { return };
        let mut ids = self.card_ids("card");
        ids.extend(self.card_ids("cards"));
        for id in ids {
            for k in 0..5u8 {
                let holds =
                    |st: &GameState| st.seats[s].slots[k as usize].is_some_and(|c| c.card() == id);
                if holds(self.r.before) || holds(self.r.after) {
                    self.out
                        .push(Claim::Touch(Fact::Seat(s, SeatFact::Slot(k))));
                }
            }
        }
    }
}
