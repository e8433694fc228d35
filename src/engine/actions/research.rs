//! Action 3: Use a research scientist (rulebook, "3) Use 1 research scientist card in your action
//! area", pp. 14–15): optionally pay 2 CrypCoin to flip one plan face down, then move the upload
//! marker plan by plan while the action area meets each plan's requirements (a special plan costs
//! its coins, a flipped plan nothing); the last plan entered pays its reward, and the scientist's
//! research points are utilized ("Research points", p. 14; see `plans`). The research scientist
//! tile ("Details of the bonus tiles", p. 20) works the same with its own points.

use super::rewards::push_rewards;
use super::turn::{begin_action, replace_top, source_flip};
use super::wrong;
use crate::data::numbering;
use crate::data::{GameData, Requirement, Reward};
use crate::engine::decision::{ActionSource, Decision, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, PlanRef, TileKind};
use crate::engine::{illegal, RuleError};

/// Starts the action: the scientist (or tile) flips when the turn ends.
pub(super) fn begin(ctx: &mut Ctx, state: &mut GameState, seat: usize, source: ActionSource) {
    let name = state.seats[seat].name.clone();
    let tile = TileKind::ResearchScientist;
    // Labelled before the flip below changes the source; a quiet replay needs no label.
    let card = if ctx.speaking() {
        effects::source_label(ctx.data, state, seat, source, tile)
    } else {
        String::new()
    };
    let (cards, tiles) = source_flip(state, seat, source, tile);
    begin_action(state, seat);
    state.agenda.push(Task::FlipUsed { seat, cards, tiles });
    state.agenda.push(Task::ResearchFlip { seat, source });
    ctx.say("event.use_research", &[("name", &name), ("card", &card)]);
}

/// What flipping a plan face down costs (rulebook, "3) Use 1 research scientist card in your
/// action area", p. 14).
const FLIP_COST: u32 = 2;

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    let s = &state.seats[task.seat()];
    match task {
        Task::ResearchFlip { .. } => {
            let mut out = vec![Decision::SkipFlip];
            out.extend((0..s.research.len() as u8).map(|screen| Decision::FlipPlan { screen }));
            out
        }
        Task::ResearchAdvance { .. } => vec![Decision::Advance, Decision::StopAdvancing],
        _ => Vec::new(),
    }
}

pub(super) fn check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    task: &Task,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match (task, d) {
        (Task::ResearchFlip { .. }, Decision::FlipPlan { screen }) => {
            if s.coins < 2 {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: 2,
                });
            }
            match s.research.get(screen as usize).copied().flatten() {
                Some(p) if !p.face_down => Ok(()),
                Some(_) => Err(illegal("rule.plan_face_down", &[])),
                None => Err(illegal(
                    "rule.screen_no_plan",
                    &[("screen", &numbering::screen(usize::from(screen)))],
                )),
            }
        }
        (Task::ResearchFlip { .. }, Decision::SkipFlip) => Ok(()),
        (Task::ResearchAdvance { source, .. }, Decision::Advance) => {
            check_advance(data, state, seat, *source)
        }
        (Task::ResearchAdvance { .. }, Decision::StopAdvancing) => Ok(()),
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::ResearchFlip { source, .. }, Decision::FlipPlan { .. } | Decision::SkipFlip) => {
            if let Decision::FlipPlan { screen } = d {
                let cost = FLIP_COST;
                effects::pay(ctx, state, seat, cost);
                let mut flipped = None;
                if let Some(p) = state.seats[seat].research[screen as usize].as_mut() {
                    p.face_down = true;
                    flipped = Some(p.plan);
                }
                ctx.count("flip_plan");
                let plan = flipped
                    .map(|p| effects::plan_ref_label(data, state, seat, p))
                    .unwrap_or_default();
                // A special plan flipped face down gives up its end-game points: say so.
                let (key, value) = match flipped {
                    Some(PlanRef::Special(i)) => (
                        "event.flip_special_plan",
                        data.research.special_plans[i as usize].value,
                    ),
                    // The token's plan is named with its noun ("the starting token's plan").
                    Some(PlanRef::Token) => ("event.flip_token_plan", 0),
                    _ => ("event.flip_plan", 0),
                };
                ctx.say(
                    key,
                    &[
                        ("name", &name),
                        ("cost", &cost),
                        ("plan", &plan),
                        ("value", &value),
                        ("screen", &numbering::screen(usize::from(screen))),
                    ],
                );
            }
            replace_top(
                state,
                Task::ResearchAdvance {
                    seat,
                    source,
                    entered: None,
                },
            );
        }
        (Task::ResearchAdvance { source, .. }, Decision::Advance) => {
            let next = next_screen(state, seat);
            if let Some(placed) = state.seats[seat].research[next as usize] {
                if let (PlanRef::Special(i), false) = (placed.plan, placed.face_down) {
                    let cost = data.research.special_plans[i as usize].coin_cost;
                    effects::pay(ctx, state, seat, cost);
                    ctx.count("enter_special_plan");
                    ctx.say("event.enter_special", &[("name", &name), ("cost", &cost)]);
                }
            }
            let from = state.seats[seat].upload;
            state.seats[seat].upload = Some(next);
            effects::research_screen_entered(ctx, state, seat, from, next);
            replace_top(
                state,
                Task::ResearchAdvance {
                    seat,
                    source,
                    entered: Some(next),
                },
            );
            if next as u32 == data.player_board.research_track.final_screen {
                finish_research(ctx, state);
            }
        }
        (Task::ResearchAdvance { .. }, Decision::StopAdvancing) => finish_research(ctx, state),
        _ => {}
    }
}

fn next_screen(state: &GameState, seat: usize) -> u8 {
    state.seats[seat].upload.map(|u| u + 1).unwrap_or(0)
}

fn check_advance(
    data: &GameData,
    state: &GameState,
    seat: usize,
    source: ActionSource,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    let next = next_screen(state, seat);
    let Some(slot) = s.research.get(next as usize) else {
        return Err(illegal("rule.upload_at_end", &[]));
    };
    let Some(placed) = slot else {
        return Err(illegal(
            "rule.screen_empty",
            &[("screen", &numbering::screen(usize::from(next)))],
        ));
    };
    if placed.face_down {
        return Ok(());
    }
    let reqs: &[Requirement] = match placed.plan {
        PlanRef::Special(i) => {
            let cost = data.research.special_plans[i as usize].coin_cost;
            if s.coins < cost {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: cost,
                });
            }
            return Ok(());
        }
        PlanRef::Token => match s.token {
            Some(t) => &data.research.starting_tokens[t].plan_requirements,
            None => &[],
        },
        PlanRef::Regular(p) => &data.research.plans[p as usize].requirements,
    };
    let totals = effects::area_totals(data, state, seat, Some(source));
    match reqs.iter().find(|r| !totals.meets(r)) {
        Some(r) => Err(illegal(
            "rule.requirement_not_met",
            &[("requirement", &data.requirement_name(r))],
        )),
        None => Ok(()),
    }
}

/// The research points an action source grants.
pub(crate) fn source_research_points(
    data: &GameData,
    state: &GameState,
    seat: usize,
    source: ActionSource,
) -> u32 {
    match source {
        ActionSource::Tile => effects::tile_value(data, TileKind::ResearchScientist),
        _ => state
            .source_card(seat, source)
            .map(|c| data.card(c).value)
            .unwrap_or(0),
    }
}

fn finish_research(ctx: &mut Ctx, state: &mut GameState) {
    let data = ctx.data;
    let Some(Task::ResearchAdvance {
        seat,
        source,
        entered,
    }) = state.agenda.pop()
    else {
        return;
    };
    let rp = source_research_points(data, state, seat, source);
    if rp > 0 {
        effects::research_points(state, seat, rp);
    }
    let name = state.seats[seat].name.clone();
    let Some(screen) = entered else {
        ctx.say("event.no_upload", &[("name", &name)]);
        return;
    };
    // The plan the marker lands on is named: its printed reward is what the lines after this
    // one carry out (research points are spent at once, so only this line shows them).
    let placed = state.seats[seat].research[screen as usize];
    let key = match placed {
        None => "event.upload",
        Some(p) if p.face_down => "event.upload_face_down",
        Some(_) => "event.upload_onto",
    };
    let label = crate::text::Deferred(|| {
        placed.map_or_else(String::new, |p| {
            effects::plan_ref_label(data, state, seat, p.plan)
        })
    });
    ctx.say(
        key,
        &[
            ("name", &name),
            ("screen", &numbering::screen(usize::from(screen))),
            ("plan", &label),
        ],
    );
    let Some(placed) = placed else {
        return;
    };
    if placed.face_down {
        return;
    }
    let rewards = plan_rewards(data, state, seat, placed.plan);
    push_rewards(state, seat, &rewards);
}

/// The printed reward of a plan on the seat's research track (a special plan has none).
pub(crate) fn plan_rewards(
    data: &GameData,
    state: &GameState,
    seat: usize,
    plan: PlanRef,
) -> Vec<Reward> {
    match plan {
        PlanRef::Token => state.seats[seat]
            .token
            .map(|t| data.research.starting_tokens[t].plan_reward.clone())
            .unwrap_or_default(),
        PlanRef::Regular(p) => data.research.plans[p as usize].reward.clone(),
        PlanRef::Special(_) => Vec::new(),
    }
}
