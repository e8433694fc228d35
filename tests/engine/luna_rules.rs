//! Luna's rules beyond single cards: setup per level, her deck (tokens, reshuffle), the Planning
//! phase (dealing, majority cards, reveal icons, majority blocking), the end of her phase,
//! Preparation, final scoring, seating and turn order, the selection rules with every
//! tie-break, and what a human's view hides. Sources: the Luna booklet, LUNA-NOTES.md,
//! FACTS §9, DECISIONS A8–A16.

use crate::luna_support::*;
use skymines::data::Company;
use skymines::engine::state::{Column, LunaSlot, SlotCard, TileKind, TileState};
use skymines::engine::{
    self, BonusRef, Decision, GameState, Phase, RuleError, SeatKind, Task, TokenSetup,
};

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;

fn is_luna_seat(s: &GameState, seat: usize) -> bool {
    matches!(s.seats[seat].kind, SeatKind::Luna { .. })
}

// ------------------------------------------------------------------------------------------
// setup

#[test]
fn luna_sits_last_with_5_markers_and_1_coin_humans_get_3_markers_solo_2_otherwise() {
    for players in 1..=3usize {
        for seed in 0..5u64 {
            let s = new_game(&luna_options(players, 2, seed));
            assert_eq!(s.seats.len(), players + 1);
            let l = s.seats.len() - 1;
            assert!(is_luna_seat(&s, l), "Luna is last in seating order");
            assert!((0..l).all(|i| !is_luna_seat(&s, i)));
            assert_eq!(s.first_player, 0, "never the first player");
            assert_eq!(s.seats[l].coins, 1);
            assert_eq!(
                (s.seats[l].markers_reserve, s.seats[l].markers_total),
                (5, 5)
            );
            let humans = if players == 1 { 3 } else { 2 };
            for h in 0..l {
                assert_eq!(s.seats[h].markers_total, humans, "{players} humans");
            }
            let seat = &s.seats[l];
            assert_eq!(seat.slot_on, [false, true, true, true, false]);
            assert!(seat.hand.is_empty() && seat.resting.iter().all(|r| r.is_empty()));
            assert!(seat.planned, "Luna never waits in the Planning phase");
            let luna = seat.luna.as_ref().unwrap();
            assert_eq!(luna.slots, [None; 5]);
            assert_eq!(luna.majority, [None; 2]);
            assert!(luna.discard.is_empty() && luna.reserve_cards.is_empty());
            assert!(!engine::waiting_on(&s).contains(&l));
        }
    }
}

/// The starting research token Luna used: the one neither a human holds nor is still spare.
fn lunas_token(s: &GameState) -> usize {
    let d = data();
    let used: Vec<usize> = s.seats.iter().filter_map(|x| x.token).collect();
    let left: Vec<usize> = (0..d.research.starting_tokens.len())
        .filter(|t| !used.contains(t) && !s.spare_tokens.contains(t))
        .collect();
    assert_eq!(
        left.len(),
        1,
        "exactly one token went to Luna and back to the box"
    );
    left[0]
}

#[test]
fn every_level_0_to_8_sets_up_deck_grade_2_stack_tokens_and_start_positions() {
    let d = data();
    let board = &d.luna_board;
    for level in 0..=8u8 {
        for seed in 0..4u64 {
            let s = new_game(&luna_options(1, level, seed));
            assert_eq!(s.options.tokens, TokenSetup::Fixed);
            let l = luna_seat(&s);
            let luna = luna(&s);
            let lvl = board.level(level as u32).unwrap();
            assert_eq!(luna.level, level);
            let mut deck = luna.deck.clone();
            deck.sort();
            assert_eq!(deck, grade(1), "level {level}: the 12 grade-1 cards");
            let mut g2 = luna.grade2.clone();
            g2.sort();
            if level >= 2 {
                assert_eq!(g2, grade(2), "level {level}: the 7 grade-2 cards");
            } else {
                assert!(g2.is_empty(), "level {level}: grade 2 out of the game");
            }
            assert_eq!(luna.helium_tokens, lvl.helium_tokens, "level {level}");
            assert_eq!(luna.research_tokens, lvl.research_tokens, "level {level}");
            if level <= 2 {
                assert!(luna.helium_tokens.is_empty() && luna.research_tokens.is_empty());
            } else {
                assert_eq!(
                    (luna.helium_tokens.len(), luna.research_tokens.len()),
                    (2, 2)
                );
            }
            // The spare token's starting bonus: tank steps and company steps.
            let token = &d.research.starting_tokens[lunas_token(&s)];
            let mut tank = 0;
            let mut track = [0u8; 4];
            for b in &token.start_bonus {
                match Company::parse(&b.track) {
                    Some(c) => track[c.index()] += b.n as u8,
                    None => tank += b.n as u8,
                }
            }
            assert_eq!(s.seats[l].track_pos, track, "level {level} seed {seed}");
            if level >= 6 {
                // White numbers: her markers are placed on them.
                assert_eq!(s.seats[l].tank as u32, lvl.start_helium_step);
                assert_eq!(s.seats[l].upload, Some(lvl.start_research_step as u8));
            } else {
                assert_eq!(s.seats[l].tank, tank);
                assert_eq!(s.seats[l].upload, Some(0));
            }
        }
    }
    // Spot checks against the booklet's tables as transcribed.
    let five = board.level(5).unwrap();
    assert_eq!(
        (five.helium_tokens.clone(), five.research_tokens.clone()),
        (vec![7, 13], vec![2, 7])
    );
    let s8 = new_game(&luna_options(1, 8, 3));
    let l = luna_seat(&s8);
    assert_eq!((s8.seats[l].tank, s8.seats[l].upload), (5, Some(3)));
}

/// DECISIONS A16: at levels 6–8 her starting token's helium is applied during setup as at every
/// level, then her helium marker is placed on the white-number tank space: the marker stands on
/// the white number, the token's helium does not add to it.
#[test]
fn at_levels_6_to_8_her_tokens_helium_does_not_add_to_the_white_number() {
    let d = data();
    for level in 6..=8u8 {
        let white = d.luna_board.level(level as u32).unwrap().start_helium_step;
        let mut seen = 0;
        for seed in 0..40u64 {
            let s = new_game(&luna_options(1, level, seed));
            let token = lunas_token(&s);
            let helium: u32 = d.research.starting_tokens[token]
                .start_bonus
                .iter()
                .filter(|b| b.track == "tank")
                .map(|b| b.n)
                .sum();
            if helium == 0 {
                continue;
            }
            seen += 1;
            assert_eq!(
                s.seats[luna_seat(&s)].tank as u32,
                white,
                "level {level} seed {seed}: token helium {helium}"
            );
            // The same seed at level 5 gives her the same token, and its helium moves her.
            let s5 = new_game(&luna_options(1, 5, seed));
            assert_eq!(lunas_token(&s5), token);
            assert_eq!(s5.seats[luna_seat(&s5)].tank as u32, helium);
        }
        assert!(
            seen > 0,
            "level {level}: some seed gives her a token with helium"
        );
    }
}

#[test]
fn level_0_never_switches_on_slots_a_and_e_level_1_does() {
    for (level, on) in [(0u8, false), (1, true)] {
        let mut s = position_with(&luna_options(2, level, 11));
        let l = luna_seat(&s);
        s.seats[l].tank = 7;
        play(&mut s, "I-12", D); // helium +2: passes step 8
        assert_eq!(s.seats[l].tank, 9);
        assert_eq!(s.seats[l].slot_on[A], on, "level {level}: slot a");
        luna_mut(&mut s).slots = [None; 5];
        s.seats[l].upload = Some(3);
        play(&mut s, "I-4", B); // research +1: reaches step 4
        assert_eq!(s.seats[l].upload, Some(4));
        assert_eq!(s.seats[l].slot_on[E], on, "level {level}: slot e");
    }
}

#[test]
fn level_3_tokens_from_setup_fire_once_and_an_empty_grade_2_stack_adds_nothing() {
    let mut s = position_with(&luna_options(2, 3, 11));
    let l = luna_seat(&s);
    assert_eq!(luna(&s).helium_tokens, vec![11, 19]);
    s.seats[l].tank = 10;
    let deck = luna(&s).deck.clone();
    let top2 = *luna(&s).grade2.last().unwrap();
    play(&mut s, "I-12", D); // 10 → 12 passes the token on 11
    assert_eq!(luna(&s).deck.len(), deck.len() + 1);
    assert_eq!(luna(&s).deck.last(), Some(&top2));
    assert_eq!(luna(&s).helium_tokens, vec![19]);
    // Tank 17 → 19 reaches the second token, but the grade-2 stack is empty.
    luna_mut(&mut s).slots = [None; 5];
    luna_mut(&mut s).grade2.clear();
    s.seats[l].tank = 17;
    let deck = luna(&s).deck.clone();
    play(&mut s, "I-12", D);
    assert_eq!(s.seats[l].tank, 19);
    assert_eq!(luna(&s).deck, deck, "nothing to add");
    assert!(luna(&s).helium_tokens.is_empty());
}

#[test]
fn helium_and_research_stop_at_their_final_space_and_pay_2_per_step_beyond() {
    let mut s = position(2);
    let l = luna_seat(&s);
    s.seats[l].tank = 26;
    play(&mut s, "II-6", B); // +3 coins, helium +4: 2 steps to 28, 2 beyond
    assert_eq!(s.seats[l].tank, 28);
    assert_eq!(s.seats[l].coins, 3 + 4);
    luna_mut(&mut s).slots = [None; 5];
    s.seats[l].coins = 0;
    s.seats[l].upload = Some(14);
    play(&mut s, "II-4", B); // +3 coins, research +2: 1 step to 15, 1 beyond
    assert_eq!(s.seats[l].upload, Some(15));
    assert_eq!(s.seats[l].coins, 3 + 2);
}

// ------------------------------------------------------------------------------------------
// the deck and the Planning phase

/// A solo position in the Planning phase: seat 0 has not planned yet (empty hand), Luna's deck
/// is `deck` (top first) and her discard pile `discard`; her tokens are removed.
fn planning(level: u8, deck_top_first: &[u8], discard: &[u8]) -> GameState {
    let mut s = position_with(&luna_options(1, level, 5));
    s.phase = Phase::Planning;
    s.agenda.clear();
    s.active = None;
    s.seats[0].planned = false;
    let l = luna_mut(&mut s);
    l.deck = deck_top_first.iter().rev().copied().collect();
    l.discard = discard.to_vec();
    l.helium_tokens.clear();
    l.research_tokens.clear();
    s
}

#[test]
fn planning_deals_one_card_per_on_slot_left_to_right_then_two_majority_cards_with_reveals() {
    let order = ["I-2", "I-3", "I-6", "I-7", "I-4", "II-1", "I-9"];
    let cards: Vec<u8> = order.iter().map(|c| lc(c)).collect();
    let mut s = planning(2, &cards, &[]);
    let l = luna_seat(&s);
    s.seats[l].slot_on[A] = true; // a, b, c, d are ON, e is OFF
    act(&mut s, 0, Decision::PlanDone);
    assert_eq!(s.phase, Phase::Action);
    let luna = luna(&s);
    let down = |c: u8| {
        Some(LunaSlot {
            card: c,
            face_up: false,
        })
    };
    assert_eq!(
        luna.slots,
        [
            down(cards[0]),
            down(cards[1]),
            down(cards[2]),
            down(cards[3]),
            None
        ]
    );
    assert_eq!(luna.majority, [Some(cards[4]), Some(cards[5])]);
    assert_eq!(luna.deck, vec![cards[6]]);
    // I-4 shows helium +2, II-1 research +1; their action sections are ignored.
    assert_eq!(s.seats[l].tank, 2);
    assert_eq!(s.seats[l].upload, Some(1));
    assert_eq!(s.seats[l].coins, 0);
    assert_eq!(s.agenda, vec![Task::ChooseAction { seat: 0 }]);
}

#[test]
fn a_reveal_icon_switching_a_slot_on_does_not_fill_it_this_round() {
    let order = ["I-2", "I-3", "I-6", "I-4", "I-12", "I-9", "I-10"];
    let cards: Vec<u8> = order.iter().map(|c| lc(c)).collect();
    let mut s = planning(2, &cards, &[]);
    let l = luna_seat(&s);
    s.seats[l].tank = 6;
    act(&mut s, 0, Decision::PlanDone);
    assert_eq!(s.seats[l].tank, 10, "two helium reveals");
    assert!(s.seats[l].slot_on[A]);
    assert_eq!(
        luna(&s).slots[A],
        None,
        "slot a is used from the next round"
    );
    assert_eq!(luna(&s).deck.len(), 2);
}

#[test]
fn an_empty_deck_is_rebuilt_from_the_discard_pile_plus_one_grade_2_card_at_levels_2_to_8() {
    let deck = [lc("I-1"), lc("I-2")];
    let discard = [lc("I-3"), lc("I-5"), lc("I-6"), lc("I-7")];
    for level in 0..=8u8 {
        let mut s = planning(level, &deck, &discard);
        let grade2 = luna(&s).grade2.clone();
        act(&mut s, 0, Decision::PlanDone);
        let luna = luna(&s);
        // The deck's two cards go into slots b and c, then the deck is rebuilt.
        assert_eq!(luna.slots[B].map(|x| x.card), Some(deck[0]));
        assert_eq!(luna.slots[C].map(|x| x.card), Some(deck[1]));
        assert!(luna.discard.is_empty());
        let mut now: Vec<u8> = luna.deck.clone();
        now.extend(luna.slots.iter().flatten().map(|x| x.card));
        now.extend(luna.majority.iter().flatten());
        now.sort();
        let mut expect: Vec<u8> = deck.iter().chain(discard.iter()).copied().collect();
        if level >= 2 {
            expect.push(*grade2.last().unwrap());
            assert_eq!(luna.grade2, grade2[..grade2.len() - 1].to_vec());
        } else {
            assert!(luna.grade2.is_empty());
        }
        expect.sort();
        assert_eq!(now, expect, "level {level}");
    }
}

/// The issue-16 deck at level 3 (Luna tokens on tank steps 11 and 19): her tank on step 9, her
/// deck from the top `deck`, her discard pile `discard`, and her grade-2 stack topped by II-5
/// with II-3 under it. Slots b, c, d are ON.
fn token_planning(deck: &[&str], discard: &[&str], engine_version: u32) -> GameState {
    let deck: Vec<u8> = deck.iter().map(|c| lc(c)).collect();
    let discard: Vec<u8> = discard.iter().map(|c| lc(c)).collect();
    let mut s = planning(3, &deck, &discard);
    s.engine_version = engine_version;
    let l = luna_seat(&s);
    s.seats[l].tank = 9;
    let luna = luna_mut(&mut s);
    luna.helium_tokens = data().luna_board.level(3).unwrap().helium_tokens.clone();
    assert_eq!(luna.helium_tokens, vec![11, 19]);
    let mut grade2: Vec<u8> = grade(2)
        .into_iter()
        .filter(|&c| c != lc("II-5") && c != lc("II-3"))
        .collect();
    grade2.extend([lc("II-3"), lc("II-5")]);
    luna.grade2 = grade2;
    s
}

/// DECISIONS A15 (booklet, Planning step b): both majority cards are drawn and turned up before
/// the reveal icons are carried out, so the grade-2 card a reveal's Luna token adds stays on top
/// of the deck for the next draw.
#[test]
fn both_majority_cards_are_drawn_before_their_reveals_so_a_token_card_stays_on_the_deck() {
    let deck = ["I-2", "I-3", "I-6", "I-4", "I-9", "I-10"];
    let mut s = token_planning(&deck, &[], engine::ENGINE_VERSION);
    let l = luna_seat(&s);
    act(&mut s, 0, Decision::PlanDone);
    assert_eq!(s.phase, Phase::Action);
    let cards = |ids: &[&str]| ids.iter().map(|c| lc(c)).collect::<Vec<u8>>();
    let luna = luna(&s);
    assert_eq!(
        luna.slots.map(|x| x.map(|x| x.card)),
        [
            None,
            Some(lc("I-2")),
            Some(lc("I-3")),
            Some(lc("I-6")),
            None
        ]
    );
    assert_eq!(luna.majority, [Some(lc("I-4")), Some(lc("I-9"))]);
    // I-4's helium +2 reaches the token on step 11: II-5 goes on top, above I-10.
    assert_eq!(
        luna.deck,
        cards(&["I-10", "II-5"]),
        "II-5 on top of the deck"
    );
    assert_eq!(luna.helium_tokens, vec![19]);
    assert_eq!(luna.grade2.last(), Some(&lc("II-3")));
    assert_eq!(s.seats[l].tank, 11, "I-9 has no reveal icon");
}

/// A game stored under engine version 1 keeps the order it was played with (DECISIONS B18):
/// the left card's reveal came before the right card's draw.
#[test]
fn under_engine_version_1_the_right_majority_card_is_drawn_after_the_left_reveal() {
    let deck = ["I-2", "I-3", "I-6", "I-4", "I-9", "I-10"];
    let mut s = token_planning(&deck, &[], 1);
    let l = luna_seat(&s);
    act(&mut s, 0, Decision::PlanDone);
    let luna = luna(&s);
    assert_eq!(luna.majority, [Some(lc("I-4")), Some(lc("II-5"))]);
    assert_eq!(luna.deck, vec![lc("I-10"), lc("I-9")], "I-9 left on top");
    assert_eq!(s.seats[l].tank, 13, "II-5's reveal moves her too");
    assert_eq!(s.engine_version, 1, "the state keeps its version");
}

/// The left reveal reaches a Luna token while the deck is empty: the right card is drawn first,
/// from the deck rebuilt out of the discard pile plus one grade-2 card (II-5); the token's
/// grade-2 card (II-3) then goes on top of the rebuilt deck.
#[test]
fn with_the_deck_empty_the_right_card_comes_from_the_rebuilt_deck_before_the_token_card() {
    let deck = ["I-2", "I-3", "I-6", "I-4"];
    let discard = ["I-9", "I-10", "I-12"];
    let mut s = token_planning(&deck, &discard, engine::ENGINE_VERSION);
    act(&mut s, 0, Decision::PlanDone);
    let now = luna(&s);
    assert_eq!(now.majority[0], Some(lc("I-4")));
    let right = now.majority[1].expect("a right majority card");
    let rebuilt = [lc("I-9"), lc("I-10"), lc("I-12"), lc("II-5")];
    assert!(
        rebuilt.contains(&right),
        "the right card comes from the rebuilt deck"
    );
    assert!(
        now.discard.is_empty(),
        "the discard pile was turned into the deck"
    );
    assert_eq!(
        now.deck.len(),
        4,
        "3 rebuilt cards left plus the token's card"
    );
    assert_eq!(
        now.deck.last(),
        Some(&lc("II-3")),
        "the token's card on top"
    );
    let mut all: Vec<u8> = now.deck.iter().copied().chain([right]).collect();
    all.sort();
    let mut want: Vec<u8> = rebuilt.iter().copied().chain([lc("II-3")]).collect();
    want.sort();
    assert_eq!(all, want);
    assert!(!now.grade2.contains(&lc("II-5")) && !now.grade2.contains(&lc("II-3")));

    // Engine version 1: the token's card was drawn at once and the deck not rebuilt.
    let mut old = token_planning(&deck, &discard, 1);
    act(&mut old, 0, Decision::PlanDone);
    let was = luna(&old);
    assert_eq!(was.majority, [Some(lc("I-4")), Some(lc("II-5"))]);
    assert!(was.deck.is_empty());
    assert_eq!(was.discard.len(), 3, "no rebuild");
    assert_eq!(was.grade2.last(), Some(&lc("II-3")));
}

// ------------------------------------------------------------------------------------------
// majority blocking

/// Luna's majority cards `left`, `right`; seat 0 has `cards` face up. Whether seat 0 may place
/// on `space`; a refusal must name Luna.
fn may_take_majority(left: &str, right: &str, cards: &[&str], space: &str) -> bool {
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc(left)), Some(lc(right))];
    for (i, c) in cards.iter().enumerate() {
        s.seats[0].slots[i] = Some(SlotCard::Up(card(c)));
    }
    let d = Decision::PlaceBonus {
        space: BonusRef::Board(bonus_space(space) as u8),
    };
    let legal = engine::legal_decisions(data(), &s, 0).contains(&d);
    match engine::apply(data(), &mut s.clone(), 0, d) {
        Ok(_) => assert!(legal),
        Err(RuleError::Illegal(m)) => {
            assert!(!legal);
            assert!(m.to_string().contains("Luna"), "{m}");
        }
        Err(e) => panic!("unexpected refusal {e}"),
    }
    legal
}

#[test]
fn titanium_majority_compares_with_the_left_cards_left_value() {
    // I-2 in the left slot: titanium 4.
    assert!(!may_take_majority(
        "I-2",
        "I-7",
        &["B06"],
        "majority_titanium"
    ));
    assert!(may_take_majority(
        "I-2",
        "I-7",
        &["C05"],
        "majority_titanium"
    ));
    assert!(may_take_majority(
        "I-2",
        "I-7",
        &["C05", "A05"],
        "majority_titanium"
    ));
}

#[test]
fn carbon_majority_compares_with_the_left_cards_right_value() {
    // I-1 in the left slot: carbon 3 (titanium 0).
    assert!(!may_take_majority(
        "I-1",
        "I-2",
        &["A01"],
        "majority_carbon"
    ));
    assert!(may_take_majority("I-1", "I-2", &["B01"], "majority_carbon"));
    assert!(may_take_majority(
        "I-1",
        "I-2",
        &["A05"],
        "majority_titanium"
    ));
}

#[test]
fn energy_majority_compares_with_the_right_cards_left_value() {
    // II-3 in the right slot: energy 3.
    assert!(!may_take_majority(
        "I-2",
        "II-3",
        &["A07"],
        "majority_energy"
    ));
    assert!(may_take_majority(
        "I-2",
        "II-3",
        &["B08"],
        "majority_energy"
    ));
}

#[test]
fn minerals_majority_compares_with_the_right_cards_right_value() {
    // II-3 in the right slot: minerals 6.
    assert!(!may_take_majority(
        "I-2",
        "II-3",
        &["C03", "diamond-minerals1"],
        "majority_minerals"
    ));
    assert!(may_take_majority(
        "I-2",
        "II-3",
        &["C03", "A03"],
        "majority_minerals"
    ));
}

#[test]
fn scientist_majority_compares_research_scientists_with_both_cards_icons() {
    // I-1 (1 icon) + II-3 (2 icons) = 3.
    assert!(!may_take_majority(
        "I-1",
        "II-3",
        &["A08", "B11"],
        "majority_scientist"
    ));
    assert!(may_take_majority(
        "I-1",
        "II-3",
        &["A08", "B11", "B13"],
        "majority_scientist"
    ));
}

#[test]
fn an_empty_majority_slot_blocks_nothing() {
    let mut s = position(2);
    luna_mut(&mut s).majority = [None, Some(lc("II-3"))];
    s.seats[0].slots[0] = Some(SlotCard::Up(card("star-titanium1")));
    let d = Decision::PlaceBonus {
        space: BonusRef::Board(bonus_space("majority_titanium") as u8),
    };
    assert!(engine::legal_decisions(data(), &s, 0).contains(&d));
    let e = Decision::PlaceBonus {
        space: BonusRef::Board(bonus_space("majority_energy") as u8),
    };
    s.seats[0].slots[1] = Some(SlotCard::Up(card("A07")));
    assert!(!engine::legal_decisions(data(), &s, 0).contains(&e));
}

// ------------------------------------------------------------------------------------------
// the end of her phase, Preparation

/// Luna's only card `last` in slot d, majority cards I-9 (left) and I-10 (right): after her
/// turn, her discard pile and majority slots.
fn after_last_card(last: &str) -> GameState {
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    luna_mut(&mut s).discard = vec![lc("I-11")];
    lay(&mut s, D, lc(last));
    luna_turn(&mut s);
    let l = luna_seat(&s);
    assert!(
        s.seats[l].dropped_out,
        "she drops out after her rightmost card"
    );
    assert_eq!(luna(&s).slots, [None; 5]);
    assert_eq!(s.agenda, vec![Task::ChooseAction { seat: 0 }]);
    s
}

#[test]
fn left_value_larger_on_the_top_card_removes_the_left_majority_card() {
    let s = after_last_card("I-2"); // 4 / 0
    assert_eq!(luna(&s).discard, vec![lc("I-11"), lc("I-2"), lc("I-9")]);
    assert_eq!(luna(&s).majority, [None, Some(lc("I-10"))]);
}

#[test]
fn right_value_larger_on_the_top_card_removes_the_right_majority_card() {
    let s = after_last_card("I-7"); // 0 / 4
    assert_eq!(luna(&s).discard, vec![lc("I-11"), lc("I-7"), lc("I-10")]);
    assert_eq!(luna(&s).majority, [Some(lc("I-9")), None]);
}

#[test]
fn equal_values_on_the_top_card_remove_neither_majority_card() {
    let s = after_last_card("I-5"); // 3 / 3
    assert_eq!(luna(&s).discard, vec![lc("I-11"), lc("I-5")]);
    assert_eq!(luna(&s).majority, [Some(lc("I-9")), Some(lc("I-10"))]);
    // The remaining majority cards keep blocking (I-9 left: carbon 3).
    let mut s = s;
    s.seats[0].slots[0] = Some(SlotCard::Up(card("A01")));
    let d = Decision::PlaceBonus {
        space: BonusRef::Board(bonus_space("majority_carbon") as u8),
    };
    assert!(!engine::legal_decisions(data(), &s, 0).contains(&d));
}

#[test]
fn a_full_round_her_cards_go_to_the_discard_pile_and_preparation_takes_her_majority_cards() {
    let mut s = position(2);
    let l = luna_seat(&s);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    let played = [lc("I-2"), lc("I-3"), lc("I-6")]; // all left > right
    for (i, c) in played.iter().enumerate() {
        lay(&mut s, B + i, *c);
    }
    // Seat 0 (first player) drops out, seat 1 drops out: Luna plays b.
    act(&mut s, 0, Decision::DropOut);
    assert_eq!(s.agenda, vec![Task::ChooseAction { seat: 1 }]);
    assert_eq!(luna(&s).slots[B].map(|x| x.face_up), Some(false));
    act(&mut s, 1, Decision::DropOut);
    // Everyone else is out: Luna plays her remaining cards in a row, then the round ends.
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.round, 2);
    let luna = luna(&s);
    assert_eq!(luna.majority, [None, None]);
    assert_eq!(luna.slots, [None; 5]);
    let n = luna.discard.len();
    assert_eq!(n, 5);
    let mut first: Vec<u8> = luna.discard[..3].to_vec();
    first.sort();
    let mut expect = played.to_vec();
    expect.sort();
    assert_eq!(first, expect, "the round's cards, shuffled");
    assert_eq!(
        luna.discard[3..].to_vec(),
        vec![lc("I-9"), lc("I-10")],
        "left majority card at the end of her phase, right one in Preparation"
    );
    assert!(!s.seats[l].dropped_out);
    assert!(s.seats[l].planned);
}

#[test]
fn preparation_returns_her_markers_but_gives_her_no_bonus_tile() {
    let mut s = position(2);
    let l = luna_seat(&s);
    lay(&mut s, D, lc("I-3")); // slot d: marker on the research scientist tile space
    luna_turn(&mut s);
    let tile_space = bonus_space("tile_research_scientist");
    assert_eq!(s.bonus_spaces[tile_space], marker_of(l));
    assert_eq!(s.seats[l].markers_reserve, 4);
    // A human's marker on another tile space, for comparison.
    s.bonus_spaces[bonus_space("tile_energy")] = marker_of(0);
    s.seats[0].markers_reserve -= 1;
    act(&mut s, 0, Decision::DropOut);
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.seats[l].markers_reserve, 5);
    assert!(s.bonus_spaces.iter().all(|b| b.is_none()));
    assert_eq!(
        s.tile(TileKind::ResearchScientist),
        TileState::Supply,
        "Luna gets no bonus tiles"
    );
    assert!(matches!(
        s.tile(TileKind::Energy),
        TileState::Held { seat: 0, .. }
    ));
}

// ------------------------------------------------------------------------------------------
// seating and turn order

#[test]
fn her_turn_comes_right_after_the_seat_on_her_right_whoever_is_first_player() {
    for first in [0usize, 1] {
        let cards: Vec<u8> = ["I-2", "I-3", "I-5", "I-9", "I-10", "I-11"]
            .iter()
            .map(|c| lc(c))
            .collect();
        let mut s = position(2);
        s.phase = Phase::Planning;
        s.agenda.clear();
        s.first_player = first;
        s.next_first_player = first;
        for h in 0..2 {
            s.seats[h].planned = false;
        }
        luna_mut(&mut s).deck = cards.iter().rev().copied().collect();
        act(&mut s, 0, Decision::PlanDone);
        act(&mut s, 1, Decision::PlanDone);
        assert_eq!(s.agenda, vec![Task::ChooseAction { seat: first }]);
        let face_up = |s: &GameState| luna(s).slots.iter().flatten().filter(|x| x.face_up).count();
        if first == 0 {
            act(&mut s, 0, Decision::DropOut);
            assert_eq!(face_up(&s), 0, "seat 1 is next, not Luna");
            assert_eq!(s.agenda, vec![Task::ChooseAction { seat: 1 }]);
            act(&mut s, 1, Decision::DropOut);
            // Luna right after seat 1, then alone to the end of the round.
            assert_eq!(s.round, 2);
            let mut discard = luna(&s).discard[..3].to_vec();
            discard.sort();
            let mut expect = cards[..3].to_vec();
            expect.sort();
            assert_eq!(discard, expect);
        } else {
            act(&mut s, 1, Decision::DropOut);
            assert_eq!(face_up(&s), 1, "Luna right after seat 1");
            assert_eq!(luna(&s).slots[B].map(|x| x.face_up), Some(true));
            assert_eq!(s.agenda, vec![Task::ChooseAction { seat: 0 }]);
        }
    }
}

#[test]
fn no_luna_card_places_a_marker_on_the_first_player_space() {
    let d = data();
    for card in &d.luna_cards.cards {
        for action in &card.actions {
            if let skymines::data::luna::LunaAction::PlaceBonusMarker { cell_by_slot, .. } = action
            {
                for [row, col] in cell_by_slot.values() {
                    let id = &d.board.bonus_area.grid[*row][*col];
                    assert_ne!(id, "first_player", "card {}", card.id);
                    assert!(!id.starts_with("majority"), "card {}", card.id);
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// company tracks: barriers, thresholds, track bonuses

/// A position where Tawac is the second most valuable company (Astrogo and Tawac worth 1 each:
/// Astrogo (C1) first, Tawac (D1) second), the display is empty and Luna stands on space `at` of
/// the Tawac track with `coins`. Returns it and Luna's seat.
fn tawac_second(at: u8, coins: u32) -> (GameState, usize) {
    let mut s = position(2);
    let l = luna_seat(&s);
    s.display = [None; 12];
    station(&mut s, Astrogo, [5, 5, 4]);
    station(&mut s, Tawac, [5, 5, 4]);
    tracks(&mut s, l, [0, 0, 0, at]);
    s.seats[l].coins = coins;
    (s, l)
}

#[test]
fn a_money_barrier_she_cannot_pay_in_full_takes_what_she_has_and_she_keeps_moving() {
    let (mut s, l) = tawac_second(14, 1);
    play(&mut s, "I-2", B); // 2 on the second most valuable (Tawac); barrier 2 after 14
    assert_eq!(pos(&s, l, Tawac), 16);
    assert_eq!(s.seats[l].coins, 0, "she paid the 1 coin she had");
    assert!(
        luna(&s).reserve_cards.is_empty(),
        "empty display spaces give nothing"
    );
    // With no coin at all she still moves on.
    luna_mut(&mut s).slots = [None; 5];
    tracks(&mut s, l, [0, 0, 0, 6]);
    play(&mut s, "I-2", B); // barrier 1 after 7
    assert_eq!(pos(&s, l, Tawac), 8);
    assert_eq!(s.seats[l].coins, 0);
}

#[test]
fn thresholds_pay_her_but_her_track_bonuses_are_ignored() {
    let mut s = position(2);
    let l = luna_seat(&s);
    tracks(&mut s, l, [3, 10, 4, 4]);
    tracks(&mut s, 0, [0, 13, 0, 0]);
    play(&mut s, "II-2", B); // 3 on every track
                             // Thresholds: Skymine after 4 (1), Minerva after 12 (2; seat 0 is past it too), Astrogo
                             // after 5 (1), Tawac after 5 (2); no barrier is crossed.
    assert_eq!(s.seats[l].track_pos, [6, 13, 7, 7]);
    assert_eq!(s.seats[l].coins, 1 + 2 + 1 + 2);
    assert_eq!(s.seats[0].coins, 2);
    assert_eq!(s.seats[l].bonus_active | s.seats[l].bonus_pending, 0);
    // A human passing a threshold Luna passed pays her too.
    s.seats[l].dropped_out = true;
    s.seats[1].dropped_out = false;
    s.seats[1].track_pos = [4, 0, 0, 0];
    s.agenda = vec![Task::ChooseAction { seat: 1 }];
    s.active = Some(1);
    let before = s.seats[l].coins;
    s.seats[1].slots[0] = Some(SlotCard::Up(card("A01"))); // 2 carbon
    act(
        &mut s,
        1,
        Decision::UseResources {
            resource: Some(skymines::data::Resource::Carbon),
        },
    );
    // Select the card (if asked), then spend: buy nothing, one step on Skymine.
    while let Some(task) = s.agenda.last().cloned() {
        match task {
            Task::SelectResources { .. } => {
                act(&mut s, 1, Decision::FinishSelecting);
            }
            Task::BuyWithUnits { .. } => {
                act(&mut s, 1, Decision::NoBuy);
            }
            Task::SpendUnits { .. } => {
                act(&mut s, 1, Decision::TrackStep { company: Skymine });
            }
            _ => break,
        }
    }
    assert_eq!(pos(&s, 1, Skymine), 6);
    assert_eq!(
        s.seats[l].coins,
        before + 1,
        "Luna is past Skymine's first threshold"
    );
}

// ------------------------------------------------------------------------------------------
// selection rules: company value, lead margin

/// The company Luna advanced with I-3 (2 on the most valuable track).
fn most_valuable(mut s: GameState) -> Company {
    let l = luna_seat(&s);
    play(&mut s, "I-3", B);
    let moved: Vec<Company> = Company::ALL
        .into_iter()
        .filter(|c| pos(&s, l, *c) == 2)
        .collect();
    assert_eq!(moved.len(), 1);
    moved[0]
}

#[test]
fn value_is_visible_coins_first() {
    let mut s = position(2);
    station(&mut s, Minerva, [5, 5, 4]); // 1 coin
    assert_eq!(most_valuable(s), Minerva);
    let mut s = position(2);
    station(&mut s, Tawac, [4, 4, 5]); // 0 coins, 2 vacant
    station(&mut s, Astrogo, [5, 5, 4]); // 1 coin, 1 vacant
    assert_eq!(most_valuable(s), Astrogo);
}

#[test]
fn equal_value_goes_to_more_vacant_home_spaces() {
    let mut s = position(2);
    station(&mut s, Tawac, [4, 5, 5]); // 0 coins, 1 vacant
    assert_eq!(most_valuable(s), Tawac);
    let mut s = position(2);
    station(&mut s, Tawac, [3, 5, 5]); // 1 coin, 2 vacant
    station(&mut s, Astrogo, [5, 5, 4]); // 1 coin, 1 vacant
    assert_eq!(most_valuable(s), Tawac);
}

#[test]
fn then_the_track_id_that_comes_first_alphabetically() {
    let s = position_with_tracks(2, ["E1", "D1", "B1", "A2"]);
    assert_eq!(most_valuable(s), Tawac, "A2");
    let mut s = position_with_tracks(2, ["E1", "D1", "B1", "A2"]);
    let l = luna_seat(&s);
    s.display = [None; 12];
    play(&mut s, "I-2", B); // second most valuable
    assert_eq!(s.seats[l].track_pos, [0, 0, 2, 0], "B1 (Astrogo)");
    let mut s = position_with_tracks(2, ["E1", "D1", "B1", "A2"]);
    play(&mut s, "I-10", D); // least valuable, 3 steps
    assert_eq!(s.seats[l].track_pos, [3, 0, 0, 0], "E1 (Skymine)");
}

/// The company Luna advanced with I-6 (2 on the track where she leads by the biggest margin).
fn lead_track(mut s: GameState) -> Company {
    let l = luna_seat(&s);
    let before = s.seats[l].track_pos;
    play(&mut s, "I-6", B);
    let moved: Vec<Company> = Company::ALL
        .into_iter()
        .filter(|c| pos(&s, l, *c) == before[c.index()] + 2)
        .collect();
    assert_eq!(moved.len(), 1);
    moved[0]
}

#[test]
fn lead_margin_counts_from_the_second_placed_marker() {
    let mut s = position(2);
    tracks(&mut s, 2, [6, 3, 0, 0]);
    tracks(&mut s, 0, [5, 0, 0, 0]);
    tracks(&mut s, 1, [0, 1, 0, 0]);
    assert_eq!(lead_track(s), Minerva, "Minerva +2 beats Skymine +1");
}

#[test]
fn leading_nowhere_a_shared_lead_beats_being_behind() {
    let mut s = position(2);
    tracks(&mut s, 2, [0, 2, 3, 0]);
    tracks(&mut s, 0, [1, 3, 3, 4]);
    assert_eq!(lead_track(s), Astrogo);
}

#[test]
fn behind_everywhere_the_fewest_behind_and_ties_go_to_the_more_valuable() {
    let mut s = position(2);
    tracks(&mut s, 0, [5, 2, 4, 3]);
    assert_eq!(lead_track(s), Minerva, "2 behind");
    let mut s = position(2);
    tracks(&mut s, 2, [2, 0, 0, 2]);
    tracks(&mut s, 0, [0, 1, 1, 0]);
    station(&mut s, Tawac, [5, 5, 4]);
    assert_eq!(lead_track(s), Tawac, "equal leads: the more valuable");
    let mut s = position(2);
    tracks(&mut s, 2, [2, 0, 0, 2]);
    tracks(&mut s, 0, [0, 1, 1, 0]);
    assert_eq!(lead_track(s), Skymine, "equal leads and values: A1 first");
}

#[test]
fn two_biggest_leads_take_the_first_two_of_the_lead_order() {
    let mut s = position(2);
    let l = luna_seat(&s);
    tracks(&mut s, l, [1, 4, 0, 3]);
    tracks(&mut s, 0, [0, 0, 2, 0]);
    // Margins: Skymine +1, Minerva +4, Astrogo -2, Tawac +3.
    play(&mut s, "II-7", B);
    assert_eq!(s.seats[l].track_pos, [1, 6, 0, 5]);
    assert_eq!(sectors_of(&s, Minerva).len(), 2);
    assert_eq!(sectors_of(&s, Tawac).len(), 2);
}

// ------------------------------------------------------------------------------------------
// expansion: ousting, farthest behind, forfeits, main outpost column

/// Skymine (Luna leads it by `lead`) with one outpost left expands with `card` (I-6 MIN or
/// I-7 MAX): every sector it touches (6, 10 Minerva; 15, 20 Astrogo) is taken, so she ousts;
/// the second expansion point is forfeited (station empty).
fn oust(
    card_id: &str,
    minerva_margin: i8,
    astrogo_margin: i8,
    setup: impl Fn(&mut GameState),
) -> GameState {
    let mut s = position(2);
    let l = luna_seat(&s);
    station(&mut s, Skymine, [1, 0, 0]);
    occupy(&mut s, Minerva, &[6, 10]);
    occupy(&mut s, Astrogo, &[15, 20]);
    let place = |m: i8| -> (u8, u8) {
        if m >= 0 {
            (5 + m as u8, 5)
        } else {
            (5, 5 + (-m) as u8)
        }
    };
    let (lm, hm) = place(minerva_margin);
    let (la, ha) = place(astrogo_margin);
    tracks(&mut s, l, [12, lm, la, 5]);
    tracks(&mut s, 0, [0, hm, ha, 5]);
    setup(&mut s);
    play(&mut s, card_id, B);
    assert_eq!(pos(&s, l, Skymine), 14);
    assert_eq!(outposts(&s, Skymine), [0, 0, 0]);
    assert_eq!(
        sectors_of(&s, Skymine).len(),
        1,
        "the second point is forfeited"
    );
    s
}

#[test]
fn with_no_vacant_sector_she_ousts_the_company_she_is_farthest_behind_on() {
    let s = oust("I-6", -2, -4, |s| station(s, Astrogo, [4, 5, 3]));
    assert_eq!(sectors_of(&s, Skymine), vec![15], "MIN Astrogo sector");
    assert_eq!(sectors_of(&s, Astrogo), vec![20]);
    // Back to the lowest vacant space of Astrogo's main column (column 3: most vacant).
    assert_eq!(outposts(&s, Astrogo), [4, 5, 4]);
    assert_eq!(sectors_of(&s, Minerva), vec![6, 10]);
    let s = oust("I-7", -4, -2, |_| {});
    assert_eq!(sectors_of(&s, Skymine), vec![10], "MAX Minerva sector");
    assert_eq!(sectors_of(&s, Minerva), vec![6]);
}

#[test]
fn behind_nowhere_the_shared_lead_or_smallest_lead_is_farthest_behind() {
    let s = oust("I-7", 0, 1, |s| station(s, Minerva, [5, 3, 4]));
    assert_eq!(sectors_of(&s, Skymine), vec![10]);
    assert_eq!(
        outposts(&s, Minerva),
        [5, 4, 4],
        "main column 2 (most vacant)"
    );
    let s = oust("I-6", 3, 1, |_| {});
    assert_eq!(
        sectors_of(&s, Skymine),
        vec![15],
        "Astrogo: the smaller lead"
    );
}

#[test]
fn equally_far_behind_the_more_valuable_company_is_ousted() {
    let s = oust("I-7", -2, -2, |s| station(s, Astrogo, [5, 5, 4]));
    assert_eq!(sectors_of(&s, Skymine), vec![20]);
    let s = oust("I-7", -2, -2, |_| {});
    assert_eq!(
        sectors_of(&s, Skymine),
        vec![10],
        "equal values: B1 (Minerva) first"
    );
}

#[test]
fn an_empty_station_forfeits_every_expansion_point() {
    let mut s = position(2);
    let l = luna_seat(&s);
    tracks(&mut s, l, [0, 0, 0, 3]);
    station(&mut s, Tawac, [0, 0, 0]);
    play(&mut s, "I-7", B);
    assert_eq!(pos(&s, l, Tawac), 5, "she still advances");
    assert!(s.sectors.iter().all(|x| x.is_none()));
}

/// Tawac expands 2 (I-6, MIN) from a station with these columns; Luna leads on Tawac.
fn tawac_takes_from(columns: [Column; 3]) -> [Column; 3] {
    let mut s = position(2);
    let l = luna_seat(&s);
    tracks(&mut s, l, [0, 0, 0, 3]);
    s.stations[Tawac.index()] = columns;
    play(&mut s, "I-6", B);
    assert_eq!(sectors_of(&s, Tawac), vec![1, 2]);
    s.stations[Tawac.index()]
}

fn col(outposts: u8, floor_revealed: bool) -> Column {
    Column {
        outposts,
        floor_revealed,
    }
}

#[test]
fn main_column_most_vacant_among_those_whose_final_space_is_covered() {
    // Column 2 has the most vacant spaces but its final space is vacant: column 1 (2 vacant,
    // final covered) supplies both outposts.
    let after = tawac_takes_from([col(3, false), col(1, true), col(4, false)]);
    assert_eq!(after, [col(1, false), col(1, true), col(4, false)]);
    // Equal vacancy with covered final spaces: the column nearer the logo (column 1 shows 2
    // coins, column 2 only 1: coins do not count here), twice.
    let after = tawac_takes_from([col(2, false), col(2, false), col(5, false)]);
    assert_eq!(after, [col(0, true), col(2, false), col(5, false)]);
}

#[test]
fn main_column_with_every_final_space_vacant_most_vacant_then_fewest_coins() {
    // Columns 1 and 2 each hold 1 outpost (4 vacant), column 3 holds 2 (3 vacant): the two
    // most vacant columns supply the outposts.
    let after = tawac_takes_from([col(1, true), col(1, true), col(2, true)]);
    assert_eq!(after, [col(0, true), col(0, true), col(2, true)]);
}

/// Skymine (one outpost left, Luna leads it) expands with I-6 (MIN) into the sectors it
/// touches (6, 10, 15, 20), all held by Minerva: she ousts Minerva from 6. Minerva's station
/// columns afterwards.
fn minerva_ousted_into(columns: [Column; 3]) -> [Column; 3] {
    let mut s = position(2);
    let l = luna_seat(&s);
    station(&mut s, Skymine, [1, 0, 0]);
    occupy(&mut s, Minerva, &[6, 10, 15, 20]);
    tracks(&mut s, l, [3, 0, 0, 0]);
    s.stations[Minerva.index()] = columns;
    play(&mut s, "I-6", B);
    assert_eq!(sectors_of(&s, Skymine), vec![6]);
    s.stations[Minerva.index()]
}

#[test]
fn an_ousted_outpost_returns_to_the_lowest_vacant_space_of_its_main_column() {
    // Final spaces covered: the most vacant such column (3), not column 2 (final vacant).
    let after = minerva_ousted_into([col(5, false), col(1, true), col(3, false)]);
    assert_eq!(after, [col(5, false), col(1, true), col(4, false)]);
    // Every final space vacant, equal vacancy: fewest coins showing (column 2: 3 < 4 < 5).
    let after = minerva_ousted_into([col(1, true), col(1, true), col(1, true)]);
    assert_eq!(after, [col(1, true), col(2, true), col(1, true)]);
    // An emptied column is the most vacant one and takes the outpost back.
    let after = minerva_ousted_into([col(0, true), col(2, true), col(1, true)]);
    assert_eq!(after, [col(1, true), col(2, true), col(1, true)]);
}

// ------------------------------------------------------------------------------------------
// gaining cards

#[test]
fn most_valuable_share_looks_only_at_displayed_shares_and_none_means_nothing() {
    let mut s = position(2);
    s.display = [None; 12];
    station(&mut s, Skymine, [5, 5, 3]); // most valuable, but no Skymine share displayed
    station(&mut s, Tawac, [5, 5, 4]); // next
    s.display[4] = Some(card("B04")); // Minerva share on space 5
    s.display[10] = Some(card("B02")); // Tawac share on space 11
    s.display[8] = Some(card("C08")); // Tawac share on space 9
    play(&mut s, "I-1", B);
    assert_eq!(
        luna(&s).reserve_cards,
        vec![card("C08")],
        "Tawac, lowest space"
    );
    // No share card on display: nothing.
    let mut s = position(2);
    plain_display(&mut s);
    s.display[0] = None;
    let before = s.display;
    play(&mut s, "I-1", B);
    assert!(luna(&s).reserve_cards.is_empty());
    assert_eq!(s.display, before);
}

// ------------------------------------------------------------------------------------------
// final scoring, privacy

#[test]
fn final_scoring_counts_the_shares_on_the_cards_in_her_reserve() {
    let d = data();
    let mut s = position(1);
    let l = luna_seat(&s);
    station(&mut s, Skymine, [5, 5, 3]); // 2 coins per share
    tracks(&mut s, l, [4, 0, 0, 0]); // 2 shares on the track
    luna_mut(&mut s).reserve_cards = vec![card("A02"), card("D01"), card("A06")];
    s.seats[l].coins = 3;
    s.seats[l].tank = 13;
    s.seats[l].upload = Some(5);
    let scores = engine::final_scores(d, &s);
    let luna = &scores[l];
    let sky = luna
        .companies
        .iter()
        .find(|c| c.company == Skymine)
        .unwrap();
    assert_eq!((sky.shares, sky.share_value, sky.points), (4, 2, 8));
    let astro = luna
        .companies
        .iter()
        .find(|c| c.company == Astrogo)
        .unwrap();
    assert_eq!((astro.shares, astro.points), (1, 0));
    assert_eq!((luna.cash, luna.tank, luna.research), (3, 25, 15));
    assert_eq!(luna.total, 3 + 8 + 25 + 15);
}

#[test]
fn a_humans_view_hides_her_face_down_slot_cards_and_deck_order() {
    let d = data();
    let mut s = position(2);
    lay(&mut s, B, lc("I-2"));
    lay(&mut s, C, lc("I-3"));
    let json = |s: &GameState, seat: Option<usize>| {
        serde_json::to_string(&engine::view(d, s, seat)).expect("the view serializes")
    };
    let (v0, v1, spectator) = (json(&s, Some(0)), json(&s, Some(1)), json(&s, None));
    let mut t = s.clone();
    lay(&mut t, B, lc("II-5"));
    lay(&mut t, C, lc("I-12"));
    luna_mut(&mut t).deck.reverse();
    luna_mut(&mut t).grade2.reverse();
    assert_ne!(luna(&t).deck, luna(&s).deck);
    assert_eq!(json(&t, Some(0)), v0);
    assert_eq!(json(&t, Some(1)), v1);
    assert_eq!(json(&t, None), spectator);
    // A face-up card is public.
    luna_mut(&mut t).slots[B] = Some(LunaSlot {
        card: lc("II-5"),
        face_up: true,
    });
    assert_ne!(json(&t, Some(0)), v0);
}

// ------------------------------------------------------------------------------------------
// the public lines that explain her moves

/// The English lines of the events.
fn lines(events: &[engine::Event]) -> Vec<String> {
    events.iter().map(|e| e.text()).collect()
}

#[track_caller]
fn has(events: &[engine::Event], line: &str) {
    let all = lines(events);
    assert!(
        all.iter().any(|l| l == line),
        "no line {line:?} in {all:#?}"
    );
}

/// The German rendering of the first event with `key`.
pub(crate) fn german(events: &[engine::Event], key: &str) -> String {
    let e = events
        .iter()
        .find(|e| e.key == key)
        .unwrap_or_else(|| panic!("no {key}"));
    e.render(skymines::text::german())
}

#[test]
fn an_equal_end_of_phase_comparison_is_announced_and_removes_nothing() {
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    lay(&mut s, D, lc("I-5")); // majority values 3 and 3
    let events = luna_turn(&mut s);
    has(
        &events,
        "The top card of Luna's discard pile shows 3 and 3: equal, so both her majority cards stay",
    );
    assert_eq!(luna(&s).majority, [Some(lc("I-9")), Some(lc("I-10"))]);
    assert!(german(&events, "event.luna_majority_equal").contains("gleich"));
    // An unequal one names the values and the side.
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    lay(&mut s, D, lc("I-2")); // 4 and 0
    let events = luna_turn(&mut s);
    has(
        &events,
        "The top card of Luna's discard pile shows 4 against 0: she discards her left majority card",
    );
    assert_eq!(luna(&s).majority, [None, Some(lc("I-10"))]);
}

#[test]
fn a_partial_barrier_payment_shows_what_she_really_paid() {
    let tawac = data().company_name(Tawac).to_string();
    let (mut s, l) = tawac_second(14, 1);
    let events = play(&mut s, "I-2", B); // 2 on Tawac; barrier 2 after 14
    has(
        &events,
        &format!(
            "Luna pays 1 of the 2 CrypCoin at the money barrier on the {tawac} track (all she has) and moves on"
        ),
    );
    assert!(!lines(&events).iter().any(|x| x.contains("pays 2 CrypCoin")));
    assert_eq!((pos(&s, l, Tawac), s.seats[l].coins), (16, 0));
    assert!(german(&events, "event.barrier_paid_partly").contains("zahlt 1 der 2 CrypCoin"));
    // With enough coins she pays in full, as everyone does.
    luna_mut(&mut s).slots = [None; 5];
    tracks(&mut s, l, [0, 0, 0, 14]);
    s.seats[l].coins = 5;
    let events = play(&mut s, "I-2", B);
    has(
        &events,
        &format!("Luna pays 2 CrypCoin at the money barrier on the {tawac} track"),
    );
    assert_eq!(s.seats[l].coins, 3);
}

#[test]
fn a_bonus_marker_she_skips_because_its_space_is_taken_is_announced() {
    let mut s = position(2);
    let l = luna_seat(&s);
    // I-3 in slot b designates the discard-for-coins space.
    let space = bonus_space("discard_for_coins");
    s.bonus_spaces[space] = marker_of(0);
    let events = play(&mut s, "I-3", B);
    has(
        &events,
        "Luna places no bonus marker: the bonus space “discard a card for CrypCoin” is taken",
    );
    assert_eq!(s.bonus_spaces[space], marker_of(0));
    assert_eq!(s.seats[l].markers_reserve, 5);
    // On a free space she places it, as before.
    s.bonus_spaces[space] = None;
    luna_mut(&mut s).slots = [None; 5];
    let events = play(&mut s, "I-3", B);
    has(
        &events,
        "Luna places a bonus marker on the bonus space “discard a card for CrypCoin”",
    );
    assert_eq!(s.bonus_spaces[space], marker_of(l));
}

#[test]
fn a_token_reached_by_a_reveal_is_announced_after_both_majority_cards() {
    let deck = ["I-2", "I-3", "I-6", "I-4", "I-9", "I-10"];
    let mut s = token_planning(&deck, &[], engine::ENGINE_VERSION);
    let events = act(&mut s, 0, Decision::PlanDone);
    let all = lines(&events);
    let at = |line: &str| {
        all.iter()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("no line {line:?} in {all:#?}"))
    };
    let right =
        at("Luna's right majority card (grade I) shows energy 0, minerals 3 and 1 scientist icon");
    let reveal = at("Its reveal icon moves Luna's helium-3 marker 2 spaces forward to 11");
    let token = at("Luna's helium-3 marker reaches the Luna token on tank space 11: a grade II card goes face down on top of her deck");
    assert!(right < reveal && reveal < token, "{all:#?}");
    assert!(german(&events, "event.luna_token_helium").contains("Luna-Plättchen"));
}

#[test]
fn a_token_reached_by_a_card_action_is_announced_also_with_an_empty_grade_2_stack() {
    let mut s = position_with(&luna_options(2, 3, 11));
    let l = luna_seat(&s);
    s.seats[l].tank = 10;
    let events = play(&mut s, "I-12", D); // helium +2: 10 → 12, token on 11
    has(
        &events,
        "Luna moves her helium-3 marker 2 spaces forward to 12",
    );
    has(
        &events,
        "Luna's helium-3 marker reaches the Luna token on tank space 11: a grade II card goes face down on top of her deck",
    );
    luna_mut(&mut s).slots = [None; 5];
    luna_mut(&mut s).grade2.clear();
    s.seats[l].tank = 17;
    let events = play(&mut s, "I-12", D); // token on 19, nothing to add
    has(
        &events,
        "Luna reaches a Luna token, but her grade II stack is empty: no card is added",
    );
    // The upload marker: research +1 from screen 5 to screen 6, the token on step 5.
    luna_mut(&mut s).slots = [None; 5];
    luna_mut(&mut s).grade2 = grade(2);
    s.seats[l].upload = Some(4);
    let events = play(&mut s, "I-4", B);
    has(&events, "Luna moves her upload marker 1 screen to screen 6");
    has(
        &events,
        "Luna's upload marker reaches the Luna token on screen 6: a grade II card goes face down on top of her deck",
    );
}

#[test]
fn a_research_reveal_follows_its_card_and_names_the_screen() {
    let order = ["I-2", "I-3", "I-6", "II-1", "I-9"];
    let cards: Vec<u8> = order.iter().map(|c| lc(c)).collect();
    let mut s = planning(2, &cards, &[]);
    let events = act(&mut s, 0, Decision::PlanDone);
    has(
        &events,
        "Its reveal icon moves Luna's upload marker 1 screen to screen 2",
    );
    assert!(german(&events, "event.luna_research_reveal").contains("Uploadmarker"));
}

#[test]
fn her_coin_gains_say_why() {
    // A card action, and past the final tank space.
    let mut s = position(2);
    let l = luna_seat(&s);
    s.seats[l].tank = 26;
    let events = play(&mut s, "II-6", B); // +3 coins, helium +4: 2 steps to 28, 2 beyond
    has(&events, "Luna gains 3 CrypCoin from her card");
    has(
        &events,
        "Luna moves her helium-3 marker 2 spaces forward to 28",
    );
    has(
        &events,
        "Luna gains 4 CrypCoin: her helium-3 marker is on the final space (2 spaces beyond it)",
    );
    // Past the final research screen.
    luna_mut(&mut s).slots = [None; 5];
    s.seats[l].upload = Some(14);
    let events = play(&mut s, "II-4", B); // research +2: 1 screen to 15, 1 beyond
    has(
        &events,
        "Luna gains 2 CrypCoin: her upload marker is on the final screen (1 screen beyond it)",
    );
    // Bonus thresholds: hers, and seat 0's for a threshold it passed before.
    let mut s = position(2);
    let l = luna_seat(&s);
    tracks(&mut s, l, [3, 10, 4, 4]);
    tracks(&mut s, 0, [0, 13, 0, 0]);
    let events = play(&mut s, "II-2", B); // 3 on every track
    let name = |c| data().company_name(c).to_string();
    has(
        &events,
        &format!(
            "Luna gains 1 CrypCoin for the bonus threshold on the {} track",
            name(Skymine)
        ),
    );
    has(
        &events,
        &format!(
            "{} gains 2 CrypCoin for the bonus threshold on the {} track",
            s.seats[0].name,
            name(Minerva)
        ),
    );
    // Past the end of a company track: one line for the move.
    let (mut s, l) = tawac_second(0, 0);
    let last = data().tracks.tracks[s.tracks[Tawac.index()]].last_space as u8;
    tracks(&mut s, l, [0, 0, 0, last]);
    let events = play(&mut s, "I-2", B); // 2 on Tawac, already at its end
    has(
        &events,
        &format!(
            "Luna gains 4 CrypCoin: her marker is at the end of the {} track (2 spaces beyond it)",
            name(Tawac)
        ),
    );
    assert_eq!(s.seats[l].coins, 4);
    assert!(german(&events, "event.luna_coins_track_end").contains("Ende der Leiste"));
}
