//! Checks of `luna-board.toml` (Luna's board, the Luna booklet): the action slots and their
//! agreement with `luna-cards.toml`, the slots switched on by the tracks, the majority slots, the
//! tank and research tracks and the difficulty levels 0-8.

use super::helpers::{ensure, slot_keys, Check};
use crate::data::luna::{LunaTrack, LunaTrackName};
use crate::data::GameData;
use std::collections::BTreeSet;

fn luna_track(file: &str, name: &str, t: &LunaTrack, slots: &[char]) -> Check {
    ensure(
        t.start_step == 0 && t.switch_on_step > 0 && t.switch_on_step < t.final_step,
        file,
        name,
        "switch_on_step",
        "the ON switch lies between the start (step 0) and the final step",
    )?;
    ensure(
        slots.contains(&t.switch_on_slot),
        file,
        name,
        "switch_on_slot",
        format!("`{}` is not a slot", t.switch_on_slot),
    )?;
    let steps = &t.score_threshold_steps;
    ensure(
        steps.len() == t.score_threshold_coins.len()
            && steps.windows(2).all(|w| w[0] < w[1])
            && t.score_threshold_coins.windows(2).all(|w| w[0] < w[1])
            && steps.iter().all(|s| (1..=t.final_step).contains(s)),
        file,
        name,
        "score_threshold_steps",
        "ascending steps within the track, one coin value each, values ascending",
    )?;
    ensure(
        t.score_by_step.len() == t.final_step as usize + 1,
        file,
        name,
        "score_by_step",
        "one score per step 0..=final_step",
    )?;
    for (step, score) in t.score_by_step.iter().enumerate() {
        let want = steps
            .iter()
            .zip(&t.score_threshold_coins)
            .filter(|(s, _)| **s as usize <= step)
            .map(|(_, c)| *c)
            .max()
            .unwrap_or(0);
        ensure(
            *score == want,
            file,
            name,
            "score_by_step",
            format!("step {step} scores {score}, the thresholds say {want}"),
        )?;
    }
    Ok(())
}

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "luna-board.toml";
    let b = &d.luna_board;
    let slots = &b.action_slots.order;
    ensure(
        *slots == d.luna_cards.geometry.slot_order,
        F,
        "action_slots",
        "order",
        "differs from luna-cards.toml [geometry] slot_order",
    )?;
    ensure(
        b.action_slots.initially_on == d.luna_cards.geometry.slots_initially_on,
        F,
        "action_slots",
        "initially_on",
        "differs from luna-cards.toml [geometry] slots_initially_on",
    )?;
    slot_keys(
        F,
        "action_slots",
        "switched_on_by",
        &b.action_slots.switched_on_by,
        slots,
    )?;
    let off: BTreeSet<char> = slots
        .iter()
        .filter(|s| !b.action_slots.initially_on.contains(s))
        .copied()
        .collect();
    let switched: BTreeSet<char> = b.action_slots.switched_on_by.keys().copied().collect();
    ensure(
        off == switched,
        F,
        "action_slots",
        "switched_on_by",
        "every slot that starts OFF is switched on by a track, and no other",
    )?;
    for (slot, track) in &b.action_slots.switched_on_by {
        let t = match track {
            LunaTrackName::TankTrack => &b.tank_track,
            LunaTrackName::ResearchTrack => &b.research_track,
        };
        ensure(
            t.switch_on_slot == *slot,
            F,
            "action_slots",
            "switched_on_by",
            format!("slot {slot}: the track names slot {}", t.switch_on_slot),
        )?;
    }
    let ms = &b.majority_slots;
    let icons: BTreeSet<_> = ms.left_slot.iter().chain(&ms.right_slot).collect();
    ensure(
        ms.count == 2 && ms.left_slot.len() == 2 && ms.right_slot.len() == 2 && icons.len() == 4,
        F,
        "majority_slots",
        "left_slot/right_slot",
        "2 majority slots, each standing for 2 of the 4 different icons",
    )?;
    luna_track(F, "tank_track", &b.tank_track, slots)?;
    luna_track(F, "research_track", &b.research_track, slots)?;

    let levels: Vec<u32> = b.levels.iter().map(|l| l.level).collect();
    ensure(
        levels == (0..=8).collect::<Vec<_>>(),
        F,
        "level",
        "level",
        format!("levels 0..8 in order, found {levels:?}"),
    )?;
    for l in &b.levels {
        let e = format!("level {}", l.level);
        ensure(
            l.start_helium_step <= b.tank_track.final_step
                && l.start_research_step <= b.research_track.final_step,
            F,
            &e,
            "start_helium_step/start_research_step",
            "start positions lie on the tracks",
        )?;
        let within =
            |tokens: &[u32], start: u32, last: u32| tokens.iter().all(|t| *t > start && *t <= last);
        ensure(
            within(
                &l.helium_tokens,
                l.start_helium_step,
                b.tank_track.final_step,
            ),
            F,
            &e,
            "helium_tokens",
            "Luna tokens lie on the tank track, after the start position",
        )?;
        ensure(
            within(
                &l.research_tokens,
                l.start_research_step,
                b.research_track.final_step,
            ),
            F,
            &e,
            "research_tokens",
            "Luna tokens lie on the research track, after the start position",
        )?;
        ensure(
            l.grade2_in_game || (l.helium_tokens.is_empty() && l.research_tokens.is_empty()),
            F,
            &e,
            "grade2_in_game",
            "Luna tokens add grade-2 cards, so they need the grade-2 cards in the game",
        )?;
    }
    ensure(
        b.deck.grade1_cards == d.luna_cards.grade1_count
            && b.deck.grade2_cards == d.luna_cards.grade2_count,
        F,
        "deck",
        "grade1_cards/grade2_cards",
        "differ from luna-cards.toml",
    )?;
    for lv in &b.deck.reshuffle.levels_adding_grade2 {
        ensure(
            b.level(*lv).is_some_and(|l| l.grade2_in_game),
            F,
            "deck.reshuffle",
            "levels_adding_grade2",
            format!("level {lv} does not exist or has no grade-2 cards"),
        )?;
    }
    let c = &b.campaign;
    for lv in [
        c.start_level_with_2_or_3_humans,
        c.start_level_with_2_or_3_humans_easier,
        c.start_level_solo,
        c.start_level_solo_easier,
    ] {
        ensure(
            b.level(lv).is_some(),
            F,
            "campaign",
            "start_level",
            format!("level {lv} does not exist"),
        )?;
    }
    Ok(())
}
