//! `skymines train`: its options and the run that fits the computer players' learned estimate
//! (`bots::train`) and writes the file.

use crate::data::GameData;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct TrainArgs {
    /// Games each round of fitting plays
    #[arg(long, value_name = "N", default_value_t = 400)]
    games: u64,
    /// Seed of the first game (the games of all rounds are numbered on from it)
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Rounds of fitting: the first on exploring players' games, each later one adding games of
    /// the normal player judging by the previous fit
    #[arg(long, value_name = "K", default_value_t = 3)]
    iterations: u32,
    /// Ridge penalty on standardized features
    #[arg(long, value_name = "L", default_value_t = 0.1)]
    ridge: f64,
    /// Share of the decisions at which a position is recorded
    #[arg(long, value_name = "P", default_value_t = 0.1)]
    record: f64,
    /// Threads the games are played on (the written numbers are the same for any count: each
    /// game is seeded alone and fitted in game order)
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// The file to write (an existing one is replaced)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// `train`: fits the learned estimate and writes it.
pub(super) fn train(args: &TrainArgs, out: &mut dyn Write) -> i32 {
    let data = match GameData::embedded() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    if !(0.0..=1.0).contains(&args.record) || args.record == 0.0 {
        eprintln!("--record must be a share above 0 and at most 1");
        return 2;
    }
    let config = crate::bots::train::TrainConfig {
        games: args.games,
        seed: args.seed,
        iterations: args.iterations,
        ridge: args.ridge,
        record: args.record,
        threads: args.threads.max(1),
        command: format!(
            "skymines train --games {} --seed {} --iterations {} --ridge {} --record {} --out {}",
            args.games,
            args.seed,
            args.iterations,
            args.ridge,
            args.record,
            args.out.display()
        ),
    };
    let started = std::time::Instant::now();
    let result = crate::bots::train::train(&data, &config, &mut |line| {
        let _ = writeln!(out, "{line}");
    });
    let (file, _) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("training stopped: {e}");
            return 1;
        }
    };
    if let Err(e) = std::fs::write(&args.out, file.to_text()) {
        eprintln!("cannot write {}: {e}", args.out.display());
        return 1;
    }
    let p = &file.provenance;
    let _ = writeln!(
        out,
        "wrote {}: {} games, {} positions (training hash {}), held-out error {:.2} (hand-weighted {:.2}), {:.1} s",
        args.out.display(),
        p.games,
        p.positions,
        p.training_hash,
        p.held_out_rmse_own,
        p.held_out_rmse_handmade,
        started.elapsed().as_secs_f64()
    );
    0
}
