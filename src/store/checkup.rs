//! The admin's check of one game, whole ([`Admin::check`], behind `/skymines admin report`):
//! the game row decodes, the seed is the options' seed, the log's rows decode and match their
//! checksums, are numbered without gaps and as many as the game row says, every stored
//! snapshot agrees with a replay from the seed, and the seat rows match the game (see
//! `integrity`). What is found names the first problem and what mends it ([`Mend`]): the last
//! good move for a rollback, a rollback that rewrites the seats, or a backup. A running game
//! the check finds broken is set aside as damaged at once (it would not go on correctly);
//! a finished or abandoned one keeps its status and is reported.
//!
//! Start-up runs the cheaper part on every active game (see `restore`): the row, the seed,
//! every row's decoding and checksum, the numbering and count, the seats, and the latest
//! usable snapshot against a replay; the older snapshots only here.

use super::admin::Admin;
use super::games::{read_game, read_seats, row_problem};
use super::integrity::{seat_problem, seed_problem, SeatFacts};
use super::moves::read_log_prefix;
use super::replay::{self, History};
use super::snapshots::current_snapshots;
use super::{lock, GameId, GameRecord, GameStatus, Result, SeatOwner, StoreError};

/// What mends a game the check found broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mend {
    /// Nothing is broken.
    Nothing,
    /// A rollback to the last good move (`History::last_good`); it rewrites the seats too.
    Rollback,
    /// The moves hold up, the seats or the seed do not: a rollback to the last move rewrites
    /// them from the game (a missing seat comes back open, for its player to join again).
    Rewrite,
    /// The game row cannot be read, so nothing can be replayed: only a backup mends it.
    Backup,
}

/// The admin's check of one game.
#[derive(Debug, Clone)]
pub struct Checkup {
    /// The game's record, after the check (a running game found broken is damaged now).
    pub record: GameRecord,
    /// How far its history holds up.
    pub history: History,
    /// The first problem found (None: none).
    pub problem: Option<String>,
    pub mend: Mend,
    /// The game was running and this check set it aside as damaged.
    pub set_aside: bool,
}

impl Admin<'_> {
    /// Checks a game whole (see the module's comment); a running game found broken is set
    /// aside as damaged, with the problem as its report.
    pub fn check(&self, game: GameId) -> Result<Checkup> {
        let store = self.0;
        if let Err(StoreError::Corrupt { message, .. }) = store.db.read(|tx| read_game(tx, game)) {
            // A running game whose row does not decode: set aside, then read as damaged.
            store.mark_damaged(&[(game, message)])?;
            store.forget_live(game);
        }
        let mut checkup = self.examine(game)?;
        if let (GameStatus::Active, Some(problem)) = (checkup.record.status, &checkup.problem) {
            store.mark_damaged(&[(game, problem.clone())])?;
            store.forget_live(game);
            checkup.record = store.db.read(|tx| read_game(tx, game))?;
            checkup.set_aside = true;
        }
        Ok(checkup)
    }

    /// The check of [`Admin::check`], changing nothing.
    pub(super) fn examine(&self, game: GameId) -> Result<Checkup> {
        let store = self.0;
        let record = store.db.read(|tx| read_game(tx, game))?;
        let (row, log, snapshots, seats) = store.db.read(|tx| {
            let seats = match read_seats(tx, game) {
                Ok(seats) => Ok(seats
                    .into_iter()
                    .map(|s| SeatFacts {
                        seat: s.seat,
                        luna: s.owner == SeatOwner::Luna,
                        name: s.name,
                    })
                    .collect::<Vec<_>>()),
                Err(StoreError::Corrupt { message, .. }) => Err(message),
                Err(e) => return Err(e),
            };
            Ok((
                row_problem(tx, game)?,
                read_log_prefix(tx, game)?,
                current_snapshots(tx, game)?,
                seats,
            ))
        })?;
        let (entries, unreadable, rows) = log;
        let (history, problem, mend) = if let Some(problem) = row_problem_of(&record, row) {
            let history = History {
                entries: rows,
                last_good: 0,
                problem: Some(problem.clone()),
            };
            (history, Some(problem), Mend::Backup)
        } else {
            // Damaged values may make the engine panic: that is a finding, not a crash.
            let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                replay::check_history(
                    &store.data,
                    &record.options,
                    &record.seat_names,
                    &entries,
                    &snapshots,
                )
            }));
            let mut history = replayed.unwrap_or_else(|_| History {
                entries: rows,
                last_good: 0,
                problem: Some("the engine panicked while replaying it".to_string()),
            });
            history.entries = rows;
            if let (None, Some((_, why))) = (&history.problem, &unreadable) {
                history.problem = Some(why.clone());
            }
            if history.problem.is_none() && rows != record.seq {
                history.last_good = history.last_good.min(record.seq);
                history.problem = Some(format!(
                    "the game row says {} moves but the log holds {rows}",
                    record.seq
                ));
            }
            let outside = seed_problem(record.seed, record.options.seed).or_else(|| {
                let state = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    replay::initial_state(&store.data, &record.options, &record.seat_names)
                }))
                .ok()?
                .ok()?;
                match &seats {
                    Ok(seats) => seat_problem(seats, &state),
                    Err(why) => Some(why.clone()),
                }
            });
            match (history.problem.clone(), outside) {
                (Some(p), _) => (history, Some(p), Mend::Rollback),
                (None, Some(p)) => (history, Some(p), Mend::Rewrite),
                // A damaged game the check finds whole (its recorded reason is not one of these
                // checks'): a rollback to its last move brings it back.
                (None, None) if record.status == GameStatus::Damaged => {
                    (history, None, Mend::Rollback)
                }
                (None, None) => (history, None, Mend::Nothing),
            }
        };
        Ok(Checkup {
            record,
            history,
            problem,
            mend,
            set_aside: false,
        })
    }
}

/// The row's problem, for a game whose record read with what could be read.
fn row_problem_of(record: &GameRecord, row: Option<String>) -> Option<String> {
    row.map(|why| match record.status {
        GameStatus::Damaged => format!("its game row cannot be read ({why})"),
        _ => why,
    })
}

impl super::Store {
    /// Takes a game out of memory (it was set aside): its waiters retry and find it damaged.
    pub(super) fn forget_live(&self, game: GameId) {
        if let Some(entry) = self.live.get(game) {
            let mut live = lock(&entry);
            self.live.evict(game, &mut live);
        }
    }
}
