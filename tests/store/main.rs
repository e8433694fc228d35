//! The store, one test binary: its contract on both backends (`backends`; PostgreSQL when
//! `SKYMINES_TEST_PG_URL` names a server), everyday behaviour, migrations, errors, crash
//! safety, backups, that both migration trees reach the same tables (`schema`) and the WAL's
//! bound (`wal`); every game checked whole (`integrity`) and the file's own damage: files
//! removed under the store, flipped bits (`damage`). Concurrency on the bot's path to the
//! store is the discord binary's (`lanes`). Run one part with its module's name as the filter, e.g.
//! `cargo test --release --test store crash::`.

#[path = "../support/mod.rs"]
mod support;

mod backends;
mod backup;
mod basics;
mod crash;
mod damage;
mod errors;
mod integrity;
mod migrations;
mod parts;
mod roles;
mod schema;
mod upgrades;
mod wal;
