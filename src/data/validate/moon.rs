//! Checks of `moon.toml` (the Moon side of the main board): the four companies, the station
//! layout, borders and their ends, the sector graph (every sector reachable from the stations,
//! never through another station), enclaves, the grid and the chapter-3 start sectors.

use super::helpers::{ensure, Check};
use crate::data::common::Company;
use crate::data::moon::BorderEnd;
use crate::data::{DataError, GameData, MoonGraph};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

pub(super) fn check(d: &GameData) -> Check {
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
