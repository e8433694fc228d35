//! The two migration trees (`migrations/` for SQLite, `migrations/postgres/` for PostgreSQL)
//! reach the same tables with the same columns: the store writes each operation once for both
//! databases, so a column one of them lacks would fail only there. Run on PostgreSQL when
//! `SKYMINES_TEST_PG_URL` names a server (CI starts a throw-away one); skipped with a printed
//! line otherwise.

use crate::support::pg::PgTestDb;
use crate::support::store::options;
use crate::support::{shared_data as data, TempDir};
use skymines::store::Store;
use std::collections::BTreeMap;

/// Table name → its column names, sorted.
type Schema = BTreeMap<String, Vec<String>>;

/// The tables of the store's own bookkeeping, not of the games: SQLite's counter of
/// AUTOINCREMENT ids, and PostgreSQL's schema version (SQLite keeps it in the file header).
const BOOKKEEPING: [&str; 2] = ["sqlite_sequence", "skymines_schema"];

fn sqlite_schema(dir: &TempDir) -> Schema {
    drop(Store::open(dir.db(), data(), options(8)).expect("SQLite opens"));
    let conn = rusqlite::Connection::open(dir.db()).expect("open");
    let mut stmt = conn
        .prepare(
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
             WHERE m.type = 'table' ORDER BY m.name, p.name",
        )
        .expect("columns");
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .expect("columns");
    collect(rows.map(|r| r.expect("a column")))
}

fn postgres_schema(url: &str) -> Schema {
    drop(Store::open_postgres(url, data(), options(8)).expect("PostgreSQL opens"));
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    let rows = client
        .query(
            "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns \
             WHERE table_schema = current_schema() ORDER BY table_name, column_name",
            &[],
        )
        .expect("columns");
    collect(rows.iter().map(|r| (r.get(0), r.get(1))))
}

fn collect(columns: impl Iterator<Item = (String, String)>) -> Schema {
    let mut schema = Schema::new();
    for (table, column) in columns {
        if !BOOKKEEPING.contains(&table.as_str()) {
            schema.entry(table).or_default().push(column);
        }
    }
    schema
}

#[test]
fn both_migration_trees_reach_the_same_tables_and_columns() {
    let dir = TempDir::new("schema");
    let sqlite = sqlite_schema(&dir);
    assert!(sqlite.contains_key("games") && sqlite.contains_key("outbox"));
    let Some(db) = PgTestDb::for_test("schema") else {
        return;
    };
    let postgres = postgres_schema(db.url());
    assert_eq!(
        sqlite, postgres,
        "the SQLite and PostgreSQL migrations must reach the same tables and columns"
    );
}
