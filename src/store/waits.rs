//! What a change of who a game waits on writes, inside the change's own transaction (a move,
//! an undo, a rollback, a new game, a resume, a seat taken over): the plan ([`WaitPlan`]) the
//! chat layer worked out before the game's lock was taken, applied to the state the change
//! leads to; and a game's end, which waits on nobody. The schedule's role (`schedule`) reads
//! and claims what these write.

use super::error::Result;
use super::sql::{args, Tx};
use super::types::{GameId, WaitPlan};
use crate::engine::{self, GameState};

pub(super) const UPSERT_REMINDER: &str = "INSERT INTO reminders (game_id, seat, kind, due_at) \
     VALUES ($1, $2, $3, $4) \
     ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at";

/// Applies `plan` to `game` in the state `state` leads to (inside the caller's transaction):
/// see [`WaitPlan`] for what becomes of each seat.
pub(super) fn apply_waits(
    tx: &mut Tx<'_>,
    game: GameId,
    state: &GameState,
    plan: &WaitPlan,
) -> Result<()> {
    let waited: Vec<i64> = engine::waiting_on(state)
        .into_iter()
        .map(|s| s as i64)
        .collect();
    let d = tx.dialect();
    // The seats no longer waited on.
    tx.execute(
        &format!(
            "UPDATE seats SET waiting_since = NULL WHERE game_id = $1 \
             AND waiting_since IS NOT NULL AND NOT ({})",
            d.in_list("seat", 2)
        ),
        args![game, &waited],
    )?;
    tx.execute(
        &format!(
            "DELETE FROM reminders WHERE game_id = $1 AND NOT ({})",
            d.in_list("seat", 2)
        ),
        args![game, &waited],
    )?;
    if waited.is_empty() {
        return Ok(());
    }
    // The waits that start now: every waited seat's when fresh, else those not waited on yet.
    let keep = if plan.fresh {
        ""
    } else {
        " AND waiting_since IS NULL"
    };
    let started: Vec<i64> = tx.query(
        &format!(
            "UPDATE seats SET waiting_since = $2 WHERE game_id = $1{keep} AND {} RETURNING seat",
            d.in_list("seat", 3)
        ),
        args![game, plan.now, &waited],
        |r| r.get(0),
    )?;
    if started.is_empty() {
        return Ok(());
    }
    tx.execute(
        &format!(
            "DELETE FROM reminders WHERE game_id = $1 AND {}",
            d.in_list("seat", 2)
        ),
        args![game, &started],
    )?;
    for seat in started {
        let Some(reminders) = usize::try_from(seat)
            .ok()
            .and_then(|s| plan.reminders.get(&s))
        else {
            continue;
        };
        for (kind, due) in reminders {
            tx.execute(UPSERT_REMINDER, args![game, seat, kind, *due])?;
        }
    }
    Ok(())
}

/// A game that ended waits on nobody: its reminders and deadlines go (inside the caller's
/// transaction).
pub(super) fn end_waits(tx: &mut Tx<'_>, game: GameId) -> Result<()> {
    tx.execute("DELETE FROM reminders WHERE game_id = $1", args![game])?;
    Ok(())
}
