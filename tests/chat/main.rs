//! The conversation, one test binary: the chat layer driven by the lines a user types (whole
//! games, campaigns, weeks of play, the admin tools, hostile input, previews, reliability,
//! chat volume) and the message catalogs. Run one part with its module's name as the filter,
//! e.g. `cargo test --release --test chat transcripts::`.

#[path = "../support/mod.rs"]
mod support;

mod account;
mod admin;
mod campaign;
mod catalog;
mod fuzz;
mod german;
mod grammar;
mod labels;
mod modules;
mod numbering;
mod offers;
mod ousts;
mod previews;
mod prompt_counts;
mod prompts;
mod reliability;
mod texts;
mod time;
mod told;
mod transcripts;
mod truths;
mod turn_lines;
mod undo_notes;
mod volume;
mod weeks;
