//! The store's parts below its operations: each SQLite migration's PostgreSQL twin, one SQL
//! statement written once and run on SQLite with every kind of parameter, the database a URL
//! selects, and the shard a guild belongs to (moved here from the crate's unit tests).

use skymines::store::migrate::{MIGRATIONS, PG_MIGRATIONS};
use skymines::store::shards::{shard_of, ShardFilter};
use skymines::store::sql::{is_unique_violation, sqlite_placeholders, Dialect, Param, Tx};
use skymines::store::Database;
use std::borrow::Cow;
use std::path::PathBuf;

/// The parameters of a statement, as the store writes them (`args![game, seq, "text"]`).
macro_rules! args {
    ($($p:expr),* $(,)?) => {
        &[$(Param::from($p)),*][..]
    };
}

/// Each SQLite migration needs its PostgreSQL twin (same number, same name) and the
/// folder holds exactly the listed files.
#[test]
fn every_sqlite_migration_has_its_postgres_twin() {
    let sqlite: Vec<(u32, &str)> = MIGRATIONS.iter().map(|m| (m.version, m.name)).collect();
    let pg: Vec<(u32, &str)> = PG_MIGRATIONS.iter().map(|m| (m.version, m.name)).collect();
    assert_eq!(
        pg, sqlite,
        "add migrations/postgres/<name> for every migrations/<name>"
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/postgres");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("migrations/postgres")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    files.sort();
    let listed: Vec<String> = PG_MIGRATIONS.iter().map(|m| m.name.to_string()).collect();
    assert_eq!(files, listed);
}

#[test]
fn placeholders_are_written_once_and_numbered_alike() {
    assert_eq!(
        sqlite_placeholders("SELECT a FROM t WHERE b = $2 AND c = $1"),
        "SELECT a FROM t WHERE b = ?2 AND c = ?1"
    );
    assert_eq!(
        sqlite_placeholders("SELECT '$1', $10 FROM t"),
        "SELECT '$1', ?10 FROM t"
    );
    assert!(matches!(
        sqlite_placeholders("SELECT 1"),
        Cow::Borrowed("SELECT 1")
    ));
}

#[test]
fn one_statement_runs_on_sqlite_with_every_kind_of_parameter() {
    let mut conn = rusqlite::Connection::open_in_memory().expect("memory");
    conn.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT, b BLOB)")
        .expect("table");
    let mut tx = Tx::Sqlite(conn.transaction().expect("tx"));
    let ids = [3i64, 1];
    for (id, s) in [(1i64, "one"), (2, "two"), (3, "three")] {
        let n: Option<i64> = (id != 2).then_some(id * 10);
        tx.execute(
            "INSERT INTO t (id, n, s, b) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (id) DO UPDATE SET s = excluded.s",
            args![id, n, s, &b"x"[..]],
        )
        .expect("insert");
    }
    let sql = format!(
        "SELECT id, n, s FROM t WHERE {} ORDER BY id",
        Dialect::Sqlite.in_list("id", 1)
    );
    let rows = tx
        .query(&sql, args![&ids[..]], |r| {
            Ok((
                r.get::<i64>(0)?,
                r.get::<Option<i64>>(1)?,
                r.get::<String>(2)?,
            ))
        })
        .expect("query");
    assert_eq!(
        rows,
        vec![
            (1, Some(10), "one".to_string()),
            (3, Some(30), "three".to_string())
        ]
    );
    let id = tx
        .query_one(
            "INSERT INTO t (n, s) VALUES ($1, $2) RETURNING id",
            args![7i64, "new"],
            |r| r.get::<i64>(0),
        )
        .expect("returning");
    assert_eq!(id, 4);
    let dup = tx.execute(
        "INSERT INTO t (id, s) VALUES ($1, $2)",
        args![1i64, "again"],
    );
    assert!(is_unique_violation(&dup.expect_err("a duplicate id")));
    let pairs = format!(
        "SELECT t.id FROM t JOIN {} ON t.id = w.id AND t.n = w.n ORDER BY t.id",
        Dialect::Sqlite.pairs(1, 2, "w", "id", "n")
    );
    let found = tx
        .query(&pairs, args![&[1i64, 3][..], &[10i64, 31][..]], |r| {
            r.get::<i64>(0)
        })
        .expect("pairs");
    assert_eq!(found, vec![1]);
}

#[test]
fn a_postgres_url_selects_postgres_and_anything_else_sqlite() {
    let path = PathBuf::from("skymines.db");
    assert_eq!(
        Database::select(None, None, path.clone()),
        Database::Sqlite(path.clone())
    );
    assert_eq!(
        Database::select(Some(" "), None, path.clone()),
        Database::Sqlite(path.clone())
    );
    assert_eq!(
        Database::select(Some("games.db"), None, path.clone()),
        Database::Sqlite(PathBuf::from("games.db"))
    );
    let url = "postgres://bot:secret@db.example/skymines";
    assert_eq!(
        Database::select(Some(url), None, path.clone()),
        Database::Postgres(url.to_string())
    );
    // The environment wins over the file.
    assert_eq!(
        Database::select(Some("games.db"), Some("postgresql:///x"), path.clone()),
        Database::Postgres("postgresql:///x".to_string())
    );
    let db = Database::select(Some(url), None, path);
    assert_eq!(db.describe(), "postgres://db.example/skymines");
    assert!(!format!("{db:?}").contains("secret"));
    // The bot may start on PostgreSQL: every backend holds the whole store.
    assert_eq!(
        db.require_full_store().expect("accepted"),
        Database::Postgres(url.to_string())
    );
}

#[test]
fn a_guild_belongs_to_discords_shard_and_no_guild_to_shard_0() {
    // Discord's documented example guild: 41771983423143937 >> 22 = 9959216934, even.
    assert_eq!(41771983423143937u64 >> 22, 9_959_216_934);
    assert_eq!(shard_of(Some(41771983423143937), 2), 0);
    assert_eq!(shard_of(Some((9_959_216_935u64 << 22) | 5), 2), 1);
    assert_eq!(shard_of(None, 8), 0);
    // The top bit set (a snowflake read back from a signed column) still counts as u64.
    let high = (1u64 << 63) | (3 << 22);
    assert_eq!(shard_of(Some(high), 4), (((1u64 << 41) + 3) % 4) as u32);
    let second = ShardFilter {
        first: 1,
        last: 1,
        total: 2,
    };
    assert!(second.holds(Some(1 << 22)));
    assert!(!second.holds(Some(2 << 22)));
    assert!(!second.holds(None));
}
