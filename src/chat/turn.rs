//! One public message per turn (DECISIONS B15): the public lines of a turn's steps are gathered
//! here and posted together when the turn ends (the game waits on someone else, the phase or
//! round changes, or the bot moved), with the ping of the player whose turn it is when there is
//! one. The lines are kept in memory, one entry per step and seat, so an undone step loses its
//! lines; after a restart, what is left of a turn is posted with its next step's lines only.

use super::Chat;
use crate::store::GameId;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// One step of a turn: the seat that moved (None: the bot) and the step's public lines.
type Step = (Option<usize>, Vec<String>);

/// The public lines of each game's turn so far, step by step.
#[derive(Default)]
pub(crate) struct TurnLines(Mutex<BTreeMap<GameId, Vec<Step>>>);

impl Chat {
    /// Adds a step's public lines to the game's turn; when `turn_over`, returns every line
    /// gathered (and forgets them), otherwise nothing.
    pub(crate) fn gather_turn(
        &self,
        game: GameId,
        seat: Option<usize>,
        lines: Vec<String>,
        turn_over: bool,
    ) -> Vec<String> {
        let mut map = self.turn_lines.0.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(game).or_default().push((seat, lines));
        if !turn_over {
            return Vec::new();
        }
        map.remove(&game)
            .unwrap_or_default()
            .into_iter()
            .flat_map(|(_, lines)| lines)
            .collect()
    }

    /// Forgets the lines of `seat`'s last step in `game` (the step was undone).
    pub(crate) fn forget_last_step(&self, game: GameId, seat: usize) {
        let mut map = self.turn_lines.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(steps) = map.get_mut(&game) {
            if let Some(i) = steps.iter().rposition(|(s, _)| *s == Some(seat)) {
                steps.remove(i);
            }
        }
    }
}
