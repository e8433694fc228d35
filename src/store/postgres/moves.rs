//! A batch of decisions on PostgreSQL (the twin of [`crate::store::Store::apply_with`] and
//! [`crate::store::Store::apply_at`]): ONE transaction that first takes the game's row lock and
//! checks the game is still as this process saw it.

use super::PgStore;
use crate::engine::{Decision, Event, GameState};
use crate::store::error::{Result, StoreError};
use crate::store::moves::{prepare_move, verdict_for};
use crate::store::{to_db, FailPoint, GameId, MoveEffects, MoveOutcome};

impl PgStore {
    /// [`crate::store::GameStore::apply`] of decisions worked out on the game at move `seq` (a
    /// computer player's turn, thought out without the game's lock): refused with
    /// [`StoreError::MovedOn`], nothing written, when the game has moved on since — in this
    /// process, or in another one (checked under the game's row lock).
    pub fn apply_at(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        seq: u64,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, Some(seq), &|_, _| {
            MoveEffects::default()
        })
    }

    /// A batch, checked against `expected` (the move it was worked out at) when given.
    pub(super) fn apply_checked(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        expected: Option<u64>,
        effects: &dyn Fn(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        self.with_live(game, |live| {
            if expected.is_some_and(|seq| seq != live.seq) {
                return Err(StoreError::MovedOn(game));
            }
            let m = prepare_move(
                &self.data,
                self.options.snapshot_every,
                live,
                seat,
                decisions,
                effects,
            )?;
            let seq = m.entry.seq();
            let now = crate::store::now_ms();
            let result = self.write(|db| {
                self.lock_and_append(db, game, live.seq, verdict_for(expected), &m.entry)?;
                self.write_state(db, game, seq, m.snapshot.as_deref(), &m.fx, now)?;
                let status = if m.finished { "finished" } else { "active" };
                db.execute(
                    "UPDATE games SET last_seq = $2, updated_at = $3, status = $4 WHERE id = $1",
                    &[&game, &to_db(seq), &now, &status],
                )?;
                self.hit(FailPoint::BeforeCommit)
            });
            if let Err(e) = result {
                // This process's copy is behind the stored game: reloaded on next use.
                if matches!(
                    e,
                    StoreError::Conflict(_) | StoreError::Changed(_) | StoreError::MovedOn(_)
                ) {
                    self.live.evict(game, live);
                }
                return Err(e);
            }
            let finished = m.finished;
            let outcome = m.commit_to(live);
            if finished {
                self.live.evict(game, live);
            }
            Ok(outcome)
        })
    }
}
