//! The adapter's errors, and a Discord error as the log may show it (codes and messages, never
//! a URL or a token).

use crate::store::StoreError;
use serenity::all::HttpError;

/// The adapter's errors.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    #[error("no Discord token is configured (set DISCORD_TOKEN or discord_token in config.toml)")]
    NoToken,
    #[error("Discord: {}", describe(.0))]
    Discord(#[from] serenity::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the component data: {0}")]
    Data(String),
    #[error("a background task failed: {0}")]
    Worker(String),
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

/// A Discord error for logs: codes and messages, never a URL (interaction tokens are in URLs)
/// or a token.
pub(crate) fn describe(e: &serenity::Error) -> String {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => format!(
            "HTTP {} (code {}): {}",
            r.status_code.as_u16(),
            r.error.code,
            r.error.message
        ),
        serenity::Error::Http(HttpError::Request(r)) => format!(
            "request failed (timeout: {}, connect: {})",
            r.is_timeout(),
            r.is_connect()
        ),
        serenity::Error::Http(_) => "HTTP error".to_string(),
        serenity::Error::Gateway(g) => format!("gateway: {g}"),
        serenity::Error::Json(j) => format!("JSON: {j}"),
        serenity::Error::Model(m) => format!("model: {m}"),
        other => {
            let text = other.to_string();
            if text.contains("http") {
                "error (details withheld: they may hold a URL)".to_string()
            } else {
                text
            }
        }
    }
}
