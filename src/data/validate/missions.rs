//! Checks of `missions.toml` (the Missions module): the mission cards and their three tasks,
//! one-time markers, the face-up cards that must fit in the deck, and the personal bonus space
//! (rulebook, "Module: Mission cards", p. 25).

use super::helpers::{ensure, Check};
use crate::data::missions::{PersonalRequirement, PersonalReward, TaskAction, TaskCheck};
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "missions.toml";
    let m = &d.missions;
    let md = &m.module;
    ensure(
        md.cards == 6 && m.cards.len() == md.cards,
        F,
        "card",
        "count",
        format!(
            "{} cards listed, [module] says {}; expected 6",
            m.cards.len(),
            md.cards
        ),
    )?;
    ensure(
        md.tasks_per_card == 3,
        F,
        "module",
        "tasks_per_card",
        "a mission card shows 3 tasks",
    )?;
    ensure(
        md.one_time_markers_per_player == md.tasks_per_card,
        F,
        "module",
        "one_time_markers_per_player",
        "one one-time bonus marker per task column",
    )?;
    ensure(
        md.face_up_cards.humans_1_to_2 >= 1
            && md.face_up_cards.humans_3_to_4 >= md.face_up_cards.humans_1_to_2
            && md.face_up_cards.humans_1_to_2 + 2 <= md.cards
            && md.face_up_cards.humans_3_to_4 + 4 <= md.cards,
        F,
        "module",
        "face_up_cards",
        "the face-up cards plus one status card per human must fit in the deck",
    )?;
    let ids: BTreeSet<u32> = m.cards.iter().map(|c| c.id).collect();
    ensure(
        ids == (1..=md.cards as u32).collect(),
        F,
        "card",
        "id",
        "cards must be numbered 1..6 once each",
    )?;
    for c in &m.cards {
        let columns: Vec<usize> = c.tasks.iter().map(|t| t.column).collect();
        let mut sorted = columns.clone();
        sorted.sort_unstable();
        ensure(
            sorted == (1..=md.tasks_per_card).collect::<Vec<_>>(),
            F,
            &format!("card {}", c.id),
            "task",
            format!(
                "expected {} tasks in columns 1..{}, found columns {columns:?}",
                md.tasks_per_card, md.tasks_per_card
            ),
        )?;
        for t in &c.tasks {
            let e = format!("card {} task {}", c.id, t.column);
            ensure(
                !t.text.trim().is_empty(),
                F,
                &e,
                "text",
                "a task needs its text",
            )?;
            ensure(
                t.condition.min > 0,
                F,
                &e,
                "condition.min",
                "the threshold must be at least 1",
            )?;
            let per_action = t.condition.metric.is_per_action();
            ensure(
                per_action == (t.check == TaskCheck::SingleAction),
                F,
                &e,
                "check",
                format!(
                    "metric {:?} needs check = \"{}\"",
                    t.condition.metric,
                    if per_action {
                        "single_action"
                    } else {
                        "turn_state"
                    }
                ),
            )?;
            match t.check {
                TaskCheck::SingleAction => ensure(
                    !t.actions.is_empty()
                        && (!t.actions.contains(&TaskAction::Any) || t.actions.len() == 1),
                    F,
                    &e,
                    "actions",
                    "a single-action task lists its actions (\"any\" alone)",
                )?,
                TaskCheck::TurnState => ensure(
                    t.actions.is_empty(),
                    F,
                    &e,
                    "actions",
                    "a turn-state task lists no actions",
                )?,
            }
            let needs_shares =
                t.condition.metric == crate::data::missions::Metric::CompaniesWithMinShares;
            ensure(
                needs_shares == t.condition.shares.is_some_and(|s| s > 0),
                F,
                &e,
                "condition.shares",
                "companies_with_min_shares (and only it) needs shares >= 1",
            )?;
        }
    }
    // The personal bonus space: pay 1 CrypCoin, move 3 spaces on a company track of your choice
    // (rulebook, "Module: Mission cards", p. 25).
    let p = &m.personal_bonus_space;
    ensure(
        p.requirement == [PersonalRequirement::PayCoins { n: 1 }],
        F,
        "personal_bonus_space",
        "requirement",
        "the personal bonus space costs 1 CrypCoin",
    )?;
    ensure(
        p.reward == [PersonalReward::CompanyTrackOfChoice { n: 3 }],
        F,
        "personal_bonus_space",
        "reward",
        "the personal bonus space gives 3 spaces on one company track of your choice",
    )?;
    Ok(())
}
