//! The game's flow: whom the game waits on, which phase's rules a decision goes to (`setup`'s
//! decisions, `planning`, the Action phase's `actions`), and the agenda runner that carries a turn
//! from one decision to the next.

use super::decision::{Decision, Task};
use super::state::{GameState, Phase};
use super::{actions, planning, setup, Event, RuleError, Visibility};
use crate::data::GameData;

/// The context of one application: the data, the events it produced, and coverage notes.
pub(crate) struct Ctx<'a> {
    pub data: &'a GameData,
    pub events: Vec<Event>,
    pub notes: Vec<&'static str>,
    /// No events: a replay throws them away, and rendering their English text was about a
    /// third of a replay's time.
    quiet: bool,
    /// The share values last said (see [`Ctx::say_share_values`]); None until watched.
    shares: Option<[u32; 4]>,
}

impl<'a> Ctx<'a> {
    pub fn new(data: &'a GameData) -> Ctx<'a> {
        Ctx {
            data,
            events: Vec::new(),
            notes: Vec::new(),
            quiet: false,
            shares: None,
        }
    }

    /// A context that records no events (the rules run the same).
    pub(crate) fn quiet(data: &'a GameData) -> Ctx<'a> {
        Ctx {
            quiet: true,
            ..Ctx::new(data)
        }
    }

    /// Whether events are recorded: a quiet context (a replay) skips building their texts.
    pub fn speaking(&self) -> bool {
        !self.quiet
    }

    /// A public event: message `key` of the catalog with its arguments.
    pub fn say(&mut self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) {
        self.push(Visibility::Public, key, args);
    }

    /// An event only `seat` may see.
    pub fn tell(&mut self, seat: usize, key: &str, args: &[(&str, &dyn std::fmt::Display)]) {
        self.push(Visibility::Private(seat), key, args);
    }

    fn push(&mut self, visibility: Visibility, key: &str, args: &[(&str, &dyn std::fmt::Display)]) {
        if self.quiet {
            return;
        }
        self.events.push(Event {
            visibility,
            key: key.to_string(),
            args: args
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        });
    }

    /// A public event given as finished English text (prefer `say`: this one cannot be
    /// translated).
    #[allow(dead_code)]
    pub fn public(&mut self, text: String) {
        self.say("event.text", &[("text", &text)]);
    }

    /// A private event given as finished English text (prefer `tell`).
    #[allow(dead_code)]
    pub fn private(&mut self, seat: usize, text: String) {
        self.tell(seat, "event.text", &[("text", &text)]);
    }

    /// Starts watching the share values: from now on [`Ctx::say_share_values`] says each
    /// company's change since the last time it spoke.
    pub fn watch_share_values(&mut self, state: &GameState) {
        if !self.quiet {
            self.shares = Some(share_values(self.data, state));
        }
    }

    /// Says each company whose share value changed since it was last said ("Share value of
    /// Minerva Corp.: 2 → 1 CrypCoin"): derived from the stations, so no rule that moves an
    /// outpost can leave it unsaid (DECISIONS B20). Said step by step; the chat layer reads a
    /// run of them as one change, after the expansion's line.
    pub fn say_share_values(&mut self, state: &GameState) {
        // Unwatched (a quiet replay or search): no share value is worked out to be dropped.
        if self.shares.is_none() {
            return;
        }
        for c in crate::data::Company::ALL {
            self.say_share_value(c, state.share_value(self.data, c));
        }
    }

    /// Says `company`'s share value change since it was last said, to `now`: right after the
    /// line of the oust or expansion that changed it. A rule that moves several pieces before
    /// it says them (Luna's expansion) passes the value each piece left, one line per oust.
    pub fn say_share_value(&mut self, company: crate::data::Company, now: u32) {
        let Some(was) = self.shares.as_mut() else {
            return;
        };
        let from = std::mem::replace(&mut was[company.index()], now);
        if from != now {
            let name = self.data.company_name(company);
            self.say(
                "event.share_value",
                &[("company", &name), ("from", &from), ("to", &now)],
            );
        }
    }

    /// Records that a rule fired (for `decision_coverage`).
    pub fn count(&mut self, note: &'static str) {
        self.notes.push(note);
    }
}

pub(crate) fn waiting_on(state: &GameState) -> Vec<usize> {
    match state.phase {
        Phase::Setup => (0..state.seats.len())
            .filter(|&s| {
                let seat = &state.seats[s];
                (seat.token.is_none() && !seat.token_choices.is_empty())
                    || !seat.pending_rest.is_empty()
            })
            .collect(),
        Phase::Planning => (0..state.seats.len())
            .filter(|&s| !state.seats[s].planned && !state.seats[s].is_luna())
            .collect(),
        Phase::Action => state
            .agenda
            .last()
            .map(|t| vec![t.seat()])
            .unwrap_or_default(),
        Phase::Finished => Vec::new(),
    }
}

/// Whether a seat may decide anything now: the seats waited on, and in the Planning phase also
/// those who have planned (they may still take their plan back until everyone has planned).
fn may_decide(state: &GameState, seat: usize) -> bool {
    match state.phase {
        Phase::Planning => !state.seats[seat].is_luna(),
        _ => waiting_on(state).contains(&seat),
    }
}

pub(crate) fn legal_decisions(data: &GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    if seat >= state.seats.len() || !may_decide(state, seat) {
        return Vec::new();
    }
    let mut out: Vec<Decision> = super::reasons_unread(|| {
        candidates(data, state, seat)
            .into_iter()
            .filter(|d| check(data, state, seat, *d).is_ok())
            .collect()
    });
    out.sort();
    out.dedup();
    out
}

/// A superset of the legal decisions; `check` filters it.
fn candidates(data: &GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    match state.phase {
        Phase::Setup => setup::decision_candidates(data, state, seat),
        Phase::Planning => planning::candidates(state, seat),
        Phase::Action => match state.agenda.last() {
            Some(task) => actions::candidates(data, state, task),
            None => Vec::new(),
        },
        Phase::Finished => Vec::new(),
    }
}

/// Validates without changing anything.
fn check(data: &GameData, state: &GameState, seat: usize, d: Decision) -> Result<(), RuleError> {
    let mut ctx = Ctx::new(data);
    resolve_dry(&mut ctx, state, seat, d)
}

fn resolve_dry(
    ctx: &mut Ctx,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    match state.phase {
        Phase::Setup => setup::check_decision(ctx.data, state, seat, d),
        Phase::Planning => planning::check(ctx.data, state, seat, d),
        Phase::Action => actions::check(ctx.data, state, seat, d),
        Phase::Finished => Err(RuleError::GameOver),
    }
}

pub(crate) fn apply(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    d: Decision,
) -> Result<Vec<Event>, RuleError> {
    apply_traced(data, state, seat, d).map(|(events, _)| events)
}

/// Applies a decision and also returns the notes of the rules that fired.
pub(crate) fn apply_traced(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    d: Decision,
) -> Result<(Vec<Event>, Vec<&'static str>), RuleError> {
    let mut ctx = Ctx::new(data);
    apply_in(&mut ctx, state, seat, d)?;
    Ok((ctx.events, ctx.notes))
}

/// Applies a decision without recording its events (a replay's).
pub(crate) fn apply_quietly(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    apply_in(&mut Ctx::quiet(data), state, seat, d)
}

fn apply_in(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    if seat >= state.seats.len() {
        return Err(RuleError::NoSuchSeat(seat));
    }
    if state.phase == Phase::Finished {
        return Err(RuleError::GameOver);
    }
    let waiting = waiting_on(state);
    if !may_decide(state, seat) {
        let names: Vec<&str> = waiting
            .iter()
            .map(|s| state.seats[*s].name.as_str())
            .collect();
        return Err(RuleError::NotYourTurn(names.join(", ")));
    }
    resolve_dry(ctx, state, seat, d)?;
    ctx.count(d.kind());
    ctx.watch_share_values(state);
    match state.phase {
        Phase::Setup => setup::perform_decision(ctx, state, seat, d),
        Phase::Planning => planning::perform(ctx, state, seat, d),
        Phase::Action => actions::perform(ctx, state, seat, d),
        Phase::Finished => return Err(RuleError::GameOver),
    }
    ctx.say_share_values(state);
    run_agenda(ctx, state);
    ctx.say_share_values(state);
    state.decisions_applied += 1;
    Ok(())
}

/// The share value of every company, by company index.
fn share_values(data: &GameData, state: &GameState) -> [u32; 4] {
    crate::data::Company::ALL.map(|c| state.share_value(data, c))
}

/// Runs automatic tasks and resolves tasks with a single legal option, until a real choice is
/// needed or the phase changes.
pub(crate) fn run_agenda(ctx: &mut Ctx, state: &mut GameState) {
    run_agenda_until(ctx, state, |_| false);
}

/// [`run_agenda`] that also stops before a task `stop` picks (returns whether it stopped there).
fn run_agenda_until(ctx: &mut Ctx, state: &mut GameState, stop: impl Fn(&Task) -> bool) -> bool {
    loop {
        if state.phase != Phase::Action {
            return false;
        }
        let Some(task) = state.agenda.last().cloned() else {
            return false;
        };
        if stop(&task) {
            return true;
        }
        if actions::run_auto(ctx, state, &task) {
            ctx.say_share_values(state);
            continue;
        }
        if matches!(task, Task::ChooseAction { .. }) {
            return false;
        }
        let seat = task.seat();
        // Only whether there is exactly one option matters: stop at the second.
        let options: Vec<Decision> = super::reasons_unread(|| {
            actions::candidates(ctx.data, state, &task)
                .into_iter()
                .filter(|d| actions::check(ctx.data, state, seat, *d).is_ok())
                .take(2)
                .collect()
        });
        match options.as_slice() {
            [only] => {
                ctx.count(only.kind());
                actions::perform(ctx, state, seat, *only);
                ctx.say_share_values(state);
            }
            _ => return false,
        }
    }
}

/// Applies a decision `check` accepts, running the automatic tasks after it only up to the end
/// of `seat`'s turn: what the decision does within the turn, with no other seat's turn (Luna's
/// cards) and no new round. Returns the events and whether the turn's end was reached.
pub(crate) fn apply_within_turn(
    data: &GameData,
    state: &mut GameState,
    seat: usize,
    d: Decision,
) -> Result<(Vec<Event>, bool), RuleError> {
    if state.phase != Phase::Action {
        return apply(data, state, seat, d).map(|events| (events, false));
    }
    let mut ctx = Ctx::new(data);
    resolve_dry(&mut ctx, state, seat, d)?;
    ctx.watch_share_values(state);
    actions::perform(&mut ctx, state, seat, d);
    ctx.say_share_values(state);
    let ends = run_agenda_until(&mut ctx, state, |t| matches!(t, Task::EndTurn { .. }));
    ctx.say_share_values(state);
    Ok((ctx.events, ends))
}
