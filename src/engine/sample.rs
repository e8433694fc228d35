//! What a seat cannot see, made up (DECISIONS B16: computer players never peek).
//!
//! A card's back is public, its face is not. [`canonical`] rewrites every hidden part of a game
//! for one seat — the action stack's order, the other seats' hands and face-down plans, the
//! face-down plan supplies, Luna's deck and face-down cards, the draft's undisclosed tokens and
//! the game's random generator — into one fixed arrangement that depends only on what the seat
//! has seen: within each kind of back (an action card's letter, a player's own starting cards, a
//! plan supply, a Luna grade) the hidden cards are sorted into the hidden places. [`sample`]
//! deals those same cards into the same places at random, from the caller's generator. Two games
//! that differ only in what the seat cannot see have equal canonical forms, so a player that
//! searches on samples of the canonical form cannot tell them apart.
//!
//! Known limit: a sample is consistent with what is visible now, not with the history (a card a
//! seat saw another player take from the display may be dealt elsewhere).

use super::state::{GameState, Phase, SlotCard};
use crate::data::cards::CardOrigin;
use crate::data::{CardId, GameData};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The game as `seat` knows it: hidden parts in their canonical (sorted) arrangement and the
/// game's generator reset to a fixed seed.
pub fn canonical(data: &GameData, state: &GameState, seat: usize) -> GameState {
    let mut out = state.clone();
    rearrange(data, &mut out, seat, None);
    out
}

/// A full game consistent with everything `seat` has seen: the hidden cards dealt at random by
/// `rng`, and a fresh game generator drawn from it.
pub fn sample(data: &GameData, state: &GameState, seat: usize, rng: &mut impl Rng) -> GameState {
    let mut out = canonical(data, state, seat);
    let mut deal = ChaCha8Rng::seed_from_u64(rng.gen());
    rearrange(data, &mut out, seat, Some(&mut deal));
    out.rng = ChaCha8Rng::seed_from_u64(rng.gen());
    out
}

/// A hidden place in the state, in a fixed order of visiting.
#[derive(Clone, Copy)]
enum Place {
    Stack(usize),
    Hand(usize, usize),
    Planned(usize, usize),
}

/// The back of an action card: what everyone sees of it.
fn back(data: &GameData, card: CardId) -> (u8, u32) {
    match &data.card(card).origin {
        CardOrigin::Action { letter } => (0, *letter as u32),
        CardOrigin::Starting { colour, .. } => (1, *colour as u32),
        CardOrigin::SingleEnergy { seat } => (2, *seat as u32),
    }
}

/// Sorts (no `rng`) or shuffles the hidden parts of `state` for `seat` within each kind of back.
fn rearrange(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    mut rng: Option<&mut ChaCha8Rng>,
) {
    let mut mix = |cards: &mut Vec<u8>| match rng.as_deref_mut() {
        Some(r) => cards.shuffle(r),
        None => cards.sort_unstable(),
    };

    // Action cards: the stack and the other human seats' hands and face-down plans.
    let mut places: Vec<Place> = (0..state.action_stack.len()).map(Place::Stack).collect();
    for (i, s) in state.seats.iter().enumerate() {
        if i == seat || s.is_luna() {
            continue;
        }
        places.extend((0..s.hand.len()).map(|j| Place::Hand(i, j)));
        for (j, slot) in s.slots.iter().enumerate() {
            if matches!(slot, Some(SlotCard::Planned(_))) {
                places.push(Place::Planned(i, j));
            }
        }
    }
    let card_at = |state: &GameState, p: Place| -> CardId {
        match p {
            Place::Stack(k) => state.action_stack[k],
            Place::Hand(i, j) => state.seats[i].hand[j],
            Place::Planned(i, j) => state.seats[i].slots[j].map(SlotCard::card).unwrap_or(0),
        }
    };
    let mut by_back: BTreeMap<(u8, u32), (Vec<Place>, Vec<CardId>)> = BTreeMap::new();
    for p in places {
        let card = card_at(state, p);
        let entry = by_back.entry(back(data, card)).or_default();
        entry.0.push(p);
        entry.1.push(card);
    }
    for (_, (places, mut cards)) in by_back {
        mix(&mut cards);
        for (p, card) in places.into_iter().zip(cards) {
            match p {
                Place::Stack(k) => state.action_stack[k] = card,
                Place::Hand(i, j) => state.seats[i].hand[j] = card,
                Place::Planned(i, j) => state.seats[i].slots[j] = Some(SlotCard::Planned(card)),
            }
        }
    }
    for s in state
        .seats
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| *i != seat)
    {
        // A hand's order is private too.
        if !s.1.is_luna() {
            s.1.hand.sort_unstable();
        }
    }

    // Face-down plan supplies: each supply on its own.
    for supply in state.plan_supply.iter_mut() {
        mix(supply);
    }

    // Luna's deck and face-down cards, by grade; her grade-2 stack.
    for (i, s) in state.seats.iter_mut().enumerate() {
        let Some(luna) = s.luna.as_mut().filter(|_| i != seat) else {
            continue;
        };
        let grade = |c: u8| data.luna_cards.cards.get(c as usize).map(|c| c.grade);
        let mut by_grade: BTreeMap<Option<u8>, Vec<u8>> = BTreeMap::new();
        for c in &luna.deck {
            by_grade.entry(grade(*c)).or_default().push(*c);
        }
        for slot in luna.slots.iter().flatten().filter(|x| !x.face_up) {
            by_grade
                .entry(grade(slot.card))
                .or_default()
                .push(slot.card);
        }
        for cards in by_grade.values_mut() {
            mix(cards);
        }
        for c in luna.deck.iter_mut() {
            if let Some(next) = by_grade.get_mut(&grade(*c)).and_then(|v| v.pop()) {
                *c = next;
            }
        }
        for slot in luna.slots.iter_mut().flatten().filter(|x| !x.face_up) {
            if let Some(next) = by_grade.get_mut(&grade(slot.card)).and_then(|v| v.pop()) {
                slot.card = next;
            }
        }
        mix(&mut luna.grade2);
    }

    // The draft's undisclosed tokens (the other seats' tokens are secret until the reveal).
    if state.phase == Phase::Setup {
        mix_tokens(state, seat, &mut mix);
    }

    // The seed the game was set up from would tell every hidden card.
    state.options.seed = 0;
    state.rng = ChaCha8Rng::seed_from_u64(0);
}

/// The other seats' dealt (or already kept) tokens and the tokens back in the box.
fn mix_tokens(state: &mut GameState, seat: usize, mix: &mut impl FnMut(&mut Vec<u8>)) {
    let others: Vec<usize> = (0..state.seats.len())
        .filter(|i| *i != seat && !state.seats[*i].is_luna())
        .collect();
    let mut pool: Vec<usize> = state.spare_tokens.clone();
    for &i in &others {
        let s = &state.seats[i];
        match s.token {
            // The token not kept is already back in the box.
            Some(t) => pool.push(t),
            None => pool.extend(s.token_choices.iter().copied()),
        }
    }
    let mut small: Vec<u8> = pool.iter().map(|t| *t as u8).collect();
    mix(&mut small);
    let mut dealt = small.into_iter().map(usize::from);
    for &i in &others {
        let s = &mut state.seats[i];
        match s.token {
            Some(_) => {
                let t = dealt.next().unwrap_or_default();
                s.token = Some(t);
                s.token_choices = vec![t];
            }
            None => {
                let n = s.token_choices.len();
                s.token_choices = dealt.by_ref().take(n).collect();
            }
        }
    }
    state.spare_tokens = dealt.collect();
}
