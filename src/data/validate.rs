//! Consistency checks run on every load: counts, unique ids, references, geometry.

use super::cards::{CardType, ShareField};
use super::common::{Company, Requirement, Reward};
use super::moon::BorderEnd;
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
        ensure(ok, file, entry, "requirements", format!("bad requirement {r:?}"))?;
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
        ensure(!p.reward.is_empty(), F, &p.id, "reward", "a plan has a reward")?;
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
                format!("unlocks unknown bonus `{}` (or one of another track)", th.unlocks),
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
        format!("sectors must be numbered 1..24 in order, found {} sectors", ids.len()),
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
        ensure(sector_exists(b.b), F, &entry, "b", format!("unknown sector {}", b.b))?;
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
    ensure(m.enclaves.len() == 2, F, "enclave", "count", "expected 2 enclaves")?;
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
    Ok(())
}
