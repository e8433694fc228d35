//! The outbound queue and the reminder table. Messages are queued in the same transaction as
//! the move that caused them ([`MoveEffects`](super::MoveEffects)) or on their own; the Discord
//! adapter sends them and marks them sent, so a crash between the move and the send loses no
//! message (at worst one is sent twice). Reminders: the chat layer decides what is due and
//! when, the store keeps the due times, the adapter runs the timer (DECISIONS B7).

use super::error::Result;
use super::shards::{self, ShardFilter};
use super::{now_ms, GameId, Store};
use rusqlite::params;

/// A queued message.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    pub id: i64,
    pub game: Option<GameId>,
    pub payload: serde_json::Value,
    pub created_at: i64,
}

/// A reminder due at `due_at` (Unix ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub game: GameId,
    pub seat: usize,
    pub kind: String,
    pub due_at: i64,
}

impl Store {
    /// Queues one message outside a move.
    pub fn queue_notification(
        &self,
        game: Option<GameId>,
        payload: &serde_json::Value,
    ) -> Result<i64> {
        let now = now_ms();
        let text = payload.to_string();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO outbox (game_id, payload, created_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![game, text, now])?;
            Ok(tx.last_insert_rowid())
        })
    }

    /// The oldest unsent messages (of this process's shards), at most `limit`.
    pub fn pending_notifications(&self, limit: usize) -> Result<Vec<Outbound>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT o.id, o.game_id, o.payload, o.created_at FROM {} ORDER BY o.id LIMIT ?1",
                unsent_sql(self.options.shards)
            ))?;
            let rows = stmt.query_map([limit as i64], |r| {
                let payload: String = r.get(2)?;
                Ok(Outbound {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    payload: serde_json::from_str(&payload)
                        .unwrap_or(serde_json::Value::String(payload)),
                    created_at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// Marks a message sent.
    pub fn mark_sent(&self, id: i64) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached("UPDATE outbox SET sent = 1, sent_at = ?2 WHERE id = ?1")?
                .execute(params![id, now])?;
            Ok(())
        })
    }

    /// Sets (or moves) one reminder.
    pub fn set_reminder(&self, game: GameId, seat: usize, kind: &str, due_at: i64) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO reminders (game_id, seat, kind, due_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![game, seat as i64, kind, due_at])?;
            Ok(())
        })
    }

    /// Clears a game's reminders: one seat's, or all of them.
    pub fn clear_reminders(&self, game: GameId, seat: Option<usize>) -> Result<()> {
        self.write(|tx| {
            match seat {
                Some(s) => tx
                    .prepare_cached("DELETE FROM reminders WHERE game_id = ?1 AND seat = ?2")?
                    .execute(params![game, s as i64])?,
                None => tx
                    .prepare_cached("DELETE FROM reminders WHERE game_id = ?1")?
                    .execute([game])?,
            };
            Ok(())
        })
    }

    /// Removes one kind of reminder of one seat (a user who turned reminders off keeps the
    /// deadline).
    pub fn clear_reminder(&self, game: GameId, seat: usize, kind: &str) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached(
                "DELETE FROM reminders WHERE game_id = ?1 AND seat = ?2 AND kind = ?3",
            )?
            .execute(params![game, seat as i64, kind])?;
            Ok(())
        })
    }

    /// Reminders due at or before `now` (Unix ms, the caller's clock), of active games that are
    /// not paused, of this process's shards.
    pub fn due_reminders(&self, now: i64) -> Result<Vec<Reminder>> {
        self.read(|c| due_reminders(c, now, self.options.shards))
    }

    /// Claims the reminders due at `now`: returns them and moves each one's due time
    /// `lease_ms` on, in one transaction (see [`super::GameStore::claim_due_reminders`]).
    pub fn claim_due_reminders(&self, now: i64, lease_ms: i64) -> Result<Vec<Reminder>> {
        self.write(|tx| {
            let due = due_reminders(tx, now, self.options.shards)?;
            for r in &due {
                tx.prepare_cached(
                    "UPDATE reminders SET due_at = ?4 WHERE game_id = ?1 AND seat = ?2 AND kind = ?3",
                )?
                .execute(params![r.game, r.seat as i64, r.kind, now + lease_ms])?;
            }
            Ok(due)
        })
    }

    /// Every reminder of a game.
    pub fn reminders(&self, game: GameId) -> Result<Vec<Reminder>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT game_id, seat, kind, due_at FROM reminders WHERE game_id = ?1 ORDER BY seat, kind",
            )?;
            let rows = stmt.query_map([game], |r| {
                Ok(Reminder {
                    game: r.get(0)?,
                    seat: r.get::<_, i64>(1)? as usize,
                    kind: r.get(2)?,
                    due_at: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }
}

/// Which reminders are due at `now` (`$1`): of active games that are not paused, of this
/// process's shards, soonest first (the rule for both backends; PostgreSQL adds its row locks).
pub(super) fn due_reminders_sql(shards: Option<ShardFilter>) -> String {
    format!(
        "SELECT r.game_id, r.seat, r.kind, r.due_at FROM reminders r \
         JOIN games g ON g.id = r.game_id \
         WHERE r.due_at <= $1 AND g.status = 'active' AND g.paused_at IS NULL AND {} \
         ORDER BY r.due_at, r.game_id, r.seat",
        shards::condition(shards, "g.guild")
    )
}

/// Unsent messages (`o`) of this process's shards (a message of no game: shard 0's), to follow
/// `FROM`, for both backends.
pub(super) fn unsent_sql(shards: Option<ShardFilter>) -> String {
    format!(
        "outbox o LEFT JOIN games g ON g.id = o.game_id WHERE o.sent = 0 AND {}",
        shards::condition(shards, "g.guild")
    )
}

fn due_reminders(
    c: &rusqlite::Connection,
    now: i64,
    shards: Option<ShardFilter>,
) -> Result<Vec<Reminder>> {
    let mut stmt = c.prepare_cached(&due_reminders_sql(shards))?;
    let rows = stmt.query_map([now], |r| {
        Ok(Reminder {
            game: r.get(0)?,
            seat: r.get::<_, i64>(1)? as usize,
            kind: r.get(2)?,
            due_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}
