//! The resource-action offers: cards of one face offered once, kept apart where the "+1" tile
//! lies on one of them (moved here from the crate's unit tests).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::testing::{offers, Offer};
use skymines::data::{CardId, GameData};
use skymines::engine::state::{GameState, Phase, TileKind, TileState};
use skymines::engine::{self, Decision, GameOptions, Task};

/// Seeded random play until a seat chooses its action with two face-up resource cards of
/// one face (and at most 5 of their type); the state, the seat and the two cards.
fn two_alike_cards(seed: u64) -> Option<(GameState, usize, CardId, CardId)> {
    let data = GameData::embedded().expect("data");
    let options = GameOptions {
        players: 2,
        seed,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(&data, &options, &skymines::sim::seat_names(2)).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..3000 {
        if state.phase == Phase::Finished {
            return None;
        }
        if let Some(Task::ChooseAction { seat, .. }) = asks_anyone(&state) {
            let seat = *seat;
            let up: Vec<CardId> = state.seats[seat].up_cards().map(|(_, c)| c).collect();
            let legal = engine::legal_decisions(&data, &state, seat);
            for a in &up {
                let (da, r) = (data.card(*a), data.card(*a).resource());
                let of_type = up.iter().filter(|c| data.card(**c).resource() == r);
                let alike: Vec<&CardId> = up
                    .iter()
                    .filter(|b| {
                        let db = data.card(**b);
                        db.resource() == r && (db.value, db.share) == (da.value, da.share)
                    })
                    .collect();
                let usable = legal.contains(&Decision::UseResources { resource: r });
                if r.is_some() && usable && alike.len() == 2 && of_type.count() <= 5 {
                    let b = alike.into_iter().find(|b| *b != a)?;
                    return Some((state.clone(), seat, *a, *b));
                }
            }
        }
        let waiting = engine::waiting_on(&state);
        let seat = *waiting.get(rng.gen_range(0..waiting.len().max(1)))?;
        let legal = engine::legal_decisions(&data, &state, seat);
        let mut d = legal[rng.gen_range(0..legal.len())];
        if d == Decision::DropOut && legal.len() > 1 && rng.gen_bool(0.9) {
            d = *legal.iter().find(|x| **x != Decision::DropOut)?;
        }
        engine::apply(&data, &mut state, seat, d).ok()?;
    }
    None
}

fn asks_anyone(state: &GameState) -> Option<&Task> {
    state.agenda.last().filter(|_| state.phase == Phase::Action)
}

/// The cards each offer of a resource action selects, when it selects cards.
fn selected(offers: &[Offer]) -> Vec<Vec<CardId>> {
    offers
        .iter()
        .filter(|o| matches!(o.first(), Some(Decision::UseResources { .. })))
        .map(|o| {
            o.iter()
                .filter_map(|d| match d {
                    Decision::SelectCard { card } => Some(*card),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Two cards of one face are offered once; with the "+1" tile on one of them, using that
/// one alone and using the other alone are two choices (one unit apart), and both are
/// offered.
#[test]
fn alike_cards_are_kept_apart_where_the_plus_one_tile_lies_on_one() {
    let data = GameData::embedded().expect("data");
    let (mut state, seat, a, b) = (1..40)
        .find_map(two_alike_cards)
        .expect("a seeded game with two alike face-up resource cards");
    let singles = |offers: &[Offer]| {
        selected(offers)
            .into_iter()
            .filter(|cards| cards.len() == 1 && (cards[0] == a || cards[0] == b))
            .count()
    };
    assert_eq!(
        singles(&offers(&data, &state, seat, 0)),
        1,
        "alike cards once: {:?}",
        offers(&data, &state, seat, 0)
    );
    state.tiles[GameState::tile_index(TileKind::PlusOne)] = TileState::Held {
        seat,
        used: false,
        on_card: Some(a),
    };
    let with_tile = offers(&data, &state, seat, 0);
    let alone = selected(&with_tile);
    assert!(
        alone.contains(&vec![a]) && alone.contains(&vec![b]),
        "each of the two alone: {with_tile:?}"
    );
}
