//! The schedule: since when each game waits on each seat, the reminders and deadlines the chat
//! layer derives from that (DECISIONS B7: the chat decides what is due and when, the store
//! keeps the due times, the adapter runs the timer), pauses, the idle-game watches of the
//! cleanup timer, and the outbound queue. What a change of who a game waits on implies
//! ([`WaitPlan`]) is written in the change's own transaction (`apply_waits`); due reminders and
//! queued messages are claimed by one process at a time (see [`Schedule::claim_due_reminders`]).
//! Messages are queued in the same transaction as the move that caused them or on their own;
//! the Discord adapter sends them and marks them sent, so a crash between the move and the
//! send loses no message (at worst one is sent twice).

use super::error::{Result, StoreError};
use super::shards;
use super::sql::{args, Row, Tx};
use super::waits::{apply_waits, UPSERT_REMINDER};
use super::{json, now_ms, GameId, Store, WaitPlan};

use std::time::Duration;

/// The schedule's role (see [`Store::schedule`]).
#[derive(Clone, Copy)]
pub struct Schedule<'s>(pub(super) &'s Store);

impl Store {
    /// Reminders, deadlines, waiting times, pauses, idle watches and the outbox.
    pub fn schedule(&self) -> Schedule<'_> {
        Schedule(self)
    }
}

/// The cleanup timer's view of one idle game (times on the chat layer's clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleWatch {
    pub game: GameId,
    /// The log version last seen: a move changes it.
    pub seq: u64,
    /// Since when the game has been at that version (as far as the timer knows).
    pub since: i64,
    /// The warning posted: when, and when the game is deleted unless someone moves.
    pub warning: Option<(i64, i64)>,
}

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

fn reminder_from_row(r: &Row<'_>) -> Result<Reminder> {
    Ok(Reminder {
        game: r.get(0)?,
        seat: r.usize(1)?,
        kind: r.get(2)?,
        due_at: r.get(3)?,
    })
}

/// Which reminders are due at `now` (`$1`): of active games that are not paused, of this
/// process's shards, soonest first.
fn due_reminders_sql(store: &Store) -> String {
    format!(
        "SELECT r.game_id, r.seat, r.kind, r.due_at FROM reminders r \
         JOIN games g ON g.id = r.game_id \
         WHERE r.due_at <= $1 AND g.status = 'active' AND g.paused_at IS NULL AND {} \
         ORDER BY r.due_at, r.game_id, r.seat",
        shards::condition(store.options.shards, "g.guild")
    )
}

/// Unsent messages (`o`) of this process's shards (a message of no game: shard 0's), to follow
/// `FROM`.
fn unsent_sql(store: &Store) -> String {
    format!(
        "outbox o LEFT JOIN games g ON g.id = o.game_id WHERE o.sent = 0 AND {}",
        shards::condition(store.options.shards, "g.guild")
    )
}

fn outbound_from_row(r: &Row<'_>) -> Result<Outbound> {
    let payload: String = r.get(2)?;
    Ok(Outbound {
        id: r.get(0)?,
        game: r.get(1)?,
        payload: serde_json::from_str(&payload).unwrap_or(serde_json::Value::String(payload)),
        created_at: r.get(3)?,
    })
}

impl Schedule<'_> {
    /// Sets (or moves) one reminder.
    pub fn set_reminder(&self, game: GameId, seat: usize, kind: &str, due_at: i64) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(UPSERT_REMINDER, args![game, seat, kind, due_at])?;
            Ok(())
        })
    }

    /// Clears a game's reminders: one seat's, or all of them.
    pub fn clear_reminders(&self, game: GameId, seat: Option<usize>) -> Result<()> {
        self.0.db.write(|tx| {
            match seat {
                Some(s) => tx.execute(
                    "DELETE FROM reminders WHERE game_id = $1 AND seat = $2",
                    args![game, s],
                )?,
                None => tx.execute("DELETE FROM reminders WHERE game_id = $1", args![game])?,
            };
            Ok(())
        })
    }

    /// Removes one kind of reminder of one seat (a user who turned reminders off keeps the
    /// deadline).
    pub fn clear_reminder(&self, game: GameId, seat: usize, kind: &str) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(
                "DELETE FROM reminders WHERE game_id = $1 AND seat = $2 AND kind = $3",
                args![game, seat, kind],
            )?;
            Ok(())
        })
    }

    /// Every reminder of a game.
    pub fn reminders(&self, game: GameId) -> Result<Vec<Reminder>> {
        self.0.db.read(|tx| {
            tx.query(
                "SELECT game_id, seat, kind, due_at FROM reminders WHERE game_id = $1 \
                 ORDER BY seat, kind",
                args![game],
                reminder_from_row,
            )
        })
    }

    /// Reminders due at or before `now` (Unix ms, the caller's clock), of active games that are
    /// not paused, of this process's shards.
    pub fn due_reminders(&self, now: i64) -> Result<Vec<Reminder>> {
        let sql = due_reminders_sql(self.0);
        self.0
            .db
            .read(|tx| tx.query(&sql, args![now], reminder_from_row))
    }

    /// Claims the reminders due at `now` (of active, unpaused games): each is returned to one
    /// caller only, its due time moved `lease_ms` on, so that it fires again only if the
    /// claimer died before setting or clearing it. Rows another process is claiming are
    /// passed over.
    pub fn claim_due_reminders(&self, now: i64, lease_ms: i64) -> Result<Vec<Reminder>> {
        let store = self.0;
        let sql = format!(
            "{}{}",
            due_reminders_sql(store),
            store.db.dialect().skip_locked("r")
        );
        store.db.write(|tx| {
            let due = tx.query(&sql, args![now], reminder_from_row)?;
            for r in &due {
                tx.execute(
                    "UPDATE reminders SET due_at = $4 WHERE game_id = $1 AND seat = $2 AND kind = $3",
                    args![r.game, r.seat, &r.kind, now + lease_ms],
                )?;
            }
            Ok(due)
        })
    }

    /// Records since when the game waits on a seat (None: it does not).
    pub fn set_waiting_since(&self, game: GameId, seat: usize, since: Option<i64>) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(
                "UPDATE seats SET waiting_since = $3 WHERE game_id = $1 AND seat = $2",
                args![game, seat, since],
            )?;
            Ok(())
        })
    }

    /// Since when the game waits on a seat (Unix ms), if it does.
    pub fn waiting_since(&self, game: GameId, seat: usize) -> Result<Option<i64>> {
        Ok(self
            .0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT waiting_since FROM seats WHERE game_id = $1 AND seat = $2",
                    args![game, seat],
                    |r| r.get::<Option<i64>>(0),
                )
            })?
            .flatten())
    }

    /// Pauses (Some: since when, Unix ms) or resumes (None) an active game. Paused games get no
    /// reminders and no deadlines ([`Schedule::due_reminders`] leaves them out), and a move of
    /// any process checks the pause under the game's row lock, so none is accepted meanwhile.
    pub fn set_paused(&self, game: GameId, since: Option<i64>) -> Result<()> {
        self.pause_and(game, since, |_| Ok(()))
    }

    /// Resumes a paused game and applies `waits` (every wait starts afresh) in the same
    /// transaction.
    pub fn resume(&self, game: GameId, waits: &WaitPlan) -> Result<()> {
        let store = self.0;
        store.with_live(game, |live| {
            let state = live.state.clone();
            self.pause_and(game, None, |tx| apply_waits(tx, game, &state, waits))
        })
    }

    fn pause_and(
        &self,
        game: GameId,
        since: Option<i64>,
        also: impl FnOnce(&mut Tx<'_>) -> Result<()>,
    ) -> Result<()> {
        let now = now_ms();
        let changed = self.0.db.write(|tx| {
            let n = tx.execute(
                "UPDATE games SET paused_at = $2, updated_at = $3 WHERE id = $1 AND status = 'active'",
                args![game, since, now],
            )?;
            if n > 0 {
                also(tx)?;
            }
            Ok(n)
        })?;
        if changed == 0 {
            let status = self.0.games().game(game)?.status;
            return Err(StoreError::NotActive { game, status });
        }
        Ok(())
    }

    /// Since when a game is paused (Unix ms), if it is.
    pub fn paused_at(&self, game: GameId) -> Result<Option<i64>> {
        self.0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT paused_at FROM games WHERE id = $1",
                    args![game],
                    |r| r.get::<Option<i64>>(0),
                )
            })?
            .ok_or(StoreError::NoSuchGame(game))
    }

    /// Every idle-game watch (of this process's shards).
    pub fn idle_watches(&self) -> Result<Vec<IdleWatch>> {
        let sql = format!(
            "SELECT w.game_id, w.seq, w.since, w.warned_at, w.delete_at FROM idle_watch w \
             JOIN games g ON g.id = w.game_id WHERE {} ORDER BY w.game_id",
            shards::condition(self.0.options.shards, "g.guild")
        );
        self.0.db.read(|tx| {
            tx.query(&sql, args![], |r| {
                let warned: Option<i64> = r.get(3)?;
                let delete: Option<i64> = r.get(4)?;
                Ok(IdleWatch {
                    game: r.get(0)?,
                    seq: r.u64(1)?,
                    since: r.get(2)?,
                    warning: warned.zip(delete),
                })
            })
        })
    }

    /// Stores (replaces) a game's idle-game watch.
    pub fn set_idle_watch(&self, watch: &IdleWatch) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO idle_watch (game_id, seq, since, warned_at, delete_at) \
                 VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, since = excluded.since, \
                 warned_at = excluded.warned_at, delete_at = excluded.delete_at",
                args![
                    watch.game,
                    watch.seq,
                    watch.since,
                    watch.warning.map(|w| w.0),
                    watch.warning.map(|w| w.1)
                ],
            )?;
            Ok(())
        })
    }

    /// Forgets a game's idle-game watch.
    pub fn clear_idle_watch(&self, game: GameId) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute("DELETE FROM idle_watch WHERE game_id = $1", args![game])?;
            Ok(())
        })
    }

    /// Queues one message outside a move.
    pub fn queue_notification(
        &self,
        game: Option<GameId>,
        payload: &serde_json::Value,
    ) -> Result<i64> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.query_one(
                "INSERT INTO outbox (game_id, payload, created_at) VALUES ($1, $2, $3) RETURNING id",
                args![game, &json(payload), now],
                |r| r.get(0),
            )
        })
    }

    /// The oldest unsent messages (of this process's shards), at most `limit`, claimed or not.
    pub fn pending_notifications(&self, limit: usize) -> Result<Vec<Outbound>> {
        let sql = format!(
            "SELECT o.id, o.game_id, o.payload, o.created_at FROM {} ORDER BY o.id LIMIT $1",
            unsent_sql(self.0)
        );
        self.0
            .db
            .read(|tx| tx.query(&sql, args![limit], outbound_from_row))
    }

    /// Claims up to `limit` unsent messages, oldest first, for `lease`: no other process gets
    /// them until the lease ends (then they are offered again, unless marked sent). One
    /// process owns an SQLite file: there what it did not send is offered again at once.
    pub fn claim_notifications(&self, limit: usize, lease: Duration) -> Result<Vec<Outbound>> {
        let store = self.0;
        let d = store.db.dialect();
        let now = now_ms();
        let until = if d.shared() {
            now + lease.as_millis() as i64
        } else {
            now
        };
        let sql = format!(
            "UPDATE outbox SET claimed_until = $1 WHERE id IN ( \
             SELECT o.id FROM {} AND (o.claimed_until IS NULL OR o.claimed_until <= $2) \
             ORDER BY o.id LIMIT $3{}) \
             RETURNING id, game_id, payload, created_at",
            unsent_sql(store),
            d.skip_locked("o")
        );
        let mut out = store
            .db
            .write(|tx| tx.query(&sql, args![until, now, limit], outbound_from_row))?;
        out.sort_by_key(|o| o.id);
        Ok(out)
    }

    /// Marks a message sent.
    pub fn mark_sent(&self, id: i64) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "UPDATE outbox SET sent = 1, sent_at = $2 WHERE id = $1",
                args![id, now],
            )?;
            Ok(())
        })
    }
}
