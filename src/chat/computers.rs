//! Computer players in a running game (issue 23, DECISIONS B16). A seat no person holds
//! (`SeatOwner::Vacant`: seated as a computer player, or its player left or was kicked) is
//! played by [`bots::decide`] at the game's level, from that seat's view only. Whenever a game
//! waits on such a seat, its computer players move one after another until the game waits on a
//! person (or is paused or over). Each computer move is one seat's whole turn (or its planning
//! or set-up), thought out on the game at one move number and stored as one move in one
//! transaction, refused if the game moved on meanwhile; it is announced like anyone's turn, in
//! one public message, pinging only the person whose turn comes next. Computer turns in a row
//! (once the people have dropped out) share that message: it goes out when a person is waited
//! on again or the phase ends, so the channel does not fill with one message per computer turn.
//!
//! The chat runs on the Discord adapter's blocking pool, never on the async workers, and holds
//! no game's lock while a computer player thinks: other games go on. A restart in the middle of
//! computer turns resumes them at the timer's next tick ([`Chat::resume_computers`]).

use super::game::Actor;
use super::{Chat, Reply, Texts};
use crate::bots::{self, Budget, Level};
use crate::data::GameData;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision};
use crate::store::{GameId, SeatOwner, StoreError};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// At most this many computer moves in a row (a game of computer players and people who have
/// dropped out ends well before).
const MOVES_MAX: usize = 2_000;
/// At most this many decisions in one computer move (a turn asks far fewer).
const STEPS_MAX: usize = 64;

impl Chat {
    /// The level a game's computer players play at.
    pub(crate) fn computer_level(&self, game: GameId) -> Level {
        self.logged(
            "cannot read the computer players' level: they play at the default level",
            self.store.games().bot_level(game),
        )
        .and_then(|name| Level::from_name(&name))
        .unwrap_or_default()
    }

    /// Plays the computer players the game waits on, one move after another, until it waits on
    /// people only (or is paused or over); returns every announcement.
    pub(crate) fn play_computers(&self, game: GameId) -> Vec<Reply> {
        let mut replies = Vec::new();
        let level = self.computer_level(game);
        for _ in 0..MOVES_MAX {
            if !self.store.games().is_live(game) {
                break;
            }
            match self.store.schedule().paused_at(game) {
                Ok(None) => {}
                Ok(Some(_)) => break,
                Err(e) => {
                    tracing::warn!(game, error = %e, "cannot tell whether the game is paused: its computer players wait for the next tick");
                    break;
                }
            }
            let Some(seat) = self.computer_waited_on(game) else {
                break;
            };
            match self.computer_move(game, seat, level) {
                Ok(Some(announced)) => replies.extend(announced),
                Ok(None) => break,
                // Someone else moved while it thought: it thinks again on the game as it is.
                Err(StoreError::MovedOn(_)) => continue,
                Err(e) => {
                    tracing::warn!(game, seat, error = %e, "a computer player's move failed");
                    break;
                }
            }
        }
        replies
    }

    /// Plays the computer players of every running game that waits on one: after a restart in
    /// the middle of their turns, or a move the store could not take at the time.
    pub fn resume_computers(&self) -> Vec<Reply> {
        self.store
            .games()
            .live_games()
            .into_iter()
            .filter(|game| self.computer_waited_on(*game).is_some())
            .flat_map(|game| self.play_computers(game))
            .collect()
    }

    /// A computer player's seat the game waits on now.
    fn computer_waited_on(&self, game: GameId) -> Option<usize> {
        let unread = "cannot read the game: its computer players wait for the next tick";
        let state = self.logged(unread, self.store.games().state(game))?;
        let waiting = engine::waiting_on(&state);
        if waiting.is_empty() {
            return None;
        }
        self.logged(unread, self.store.people().seats(game))?
            .into_iter()
            .find(|s| s.owner == SeatOwner::Vacant && waiting.contains(&s.seat))
            .map(|s| s.seat)
    }

    /// One computer move of `seat`, stored and announced (None: it had nothing to decide).
    fn computer_move(
        &self,
        game: GameId,
        seat: usize,
        level: Level,
    ) -> Result<Option<Vec<Reply>>, StoreError> {
        let (state, seq) = self.store.games().live_state(game)?;
        let mut rng = ChaCha8Rng::seed_from_u64(thinking_seed(game, seq, seat));
        let decisions = think(&self.data, &state, seat, level, &mut rng);
        if decisions.is_empty() {
            return Ok(None);
        }
        // What the move implies for the schedule is stored with it, in its transaction.
        let plan = self.wait_plan(game)?;
        let actor = Actor::Computer { seat };
        let outcome = self.store.games().apply_at(
            game,
            seat,
            &decisions,
            seq,
            &Self::move_effects(&plan, actor),
        )?;
        Ok(Some(self.after_move(
            game,
            &outcome.state,
            outcome.seq,
            &outcome.events,
            actor,
            Some(&state),
        )))
    }
}

/// A level in words, in `texts`' language.
pub(crate) fn level_words(texts: &Texts, level: Level) -> String {
    texts.t(&format!("bot.level.{}", level.name()))
}

/// The seed of a computer player's generator for one move: from the game's id, the move number
/// and the seat, so a game plays the same way again; never from the game's own seed or
/// generator (the deck order follows from those, DECISIONS B16).
fn thinking_seed(game: GameId, seq: u64, seat: usize) -> u64 {
    (game as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seq.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(seat as u64)
}

/// What the computer player at `seat` decides from `state`, step by step, until its turn is
/// over: it is no longer waited on, the phase or round changes, or (action phase) a decision
/// ended its turn. Each step is [`bots::decide`] on the state after the steps before, which sees
/// only the seat's view.
pub(crate) fn think(
    data: &GameData,
    state: &GameState,
    seat: usize,
    level: Level,
    rng: &mut ChaCha8Rng,
) -> Vec<Decision> {
    let budget = Budget::for_play(level);
    let mut scratch = state.clone();
    let mut decisions = Vec::new();
    while decisions.len() < STEPS_MAX && engine::waiting_on(&scratch).contains(&seat) {
        let Some(d) = bots::decide(level, data, &scratch, seat, rng, budget) else {
            break;
        };
        // A seat that plays alone in the action phase is waited on again right after its turn.
        let ends_turn = scratch.phase == Phase::Action
            && engine::preview(data, &scratch, seat, d).is_ok_and(|p| p.ends_turn);
        if engine::apply(data, &mut scratch, seat, d).is_err() {
            break;
        }
        decisions.push(d);
        if ends_turn || scratch.phase != state.phase || scratch.round != state.round {
            break;
        }
    }
    decisions
}
