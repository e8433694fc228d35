//! Action 4: Use a field scientist (rulebook, "4) Use 1 field scientist card", p. 16): the
//! helium-3 marker moves the card's tank steps and the seat gains its coins; a company's field
//! scientist adds 1 tank step per so many gas collectors that company controls (on the Belt
//! counted by `belt`: "Module: Belt side of the board", pp. 26–29). The field scientist tile
//! ("Details of the bonus tiles", p. 20) moves 2 plus 1 per further face-up field scientist.

use super::turn::{begin_action, source_flip};
use crate::data::cards::CardKind;
use crate::data::CardId;
use crate::engine::decision::{ActionSource, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, TileKind};

/// The action: the card's (or tile's) effect at once; it flips when the turn ends.
pub(super) fn begin(ctx: &mut Ctx, state: &mut GameState, seat: usize, source: ActionSource) {
    let (cards, tiles) = source_flip(state, seat, source, TileKind::FieldScientist);
    begin_action(state, seat);
    state.agenda.push(Task::FlipUsed { seat, cards, tiles });
    match source {
        ActionSource::Tile => field_tile(ctx, state, seat),
        _ => {
            if let Some(card) = state.source_card(seat, source) {
                field_card(ctx, state, seat, card);
            }
        }
    }
}

/// A field scientist card's effect (also when discarded through the discard-action bonus).
pub(super) fn field_card(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: CardId) {
    let data = ctx.data;
    let CardKind::FieldScientist {
        company,
        tank,
        coins,
        gas_collectors_per_extra_tank,
    } = data.card(card).kind
    else {
        return;
    };
    let name = state.seats[seat].name.clone();
    ctx.say(
        "event.use_card",
        &[("name", &name), ("card", &data.card_label(card))],
    );
    effects::tank(ctx, state, seat, tank);
    effects::gain_coins(ctx, state, seat, coins);
    if let Some(c) = company {
        let gas = effects::gas_collectors(data, state, c)
            + effects::field_gas_bonus(data, state, seat).unwrap_or(0);
        let extra = gas.checked_div(gas_collectors_per_extra_tank).unwrap_or(0);
        ctx.count("company_field_scientist");
        if extra > 0 {
            ctx.say(
                "event.gas_collectors",
                &[
                    ("company", &data.company_name(c)),
                    ("gas", &gas),
                    ("extra", &extra),
                ],
            );
            effects::tank(ctx, state, seat, extra);
        }
    }
}

fn field_tile(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let tile = data
        .board
        .bonus_tiles
        .iter()
        .find(|t| t.id == TileKind::FieldScientist.data_id());
    let (base, per) = tile
        .map(|t| (t.effect.n, t.effect.plus_per_other_face_up_field_scientist))
        .unwrap_or((0, 0));
    // Further field scientists: the tile itself is not counted.
    let others = effects::area_totals(data, state, seat, None)
        .field_scientists
        .saturating_sub(1);
    ctx.count("field_tile");
    let kind = TileKind::FieldScientist;
    let name = state.seats[seat].name.clone();
    ctx.say(
        "event.use_tile",
        &[
            ("name", &name),
            ("tile", &data.tile_name(kind.data_id())),
            ("tile_id", &kind.data_id()),
        ],
    );
    effects::tank(ctx, state, seat, base + per * others);
}
