//! Luna's strength by level: mean final scores over 300 fixed-seed solo games of a greedy
//! one-step-lookahead player against Luna at each level 0–8. Every game must be played to its
//! end (a refused decision or a stuck game fails the benchmark).
//! `cargo bench --bench luna` (`BENCH_QUICK=1`: 10 games a level).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use skymines::data::GameData;
use skymines::sim;
use std::time::Instant;
use support::{assert_accepted, size, Samples};

fn main() {
    let data = assert_accepted("the built-in data", GameData::embedded());
    let games = size(300u64, 10);
    println!("Luna benchmark ({})", support::mode());
    println!("level | greedy human mean | Luna mean | Luna wins");
    let mut samples = Samples::new("solo games against Luna (one sample a game)");
    for level in 0..=8u8 {
        let (mut human, mut luna, mut wins) = (0u64, 0u64, 0u32);
        for seed in 0..games {
            let t = Instant::now();
            let result = sim::solo_vs_luna(&data, level, seed);
            let elapsed = t.elapsed();
            let (h, l) = assert_accepted(&format!("level {level}, seed {seed}"), result);
            samples.keep(elapsed, Ok(()));
            human += h as u64;
            luna += l as u64;
            wins += u32::from(l >= h);
        }
        println!(
            "{level} | {:.1} | {:.1} | {wins}/{games}",
            human as f64 / games as f64,
            luna as f64 / games as f64,
        );
    }
    println!(
        "a solo game against Luna: median {:.1} ms",
        support::ms(samples.percentile(0.5))
    );
    samples.finish(9 * games as usize);
}
