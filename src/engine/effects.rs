//! The small rule effects every action shares: coins, the tank and research tracks with their ON
//! switches and final spaces, company track steps with money barriers and bonus thresholds,
//! station outposts, and what a seat has face up in its action area.

use super::decision::ActionSource;
use super::flow::Ctx;
use super::state::{AreaTotals, Column, GameState, SlotCard, TileKind, TileState};
use crate::data::tracks::TrackBonusEffect;
use crate::data::{CardId, Company, GameData, Resource};
use crate::text::Deferred;

pub(crate) fn gain_coins(ctx: &mut Ctx, state: &mut GameState, seat: usize, n: u32) {
    gain_coins_saying(ctx, state, seat, n, "event.gain_coins", &[]);
}

/// Gains coins, announced with the catalog line `key` (its arguments: `name`, `n` and `args`),
/// which says why.
pub(crate) fn gain_coins_saying(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    n: u32,
    key: &str,
    args: &[(&str, &dyn std::fmt::Display)],
) {
    if n > 0 {
        state.seats[seat].coins += n;
        super::missions::note(state, seat, |c| c.coins_gained += n);
        let name = state.seats[seat].name.clone();
        let mut all: Vec<(&str, &dyn std::fmt::Display)> = vec![("name", &name), ("n", &n)];
        all.extend_from_slice(args);
        ctx.say(key, &all);
    }
}

/// Pays coins; the caller has checked that the seat can (an underflow is recorded as a broken
/// invariant, never hidden).
pub(crate) fn pay(ctx: &mut Ctx, state: &mut GameState, seat: usize, n: u32) {
    let s = &mut state.seats[seat];
    if s.coins < n {
        ctx.count(COIN_UNDERFLOW);
    }
    s.coins = s.coins.saturating_sub(n);
}

/// Pays `n` coins for a bonus space, said ("alice pays 1 CrypCoin for the bonus space").
pub(crate) fn pay_for_space(ctx: &mut Ctx, state: &mut GameState, seat: usize, n: u32) {
    if n > 0 {
        pay(ctx, state, seat, n);
        let name = state.seats[seat].name.clone();
        ctx.say("event.pays_for_space", &[("name", &name), ("n", &n)]);
    }
}

/// The note recorded when a payment exceeds a seat's coins (an engine bug).
pub const COIN_UNDERFLOW: &str = "invariant_coin_underflow";

/// Moves the helium-3 marker; on the final space every further step pays 2 CrypCoin.
pub(crate) fn tank(ctx: &mut Ctx, state: &mut GameState, seat: usize, n: u32) {
    if n == 0 {
        return;
    }
    let track = &ctx.data.player_board.tank_track;
    let from = state.seats[seat].tank as u32;
    let to = (from + n).min(track.final_step);
    let overflow = from + n - to;
    state.seats[seat].tank = to as u8;
    state.seats[seat].tank_steps_this_action += n;
    super::missions::note(state, seat, |c| c.tank_spaces += to - from);
    ctx.count("tank_steps");
    ctx.say(
        "event.tank",
        &[
            ("name", &state.seats[seat].name),
            ("steps", &(to - from)),
            ("to", &to),
        ],
    );
    // The ON switch fires when the marker reaches or passes its space (DECISIONS A1).
    if from < track.on_step && to >= track.on_step {
        let slot = ctx.data.player_board.tank_slot();
        if !state.seats[seat].slot_on[slot] {
            state.seats[seat].slot_on[slot] = true;
            ctx.count("tank_on_switch");
            ctx.say("event.slot_on_left", &[("name", &state.seats[seat].name)]);
        }
    }
    if overflow > 0 {
        ctx.count("tank_final_space");
        let coins = overflow * track.overflow_coins_per_step;
        gain_coins(ctx, state, seat, coins);
    }
}

/// A piece ousted by an expansion: whose expansion ousted it (`by`, a seat: a player or Luna),
/// its company, the Moon sector or Belt space it was ousted from (0: not known, a game stored
/// before it was kept), and its company's share value once it went home (a rule that moves
/// several pieces before it says them passes each piece's own).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ousted {
    pub by: usize,
    pub company: Company,
    pub from: u8,
    pub share_value: u32,
}

impl Ousted {
    /// `company`'s piece ousted by `by` from `from`, its share value as `state` has it now.
    pub fn now(data: &GameData, state: &GameState, by: usize, company: Company, from: u8) -> Self {
        Ousted {
            by,
            company,
            from,
            share_value: state.share_value(data, company),
        }
    }
}

/// Says who ousted an outpost from where and where it went: back to station column `column`
/// (0-based), or out of the game when its station had no vacant home space (None); then its
/// company's share value, if that changed: the oust, where it went and what it cost, said where
/// it happens.
pub(crate) fn say_ousted(ctx: &mut Ctx, state: &GameState, oust: Ousted, column: Option<u8>) {
    let data = ctx.data;
    let place = Deferred(|| ousted_from(state, oust.from));
    let company_name = data.company_name(oust.company);
    let name = &state.seats[oust.by].name;
    match column {
        Some(column) => ctx.say(
            "event.oust",
            &[
                ("name", name),
                ("company", &company_name),
                ("place", &place),
                (
                    "column",
                    &crate::data::numbering::ordinal(usize::from(column)),
                ),
            ],
        ),
        None => ctx.say(
            "event.oust_removed",
            &[
                ("name", name),
                ("company", &company_name),
                ("place", &place),
            ],
        ),
    }
    ctx.say_share_value(oust.company, oust.share_value);
}

/// Says who ousted a shuttle from where and where it went: back to its station's shuttle
/// column, or out of the game (`returned` false); then its company's share value, as
/// [`say_ousted`].
pub(crate) fn say_ousted_shuttle(ctx: &mut Ctx, state: &GameState, oust: Ousted, returned: bool) {
    let company_name = ctx.data.company_name(oust.company);
    let place = Deferred(|| ousted_from(state, oust.from));
    let key = if returned {
        "event.oust_shuttle"
    } else {
        "event.oust_shuttle_removed"
    };
    let name = &state.seats[oust.by].name;
    ctx.say(
        key,
        &[
            ("name", name),
            ("company", &company_name),
            ("place", &place),
        ],
    );
    ctx.say_share_value(oust.company, oust.share_value);
}

/// " from sector 19" / " from Belt space 7" (a name reference), or nothing for 0.
fn ousted_from(state: &GameState, from: u8) -> String {
    if from == 0 {
        String::new()
    } else if state.belt.is_some() {
        crate::text::name_ref(
            "event.ousted_from_belt",
            &[("space", &from)],
            &format!(" from Belt space {from}"),
        )
    } else {
        crate::text::name_ref(
            "event.ousted_from_sector",
            &[("sector", &from)],
            &format!(" from sector {from}"),
        )
    }
}

/// A plan on `seat`'s research track by its printed face (the token's plan is the seat's
/// token's).
pub(crate) fn plan_ref_label(
    data: &GameData,
    state: &GameState,
    seat: usize,
    plan: super::state::PlanRef,
) -> String {
    use super::state::PlanRef;
    match plan {
        PlanRef::Regular(p) => data.plan_label(p),
        PlanRef::Special(i) => data.special_plan_label(i as usize),
        PlanRef::Token => state.seats[seat]
            .token
            .map(|t| data.token_plan_label(t))
            .unwrap_or_default(),
    }
}

/// What an action is taken with, as its line names it: the card, or the tile.
pub(crate) fn source_label(
    data: &GameData,
    state: &GameState,
    seat: usize,
    source: ActionSource,
    tile: TileKind,
) -> String {
    match state.source_card(seat, source) {
        Some(card) => data.card_label(card),
        None => {
            let name = data.tile_name(tile.data_id());
            crate::text::name_ref("event.the_tile", &[("tile", &name)], "the tile")
        }
    }
}

/// A player's value for a majority space: what the space compares in its action area (Luna's
/// comes from her majority cards instead).
pub(crate) fn majority_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    compare: crate::data::board::MajorityCompare,
) -> u32 {
    use crate::data::board::MajorityCompare;
    let t = area_totals(data, state, seat, None);
    match compare {
        MajorityCompare::ResearchScientistCards => t.research_scientists,
        MajorityCompare::TitaniumUnits => t.units_of(Resource::Titanium),
        MajorityCompare::CarbonUnits => t.units_of(Resource::Carbon),
        MajorityCompare::MineralsUnits => t.units_of(Resource::Minerals),
        MajorityCompare::EnergyPoints => t.energy,
    }
}

/// Whether the next step on a company track is free, behind a barrier, or impossible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepStatus {
    Free,
    Barrier(u32),
    End,
}

pub(crate) fn step_status(
    data: &GameData,
    state: &GameState,
    seat: usize,
    company: Company,
) -> StepStatus {
    let track = &data.tracks.tracks[state.tracks[company.index()]];
    let pos = state.seats[seat].track_pos[company.index()] as u32;
    if pos >= track.last_space {
        StepStatus::End
    } else if let Some(b) = track.barrier_after(pos) {
        StepStatus::Barrier(b.cost)
    } else {
        StepStatus::Free
    }
}

/// One step forward on a company track. A barrier in the way is paid (the caller checked the
/// seat can and wants to). Passing a bonus threshold pays the mover and every seat that passed
/// it before, and unlocks the track bonus from the mover's next turn.
pub(crate) fn track_step(ctx: &mut Ctx, state: &mut GameState, seat: usize, company: Company) {
    let cost = match step_status(ctx.data, state, seat, company) {
        StepStatus::Barrier(cost) => cost,
        _ => 0,
    };
    track_step_paying(ctx, state, seat, company, cost);
}

/// [`track_step`] paying `paid` at a barrier in the way: Luna, who cannot pay in full, pays what
/// she has and moves on (the line says what she really paid).
pub(crate) fn track_step_paying(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    paid: u32,
) {
    let data = ctx.data;
    let track = &data.tracks.tracks[state.tracks[company.index()]];
    let ci = company.index();
    let pos = state.seats[seat].track_pos[ci] as u32;
    if pos >= track.last_space {
        return;
    }
    if let Some(b) = track.barrier_after(pos) {
        let paid = paid.min(b.cost);
        pay(ctx, state, seat, paid);
        ctx.count("money_barrier_paid");
        ctx.say(
            if paid < b.cost {
                "event.barrier_paid_partly"
            } else {
                "event.barrier_paid"
            },
            &[
                ("name", &state.seats[seat].name),
                ("paid", &paid),
                ("cost", &b.cost),
                ("company", &data.company_name(company)),
            ],
        );
    }
    state.seats[seat].track_pos[ci] = (pos + 1) as u8;
    super::missions::note(state, seat, |c| c.track_spaces += 1);
    // Every space is said where it is moved, so the turn's line ("moves 3 spaces", a run of
    // these merged) counts exactly the spaces the marker moved: a money barrier is no space,
    // its price is its own line. Luna's moves are said by her card's line, with their reason.
    if !state.seats[seat].is_luna() {
        ctx.say(
            "event.track_move",
            &[
                ("name", &state.seats[seat].name),
                ("moved", &1),
                ("company", &data.company_name(company)),
            ],
        );
    }
    if let Some((_, th)) = track.threshold_after(pos) {
        ctx.count("bonus_threshold");
        let others: Vec<usize> = (0..state.seats.len())
            .filter(|&s| s != seat && state.seats[s].track_pos[ci] as u32 > th.after_space)
            .collect();
        let company_name = data.company_name(company);
        let reason: [(&str, &dyn std::fmt::Display); 1] = [("company", &company_name)];
        gain_coins_saying(ctx, state, seat, th.coins, "event.coins_threshold", &reason);
        for s in others {
            ctx.count("bonus_threshold_shared");
            gain_coins_saying(ctx, state, s, th.coins, "event.coins_threshold", &reason);
        }
        if let Some(bi) = data.tracks.bonuses.iter().position(|b| b.id == th.unlocks) {
            if !state.seats[seat].is_luna() {
                state.seats[seat].bonus_pending |= 1 << bi;
                // What the bonus does, as printed (a name reference: the reader's language).
                let bonus = data.tracks.bonuses[bi].display_text();
                ctx.say(
                    "event.bonus_unlocked",
                    &[
                        ("name", &state.seats[seat].name),
                        ("company", &company_name),
                        ("bonus", &bonus),
                    ],
                );
            }
        }
    }
}

/// Moves up to `steps` on a track without asking: barriers are paid when affordable, otherwise
/// the marker stops (used where no choice exists, e.g. starting bonuses).
pub(crate) fn track_move_auto(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    steps: u32,
) {
    for _ in 0..steps {
        match step_status(ctx.data, state, seat, company) {
            StepStatus::End => break,
            StepStatus::Barrier(cost) if state.seats[seat].coins < cost => break,
            _ => track_step(ctx, state, seat, company),
        }
    }
}

/// Takes the top outpost of a station column (the caller checked the column is not empty).
pub(crate) fn take_outpost(state: &mut GameState, company: Company, column: usize) {
    take_outpost_from(&mut state.stations[company.index()][column]);
}

/// [`take_outpost`] on one column.
pub(crate) fn take_outpost_from(col: &mut Column) {
    col.outposts = col.outposts.saturating_sub(1);
    if col.outposts == 0 {
        // The crossed-out space is uncovered and stays revealed for the whole game.
        col.floor_revealed = true;
    }
}

/// Outpost columns an ousted outpost of `company` may return to (never onto a revealed
/// crossed-out space; on the Belt only the outer columns).
pub(crate) fn return_columns(data: &GameData, state: &GameState, company: Company) -> Vec<usize> {
    let shape = state.station_shape(data);
    shape
        .outpost_columns
        .iter()
        .copied()
        .filter(|&c| state.stations[company.index()][c].has_room_in(shape.spaces[c]))
        .collect()
}

/// Research points to utilize now (counted for the mission tasks before they are spent).
pub(crate) fn research_points(state: &mut GameState, seat: usize, n: u32) {
    super::missions::note(state, seat, |c| c.research_points += n);
    state
        .agenda
        .push(super::decision::Task::SpendResearch { seat, points: n });
}

/// Counts what a seat has face up in its action area, with bonuses applied. `exclude` leaves
/// out the research scientist that is advancing the upload marker.
pub(crate) fn area_totals(
    data: &GameData,
    state: &GameState,
    seat: usize,
    exclude: Option<ActionSource>,
) -> AreaTotals {
    let s = &state.seats[seat];
    let mut t = AreaTotals::default();
    let titanium_bonus = permanent_value(data, state, seat, |e| match e {
        TrackBonusEffect::TitaniumCardValueBonus { n } => Some(*n),
        _ => None,
    });
    let plus_one_on = match state.tile(TileKind::PlusOne) {
        TileState::Held {
            seat: h,
            on_card: Some(c),
            used: false,
        } if h == seat => Some(c),
        _ => None,
    };
    for (slot, card) in s.up_cards() {
        if exclude == Some(ActionSource::Slot(slot as u8)) {
            continue;
        }
        add_card(data, &mut t, card, titanium_bonus, plus_one_on);
    }
    if let TileState::Held {
        seat: h,
        used: false,
        ..
    } = state.tile(TileKind::Energy)
    {
        if h == seat {
            t.energy += tile_value(data, TileKind::Energy);
            t.energy_cards += 1;
        }
    }
    if state.holds_unused_tile(seat, TileKind::ResearchScientist)
        && exclude != Some(ActionSource::Tile)
    {
        t.research_scientists += 1;
    }
    if state.holds_unused_tile(seat, TileKind::FieldScientist) {
        t.field_scientists += 1;
    }
    if has_virtual_field_scientist(data, state, seat) {
        t.field_scientists += 1;
    }
    if t.energy_cards > 0 {
        t.energy += energy_bonus(data, state, seat);
    }
    t
}

fn add_card(
    data: &GameData,
    t: &mut AreaTotals,
    card: CardId,
    titanium_bonus: u32,
    plus_one_on: Option<CardId>,
) {
    let def = data.card(card);
    let plus = u32::from(plus_one_on == Some(card));
    match def.resource() {
        Some(r) => {
            let extra = if r == Resource::Titanium {
                titanium_bonus
            } else {
                0
            };
            t.units[r.index()] += def.value + extra + plus;
        }
        None if def.is_energy() => {
            t.energy += def.value;
            t.energy_cards += 1;
        }
        None if def.is_research_scientist() => t.research_scientists += 1,
        None if def.is_field_scientist() => t.field_scientists += 1,
        None => {}
    }
}

/// The value of one resource card in the seat's action area (with the titanium bonus and the
/// "+1" tile).
pub(crate) fn card_units(data: &GameData, state: &GameState, seat: usize, card: CardId) -> u32 {
    let def = data.card(card);
    let Some(r) = def.resource() else { return 0 };
    let titanium = if r == Resource::Titanium {
        permanent_value(data, state, seat, |e| match e {
            TrackBonusEffect::TitaniumCardValueBonus { n } => Some(*n),
            _ => None,
        })
    } else {
        0
    };
    let plus = match state.tile(TileKind::PlusOne) {
        TileState::Held {
            seat: h,
            on_card: Some(c),
            ..
        } if h == seat && c == card => 1,
        _ => 0,
    };
    def.value + titanium + plus
}

/// The energy tile's points, the research tile's research points, from the data.
pub(crate) fn tile_value(data: &GameData, kind: TileKind) -> u32 {
    data.board
        .bonus_tiles
        .iter()
        .find(|t| t.id == kind.data_id())
        .map(|t| match kind {
            TileKind::Energy => t.effect.energy_points,
            TileKind::ResearchScientist => t.effect.research_points,
            TileKind::FieldScientist => t.effect.n,
            TileKind::PlusOne => t.effect.n,
        })
        .unwrap_or(0)
}

/// The track bonuses in effect for a seat: of each track's pair only the best unlocked one.
/// With both bonuses of a track unlocked the player uses either one, never both (DECISIONS A2);
/// for the permanent bonuses the second always dominates the first, so it is the one in effect.
pub(crate) fn effective_bonuses<'d>(
    data: &'d GameData,
    state: &GameState,
    seat: usize,
) -> impl Iterator<Item = &'d crate::data::tracks::TrackBonusEntry> + 'd {
    let active = state.seats[seat].bonus_active;
    let bonuses = &data.tracks.bonuses;
    // Only the unlocked bonuses are visited (a few of the twenty): this runs inside every check.
    let on = move || set_bits(active).filter_map(|i| bonuses.get(i));
    on().filter(move |b| !on().any(|o| o.pair == b.pair && o.order > b.order))
}

/// The indices of the bits set in `mask`, lowest first.
fn set_bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros();
        mask &= mask.checked_sub(1)?;
        Some(i as usize)
    })
}

/// The value of the seat's permanent bonus of one kind in effect (0 if none).
pub(crate) fn permanent_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    pick: impl Fn(&TrackBonusEffect) -> Option<u32>,
) -> u32 {
    effective_bonuses(data, state, seat)
        .filter_map(|b| pick(&b.effect))
        .max()
        .unwrap_or(0)
}

pub(crate) fn energy_bonus(data: &GameData, state: &GameState, seat: usize) -> u32 {
    permanent_value(data, state, seat, |e| match e {
        TrackBonusEffect::EnergyTotalBonus { n } => Some(*n),
        _ => None,
    })
}

pub(crate) fn has_virtual_field_scientist(data: &GameData, state: &GameState, seat: usize) -> bool {
    field_gas_bonus(data, state, seat).is_some()
}

/// The P-FIELD gas collector bonus, if unlocked.
pub(crate) fn field_gas_bonus(data: &GameData, state: &GameState, seat: usize) -> Option<u32> {
    effective_bonuses(data, state, seat)
        .filter_map(|b| match b.effect {
            TrackBonusEffect::VirtualFieldScientist {
                gas_collector_bonus,
            } => Some(gas_collector_bonus),
            _ => None,
        })
        .max()
}

/// Gas collectors in the sectors holding an outpost of `company` (each counts once, DECISIONS A7);
/// on the Belt, those on the reward screens of its asteroids plus covered linked gas collectors.
pub(crate) fn gas_collectors(data: &GameData, state: &GameState, company: Company) -> u32 {
    if state.belt.is_some() {
        return super::belt::gas_collectors(data, state, company);
    }
    data.moon
        .sectors
        .iter()
        .filter(|s| state.sectors[s.id as usize - 1] == Some(company))
        .map(|s| s.structures.iter().filter(|x| x.is_gas_collector()).count() as u32)
        .sum()
}

/// The marker moves onto the next screen; ON and final screen effects.
pub(crate) fn research_screen_entered(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    from: Option<u8>,
    to: u8,
) {
    let track = &ctx.data.player_board.research_track;
    let reached_before = from.map(|f| f as u32 >= track.on_screen).unwrap_or(false);
    if !reached_before && to as u32 >= track.on_screen {
        let slot = ctx.data.player_board.research_slot();
        if !state.seats[seat].slot_on[slot] {
            state.seats[seat].slot_on[slot] = true;
            ctx.count("research_on_switch");
            ctx.say("event.slot_on_right", &[("name", &state.seats[seat].name)]);
        }
    }
    if to as u32 == track.final_screen {
        ctx.count("research_final_screen");
    }
}

/// Whether the upload marker sits on the final screen (research points then become coins).
pub(crate) fn on_final_screen(data: &GameData, state: &GameState, seat: usize) -> bool {
    state.seats[seat].upload.map(u32::from) == Some(data.player_board.research_track.final_screen)
}

/// Face-up cards of the seat that are usable now, by slot.
pub(crate) fn up_card_in_slot(state: &GameState, seat: usize, slot: u8) -> Option<CardId> {
    match state.seats[seat]
        .slots
        .get(slot as usize)
        .copied()
        .flatten()
    {
        Some(SlotCard::Up(c)) => Some(c),
        _ => None,
    }
}

/// Flips a used card face down.
pub(crate) fn flip_used(state: &mut GameState, seat: usize, card: CardId) {
    if let Some(i) = state.seats[seat].slot_of(card) {
        state.seats[seat].slots[i] = Some(SlotCard::Used(card));
    }
}

pub(crate) fn use_tile(state: &mut GameState, kind: TileKind) {
    if let TileState::Held { seat, on_card, .. } = state.tile(kind) {
        state.tiles[GameState::tile_index(kind)] = TileState::Held {
            seat,
            used: true,
            on_card,
        };
    }
}
