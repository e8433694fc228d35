//! The bonus space bonuses of the company tracks (rulebook, "Details of the company tracks and
//! their bonuses: Bonus space bonuses", pp. 21–23): a seat that has unlocked one (from its next
//! turn) may place a bonus marker there like on the board, never on both spaces of one track.
//! Their rewards: a choice between reward lists, tank steps with an optional purchase, steps on
//! other tracks, coins for a discarded card, and the discard action: perform the discarded card's
//! action, as if it were in the action area, and/or pay 2 CrypCoin to take any card from the
//! discard pile.

use super::bonus::has_discardable;
use super::rewards::push_rewards;
use super::{field, wrong};
use crate::data::cards::CardKind;
use crate::data::tracks::{BonusSpaceEffect, TrackBonusEffect};
use crate::data::{CardId, Company, GameData, Resource, Reward};
use crate::engine::decision::{ActionSource, Decision, DiscardPurpose, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, Marker};
use crate::engine::{illegal, RuleError};

/// Whether the seat may place a bonus marker on track bonus space `b` (its marker reserve is
/// checked by the caller).
pub(super) fn check_space(
    data: &GameData,
    state: &GameState,
    seat: usize,
    b: usize,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
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

/// The marker goes on track bonus space `b`, which pays out.
pub(super) fn place(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    b: usize,
    marker: Option<Marker>,
) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    state.track_bonus_spaces[b] = marker;
    let bonus = &data.tracks.bonuses[b];
    ctx.count("bonus_track_space");
    let company = Company::ALL
        .into_iter()
        .find(|c| data.tracks.tracks[state.tracks[c.index()]].id == bonus.track);
    // Named by the track it lies on and what it says (its data id is no name players see; the
    // line keeps it for the account check only).
    let key = if marker.is_some_and(|m| m.one_time) {
        "event.one_time_track_bonus_marker"
    } else {
        "event.track_bonus_marker"
    };
    ctx.say(
        key,
        &[
            ("name", &name),
            ("bonus", &bonus.id),
            (
                "company",
                &company.map(|c| data.company_name(c)).unwrap_or_default(),
            ),
            ("text", &bonus.display_text()),
        ],
    );
    if let TrackBonusEffect::BonusSpace(effect) = &bonus.effect {
        track_bonus_space(ctx, state, seat, effect, company);
    }
}

fn track_bonus_space(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    e: &BonusSpaceEffect,
    own: Option<Company>,
) {
    effects::pay_for_space(ctx, state, seat, e.pay);
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

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    match task {
        Task::ChooseRewards { options, .. } => (0..options.len() as u8)
            .map(|option| Decision::ChooseOption { option })
            .collect(),
        Task::DiscardActionChoice { .. } => (0..3)
            .map(|option| Decision::ChooseOption { option })
            .collect(),
        Task::TakeFromDiscard { .. } => state
            .discard
            .iter()
            .map(|&card| Decision::TakeFromDiscard { card })
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
        (Task::ChooseRewards { options, .. }, Decision::ChooseOption { option }) => {
            if option as usize >= options.len() {
                return Err(illegal("rule.no_such_option", &[]));
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
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::ChooseRewards { options, .. }, Decision::ChooseOption { option }) => {
            state.agenda.pop();
            if let Some(rewards) = options.get(option as usize) {
                push_rewards(state, seat, rewards);
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
            effects::pay(ctx, state, seat, TAKE_FROM_DISCARD_COST);
            if let Some(pos) = state.discard.iter().position(|c| *c == card) {
                state.discard.remove(pos);
                state.seats[seat].hand.push(card);
            }
            ctx.count("take_from_discard");
            ctx.say(
                "event.take_from_discard",
                &[
                    ("name", &name),
                    ("card", &data.card_label(card)),
                    ("cost", &TAKE_FROM_DISCARD_COST),
                ],
            );
            state.agenda.pop();
        }
        _ => {}
    }
}

/// What taking a card from the discard pile costs (the track bonus's printed price).
const TAKE_FROM_DISCARD_COST: u32 = 2;

/// The discard action: the discarded card's own action, alone.
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
        CardKind::FieldScientist { .. } => field::field_card(ctx, state, seat, card),
        CardKind::SingleShare => {}
    }
}
