//! Choosing the turn's action (rulebook, "2) Action phase", p. 10): the seat performs exactly one
//! of the six actions, or first takes a free step — placing the "+1" tile, claiming a mission
//! task. This module is the menu: it lists every choice in a fixed order and hands each to the
//! family that owns its rule. Luna's whole turn runs here at once (Luna booklet, "2) Action
//! phase").

use super::turn::check_scientist;
use super::{bonus, drop_out, energy, field, research, resources};
use crate::data::{GameData, Resource};
use crate::engine::decision::{ActionSource, BonusRef, Decision, Task};
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, TileKind};
use crate::engine::{luna, missions, round, Message, RuleError};

/// Every choice of action, in a fixed order (the legal ones are found by `check`).
pub(super) fn candidates(_data: &GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    let s = &state.seats[seat];
    let mut out = vec![Decision::UseEnergy, Decision::DropOut];
    out.extend(
        [
            None,
            Some(Resource::Carbon),
            Some(Resource::Minerals),
            Some(Resource::Titanium),
        ]
        .map(|resource| Decision::UseResources { resource }),
    );
    for (slot, card) in s.up_cards() {
        out.push(Decision::PlaceTile { card });
        let source = ActionSource::Slot(slot as u8);
        out.push(Decision::UseResearch { source });
        out.push(Decision::UseField { source });
    }
    out.push(Decision::UseResearch {
        source: ActionSource::Tile,
    });
    out.push(Decision::UseField {
        source: ActionSource::Tile,
    });
    for i in 0..state.bonus_spaces.len() {
        out.push(Decision::PlaceBonus {
            space: BonusRef::Board(i as u8),
        });
    }
    for i in 0..state.track_bonus_spaces.len() {
        out.push(Decision::PlaceBonus {
            space: BonusRef::Track(i as u8),
        });
    }
    if state.missions.is_some() {
        out.extend(missions::claim_candidates(state));
        out.push(Decision::PlaceBonus {
            space: BonusRef::Personal,
        });
        let spaces: Vec<BonusRef> = (0..state.bonus_spaces.len() as u8)
            .map(BonusRef::Board)
            .chain((0..state.track_bonus_spaces.len() as u8).map(BonusRef::Track))
            .chain([BonusRef::Personal])
            .collect();
        out.extend(
            spaces
                .into_iter()
                .map(|space| Decision::PlaceOneTimeBonus { space }),
        );
    }
    out
}

pub(super) fn check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    match d {
        Decision::PlaceTile { card } => resources::check_place_tile(data, state, seat, card),
        Decision::UseResources { resource } => resources::check_use(data, state, seat, resource),
        Decision::UseEnergy => energy::check_use(data, state, seat),
        Decision::UseResearch { source } => {
            check_scientist(data, state, seat, source, TileKind::ResearchScientist)
        }
        Decision::UseField { source } => {
            check_scientist(data, state, seat, source, TileKind::FieldScientist)
        }
        Decision::PlaceBonus { space } => bonus::check_place(data, state, seat, space, false),
        Decision::PlaceOneTimeBonus { space } => bonus::check_place(data, state, seat, space, true),
        Decision::ClaimTask { card, column } => {
            missions::check_claim(data, state, seat, card, column, false)
        }
        Decision::DropOut => Ok(()),
        _ => Err(RuleError::NotNow(Message::new(
            "rule.choose_action_first",
            &[],
        ))),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, d: Decision) {
    match d {
        Decision::PlaceTile { card } => resources::place_tile(ctx, state, seat, card),
        Decision::UseResources { resource } => resources::begin(state, seat, resource),
        Decision::UseEnergy => energy::begin(ctx.data, state, seat),
        Decision::UseResearch { source } => research::begin(ctx, state, seat, source),
        Decision::UseField { source } => field::begin(ctx, state, seat, source),
        Decision::PlaceBonus { space } => bonus::begin(ctx, state, seat, space, false),
        Decision::PlaceOneTimeBonus { space } => bonus::begin(ctx, state, seat, space, true),
        Decision::ClaimTask { card, column } => {
            missions::claim(ctx, state, seat, card, column);
        }
        Decision::DropOut => drop_out::begin(ctx, state, seat),
        _ => {}
    }
}

/// A human waits to choose; Luna's turn runs at once: her next card, then the turn passes on.
pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    let seat = task.seat();
    if !state.seats[seat].is_luna() {
        return Some(false);
    }
    state.agenda.pop();
    luna::take_turn(ctx, state, seat);
    round::end_turn(ctx, state, seat);
    Some(true)
}
