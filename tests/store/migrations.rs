//! Schema migrations: a new file, every earlier version, an up-to-date file, a second migration
//! on top, a failing migration, and files that must be refused untouched.

use crate::support::store::*;
use crate::support::{shared_data as data, TempDir};
use rusqlite::Connection;
use skymines::store::migrate::{self, Migration, APPLICATION_ID, MIGRATIONS};
use skymines::store::{Store, StoreError};

fn pragma_i64(conn: &Connection, name: &str) -> i64 {
    conn.pragma_query_value(None, name, |r| r.get(0))
        .expect("pragma")
}

fn table_exists(conn: &Connection, name: &str) -> bool {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .expect("query")
        > 0
}

#[test]
fn a_new_file_gets_every_migration_wal_and_foreign_keys() {
    let dir = TempDir::new("mig-new");
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.schema_from, 0);
    assert_eq!(report.schema, migrate::latest_version());
    assert_eq!(report.restored, 0);
    drop(store);
    let conn = Connection::open(dir.db()).expect("open");
    assert_eq!(
        pragma_i64(&conn, "user_version"),
        migrate::latest_version() as i64
    );
    assert_eq!(pragma_i64(&conn, "application_id"), APPLICATION_ID as i64);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .expect("journal_mode");
    assert_eq!(mode, "wal");
    for table in [
        "games",
        "seats",
        "moves",
        "snapshots",
        "board_images",
        "campaigns",
        "campaign_chapters",
        "reminders",
        "outbox",
    ] {
        assert!(table_exists(&conn, table), "table {table}");
    }
    // The store turns foreign keys on: a seat of a game that does not exist is refused.
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 3, 2);
    assert!(store.people().seats(game).expect("seats").len() >= 2);
    drop(store);
    conn.pragma_update(None, "foreign_keys", "ON").expect("fk");
    let orphan = conn.execute(
        "INSERT INTO seats (game_id, seat, kind, name, colour) VALUES (999, 0, 'local', 'x', 0)",
        [],
    );
    assert!(orphan.is_err(), "foreign keys are enforced");
}

#[test]
fn every_earlier_version_is_brought_up_to_date() {
    for version in 0..migrate::latest_version() {
        let dir = TempDir::new("mig-old");
        {
            let mut conn = Connection::open(dir.db()).expect("open");
            migrate::migrate_to(&mut conn, &dir.db(), MIGRATIONS, version).expect("older version");
            assert_eq!(pragma_i64(&conn, "user_version"), version as i64);
        }
        let (store, report) = open(&dir.db(), 4);
        assert_eq!(report.schema_from, version);
        assert_eq!(report.schema, migrate::latest_version());
        let game = play(&store, 11, 5);
        assert_eq!(store.games().game(game).expect("game").seq, 5);
    }
}

#[test]
fn an_up_to_date_file_is_opened_as_it_is_and_keeps_its_games() {
    let dir = TempDir::new("mig-current");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 21, 9);
    let before = store.games().live_state(game).expect("state");
    drop(store);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.schema_from, migrate::latest_version());
    assert_eq!(report.schema, migrate::latest_version());
    assert_eq!(report.restored, 1);
    assert_eq!(report.verified, 1);
    let after = store.games().live_state(game).expect("state");
    assert_eq!(*before.0, *after.0);
    assert_eq!(before.1, after.1);
}

/// The next migration file (as a future one would be) applies on top of the current version,
/// and all of them apply in order to a new file.
#[test]
fn a_next_migration_applies_on_top() {
    let latest = migrate::latest_version();
    let next = Migration {
        version: latest + 1,
        name: "9999_test.sql",
        sql: "ALTER TABLE games ADD COLUMN note TEXT; CREATE TABLE extra (x INTEGER);",
    };
    let mut list = MIGRATIONS.to_vec();
    list.push(next);

    // On an up-to-date file holding a game.
    let dir = TempDir::new("mig-next");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 5, 4);
    drop(store);
    let mut conn = Connection::open(dir.db()).expect("open");
    let report = migrate::migrate(&mut conn, &dir.db(), &list).expect("migrates");
    assert_eq!((report.from, report.to), (latest, latest + 1));
    assert_eq!(pragma_i64(&conn, "user_version"), latest as i64 + 1);
    assert!(table_exists(&conn, "extra"));
    let seq: i64 = conn
        .query_row("SELECT last_seq FROM games WHERE id = ?1", [game], |r| {
            r.get(0)
        })
        .expect("the game is still there");
    assert_eq!(seq, 4);
    // Running again changes nothing.
    let again = migrate::migrate(&mut conn, &dir.db(), &list).expect("no-op");
    assert_eq!((again.from, again.to), (latest + 1, latest + 1));

    // On a new file: all of them, in order.
    let dir = TempDir::new("mig-next-new");
    let mut conn = Connection::open(dir.db()).expect("open");
    let report = migrate::migrate(&mut conn, &dir.db(), &list).expect("migrates");
    assert_eq!((report.from, report.to), (0, latest + 1));
    assert!(table_exists(&conn, "games") && table_exists(&conn, "extra"));

    // This binary does not know that version, so it refuses the file, untouched.
    drop(conn);
    let before = bytes(&dir.db());
    match Store::open(dir.db(), data(), options(4)) {
        Err(StoreError::TooNew {
            found, supported, ..
        }) => assert_eq!((found, supported), (latest + 1, latest)),
        other => panic!("expected TooNew, got {:?}", other.map(|_| ())),
    }
    assert_eq!(bytes(&dir.db()), before);
}

#[test]
fn a_failing_migration_leaves_the_file_at_its_old_version() {
    let latest = migrate::latest_version();
    let dir = TempDir::new("mig-fail");
    let (store, _) = open(&dir.db(), 4);
    play(&store, 8, 3);
    drop(store);
    let broken = Migration {
        version: latest + 1,
        name: "9999_broken.sql",
        sql: "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL;",
    };
    let mut list = MIGRATIONS.to_vec();
    list.push(broken);
    let mut conn = Connection::open(dir.db()).expect("open");
    let err =
        migrate::migrate(&mut conn, &dir.db(), &list).expect_err("the broken migration fails");
    assert!(
        matches!(err, StoreError::Migration { at, .. } if at == latest),
        "{err}"
    );
    assert!(err.to_string().contains("9999_broken.sql"), "{err}");
    assert_eq!(pragma_i64(&conn, "user_version"), latest as i64);
    assert!(!table_exists(&conn, "half_done"), "rolled back as a whole");
    drop(conn);
    let (store, report) = open(&dir.db(), 4);
    assert_eq!(report.restored, 1);
    drop(store);
}

/// All pending steps run in one transaction: a failure in a later step also undoes the
/// earlier steps of the same run.
#[test]
fn a_failure_in_a_later_step_undoes_the_whole_run() {
    let latest = migrate::latest_version();
    let mut list = MIGRATIONS.to_vec();
    list.push(Migration {
        version: latest + 1,
        name: "9998_fine.sql",
        sql: "CREATE TABLE fine (x INTEGER);",
    });
    list.push(Migration {
        version: latest + 2,
        name: "9999_broken.sql",
        sql: "NOT SQL;",
    });
    let dir = TempDir::new("mig-fail-all");
    let mut conn = Connection::open(dir.db()).expect("open");
    let err = migrate::migrate(&mut conn, &dir.db(), &list).expect_err("fails");
    assert!(matches!(err, StoreError::Migration { at: 0, .. }), "{err}");
    assert_eq!(pragma_i64(&conn, "user_version"), 0);
    assert!(!table_exists(&conn, "games") && !table_exists(&conn, "fine"));
}

#[test]
fn a_file_from_a_newer_version_is_refused_untouched() {
    let dir = TempDir::new("mig-newer");
    {
        let conn = Connection::open(dir.db()).expect("open");
        conn.execute_batch("CREATE TABLE games (id INTEGER PRIMARY KEY, future TEXT); INSERT INTO games (future) VALUES ('x');")
            .expect("newer schema");
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .expect("id");
        conn.pragma_update(None, "user_version", migrate::latest_version() + 5)
            .expect("version");
    }
    let before = bytes(&dir.db());
    let err = match Store::open(dir.db(), data(), options(4)) {
        Err(e) => e,
        Ok(_) => panic!("a newer file must be refused"),
    };
    let text = err.to_string();
    assert!(matches!(err, StoreError::TooNew { .. }), "{text}");
    assert!(text.contains("newer version"), "{text}");
    assert!(text.contains("untouched"), "{text}");
    assert_eq!(bytes(&dir.db()), before, "the file bytes are unchanged");
    assert!(before.1.is_none(), "no WAL file was created");
}

#[test]
fn other_files_are_refused_untouched() {
    let dir = TempDir::new("mig-foreign");
    let path = dir.path().join("other.db");
    {
        let conn = Connection::open(&path).expect("open");
        conn.execute_batch("CREATE TABLE accounts (id INTEGER);")
            .expect("someone else's table");
    }
    let before = bytes(&path);
    let err = Store::open(&path, data(), options(4)).expect_err("refused");
    assert!(matches!(err, StoreError::NotOurs { .. }), "{err}");
    assert_eq!(bytes(&path), before);

    let text_file = dir.path().join("notes.db");
    std::fs::write(
        &text_file,
        "these are not the games you are looking for\n".repeat(100),
    )
    .expect("write");
    let before = bytes(&text_file);
    let err = Store::open(&text_file, data(), options(4)).expect_err("refused");
    assert!(matches!(err, StoreError::NotOurs { .. }), "{err}");
    assert_eq!(bytes(&text_file), before);
}

/// The embedded list and the `migrations/` folder agree: every file is listed, in order, with
/// its content; the numbers in the names are the versions.
#[test]
fn the_migration_list_matches_the_folder() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .expect("migrations/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    files.sort();
    let listed: Vec<&str> = MIGRATIONS.iter().map(|m| m.name).collect();
    assert_eq!(files, listed);
    for (i, m) in MIGRATIONS.iter().enumerate() {
        assert_eq!(m.version as usize, i + 1);
        let number: u32 = m.name[..4].parse().expect("a 4-digit number");
        assert_eq!(number, m.version, "{}", m.name);
        let on_disk = std::fs::read_to_string(folder.join(m.name)).expect("read");
        assert_eq!(on_disk, m.sql, "{} is built in as it is on disk", m.name);
    }
    // A list with a gap is refused before anything runs.
    let dir = TempDir::new("mig-gap");
    let mut conn = Connection::open(dir.db()).expect("open");
    let mut gap = MIGRATIONS.to_vec();
    gap.push(Migration {
        version: migrate::latest_version() + 2,
        name: "9999_gap.sql",
        sql: "",
    });
    assert!(migrate::migrate(&mut conn, &dir.db(), &gap).is_err());
    assert_eq!(pragma_i64(&conn, "user_version"), 0);
}

/// Migration 4 rebuilds the games and seats tables (new statuses and kinds): games played at
/// version 3 keep their rows, their log and their state, and are still verified on restore.
#[test]
fn games_of_version_3_survive_the_rebuild_of_version_4() {
    let dir = TempDir::new("mig-v4-data");
    let (store, _) = open(&dir.db(), 4);
    let game = play(&store, 31, 12);
    let before = store.games().live_state(game).expect("state");
    let seats_before = store.people().seats(game).expect("seats");
    drop(store);
    // The same game in a file at version 3: copy every row of the tables both versions share.
    let old = dir.path().join("v3.db");
    {
        let mut conn = Connection::open(&old).expect("open");
        migrate::migrate_to(&mut conn, &old, MIGRATIONS, 3).expect("version 3");
        conn.execute("ATTACH DATABASE ?1 AS cur", [dir.db().to_string_lossy()])
            .expect("attach");
        conn.execute_batch(
            "INSERT INTO games SELECT id, guild, channel, status, options, seed, seat_names, \
                 engine_version, data_hash, last_seq, damage_report, created_at, updated_at \
                 FROM cur.games;
             INSERT INTO seats SELECT game_id, seat, kind, user_id, name, colour, notify \
                 FROM cur.seats;
             INSERT INTO moves SELECT game_id, seq, kind, seat, decisions, undoes, at \
                 FROM cur.moves;
             INSERT INTO snapshots SELECT * FROM cur.snapshots;
             INSERT INTO board_images SELECT * FROM cur.board_images;",
        )
        .expect("copy");
    }
    let (store, report) = open(&old, 4);
    assert_eq!(
        (report.schema_from, report.schema),
        (3, migrate::latest_version())
    );
    assert_eq!((report.restored, report.verified), (1, 1), "{report:?}");
    assert!(report.damaged.is_empty(), "{report:?}");
    let after = store.games().live_state(game).expect("state");
    assert_eq!(*before.0, *after.0);
    assert_eq!(store.people().seats(game).expect("seats"), seats_before);
    // The rebuilt seats table still refers to the games table.
    let conn = Connection::open(&old).expect("open");
    conn.pragma_update(None, "foreign_keys", "ON").expect("fk");
    let orphan = conn.execute(
        "INSERT INTO seats (game_id, seat, kind, user_id, name, colour) VALUES (999, 0, 'local', NULL, 'x', 0)",
        [],
    );
    assert!(orphan.is_err(), "a seat of a missing game is refused");
}
