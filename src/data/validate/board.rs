//! Checks of `board.toml`: the card display (spaces 1-12 with their costs from the cost grid),
//! the research display, the bonus spaces and tiles, and the supplement spaces.

use super::helpers::{check_requirements, ensure, unique, Check};
use crate::data::common::Reward;
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "board.toml";
    let b = &d.board;
    let numbers: BTreeSet<u32> = b.card_display.spaces.iter().map(|s| s.number).collect();
    ensure(
        numbers == (1..=12).collect(),
        F,
        "card_display",
        "space",
        "display spaces must be numbered 1-12 once each",
    )?;
    for s in &b.card_display.spaces {
        let cell = |grid: &[Vec<u32>]| grid.get(s.row as usize)?.get(s.col as usize).copied();
        ensure(
            cell(&b.card_display.space_grid) == Some(s.number),
            F,
            &format!("display space {}", s.number),
            "row/col",
            "does not match space_grid",
        )?;
        ensure(
            cell(&b.card_display.board_cost_grid) == Some(s.board_cost),
            F,
            &format!("display space {}", s.number),
            "board_cost",
            "does not match board_cost_grid",
        )?;
    }
    let rd = &b.research_display;
    ensure(
        rd.spaces.len() == 12,
        F,
        "research_display",
        "space",
        "expected 12 research display spaces",
    )?;
    unique(F, "id", rd.spaces.iter().map(|s| s.id.as_str()))?;
    for s in &rd.spaces {
        ensure(
            rd.row_letters.get(s.row as usize) == Some(&s.letter),
            F,
            &s.id,
            "letter",
            "letter does not match its row",
        )?;
    }
    ensure(
        rd.spaces.iter().filter(|s| s.red_framed).count() == 3,
        F,
        "research_display",
        "red_framed",
        "expected 3 red-framed spaces",
    )?;
    for l in &b.supplement_space.linked_spaces {
        let space = rd.spaces.iter().find(|s| &s.id == l);
        ensure(
            space.is_some_and(|s| s.red_framed),
            F,
            "supplement_space",
            "linked_spaces",
            format!("`{l}` is not a red-framed research display space"),
        )?;
    }
    ensure(
        b.bonus_spaces.len() == 12,
        F,
        "bonus_space",
        "count",
        "expected 12 bonus spaces",
    )?;
    unique(F, "id", b.bonus_spaces.iter().map(|s| s.id.as_str()))?;
    let kinds = |k| b.bonus_spaces.iter().filter(|s| s.kind == k).count();
    use crate::data::board::BonusSpaceKind as K;
    ensure(
        kinds(K::Majority) == 5 && kinds(K::Standard) == 3 && kinds(K::Tile) == 4,
        F,
        "bonus_space",
        "kind",
        "expected 5 majority, 3 standard and 4 tile spaces",
    )?;
    for s in &b.bonus_spaces {
        let cell = b
            .bonus_area
            .grid
            .get(s.row as usize)
            .and_then(|r| r.get(s.col as usize));
        ensure(
            cell == Some(&s.id),
            F,
            &s.id,
            "row/col",
            "does not match [bonus_area] grid",
        )?;
        if s.kind == K::Majority {
            ensure(
                s.compare.is_some() && !s.tiers.is_empty(),
                F,
                &s.id,
                "tiers",
                "a majority space needs compare and tiers",
            )?;
        }
        check_requirements(F, &s.id, &s.requirement)?;
        for r in s
            .reward
            .iter()
            .chain(s.tiers.iter().flat_map(|t| t.reward.iter()))
        {
            if let Reward::ReserveBonusTile { tile } = r {
                ensure(
                    b.bonus_tiles.iter().any(|t| &t.id == tile),
                    F,
                    &s.id,
                    "reward",
                    format!("unknown bonus tile `{tile}`"),
                )?;
            }
        }
    }
    ensure(
        b.bonus_tiles.len() == 4,
        F,
        "bonus_tile",
        "count",
        "expected 4 bonus tiles",
    )?;
    Ok(())
}
