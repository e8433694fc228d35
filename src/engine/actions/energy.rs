//! Action 2: Use all energy cards (rulebook, "2) Use all energy cards in your action area",
//! pp. 12–13): their energy points expand one company, whose outposts enter adjacent Moon sectors
//! (costs in `costs::sector_cost`; from engine version 4 one option per sector, the station column
//! a second question only when the columns would leave different share values); then the entered
//! sectors' structures pay out ("The structures and their rewards", p. 13), ousted outposts go
//! back to a column of their station and the threat card's reward follows. On the Belt side
//! ("Module: Belt side of the board", pp. 26–29) entering a Belt space is `belt`'s rule and
//! dealing with the threat `threats`'s; this module routes to them.

use super::costs::sector_cost;
use super::turn::{begin_action, replace_top};
use super::{any_legal, company_choices, wrong};
use crate::data::numbering;
use crate::data::{CardId, Company, GameData, Reward, Structure};
use crate::engine::decision::{Decision, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, TileKind};
use crate::engine::{belt, illegal, missions, threats, RuleError};
use crate::text;

/// Whether the seat has face-up energy to use.
pub(super) fn check_use(data: &GameData, state: &GameState, seat: usize) -> Result<(), RuleError> {
    if effects::area_totals(data, state, seat, None).energy_cards == 0 {
        return Err(illegal("rule.no_face_up_energy", &[]));
    }
    Ok(())
}

/// Starts the action: all face-up energy (cards and the energy tile) goes into one expansion.
pub(super) fn begin(data: &GameData, state: &mut GameState, seat: usize) {
    let energy = effects::area_totals(data, state, seat, None).energy;
    let cards: Vec<CardId> = state.seats[seat]
        .up_cards()
        .filter(|(_, c)| data.card(*c).is_energy())
        .map(|(_, c)| c)
        .collect();
    let tiles = if state.holds_unused_tile(seat, TileKind::Energy) {
        vec![TileKind::Energy]
    } else {
        Vec::new()
    };
    begin_action(state, seat);
    state.agenda.push(Task::FlipUsed { seat, cards, tiles });
    state.agenda.push(Task::ChooseExpansion { seat, energy });
}

pub(super) fn candidates(data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    match task {
        Task::ChooseExpansion { .. } => company_choices(),
        Task::Expand { .. } if state.belt.is_some() => belt::expand_candidates(data, state),
        Task::Expand { .. } if state.engine_version >= ONE_OPTION_PER_SECTOR => {
            let mut out = vec![Decision::StopExpanding];
            out.extend(
                (1..=data.moon.sectors.len() as u8).map(|sector| Decision::ExpandInto { sector }),
            );
            out
        }
        Task::PickColumn { .. } => (0..3)
            .map(|column| Decision::OutpostColumn { column })
            .collect(),
        Task::Expand { .. } => {
            let mut out = vec![Decision::StopExpanding];
            for sector in 1..=data.moon.sectors.len() as u8 {
                for column in 0..3 {
                    out.push(Decision::EnterSector { sector, column });
                }
            }
            out
        }
        Task::ReturnOusted { .. } => (0..3)
            .map(|column| Decision::ReturnOutpost { column })
            .collect(),
        _ => Vec::new(),
    }
}

pub(super) fn check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    task: &Task,
    d: Decision,
) -> Result<(), RuleError> {
    match (task, d) {
        (Task::ChooseExpansion { .. }, Decision::ChooseCompany { company })
            if state.belt.is_some() =>
        {
            belt::check_expansion_company(data, state, company)
        }
        (Task::ChooseExpansion { .. }, Decision::ChooseCompany { company }) => {
            if state.outposts_in_station(company) == 0 {
                return Err(illegal(
                    "rule.station_empty",
                    &[("company", &data.company_name(company))],
                ));
            }
            Ok(())
        }
        (Task::Expand { .. }, Decision::EnterSector { .. } | Decision::ExpandInto { .. })
            if state.belt.is_some() =>
        {
            Err(illegal("rule.belt_enters_spaces", &[]))
        }
        (Task::Expand { .. }, Decision::ExpandInto { sector })
            if state.engine_version >= ONE_OPTION_PER_SECTOR =>
        {
            sector_columns(data, state, seat, task, sector).map(|_| ())
        }
        (Task::PickColumn { sector, .. }, Decision::OutpostColumn { column }) => {
            match state.agenda.iter().rev().nth(1) {
                Some(expand @ Task::Expand { .. }) => check(
                    data,
                    state,
                    seat,
                    expand,
                    Decision::EnterSector {
                        sector: *sector,
                        column,
                    },
                ),
                _ => Err(wrong(task)),
            }
        }
        (
            Task::Expand {
                company, energy, ..
            },
            Decision::EnterBelt {
                target,
                space,
                column,
            },
        ) => belt::check_enter(data, state, *company, *energy, target, space, column),
        (Task::Expand { .. }, Decision::DealWithThreat) => threats::check_deal(data, state, seat),
        (
            Task::Expand {
                company,
                energy,
                entered,
                ..
            },
            Decision::EnterSector { sector, column },
        ) => {
            check_column(state, *company, column)?;
            check_sector(data, state, *company, *energy, entered, sector)
        }
        (Task::Expand { .. }, Decision::StopExpanding) => Ok(()),
        (Task::ReturnOusted { .. }, Decision::ReturnOutpost { column })
            if state.shuttle_column() == Some(column as usize) =>
        {
            Err(illegal("rule.ousted_column", &[]))
        }
        (Task::ReturnOusted { company, .. }, Decision::ReturnOutpost { column }) => {
            let spaces = state.station_shape(data).spaces;
            if column > 2
                || !state.stations[company.index()][column as usize]
                    .has_room_in(spaces[column as usize])
            {
                return Err(illegal("rule.column_full", &[]));
            }
            Ok(())
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::ChooseExpansion { energy, .. }, Decision::ChooseCompany { company }) => {
            // The energy comes from the cards and tile the action flips at its end (the task
            // under this one); a track bonus's expansion has none to name.
            let used = state.agenda.iter().rev().nth(1).and_then(|t| match t {
                Task::FlipUsed { cards, tiles, .. } if !cards.is_empty() || !tiles.is_empty() => {
                    Some((cards.clone(), tiles.clone()))
                }
                _ => None,
            });
            // Each part with its energy, so that they add up to the total: the cards, the
            // energy tile, the track bonus that adds to every energy action.
            let sources = text::Deferred(|| {
                let Some((cards, tiles)) = &used else {
                    return String::new();
                };
                let cards = cards.iter().map(|c| {
                    let n = data.card(*c).value;
                    text::name_ref("word.energy_card", &[("n", &n)], &format!("{n} energy"))
                });
                let tiles = tiles.iter().map(|t| {
                    let n = effects::tile_value(data, *t);
                    let tile = data.tile_name(t.data_id());
                    text::name_ref(
                        "word.tile_energy",
                        &[("n", &n), ("tile", &tile)],
                        &format!("{n} from the {tile} tile"),
                    )
                });
                // Worked out only when the line is read (a replay or a search says nothing).
                let bonus = effects::energy_bonus(data, state, seat);
                let bonus = (bonus > 0).then(|| {
                    text::name_ref(
                        "word.energy_bonus",
                        &[("n", &bonus)],
                        &format!("{bonus} from the track bonus"),
                    )
                });
                cards
                    .chain(tiles)
                    .chain(bonus)
                    .collect::<Vec<_>>()
                    .join(" + ")
            });
            ctx.say(
                if used.is_some() {
                    "event.expands_with_from"
                } else {
                    "event.expands_with"
                },
                &[
                    ("name", &name),
                    ("company", &data.company_name(company)),
                    ("energy", &energy),
                    ("sources", &sources),
                ],
            );
            missions::note(state, seat, |c| c.expanded = true);
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy,
                    entered: Vec::new(),
                    threat: false,
                },
            );
        }
        (
            Task::Expand {
                company,
                energy,
                mut entered,
                ..
            },
            Decision::EnterSector { sector, column },
        ) => {
            let cost = sector_cost(data, state, company, sector, &entered).unwrap_or(energy);
            let ousted = state.sectors[sector as usize - 1];
            effects::take_outpost(state, company, column as usize);
            state.sectors[sector as usize - 1] = Some(company);
            entered.push((sector, ousted));
            missions::note(state, seat, |c| {
                c.pieces_placed += 1;
                c.pieces_ousted += u32::from(ousted.is_some());
            });
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy: energy.saturating_sub(cost),
                    entered,
                    threat: false,
                },
            );
        }
        (
            Task::Expand {
                company,
                energy,
                mut entered,
                threat,
                ..
            },
            Decision::EnterBelt {
                target,
                space,
                column,
            },
        ) => {
            let (energy, ousted) =
                belt::expansion_enters(ctx, state, seat, company, energy, target, space, column);
            entered.push((target, ousted));
            replace_top(
                state,
                Task::Expand {
                    seat,
                    company,
                    energy,
                    entered,
                    threat,
                },
            );
        }
        (Task::Expand { .. }, Decision::DealWithThreat) => threats::deal(ctx, state, seat),
        (expand @ Task::Expand { company, .. }, Decision::ExpandInto { sector }) => {
            let columns = sector_columns(data, state, seat, &expand, sector).unwrap_or_default();
            if column_matters(data, state, company, &columns) {
                state.agenda.push(Task::PickColumn { seat, sector });
            } else if let Some(&column) = columns.first() {
                let enter = Decision::EnterSector { sector, column };
                perform(ctx, state, seat, expand, enter);
            }
        }
        (Task::PickColumn { sector, .. }, Decision::OutpostColumn { column }) => {
            state.agenda.pop();
            if let Some(expand) = state.agenda.last().cloned() {
                let enter = Decision::EnterSector { sector, column };
                perform(ctx, state, seat, expand, enter);
            }
        }
        (Task::Expand { .. }, Decision::StopExpanding) => finish_expansion(ctx, state),
        (
            Task::ReturnOusted {
                seat: by,
                company,
                from,
            },
            Decision::ReturnOutpost { column },
        ) => {
            state.stations[company.index()][column as usize].outposts += 1;
            state.agenda.pop();
            let oust = effects::Ousted::now(data, state, by, company, from);
            effects::say_ousted(ctx, state, oust, Some(column));
        }
        _ => {}
    }
}

pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    let data = ctx.data;
    match task.clone() {
        Task::Expand { .. } => {
            let can_enter = any_legal(data, state, task, |d| {
                matches!(
                    d,
                    Decision::EnterSector { .. }
                        | Decision::ExpandInto { .. }
                        | Decision::EnterBelt { .. }
                        | Decision::DealWithThreat
                )
            });
            if !can_enter {
                finish_expansion(ctx, state);
                return Some(true);
            }
            Some(false)
        }
        Task::ReturnOusted {
            seat: by,
            company,
            from,
        } if effects::return_columns(data, state, company).is_empty() => {
            state.agenda.pop();
            state.removed_outposts[company.index()] += 1;
            ctx.count("ousted_removed_from_game");
            let oust = effects::Ousted::now(data, state, by, company, from);
            effects::say_ousted(ctx, state, oust, None);
            Some(true)
        }
        _ => None,
    }
}

/// The engine version from which a Moon sector is one option, its column a second question
/// only when it matters (issue 18).
const ONE_OPTION_PER_SECTOR: u32 = 4;

/// The station columns the outpost entering `sector` may come from in the expansion `task`, or
/// why it may not enter (the sector's reason before an empty column's).
fn sector_columns(
    data: &GameData,
    state: &GameState,
    seat: usize,
    task: &Task,
    sector: u8,
) -> Result<Vec<u8>, RuleError> {
    match task {
        Task::Expand {
            company,
            energy,
            entered,
            ..
        } if state.belt.is_none() => {
            // `EnterSector`'s check per column, with the sector's part (the same for every
            // column) asked once: this runs for every sector whenever expansions are listed.
            let columns: Vec<u8> = (0..3)
                .filter(|c| column_has_outposts(state, *company, *c))
                .collect();
            if columns.is_empty() {
                return check_column(state, *company, 0).map(|()| Vec::new());
            }
            check_sector(data, state, *company, *energy, entered, sector)?;
            Ok(columns)
        }
        // Not a Moon expansion: the same refusal for every column.
        _ => check(data, state, seat, task, first_column(sector)).map(|()| Vec::new()),
    }
}

fn first_column(sector: u8) -> Decision {
    Decision::EnterSector { sector, column: 0 }
}

/// Whether the outpost entering a Moon sector may come from station column `column`.
fn check_column(state: &GameState, company: Company, column: u8) -> Result<(), RuleError> {
    if !column_has_outposts(state, company, column) {
        return Err(illegal(
            "rule.column_empty",
            &[("column", &numbering::ordinal(usize::from(column)))],
        ));
    }
    Ok(())
}

fn column_has_outposts(state: &GameState, company: Company, column: u8) -> bool {
    column <= 2 && state.stations[company.index()][column as usize].outposts > 0
}

/// Whether `company` may enter Moon `sector` with `energy` left, whatever the column.
fn check_sector(
    data: &GameData,
    state: &GameState,
    company: Company,
    energy: u32,
    entered: &[(u8, Option<Company>)],
    sector: u8,
) -> Result<(), RuleError> {
    let cost = sector_cost(data, state, company, sector, entered)?;
    if cost > energy {
        return Err(illegal(
            "rule.sector_too_costly",
            &[("energy", &energy), ("sector", &sector), ("cost", &cost)],
        ));
    }
    Ok(())
}

/// Whether it matters which of `columns` the outpost comes from: the station's share value or
/// its revealed crossed-out spaces would differ.
pub(crate) fn column_matters(
    data: &GameData,
    state: &GameState,
    company: Company,
    columns: &[u8],
) -> bool {
    let shape = state.station_shape(data);
    // Only the company's station changes: a copy of it, not of the whole state.
    let outcome = |column: u8| {
        let mut after = state.stations[company.index()];
        if let Some(col) = after.get_mut(column as usize) {
            effects::take_outpost_from(col);
        }
        let floors = after.iter().filter(|c| c.floor_revealed).count();
        (shape.share_value(&after), floors)
    };
    let mut outcomes: Vec<(u32, usize)> = columns.iter().map(|c| outcome(*c)).collect();
    outcomes.sort_unstable();
    outcomes.dedup();
    outcomes.len() > 1
}

fn finish_expansion(ctx: &mut Ctx, state: &mut GameState) {
    let data = ctx.data;
    let Some(Task::Expand {
        seat,
        company,
        energy,
        entered,
        threat,
    }) = state.agenda.pop()
    else {
        return;
    };
    let name = state.seats[seat].name.clone();
    let belt = state.belt.is_some();
    let (mut coins, mut tank, mut strip, mut rp) = (0, 0, 0, 0);
    let structures: Vec<Structure> = if belt {
        // Belt: first outposts on an asteroid earn its reward screen; shuttle spaces with the
        // reward icon move the expanded company's track.
        let (structures, track_icons) = belt::expansion_rewards(data, state, company, &entered);
        strip += track_icons;
        if track_icons > 0 {
            ctx.count("belt_shuttle_reward");
        }
        structures
    } else {
        entered
            .iter()
            .filter_map(|(sector, _)| data.moon.sector(*sector as u32))
            .flat_map(|s| s.structures.iter().copied())
            .collect()
    };
    for st in structures {
        match st {
            Structure::DeepMine { n } => coins += n,
            Structure::GasCollector { n } => tank += n,
            Structure::StripMine { n } => strip += n,
            Structure::ResearchStation { n } => rp += n,
        }
    }
    if energy > 0 {
        ctx.count("energy_forfeited");
    }
    if entered.len() >= 5 {
        ctx.count("five_outposts_one_expansion");
    }
    // Only what was entered and gained is said (no "onto Belt space(s) -", no "+0").
    let sectors: Vec<String> = entered.iter().map(|(s, _)| s.to_string()).collect();
    let company_name = data.company_name(company);
    // Entering nothing forfeits the energy left (none after a threat took it all).
    let key = match (belt, sectors.is_empty(), energy > 0) {
        (false, false, _) => "event.expanded",
        (true, false, _) => "event.expanded_belt",
        (false, true, _) => "event.expanded_none",
        (true, true, true) => "event.expanded_belt_none",
        (true, true, false) => "event.expanded_belt_none_spent",
    };
    let gains = expansion_gains(company_name, coins, tank, strip, rp);
    ctx.say(
        key,
        &[
            ("name", &name),
            ("company", &company_name),
            ("sectors", &numbering::counted_list(&sectors)),
            ("count", &sectors.len()),
            ("gains", &gains),
            ("energy", &energy),
        ],
    );
    // Rewards first, then the threat card's reward, then the ousted outposts go home (pushed
    // first, so they run last). An ousted shuttle has no choice to make: it goes to its middle
    // column at once.
    for (target, ousted) in entered.iter().rev() {
        if let Some(other) = ousted {
            ctx.count("oust");
            if belt && belt::is_shuttle_space(data, *target) {
                let home = belt::return_shuttle(ctx, state, *other);
                let oust = effects::Ousted::now(data, state, seat, *other, *target);
                effects::say_ousted_shuttle(ctx, state, oust, home);
            } else {
                state.agenda.push(Task::ReturnOusted {
                    seat,
                    company: *other,
                    from: *target,
                });
            }
        }
    }
    if threat {
        state.agenda.push(Task::ThreatReward { seat });
    }
    if rp > 0 {
        effects::research_points(state, seat, rp);
    }
    if strip > 0 {
        state.agenda.push(Task::TrackMove {
            seat,
            company,
            steps: strip,
        });
    }
    if tank > 0 {
        state.agenda.push(Task::Reward {
            seat,
            reward: Reward::Tank { n: tank },
        });
    }
    if coins > 0 {
        state.agenda.push(Task::Reward {
            seat,
            reward: Reward::Coins { n: coins },
        });
    }
}

/// An expansion's rewards in words (name references, written in the reader's language): only
/// the kinds gained, or "no rewards".
fn expansion_gains(company: &str, coins: u32, tank: u32, strip: u32, rp: u32) -> String {
    let mut parts = Vec::new();
    if coins > 0 {
        parts.push(text::name_ref(
            "event.gain.coins",
            &[("n", &coins)],
            &format!("+{coins} CrypCoin"),
        ));
    }
    if tank > 0 {
        parts.push(text::name_ref(
            "event.gain.tank",
            &[("n", &tank)],
            &format!("tank +{tank}"),
        ));
    }
    if strip > 0 {
        parts.push(text::name_ref(
            "event.gain.track",
            &[("company", &company), ("n", &strip)],
            &format!("{company} track +{strip}"),
        ));
    }
    if rp > 0 {
        parts.push(text::name_ref(
            "event.gain.research_points",
            &[("n", &rp)],
            &text::fill("{n} research {n|point|points}", "n", &rp.to_string()),
        ));
    }
    if parts.is_empty() {
        text::name_ref("event.gain.none", &[], "no rewards")
    } else {
        parts.join(", ")
    }
}
