//! Seeded games played by the program itself: self-play through the legal decisions with the
//! invariant checks after every decision (the harness behind `skymines simulate`, the invariant
//! tests and the speed benchmark), and matches between computer players with their balance
//! report.
//!
//! - `selfplay`: the seeded self-play runs (single games and whole campaigns) and their report;
//! - `threat_tries`: how self-play gets a hard threat card removed (the best of several tries of
//!   a round for one seat);
//! - `checks`: the invariants and the hidden-information check run after every decision;
//! - `matches`: games between computer players (and Luna), the balance report;
//! - `reports`: what a match measured, by scoring category, and a match's parts merged;
//! - `threads`: games spread over threads, their results in game order.

mod checks;
mod matches;
mod reports;
mod selfplay;
mod threads;
mod threat_tries;

pub use checks::{invariants, view_leaks};
pub use matches::{
    balance, bot_match, play_bots, solo_vs_luna, BalanceReport, BotGame, Distribution, WinRate,
};
pub use reports::{merge_reports, points_by_company, MatchReport};
pub use selfplay::{run, run_campaigns, seat_names, SimConfig, SimReport, TIME_LOOP_CAP};
