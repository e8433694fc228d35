//! The benchmarks' shared checks (`benches/support`): a timed sample whose work was refused
//! fails the benchmark instead of being reported; and deliberately broken runs of the
//! benchmarks themselves fail: the chat benchmark with the rate limit on (the bug it once
//! measured), the store benchmark's restore check with a damaged or missing game.

// Each benchmark is its own binary loading `benches/support`; this test loads two of them.
#![allow(clippy::duplicate_mod)]

#[path = "../../benches/support/mod.rs"]
#[allow(dead_code)]
mod support;

#[path = "../../benches/chat.rs"]
#[allow(dead_code)]
mod chat_bench;

#[path = "../../benches/store.rs"]
#[allow(dead_code)]
mod store_bench;

use crate::support::TempDir;
use std::time::Duration;
use support::{assert_accepted, percentile, Samples};

/// The panic message of `f`, which must panic.
fn panic_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(f).expect_err("the benchmark must fail");
    err.downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn accepted_samples_are_kept_and_skips_are_counted_by_reason() {
    let mut s = Samples::new("moves");
    for ms in [3u64, 1, 2] {
        s.keep(Duration::from_millis(ms), Ok(()));
    }
    s.skip("game over");
    s.skip("game over");
    s.skip("no choice offered");
    assert_eq!((s.kept(), s.skipped()), (3, 3));
    assert_eq!(s.percentile(0.5), Duration::from_millis(2));
    assert_eq!(s.percentile(1.0), Duration::from_millis(3));
    assert_eq!(s.total(), Duration::from_millis(6));
    assert_eq!(
        s.account(),
        "moves: kept 3 samples, skipped 3 (game over: 2, no choice offered: 1)"
    );
    s.finish(3);
    assert_eq!(
        Samples::new("x").account(),
        "x: kept 0 samples, skipped none"
    );
    assert_eq!(percentile(&[], 0.99), Duration::ZERO);
}

#[test]
fn a_refused_sample_fails_the_benchmark_naming_it() {
    let msg = panic_of(|| {
        let mut s = Samples::new("moves");
        s.keep(Duration::from_millis(1), Ok(()));
        s.keep(Duration::from_millis(1), Err("Slow down a little".into()));
    });
    assert!(msg.contains("BENCHMARK FAILED: moves (sample 2)"), "{msg}");
    assert!(msg.contains("Slow down a little"), "{msg}");
    let msg = panic_of(|| {
        assert_accepted("a restore", Err::<(), _>("game 7 is damaged"));
    });
    assert!(
        msg.contains("a restore was not accepted: game 7 is damaged"),
        "{msg}"
    );
    assert_eq!(assert_accepted("a move", Ok::<u32, String>(4)), 4);
}

#[test]
fn too_few_kept_samples_fail_the_benchmark() {
    let msg = panic_of(|| {
        let mut s = Samples::new("commands");
        s.keep(Duration::from_millis(1), Ok(()));
        s.skip("no choice offered");
        s.finish(2);
    });
    assert!(
        msg.contains("only 1 samples kept, at least 2 needed"),
        "{msg}"
    );
}

/// The chat benchmark with the per-user rate limit on times refusals: it must fail, naming the
/// refusal, where the same run with the limit off keeps every command.
#[test]
fn the_chat_benchmark_fails_when_its_commands_are_refused() {
    let dir = TempDir::new("bench-chat-limited");
    let limited = skymines::chat::ChatConfig {
        images: false,
        rate_limit: 3,
        rate_window_ms: 60_000,
        ..chat_bench::bench_config()
    };
    let msg = panic_of(|| {
        chat_bench::measure(dir.path(), limited, 2, 30);
    });
    drop(dir);
    assert!(msg.contains("BENCHMARK FAILED: /choose commands"), "{msg}");
    assert!(msg.contains("Slow down"), "{msg}");

    let dir = TempDir::new("bench-chat-open");
    let open = skymines::chat::ChatConfig {
        images: false,
        ..chat_bench::bench_config()
    };
    assert_eq!(open.rate_limit, 0, "the benchmark turns the limit off");
    let samples = chat_bench::measure(dir.path(), open, 2, 30);
    drop(dir);
    assert_eq!(samples.kept(), 30, "{}", samples.account());
}

/// The store benchmark's restore check refuses a restore that lost, damaged or did not verify
/// a game.
#[test]
fn the_store_benchmark_fails_when_a_restore_is_not_whole() {
    use skymines::store::RestoreReport;
    let whole = RestoreReport {
        restored: 3,
        verified: 3,
        ..RestoreReport::default()
    };
    assert_eq!(store_bench::restored_whole(&whole, 3, true), Ok(()));
    let lost = store_bench::restored_whole(&whole, 4, true).expect_err("a game missing");
    assert!(lost.contains("3 of 4 games restored"), "{lost}");
    let damaged = RestoreReport {
        damaged: vec![(9, "the replay differs".into())],
        ..whole.clone()
    };
    let why = store_bench::restored_whole(&damaged, 3, true).expect_err("damaged");
    assert!(why.contains("game 9: the replay differs"), "{why}");
    let unchecked = RestoreReport {
        verified: 2,
        unverified: vec![(5, "engine upgrade".into())],
        ..whole.clone()
    };
    let why = store_bench::restored_whole(&unchecked, 3, true).expect_err("unverified");
    assert!(
        why.contains("2 of 3 games verified, e.g. game 5: engine upgrade"),
        "{why}"
    );
    assert_eq!(store_bench::restored_whole(&unchecked, 3, false), Ok(()));
}
