//! Shared by every benchmark (included with `#[path]`; unit-tested in `tests/cli/bench_checks.rs`):
//! the quick mode, and [`Samples`], which keeps a timed sample only when the work it timed was
//! accepted and fails the benchmark loudly otherwise, so a benchmark never reports the speed
//! of a refusal. Every benchmark prints how many samples it kept and why any were skipped.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::time::Duration;

/// Small counts for CI (`BENCH_QUICK=1` or a `--quick` argument): every benchmark still does
/// all of its work and checks, just less of it; its figures are not the ones to quote.
pub fn quick() -> bool {
    std::env::var("BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0")
        || std::env::args().any(|a| a == "--quick")
}

/// `full` normally, `small` in quick mode.
pub fn size<T>(full: T, small: T) -> T {
    if quick() {
        small
    } else {
        full
    }
}

/// The mode's name, for the figures' headings.
pub fn mode() -> &'static str {
    if quick() {
        "quick mode: small counts, not figures to quote"
    } else {
        "full mode"
    }
}

/// Stops the benchmark: `what` was refused (or went wrong), so nothing it timed means anything.
pub fn fail(what: &str, why: impl Display) -> ! {
    panic!("BENCHMARK FAILED: {what} was not accepted: {why}")
}

/// The value of work that must succeed; fails the benchmark naming `what` otherwise.
pub fn assert_accepted<T, E: Display>(what: &str, result: Result<T, E>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => fail(what, e),
    }
}

/// Timed samples of one measurement, each kept only once its work was shown accepted, with the
/// untimed ones counted by the reason they were skipped.
#[derive(Debug, Default)]
pub struct Samples {
    what: String,
    kept: Vec<Duration>,
    skipped: BTreeMap<String, usize>,
}

impl Samples {
    pub fn new(what: &str) -> Samples {
        Samples {
            what: what.to_string(),
            ..Samples::default()
        }
    }

    /// Keeps `elapsed` if `accepted` is `Ok`; fails the benchmark with the reason otherwise.
    pub fn keep(&mut self, elapsed: Duration, accepted: Result<(), String>) {
        if let Err(why) = accepted {
            fail(
                &format!("{} (sample {})", self.what, self.kept.len() + 1),
                why,
            );
        }
        self.kept.push(elapsed);
    }

    /// Counts a sample not taken, and why (nothing was timed).
    pub fn skip(&mut self, reason: &str) {
        *self.skipped.entry(reason.to_string()).or_default() += 1;
    }

    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    pub fn skipped(&self) -> usize {
        self.skipped.values().sum()
    }

    /// The kept samples' `p` quantile (0.5 = median, 1.0 = the largest); zero when none.
    pub fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.kept.clone();
        sorted.sort();
        percentile(&sorted, p)
    }

    /// The sum of the kept samples.
    pub fn total(&self) -> Duration {
        self.kept.iter().sum()
    }

    /// "kept N samples; skipped M (reason: k, …)".
    pub fn account(&self) -> String {
        let mut line = format!("{}: kept {} samples", self.what, self.kept.len());
        if self.skipped.is_empty() {
            line.push_str(", skipped none");
        } else {
            let reasons: Vec<String> = self
                .skipped
                .iter()
                .map(|(why, n)| format!("{why}: {n}"))
                .collect();
            line.push_str(&format!(
                ", skipped {} ({})",
                self.skipped(),
                reasons.join(", ")
            ));
        }
        line
    }

    /// Prints the account and fails the benchmark when fewer than `at_least` samples were kept
    /// (a measurement of almost nothing is no measurement).
    pub fn finish(&self, at_least: usize) {
        println!("  {}", self.account());
        if self.kept.len() < at_least {
            fail(
                &self.what,
                format!(
                    "only {} samples kept, at least {at_least} needed",
                    self.kept.len()
                ),
            );
        }
    }
}

/// The `p` quantile of sorted durations (nearest rank); zero when empty.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p.clamp(0.0, 1.0)).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The CPU time this thread has used so far: on a machine shared with other work, rates per
/// CPU second say what one core does, where wall-clock rates also count the waiting.
pub fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Milliseconds, for printing.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
