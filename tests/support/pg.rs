//! PostgreSQL for the tests (and the store benchmark, which loads this file too): the server
//! `SKYMINES_TEST_PG_URL` names (CI starts a throw-away one: `.ci/pg-cluster`), and a database
//! of its own for each test, dropped at the end.
//!
//! Without the URL the PostgreSQL runs are skipped with a printed line, so that
//! `cargo test --release` works on a machine without PostgreSQL; with `SKYMINES_REQUIRE_PG=1`
//! (CI sets it) a missing URL fails the test instead, so a CI run whose server never came up
//! cannot pass by skipping. A URL that is set but whose server cannot be reached always fails.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

/// The server for the PostgreSQL runs (an admin URL: the tests create databases on it).
pub const PG_URL: &str = "SKYMINES_TEST_PG_URL";

/// Set to `1` where a PostgreSQL run must not be skipped (CI).
pub const REQUIRE_PG: &str = "SKYMINES_REQUIRE_PG";

/// The server's URL from `SKYMINES_TEST_PG_URL`. Without it: a panic naming both variables
/// when `SKYMINES_REQUIRE_PG=1`, else None with a printed line saying the PostgreSQL run of
/// `test` is skipped.
pub fn pg_server(test: &str) -> Option<String> {
    match std::env::var(PG_URL) {
        Ok(admin) if !admin.trim().is_empty() => Some(admin),
        _ if pg_required() => panic!(
            "{test}: {REQUIRE_PG}=1 but {PG_URL} is not set: the PostgreSQL run may not be \
             skipped (see README, \"Testing on PostgreSQL\")"
        ),
        _ => {
            println!(
                "{test}: PostgreSQL run skipped: set {PG_URL} (see README, \"Testing on PostgreSQL\")"
            );
            None
        }
    }
}

/// Whether `SKYMINES_REQUIRE_PG=1`.
pub fn pg_required() -> bool {
    std::env::var(REQUIRE_PG).is_ok_and(|v| v.trim() == "1")
}

/// A database of its own on the server `admin` names, dropped when this is dropped.
pub struct PgTestDb {
    admin: String,
    name: String,
    url: String,
}

impl PgTestDb {
    /// Creates the database (named after the process, a counter and `label` in lower case: an
    /// unquoted name is folded to lower case by the server, the URL must match); panics naming
    /// `SKYMINES_TEST_PG_URL` when the server cannot be reached.
    pub fn create(admin: &str, label: &str) -> PgTestDb {
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "skymines_t{}_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed),
            label
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .take(24)
                .collect::<String>()
        );
        postgres::Client::connect(admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("{PG_URL} is set but the server is not reachable: {e}"))
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("a test database");
        PgTestDb {
            url: with_database(admin, &name),
            admin: admin.to_string(),
            name,
        }
    }

    /// [`PgTestDb::create`] on the server of [`pg_server`]; None where that skips.
    pub fn for_test(test: &str) -> Option<PgTestDb> {
        pg_server(test).map(|admin| PgTestDb::create(&admin, test))
    }

    /// The database's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL of the server the database is on (to create more, or to tamper).
    pub fn admin(&self) -> &str {
        &self.admin
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for PgTestDb {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// The URL of database `db` on the server of `admin` (the same URL with another path).
pub fn with_database(admin: &str, db: &str) -> String {
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin, String::new()),
    };
    let (scheme, rest) = base.split_once("://").expect("a URL");
    let server = rest.split_once('/').map_or(rest, |(s, _)| s);
    format!("{scheme}://{server}/{db}{query}")
}
