//! Skymines play-by-chat: a faithful rules engine for the board game Skymines and the layers
//! around it. Dependencies point one way: `data` ← `engine` ← (`luna`, `chat`) ← adapters.

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
