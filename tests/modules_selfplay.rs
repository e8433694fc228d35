//! Seeded self-play with the modules: 500 games of each combination (Belt side, mission cards,
//! threat cards, with and without Luna) and whole campaigns, with the invariants checked after
//! every decision (12 outposts + 5 shuttles per company on the Belt), plus what the runs cover:
//! every mission task fulfilled, threats removed, every consequence applied, time loops reported.

use skymines::data::GameData;
use skymines::engine::{BoardSide, GameOptions};
use skymines::sim::{self, SimConfig, SimReport};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn data() -> &'static GameData {
    static DATA: OnceLock<GameData> = OnceLock::new();
    DATA.get_or_init(|| GameData::embedded().expect("the built-in data loads"))
}

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
    let mut coverage = BTreeMap::new();
    for (i, (name, c)) in combos.iter().enumerate() {
        let r = sim::run(data(), &config(c, 500, 10_000 * (i as u64 + 1)));
        assert_clean(name, &r);
        merge(&mut coverage, &r);
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
    // Threats removed in self-play. The Probe (tank value 40), the Singularity (research value
    // 40) and the Time anomaly (25 and 20) ask for track values self-play seats do not reach;
    // their removal is covered by the scenarios in modules_threats.rs.
    for id in ["space_pirates", "rogue_comet", "einstein_rosen_bridge"] {
        let note = format!("threat_removed_{id}");
        assert!(coverage.contains_key(&note), "never removed: {id}");
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
