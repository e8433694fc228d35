//! Module "Belt side of the board": setup (12 outposts in the outer columns, 5 shuttles in the
//! middle one), reach and energy costs, entering outpost and shuttle spaces, the worked example
//! EX-20, rewards (reward screens only for a company's first outpost on an asteroid, shuttle
//! reward icons), ousting back to the stations (never onto crossed-out spaces), forfeits, the
//! Belt's gas collectors (EX-21), remove-outpost rewards that never take shuttles, share values,
//! and Luna's Belt expansion.

use crate::common::*;
use crate::modules_support::*;
use skymines::data::Company::{Astrogo, Minerva, Skymine, Tawac};
use skymines::data::Reward;
use skymines::engine::state::Column;
use skymines::engine::{self, BoardSide, Decision as D, GameOptions, RuleError, Task};

fn ci(c: skymines::data::Company) -> usize {
    c.index()
}

// ------------------------------------------------------------------------------------------
// setup

#[test]
fn belt_setup_puts_12_outposts_in_the_outer_columns_and_5_shuttles_in_the_middle() {
    let s = new_game(&belt_options(3));
    for c in skymines::data::Company::ALL {
        let cols = s.stations[ci(c)];
        assert_eq!(
            cols.map(|c| c.outposts),
            [6, 5, 6],
            "{c:?}: outer 6 + 6, middle 5"
        );
        assert_eq!(s.outposts_in_station(c), 12);
        assert_eq!(s.shuttles_in_station(c), 5);
        assert_eq!(s.outposts_on_board(c), 0);
        // Every home space is covered: no coin icon shows yet.
        assert_eq!(s.share_value(data(), c), 0);
    }
    assert!(s.sectors.is_empty(), "no Moon sectors on the Belt side");
    let belt = s.belt.as_ref().expect("the Belt is in play");
    assert_eq!(belt.outposts.len(), data().belt.asteroids.len());
    assert!(belt.outposts.iter().flatten().all(Option::is_none));
    assert!(belt.shuttles.iter().all(Option::is_none));
    // The Moon side has no Belt.
    assert!(new_game(&options(2, 1)).belt.is_none());
}

#[test]
fn the_belt_and_its_modules_can_be_set_up_now() {
    for (board, missions, threats) in [
        (BoardSide::Belt, false, false),
        (BoardSide::Belt, true, true),
        (BoardSide::Moon, true, false),
    ] {
        let o = GameOptions {
            players: 2,
            board,
            missions,
            threats,
            ..Default::default()
        };
        assert!(engine::new_game(data(), &o, &names(2)).is_ok());
    }
    let o = GameOptions {
        players: 2,
        threats: true,
        ..Default::default()
    };
    assert_eq!(
        engine::new_game(data(), &o, &names(2)).unwrap_err(),
        engine::SetupError::ThreatsNeedBelt
    );
}

// ------------------------------------------------------------------------------------------
// EX-20: Lin expands Minerva with 6 energy

#[test]
fn ex20_lin_enters_19_14_13_and_18_for_1_2_2_1_energy() {
    let ex = &data().belt.example_ex20;
    assert_eq!(ex.costs, vec![1, 2, 2, 1]);
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 18, 0);
    put_shuttle(&mut s, Astrogo, 13);
    start_expansion(&mut s, 0, ex.energy, Minerva);

    // a) shuttle space 19 from Minerva's outpost on 18: 1 energy.
    act(&mut s, 0, enter(19, 0, 1));
    assert_eq!(energy_left(&s), 5);
    // b) asteroid 14 over the flight-path part with an energy icon: 2.
    act(&mut s, 0, enter(14, 0, 0));
    assert_eq!(energy_left(&s), 3);
    // c) shuttle space 13, ousting Astrogo's shuttle: 1 + 1.
    act(&mut s, 0, enter(13, 0, 1));
    assert_eq!(energy_left(&s), 1);
    assert_eq!(shuttle_at(&s, 13), Some(Minerva));
    // d) the empty outpost space of 18, where Minerva already is: 1. The expansion ends.
    let astrogo_shuttles = s.shuttles_in_station(Astrogo);
    let minerva_track = s.seats[0].track_pos[ci(Minerva)];
    let events = act(&mut s, 0, enter(18, 1, 0));
    let text = texts(&events);
    assert!(text.contains("onto Belt spaces 19, 14, 13, 18"), "{text}");
    // Rewards: 14's screen (1 research point + 1 CrypCoin) and shuttle space 13's track step;
    // not 18's screen (Minerva was there before), not 19 (no reward icon).
    assert!(text.contains("+1 CrypCoin"), "{text}");
    assert!(text.contains("1 research point"), "{text}");
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], minerva_track + 1);
    assert_eq!(s.seats[0].coins, 1);
    // The ousted pink shuttle went back to Astrogo Station.
    assert_eq!(s.shuttles_in_station(Astrogo), astrogo_shuttles + 1);
    assert_eq!(s.belt.as_ref().map(|b| b.shuttles_of(Astrogo)), Some(0));
    // The research point is utilized.
    assert!(matches!(top(&s), Task::SpendResearch { points: 1, .. }));
    act(&mut s, 0, D::TakeCoin);
    assert_eq!(s.seats[0].coins, 2);
    // Pieces: 2 outposts and 2 shuttles of Minerva's left the station.
    assert_eq!(s.outposts_in_station(Minerva), 12 - 3);
    assert_eq!(s.shuttles_in_station(Minerva), 5 - 2);
}

// ------------------------------------------------------------------------------------------
// reach and costs

#[test]
fn a_station_reaches_its_outer_asteroids_through_its_printed_shuttles() {
    let mut s = belt_blank(2);
    start_expansion(&mut s, 0, 3, Minerva);
    let legal_targets: Vec<u8> = legal(&s, 0)
        .into_iter()
        .filter_map(|d| match d {
            D::EnterBelt { target, .. } => Some(target),
            _ => None,
        })
        .collect();
    // Minerva's station paths lead to asteroids 1 and 3 only; no shuttle space is in reach
    // before an outpost stands on an attached asteroid.
    let mut distinct = legal_targets.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct, vec![1, 3]);
    // Out of reach: a named reason.
    let err = refused(&mut s, 0, enter(14, 0, 0));
    assert!(err.to_string().contains("not within reach"), "{err}");
    let err = refused(&mut s, 0, enter(2, 0, 1));
    assert!(err.to_string().contains("not within reach"), "{err}");
    // The station path to 1 shows no energy icon: 1 energy.
    act(&mut s, 0, enter(1, 0, 0));
    assert_eq!(energy_left(&s), 2);
    // Now shuttle space 2 (path 1-3, energy icon on the part next to 1) costs 2 and uses up the
    // energy: the expansion ends by itself.
    act(&mut s, 0, enter(2, 0, 1));
    assert_eq!(shuttle_at(&s, 2), Some(Minerva));
    assert!(!matches!(top(&s), Task::Expand { .. }));
}

#[test]
fn entering_a_belt_space_costs_1_plus_1_for_an_energy_icon_plus_1_to_oust() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 1, 0);
    put_outpost(&mut s, Skymine, 8, 0);
    put_outpost(&mut s, Skymine, 8, 1);
    put_outpost(&mut s, Skymine, 8, 2);
    put_shuttle(&mut s, Skymine, 5);
    start_expansion(&mut s, 0, 6, Minerva);
    // Shuttle space 5 (path 1-8, no icon next to 1) holds Skymine's shuttle: 1 + 1 to oust.
    act(&mut s, 0, enter(5, 0, 1));
    assert_eq!(energy_left(&s), 4);
    // Asteroid 8 through Minerva's new shuttle on 5: the part next to 8 shows an energy icon
    // (+1), and every space is Skymine's (+1): 3.
    act(&mut s, 0, enter(8, 1, 2));
    assert_eq!(energy_left(&s), 1);
    // Not enough left for another ousting entry: a specific reason.
    let err = refused(&mut s, 0, enter(8, 0, 0));
    assert!(err.to_string().contains("costs 2"), "{err}");
    // A Belt space already holding the company's piece cannot be entered.
    let err = refused(&mut s, 0, enter(8, 1, 0));
    assert!(err.to_string().contains("already holds a piece"), "{err}");
}

#[test]
fn outposts_come_from_the_outer_columns_and_shuttles_from_the_middle_one() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Tawac, 26, 0);
    start_expansion(&mut s, 0, 4, Tawac);
    let err = refused(&mut s, 0, enter(26, 1, 1));
    assert!(err.to_string().contains("outer station column"), "{err}");
    let err = refused(&mut s, 0, enter(27, 0, 0));
    assert!(err.to_string().contains("middle station column"), "{err}");
    // Outposts leave from the top of the chosen outer column.
    act(&mut s, 0, enter(26, 1, 2));
    assert_eq!(s.stations[ci(Tawac)][2].outposts, 5);
    act(&mut s, 0, enter(27, 0, 1));
    assert_eq!(s.stations[ci(Tawac)][1].outposts, 4);
    assert_eq!(shuttle_at(&s, 27), Some(Tawac));
}

#[test]
fn a_company_without_shuttles_cannot_claim_flight_paths_and_without_pieces_cannot_expand() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Tawac, 26, 0);
    s.stations[ci(Tawac)][1] = Column {
        outposts: 0,
        floor_revealed: true,
    };
    start_expansion(&mut s, 0, 3, Tawac);
    let err = refused(&mut s, 0, enter(27, 0, 1));
    assert!(err.to_string().contains("no shuttle left"), "{err}");
    act(&mut s, 0, D::StopExpanding);
    finish_turn(&mut s, 0);

    // No outposts and no shuttles left: the company cannot be chosen.
    let mut s = belt_blank(2);
    for col in s.stations[ci(Skymine)].iter_mut() {
        col.outposts = 0;
        col.floor_revealed = true;
    }
    energy_up(&mut s, 0, 2);
    act(&mut s, 0, D::UseEnergy);
    let err = refused(&mut s, 0, D::ChooseCompany { company: Skymine });
    assert!(err.to_string().contains("no outposts or shuttles"), "{err}");
}

#[test]
fn energy_that_reaches_no_belt_space_is_forfeited() {
    let mut s = belt_blank(2);
    // Astrogo's two outer asteroids are full of other companies' outposts, and 1 energy cannot
    // oust (2 needed).
    for (n, spaces) in [(9, 2), (20, 2)] {
        for sp in 0..spaces {
            put_outpost(&mut s, Tawac, n, sp);
        }
    }
    energy_up(&mut s, 0, 1);
    act(&mut s, 0, D::UseEnergy);
    let events = act(&mut s, 0, D::ChooseCompany { company: Astrogo });
    assert!(
        !matches!(top(&s), Task::Expand { .. }),
        "the expansion ended"
    );
    assert!(
        texts(&events).contains("Lin enters no Belt space and forfeits 1 energy point"),
        "{}",
        texts(&events)
    );
}

// ------------------------------------------------------------------------------------------
// rewards

#[test]
fn an_asteroids_reward_screen_pays_only_for_the_companys_first_outposts_there() {
    let mut s = belt_blank(2);
    // Asteroid 3: research station 2. Two outposts in one expansion: one reward.
    start_expansion(&mut s, 0, 2, Minerva);
    act(&mut s, 0, enter(3, 0, 0));
    act(&mut s, 0, enter(3, 1, 2));
    assert!(matches!(top(&s), Task::SpendResearch { points: 2, .. }));
    finish_turn(&mut s, 0);
    // Later: asteroid 3 is full; asteroid 1 (deep mine 1) pays, a further outpost there does not.
    turn_of(&mut s, 0);
    s.seats[0].slots = [None; 5];
    let coins = s.seats[0].coins;
    start_expansion(&mut s, 0, 1, Minerva);
    act(&mut s, 0, enter(1, 0, 0));
    finish_turn(&mut s, 0);
    assert_eq!(s.seats[0].coins, coins + 1, "asteroid 1's deep mine");
    turn_of(&mut s, 0);
    s.seats[0].slots = [None; 5];
    let coins = s.seats[0].coins;
    start_expansion(&mut s, 0, 1, Minerva);
    act(&mut s, 0, enter(1, 1, 0));
    finish_turn(&mut s, 0);
    assert_eq!(s.seats[0].coins, coins, "no second reward on asteroid 1");
}

#[test]
fn shuttle_spaces_with_the_reward_icon_move_the_expanded_companys_track() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 3, 0);
    start_expansion(&mut s, 0, 2, Minerva);
    // Shuttle space 6 (3-8) shows the reward icon; shuttle space 7 (3-9) too, but costs 2.
    assert!(data().belt.flight_path(6).is_some_and(|p| p.reward_icon));
    act(&mut s, 0, enter(6, 0, 1));
    let before = s.seats[0].track_pos[ci(Minerva)];
    act(&mut s, 0, D::StopExpanding);
    assert_eq!(s.seats[0].track_pos[ci(Minerva)], before + 1);
}

// ------------------------------------------------------------------------------------------
// ousting

#[test]
fn an_ousted_outpost_returns_to_an_outer_column_of_the_players_choice() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Skymine, 1, 0);
    put_outpost(&mut s, Skymine, 1, 1);
    put_outpost(&mut s, Skymine, 1, 2);
    // Skymine's column 1 is empty with its crossed-out space revealed: only 5 spaces usable;
    // column 3 has room too.
    s.stations[ci(Skymine)][0] = Column {
        outposts: 0,
        floor_revealed: true,
    };
    s.stations[ci(Skymine)][2].outposts = 5;
    start_expansion(&mut s, 0, 3, Minerva);
    act(&mut s, 0, enter(1, 0, 0));
    act(&mut s, 0, D::StopExpanding);
    assert!(matches!(
        top(&s),
        Task::ReturnOusted {
            company: Skymine,
            ..
        }
    ));
    // Never the middle (shuttle) column.
    let err = refused(&mut s, 0, D::ReturnOutpost { column: 1 });
    assert!(err.to_string().contains("outer column"), "{err}");
    act(&mut s, 0, D::ReturnOutpost { column: 0 });
    assert_eq!(
        s.stations[ci(Skymine)][0],
        Column {
            outposts: 1,
            floor_revealed: true
        }
    );
    // It lies on space 5 (the space above the crossed-out 6th).
    let shape = s.station_shape(data());
    assert!(s.stations[ci(Skymine)][0].covers_in(5, shape.spaces[0]));
    assert!(!s.stations[ci(Skymine)][0].covers_in(6, shape.spaces[0]));
}

#[test]
fn an_ousted_piece_with_no_vacant_home_space_leaves_the_game() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 3, 0);
    put_shuttle(&mut s, Astrogo, 6);
    // Astrogo's middle column is full again (4 usable spaces after its floor was revealed).
    s.stations[ci(Astrogo)][1] = Column {
        outposts: 4,
        floor_revealed: true,
    };
    let removed_before = s.belt.as_ref().map(|b| b.removed_shuttles[ci(Astrogo)]);
    start_expansion(&mut s, 0, 3, Minerva);
    act(&mut s, 0, enter(6, 0, 1));
    act(&mut s, 0, D::StopExpanding);
    assert_eq!(
        s.belt.as_ref().map(|b| b.removed_shuttles[ci(Astrogo)]),
        removed_before.map(|n| n + 1)
    );
    assert_eq!(s.stations[ci(Astrogo)][1].outposts, 4);
}

#[test]
fn an_ousted_shuttle_goes_to_the_lowest_vacant_space_of_the_middle_column() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 3, 0);
    put_shuttle(&mut s, Astrogo, 6);
    put_shuttle(&mut s, Astrogo, 7);
    start_expansion(&mut s, 0, 3, Minerva);
    act(&mut s, 0, enter(6, 0, 1));
    act(&mut s, 0, D::StopExpanding);
    assert_eq!(s.stations[ci(Astrogo)][1].outposts, 4);
    assert!(!matches!(top(&s), Task::ReturnOusted { .. }), "no choice");
}

// ------------------------------------------------------------------------------------------
// field scientists, remove-outpost rewards, share value

#[test]
fn ex21_minerva_controls_3_gas_collectors_on_10_and_both_linked_spaces_of_15() {
    let ex = &data().belt.example_ex21;
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 10, 0);
    let linked = data().belt.asteroids[asteroid(15)]
        .linked_gas_spaces
        .clone()
        .expect("15 has linked spaces");
    for sp in &linked {
        put_outpost(&mut s, Minerva, 15, *sp as usize - 1);
    }
    // Lin uses the Minerva field scientist: 2 basic steps + 1 coin, then 3 gas collectors give
    // 1 more step.
    let minerva_fs = field_scientist(Some(Minerva));
    up(&mut s, 0, 1, minerva_fs);
    let events = act(
        &mut s,
        0,
        D::UseField {
            source: engine::ActionSource::Slot(1),
        },
    );
    assert!(
        texts(&events).contains(&format!(
            "controls {} gas {}",
            ex.gas_collectors_controlled,
            if ex.gas_collectors_controlled == 1 {
                "collector"
            } else {
                "collectors"
            }
        )),
        "{}",
        texts(&events)
    );
    assert_eq!(s.seats[0].tank, 3);
    // Only one of the linked spaces: the linked collector is not controlled (1 + 1 = 2).
    let mut s = belt_blank(2);
    put_outpost(&mut s, Minerva, 10, 0);
    put_outpost(&mut s, Minerva, 15, linked[0] as usize - 1);
    up(&mut s, 0, 1, minerva_fs);
    let events = act(
        &mut s,
        0,
        D::UseField {
            source: engine::ActionSource::Slot(1),
        },
    );
    assert!(texts(&events).contains("controls 2 gas collectors"));
}

#[test]
fn gas_collectors_count_where_the_company_has_an_outpost_whoever_else_is_there() {
    let mut s = belt_blank(2);
    put_outpost(&mut s, Tawac, 28, 0);
    put_outpost(&mut s, Astrogo, 28, 1);
    // Asteroid 28's screen shows a gas collector of value 2: one for each (DECISIONS A7).
    let fs = field_scientist(Some(Tawac));
    up(&mut s, 0, 1, fs);
    let events = act(
        &mut s,
        0,
        D::UseField {
            source: engine::ActionSource::Slot(1),
        },
    );
    assert!(!texts(&events).contains("gas collector"), "1 of 2 needed");
    assert_eq!(s.seats[0].tank, 2);
}

#[test]
fn remove_outpost_rewards_never_take_shuttles() {
    let mut s = belt_blank(2);
    s.agenda.push(Task::Reward {
        seat: 0,
        reward: Reward::RemoveOutposts { n: 1 },
    });
    // Run the reward: the choice of column is asked.
    let options = legal(&s, 0);
    assert!(options.is_empty(), "the reward is not asked before it runs");
    s.agenda.pop();
    s.agenda.push(Task::RemoveOutposts { seat: 0, n: 1 });
    let err = refused(
        &mut s,
        0,
        D::RemoveOutpost {
            company: Tawac,
            column: 1,
        },
    );
    assert!(
        err.to_string().contains("shuttles cannot be removed"),
        "{err}"
    );
    act(
        &mut s,
        0,
        D::RemoveOutpost {
            company: Tawac,
            column: 2,
        },
    );
    assert_eq!(s.stations[ci(Tawac)][2].outposts, 5);
    assert_eq!(s.removed_outposts[ci(Tawac)], 1);
}

#[test]
fn share_value_counts_every_uncovered_coin_icon_of_the_station_shuttle_column_included() {
    let mut s = belt_blank(2);
    let shape = s.station_shape(data());
    // Two outposts off the left column and three shuttles off the middle one.
    s.stations[ci(Minerva)][0].outposts = 4;
    s.stations[ci(Minerva)][1].outposts = 2;
    let expect: u32 =
        shape.coins[0][..2].iter().sum::<u32>() + shape.coins[1][..3].iter().sum::<u32>();
    assert_eq!(s.share_value(data(), Minerva), expect);
    assert!(expect > 0);
}

// ------------------------------------------------------------------------------------------
// Luna on the Belt

/// A solo Belt game with Luna; every track marker back on space 0.
fn luna_belt(level: u8) -> skymines::engine::GameState {
    let o = GameOptions {
        players: 1,
        luna: Some(level),
        board: BoardSide::Belt,
        seed: 9,
        ..Default::default()
    };
    let mut s = new_game(&o);
    for seat in s.seats.iter_mut() {
        seat.track_pos = [0; 4];
    }
    s
}

#[test]
fn luna_expands_on_the_belt_to_the_min_or_max_vacant_target_in_reach_without_rewards() {
    let d = data();
    // Play seeded solo Belt games and check every Luna expansion step against the booklet by
    // replaying the rule on the position before it: her pieces only ever appear within reach.
    for seed in 0..20 {
        let o = GameOptions {
            players: 1,
            luna: Some(2),
            board: BoardSide::Belt,
            seed,
            ..Default::default()
        };
        let s = crate::modules_support::played(&o, seed);
        let luna = s.seats.len() - 1;
        // Luna gains no rewards: her coins come from her cards only; every company's pieces are
        // conserved.
        for c in skymines::data::Company::ALL {
            let b = s.belt.as_ref().expect("belt");
            assert_eq!(
                s.outposts_in_station(c) + b.outposts_of(c) + s.removed_outposts[ci(c)] as u32,
                12
            );
            assert_eq!(
                s.shuttles_in_station(c) + b.shuttles_of(c) + b.removed_shuttles[ci(c)] as u32,
                5
            );
        }
        assert!(s.seats[luna].is_luna());
        let _ = d;
    }
}

#[test]
fn lunas_belt_expansion_follows_the_booklet_step_by_step() {
    // Empty Belt, Luna expands Minerva with MIN: the vacant targets in reach are asteroids 1 and
    // 3 (station paths); MIN takes 1, then shuttle spaces 2, 4, 5 come in reach: MIN takes 2,
    // then 3, then 4 …
    let d = data();
    let mut s = luna_belt(2);
    let luna = s.seats.len() - 1;
    let mut ctx_events = Vec::new();
    let picks = luna_expand_steps(&mut s, luna, Minerva, 4, true, &mut ctx_events);
    assert_eq!(picks, vec![1, 2, 3, 4], "{ctx_events:?}");
    assert_eq!(outpost_at(&s, 1, 0), Some(Minerva));
    assert_eq!(shuttle_at(&s, 2), Some(Minerva));
    assert_eq!(outpost_at(&s, 3, 0), Some(Minerva));
    assert_eq!(shuttle_at(&s, 4), Some(Minerva));
    // Luna never gains rewards: no coins, no track steps.
    assert_eq!(s.seats[luna].track_pos[ci(Minerva)], 0);
    // MAX from an empty Belt: Tawac's highest vacant target in reach is asteroid 28.
    let mut s = luna_belt(2);
    let picks = luna_expand_steps(&mut s, luna, Tawac, 1, false, &mut ctx_events);
    assert_eq!(picks, vec![28]);
    let _ = d;
}

#[test]
fn luna_fills_her_own_asteroids_then_ousts_the_company_she_is_farthest_behind() {
    let mut s = luna_belt(2);
    let luna = s.seats.len() - 1;
    // Skymine: everything in reach is occupied: asteroids 10 and 18 full of Tawac (10) and
    // Astrogo (18); Luna is farther behind on Astrogo's track.
    put_outpost(&mut s, Tawac, 10, 0);
    put_outpost(&mut s, Tawac, 10, 1);
    put_outpost(&mut s, Astrogo, 18, 0);
    put_outpost(&mut s, Astrogo, 18, 1);
    s.seats[0].track_pos[ci(Astrogo)] = 5;
    s.seats[0].track_pos[ci(Tawac)] = 1;
    let mut ev = Vec::new();
    let picks = luna_expand_steps(&mut s, luna, Skymine, 1, true, &mut ev);
    assert_eq!(picks, vec![18], "oust from Astrogo (farthest behind)");
    assert_eq!(outpost_at(&s, 18, 0), Some(Skymine));
    // The ousted Astrogo outpost went home to its main outpost column.
    assert_eq!(s.outposts_in_station(Astrogo), 12 - 1);
    // Now Skymine has an outpost on 18 and a vacant shuttle space next to it (19, 22): MIN
    // takes the lowest vacant target: 19.
    let picks = luna_expand_steps(&mut s, luna, Skymine, 1, true, &mut ev);
    assert_eq!(picks, vec![19]);
}

/// Runs Luna's Belt expansion rule through a one-card turn: a Luna card expanding `company`
/// with `points` MIN/MAX is faked into her deck. Returns the target numbers she placed on, in
/// order.
fn luna_expand_steps(
    s: &mut skymines::engine::GameState,
    luna: usize,
    company: skymines::data::Company,
    points: u32,
    min: bool,
    events: &mut Vec<skymines::engine::Event>,
) -> Vec<u32> {
    let before_out = s
        .belt
        .as_ref()
        .map(|b| b.outposts.clone())
        .unwrap_or_default();
    let before_sh = s
        .belt
        .as_ref()
        .map(|b| b.shuttles.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    for _ in 0..points {
        let prev_out = s
            .belt
            .as_ref()
            .map(|b| b.outposts.clone())
            .unwrap_or_default();
        let prev_sh = s
            .belt
            .as_ref()
            .map(|b| b.shuttles.clone())
            .unwrap_or_default();
        let pick = if min {
            skymines::data::luna::SectorPick::Min
        } else {
            skymines::data::luna::SectorPick::Max
        };
        let ev = engine::luna_expand(data(), s, luna, company, 1, pick);
        events.extend(ev);
        let b = s.belt.as_ref().expect("belt");
        let mut placed = None;
        for (a, spaces) in b.outposts.iter().enumerate() {
            if spaces != &prev_out[a] {
                placed = Some(data().belt.asteroids[a].id);
            }
        }
        for (p, sh) in b.shuttles.iter().enumerate() {
            if *sh != prev_sh[p] {
                placed = Some(data().belt.flight_paths[p].shuttle_space);
            }
        }
        if let Some(n) = placed {
            out.push(n);
        }
    }
    let _ = (before_out, before_sh);
    out
}

#[test]
fn a_refused_belt_decision_leaves_the_state_unchanged() {
    let mut s = belt_blank(2);
    start_expansion(&mut s, 0, 1, Astrogo);
    let err = refused(
        &mut s,
        0,
        D::EnterSector {
            sector: 1,
            column: 0,
        },
    );
    assert!(matches!(err, RuleError::Illegal(_)));
    assert!(err.to_string().contains("Belt spaces"), "{err}");
}
