//! The Action phase (rulebook, "2) Action phase", p. 10), routed task by task. For the task on
//! top of the agenda this module only decides which family of rules owns it; each family keeps
//! its tasks' candidates (what may be decided), checks (whether a decision is legal, with a
//! specific reason when not) and effects (called only after the check passed) side by side. The
//! rulebook's sections, by title and page:
//!
//! - [`choose`]: choosing the turn's action, the six actions of "2) Action phase" as one menu;
//! - [`resources`]: "1) Use 1 or more resource cards of a single type" (p. 11), with the "+1"
//!   resource tile ("Details of the bonus tiles", p. 20);
//! - [`energy`]: "2) Use all energy cards", expanding on the Moon (pp. 12–13) and ousting;
//! - [`research`]: "3) Use 1 research scientist card", the upload marker (pp. 14–15);
//! - [`plans`]: "Research points" and research plans (p. 14), placed at the end of the turn;
//! - [`field`]: "4) Use 1 field scientist card" (p. 16), and the field scientist tile (p. 20);
//! - [`bonus`]: "5) Place 1 bonus marker" on the board's bonus spaces (pp. 16–17);
//! - [`track_bonus`]: the company tracks' "Bonus space bonuses" (pp. 21–23);
//! - [`drop_out`]: "6) Drop out of Action phase" (p. 18), and the "Gameplay variant: Linked
//!   slots" (p. 23);
//! - [`tracks`]: moving on a company track, money barriers ("Details of the company tracks and
//!   their bonuses", pp. 21–23);
//! - [`rewards`]: the reward icons that bonus spaces, plans and threat cards grant;
//! - [`turn`]: the frame around an action (flip used cards, the end of the turn);
//! - [`costs`]: what a display card or a sector costs after discounts (pure, for previews too).
//!
//! The modules' rules keep their task logic beside them: `belt` (expanding on the Belt),
//! `missions` (claiming tasks), `threats` (dealing with the threat), `luna` (her whole turn).
//! Tasks that need no choice run in [`run_auto`].

mod bonus;
mod choose;
pub(crate) mod costs;
mod drop_out;
mod energy;
mod field;
mod plans;
mod research;
mod resources;
mod rewards;
mod track_bonus;
mod tracks;
mod turn;

pub(crate) use energy::column_matters;
pub(crate) use research::{plan_rewards, source_research_points as research_points_of};

use super::decision::{Decision, Task};
use super::flow::Ctx;
use super::state::GameState;
use super::{missions, threats, Message, RuleError};
use crate::data::{Company, GameData};

/// The family of rules that owns a task.
#[derive(Clone, Copy)]
enum Family {
    Choose,
    Resources,
    Energy,
    Research,
    Plans,
    Bonus,
    TrackBonus,
    DropOut,
    Tracks,
    Rewards,
    Turn,
    Missions,
    Threats,
}

fn family(task: &Task) -> Family {
    match task {
        Task::ChooseAction { .. } => Family::Choose,
        Task::SelectResources { .. } | Task::BuyWithUnits { .. } | Task::SpendUnits { .. } => {
            Family::Resources
        }
        Task::ChooseExpansion { .. }
        | Task::Expand { .. }
        | Task::ReturnOusted { .. }
        | Task::PickColumn { .. } => Family::Energy,
        Task::ResearchFlip { .. } | Task::ResearchAdvance { .. } => Family::Research,
        Task::SpendResearch { .. } | Task::PlacePlans { .. } => Family::Plans,
        Task::ChooseTier { .. } | Task::BuyForCoins { .. } | Task::DiscardFromHand { .. } => {
            Family::Bonus
        }
        Task::ChooseRewards { .. }
        | Task::DiscardActionChoice { .. }
        | Task::TakeFromDiscard { .. } => Family::TrackBonus,
        Task::TakeRestingDeck { .. } | Task::RestCards { .. } => Family::DropOut,
        Task::TrackMove { .. } | Task::TrackOfChoice { .. } | Task::OtherTracks { .. } => {
            Family::Tracks
        }
        Task::Reward { .. } | Task::RemoveOutposts { .. } => Family::Rewards,
        Task::FlipUsed { .. } | Task::EndTurn { .. } => Family::Turn,
        Task::ClaimTasks { .. } => Family::Missions,
        Task::DiscardEnergy { .. } | Task::ThreatReward { .. } => Family::Threats,
    }
}

/// A superset of the legal decisions for `task`, in a fixed order; `check` filters it.
pub(crate) fn candidates(data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    match family(task) {
        Family::Choose => choose::candidates(data, state, task.seat()),
        Family::Resources => resources::candidates(data, state, task),
        Family::Energy => energy::candidates(data, state, task),
        Family::Research => research::candidates(data, state, task),
        Family::Plans => plans::candidates(data, state, task),
        Family::Bonus => bonus::candidates(data, state, task),
        Family::TrackBonus => track_bonus::candidates(data, state, task),
        Family::DropOut => drop_out::candidates(data, state, task),
        Family::Tracks => tracks::candidates(data, state, task),
        Family::Rewards => rewards::candidates(data, state, task),
        Family::Missions => missions::claim_tasks_candidates(state),
        Family::Threats => match task {
            Task::DiscardEnergy { seat, .. } => hand_discards(state, *seat),
            _ => Vec::new(),
        },
        Family::Turn => Vec::new(),
    }
}

/// Whether `d` may be decided by `seat` now; an illegal decision gets a specific reason.
pub(crate) fn check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let Some(task) = state.agenda.last() else {
        return Err(RuleError::NotNow(Message::new("rule.nothing_pending", &[])));
    };
    if task.seat() != seat {
        return Err(RuleError::NotYourTurn(
            state.seats[task.seat()].name.clone(),
        ));
    }
    match family(task) {
        Family::Choose => choose::check(data, state, seat, d),
        Family::Resources => resources::check(data, state, seat, task, d),
        Family::Energy => energy::check(data, state, seat, task, d),
        Family::Research => research::check(data, state, seat, task, d),
        Family::Plans => plans::check(data, state, seat, task, d),
        Family::Bonus => bonus::check(data, state, seat, task, d),
        Family::TrackBonus => track_bonus::check(data, state, seat, task, d),
        Family::DropOut => drop_out::check(data, state, seat, task, d),
        Family::Tracks => tracks::check(data, state, seat, task, d),
        Family::Rewards => rewards::check(data, state, seat, task, d),
        Family::Missions => missions::check_claim_tasks(data, state, seat, task, d),
        Family::Threats => match (task, d) {
            (Task::DiscardEnergy { .. }, Decision::DiscardCard { card }) => {
                threats::check_discard(data, state, seat, card)
            }
            (task, _) => Err(wrong(task)),
        },
        Family::Turn => Err(wrong(task)),
    }
}

/// Carries out a decision `check` accepted.
pub(crate) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, d: Decision) {
    let Some(task) = state.agenda.last().cloned() else {
        return;
    };
    match family(&task) {
        Family::Choose => choose::perform(ctx, state, seat, d),
        Family::Resources => resources::perform(ctx, state, seat, task, d),
        Family::Energy => energy::perform(ctx, state, seat, task, d),
        Family::Research => research::perform(ctx, state, seat, task, d),
        Family::Plans => plans::perform(ctx, state, seat, task, d),
        Family::Bonus => bonus::perform(ctx, state, seat, task, d),
        Family::TrackBonus => track_bonus::perform(ctx, state, seat, task, d),
        Family::DropOut => drop_out::perform(ctx, state, seat, task, d),
        Family::Tracks => tracks::perform(ctx, state, seat, task, d),
        Family::Rewards => rewards::perform(ctx, state, seat, task, d),
        Family::Missions => missions::perform_claim_tasks(ctx, state, seat, d),
        Family::Threats => {
            if let (Task::DiscardEnergy { n, .. }, Decision::DiscardCard { card }) = (task, d) {
                threats::discard(ctx, state, seat, card, n)
            }
        }
        Family::Turn => {}
    }
}

/// Runs the top task if it needs no decision; returns whether anything happened.
pub(crate) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> bool {
    let ran = match family(task) {
        Family::Choose => choose::run_auto(ctx, state, task),
        Family::Energy => energy::run_auto(ctx, state, task),
        Family::Plans => plans::run_auto(ctx, state, task),
        Family::DropOut => drop_out::run_auto(ctx, state, task),
        Family::Tracks => tracks::run_auto(ctx, state, task),
        Family::Rewards => rewards::run_auto(ctx, state, task),
        Family::Turn => turn::run_auto(ctx, state, task),
        Family::Missions => Some(missions::run_claim_tasks(ctx.data, state, task.seat())),
        Family::Threats => match task {
            Task::ThreatReward { seat } => {
                state.agenda.pop();
                threats::collect_reward(ctx, state, *seat);
                Some(true)
            }
            _ => None,
        },
        Family::Resources | Family::Research | Family::Bonus | Family::TrackBonus => None,
    };
    // Any other task with no legal decision at all is skipped (its effect is forfeited).
    ran.unwrap_or_else(|| {
        if any_legal(ctx.data, state, task, |_| true) {
            return false;
        }
        state.agenda.pop();
        true
    })
}

/// Whether some candidate of `task` that `wanted` keeps is legal now.
fn any_legal(
    data: &GameData,
    state: &GameState,
    task: &Task,
    wanted: impl Fn(&Decision) -> bool,
) -> bool {
    crate::engine::reasons_unread(|| {
        candidates(data, state, task)
            .into_iter()
            .filter(wanted)
            .any(|d| check(data, state, task.seat(), d).is_ok())
    })
}

/// The answer to a decision that does not fit the task waiting.
fn wrong(task: &Task) -> RuleError {
    RuleError::Waiting(task.describe())
}

/// Choosing one company (for an expansion or a track of choice).
fn company_choices() -> Vec<Decision> {
    Company::ALL
        .into_iter()
        .map(|company| Decision::ChooseCompany { company })
        .collect()
}

/// Discarding one card from the hand (bonus space requirements, threat cards).
fn hand_discards(state: &GameState, seat: usize) -> Vec<Decision> {
    state.seats[seat]
        .hand
        .iter()
        .map(|&card| Decision::DiscardCard { card })
        .collect()
}

/// Buying one card of the display (spaces 1–12), or none.
fn buy_choices() -> Vec<Decision> {
    let mut out = vec![Decision::NoBuy];
    out.extend((1..=12u8).map(|space| Decision::BuyCard { space }));
    out
}
