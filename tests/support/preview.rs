//! What a decision's preview must carry for its kind (issue 18: every option shows its
//! consequences): shared by the engine's self-play check and the chat transcript check.

use skymines::data::GameData;
use skymines::engine::decision::DiscardPurpose;
use skymines::engine::preview::{Currency, Preview};
use skymines::engine::{Decision, GameState, Task};

fn pays_in(p: &Preview, currency: Currency) -> bool {
    p.costs.iter().any(|c| c.currency == currency)
}

/// Why `p` lacks a consequence field that decision `d` of the task on top of `state` must show
/// (None: complete).
pub fn missing_field(
    data: &GameData,
    state: &GameState,
    d: Decision,
    p: &Preview,
) -> Option<String> {
    let task = state.agenda.last();
    let need = |ok: bool, what: &str| (!ok).then(|| format!("{} lacks {what}: {p:?}", d.kind()));
    match (task, d) {
        (Some(Task::BuyWithUnits { .. }), Decision::BuyCard { .. }) => need(
            pays_in(p, Currency::Units) && p.card.is_some(),
            "its price in units",
        ),
        (Some(Task::BuyForCoins { .. }), Decision::BuyCard { .. }) => need(
            pays_in(p, Currency::Coins) && p.card.is_some(),
            "its price in coins",
        ),
        (_, Decision::ExpandInto { .. }) => need(
            pays_in(p, Currency::Energy)
                && (p.share_value.is_some() || matches!(p.next, Some(Task::PickColumn { .. }))),
            "its energy cost and the station's share value (or the column question)",
        ),
        (_, Decision::OutpostColumn { .. }) => {
            need(p.share_value.is_some(), "the station's share value")
        }
        (_, Decision::EnterSector { .. } | Decision::EnterBelt { .. }) => need(
            pays_in(p, Currency::Energy) && p.share_value.is_some(),
            "its energy cost and the station's share value",
        ),
        (_, Decision::FlipPlan { .. }) => need(
            p.plan.is_some() && pays_in(p, Currency::Coins),
            "the plan and its price",
        ),
        (_, Decision::PayBarrier) => need(pays_in(p, Currency::Coins), "the barrier's price"),
        (_, Decision::DeclineBarrier) => need(p.forfeits > 0, "the steps given up"),
        (_, Decision::TrackStep { .. }) => need(
            pays_in(p, Currency::Units) && !p.gains.tracks.is_empty(),
            "the unit spent and the step",
        ),
        (_, Decision::TakePlan { .. } | Decision::TakeSpecial { .. }) => need(
            pays_in(p, Currency::ResearchPoints) && p.plan.is_some() && !p.gains.plans.is_empty(),
            "the plan and its price in research points",
        ),
        (_, Decision::TakeCoin) => need(
            pays_in(p, Currency::ResearchPoints) && p.gains.coins > 0,
            "the coin and its price",
        ),
        (_, Decision::PlacePlan { .. }) => need(p.plan.is_some(), "the plan"),
        (_, Decision::ChooseTier { .. }) => need(!p.rewards.is_empty(), "the tier's rewards"),
        (Some(Task::ChooseRewards { .. }), Decision::ChooseOption { .. }) => {
            need(!p.rewards.is_empty(), "the option's rewards")
        }
        (
            Some(Task::DiscardFromHand {
                purpose: DiscardPurpose::Coins { .. },
                ..
            }),
            Decision::DiscardCard { .. },
        ) => need(p.gains.coins > 0 && p.card.is_some(), "the sell value"),
        (_, Decision::TakeFromDiscard { .. }) => need(
            pays_in(p, Currency::Coins) && p.gains.cards.len() == 1,
            "the price and the card",
        ),
        (_, Decision::SelectCard { .. } | Decision::PlaceTile { .. }) => {
            need(p.units.is_some() && p.card.is_some(), "the card's units")
        }
        (_, Decision::FinishSelecting | Decision::UseResources { .. }) => {
            need(p.units.is_some_and(|u| u > 0), "the units")
        }
        (_, Decision::UseResearch { .. }) => {
            need(p.gains.research_points > 0, "the research points")
        }
        (_, Decision::RemoveOutpost { .. } | Decision::ReturnOutpost { .. }) => {
            need(p.share_value.is_some(), "the station's share value")
        }
        (_, Decision::TakeRestingDeck { .. }) => need(!p.gains.cards.is_empty(), "the cards taken"),
        (_, Decision::Advance) => need(p.plan.is_some(), "the plan reached"),
        (_, Decision::PlaceBonus { .. } | Decision::PlaceOneTimeBonus { .. }) => need(
            p.gains_nothing || !p.gains.is_nothing() || !p.tiers.is_empty() || p.next.is_some(),
            "what the space gives (or that it gives nothing)",
        ),
        _ => {
            let _ = data;
            None
        }
    }
}
