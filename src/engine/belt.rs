//! The Belt side of the board (rulebook, "Module: Belt side of the board", pp. 26–29; campaign
//! chapters 2 and 4): outposts on asteroids and shuttles on flight paths, what is within reach and
//! what entering a Belt space costs, the expansion's rewards, ousted pieces going home, gas
//! collectors for field scientists, and Luna's way of expanding on the Belt (Luna booklet). The
//! Moon's expansion rules stay in actions/energy.rs; the energy action dispatches here when the
//! Belt is in play.
//!
//! Target numbers: asteroids and shuttle spaces share one sequence (belt.toml), so a number names
//! one Belt space kind unambiguously. Station columns on the Belt: 0 and 2 hold outposts (6 home
//! spaces each), 1 holds the 5 shuttles.

use super::effects::Ousted;
use super::flow::Ctx;
use super::state::GameState;
use super::{illegal, RuleError};
use crate::data::luna::SectorPick;
use crate::data::numbering;
use crate::data::{Company, GameData, Structure};
use serde::{Deserialize, Serialize};

/// What lies on the Belt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeltState {
    /// Per asteroid (data.belt.asteroids order): the company whose outpost is on each outpost
    /// space.
    pub outposts: Vec<Vec<Option<Company>>>,
    /// Per flight path (data.belt.flight_paths order): the company whose shuttle is on its
    /// shuttle space.
    pub shuttles: Vec<Option<Company>>,
    /// Shuttles removed from the game per company (ousted with no vacant home space left).
    pub removed_shuttles: [u8; 4],
}

impl BeltState {
    /// The empty Belt.
    pub fn new(data: &GameData) -> BeltState {
        BeltState {
            outposts: data
                .belt
                .asteroids
                .iter()
                .map(|a| vec![None; a.outpost_spaces as usize])
                .collect(),
            shuttles: vec![None; data.belt.flight_paths.len()],
            removed_shuttles: [0; 4],
        }
    }

    /// Outposts of a company on the Belt.
    pub fn outposts_of(&self, company: Company) -> u32 {
        self.outposts
            .iter()
            .flatten()
            .filter(|o| **o == Some(company))
            .count() as u32
    }

    /// Shuttles of a company on the Belt (printed shuttles do not count).
    pub fn shuttles_of(&self, company: Company) -> u32 {
        self.shuttles
            .iter()
            .filter(|o| **o == Some(company))
            .count() as u32
    }

    /// Whether the company has an outpost on asteroid `a` (index).
    pub fn has_outpost(&self, a: usize, company: Company) -> bool {
        self.outposts
            .get(a)
            .is_some_and(|spaces| spaces.contains(&Some(company)))
    }

    /// Outposts of the company on asteroid `a` (index).
    pub fn outposts_on(&self, a: usize, company: Company) -> u32 {
        self.outposts.get(a).map_or(0, |s| {
            s.iter().filter(|o| **o == Some(company)).count() as u32
        })
    }

    /// The company whose shuttle is on shuttle space `space` (target number).
    pub fn shuttle_on(&self, data: &GameData, space: u32) -> Option<Company> {
        let i = data
            .belt
            .flight_paths
            .iter()
            .position(|p| p.shuttle_space == space)?;
        self.shuttles.get(i).copied().flatten()
    }
}

/// A Belt space by its kind and index in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// An asteroid (index in data.belt.asteroids).
    Asteroid(usize),
    /// A shuttle space (index in data.belt.flight_paths).
    Shuttle(usize),
}

/// The Belt space with target number `n`.
pub fn target(data: &GameData, n: u32) -> Option<Target> {
    if let Some(a) = data.belt.asteroids.iter().position(|a| a.id == n) {
        return Some(Target::Asteroid(a));
    }
    data.belt
        .flight_paths
        .iter()
        .position(|p| p.shuttle_space == n)
        .map(Target::Shuttle)
}

/// The target number of a Belt space.
pub fn target_number(data: &GameData, t: Target) -> u32 {
    match t {
        Target::Asteroid(a) => data.belt.asteroids[a].id,
        Target::Shuttle(p) => data.belt.flight_paths[p].shuttle_space,
    }
}

fn min_into(best: &mut Option<u32>, e: u32) {
    *best = Some(best.map_or(e, |b| b.min(e)));
}

/// Extra energy (0 or 1) to reach asteroid `a` for `company` the cheapest way, or None when it
/// is out of reach: an asteroid is within reach through a flight path holding a shuttle of the
/// company (printed station shuttles included; crossing the path part with an energy icon costs
/// 1 more) or when the company already has an outpost there (no path crossed).
pub fn asteroid_reach(
    data: &GameData,
    belt: &BeltState,
    company: Company,
    a: usize,
) -> Option<u32> {
    let id = data.belt.asteroids.get(a)?.id;
    let mut best = None;
    if belt.has_outpost(a, company) {
        min_into(&mut best, 0);
    }
    for p in &data.belt.station_paths {
        if p.asteroid == id && p.printed_shuttle == company {
            min_into(&mut best, u32::from(p.energy));
        }
    }
    for (i, p) in data.belt.flight_paths.iter().enumerate() {
        if belt.shuttles.get(i).copied().flatten() == Some(company) {
            if let Some(e) = p.energy_towards(id) {
                min_into(&mut best, u32::from(e));
            }
        }
    }
    best
}

/// Extra energy to reach shuttle space `p` (flight path index) for `company`, or None: a
/// shuttle space is within reach when its flight path is attached to an asteroid with an
/// outpost of the company; crossing the path part with an energy icon costs 1 more.
pub fn shuttle_reach(data: &GameData, belt: &BeltState, company: Company, p: usize) -> Option<u32> {
    let fp = data.belt.flight_paths.get(p)?;
    let mut best = None;
    for (end, e) in fp.ends.iter().zip(fp.energy) {
        let Some(a) = data.belt.asteroids.iter().position(|x| x.id == *end) else {
            continue;
        };
        if belt.has_outpost(a, company) {
            min_into(&mut best, u32::from(e));
        }
    }
    best
}

/// The company on a Belt space (an outpost space of an asteroid, or a shuttle space).
fn occupant(belt: &BeltState, t: Target, space: usize) -> Option<Company> {
    match t {
        Target::Asteroid(a) => belt
            .outposts
            .get(a)
            .and_then(|s| s.get(space))
            .copied()
            .flatten(),
        Target::Shuttle(p) => belt.shuttles.get(p).copied().flatten(),
    }
}

/// Energy to enter a Belt space for `company`: 1 for the space, +1 for crossing a flight-path
/// part with an energy icon on the way, +1 to oust another company's piece there.
pub(crate) fn enter_cost(
    data: &GameData,
    state: &GameState,
    company: Company,
    target_no: u8,
    space: u8,
) -> Result<u32, RuleError> {
    let Some(belt) = state.belt.as_ref() else {
        return Err(illegal("rule.belt_off", &[]));
    };
    let Some(t) = target(data, target_no as u32) else {
        return Err(illegal("rule.no_such_belt_space", &[("space", &target_no)]));
    };
    let name = data.company_name(company);
    let reach = match t {
        Target::Asteroid(a) => {
            let spaces = data.belt.asteroids[a].outpost_spaces;
            if space as u32 >= spaces {
                return Err(illegal(
                    "rule.asteroid_spaces",
                    &[("asteroid", &target_no), ("spaces", &spaces)],
                ));
            }
            asteroid_reach(data, belt, company, a).ok_or_else(|| {
                illegal(
                    "rule.asteroid_out_of_reach",
                    &[("asteroid", &target_no), ("company", &name)],
                )
            })?
        }
        Target::Shuttle(p) => {
            if space != 0 {
                return Err(illegal("rule.shuttle_space_one", &[("space", &target_no)]));
            }
            shuttle_reach(data, belt, company, p).ok_or_else(|| {
                illegal(
                    "rule.shuttle_out_of_reach",
                    &[("space", &target_no), ("company", &name)],
                )
            })?
        }
    };
    let here = occupant(belt, t, space as usize);
    if here == Some(company) {
        return Err(illegal("rule.belt_space_taken", &[("company", &name)]));
    }
    Ok(1 + reach + u32::from(here.is_some()))
}

/// Whether it matters which outer station column an outpost of `company` comes from now: the
/// columns holding outposts would leave different share values or reveal different
/// crossed-out spaces (the Moon's rule for asking the column, issue 18).
pub fn outpost_column_matters(data: &GameData, state: &GameState, company: Company) -> bool {
    let columns: Vec<u8> = state
        .outpost_columns()
        .iter()
        .filter(|c| {
            state.stations[company.index()]
                .get(**c)
                .is_some_and(|col| col.outposts > 0)
        })
        .map(|c| *c as u8)
        .collect();
    super::actions::column_matters(data, state, company, &columns)
}

/// Candidates during an expansion on the Belt: stopping, entering a Belt space (every outpost
/// space with either outer column, every shuttle space with the middle column), and dealing
/// with the threat when one is in play.
pub(crate) fn expand_candidates(data: &GameData, state: &GameState) -> Vec<super::Decision> {
    let mut out = vec![super::Decision::StopExpanding];
    for a in &data.belt.asteroids {
        for space in 0..a.outpost_spaces as u8 {
            for column in [0u8, 2] {
                out.push(super::Decision::EnterBelt {
                    target: a.id as u8,
                    space,
                    column,
                });
            }
        }
    }
    for p in &data.belt.flight_paths {
        out.push(super::Decision::EnterBelt {
            target: p.shuttle_space as u8,
            space: 0,
            column: 1,
        });
    }
    if state.threat.is_some() {
        out.push(super::Decision::DealWithThreat);
    }
    out
}

/// A company may expand on the Belt while its station holds an outpost or a shuttle.
pub(crate) fn check_expansion_company(
    data: &GameData,
    state: &GameState,
    company: Company,
) -> Result<(), RuleError> {
    if state.outposts_in_station(company) + state.shuttles_in_station(company) == 0 {
        return Err(illegal(
            "rule.station_empty_belt",
            &[("company", &data.company_name(company))],
        ));
    }
    Ok(())
}

/// Checks entering a Belt space during an expansion of `company` with `energy` points left.
pub(crate) fn check_enter(
    data: &GameData,
    state: &GameState,
    company: Company,
    energy: u32,
    target_no: u8,
    space: u8,
    column: u8,
) -> Result<(), RuleError> {
    let Some(t) = target(data, target_no as u32) else {
        return Err(illegal("rule.no_such_belt_space", &[("space", &target_no)]));
    };
    let col = state.stations[company.index()]
        .get(column as usize)
        .copied();
    match t {
        Target::Asteroid(_) => {
            if !state.outpost_columns().contains(&(column as usize)) {
                return Err(illegal("rule.outpost_columns", &[]));
            }
            if col.is_none_or(|c| c.outposts == 0) {
                return Err(illegal(
                    "rule.column_empty",
                    &[("column", &numbering::ordinal(usize::from(column)))],
                ));
            }
        }
        Target::Shuttle(_) => {
            if state.shuttle_column() != Some(column as usize) {
                return Err(illegal("rule.shuttle_column", &[]));
            }
            if col.is_none_or(|c| c.outposts == 0) {
                return Err(illegal(
                    "rule.no_shuttle_left",
                    &[("company", &data.company_name(company))],
                ));
            }
        }
    }
    let cost = enter_cost(data, state, company, target_no, space)?;
    if cost > energy {
        return Err(illegal(
            "rule.belt_too_costly",
            &[("energy", &energy), ("space", &target_no), ("cost", &cost)],
        ));
    }
    Ok(())
}

/// Places the piece (the caller checked); returns the company ousted there, if any.
pub(crate) fn enter(
    data: &GameData,
    state: &mut GameState,
    company: Company,
    target_no: u8,
    space: u8,
    column: u8,
) -> Option<Company> {
    let t = target(data, target_no as u32)?;
    super::effects::take_outpost(state, company, column as usize);
    let belt = state.belt.as_mut()?;
    let slot = match t {
        Target::Asteroid(a) => belt.outposts.get_mut(a)?.get_mut(space as usize)?,
        Target::Shuttle(p) => belt.shuttles.get_mut(p)?,
    };
    slot.replace(company)
}

/// An expansion enters a Belt space (the caller checked): the piece is placed and its energy
/// spent. Returns the energy left and the company ousted there, if any.
#[allow(clippy::too_many_arguments)]
pub(crate) fn expansion_enters(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    energy: u32,
    target_no: u8,
    space: u8,
    column: u8,
) -> (u32, Option<Company>) {
    let data = ctx.data;
    let cost = enter_cost(data, state, company, target_no, space).unwrap_or(energy);
    let ousted = enter(data, state, company, target_no, space, column);
    ctx.count(if is_shuttle_space(data, target_no) {
        "belt_enter_shuttle_space"
    } else {
        "belt_enter_outpost_space"
    });
    super::missions::note(state, seat, |c| {
        c.pieces_placed += 1;
        c.pieces_ousted += u32::from(ousted.is_some());
    });
    (energy.saturating_sub(cost), ousted)
}

/// What an expansion on the Belt earns: the reward screens of the asteroids where the company
/// placed its first outpost(s), and 1 track step per entered shuttle space showing the reward
/// icon.
pub(crate) fn expansion_rewards(
    data: &GameData,
    state: &GameState,
    company: Company,
    entered: &[(u8, Option<Company>)],
) -> (Vec<Structure>, u32) {
    let Some(belt) = state.belt.as_ref() else {
        return (Vec::new(), 0);
    };
    let mut structures = Vec::new();
    let mut track_icons = 0;
    let mut seen: Vec<usize> = Vec::new();
    for (t, _) in entered {
        match target(data, *t as u32) {
            Some(Target::Shuttle(p)) if data.belt.flight_paths[p].reward_icon => {
                track_icons += 1;
            }
            Some(Target::Asteroid(a)) if !seen.contains(&a) => {
                seen.push(a);
                let placed_now = entered
                    .iter()
                    .filter(|(x, _)| *x as u32 == data.belt.asteroids[a].id)
                    .count() as u32;
                let before = belt.outposts_on(a, company).saturating_sub(placed_now);
                if before == 0 {
                    structures.extend(data.belt.asteroids[a].reward.iter().copied());
                }
            }
            _ => {}
        }
    }
    (structures, track_icons)
}

/// Whether a Belt target number is a shuttle space.
pub fn is_shuttle_space(data: &GameData, target_no: u8) -> bool {
    matches!(target(data, target_no as u32), Some(Target::Shuttle(_)))
}

/// An ousted shuttle goes to the lowest vacant space of its station's middle column (never the
/// revealed crossed-out space); with no room it leaves the game.
/// Returns whether it went home (false: it left the game).
pub(crate) fn return_shuttle(ctx: &mut Ctx, state: &mut GameState, company: Company) -> bool {
    let data = ctx.data;
    let shape = state.station_shape(data);
    let Some(col) = shape.shuttle_column else {
        return false;
    };
    let column = &mut state.stations[company.index()][col];
    if column.has_room_in(shape.spaces[col]) {
        column.outposts += 1;
        ctx.count("belt_shuttle_returned");
        true
    } else {
        if let Some(b) = state.belt.as_mut() {
            b.removed_shuttles[company.index()] += 1;
        }
        ctx.count("ousted_removed_from_game");
        false
    }
}

/// Gas collectors a company controls on the Belt: those on the reward screens of asteroids
/// where it has an outpost (each counts once), plus the linked gas collector of asteroids 1 and
/// 15 when its outposts cover both linked outpost spaces.
pub(crate) fn gas_collectors(data: &GameData, state: &GameState, company: Company) -> u32 {
    let Some(belt) = state.belt.as_ref() else {
        return 0;
    };
    data.belt
        .asteroids
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if !belt.has_outpost(i, company) {
                return 0;
            }
            let screen = a.reward.iter().filter(|s| s.is_gas_collector()).count() as u32;
            let linked = a.linked_gas_spaces.as_ref().is_some_and(|l| {
                !l.is_empty()
                    && l.iter().all(|sp| {
                        belt.outposts[i].get((*sp as usize).wrapping_sub(1)) == Some(&Some(company))
                    })
            });
            screen + u32::from(linked)
        })
        .sum()
}

// ------------------------------------------------------------------------------------------
// Luna on the Belt

/// Luna expands `company` on the Belt with `points` expansion points (Luna booklet, "When I
/// expand a company on the Belt side"): per point, the vacant target within reach (a vacant
/// shuttle space, or an asteroid without an outpost of the company and with a vacant outpost
/// space) with the lowest (MIN) / highest (MAX) target number; else a vacant outpost space of an
/// asteroid already holding the company's outposts; else she ousts, from the reachable company on
/// whose track she is farthest behind, the piece with the lowest / highest target number. She
/// never gains rewards. With no piece left that can be placed, the rest is forfeited.
pub(crate) fn luna_expand(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    points: u32,
    pick: SectorPick,
) {
    let data = ctx.data;
    let mut placed: Vec<String> = Vec::new();
    // Said after the expansion's line (and its company's share value): (the oust, its
    // column, a shuttle's return).
    let mut gone_home: Vec<(Ousted, Option<u8>, Option<bool>)> = Vec::new();
    for _ in 0..points {
        let Some(belt) = state.belt.as_ref() else {
            return;
        };
        let shuttle_col = state.shuttle_column();
        let has_shuttle = state.shuttles_in_station(company) > 0;
        let outpost_col = state.luna_main_column(data, company);
        if !has_shuttle && outpost_col.is_none() {
            ctx.count("luna_expansion_forfeit");
            break;
        }
        let choose = |mut list: Vec<(u32, Target, usize)>| {
            list.sort_by_key(|x| x.0);
            match pick {
                SectorPick::Min => list.first().copied(),
                SectorPick::Max => list.last().copied(),
            }
        };
        let vacant_space = |a: usize| belt.outposts[a].iter().position(Option::is_none);
        // 1. Vacant targets within reach.
        let mut targets: Vec<(u32, Target, usize)> = Vec::new();
        if has_shuttle {
            for (p, fp) in data.belt.flight_paths.iter().enumerate() {
                if belt.shuttles[p].is_none() && shuttle_reach(data, belt, company, p).is_some() {
                    targets.push((fp.shuttle_space, Target::Shuttle(p), 0));
                }
            }
        }
        if outpost_col.is_some() {
            for (a, ast) in data.belt.asteroids.iter().enumerate() {
                if !belt.has_outpost(a, company) && asteroid_reach(data, belt, company, a).is_some()
                {
                    if let Some(sp) = vacant_space(a) {
                        targets.push((ast.id, Target::Asteroid(a), sp));
                    }
                }
            }
        }
        let mut chosen = choose(targets);
        // 2. A vacant outpost space where the company already has outposts.
        if chosen.is_none() && outpost_col.is_some() {
            let own: Vec<(u32, Target, usize)> = data
                .belt
                .asteroids
                .iter()
                .enumerate()
                .filter(|(a, _)| belt.has_outpost(*a, company))
                .filter_map(|(a, ast)| vacant_space(a).map(|sp| (ast.id, Target::Asteroid(a), sp)))
                .collect();
            chosen = choose(own);
        }
        // 3. Oust a piece of the reachable company on whose track she is farthest behind.
        if chosen.is_none() {
            let mut pieces: Vec<(u32, Target, usize, Company)> = Vec::new();
            if has_shuttle {
                for (p, fp) in data.belt.flight_paths.iter().enumerate() {
                    if let Some(o) = belt.shuttles[p] {
                        if o != company && shuttle_reach(data, belt, company, p).is_some() {
                            pieces.push((fp.shuttle_space, Target::Shuttle(p), 0, o));
                        }
                    }
                }
            }
            if outpost_col.is_some() {
                for (a, ast) in data.belt.asteroids.iter().enumerate() {
                    if asteroid_reach(data, belt, company, a).is_none() {
                        continue;
                    }
                    for (sp, o) in belt.outposts[a].iter().enumerate() {
                        if let Some(o) = o {
                            if *o != company {
                                pieces.push((ast.id, Target::Asteroid(a), sp, *o));
                            }
                        }
                    }
                }
            }
            let present: Vec<Company> = pieces.iter().map(|p| p.3).collect();
            let victim = state
                .luna_behind_ranking(data, seat)
                .into_iter()
                .find(|c| present.contains(c));
            if let Some(v) = victim {
                // Of the victim's pieces: the lowest / highest target number; on an asteroid
                // the first of its outpost spaces holding the victim.
                let mut list: Vec<(u32, Target, usize)> = Vec::new();
                for (n, t, sp, o) in pieces {
                    if o == v && !list.iter().any(|x| x.0 == n) {
                        list.push((n, t, sp));
                    }
                }
                chosen = choose(list);
            }
        }
        let Some((number, t, space)) = chosen else {
            ctx.count("luna_expansion_forfeit");
            break;
        };
        let column = match t {
            Target::Shuttle(_) => shuttle_col,
            Target::Asteroid(_) => outpost_col,
        };
        let Some(column) = column else { break };
        let ousted = enter(
            data,
            state,
            company,
            number as u8,
            space as u8,
            column as u8,
        );
        if let Some(other) = ousted {
            ctx.count("luna_oust");
            let from = number as u8;
            let (column, shuttle_home) = match t {
                Target::Shuttle(_) => (None, Some(return_shuttle(ctx, state, other))),
                Target::Asteroid(_) => match state.luna_return_column(data, other) {
                    Some(col) => {
                        state.stations[other.index()][col].outposts += 1;
                        (Some(col as u8), None)
                    }
                    None => {
                        state.removed_outposts[other.index()] += 1;
                        (None, None)
                    }
                },
            };
            let oust = Ousted::now(data, state, seat, other, from);
            gone_home.push((oust, column, shuttle_home));
        }
        ctx.count("luna_belt_expansion");
        placed.push(number.to_string());
    }
    if !placed.is_empty() {
        ctx.say(
            "event.luna_expands_belt",
            &[
                ("company", &data.company_name(company)),
                ("spaces", &crate::data::numbering::counted_list(&placed)),
                ("count", &placed.len()),
            ],
        );
        ctx.say_share_value(company, state.share_value(data, company));
    }
    // Where each ousted piece went, after the expansion's line.
    for (oust, column, shuttle_home) in gone_home {
        match shuttle_home {
            Some(home) => super::effects::say_ousted_shuttle(ctx, state, oust, home),
            None => super::effects::say_ousted(ctx, state, oust, column),
        }
    }
}
