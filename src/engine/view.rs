//! What one seat may see (or a spectator, with no seat): everything public, plus the viewer's
//! own hand, plan and token choices. No deck order, no other seat's hand or unrevealed plan.

use super::belt::BeltState;
use super::decision::Task;
use super::missions::{MissionStatus, MissionsState};
use super::score::ScoreBreakdown;
use super::state::{
    Column, GameState, Marker, Phase, PlacedPlan, PlanRef, SeatKind, SlotCard, SpecialSlot,
    TileState,
};
use super::threats::ThreatState;
use crate::data::{CardId, Company, GameData, PlanId};
use serde::{Deserialize, Serialize};

/// A card slot as one viewer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotView {
    Empty,
    /// Face down and not revealed yet.
    Hidden,
    /// The viewer's own planned card, still face down for everyone else.
    OwnPlanned(CardId),
    Up(CardId),
    Used(CardId),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicSeat {
    pub name: String,
    pub kind: SeatKind,
    pub colour: usize,
    pub hand_size: usize,
    pub slots: Vec<SlotView>,
    pub planned_cards: usize,
    pub slot_on: [bool; 5],
    pub resting: Vec<Vec<CardId>>,
    pub coins: u32,
    pub markers_reserve: u8,
    pub markers_total: u8,
    pub tank: u8,
    pub research: Vec<Option<PlacedPlan>>,
    pub upload: Option<u8>,
    pub track_pos: [u8; 4],
    pub bonus_active: u32,
    pub bonus_pending: u32,
    pub planned: bool,
    pub dropped_out: bool,
    /// Starting research token (hidden while the draft is still secret).
    pub token: Option<usize>,
    pub acquired: Vec<PlanRef>,
    pub shares: [u32; 4],
    /// Luna's public components (None for human seats).
    pub luna: Option<LunaView>,
    /// The mission status card (public: its markers, link and personal bonus space).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission: Option<MissionStatus>,
}

/// What everyone sees of Luna: her deck's size, not its order; face-down slot cards hidden.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaView {
    pub level: u8,
    pub deck_size: usize,
    pub grade2_size: usize,
    pub discard: Vec<u8>,
    /// Face-up Luna cards by slot (None: empty or face down, see `face_down`).
    pub slots: [Option<u8>; 5],
    pub face_down: [bool; 5],
    pub majority: [Option<u8>; 2],
    pub reserve_cards: Vec<CardId>,
    pub helium_tokens: Vec<u32>,
    pub research_tokens: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateSeat {
    pub seat: usize,
    pub hand: Vec<CardId>,
    pub token_choices: Vec<usize>,
    pub token: Option<usize>,
    pub pending_rest: Vec<CardId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub round: u8,
    pub phase: Phase,
    pub first_player: usize,
    pub next_first_player: usize,
    pub active: Option<usize>,
    pub waiting_on: Vec<usize>,
    /// The pending task (public: everyone sees what the active player is doing).
    pub pending: Option<Task>,
    pub tracks: Vec<String>,
    pub share_values: [u32; 4],
    pub stations: [[Column; 3]; 4],
    pub sectors: Vec<Option<Company>>,
    pub removed_outposts: [u8; 4],
    pub action_stack_size: usize,
    pub discard: Vec<CardId>,
    pub display: [Option<CardId>; 12],
    pub plan_supply_sizes: [usize; 3],
    pub research_display: Vec<Option<PlanId>>,
    pub supplement_coins: u32,
    pub specials: Vec<SpecialSlot>,
    pub bonus_spaces: Vec<Option<Marker>>,
    pub track_bonus_spaces: Vec<Option<Marker>>,
    pub tiles: [TileState; 4],
    pub seats: Vec<PublicSeat>,
    /// The viewer's private information (None for a spectator).
    pub own: Option<PrivateSeat>,
    /// The Belt's outposts and shuttles (None on the Moon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belt: Option<BeltState>,
    /// The threat card (face up while on the board; its holder once removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat: Option<ThreatState>,
    /// The face-up mission cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missions: Option<MissionsState>,
    /// The final scores by category, once the game is over (public then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<ScoreBreakdown>>,
}

/// The view of `seat` (None = a spectator: public information only).
pub fn view(data: &GameData, state: &GameState, seat: Option<usize>) -> SeatView {
    let seats = state
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| PublicSeat {
            name: s.name.clone(),
            kind: s.kind,
            colour: s.colour,
            hand_size: s.hand.len(),
            slots: s
                .slots
                .iter()
                .map(|slot| match slot {
                    None => SlotView::Empty,
                    Some(SlotCard::Planned(c)) if Some(i) == seat => SlotView::OwnPlanned(*c),
                    Some(SlotCard::Planned(_)) => SlotView::Hidden,
                    Some(SlotCard::Up(c)) => SlotView::Up(*c),
                    Some(SlotCard::Used(c)) => SlotView::Used(*c),
                })
                .collect(),
            planned_cards: s.slots.iter().flatten().count(),
            slot_on: s.slot_on,
            resting: s.resting.to_vec(),
            coins: s.coins,
            markers_reserve: s.markers_reserve,
            markers_total: s.markers_total,
            tank: s.tank,
            research: s.research.clone(),
            upload: s.upload,
            track_pos: s.track_pos,
            bonus_active: s.bonus_active,
            bonus_pending: s.bonus_pending,
            planned: s.planned,
            dropped_out: s.dropped_out,
            token: if state.phase == Phase::Setup {
                None
            } else {
                s.token
            },
            acquired: s.acquired.clone(),
            luna: s.luna.as_ref().map(|l| LunaView {
                level: l.level,
                deck_size: l.deck.len(),
                grade2_size: l.grade2.len(),
                discard: l.discard.clone(),
                slots: l.slots.map(|x| x.filter(|x| x.face_up).map(|x| x.card)),
                face_down: l.slots.map(|x| x.is_some_and(|x| !x.face_up)),
                majority: l.majority,
                reserve_cards: l.reserve_cards.clone(),
                helium_tokens: l.helium_tokens.clone(),
                research_tokens: l.research_tokens.clone(),
            }),
            mission: s.mission.clone(),
            shares: Company::ALL.map(|c| {
                // Shares on cards in hand are private: count only the track and public cards.
                let track = &data.tracks.tracks[state.tracks[c.index()]];
                track.shares_at(s.track_pos[c.index()] as u32)
            }),
        })
        .collect();
    let own = seat
        .and_then(|i| state.seats.get(i).map(|s| (i, s)))
        .map(|(i, s)| PrivateSeat {
            seat: i,
            hand: s.hand.clone(),
            token_choices: s.token_choices.clone(),
            token: s.token,
            pending_rest: s.pending_rest.clone(),
        });
    SeatView {
        round: state.round,
        phase: state.phase,
        first_player: state.first_player,
        next_first_player: state.next_first_player,
        active: state.active,
        waiting_on: super::waiting_on(state),
        pending: state.agenda.last().cloned(),
        tracks: state
            .tracks
            .iter()
            .map(|t| data.tracks.tracks[*t].id.clone())
            .collect(),
        share_values: Company::ALL.map(|c| state.share_value(data, c)),
        stations: state.stations,
        sectors: state.sectors.clone(),
        removed_outposts: state.removed_outposts,
        action_stack_size: state.action_stack.len(),
        discard: state.discard.clone(),
        display: state.display,
        plan_supply_sizes: [
            state.plan_supply[0].len(),
            state.plan_supply[1].len(),
            state.plan_supply[2].len(),
        ],
        research_display: state.research_display.clone(),
        supplement_coins: state.supplement_coins,
        specials: state.specials.clone(),
        bonus_spaces: state.bonus_spaces.clone(),
        track_bonus_spaces: state.track_bonus_spaces.clone(),
        tiles: state.tiles,
        seats,
        own,
        belt: state.belt.clone(),
        threat: state.threat.clone(),
        missions: state.missions.clone(),
        scores: (state.phase == Phase::Finished).then(|| super::score::final_scores(data, state)),
    }
}
