//! Module "Threat cards": the card between shuttle spaces 11 and 16, dealing with it during an
//! energy action (a shuttle of the expanding company on 11 or 16, placed before or during the
//! expansion; 2 energy; each card's requirement), its reward after the expansion's rewards (the
//! card leaves the board, the wild share), each of the six consequences at the end with Luna's
//! exceptions, the Singularity's end after round 6, and the Time anomaly's loop.

use crate::common::*;
use crate::modules_support::*;
use skymines::data::Company::{self, Astrogo, Minerva, Skymine, Tawac};
use skymines::engine::campaign;
use skymines::engine::state::Column;
use skymines::engine::{
    self, BoardSide, Decision as D, GameOptions, GameState, Phase, RuleError, Task,
};

const DEAL: D = D::DealWithThreat;

fn on_board(s: &GameState) -> bool {
    s.threat.as_ref().is_some_and(|t| t.on_board)
}

fn removed_by(s: &GameState) -> Option<usize> {
    s.threat.as_ref().and_then(|t| t.removed_by)
}

/// Seat 0 expands Minerva with `energy`, Minerva's shuttle already on shuttle space 11.
fn ready(threat: &str, energy: u32) -> GameState {
    let mut s = threat_blank(2, threat);
    put_shuttle(&mut s, Minerva, 11);
    start_expansion(&mut s, 0, energy, Minerva);
    s
}

// ------------------------------------------------------------------------------------------
// setup and reaching the threat

#[test]
fn one_threat_card_lies_face_up_between_shuttle_spaces_11_and_16() {
    assert_eq!(data().belt.threat_space.between_shuttle_spaces, [11, 16]);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let s = new_game(&GameOptions {
            players: 2,
            board: BoardSide::Belt,
            threats: true,
            seed,
            ..Default::default()
        });
        let t = s.threat.as_ref().expect("a threat card");
        assert!(t.on_board && t.removed_by.is_none());
        seen.insert(t.card);
    }
    assert_eq!(
        seen.len(),
        data().threats.threats.len(),
        "any of the 6 can come out"
    );
    // A named card (the Time anomaly's loop plays the same card again).
    let s = threat_blank(2, "singularity");
    assert_eq!(
        skymines::engine::threats::card(data(), &s).map(|c| c.id.as_str()),
        Some("singularity")
    );
    let bad = GameOptions {
        players: 2,
        board: BoardSide::Belt,
        threats: true,
        threat_card: Some("meteor".into()),
        ..Default::default()
    };
    assert!(matches!(
        engine::new_game(data(), &bad, &names(2)),
        Err(engine::SetupError::UnknownThreat(_))
    ));
}

#[test]
fn the_expanding_company_needs_a_shuttle_on_11_or_16() {
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_outpost(&mut s, Minerva, 3, 0);
    start_expansion(&mut s, 0, 3, Minerva);
    let err = refused(&mut s, 0, DEAL);
    assert!(
        err.to_string().contains("shuttle on shuttle space 11/16"),
        "{err}"
    );
    // Another company's shuttle there does not help.
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_shuttle(&mut s, Astrogo, 16);
    put_outpost(&mut s, Minerva, 3, 0);
    start_expansion(&mut s, 0, 3, Minerva);
    assert!(!is_legal(&s, 0, DEAL));
    // Astrogo's shuttle on 16 does.
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_shuttle(&mut s, Astrogo, 16);
    start_expansion(&mut s, 0, 3, Astrogo);
    assert!(is_legal(&s, 0, DEAL));
}

#[test]
fn a_shuttle_placed_on_11_in_the_same_expansion_reaches_the_threat() {
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_outpost(&mut s, Minerva, 8, 0);
    start_expansion(&mut s, 0, 3, Minerva);
    assert!(!is_legal(&s, 0, DEAL));
    // Shuttle space 11 (path 14-8, no energy icon next to 8): 1 energy.
    act(&mut s, 0, enter(11, 0, 1));
    assert!(is_legal(&s, 0, DEAL));
    act(&mut s, 0, DEAL);
    assert!(!on_board(&s));
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn reaching_the_threat_takes_2_energy_of_the_expansion() {
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_shuttle(&mut s, Minerva, 11);
    start_expansion(&mut s, 0, 1, Minerva);
    let err = refused(&mut s, 0, DEAL);
    assert!(err.to_string().contains("takes 2 energy"), "{err}");
    // With 3 energy, 1 is left to keep expanding after dealing with it.
    let mut s = ready("space_pirates", 3);
    s.seats[0].coins = 6;
    act(&mut s, 0, DEAL);
    assert_eq!(energy_left(&s), 1);
    assert!(on_board(&s), "the reward comes after the expansion");
    let err = refused(&mut s, 0, DEAL);
    assert!(err.to_string().contains("already dealt"), "{err}");
    let mut events = act(&mut s, 0, enter(14, 0, 0));
    // Asteroid 14's research point is utilized first; the threat's reward comes after.
    assert!(on_board(&s));
    events.extend(act(&mut s, 0, D::TakeCoin));
    assert!(!on_board(&s));
    // First the expansion's rewards (asteroid 14's coin), then the threat's.
    let t = texts(&events);
    let coin = t.find("gains 1 CrypCoin").expect("14's deep mine");
    let threat = t.find("removes the threat").expect("the threat's reward");
    assert!(coin < threat, "{t}");
}

// ------------------------------------------------------------------------------------------
// the six requirements

#[test]
fn space_pirates_pay_6_crypcoin() {
    let mut s = ready("space_pirates", 2);
    s.seats[0].coins = 5;
    let err = refused(&mut s, 0, DEAL);
    assert_eq!(err, RuleError::NotEnoughCoins { have: 5, need: 6 });
    s.seats[0].coins = 7;
    act(&mut s, 0, DEAL);
    assert_eq!(s.seats[0].coins, 1);
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn rogue_comet_spend_another_3_energy() {
    let mut s = ready("rogue_comet", 4);
    let err = refused(&mut s, 0, DEAL);
    assert!(err.to_string().contains("takes 5 energy"), "{err}");
    let mut s = ready("rogue_comet", 5);
    act(&mut s, 0, DEAL);
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn einstein_rosen_bridge_remove_2_energy_cards_from_the_hand() {
    let e = energy_cards(1, 4);
    let other = resource_card(skymines::data::Resource::Carbon, 1);
    let mut s = ready("einstein_rosen_bridge", 2);
    // Energy cards in the action area do not count: only the hand.
    s.seats[0].hand = vec![e[2], other];
    let err = refused(&mut s, 0, DEAL);
    assert!(err.to_string().contains("you hold 1"), "{err}");
    let mut s = ready("einstein_rosen_bridge", 2);
    s.seats[0].hand = vec![e[2], e[3], other];
    act(&mut s, 0, DEAL);
    assert!(matches!(top(&s), Task::DiscardEnergy { n: 2, .. }));
    let err = refused(&mut s, 0, D::DiscardCard { card: other });
    assert!(err.to_string().contains("energy cards"), "{err}");
    act(&mut s, 0, D::DiscardCard { card: e[3] });
    // The second is forced: taken at once. Then the expansion ends (no energy left).
    assert_eq!(s.seats[0].hand, vec![other]);
    assert!(s.discard.ends_with(&[e[3], e[2]]));
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn probe_needs_the_helium_marker_past_the_printed_40() {
    let first_40 = data()
        .player_board
        .tank_track
        .score_by_step
        .iter()
        .position(|v| *v >= 40)
        .expect("a 40 on the tank track") as u8;
    let mut s = ready("probe_unknown_signature", 2);
    s.seats[0].tank = first_40 - 1;
    let err = refused(&mut s, 0, DEAL);
    assert!(
        err.to_string().contains("value 40 on your tank track"),
        "{err}"
    );
    s.seats[0].tank = first_40;
    act(&mut s, 0, DEAL);
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn singularity_needs_the_upload_marker_past_the_printed_40() {
    let first_40 = data()
        .player_board
        .research_track
        .score_by_screen
        .iter()
        .position(|v| *v >= 40)
        .expect("a 40 on the research track") as u8;
    let mut s = ready("singularity", 2);
    s.seats[0].upload = Some(first_40 - 1);
    let err = refused(&mut s, 0, DEAL);
    assert!(
        err.to_string().contains("value 40 on your research track"),
        "{err}"
    );
    s.seats[0].upload = Some(first_40);
    act(&mut s, 0, DEAL);
    assert_eq!(removed_by(&s), Some(0));
}

#[test]
fn time_anomaly_needs_helium_past_25_and_upload_past_20() {
    let pb = &data().player_board;
    let tank25 = pb
        .tank_track
        .score_by_step
        .iter()
        .position(|v| *v >= 25)
        .unwrap() as u8;
    let up20 = pb
        .research_track
        .score_by_screen
        .iter()
        .position(|v| *v >= 20)
        .unwrap() as u8;
    for (tank, upload, ok) in [
        (tank25 - 1, up20, false),
        (tank25, up20 - 1, false),
        (tank25, up20, true),
    ] {
        let mut s = ready("time_anomaly", 2);
        s.seats[0].tank = tank;
        s.seats[0].upload = Some(upload);
        assert_eq!(is_legal(&s, 0, DEAL), ok, "tank {tank}, upload {upload}");
    }
}

#[test]
fn the_threat_is_dealt_with_only_during_an_energy_action_and_never_by_luna() {
    let mut s = threat_blank(2, "space_pirates");
    s.seats[0].coins = 6;
    put_shuttle(&mut s, Minerva, 11);
    let err = refused(&mut s, 0, DEAL);
    assert!(matches!(err, RuleError::NotNow(_)), "{err}");
    // Luna never deals with it: in solo games she may expand onto 11 and 16 but only a human
    // removes the card.
    for seed in 0..15 {
        let s = played(
            &GameOptions {
                players: 1,
                luna: Some(3),
                board: BoardSide::Belt,
                threats: true,
                seed,
                ..Default::default()
            },
            seed,
        );
        assert_ne!(removed_by(&s), Some(1));
    }
}

// ------------------------------------------------------------------------------------------
// the wild share and the consequences

fn finished(threat: &str, luna: bool) -> GameState {
    let mut s = new_game(&GameOptions {
        players: 2,
        luna: luna.then_some(2),
        board: BoardSide::Belt,
        threats: true,
        threat_card: Some(threat.to_string()),
        seed: 21,
        ..Default::default()
    });
    finish(&mut s);
    s
}

fn remove_threat(s: &mut GameState, by: usize) {
    if let Some(t) = s.threat.as_mut() {
        t.on_board = false;
        t.removed_by = Some(by);
    }
}

#[test]
fn the_wild_share_counts_for_the_company_worth_most_to_its_holder() {
    let mut s = finished("space_pirates", false);
    s.stations[Tawac.index()][0].outposts = 2;
    s.stations[Skymine.index()][0].outposts = 5;
    remove_threat(&mut s, 1);
    let scores = engine::final_scores(data(), &s);
    assert_eq!(scores[1].wild_share, Some(Tawac));
    assert_eq!(scores[0].wild_share, None);
    let tawac = |i: usize| {
        scores[i]
            .companies
            .iter()
            .find(|c| c.company == Tawac)
            .map(|c| (c.shares, c.share_value))
            .unwrap()
    };
    assert_eq!(tawac(1).0, tawac(0).0 + 1);
    assert!(tawac(1).1 > 0);
    // A removed threat has no consequence.
    assert_eq!(scores[0].cash, s.seats[0].coins);
}

#[test]
fn space_pirates_take_every_humans_cash_but_not_lunas() {
    let mut s = finished("space_pirates", true);
    for seat in s.seats.iter_mut() {
        seat.coins = 9;
    }
    let scores = engine::final_scores(data(), &s);
    assert_eq!(scores[0].cash, 0);
    assert_eq!(scores[1].cash, 0);
    assert_eq!(scores[2].cash, 9, "Luna keeps her cash");
    // Only at the end: during the game nothing is taken.
    s.phase = Phase::Action;
    assert_eq!(engine::final_scores(data(), &s)[0].cash, 9);
}

#[test]
fn rogue_comet_ignores_2_coin_icons_of_the_most_valuable_stations_ties_included() {
    let mut s = finished("rogue_comet", true);
    // Minerva and Tawac show the most coin icons (tied), Astrogo fewer.
    for c in [Minerva, Tawac] {
        s.stations[c.index()][0] = Column {
            outposts: 0,
            floor_revealed: true,
        };
    }
    s.stations[Astrogo.index()][0].outposts = 3;
    for seat in s.seats.iter_mut() {
        seat.track_pos = [4; 4];
    }
    let value = |c: Company| s.share_value(data(), c);
    let scores = engine::final_scores(data(), &s);
    let sv = |i: usize, c: Company| {
        scores[i]
            .companies
            .iter()
            .find(|x| x.company == c)
            .map(|x| x.share_value)
            .unwrap()
    };
    assert_eq!(sv(0, Minerva), value(Minerva) - 2);
    assert_eq!(sv(0, Tawac), value(Tawac) - 2);
    assert_eq!(sv(0, Astrogo), value(Astrogo));
    assert_eq!(sv(2, Minerva), value(Minerva), "not for Luna");
}

#[test]
fn einstein_rosen_bridge_removes_every_energy_card_with_its_shares_but_not_lunas() {
    let mut s = finished("einstein_rosen_bridge", true);
    for seat in s.seats.iter_mut() {
        seat.track_pos = [0; 4];
    }
    s.stations[Skymine.index()][0].outposts = 0;
    let energy_share = card("B09"); // energy, Skymine share
    let resource_share = card("A02"); // carbon, Skymine share
    s.seats[0].hand = vec![energy_share, resource_share];
    let luna_cards = vec![card("C07")]; // energy, Astrogo share
    if let Some(l) = s.seats[2].luna.as_mut() {
        l.reserve_cards = luna_cards;
    }
    s.stations[Astrogo.index()][0].outposts = 0;
    let scores = engine::final_scores(data(), &s);
    let shares = |i: usize, c: Company| {
        scores[i]
            .companies
            .iter()
            .find(|x| x.company == c)
            .map(|x| x.shares)
            .unwrap()
    };
    assert_eq!(shares(0, Skymine), 1, "the energy card's share is gone");
    assert_eq!(shares(2, Astrogo), 1, "Luna keeps her energy cards");
}

#[test]
fn the_probe_wipes_every_humans_tank_score_but_not_lunas() {
    let mut s = finished("probe_unknown_signature", true);
    for seat in s.seats.iter_mut() {
        seat.tank = 12;
    }
    let scores = engine::final_scores(data(), &s);
    assert_eq!(scores[0].tank, 0);
    assert_eq!(scores[1].tank, 0);
    assert!(scores[2].tank > 0, "Luna's marker scores as usual");
}

#[test]
fn the_singularity_ends_the_game_after_round_6_for_everyone() {
    let mut s = threat_blank(2, "singularity");
    s.round = 6;
    everyone_drops_out(&mut s);
    assert_eq!(s.phase, Phase::Finished);
    assert_eq!(s.round, 6, "no Preparation phase");
    // Removed, the game goes on to round 7.
    let mut s = threat_blank(2, "singularity");
    s.round = 6;
    remove_threat(&mut s, 0);
    everyone_drops_out(&mut s);
    assert_eq!(s.phase, Phase::Planning);
    assert_eq!(s.round, 7);
    // With Luna too: a played solo game with the Singularity never removed ends after round 6.
    for seed in 0..6 {
        let s = played(
            &GameOptions {
                players: 1,
                luna: Some(2),
                board: BoardSide::Belt,
                threats: true,
                threat_card: Some("singularity".into()),
                seed,
                ..Default::default()
            },
            seed,
        );
        if on_board(&s) {
            assert_eq!(s.round, 6);
        } else {
            assert_eq!(s.round, 7);
        }
    }
}

#[test]
fn the_time_anomaly_loops_with_no_winner_and_the_same_card() {
    let mut s = finished("time_anomaly", true);
    s.seats[0].coins = 30;
    let scores = engine::final_scores(data(), &s);
    assert!(scores.iter().all(|x| x.time_loop && !x.winner));
    assert!(skymines::engine::threats::time_loop_continues(data(), &s));
    // The scores count as usual (Luna's too).
    assert_eq!(scores[0].cash, 30);
    // The next game: the same threat card, another seed.
    let next = campaign::next_loop_options(data(), &s, 99);
    assert_eq!(next.threat_card.as_deref(), Some("time_anomaly"));
    assert_eq!(next.seed, 99);
    let g = new_game(&next);
    assert_eq!(
        skymines::engine::threats::card(data(), &g).map(|c| c.id.as_str()),
        Some("time_anomaly")
    );
    // Removed: the loop ends and the game has a winner.
    remove_threat(&mut s, 0);
    let scores = engine::final_scores(data(), &s);
    assert!(scores.iter().all(|x| !x.time_loop));
    assert!(scores[0].winner);
}

#[test]
fn the_loops_scores_and_success_points_are_averaged_rounding_up() {
    use campaign::{ChapterResult, SeatSp};
    let game = |scores: [u32; 2], sps: [u32; 2]| ChapterResult {
        chapter: 4,
        seats: (0..2)
            .map(|i| SeatSp {
                seat: i,
                name: format!("p{i}"),
                luna: false,
                score: scores[i],
                sp: sps[i],
                lines: Vec::new(),
            })
            .collect(),
        games: 1,
        luna_level: None,
    };
    let avg = campaign::average_loop(
        data(),
        &[
            game([40, 51], [2, 3]),
            game([45, 50], [3, 3]),
            game([41, 50], [2, 4]),
        ],
    )
    .expect("the loop's games");
    assert_eq!(avg.games, 3);
    assert_eq!(avg.seats[0].score, 42, "126 / 3");
    assert_eq!(avg.seats[1].score, 51, "151 / 3 = 50.33 rounds up");
    assert_eq!(avg.seats[0].sp, 3, "7 / 3 rounds up");
    // The loop's games have no winner: the winner point goes once to the best averaged score.
    assert_eq!(
        avg.seats[1].sp,
        4 + 1,
        "10 / 3 rounds up, + the winner point"
    );
    assert_eq!(
        avg.seats[1]
            .lines
            .iter()
            .map(|l| l.rule.as_str())
            .collect::<Vec<_>>(),
        ["time_loop_average", "winner"]
    );
    assert!(campaign::average_loop(data(), &[]).is_err());
}

#[test]
fn consequences_apply_only_while_the_card_is_on_the_board_at_the_end() {
    for id in [
        "space_pirates",
        "rogue_comet",
        "einstein_rosen_bridge",
        "probe_unknown_signature",
    ] {
        let mut s = finished(id, false);
        for seat in s.seats.iter_mut() {
            seat.coins = 5;
            seat.tank = 12;
        }
        let with = engine::final_scores(data(), &s);
        remove_threat(&mut s, 0);
        let without = engine::final_scores(data(), &s);
        assert!(
            with[1].total <= without[1].total,
            "{id}: the consequence never helps"
        );
    }
}
