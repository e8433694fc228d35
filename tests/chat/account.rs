//! The public account (DECISIONS B20, issue 34): every change a turn makes to what other players
//! may see is said in that turn's message with its numbers. The check plays seeded games of
//! every kind and compares each message with the change of the public view; these tests run it
//! on the CI's games, show that it finds a line taken out, a merged count that is off by one or
//! a share value said away from the line that changed it, and that its games cover every kind
//! of game.
//!
//! A bigger run (the lead's 2,000+ games on a machine with more cores):
//! `SKYMINES_ACCOUNT_GAMES=2000 cargo test --release --test chat account:: -- --ignored`, or
//! `cargo run --release -- account-check --games 2000 --threads 16`.

use crate::support::data;
use skymines::chat::account::{self, AccountReport};
use skymines::engine::{BoardSide, Event};

/// The games CI checks: seeds 0–99.
const CI_GAMES: usize = 100;

fn assert_complete(report: &AccountReport) {
    println!("{}", report.summary());
    assert_eq!(
        report.misses,
        0,
        "{}\n{}\nby kind: {:?}",
        report.summary(),
        report.examples.join("\n\n"),
        report.by_kind
    );
    assert!(report.messages > 0 && report.changes > 0, "{report:?}");
}

#[test]
fn every_public_change_is_said_with_its_numbers_in_the_ci_games() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let report = account::check_seeds(data(), 0, CI_GAMES, threads);
    assert_eq!(report.games, CI_GAMES);
    assert_complete(&report);
}

/// The lead's big run: `SKYMINES_ACCOUNT_GAMES` games from seed `SKYMINES_ACCOUNT_SEED` (2,000
/// from seed 0 unless set), on every core.
#[test]
#[ignore = "a long run: SKYMINES_ACCOUNT_GAMES=2000 cargo test --release --test chat account:: -- --ignored"]
fn every_public_change_is_said_in_many_games() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let games = env("SKYMINES_ACCOUNT_GAMES", 2_000) as usize;
    let seed = env("SKYMINES_ACCOUNT_SEED", 0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let report = account::check_seeds(data(), seed, games, threads);
    assert_complete(&report);
}

#[test]
fn the_ci_games_cover_every_kind_of_game() {
    let kinds: Vec<account::GameKind> = (0..CI_GAMES as u64).map(account::game_kind).collect();
    for players in 1..=4 {
        assert!(
            kinds.iter().any(|k| k.options.players == players),
            "{players} players"
        );
    }
    let luna: std::collections::BTreeSet<u8> =
        kinds.iter().filter_map(|k| k.options.luna).collect();
    assert!(luna.len() >= 6, "Luna at several levels: {luna:?}");
    assert!(kinds
        .iter()
        .any(|k| k.options.luna.is_some() && k.options.players > 1));
    assert!(kinds.iter().any(|k| k.options.board == BoardSide::Belt));
    assert!(kinds.iter().any(|k| k.options.board == BoardSide::Moon));
    assert!(kinds.iter().any(|k| k.options.threats));
    assert!(kinds.iter().any(|k| k.options.missions));
    assert!(kinds.iter().any(|k| k.options.linked_slots));
    assert!(kinds.iter().any(|k| k.computers.iter().any(|c| *c)));
}

/// Plays seeds until `mutate` has changed a message (it returns whether it did), and returns
/// that game's report.
fn mutated_game(mut mutate: impl FnMut(&mut Vec<Event>) -> bool) -> AccountReport {
    for seed in 0..40 {
        let mut done = false;
        let report = account::check_game_mutated(data(), seed, &mut |_| {}, &mut |events| {
            if !done {
                done = mutate(events);
            }
        });
        if done {
            return report;
        }
    }
    panic!("no game had a message to mutate");
}

#[test]
fn an_unmutated_game_passes() {
    let report = mutated_game(|_| true);
    assert_complete(&report);
}

#[test]
fn a_line_taken_out_of_a_message_is_found() {
    // Each kind of line the account rests on: taking the first such line out of a message
    // leaves its change unsaid.
    for key in [
        "event.track_move",
        "event.gain_coins",
        "event.share_value",
        "event.oust",
        "event.expanded",
        "event.acquire",
        "event.tank",
        "event.upload_onto",
        "event.bonus_marker",
        "event.rests",
        "event.prep_display",
    ] {
        let report = mutated_game(|events| {
            let Some(i) = events.iter().position(|e| e.key == key) else {
                return false;
            };
            events.remove(i);
            true
        });
        assert!(
            report.misses > 0,
            "taking out a {key} line went unnoticed: {}",
            report.summary()
        );
    }
}

#[test]
fn a_merged_count_off_by_one_is_found() {
    for (key, arg) in [
        ("event.track_move", "moved"),
        ("event.gain_coins", "n"),
        ("event.tank", "to"),
    ] {
        for delta in [1i64, -1] {
            let report = mutated_game(|events| {
                let Some(e) = events.iter_mut().find(|e| {
                    e.key == key && e.arg(arg).and_then(|v| v.parse::<i64>().ok()) > Some(1)
                }) else {
                    return false;
                };
                for (k, v) in &mut e.args {
                    if k == arg {
                        let n: i64 = v.parse().unwrap_or(0);
                        *v = (n + delta).to_string();
                    }
                }
                true
            });
            assert!(
                report.misses > 0,
                "{key} with its {arg} off by {delta} went unnoticed: {}",
                report.summary()
            );
        }
    }
}

/// A share value line must come right after the line that moved its station (an oust, an
/// expansion): moved to the end of its message (as Luna's came, after "Luna drops out"), it
/// is found.
#[test]
fn a_share_value_said_away_from_its_cause_is_found() {
    let report = mutated_game(|events| {
        let Some(i) = events.iter().position(|e| e.key == "event.share_value") else {
            return false;
        };
        if i + 1 == events.len() {
            return false;
        }
        let line = events.remove(i);
        events.push(line);
        true
    });
    assert!(
        report
            .by_kind
            .contains_key("share value away from its cause"),
        "a share value line moved to the end of its message went unnoticed: {} {:?}",
        report.summary(),
        report.by_kind
    );
}
