//! The round's frame: starting the Action phase, ending a turn, the Preparation phase for the
//! next round, and the end of the game.

use super::decision::Task;
use super::flow::Ctx;
use super::state::{GameState, Phase, TileKind, TileState};
use crate::text::Deferred;

pub(crate) fn start_action_phase(ctx: &mut Ctx, state: &mut GameState) {
    state.phase = Phase::Action;
    for s in state.seats.iter_mut() {
        s.turns_this_round = 0;
        s.dropped_out = false;
    }
    let first = state.first_player;
    state.active = Some(first);
    state.agenda = vec![Task::ChooseAction { seat: first }];
    ctx.say(
        "event.action_phase",
        &[("round", &state.round), ("name", &state.seats[first].name)],
    );
}

/// End of a seat's turn: refill the research display, make this turn's track bonuses usable,
/// and pass the turn clockwise (or end the Action phase).
pub(crate) fn end_turn(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    refill_research_display(state, ctx);
    unlock_pending_bonuses(ctx, state, seat);
    super::missions::end_action(state, seat);
    let s = &mut state.seats[seat];
    s.turns_this_round += 1;
    s.tank_steps_this_action = 0;
    match state.next_active_after(seat) {
        Some(next) => {
            state.active = Some(next);
            state.agenda.push(Task::ChooseAction { seat: next });
        }
        None => end_action_phase(ctx, state),
    }
}

fn unlock_pending_bonuses(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let pending = state.seats[seat].bonus_pending;
    if pending == 0 {
        return;
    }
    let before = extra_markers(ctx, state.seats[seat].bonus_active);
    state.seats[seat].bonus_active |= pending;
    state.seats[seat].bonus_pending = 0;
    let after = extra_markers(ctx, state.seats[seat].bonus_active);
    // Extra bonus markers (A2): "2 additional in total", so only the difference is added.
    if after > before {
        let s = &mut state.seats[seat];
        s.markers_total += (after - before) as u8;
        s.markers_reserve += (after - before) as u8;
        ctx.count("extra_bonus_markers");
    }
}

fn extra_markers(ctx: &Ctx, active: u32) -> u32 {
    use crate::data::tracks::TrackBonusEffect;
    ctx.data
        .tracks
        .bonuses
        .iter()
        .enumerate()
        .filter(|(i, _)| active & (1 << i) != 0)
        .filter_map(|(_, b)| match b.effect {
            TrackBonusEffect::ExtraBonusMarkers { n } => Some(n),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// Fills empty research display spaces from the matching supply (empty supply: stays empty),
/// and says which plan went where.
pub(crate) fn refill_research_display(state: &mut GameState, ctx: &mut Ctx) {
    let data = ctx.data;
    let mut filled = Vec::new();
    for (i, space) in data.board.research_display.spaces.iter().enumerate() {
        if state.research_display[i].is_none() {
            let letter = match space.letter {
                'A' => 0,
                'B' => 1,
                _ => 2,
            };
            state.research_display[i] = state.plan_supply[letter].pop();
            if let Some(plan) = state.research_display[i].filter(|_| ctx.speaking()) {
                filled.push(crate::text::name_ref(
                    "event.refilled_plan",
                    &[("space", &space.id), ("plan", &data.plan_label(plan))],
                    &space.id,
                ));
            }
        }
    }
    if !filled.is_empty() {
        ctx.say("event.research_refilled", &[("plans", &filled.join(", "))]);
    }
}

/// Whether the game ends after this round by the round count (round 7: no special plan is left
/// to reveal), whatever happens in it.
pub(crate) fn is_last_round(state: &GameState) -> bool {
    state.round as usize > state.specials.len()
}

fn end_action_phase(ctx: &mut Ctx, state: &mut GameState) {
    state.active = None;
    state.agenda.clear();
    let singularity = super::threats::ends_game_after(ctx.data, state);
    if is_last_round(state) || singularity {
        state.phase = Phase::Finished;
        if singularity {
            // No Preparation phase: final scoring at once (DECISIONS A8).
            ctx.say("event.singularity_ends", &[("round", &state.round)]);
        }
        if let Some(effect) = super::threats::final_consequence(ctx.data, state) {
            ctx.count(super::threats::consequence_note(&effect));
        }
        ctx.say("event.game_over", &[]);
        return;
    }
    preparation(ctx, state);
}

/// The Preparation phase for the next round (a–c), then the next Planning phase.
fn preparation(ctx: &mut Ctx, state: &mut GameState) {
    let data = ctx.data;
    // a) The next special research plan: its coin to the supplement space, then face up.
    let next = state.round as usize; // specials[0] is round 2's plan
    if let Some(special) = state.specials.get_mut(next - 1) {
        let mut added = 0;
        if special.coin_under {
            special.coin_under = false;
            added = data.board.supplement_space.coins_added_per_round;
            state.supplement_coins += added;
        }
        special.face_up = true;
        let key = if added > 0 {
            "event.prep_special"
        } else {
            "event.prep_special_no_coin"
        };
        ctx.say(
            key,
            &[
                ("plan", &Deferred(|| data.special_plan_label(next - 1))),
                ("index", &(next - 1)),
                ("n", &added),
                ("supplement", &state.supplement_coins),
            ],
        );
    }
    // b) Bonus markers return; a marker on a bonus tile space brings its tile. The marker is
    // the reservation: until now the tile may have been in another seat's action area.
    for (i, space) in state.bonus_spaces.iter_mut().enumerate() {
        if let Some(m) = space.take() {
            if !m.one_time {
                state.seats[m.seat].markers_reserve += 1;
            }
            if let Some(kind) = reserved_tile(data, i) {
                // Luna never receives a bonus tile (Luna booklet): it stays in the supply.
                state.tiles[GameState::tile_index(kind)] = if state.seats[m.seat].is_luna() {
                    TileState::Supply
                } else {
                    TileState::Held {
                        seat: m.seat,
                        used: false,
                        on_card: None,
                    }
                };
            }
        }
    }
    for space in state.track_bonus_spaces.iter_mut() {
        if let Some(m) = space.take() {
            if !m.one_time {
                state.seats[m.seat].markers_reserve += 1;
            }
        }
    }
    super::missions::preparation(state);
    ctx.say("event.prep_markers", &[]);
    for (i, tile) in state.tiles.iter().enumerate() {
        if let TileState::Held { seat, .. } = tile {
            let kind = TileKind::ALL[i];
            ctx.say(
                "event.gets_tile",
                &[
                    ("name", &state.seats[*seat].name),
                    ("tile", &data.tile_name(kind.data_id())),
                    ("tile_id", &kind.data_id()),
                ],
            );
        }
    }
    // c) The card display: discard the right column, slide each row right, refill in order.
    let discarded = state.discard.len();
    refill_card_display(state, data);
    let discarded = state.discard.len() - discarded;
    let cards: Vec<String> = state
        .display
        .iter()
        .enumerate()
        .filter(|_| ctx.speaking())
        .filter_map(|(i, c)| {
            let card = (*c)?;
            Some(crate::text::name_ref(
                "event.display_space",
                &[("space", &(i + 1)), ("card", &data.card_label(card))],
                &format!("{}", i + 1),
            ))
        })
        .collect();
    ctx.say(
        "event.prep_display",
        &[("discarded", &discarded), ("cards", &cards.join(", "))],
    );
    state.first_player = state.next_first_player;
    state.round += 1;
    for s in state.seats.iter_mut() {
        s.planned = false;
        s.dropped_out = false;
        s.turns_this_round = 0;
    }
    super::luna::preparation(ctx, state);
    state.phase = Phase::Planning;
    ctx.count("preparation");
    ctx.say(
        "event.round_begins",
        &[
            ("round", &state.round),
            ("name", &state.seats[state.first_player].name),
        ],
    );
}

/// The bonus tile that board bonus space `space` reserves, if it is a tile space.
/// The bonus tile a board bonus space reserves for the next round, if it is a tile space.
pub(crate) fn reserved_tile(data: &crate::data::GameData, space: usize) -> Option<TileKind> {
    data.board.bonus_spaces[space]
        .reward
        .iter()
        .find_map(|r| match r {
            crate::data::Reward::ReserveBonusTile { tile } => TileKind::from_data_id(tile),
            _ => None,
        })
}

/// Preparation step c: each display row (left to right in the data's `space_grid`) loses its
/// rightmost card to the discard pile, the rest slide right, then spaces fill in number order.
pub(crate) fn refill_card_display(state: &mut GameState, data: &crate::data::GameData) {
    for row in &data.board.card_display.space_grid {
        let spaces: Vec<usize> = row.iter().map(|n| *n as usize - 1).collect();
        let Some((&rightmost, rest)) = spaces.split_last() else {
            continue;
        };
        if let Some(c) = state.display[rightmost].take() {
            state.discard.push(c);
        }
        let remaining: Vec<_> = rest
            .iter()
            .filter_map(|&i| state.display[i].take())
            .collect();
        // Slide as far right as they go, keeping their order.
        for (card, &space) in remaining.iter().rev().zip(spaces.iter().rev()) {
            state.display[space] = Some(*card);
        }
    }
    for space in state.display.iter_mut() {
        if space.is_none() {
            *space = state.action_stack.pop();
        }
    }
}
