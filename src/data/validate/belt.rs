//! Checks of `belt.toml` (the Belt side of the main board): the stations and their columns,
//! the asteroids' and shuttle spaces' target numbers, linked gas collectors (rulebook, "Module:
//! Belt side of the board", pp. 26–29, its field scientist action), the graph from every station
//! to every asteroid, the threat space (rulebook, "Module: Threat cards", p. 30, setup) and the
//! worked examples kept in the file.

use super::helpers::{ensure, Check};
use crate::data::belt::BeltTarget;
use crate::data::common::{BoardSide, Company, Structure};
use crate::data::GameData;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

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

pub(super) fn check(d: &GameData) -> Check {
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
    // The rulebook puts linked gas collectors on asteroids 1 and 15 only ("Module: Belt side of
    // the board", pp. 26–29, its field scientist action).
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

    // The threat card lies between shuttle spaces 11 and 16 (rulebook, "Module: Threat cards",
    // p. 30, setup).
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
