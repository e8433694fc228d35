//! Helpers for the Luna tests: a bare Action-phase position with Luna seated last, Luna cards by
//! id, stations set to a chosen value, and one Luna turn triggered by the seat on her right
//! dropping out.
#![allow(dead_code)]

use skymines::data::luna::LunaCard;
use skymines::data::{CardId, Company};
use skymines::engine::state::{Column, LunaSlot, LunaState, Marker, PlacedPlan, PlanRef};
use skymines::engine::{self, Decision, Event, GameOptions, GameState, Phase, Task, TrackSetup};

pub use skymines::data::Company::{Astrogo, Minerva, Skymine, Tawac};

pub use crate::support::data;

pub fn names(n: usize) -> Vec<String> {
    skymines::sim::seat_names(n)
}

pub fn luna_options(players: usize, level: u8, seed: u64) -> GameOptions {
    GameOptions {
        players,
        luna: Some(level),
        seed,
        ..Default::default()
    }
}

/// A new game as `new_game` builds it.
pub fn new_game(options: &GameOptions) -> GameState {
    engine::new_game(data(), options, &names(options.players)).expect("the game sets up")
}

/// The seat Luna plays.
pub fn luna_seat(state: &GameState) -> usize {
    let seats: Vec<usize> = (0..state.seats.len())
        .filter(|&s| state.seats[s].is_luna())
        .collect();
    assert_eq!(seats.len(), 1, "exactly one Luna seat");
    seats[0]
}

pub fn luna(state: &GameState) -> &LunaState {
    state.seats[luna_seat(state)].luna.as_ref().expect("Luna")
}

pub fn luna_mut(state: &mut GameState) -> &mut LunaState {
    let s = luna_seat(state);
    state.seats[s].luna.as_mut().expect("Luna")
}

/// Index of a Luna card ("I-1" … "II-7") in data.luna_cards.cards.
pub fn lc(id: &str) -> u8 {
    data()
        .luna_cards
        .cards
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("no Luna card {id}")) as u8
}

pub fn luna_card(index: u8) -> &'static LunaCard {
    &data().luna_cards.cards[index as usize]
}

/// Every Luna card of a grade, by index.
pub fn grade(g: u8) -> Vec<u8> {
    (0..data().luna_cards.cards.len() as u8)
        .filter(|&i| luna_card(i).grade == g)
        .collect()
}

/// A bare Action-phase position of round 1 with Luna (level 2) seated last: seat 0 (first
/// player) is to choose an action. Nobody has coins, cards, bonus marker on the board, or track
/// progress; Luna's markers are on step 0, her slots and majority slots are empty, her deck is
/// as dealt; every station is full and the Moon is empty; display and research display as dealt.
pub fn position(players: usize) -> GameState {
    position_with(&luna_options(players, 2, 11))
}

pub fn position_with(options: &GameOptions) -> GameState {
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
        seat.planned = true;
        seat.dropped_out = false;
        seat.pending_rest.clear();
        seat.token_choices.clear();
        seat.turns_this_round = 0;
        seat.acquired.clear();
        seat.markers_reserve = seat.markers_total;
        if seat.is_luna() {
            seat.upload = Some(0);
        } else {
            seat.upload = None;
            for screen in seat.research.iter_mut() {
                *screen = None;
            }
            seat.research[0] = Some(PlacedPlan {
                plan: PlanRef::Token,
                face_down: false,
            });
        }
    }
    let l = luna_mut(&mut state);
    l.slots = [None; 5];
    l.majority = [None; 2];
    l.reserve_cards.clear();
    state.phase = Phase::Action;
    state.round = 1;
    state.first_player = 0;
    state.next_first_player = 0;
    state.active = Some(0);
    state.agenda = vec![Task::ChooseAction { seat: 0 }];
    state.stations = [[Column::full(); 3]; 4];
    for s in state.sectors.iter_mut() {
        *s = None;
    }
    for b in state.bonus_spaces.iter_mut() {
        *b = None;
    }
    state
}

/// The same with the company tracks chosen (Skymine, Minerva, Astrogo, Tawac).
pub fn position_with_tracks(players: usize, tracks: [&str; 4]) -> GameState {
    position_with(&GameOptions {
        tracks: TrackSetup::Chosen(tracks.iter().map(|t| t.to_string()).collect()),
        ..luna_options(players, 2, 11)
    })
}

/// Puts Luna card `card` face down into Luna's action slot `slot` (0 = a … 4 = e).
pub fn lay(state: &mut GameState, slot: usize, card: u8) {
    luna_mut(state).slots[slot] = Some(LunaSlot {
        card,
        face_up: false,
    });
}

/// The seat on Luna's right (the one before her in seating order).
pub fn right_of_luna(state: &GameState) -> usize {
    let l = luna_seat(state);
    (l + state.seats.len() - 1) % state.seats.len()
}

/// The seat on Luna's right (with nothing in its slots and resting slots) drops out; Luna's
/// turn follows at once inside the same `apply`. Returns the events.
#[track_caller]
pub fn luna_turn(state: &mut GameState) -> Vec<Event> {
    let seat = right_of_luna(state);
    state.active = Some(seat);
    state.agenda = vec![Task::ChooseAction { seat }];
    act(state, seat, Decision::DropOut)
}

/// Luna plays `card` from slot `slot` in a two-human position: a second face-down card (a
/// filler) lies further right when there is room, so her phase does not end with this card.
/// Afterwards it is seat 0's turn.
#[track_caller]
pub fn play(state: &mut GameState, card: &str, slot: usize) -> Vec<Event> {
    let c = lc(card);
    lay(state, slot, c);
    if slot < 4 {
        let filler = if card == "I-5" { lc("I-8") } else { lc("I-5") };
        lay(state, 4, filler);
    }
    let events = luna_turn(state);
    assert_eq!(
        state.agenda.last(),
        Some(&Task::ChooseAction { seat: 0 }),
        "after Luna's turn seat 0 chooses an action"
    );
    if slot < 4 {
        assert_eq!(
            luna(state).slots[slot],
            Some(LunaSlot {
                card: c,
                face_up: true
            }),
            "the played card lies face up in its slot"
        );
        assert!(!state.seats[luna_seat(state)].dropped_out);
    }
    events
}

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

pub fn texts(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| e.text())
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- board

/// Sets the outposts of a station's three columns (an emptied column has its floor revealed).
pub fn station(state: &mut GameState, company: Company, outposts: [u8; 3]) {
    for (i, n) in outposts.into_iter().enumerate() {
        state.stations[company.index()][i] = Column {
            outposts: n,
            floor_revealed: n == 0,
        };
    }
}

pub fn outposts(state: &GameState, company: Company) -> [u8; 3] {
    state.stations[company.index()].map(|c| c.outposts)
}

/// Puts outposts of `company` into these sectors.
pub fn occupy(state: &mut GameState, company: Company, sectors: &[u8]) {
    for s in sectors {
        state.sectors[*s as usize - 1] = Some(company);
    }
}

pub fn sector(state: &GameState, n: u8) -> Option<Company> {
    state.sectors[n as usize - 1]
}

/// Sectors holding an outpost of `company`, ascending.
pub fn sectors_of(state: &GameState, company: Company) -> Vec<u8> {
    (1..=state.sectors.len() as u8)
        .filter(|&s| sector(state, s) == Some(company))
        .collect()
}

/// Track positions of a seat (Skymine, Minerva, Astrogo, Tawac).
pub fn tracks(state: &mut GameState, seat: usize, pos: [u8; 4]) {
    state.seats[seat].track_pos = pos;
}

pub fn pos(state: &GameState, seat: usize, company: Company) -> u8 {
    state.seats[seat].track_pos[company.index()]
}

/// Index of a board bonus space by id.
pub fn bonus_space(id: &str) -> usize {
    data()
        .board
        .bonus_spaces
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no bonus space {id}"))
}

pub fn marker_of(seat: usize) -> Option<Marker> {
    Some(Marker {
        seat,
        one_time: false,
    })
}

/// Index of a research display space by id ("A0" … "C3").
pub fn research_space(id: &str) -> usize {
    data()
        .board
        .research_display
        .spaces
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no research display space {id}"))
}

/// The action card with this label.
pub fn card(label: &str) -> CardId {
    data()
        .cards
        .iter()
        .position(|c| c.id == label)
        .unwrap_or_else(|| panic!("no card {label}")) as CardId
}

/// Display cards with no share icon, `n` of them (in data order).
pub fn plain_cards(n: usize) -> Vec<CardId> {
    let found: Vec<CardId> = data()
        .cards
        .iter()
        .enumerate()
        .filter(|(_, c)| c.share.is_none() && c.id.len() == 3)
        .map(|(i, _)| i as CardId)
        .take(n)
        .collect();
    assert_eq!(found.len(), n);
    found
}

/// Fills the display spaces 1–12 with plain (shareless) cards.
pub fn plain_display(state: &mut GameState) {
    let cards = plain_cards(12);
    for (i, c) in cards.into_iter().enumerate() {
        state.display[i] = Some(c);
    }
}
