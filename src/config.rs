//! The bot's settings: `config.toml` (see `config.example.toml`) plus the `DISCORD_TOKEN`
//! environment variable. The token is never printed or logged (its `Debug` hides it).

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A secret that never shows in logs or debug output.
#[derive(Clone, Deserialize, Default)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_empty() {
            "<none>"
        } else {
            "<hidden>"
        })
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Prefer the `DISCORD_TOKEN` environment variable.
    pub discord_token: Secret,
    pub database_path: PathBuf,
    /// A database URL: `postgres://…` selects PostgreSQL, anything else is an SQLite path
    /// (the `DATABASE_URL` environment variable wins). Missing: `database_path`.
    pub database_url: Option<String>,
    /// A corrected copy of `assets/`; empty = the data built into the binary.
    pub data_dir: String,
    /// Register commands in this guild only (fast updates while developing).
    pub dev_guild_id: Option<u64>,
    /// Discord user ids of the bot's owners (seeds, exports of running games, admin tools).
    pub owners: Vec<u64>,
    /// The local terminal mode's owners, by the names they type (`alice`): the same rights
    /// as `owners` have on Discord. Every other local name is a plain player.
    pub local_owners: Vec<String>,
    /// Remind a player after this many hours of waiting.
    pub reminder_hours: f64,
    /// Play a stalled turn safely after this many hours (0 = never).
    pub deadline_hours: f64,
    /// The host (or a channel moderator) may kick a player the game has waited on this many
    /// hours.
    pub kick_after_hours: f64,
    /// Delete a running game nobody moved in for this many days (0 = never)…
    pub abandoned_after_days: f64,
    /// …after a public warning in its channel this many days before.
    pub abandoned_warning_days: f64,
    /// error, warn, info, debug or trace.
    pub log_level: String,
    /// The language of replies when neither the player nor the game chose one: en or de.
    pub default_language: String,
    /// At most this many commands and clicks per user in `rate_limit_seconds` (0 = no limit).
    pub rate_limit_commands: usize,
    /// The rate limit's window in seconds (0 = no limit).
    pub rate_limit_seconds: f64,
    /// How many gateway shards: `"auto"` (Discord's recommendation) or the total number.
    pub shards: Shards,
    /// Which of the `shards` this process runs, `"first-last"` (both included, counted from
    /// 0); needs `shards` as a number. Missing = all of them.
    pub shard_range: Option<String>,
}

/// The `shards` setting: Discord's recommended count, or a fixed total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "toml::Value")]
pub enum Shards {
    #[default]
    Auto,
    Total(u32),
}

impl TryFrom<toml::Value> for Shards {
    type Error = String;

    fn try_from(value: toml::Value) -> Result<Shards, String> {
        match value {
            toml::Value::String(s) if s.trim().eq_ignore_ascii_case("auto") => Ok(Shards::Auto),
            toml::Value::Integer(n) if n >= 1 => u32::try_from(n)
                .map(Shards::Total)
                .map_err(|_| format!("shards = {n} is too many")),
            other => Err(format!(
                "shards must be \"auto\" or the total number of shards (1 or more), not {other}"
            )),
        }
    }
}

/// Which gateway shards this process connects (from `shards` and `shard_range`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharding {
    /// As many as Discord recommends (`GET /gateway/bot`), all in this process.
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

impl Sharding {
    /// The games of these shards (None: every game, when one process runs them all).
    pub fn games(self) -> Option<crate::store::ShardFilter> {
        match self {
            Sharding::Range { first, last, total } if first > 0 || last + 1 < total => {
                Some(crate::store::ShardFilter { first, last, total })
            }
            _ => None,
        }
    }
}

/// A `shards` / `shard_range` combination that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardingError {
    #[error("shard_range `{0}` is not of the form \"first-last\" (e.g. \"0-3\")")]
    RangeForm(String),
    #[error("shard_range needs shards set to the total number of shards, not \"auto\"")]
    RangeNeedsTotal,
    #[error("shard_range `{first}-{last}` does not fit shards = {total} (shards are numbered 0 to {})", .total - 1)]
    RangeOutside { first: u32, last: u32, total: u32 },
}

impl Default for Config {
    fn default() -> Config {
        Config {
            discord_token: Secret::default(),
            database_path: PathBuf::from("skymines.db"),
            database_url: None,
            data_dir: String::new(),
            dev_guild_id: None,
            owners: Vec::new(),
            local_owners: Vec::new(),
            reminder_hours: 12.0,
            deadline_hours: 0.0,
            kick_after_hours: 24.0,
            abandoned_after_days: 0.0,
            abandoned_warning_days: 3.0,
            log_level: "info".to_string(),
            default_language: "en".to_string(),
            rate_limit_commands: 12,
            rate_limit_seconds: 10.0,
            shards: Shards::Auto,
            shard_range: None,
        }
    }
}

impl Config {
    /// Reads `path` (a missing file means the defaults), then `DISCORD_TOKEN`.
    pub fn load(path: &Path) -> Result<Config, String> {
        let mut config = match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str::<Config>(&text)
                .map_err(|e| format!("{}: {}", path.display(), e.to_string().trim()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        if !crate::text::language_codes().any(|c| c == config.default_language) {
            let known: Vec<&str> = crate::text::language_codes().collect();
            return Err(format!(
                "{}: default_language `{}` is not one of {}",
                path.display(),
                config.default_language,
                known.join(", ")
            ));
        }
        config
            .sharding()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // Either backend holds the whole store; an SQLite `database_url` names the file.
        if let crate::store::Database::Sqlite(path) = config
            .database()
            .require_full_store()
            .map_err(|e| e.to_string())?
        {
            config.database_path = path;
        }
        if let Ok(token) = std::env::var("DISCORD_TOKEN") {
            if !token.trim().is_empty() {
                config.discord_token = Secret(token);
            }
        }
        Ok(config)
    }

    /// The shards to connect, from `shards` and `shard_range`.
    pub fn sharding(&self) -> Result<Sharding, ShardingError> {
        let Some(range) = self.shard_range.as_deref().map(str::trim) else {
            return Ok(match self.shards {
                Shards::Auto => Sharding::Auto,
                Shards::Total(total) => Sharding::Range {
                    first: 0,
                    last: total - 1,
                    total,
                },
            });
        };
        let form = || ShardingError::RangeForm(range.to_string());
        let (first, last) = range.split_once('-').ok_or_else(form)?;
        let first: u32 = first.trim().parse().map_err(|_| form())?;
        let last: u32 = last.trim().parse().map_err(|_| form())?;
        let Shards::Total(total) = self.shards else {
            return Err(ShardingError::RangeNeedsTotal);
        };
        if first > last || last >= total {
            return Err(ShardingError::RangeOutside { first, last, total });
        }
        Ok(Sharding::Range { first, last, total })
    }

    /// The games this process serves: those of its shards when `shard_range` splits them
    /// across processes (None: every game).
    pub fn shard_filter(&self) -> Option<crate::store::ShardFilter> {
        self.sharding().ok().and_then(Sharding::games)
    }

    /// Where the games live: `DATABASE_URL`, else `database_url`, else `database_path`.
    pub fn database(&self) -> crate::store::Database {
        crate::store::Database::select(
            self.database_url.as_deref(),
            std::env::var("DATABASE_URL").ok().as_deref(),
            self.database_path.clone(),
        )
    }

    pub fn has_token(&self) -> bool {
        !self.discord_token.is_empty()
    }

    pub fn data_dir(&self) -> Option<PathBuf> {
        let d = self.data_dir.trim();
        (!d.is_empty()).then(|| PathBuf::from(d))
    }

    pub fn chat_config(&self) -> crate::chat::ChatConfig {
        let hours = |h: f64| (h * 3600.0 * 1000.0) as i64;
        crate::chat::ChatConfig {
            // Local ids are below 10^9 and Discord ids far above: one list serves both.
            owners: self
                .owners
                .iter()
                .copied()
                .chain(
                    self.local_owners
                        .iter()
                        .map(|n| crate::chat::local_user_id(n)),
                )
                .collect(),
            reminder_after_ms: hours(self.reminder_hours.max(0.01)),
            deadline_ms: (self.deadline_hours > 0.0).then(|| hours(self.deadline_hours)),
            default_language: self.default_language.clone(),
            kick_after_ms: hours(self.kick_after_hours.max(0.0)),
            abandoned_after_ms: (self.abandoned_after_days > 0.0)
                .then(|| hours(self.abandoned_after_days * 24.0)),
            abandoned_warning_ms: hours(self.abandoned_warning_days.max(0.0) * 24.0),
            rate_limit: if self.rate_limit_seconds > 0.0 {
                self.rate_limit_commands
            } else {
                0
            },
            rate_window_ms: (self.rate_limit_seconds.max(0.0) * 1000.0) as i64,
            ..crate::chat::ChatConfig::default()
        }
    }
}
