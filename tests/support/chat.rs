//! Helpers shared by the chat-layer tests: a temporary folder removed on drop, the reply
//! filters (what everyone sees, what one user sees, whom the replies ping), and a chat layer
//! over a store file with alice as the local owner.
#![allow(dead_code)]

use skymines::chat::{local_user_id, Audience, Chat, ChatConfig, ManualClock, Reply};
use skymines::data::GameData;
use skymines::store::{Store, StoreOptions};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A temporary folder, removed with everything in it when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The text of the replies everyone in the channel sees (public posts and pings).
pub fn public_text(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter(|r| matches!(r.audience, Audience::Public | Audience::Ping(_)))
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text only `user` (a local user name) sees: ephemeral replies and DMs.
pub fn private_to(replies: &[Reply], user: &str) -> String {
    let id = local_user_id(user);
    replies
        .iter()
        .filter(|r| matches!(r.audience, Audience::Private(u) | Audience::Dm(u) if u == id))
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The users the replies ping.
pub fn pinged(replies: &[Reply]) -> Vec<u64> {
    replies
        .iter()
        .flat_map(|r| match &r.audience {
            Audience::Ping(users) => users.users().to_vec(),
            _ => Vec::new(),
        })
        .collect()
}

/// The built-in component data, loaded once.
pub fn game_data() -> Arc<GameData> {
    static DATA: OnceLock<Arc<GameData>> = OnceLock::new();
    DATA.get_or_init(|| Arc::new(GameData::embedded().expect("data")))
        .clone()
}

/// A chat layer over the store file `db` as the reliability tests use it: no images, no rate
/// limit, a manual clock, and alice the one local owner.
pub fn owner_alice_chat(db: &Path, read_only: bool) -> Chat {
    owner_alice_chat_and_store(db, read_only).0
}

/// [`owner_alice_chat`] and its SQLite store (for the file's test hooks).
pub fn owner_alice_chat_and_store(db: &Path, read_only: bool) -> (Chat, Arc<Store>) {
    let options = StoreOptions {
        read_only,
        ..StoreOptions::default()
    };
    let (store, _) = Store::open(db, game_data(), options).expect("store");
    let config = ChatConfig {
        images: false,
        rate_limit: 0,
        owners: vec![local_user_id("alice")],
        ..ChatConfig::default()
    };
    let store = Arc::new(store);
    let chat = Chat::new(
        store.clone(),
        Arc::new(ManualClock::new(1_700_000_000_000)),
        config,
    );
    (chat, store)
}
