//! Checks of `tracks.toml`: the ten company track sides (ids, share icons ascending, money
//! barriers, halves, bonus thresholds), the track bonuses and their effects, the default tracks
//! and the track cards.

use super::helpers::{ensure, unique, Check};
use crate::data::common::Company;
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "tracks.toml";
    let f = &d.tracks;
    ensure(
        f.tracks.len() == f.track_sides && f.track_sides == 10,
        F,
        "track",
        "count",
        "expected 10 track sides",
    )?;
    unique(F, "id", f.tracks.iter().map(|t| t.id.as_str()))?;
    unique(F, "id", f.bonuses.iter().map(|b| b.id.as_str()))?;
    for t in &f.tracks {
        ensure(
            t.id == format!("{}{}", t.physical_track, t.side),
            F,
            &t.id,
            "id",
            "id must be physical_track + side",
        )?;
        let mut last = None;
        for (space, shares) in &t.share_icons {
            ensure(
                *space <= t.last_space,
                F,
                &t.id,
                "share_icons",
                format!("share icon on space {space} beyond last_space"),
            )?;
            if let Some((ls, lsh)) = last {
                ensure(
                    *space > ls && *shares > lsh,
                    F,
                    &t.id,
                    "share_icons",
                    "share icons must grow along the track",
                )?;
            }
            last = Some((*space, *shares));
        }
        ensure(
            t.shares_on_space.len() == t.last_space as usize + 1,
            F,
            &t.id,
            "shares_on_space",
            "one entry per space 0..=last_space",
        )?;
        for s in 0..=t.last_space {
            ensure(
                t.shares_on_space[s as usize] == t.shares_at(s),
                F,
                &t.id,
                "shares_on_space",
                format!("space {s} disagrees with share_icons"),
            )?;
        }
        ensure(
            (1..=2).contains(&t.money_barriers.len()),
            F,
            &t.id,
            "money_barriers",
            "a track has one or two money barriers",
        )?;
        for b in &t.money_barriers {
            ensure(
                b.after_space < t.last_space && b.cost > 0,
                F,
                &t.id,
                "money_barriers",
                "barrier outside the track or free",
            )?;
        }
        ensure(
            t.bonus_thresholds.len() == 2,
            F,
            &t.id,
            "bonus_thresholds",
            "a track has exactly 2 bonus thresholds",
        )?;
        for th in &t.bonus_thresholds {
            ensure(
                th.after_space < t.last_space && (1..=2).contains(&th.coins),
                F,
                &t.id,
                "bonus_thresholds",
                "threshold outside the track or not 1-2 coins",
            )?;
            let bonus = f.bonuses.iter().find(|b| b.id == th.unlocks);
            ensure(
                bonus.is_some_and(|b| b.track == t.id),
                F,
                &t.id,
                "bonus_thresholds",
                format!(
                    "unlocks unknown bonus `{}` (or one of another track)",
                    th.unlocks
                ),
            )?;
        }
    }
    for b in &f.bonuses {
        ensure(
            f.tracks.iter().any(|t| t.id == b.track),
            F,
            &b.id,
            "track",
            format!("unknown track `{}`", b.track),
        )?;
        let is_space = matches!(
            b.effect,
            crate::data::tracks::TrackBonusEffect::BonusSpace(_)
        );
        ensure(
            is_space == (b.kind == crate::data::tracks::BonusKind::BonusSpace),
            F,
            &b.id,
            "effect",
            "effect kind does not match the bonus kind",
        )?;
    }
    ensure(
        f.cards.len() == f.track_cards && f.track_cards == 5,
        F,
        "track_card",
        "count",
        "expected 5 track cards",
    )?;
    let mut halves = BTreeSet::new();
    for c in &f.cards {
        for h in &c.halves {
            ensure(
                f.tracks.iter().any(|t| &t.id == h),
                F,
                &c.id,
                "halves",
                format!("unknown track `{h}`"),
            )?;
            ensure(
                halves.insert(h.clone()),
                F,
                &c.id,
                "halves",
                format!("track `{h}` on two cards"),
            )?;
        }
    }
    for c in Company::ALL {
        let default = d.moon.company(c).map(|e| e.default_track.clone());
        ensure(
            default.as_deref().is_some_and(|t| d.track(t).is_some()),
            "moon.toml",
            c.id(),
            "default_track",
            "unknown default track",
        )?;
    }
    Ok(())
}
