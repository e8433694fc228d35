//! Helpers for the module tests (mission cards, Belt side, threat cards, campaign): games with
//! the modules set up, pieces put on the Belt without breaking the piece counts, and short ways
//! to run an energy action and play games to the end.
#![allow(dead_code)]

use crate::common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::data::{CardId, Company, GameData};
use skymines::engine::{self, BoardSide, Decision, GameOptions, GameState, Phase, Task};

pub fn belt_options(players: usize) -> GameOptions {
    GameOptions {
        players,
        seed: 11,
        board: BoardSide::Belt,
        ..Default::default()
    }
}

/// A bare Action-phase position (see `common::blank`) on the Belt side.
pub fn belt_blank(players: usize) -> GameState {
    blank_with(&belt_options(players))
}

/// A bare position with the mission cards in play.
pub fn missions_blank(players: usize, board: BoardSide) -> GameState {
    blank_with(&GameOptions {
        players,
        seed: 5,
        board,
        missions: true,
        ..Default::default()
    })
}

/// A bare Belt position with the named threat card on the board.
pub fn threat_blank(players: usize, threat: &str) -> GameState {
    blank_with(&GameOptions {
        players,
        seed: 3,
        board: BoardSide::Belt,
        threats: true,
        threat_card: Some(threat.to_string()),
        ..Default::default()
    })
}

/// Index of an asteroid by target number.
pub fn asteroid(n: u32) -> usize {
    data()
        .belt
        .asteroids
        .iter()
        .position(|a| a.id == n)
        .unwrap_or_else(|| panic!("no asteroid {n}"))
}

/// Index of a flight path by its shuttle space.
pub fn flight_path(n: u32) -> usize {
    data()
        .belt
        .flight_paths
        .iter()
        .position(|p| p.shuttle_space == n)
        .unwrap_or_else(|| panic!("no shuttle space {n}"))
}

/// Puts an outpost of `company` on outpost space `space` (0-based) of asteroid `n`, taken from
/// its first outer column that has one (the piece counts stay right).
pub fn put_outpost(state: &mut GameState, company: Company, n: u32, space: usize) {
    let col = if state.stations[company.index()][0].outposts > 0 {
        0
    } else {
        2
    };
    state.stations[company.index()][col].outposts -= 1;
    let a = asteroid(n);
    state.belt.as_mut().expect("the Belt").outposts[a][space] = Some(company);
}

/// Puts a shuttle of `company` on shuttle space `n`, taken from its middle column.
pub fn put_shuttle(state: &mut GameState, company: Company, n: u32) {
    state.stations[company.index()][1].outposts -= 1;
    let p = flight_path(n);
    state.belt.as_mut().expect("the Belt").shuttles[p] = Some(company);
}

pub fn outpost_at(state: &GameState, n: u32, space: usize) -> Option<Company> {
    state.belt.as_ref().expect("the Belt").outposts[asteroid(n)][space]
}

pub fn shuttle_at(state: &GameState, n: u32) -> Option<Company> {
    state.belt.as_ref().expect("the Belt").shuttles[flight_path(n)]
}

pub fn enter(target: u32, space: u8, column: u8) -> Decision {
    Decision::EnterBelt {
        target: target as u8,
        space,
        column,
    }
}

/// Energy cards face up in `seat`'s slots 1.. adding up to `energy` (values 3, 2, 1 as needed).
pub fn energy_up(state: &mut GameState, seat: usize, energy: u32) {
    let mut left = energy;
    let mut slot = 1;
    let mut used: Vec<CardId> = Vec::new();
    for v in [3u32, 3, 2, 2, 1, 1, 1, 1] {
        if left == 0 {
            break;
        }
        if v <= left {
            let card = (0..data().cards.len() as CardId)
                .find(|c| {
                    let def = data().card(*c);
                    def.is_energy() && def.value == v && !used.contains(c)
                })
                .expect("an energy card");
            used.push(card);
            up(state, seat, slot, card);
            slot += 1;
            left -= v;
        }
    }
    assert_eq!(left, 0, "energy {energy} cannot be made from the cards");
}

/// `seat` takes the energy action with `energy` face up and chooses `company`: the Expand task
/// is on top afterwards.
#[track_caller]
pub fn start_expansion(state: &mut GameState, seat: usize, energy: u32, company: Company) {
    energy_up(state, seat, energy);
    act(state, seat, Decision::UseEnergy);
    act(state, seat, Decision::ChooseCompany { company });
    assert!(
        matches!(top(state), Task::Expand { .. }),
        "expanding, not {:?}",
        top(state)
    );
}

/// Energy left in the running expansion.
pub fn energy_left(state: &GameState) -> u32 {
    match top(state) {
        Task::Expand { energy, .. } => *energy,
        other => panic!("not expanding: {other:?}"),
    }
}

/// Answers whatever is asked after an action with the first legal decision, preferring to take
/// coins for research points and to end claim windows, until `seat`'s turn is over.
#[track_caller]
pub fn finish_turn(state: &mut GameState, seat: usize) {
    let mut guard = 0;
    while state.phase == Phase::Action && waiting(state) == vec![seat] {
        if matches!(top(state), Task::ChooseAction { seat: s } if *s == seat) {
            break;
        }
        guard += 1;
        assert!(guard < 100, "the turn does not end: {:?}", top(state));
        let options = legal(state, seat);
        let pick = [
            Decision::TakeCoin,
            Decision::EndClaims,
            Decision::StopExpanding,
        ]
        .into_iter()
        .find(|d| options.contains(d))
        .or_else(|| options.first().copied())
        .expect("a legal decision");
        act(state, seat, pick);
    }
}

/// Plays a game to the end with the self-play policy.
pub fn play_out(data: &GameData, state: &mut GameState, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut guard = 0;
    while state.phase != Phase::Finished {
        guard += 1;
        assert!(guard < 30_000, "the game does not end");
        let w = engine::waiting_on(state);
        let seat = w[rng.gen_range(0..w.len())];
        let options = engine::legal_decisions(data, state, seat);
        let d = skymines::bots::weighted::choose(&mut rng, data, state, seat, &options)
            .expect("a decision");
        engine::apply(data, state, seat, d).expect("a legal decision applies");
    }
}

/// A new game with these options, played to the end by self-play.
pub fn played(options: &GameOptions, seed: u64) -> GameState {
    let mut state = new_game(options);
    play_out(data(), &mut state, seed);
    state
}

/// Ends the game now: the phase is set to Finished (for scoring tests).
pub fn finish(state: &mut GameState) {
    state.phase = Phase::Finished;
    state.agenda.clear();
    state.active = None;
}
