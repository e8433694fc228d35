//! The conversation, one test binary: the chat layer driven by the lines a user types (whole
//! games, campaigns, weeks of play, the admin tools, hostile input, previews, reliability,
//! chat volume) and the message catalogs. Run one part with its module's name as the filter,
//! e.g. `cargo test --release --test chat transcripts::`.

#[path = "../support/mod.rs"]
mod support;

mod admin;
mod campaign;
mod catalog;
mod fuzz;
mod previews;
mod reliability;
mod transcripts;
mod volume;
mod weeks;
