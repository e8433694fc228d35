//! The rulebook's worked examples (FACTS §7 EX-1..EX-26, §7.1 DT-1..DT-8) and the special cases
//! of the actions, played through the engine on positions built by editing a fresh game; plus
//! determinism and serialization over seeded self-play.

use crate::common::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skymines::data::Company::{self, Astrogo, Minerva, Skymine, Tawac};
use skymines::data::Resource::{Carbon, Minerals, Titanium};
use skymines::data::{Requirement, Structure};
use skymines::engine::score::research_score;
use skymines::engine::state::{
    Column, Marker, PlacedPlan, PlanRef, SlotCard, SpecialSlot, TileKind, TileState,
};
use skymines::engine::{
    self, ActionSource, BonusRef, Decision as D, GameOptions, GameState, Phase, RuleError, Task,
};

const SLOT1: ActionSource = ActionSource::Slot(1);

fn board(space: &str) -> D {
    D::PlaceBonus {
        space: BonusRef::Board(board_space(space)),
    }
}

fn track_space(bonus: &str) -> D {
    D::PlaceBonus {
        space: BonusRef::Track(track_bonus(bonus)),
    }
}

fn ci(c: Company) -> usize {
    c.index()
}

// ------------------------------------------------------------------------------------------
// EX-1 share value

#[test]
fn ex01_seven_minerva_shares_times_six_coins_is_42() {
    let d = data();
    let mut s = blank(2);
    // Minerva Station: its third column emptied, the crossed-out space revealed: 6 coin icons.
    s.stations[ci(Minerva)][2] = Column {
        outposts: 0,
        floor_revealed: true,
    };
    assert_eq!(s.share_value(d, Minerva), 6);
    // Lin's last share icon on the Minerva track shows 5, and 2 of her cards show a Minerva share.
    let track = &d.tracks.tracks[s.tracks[ci(Minerva)]];
    let pos = (0..=track.last_space)
        .find(|&p| track.shares_at(p) == 5)
        .expect("a space whose last share icon shows 5");
    s.seats[0].track_pos[ci(Minerva)] = pos as u8;
    let shares = share_cards(Minerva, 2);
    s.seats[0].hand = vec![shares[0]];
    s.seats[0].resting[2] = vec![shares[1]];
    assert_eq!(s.shares(d, 0, Minerva), 7);

    let scores = engine::final_scores(d, &s);
    let minerva = scores[0]
        .companies
        .iter()
        .find(|c| c.company == Minerva)
        .expect("Minerva is scored");
    assert_eq!(
        (minerva.shares, minerva.share_value, minerva.points),
        (7, 6, 42)
    );
    assert_eq!(scores[0].total, 42);
    assert!(scores[0].winner);
}

// ------------------------------------------------------------------------------------------
// EX-2, EX-3

#[test]
fn ex02_energy_cards_in_resting_slots_do_not_allow_the_energy_action() {
    let mut s = blank(2);
    up(&mut s, 0, 1, resource_card(Carbon, 2));
    s.seats[0].resting[2] = vec![energy_card(2)];
    assert!(!is_legal(&s, 0, D::UseEnergy));
    let err = refused(&mut s, 0, D::UseEnergy);
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("no face-up energy card"))
    );
}

#[test]
fn ex03_a_used_research_scientist_is_flipped_and_unusable() {
    let mut s = blank(2);
    let rs = research_scientist(2);
    up(&mut s, 0, 1, rs);
    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    // No coins for a flip and the token's plan needs 2 energy: no move; 2 RP to utilize.
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 2 });
    act_all(&mut s, 0, &[D::TakeCoin, D::TakeCoin]);
    assert_eq!(s.seats[0].coins, 2);
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(rs)));
    assert_eq!(waiting(&s), vec![1]);
    turn_of(&mut s, 0);
    let err = refused(&mut s, 0, D::UseResearch { source: SLOT1 });
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("no face-up research scientist"))
    );
}

// ------------------------------------------------------------------------------------------
// EX-4, EX-5 resources

#[test]
fn ex04_resource_selections_use_one_type_only() {
    let mut s = blank(2);
    let (t2, t3, c2) = (card("A05"), card("B06"), card("A01"));
    up(&mut s, 0, 1, t2);
    up(&mut s, 0, 2, t3);
    up(&mut s, 0, 3, c2);
    let l = legal(&s, 0);
    assert!(l.contains(&D::UseResources {
        resource: Some(Titanium)
    }));
    assert!(l.contains(&D::UseResources {
        resource: Some(Carbon)
    }));
    assert!(!l.contains(&D::UseResources {
        resource: Some(Minerals)
    }));
    assert!(!l.contains(&D::UseResources { resource: None }));
    let err = refused(&mut s, 0, D::UseResources { resource: None });
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("second minerals track bonus"))
    );

    for (picks, units) in [(vec![t2], 2), (vec![t3], 3), (vec![t2, t3], 5)] {
        let mut g = s.clone();
        act(
            &mut g,
            0,
            D::UseResources {
                resource: Some(Titanium),
            },
        );
        let err = refused(&mut g, 0, D::SelectCard { card: c2 });
        assert!(
            matches!(&err, RuleError::Illegal(m) if m.to_string().contains("titanium cards only")),
            "{err}"
        );
        let mut ev = Vec::new();
        for c in picks {
            ev.extend(act(&mut g, 0, D::SelectCard { card: c }));
        }
        // Selecting ends by itself once every titanium card is chosen.
        if matches!(top(&g), Task::SelectResources { .. }) {
            ev.extend(act(&mut g, 0, D::FinishSelecting));
        }
        assert!(
            texts(&ev).contains(&format!(
                "for {units} {}",
                if units == 1 { "unit" } else { "units" }
            )),
            "{ev:?}"
        );
    }
    // The only carbon card: chosen by itself.
    let mut g = s.clone();
    let ev = act(
        &mut g,
        0,
        D::UseResources {
            resource: Some(Carbon),
        },
    );
    assert!(texts(&ev).contains("for 2 units"));
}

#[test]
fn ex05_buy_the_2_unit_minerals_card_for_4_and_advance_1_with_the_rest() {
    let d = data();
    let mut s = blank(2);
    let (t2, t3) = (resource_card(Titanium, 2), card("B06"));
    let m2 = resource_card(Minerals, 2);
    assert_eq!(d.card(m2).cost + d.display_board_cost(7), 4);
    up(&mut s, 0, 1, t2);
    up(&mut s, 0, 2, t3);
    clear_display(&mut s);
    display(&mut s, 7, m2);
    display(&mut s, 12, card("C05"));
    use_resources(&mut s, 0, Some(Titanium), &[t2, t3]);
    assert_eq!(legal(&s, 0), vec![D::BuyCard { space: 7 }, D::NoBuy]);
    act(&mut s, 0, D::BuyCard { space: 7 });
    assert_eq!(top(&s), &Task::SpendUnits { seat: 0, units: 1 });
    act(&mut s, 0, D::TrackStep { company: Minerva });
    assert_eq!(s.seats[0].hand, vec![m2]);
    assert_eq!(
        s.display[6], None,
        "the display is not refilled during the round"
    );
    assert_eq!(s.seats[0].track_pos, [0, 1, 0, 0]);
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(t2)));
    assert_eq!(slot(&s, 0, 2), Some(SlotCard::Used(t3)));
    assert_eq!(waiting(&s), vec![1], "the turn has ended");
}

// ------------------------------------------------------------------------------------------
// EX-6, EX-7 expansion and research points

/// EX-6: Lin expands Minerva with 5 energy into 21 (1), 16 (1) and 24 (2 + 1 for the Skymine
/// outpost there). Returns the state with the 3 research points still to utilize.
fn ex06_position() -> (GameState, String) {
    let mut s = blank(2);
    up(&mut s, 0, 1, energy_card(3));
    up(&mut s, 0, 2, energy_card(2));
    s.sectors[23] = Some(Skymine);
    s.stations[ci(Skymine)][0].outposts = 4;
    act(&mut s, 0, D::UseEnergy);
    assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy: 5 });
    let mut ev = act(&mut s, 0, D::ChooseCompany { company: Minerva });
    ev.extend(act(
        &mut s,
        0,
        D::EnterSector {
            sector: 21,
            column: 0,
        },
    ));
    assert!(matches!(top(&s), Task::Expand { energy: 4, .. }));
    ev.extend(act(
        &mut s,
        0,
        D::EnterSector {
            sector: 16,
            column: 0,
        },
    ));
    assert!(matches!(top(&s), Task::Expand { energy: 3, .. }));
    // All energy spent on 24: the expansion ends by itself.
    ev.extend(act(
        &mut s,
        0,
        D::EnterSector {
            sector: 24,
            column: 0,
        },
    ));
    (s, texts(&ev))
}

#[test]
fn ex06_minerva_expansion_into_21_16_24() {
    let (mut s, ev) = ex06_position();
    assert!(
        ev.contains("into sectors 21, 16, 24: +1 CrypCoin, 3 research points"),
        "{ev}"
    );
    assert_eq!(
        s.outposts_in_station(Minerva),
        12,
        "3 outposts left Minerva Station"
    );
    for sector in [21, 16, 24] {
        assert_eq!(s.sectors[sector - 1], Some(Minerva));
    }
    assert_eq!(s.seats[0].coins, 1, "the deep mine in 16");
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 3 });
    act_all(&mut s, 0, &[D::TakeCoin, D::TakeCoin, D::TakeCoin]);
    assert_eq!(s.seats[0].coins, 4);
    // The ousted Skymine outpost went home (its station's only vacant space).
    assert_eq!(s.outposts_in_station(Skymine), 15);
    assert_eq!(s.sectors.iter().filter(|x| x.is_some()).count(), 3);
    assert!(s.seats[0]
        .slots
        .iter()
        .flatten()
        .all(|c| matches!(c, SlotCard::Used(_))));
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn ex07_three_research_points_for_two_a_plans_and_a_coin() {
    let (mut s, _) = ex06_position();
    let (a1, a2) = (research_space("A1"), research_space("A2"));
    let p1 = s.research_display[a1 as usize].expect("A1 holds a plan");
    let p2 = s.research_display[a2 as usize].expect("A2 holds a plan");
    let supply = s.plan_supply[0].clone();
    let supplement = s.supplement_coins;
    act_all(
        &mut s,
        0,
        &[
            D::TakePlan { space: a1 },
            D::TakePlan { space: a2 },
            D::TakeCoin,
        ],
    );
    assert_eq!(
        s.supplement_coins, supplement,
        "A1 and A2 are not red-framed"
    );
    assert_eq!(s.seats[0].coins, 2);
    assert_eq!(top(&s), &Task::PlacePlans { seat: 0 });
    assert_eq!(
        s.seats[0].acquired,
        vec![PlanRef::Regular(p1), PlanRef::Regular(p2)]
    );
    // Not yet refilled: that happens at the end of the turn, after placing.
    assert_eq!(s.research_display[a1 as usize], None);
    let err = refused(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 7,
        },
    );
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("crossed-out A")));
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 1,
        },
    );
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 2,
        },
    );
    assert_eq!(
        s.seats[0].research[1].map(|p| p.plan),
        Some(PlanRef::Regular(p1))
    );
    assert_eq!(
        s.seats[0].research[2].map(|p| p.plan),
        Some(PlanRef::Regular(p2))
    );
    let n = supply.len();
    assert_eq!(s.research_display[a1 as usize], Some(supply[n - 1]));
    assert_eq!(s.research_display[a2 as usize], Some(supply[n - 2]));
    assert_eq!(s.plan_supply[0].len(), n - 2);
    assert_eq!(waiting(&s), vec![1]);
}

/// DECISIONS A17 (rulebook, "Setup", step 13, and "Research points", p. 14): the upload marker
/// stands on the starting research token from setup, so its plan counts as reached and no plan may
/// cover it (engine version 5 on). Its plan is still entered by the first advance, meeting its
/// requirements. A game of engine version 4 keeps the old rule: a plan could cover the starting
/// screen while the marker had not advanced (DECISIONS B18).
#[test]
fn the_starting_research_token_cannot_be_covered_from_engine_version_5() {
    let (mut s, _) = ex06_position();
    assert_eq!(s.engine_version, engine::ENGINE_VERSION);
    const { assert!(engine::ENGINE_VERSION >= 5) };
    assert_eq!(s.seats[0].upload, None, "the marker has not advanced");
    let a1 = research_space("A1");
    let p1 = s.research_display[a1 as usize].expect("A1 holds a plan");
    act(&mut s, 0, D::TakePlan { space: a1 });
    act(&mut s, 0, D::TakeCoin);
    act(&mut s, 0, D::TakeCoin);
    assert_eq!(top(&s), &Task::PlacePlans { seat: 0 });
    let mut old = s.clone();
    old.engine_version = 4;

    let cover_start = D::PlacePlan {
        index: 0,
        screen: 0,
    };
    let err = refused(&mut s, 0, cover_start);
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("starting screen")),
        "{err}"
    );
    let screens: Vec<u8> = legal(&s, 0)
        .iter()
        .filter_map(|d| match d {
            D::PlacePlan { screen, .. } => Some(*screen),
            _ => None,
        })
        .collect();
    assert!(!screens.contains(&0) && screens.contains(&1), "{screens:?}");
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 1,
        },
    );
    assert_eq!(
        s.seats[0].research[0].map(|p| p.plan),
        Some(PlanRef::Token),
        "the starting plan stays"
    );

    // Engine version 4: covering the starting screen was allowed.
    assert!(is_legal(&old, 0, cover_start));
    act(&mut old, 0, cover_start);
    assert_eq!(
        old.seats[0].research[0].map(|p| p.plan),
        Some(PlanRef::Regular(p1))
    );
}

/// The starting token's plan is still entered by the first advance, and only when the face-up
/// cards meet its requirements (DECISIONS A17).
#[test]
fn the_first_advance_still_needs_the_starting_token_plans_requirements() {
    let mut s = blank(2);
    let token = s.seats[0].token.expect("a starting token");
    assert!(
        !data().research.starting_tokens[token]
            .plan_requirements
            .is_empty(),
        "the starting plan asks something"
    );
    up(&mut s, 0, 1, research_scientist(2));
    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    // Nothing face up meets the plan: the marker cannot advance, the points are utilized.
    assert_eq!(s.seats[0].upload, None);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 2 });
}

// ------------------------------------------------------------------------------------------
// EX-8 research scientist

#[test]
fn ex08_research_scientist_flip_special_plan_sixth_plan_and_on_screen() {
    let d = data();
    let mut s = blank(2);
    let rs = research_scientist(3);
    up(&mut s, 0, 1, rs);
    up(&mut s, 0, 2, resource_card(Carbon, 2));
    up(&mut s, 0, 3, resource_card(Titanium, 1));
    s.seats[0].slot_on[0] = true;
    up(&mut s, 0, 0, resource_card(Minerals, 2));
    s.seats[0].coins = 4;
    let token = s.seats[0].token.expect("fixed token");
    assert_eq!(
        d.research.starting_tokens[token].plan_requirements,
        vec![Requirement::Energy { min: 2 }],
        "the plan on screen 1 needs 2 energy, which Lin lacks"
    );
    put_plan(&mut s, 0, 1, PlanRef::Regular(plan("A01"))); // 2 carbon
    put_plan(&mut s, 0, 2, PlanRef::Special(0)); // costs 2 CrypCoin
    put_plan(&mut s, 0, 3, PlanRef::Regular(plan("A02"))); // 2 minerals
    put_plan(&mut s, 0, 4, PlanRef::Regular(plan("A12"))); // carbon + minerals (ON screen)
    put_plan(&mut s, 0, 5, PlanRef::Regular(plan("A09"))); // titanium + carbon: 2 RP
    put_plan(&mut s, 0, 6, PlanRef::Regular(plan("A03"))); // 2 titanium: out of reach
    assert_eq!(d.player_board.research_track.on_screen, 4);
    assert_eq!(d.player_board.research_slot(), 4);
    assert!(!s.seats[0].slot_on[4]);

    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    assert!(matches!(top(&s), Task::ResearchFlip { .. }));
    act(&mut s, 0, D::FlipPlan { screen: 0 });
    assert_eq!(s.seats[0].coins, 2);
    assert!(s.seats[0].research[0].is_some_and(|p| p.face_down));
    for expected in 0..5u8 {
        act(&mut s, 0, D::Advance);
        assert_eq!(s.seats[0].upload, Some(expected));
    }
    assert_eq!(s.seats[0].coins, 0, "2 paid to enter the special plan");
    assert!(
        s.seats[0].slot_on[4],
        "the fifth screen switches the slot on"
    );
    // Sixth plan: the seventh's requirements are not met, so the marker stops by itself.
    act(&mut s, 0, D::Advance);
    assert_eq!(s.seats[0].upload, Some(5));
    let n = s.agenda.len();
    assert_eq!(
        &s.agenda[n - 2..],
        &[
            Task::SpendResearch { seat: 0, points: 3 },
            Task::SpendResearch { seat: 0, points: 2 },
        ],
        "the sixth plan's 2 RP first, then the card's 3 RP"
    );
    act_all(&mut s, 0, &[D::TakeCoin, D::TakeCoin]);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 3 });
    act_all(&mut s, 0, &[D::TakeCoin, D::TakeCoin, D::TakeCoin]);
    assert_eq!(s.seats[0].coins, 5);
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(rs)));
    for i in [0, 2, 3] {
        assert!(
            matches!(slot(&s, 0, i), Some(SlotCard::Up(_))),
            "requirement cards are not used up"
        );
    }
    assert_eq!(waiting(&s), vec![1]);
}

// ------------------------------------------------------------------------------------------
// EX-9, EX-19 company field scientist

/// Lin uses the Astrogo field scientist with Astrogo outposts in `gas_sectors`; returns the
/// tank steps and coins gained.
fn astrogo_field_scientist(gas_sectors: &[usize], bonuses: &[&str]) -> (u8, u32) {
    let d = data();
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "E1"]));
    let fs = field_scientist(Some(Astrogo));
    up(&mut s, 0, 1, fs);
    for &sector in gas_sectors {
        let structures = &d.moon.sector(sector as u32).expect("sector").structures;
        assert!(structures
            .iter()
            .any(|x| matches!(x, Structure::GasCollector { .. })));
        s.sectors[sector - 1] = Some(Astrogo);
    }
    for b in bonuses {
        unlock(&mut s, 0, b);
    }
    act(&mut s, 0, D::UseField { source: SLOT1 });
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(fs)));
    assert_eq!(waiting(&s), vec![1]);
    (s.seats[0].tank, s.seats[0].coins)
}

#[test]
fn ex09_astrogo_field_scientist_with_3_gas_collectors() {
    assert_eq!(astrogo_field_scientist(&[3, 7, 12], &[]), (3, 1));
    assert_eq!(astrogo_field_scientist(&[3, 7, 12, 22], &[]), (4, 1));
    // The plain field scientist: tank +1 and 2 CrypCoin.
    let mut s = blank(2);
    up(&mut s, 0, 1, field_scientist(None));
    act(&mut s, 0, D::UseField { source: SLOT1 });
    assert_eq!((s.seats[0].tank, s.seats[0].coins), (1, 2));
}

#[test]
fn ex19_p_field_adds_gas_collectors() {
    assert_eq!(astrogo_field_scientist(&[3, 7, 12], &["P-FIELD-1"]), (4, 1));
    assert_eq!(astrogo_field_scientist(&[3, 7, 12], &["P-FIELD-2"]), (5, 1));
    // Both unlocked: either one, never both (3 + 3, not 3 + 4).
    assert_eq!(
        astrogo_field_scientist(&[3, 7, 12], &["P-FIELD-1", "P-FIELD-2"]),
        (5, 1)
    );
}

// ------------------------------------------------------------------------------------------
// EX-10, EX-11 majority

#[test]
fn ex10_minerals_majority_tie_allowed_cards_not_flipped() {
    let mut s = blank(3);
    up(&mut s, 0, 1, card("B03")); // 3 minerals
    up(&mut s, 0, 2, card("A03")); // 2 minerals
    up(&mut s, 1, 1, card("star-minerals2"));
    up(&mut s, 1, 2, card("star-minerals1"));
    up(&mut s, 2, 1, card("C04")); // 3 minerals
    up(&mut s, 2, 2, card("triangle-minerals2"));
    let space = board_space("majority_minerals");
    act(&mut s, 0, board("majority_minerals"));
    assert_eq!(
        legal(&s, 0),
        vec![D::ChooseTier { tier: 0 }, D::ChooseTier { tier: 1 }]
    );
    act(&mut s, 0, D::ChooseTier { tier: 1 });
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], 3);
    assert_eq!(s.seats[0].tank, 1);
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Up(card("B03"))));
    assert_eq!(slot(&s, 0, 2), Some(SlotCard::Up(card("A03"))));
    assert_eq!(
        s.bonus_spaces[space as usize],
        Some(Marker {
            seat: 0,
            one_time: false
        })
    );
    assert_eq!(
        s.seats[0].markers_reserve, 1,
        "2 markers in a 3-player game"
    );
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn ex11_a_lower_majority_tier_may_be_chosen() {
    let mut s = blank(2);
    up(&mut s, 0, 1, card("C03")); // 4 minerals
    up(&mut s, 0, 2, card("A03")); // 2 minerals
    act(&mut s, 0, board("majority_minerals"));
    assert_eq!(
        legal(&s, 0),
        vec![
            D::ChooseTier { tier: 0 },
            D::ChooseTier { tier: 1 },
            D::ChooseTier { tier: 2 }
        ]
    );
    act(&mut s, 0, D::ChooseTier { tier: 1 });
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], 3);
    assert_eq!(s.seats[0].tank, 1);
}

// ------------------------------------------------------------------------------------------
// EX-12, EX-13 standard bonus spaces

#[test]
fn ex12_buy_card_space_pay_1_then_3() {
    let d = data();
    let mut s = blank(2);
    s.seats[0].coins = 5;
    let t2 = card("A05");
    clear_display(&mut s);
    display(&mut s, 3, t2);
    display(&mut s, 1, card("A01"));
    display(&mut s, 12, card("C05"));
    assert_eq!(d.card(t2).cost + d.display_board_cost(3), 3);
    act(&mut s, 0, board("buy_card"));
    assert_eq!(s.seats[0].coins, 4);
    assert_eq!(
        legal(&s, 0),
        vec![D::BuyCard { space: 1 }, D::BuyCard { space: 3 }],
        "the space buys a card (no skipping), only affordable ones"
    );
    act(&mut s, 0, D::BuyCard { space: 3 });
    assert_eq!(s.seats[0].coins, 1);
    assert_eq!(s.seats[0].hand, vec![t2]);
    assert_eq!(s.display[2], None);
}

#[test]
fn ex13_discard_a_1_unit_carbon_card_for_3() {
    let mut s = blank(2);
    let c1 = resource_card(Carbon, 1);
    s.seats[0].hand = vec![c1, card("B06")];
    act(&mut s, 0, board("discard_for_coins"));
    act(&mut s, 0, D::DiscardCard { card: c1 });
    assert_eq!(s.seats[0].coins, 3);
    assert_eq!(s.discard.last(), Some(&c1));
    assert_eq!(s.seats[0].hand, vec![card("B06")]);
}

// ------------------------------------------------------------------------------------------
// EX-14 drop out

#[test]
fn ex14_drop_out_rests_cards_takes_a_deck_returns_the_tile() {
    let mut s = blank(2);
    let (a, b, c) = (card("A01"), card("A03"), card("A05"));
    s.seats[0].slots[1] = Some(SlotCard::Used(a));
    s.seats[0].slots[2] = Some(SlotCard::Up(b));
    s.seats[0].slots[3] = Some(SlotCard::Used(c));
    let (x, y, z) = (
        card("diamond-carbon1"),
        card("diamond-minerals1"),
        card("diamond-titanium1"),
    );
    s.seats[0].resting[1] = vec![x];
    s.seats[0].resting[2] = vec![y];
    s.seats[0].resting[3] = vec![z];
    s.seats[0].markers_reserve = 0;
    hold_tile(&mut s, 0, TileKind::FieldScientist);

    act(&mut s, 0, D::DropOut);
    assert_eq!(top(&s), &Task::TakeRestingDeck { seat: 0 });
    assert_eq!(
        slot(&s, 0, 1),
        Some(SlotCard::Up(a)),
        "face-down cards turned up"
    );
    assert_eq!(slot(&s, 0, 3), Some(SlotCard::Up(c)));
    assert_eq!(
        legal(&s, 0),
        (1..=3)
            .map(|slot| D::TakeRestingDeck { slot })
            .collect::<Vec<_>>()
    );
    act(&mut s, 0, D::TakeRestingDeck { slot: 2 });
    assert_eq!(s.seats[0].hand, vec![y]);
    act(&mut s, 0, D::RestCard { card: a, slot: 0 });
    let err = refused(&mut s, 0, D::RestCard { card: b, slot: 0 });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("different slot")));
    act(&mut s, 0, D::RestCard { card: b, slot: 2 });
    act(&mut s, 0, D::RestCard { card: c, slot: 3 });
    assert_eq!(
        s.seats[0].resting,
        [vec![a], vec![x], vec![b], vec![z, c], vec![]]
    );
    assert!(s.seats[0].slots.iter().all(Option::is_none));
    assert_eq!(s.tile(TileKind::FieldScientist), TileState::Supply);
    assert!(s.seats[0].dropped_out);

    // Lin is skipped for the rest of the Action phase.
    assert_eq!(waiting(&s), vec![1]);
    up(&mut s, 1, 1, field_scientist(None));
    act(&mut s, 1, D::UseField { source: SLOT1 });
    assert_eq!(waiting(&s), vec![1]);
    act(&mut s, 1, D::DropOut);
    act(
        &mut s,
        1,
        D::RestCard {
            card: field_scientist(None),
            slot: 0,
        },
    );
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.round, 2);
}

// ------------------------------------------------------------------------------------------
// EX-15, EX-16 preparation

#[test]
fn ex15_preparation_for_round_4_moves_the_coin_and_flips_special_plan_4() {
    let mut s = blank(2);
    s.round = 3;
    for sp in s.specials.iter_mut().take(2) {
        *sp = SpecialSlot {
            coin_under: false,
            face_up: true,
            taken: false,
        };
    }
    s.supplement_coins = 2;
    everyone_drops_out(&mut s);
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.round, 4);
    assert_eq!(s.supplement_coins, 3);
    assert_eq!(
        s.specials[2],
        SpecialSlot {
            coin_under: false,
            face_up: true,
            taken: false
        },
        "special plan 4"
    );
    assert!(s.specials[3].coin_under && !s.specials[3].face_up);
}

#[test]
fn ex16_a_reserved_tile_arrives_in_the_preparation_phase() {
    let mut s = blank(2);
    s.seats[0].coins = 2;
    let space = board_space("tile_field_scientist");
    act(&mut s, 0, board("tile_field_scientist"));
    assert_eq!(s.seats[0].coins, 0);
    assert_eq!(s.seats[0].markers_reserve, 2);
    assert_eq!(
        s.tile(TileKind::FieldScientist),
        TileState::Reserved { seat: 0 }
    );
    assert!(!s.holds_unused_tile(0, TileKind::FieldScientist));
    // Not right away: on Lin's next turn of this round the tile is not hers.
    act(
        &mut s,
        1,
        D::PlaceBonus {
            space: BonusRef::Board(board_space("first_player")),
        },
    );
    act(&mut s, 1, D::TakeCoin);
    let err = refused(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("field scientist tile"))
    );

    everyone_drops_out(&mut s);
    assert_eq!(s.round, 2);
    assert_eq!(s.bonus_spaces[space as usize], None);
    assert_eq!(s.seats[0].markers_reserve, 3);
    assert_eq!(
        s.tile(TileKind::FieldScientist),
        TileState::Held {
            seat: 0,
            used: false,
            on_card: None
        }
    );
    act(&mut s, 0, D::PlanDone);
    act(&mut s, 1, D::PlanDone);
    // Malik took the first player marker.
    assert_eq!(s.first_player, 1);
    act(&mut s, 1, D::DropOut);
    act(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(s.seats[0].tank, 2);
    assert!(matches!(
        s.tile(TileKind::FieldScientist),
        TileState::Held {
            seat: 0,
            used: true,
            ..
        }
    ));
}

#[test]
fn a_tile_held_this_round_stays_with_its_holder_when_another_seat_reserves_it() {
    let mut s = blank(2);
    hold_tile(&mut s, 1, TileKind::FieldScientist);
    s.seats[0].coins = 2;
    act(&mut s, 0, board("tile_field_scientist"));
    // Malik still holds the tile this round and can use it.
    assert!(s.holds_unused_tile(1, TileKind::FieldScientist));
    assert_eq!(
        s.bonus_spaces[board_space("tile_field_scientist") as usize],
        Some(Marker {
            seat: 0,
            one_time: false
        })
    );
    act(
        &mut s,
        1,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(s.seats[1].tank, 2);
    everyone_drops_out(&mut s);
    assert_eq!(
        s.tile(TileKind::FieldScientist),
        TileState::Held {
            seat: 0,
            used: false,
            on_card: None
        },
        "Lin's reservation gives her the tile next round"
    );
}

// ------------------------------------------------------------------------------------------
// EX-17 thresholds, track bonus from the next turn

#[test]
fn ex17_threshold_pays_the_mover_and_those_past_it_bonus_from_next_turn() {
    let d = data();
    let mut s = blank(3);
    let a1 = &d.tracks.tracks[s.tracks[ci(Skymine)]];
    assert_eq!(a1.id, "A1");
    let th = &a1.bonus_thresholds[0];
    assert_eq!(th.coins, 1);
    let past = th.after_space as u8 + 2;
    s.seats[1].track_pos[ci(Skymine)] = past;
    s.seats[2].track_pos[ci(Skymine)] = past;
    s.seats[0].track_pos[ci(Skymine)] = th.after_space as u8 - 1;
    up(&mut s, 0, 1, card("B06")); // 3 titanium
    clear_display(&mut s);
    use_resources(&mut s, 0, Some(Titanium), &[card("B06")]);
    assert_eq!(top(&s), &Task::SpendUnits { seat: 0, units: 3 });
    act(&mut s, 0, D::TrackStep { company: Skymine });
    assert_eq!(
        [s.seats[0].coins, s.seats[1].coins, s.seats[2].coins],
        [0; 3]
    );
    act(&mut s, 0, D::TrackStep { company: Skymine });
    assert_eq!(
        [s.seats[0].coins, s.seats[1].coins, s.seats[2].coins],
        [1; 3]
    );
    let bonus = track_bonus(&th.unlocks) as usize;
    assert!(
        !s.has_bonus(0, bonus),
        "not during the action that unlocks it"
    );
    assert_ne!(s.seats[0].bonus_pending & (1 << bonus), 0);
    act(&mut s, 0, D::TrackStep { company: Skymine });
    assert_eq!(s.seats[0].track_pos[ci(Skymine)], th.after_space as u8 + 2);
    assert!(s.has_bonus(0, bonus), "usable from the next turn on");
    assert_eq!(s.seats[0].bonus_pending, 0);
    assert!(
        !s.has_bonus(1, bonus),
        "passing it earlier unlocked nothing here"
    );
}

// ------------------------------------------------------------------------------------------
// EX-18 "+1" tile

#[test]
fn ex18_plus_one_tile_makes_a_2_carbon_card_a_3_and_is_flipped_with_it() {
    let mut s = blank(2);
    let c2 = resource_card(Carbon, 2);
    up(&mut s, 0, 1, c2);
    up(&mut s, 0, 2, resource_card(Carbon, 1));
    hold_tile(&mut s, 0, TileKind::PlusOne);
    clear_display(&mut s);
    act(&mut s, 0, D::PlaceTile { card: c2 });
    assert_eq!(top(&s), &Task::ChooseAction { seat: 0 }, "not an action");
    let err = refused(
        &mut s,
        0,
        D::PlaceTile {
            card: resource_card(Carbon, 1),
        },
    );
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("cannot move")));
    let ev = use_resources(&mut s, 0, Some(Carbon), &[c2]);
    assert!(texts(&ev).contains("for 3 units"));
    act_all(
        &mut s,
        0,
        &[
            D::TrackStep { company: Tawac },
            D::TrackStep { company: Tawac },
            D::TrackStep { company: Tawac },
        ],
    );
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(c2)));
    assert_eq!(
        s.tile(TileKind::PlusOne),
        TileState::Held {
            seat: 0,
            used: true,
            on_card: Some(c2)
        }
    );
}

// ------------------------------------------------------------------------------------------
// EX-22, EX-23, EX-24 research plan rewards and requirements

/// Lin's research scientist moves onto `plan` on screen 1 (if she can) with `cards` face up;
/// returns the coins gained before the card's research points are utilized.
fn research_onto(plan_id: &str, cards: &[&str]) -> u32 {
    let mut s = blank(2);
    up(&mut s, 0, 0, research_scientist(2));
    for (i, c) in cards.iter().enumerate() {
        up(&mut s, 0, i + 1, card(c));
    }
    put_plan(&mut s, 0, 0, PlanRef::Regular(plan(plan_id)));
    act(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Slot(0),
        },
    );
    act(&mut s, 0, D::Advance);
    assert_eq!(s.seats[0].upload, Some(0));
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 2 });
    s.seats[0].coins
}

#[test]
fn ex22_titanium_minus_one_reward() {
    // 6 titanium face up → 5 CrypCoin; 4 → 3.
    assert_eq!(research_onto("B03", &["C05", "diamond-titanium2"]), 5);
    assert_eq!(research_onto("B03", &["C05"]), 4 - 1);
}

/// Whether Lin may advance onto `plan` with `cards` face up (her research scientist aside).
fn can_enter(plan_id: &str, cards: &[&str]) -> bool {
    let mut s = blank(2);
    up(&mut s, 0, 0, research_scientist(2));
    for (i, c) in cards.iter().enumerate() {
        up(&mut s, 0, i + 1, card(c));
    }
    put_plan(&mut s, 0, 0, PlanRef::Regular(plan(plan_id)));
    s.agenda = vec![Task::ResearchAdvance {
        seat: 0,
        source: ActionSource::Slot(0),
        entered: None,
    }];
    is_legal(&s, 0, D::Advance)
}

#[test]
fn ex23_three_carbon_and_three_of_one_type() {
    assert_eq!(
        data().research.plans[plan("C05") as usize].requirements,
        vec![Requirement::ThreeCarbonThreeOfOneType]
    );
    assert!(can_enter("C05", &["B01", "B06"])); // 3C + 3T
    assert!(can_enter("C05", &["B01", "B03"])); // 3C + 3M
    assert!(can_enter("C05", &["C01", "diamond-carbon2"])); // 6C
    assert!(!can_enter(
        "C05",
        &["B01", "diamond-titanium2", "diamond-minerals1"]
    )); // 3C+2T+1M
    assert!(!can_enter(
        "C05",
        &["C01", "diamond-carbon1", "diamond-titanium2"]
    )); // 5C+2T
}

#[test]
fn ex24_four_units_of_one_type() {
    assert_eq!(
        data().research.plans[plan("B05") as usize].requirements,
        vec![Requirement::FourOfOneType]
    );
    assert!(can_enter("B05", &["C05"])); // 4T
    assert!(can_enter("B05", &["diamond-minerals2", "star-minerals2"])); // 4M
    assert!(can_enter("B05", &["C01"])); // 4C
    assert!(!can_enter("B05", &["diamond-titanium2", "diamond-carbon2"])); // 2T + 2C
}

#[test]
fn the_advancing_research_scientist_does_not_meet_a_scientist_requirement() {
    // B07 needs "either scientist": the card that moves the marker does not count.
    assert!(!can_enter("B07", &[]));
    assert!(can_enter("B07", &["A09"]));
    assert!(can_enter("B07", &["B13"]));
}

// ------------------------------------------------------------------------------------------
// EX-25 discard-action bonus, EX-26 P-TITANIUM

fn discard_action_position(bonuses: &[&str]) -> GameState {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "E2"]));
    unlock(&mut s, 0, "B-DISCARD-ACTION-1");
    for b in bonuses {
        unlock(&mut s, 0, b);
    }
    let e3 = energy_card(3);
    up(&mut s, 0, 1, e3);
    s.seats[0].hand = vec![energy_card(2), card("B06")];
    act(&mut s, 0, track_space("B-DISCARD-ACTION-1"));
    act(
        &mut s,
        0,
        D::DiscardCard {
            card: energy_card(2),
        },
    );
    s
}

#[test]
fn ex25_discard_action_with_an_energy_card_expands_with_its_points_only() {
    let mut s = discard_action_position(&[]);
    // Buying from the pile needs 2 CrypCoin: performing the action is the only option.
    assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy: 2 });
    assert_eq!(s.discard, vec![energy_card(2)]);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    act(
        &mut s,
        0,
        D::EnterSector {
            sector: 21,
            column: 0,
        },
    );
    act(
        &mut s,
        0,
        D::EnterSector {
            sector: 22,
            column: 0,
        },
    );
    assert_eq!(s.outposts_on_board(Minerva), 2);
    assert_eq!(s.seats[0].tank, 1, "gas collector in 22");
    act(&mut s, 0, D::TakeCoin);
    assert_eq!(
        slot(&s, 0, 1),
        Some(SlotCard::Up(energy_card(3))),
        "energy cards in the action area are not used"
    );
    assert_eq!(waiting(&s), vec![1]);

    // Permanent bonuses of other tracks apply to the discarded card.
    let s = discard_action_position(&["P-ENERGY-1"]);
    assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy: 3 });
}

#[test]
fn discard_action_either_or_and_the_and_or_version() {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "E2"]));
    unlock(&mut s, 0, "B-DISCARD-ACTION-1");
    s.seats[0].coins = 3;
    s.discard = vec![card("C05")];
    s.seats[0].hand = vec![field_scientist(None), card("B06")];
    act(&mut s, 0, track_space("B-DISCARD-ACTION-1"));
    act(
        &mut s,
        0,
        D::DiscardCard {
            card: field_scientist(None),
        },
    );
    assert_eq!(
        legal(&s, 0),
        vec![D::ChooseOption { option: 0 }, D::ChooseOption { option: 1 }],
        "the first bonus: either perform or buy"
    );
    act(&mut s, 0, D::ChooseOption { option: 1 });
    act(&mut s, 0, D::TakeFromDiscard { card: card("C05") });
    assert_eq!(s.seats[0].coins, 1);
    assert!(s.seats[0].hand.contains(&card("C05")));
    assert_eq!(s.seats[0].tank, 0);

    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "E2"]));
    unlock(&mut s, 0, "B-DISCARD-ACTION-2");
    s.seats[0].coins = 3;
    s.discard = vec![card("C05")];
    s.seats[0].hand = vec![field_scientist(None), card("B06")];
    act(&mut s, 0, track_space("B-DISCARD-ACTION-2"));
    act(
        &mut s,
        0,
        D::DiscardCard {
            card: field_scientist(None),
        },
    );
    assert!(is_legal(&s, 0, D::ChooseOption { option: 2 }));
    act(&mut s, 0, D::ChooseOption { option: 2 });
    // The field scientist's action (tank +1, 2 CrypCoin), then the purchase.
    assert_eq!((s.seats[0].tank, s.seats[0].coins), (1, 5));
    act(&mut s, 0, D::TakeFromDiscard { card: card("C05") });
    assert_eq!(s.seats[0].coins, 3);
    assert!(s.seats[0].hand.contains(&card("C05")));
}

#[test]
fn ex26_p_titanium_second_bonus_makes_a_2_titanium_card_a_3() {
    let mut s = blank(2);
    unlock(&mut s, 0, "P-TITANIUM-2");
    let t2 = resource_card(Titanium, 2);
    up(&mut s, 0, 1, t2);
    clear_display(&mut s);
    let ev = use_resources(&mut s, 0, Some(Titanium), &[t2]);
    assert!(texts(&ev).contains("for 3 units"));
}

#[test]
fn both_p_titanium_bonuses_are_not_cumulative() {
    // A card of total cost 3 bought with one 2-unit titanium card.
    let run = |bonuses: &[&str]| {
        let mut s = blank(2);
        for b in bonuses {
            unlock(&mut s, 0, b);
        }
        let t2 = resource_card(Titanium, 2);
        up(&mut s, 0, 1, t2);
        clear_display(&mut s);
        display(&mut s, 3, card("A05"));
        display(&mut s, 12, card("C05"));
        use_resources(&mut s, 0, Some(Titanium), &[t2]);
        act(&mut s, 0, D::BuyCard { space: 3 });
        s.agenda.last().cloned()
    };
    // First bonus: cost 3 - 1 = 2 with 2 units; second: 3 units for cost 3. Nothing left over
    // either way: with both, still nothing left (not 3 units for cost 2).
    for bonuses in [
        &["P-TITANIUM-1"][..],
        &["P-TITANIUM-2"],
        &["P-TITANIUM-1", "P-TITANIUM-2"],
    ] {
        assert_eq!(
            run(bonuses),
            Some(Task::ChooseAction { seat: 1 }),
            "{bonuses:?}"
        );
    }
}

#[test]
fn p_energy_adds_to_the_energy_total_and_is_not_cumulative() {
    for (bonuses, energy) in [
        (&[][..], 2),
        (&["P-ENERGY-1"][..], 3),
        (&["P-ENERGY-2"][..], 4),
        (&["P-ENERGY-1", "P-ENERGY-2"][..], 4),
    ] {
        let mut s = blank(2);
        for b in bonuses {
            unlock(&mut s, 0, b);
        }
        up(&mut s, 0, 1, energy_card(2));
        act(&mut s, 0, D::UseEnergy);
        assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy });
    }
}

// ------------------------------------------------------------------------------------------
// DT-1 .. DT-8

#[test]
fn dt1_ousted_outposts_return_to_the_lowest_vacant_space_never_the_crossed_out_one() {
    let d = data();
    let mut s = blank(2);
    // Skymine: column 1 holds spaces 3-5, column 2 is empty (crossed-out space revealed),
    // column 3 is full. Its outpost in 24 is ousted by Minerva.
    s.stations[ci(Skymine)] = [
        Column {
            outposts: 3,
            floor_revealed: false,
        },
        Column {
            outposts: 0,
            floor_revealed: true,
        },
        Column::full(),
    ];
    s.sectors[23] = Some(Skymine);
    up(&mut s, 0, 1, energy_card(3));
    let before = s.share_value(d, Skymine);
    act_all(
        &mut s,
        0,
        &[
            D::UseEnergy,
            D::ChooseCompany { company: Minerva },
            D::EnterSector {
                sector: 24,
                column: 0,
            },
            D::TakeCoin,
            D::TakeCoin,
        ],
    );
    assert_eq!(
        legal(&s, 0),
        vec![
            D::ReturnOutpost { column: 0 },
            D::ReturnOutpost { column: 1 }
        ]
    );
    let mut g = s.clone();
    act(&mut g, 0, D::ReturnOutpost { column: 0 });
    let col = g.stations[ci(Skymine)][0];
    assert_eq!(col.outposts, 4);
    assert!(col.covers(2) && !col.covers(1), "space 2 receives it");
    act(&mut s, 0, D::ReturnOutpost { column: 1 });
    let col = s.stations[ci(Skymine)][1];
    assert!(
        col.covers(4) && !col.covers(5),
        "space 4, above the crossed-out space"
    );
    // The 2 coins of the crossed-out space stay visible; the 1 coin of space 4 is covered.
    let coins = d.moon.station_layout.column_coins();
    assert_eq!(s.share_value(d, Skymine), before - coins[1][3]);
    assert!(!Column {
        outposts: 4,
        floor_revealed: true
    }
    .has_room());
}

#[test]
fn dt2_tank_overflow_on_the_final_space_pays_2_per_step() {
    let d = data();
    let last = d.player_board.tank_track.final_step as u8;
    let mut s = blank(2);
    s.seats[0].tank = last - 1;
    up(&mut s, 0, 0, research_scientist(2));
    up(&mut s, 0, 1, card("C03")); // 4 minerals
    up(&mut s, 0, 2, card("A03")); // 2 minerals
    put_plan(&mut s, 0, 0, PlanRef::Regular(plan("C03"))); // 6 minerals: tank +3
    act(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Slot(0),
        },
    );
    act(&mut s, 0, D::Advance);
    assert_eq!(s.seats[0].tank, last);
    assert_eq!(s.seats[0].coins, 4);
    // Further tank steps only pay.
    act_all(&mut s, 0, &[D::TakeCoin, D::TakeCoin]);
    turn_of(&mut s, 0);
    up(&mut s, 0, 3, field_scientist(None));
    act(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Slot(3),
        },
    );
    assert_eq!(s.seats[0].tank, last);
    assert_eq!(s.seats[0].coins, 6 + 2 + 2);
}

#[test]
fn the_tank_on_space_switches_the_left_slot_when_reached_or_passed() {
    let d = data();
    let on = d.player_board.tank_track.on_step as u8;
    let mut s = blank(2);
    s.seats[0].tank = on - 1;
    up(&mut s, 0, 1, field_scientist(Some(Astrogo)));
    assert!(!s.seats[0].slot_on[0]);
    let ev = act(&mut s, 0, D::UseField { source: SLOT1 });
    assert_eq!(s.seats[0].tank, on + 1);
    assert!(s.seats[0].slot_on[d.player_board.tank_slot()]);
    assert!(texts(&ev).contains("switches on the left additional action slot"));
}

#[test]
fn dt3_first_player_space_not_on_the_first_players_first_turn() {
    let mut s = blank(2);
    s.seats[0].coins = 1;
    let err = refused(&mut s, 0, board("first_player"));
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("first turn")));
    act(&mut s, 0, board("tile_plus_one_resource"));
    act(&mut s, 1, D::DropOut);
    act(&mut s, 0, board("first_player"));
    act(&mut s, 0, D::TakeCoin);
    assert_eq!(
        (s.first_player, s.next_first_player),
        (0, 0),
        "Lin keeps it"
    );

    // Malik may take it on his first turn; the order of this round does not change.
    let mut s = blank(2);
    s.seats[0].coins = 1;
    act(&mut s, 0, board("tile_plus_one_resource"));
    act(&mut s, 1, board("first_player"));
    act(&mut s, 1, D::TakeCoin);
    assert_eq!((s.first_player, s.next_first_player), (0, 1));
    assert_eq!(waiting(&s), vec![0]);
    everyone_drops_out(&mut s);
    assert_eq!(s.first_player, 1);
    act(&mut s, 0, D::PlanDone);
    act(&mut s, 1, D::PlanDone);
    assert_eq!(waiting(&s), vec![1], "Malik starts round 2");
}

#[test]
fn dt4_only_one_of_the_two_d2_bonus_spaces_and_not_d2_itself() {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "D2"]));
    unlock(&mut s, 0, "B-TRACKS-1");
    unlock(&mut s, 0, "B-TRACKS-2");
    s.seats[0].coins = 5;
    let ev = act(&mut s, 0, track_space("B-TRACKS-1"));
    assert_eq!(s.seats[0].coins, 4);
    // The line names the space by its track (no internal id) and what it does, in either language.
    let placed = ev
        .iter()
        .find(|e| e.key == "event.track_bonus_marker")
        .expect("the placement is announced");
    assert!(
        placed.text().ends_with(
            "on a bonus space of the Tawac Industries track: “Pay 1: two other company tracks (not D2): +3 on one, +2 on the other.”"
        ),
        "{}",
        placed.text()
    );
    assert!(
        placed
            .render(skymines::text::german())
            .ends_with("der Leiste von Tawac Industries: „Zahle 1: zwei andere Unternehmensleisten (nicht D2): +3 auf der einen, +2 auf der anderen.“"),
        "{}",
        placed.render(skymines::text::german())
    );
    let err = refused(&mut s, 0, D::ChooseCompany { company: Tawac });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("cannot be chosen")));
    act(&mut s, 0, D::ChooseCompany { company: Skymine });
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    assert_eq!(s.seats[0].track_pos, [3, 2, 0, 0]);
    act(&mut s, 1, D::DropOut);
    let err = refused(&mut s, 0, track_space("B-TRACKS-2"));
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("only one of the two")));
    let err = refused(&mut s, 0, track_space("B-TRACKS-1"));
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("occupied")));
}

#[test]
fn b_tracks_second_bonus_moves_all_three_other_tracks() {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "D2"]));
    unlock(&mut s, 0, "B-TRACKS-2");
    s.seats[0].coins = 1;
    act(&mut s, 0, track_space("B-TRACKS-2"));
    act(&mut s, 0, D::ChooseCompany { company: Astrogo });
    act(&mut s, 0, D::ChooseCompany { company: Skymine });
    // The last track is the only one left: chosen by itself.
    assert_eq!(s.seats[0].track_pos, [2, 2, 3, 0]);
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn majority_against_other_players_counts_their_permanent_energy_bonus() {
    let run = |malik_bonus: Option<&str>| {
        let mut s = blank(2);
        up(&mut s, 0, 1, energy_card(3));
        up(&mut s, 1, 1, energy_card(2));
        if let Some(b) = malik_bonus {
            unlock(&mut s, 1, b);
        }
        engine::apply(data(), &mut s, 0, board("majority_energy")).map(|_| ())
    };
    assert!(run(None).is_ok(), "3 against 2");
    assert!(
        run(Some("P-ENERGY-1")).is_ok(),
        "3 against 3: a tie is allowed"
    );
    let err = run(Some("P-ENERGY-2")).expect_err("3 against 4");
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("has more (4) than you (3)"))
    );
}

#[test]
fn dt6_card_display_refill_discards_the_right_column_and_slides_rows_right() {
    let mut s = blank(2);
    clear_display(&mut s);
    let (x, y) = (card("A01"), card("A02"));
    let (p, q, r) = (card("A03"), card("A04"), card("A05"));
    // Row 1 (spaces 9, 5, 1 from left to right): X on 1, nothing on 5, Y on 9.
    display(&mut s, 1, x);
    display(&mut s, 9, y);
    // Row 2 (10, 6, 2): P on 2, Q on 6, R on 10.
    display(&mut s, 2, p);
    display(&mut s, 6, q);
    display(&mut s, 10, r);
    let mut stack = s.action_stack.clone();
    everyone_drops_out(&mut s);
    assert_eq!(s.discard, vec![x, p]);
    let mut expected = [None; 12];
    expected[0] = Some(y);
    expected[1] = Some(q);
    expected[5] = Some(r);
    for space in expected.iter_mut() {
        if space.is_none() {
            *space = stack.pop();
        }
    }
    assert_eq!(s.display, expected);
    assert_eq!(s.action_stack, stack);
}

#[test]
fn dt7_on_the_final_screen_research_points_become_2_coins_each() {
    let d = data();
    let last = d.player_board.research_track.final_screen as u8;
    let mut s = blank(2);
    up(&mut s, 0, 1, research_scientist(3));
    put_plan(&mut s, 0, last as usize, PlanRef::Regular(plan("A01")));
    s.seats[0].upload = Some(last);
    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    assert_eq!(s.seats[0].coins, 6);
    assert!(s.seats[0].acquired.is_empty());
    assert_eq!(waiting(&s), vec![1]);

    // Reaching the final screen during the action: its reward, then the card's points, as coins.
    let mut s = blank(2);
    up(&mut s, 0, 1, research_scientist(3));
    up(&mut s, 0, 2, resource_card(Carbon, 2));
    put_plan(&mut s, 0, last as usize - 1, PlanRef::Regular(plan("A01")));
    put_plan(&mut s, 0, last as usize, PlanRef::Regular(plan("A06"))); // 3 minerals: 2 RP
    s.seats[0].upload = Some(last - 1);
    up(&mut s, 0, 3, card("B03"));
    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    act(&mut s, 0, D::Advance);
    assert_eq!(s.seats[0].upload, Some(last));
    assert_eq!(s.seats[0].coins, 4 + 6);
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn dt8_a_flipped_special_plan_costs_nothing_and_scores_nothing() {
    let d = data();
    let mut s = blank(2);
    up(&mut s, 0, 1, research_scientist(2));
    s.seats[0].research[0] = Some(PlacedPlan {
        plan: PlanRef::Special(0),
        face_down: false,
    });
    // Face up with no coins: it cannot be entered.
    let mut g = s.clone();
    g.agenda = vec![Task::ResearchAdvance {
        seat: 0,
        source: SLOT1,
        entered: None,
    }];
    let err = refused(&mut g, 0, D::Advance);
    assert_eq!(err, RuleError::NotEnoughCoins { have: 0, need: 2 });
    s.seats[0].research[0] = Some(PlacedPlan {
        plan: PlanRef::Special(0),
        face_down: true,
    });
    act(&mut s, 0, D::UseResearch { source: SLOT1 });
    act(&mut s, 0, D::Advance);
    assert_eq!(s.seats[0].upload, Some(0));
    assert_eq!(s.seats[0].coins, 0);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 2 });
    assert_eq!(research_score(d, &s, 0), 0);
    s.seats[0].research[0] = Some(PlacedPlan {
        plan: PlanRef::Special(0),
        face_down: false,
    });
    assert_eq!(research_score(d, &s, 0), d.research.special_plans[0].value);
}

// ------------------------------------------------------------------------------------------
// Special cases of the actions (rulebook notes)

/// Lin takes the minerals majority's first tier (Minerva +2) from `pos` with `coins`.
fn minerva_majority_from(pos: u8, coins: u32) -> GameState {
    let mut s = blank(2);
    up(&mut s, 0, 1, card("A03")); // 2 minerals: the first tier only
    s.seats[0].track_pos[ci(Minerva)] = pos;
    s.seats[0].coins = coins;
    act(&mut s, 0, board("majority_minerals"));
    s
}

fn first_barrier(s: &GameState, company: Company) -> (u8, u32) {
    let track = &data().tracks.tracks[s.tracks[company.index()]];
    let b = &track.money_barriers[0];
    (b.after_space as u8, b.cost)
}

#[test]
fn money_barrier_on_a_reward_move_asks_to_pay_or_stop() {
    let (at, cost) = first_barrier(&blank(2), Minerva);
    // Pay: the marker passes the barrier and the rest of the move goes on.
    let mut s = minerva_majority_from(at - 1, cost + 1);
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], at);
    assert_eq!(
        top(&s),
        &Task::TrackMove {
            seat: 0,
            company: Minerva,
            steps: 1
        }
    );
    assert_eq!(legal(&s, 0), vec![D::PayBarrier, D::DeclineBarrier]);
    act(&mut s, 0, D::PayBarrier);
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], at + 1);
    assert_eq!(s.seats[0].coins, 1);
    assert_eq!(waiting(&s), vec![1]);
    // Decline: the marker stays before the barrier, the rest is forfeited.
    let mut s = minerva_majority_from(at - 1, cost + 1);
    let ev = act(&mut s, 0, D::DeclineBarrier);
    assert!(texts(&ev).contains("stops before the money barrier"));
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], at);
    assert_eq!(s.seats[0].coins, cost + 1);
    assert_eq!(waiting(&s), vec![1]);
    // Cannot pay: it stops without a question.
    let s = minerva_majority_from(at - 1, cost - 1);
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], at);
    assert_eq!(waiting(&s), vec![1]);
}

/// Lin uses one 1-unit carbon card with an empty display: one unit for the tracks.
fn one_unit_to_spend(s: &mut GameState) {
    let c1 = resource_card(Carbon, 1);
    up(s, 0, 1, c1);
    clear_display(s);
    use_resources(s, 0, Some(Carbon), &[c1]);
}

#[test]
fn resource_units_pay_money_barriers_and_are_forfeited_only_when_every_track_is_blocked() {
    let (at, cost) = first_barrier(&blank(2), Minerva);
    let mut s = blank(2);
    s.seats[0].track_pos[ci(Minerva)] = at;
    s.seats[0].coins = cost;
    one_unit_to_spend(&mut s);
    assert_eq!(top(&s), &Task::SpendUnits { seat: 0, units: 1 });
    let err = refused(&mut s, 0, D::StopTracks);
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("track is free")));
    act(&mut s, 0, D::TrackStep { company: Minerva });
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], at + 1);
    assert_eq!(s.seats[0].coins, 0);

    let mut s = blank(2);
    s.seats[0].track_pos[ci(Minerva)] = at;
    one_unit_to_spend(&mut s);
    let err = refused(&mut s, 0, D::TrackStep { company: Minerva });
    assert_eq!(
        err,
        RuleError::NotEnoughCoins {
            have: 0,
            need: cost
        }
    );

    // Every track at a money barrier: with no coins the unit is forfeited at once.
    let mut blocked = blank(2);
    for c in Company::ALL {
        blocked.seats[0].track_pos[ci(c)] = first_barrier(&blocked, c).0;
    }
    let mut s = blocked.clone();
    let before = s.seats[0].track_pos;
    one_unit_to_spend(&mut s);
    assert_eq!(s.seats[0].track_pos, before);
    assert_eq!(waiting(&s), vec![1]);
    // With coins the player may pay one of them, or not.
    let mut s = blocked.clone();
    s.seats[0].coins = 5;
    one_unit_to_spend(&mut s);
    assert!(is_legal(&s, 0, D::TrackStep { company: Skymine }));
    let ev = act(&mut s, 0, D::StopTracks);
    assert!(texts(&ev).contains("forfeits 1 unit"));
    assert_eq!((s.seats[0].track_pos, s.seats[0].coins), (before, 5));
}

#[test]
fn the_end_of_a_track_stops_the_marker_and_forfeits_the_rest() {
    let mut s = blank(2);
    let last = track_len(&s, Skymine);
    s.seats[0].track_pos[ci(Skymine)] = last;
    one_unit_to_spend(&mut s);
    let err = refused(&mut s, 0, D::TrackStep { company: Skymine });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("end of the")));
    act(&mut s, 0, D::TrackStep { company: Tawac });

    // A reward of 2 steps one space before the end: 1 step, 1 forfeited.
    let mut s = blank(2);
    s.seats[0].track_pos[ci(Skymine)] = last - 1;
    s.seats[0].coins = 10;
    up(&mut s, 0, 1, energy_card(2));
    act(&mut s, 0, board("majority_energy"));
    assert_eq!(s.seats[0].track_pos[ci(Skymine)], last);
    assert_eq!(s.seats[0].coins, 10);
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn a2_extra_bonus_markers_arrive_at_the_end_of_the_turn_two_in_total() {
    let d = data();
    let mut s = blank_with(&options_with_tracks(2, ["A2", "B1", "C1", "D1"]));
    let a2 = &d.tracks.tracks[s.tracks[ci(Skymine)]];
    assert_eq!(a2.id, "A2");
    let (first, second) = (&a2.bonus_thresholds[0], &a2.bonus_thresholds[1]);
    assert_eq!(s.seats[0].markers_total, 3);
    let c2 = resource_cards(Carbon, 2, 2);
    up(&mut s, 0, 1, c2[0]);
    up(&mut s, 0, 2, c2[1]);
    clear_display(&mut s);
    s.seats[0].track_pos[ci(Skymine)] = first.after_space as u8;
    use_resources(&mut s, 0, Some(Carbon), &[c2[0]]);
    act_all(&mut s, 0, &[D::TrackStep { company: Skymine }]);
    assert_eq!(
        (s.seats[0].markers_total, s.seats[0].markers_reserve),
        (3, 3),
        "not during the action"
    );
    act(&mut s, 0, D::TrackStep { company: Tawac });
    assert_eq!(
        (s.seats[0].markers_total, s.seats[0].markers_reserve),
        (4, 4)
    );
    // The second bonus of the pair: 2 additional markers in total, not 1 + 2.
    turn_of(&mut s, 0);
    s.seats[0].track_pos[ci(Skymine)] = second.after_space as u8;
    use_resources(&mut s, 0, Some(Carbon), &[c2[1]]);
    act_all(
        &mut s,
        0,
        &[
            D::TrackStep { company: Skymine },
            D::TrackStep { company: Tawac },
        ],
    );
    assert_eq!(
        (s.seats[0].markers_total, s.seats[0].markers_reserve),
        (5, 5)
    );
}

#[test]
fn linked_slots_starting_cards_and_drop_out_go_straight_up() {
    let linked = GameOptions {
        linked_slots: true,
        ..options(2, 3)
    };
    let mut s = new_game(&linked);
    assert_eq!(s.phase, Phase::Setup);
    assert_eq!(waiting(&s), vec![0, 1]);
    for seat in 0..2 {
        let cards = s.seats[seat].pending_rest.clone();
        assert_eq!(cards.len(), 3);
        let err = refused(
            &mut s,
            seat,
            D::RestStartingCard {
                card: cards[0],
                slot: 0,
            },
        );
        assert!(
            matches!(&err, RuleError::Illegal(m) if m.to_string().contains("central resting slots"))
        );
        // In an order of the player's choosing.
        for (card, slot) in cards.iter().rev().zip(1..=3u8) {
            act(&mut s, seat, D::RestStartingCard { card: *card, slot });
        }
        assert_eq!(s.seats[seat].resting[1], vec![cards[2]]);
        assert_eq!(s.seats[seat].resting[3], vec![cards[0]]);
        assert!(cards.iter().all(|c| !s.seats[seat].hand.contains(c)));
    }
    assert_eq!(s.phase, Phase::Planning);

    let mut s = blank_with(&linked);
    let (a, b) = (card("A01"), card("A03"));
    s.seats[0].slots[1] = Some(SlotCard::Used(a));
    s.seats[0].slots[3] = Some(SlotCard::Up(b));
    act(&mut s, 0, D::DropOut);
    let err = refused(&mut s, 0, D::RestCard { card: a, slot: 2 });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("linked slots")));
    act(&mut s, 0, D::RestCard { card: a, slot: 1 });
    assert_eq!(s.seats[0].resting[1], vec![a]);
    assert_eq!(
        s.seats[0].resting[3],
        vec![b],
        "the last card has one place only"
    );
    assert!(s.seats[0].dropped_out);
}

#[test]
fn planning_is_revealed_only_when_everyone_has_planned_and_can_be_changed_until_then() {
    use skymines::engine::view::SlotView;
    let d = data();
    let mut s = new_game(&options(2, 5));
    assert_eq!(s.phase, Phase::Planning);
    let (c1, c2) = (s.seats[0].hand[0], s.seats[0].hand[1]);
    act(&mut s, 0, D::PlanCard { card: c1, slot: 1 });
    let err = refused(&mut s, 0, D::PlanCard { card: c2, slot: 0 });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("not switched on")));
    act(&mut s, 0, D::PlanDone);
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Planned(c1)));
    assert_eq!(
        engine::view(d, &s, Some(1)).seats[0].slots[1],
        SlotView::Hidden
    );
    assert_eq!(
        engine::view(d, &s, Some(0)).seats[0].slots[1],
        SlotView::OwnPlanned(c1)
    );
    let err = refused(&mut s, 0, D::PlanCard { card: c2, slot: 2 });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("clear your plan")));
    // Lin changes her plan while Malik is still planning.
    assert!(is_legal(&s, 0, D::PlanClear));
    act(&mut s, 0, D::PlanClear);
    assert!(s.seats[0].hand.contains(&c1));
    assert!(s.seats[0].slots.iter().all(Option::is_none));
    assert!(!s.seats[0].planned);
    act(&mut s, 0, D::PlanCard { card: c2, slot: 2 });
    act(&mut s, 0, D::PlanDone);
    act(&mut s, 1, D::PlanDone);
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(slot(&s, 0, 2), Some(SlotCard::Up(c2)));
    let err = refused(&mut s, 0, D::PlanClear);
    assert!(matches!(err, RuleError::NotNow(_)));
}

#[test]
fn an_enclave_is_entered_only_through_its_ring() {
    let mut s = blank(2);
    s.sectors[14] = Some(Skymine); // sector 15
    up(&mut s, 0, 1, energy_card(3));
    act_all(
        &mut s,
        0,
        &[D::UseEnergy, D::ChooseCompany { company: Skymine }],
    );
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 14,
            column: 0,
        },
    );
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("not adjacent")));
    act(
        &mut s,
        0,
        D::EnterSector {
            sector: 13,
            column: 0,
        },
    );
    act(
        &mut s,
        0,
        D::EnterSector {
            sector: 14,
            column: 0,
        },
    );
    assert_eq!(s.sectors[12], Some(Skymine));
    assert_eq!(s.sectors[13], Some(Skymine));
    act(&mut s, 0, D::StopExpanding);
    assert_eq!(s.seats[0].tank, 2, "the 2-space gas collector in 14");
}

#[test]
fn an_empty_station_cannot_expand_and_running_out_forfeits_the_rest() {
    let empty = Column {
        outposts: 0,
        floor_revealed: true,
    };
    let mut s = blank(2);
    s.stations[ci(Minerva)] = [empty; 3];
    up(&mut s, 0, 1, energy_card(3));
    act(&mut s, 0, D::UseEnergy);
    let err = refused(&mut s, 0, D::ChooseCompany { company: Minerva });
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("no outposts left")));

    let mut s = blank(2);
    s.stations[ci(Minerva)] = [
        Column {
            outposts: 1,
            floor_revealed: false,
        },
        empty,
        empty,
    ];
    up(&mut s, 0, 1, energy_card(3));
    act_all(
        &mut s,
        0,
        &[
            D::UseEnergy,
            D::ChooseCompany { company: Minerva },
            D::EnterSector {
                sector: 21,
                column: 0,
            },
        ],
    );
    assert_eq!(s.outposts_in_station(Minerva), 0);
    assert!(s.stations[ci(Minerva)][0].floor_revealed);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 1 });
}

#[test]
fn an_ousted_outpost_with_no_vacant_home_space_is_removed_from_the_game() {
    let mut s = blank(2);
    s.stations[ci(Skymine)][2] = Column {
        outposts: 4,
        floor_revealed: true,
    };
    s.sectors[23] = Some(Skymine);
    up(&mut s, 0, 1, energy_card(3));
    act_all(
        &mut s,
        0,
        &[
            D::UseEnergy,
            D::ChooseCompany { company: Minerva },
            D::EnterSector {
                sector: 24,
                column: 0,
            },
            D::TakeCoin,
            D::TakeCoin,
        ],
    );
    assert_eq!(s.removed_outposts[ci(Skymine)], 1);
    assert_eq!(s.outposts_in_station(Skymine), 14);
    assert_eq!(s.sectors[23], Some(Minerva));
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn research_plan_placement_rules() {
    let mut s = blank(2);
    s.seats[0].upload = Some(2);
    put_plan(&mut s, 0, 1, PlanRef::Regular(plan("A02")));
    put_plan(&mut s, 0, 2, PlanRef::Regular(plan("A03")));
    put_plan(&mut s, 0, 3, PlanRef::Regular(plan("A04")));
    put_plan(&mut s, 0, 9, PlanRef::Regular(plan("B02")));
    s.seats[0].acquired = vec![
        PlanRef::Regular(plan("A01")),
        PlanRef::Regular(plan("B01")),
        PlanRef::Regular(plan("A05")),
    ];
    s.agenda = vec![Task::EndTurn { seat: 0 }, Task::PlacePlans { seat: 0 }];
    let crossed = &data().player_board.research_track.crossed_out_a.screens;
    assert!(crossed.contains(&7) && crossed.contains(&9));
    let err = refused(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 7,
        },
    );
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("crossed-out A")));
    for screen in [1, 2] {
        let err = refused(&mut s, 0, D::PlacePlan { index: 0, screen });
        assert!(
            matches!(&err, RuleError::Illegal(m) if m.to_string().contains("not reached or passed"))
        );
    }
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 1,
            screen: 7,
        },
    ); // B plan on an empty crossed-out A
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 3,
        },
    ); // covers a plan not reached yet
    act(
        &mut s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 9,
        },
    ); // A plan on a crossed-out A with a plan
    let at = |i: usize| s.seats[0].research[i].map(|p| p.plan);
    assert_eq!(at(7), Some(PlanRef::Regular(plan("B01"))));
    assert_eq!(at(3), Some(PlanRef::Regular(plan("A01"))));
    assert_eq!(at(9), Some(PlanRef::Regular(plan("A05"))));
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn the_supplement_coins_go_with_a_plan_from_a_red_framed_space() {
    let d = data();
    assert!(d
        .board
        .supplement_space
        .linked_spaces
        .contains(&"B0".to_string()));
    let mut s = blank(2);
    s.supplement_coins = 3;
    s.agenda = vec![
        Task::EndTurn { seat: 0 },
        Task::PlacePlans { seat: 0 },
        Task::SpendResearch { seat: 0, points: 3 },
    ];
    act(
        &mut s,
        0,
        D::TakePlan {
            space: research_space("B1"),
        },
    );
    assert_eq!((s.seats[0].coins, s.supplement_coins), (0, 3));
    act(
        &mut s,
        0,
        D::TakePlan {
            space: research_space("B0"),
        },
    );
    assert_eq!((s.seats[0].coins, s.supplement_coins), (3, 0));
    act(&mut s, 0, D::TakeCoin);
    assert_eq!(s.seats[0].coins, 4);
    assert_eq!(s.seats[0].acquired.len(), 2);
}

#[test]
fn a_display_cards_total_cost_never_drops_below_zero() {
    let mut s = blank(2);
    unlock(&mut s, 0, "P-MINERALS-2");
    unlock(&mut s, 0, "P-TITANIUM-1");
    let t2 = resource_card(Titanium, 2);
    up(&mut s, 0, 1, t2);
    clear_display(&mut s);
    display(&mut s, 1, card("A01")); // total cost 1, discounts 2
    display(&mut s, 12, card("C05"));
    use_resources(&mut s, 0, Some(Titanium), &[t2]);
    act_all(&mut s, 0, &[D::BuyCard { space: 1 }]);
    assert_eq!(top(&s), &Task::SpendUnits { seat: 0, units: 2 });

    // Bought for coins at total cost 0: free, and the bonus space's own cost is still due.
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C2", "D1"]));
    unlock(&mut s, 0, "B-BUY-2");
    clear_display(&mut s);
    display(&mut s, 1, card("A01"));
    display(&mut s, 12, card("C05"));
    act(&mut s, 0, track_space("B-BUY-2"));
    act(&mut s, 0, D::BuyCard { space: 1 });
    assert_eq!(s.seats[0].coins, 0);
    assert_eq!(s.seats[0].hand, vec![card("A01")]);
    assert_eq!(s.seats[0].tank, 2, "and the tank steps");
}

#[test]
fn buying_needs_at_least_one_resource_card() {
    let mut s = blank(2);
    up(&mut s, 0, 1, resource_card(Carbon, 2));
    up(&mut s, 0, 2, resource_card(Carbon, 1));
    act(
        &mut s,
        0,
        D::UseResources {
            resource: Some(Carbon),
        },
    );
    let err = refused(&mut s, 0, D::FinishSelecting);
    assert!(
        matches!(&err, RuleError::Illegal(m) if m.to_string().contains("at least one resource card"))
    );
}

#[test]
fn p_minerals_second_bonus_mixes_types_to_buy_a_card() {
    let mut s = blank(2);
    unlock(&mut s, 0, "P-MINERALS-2");
    let (t2, c2) = (resource_card(Titanium, 2), resource_card(Carbon, 2));
    up(&mut s, 0, 1, t2);
    up(&mut s, 0, 2, c2);
    clear_display(&mut s);
    display(&mut s, 7, card("A03")); // total cost 4, 3 with the bonus
    display(&mut s, 1, card("A01")); // total cost 1, 0 with the bonus
    use_resources(&mut s, 0, None, &[t2, c2]);
    let err = refused(&mut s, 0, D::NoBuy);
    assert!(matches!(&err, RuleError::Illegal(m) if m.to_string().contains("must buy")));
    act(&mut s, 0, D::BuyCard { space: 7 });
    assert_eq!(top(&s), &Task::SpendUnits { seat: 0, units: 1 });
}

#[test]
fn scientist_majority_counts_the_p_field_icon_as_another_scientist() {
    let mut s = blank_with(&options_with_tracks(2, ["A1", "B1", "C1", "E1"]));
    up(&mut s, 0, 1, research_scientist(2));
    unlock(&mut s, 0, "P-FIELD-1");
    act(&mut s, 0, board("majority_scientist"));
    act(&mut s, 0, D::ChooseTier { tier: 1 });
    assert_eq!(s.seats[0].coins, 2);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 1 });
}

#[test]
fn the_energy_tile_is_one_of_all_energy_cards() {
    let mut s = blank(2);
    hold_tile(&mut s, 0, TileKind::Energy);
    let e1 = energy_card(1);
    up(&mut s, 0, 1, e1);
    act(&mut s, 0, D::UseEnergy);
    assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy: 3 });
    act_all(
        &mut s,
        0,
        &[D::ChooseCompany { company: Tawac }, D::StopExpanding],
    );
    assert_eq!(slot(&s, 0, 1), Some(SlotCard::Used(e1)));
    assert!(matches!(
        s.tile(TileKind::Energy),
        TileState::Held {
            seat: 0,
            used: true,
            ..
        }
    ));
    // The tile alone allows the action.
    let mut s = blank(2);
    hold_tile(&mut s, 0, TileKind::Energy);
    act(&mut s, 0, D::UseEnergy);
    assert_eq!(top(&s), &Task::ChooseExpansion { seat: 0, energy: 2 });
}

#[test]
fn the_research_scientist_tile_grants_1_research_point() {
    let mut s = blank(2);
    hold_tile(&mut s, 0, TileKind::ResearchScientist);
    act(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 1 });
    act(&mut s, 0, D::TakeCoin);
    assert!(!s.holds_unused_tile(0, TileKind::ResearchScientist));
}

#[test]
fn using_one_action_tile_uses_that_tile_only() {
    let mut s = blank(2);
    hold_tile(&mut s, 0, TileKind::FieldScientist);
    hold_tile(&mut s, 0, TileKind::ResearchScientist);
    act(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(s.seats[0].tank, 2);
    assert!(!s.holds_unused_tile(0, TileKind::FieldScientist));
    assert!(s.holds_unused_tile(0, TileKind::ResearchScientist));
    turn_of(&mut s, 0);
    refused(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    act(
        &mut s,
        0,
        D::UseResearch {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 1 });
}

#[test]
fn the_field_scientist_tile_counts_further_field_scientists() {
    let mut s = blank(2);
    hold_tile(&mut s, 0, TileKind::FieldScientist);
    up(&mut s, 0, 1, field_scientist(None));
    up(&mut s, 0, 2, field_scientist(Some(Astrogo)));
    act(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Tile,
        },
    );
    assert_eq!(s.seats[0].tank, 2 + 2);
    assert_eq!(s.seats[0].coins, 0, "the tile gives no CrypCoin");
}

// ------------------------------------------------------------------------------------------
// Determinism and serialization over seeded self-play

/// Plays a whole seeded game with the self-play chooser, calling `each` on every state.
fn play(
    seed: u64,
    players: usize,
    mut each: impl FnMut(&GameState),
) -> (GameState, Vec<(usize, D)>) {
    use rand::Rng;
    let d = data();
    let mut state = new_game(&options(players, seed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut log = Vec::new();
    each(&state);
    while state.phase != Phase::Finished {
        assert!(log.len() < 50_000, "seed {seed}: the game does not end");
        let w = engine::waiting_on(&state);
        let seat = w[rng.gen_range(0..w.len())];
        let legal = engine::legal_decisions(d, &state, seat);
        let dec = skymines::bots::weighted::choose(&mut rng, d, &state, seat, &legal)
            .unwrap_or_else(|| panic!("seed {seed}: seat {seat} has no legal decision"));
        if let Err(e) = engine::apply(d, &mut state, seat, dec) {
            panic!("seed {seed}: legal {dec:?} refused: {e}");
        }
        log.push((seat, dec));
        each(&state);
    }
    (state, log)
}

#[test]
fn the_same_seed_and_decisions_give_the_same_game() {
    let (a, log) = play(11, 3, |_| {});
    let mut b = new_game(&options(3, 11));
    for (seat, d) in &log {
        engine::apply(data(), &mut b, *seat, *d).expect("replays");
    }
    assert!(a == b, "replaying the decisions gives the same state");
    assert_eq!(
        serde_json::to_vec(&a).expect("serializes"),
        serde_json::to_vec(&b).expect("serializes")
    );
    let (c, log2) = play(11, 3, |_| {});
    assert_eq!(log, log2);
    assert!(a == c);
    assert!(new_game(&options(3, 11)) == new_game(&options(3, 11)));
    let displays: std::collections::BTreeSet<_> = (0..8)
        .map(|seed| new_game(&options(2, seed)).display)
        .collect();
    assert_eq!(displays.len(), 8, "different seeds deal different displays");
}

#[test]
fn game_states_round_trip_through_json_and_stay_under_64_kib() {
    for (seed, players) in [(21, 2), (22, 3), (23, 4)] {
        let mut largest = 0;
        let mut count = 0;
        let (end, _) = play(seed, players, |s| {
            let json = serde_json::to_string(s).expect("serializes");
            largest = largest.max(json.len());
            count += 1;
            let back: GameState = serde_json::from_str(&json).expect("deserializes");
            assert!(back == *s, "seed {seed}: the round trip changes the state");
        });
        assert!(
            largest < 64 * 1024,
            "seed {seed}: a state took {largest} bytes"
        );
        assert!(count > 100);
        assert_eq!(end.phase, Phase::Finished);
    }
}

#[test]
fn ex27_chapter_3_starts_with_the_stated_outposts() {
    // EX-27: chapter 3's initial board. The top outpost of each station column stands on the
    // stated sectors: Skymine 6, 19, 20; Minerva 16, 21, 23; Astrogo 1, 7, 11; Tawac 2, 3, 4.
    let options = GameOptions {
        chapter: Some(3),
        ..options(2, 1)
    };
    let s = engine::new_game(data(), &options, &names(2)).expect("the campaign is available");
    for (company, sectors) in [
        (Skymine, [6, 19, 20]),
        (Minerva, [16, 21, 23]),
        (Astrogo, [1, 7, 11]),
        (Tawac, [2, 3, 4]),
    ] {
        for n in sectors {
            assert_eq!(s.sectors[n - 1], Some(company), "sector {n}");
        }
        assert_eq!(s.stations[ci(company)].map(|c| c.outposts), [4, 4, 4]);
    }
    assert_eq!(s.sectors.iter().flatten().count(), 12);
}

#[test]
fn the_scientist_majority_without_a_research_scientist_gives_nothing() {
    // DECISIONS A5: allowed when nobody has more, but no reward tier is reached.
    let mut s = blank(2);
    up(&mut s, 0, 1, field_scientist(None));
    let ev = act(&mut s, 0, board("majority_scientist"));
    assert!(texts(&ev).contains("qualifies for no reward tier"));
    assert_eq!(s.seats[0].coins, 0);
    assert_eq!(s.seats[0].markers_reserve, 2);
    assert_eq!(waiting(&s), vec![1]);
}

#[test]
fn the_game_ends_after_the_action_phase_of_round_7_without_a_preparation() {
    let mut s = blank(2);
    s.round = 7;
    s.seats[0].coins = 1;
    act(&mut s, 0, board("tile_energy"));
    let display = s.display;
    everyone_drops_out(&mut s);
    assert_eq!(s.phase, Phase::Finished);
    assert_eq!(s.round, 7);
    assert_eq!(s.display, display, "no display refill");
    assert_eq!(s.seats[0].markers_reserve, 2, "no markers returned");
    assert!(engine::legal_decisions(data(), &s, 0).is_empty());
    let err = refused(&mut s, 0, D::DropOut);
    assert_eq!(err, RuleError::GameOver);
}
