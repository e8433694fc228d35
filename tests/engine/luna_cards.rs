//! Every Luna card played from a chosen action slot on a constructed position (two humans, Luna
//! last at level 2): each action of the card has a checkable effect, and each is asserted.
//! Rules: the Luna booklet, LUNA-NOTES.md §4, DECISIONS A13. Default tracks: Skymine A1,
//! Minerva B1, Astrogo C1, Tawac D1.

use crate::luna_support::*;
use skymines::data::PlanId;
use skymines::engine::state::SpecialSlot;

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const LUNA: usize = 2;

/// The research plans in play (display and supplies): a removed plan is in neither.
fn plans_in_play(s: &skymines::engine::GameState) -> Vec<PlanId> {
    let mut all: Vec<PlanId> = s.research_display.iter().flatten().copied().collect();
    for supply in &s.plan_supply {
        all.extend(supply.iter().copied());
    }
    all
}

#[test]
fn card_i1_takes_display_space_1_then_the_share_card_of_the_most_valuable_company() {
    let mut s = position(2);
    plain_display(&mut s);
    let on_space_1 = s.display[0].unwrap();
    s.display[1] = Some(card("A02")); // Skymine share
    s.display[2] = Some(card("A06")); // Astrogo share, lowest space of the most valuable company
    s.display[6] = Some(card("C07")); // Astrogo share
    station(&mut s, Astrogo, [5, 5, 4]); // Astrogo worth 1, the others 0
    play(&mut s, "I-1", B);
    assert_eq!(luna(&s).reserve_cards, vec![on_space_1, card("A06")]);
    assert_eq!(s.display[0], None);
    assert_eq!(s.display[2], None);
    assert_eq!(s.display[1], Some(card("A02")));
    assert_eq!(s.display[6], Some(card("C07")));
    assert_eq!(s.seats[LUNA].coins, 0, "gaining cards costs nothing");
}

#[test]
fn card_i2_advances_the_second_most_valuable_company_and_takes_slot_a_spaces_7_and_8() {
    let mut s = position(2);
    s.seats[LUNA].slot_on[A] = true;
    plain_display(&mut s);
    let before = s.display;
    station(&mut s, Tawac, [5, 5, 3]); // 2
    station(&mut s, Minerva, [5, 5, 4]); // 1: second most valuable
    tracks(&mut s, LUNA, [0, 4, 0, 0]);
    tracks(&mut s, 0, [0, 7, 0, 0]); // passed Minerva's threshold after space 5 before
    tracks(&mut s, 1, [0, 3, 0, 0]);
    play(&mut s, "I-2", A);
    assert_eq!(s.seats[LUNA].track_pos, [0, 6, 0, 0]);
    // The threshold (1 coin) pays Luna and the seat already past it, not the one behind.
    assert_eq!(s.seats[LUNA].coins, 1);
    assert_eq!(s.seats[0].coins, 1);
    assert_eq!(s.seats[1].coins, 0);
    assert_eq!(
        luna(&s).reserve_cards,
        vec![before[6].unwrap(), before[7].unwrap()]
    );
    for space in 1..=12 {
        let expect = if space == 7 || space == 8 {
            None
        } else {
            before[space - 1]
        };
        assert_eq!(s.display[space - 1], expect, "display space {space}");
    }
}

#[test]
fn card_i3_gains_2_advances_the_most_valuable_pays_a_barrier_and_places_a_marker_by_slot_c() {
    let mut s = position(2);
    station(&mut s, Astrogo, [5, 5, 4]);
    tracks(&mut s, LUNA, [0, 0, 2, 0]);
    play(&mut s, "I-3", C);
    assert_eq!(pos(&s, LUNA, Astrogo), 4);
    assert_eq!(s.seats[LUNA].track_pos, [0, 0, 4, 0]);
    // +2 coins, then 1 paid at Astrogo's barrier between spaces 3 and 4.
    assert_eq!(s.seats[LUNA].coins, 1);
    // Slot c marks cell [2][1] = the field scientist tile space.
    let space = bonus_space("tile_field_scientist");
    assert_eq!(s.bonus_spaces[space], marker_of(LUNA));
    assert_eq!(s.seats[LUNA].markers_reserve, 4);
    let others = s.bonus_spaces.iter().filter(|b| b.is_some()).count();
    assert_eq!(others, 1, "only one marker placed");
}

#[test]
fn card_i4_gains_2_research_switches_slot_e_on_and_marker_by_slot_d() {
    let mut s = position(2);
    s.seats[LUNA].upload = Some(3);
    assert!(!s.seats[LUNA].slot_on[E]);
    play(&mut s, "I-4", D);
    assert_eq!(s.seats[LUNA].coins, 2);
    assert_eq!(s.seats[LUNA].upload, Some(4));
    assert!(
        s.seats[LUNA].slot_on[E],
        "research step 4 switches slot e on"
    );
    assert!(!s.seats[LUNA].slot_on[A]);
    assert_eq!(
        s.bonus_spaces[bonus_space("tile_plus_one_resource")],
        marker_of(LUNA)
    );
    assert_eq!(s.seats[LUNA].markers_reserve, 4);
}

#[test]
fn card_i5_research_past_the_final_screen_pays_2_and_an_occupied_space_gets_no_marker() {
    let mut s = position(2);
    s.seats[LUNA].upload = Some(15);
    let buy = bonus_space("buy_card"); // slot d marks cell [1][2]
    s.bonus_spaces[buy] = marker_of(0);
    play(&mut s, "I-5", D);
    assert_eq!(s.seats[LUNA].upload, Some(15));
    assert_eq!(
        s.seats[LUNA].coins,
        2 + 2,
        "2 gained, 2 for the screen past the end"
    );
    assert_eq!(s.bonus_spaces[buy], marker_of(0));
    assert_eq!(
        s.seats[LUNA].markers_reserve, 5,
        "the marker stays in her reserve"
    );
    assert_eq!(s.bonus_spaces.iter().filter(|b| b.is_some()).count(), 1);
}

#[test]
fn card_i6_advances_where_she_leads_most_and_expands_it_min_without_rewards() {
    let mut s = position(2);
    tracks(&mut s, LUNA, [5, 3, 4, 0]);
    tracks(&mut s, 0, [4, 0, 3, 2]);
    tracks(&mut s, 1, [0, 1, 0, 0]);
    // Margins: Skymine +1, Minerva +2, Astrogo +1, Tawac -2.
    play(&mut s, "I-6", B);
    assert_eq!(s.seats[LUNA].track_pos, [5, 5, 4, 0]);
    // Minerva's station touches 21-24: MIN gives 21, then 16 (reachable from 21).
    assert_eq!(sectors_of(&s, Minerva), vec![16, 21]);
    assert_eq!(s.sectors.iter().flatten().count(), 2);
    // Both outposts from the column next to the logo (all full: logo tie-break, then most vacant).
    assert_eq!(outposts(&s, Minerva), [3, 5, 5]);
    let l = &s.seats[LUNA];
    assert_eq!(
        (l.coins, l.tank, l.upload),
        (0, 0, Some(0)),
        "no sector rewards"
    );
    assert_eq!((s.seats[0].coins, s.seats[1].coins), (0, 0));
}

#[test]
fn card_i7_advances_where_she_leads_most_and_expands_it_max_around_occupied_sectors() {
    let mut s = position(2);
    tracks(&mut s, LUNA, [0, 0, 0, 3]);
    tracks(&mut s, 0, [0, 0, 0, 1]);
    occupy(&mut s, Skymine, &[10]);
    play(&mut s, "I-7", C);
    assert_eq!(s.seats[LUNA].track_pos, [0, 0, 0, 5]);
    // Tawac's station touches 2-5: MAX 5; then of 2, 3, 4, 6 (10 is taken) MAX 6.
    assert_eq!(sectors_of(&s, Tawac), vec![5, 6]);
    assert_eq!(sector(&s, 10), Some(Skymine));
    assert_eq!(outposts(&s, Tawac), [3, 5, 5]);
    assert_eq!(s.seats[LUNA].coins, 0);
}

#[test]
fn card_i8_research_onto_a_luna_token_puts_a_grade_2_card_on_top_and_marker_by_slot_a() {
    let mut s = position(2);
    s.seats[LUNA].slot_on[A] = true;
    s.seats[LUNA].slot_on[E] = true;
    s.seats[LUNA].upload = Some(4);
    luna_mut(&mut s).research_tokens = vec![5];
    let deck = luna(&s).deck.clone();
    let grade2 = luna(&s).grade2.clone();
    play(&mut s, "I-8", A);
    assert_eq!(s.seats[LUNA].coins, 2);
    assert_eq!(s.seats[LUNA].upload, Some(5));
    let mut expect = deck.clone();
    expect.push(*grade2.last().unwrap());
    assert_eq!(
        luna(&s).deck,
        expect,
        "the grade-2 card goes on top of her deck"
    );
    assert_eq!(luna(&s).grade2, grade2[..grade2.len() - 1].to_vec());
    assert!(luna(&s).research_tokens.is_empty(), "the token is used up");
    assert_eq!(
        s.bonus_spaces[bonus_space("tile_field_scientist")],
        marker_of(LUNA)
    );
}

#[test]
fn card_i9_two_most_valuable_latest_special_and_a_row_plan_by_slot_b() {
    let mut s = position(2);
    station(&mut s, Tawac, [5, 5, 3]); // 2
    station(&mut s, Astrogo, [5, 5, 4]); // 1
    tracks(&mut s, LUNA, [0, 0, 18, 0]);
    for i in 0..2 {
        s.specials[i] = SpecialSlot {
            coin_under: false,
            face_up: true,
            taken: false,
        };
    }
    let a1 = research_space("A1");
    let old = s.research_display[a1].unwrap();
    let next = *s.plan_supply[0].last().unwrap();
    let supply_len = s.plan_supply[0].len();
    play(&mut s, "I-9", B);
    // Tawac 0 → 2; Astrogo 18 → 19 (its end) and 2 coins for the step beyond.
    assert_eq!(s.seats[LUNA].track_pos, [0, 0, 19, 2]);
    assert_eq!(s.seats[LUNA].coins, 2);
    assert!(
        s.specials[1].taken,
        "the special plan revealed last is discarded"
    );
    assert!(!s.specials[0].taken);
    assert_eq!(
        s.research_display[a1],
        Some(next),
        "A1 is refilled from supply A"
    );
    assert_eq!(s.plan_supply[0].len(), supply_len - 1);
    assert!(!plans_in_play(&s).contains(&old), "removed from the game");
    for (i, p) in s.research_display.iter().enumerate() {
        assert!(p.is_some(), "research display space {i} filled");
    }
}

#[test]
fn card_i10_gains_3_least_valuable_pays_a_barrier_and_expands_3_max() {
    let mut s = position(2);
    station(&mut s, Tawac, [5, 5, 3]); // 2
    station(&mut s, Skymine, [5, 5, 4]); // 1
    station(&mut s, Minerva, [5, 5, 4]); // 1; Astrogo 0 = least valuable
    tracks(&mut s, LUNA, [0, 0, 1, 0]);
    occupy(&mut s, Minerva, &[21]);
    play(&mut s, "I-10", D);
    assert_eq!(s.seats[LUNA].track_pos, [0, 0, 4, 0]);
    assert_eq!(
        s.seats[LUNA].coins,
        3 - 1,
        "3 gained, 1 paid at the barrier after 3"
    );
    // Astrogo touches 1, 7, 11, 16: MAX 16; then 17 (21 is Minerva's); then 22.
    assert_eq!(sectors_of(&s, Astrogo), vec![16, 17, 22]);
    assert_eq!(sector(&s, 21), Some(Minerva));
    assert_eq!(outposts(&s, Astrogo), [2, 5, 5]);
}

#[test]
fn card_i11_two_most_valuable_by_track_id_and_b_and_c_row_plans_by_slot_d() {
    let mut s = position(2);
    let (b3, c3) = (research_space("B3"), research_space("C3"));
    let old_b = s.research_display[b3].unwrap();
    let old_c = s.research_display[c3].unwrap();
    let next_b = *s.plan_supply[1].last().unwrap();
    s.plan_supply[2].clear();
    play(&mut s, "I-11", D);
    // All stations full and equal: A1 (Skymine) and B1 (Minerva) come first by track ID.
    assert_eq!(s.seats[LUNA].track_pos, [2, 2, 0, 0]);
    assert_eq!(s.research_display[b3], Some(next_b));
    assert_eq!(
        s.research_display[c3], None,
        "supply C is empty: the space stays empty"
    );
    let in_play = plans_in_play(&s);
    assert!(!in_play.contains(&old_b));
    assert!(!in_play.contains(&old_c));
}

#[test]
fn card_i12_helium_switches_slot_a_on_and_slot_d_takes_spaces_1_and_6_skipping_empty() {
    let mut s = position(2);
    s.seats[LUNA].tank = 6;
    plain_display(&mut s);
    let on_1 = s.display[0].unwrap();
    s.display[5] = None;
    let before = s.display;
    play(&mut s, "I-12", D);
    assert_eq!(s.seats[LUNA].tank, 8);
    assert!(s.seats[LUNA].slot_on[A], "tank step 8 switches slot a on");
    assert_eq!(
        luna(&s).reserve_cards,
        vec![on_1],
        "space 6 is empty: no card"
    );
    assert_eq!(s.display[0], None);
    for space in 2..=12 {
        assert_eq!(s.display[space - 1], before[space - 1]);
    }
}

#[test]
fn card_ii1_from_slot_e_pays_thresholds_to_all_past_it_and_ends_her_phase() {
    let mut s = position(2);
    s.seats[LUNA].slot_on[E] = true;
    station(&mut s, Tawac, [4, 5, 5]); // 0 coins but 1 vacant space: ahead of Skymine
    tracks(&mut s, LUNA, [0, 0, 0, 4]);
    tracks(&mut s, 0, [0, 0, 0, 6]);
    tracks(&mut s, 1, [0, 0, 0, 5]);
    let b0 = research_space("B0");
    let next_b = *s.plan_supply[1].last().unwrap();
    let old_b = s.research_display[b0].unwrap();
    let supplement = s.supplement_coins;
    assert!(supplement > 0);
    play(&mut s, "II-1", E);
    assert_eq!(s.seats[LUNA].track_pos, [3, 0, 0, 7]);
    // 3 gained + 2 at Tawac's threshold after space 5; seat 0 (past it) also gets 2.
    assert_eq!(s.seats[LUNA].coins, 5);
    assert_eq!(s.seats[0].coins, 2);
    assert_eq!(s.seats[1].coins, 0);
    assert_eq!(s.research_display[b0], Some(next_b));
    assert!(!plans_in_play(&s).contains(&old_b));
    assert_eq!(
        s.supplement_coins, supplement,
        "she takes no supplement coins (DECISIONS A13)"
    );
    // The rightmost card: her phase ends.
    assert_eq!(luna(&s).slots, [None; 5]);
    assert_eq!(luna(&s).discard, vec![lc("II-1")]);
    assert!(s.seats[LUNA].dropped_out);
}

#[test]
fn card_ii2_all_four_tracks_past_the_end_and_no_face_up_special() {
    let mut s = position(2);
    tracks(&mut s, LUNA, [17, 0, 0, 0]);
    s.specials[0] = SpecialSlot {
        coin_under: false,
        face_up: true,
        taken: true,
    };
    let specials = s.specials.clone();
    let a2 = research_space("A2");
    let old = s.research_display[a2].unwrap();
    let next = *s.plan_supply[0].last().unwrap();
    play(&mut s, "II-2", C);
    assert_eq!(s.seats[LUNA].track_pos, [18, 3, 3, 3]);
    assert_eq!(
        s.seats[LUNA].coins, 4,
        "2 spaces beyond Skymine's end: 2 coins each"
    );
    assert_eq!(
        s.specials, specials,
        "no face-up special plan left: none discarded"
    );
    assert_eq!(s.research_display[a2], Some(next));
    assert!(!plans_in_play(&s).contains(&old));
}

#[test]
fn card_ii3_behind_everywhere_takes_the_fewest_behind_and_expands_3_max() {
    let mut s = position(2);
    tracks(&mut s, 0, [5, 2, 4, 2]);
    // Minerva and Tawac: 2 behind each; Tawac is the more valuable.
    station(&mut s, Tawac, [2, 2, 5]);
    play(&mut s, "II-3", B);
    assert_eq!(s.seats[LUNA].track_pos, [0, 0, 0, 3]);
    // Main outpost column: columns 1 and 2 both have 3 vacant spaces and a covered final
    // space; the tie goes to the column nearer the logo (column 1), twice; then column 2.
    assert_eq!(outposts(&s, Tawac), [0, 1, 5]);
    // Sectors: MAX of 2-5 → 5; then of 2, 3, 4, 6, 10 → 10; then of 2, 3, 4, 6, 9, 15 → 15.
    assert_eq!(sectors_of(&s, Tawac), vec![5, 10, 15]);
}

#[test]
fn card_ii4_research_passing_a_luna_token_and_marker_by_slot_b() {
    let mut s = position(2);
    s.seats[LUNA].slot_on[E] = true;
    s.seats[LUNA].upload = Some(6);
    luna_mut(&mut s).research_tokens = vec![7, 10];
    let deck = luna(&s).deck.clone();
    let grade2 = luna(&s).grade2.clone();
    play(&mut s, "II-4", B);
    assert_eq!(s.seats[LUNA].coins, 3);
    assert_eq!(s.seats[LUNA].upload, Some(8));
    assert_eq!(luna(&s).research_tokens, vec![10]);
    assert_eq!(luna(&s).deck.len(), deck.len() + 1);
    assert_eq!(luna(&s).deck.last(), grade2.last());
    assert_eq!(
        s.bonus_spaces[bonus_space("tile_plus_one_resource")],
        marker_of(LUNA)
    );
}

#[test]
fn card_ii5_both_tracks_overflow_then_slot_c_space_4_then_the_most_valuable_share() {
    let mut s = position(2);
    s.seats[LUNA].slot_on = [true; 5];
    s.seats[LUNA].tank = 27;
    s.seats[LUNA].upload = Some(14);
    plain_display(&mut s);
    s.display[3] = Some(card("A02")); // Skymine share on slot c's space 4
    s.display[8] = Some(card("B09")); // Skymine share on space 9
    s.display[1] = Some(card("A06")); // Astrogo share on space 2
    station(&mut s, Skymine, [5, 5, 4]); // Skymine most valuable
    play(&mut s, "II-5", C);
    assert_eq!(s.seats[LUNA].tank, 28);
    assert_eq!(s.seats[LUNA].upload, Some(15));
    assert_eq!(s.seats[LUNA].coins, 2 + 2, "one step past each final space");
    assert_eq!(luna(&s).reserve_cards, vec![card("A02"), card("B09")]);
    assert_eq!(s.display[1], Some(card("A06")));
}

#[test]
fn card_ii6_helium_through_two_luna_tokens_adds_two_cards_and_marker_by_slot_a() {
    let mut s = position(2);
    s.seats[LUNA].slot_on[A] = true;
    s.seats[LUNA].tank = 8;
    luna_mut(&mut s).helium_tokens = vec![9, 12, 20];
    let deck = luna(&s).deck.clone();
    let grade2 = luna(&s).grade2.clone();
    let n = grade2.len();
    play(&mut s, "II-6", A);
    assert_eq!(s.seats[LUNA].coins, 3);
    assert_eq!(s.seats[LUNA].tank, 12);
    assert_eq!(
        luna(&s).helium_tokens,
        vec![20],
        "passing 9 and reaching 12 both count"
    );
    let mut expect = deck;
    expect.push(grade2[n - 1]);
    expect.push(grade2[n - 2]);
    assert_eq!(luna(&s).deck, expect);
    assert_eq!(luna(&s).grade2, grade2[..n - 2].to_vec());
    assert_eq!(s.bonus_spaces[bonus_space("buy_card")], marker_of(LUNA));
}

#[test]
fn card_ii7_two_biggest_leads_expand_less_valuable_first_and_oust_the_farthest_behind() {
    let mut s = position(2);
    tracks(&mut s, LUNA, [5, 1, 7, 0]);
    tracks(&mut s, 0, [2, 0, 5, 5]);
    // Margins: Skymine +3, Minerva +1, Astrogo +2, Tawac -5 (farthest behind).
    station(&mut s, Astrogo, [5, 5, 4]); // 1: more valuable than Skymine (0)
    station(&mut s, Tawac, [3, 5, 5]);
    occupy(&mut s, Astrogo, &[9]);
    occupy(&mut s, Minerva, &[1, 3]);
    let tawac: Vec<u8> = (1..=24)
        .filter(|n| ![1, 3, 9, 10, 13].contains(n))
        .collect();
    occupy(&mut s, Tawac, &tawac);
    play(&mut s, "II-7", B);
    assert_eq!(s.seats[LUNA].track_pos, [7, 1, 9, 0]);
    // Skymine (less valuable) first: 10 (the only vacant), then ousts Tawac from 5 (MIN).
    assert_eq!(sectors_of(&s, Skymine), vec![5, 10]);
    // Astrogo: 13 (the only vacant left), then ousts Tawac from 4 (MIN).
    assert_eq!(sectors_of(&s, Astrogo), vec![4, 9, 13]);
    assert_eq!(sectors_of(&s, Minerva), vec![1, 3]);
    // Ousted Tawac outposts return to the lowest vacant spaces of Tawac's main column.
    assert_eq!(outposts(&s, Tawac), [5, 5, 5]);
    assert_eq!(outposts(&s, Skymine), [3, 5, 5]);
    assert_eq!(outposts(&s, Astrogo), [5, 5, 2]);
    assert_eq!(s.seats[LUNA].coins, 0);
}

#[test]
fn every_card_has_a_test_here() {
    let ids: Vec<&str> = data()
        .luna_cards
        .cards
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    let mut expect: Vec<String> = (1..=12).map(|i| format!("I-{i}")).collect();
    expect.extend((1..=7).map(|i| format!("II-{i}")));
    assert_eq!(ids, expect);
}
