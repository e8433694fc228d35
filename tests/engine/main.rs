//! The rules, one test binary: the component data (`data_*`), the engine (`examples`,
//! `rejections`, `preview`, `selfplay`), Luna (`luna_*`), the modules (`modules_*`), the
//! computer players (`bots`, and their learned estimate `bots_learned`), and the docs'
//! references to rules and decisions (`docs`). Run one part with its module's name as the
//! filter, e.g. `cargo test --release --test engine luna_rules::`.

#[path = "../support/mod.rs"]
mod support;

mod common;
mod luna_support;
mod modules_support;

mod bots;
mod bots_learned;
mod data_facts;
mod data_rejects;
mod docs;
mod examples;
mod luna_cards;
mod luna_levels;
mod luna_rules;
mod modules_belt;
mod modules_campaign;
mod modules_missions;
mod modules_selfplay;
mod modules_threats;
mod numbering;
mod preview;
mod refusals;
mod rejections;
mod selfplay;
mod told;
