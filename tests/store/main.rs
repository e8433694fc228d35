//! The store, one test binary: its contract on both backends (`backends`; PostgreSQL when
//! `SKYMINES_TEST_PG_URL` names a server), everyday behaviour, migrations, errors, crash
//! safety, backups and concurrency. Run one part with its module's name as the filter, e.g.
//! `cargo test --release --test store crash::`.

#[path = "../support/mod.rs"]
mod support;

mod backends;
mod backup;
mod basics;
mod concurrency;
mod crash;
mod errors;
mod migrations;
