//! Checks of `research.toml`: the research plans (count, unique ids, letters A-C and their
//! counts, one or two requirements and a reward each), the special plans, the starting research
//! tokens and the first-game tokens.

use super::helpers::{check_requirements, ensure, unique, Check};
use crate::data::common::Company;
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "research.toml";
    let f = &d.research;
    ensure(
        f.plans.len() == f.plan_count,
        F,
        "plan",
        "count",
        format!("{} plans, plan_count says {}", f.plans.len(), f.plan_count),
    )?;
    unique(F, "id", f.plans.iter().map(|p| p.id.as_str()))?;
    for (letter, want) in &f.plan_letter_counts {
        let have = f.plans.iter().filter(|p| p.letter == *letter).count();
        ensure(
            have == *want,
            F,
            &format!("letter {letter}"),
            "plan_letter_counts",
            format!("{have} plans with letter {letter}, expected {want}"),
        )?;
    }
    for p in &f.plans {
        ensure(
            ['A', 'B', 'C'].contains(&p.letter),
            F,
            &p.id,
            "letter",
            "plans are A, B or C",
        )?;
        ensure(
            (1..=2).contains(&p.requirements.len()),
            F,
            &p.id,
            "requirements",
            "a plan shows 1 or 2 requirements",
        )?;
        ensure(
            !p.reward.is_empty(),
            F,
            &p.id,
            "reward",
            "a plan has a reward",
        )?;
        check_requirements(F, &p.id, &p.requirements)?;
    }
    ensure(
        f.special_plans.len() == f.special_plan_count,
        F,
        "special_plan",
        "count",
        "special plan count mismatch",
    )?;
    let rounds: Vec<u32> = f.special_plans.iter().map(|s| s.round).collect();
    ensure(
        rounds == (2..=7).collect::<Vec<_>>(),
        F,
        "special_plan",
        "round",
        format!("special plans must be for rounds 2..7 in order, found {rounds:?}"),
    )?;
    ensure(
        f.starting_tokens.len() == f.starting_token_count,
        F,
        "starting_token",
        "count",
        "starting token count mismatch",
    )?;
    unique(F, "id", f.starting_tokens.iter().map(|t| t.id.as_str()))?;
    let icons: BTreeSet<&str> = d
        .starting_cards
        .starting_cards
        .iter()
        .map(|c| c.icon.as_str())
        .collect();
    for t in &f.starting_tokens {
        let distinct: BTreeSet<_> = t.rest_icons.iter().collect();
        ensure(
            t.rest_icons.len() == 3 && distinct.len() == 3,
            F,
            &t.id,
            "rest_icons",
            "a token shows 3 different icons",
        )?;
        for icon in &t.rest_icons {
            ensure(
                icons.contains(icon.as_str()),
                F,
                &t.id,
                "rest_icons",
                format!("unknown starting-card icon `{icon}`"),
            )?;
        }
        ensure(
            (1..=2).contains(&t.start_bonus.len()),
            F,
            &t.id,
            "start_bonus",
            "a starting bonus names 1 or 2 tracks",
        )?;
        for b in &t.start_bonus {
            ensure(
                b.track == "tank" || Company::parse(&b.track).is_some(),
                F,
                &t.id,
                "start_bonus",
                format!("unknown track `{}`", b.track),
            )?;
        }
        check_requirements(F, &t.id, &t.plan_requirements)?;
    }
    for (seat, id) in f.first_game_tokens.by_seat().iter().enumerate() {
        ensure(
            f.starting_tokens.iter().any(|t| t.id == *id),
            F,
            "first_game_tokens",
            &format!("seat_{}", seat + 1),
            format!("unknown token `{id}`"),
        )?;
    }
    Ok(())
}
