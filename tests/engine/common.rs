//! Helpers for the engine scenario tests: a bare Action-phase position to edit, card and space
//! look-ups by what they are, and short ways to apply decisions and read the result.
#![allow(dead_code)]

use skymines::data::cards::{CardDef, CardKind};
use skymines::data::{CardId, Company, PlanId, Resource};
use skymines::engine::state::{PlacedPlan, PlanRef, SlotCard, TileKind, TileState};
use skymines::engine::{
    self, Decision, Event, GameOptions, GameState, Phase, RuleError, Task, TrackSetup,
};

pub use crate::support::data;

pub fn names(n: usize) -> Vec<String> {
    skymines::sim::seat_names(n)
}

pub fn options(players: usize, seed: u64) -> GameOptions {
    GameOptions {
        players,
        seed,
        ..Default::default()
    }
}

/// Options with the company tracks chosen (Skymine, Minerva, Astrogo, Tawac).
pub fn options_with_tracks(players: usize, tracks: [&str; 4]) -> GameOptions {
    GameOptions {
        players,
        seed: 7,
        tracks: TrackSetup::Chosen(tracks.iter().map(|t| t.to_string()).collect()),
        ..Default::default()
    }
}

/// A new game as `new_game` builds it.
pub fn new_game(options: &GameOptions) -> GameState {
    engine::new_game(data(), options, &names(options.players)).expect("the game sets up")
}

/// A bare Action-phase position of the basic game: seat 0 (the first player) chooses its first
/// action of round 1. Every seat has no cards anywhere, no coins, every marker at the start,
/// only its starting research token on the track; the card display, decks and research display
/// are as dealt.
pub fn blank(players: usize) -> GameState {
    blank_with(&options(players, 7))
}

pub fn blank_with(options: &GameOptions) -> GameState {
    let mut state = new_game(options);
    for seat in state.seats.iter_mut() {
        seat.hand.clear();
        seat.slots = [None; 5];
        seat.resting = Default::default();
        seat.coins = 0;
        seat.tank = 0;
        seat.track_pos = [0; 4];
        seat.bonus_active = 0;
        seat.bonus_pending = 0;
        seat.upload = None;
        for screen in seat.research.iter_mut() {
            *screen = None;
        }
        seat.research[0] = Some(PlacedPlan {
            plan: PlanRef::Token,
            face_down: false,
        });
        seat.planned = true;
        seat.dropped_out = false;
        seat.pending_rest.clear();
        seat.token_choices.clear();
        seat.turns_this_round = 0;
        seat.acquired.clear();
    }
    state.phase = Phase::Action;
    state.first_player = 0;
    state.next_first_player = 0;
    state.active = Some(0);
    state.agenda = vec![Task::ChooseAction { seat: 0 }];
    state
}

/// Makes `seat` the one choosing an action now.
pub fn turn_of(state: &mut GameState, seat: usize) {
    state.active = Some(seat);
    state.agenda = vec![Task::ChooseAction { seat }];
}

// ---- cards

pub fn card_where(pred: impl Fn(&CardDef) -> bool) -> CardId {
    cards_where(pred, 1)[0]
}

/// The first `n` cards (in data order) matching `pred`.
pub fn cards_where(pred: impl Fn(&CardDef) -> bool, n: usize) -> Vec<CardId> {
    let found: Vec<CardId> = data()
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| pred(c))
        .map(|(i, _)| i as CardId)
        .take(n)
        .collect();
    assert_eq!(found.len(), n, "not enough cards match");
    found
}

/// The card with this label ("A03", "diamond-carbon2", "SE01").
pub fn card(label: &str) -> CardId {
    card_where(|c| c.id == label)
}

/// `n` different resource cards of type `r` and value `value`.
pub fn resource_cards(r: Resource, value: u32, n: usize) -> Vec<CardId> {
    cards_where(|c| c.resource() == Some(r) && c.value == value, n)
}

pub fn resource_card(r: Resource, value: u32) -> CardId {
    resource_cards(r, value, 1)[0]
}

pub fn energy_cards(value: u32, n: usize) -> Vec<CardId> {
    cards_where(|c| c.is_energy() && c.value == value, n)
}

pub fn energy_card(value: u32) -> CardId {
    energy_cards(value, 1)[0]
}

pub fn research_scientist(points: u32) -> CardId {
    card_where(|c| c.is_research_scientist() && c.value == points)
}

/// A field scientist: `None` is the plain one.
pub fn field_scientist(company: Option<Company>) -> CardId {
    card_where(|c| matches!(c.kind, CardKind::FieldScientist { company: fc, .. } if fc == company))
}

/// `n` playable cards of `company`'s extra share.
pub fn share_cards(company: Company, n: usize) -> Vec<CardId> {
    cards_where(|c| c.share == Some(company), n)
}

pub fn label(card: CardId) -> &'static str {
    &data().card(card).id
}

/// Puts `card` face up in action slot `slot` of `seat`.
pub fn up(state: &mut GameState, seat: usize, slot: usize, card: CardId) {
    state.seats[seat].slots[slot] = Some(SlotCard::Up(card));
}

pub fn slot(state: &GameState, seat: usize, slot: usize) -> Option<SlotCard> {
    state.seats[seat].slots[slot]
}

/// Empties the card display.
pub fn clear_display(state: &mut GameState) {
    state.display = [None; 12];
}

/// Puts `card` on display space 1–12.
pub fn display(state: &mut GameState, space: usize, card: CardId) {
    state.display[space - 1] = Some(card);
}

// ---- board and track look-ups

/// Index of a board bonus space by id ("buy_card", "majority_minerals", …).
pub fn board_space(id: &str) -> u8 {
    data()
        .board
        .bonus_spaces
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no bonus space {id}")) as u8
}

/// Index of a track bonus by id ("P-ENERGY-1", "B-TRACKS-2", …).
pub fn track_bonus(id: &str) -> u8 {
    data()
        .tracks
        .bonuses
        .iter()
        .position(|b| b.id == id)
        .unwrap_or_else(|| panic!("no track bonus {id}")) as u8
}

/// Unlocks a track bonus for `seat` (usable now).
pub fn unlock(state: &mut GameState, seat: usize, id: &str) {
    state.seats[seat].bonus_active |= 1 << track_bonus(id);
}

pub fn track_len(state: &GameState, company: Company) -> u8 {
    data().tracks.tracks[state.tracks[company.index()]].last_space as u8
}

/// The plan with this id ("A01", "B03", "C05").
pub fn plan(id: &str) -> PlanId {
    data()
        .research
        .plans
        .iter()
        .position(|p| p.id == id)
        .unwrap_or_else(|| panic!("no research plan {id}")) as PlanId
}

pub fn put_plan(state: &mut GameState, seat: usize, screen: usize, plan: PlanRef) {
    state.seats[seat].research[screen] = Some(PlacedPlan {
        plan,
        face_down: false,
    });
}

/// Index of a research display space by id ("A0" … "C3").
pub fn research_space(id: &str) -> u8 {
    data()
        .board
        .research_display
        .spaces
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no research display space {id}")) as u8
}

pub fn hold_tile(state: &mut GameState, seat: usize, kind: TileKind) {
    state.tiles[GameState::tile_index(kind)] = TileState::Held {
        seat,
        used: false,
        on_card: None,
    };
}

// ---- applying decisions

/// Applies a decision that must be legal; returns its events.
#[track_caller]
pub fn act(state: &mut GameState, seat: usize, d: Decision) -> Vec<Event> {
    match engine::apply(data(), state, seat, d) {
        Ok(events) => events,
        Err(e) => panic!(
            "{d:?} by seat {seat} was refused: {e}\n  pending: {:?}\n  legal: {:?}",
            state.agenda.last(),
            engine::legal_decisions(data(), state, seat)
        ),
    }
}

/// Applies several decisions in order; returns all events.
#[track_caller]
pub fn act_all(state: &mut GameState, seat: usize, ds: &[Decision]) -> Vec<Event> {
    ds.iter().flat_map(|d| act(state, seat, *d)).collect()
}

pub fn legal(state: &GameState, seat: usize) -> Vec<Decision> {
    engine::legal_decisions(data(), state, seat)
}

pub fn is_legal(state: &GameState, seat: usize, d: Decision) -> bool {
    legal(state, seat).contains(&d)
}

/// Applies a decision that must be refused; checks the state did not change and returns the
/// error.
#[track_caller]
pub fn refused(state: &mut GameState, seat: usize, d: Decision) -> RuleError {
    let before = state.clone();
    let err = match engine::apply(data(), state, seat, d) {
        Ok(_) => panic!("{d:?} by seat {seat} was accepted"),
        Err(e) => e,
    };
    assert!(*state == before, "a refused decision changed the state");
    assert!(
        !legal(state, seat).contains(&d),
        "{d:?} is refused but listed as legal"
    );
    err
}

/// All event texts, one per line.
pub fn texts(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The pending task.
pub fn top(state: &GameState) -> &Task {
    state.agenda.last().expect("a task is pending")
}

pub fn waiting(state: &GameState) -> Vec<usize> {
    engine::waiting_on(state)
}

/// Drops out every seat in turn order until the Action phase ends (seats with nothing in their
/// action slots and resting slots drop out without further questions).
#[track_caller]
pub fn everyone_drops_out(state: &mut GameState) {
    let mut guard = 0;
    while state.phase == Phase::Action {
        guard += 1;
        assert!(guard < 50, "the Action phase does not end");
        let seat = waiting(state)[0];
        if matches!(top(state), Task::ChooseAction { .. }) {
            act(state, seat, Decision::DropOut);
        } else {
            panic!("unexpected question while dropping out: {:?}", top(state));
        }
    }
}

/// The resource action of `seat` with `cards` of type `resource` (None: mixed). A card the
/// choice is forced to is picked by the engine itself, and selecting ends by itself once every
/// card is chosen; this applies whatever is still asked. Returns the events.
#[track_caller]
pub fn use_resources(
    state: &mut GameState,
    seat: usize,
    resource: Option<Resource>,
    cards: &[CardId],
) -> Vec<Event> {
    let mut events = act(state, seat, Decision::UseResources { resource });
    for &card in cards {
        if let Some(Task::SelectResources { chosen, .. }) = state.agenda.last() {
            if !chosen.contains(&card) {
                events.extend(act(state, seat, Decision::SelectCard { card }));
            }
        }
    }
    if matches!(state.agenda.last(), Some(Task::SelectResources { .. })) {
        events.extend(act(state, seat, Decision::FinishSelecting));
    }
    events
}
