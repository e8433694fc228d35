//! One process per SQLite file (DECISIONS B22): while a process serves a file, a second bot,
//! local game or writing tool refuses to start, naming the file and the process that holds it,
//! and changes nothing; the backup still copies the live file; once the first process is gone
//! (also when it was killed: see `local_kill`) the file opens again.

use crate::support::{shared_data, TempDir};
use skymines::store::{Database, StoreError, StoreOptions};
use std::path::Path;
use std::process::{Command, Output};

fn skymines(dir: &Path, args: &[&str]) -> Output {
    let config = dir.join("config.toml");
    if !config.exists() {
        std::fs::write(&config, "").expect("config");
    }
    Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(args)
        .arg("--config")
        .arg(&config)
        .output()
        .expect("runs")
}

fn local(dir: &Path, script: &str) -> Output {
    let path = dir.join("script.txt");
    std::fs::write(&path, script).expect("script");
    let db = dir.join("games.db");
    let (db, path) = (db.to_str().expect("path"), path.to_str().expect("path"));
    skymines(dir, &["local", "--no-images", "--db", db, "--script", path])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_second_process_on_a_served_file_refuses_to_start_and_changes_nothing() {
    let dir = TempDir::new("one-process");
    let out = local(
        dir.path(),
        "alice /skymines new players:2\nbob /skymines join\nalice /skymines start\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let db = dir.db();
    // This test process serves the file now, as a running bot would.
    let (held, _) = Database::Sqlite(db.clone())
        .open(shared_data(), StoreOptions::default())
        .expect("the first process opens the file");
    let games = || held.admin().list_games(None, 10).expect("games").len();
    assert_eq!(games(), 1);

    let out = local(dir.path(), "carol /skymines new players:2\n");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&db.display().to_string()), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "in use by another running Skymines process (process {})",
            std::process::id()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("restored"), "it opened nothing: {stderr}");
    assert_eq!(games(), 1, "the refused process created no game");

    // The backup reads the live file.
    let copy = dir.join("copy.db");
    let (db_arg, copy_arg) = (db.to_str().expect("path"), copy.to_str().expect("path"));
    let out = skymines(dir.path(), &["backup", "--db", db_arg, "--out", copy_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 running game(s)"));

    // Once the first process is gone, the file is served again.
    drop(held);
    let out = local(dir.path(), "carol /skymines new players:2\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 running game(s) restored"));
}

#[test]
fn in_one_process_the_claim_holds_until_the_store_is_dropped() {
    let dir = TempDir::new("one-process-store");
    let database = Database::Sqlite(dir.db());
    let (first, _) = database
        .open(shared_data(), StoreOptions::default())
        .expect("opens");
    let err = database
        .open(shared_data(), StoreOptions::default())
        .expect_err("a second claim is refused");
    assert!(
        matches!(&err, StoreError::InUse { path, .. } if *path == dir.db()),
        "{err}"
    );
    // Read-only tools take no claim.
    let read_only = StoreOptions {
        read_only: true,
        ..StoreOptions::default()
    };
    database
        .open(shared_data(), read_only)
        .expect("a read-only open works on a served file");
    drop(first);
    database
        .open(shared_data(), StoreOptions::default())
        .expect("the claim went with the store");
}
