//! Pure rules: state, decisions, legal actions, scoring. No IO, no Discord, no clock; all
//! randomness comes from the seeded generator stored in the state, so a game replays exactly.
//!
//! The API: [`new_game`] builds a `GameState` from options, data and a seed;
//! [`legal_decisions`] lists what a seat may decide now (sorted); [`apply`] applies one decision
//! (an illegal one returns a specific `RuleError` and changes nothing); [`apply_batch`] applies
//! several atomically; [`view`] is what one seat may see; [`final_scores`] scores a finished game;
//! [`preview`] says what a legal decision would do for the seat; [`sample`] makes up what a seat
//! cannot see, for computer players.

mod actions;
pub mod belt;
pub mod campaign;
pub mod decision;
mod effects;
mod flow;
mod luna;
pub mod missions;
mod planning;
pub mod preview;
mod round;
pub mod sample;
pub mod score;
mod setup;
pub mod state;
pub mod threats;
pub mod view;

pub use decision::{ActionSource, BonusRef, Decision, Task};
pub(crate) use effects::gas_collectors;
pub use effects::COIN_UNDERFLOW;
pub use luna::luna_majority_value;
pub use preview::{
    preview, preview_batch, reveals_hidden, undo_barrier, undo_refused_after, Preview,
};
pub use score::{final_scores, ScoreBreakdown};
pub use state::{GameState, Phase, SeatKind};
pub use view::{view, SeatView};

use crate::data::GameData;
use serde::{Deserialize, Serialize};

/// Bumped whenever a rule change would make an old game replay differently; the changed rule is
/// gated on the state's `engine_version`, so a stored game keeps the rules it was played with
/// (DECISIONS B18).
///
/// - 2: Luna draws both majority cards before carrying out their reveal icons (DECISIONS A15).
/// - 3: not used.
/// - 4 (issue 18): a Moon sector is one option (`ExpandInto`), the station column a second
///   question (`OutpostColumn`) only when it changes the share value; dropping out in the last
///   round asks nothing (which resting deck, which resting slots cannot change the outcome).
///   Games of older versions keep `EnterSector` per column and the questions.
/// - 5 (issue 19): no plan may cover the starting screen, where the upload marker stands on the
///   starting research token from setup (DECISIONS A17); older games allowed it.
pub const ENGINE_VERSION: u32 = 5;

/// Which side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BoardSide {
    #[default]
    Moon,
    Belt,
}

/// How company tracks are allotted (setup step 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TrackSetup {
    /// A1 Skymine, B1 Minerva, C1 Astrogo, D1 Tawac.
    #[default]
    Default,
    /// Via the track cards.
    Random,
    /// Track ids in company order Skymine, Minerva, Astrogo, Tawac.
    Chosen(Vec<String>),
}

/// How starting research tokens are given out (setup step 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TokenSetup {
    /// The recommended first-game tokens by seat.
    #[default]
    Fixed,
    /// Deal two, keep one (secret, simultaneous).
    Draft,
}

/// Game options: the same names everywhere (`/skymines new`, `skymines simulate`, local mode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GameOptions {
    /// Human players, 1–4.
    pub players: usize,
    /// Luna's level 0–8, or none.
    pub luna: Option<u8>,
    pub board: BoardSide,
    pub tracks: TrackSetup,
    pub tokens: TokenSetup,
    pub linked_slots: bool,
    pub missions: bool,
    pub threats: bool,
    /// Campaign chapter 1–4.
    pub chapter: Option<u8>,
    pub seed: u64,
    /// Threat cards: the card to play instead of a random one (the Time anomaly's loop plays the
    /// same card again in its next game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat_card: Option<String>,
}

/// Who may see an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Public,
    Private(usize),
}

/// Something that happened: a message key with its arguments, rendered in any language from
/// `assets/lang/<code>.toml` only when someone reads it (a search applies many decisions whose
/// events nobody reads, so the engine does not write their texts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub visibility: Visibility,
    pub key: String,
    pub args: Vec<(String, String)>,
}

impl Event {
    /// The value of the argument `name`, if the event has one.
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The event in the language of `texts` (in English if that catalog lacks the key).
    pub fn render(&self, texts: &crate::text::Texts) -> String {
        if texts.has(&self.key) {
            texts.render(&self.key, &self.args)
        } else {
            self.text()
        }
    }

    /// The English rendering.
    pub fn text(&self) -> String {
        crate::text::english().render(&self.key, &self.args)
    }
}

/// A sentence of the message catalog with its arguments: why a decision was refused or a game
/// cannot be set up. The chat layer renders it in the reader's language; its `Display` is the
/// English rendering (logs, the CLI).
///
/// Keys and argument names are the source's literals: finding the legal decisions builds a
/// refusal for every candidate that is not, so only the values are formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The catalog key (`rule.*`, `setup.*`).
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Message {
    /// The sentence `key` with its arguments, formatted now, unless the engine only asks whether
    /// something is legal (see [`reasons_unread`]): then it keeps the key alone.
    pub fn new(key: &'static str, args: &[(&'static str, &dyn std::fmt::Display)]) -> Message {
        if REASONS_UNREAD.with(std::cell::Cell::get) {
            return Message {
                key,
                args: Vec::new(),
            };
        }
        Message {
            key,
            args: args.iter().map(|(k, v)| (*k, v.to_string())).collect(),
        }
    }

    /// The sentence in the language of `texts`.
    pub fn render(&self, texts: &crate::text::Texts) -> String {
        let args: Vec<(&str, &dyn std::fmt::Display)> = self
            .args
            .iter()
            .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
            .collect();
        texts.f(self.key, &args)
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(crate::text::english()))
    }
}

/// Why a game cannot be set up. `Display` is English; [`SetupError::render`] writes it in any
/// language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub enum SetupError {
    PlayerCount(usize),
    Names(usize, usize),
    SoloNeedsLuna,
    LunaWithFour,
    LunaLevel(u8),
    ThreatsNeedBelt,
    UnknownTrack(String),
    BadTrackChoice(Vec<String>),
    UnknownChapter(u8),
    UnknownThreat(String),
}

impl SetupError {
    /// The catalog sentence that explains the error.
    pub fn message(&self) -> Message {
        match self {
            SetupError::PlayerCount(n) => Message::new("setup.player_count", &[("n", n)]),
            SetupError::Names(names, seats) => {
                Message::new("setup.names", &[("names", names), ("seats", seats)])
            }
            SetupError::SoloNeedsLuna => Message::new("setup.solo_needs_luna", &[]),
            SetupError::LunaWithFour => Message::new("setup.luna_with_four", &[]),
            SetupError::LunaLevel(level) => Message::new("setup.luna_level", &[("level", level)]),
            SetupError::ThreatsNeedBelt => Message::new("setup.threats_need_belt", &[]),
            SetupError::UnknownTrack(id) => Message::new("setup.unknown_track", &[("track", id)]),
            SetupError::BadTrackChoice(ids) => {
                Message::new("setup.bad_track_choice", &[("tracks", &ids.join(", "))])
            }
            SetupError::UnknownChapter(n) => Message::new("setup.unknown_chapter", &[("n", n)]),
            SetupError::UnknownThreat(id) => {
                Message::new("setup.unknown_threat", &[("threat", id)])
            }
        }
    }

    /// The error in the language of `texts`.
    pub fn render(&self, texts: &crate::text::Texts) -> String {
        self.message().render(texts)
    }
}

/// Why a decision was refused. The state is unchanged whenever one is returned. `Display` is
/// English; [`RuleError::render`] writes it in any language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render(crate::text::english()))]
pub enum RuleError {
    NoSuchSeat(usize),
    GameOver,
    /// The names of the seats the game waits on.
    NotYourTurn(String),
    /// The decision belongs to another phase or step (the message says what is going on).
    NotNow(Message),
    /// The game waits for another question first: the catalog key of the task (`task.*`).
    Waiting(&'static str),
    Illegal(Message),
    NotEnoughCoins {
        have: u32,
        need: u32,
    },
}

impl RuleError {
    /// The error in the language of `texts`.
    pub fn render(&self, texts: &crate::text::Texts) -> String {
        let reason = match self {
            RuleError::NoSuchSeat(seat) => Message::new("rule.no_such_seat", &[("seat", seat)]),
            RuleError::GameOver => Message::new("rule.game_over", &[]),
            RuleError::NotYourTurn(names) => {
                Message::new("rule.not_your_turn", &[("names", names)])
            }
            RuleError::NotNow(m) => Message::new("rule.not_now", &[("reason", &m.render(texts))]),
            RuleError::Waiting(task) => Message::new("rule.waiting", &[("task", &texts.t(task))]),
            RuleError::Illegal(m) => m.clone(),
            RuleError::NotEnoughCoins { have, need } => {
                Message::new("rule.not_enough_coins", &[("have", have), ("need", need)])
            }
        };
        reason.render(texts)
    }
}

thread_local! {
    /// Whether the refusals built now are only tested for legality and dropped unread.
    static REASONS_UNREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, which only asks whether decisions are legal and drops every refusal unread
/// (listing the legal decisions, the agenda looking for a task's only option): its refusals'
/// messages skip formatting their arguments, which most of the time spent finding the legal
/// decisions went into (most candidates are refused). What is legal does not change.
pub fn reasons_unread<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the previous setting back, also when `f` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            REASONS_UNREAD.with(|unread| unread.set(self.0));
        }
    }
    let _restore = Restore(REASONS_UNREAD.with(|unread| unread.replace(true)));
    f()
}

/// A refusal: the catalog sentence `key` (`rule.*`) with its arguments.
pub(crate) fn illegal(
    key: &'static str,
    args: &[(&'static str, &dyn std::fmt::Display)],
) -> RuleError {
    RuleError::Illegal(Message::new(key, args))
}

/// Builds a new game. `names` gives one name per seat in clockwise order from the first
/// player (humans first; a Luna seat, if any, is added last, to the right of the first player).
pub fn new_game(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
) -> Result<GameState, SetupError> {
    setup::new_game(data, options, names)
}

/// What the set-up of the game that begins with `start` did that players see (each seat's
/// starting research token, its starting bonus and resting cards; Luna's seat), for the game's
/// first message. The set-up is run again from `start`'s options and names; empty if that does
/// not give `start` back (a state that has moved on).
pub fn setup_events(data: &GameData, start: &GameState) -> Vec<Event> {
    let names: Vec<String> = start
        .seats
        .iter()
        .filter(|s| !s.is_luna())
        .map(|s| s.name.clone())
        .collect();
    match setup::new_game_said(data, &start.options, &names) {
        Ok((state, events)) if state == *start => events,
        _ => Vec::new(),
    }
}

/// Seats the game waits on now (simultaneous phases can wait on several).
pub fn waiting_on(state: &GameState) -> Vec<usize> {
    flow::waiting_on(state)
}

/// Where `seat` stands in the game's turns: the round, the phase and the turns it has ended
/// this round. Its turn is over between two states when this differs: in a game against Luna
/// alone her turns are played within the person's step, so the game waits on the same seat
/// again although the turn passed (who is waited on cannot tell).
pub fn turn_stamp(state: &GameState, seat: usize) -> (u8, Phase, u32) {
    let turns = state.seats.get(seat).map_or(0, |s| s.turns_this_round);
    (state.round, state.phase, turns)
}

/// Every decision `seat` may take now, in a stable sorted order. Empty when nothing is asked of
/// the seat.
pub fn legal_decisions(data: &GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    flow::legal_decisions(data, state, seat)
}

/// Applies one decision. On error the state is untouched.
pub fn apply(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    decision: Decision,
) -> Result<Vec<Event>, RuleError> {
    flow::apply(data, state, seat, decision)
}

/// Applies one decision like [`apply`] without building its events: for searches and
/// self-play that read no text (building the event texts is a large part of a decision's
/// cost). On error the state is untouched, as with [`apply`].
pub fn apply_quiet(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    decision: Decision,
) -> Result<(), RuleError> {
    flow::apply_quietly(data, state, seat, decision)
}

/// What a seat's face-up energy adds up to now (with its permanent bonus).
pub fn energy_total(data: &GameData, state: &GameState, seat: usize) -> u32 {
    effects::area_totals(data, state, seat, None).energy
}

/// The catalog key (`task.*`) of what a pending task asks.
pub fn task_description(task: &Task) -> &'static str {
    task.describe()
}

/// Applies one decision and also returns the names of the rules that fired (for coverage).
pub fn apply_traced(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    decision: Decision,
) -> Result<(Vec<Event>, Vec<&'static str>), RuleError> {
    flow::apply_traced(data, state, seat, decision)
}

/// Luna's expansion of `company` by `points` expansion points with the MIN or MAX pick, on the
/// board side in play: the rule behind her cards' "expand" actions, callable on a built
/// position (for rule tests and the booklet's examples). Returns the events.
pub fn luna_expand(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    company: crate::data::Company,
    points: u32,
    pick: crate::data::luna::SectorPick,
) -> Vec<Event> {
    let mut ctx = flow::Ctx::new(data);
    if state.seats.get(seat).is_some_and(|s| s.is_luna()) {
        luna::expand(&mut ctx, state, seat, company, points, pick);
    }
    ctx.events
}

/// Applies a batch that was accepted before (a replay of a stored log), in place and without
/// events: the same rules and checks as [`apply_batch`], for a fraction of its time (no copy of
/// the state, no event texts). Not atomic: after an error the state is half changed, so the
/// caller throws it away.
pub fn replay_batch(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    decisions: &[Decision],
) -> Result<(), RuleError> {
    decisions
        .iter()
        .try_for_each(|d| flow::apply_quietly(data, state, seat, *d))
}

/// Applies several decisions of one seat atomically: all or none.
pub fn apply_batch(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    decisions: &[Decision],
) -> Result<Vec<Event>, RuleError> {
    let mut next = state.clone();
    let mut events = Vec::new();
    for d in decisions {
        events.extend(flow::apply(data, &mut next, seat, *d)?);
    }
    *state = next;
    Ok(events)
}
