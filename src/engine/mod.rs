//! Pure rules: state, decisions, legal actions, scoring. No IO, no Discord, no clock; all
//! randomness comes from the seeded generator stored in the state, so a game replays exactly.
//!
//! The API: [`new_game`] builds a `GameState` from options, data and a seed;
//! [`legal_decisions`] lists what a seat may decide now (sorted); [`apply`] applies one decision
//! (an illegal one returns a specific `RuleError` and changes nothing); [`apply_batch`] applies
//! several atomically; [`view`] is what one seat may see; [`final_scores`] scores a finished game.

pub mod belt;
pub mod campaign;
pub mod decision;
mod effects;
mod flow;
mod luna;
pub mod missions;
mod round;
pub mod score;
mod setup;
pub mod state;
mod tasks;
pub mod threats;
pub mod view;

pub use decision::{ActionSource, BonusRef, Decision, Task};
pub use effects::COIN_UNDERFLOW;
pub use score::{final_scores, ScoreBreakdown};
pub use state::{GameState, Phase, SeatKind};
pub use view::{view, SeatView};

use crate::data::GameData;
use serde::{Deserialize, Serialize};

/// Bumped whenever a rule change would make an old game replay differently.
pub const ENGINE_VERSION: u32 = 1;

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

/// Something that happened: a message key with its arguments (rendered in any language from
/// `assets/lang/<code>.toml`) and its English text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub visibility: Visibility,
    pub key: String,
    pub args: Vec<(String, String)>,
    /// The English rendering.
    pub text: String,
}

impl Event {
    /// The event in the language of `texts` (English text if the catalog lacks the key).
    pub fn render(&self, texts: &crate::text::Texts) -> String {
        if texts.has(&self.key) {
            texts.render(&self.key, &self.args)
        } else {
            self.text.clone()
        }
    }
}

/// Why a game cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a game needs 1 to 4 human players, not {0}")]
    PlayerCount(usize),
    #[error("{0} names given for {1} seats")]
    Names(usize, usize),
    #[error("solo play needs Luna (choose a level 0-8)")]
    SoloNeedsLuna,
    #[error("Luna joins games of 1 to 3 humans, not 4")]
    LunaWithFour,
    #[error("Luna's level is 0 to 8, not {0}")]
    LunaLevel(u8),
    #[error("threat cards are played only on the Belt side")]
    ThreatsNeedBelt,
    #[error("unknown track `{0}`")]
    UnknownTrack(String),
    #[error("chosen tracks must name 4 different physical tracks, one per company, got {0:?}")]
    BadTrackChoice(Vec<String>),
    #[error("{0} is not available yet in this version")]
    NotYetAvailable(&'static str),
    #[error("the campaign has chapters 1 to 4, not {0}")]
    UnknownChapter(u8),
    #[error("there is no threat card `{0}`")]
    UnknownThreat(String),
}

/// Why a decision was refused. The state is unchanged whenever one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(usize),
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn (waiting for {0})")]
    NotYourTurn(String),
    #[error("that is not possible now: {0}")]
    NotNow(String),
    #[error("{0}")]
    Illegal(String),
    #[error("you have {have} CrypCoin; that costs {need}")]
    NotEnoughCoins { have: u32, need: u32 },
}

pub(crate) fn illegal(msg: impl Into<String>) -> RuleError {
    RuleError::Illegal(msg.into())
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

/// Seats the game waits on now (simultaneous phases can wait on several).
pub fn waiting_on(state: &GameState) -> Vec<usize> {
    flow::waiting_on(state)
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

/// What a seat's face-up energy adds up to now (with its permanent bonus).
pub fn energy_total(data: &GameData, state: &GameState, seat: usize) -> u32 {
    effects::area_totals(data, state, seat, None).energy
}

/// What a pending task asks, in words.
pub fn task_description(task: &Task) -> &'static str {
    tasks::describe(task)
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
