//! Moving on the company tracks (rulebook, "Details of the company tracks and their bonuses",
//! pp. 21–23): a move on a named track runs step by step (`effects::track_step` pays the bonus
//! thresholds), stops at the end of the track and at a money barrier the seat cannot pay, and asks
//! before paying one it can; a track of the seat's choice, or several other tracks (track bonus
//! spaces), become such moves.

use super::turn::replace_top;
use super::{company_choices, wrong};
use crate::data::GameData;
use crate::engine::decision::{Decision, Task};
use crate::engine::effects::{self, StepStatus};
use crate::engine::flow::Ctx;
use crate::engine::state::GameState;
use crate::engine::{illegal, RuleError};

pub(super) fn candidates(_data: &GameData, _state: &GameState, task: &Task) -> Vec<Decision> {
    match task {
        Task::TrackMove { .. } => vec![Decision::PayBarrier, Decision::DeclineBarrier],
        Task::TrackOfChoice { .. } | Task::OtherTracks { .. } => company_choices(),
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
    match (task, d) {
        (Task::TrackMove { .. }, Decision::PayBarrier | Decision::DeclineBarrier) => Ok(()),
        (Task::TrackOfChoice { .. }, Decision::ChooseCompany { company }) => {
            if effects::step_status(data, state, seat, company) == StepStatus::End {
                return Err(illegal("rule.marker_at_end", &[]));
            }
            Ok(())
        }
        (Task::OtherTracks { excluded, .. }, Decision::ChooseCompany { company }) => {
            if excluded.contains(&company) {
                return Err(illegal(
                    "rule.track_not_here",
                    &[("company", &data.company_name(company))],
                ));
            }
            Ok(())
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::TrackMove { company, steps, .. }, Decision::PayBarrier) => {
            effects::track_step(ctx, state, seat, company);
            if steps > 1 {
                replace_top(
                    state,
                    Task::TrackMove {
                        seat,
                        company,
                        steps: steps - 1,
                    },
                );
            } else {
                state.agenda.pop();
            }
        }
        (Task::TrackMove { company, steps, .. }, Decision::DeclineBarrier) => {
            ctx.count("barrier_declined");
            ctx.say(
                "event.barrier_declined",
                &[
                    ("name", &name),
                    ("company", &data.company_name(company)),
                    ("steps", &steps),
                ],
            );
            state.agenda.pop();
        }
        (Task::TrackOfChoice { steps, .. }, Decision::ChooseCompany { company }) => {
            replace_top(
                state,
                Task::TrackMove {
                    seat,
                    company,
                    steps,
                },
            );
        }
        (
            Task::OtherTracks {
                mut excluded,
                mut steps,
                ..
            },
            Decision::ChooseCompany { company },
        ) => {
            let n = if steps.is_empty() { 0 } else { steps.remove(0) };
            excluded.push(company);
            state.agenda.pop();
            if !steps.is_empty() {
                state.agenda.push(Task::OtherTracks {
                    seat,
                    excluded,
                    steps,
                });
            }
            state.agenda.push(Task::TrackMove {
                seat,
                company,
                steps: n,
            });
        }
        _ => {}
    }
}

/// A move runs by itself up to a barrier the seat could pay (then it asks).
pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    let data = ctx.data;
    match task.clone() {
        Task::TrackMove {
            seat,
            company,
            steps,
        } => {
            let mut left = steps;
            while left > 0 {
                match effects::step_status(data, state, seat, company) {
                    StepStatus::Free => {
                        effects::track_step(ctx, state, seat, company);
                        left -= 1;
                    }
                    // Steps that cannot be taken are said, with why: otherwise a reward's
                    // "+2" that moved the marker one space reads as a miscount.
                    StepStatus::End => {
                        ctx.count("track_end_forfeit");
                        ctx.say(
                            "event.track_end_forfeit",
                            &[
                                ("name", &state.seats[seat].name),
                                ("company", &data.company_name(company)),
                                ("steps", &left),
                            ],
                        );
                        left = 0;
                    }
                    StepStatus::Barrier(cost) if state.seats[seat].coins < cost => {
                        ctx.count("barrier_stop");
                        ctx.say(
                            "event.barrier_unaffordable",
                            &[
                                ("name", &state.seats[seat].name),
                                ("company", &data.company_name(company)),
                                ("cost", &cost),
                                ("coins", &state.seats[seat].coins),
                                ("steps", &left),
                            ],
                        );
                        left = 0;
                    }
                    StepStatus::Barrier(_) => break,
                }
            }
            let moved = steps - left;
            state.agenda.pop();
            if left > 0 {
                state.agenda.push(Task::TrackMove {
                    seat,
                    company,
                    steps: left,
                });
                return Some(moved > 0);
            }
            Some(true)
        }
        _ => None,
    }
}
