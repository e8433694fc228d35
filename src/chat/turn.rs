//! One public message per turn (DECISIONS B15): the public lines of a turn's steps are gathered
//! here and posted together when the turn ends (the game waits on someone else, the phase or
//! round changes, or the bot moved), with the ping of the player whose turn it is when there is
//! one. The lines are kept in memory, one entry per step and seat, so an undone step loses its
//! lines. Memory is only a cache of what the stored log says: a chat layer that has not seen a
//! game's turn begin (after a restart) rebuilds the turn's steps from the log before it adds
//! the next one, so a turn interrupted by a restart is still posted whole.

use super::game::Actor;
use super::Chat;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Event, Visibility};
use crate::store::{replay, GameId, LogEntry, SeatOwner};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// One step of a turn: the seat that moved (None: the bot) and the step's public lines.
type Step = (Option<usize>, Vec<String>);

/// The public lines of each game's turn so far, step by step. A game this chat layer has seen
/// a turn of has an entry (empty between turns); a game without one is rebuilt from its log.
#[derive(Default)]
pub(crate) struct TurnLines(Mutex<BTreeMap<GameId, Vec<Step>>>);

impl TurnLines {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<GameId, Vec<Step>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Chat {
    /// Whether a step ends the turn (see [`ends_turn`]), the seats' people as they are now.
    pub(crate) fn ends_turn(
        &self,
        game: GameId,
        actor: Actor,
        before: Option<&GameState>,
        after: &GameState,
    ) -> bool {
        ends_turn(actor, before, after, |seat| {
            self.user_of(game, seat).is_some()
        })
    }

    /// The public lines of a step's events, in the game's language.
    pub(crate) fn public_lines(&self, game: GameId, events: &[Event]) -> Vec<String> {
        let texts = self.game_texts(game);
        events
            .iter()
            .filter(|e| e.visibility == Visibility::Public)
            .map(|e| e.render(texts))
            .collect()
    }

    /// Adds the public lines of a step (log entry `version`) to the game's turn; when
    /// `turn_over`, returns every line gathered (and forgets them), otherwise nothing.
    pub(crate) fn gather_turn(
        &self,
        game: GameId,
        version: u64,
        seat: Option<usize>,
        lines: Vec<String>,
        turn_over: bool,
    ) -> Vec<String> {
        let known = self.turn_lines.lock().contains_key(&game);
        // Rebuilt outside the lock: a replay must not hold up the other games' moves.
        let rebuilt = if known {
            Vec::new()
        } else {
            self.rebuild_turn(game, version)
        };
        let mut map = self.turn_lines.lock();
        let steps = map.entry(game).or_insert(rebuilt);
        steps.push((seat, lines));
        if !turn_over {
            return Vec::new();
        }
        std::mem::take(steps)
            .into_iter()
            .flat_map(|(_, lines)| lines)
            .collect()
    }

    /// Forgets the lines of `seat`'s last step in `game` (the step was undone). A game not in
    /// memory needs nothing: its rebuild leaves undone steps out.
    pub(crate) fn forget_last_step(&self, game: GameId, seat: usize) {
        if let Some(steps) = self.turn_lines.lock().get_mut(&game) {
            if let Some(i) = steps.iter().rposition(|(s, _)| *s == Some(seat)) {
                steps.remove(i);
            }
        }
    }

    /// Forgets a finished game's turn.
    pub(crate) fn forget_turn(&self, game: GameId) {
        self.turn_lines.lock().remove(&game);
    }

    /// The steps of the turn under way before log entry `version`, rebuilt from the stored
    /// log: the batches in effect after the last rollback (which, like the start, ended a
    /// turn), replayed with their events, cut after each step that [`Chat::ends_turn`]. Who
    /// moved is read from the seats as they are now (a seat no person holds is a computer
    /// player's); a stalled turn the bot played counts as its seat's step. Nothing when the
    /// log cannot be read or replayed (then the turn goes out with the lines from here on,
    /// as before).
    fn rebuild_turn(&self, game: GameId, version: u64) -> Vec<Step> {
        let read = self
            .store
            .game(game)
            .and_then(|rec| Ok((rec, self.store.log(game)?)));
        let (rec, mut log) = match read {
            Ok(x) => x,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the log to rebuild the turn");
                return Vec::new();
            }
        };
        log.retain(|e| e.seq() < version);
        let undone = replay::undone_set(&log);
        let restart = log
            .iter()
            .rposition(|e| matches!(e, LogEntry::Rollback { .. }))
            .map_or(0, |i| i + 1);
        let start = replay::initial_state(&self.data, &rec.options, &rec.seat_names)
            .and_then(|start| replay::replay_onto(&self.data, start, &log[..restart], &undone));
        let mut state = match start {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot replay the log to rebuild the turn");
                return Vec::new();
            }
        };
        let people: Vec<usize> = match self.store.seats(game) {
            Ok(seats) => seats
                .iter()
                .filter(|s| matches!(s.owner, SeatOwner::Discord(_)))
                .map(|s| s.seat)
                .collect(),
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the seats to rebuild the turn");
                return Vec::new();
            }
        };
        let mut steps = Vec::new();
        for entry in &log[restart..] {
            let LogEntry::Batch {
                seq,
                seat,
                decisions,
                ..
            } = entry
            else {
                continue;
            };
            if undone.contains(seq) {
                continue;
            }
            let before = state.clone();
            let events = match engine::apply_batch(&self.data, &mut state, *seat, decisions) {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!(game, seq, error = %e, "cannot replay a move to rebuild the turn");
                    return Vec::new();
                }
            };
            // (Who moved matters, not as whom: a person's user id plays no part in the rule.)
            let actor = if people.contains(seat) {
                Actor::Person {
                    seat: *seat,
                    user: 0,
                }
            } else {
                Actor::Computer { seat: *seat }
            };
            steps.push((Some(*seat), self.public_lines(game, &events)));
            if ends_turn(actor, Some(&before), &state, |s| people.contains(&s)) {
                steps.clear();
            }
        }
        steps
    }
}

/// Whether a step ends the turn, so its lines and the turn's earlier ones go out now: `actor`
/// moved from `before` (None: the game starts) to `after`; `person(seat)` says whether a person
/// plays the seat. The one rule for live moves and for a turn rebuilt from the log. Planning
/// and the set-up are simultaneous: their lines go out with the phase's end. A computer
/// player's move in the action phase is its whole turn; computer turns in a row (the people
/// have dropped out) go out together when a person is waited on again or the phase ends, not
/// as a message each.
fn ends_turn(
    actor: Actor,
    before: Option<&GameState>,
    after: &GameState,
    person: impl Fn(usize) -> bool,
) -> bool {
    let same_phase = before.is_some_and(|b| b.phase == after.phase && b.round == after.round);
    let waiting = engine::waiting_on(after);
    match actor {
        Actor::Nobody => true,
        _ if !same_phase => true,
        Actor::Computer { .. } => {
            after.phase == Phase::Action && waiting.iter().any(|s| person(*s))
        }
        Actor::Person { .. } => {
            after.phase == Phase::Action
                && before.map(engine::waiting_on).unwrap_or_default() != waiting
        }
    }
}
