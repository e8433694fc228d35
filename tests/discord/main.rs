//! The Discord adapter, one test binary: the real serenity/poise client against a fake Discord
//! on loopback (`fake`, also used by the Discord benchmark), end to end (`e2e`).

#[path = "../support/mod.rs"]
mod support;

mod fake;

mod e2e;
