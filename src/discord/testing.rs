//! What the test binaries check below this module's public face: the command set against
//! Discord's limits and the buttons and menus a reply becomes. Built only with the
//! `test-support` feature (on for tests and benchmarks, never in the bot's release build).

pub use super::message::{button_rows, components, usable, Outgoing, CONTENT_LIMIT, MENU_ID};

/// The slash commands as the bot registers them with Discord, in Discord's JSON.
pub fn command_set() -> serde_json::Value {
    let create = poise::builtins::create_application_commands(&super::commands::all());
    serde_json::to_value(create).unwrap_or(serde_json::Value::Null)
}
