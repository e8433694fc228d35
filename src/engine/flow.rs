//! The game's flow: whom the game waits on, the simultaneous phases (setup, planning), and the
//! agenda runner that carries a turn from one decision to the next.

use super::decision::{Decision, Task};
use super::setup::apply_token;
use super::state::{GameState, Phase, SlotCard};
use super::{actions, illegal, round, Event, Message, RuleError, Visibility};
use crate::data::GameData;

/// The context of one application: the data, the events it produced, and coverage notes.
pub(crate) struct Ctx<'a> {
    pub data: &'a GameData,
    pub events: Vec<Event>,
    pub notes: Vec<&'static str>,
}

impl<'a> Ctx<'a> {
    pub fn new(data: &'a GameData) -> Ctx<'a> {
        Ctx {
            data,
            events: Vec::new(),
            notes: Vec::new(),
        }
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
        let Message { key, args } = Message::new(key, args);
        let text = crate::text::english().render(&key, &args);
        self.events.push(Event {
            visibility,
            key,
            args,
            text,
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
    let mut out: Vec<Decision> = candidates(data, state, seat)
        .into_iter()
        .filter(|d| check(data, state, seat, *d).is_ok())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A superset of the legal decisions; `check` filters it.
fn candidates(data: &GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    let s = &state.seats[seat];
    match state.phase {
        Phase::Setup => {
            let mut out: Vec<Decision> = s
                .token_choices
                .iter()
                .map(|t| Decision::KeepToken { token: *t as u8 })
                .collect();
            for card in &s.pending_rest {
                for slot in &data.player_board.resting_slots.central {
                    out.push(Decision::RestStartingCard {
                        card: *card,
                        slot: (*slot - 1) as u8,
                    });
                }
            }
            out
        }
        Phase::Planning => {
            let mut out = vec![Decision::PlanDone, Decision::PlanClear];
            for card in &s.hand {
                for slot in 0..5u8 {
                    out.push(Decision::PlanCard { card: *card, slot });
                }
            }
            out
        }
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
        Phase::Setup => setup_check(ctx.data, state, seat, d),
        Phase::Planning => planning_check(ctx.data, state, seat, d),
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
    let mut ctx = Ctx::new(data);
    resolve_dry(&mut ctx, state, seat, d)?;
    ctx.count(d.kind());
    match state.phase {
        Phase::Setup => setup_perform(&mut ctx, state, seat, d),
        Phase::Planning => planning_perform(&mut ctx, state, seat, d),
        Phase::Action => actions::perform(&mut ctx, state, seat, d),
        Phase::Finished => return Err(RuleError::GameOver),
    }
    run_agenda(&mut ctx, state);
    state.decisions_applied += 1;
    Ok((ctx.events, ctx.notes))
}

/// Runs automatic tasks and resolves tasks with a single legal option, until a real choice is
/// needed or the phase changes.
pub(crate) fn run_agenda(ctx: &mut Ctx, state: &mut GameState) {
    loop {
        if state.phase != Phase::Action {
            return;
        }
        let Some(task) = state.agenda.last().cloned() else {
            return;
        };
        if actions::run_auto(ctx, state, &task) {
            continue;
        }
        if matches!(task, Task::ChooseAction { .. }) {
            return;
        }
        let seat = task.seat();
        let options: Vec<Decision> = actions::candidates(ctx.data, state, &task)
            .into_iter()
            .filter(|d| actions::check(ctx.data, state, seat, *d).is_ok())
            .collect();
        match options.as_slice() {
            [only] => {
                ctx.count(only.kind());
                actions::perform(ctx, state, seat, *only)
            }
            _ => return,
        }
    }
}

/// Validates a setup decision.
fn setup_check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match d {
        Decision::KeepToken { token } => {
            if s.token.is_some() {
                return Err(illegal("rule.token_chosen", &[]));
            }
            if !s.token_choices.contains(&(token as usize)) {
                return Err(illegal("rule.token_not_dealt", &[]));
            }
            Ok(())
        }
        Decision::RestStartingCard { card, slot } => {
            if !s.pending_rest.contains(&card) {
                return Err(illegal("rule.not_a_starting_card", &[]));
            }
            let central = &data.player_board.resting_slots.central;
            if !central.contains(&(slot as usize + 1)) {
                return Err(illegal("rule.starting_slots", &[]));
            }
            if !s.resting[slot as usize].is_empty() {
                return Err(illegal("rule.resting_slot_taken", &[]));
            }
            Ok(())
        }
        _ => Err(RuleError::NotNow(Message::new("rule.setting_up", &[]))),
    }
}

/// Carries out a validated setup decision.
fn setup_perform(ctx: &mut Ctx, st: &mut GameState, seat: usize, d: Decision) {
    match d {
        Decision::KeepToken { token } => {
            let seat_state = &mut st.seats[seat];
            let other: Vec<usize> = seat_state
                .token_choices
                .iter()
                .copied()
                .filter(|t| *t != token as usize)
                .collect();
            seat_state.token = Some(token as usize);
            st.spare_tokens.extend(other);
            ctx.tell(
                seat,
                "event.token_kept",
                &[(
                    "token",
                    &ctx.data.research.starting_tokens[token as usize].id,
                )],
            );
            if st.seats.iter().all(|x| x.is_luna() || x.token.is_some()) {
                // Everyone has chosen: reveal together and carry out step 13.
                let humans: Vec<usize> = (0..st.seats.len())
                    .filter(|i| !st.seats[*i].is_luna())
                    .collect();
                for i in humans {
                    st.seats[i].token_choices.clear();
                    apply_token(ctx, st, i);
                    let id = st.seats[i]
                        .token
                        .map(|t| ctx.data.research.starting_tokens[t].id.clone())
                        .unwrap_or_default();
                    ctx.say(
                        "event.token_revealed",
                        &[("name", &st.seats[i].name), ("token", &id)],
                    );
                }
            }
        }
        Decision::RestStartingCard { card, slot } => {
            let seat_state = &mut st.seats[seat];
            seat_state.pending_rest.retain(|c| *c != card);
            seat_state.hand.retain(|c| *c != card);
            seat_state.resting[slot as usize].push(card);
        }
        _ => {}
    }
    if st.seats.iter().all(|s| s.setup_done()) {
        st.phase = Phase::Planning;
    }
}

/// Validates a planning decision.
fn planning_check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match d {
        Decision::PlanCard { card, slot } => {
            if s.planned {
                return Err(illegal("rule.planning_done_clear", &[]));
            }
            if !s.hand.contains(&card) {
                return Err(illegal("rule.card_not_in_hand", &[]));
            }
            if !data.card(card).is_playable() {
                return Err(illegal("rule.single_share_slot", &[]));
            }
            if slot as usize >= s.slots.len() || !s.slot_on[slot as usize] {
                return Err(illegal("rule.slot_off", &[("slot", &(slot + 1))]));
            }
            if s.slots[slot as usize].is_some() {
                return Err(illegal("rule.slot_taken", &[("slot", &(slot + 1))]));
            }
            Ok(())
        }
        Decision::PlanClear => {
            if !s.planned && s.slots.iter().all(Option::is_none) {
                return Err(illegal("rule.nothing_planned", &[]));
            }
            Ok(())
        }
        Decision::PlanDone => {
            if s.planned {
                return Err(illegal("rule.planning_done", &[]));
            }
            Ok(())
        }
        _ => Err(RuleError::NotNow(Message::new("rule.planning_phase", &[]))),
    }
}

/// Carries out a validated planning decision.
fn planning_perform(ctx: &mut Ctx, st: &mut GameState, seat: usize, d: Decision) {
    match d {
        Decision::PlanCard { card, slot } => {
            st.seats[seat].hand.retain(|c| *c != card);
            st.seats[seat].slots[slot as usize] = Some(SlotCard::Planned(card));
        }
        Decision::PlanClear => {
            let seat_state = &mut st.seats[seat];
            for slot in seat_state.slots.iter_mut() {
                if let Some(c) = slot.take() {
                    seat_state.hand.push(c.card());
                }
            }
            seat_state.planned = false;
        }
        Decision::PlanDone => {
            st.seats[seat].planned = true;
            let name = st.seats[seat].name.clone();
            let n = st.seats[seat].slots.iter().flatten().count();
            ctx.say("event.planned", &[("name", &name), ("n", &n)]);
            maybe_reveal(ctx, st);
        }
        _ => {}
    }
}

/// Once every seat has planned, all cards are revealed together and the Action phase begins.
fn maybe_reveal(ctx: &mut Ctx, state: &mut GameState) {
    if state.seats.iter().any(|s| !s.planned && !s.is_luna()) {
        return;
    }
    // Luna deals her face-down cards after the humans have placed theirs.
    super::luna::deal(ctx, state);
    for s in state.seats.iter_mut() {
        for slot in s.slots.iter_mut() {
            if let Some(SlotCard::Planned(c)) = *slot {
                *slot = Some(SlotCard::Up(c));
            }
        }
    }
    let data = ctx.data;
    for i in (0..state.seats.len()).filter(|i| !state.seats[*i].is_luna()) {
        let cards: Vec<String> = state.seats[i]
            .slots
            .iter()
            .flatten()
            .map(|c| data.card(c.card()).label())
            .collect();
        let cards = if cards.is_empty() {
            "-".to_string()
        } else {
            cards.join(", ")
        };
        ctx.say(
            "event.reveals",
            &[("name", &state.seats[i].name), ("cards", &cards)],
        );
    }
    // After the humans' cards are face up, Luna fills her majority slots.
    super::luna::reveal_majority(ctx, state);
    round::start_action_phase(ctx, state);
}
