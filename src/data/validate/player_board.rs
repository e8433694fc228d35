//! Checks of `player-board.toml`: the tank and research tracks (one score per step or screen,
//! the ON step before the final one), the value links, and the action and resting slots.

use super::helpers::{ensure, Check};
use crate::data::board::ValueLink;
use crate::data::GameData;

const F: &str = "player-board.toml";

pub(super) fn check(d: &GameData) -> Check {
    let p = &d.player_board;
    let t = &p.tank_track;
    ensure(
        t.score_by_step.len() == t.final_step as usize + 1 && t.on_step < t.final_step,
        F,
        "tank_track",
        "score_by_step",
        "one score per step 0..=final_step, ON step before the final step",
    )?;
    scores_follow_links(
        "tank_track",
        "score_by_step",
        "step",
        &t.score_by_step,
        &t.value_links,
    )?;
    let r = &p.research_track;
    ensure(
        r.score_by_screen.len() == r.screens as usize
            && r.final_screen + 1 == r.screens
            && r.on_screen < r.final_screen,
        F,
        "research_track",
        "screens",
        "one score per screen, final screen last, ON screen before it",
    )?;
    scores_follow_links(
        "research_track",
        "score_by_screen",
        "screen",
        &r.score_by_screen,
        &r.value_links,
    )?;
    for s in &r.crossed_out_a.screens {
        ensure(
            *s < r.screens && *s != r.starting_screen,
            F,
            "research_track",
            "crossed_out_a",
            format!("screen {s} is not a track screen"),
        )?;
    }
    ensure(
        p.action_slots.count == 5 && p.action_slots.order_left_to_right.len() == 5,
        F,
        "action_slots",
        "count",
        "the player board has 5 action slots",
    )?;
    ensure(
        p.initially_on().len() == 3,
        F,
        "action_slots",
        "initially_on",
        "3 slots are on from the start",
    )?;
    ensure(
        p.resting_slots.count == 5 && p.resting_slots.central.len() == 3,
        F,
        "resting_slots",
        "count",
        "5 resting slots, 3 central",
    )?;
    Ok(())
}

/// Each position of a track scores the value of the highest value link it has passed.
fn scores_follow_links(
    entry: &str,
    field: &str,
    position: &str,
    scores: &[u32],
    links: &[ValueLink],
) -> Check {
    for (at, score) in scores.iter().enumerate() {
        let want = links
            .iter()
            .filter(|l| l.between.1 as usize <= at)
            .map(|l| l.value)
            .max()
            .unwrap_or(0);
        ensure(
            *score == want,
            F,
            entry,
            field,
            format!("{position} {at} scores {score}, value_links say {want}"),
        )?;
    }
    Ok(())
}
