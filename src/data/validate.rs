//! Consistency checks run on every load: counts, unique ids, references, geometry.

use super::belt::BeltTarget;
use super::campaign::{ChapterSpKind, Module, SpRuleKind};
use super::cards::{CardType, ShareField};
use super::common::{BoardSide, Company, Requirement, Reward, Structure};
use super::luna::{CardPick, LunaAction, LunaTrack, LunaTrackName};
use super::missions::{PersonalRequirement, PersonalReward, TaskAction, TaskCheck};
use super::moon::BorderEnd;
use super::threats::{ConsequenceEffect, ConsequenceTiming, ThreatRequirement, ThreatReward};
use super::{DataError, GameData, MoonGraph};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

type Check = Result<(), DataError>;

pub(super) fn all(d: &GameData) -> Check {
    action_cards(d)?;
    starting_cards(d)?;
    research(d)?;
    tracks(d)?;
    board(d)?;
    player_board(d)?;
    moon(d)?;
    belt(d)?;
    missions(d)?;
    threats(d)?;
    luna_cards(d)?;
    luna_board(d)?;
    campaign(d)?;
    Ok(())
}

fn unique<'a>(file: &str, field: &str, ids: impl Iterator<Item = &'a str>) -> Check {
    let mut seen = BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(DataError::invalid(file, id, field, "duplicate id"));
        }
    }
    Ok(())
}

fn ensure(cond: bool, file: &str, entry: &str, field: &str, msg: impl Into<String>) -> Check {
    if cond {
        Ok(())
    } else {
        Err(DataError::invalid(file, entry, field, msg))
    }
}

fn action_cards(d: &GameData) -> Check {
    const F: &str = "action-cards.toml";
    let f = &d.action_cards;
    ensure(
        f.cards.len() == f.count,
        F,
        "card",
        "count",
        format!("{} cards listed but count says {}", f.cards.len(), f.count),
    )?;
    unique(F, "id", f.cards.iter().map(|c| c.id.as_str()))?;
    for (letter, want) in &f.letter_counts {
        let have = f.cards.iter().filter(|c| c.letter == *letter).count();
        ensure(
            have == *want,
            F,
            &format!("letter {letter}"),
            "letter_counts",
            format!("{have} cards with letter {letter}, expected {want}"),
        )?;
    }
    for c in &f.cards {
        ensure(
            f.letter_counts.contains_key(&c.letter),
            F,
            &c.id,
            "letter",
            format!("unknown letter {}", c.letter),
        )?;
        ensure(
            f.deck.stack_bottom_to_top.contains(&c.letter),
            F,
            &c.id,
            "letter",
            "letter missing from [deck] stack order",
        )?;
        match c.card_type {
            CardType::SingleShare => {
                ensure(
                    c.share.company().is_some(),
                    F,
                    &c.id,
                    "share",
                    "a single share card must name its company",
                )?;
            }
            CardType::FieldScientist => {
                ensure(
                    c.effect.is_some(),
                    F,
                    &c.id,
                    "effect",
                    "a field scientist needs its effect",
                )?;
                ensure(
                    c.field_company.is_some(),
                    F,
                    &c.id,
                    "field_company",
                    "a field scientist names its company or \"plain\"",
                )?;
            }
            _ => ensure(
                c.value > 0,
                F,
                &c.id,
                "value",
                "resource, energy and research cards have a value",
            )?,
        }
    }
    let field: Vec<_> = f
        .cards
        .iter()
        .filter(|c| c.card_type == CardType::FieldScientist)
        .collect();
    ensure(
        field.len() == 5,
        F,
        "field scientists",
        "type",
        format!("{} field scientists, expected 5", field.len()),
    )?;
    let companies: BTreeSet<_> = field
        .iter()
        .filter_map(|c| c.field_company.and_then(ShareField::company))
        .collect();
    ensure(
        companies.len() == 4,
        F,
        "field scientists",
        "field_company",
        "expected one plain and one per company",
    )?;
    Ok(())
}

fn starting_cards(d: &GameData) -> Check {
    const F: &str = "starting-cards.toml";
    let f = &d.starting_cards;
    ensure(
        f.colours.len() == 4,
        F,
        "colour",
        "count",
        "expected 4 colours",
    )?;
    ensure(
        f.starting_cards.len() == f.cards_per_colour,
        F,
        "starting_card",
        "count",
        format!(
            "{} designs listed, cards_per_colour says {}",
            f.starting_cards.len(),
            f.cards_per_colour
        ),
    )?;
    unique(F, "icon", f.starting_cards.iter().map(|c| c.icon.as_str()))?;
    for c in &f.starting_cards {
        ensure(
            c.card_type != CardType::FieldScientist && c.card_type != CardType::SingleShare,
            F,
            &c.icon,
            "type",
            "starting cards hold no field scientists or single shares",
        )?;
        let want: Vec<String> = f
            .colours
            .iter()
            .map(|col| format!("{}-{}", col.id, c.icon))
            .collect();
        ensure(
            c.instance_ids == want,
            F,
            &c.icon,
            "instance_ids",
            format!("expected {want:?}"),
        )?;
    }
    ensure(
        f.single_energy.len() == f.single_energy_cards && f.single_energy.len() == 4,
        F,
        "single_energy_card",
        "count",
        "expected 4 single-energy cards",
    )?;
    for (i, e) in f.single_energy.iter().enumerate() {
        ensure(
            e.seat == i + 1 && e.card_type == CardType::Energy,
            F,
            &e.id,
            "seat",
            "single-energy cards are energy cards for seats 1-4 in order",
        )?;
    }
    Ok(())
}

fn check_requirements(file: &str, entry: &str, reqs: &[Requirement]) -> Check {
    for r in reqs {
        let ok = match r {
            Requirement::Carbon { min }
            | Requirement::Minerals { min }
            | Requirement::Titanium { min }
            | Requirement::Energy { min }
            | Requirement::ResearchScientist { min }
            | Requirement::FieldScientist { min }
            | Requirement::EitherScientist { min } => *min > 0,
            Requirement::DiscardFromHand { card } => {
                card == "any" || super::Resource::parse(card).is_some()
            }
            _ => true,
        };
        ensure(
            ok,
            file,
            entry,
            "requirements",
            format!("bad requirement {r:?}"),
        )?;
    }
    Ok(())
}

fn research(d: &GameData) -> Check {
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

fn tracks(d: &GameData) -> Check {
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
        let is_space = matches!(b.effect, super::tracks::TrackBonusEffect::BonusSpace(_));
        ensure(
            is_space == (b.kind == super::tracks::BonusKind::BonusSpace),
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

fn board(d: &GameData) -> Check {
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
        let grid = b
            .card_display
            .space_grid
            .get(s.row as usize)
            .and_then(|r| r.get(s.col as usize));
        ensure(
            grid == Some(&s.number),
            F,
            &format!("display space {}", s.number),
            "row/col",
            "does not match space_grid",
        )?;
        let cost = b
            .card_display
            .board_cost_grid
            .get(s.row as usize)
            .and_then(|r| r.get(s.col as usize));
        ensure(
            cost == Some(&s.board_cost),
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
    use super::board::BonusSpaceKind as K;
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

fn player_board(d: &GameData) -> Check {
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

fn moon(d: &GameData) -> Check {
    const F: &str = "moon.toml";
    let m = &d.moon;
    ensure(
        m.companies.len() == 4
            && Company::ALL
                .iter()
                .all(|c| m.companies.iter().filter(|e| e.id == *c).count() == 1),
        F,
        "company",
        "id",
        "each of the 4 companies exactly once",
    )?;
    let ids: Vec<u32> = m.sectors.iter().map(|s| s.id).collect();
    ensure(
        ids == (1..=24).collect::<Vec<_>>(),
        F,
        "sector",
        "id",
        format!(
            "sectors must be numbered 1..24 in order, found {} sectors",
            ids.len()
        ),
    )?;
    let layout = &m.station_layout;
    ensure(
        layout.columns.len() == 3 && layout.home_spaces_per_column == 5,
        F,
        "station_layout",
        "columns",
        "a station has 3 columns of 5 home spaces",
    )?;
    for col in &layout.columns {
        let coins = layout.coins.get(col);
        ensure(
            coins.is_some_and(|c| c.len() == 5 && c[layout.crossed_out_space - 1] == 2),
            F,
            "station_layout",
            &format!("coins.{col}"),
            "5 home spaces per column, the crossed-out 5th showing 2 coins",
        )?;
    }
    ensure(
        layout.columns.contains(&layout.logo_column),
        F,
        "station_layout",
        "logo_column",
        "not one of the columns",
    )?;
    let sector_exists = |n: u32| (1..=24).contains(&n);
    let mut seen = BTreeSet::new();
    for b in &m.borders {
        let a_key = match b.a {
            BorderEnd::Sector(s) => {
                ensure(
                    sector_exists(s),
                    F,
                    &format!("border {s}-{}", b.b),
                    "a",
                    format!("unknown sector {s}"),
                )?;
                format!("{s}")
            }
            BorderEnd::Station(c) => c.id().to_string(),
        };
        let entry = format!("border {a_key}-{}", b.b);
        ensure(
            sector_exists(b.b),
            F,
            &entry,
            "b",
            format!("unknown sector {}", b.b),
        )?;
        ensure(
            seen.insert((a_key.clone(), b.b)),
            F,
            &entry,
            "a/b",
            "border listed twice",
        )?;
        if let BorderEnd::Sector(s) = b.a {
            ensure(s != b.b, F, &entry, "a/b", "a sector cannot border itself")?;
            ensure(
                !seen.contains(&(b.b.to_string(), s)),
                F,
                &entry,
                "a/b",
                "border listed twice (both directions)",
            )?;
        }
    }
    // Station "touches" agree with the station borders.
    for st in &m.stations {
        let from_borders: BTreeSet<u32> = m
            .borders
            .iter()
            .filter(|b| b.a == BorderEnd::Station(st.company))
            .map(|b| b.b)
            .collect();
        let touches: BTreeSet<u32> = st.touches.iter().copied().collect();
        ensure(
            from_borders == touches && !touches.is_empty(),
            F,
            st.company.id(),
            "touches",
            format!("station borders {from_borders:?} disagree with touches {touches:?}"),
        )?;
    }
    // Every sector is reachable from every station (the graph is connected to the stations).
    let mut graph: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for b in &m.borders {
        let a = match b.a {
            BorderEnd::Sector(s) => MoonGraph::sector_node(s),
            BorderEnd::Station(c) => MoonGraph::station_node(c),
        };
        let bn = MoonGraph::sector_node(b.b);
        graph.entry(a).or_default().push(bn);
        graph.entry(bn).or_default().push(a);
    }
    for c in Company::ALL {
        let start = MoonGraph::station_node(c);
        let mut seen = BTreeSet::from([start]);
        let mut queue = VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            for &nb in graph.get(&n).into_iter().flatten() {
                // Stations are not sectors: paths never pass through another station.
                if nb >= MoonGraph::STATIONS && seen.insert(nb) {
                    queue.push_back(nb);
                }
            }
        }
        let missing: Vec<u32> = (1..=24)
            .filter(|s| !seen.contains(&MoonGraph::sector_node(*s)))
            .collect();
        ensure(
            missing.is_empty(),
            F,
            c.id(),
            "border",
            format!("sectors {missing:?} cannot be reached from this station"),
        )?;
    }
    // Enclaves: inside exactly one sector, which has no structures.
    ensure(
        m.enclaves.len() == 2,
        F,
        "enclave",
        "count",
        "expected 2 enclaves",
    )?;
    for e in &m.enclaves {
        let entry = format!("enclave {}", e.sector);
        let nbrs: BTreeSet<usize> = graph
            .get(&MoonGraph::sector_node(e.sector))
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .collect();
        ensure(
            nbrs == BTreeSet::from([MoonGraph::sector_node(e.surrounded_by)]),
            F,
            &entry,
            "surrounded_by",
            "an enclave borders exactly its surrounding sector",
        )?;
        let ring = m.sector(e.surrounded_by);
        ensure(
            ring.is_some_and(|r| r.structures.is_empty() && r.surrounds == Some(e.sector)),
            F,
            &entry,
            "surrounded_by",
            "the surrounding sector has no structures and names the enclave",
        )?;
        ensure(
            m.sector(e.sector)
                .is_some_and(|s| s.enclave_in == Some(e.surrounded_by)),
            F,
            &entry,
            "sector",
            "the enclave sector names its surrounding sector",
        )?;
    }
    // The grid names only known sectors, and every sector has cells.
    let mut cells = BTreeSet::new();
    for r in 0..m.grid.rows as usize {
        for c in 0..m.grid.columns as usize {
            match m.grid.cell(r, c) {
                Some(n) if sector_exists(n) => {
                    cells.insert(n);
                }
                _ => {
                    return Err(DataError::invalid(
                        F,
                        "grid",
                        "cells",
                        format!("row {r}, column {c} is not a sector number 1-24"),
                    ))
                }
            }
        }
    }
    ensure(
        cells.len() == 24,
        F,
        "grid",
        "cells",
        "every sector needs at least one cell",
    )?;
    for c in Company::ALL {
        let s = m.chapter3.sectors(c);
        ensure(
            s.len() == 3 && s.iter().all(|n| sector_exists(*n)),
            F,
            "chapter3",
            c.id(),
            "3 known sectors per company",
        )?;
    }
    // The sectors' own chapter3_start tags agree with [chapter3].
    for sec in &m.sectors {
        let listed = Company::ALL
            .into_iter()
            .find(|c| m.chapter3.sectors(*c).contains(&sec.id));
        ensure(
            sec.chapter3_start == listed,
            F,
            &format!("sector {}", sec.id),
            "chapter3_start",
            format!("disagrees with [chapter3], which says {listed:?}"),
        )?;
    }
    Ok(())
}

fn structures_valued(file: &str, entry: &str, field: &str, list: &[Structure]) -> Check {
    for st in list {
        let n = match st {
            Structure::DeepMine { n }
            | Structure::StripMine { n }
            | Structure::GasCollector { n }
            | Structure::ResearchStation { n } => *n,
        };
        ensure(n > 0, file, entry, field, format!("{st:?} has no value"))?;
    }
    Ok(())
}

fn belt(d: &GameData) -> Check {
    const F: &str = "belt.toml";
    let b = &d.belt;
    ensure(
        b.side == BoardSide::Belt,
        F,
        "side",
        "side",
        "must be \"belt\"",
    )?;
    ensure(
        b.stations.len() == 4
            && Company::ALL
                .iter()
                .all(|c| b.stations.iter().filter(|s| s.company == *c).count() == 1),
        F,
        "station",
        "company",
        "each of the 4 companies has exactly one station",
    )?;

    // Station columns: 2 outer outpost columns (12 spaces) around a middle shuttle column (5).
    let l = &b.station_layout;
    const E: &str = "station_layout";
    ensure(
        l.columns.len() == 3 && l.columns.get(1) == Some(&l.shuttle_column),
        F,
        E,
        "columns",
        "3 columns, the shuttle column in the middle",
    )?;
    let outer: BTreeSet<&String> = l.outpost_columns.iter().collect();
    ensure(
        l.outpost_columns.len() == 2
            && outer.len() == 2
            && outer
                .iter()
                .all(|c| l.columns.contains(c) && **c != l.shuttle_column),
        F,
        E,
        "outpost_columns",
        "the two outer columns, different from the shuttle column",
    )?;
    let keys = l
        .home_spaces
        .keys()
        .map(|k| ("home_spaces", k))
        .chain(l.crossed_out_space.keys().map(|k| ("crossed_out_space", k)))
        .chain(l.coins.keys().map(|k| ("coins", k)));
    for (field, k) in keys {
        ensure(
            l.columns.contains(k),
            F,
            E,
            field,
            format!("`{k}` is not one of the columns"),
        )?;
    }
    let outposts: usize = l.outpost_columns.iter().map(|c| l.spaces(c)).sum();
    ensure(
        outposts == 12,
        F,
        E,
        "home_spaces",
        format!("the 2 outer columns hold {outposts} outpost spaces, expected 12"),
    )?;
    ensure(
        l.spaces(&l.shuttle_column) == 5,
        F,
        E,
        "home_spaces",
        format!(
            "the shuttle column holds {} spaces, expected 5",
            l.spaces(&l.shuttle_column)
        ),
    )?;
    ensure(
        !l.crossed_out_space.is_empty(),
        F,
        E,
        "crossed_out_space",
        "Belt stations have crossed-out home spaces",
    )?;
    for col in &l.columns {
        let n = l.spaces(col);
        ensure(
            l.column_coins(col).len() == n && n > 0,
            F,
            E,
            &format!("coins.{col}"),
            format!("one coin entry per home space ({n})"),
        )?;
        if let Some(&x) = l.crossed_out_space.get(col) {
            ensure(
                (1..=n).contains(&x) && l.column_coins(col).get(x - 1) == Some(&2),
                F,
                E,
                &format!("crossed_out_space.{col}"),
                "the crossed-out space is a home space of the column showing 2 coins",
            )?;
        }
    }
    ensure(
        l.outpost_columns.contains(&l.logo_column),
        F,
        E,
        "logo_column",
        "must be an outpost column",
    )?;

    // Target numbers: asteroids and shuttle spaces share one sequence 1..N.
    let mut targets = BTreeSet::new();
    for a in &b.asteroids {
        ensure(
            targets.insert(a.id),
            F,
            &format!("asteroid {}", a.id),
            "id",
            "target number used twice",
        )?;
    }
    for p in &b.flight_paths {
        ensure(
            targets.insert(p.shuttle_space),
            F,
            &format!("flight_path {}", p.shuttle_space),
            "shuttle_space",
            "target number used twice",
        )?;
    }
    let want: BTreeSet<u32> = (1..=b.target_count).collect();
    ensure(
        targets == want,
        F,
        "targets",
        "target_count",
        format!(
            "asteroids and shuttle spaces must be numbered 1..{} once each; missing {:?}, extra {:?}",
            b.target_count,
            want.difference(&targets).collect::<Vec<_>>(),
            targets.difference(&want).collect::<Vec<_>>()
        ),
    )?;
    let asteroids: BTreeSet<u32> = b.asteroids.iter().map(|a| a.id).collect();
    let shuttle_spaces: BTreeSet<u32> = b.flight_paths.iter().map(|p| p.shuttle_space).collect();

    for a in &b.asteroids {
        let e = format!("asteroid {}", a.id);
        ensure(
            a.outpost_spaces >= 1,
            F,
            &e,
            "outpost_spaces",
            "an asteroid has at least one outpost space",
        )?;
        ensure(
            a.zone == "inner" || Company::parse(&a.zone).is_some(),
            F,
            &e,
            "zone",
            format!("`{}` is neither a company nor \"inner\"", a.zone),
        )?;
        ensure(
            !a.reward.is_empty(),
            F,
            &e,
            "reward",
            "an asteroid shows a reward screen",
        )?;
        structures_valued(F, &e, "reward", &a.reward)?;
        if let Some(linked) = &a.linked_gas_spaces {
            ensure(
                linked.len() == 2
                    && linked[0] != linked[1]
                    && linked.iter().all(|s| (1..=a.outpost_spaces).contains(s)),
                F,
                &e,
                "linked_gas_spaces",
                "two different outpost spaces of this asteroid",
            )?;
        }
    }
    // The rulebook puts linked gas collectors on asteroids 1 and 15 only (001 ~L1483).
    for a in &b.asteroids {
        let stated = a.id == 1 || a.id == 15;
        ensure(
            a.linked_gas_spaces.is_some() == stated,
            F,
            &format!("asteroid {}", a.id),
            "linked_gas_spaces",
            "linked gas collectors exist on asteroids 1 and 15, and only there",
        )?;
    }
    for id in [1, 15] {
        ensure(
            asteroids.contains(&id),
            F,
            &format!("asteroid {id}"),
            "id",
            "asteroids 1 and 15 (with the linked gas collectors) must exist",
        )?;
    }

    for p in &b.flight_paths {
        let e = format!("flight_path {}", p.shuttle_space);
        for end in p.ends {
            ensure(
                asteroids.contains(&end),
                F,
                &e,
                "ends",
                format!("{end} is not an asteroid"),
            )?;
        }
        ensure(
            p.ends[0] != p.ends[1],
            F,
            &e,
            "ends",
            "a flight path joins two different asteroids",
        )?;
    }

    let mut station_paths = BTreeSet::new();
    for p in &b.station_paths {
        let e = format!("station_path {}-{}", p.station.id(), p.asteroid);
        ensure(
            b.station(p.station).is_some(),
            F,
            &e,
            "station",
            "no [[station]] for this company",
        )?;
        ensure(
            asteroids.contains(&p.asteroid),
            F,
            &e,
            "asteroid",
            format!("{} is not an asteroid", p.asteroid),
        )?;
        ensure(
            p.printed_shuttle == p.station,
            F,
            &e,
            "printed_shuttle",
            "the printed shuttle belongs to the station's company",
        )?;
        ensure(
            station_paths.insert((p.station, p.asteroid)),
            F,
            &e,
            "asteroid",
            "station path listed twice",
        )?;
    }
    // Every station reaches the Belt, and from there every asteroid.
    let mut graph: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for p in &b.flight_paths {
        graph.entry(p.ends[0]).or_default().push(p.ends[1]);
        graph.entry(p.ends[1]).or_default().push(p.ends[0]);
    }
    for c in Company::ALL {
        let start = b.station_asteroids(c);
        ensure(
            !start.is_empty(),
            F,
            c.id(),
            "station_path",
            "every station has a printed-shuttle path to an asteroid",
        )?;
        let mut seen: BTreeSet<u32> = start.iter().copied().collect();
        let mut queue: VecDeque<u32> = start.into_iter().collect();
        while let Some(a) = queue.pop_front() {
            for &n in graph.get(&a).into_iter().flatten() {
                if seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        let missing: Vec<&u32> = asteroids.difference(&seen).collect();
        ensure(
            missing.is_empty(),
            F,
            c.id(),
            "flight_path",
            format!("asteroids {missing:?} cannot be reached from this station"),
        )?;
    }

    // The threat card lies between shuttle spaces 11 and 16 (001 ~L1562).
    let t = &b.threat_space;
    let mut between = t.between_shuttle_spaces;
    between.sort_unstable();
    ensure(
        between == [11, 16],
        F,
        "threat_space",
        "between_shuttle_spaces",
        "the threat card lies between shuttle spaces 11 and 16",
    )?;
    for s in between {
        ensure(
            shuttle_spaces.contains(&s),
            F,
            "threat_space",
            "between_shuttle_spaces",
            format!("{s} is not a shuttle space"),
        )?;
    }
    let req: BTreeSet<u32> = t.requires_shuttle_on.iter().copied().collect();
    ensure(
        req == BTreeSet::from(between),
        F,
        "threat_space",
        "requires_shuttle_on",
        "the threat is reached from the two shuttle spaces it lies between",
    )?;
    ensure(
        t.reach_cost > 0,
        F,
        "threat_space",
        "reach_cost",
        "reaching the threat costs energy",
    )?;

    // The worked examples kept in the file refer to real spaces.
    let ex = &b.example_ex20;
    for s in &ex.entered {
        let ok = match BeltTarget::parse(s) {
            Some(BeltTarget::Shuttle(n)) => shuttle_spaces.contains(&n),
            Some(BeltTarget::Outpost(n)) => asteroids.contains(&n),
            None => false,
        };
        ensure(
            ok,
            F,
            "example_ex20",
            "entered",
            format!("`{s}` is not \"shuttle:N\" or \"outpost:N\" of a real space"),
        )?;
    }
    ensure(
        ex.costs.len() == ex.entered.len() && ex.costs.iter().sum::<u32>() == ex.energy,
        F,
        "example_ex20",
        "costs",
        "one cost per entered space, adding up to the energy",
    )?;
    for k in ex.before.minerva_outposts.keys() {
        ensure(
            k.parse().is_ok_and(|n: u32| asteroids.contains(&n)),
            F,
            "example_ex20",
            "before.minerva_outposts",
            format!("`{k}` is not an asteroid"),
        )?;
    }
    for k in ex.before.shuttles.keys() {
        ensure(
            k.parse().is_ok_and(|n: u32| shuttle_spaces.contains(&n)),
            F,
            "example_ex20",
            "before.shuttles",
            format!("`{k}` is not a shuttle space"),
        )?;
    }
    let ex = &b.example_ex21;
    for a in &ex.outposts_on {
        ensure(
            asteroids.contains(a),
            F,
            "example_ex21",
            "outposts_on",
            format!("{a} is not an asteroid"),
        )?;
    }
    ensure(
        b.asteroid(ex.covers_linked_spaces_of)
            .is_some_and(|a| a.linked_gas_spaces.is_some()),
        F,
        "example_ex21",
        "covers_linked_spaces_of",
        "not an asteroid with a linked gas collector",
    )?;
    Ok(())
}

fn missions(d: &GameData) -> Check {
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
                t.condition.metric == super::missions::Metric::CompaniesWithMinShares;
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
    // (001 ~L1292-1296).
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

fn threats(d: &GameData) -> Check {
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
    let tank_values: BTreeSet<u32> = d
        .player_board
        .tank_track
        .value_links
        .iter()
        .map(|l| l.value)
        .collect();
    let research_values: BTreeSet<u32> = d
        .player_board
        .research_track
        .value_links
        .iter()
        .map(|l| l.value)
        .collect();
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

/// Checks that every character of a slot-letter string is one of Luna's slot letters.
fn slot_letters(file: &str, entry: &str, field: &str, cell: &str, slots: &[char]) -> Check {
    for ch in cell.chars() {
        ensure(
            slots.contains(&ch),
            file,
            entry,
            field,
            format!(
                "slot letter `{ch}` is not one of {}",
                slots.iter().collect::<String>()
            ),
        )?;
    }
    Ok(())
}

fn slot_keys<V>(
    file: &str,
    entry: &str,
    field: &str,
    map: &BTreeMap<char, V>,
    slots: &[char],
) -> Check {
    for k in map.keys() {
        ensure(
            slots.contains(k),
            file,
            entry,
            field,
            format!(
                "slot letter `{k}` is not one of {}",
                slots.iter().collect::<String>()
            ),
        )?;
    }
    Ok(())
}

/// Checks a slot-letter matrix's shape and letters; returns the cells marked for each slot.
fn slot_matrix(
    file: &str,
    entry: &str,
    field: &str,
    matrix: &[Vec<String>],
    shape: (usize, usize),
    slots: &[char],
) -> Result<BTreeMap<char, Vec<(usize, usize)>>, DataError> {
    ensure(
        matrix.len() == shape.0 && matrix.iter().all(|r| r.len() == shape.1),
        file,
        entry,
        field,
        format!("expected {} rows of {} cells", shape.0, shape.1),
    )?;
    let mut marked: BTreeMap<char, Vec<(usize, usize)>> = BTreeMap::new();
    for (r, row) in matrix.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            slot_letters(file, entry, field, cell, slots)?;
            for ch in cell.chars() {
                marked.entry(ch).or_default().push((r, c));
            }
        }
    }
    Ok(marked)
}

fn luna_cards(d: &GameData) -> Check {
    const F: &str = "luna-cards.toml";
    let l = &d.luna_cards;
    let g = &l.geometry;
    let slots: Vec<char> = g.slot_order.clone();
    ensure(
        slots == ['a', 'b', 'c', 'd', 'e'],
        F,
        "geometry",
        "slot_order",
        "Luna's five action slots are lettered a-e from left to right",
    )?;
    for s in &g.slots_initially_on {
        ensure(
            slots.contains(s),
            F,
            "geometry",
            "slots_initially_on",
            format!("`{s}` is not a slot"),
        )?;
    }
    ensure(
        g.card_display_space == d.board.card_display.space_grid,
        F,
        "geometry",
        "card_display_space",
        "differs from board.toml [card_display] space_grid",
    )?;
    ensure(
        g.bonus_cell_exists == d.board.bonus_area.luna_cells,
        F,
        "geometry",
        "bonus_cell_exists",
        "differs from board.toml [bonus_area] luna_cells",
    )?;
    ensure(
        g.research_row_length == d.board.research_display.positions_per_row as usize,
        F,
        "geometry",
        "research_row_length",
        "differs from board.toml [research_display] positions_per_row",
    )?;
    let grade = |n: u8| l.cards.iter().filter(|c| c.grade == n).count();
    ensure(
        l.card_count == 19 && l.cards.len() == l.card_count,
        F,
        "card",
        "card_count",
        format!(
            "{} cards listed, card_count says {}; expected 19",
            l.cards.len(),
            l.card_count
        ),
    )?;
    ensure(
        l.grade1_count == 12 && l.grade2_count == 7 && grade(1) == 12 && grade(2) == 7,
        F,
        "card",
        "grade",
        format!(
            "expected 12 grade-1 and 7 grade-2 cards, found {} and {}",
            grade(1),
            grade(2)
        ),
    )?;
    unique(F, "id", l.cards.iter().map(|c| c.id.as_str()))?;
    let display_shape = (
        g.card_display_space.len(),
        g.card_display_space.first().map_or(0, Vec::len),
    );
    let bonus_shape = (
        g.bonus_cell_exists.len(),
        g.bonus_cell_exists.first().map_or(0, Vec::len),
    );
    for c in &l.cards {
        let e = c.id.as_str();
        ensure(
            c.grade == 1 || c.grade == 2,
            F,
            e,
            "grade",
            "grade is 1 or 2",
        )?;
        ensure(
            !c.actions.is_empty(),
            F,
            e,
            "action",
            "a Luna card has an action section",
        )?;
        if let Some(r) = c.reveal {
            let n = match r {
                super::luna::LunaReveal::GainHelium { n }
                | super::luna::LunaReveal::AdvanceResearch { n } => n,
            };
            ensure(n > 0, F, e, "reveal", "a reveal icon moves at least 1 step")?;
        }
        for (i, a) in c.actions.iter().enumerate() {
            let field = |f: &str| format!("action[{i}].{f}");
            match a {
                LunaAction::GainCoins { n }
                | LunaAction::GainHelium { n }
                | LunaAction::AdvanceResearch { n }
                | LunaAction::AdvanceCompany { n, .. } => {
                    ensure(*n > 0, F, e, &field("n"), "must be at least 1")?;
                }
                LunaAction::ExpandCompany {
                    points, company, ..
                } => {
                    ensure(*points > 0, F, e, &field("points"), "must be at least 1")?;
                    let before = i.checked_sub(1).and_then(|j| c.actions.get(j));
                    ensure(
                        matches!(before, Some(LunaAction::AdvanceCompany { company: p, .. }) if p == company),
                        F,
                        e,
                        &field("company"),
                        "expand_company repeats the company of the advance_company just before it",
                    )?;
                }
                LunaAction::GainCard(CardPick::SlotMatrix {
                    matrix,
                    spaces_by_slot,
                }) => {
                    let marked =
                        slot_matrix(F, e, &field("matrix"), matrix, display_shape, &slots)?;
                    slot_keys(F, e, &field("spaces_by_slot"), spaces_by_slot, &slots)?;
                    for s in &slots {
                        let mut want: Vec<u32> = marked
                            .get(s)
                            .into_iter()
                            .flatten()
                            .filter_map(|&(r, c)| {
                                g.card_display_space
                                    .get(r)
                                    .and_then(|row| row.get(c))
                                    .copied()
                            })
                            .collect();
                        want.sort_unstable();
                        let mut have = spaces_by_slot.get(s).cloned().unwrap_or_default();
                        have.sort_unstable();
                        ensure(
                            want == have,
                            F,
                            e,
                            &field("spaces_by_slot"),
                            format!("slot {s}: the matrix marks spaces {want:?}, the list says {have:?}"),
                        )?;
                    }
                }
                LunaAction::GainCard(CardPick::MostValuableShare) => {}
                LunaAction::PlaceBonusMarker {
                    matrix,
                    cell_by_slot,
                } => {
                    let marked = slot_matrix(F, e, &field("matrix"), matrix, bonus_shape, &slots)?;
                    slot_keys(F, e, &field("cell_by_slot"), cell_by_slot, &slots)?;
                    for (s, cells) in &marked {
                        for &(r, col) in cells {
                            ensure(
                                g.bonus_cell_exists
                                    .get(r)
                                    .and_then(|row| row.get(col))
                                    .copied()
                                    .unwrap_or(false),
                                F,
                                e,
                                &field("matrix"),
                                format!(
                                    "slot {s} marks cell [{r}, {col}], which is not a bonus space"
                                ),
                            )?;
                        }
                    }
                    for s in &slots {
                        let cells = marked.get(s).cloned().unwrap_or_default();
                        let cell = cell_by_slot.get(s).map(|c| (c[0], c[1]));
                        ensure(
                            cells.len() == 1 && cell == cells.first().copied(),
                            F,
                            e,
                            &field("cell_by_slot"),
                            format!("slot {s}: the matrix marks {cells:?}, cell_by_slot says {cell:?}; each slot marks exactly one cell"),
                        )?;
                    }
                }
                LunaAction::DiscardResearchPlan(pick) => {
                    if let Some((_, rp)) = pick.row() {
                        ensure(
                            rp.row.len() == g.research_row_length,
                            F,
                            e,
                            &field("row"),
                            format!("a research row has {} spaces", g.research_row_length),
                        )?;
                        for cell in &rp.row {
                            slot_letters(F, e, &field("row"), cell, &slots)?;
                        }
                        slot_keys(
                            F,
                            e,
                            &field("position_by_slot"),
                            &rp.position_by_slot,
                            &slots,
                        )?;
                        for s in &slots {
                            let positions: Vec<usize> = rp
                                .row
                                .iter()
                                .enumerate()
                                .filter(|(_, cell)| cell.contains(*s))
                                .map(|(p, _)| p)
                                .collect();
                            let have = rp.position_by_slot.get(s).copied();
                            ensure(
                                positions.len() == 1 && have == positions.first().copied(),
                                F,
                                e,
                                &field("position_by_slot"),
                                format!("slot {s}: the row marks positions {positions:?}, position_by_slot says {have:?}"),
                            )?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

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

fn luna_board(d: &GameData) -> Check {
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

fn campaign(d: &GameData) -> Check {
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
