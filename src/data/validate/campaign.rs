//! Checks of `campaign.toml`: the chapters, their modules and boards (Threats on its board
//! side, preplaced outposts on the Moon), and the special rules each chapter names.

use super::helpers::{ensure, unique, Check};
use crate::data::campaign::{ChapterSpKind, Module, SpRuleKind};
use crate::data::common::{BoardSide, Company};
use crate::data::GameData;
use std::collections::BTreeSet;

pub(super) fn check(d: &GameData) -> Check {
    const F: &str = "campaign.toml";
    let c = &d.campaign;
    let ids: Vec<u32> = c.chapter_list.iter().map(|x| x.id).collect();
    ensure(
        c.chapters == 4 && ids == (1..=4).collect::<Vec<_>>(),
        F,
        "chapter",
        "id",
        format!(
            "chapters 1..4 in order, found {ids:?} (chapters = {})",
            c.chapters
        ),
    )?;
    unique(F, "name", c.chapter_list.iter().map(|x| x.name.as_str()))?;
    for ch in &c.chapter_list {
        let e = format!("chapter {}", ch.id);
        let mods: BTreeSet<_> = ch.modules.iter().collect();
        ensure(
            mods.len() == ch.modules.len(),
            F,
            &e,
            "modules",
            "module listed twice",
        )?;
        if ch.has_module(Module::Threats) {
            ensure(
                ch.board == d.threats.module.board_side,
                F,
                &e,
                "modules",
                "threat cards need the board side threats.toml names",
            )?;
        }
        if ch.preplaced_outposts.is_some() {
            ensure(
                ch.board == BoardSide::Moon,
                F,
                &e,
                "preplaced_outposts",
                "moon.toml [chapter3] lists Moon sectors",
            )?;
            let columns = d.moon.station_layout.columns.len();
            let mut all = BTreeSet::new();
            for co in Company::ALL {
                let s = d.moon.chapter3.sectors(co);
                ensure(
                    s.len() == columns && s.iter().all(|n| all.insert(*n)),
                    F,
                    &e,
                    "preplaced_outposts",
                    format!(
                        "moon.toml [chapter3] {}: one sector per station column ({columns}), no sector twice",
                        co.id()
                    ),
                )?;
            }
        }
        for x in &ch.extra_sp {
            ensure(x.sp > 0, F, &e, "extra_sp", "worth at least 1 SP")?;
            match x.kind {
                ChapterSpKind::FirstToUnlockPersonalBonusSpace => ensure(
                    ch.has_module(Module::Missions),
                    F,
                    &e,
                    "extra_sp",
                    "the personal bonus space needs the mission cards module",
                )?,
                ChapterSpKind::RemovedThreatCard => ensure(
                    ch.has_module(Module::Threats)
                        && x.sp == d.threats.module.campaign_sp_for_remover,
                    F,
                    &e,
                    "extra_sp",
                    "needs the threat cards module and the SP threats.toml names",
                )?,
            }
        }
    }
    unique(F, "id", c.sp_rules.iter().map(|r| r.id.as_str()))?;
    for r in &c.sp_rules {
        ensure(r.sp > 0, F, &r.id, "sp", "worth at least 1 SP")?;
        let ok = match &r.rule {
            SpRuleKind::PlayersWithFewerCoins { min } => (1..=3).contains(min),
            SpRuleKind::ChapterWinner { .. } => true,
            SpRuleKind::OneTimeMarkersGone { min } => {
                (1..=d.missions.module.one_time_markers_per_player as u32).contains(min)
            }
            SpRuleKind::FinalSpaceReached { tracks } => {
                let set: BTreeSet<_> = tracks.iter().collect();
                !tracks.is_empty() && set.len() == tracks.len()
            }
        };
        ensure(
            ok,
            F,
            &r.id,
            "rule",
            format!("{:?} is out of range", r.rule),
        )?;
    }
    ensure(
        c.ratings.first().is_some_and(|r| r.min_sp == 0)
            && c.ratings.windows(2).all(|w| w[0].min_sp < w[1].min_sp),
        F,
        "rating",
        "min_sp",
        "ratings start at 0 SP and ascend",
    )?;
    unique(F, "label", c.ratings.iter().map(|r| r.label.as_str()))?;
    ensure(
        c.luna.rules == d.luna_board.campaign,
        F,
        "luna",
        "start_level",
        "differs from luna-board.toml [campaign]",
    )?;
    Ok(())
}
