//! Checks of `player-board.toml`: the tank and research tracks (one score per step or screen,
//! the ON step before the final one), the value links, and the action and resting slots.

use super::helpers::{ensure, Check};
use crate::data::GameData;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "player-board.toml";
    let p = &d.player_board;
    let t = &p.tank_track;
    ensure(
        t.score_by_step.len() == t.final_step as usize + 1 && t.on_step < t.final_step,
        F,
        "tank_track",
        "score_by_step",
        "one score per step 0..=final_step, ON step before the final step",
    )?;
    for (step, score) in t.score_by_step.iter().enumerate() {
        let want = t
            .value_links
            .iter()
            .filter(|l| l.between.1 as usize <= step)
            .map(|l| l.value)
            .max()
            .unwrap_or(0);
        ensure(
            *score == want,
            F,
            "tank_track",
            "score_by_step",
            format!("step {step} scores {score}, value_links say {want}"),
        )?;
    }
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
    for (screen, score) in r.score_by_screen.iter().enumerate() {
        let want = r
            .value_links
            .iter()
            .filter(|l| l.between.1 as usize <= screen)
            .map(|l| l.value)
            .max()
            .unwrap_or(0);
        ensure(
            *score == want,
            F,
            "research_track",
            "score_by_screen",
            format!("screen {screen} scores {score}, value_links say {want}"),
        )?;
    }
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
