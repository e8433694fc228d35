//! The Action phase, task by task: for the task on top of the agenda, which decisions are
//! candidates, whether one is legal (`check`, with a specific reason when not), and what it does
//! (`perform`, called only after `check` passed). Tasks that need no choice run in `run_auto`.

use super::decision::{ActionSource, BonusRef, Decision, DiscardPurpose, Task};
use super::effects::{self, StepStatus};
use super::flow::Ctx;
use super::round;
use super::state::{GameState, PlacedPlan, PlanRef, SlotCard, TileKind, TileState};
use super::{illegal, Message, RuleError};
use crate::data::board::{BonusSpaceKind, MajorityCompare};
use crate::data::cards::CardKind;
use crate::data::tracks::{BonusSpaceEffect, TrackBonusEffect};
use crate::data::{CardId, Company, GameData, MoonGraph, Requirement, Resource, Reward};

// ------------------------------------------------------------------------------------------
// candidates

pub(crate) fn candidates(data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    let seat = task.seat();
    let s = &state.seats[seat];
    let companies = || {
        Company::ALL
            .into_iter()
            .map(|c| Decision::ChooseCompany { company: c })
    };
    match task {
        Task::ChooseAction { .. } => {
            let mut out = vec![Decision::UseEnergy, Decision::DropOut];
            out.extend(
                [
                    None,
                    Some(Resource::Carbon),
                    Some(Resource::Minerals),
                    Some(Resource::Titanium),
                ]
                .map(|resource| Decision::UseResources { resource }),
            );
            for (slot, card) in s.up_cards() {
                out.push(Decision::PlaceTile { card });
                let source = ActionSource::Slot(slot as u8);
                out.push(Decision::UseResearch { source });
                out.push(Decision::UseField { source });
            }
            out.push(Decision::UseResearch {
                source: ActionSource::Tile,
            });
            out.push(Decision::UseField {
                source: ActionSource::Tile,
            });
            for i in 0..state.bonus_spaces.len() {
                out.push(Decision::PlaceBonus {
                    space: BonusRef::Board(i as u8),
                });
            }
            for i in 0..state.track_bonus_spaces.len() {
                out.push(Decision::PlaceBonus {
                    space: BonusRef::Track(i as u8),
                });
            }
            if state.missions.is_some() {
                out.extend(super::missions::claim_candidates(state));
                out.push(Decision::PlaceBonus {
                    space: BonusRef::Personal,
                });
                let spaces: Vec<BonusRef> = (0..state.bonus_spaces.len() as u8)
                    .map(BonusRef::Board)
                    .chain((0..state.track_bonus_spaces.len() as u8).map(BonusRef::Track))
                    .chain([BonusRef::Personal])
                    .collect();
                out.extend(
                    spaces
                        .into_iter()
                        .map(|space| Decision::PlaceOneTimeBonus { space }),
                );
            }
            out
        }
        Task::SelectResources { .. } => {
            let mut out = vec![Decision::FinishSelecting];
            out.extend(s.up_cards().map(|(_, card)| Decision::SelectCard { card }));
            out
        }
        Task::BuyWithUnits { .. } | Task::BuyForCoins { .. } => {
            let mut out = vec![Decision::NoBuy];
            out.extend((1..=12u8).map(|space| Decision::BuyCard { space }));
            out
        }
        Task::SpendUnits { .. } => {
            let mut out = vec![Decision::StopTracks];
            out.extend(Company::ALL.map(|company| Decision::TrackStep { company }));
            out
        }
        Task::ChooseExpansion { .. } | Task::TrackOfChoice { .. } | Task::OtherTracks { .. } => {
            companies().collect()
        }
        Task::Expand { .. } if state.belt.is_some() => {
            let mut out = vec![Decision::StopExpanding];
            out.extend(super::belt::enter_candidates(data));
            if state.threat.is_some() {
                out.push(Decision::DealWithThreat);
            }
            out
        }
        Task::Expand { .. } => {
            let mut out = vec![Decision::StopExpanding];
            for sector in 1..=data.moon.sectors.len() as u8 {
                for column in 0..3 {
                    out.push(Decision::EnterSector { sector, column });
                }
            }
            out
        }
        Task::ResearchFlip { .. } => {
            let mut out = vec![Decision::SkipFlip];
            out.extend((0..s.research.len() as u8).map(|screen| Decision::FlipPlan { screen }));
            out
        }
        Task::ResearchAdvance { .. } => vec![Decision::Advance, Decision::StopAdvancing],
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
        Task::TrackMove { .. } => vec![Decision::PayBarrier, Decision::DeclineBarrier],
        Task::RemoveOutposts { .. } => Company::ALL
            .into_iter()
            .flat_map(|company| {
                (0..3).map(move |column| Decision::RemoveOutpost { company, column })
            })
            .collect(),
        Task::ReturnOusted { .. } => (0..3)
            .map(|column| Decision::ReturnOutpost { column })
            .collect(),
        Task::ChooseTier { tiers, .. } => tiers
            .iter()
            .map(|&tier| Decision::ChooseTier { tier })
            .collect(),
        Task::ChooseRewards { options, .. } => (0..options.len() as u8)
            .map(|option| Decision::ChooseOption { option })
            .collect(),
        Task::DiscardActionChoice { .. } => (0..3)
            .map(|option| Decision::ChooseOption { option })
            .collect(),
        Task::DiscardFromHand { .. } => s
            .hand
            .iter()
            .map(|&card| Decision::DiscardCard { card })
            .collect(),
        Task::TakeFromDiscard { .. } => state
            .discard
            .iter()
            .map(|&card| Decision::TakeFromDiscard { card })
            .collect(),
        Task::TakeRestingDeck { .. } => (0..5)
            .map(|slot| Decision::TakeRestingDeck { slot })
            .collect(),
        Task::RestCards { .. } => s
            .slots
            .iter()
            .flatten()
            .flat_map(|c| {
                (0..5).map(move |slot| Decision::RestCard {
                    card: c.card(),
                    slot,
                })
            })
            .collect(),
        Task::PlacePlans { .. } => (0..s.acquired.len() as u8)
            .flat_map(|index| {
                (0..s.research.len() as u8).map(move |screen| Decision::PlacePlan { index, screen })
            })
            .collect(),
        Task::ClaimTasks { .. } => {
            let mut out = vec![Decision::EndClaims];
            out.extend(super::missions::claim_candidates(state));
            out
        }
        Task::DiscardEnergy { .. } => s
            .hand
            .iter()
            .map(|&card| Decision::DiscardCard { card })
            .collect(),
        Task::Reward { .. }
        | Task::FlipUsed { .. }
        | Task::EndTurn { .. }
        | Task::ThreatReward { .. } => Vec::new(),
    }
}

// ------------------------------------------------------------------------------------------
// check

fn wrong(task: &Task) -> RuleError {
    RuleError::Waiting(describe(task))
}

/// The catalog key (`task.*`) of what a task asks.
pub(crate) fn describe(task: &Task) -> &'static str {
    match task {
        Task::ChooseAction { .. } => "task.choose_action",
        Task::SelectResources { .. } => "task.select_resources",
        Task::BuyWithUnits { .. } => "task.buy_with_units",
        Task::SpendUnits { .. } => "task.spend_units",
        Task::ChooseExpansion { .. } => "task.choose_company",
        Task::Expand { .. } => "task.expand",
        Task::ResearchFlip { .. } => "task.research_flip",
        Task::ResearchAdvance { .. } => "task.research_advance",
        Task::SpendResearch { .. } => "task.spend_research",
        Task::TrackMove { .. } => "task.track_move",
        Task::TrackOfChoice { .. } => "task.track_of_choice",
        Task::OtherTracks { .. } => "task.other_tracks",
        Task::RemoveOutposts { .. } => "task.remove_outposts",
        Task::ReturnOusted { .. } => "task.return_ousted",
        Task::ChooseTier { .. } => "task.choose_tier",
        Task::ChooseRewards { .. } => "task.choose_rewards",
        Task::BuyForCoins { .. } => "task.buy_for_coins",
        Task::DiscardFromHand { .. } => "task.discard_from_hand",
        Task::DiscardActionChoice { .. } => "task.discard_action",
        Task::TakeFromDiscard { .. } => "task.take_from_discard",
        Task::Reward { .. } => "task.reward",
        Task::TakeRestingDeck { .. } => "task.take_resting_deck",
        Task::RestCards { .. } => "task.rest_cards",
        Task::PlacePlans { .. } => "task.place_plans",
        Task::FlipUsed { .. } | Task::EndTurn { .. } => "task.end_turn",
        Task::ClaimTasks { .. } => "task.claim_tasks",
        Task::DiscardEnergy { .. } => "task.discard_energy",
        Task::ThreatReward { .. } => "task.threat_reward",
    }
}

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
    let s = &state.seats[seat];
    match (task, d) {
        (Task::ChooseAction { .. }, _) => check_action(data, state, seat, d),
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
                let units: u32 = chosen
                    .iter()
                    .map(|c| effects::card_units(data, state, seat, *c))
                    .sum();
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
        (Task::ChooseExpansion { .. }, Decision::ChooseCompany { company })
            if state.belt.is_some() =>
        {
            if state.outposts_in_station(company) + state.shuttles_in_station(company) == 0 {
                return Err(illegal(
                    "rule.station_empty_belt",
                    &[("company", &data.company_name(company))],
                ));
            }
            Ok(())
        }
        (Task::ChooseExpansion { .. }, Decision::ChooseCompany { company }) => {
            if state.outposts_in_station(company) == 0 {
                return Err(illegal(
                    "rule.station_empty",
                    &[("company", &data.company_name(company))],
                ));
            }
            Ok(())
        }
        (Task::Expand { .. }, Decision::EnterSector { .. }) if state.belt.is_some() => {
            Err(illegal("rule.belt_enters_spaces", &[]))
        }
        (
            Task::Expand {
                company, energy, ..
            },
            Decision::EnterBelt {
                target,
                space,
                column,
            },
        ) => super::belt::check_enter(data, state, *company, *energy, target, space, column),
        (Task::Expand { .. }, Decision::DealWithThreat) => {
            super::threats::check_deal(data, state, seat)
        }
        (
            Task::Expand {
                company,
                energy,
                entered,
                ..
            },
            Decision::EnterSector { sector, column },
        ) => {
            if column > 2 || state.stations[company.index()][column as usize].outposts == 0 {
                return Err(illegal("rule.column_empty", &[("column", &(column + 1))]));
            }
            let cost = sector_cost(data, state, *company, sector, entered)?;
            if cost > *energy {
                return Err(illegal(
                    "rule.sector_too_costly",
                    &[("energy", &energy), ("sector", &sector), ("cost", &cost)],
                ));
            }
            Ok(())
        }
        (Task::Expand { .. }, Decision::StopExpanding) => Ok(()),
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
                None => Err(illegal("rule.screen_no_plan", &[("screen", &(screen + 1))])),
            }
        }
        (Task::ResearchFlip { .. }, Decision::SkipFlip) => Ok(()),
        (Task::ResearchAdvance { source, .. }, Decision::Advance) => {
            check_advance(data, state, seat, *source)
        }
        (Task::ResearchAdvance { .. }, Decision::StopAdvancing) => Ok(()),
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
        (Task::RemoveOutposts { .. }, Decision::RemoveOutpost { column, .. })
            if state.shuttle_column() == Some(column as usize) =>
        {
            Err(illegal("rule.outposts_only", &[]))
        }
        (Task::RemoveOutposts { .. }, Decision::RemoveOutpost { company, column }) => {
            if column > 2 || state.stations[company.index()][column as usize].outposts == 0 {
                return Err(illegal("rule.that_column_empty", &[]));
            }
            Ok(())
        }
        (Task::ReturnOusted { .. }, Decision::ReturnOutpost { column })
            if state.shuttle_column() == Some(column as usize) =>
        {
            Err(illegal("rule.ousted_column", &[]))
        }
        (Task::ReturnOusted { company, .. }, Decision::ReturnOutpost { column }) => {
            let spaces = state.station_shape(data).spaces;
            if column > 2
                || !state.stations[company.index()][column as usize]
                    .has_room_in(spaces[column as usize])
            {
                return Err(illegal("rule.column_full", &[]));
            }
            Ok(())
        }
        (Task::ChooseTier { tiers, .. }, Decision::ChooseTier { tier }) => {
            if !tiers.contains(&tier) {
                return Err(illegal("rule.tier_not_met", &[]));
            }
            Ok(())
        }
        (Task::ChooseRewards { options, .. }, Decision::ChooseOption { option }) => {
            if option as usize >= options.len() {
                return Err(illegal("rule.no_such_option", &[]));
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
        (Task::DiscardActionChoice { card, and_or, .. }, Decision::ChooseOption { option }) => {
            let can_act = data.card(*card).is_playable();
            let can_buy = s.coins >= 2 && !state.discard.is_empty();
            let ok = match option {
                0 => can_act,
                1 => can_buy,
                2 => *and_or && can_act && can_buy,
                _ => false,
            };
            if !ok {
                return Err(illegal(
                    match option {
                        0 => "rule.card_no_action",
                        1 => "rule.discard_pile_buy",
                        _ => "rule.option_unavailable",
                    },
                    &[],
                ));
            }
            Ok(())
        }
        (Task::TakeFromDiscard { .. }, Decision::TakeFromDiscard { card }) => {
            if !state.discard.contains(&card) {
                return Err(illegal("rule.not_in_discard", &[]));
            }
            if s.coins < 2 {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: 2,
                });
            }
            Ok(())
        }
        (Task::TakeRestingDeck { .. }, Decision::TakeRestingDeck { slot }) => {
            if s.resting.get(slot as usize).is_none_or(|d| d.is_empty()) {
                return Err(illegal("rule.resting_slot_empty", &[("slot", &(slot + 1))]));
            }
            Ok(())
        }
        (Task::RestCards { used_slots, .. }, Decision::RestCard { card, slot }) => {
            let Some(from) = s.slot_of(card) else {
                return Err(illegal("rule.card_not_in_slots", &[]));
            };
            if slot > 4 {
                return Err(illegal("rule.five_resting_slots", &[]));
            }
            if used_slots.contains(&slot) {
                return Err(illegal("rule.resting_slot_used", &[("slot", &(slot + 1))]));
            }
            if state.options.linked_slots && from != slot as usize {
                return Err(illegal("rule.linked_slots", &[("slot", &(from + 1))]));
            }
            Ok(())
        }
        (Task::PlacePlans { .. }, Decision::PlacePlan { index, screen }) => {
            let Some(plan) = s.acquired.get(index as usize) else {
                return Err(illegal("rule.no_such_acquired_plan", &[]));
            };
            screen_ok(data, state, seat, is_a_plan(data, *plan), screen)
        }
        (Task::ClaimTasks { .. }, Decision::ClaimTask { card, column }) => {
            super::missions::check_claim(data, state, seat, card, column, true)
        }
        (Task::ClaimTasks { .. }, Decision::EndClaims) => Ok(()),
        (Task::DiscardEnergy { .. }, Decision::DiscardCard { card }) => {
            super::threats::check_discard(data, state, seat, card)
        }
        (task, _) => Err(wrong(task)),
    }
}

fn is_a_plan(data: &GameData, plan: PlanRef) -> bool {
    matches!(plan, PlanRef::Regular(p) if data.research.plans[p as usize].letter == 'A')
}

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

/// Total cost of the display card on `space` (1–12) when paying with `cards` (resource units)
/// or, with no cards, with coins and a bonus discount.
fn display_cost(
    data: &GameData,
    state: &GameState,
    seat: usize,
    space: u8,
    cards: &[CardId],
    mixed: bool,
    coin_discount: u32,
) -> Result<u32, RuleError> {
    let Some(Some(card)) = (space as usize)
        .checked_sub(1)
        .and_then(|i| state.display.get(i))
    else {
        return Err(illegal("rule.display_space_empty", &[("space", &space)]));
    };
    let printed = data.card(*card).cost + data.display_board_cost(space as usize);
    let discount = if cards.is_empty() {
        coin_discount
    } else {
        resource_discount(data, state, seat, cards, mixed)
    };
    Ok(printed.saturating_sub(discount))
}

fn cheapest_display_cost(
    data: &GameData,
    state: &GameState,
    seat: usize,
    cards: &[CardId],
    mixed: bool,
    coin_discount: u32,
) -> Option<u32> {
    (1..=12u8)
        .filter_map(|space| {
            display_cost(data, state, seat, space, cards, mixed, coin_discount).ok()
        })
        .min()
}

/// Track-bonus discounts when buying a display card with resource cards.
fn resource_discount(
    data: &GameData,
    state: &GameState,
    seat: usize,
    cards: &[CardId],
    mixed: bool,
) -> u32 {
    let pays_with = |r: Resource| cards.iter().any(|c| data.card(*c).resource() == Some(r));
    let _ = mixed;
    effects::effective_bonuses(data, state, seat)
        .map(|b| match b.effect {
            TrackBonusEffect::MixedPaymentAndDiscount { n } => n,
            TrackBonusEffect::DisplayDiscount { n, resource } if pays_with(resource) => n,
            _ => 0,
        })
        .sum()
}

fn mixed_allowed(data: &GameData, state: &GameState, seat: usize) -> bool {
    effects::effective_bonuses(data, state, seat)
        .any(|b| matches!(b.effect, TrackBonusEffect::MixedPaymentAndDiscount { .. }))
}

/// Energy to enter `sector` for `company`: the cheapest border from its station or one of its
/// sectors (including those entered this action), +1 when another company's outpost is there.
fn sector_cost(
    data: &GameData,
    state: &GameState,
    company: Company,
    sector: u8,
    entered: &[(u8, Option<Company>)],
) -> Result<u32, RuleError> {
    if sector == 0 || sector as usize > state.sectors.len() {
        return Err(illegal("rule.no_such_sector", &[("sector", &sector)]));
    }
    let occupant = state.sectors[sector as usize - 1];
    if occupant == Some(company) {
        return Err(illegal(
            "rule.sector_taken",
            &[
                ("sector", &sector),
                ("company", &data.company_name(company)),
            ],
        ));
    }
    let node = MoonGraph::sector_node(sector as u32);
    let line = data.moon_graph.neighbours[node]
        .iter()
        .filter(|(n, _)| {
            *n == MoonGraph::station_node(company)
                || MoonGraph::node_sector(*n)
                    .is_some_and(|s| state.sectors[s as usize - 1] == Some(company))
        })
        .map(|(_, line)| line.energy())
        .min();
    let _ = entered;
    let Some(line) = line else {
        return Err(illegal(
            "rule.sector_not_adjacent",
            &[
                ("sector", &sector),
                ("company", &data.company_name(company)),
            ],
        ));
    };
    Ok(line + u32::from(occupant.is_some()))
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
        return Err(illegal("rule.screen_empty", &[("screen", &(next + 1))]));
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
fn source_research_points(
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

// --- choosing the action

fn check_action(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match d {
        Decision::PlaceTile { card } => {
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
        Decision::UseResources { resource: Some(r) } => {
            if s.up_cards()
                .any(|(_, c)| data.card(c).resource() == Some(r))
            {
                Ok(())
            } else {
                Err(illegal(
                    "rule.no_face_up_resource",
                    &[("resource", &r.name())],
                ))
            }
        }
        Decision::UseResources { resource: None } => {
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
        Decision::UseEnergy => {
            if effects::area_totals(data, state, seat, None).energy_cards == 0 {
                return Err(illegal("rule.no_face_up_energy", &[]));
            }
            Ok(())
        }
        Decision::UseResearch { source } => match source {
            ActionSource::Tile if state.holds_unused_tile(seat, TileKind::ResearchScientist) => {
                Ok(())
            }
            ActionSource::Slot(i) => match effects::up_card_in_slot(state, seat, i) {
                Some(c) if data.card(c).is_research_scientist() => Ok(()),
                _ => Err(illegal("rule.no_research_scientist_there", &[])),
            },
            _ => Err(illegal("rule.no_research_tile", &[])),
        },
        Decision::UseField { source } => match source {
            ActionSource::Tile if state.holds_unused_tile(seat, TileKind::FieldScientist) => Ok(()),
            ActionSource::Slot(i) => match effects::up_card_in_slot(state, seat, i) {
                Some(c) if data.card(c).is_field_scientist() => Ok(()),
                _ => Err(illegal("rule.no_field_scientist_there", &[])),
            },
            _ => Err(illegal("rule.no_field_tile", &[])),
        },
        Decision::PlaceBonus { space } => check_bonus(data, state, seat, space, false),
        Decision::PlaceOneTimeBonus { space } => check_bonus(data, state, seat, space, true),
        Decision::ClaimTask { card, column } => {
            super::missions::check_claim(data, state, seat, card, column, false)
        }
        Decision::DropOut => Ok(()),
        _ => Err(RuleError::NotNow(Message::new(
            "rule.choose_action_first",
            &[],
        ))),
    }
}

/// The value a majority space compares for a seat.
fn majority_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    compare: MajorityCompare,
) -> u32 {
    let t = effects::area_totals(data, state, seat, None);
    match compare {
        MajorityCompare::ResearchScientistCards => t.research_scientists,
        MajorityCompare::TitaniumUnits => t.units_of(Resource::Titanium),
        MajorityCompare::CarbonUnits => t.units_of(Resource::Carbon),
        MajorityCompare::MineralsUnits => t.units_of(Resource::Minerals),
        MajorityCompare::EnergyPoints => t.energy,
    }
}

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
            Some(c) => majority_value(data, state, seat, c) >= tier.min,
            None => false,
        })
        .map(|(i, _)| i as u8)
        .collect()
}

fn check_bonus(
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
                    let mine = majority_value(data, state, seat, compare);
                    for other in 0..state.seats.len() {
                        if let Some(theirs) =
                            super::luna::majority_value(data, state, other, compare)
                        {
                            if theirs > mine {
                                return Err(illegal(
                                    "rule.majority_luna",
                                    &[("theirs", &theirs), ("mine", &mine)],
                                ));
                            }
                        } else if other != seat {
                            let theirs = majority_value(data, state, other, compare);
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
        BonusRef::Track(b) => {
            let b = b as usize;
            let Some(bonus) = data.tracks.bonuses.get(b) else {
                return Err(illegal("rule.no_such_track_bonus", &[]));
            };
            let TrackBonusEffect::BonusSpace(effect) = &bonus.effect else {
                return Err(illegal("rule.track_bonus_not_space", &[]));
            };
            if !state.has_bonus(seat, b) {
                return Err(illegal("rule.track_bonus_locked", &[("bonus", &bonus.id)]));
            }
            if state.track_bonus_spaces[b].is_some() {
                return Err(illegal("rule.track_bonus_taken", &[]));
            }
            let twin_taken = data.tracks.bonuses.iter().enumerate().any(|(j, o)| {
                j != b
                    && o.pair == bonus.pair
                    && state.track_bonus_spaces[j].is_some_and(|m| m.seat == seat)
            });
            if twin_taken {
                return Err(illegal("rule.track_bonus_pair", &[]));
            }
            if s.coins < effect.pay {
                return Err(RuleError::NotEnoughCoins {
                    have: s.coins,
                    need: effect.pay,
                });
            }
            if let Some(filter) = &effect.discard_from_hand {
                if !has_discardable(data, state, seat, filter) {
                    return Err(illegal("rule.no_card_to_discard", &[("filter", filter)]));
                }
            }
            Ok(())
        }
    }
}

fn has_discardable(data: &GameData, state: &GameState, seat: usize, filter: &str) -> bool {
    let want = Resource::parse(filter);
    state.seats[seat]
        .hand
        .iter()
        .any(|c| want.is_none() || data.card(*c).resource() == want)
}

// ------------------------------------------------------------------------------------------
// perform

fn replace_top(state: &mut GameState, task: Task) {
    state.agenda.pop();
    state.agenda.push(task);
}

fn push_rewards(state: &mut GameState, seat: usize, rewards: &[Reward]) {
    for r in rewards.iter().rev() {
        state.agenda.push(Task::Reward {
            seat,
            reward: r.clone(),
        });
    }
}

/// Starts an action: the end-of-turn steps go under it.
fn begin_action(state: &mut GameState, seat: usize) {
    state.agenda.pop();
    state.agenda.push(Task::EndTurn { seat });
    if super::missions::has_open_tasks(state, seat) {
        state.agenda.push(Task::ClaimTasks { seat });
    }
    state.agenda.push(Task::PlacePlans { seat });
    state.seats[seat].tank_steps_this_action = 0;
    super::missions::begin_action(state, seat);
}

pub(crate) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, d: Decision) {
    let data = ctx.data;
    let Some(task) = state.agenda.last().cloned() else {
        return;
    };
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::ChooseAction { .. }, d) => perform_action(ctx, state, seat, d),
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
            let units: u32 = chosen
                .iter()
                .map(|c| effects::card_units(data, state, seat, *c))
                .sum();
            let labels: Vec<String> = chosen.iter().map(|c| data.card(*c).label()).collect();
            ctx.say(
                "event.use_resources",
                &[
                    ("name", &name),
                    ("cards", &labels.join(" + ")),
                    ("units", &units),
                ],
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
                        ("card", &data.card(card).label()),
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
            effects::track_step(ctx, state, seat, company);
            ctx.say(
                "event.track_step",
                &[("name", &name), ("company", &data.company_name(company))],
            );
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
        (Task::ChooseExpansion { energy, .. }, Decision::ChooseCompany { company }) => {
            ctx.say(
                "event.expands_with",
                &[
                    ("name", &name),
                    ("company", &data.company_name(company)),
                    ("energy", &energy),
                ],
            );
            super::missions::note(state, seat, |c| c.expanded = true);
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy,
                    entered: Vec::new(),
                    threat: false,
                },
            );
        }
        (
            Task::Expand {
                company,
                energy,
                mut entered,
                ..
            },
            Decision::EnterSector { sector, column },
        ) => {
            let cost = sector_cost(data, state, company, sector, &entered).unwrap_or(energy);
            let ousted = state.sectors[sector as usize - 1];
            effects::take_outpost(state, company, column as usize);
            state.sectors[sector as usize - 1] = Some(company);
            entered.push((sector, ousted));
            super::missions::note(state, seat, |c| {
                c.pieces_placed += 1;
                c.pieces_ousted += u32::from(ousted.is_some());
            });
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy: energy.saturating_sub(cost),
                    entered,
                    threat: false,
                },
            );
        }
        (
            Task::Expand {
                company,
                energy,
                mut entered,
                threat,
                ..
            },
            Decision::EnterBelt {
                target,
                space,
                column,
            },
        ) => {
            let cost =
                super::belt::enter_cost(data, state, company, target, space).unwrap_or(energy);
            let ousted = super::belt::enter(data, state, company, target, space, column);
            entered.push((target, ousted));
            ctx.count(if super::belt::is_shuttle_space(data, target) {
                "belt_enter_shuttle_space"
            } else {
                "belt_enter_outpost_space"
            });
            super::missions::note(state, seat, |c| {
                c.pieces_placed += 1;
                c.pieces_ousted += u32::from(ousted.is_some());
            });
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy: energy.saturating_sub(cost),
                    entered,
                    threat,
                },
            );
        }
        (Task::Expand { .. }, Decision::DealWithThreat) => super::threats::deal(ctx, state, seat),
        (Task::Expand { .. }, Decision::StopExpanding) => finish_expansion(ctx, state),
        (Task::ResearchFlip { source, .. }, Decision::FlipPlan { screen }) => {
            effects::pay(ctx, state, seat, 2);
            if let Some(p) = state.seats[seat].research[screen as usize].as_mut() {
                p.face_down = true;
            }
            ctx.count("flip_plan");
            ctx.say(
                "event.flip_plan",
                &[("name", &name), ("screen", &(screen + 1))],
            );
            replace_top(
                state,
                Task::ResearchAdvance {
                    seat,
                    source,
                    entered: None,
                },
            );
        }
        (Task::ResearchFlip { source, .. }, Decision::SkipFlip) => {
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
        (Task::SpendResearch { points, .. }, d) => {
            perform_research_points(ctx, state, seat, points, d)
        }
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
        (Task::RemoveOutposts { n, .. }, Decision::RemoveOutpost { company, column }) => {
            effects::take_outpost(state, company, column as usize);
            state.removed_outposts[company.index()] += 1;
            ctx.count("remove_outpost");
            ctx.say(
                "event.remove_outpost",
                &[("name", &name), ("company", &data.company_name(company))],
            );
            if n > 1 {
                replace_top(state, Task::RemoveOutposts { seat, n: n - 1 });
            } else {
                state.agenda.pop();
            }
        }
        (Task::ReturnOusted { company, .. }, Decision::ReturnOutpost { column }) => {
            state.stations[company.index()][column as usize].outposts += 1;
            state.agenda.pop();
        }
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
        (Task::ChooseRewards { options, .. }, Decision::ChooseOption { option }) => {
            state.agenda.pop();
            if let Some(rewards) = options.get(option as usize) {
                push_rewards(state, seat, rewards);
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
                        ("card", &data.card(card).label()),
                        ("cost", &cost),
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
                &[("name", &name), ("card", &data.card(card).label())],
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
        (Task::DiscardActionChoice { card, .. }, Decision::ChooseOption { option }) => {
            state.agenda.pop();
            if option >= 1 {
                state.agenda.push(Task::TakeFromDiscard { seat });
            }
            if option != 1 {
                ctx.count("discarded_card_action");
                perform_discarded(ctx, state, seat, card);
            }
        }
        (Task::TakeFromDiscard { .. }, Decision::TakeFromDiscard { card }) => {
            effects::pay(ctx, state, seat, 2);
            if let Some(pos) = state.discard.iter().position(|c| *c == card) {
                state.discard.remove(pos);
                state.seats[seat].hand.push(card);
            }
            ctx.count("take_from_discard");
            ctx.say(
                "event.take_from_discard",
                &[("name", &name), ("card", &data.card(card).label())],
            );
            state.agenda.pop();
        }
        (Task::TakeRestingDeck { .. }, Decision::TakeRestingDeck { slot }) => {
            let deck = std::mem::take(&mut state.seats[seat].resting[slot as usize]);
            ctx.say(
                "event.take_resting_deck",
                &[
                    ("name", &name),
                    ("slot", &(slot + 1)),
                    ("count", &deck.len()),
                ],
            );
            state.seats[seat].hand.extend(deck);
            state.agenda.pop();
        }
        (Task::RestCards { mut used_slots, .. }, Decision::RestCard { card, slot }) => {
            if let Some(from) = state.seats[seat].slot_of(card) {
                state.seats[seat].slots[from] = None;
            }
            state.seats[seat].resting[slot as usize].push(card);
            used_slots.push(slot);
            replace_top(state, Task::RestCards { seat, used_slots });
        }
        (Task::ClaimTasks { .. }, Decision::ClaimTask { card, column }) => {
            super::missions::claim(ctx, state, seat, card, column)
        }
        (Task::ClaimTasks { .. }, Decision::EndClaims) => {
            state.agenda.pop();
        }
        (Task::DiscardEnergy { n, .. }, Decision::DiscardCard { card }) => {
            super::threats::discard(ctx, state, seat, card, n)
        }
        (Task::PlacePlans { .. }, Decision::PlacePlan { index, screen }) => {
            let plan = state.seats[seat].acquired.remove(index as usize);
            if state.seats[seat].research[screen as usize].is_some() {
                ctx.count("plan_covered");
            }
            state.seats[seat].research[screen as usize] = Some(PlacedPlan {
                plan,
                face_down: false,
            });
            ctx.say(
                "event.place_plan",
                &[("name", &name), ("screen", &(screen + 1))],
            );
        }
        _ => {}
    }
}

fn perform_action(ctx: &mut Ctx, state: &mut GameState, seat: usize, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match d {
        Decision::PlaceTile { card } => {
            state.tiles[GameState::tile_index(TileKind::PlusOne)] = TileState::Held {
                seat,
                used: false,
                on_card: Some(card),
            };
            ctx.count("plus_one_tile");
            ctx.say(
                "event.plus_one_tile",
                &[("name", &name), ("card", &data.card(card).label())],
            );
        }
        Decision::UseResources { resource } => {
            begin_action(state, seat);
            state.agenda.push(Task::SelectResources {
                seat,
                resource,
                chosen: Vec::new(),
            });
        }
        Decision::UseEnergy => {
            let energy = effects::area_totals(data, state, seat, None).energy;
            let cards: Vec<CardId> = state.seats[seat]
                .up_cards()
                .filter(|(_, c)| data.card(*c).is_energy())
                .map(|(_, c)| c)
                .collect();
            let tiles = if state.holds_unused_tile(seat, TileKind::Energy) {
                vec![TileKind::Energy]
            } else {
                Vec::new()
            };
            begin_action(state, seat);
            state.agenda.push(Task::FlipUsed { seat, cards, tiles });
            state.agenda.push(Task::ChooseExpansion { seat, energy });
        }
        Decision::UseResearch { source } => {
            let (cards, tiles) = source_flip(state, seat, source, TileKind::ResearchScientist);
            begin_action(state, seat);
            state.agenda.push(Task::FlipUsed { seat, cards, tiles });
            state.agenda.push(Task::ResearchFlip { seat, source });
            ctx.say("event.use_research", &[("name", &name)]);
        }
        Decision::UseField { source } => {
            let (cards, tiles) = source_flip(state, seat, source, TileKind::FieldScientist);
            begin_action(state, seat);
            state.agenda.push(Task::FlipUsed { seat, cards, tiles });
            match source {
                ActionSource::Tile => field_tile(ctx, state, seat),
                _ => {
                    if let Some(card) = state.source_card(seat, source) {
                        field_card(ctx, state, seat, card);
                    }
                }
            }
        }
        Decision::PlaceBonus { space } => {
            begin_action(state, seat);
            place_bonus(ctx, state, seat, space, false);
        }
        Decision::PlaceOneTimeBonus { space } => {
            begin_action(state, seat);
            place_bonus(ctx, state, seat, space, true);
        }
        Decision::ClaimTask { card, column } => {
            super::missions::claim(ctx, state, seat, card, column);
        }
        Decision::DropOut => {
            begin_action(state, seat);
            // Turn the face-down cards face up again before they go to the resting slots.
            for slot in state.seats[seat].slots.iter_mut() {
                if let Some(c) = *slot {
                    *slot = Some(SlotCard::Up(c.card()));
                }
            }
            state.agenda.push(Task::RestCards {
                seat,
                used_slots: Vec::new(),
            });
            state.agenda.push(Task::TakeRestingDeck { seat });
            ctx.say("event.drop_out", &[("name", &name)]);
        }
        _ => {}
    }
}

/// What an action flips when it ends: the card in the slot, or the action tile `tile` (the
/// tile of the action being taken, even when the seat holds other action tiles).
fn source_flip(
    state: &GameState,
    seat: usize,
    source: ActionSource,
    tile: TileKind,
) -> (Vec<CardId>, Vec<TileKind>) {
    match source {
        ActionSource::Slot(_) => (
            state.source_card(seat, source).into_iter().collect(),
            Vec::new(),
        ),
        ActionSource::Tile => (Vec::new(), vec![tile]),
        ActionSource::Discarded(_) => (Vec::new(), Vec::new()),
    }
}

fn field_card(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: CardId) {
    let data = ctx.data;
    let CardKind::FieldScientist {
        company,
        tank,
        coins,
        gas_collectors_per_extra_tank,
    } = data.card(card).kind
    else {
        return;
    };
    let name = state.seats[seat].name.clone();
    ctx.say(
        "event.use_card",
        &[("name", &name), ("card", &data.card(card).label())],
    );
    effects::tank(ctx, state, seat, tank);
    effects::gain_coins(ctx, state, seat, coins);
    if let Some(c) = company {
        let gas = effects::gas_collectors(data, state, c)
            + effects::field_gas_bonus(data, state, seat).unwrap_or(0);
        let extra = gas.checked_div(gas_collectors_per_extra_tank).unwrap_or(0);
        ctx.count("company_field_scientist");
        if extra > 0 {
            ctx.say(
                "event.gas_collectors",
                &[
                    ("company", &data.company_name(c)),
                    ("gas", &gas),
                    ("extra", &extra),
                ],
            );
            effects::tank(ctx, state, seat, extra);
        }
    }
}

fn field_tile(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let tile = data
        .board
        .bonus_tiles
        .iter()
        .find(|t| t.id == TileKind::FieldScientist.data_id());
    let (base, per) = tile
        .map(|t| (t.effect.n, t.effect.plus_per_other_face_up_field_scientist))
        .unwrap_or((0, 0));
    // Further field scientists: the tile itself is not counted.
    let others = effects::area_totals(data, state, seat, None)
        .field_scientists
        .saturating_sub(1);
    ctx.count("field_tile");
    effects::tank(ctx, state, seat, base + per * others);
}

fn perform_discarded(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: CardId) {
    let data = ctx.data;
    let def = data.card(card).clone();
    match def.kind {
        CardKind::Resource { resource } => {
            // Permanent bonuses of other tracks apply as if the card were in the action area.
            let bonus = if resource == Resource::Titanium {
                effects::permanent_value(data, state, seat, |e| match e {
                    TrackBonusEffect::TitaniumCardValueBonus { n } => Some(*n),
                    _ => None,
                })
            } else {
                0
            };
            state.agenda.push(Task::BuyWithUnits {
                seat,
                units: def.value + bonus,
                cards: vec![card],
                mixed: false,
                from_discard: true,
            });
        }
        CardKind::Energy => {
            let energy = def.value + effects::energy_bonus(data, state, seat);
            state.agenda.push(Task::ChooseExpansion { seat, energy });
        }
        CardKind::ResearchScientist => {
            state.agenda.push(Task::ResearchFlip {
                seat,
                source: ActionSource::Discarded(card),
            });
        }
        CardKind::FieldScientist { .. } => field_card(ctx, state, seat, card),
        CardKind::SingleShare => {}
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
    let marker = Some(super::state::Marker { seat, one_time });
    match space {
        BonusRef::Personal => {
            if let Some(m) = state.seats[seat].mission.as_mut() {
                m.personal = marker;
            }
            ctx.count("bonus_personal_space");
            ctx.say("event.bonus_personal_space", &[("name", &name)]);
            let personal = &data.missions.personal_bonus_space;
            for req in personal.requirements() {
                if let Requirement::Pay { n } = req {
                    effects::pay(ctx, state, seat, n);
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
                "event.bonus_marker",
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
                            Requirement::Pay { n } => effects::pay(ctx, state, seat, *n),
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
        BonusRef::Track(b) => {
            let b = b as usize;
            state.track_bonus_spaces[b] = marker;
            let bonus = &data.tracks.bonuses[b];
            ctx.count("bonus_track_space");
            ctx.say(
                "event.track_bonus_marker",
                &[("name", &name), ("bonus", &bonus.id)],
            );
            if let TrackBonusEffect::BonusSpace(effect) = &bonus.effect {
                let company = Company::ALL
                    .into_iter()
                    .find(|c| data.tracks.tracks[state.tracks[c.index()]].id == bonus.track);
                track_bonus_space(ctx, state, seat, effect, company);
            }
        }
    }
}

fn track_bonus_space(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    e: &BonusSpaceEffect,
    own: Option<Company>,
) {
    effects::pay(ctx, state, seat, e.pay);
    let either = e.combine.as_deref() != Some("and_or");
    if let Some(filter) = &e.discard_from_hand {
        let filter = Resource::parse(filter);
        let purpose = match e.coins_printed_cost_plus {
            Some(plus) => DiscardPurpose::Coins { plus },
            None => DiscardPurpose::DiscardAction { and_or: !either },
        };
        state.agenda.push(Task::DiscardFromHand {
            seat,
            filter,
            purpose,
        });
    } else if !e.reward_options.is_empty() {
        if e.reward_options.len() == 1 {
            push_rewards(state, seat, &e.reward_options[0]);
        } else {
            state.agenda.push(Task::ChooseRewards {
                seat,
                options: e.reward_options.clone(),
            });
        }
    } else if let Some(discount) = e.buy_display_card_discount {
        // "Buy a card AND/OR tank": the tank steps always help, the purchase is optional.
        state.agenda.push(Task::Reward {
            seat,
            reward: Reward::Tank { n: e.tank },
        });
        state.agenda.push(Task::BuyForCoins {
            seat,
            discount,
            optional: true,
        });
    } else if !e.other_tracks.is_empty() {
        state.agenda.push(Task::OtherTracks {
            seat,
            excluded: own.into_iter().collect(),
            steps: e.other_tracks.clone(),
        });
    }
    let _ = ctx;
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
            ctx.say(
                "event.take_plan",
                &[
                    ("name", &name),
                    ("plan", &data.research.plans[plan as usize].id),
                ],
            );
            let space_id = &data.board.research_display.spaces[space as usize].id;
            if data.board.supplement_space.linked_spaces.contains(space_id)
                && state.supplement_coins > 0
            {
                let coins = std::mem::take(&mut state.supplement_coins);
                ctx.count("supplement_coins");
                effects::gain_coins(ctx, state, seat, coins);
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
                    ("plan", &data.research.special_plans[index as usize].id),
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

fn finish_expansion(ctx: &mut Ctx, state: &mut GameState) {
    let data = ctx.data;
    let Some(Task::Expand {
        seat,
        company,
        energy,
        entered,
        threat,
    }) = state.agenda.pop()
    else {
        return;
    };
    let name = state.seats[seat].name.clone();
    let belt = state.belt.is_some();
    let (mut coins, mut tank, mut strip, mut rp) = (0, 0, 0, 0);
    let structures: Vec<crate::data::Structure> = if belt {
        // Belt: first outposts on an asteroid earn its reward screen; shuttle spaces with the
        // reward icon move the expanded company's track.
        let (structures, track_icons) =
            super::belt::expansion_rewards(data, state, company, &entered);
        strip += track_icons;
        if track_icons > 0 {
            ctx.count("belt_shuttle_reward");
        }
        structures
    } else {
        entered
            .iter()
            .filter_map(|(sector, _)| data.moon.sector(*sector as u32))
            .flat_map(|s| s.structures.iter().copied())
            .collect()
    };
    for st in structures {
        match st {
            crate::data::Structure::DeepMine { n } => coins += n,
            crate::data::Structure::GasCollector { n } => tank += n,
            crate::data::Structure::StripMine { n } => strip += n,
            crate::data::Structure::ResearchStation { n } => rp += n,
        }
    }
    if energy > 0 {
        ctx.count("energy_forfeited");
    }
    if entered.len() >= 5 {
        ctx.count("five_outposts_one_expansion");
    }
    let sectors: Vec<String> = entered.iter().map(|(s, _)| s.to_string()).collect();
    let sectors = if sectors.is_empty() {
        "-".to_string()
    } else {
        sectors.join(", ")
    };
    ctx.say(
        if belt {
            "event.expanded_belt"
        } else {
            "event.expanded"
        },
        &[
            ("name", &name),
            ("company", &data.company_name(company)),
            ("sectors", &sectors),
            ("coins", &coins),
            ("tank", &tank),
            ("strip", &strip),
            ("rp", &rp),
        ],
    );
    // Rewards first, then the threat card's reward, then the ousted outposts go home (pushed
    // first, so they run last). An ousted shuttle has no choice to make: it goes to its middle
    // column at once.
    for (target, ousted) in entered.iter().rev() {
        if let Some(other) = ousted {
            ctx.count("oust");
            if belt && super::belt::is_shuttle_space(data, *target) {
                super::belt::return_shuttle(ctx, state, *other);
            } else {
                state.agenda.push(Task::ReturnOusted {
                    seat,
                    company: *other,
                });
            }
        }
    }
    if threat {
        state.agenda.push(Task::ThreatReward { seat });
    }
    if rp > 0 {
        effects::research_points(state, seat, rp);
    }
    if strip > 0 {
        state.agenda.push(Task::TrackMove {
            seat,
            company,
            steps: strip,
        });
    }
    if tank > 0 {
        state.agenda.push(Task::Reward {
            seat,
            reward: Reward::Tank { n: tank },
        });
    }
    if coins > 0 {
        state.agenda.push(Task::Reward {
            seat,
            reward: Reward::Coins { n: coins },
        });
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
    ctx.say(
        "event.upload",
        &[("name", &name), ("screen", &(screen + 1))],
    );
    let Some(placed) = state.seats[seat].research[screen as usize] else {
        return;
    };
    if placed.face_down {
        return;
    }
    let rewards: Vec<Reward> = match placed.plan {
        PlanRef::Token => state.seats[seat]
            .token
            .map(|t| data.research.starting_tokens[t].plan_reward.clone())
            .unwrap_or_default(),
        PlanRef::Regular(p) => data.research.plans[p as usize].reward.clone(),
        PlanRef::Special(_) => Vec::new(),
    };
    push_rewards(state, seat, &rewards);
}

fn apply_reward(ctx: &mut Ctx, state: &mut GameState, seat: usize, reward: Reward) {
    let data = ctx.data;
    match reward {
        Reward::Coins { n } => effects::gain_coins(ctx, state, seat, n),
        Reward::ResearchPoints { n } => effects::research_points(state, seat, n),
        Reward::Tank { n } => effects::tank(ctx, state, seat, n),
        Reward::TrackOfChoice { n } => state.agenda.push(Task::TrackOfChoice { seat, steps: n }),
        Reward::CompanyTrack { company, n } => state.agenda.push(Task::TrackMove {
            seat,
            company,
            steps: n,
        }),
        Reward::RemoveOutposts { n } => state.agenda.push(Task::RemoveOutposts { seat, n }),
        Reward::TitaniumMinusOne => {
            let t = effects::area_totals(data, state, seat, None).units_of(Resource::Titanium);
            ctx.count("titanium_minus_one");
            effects::gain_coins(ctx, state, seat, t.saturating_sub(1));
        }
        Reward::TakeFirstPlayerMarker => {
            state.next_first_player = seat;
            ctx.count("first_player_marker");
            ctx.say("event.first_player", &[("name", &state.seats[seat].name)]);
        }
        Reward::BuyDisplayCard { discount } => state.agenda.push(Task::BuyForCoins {
            seat,
            discount,
            optional: false,
        }),
        Reward::CoinsPrintedCostPlus { .. } => {}
        Reward::ReserveBonusTile { tile } => {
            // The marker on the tile space is the reservation; the tile arrives in the
            // Preparation phase (round::preparation), never now, and a seat holding it this
            // round keeps it.
            if let Some(kind) = TileKind::from_data_id(&tile) {
                if state.tile(kind) == TileState::Supply {
                    state.tiles[GameState::tile_index(kind)] = TileState::Reserved { seat };
                }
            }
            ctx.say(
                "event.reserve_tile",
                &[
                    ("name", &state.seats[seat].name),
                    ("tile", &data.tile_name(&tile)),
                ],
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// automatic tasks

/// Runs the top task if it needs no decision; returns whether anything happened.
pub(crate) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> bool {
    let data = ctx.data;
    match task.clone() {
        Task::Reward { seat, reward } => {
            state.agenda.pop();
            apply_reward(ctx, state, seat, reward);
            true
        }
        Task::FlipUsed { seat, cards, tiles } => {
            state.agenda.pop();
            for card in cards {
                effects::flip_used(state, seat, card);
                if matches!(state.tile(TileKind::PlusOne), TileState::Held { seat: h, on_card: Some(c), .. } if h == seat && c == card)
                {
                    effects::use_tile(state, TileKind::PlusOne);
                }
            }
            for t in tiles {
                effects::use_tile(state, t);
            }
            true
        }
        Task::EndTurn { seat } => {
            state.agenda.pop();
            round::end_turn(ctx, state, seat);
            true
        }
        Task::PlacePlans { seat } if state.seats[seat].acquired.is_empty() => {
            state.agenda.pop();
            true
        }
        Task::PlacePlans { seat } => {
            let any = candidates(data, state, task)
                .into_iter()
                .any(|d| check(data, state, seat, d).is_ok());
            if !any {
                // Nowhere to go (cannot happen with the taking checks); never block the game.
                state.seats[seat].acquired.clear();
                state.agenda.pop();
                return true;
            }
            false
        }
        Task::SpendResearch { seat, points } if effects::on_final_screen(data, state, seat) => {
            state.agenda.pop();
            let per = data
                .player_board
                .research_track
                .overflow_coins_per_research_point;
            ctx.count("research_points_to_coins");
            effects::gain_coins(ctx, state, seat, points * per);
            true
        }
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
                    StepStatus::End => {
                        ctx.count("track_end_forfeit");
                        left = 0;
                    }
                    StepStatus::Barrier(cost) if state.seats[seat].coins < cost => {
                        ctx.count("barrier_stop");
                        left = 0;
                    }
                    StepStatus::Barrier(_) => break,
                }
            }
            let moved = steps - left;
            if moved > 0 {
                ctx.say(
                    "event.track_move",
                    &[
                        ("name", &state.seats[seat].name),
                        ("moved", &moved),
                        ("company", &data.company_name(company)),
                    ],
                );
            }
            state.agenda.pop();
            if left > 0 {
                state.agenda.push(Task::TrackMove {
                    seat,
                    company,
                    steps: left,
                });
                return moved > 0;
            }
            true
        }
        Task::Expand { seat, .. } => {
            let can_enter = candidates(data, state, task)
                .into_iter()
                .filter(|d| {
                    matches!(
                        d,
                        Decision::EnterSector { .. }
                            | Decision::EnterBelt { .. }
                            | Decision::DealWithThreat
                    )
                })
                .any(|d| check(data, state, seat, d).is_ok());
            if !can_enter {
                finish_expansion(ctx, state);
                return true;
            }
            false
        }
        Task::RestCards { seat, .. } if state.seats[seat].slots.iter().all(Option::is_none) => {
            state.agenda.pop();
            for tile in state.tiles.iter_mut() {
                if matches!(*tile, TileState::Held { seat: h, .. } if h == seat) {
                    *tile = TileState::Supply;
                }
            }
            state.seats[seat].dropped_out = true;
            true
        }
        Task::ReturnOusted { company, .. }
            if effects::return_columns(data, state, company).is_empty() =>
        {
            state.agenda.pop();
            state.removed_outposts[company.index()] += 1;
            ctx.count("ousted_removed_from_game");
            true
        }
        Task::ChooseAction { seat } if state.seats[seat].is_luna() => {
            // Luna's turn runs at once: her next card, then the turn passes on.
            state.agenda.pop();
            super::luna::take_turn(ctx, state, seat);
            round::end_turn(ctx, state, seat);
            true
        }
        Task::ChooseAction { .. } => false,
        Task::ThreatReward { seat } => {
            state.agenda.pop();
            super::threats::collect_reward(ctx, state, seat);
            true
        }
        Task::ClaimTasks { seat } => {
            // The action has resolved: its counters stop; with nothing to claim, move on.
            super::missions::end_action(state, seat);
            if !super::missions::any_claimable(data, state, seat, true) {
                state.agenda.pop();
                return true;
            }
            false
        }
        other => {
            // Any other task with no legal decision at all is skipped (its effect is forfeited).
            let seat = other.seat();
            let any = candidates(data, state, &other)
                .into_iter()
                .any(|d| check(data, state, seat, d).is_ok());
            if !any {
                state.agenda.pop();
                return true;
            }
            false
        }
    }
}
