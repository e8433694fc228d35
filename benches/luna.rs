//! Luna's strength by level: mean final scores over 300 fixed-seed solo games of a greedy
//! one-step-lookahead player against Luna at each level 0–8. Run with `cargo bench --bench luna`.

use skymines::data::GameData;
use skymines::sim;

fn main() {
    let data = GameData::embedded().expect("data");
    println!("level | greedy human mean | Luna mean | Luna wins");
    for level in 0..=8u8 {
        let (mut human, mut luna, mut wins) = (0u64, 0u64, 0u32);
        for seed in 0..300u64 {
            match sim::solo_vs_luna(&data, level, seed) {
                Ok((h, l)) => {
                    human += h as u64;
                    luna += l as u64;
                    wins += u32::from(l >= h);
                }
                Err(e) => eprintln!("level {level} seed {seed}: {e}"),
            }
        }
        println!(
            "{level} | {:.1} | {:.1} | {}/300",
            human as f64 / 300.0,
            luna as f64 / 300.0,
            wins
        );
    }
}
