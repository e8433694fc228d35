//! Research points and research plans (rulebook, "Research points", p. 14): research points are
//! utilized at once — a plan from the research display (A or B: 1 point, C: 2), a face-up special
//! plan (2) or 1 CrypCoin per point, with the supplement space's coins for its linked spaces; once
//! the upload marker is on the final screen each point is 2 CrypCoin instead ("Special spaces of
//! the player boards", p. 23). At the end of the turn the acquired plans go onto the research
//! track (never onto a passed screen, an A plan never onto an empty crossed-out-A screen).

use super::turn::replace_top;
use super::{any_legal, wrong};
use crate::data::numbering;
use crate::data::GameData;
use crate::engine::decision::{Decision, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, PlacedPlan, PlanRef};
use crate::engine::{illegal, RuleError};
use crate::text::Deferred;

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    let s = &state.seats[task.seat()];
    match task {
        Task::SpendResearch { .. } => {
            let mut out = vec![Decision::TakeCoin];
            out.extend(
                (0..state.research_display.len() as u8).map(|space| Decision::TakePlan { space }),
            );
            out.extend(
                (0..state.specials.len() as u8).map(|index| Decision::TakeSpecial { index }),
            );
            out
        }
        Task::PlacePlans { .. } => (0..s.acquired.len() as u8)
            .flat_map(|index| {
                (0..s.research.len() as u8).map(move |screen| Decision::PlacePlan { index, screen })
            })
            .collect(),
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
        (Task::SpendResearch { points, .. }, Decision::TakeCoin) => {
            if *points < data.research.acquisition.coin {
                return Err(illegal("rule.research_points_short", &[]));
            }
            Ok(())
        }
        (Task::SpendResearch { points, .. }, Decision::TakePlan { space }) => {
            let Some(Some(plan)) = state.research_display.get(space as usize) else {
                return Err(illegal("rule.research_display_empty", &[]));
            };
            let letter = data.research.plans[*plan as usize].letter;
            let cost = data.research.acquisition.plan_cost(letter);
            if cost > *points {
                return Err(illegal(
                    "rule.plan_cost",
                    &[("letter", &letter), ("cost", &cost), ("points", &points)],
                ));
            }
            if !plan_placeable(data, state, seat, letter == 'A') {
                return Err(illegal("rule.no_screen_for_plan", &[]));
            }
            Ok(())
        }
        (Task::SpendResearch { points, .. }, Decision::TakeSpecial { index }) => {
            let Some(sp) = state.specials.get(index as usize) else {
                return Err(illegal("rule.no_such_special", &[]));
            };
            if !sp.face_up || sp.taken {
                return Err(illegal("rule.special_unavailable", &[]));
            }
            let cost = data.research.acquisition.special;
            if cost > *points {
                return Err(illegal(
                    "rule.special_cost",
                    &[("cost", &cost), ("points", &points)],
                ));
            }
            if !plan_placeable(data, state, seat, false) {
                return Err(illegal("rule.no_screen_for_plan", &[]));
            }
            Ok(())
        }
        (Task::PlacePlans { .. }, Decision::PlacePlan { index, screen }) => {
            let Some(plan) = s.acquired.get(index as usize) else {
                return Err(illegal("rule.no_such_acquired_plan", &[]));
            };
            screen_ok(data, state, seat, is_a_plan(data, *plan), screen)
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::SpendResearch { points, .. }, d) => {
            perform_research_points(ctx, state, seat, points, d)
        }
        (Task::PlacePlans { .. }, Decision::PlacePlan { index, screen }) => {
            let plan = state.seats[seat].acquired.remove(index as usize);
            let covered = state.seats[seat].research[screen as usize];
            if covered.is_some() {
                ctx.count("plan_covered");
            }
            state.seats[seat].research[screen as usize] = Some(PlacedPlan {
                plan,
                face_down: false,
            });
            let label = effects::plan_ref_label(ctx.data, state, seat, plan);
            let screen_no = numbering::screen(usize::from(screen));
            // A special plan's label carries its noun ("special research plan 3 …").
            let special = matches!(plan, PlanRef::Special(_));
            match covered {
                Some(under) => {
                    let under = effects::plan_ref_label(ctx.data, state, seat, under.plan);
                    ctx.say(
                        if special {
                            "event.place_special_plan_covering"
                        } else {
                            "event.place_plan_covering"
                        },
                        &[
                            ("name", &name),
                            ("plan", &label),
                            ("screen", &screen_no),
                            ("covered", &under),
                        ],
                    );
                }
                None => ctx.say(
                    if special {
                        "event.place_special_plan"
                    } else {
                        "event.place_plan"
                    },
                    &[("name", &name), ("plan", &label), ("screen", &screen_no)],
                ),
            }
        }
        _ => {}
    }
}

pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    let data = ctx.data;
    match task.clone() {
        Task::PlacePlans { seat } if state.seats[seat].acquired.is_empty() => {
            state.agenda.pop();
            Some(true)
        }
        Task::PlacePlans { seat } => {
            if !any_legal(data, state, task, |_| true) {
                // Nowhere to go (cannot happen with the taking checks); never block the game.
                state.seats[seat].acquired.clear();
                state.agenda.pop();
                return Some(true);
            }
            Some(false)
        }
        Task::SpendResearch { seat, points } if effects::on_final_screen(data, state, seat) => {
            state.agenda.pop();
            let per = data
                .player_board
                .research_track
                .overflow_coins_per_research_point;
            ctx.count("research_points_to_coins");
            effects::gain_coins(ctx, state, seat, points * per);
            Some(true)
        }
        _ => None,
    }
}

fn is_a_plan(data: &GameData, plan: PlanRef) -> bool {
    matches!(plan, PlanRef::Regular(p) if data.research.plans[p as usize].letter == 'A')
}

/// From this engine version the plan on the starting screen counts as reached for covering:
/// the upload marker stands on the starting research token from setup (DECISIONS A17). Older
/// games let a plan cover it while the marker had not advanced yet.
const STARTING_TOKEN_REACHED: u32 = 5;

/// Whether a newly acquired plan may go on `screen`.
fn screen_ok(
    data: &GameData,
    state: &GameState,
    seat: usize,
    is_a: bool,
    screen: u8,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    let Some(current) = s.research.get(screen as usize) else {
        return Err(illegal("rule.no_such_screen", &[]));
    };
    if let Some(u) = s.upload {
        if screen <= u {
            return Err(illegal("rule.screen_passed", &[]));
        }
    } else if screen == 0 && state.engine_version >= STARTING_TOKEN_REACHED {
        // The upload marker stands on the starting research token from setup (DECISIONS A17).
        return Err(illegal("rule.starting_screen", &[]));
    }
    let crossed = data
        .player_board
        .research_track
        .crossed_out_a
        .screens
        .contains(&(screen as u32));
    if is_a && crossed && current.is_none() {
        return Err(illegal("rule.crossed_out_a", &[]));
    }
    Ok(())
}

fn plan_placeable(data: &GameData, state: &GameState, seat: usize, is_a: bool) -> bool {
    (0..state.seats[seat].research.len() as u8)
        .any(|screen| screen_ok(data, state, seat, is_a, screen).is_ok())
}

fn perform_research_points(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    points: u32,
    d: Decision,
) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    let spent = match d {
        Decision::TakeCoin => {
            effects::gain_coins(ctx, state, seat, 1);
            data.research.acquisition.coin
        }
        Decision::TakePlan { space } => {
            let Some(plan) = state.research_display[space as usize].take() else {
                return;
            };
            let letter = data.research.plans[plan as usize].letter;
            state.seats[seat].acquired.push(PlanRef::Regular(plan));
            ctx.count("take_plan");
            let space_id = &data.board.research_display.spaces[space as usize].id;
            ctx.say(
                "event.take_plan",
                &[
                    ("name", &name),
                    ("plan", &Deferred(|| data.plan_label(plan))),
                    ("space", space_id),
                ],
            );
            if data.board.supplement_space.linked_spaces.contains(space_id)
                && state.supplement_coins > 0
            {
                let coins = std::mem::take(&mut state.supplement_coins);
                ctx.count("supplement_coins");
                effects::gain_coins_saying(ctx, state, seat, coins, "event.coins_supplement", &[]);
            }
            data.research.acquisition.plan_cost(letter)
        }
        Decision::TakeSpecial { index } => {
            state.specials[index as usize].taken = true;
            state.seats[seat].acquired.push(PlanRef::Special(index));
            ctx.count("take_special");
            ctx.say(
                "event.take_special",
                &[
                    ("name", &name),
                    (
                        "plan",
                        &Deferred(|| data.special_plan_label(usize::from(index))),
                    ),
                    ("round", &data.research.special_plans[index as usize].round),
                ],
            );
            data.research.acquisition.special
        }
        _ => return,
    };
    if points > spent {
        replace_top(
            state,
            Task::SpendResearch {
                seat,
                points: points - spent,
            },
        );
    } else {
        state.agenda.pop();
    }
}
