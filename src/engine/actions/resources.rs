//! Action 1: Use resource cards of a single type (rulebook, "1) Use 1 or more resource cards of a
//! single type", p. 11): the chosen face-up cards add up to a resource value that buys at most one
//! display card and/or moves track markers one step per unit; mixing types needs the track bonus
//! that allows it ("Details of the company tracks: Permanent bonuses", pp. 21–23). The "+1"
//! resource tile ("Details of the bonus tiles", p. 20) is placed on a face-up resource card as a
//! free step and flips with it.

use super::costs::{cheapest_display_cost, display_cost, mixed_allowed, resource_value};
use super::turn::{begin_action, replace_top};
use super::{buy_choices, wrong};
use crate::data::{CardId, Company, GameData, Resource};
use crate::engine::decision::{Decision, Task};
use crate::engine::effects::{self, StepStatus};
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, SlotCard, TileKind, TileState};
use crate::engine::{illegal, RuleError};
use crate::text;

/// Whether the seat may put its "+1" tile on `card` now.
pub(super) fn check_place_tile(
    data: &GameData,
    state: &GameState,
    seat: usize,
    card: CardId,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match state.tile(TileKind::PlusOne) {
        TileState::Held {
            seat: h,
            used: false,
            on_card: None,
        } if h == seat => {}
        TileState::Held {
            seat: h,
            on_card: Some(_),
            ..
        } if h == seat => return Err(illegal("rule.tile_placed", &[])),
        _ => return Err(illegal("rule.no_tile", &[])),
    }
    match s.slot_of(card).and_then(|i| s.slots[i]) {
        Some(SlotCard::Up(c)) if data.card(c).resource().is_some() => Ok(()),
        _ => Err(illegal("rule.tile_target", &[])),
    }
}

/// The free step: the "+1" tile goes on a face-up resource card.
pub(super) fn place_tile(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: CardId) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    state.tiles[GameState::tile_index(TileKind::PlusOne)] = TileState::Held {
        seat,
        used: false,
        on_card: Some(card),
    };
    ctx.count("plus_one_tile");
    ctx.say(
        "event.plus_one_tile",
        &[
            ("name", &name),
            ("card", &text::Deferred(|| data.card_label(card))),
        ],
    );
}

/// Whether the seat may use its face-up cards of `resource` (None: mixed types).
pub(super) fn check_use(
    data: &GameData,
    state: &GameState,
    seat: usize,
    resource: Option<Resource>,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match resource {
        Some(r) => {
            if s.up_cards()
                .any(|(_, c)| data.card(c).resource() == Some(r))
            {
                Ok(())
            } else {
                Err(illegal(
                    "rule.no_face_up_resource",
                    // Asked for each resource whenever the actions are listed.
                    &[("resource", &text::Lazy(|| r.name()))],
                ))
            }
        }
        None => {
            if !mixed_allowed(data, state, seat) {
                return Err(illegal("rule.mixing_needs_bonus", &[]));
            }
            let mut types: Vec<Resource> = s
                .up_cards()
                .filter_map(|(_, c)| data.card(c).resource())
                .collect();
            types.sort();
            types.dedup();
            if types.len() < 2 {
                return Err(illegal("rule.mixed_needs_two", &[]));
            }
            Ok(())
        }
    }
}

/// Starts the action: the seat selects the cards to use.
pub(super) fn begin(state: &mut GameState, seat: usize, resource: Option<Resource>) {
    begin_action(state, seat);
    state.agenda.push(Task::SelectResources {
        seat,
        resource,
        chosen: Vec::new(),
    });
}

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    let s = &state.seats[task.seat()];
    match task {
        Task::SelectResources { .. } => {
            let mut out = vec![Decision::FinishSelecting];
            out.extend(s.up_cards().map(|(_, card)| Decision::SelectCard { card }));
            out
        }
        Task::BuyWithUnits { .. } => buy_choices(),
        Task::SpendUnits { .. } => {
            let mut out = vec![Decision::StopTracks];
            out.extend(Company::ALL.map(|company| Decision::TrackStep { company }));
            out
        }
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
        (
            Task::SelectResources {
                resource, chosen, ..
            },
            Decision::SelectCard { card },
        ) => {
            let Some(slot) = s.slot_of(card) else {
                return Err(illegal("rule.card_not_in_area", &[]));
            };
            if s.slots[slot] != Some(SlotCard::Up(card)) {
                return Err(illegal("rule.card_face_down", &[]));
            }
            let Some(r) = data.card(card).resource() else {
                return Err(illegal("rule.not_a_resource_card", &[]));
            };
            if let Some(want) = resource {
                if r != *want {
                    return Err(illegal(
                        "rule.wrong_resource",
                        &[("want", &want.name()), ("card", &r.name())],
                    ));
                }
            }
            if chosen.contains(&card) {
                return Err(illegal("rule.card_already_chosen", &[]));
            }
            Ok(())
        }
        (
            Task::SelectResources {
                resource, chosen, ..
            },
            Decision::FinishSelecting,
        ) => {
            if chosen.is_empty() {
                return Err(illegal("rule.choose_a_resource_card", &[]));
            }
            if resource.is_none() {
                let units = resource_value(data, state, seat, chosen);
                if cheapest_display_cost(data, state, seat, chosen, true, 0)
                    .is_none_or(|c| c > units)
                {
                    return Err(illegal("rule.mixed_nothing_affordable", &[]));
                }
            }
            Ok(())
        }
        (
            Task::BuyWithUnits {
                units,
                cards,
                mixed,
                ..
            },
            Decision::BuyCard { space },
        ) => {
            let cost = display_cost(data, state, seat, space, cards, *mixed, 0)?;
            if cost > *units {
                return Err(illegal(
                    "rule.units_too_few",
                    &[("units", &units), ("cost", &cost)],
                ));
            }
            Ok(())
        }
        (Task::BuyWithUnits { mixed, .. }, Decision::NoBuy) => {
            if *mixed {
                return Err(illegal("rule.mixed_must_buy", &[]));
            }
            Ok(())
        }
        (Task::SpendUnits { .. }, Decision::TrackStep { company }) => {
            match effects::step_status(data, state, seat, company) {
                StepStatus::End => Err(illegal(
                    "rule.track_at_end",
                    &[("company", &data.company_name(company))],
                )),
                StepStatus::Barrier(cost) if s.coins < cost => Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: cost,
                }),
                _ => Ok(()),
            }
        }
        (Task::SpendUnits { .. }, Decision::StopTracks) => {
            let free = Company::ALL
                .into_iter()
                .find(|c| effects::step_status(data, state, seat, *c) == StepStatus::Free);
            match free {
                Some(c) => Err(illegal(
                    "rule.units_must_be_used",
                    &[("company", &data.company_name(c))],
                )),
                None => Ok(()),
            }
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (
            Task::SelectResources {
                resource,
                mut chosen,
                ..
            },
            Decision::SelectCard { card },
        ) => {
            chosen.push(card);
            replace_top(
                state,
                Task::SelectResources {
                    seat,
                    resource,
                    chosen,
                },
            );
        }
        (
            Task::SelectResources {
                resource, chosen, ..
            },
            Decision::FinishSelecting,
        ) => {
            let units = resource_value(data, state, seat, &chosen);
            let labels = text::Deferred(|| {
                let labels: Vec<String> = chosen.iter().map(|c| data.card_label(*c)).collect();
                labels.join(" + ")
            });
            ctx.say(
                "event.use_resources",
                &[("name", &name), ("cards", &labels), ("units", &units)],
            );
            state.agenda.pop();
            state.agenda.push(Task::FlipUsed {
                seat,
                cards: chosen.clone(),
                tiles: Vec::new(),
            });
            state.agenda.push(Task::BuyWithUnits {
                seat,
                units,
                cards: chosen,
                mixed: resource.is_none(),
                from_discard: false,
            });
        }
        (
            Task::BuyWithUnits {
                units,
                cards,
                mixed,
                ..
            },
            Decision::BuyCard { space },
        ) => {
            let cost = display_cost(data, state, seat, space, &cards, mixed, 0).unwrap_or(units);
            if let Some(card) = state.display[space as usize - 1].take() {
                state.seats[seat].hand.push(card);
                ctx.count("buy_with_units");
                ctx.say(
                    "event.acquire",
                    &[
                        ("name", &name),
                        ("card", &text::Deferred(|| data.card_label(card))),
                        ("space", &space),
                        ("cost", &cost),
                    ],
                );
            }
            state.agenda.pop();
            if units > cost {
                state.agenda.push(Task::SpendUnits {
                    seat,
                    units: units - cost,
                });
            }
        }
        (Task::BuyWithUnits { units, .. }, Decision::NoBuy) => {
            state.agenda.pop();
            state.agenda.push(Task::SpendUnits { seat, units });
        }
        (Task::SpendUnits { units, .. }, Decision::TrackStep { company }) => {
            // Its line is the step's own (`effects::track_step`): the chat layer sums a run.
            effects::track_step(ctx, state, seat, company);
            if units > 1 {
                replace_top(
                    state,
                    Task::SpendUnits {
                        seat,
                        units: units - 1,
                    },
                );
            } else {
                state.agenda.pop();
            }
        }
        (Task::SpendUnits { units, .. }, Decision::StopTracks) => {
            ctx.count("units_forfeited");
            ctx.say(
                "event.units_forfeited",
                &[("name", &name), ("units", &units)],
            );
            state.agenda.pop();
        }
        _ => {}
    }
}
