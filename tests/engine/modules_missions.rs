//! Module "Mission cards": setup by the number of humans (Luna does not count and gets no status
//! card), claiming a task as a decision (before the action, and after it has resolved for the
//! single-action tasks), the status card's link, +2 CrypCoin and the column's one-time bonus
//! marker, several tasks in one turn, one-time markers leaving at the next Preparation phase, the
//! personal bonus space, and every one of the 18 tasks met and not met.

use crate::common::*;
use crate::modules_support::*;
use skymines::data::Company::{self, Astrogo, Minerva, Skymine, Tawac};
use skymines::data::Resource::{Carbon, Minerals, Titanium};
use skymines::engine::state::{PlanRef, TileKind};
use skymines::engine::{
    self, ActionSource, BoardSide, BonusRef, Decision as D, GameOptions, GameState, Phase,
    RuleError, Task,
};

fn claim(card: u8, column: u8) -> D {
    D::ClaimTask { card, column }
}

/// A bare 2-player position with only mission card `card` face up.
fn with_card(card: u32, board: BoardSide) -> GameState {
    let mut s = missions_blank(2, board);
    if let Some(m) = s.missions.as_mut() {
        m.face_up = vec![card];
    }
    s
}

fn status(s: &GameState, seat: usize) -> &skymines::engine::missions::MissionStatus {
    s.seats[seat]
        .mission
        .as_ref()
        .expect("a mission status card")
}

/// Checks that the task is refused before the condition holds and claimable once it does (at
/// the start of the turn, for the tasks read from the game state).
#[track_caller]
fn turn_state_task(
    card: u8,
    column: u8,
    below: impl Fn(&mut GameState),
    met: impl Fn(&mut GameState),
) {
    let mut s = with_card(card as u32, BoardSide::Moon);
    below(&mut s);
    let err = refused(&mut s, 0, claim(card, column));
    assert!(err.to_string().contains("task not met"), "{err}");
    let mut s = with_card(card as u32, BoardSide::Moon);
    met(&mut s);
    let coins = s.seats[0].coins;
    act(&mut s, 0, claim(card, column));
    assert_eq!(s.seats[0].coins, coins + 2, "+2 CrypCoin per task");
    assert!(status(&s, 0).fulfilled[column as usize - 1]);
    assert_eq!(status(&s, 0).one_time_reserve, 1);
    // Claiming is never an action: the seat still chooses its action.
    assert!(matches!(top(&s), Task::ChooseAction { seat: 0 }));
    assert_eq!(s.seats[0].turns_this_round, 0);
}

/// Resource cards face up in seat 0's slots 1.. (each a different physical card).
fn units(s: &mut GameState, cards: &[(skymines::data::Resource, u32)]) {
    let mut used = Vec::new();
    for (i, (r, v)) in cards.iter().enumerate() {
        let card = (0..data().cards.len() as skymines::data::CardId)
            .find(|c| {
                let d = data().card(*c);
                d.resource() == Some(*r) && d.value == *v && !used.contains(c)
            })
            .expect("a resource card");
        used.push(card);
        up(s, 0, i + 1, card);
    }
}

// ------------------------------------------------------------------------------------------
// setup

#[test]
fn one_mission_card_for_1_or_2_humans_two_for_3_or_4_luna_does_not_count() {
    for (players, luna, face_up) in [
        (1, Some(2), 1),
        (2, None, 1),
        (2, Some(2), 1),
        (3, None, 2),
        (3, Some(2), 2),
        (4, None, 2),
    ] {
        let s = new_game(&GameOptions {
            players,
            luna,
            missions: true,
            seed: 3,
            ..Default::default()
        });
        let m = s.missions.as_ref().expect("missions in play");
        assert_eq!(m.face_up.len(), face_up, "{players} humans, Luna {luna:?}");
        for seat in &s.seats {
            match &seat.mission {
                Some(st) => {
                    assert!(!seat.is_luna(), "Luna gets no status card");
                    assert_eq!(st.fulfilled, [false; 3], "3 markers on the status card");
                    assert_eq!(st.one_time_reserve, 0);
                    assert_eq!(st.card, None);
                }
                None => assert!(seat.is_luna()),
            }
        }
    }
    assert!(new_game(&options(2, 1)).missions.is_none());
}

// ------------------------------------------------------------------------------------------
// claiming

#[test]
fn the_first_task_links_the_status_card_to_its_mission_card() {
    let mut s = missions_blank(3, BoardSide::Moon);
    let cards = s
        .missions
        .as_ref()
        .map(|m| m.face_up.clone())
        .unwrap_or_default();
    assert_eq!(cards.len(), 2);
    // Meet card 5's and card 4's "face up" tasks... use coins: card 5 task 3 (15 coins) and
    // any other card's column-1 task via a full action area.
    if let Some(m) = s.missions.as_mut() {
        m.face_up = vec![5, 1];
    }
    s.seats[0].coins = 15;
    for (slot, card) in [
        research_scientist(2),
        field_scientist(None),
        research_scientist(3),
    ]
    .into_iter()
    .enumerate()
    {
        up(&mut s, 0, slot + 1, card);
    }
    assert!(is_legal(&s, 0, claim(5, 3)));
    assert!(is_legal(&s, 0, claim(1, 1)));
    act(&mut s, 0, claim(5, 3));
    assert_eq!(status(&s, 0).card, Some(5));
    // Linked to card 5: card 1's task no longer counts for this seat.
    let err = refused(&mut s, 0, claim(1, 1));
    assert!(
        err.to_string().contains("linked to mission card 5"),
        "{err}"
    );
    // Other players are not blocked by the first to use a card.
    s.seats[1].coins = 15;
    turn_of(&mut s, 1);
    act(&mut s, 1, claim(5, 3));
    assert_eq!(status(&s, 1).card, Some(5));
    // A task is fulfilled once per player.
    turn_of(&mut s, 0);
    let err = refused(&mut s, 0, claim(5, 3));
    assert!(err.to_string().contains("already fulfilled"), "{err}");
}

#[test]
fn several_tasks_can_be_fulfilled_in_the_same_turn() {
    let mut s = with_card(5, BoardSide::Moon);
    s.seats[0].coins = 13;
    s.seats[0].slot_on = [true; 5];
    for (slot, card) in [
        resource_card(Carbon, 1),
        resource_card(Minerals, 1),
        resource_card(Titanium, 1),
        energy_card(1),
        research_scientist(2),
    ]
    .into_iter()
    .enumerate()
    {
        up(&mut s, 0, slot, card);
    }
    act(&mut s, 0, claim(5, 1));
    // The 2 CrypCoin of the first task make the 15 of the second.
    act(&mut s, 0, claim(5, 3));
    assert_eq!(status(&s, 0).markers_gone(), 2);
    assert_eq!(status(&s, 0).one_time_reserve, 2);
    assert_eq!(s.seats[0].coins, 17);
}

#[test]
fn single_action_tasks_are_claimed_when_the_action_has_resolved() {
    // Card 5 column 2: 6 CrypCoin in one action. Discarding a cost-4 card for coins pays 6.
    let mut s = with_card(5, BoardSide::Moon);
    let err = refused(&mut s, 0, claim(5, 2));
    assert!(matches!(err, RuleError::NotNow(_)), "{err}");
    let card = card_where(|c| c.cost == 4 && c.is_playable());
    s.seats[0].hand = vec![card];
    act(
        &mut s,
        0,
        D::PlaceBonus {
            space: BonusRef::Board(board_space("discard_for_coins")),
        },
    );
    assert!(
        matches!(top(&s), Task::ClaimTasks { seat: 0 }),
        "{:?}",
        top(&s)
    );
    assert_eq!(s.seats[0].coins, 6);
    assert!(is_legal(&s, 0, claim(5, 2)));
    assert!(is_legal(&s, 0, D::EndClaims));
    act(&mut s, 0, claim(5, 2));
    // Nothing more to claim: the turn passes.
    assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
    assert_eq!(s.seats[0].coins, 8);
}

#[test]
fn a_claims_own_coins_never_count_for_the_action() {
    // 4 coins from a discard (cost 2 + 2), then claiming 15-coin... the claim's 2 coins would
    // make 6 but do not count.
    let mut s = with_card(5, BoardSide::Moon);
    s.seats[0].coins = 11;
    let card = card_where(|c| c.cost == 2 && c.is_playable());
    s.seats[0].hand = vec![card];
    act(
        &mut s,
        0,
        D::PlaceBonus {
            space: BonusRef::Board(board_space("discard_for_coins")),
        },
    );
    assert_eq!(s.seats[0].coins, 15);
    act(&mut s, 0, claim(5, 3));
    // Only the 6-coin task would be left, and the action gained 4.
    assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
    let counters = &status(&s, 0).counters;
    assert_eq!(counters.coins_gained, 4);
    assert!(!counters.active);
}

#[test]
fn without_anything_to_claim_the_turn_goes_on_without_asking() {
    let mut s = with_card(1, BoardSide::Moon);
    act(&mut s, 0, D::DropOut);
    assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
}

// ------------------------------------------------------------------------------------------
// one-time bonus markers and the personal bonus space

#[test]
fn one_time_bonus_markers_are_used_like_bonus_markers_and_leave_at_the_next_preparation() {
    let mut s = with_card(5, BoardSide::Moon);
    s.seats[0].coins = 15;
    let err = refused(
        &mut s,
        0,
        D::PlaceOneTimeBonus {
            space: BonusRef::Board(board_space("buy_card")),
        },
    );
    assert!(
        err.to_string().contains("no one-time bonus marker"),
        "{err}"
    );
    act(&mut s, 0, claim(5, 3));
    let markers = s.seats[0].markers_reserve;
    act(
        &mut s,
        0,
        D::PlaceOneTimeBonus {
            space: BonusRef::Board(board_space("tile_energy")),
        },
    );
    finish_turn(&mut s, 0);
    let i = board_space("tile_energy") as usize;
    assert_eq!(
        s.bonus_spaces[i],
        Some(skymines::engine::state::Marker {
            seat: 0,
            one_time: true
        })
    );
    assert_eq!(
        s.seats[0].markers_reserve, markers,
        "regular markers untouched"
    );
    assert_eq!(status(&s, 0).one_time_reserve, 0);
    // Preparation: the one-time marker leaves the game; it does not come back.
    everyone_drops_out(&mut s);
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.bonus_spaces[i], None);
    assert_eq!(status(&s, 0).one_time_reserve, 0);
    assert_eq!(status(&s, 0).one_time_placed, 1);
    assert_eq!(s.seats[0].markers_reserve, s.seats[0].markers_total);
}

#[test]
fn the_personal_bonus_space_unlocks_once_all_three_markers_are_gone() {
    let mut s = with_card(5, BoardSide::Moon);
    let personal = D::PlaceBonus {
        space: BonusRef::Personal,
    };
    let err = refused(&mut s, 0, personal);
    assert!(
        err.to_string().contains("personal bonus space unlocks"),
        "{err}"
    );
    // All three tasks of card 5.
    s.seats[0].coins = 13;
    s.seats[0].slot_on = [true; 5];
    units(
        &mut s,
        &[(Carbon, 1), (Minerals, 1), (Titanium, 1), (Carbon, 2)],
    );
    up(&mut s, 0, 0, energy_card(1));
    act(&mut s, 0, claim(5, 1));
    act(&mut s, 0, claim(5, 3));
    assert_eq!(s.missions.as_ref().and_then(|m| m.first_unlocked), None);
    if let Some(m) = s.seats[0].mission.as_mut() {
        m.fulfilled[1] = true;
        m.one_time_reserve += 1;
    }
    assert!(status(&s, 0).personal_unlocked());
    // Pay 1, move 3 on a track of your choice.
    let coins = s.seats[0].coins;
    act(&mut s, 0, personal);
    assert_eq!(s.seats[0].coins, coins - 1);
    act(&mut s, 0, D::ChooseCompany { company: Tawac });
    assert_eq!(s.seats[0].track_pos[Tawac.index()], 3);
    assert_eq!(
        status(&s, 0).personal,
        Some(skymines::engine::state::Marker {
            seat: 0,
            one_time: false
        })
    );
    // Occupied for the round; the other players cannot use it at all.
    turn_of(&mut s, 0);
    let err = refused(&mut s, 0, personal);
    assert!(err.to_string().contains("occupied"), "{err}");
    turn_of(&mut s, 1);
    let err = refused(&mut s, 1, personal);
    assert!(err.to_string().contains("unlocks"), "{err}");
    // The marker comes back at the Preparation phase.
    s.seats[0].slots = [None; 5];
    turn_of(&mut s, 0);
    everyone_drops_out(&mut s);
    assert_eq!(status(&s, 0).personal, None);
    assert_eq!(s.seats[0].markers_reserve, s.seats[0].markers_total);
}

#[test]
fn the_third_claim_unlocks_the_personal_space_and_records_the_first_to_do_so() {
    let mut s = with_card(5, BoardSide::Moon);
    if let Some(m) = s.seats[0].mission.as_mut() {
        m.fulfilled = [true, true, false];
        m.card = Some(5);
        m.one_time_reserve = 2;
    }
    s.seats[0].coins = 15;
    let events = act(&mut s, 0, claim(5, 3));
    assert!(texts(&events).contains("unlocks the personal bonus space"));
    assert_eq!(s.missions.as_ref().and_then(|m| m.first_unlocked), Some(0));
    // With every task done no claim window opens after actions.
    act(&mut s, 0, D::DropOut);
    assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
}

#[test]
fn luna_ignores_the_mission_cards() {
    let s = new_game(&GameOptions {
        players: 1,
        luna: Some(2),
        missions: true,
        seed: 4,
        ..Default::default()
    });
    let luna = s.seats.len() - 1;
    assert!(s.seats[luna].mission.is_none());
    let mut s = s;
    let err = engine::apply(data(), &mut s, luna, claim(1, 1)).unwrap_err();
    assert!(!err.to_string().is_empty());
}

// ------------------------------------------------------------------------------------------
// the 18 tasks: card 1 (laboratory)

#[test]
fn task_1_1_three_scientist_cards_face_up() {
    turn_state_task(
        1,
        1,
        |s| {
            up(s, 0, 1, research_scientist(2));
            up(s, 0, 2, field_scientist(None));
            // The P-FIELD virtual field scientist is no card.
            unlock(s, 0, "P-FIELD-1");
        },
        |s| {
            up(s, 0, 1, research_scientist(2));
            up(s, 0, 2, field_scientist(None));
            // A scientist tile counts as a card of its type.
            hold_tile(s, 0, TileKind::ResearchScientist);
        },
    );
}

#[test]
fn task_1_2_four_research_points_in_one_action() {
    for (points, met) in [(3, false), (4, true)] {
        let mut s = with_card(1, BoardSide::Moon);
        up(&mut s, 0, 1, research_scientist(points));
        act(
            &mut s,
            0,
            D::UseResearch {
                source: ActionSource::Slot(1),
            },
        );
        // No coins to flip and no plan the marker could enter: straight to the points.
        while matches!(top(&s), Task::SpendResearch { .. }) {
            act(&mut s, 0, D::TakeCoin);
        }
        if met {
            assert!(matches!(top(&s), Task::ClaimTasks { .. }));
            act(&mut s, 0, claim(1, 2));
            assert!(status(&s, 0).fulfilled[1]);
        } else {
            assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
        }
    }
}

#[test]
fn task_1_3_six_research_plans_on_the_track() {
    let plans = |s: &mut GameState, n: usize| {
        for screen in 1..n {
            put_plan(s, 0, screen, PlanRef::Regular(screen as u8));
        }
    };
    turn_state_task(1, 3, |s| plans(s, 5), |s| plans(s, 6));
}

// card 2 (supply)

#[test]
fn task_2_1_seven_units_of_one_resource_type_face_up() {
    turn_state_task(
        2,
        1,
        |s| units(s, &[(Carbon, 4), (Minerals, 3), (Titanium, 3)]),
        |s| units(s, &[(Carbon, 4), (Carbon, 3)]),
    );
}

#[test]
fn task_2_2_five_company_track_spaces_in_one_action() {
    for (cards, met) in [
        (&[(Carbon, 2), (Carbon, 2)][..], false),
        (&[(Carbon, 3), (Carbon, 2)][..], true),
    ] {
        let mut s = with_card(2, BoardSide::Moon);
        units(&mut s, cards);
        let chosen: Vec<_> = (1..=cards.len())
            .filter_map(|i| slot(&s, 0, i).map(|c| c.card()))
            .collect();
        use_resources(&mut s, 0, Some(Carbon), &chosen);
        act(&mut s, 0, D::NoBuy);
        let companies = [Skymine, Minerva, Astrogo, Tawac, Skymine];
        let mut k = 0;
        while matches!(top(&s), Task::SpendUnits { .. }) {
            act(
                &mut s,
                0,
                D::TrackStep {
                    company: companies[k],
                },
            );
            k += 1;
        }
        if met {
            act(&mut s, 0, claim(2, 2));
            assert!(status(&s, 0).fulfilled[1]);
        } else {
            assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
        }
    }
}

#[test]
fn task_2_3_past_the_first_bonus_threshold_on_three_tracks() {
    let past = |s: &mut GameState, n: usize| {
        for c in Company::ALL.into_iter().take(n) {
            let track = &data().tracks.tracks[s.tracks[c.index()]];
            let first = track
                .bonus_thresholds
                .iter()
                .map(|t| t.after_space)
                .min()
                .unwrap_or(0);
            s.seats[0].track_pos[c.index()] = first as u8 + 1;
        }
    };
    turn_state_task(2, 3, |s| past(s, 2), |s| past(s, 3));
}

// card 3 (helium)

#[test]
fn task_3_1_six_energy_points_face_up() {
    turn_state_task(
        3,
        1,
        |s| energy_up(s, 0, 5),
        |s| {
            energy_up(s, 0, 5);
            // P-ENERGY adds "for all intents and purposes".
            unlock(s, 0, "P-ENERGY-1");
        },
    );
}

#[test]
fn task_3_2_four_tank_spaces_in_one_action() {
    // A company field scientist: 2 steps + 1 per 2 gas collectors of that company.
    let gas: Vec<u32> = data()
        .moon
        .sectors
        .iter()
        .filter(|s| s.structures.iter().any(|x| x.is_gas_collector()))
        .map(|s| s.id)
        .collect();
    for (n, met) in [(3usize, false), (4, true)] {
        let mut s = with_card(3, BoardSide::Moon);
        for sector in gas.iter().take(n) {
            s.sectors[*sector as usize - 1] = Some(Astrogo);
            s.stations[Astrogo.index()][0].outposts -= 1;
        }
        up(&mut s, 0, 1, field_scientist(Some(Astrogo)));
        act(
            &mut s,
            0,
            D::UseField {
                source: ActionSource::Slot(1),
            },
        );
        assert_eq!(s.seats[0].tank as usize, 2 + n / 2);
        if met {
            act(&mut s, 0, claim(3, 2));
            assert!(status(&s, 0).fulfilled[1]);
        } else {
            assert!(matches!(top(&s), Task::ChooseAction { seat: 1 }));
        }
    }
}

#[test]
fn task_3_2_counts_only_spaces_the_marker_really_moves() {
    let mut s = with_card(3, BoardSide::Moon);
    // Two spaces before the final one: 4 steps move it 2, the rest become coins.
    s.seats[0].tank = data().player_board.tank_track.final_step as u8 - 2;
    let gas: Vec<u32> = data()
        .moon
        .sectors
        .iter()
        .filter(|s| s.structures.iter().any(|x| x.is_gas_collector()))
        .map(|s| s.id)
        .take(4)
        .collect();
    for sector in gas {
        s.sectors[sector as usize - 1] = Some(Astrogo);
        s.stations[Astrogo.index()][0].outposts -= 1;
    }
    up(&mut s, 0, 1, field_scientist(Some(Astrogo)));
    act(
        &mut s,
        0,
        D::UseField {
            source: ActionSource::Slot(1),
        },
    );
    assert!(
        matches!(top(&s), Task::ChooseAction { seat: 1 }),
        "not claimable"
    );
    assert_eq!(status(&s, 0).counters.tank_spaces, 2);
}

#[test]
fn task_3_3_both_additional_action_slots_switched_on() {
    turn_state_task(
        3,
        3,
        |s| s.seats[0].slot_on[0] = true,
        |s| {
            s.seats[0].slot_on[0] = true;
            s.seats[0].slot_on[4] = true;
        },
    );
}

// card 4 (expansion)

#[test]
fn task_4_1_one_unit_of_each_resource_type_face_up() {
    turn_state_task(
        4,
        1,
        |s| units(s, &[(Carbon, 3), (Minerals, 3)]),
        |s| units(s, &[(Carbon, 1), (Minerals, 1), (Titanium, 1)]),
    );
}

#[test]
fn task_4_2_five_pieces_from_one_station_in_one_expansion_on_the_belt() {
    // Belt: outposts and shuttles both count. Minerva: 1, shuttle 2, 3, shuttle 5, 8 …
    for (pieces, met) in [(4, false), (5, true)] {
        let mut s = with_card(4, BoardSide::Belt);
        start_expansion(&mut s, 0, 8, Minerva);
        let plan = [
            enter(1, 0, 0),
            enter(3, 0, 2),
            enter(5, 0, 1),
            enter(6, 0, 1),
            enter(1, 1, 0),
        ];
        for d in plan.iter().take(pieces) {
            act(&mut s, 0, *d);
        }
        if matches!(top(&s), Task::Expand { .. }) {
            act(&mut s, 0, D::StopExpanding);
        }
        finish_turn_until_claims(&mut s);
        if met {
            assert!(is_legal(&s, 0, claim(4, 2)), "{:?}", top(&s));
            act(&mut s, 0, claim(4, 2));
        } else {
            assert!(!is_legal(&s, 0, claim(4, 2)));
        }
    }
}

#[test]
fn task_4_2_five_outposts_in_one_expansion_on_the_moon() {
    let mut s = with_card(4, BoardSide::Moon);
    start_expansion(&mut s, 0, 10, Minerva);
    let mut entered = 0;
    while entered < 5 {
        let d = legal(&s, 0)
            .into_iter()
            .find(|d| matches!(d, D::EnterSector { .. } | D::ExpandInto { .. }))
            .expect("a sector to enter");
        act(&mut s, 0, d);
        // The station column, when it is asked.
        if let Some(column) = legal(&s, 0)
            .into_iter()
            .find(|d| matches!(d, D::OutpostColumn { .. }))
        {
            act(&mut s, 0, column);
        }
        entered += 1;
    }
    if matches!(top(&s), Task::Expand { .. }) {
        act(&mut s, 0, D::StopExpanding);
    }
    finish_turn_until_claims(&mut s);
    assert!(is_legal(&s, 0, claim(4, 2)));
}

/// Answers the questions after an expansion (research points, returns) until the claim window.
fn finish_turn_until_claims(s: &mut GameState) {
    let mut guard = 0;
    while !matches!(top(s), Task::ClaimTasks { .. } | Task::ChooseAction { .. }) {
        guard += 1;
        assert!(guard < 50);
        let options = legal(s, 0);
        let d = [D::TakeCoin]
            .into_iter()
            .find(|d| options.contains(d))
            .unwrap_or(options[0]);
        act(s, 0, d);
    }
}

#[test]
fn task_4_3_two_shares_in_each_company_and_the_wild_share_helps_one() {
    let shares = |s: &mut GameState, n: u32| {
        for c in Company::ALL {
            let track = &data().tracks.tracks[s.tracks[c.index()]];
            let want = if c == Tawac { n } else { 2 };
            let pos = (0..=track.last_space)
                .find(|p| track.shares_at(*p) == want)
                .expect("a space with that many shares");
            s.seats[0].track_pos[c.index()] = pos as u8;
        }
    };
    turn_state_task(4, 3, |s| shares(s, 1), |s| shares(s, 2));
    // 1 Tawac share + the wild share (threat card reward) meets it.
    let mut s = with_card(4, BoardSide::Moon);
    shares(&mut s, 1);
    s.threat = Some(skymines::engine::threats::ThreatState {
        card: 0,
        on_board: false,
        removed_by: Some(0),
    });
    act(&mut s, 0, claim(4, 3));
}

// card 5 (finance)

#[test]
fn task_5_1_five_face_up_cards_action_tiles_included() {
    turn_state_task(
        5,
        1,
        |s| units(s, &[(Carbon, 1), (Minerals, 1), (Titanium, 1), (Carbon, 2)]),
        |s| {
            units(s, &[(Carbon, 1), (Minerals, 1), (Titanium, 1), (Carbon, 2)]);
            hold_tile(s, 0, TileKind::Energy);
        },
    );
}

#[test]
fn task_5_2_six_coins_in_one_action() {
    for (cost, met) in [(3, false), (4, true)] {
        let mut s = with_card(5, BoardSide::Moon);
        let card = card_where(|c| c.cost == cost && c.is_playable());
        s.seats[0].hand = vec![card];
        act(
            &mut s,
            0,
            D::PlaceBonus {
                space: BonusRef::Board(board_space("discard_for_coins")),
            },
        );
        assert_eq!(is_legal(&s, 0, claim(5, 2)), met);
    }
}

#[test]
fn task_5_3_fifteen_coins_in_the_reserve() {
    turn_state_task(5, 3, |s| s.seats[0].coins = 14, |s| s.seats[0].coins = 15);
}

// card 6 (rivalry)

#[test]
fn task_6_1_four_units_each_of_two_resource_types() {
    turn_state_task(
        6,
        1,
        |s| units(s, &[(Carbon, 4), (Minerals, 3), (Titanium, 3)]),
        |s| units(s, &[(Carbon, 4), (Titanium, 4)]),
    );
}

#[test]
fn task_6_2_oust_two_pieces_in_one_expansion() {
    for (ousts, met) in [(1, false), (2, true)] {
        let mut s = with_card(6, BoardSide::Belt);
        put_outpost(&mut s, Skymine, 1, 0);
        put_outpost(&mut s, Skymine, 1, 1);
        start_expansion(&mut s, 0, 6, Minerva);
        for sp in 0..ousts {
            act(&mut s, 0, enter(1, sp as u8, 0));
        }
        if matches!(top(&s), Task::Expand { .. }) {
            act(&mut s, 0, D::StopExpanding);
        }
        finish_turn_until_claims(&mut s);
        assert_eq!(is_legal(&s, 0, claim(6, 2)), met);
    }
}

#[test]
fn task_6_3_a_special_research_plan_on_the_track() {
    turn_state_task(
        6,
        3,
        |s| put_plan(s, 0, 1, PlanRef::Regular(3)),
        |s| put_plan(s, 0, 1, PlanRef::Special(0)),
    );
}

#[test]
fn every_task_of_the_data_is_tested_here() {
    // 6 cards x 3 columns, each with a test above (task_<card>_<column>_…).
    let src = include_str!("modules_missions.rs");
    for (card, t) in data().missions.tasks() {
        let name = format!("fn task_{card}_{}_", t.column);
        assert!(src.contains(&name), "no test for task {card}/{}", t.column);
    }
}

#[test]
fn refused_claims_leave_the_state_unchanged() {
    let mut s = with_card(2, BoardSide::Moon);
    let err = refused(&mut s, 0, claim(3, 1));
    assert!(err.to_string().contains("not face up"), "{err}");
    let err = refused(&mut s, 0, claim(2, 4));
    assert!(err.to_string().contains("no task in column 4"), "{err}");
    turn_of(&mut s, 1);
    let err = engine::apply(data(), &mut s, 0, claim(2, 1)).unwrap_err();
    assert!(matches!(err, RuleError::NotYourTurn(_)));
    let _ = Astrogo;
}
