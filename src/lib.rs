//! Skymines play-by-chat: a faithful rules engine for the board game Skymines and the layers
//! around it. Dependencies point one way; a module uses only the layers before it:
//!
//! `text` (message catalogs) ← `data` (the components, from `assets/`) ← `engine` (the rules,
//! Luna included) ← `bots` (computer players) ← `sim` (self-play) ← `store`, `render` ← `chat`
//! (the conversation) ← `config` ← `memory` (the bot's allocator settings) ← `local`, `discord`
//! (the adapters) ← `cli` (the command line).
//!
//! `docs/architecture.md` describes each layer and its rooms, and follows one click through them.

pub mod bots;
pub mod chat;
pub mod cli;
pub mod config;
pub mod data;
pub mod discord;
pub mod engine;
pub mod local;
pub mod memory;
pub mod render;
pub mod sim;
pub mod store;
pub mod text;
