//! Backups while games are played: `skymines::store::backup::backup` (the `skymines backup`
//! command) copies the database while another thread keeps moving in two games; every copy
//! restores, and each game in it equals an uninterrupted run of the same seed after as many
//! moves as the copy holds (a consistent cut: no move half there). The last copy, put in place
//! of the database as the README says, is played on to the end.

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use skymines::store::backup::backup;
use skymines::store::torture::{drive, reference_trace, torture_game};
use skymines::store::{Store, StoreOptions};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[test]
fn backups_made_during_play_restore_to_a_consistent_state() {
    let dir = TempDir::new("backup");
    let seeds = [31u64, 32];
    let moves = 150u64;
    let traces: Vec<_> = seeds
        .iter()
        .map(|&s| reference_trace(&data(), s, moves))
        .collect();
    let (store, _) = open(&dir.db(), 4);
    let store = Arc::new(store);
    let games: Vec<_> = seeds
        .iter()
        .map(|&s| torture_game(&store, s).expect("game"))
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    let player = {
        let (store, games, done) = (store.clone(), games.clone(), done.clone());
        std::thread::spawn(move || {
            for target in (10..=moves).step_by(10) {
                for (&game, &seed) in games.iter().zip(seeds.iter()) {
                    drive(&store, game, seed, target, |_| {}).expect("plays");
                }
            }
            done.store(true, Ordering::SeqCst);
        })
    };
    let mut copies = Vec::new();
    while !done.load(Ordering::SeqCst) || copies.is_empty() {
        let out = dir.path().join(format!("backup-{}.db", copies.len()));
        let report = backup(&dir.db(), &out, data()).expect("the backup works during play");
        assert_eq!(report.running + report.damaged, 2, "{report:?}");
        assert_eq!(report.damaged, 0, "{report:?}");
        copies.push(out);
    }
    player.join().expect("the player thread");
    assert!(copies.len() >= 2, "{} backups", copies.len());
    // A file that exists is never overwritten.
    assert!(backup(&dir.db(), &copies[0], data()).is_err());

    let mut seen = Vec::new();
    for copy in &copies {
        let (restored, report) =
            Store::open(copy, data(), StoreOptions::default()).expect("a backup opens");
        assert_eq!(report.restored, 2);
        for (i, &game) in games.iter().enumerate() {
            let (state, seq) = restored.games().live_state(game).expect("state");
            assert_eq!(*state, traces[i][seq as usize], "copy {copy:?} game {game}");
            assert_eq!(restored.games().log(game).expect("log").len() as u64, seq);
            seen.push(seq);
        }
    }
    assert!(
        seen.iter().any(|&s| s > 0 && s < moves),
        "some copy was made mid-play: {seen:?}"
    );
    // Restoring: the last copy in place of the database, and the games play on to the end.
    drop(store);
    let db = dir.db();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::copy(copies.last().expect("a copy"), &db).expect("copy in place");
    let (store, report) = open(&db, 4);
    assert_eq!(report.restored, 2);
    for (i, (&game, &seed)) in games.iter().zip(seeds.iter()).enumerate() {
        drive(&store, game, seed, moves, |_| {}).expect("plays on");
        assert_eq!(
            *store.games().live_state(game).expect("state").0,
            traces[i][moves as usize]
        );
    }
}
