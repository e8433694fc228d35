//! Action 5: Place a bonus marker (rulebook, "5) Place 1 bonus marker", pp. 16–17) on a vacant
//! bonus space of the board: a majority space (the seat must have at least as much as everyone,
//! Luna's majority cards included, and chooses a reward tier it meets), a standard space (pay,
//! keep off the first player's first turn, or discard a card from the hand, for its rewards —
//! buying a display card for coins among them) or a bonus tile space (reserves the tile for the
//! next round). With the mission cards a one-time marker may be placed instead, also on the
//! personal bonus space of the seat's status card ("Module: Mission cards", p. 25). Track bonus
//! spaces are `track_bonus`'s.

use super::costs::{cheapest_display_cost, display_cost};
use super::rewards::push_rewards;
use super::turn::begin_action;
use super::{buy_choices, hand_discards, track_bonus, wrong};
use crate::data::board::{BonusSpaceKind, MajorityCompare};
use crate::data::{GameData, Requirement, Resource, Reward};
use crate::engine::decision::{BonusRef, Decision, DiscardPurpose, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, Marker};
use crate::engine::{illegal, luna, RuleError};

/// Tiers (indices) of a majority space the seat qualifies for.
fn qualifying_tiers(data: &GameData, state: &GameState, seat: usize, space: usize) -> Vec<u8> {
    let entry = &data.board.bonus_spaces[space];
    let t = effects::area_totals(data, state, seat, None);
    entry
        .tiers
        .iter()
        .enumerate()
        .filter(|(_, tier)| match entry.compare {
            Some(MajorityCompare::ResearchScientistCards) => {
                let others = t.research_scientists.saturating_sub(1) + t.field_scientists;
                t.research_scientists >= tier.min_research_scientists.max(1)
                    && others >= tier.min_other_scientists
            }
            Some(c) => effects::majority_value(data, state, seat, c) >= tier.min,
            None => false,
        })
        .map(|(i, _)| i as u8)
        .collect()
}

/// Whether the seat may place a (one-time) bonus marker on `space` now.
pub(super) fn check_place(
    data: &GameData,
    state: &GameState,
    seat: usize,
    space: BonusRef,
    one_time: bool,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    if one_time {
        if s.mission.as_ref().is_none_or(|m| m.one_time_reserve == 0) {
            return Err(illegal("rule.no_one_time_marker", &[]));
        }
    } else if s.markers_reserve == 0 {
        return Err(illegal("rule.no_bonus_marker", &[]));
    }
    match space {
        BonusRef::Personal => {
            let Some(status) = s.mission.as_ref() else {
                return Err(illegal("rule.no_status_card", &[]));
            };
            if !status.personal_unlocked() {
                return Err(illegal("rule.personal_space_locked", &[]));
            }
            if status.personal.is_some() {
                return Err(illegal("rule.personal_space_taken", &[]));
            }
            let pay: u32 = data
                .missions
                .personal_bonus_space
                .requirements()
                .iter()
                .map(|r| match r {
                    Requirement::Pay { n } => *n,
                    _ => 0,
                })
                .sum();
            if s.coins < pay {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: pay,
                });
            }
            Ok(())
        }
        BonusRef::Board(i) => {
            let i = i as usize;
            let Some(entry) = data.board.bonus_spaces.get(i) else {
                return Err(illegal("rule.no_such_bonus_space", &[]));
            };
            if state.bonus_spaces[i].is_some() {
                return Err(illegal("rule.bonus_space_taken", &[]));
            }
            match entry.kind {
                BonusSpaceKind::Majority => {
                    let Some(compare) = entry.compare else {
                        return Ok(());
                    };
                    let mine = effects::majority_value(data, state, seat, compare);
                    for other in 0..state.seats.len() {
                        if let Some(theirs) = luna::majority_value(data, state, other, compare) {
                            if theirs > mine {
                                return Err(illegal(
                                    "rule.majority_luna",
                                    &[("theirs", &theirs), ("mine", &mine)],
                                ));
                            }
                        } else if other != seat {
                            let theirs = effects::majority_value(data, state, other, compare);
                            if theirs > mine {
                                return Err(illegal(
                                    "rule.majority_other",
                                    &[
                                        ("name", &state.seats[other].name),
                                        ("theirs", &theirs),
                                        ("mine", &mine),
                                    ],
                                ));
                            }
                        }
                    }
                    Ok(())
                }
                _ => {
                    let mut pay = 0;
                    for req in &entry.requirement {
                        match req {
                            Requirement::Pay { n } => pay += n,
                            Requirement::NotFirstPlayerOnFirstTurnOfRound
                                if state.first_player == seat && s.turns_this_round == 0 =>
                            {
                                return Err(illegal("rule.first_player_space", &[]));
                            }
                            Requirement::DiscardFromHand { card }
                                if !has_discardable(data, state, seat, card) =>
                            {
                                return Err(illegal("rule.nothing_to_discard", &[]));
                            }
                            _ => {}
                        }
                    }
                    if s.coins < pay {
                        return Err(RuleError::NotEnoughCoins {
                            have: s.coins,
                            need: pay,
                        });
                    }
                    for r in &entry.reward {
                        if let Reward::BuyDisplayCard { discount } = r {
                            let cheapest =
                                cheapest_display_cost(data, state, seat, &[], false, *discount);
                            match cheapest {
                                Some(c) if c + pay <= s.coins => {}
                                Some(c) => {
                                    return Err(RuleError::NotEnoughCoins {
                                        have: s.coins,
                                        need: c + pay,
                                    })
                                }
                                None => return Err(illegal("rule.display_empty", &[])),
                            }
                        }
                    }
                    Ok(())
                }
            }
        }
        BonusRef::Track(b) => track_bonus::check_space(data, state, seat, b as usize),
    }
}

/// Whether the seat holds a card matching a discard requirement's filter.
pub(super) fn has_discardable(
    data: &GameData,
    state: &GameState,
    seat: usize,
    filter: &str,
) -> bool {
    let want = Resource::parse(filter);
    state.seats[seat]
        .hand
        .iter()
        .any(|c| want.is_none() || data.card(*c).resource() == want)
}

/// The action: the marker goes on the space, which pays out.
pub(super) fn begin(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    space: BonusRef,
    one_time: bool,
) {
    begin_action(state, seat);
    place_bonus(ctx, state, seat, space, one_time);
}

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    match task {
        Task::ChooseTier { tiers, .. } => tiers
            .iter()
            .map(|&tier| Decision::ChooseTier { tier })
            .collect(),
        Task::BuyForCoins { .. } => buy_choices(),
        Task::DiscardFromHand { seat, .. } => hand_discards(state, *seat),
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
        (Task::ChooseTier { tiers, .. }, Decision::ChooseTier { tier }) => {
            if !tiers.contains(&tier) {
                return Err(illegal("rule.tier_not_met", &[]));
            }
            Ok(())
        }
        (Task::BuyForCoins { discount, .. }, Decision::BuyCard { space }) => {
            let cost = display_cost(data, state, seat, space, &[], false, *discount)?;
            if cost > s.coins {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: cost,
                });
            }
            Ok(())
        }
        (Task::BuyForCoins { optional, .. }, Decision::NoBuy) => {
            if !optional {
                return Err(illegal("rule.bonus_buys_card", &[]));
            }
            Ok(())
        }
        (Task::DiscardFromHand { filter, .. }, Decision::DiscardCard { card }) => {
            if !s.hand.contains(&card) {
                return Err(illegal("rule.card_not_in_hand", &[]));
            }
            if let Some(r) = filter {
                if data.card(card).resource() != Some(*r) {
                    return Err(illegal("rule.discard_resource", &[("resource", &r.name())]));
                }
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
        (
            Task::ChooseTier {
                space, tiers: _, ..
            },
            Decision::ChooseTier { tier },
        ) => {
            state.agenda.pop();
            if let Some(t) = data.board.bonus_spaces[space as usize]
                .tiers
                .get(tier as usize)
            {
                push_rewards(state, seat, &t.reward.clone());
            }
        }
        (Task::BuyForCoins { discount, .. }, Decision::BuyCard { space }) => {
            let cost = display_cost(data, state, seat, space, &[], false, discount).unwrap_or(0);
            effects::pay(ctx, state, seat, cost);
            if let Some(card) = state.display[space as usize - 1].take() {
                state.seats[seat].hand.push(card);
                ctx.count("buy_for_coins");
                ctx.say(
                    "event.buy_for_coins",
                    &[
                        ("name", &name),
                        ("card", &data.card_label(card)),
                        ("cost", &cost),
                        ("space", &space),
                    ],
                );
            }
            state.agenda.pop();
        }
        (Task::BuyForCoins { .. }, Decision::NoBuy) => {
            state.agenda.pop();
        }
        (Task::DiscardFromHand { purpose, .. }, Decision::DiscardCard { card }) => {
            state.seats[seat].hand.retain(|c| *c != card);
            state.discard.push(card);
            ctx.say(
                "event.discard",
                &[("name", &name), ("card", &data.card_label(card))],
            );
            state.agenda.pop();
            match purpose {
                DiscardPurpose::Coins { plus } => {
                    effects::gain_coins(ctx, state, seat, data.card(card).cost + plus);
                }
                DiscardPurpose::DiscardAction { and_or } => {
                    state
                        .agenda
                        .push(Task::DiscardActionChoice { seat, card, and_or });
                }
            }
        }
        _ => {}
    }
}

fn place_bonus(ctx: &mut Ctx, state: &mut GameState, seat: usize, space: BonusRef, one_time: bool) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match state.seats[seat].mission.as_mut() {
        Some(m) if one_time => {
            m.one_time_reserve = m.one_time_reserve.saturating_sub(1);
            m.one_time_placed += 1;
            ctx.count("one_time_marker_placed");
        }
        _ => state.seats[seat].markers_reserve -= 1,
    }
    let marker = Some(Marker { seat, one_time });
    match space {
        BonusRef::Personal => {
            if let Some(m) = state.seats[seat].mission.as_mut() {
                m.personal = marker;
            }
            ctx.count("bonus_personal_space");
            ctx.say(
                if one_time {
                    "event.one_time_personal_space"
                } else {
                    "event.bonus_personal_space"
                },
                &[("name", &name)],
            );
            let personal = &data.missions.personal_bonus_space;
            for req in personal.requirements() {
                if let Requirement::Pay { n } = req {
                    effects::pay_for_space(ctx, state, seat, n);
                }
            }
            push_rewards(state, seat, &personal.rewards());
        }
        BonusRef::Board(i) => {
            let i = i as usize;
            state.bonus_spaces[i] = marker;
            let entry = &data.board.bonus_spaces[i];
            ctx.count(match entry.kind {
                BonusSpaceKind::Majority => "bonus_majority",
                BonusSpaceKind::Standard => "bonus_standard",
                BonusSpaceKind::Tile => "bonus_tile_space",
            });
            ctx.say(
                if one_time {
                    "event.one_time_marker"
                } else {
                    "event.bonus_marker"
                },
                &[("name", &name), ("space", &data.bonus_space_name(i))],
            );
            match entry.kind {
                BonusSpaceKind::Majority => {
                    let tiers = qualifying_tiers(data, state, seat, i);
                    if tiers.is_empty() {
                        ctx.count("majority_no_reward");
                        ctx.say("event.no_tier", &[("name", &name)]);
                    } else {
                        state.agenda.push(Task::ChooseTier {
                            seat,
                            space: i as u8,
                            tiers,
                        });
                    }
                }
                _ => {
                    let mut discard_filter = None;
                    for req in &entry.requirement {
                        match req {
                            Requirement::Pay { n } => effects::pay_for_space(ctx, state, seat, *n),
                            Requirement::DiscardFromHand { card } => {
                                discard_filter = Some(Resource::parse(card))
                            }
                            _ => {}
                        }
                    }
                    for r in entry.reward.iter().rev() {
                        match (r, discard_filter) {
                            (Reward::CoinsPrintedCostPlus { n }, Some(filter)) => {
                                state.agenda.push(Task::DiscardFromHand {
                                    seat,
                                    filter,
                                    purpose: DiscardPurpose::Coins { plus: *n },
                                });
                            }
                            _ => state.agenda.push(Task::Reward {
                                seat,
                                reward: r.clone(),
                            }),
                        }
                    }
                }
            }
        }
        BonusRef::Track(b) => track_bonus::place(ctx, state, seat, b as usize, marker),
    }
}
