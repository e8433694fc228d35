//! Checks of `threats.toml` (the Threats module): one card in play on the Belt side, the six
//! cards with their six different consequences, requirements, rewards and their agreement with
//! `belt.toml` and the player board's tank values.

use super::helpers::{ensure, unique, Check};
use crate::data::board::ValueLink;
use crate::data::common::BoardSide;
use crate::data::threats::{ConsequenceEffect, ConsequenceTiming, ThreatRequirement, ThreatReward};
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "threats.toml";
    let t = &d.threats;
    let md = &t.module;
    ensure(
        md.cards == 6 && t.threats.len() == md.cards,
        F,
        "threat",
        "count",
        format!(
            "{} threats listed, [module] says {}; expected 6",
            t.threats.len(),
            md.cards
        ),
    )?;
    ensure(
        md.in_play == 1,
        F,
        "module",
        "in_play",
        "one threat card is drawn",
    )?;
    ensure(
        md.board_side == BoardSide::Belt,
        F,
        "module",
        "board_side",
        "threat cards are played on the Belt side",
    )?;
    ensure(
        md.reward.contains(&ThreatReward::RemoveThreatCard)
            && md.reward.contains(&ThreatReward::WildShare),
        F,
        "module",
        "reward",
        "dealing with a threat removes it and gives a wild share",
    )?;
    let reach: BTreeSet<u32> = md.reach.shuttle_on.iter().copied().collect();
    let belt_reach: BTreeSet<u32> = d
        .belt
        .threat_space
        .requires_shuttle_on
        .iter()
        .copied()
        .collect();
    ensure(
        reach == belt_reach && md.reach.energy == d.belt.threat_space.reach_cost,
        F,
        "module",
        "reach",
        "disagrees with belt.toml [threat_space]",
    )?;
    unique(F, "id", t.threats.iter().map(|x| x.id.as_str()))?;
    unique(F, "name", t.threats.iter().map(|x| x.name.as_str()))?;
    // The 6 cards are the 6 different consequences.
    for kind in ConsequenceEffect::KINDS {
        let n = t
            .threats
            .iter()
            .filter(|x| x.consequence.effect.kind() == kind)
            .count();
        ensure(
            n == 1,
            F,
            "threat",
            "consequence",
            format!("consequence `{kind}` appears {n} times, expected once"),
        )?;
    }
    let values = |links: &[ValueLink]| -> BTreeSet<u32> { links.iter().map(|l| l.value).collect() };
    let tank_values = values(&d.player_board.tank_track.value_links);
    let research_values = values(&d.player_board.research_track.value_links);
    let rounds = d.board.round_track.spaces.len() as u32;
    for x in &t.threats {
        ensure(
            !x.requirement.is_empty(),
            F,
            &x.id,
            "requirement",
            "a threat has a requirement",
        )?;
        for r in x.requirement.iter().flat_map(|r| r.flatten()) {
            let ok = match r {
                ThreatRequirement::PayCoins { n }
                | ThreatRequirement::SpendExtraEnergy { n }
                | ThreatRequirement::DiscardEnergyCardsFromHand { n } => *n > 0,
                ThreatRequirement::TankValuePassed { value } => tank_values.contains(value),
                ThreatRequirement::ResearchValuePassed { value } => research_values.contains(value),
                ThreatRequirement::AllOf { of } => !of.is_empty(),
            };
            ensure(
                ok,
                F,
                &x.id,
                "requirement",
                format!("{r:?}: zero, empty, or a value not printed on the player board's track"),
            )?;
        }
        let c = x.consequence;
        let ends_early = matches!(c.effect, ConsequenceEffect::GameEndsAfterRound { .. });
        ensure(
            ends_early == (c.timing == ConsequenceTiming::EndOfActionPhaseRound6),
            F,
            &x.id,
            "consequence.timing",
            "only the early game end happens at the end of round 6's Action phase",
        )?;
        if let ConsequenceEffect::GameEndsAfterRound { round } = c.effect {
            ensure(
                round == 6 && round < rounds,
                F,
                &x.id,
                "consequence.round",
                "the early end comes after round 6, before the last round",
            )?;
        }
        if let ConsequenceEffect::DevalueMostValuableStation { ignore_coins, .. } = c.effect {
            ensure(
                ignore_coins > 0,
                F,
                &x.id,
                "consequence.ignore_coins",
                "must ignore at least 1 coin",
            )?;
        }
    }
    Ok(())
}
