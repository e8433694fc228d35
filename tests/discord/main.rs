//! The Discord adapter, one test binary: the real serenity/poise client against a fake Discord
//! on loopback (`fake`, also used by the Discord benchmark), end to end (`e2e`, which waits for
//! what the bot sends through `waits`, never for a quiet spell), and the bot's one path to the
//! store under concurrent requests (`lanes`).

#[path = "../support/mod.rs"]
mod support;

mod fake;

mod components;
mod e2e;
mod lanes;
mod waits;
