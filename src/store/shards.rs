//! Which games a process serves when the gateway is split into shard ranges (`shards = N`,
//! `shard_range = "a-b"`): a game belongs to the shard of its guild, Discord's formula
//! `(guild_id >> 22) % total`, a game outside a guild (DMs, the local mode) to shard 0. With a
//! [`ShardFilter`] in [`StoreOptions`](super::StoreOptions) a store restores and keeps live only
//! its shards' games (a game of another shard, loaded for a request that came here such as a DM
//! click, is not among its live games), and the timers' queries (due reminders, queued
//! messages, idle watches, pinned status messages) return only theirs; one rule, here, in Rust
//! and in SQL (the same SQL on SQLite and PostgreSQL).

/// Shards `first..=last` of `total` (`total` at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardFilter {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

/// The shard a game of `guild` belongs to, out of `total`: Discord's routing rule; no guild
/// (a DM, the local mode) is shard 0.
pub fn shard_of(guild: Option<u64>, total: u32) -> u32 {
    match guild {
        Some(g) => ((g >> 22) % u64::from(total.max(1))) as u32,
        None => 0,
    }
}

/// `guild >> 22` of a u64 stored bit for bit in a signed 64-bit column: both databases shift
/// signed values arithmetically, so the sign bits shifted in are masked off (42 bits remain).
const SHIFTED_MASK: u64 = (1 << 42) - 1;

impl ShardFilter {
    /// Whether a game of `guild` is one of this process's.
    pub fn holds(&self, guild: Option<u64>) -> bool {
        (self.first..=self.last).contains(&shard_of(guild, self.total))
    }

    /// The same rule as an SQL condition on the games' guild column `guild_column` (NULL: no
    /// guild, shard 0), for both backends. The numbers come from the configuration (integers),
    /// never from users.
    pub fn sql(&self, guild_column: &str) -> String {
        format!(
            "(COALESCE((({guild_column} >> 22) & {SHIFTED_MASK}) % {total}, 0) BETWEEN {first} AND {last})",
            total = self.total.max(1),
            first = self.first,
            last = self.last,
        )
    }
}

/// The SQL condition of an optional filter on the guild column `guild_column`, to follow an
/// `AND`: `TRUE` (every game) without a filter.
pub(crate) fn condition(filter: Option<ShardFilter>, guild_column: &str) -> String {
    match filter {
        Some(f) => f.sql(guild_column),
        None => "TRUE".to_string(),
    }
}
