//! What things cost after discounts — pure functions of the data and the state, so the rules and
//! a preview of a decision read the same numbers:
//! - a display card (rulebook, "Acquire 1 card from the card display", p. 11: printed cost plus
//!   the board cost beside it), paid with resource units or, through a bonus space, with CrypCoin
//!   ("Standard bonus spaces", pp. 16–17), less the track bonus discounts ("Permanent bonuses",
//!   pp. 21–23) and never below zero ("General game notes and further special cases");
//! - entering a Moon sector ("2) Use all energy cards", pp. 12–13: 1 per single line, 2 per
//!   double line, +1 to oust);
//! - and the other side of a purchase: the resource value the chosen cards pay with ("1) Use 1 or
//!   more resource cards of a single type", p. 11).
//!
//! Belt spaces cost what `belt::enter_cost` says; money barriers what `effects::step_status` says.

use crate::data::tracks::TrackBonusEffect;
use crate::data::{CardId, Company, GameData, MoonGraph, Resource};
use crate::engine::effects;
use crate::engine::state::GameState;
use crate::engine::{illegal, RuleError};

/// The resource value of `cards` in the seat's action area: what they pay with (each card's
/// units with the titanium bonus and the "+1" tile).
pub(crate) fn resource_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    cards: &[CardId],
) -> u32 {
    cards
        .iter()
        .map(|c| effects::card_units(data, state, seat, *c))
        .sum()
}

/// Total cost of the display card on `space` (1–12) when paying with `cards` (resource units)
/// or, with no cards, with coins and a bonus discount.
pub(crate) fn display_cost(
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

/// The lowest total cost among the cards on display (None: the display is empty).
pub(crate) fn cheapest_display_cost(
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
pub(crate) fn resource_discount(
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

/// Whether the seat may pay with mixed resource types (the track bonus that allows it).
pub(crate) fn mixed_allowed(data: &GameData, state: &GameState, seat: usize) -> bool {
    effects::effective_bonuses(data, state, seat)
        .any(|b| matches!(b.effect, TrackBonusEffect::MixedPaymentAndDiscount { .. }))
}

/// Energy to enter `sector` for `company`: the cheapest border from its station or one of its
/// sectors (including those entered this action), +1 when another company's outpost is there.
pub(crate) fn sector_cost(
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
