//! Helpers shared by the chat-layer tests: a temporary folder removed on drop, and the reply
//! filters (what everyone sees, what one user sees, whom the replies ping).
#![allow(dead_code)]

use skymines::chat::{local_user_id, Audience, Reply};

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
        .filter_map(|r| match r.audience {
            Audience::Ping(u) => Some(u),
            _ => None,
        })
        .collect()
}
