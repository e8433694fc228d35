//! The program as an operator runs it, one test binary: the `skymines` command line
//! (`command_line`), the local mode and the backup command (`local_mode`), the kill test of the
//! local mode (`local_kill`), and the benchmarks' own checks (`bench_checks`). Run one part
//! with its module's name as the filter, e.g. `cargo test --release --test cli local_kill::`.

#[path = "../support/mod.rs"]
mod support;

mod bench_checks;
mod command_line;
mod config;
mod local_kill;
mod local_mode;
mod one_process;
