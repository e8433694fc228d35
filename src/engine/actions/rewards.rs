//! Rewards: the reward icons that bonus spaces (rulebook, "5) Place 1 bonus marker", pp. 16–17),
//! track bonus spaces ("Details of the company tracks: Bonus space bonuses", pp. 21–23), research
//! plans ("3) Use 1 research scientist card", pp. 14–15), expansions ("The structures and their
//! rewards", p. 13) and threat cards ("Overview of selected icons", p. 32) grant — coins,
//! research points to utilize, tank steps, track steps, removing outposts from stations, the first
//! player marker, buying a display card for coins, reserving a bonus tile. A list of rewards is
//! pushed onto the agenda in order (`push_rewards`); each one then runs on its own.

use super::turn::replace_top;
use super::wrong;
use crate::data::{Company, GameData, Resource, Reward};
use crate::engine::decision::{Decision, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, TileKind, TileState};
use crate::engine::{illegal, RuleError};

/// Puts `rewards` on the agenda so that they run in the listed order.
pub(super) fn push_rewards(state: &mut GameState, seat: usize, rewards: &[Reward]) {
    for r in rewards.iter().rev() {
        state.agenda.push(Task::Reward {
            seat,
            reward: r.clone(),
        });
    }
}

pub(super) fn candidates(_data: &GameData, _state: &GameState, task: &Task) -> Vec<Decision> {
    match task {
        Task::RemoveOutposts { .. } => Company::ALL
            .into_iter()
            .flat_map(|company| {
                (0..3).map(move |column| Decision::RemoveOutpost { company, column })
            })
            .collect(),
        _ => Vec::new(),
    }
}

pub(super) fn check(
    _data: &GameData,
    state: &GameState,
    _seat: usize,
    task: &Task,
    d: Decision,
) -> Result<(), RuleError> {
    match (task, d) {
        (Task::RemoveOutposts { .. }, Decision::RemoveOutpost { column, .. })
            if state.shuttle_column() == Some(column as usize) =>
        {
            Err(illegal("rule.outposts_only", &[]))
        }
        (Task::RemoveOutposts { .. }, Decision::RemoveOutpost { company, column }) => {
            if column > 2 || state.stations[company.index()][column as usize].outposts == 0 {
                return Err(illegal("rule.that_column_empty", &[]));
            }
            Ok(())
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let data = ctx.data;
    let name = state.seats[seat].name.clone();
    if let (Task::RemoveOutposts { n, .. }, Decision::RemoveOutpost { company, column }) = (task, d)
    {
        effects::take_outpost(state, company, column as usize);
        state.removed_outposts[company.index()] += 1;
        ctx.count("remove_outpost");
        ctx.say(
            "event.remove_outpost",
            &[
                ("name", &name),
                ("company", &data.company_name(company)),
                (
                    "column",
                    &crate::data::numbering::ordinal(usize::from(column)),
                ),
            ],
        );
        ctx.say_share_value(company, state.share_value(data, company));
        if n > 1 {
            replace_top(state, Task::RemoveOutposts { seat, n: n - 1 });
        } else {
            state.agenda.pop();
        }
    }
}

/// A reward needs no decision: it runs (or becomes the task that asks for one).
pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    match task.clone() {
        Task::Reward { seat, reward } => {
            state.agenda.pop();
            apply_reward(ctx, state, seat, reward);
            Some(true)
        }
        _ => None,
    }
}

fn apply_reward(ctx: &mut Ctx, state: &mut GameState, seat: usize, reward: Reward) {
    let data = ctx.data;
    match reward {
        Reward::Coins { n } => effects::gain_coins(ctx, state, seat, n),
        Reward::ResearchPoints { n } => effects::research_points(state, seat, n),
        Reward::Tank { n } => effects::tank(ctx, state, seat, n),
        Reward::TrackOfChoice { n } => state.agenda.push(Task::TrackOfChoice { seat, steps: n }),
        Reward::CompanyTrack { company, n } => state.agenda.push(Task::TrackMove {
            seat,
            company,
            steps: n,
        }),
        Reward::RemoveOutposts { n } => state.agenda.push(Task::RemoveOutposts { seat, n }),
        Reward::TitaniumMinusOne => {
            let t = effects::area_totals(data, state, seat, None).units_of(Resource::Titanium);
            ctx.count("titanium_minus_one");
            effects::gain_coins(ctx, state, seat, t.saturating_sub(1));
        }
        Reward::TakeFirstPlayerMarker => {
            // "Take (or keep)": a seat already holding the marker for the next round keeps it,
            // and the channel must not read that it changed hands.
            let key = if state.next_first_player == seat {
                "event.first_player_kept"
            } else {
                "event.first_player"
            };
            state.next_first_player = seat;
            ctx.count("first_player_marker");
            ctx.say(key, &[("name", &state.seats[seat].name)]);
        }
        Reward::BuyDisplayCard { discount } => state.agenda.push(Task::BuyForCoins {
            seat,
            discount,
            optional: false,
        }),
        Reward::CoinsPrintedCostPlus { .. } => {}
        Reward::ReserveBonusTile { tile } => {
            // The marker on the tile space is the reservation; the tile arrives in the
            // Preparation phase (round::preparation), never now, and a seat holding it this
            // round keeps it.
            if let Some(kind) = TileKind::from_data_id(&tile) {
                if state.tile(kind) == TileState::Supply {
                    state.tiles[GameState::tile_index(kind)] = TileState::Reserved { seat };
                }
            }
            ctx.say(
                "event.reserve_tile",
                &[
                    ("name", &state.seats[seat].name),
                    ("tile", &data.tile_name(&tile)),
                ],
            );
        }
    }
}
