//! The "Mission cards" module (rulebook, "Module: Mission cards", p. 25): the face-up mission cards
//! (1 for 1–2 humans, 2 for 3–4; Luna does not count and ignores them), each human's mission status
//! card with three one-time bonus markers, claiming a task (a decision — never an action — offered
//! before the action is chosen and again once it has resolved), the per-action counters the "single
//! action" tasks read, the one-time markers' removal at the next Preparation phase, and the
//! personal bonus space unlocked once all three tasks are done.
//!
//! What each task counts is defined by missions.toml (its header comment); `metric_value` is the
//! one place that reads a metric.

use super::decision::Task;
use super::effects;
use super::flow::Ctx;
use super::state::{GameState, Marker, PlanRef, SlotCard, TileKind};
use super::{illegal, Message, RuleError};
use crate::data::missions::{Metric, MissionTask, TaskAction, TaskCheck, TaskCondition};
use crate::data::{Company, GameData};
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// The module's shared components.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionsState {
    /// The face-up mission cards (card ids).
    pub face_up: Vec<u32>,
    /// The first seat to unlock its personal bonus space (campaign chapter 3's extra point).
    pub first_unlocked: Option<usize>,
}

/// What happened in the course of the seat's current (or last) action.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCounters {
    /// Counting: an action of this seat is running.
    pub active: bool,
    /// The action expanded a company ("Use all energy cards", also through a discarded card).
    pub expanded: bool,
    pub research_points: u32,
    pub track_spaces: u32,
    pub tank_spaces: u32,
    pub pieces_placed: u32,
    pub pieces_ousted: u32,
    pub coins_gained: u32,
}

/// A human's mission status card.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionStatus {
    /// The mission card the status card is linked to (set by the first fulfilled task).
    pub card: Option<u32>,
    /// By column: the task is fulfilled and its one-time bonus marker has left the status card.
    pub fulfilled: [bool; 3],
    /// One-time bonus markers in the reserve, not yet placed.
    pub one_time_reserve: u8,
    /// One-time bonus markers placed so far (each leaves the game at the next Preparation).
    pub one_time_placed: u8,
    /// A marker on the seat's personal bonus space this round.
    pub personal: Option<Marker>,
    pub counters: ActionCounters,
}

impl MissionStatus {
    /// Tasks fulfilled = one-time bonus markers gone from the status card.
    pub fn markers_gone(&self) -> u32 {
        self.fulfilled.iter().filter(|f| **f).count() as u32
    }

    /// The personal bonus space is unlocked once all three markers are gone.
    pub fn personal_unlocked(&self) -> bool {
        self.fulfilled.iter().all(|f| *f)
    }
}

/// Setup: shuffle the mission cards, lay 1 or 2 face up by the number of humans; every human
/// takes a status card with 3 one-time bonus markers (Luna gets none).
pub(crate) fn setup(data: &GameData, state: &mut GameState) {
    let mut ids: Vec<u32> = data.missions.cards.iter().map(|c| c.id).collect();
    ids.shuffle(&mut state.rng);
    let humans = state.seats.iter().filter(|s| !s.is_luna()).count();
    let n = data.missions.module.face_up_cards.for_humans(humans);
    state.missions = Some(MissionsState {
        face_up: ids.into_iter().take(n).collect(),
        first_unlocked: None,
    });
    for s in state.seats.iter_mut().filter(|s| !s.is_luna()) {
        s.mission = Some(MissionStatus::default());
    }
}

/// The task in `column` (1–3) of mission card `card`.
pub fn task(data: &GameData, card: u32, column: u8) -> Option<&MissionTask> {
    data.missions
        .card(card)?
        .tasks
        .iter()
        .find(|t| t.column == column as usize)
}

/// Runs `f` on the seat's counters while one of its actions is running.
pub(crate) fn note(state: &mut GameState, seat: usize, f: impl FnOnce(&mut ActionCounters)) {
    if let Some(m) = state.seats.get_mut(seat).and_then(|s| s.mission.as_mut()) {
        if m.counters.active {
            f(&mut m.counters);
        }
    }
}

/// An action starts: its counters start at 0.
pub(crate) fn begin_action(state: &mut GameState, seat: usize) {
    if let Some(m) = state.seats[seat].mission.as_mut() {
        m.counters = ActionCounters {
            active: true,
            ..ActionCounters::default()
        };
    }
}

/// The action has resolved: the counters stop (the claims' own coins never count).
pub(crate) fn end_action(state: &mut GameState, seat: usize) {
    if let Some(m) = state.seats[seat].mission.as_mut() {
        m.counters.active = false;
    }
}

/// Whether the seat has a task left to fulfil (the end-of-action claim window is worth opening).
pub(crate) fn has_open_tasks(state: &GameState, seat: usize) -> bool {
    state.missions.is_some()
        && state.seats[seat]
            .mission
            .as_ref()
            .is_some_and(|m| !m.personal_unlocked())
}

/// What a metric counts now for `seat` (per-action metrics read the counters).
pub fn metric_value(data: &GameData, state: &GameState, seat: usize, cond: &TaskCondition) -> u32 {
    let s = &state.seats[seat];
    let counters = s
        .mission
        .as_ref()
        .map(|m| m.counters.clone())
        .unwrap_or_default();
    let totals = || effects::area_totals(data, state, seat, None);
    let units = || {
        let mut u = totals().units;
        u.sort_unstable_by(|a, b| b.cmp(a));
        u
    };
    match cond.metric {
        Metric::FaceUpScientistCards => {
            // The P-FIELD virtual field scientist is no card.
            let t = totals();
            let virtual_fs = u32::from(effects::has_virtual_field_scientist(data, state, seat));
            (t.research_scientists + t.field_scientists).saturating_sub(virtual_fs)
        }
        Metric::FaceUpMaxUnitsOneType => units()[0],
        Metric::FaceUpEnergyPoints => totals().energy,
        Metric::FaceUpResourceTypes => totals().units.iter().filter(|u| **u > 0).count() as u32,
        Metric::FaceUpUnitsTwoTypes => units()[1],
        Metric::FaceUpCards => {
            let cards = s
                .slots
                .iter()
                .filter(|c| matches!(c, Some(SlotCard::Up(_))))
                .count() as u32;
            let tiles = [
                TileKind::ResearchScientist,
                TileKind::FieldScientist,
                TileKind::Energy,
            ]
            .into_iter()
            .filter(|k| state.holds_unused_tile(seat, *k))
            .count() as u32;
            cards + tiles
        }
        Metric::ResearchPointsGained => counters.research_points,
        Metric::CompanyTrackSpacesMoved => counters.track_spaces,
        Metric::TankSpacesMoved => counters.tank_spaces,
        Metric::PiecesPlacedFromStation => counters.pieces_placed,
        Metric::PiecesOusted => counters.pieces_ousted,
        Metric::CoinsGained => counters.coins_gained,
        Metric::ResearchPlansOnTrack => s.research.iter().flatten().count() as u32,
        Metric::SpecialPlansOnTrack => s
            .research
            .iter()
            .flatten()
            .filter(|p| matches!(p.plan, PlanRef::Special(_)))
            .count() as u32,
        Metric::TracksPastFirstThreshold => Company::ALL
            .iter()
            .filter(|c| {
                let track = &data.tracks.tracks[state.tracks[c.index()]];
                track
                    .bonus_thresholds
                    .iter()
                    .map(|t| t.after_space)
                    .min()
                    .is_some_and(|first| s.track_pos[c.index()] as u32 > first)
            })
            .count() as u32,
        Metric::SwitchedOnAdditionalSlots => [
            data.player_board.tank_slot(),
            data.player_board.research_slot(),
        ]
        .iter()
        .filter(|i| s.slot_on.get(**i).copied().unwrap_or(false))
        .count() as u32,
        Metric::CompaniesWithMinShares => {
            let need = cond.shares.unwrap_or(1);
            let shares: Vec<u32> = Company::ALL
                .iter()
                .map(|c| state.shares(data, seat, *c))
                .collect();
            let reached = shares.iter().filter(|n| **n >= need).count() as u32;
            // A wild share counts for one company of the holder's choice.
            let wild = state
                .threat
                .as_ref()
                .is_some_and(|t| t.removed_by == Some(seat));
            let helped = wild && shares.iter().any(|n| *n + 1 == need);
            reached + u32::from(helped)
        }
        Metric::ReserveCoins => s.coins,
    }
}

/// Whether `seat` may claim the task in `column` of mission card `card` now. `after_action`: the
/// claim window after an action (single-action tasks read its counters); otherwise the moment
/// before the action is chosen.
pub(crate) fn check_claim(
    data: &GameData,
    state: &GameState,
    seat: usize,
    card: u8,
    column: u8,
    after_action: bool,
) -> Result<(), RuleError> {
    let Some(ms) = state.missions.as_ref() else {
        return Err(illegal("rule.missions_off", &[]));
    };
    let Some(status) = state.seats[seat].mission.as_ref() else {
        return Err(illegal("rule.no_status_card", &[]));
    };
    if !ms.face_up.contains(&(card as u32)) {
        return Err(illegal("rule.mission_not_up", &[("card", &card)]));
    }
    if let Some(linked) = status.card {
        if linked != card as u32 {
            return Err(illegal("rule.mission_linked", &[("linked", &linked)]));
        }
    }
    let Some(t) = task(data, card as u32, column) else {
        return Err(illegal(
            "rule.mission_no_task",
            &[("card", &card), ("column", &column)],
        ));
    };
    if (column as usize)
        .checked_sub(1)
        .and_then(|i| status.fulfilled.get(i))
        .copied()
        .unwrap_or(true)
    {
        return Err(illegal("rule.task_done", &[("column", &column)]));
    }
    if t.check == TaskCheck::SingleAction {
        if !after_action {
            return Err(RuleError::NotNow(Message::new(
                "rule.claim_after_action",
                &[("task", &t.common_text(card as u32))],
            )));
        }
        let counters = &status.counters;
        let kind_ok = t.actions.is_empty()
            || t.actions.iter().any(|a| match a {
                TaskAction::Any => true,
                TaskAction::UseAllEnergyCards => counters.expanded,
                _ => false,
            });
        if !kind_ok {
            return Err(illegal(
                "rule.task_needs_energy",
                &[("task", &t.common_text(card as u32))],
            ));
        }
    }
    let have = metric_value(data, state, seat, &t.condition);
    if have < t.condition.min {
        return Err(illegal(
            "rule.task_not_met",
            &[
                ("task", &t.common_text(card as u32)),
                ("have", &have),
                ("need", &t.condition.min),
            ],
        ));
    }
    Ok(())
}

/// Claims a task (the caller checked): the status card links to the mission card, +2 CrypCoin,
/// the column's one-time bonus marker to the reserve; the third unlocks the personal bonus space.
pub(crate) fn claim(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: u8, column: u8) {
    let data = ctx.data;
    let text = task(data, card as u32, column)
        .map(|t| t.common_text(card as u32))
        .unwrap_or_default();
    let Some(status) = state.seats[seat].mission.as_mut() else {
        return;
    };
    status.card = Some(card as u32);
    if let Some(f) = (column as usize)
        .checked_sub(1)
        .and_then(|i| status.fulfilled.get_mut(i))
    {
        *f = true;
    }
    status.one_time_reserve += 1;
    let unlocked = status.personal_unlocked();
    let name = state.seats[seat].name.clone();
    ctx.count("mission_task");
    ctx.count(task_note(card, column));
    ctx.say(
        "event.mission_task",
        &[("name", &name), ("task", &text), ("card", &card)],
    );
    effects::gain_coins(ctx, state, seat, data.missions.module.coins_per_task);
    if unlocked {
        ctx.count("personal_bonus_space_unlocked");
        ctx.say("event.personal_space_unlocked", &[("name", &name)]);
        if let Some(ms) = state.missions.as_mut() {
            ms.first_unlocked.get_or_insert(seat);
        }
    }
}

/// The coverage note for a fulfilled task.
fn task_note(card: u8, column: u8) -> &'static str {
    const NOTES: [[&str; 3]; 6] = [
        ["mission_1_1", "mission_1_2", "mission_1_3"],
        ["mission_2_1", "mission_2_2", "mission_2_3"],
        ["mission_3_1", "mission_3_2", "mission_3_3"],
        ["mission_4_1", "mission_4_2", "mission_4_3"],
        ["mission_5_1", "mission_5_2", "mission_5_3"],
        ["mission_6_1", "mission_6_2", "mission_6_3"],
    ];
    NOTES
        .get((card as usize).wrapping_sub(1))
        .and_then(|row| row.get((column as usize).wrapping_sub(1)))
        .copied()
        .unwrap_or("mission_other")
}

/// Candidates for claiming: every column of every face-up mission card.
pub(crate) fn claim_candidates(state: &GameState) -> Vec<super::Decision> {
    state
        .missions
        .as_ref()
        .map(|m| {
            m.face_up
                .iter()
                .flat_map(|card| {
                    (1..=3u8).map(move |column| super::Decision::ClaimTask {
                        card: *card as u8,
                        column,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether any task is claimable now.
pub(crate) fn any_claimable(
    data: &GameData,
    state: &GameState,
    seat: usize,
    after_action: bool,
) -> bool {
    claim_candidates(state).into_iter().any(|d| match d {
        super::Decision::ClaimTask { card, column } => {
            check_claim(data, state, seat, card, column, after_action).is_ok()
        }
        _ => false,
    })
}

// ------------------------------------------------------------------------------------------
// The ClaimTasks task: after the action has resolved, the tasks it fulfilled may be claimed.

/// Claiming a task or ending the claims.
pub(crate) fn claim_tasks_candidates(state: &GameState) -> Vec<super::Decision> {
    let mut out = vec![super::Decision::EndClaims];
    out.extend(claim_candidates(state));
    out
}

pub(crate) fn check_claim_tasks(
    data: &GameData,
    state: &GameState,
    seat: usize,
    task: &Task,
    d: super::Decision,
) -> Result<(), RuleError> {
    match d {
        super::Decision::ClaimTask { card, column } => {
            check_claim(data, state, seat, card, column, true)
        }
        super::Decision::EndClaims => Ok(()),
        _ => Err(RuleError::Waiting(task.describe())),
    }
}

pub(crate) fn perform_claim_tasks(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    d: super::Decision,
) {
    match d {
        super::Decision::ClaimTask { card, column } => claim(ctx, state, seat, card, column),
        super::Decision::EndClaims => {
            state.agenda.pop();
        }
        _ => {}
    }
}

/// The action has resolved: its counters stop; with nothing to claim, the task is done (true).
pub(crate) fn run_claim_tasks(data: &GameData, state: &mut GameState, seat: usize) -> bool {
    end_action(state, seat);
    if !any_claimable(data, state, seat, true) {
        state.agenda.pop();
        return true;
    }
    false
}

/// Preparation: a marker on a personal bonus space goes back to its owner's reserve (a one-time
/// marker leaves the game).
pub(crate) fn preparation(state: &mut GameState) {
    for s in state.seats.iter_mut() {
        let back = s
            .mission
            .as_mut()
            .and_then(|m| m.personal.take())
            .is_some_and(|m| !m.one_time);
        if back {
            s.markers_reserve += 1;
        }
    }
}
