//! Seeded self-play with the modules: 500 games of each combination (Belt side, mission cards,
//! threat cards, with and without Luna) and whole campaigns, with the invariants checked after
//! every decision (12 outposts + 5 shuttles per company on the Belt), plus what the runs cover:
//! every mission task fulfilled, threats removed, every consequence applied, time loops reported.

use crate::support::data;
use skymines::engine::{BoardSide, GameOptions};
use skymines::sim::{self, SimConfig, SimReport};
use std::collections::BTreeMap;

struct Combo {
    players: usize,
    luna: Option<u8>,
    board: BoardSide,
    missions: bool,
    threats: bool,
}

fn config(c: &Combo, games: usize, seed: u64) -> SimConfig {
    SimConfig {
        games,
        options: GameOptions {
            players: c.players,
            luna: c.luna,
            board: c.board,
            missions: c.missions,
            threats: c.threats,
            seed,
            ..GameOptions::default()
        },
        check: true,
        max_decisions: 20_000,
        vary: true,
    }
}

fn assert_clean(what: &str, r: &SimReport) {
    assert_eq!(
        r.invariant_violations, 0,
        "{what}: violations {:?}",
        r.violation_examples
    );
    assert_eq!(
        r.completed, r.games,
        "{what}: every game reaches final scoring"
    );
}

fn merge(into: &mut BTreeMap<String, u64>, r: &SimReport) {
    for (k, v) in &r.decision_coverage {
        *into.entry(k.clone()).or_default() += v;
    }
}

const BELT: BoardSide = BoardSide::Belt;
const MOON: BoardSide = BoardSide::Moon;

#[test]
fn five_hundred_games_of_each_module_combination_break_no_invariant() {
    let combos = [
        (
            "belt",
            Combo {
                players: 2,
                luna: None,
                board: BELT,
                missions: false,
                threats: false,
            },
        ),
        (
            "belt+luna",
            Combo {
                players: 1,
                luna: Some(2),
                board: BELT,
                missions: false,
                threats: false,
            },
        ),
        (
            "missions",
            Combo {
                players: 3,
                luna: None,
                board: MOON,
                missions: true,
                threats: false,
            },
        ),
        (
            "missions+luna",
            Combo {
                players: 2,
                luna: Some(3),
                board: MOON,
                missions: true,
                threats: false,
            },
        ),
        (
            "belt+missions",
            Combo {
                players: 4,
                luna: None,
                board: BELT,
                missions: true,
                threats: false,
            },
        ),
        (
            "belt+missions+luna",
            Combo {
                players: 1,
                luna: Some(5),
                board: BELT,
                missions: true,
                threats: false,
            },
        ),
        (
            "belt+threats",
            Combo {
                players: 3,
                luna: None,
                board: BELT,
                missions: false,
                threats: true,
            },
        ),
        (
            "belt+threats+luna",
            Combo {
                players: 2,
                luna: Some(2),
                board: BELT,
                missions: false,
                threats: true,
            },
        ),
        (
            "belt+missions+threats",
            Combo {
                players: 2,
                luna: None,
                board: BELT,
                missions: true,
                threats: true,
            },
        ),
        (
            "belt+missions+threats+luna",
            Combo {
                players: 3,
                luna: Some(4),
                board: BELT,
                missions: true,
                threats: true,
            },
        ),
    ];
    // The combinations run side by side (the threat ones replay rounds and take longest).
    let reports: Vec<SimReport> = std::thread::scope(|scope| {
        let runs: Vec<_> = combos
            .iter()
            .enumerate()
            .map(|(i, (_, c))| {
                scope.spawn(move || sim::run(data(), &config(c, 500, 10_000 * (i as u64 + 1))))
            })
            .collect();
        runs.into_iter()
            .map(|r| r.join().expect("a simulation thread"))
            .collect()
    });
    let mut coverage = BTreeMap::new();
    for ((name, _), r) in combos.iter().zip(&reports) {
        assert_clean(name, r);
        merge(&mut coverage, r);
    }
    // Every mission task was fulfilled in self-play.
    for (card, t) in data().missions.tasks() {
        let note = format!("mission_{card}_{}", t.column);
        assert!(
            coverage.get(&note).is_some_and(|n| *n > 0),
            "task {card}/{} never fulfilled",
            t.column
        );
    }
    // The Belt's rules fired.
    for note in [
        "belt_enter_outpost_space",
        "belt_enter_shuttle_space",
        "belt_shuttle_reward",
        "belt_shuttle_returned",
        "oust",
        "luna_belt_expansion",
        "luna_oust",
        "one_time_marker_placed",
        "personal_bonus_space_unlocked",
        "bonus_personal_space",
        "claim_task",
        "end_claims",
        "deal_with_threat",
        "threat_dealt",
    ] {
        assert!(coverage.contains_key(note), "never occurred: {note}");
    }
    // Every threat card removed in self-play, also the three asking for high track values
    // (self-play keeps the best of several tries of each round for one seat there).
    for card in &data().threats.threats {
        let note = format!("threat_removed_{}", card.id);
        assert!(coverage.contains_key(&note), "never removed: {}", card.id);
    }
    // Every consequence applied at the end of some game.
    for kind in skymines::data::threats::ConsequenceEffect::KINDS {
        let note = format!("threat_consequence_{kind}");
        assert!(coverage.contains_key(&note), "never applied: {kind}");
    }
}

#[test]
fn whole_campaigns_with_and_without_luna() {
    for (players, luna, seed) in [
        (2, None, 1u64),
        (3, None, 2),
        (1, Some(3), 3),
        (2, Some(3), 4),
    ] {
        let c = Combo {
            players,
            luna,
            board: MOON,
            missions: false,
            threats: false,
        };
        let r = sim::run_campaigns(data(), &config(&c, 30, seed));
        assert_clean("campaign", &r);
        assert_eq!(r.campaigns, 30, "every campaign plays its 4 chapters");
        assert!(r.games >= 120);
        assert!(r.mean_campaign_sp > 0.0);
        // A Time anomaly loop is capped in simulation and reported.
        assert!(r.time_loops_capped <= r.time_loops);
    }
}

#[test]
fn module_runs_are_reproducible() {
    let c = Combo {
        players: 3,
        luna: Some(2),
        board: BELT,
        missions: true,
        threats: true,
    };
    let a = sim::run(data(), &config(&c, 20, 77));
    let b = sim::run(data(), &config(&c, 20, 77));
    assert_eq!(a.digest, b.digest);
    let ca = sim::run_campaigns(data(), &config(&c, 3, 5));
    let cb = sim::run_campaigns(data(), &config(&c, 3, 5));
    assert_eq!(ca.digest, cb.digest);
}

/// `skymines simulate --threat ID` plays every game with that threat card: each game ends with
/// it removed or with its consequence; an unknown card is refused before anything is played.
#[test]
fn simulate_can_force_one_threat_card() {
    let args = |extra: &[&str]| -> Vec<String> {
        let base = [
            "simulate",
            "--games",
            "3",
            "--players",
            "2",
            "--board",
            "belt",
        ];
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let mut out = Vec::new();
    let code = skymines::cli::run(&args(&["--threat", "singularity", "--json"]), &mut out);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_slice(&out).expect("a JSON report");
    assert_eq!(report["completed"], 3);
    let coverage = &report["decision_coverage"];
    let count = |k: &str| coverage[k].as_u64().unwrap_or(0);
    let ended = count("threat_consequence_game_ends_after_round");
    let removed = count("threat_removed_singularity");
    assert_eq!(ended + removed, 3, "{coverage}");
    for other in ["lose_cash", "no_tank_score", "time_loop"] {
        assert_eq!(count(&format!("threat_consequence_{other}")), 0);
    }

    let mut out = Vec::new();
    assert_eq!(
        skymines::cli::run(&args(&["--threat", "kraken"]), &mut out),
        2
    );
    assert!(out.is_empty(), "nothing was played");
}

/// DECISIONS A17 (issue 19): the self-play policy never aims a plan at the starting screen. With
/// mission cards (the research specialist covers the first plan its cards cannot chain, which
/// is often the starting token's) plans are covered, but never the starting research token; the
/// invariants check every seat's starting screen after every decision.
#[test]
fn self_play_covers_plans_but_never_the_starting_research_token() {
    let c = Combo {
        players: 3,
        luna: None,
        board: MOON,
        missions: true,
        threats: false,
    };
    let r = sim::run(data(), &config(&c, 150, 4_242));
    assert_clean("missions", &r);
    assert!(
        r.decision_coverage
            .get("plan_covered")
            .copied()
            .unwrap_or(0)
            > 0,
        "{:?}",
        r.decision_coverage
    );
}
