//! Seeded self-play through the legal decisions: thousands of games with the invariants checked
//! after every decision, reproducible digests, and coverage of every reachable decision kind.

use crate::support::data;
use skymines::engine::{GameOptions, TokenSetup, TrackSetup};
use skymines::sim::{self, SimConfig, SimReport};

fn run(players: usize, games: usize, seed: u64, vary: bool) -> SimReport {
    let config = SimConfig {
        games,
        options: GameOptions {
            players,
            seed,
            ..GameOptions::default()
        },
        check: true,
        max_decisions: 20_000,
        vary,
    };
    sim::run(data(), &config)
}

fn assert_clean(r: &SimReport) {
    assert_eq!(
        r.invariant_violations, 0,
        "violations: {:?}",
        r.violation_examples
    );
    assert_eq!(r.completed, r.games, "every game reaches final scoring");
}

#[test]
fn a_thousand_two_player_games_break_no_invariant() {
    assert_clean(&run(2, 1000, 1_000, false));
}

#[test]
fn a_thousand_three_player_games_break_no_invariant() {
    assert_clean(&run(3, 1000, 2_000, true));
}

#[test]
fn a_thousand_four_player_games_break_no_invariant() {
    assert_clean(&run(4, 1000, 3_000, false));
}

#[test]
fn the_same_arguments_give_the_same_digest_and_other_seeds_differ() {
    let a = run(3, 20, 42, true);
    let b = run(3, 20, 42, true);
    let c = run(3, 20, 43, true);
    assert_eq!(a.digest, b.digest);
    assert_ne!(a.digest, c.digest);
}

/// Golden digests: a rule change that alters play shows up here. Regenerate with
/// `UPDATE_GOLDEN=1 cargo test --release --test engine selfplay::golden` after checking the change
/// is intended.
#[test]
fn golden_digests_match() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sim_digests.json");
    let mut actual = serde_json::Map::new();
    for (players, seed, vary) in [(2, 1, false), (3, 7, true), (4, 11, false)] {
        let r = run(players, 10, seed, vary);
        assert_clean(&r);
        actual.insert(
            format!(
                "players{players}_seed{seed}_games10{}",
                if vary { "_vary" } else { "" }
            ),
            serde_json::Value::String(r.digest),
        );
    }
    let actual = serde_json::Value::Object(actual);
    if crate::support::update_golden() {
        let text = serde_json::to_string_pretty(&actual).expect("json");
        std::fs::write(&path, text + "\n").expect("write golden digests");
        return;
    }
    let text = std::fs::read_to_string(&path).expect("tests/golden/sim_digests.json exists");
    let expected: serde_json::Value = serde_json::from_str(&text).expect("golden json");
    assert_eq!(
        actual, expected,
        "self-play digests changed; see the test's doc comment"
    );
}

/// DECISIONS B12: over 1,000 games every decision kind and rule reachable in self-play occurs.
/// The few that self-play practically never reaches (the final research screen, the final tank
/// space, mixed payments, …) are covered by targeted tests in examples.rs instead.
#[test]
fn a_thousand_games_cover_every_reachable_decision_and_rule() {
    let r = run(3, 1000, 100, true);
    assert_clean(&r);
    let kinds = [
        "keep_token",
        "rest_starting_card",
        "plan_card",
        "plan_clear",
        "plan_done",
        "place_tile",
        "use_resources",
        "use_energy",
        "use_research",
        "use_field",
        "place_bonus",
        "drop_out",
        "select_card",
        "finish_selecting",
        "buy_card",
        "no_buy",
        "track_step",
        "choose_company",
        "expand_into",
        "outpost_column",
        "stop_expanding",
        "flip_plan",
        "skip_flip",
        "advance",
        "stop_advancing",
        "take_plan",
        "take_special",
        "take_coin",
        "place_plan",
        "choose_tier",
        "choose_option",
        "discard_card",
        "take_from_discard",
        "pay_barrier",
        "decline_barrier",
        "remove_outpost",
        "return_outpost",
        "take_resting_deck",
        "rest_card",
    ];
    let rules = [
        "bonus_majority",
        "bonus_standard",
        "bonus_tile_space",
        "bonus_track_space",
        "majority_no_reward",
        "bonus_threshold",
        "bonus_threshold_shared",
        "money_barrier_paid",
        "barrier_stop",
        "barrier_declined",
        "buy_with_units",
        "buy_for_coins",
        "oust",
        "five_outposts_one_expansion",
        "energy_forfeited",
        "company_field_scientist",
        "field_tile",
        "plus_one_tile",
        "first_player_marker",
        "supplement_coins",
        "plan_covered",
        "enter_special_plan",
        "discarded_card_action",
        "extra_bonus_markers",
        "tank_on_switch",
        "research_on_switch",
        "preparation",
    ];
    let missing: Vec<&str> = kinds
        .iter()
        .chain(rules.iter())
        .filter(|k| !r.decision_coverage.contains_key(**k))
        .copied()
        .collect();
    assert!(
        missing.is_empty(),
        "never occurred in 1,000 games: {missing:?}"
    );
    // Every board bonus space kind and both bonus kinds of the tracks were used.
    assert!(r.decision_coverage["bonus_track_space"] > 10);
}

#[test]
fn random_and_chosen_track_setups_and_the_draft_work() {
    let d = data();
    let mut options = GameOptions {
        players: 4,
        seed: 5,
        tracks: TrackSetup::Random,
        tokens: TokenSetup::Draft,
        ..GameOptions::default()
    };
    let state = skymines::engine::new_game(d, &options, &sim::seat_names(4)).expect("setup");
    let mut letters: Vec<char> = state
        .tracks
        .iter()
        .map(|t| d.tracks.tracks[*t].physical_track)
        .collect();
    letters.sort();
    letters.dedup();
    assert_eq!(
        letters.len(),
        4,
        "random tracks use 4 different physical tracks"
    );
    options.tracks = TrackSetup::Chosen(vec!["A2".into(), "B2".into(), "C1".into(), "D2".into()]);
    let state = skymines::engine::new_game(d, &options, &sim::seat_names(4)).expect("setup");
    let ids: Vec<&str> = state
        .tracks
        .iter()
        .map(|t| d.tracks.tracks[*t].id.as_str())
        .collect();
    assert_eq!(ids, ["A2", "B2", "C1", "D2"]);
    options.tracks = TrackSetup::Chosen(vec!["A1".into(), "A2".into(), "C1".into(), "D2".into()]);
    assert!(skymines::engine::new_game(d, &options, &sim::seat_names(4)).is_err());
}

/// The golden files are rewritten with `UPDATE_GOLDEN=1` only: this test's golden once was
/// with any value (a stray `UPDATE_GOLDEN=0` rewrote it, and the comparison passed).
#[test]
fn only_update_golden_1_rewrites_the_goldens() {
    use crate::support::wants_update;
    assert!(wants_update(Some("1")));
    for value in [
        None,
        Some(""),
        Some("0"),
        Some("yes"),
        Some("true"),
        Some(" 1"),
    ] {
        assert!(
            !wants_update(value),
            "UPDATE_GOLDEN={value:?} must not rewrite"
        );
    }
}
