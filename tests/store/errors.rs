//! A read-only database file and a full disk: a typed error a player can read, nothing
//! changed, and the game continues correctly once writing works again.

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use skymines::store::torture::reference_trace;
use skymines::store::{Store, StoreError, StoreOptions};
use std::process::Command;

/// The message says what happened and that nothing changed, in words, without SQLite codes.
fn readable(e: &StoreError, word: &str) {
    let text = e.to_string();
    assert!(text.contains(word), "{text}");
    assert!(text.contains("nothing changed"), "{text}");
    assert!(!text.to_lowercase().contains("sqlite"), "{text}");
    assert!(e.is_transient());
}

/// The file opened read-only (what SQLite does with a write-protected file; root ignores file
/// modes, so the test asks for it): the games restore, every write is refused, nothing
/// changes; writable again, the game goes on as if nothing happened.
#[test]
fn a_read_only_database_refuses_writes_and_changes_nothing() {
    let dir = TempDir::new("err-ro");
    let seed = 71;
    let trace = reference_trace(&data(), seed, 40);
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, seed, 20);
    drop(store);
    let before = bytes(&dir.db());
    let ro = StoreOptions {
        snapshot_every: 4,
        read_only: true,
        ..StoreOptions::default()
    };
    let (store, report) = Store::open(dir.db(), data(), ro).expect("opens read-only");
    assert_eq!((report.restored, report.verified), (1, 1));
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[20]);
    for _ in 0..3 {
        let err = step(&store, game, seed)
            .expect("a move")
            .expect_err("read-only");
        assert!(matches!(err, StoreError::ReadOnly), "{err}");
        readable(&err, "read-only");
        assert_eq!(*store.games().live_state(game).expect("state").0, trace[20]);
    }
    assert!(matches!(
        store
            .schedule()
            .queue_notification(Some(game), &serde_json::json!({})),
        Err(StoreError::ReadOnly)
    ));
    assert!(matches!(
        store.schedule().set_reminder(game, 0, "turn", 5),
        Err(StoreError::ReadOnly)
    ));
    // Any seat's undo: refused by the rules (nothing to undo, later moves depend on it or come
    // from another seat) or, once it gets to writing, read-only; never applied.
    for seat in 0..trace[20].seats.len() {
        match store.games().undo(game, seat) {
            Err(StoreError::ReadOnly)
            | Err(StoreError::NothingToUndo { .. })
            | Err(StoreError::UndoBlocked(_))
            | Err(StoreError::UndoAfterOthers { .. }) => {}
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[20]);
    drop(store);
    assert_eq!(
        bytes(&dir.db()).0,
        before.0,
        "the database file is unchanged"
    );

    let (store, _) = open(&dir.db(), 4);
    assert_eq!(store.games().log(game).expect("log").len(), 20);
    skymines::store::torture::drive(&store, game, seed, 40, |_| {}).expect("goes on");
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[40]);
    drop(store);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.verified, 1);
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[40]);
}

/// A write-protected file for real: the torture helper runs as another user (or the file is
/// chmod 444 when the tests do not run as root) and its first move fails with the read-only
/// message; the file is unchanged; once writable, the game goes on.
#[test]
fn a_write_protected_file_gives_the_read_only_error() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let exe = env!("CARGO_BIN_EXE_skymines");
    let dir = TempDir::new("err-ro-file");
    let seed = 72;
    let trace = reference_trace(&data(), seed, 30);
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, seed, 10);
    drop(store);
    let before = bytes(&dir.db()).0;
    let set_mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod")
    };
    set_mode(&dir.db(), 0o444);
    // The folder stays writable: SQLite may create its -shm next to the file to read it.
    set_mode(dir.path(), 0o777);
    let root = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.db())
        .is_ok();
    let mut cmd = Command::new(exe);
    cmd.args(["store-torture", "--db"]).arg(dir.db()).args([
        "--seed",
        &seed.to_string(),
        "--moves",
        "30",
        "--snapshot-every",
        "4",
    ]);
    if root {
        cmd.uid(65534).gid(65534);
    }
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cannot run the helper as another user ({e}); skipping the OS-level part");
            return;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.contains("read-only") && stderr.contains("nothing changed"),
        "{stderr}"
    );
    assert_eq!(bytes(&dir.db()).0, before, "the file is unchanged");

    set_mode(&dir.db(), 0o644);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!((report.restored, report.verified), (1, 1));
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[10]);
    skymines::store::torture::drive(&store, game, seed, 30, |_| {}).expect("goes on");
    assert_eq!(*store.games().live_state(game).expect("state").0, trace[30]);
}

/// The disk fills up (SQLite's max_page_count): moves fail with the full-disk message and
/// change nothing; with room again, the same store goes on.
#[test]
fn a_full_disk_refuses_moves_and_changes_nothing() {
    let dir = TempDir::new("err-full");
    let seed = 73;
    let moves = 120;
    let trace = reference_trace(&data(), seed, moves);
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, seed, 10);
    let outbox_before = store
        .schedule()
        .pending_notifications(100)
        .expect("outbox")
        .len();
    store
        .admin()
        .set_page_limit(Some(store.admin().page_count().expect("pages")))
        .expect("limit");
    let mut full = 0;
    let mut seq = 10;
    while full < 5 && seq < moves - 10 {
        match step(&store, game, seed).expect("a move") {
            Ok(s) => seq = s, // it fitted in free pages
            Err(err) => {
                assert!(matches!(err, StoreError::DiskFull), "{err}");
                readable(&err, "full");
                full += 1;
                let (state, now) = store.games().live_state(game).expect("state");
                assert_eq!(now, seq);
                assert_eq!(*state, trace[seq as usize]);
                assert_eq!(store.games().log(game).expect("log").len() as u64, seq);
                assert_eq!(store.games().game(game).expect("game").seq, seq);
                assert_eq!(
                    store
                        .schedule()
                        .pending_notifications(100)
                        .expect("outbox")
                        .len(),
                    outbox_before
                );
            }
        }
    }
    assert_eq!(full, 5, "the limit must bite");
    store.admin().set_page_limit(None).expect("room again");
    skymines::store::torture::drive(&store, game, seed, moves, |_| {}).expect("goes on");
    assert_eq!(
        *store.games().live_state(game).expect("state").0,
        trace[moves as usize]
    );
    drop(store);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.verified, 1);
    assert_eq!(
        *store.games().live_state(game).expect("state").0,
        trace[moves as usize]
    );
}

/// Two stores on one file (two processes): every move's transaction checks that the game is
/// still as its store saw it. A pause, a move or an abort by the other store refuses the next
/// move of this one (`Changed`, nothing written) and it reloads the game; after a resume it
/// goes on, and an aborted game never comes back.
#[test]
fn a_move_against_a_game_the_other_store_changed_is_refused() {
    let dir = TempDir::new("err-changed");
    let seed = 75;
    let trace = reference_trace(&data(), seed, 12);
    let (a, _) = open(&dir.db(), 4);
    let game = play(&a, seed, 4);
    let (b, _) = open(&dir.db(), 4);
    let changed = |r: Option<Result<u64, StoreError>>| {
        let err = r.expect("a move").expect_err("refused");
        assert!(matches!(err, StoreError::Changed(g) if g == game), "{err}");
        readable(&err, "has changed");
    };
    // Paused elsewhere: refused, nothing written.
    b.schedule().set_paused(game, Some(1)).expect("pause");
    changed(step(&a, game, seed));
    assert_eq!(b.games().log(game).expect("log").len(), 4);
    b.schedule().set_paused(game, None).expect("resume");
    assert_eq!(step(&a, game, seed).expect("a move").expect("stored"), 5);
    // A moved on elsewhere: B's next move is refused, then B reloads and plays the next one.
    changed(step(&b, game, seed));
    assert_eq!(step(&b, game, seed).expect("a move").expect("stored"), 6);
    assert_eq!(*b.games().live_state(game).expect("state").0, trace[6]);
    // Aborted elsewhere: refused, and the game stays abandoned.
    b.games().abandon(game).expect("abort");
    let err = step(&a, game, seed).expect("a move").expect_err("refused");
    assert!(
        matches!(err, StoreError::Changed(_) | StoreError::NotActive { .. }),
        "{err}"
    );
    drop((a, b));
    let (fresh, report) = open(&dir.db(), 4);
    assert_eq!(report.restored, 0);
    assert_eq!(
        fresh.games().game(game).expect("game").status,
        skymines::store::GameStatus::Abandoned
    );
    assert_eq!(fresh.games().log(game).expect("log").len(), 6);
}
