//! Illegal decisions, one class at a time: `apply` refuses each with a specific `RuleError` whose
//! message names the reason, the state stays exactly as it was (compared with `==`), and the
//! decision is not among the legal ones. `apply_batch` is all or nothing.

use crate::common::*;
use skymines::data::Company::{Minerva, Skymine, Tawac};
use skymines::data::Resource::{Carbon, Minerals, Titanium};
use skymines::engine::state::{PlanRef, SlotCard};
use skymines::engine::{self, ActionSource, BonusRef, Decision as D, Phase, RuleError, Task};

fn board(space: &str) -> D {
    D::PlaceBonus {
        space: BonusRef::Board(board_space(space)),
    }
}

/// `err` is `RuleError::Illegal` with a message containing `words`.
#[track_caller]
fn illegal_with(err: &RuleError, words: &str) {
    match err {
        RuleError::Illegal(m) => assert!(
            m.to_string().contains(words),
            "message {m:?} lacks {words:?}"
        ),
        other => panic!("expected Illegal({words:?}…), got {other:?}"),
    }
    assert!(err.to_string().contains(words));
}

#[test]
fn acting_out_of_turn() {
    let mut s = blank(2);
    up(&mut s, 1, 1, field_scientist(None));
    let err = refused(
        &mut s,
        1,
        D::UseField {
            source: ActionSource::Slot(1),
        },
    );
    assert_eq!(err, RuleError::NotYourTurn("Lin".to_string()));
    assert!(err.to_string().contains("not your turn (waiting for Lin)"));
    assert!(legal(&s, 1).is_empty(), "nothing is asked of Malik");
    // In the middle of Lin's action too.
    up(&mut s, 0, 1, energy_card(3));
    act(&mut s, 0, D::UseEnergy);
    let err = refused(&mut s, 1, D::ChooseCompany { company: Tawac });
    assert!(matches!(err, RuleError::NotYourTurn(_)));
}

#[test]
fn a_seat_that_does_not_exist() {
    let mut s = blank(2);
    let err = refused(&mut s, 5, D::DropOut);
    assert_eq!(err, RuleError::NoSuchSeat(5));
    assert!(err.to_string().contains("no seat 5"));
    assert!(legal(&s, 5).is_empty());
}

#[test]
fn decisions_of_the_wrong_phase() {
    // An action during the Planning phase.
    let mut s = new_game(&options(2, 1));
    assert_eq!(s.phase, Phase::Planning);
    let err = refused(&mut s, 0, D::UseEnergy);
    assert!(matches!(&err, RuleError::NotNow(m) if m.to_string().contains("Planning phase")));
    // Planning during the Action phase.
    let mut s = blank(2);
    s.seats[0].hand = vec![resource_card(Carbon, 2)];
    let err = refused(
        &mut s,
        0,
        D::PlanCard {
            card: resource_card(Carbon, 2),
            slot: 1,
        },
    );
    assert!(
        matches!(&err, RuleError::NotNow(m) if m.to_string().contains("choose your action first"))
    );
    // A decision of another task: buying while choosing the action.
    let err = refused(&mut s, 0, D::BuyCard { space: 1 });
    assert!(matches!(err, RuleError::NotNow(_)));
    // Choosing a company while the game asks for research plan placement.
    s.seats[0].acquired = vec![PlanRef::Regular(plan("B01"))];
    s.agenda = vec![Task::EndTurn { seat: 0 }, Task::PlacePlans { seat: 0 }];
    let err = refused(&mut s, 0, D::ChooseCompany { company: Skymine });
    assert_eq!(err, RuleError::Waiting("task.place_plans"));
    assert!(err.to_string().contains("research plans"), "{err}");
    // Setup decisions outside the setup.
    let err = refused(&mut s, 0, D::KeepToken { token: 0 });
    assert_eq!(err, RuleError::Waiting("task.place_plans"));
    // After the end of the game.
    let mut s = blank(2);
    s.phase = Phase::Finished;
    s.agenda.clear();
    let err = refused(&mut s, 0, D::DropOut);
    assert_eq!(err, RuleError::GameOver);
}

#[test]
fn planning_a_card_not_in_hand() {
    let mut s = new_game(&options(2, 1));
    let other = s.seats[1].hand[0];
    assert!(!s.seats[0].hand.contains(&other));
    let err = refused(
        &mut s,
        0,
        D::PlanCard {
            card: other,
            slot: 1,
        },
    );
    illegal_with(&err, "not in your hand");
}

#[test]
fn planning_into_a_slot_not_switched_on_or_taken() {
    let mut s = new_game(&options(2, 1));
    let (c1, c2) = (s.seats[0].hand[0], s.seats[0].hand[1]);
    for slot in [0, 4] {
        let err = refused(&mut s, 0, D::PlanCard { card: c1, slot });
        illegal_with(
            &err,
            &format!("action slot {} is not switched on", slot + 1),
        );
    }
    act(&mut s, 0, D::PlanCard { card: c1, slot: 1 });
    let err = refused(&mut s, 0, D::PlanCard { card: c2, slot: 1 });
    illegal_with(&err, "already holds a card");
}

#[test]
fn planning_a_single_share_card() {
    let mut s = new_game(&options(2, 1));
    let share = card_where(|c| !c.is_playable());
    s.seats[0].hand.push(share);
    let err = refused(
        &mut s,
        0,
        D::PlanCard {
            card: share,
            slot: 1,
        },
    );
    illegal_with(&err, "single share cards can never be placed");
}

#[test]
fn using_a_card_not_in_the_action_area_or_already_used() {
    let mut s = blank(2);
    let rs = research_scientist(2);
    s.seats[0].hand = vec![rs];
    let err = refused(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Slot(1),
        },
    );
    illegal_with(&err, "no face-up research scientist in that slot");
    s.seats[0].slots[1] = Some(SlotCard::Used(rs));
    let err = refused(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Slot(1),
        },
    );
    illegal_with(&err, "no face-up research scientist in that slot");
    let err = refused(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    illegal_with(&err, "no unused field scientist tile");
    // A resource card that is not in the action area.
    let (m2, c2) = (resource_card(Minerals, 2), resource_card(Carbon, 2));
    up(&mut s, 0, 2, m2);
    up(&mut s, 0, 3, resource_card(Minerals, 1));
    act(
        &mut s,
        0,
        D::UseResources {
            resource: Some(Minerals),
        },
    );
    let err = refused(&mut s, 0, D::SelectCard { card: c2 });
    illegal_with(&err, "not in your action area");
}

#[test]
fn buying_a_card_the_units_do_not_cover() {
    let mut s = blank(2);
    let (t2, t1) = (resource_card(Titanium, 2), resource_card(Titanium, 1));
    up(&mut s, 0, 1, t2);
    up(&mut s, 0, 2, t1);
    clear_display(&mut s);
    display(&mut s, 7, resource_card(Minerals, 2)); // total cost 4
    display(&mut s, 1, card("A01")); // total cost 1
    use_resources(&mut s, 0, Some(Titanium), &[t2, t1]);
    assert!(matches!(top(&s), Task::BuyWithUnits { units: 3, .. }));
    let err = refused(&mut s, 0, D::BuyCard { space: 7 });
    illegal_with(&err, "you have 3 resource units; that card costs 4");
    let err = refused(&mut s, 0, D::BuyCard { space: 2 });
    illegal_with(&err, "display space 2 is empty");
}

#[test]
fn buying_for_coins_without_enough_coins() {
    let mut s = blank(2);
    s.seats[0].coins = 3;
    clear_display(&mut s);
    display(&mut s, 1, card("A01")); // total cost 1
    display(&mut s, 2, card("A04")); // total cost 1
    display(&mut s, 12, card("C05")); // total cost 7
    act(&mut s, 0, board("buy_card"));
    let err = refused(&mut s, 0, D::BuyCard { space: 12 });
    assert_eq!(err, RuleError::NotEnoughCoins { have: 2, need: 7 });
    assert!(err
        .to_string()
        .contains("you have 2 CrypCoin; that costs 7"));
    // Nothing affordable: the space itself cannot be taken.
    let mut s = blank(2);
    s.seats[0].coins = 3;
    clear_display(&mut s);
    display(&mut s, 12, card("C05"));
    let err = refused(&mut s, 0, board("buy_card"));
    assert_eq!(err, RuleError::NotEnoughCoins { have: 3, need: 8 });
}

#[test]
fn entering_a_sector_not_adjacent() {
    let mut s = blank(2);
    up(&mut s, 0, 1, energy_card(3));
    act(&mut s, 0, D::UseEnergy);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 1,
            column: 0,
        },
    );
    illegal_with(&err, "sector 1 is not adjacent to");
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 25,
            column: 0,
        },
    );
    illegal_with(&err, "there is no sector 25");
}

#[test]
fn entering_a_sector_the_company_already_holds() {
    let mut s = blank(2);
    s.sectors[20] = Some(Minerva);
    up(&mut s, 0, 1, energy_card(3));
    act(&mut s, 0, D::UseEnergy);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 21,
            column: 0,
        },
    );
    illegal_with(&err, "sector 21 already holds an outpost of");
    // Nor one entered earlier in the same expansion.
    act(
        &mut s,
        0,
        D::EnterSector {
            sector: 22,
            column: 0,
        },
    );
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 22,
            column: 0,
        },
    );
    illegal_with(&err, "sector 22 already holds an outpost of");
}

#[test]
fn entering_a_sector_with_too_little_energy_or_from_an_empty_column() {
    let mut s = blank(2);
    s.sectors[23] = Some(Skymine);
    s.stations[Minerva.index()][1].outposts = 0;
    up(&mut s, 0, 1, energy_card(2));
    act(&mut s, 0, D::UseEnergy);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 24,
            column: 0,
        },
    );
    illegal_with(
        &err,
        "you have 2 energy points left; entering sector 24 costs 3",
    );
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 21,
            column: 1,
        },
    );
    illegal_with(&err, "station column 2 is empty");
}

#[test]
fn a_majority_space_when_another_player_has_more() {
    let mut s = blank(3);
    up(&mut s, 0, 1, card("B03")); // 3 minerals
    up(&mut s, 0, 2, card("A03")); // 2 minerals
    up(&mut s, 1, 1, card("star-minerals2"));
    up(&mut s, 1, 2, card("star-minerals1"));
    turn_of(&mut s, 1);
    let err = refused(&mut s, 1, board("majority_minerals"));
    illegal_with(&err, "Lin has more (5) than you (3) face up");
}

#[test]
fn a_bonus_space_that_is_occupied() {
    let mut s = blank(2);
    s.seats[0].coins = 2;
    s.seats[1].coins = 2;
    act(&mut s, 0, board("tile_energy"));
    let err = refused(&mut s, 1, board("tile_energy"));
    illegal_with(&err, "occupied this round");
}

#[test]
fn a_track_bonus_space_not_unlocked() {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "D2"]));
    s.seats[0].coins = 5;
    let b = track_bonus("B-TRACKS-1");
    let err = refused(
        &mut s,
        0,
        D::PlaceBonus {
            space: BonusRef::Track(b),
        },
    );
    illegal_with(&err, "you have not unlocked the track bonus B-TRACKS-1");
    // Unlocked during this turn: not yet usable.
    s.seats[0].bonus_pending |= 1 << b;
    let err = refused(
        &mut s,
        0,
        D::PlaceBonus {
            space: BonusRef::Track(b),
        },
    );
    illegal_with(&err, "usable next turn");
    // A permanent bonus has no bonus space.
    unlock(&mut s, 0, "P-ENERGY-1");
    let err = refused(
        &mut s,
        0,
        D::PlaceBonus {
            space: BonusRef::Track(track_bonus("P-ENERGY-1")),
        },
    );
    illegal_with(&err, "not a bonus space");
}

#[test]
fn a_bonus_marker_with_none_left() {
    let mut s = blank(2);
    s.seats[0].coins = 5;
    s.seats[0].markers_reserve = 0;
    let err = refused(&mut s, 0, board("tile_energy"));
    illegal_with(&err, "no bonus marker left");
    assert!(!legal(&s, 0)
        .iter()
        .any(|d| matches!(d, D::PlaceBonus { .. })));
}

#[test]
fn paying_for_a_bonus_space_without_the_coins() {
    let mut s = blank(2);
    s.seats[0].coins = 1;
    let err = refused(&mut s, 0, board("tile_research_scientist"));
    assert_eq!(err, RuleError::NotEnoughCoins { have: 1, need: 2 });
    // Discarding for coins needs a card in hand.
    let err = refused(&mut s, 0, board("discard_for_coins"));
    illegal_with(&err, "no card in hand");
}

#[test]
fn flipping_a_research_plan_without_2_coins_or_the_plan() {
    let mut s = blank(2);
    s.seats[0].coins = 2;
    up(&mut s, 0, 1, research_scientist(2));
    act(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Slot(1),
        },
    );
    let err = refused(&mut s, 0, D::FlipPlan { screen: 3 });
    illegal_with(&err, "screen 4 holds no plan");
    s.seats[0].coins = 1;
    let err = refused(&mut s, 0, D::FlipPlan { screen: 0 });
    assert_eq!(err, RuleError::NotEnoughCoins { have: 1, need: 2 });
}

#[test]
fn advancing_onto_a_plan_whose_requirements_are_not_met_or_an_empty_screen() {
    let mut s = blank(2);
    up(&mut s, 0, 1, research_scientist(2));
    put_plan(&mut s, 0, 0, PlanRef::Regular(plan("A01"))); // 2 carbon
    s.agenda = vec![Task::ResearchAdvance {
        seat: 0,
        source: ActionSource::Slot(1),
        entered: None,
    }];
    let err = refused(&mut s, 0, D::Advance);
    illegal_with(&err, "requirement 2 carbon");
    s.seats[0].upload = Some(0);
    let err = refused(&mut s, 0, D::Advance);
    illegal_with(&err, "screen 2 is empty");
}

#[test]
fn research_points_for_more_than_there_are() {
    let mut s = blank(2);
    s.agenda = vec![
        Task::EndTurn { seat: 0 },
        Task::PlacePlans { seat: 0 },
        Task::SpendResearch { seat: 0, points: 1 },
    ];
    let c0 = research_space("C0");
    let err = refused(&mut s, 0, D::TakePlan { space: c0 });
    illegal_with(&err, "a C plan costs 2 research points; you have 1");
    let err = refused(&mut s, 0, D::TakeSpecial { index: 0 });
    illegal_with(&err, "not available");
}

#[test]
fn stopping_track_steps_while_a_track_is_free() {
    let mut s = blank(2);
    let c1 = resource_card(Carbon, 1);
    up(&mut s, 0, 1, c1);
    clear_display(&mut s);
    use_resources(&mut s, 0, Some(Carbon), &[c1]);
    let err = refused(&mut s, 0, D::StopTracks);
    illegal_with(&err, "every unit must be used while a track can move");
    // The game waits for track steps, not for a purchase.
    let err = refused(&mut s, 0, D::NoBuy);
    assert_eq!(err, RuleError::Waiting("task.spend_units"));
}

/// Seat 0 with an energy card to use, and a batch of four: use it, choose Minerva, enter
/// sector 21, then sector 1 (not adjacent: refused).
fn energy_position_and_batch() -> (engine::GameState, [D; 4]) {
    let mut s = blank(2);
    up(&mut s, 0, 1, energy_card(3));
    let batch = [
        D::UseEnergy,
        D::ChooseCompany { company: Minerva },
        D::EnterSector {
            sector: 21,
            column: 0,
        },
        D::EnterSector {
            sector: 1,
            column: 0,
        }, // not adjacent
    ];
    (s, batch)
}

#[test]
fn apply_batch_is_all_or_nothing() {
    let (mut s, batch) = energy_position_and_batch();
    let before = s.clone();
    let err = engine::apply_batch(data(), &mut s, 0, &batch).expect_err("the last one is illegal");
    illegal_with(&err, "not adjacent");
    assert!(s == before, "nothing of the batch was applied");
    // Without the bad decision, the whole batch applies.
    let events = engine::apply_batch(data(), &mut s, 0, &batch[..3]).expect("legal batch");
    assert!(!events.is_empty());
    assert_eq!(s.sectors[20], Some(Minerva));
    assert_eq!(s.decisions_applied, before.decisions_applied + 3);
}

#[test]
fn replay_batch_reaches_apply_batch_state_and_refuses_what_it_refuses() {
    let (mut s, batch) = energy_position_and_batch();
    let good = &batch[..3];
    let mut applied = s.clone();
    engine::apply_batch(data(), &mut applied, 0, good).expect("legal batch");
    let mut replayed = s.clone();
    engine::replay_batch(data(), &mut replayed, 0, good).expect("the same batch replays");
    assert!(
        replayed == applied,
        "the replay reaches the very same state"
    );
    // The rules run as in `apply_batch`: the same refusal, with its message.
    let err = engine::replay_batch(data(), &mut s.clone(), 0, &batch).expect_err("not adjacent");
    illegal_with(&err, "not adjacent");
    assert_eq!(
        Err(err),
        engine::apply_batch(data(), &mut s, 0, &batch).map(|_| ())
    );
}
