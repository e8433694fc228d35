//! Luna at every level: hundreds of seeded games with the invariants checked, and her strength
//! rising with the level against a fixed greedy opponent.

use crate::support::data;
use skymines::engine::GameOptions;
use skymines::sim::{self, SimConfig};

/// `skymines simulate --games 500 --players P --luna LEVEL` for every level and P = 1, 2, 3.
#[test]
fn five_hundred_games_at_every_level_and_player_count_break_no_invariant() {
    let d = data();
    for level in 0..=8u8 {
        for players in 1..=3usize {
            let config = SimConfig {
                games: 500,
                options: GameOptions {
                    players,
                    luna: Some(level),
                    seed: 1_000 * level as u64 + players as u64,
                    ..GameOptions::default()
                },
                check: true,
                max_decisions: 20_000,
                vary: players == 3,
            };
            let r = sim::run(d, &config);
            assert_eq!(
                r.invariant_violations, 0,
                "level {level}, {players} humans: {:?}",
                r.violation_examples
            );
            assert_eq!(r.completed, r.games, "level {level}, {players} humans");
        }
    }
}

/// Luna's mean final score over 300 fixed-seed solo games against the greedy player rises with
/// her level (level 0 < level 2 < level 8).
#[test]
fn luna_gets_stronger_with_her_level() {
    let d = data();
    let mean = |level: u8| -> f64 {
        let total: u64 = (0..300u64)
            .map(|seed| {
                sim::solo_vs_luna(d, level, seed)
                    .map(|(_, luna)| luna as u64)
                    .unwrap_or_else(|e| panic!("level {level} seed {seed}: {e}"))
            })
            .sum();
        total as f64 / 300.0
    };
    let (l0, l2, l8) = (mean(0), mean(2), mean(8));
    assert!(
        l0 < l2 && l2 < l8,
        "Luna's mean scores: level 0 {l0}, level 2 {l2}, level 8 {l8}"
    );
}
