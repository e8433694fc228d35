//! What the learned estimate reads of a position: for one seat, a fixed list of numbers
//! (`data::estimate::BASE_FEATURES`, in that order). The estimate weighs each with a weight for
//! the time left in the game (given a round apart and interpolated between: [`expand`]). Two
//! views (DECISIONS B16: no peeking):
//!
//! - [`View::Own`]: the seat judging itself: its hand and its face-down planned cards count;
//! - [`View::Public`]: another seat, judged from what everyone sees: its track markers, coins,
//!   tank and research, face-up and used cards, resting decks and Luna's reserve; of its hand only
//!   the number of cards, of its plans nothing.
//!
//! Neither reads the deck order, another seat's hidden cards or the game's generator, so the
//! features of a position are the same in the real game, in its canonical form and in every
//! sample the players draw.
//!
//! The features (points are final-score points):
//! - the score as it stands: `cash`, `share_points` (shares × share value now), `tank_points`,
//!   `research_points` (with the special plans reached);
//! - what shares can still gain: `share_headroom` (shares × coin icons still covered in the
//!   company's station), `shares`, `next_shares` (shares the next two track spaces would add),
//!   `track_spaces`, `track_bonuses` (unlocked), `stations_headroom` (covered coin icons in all);
//! - the printed values still ahead: `tank_ahead_k` (points k more tank steps would add),
//!   `research_ahead_k` (k more screens), `plans_ahead` (plans lying ready on the next screens,
//!   and plans taken this turn, which go there at its end),
//!   `plans_in_reach` (of those, how many the seat's own cards could carry its marker through in
//!   one research action; own view only);
//! - cards owned, by kind: `resource_units_owned`, `energy_owned`, `research_points_owned`,
//!   `research_scientists_owned`, `field_steps_owned` (tank steps a use of each field scientist
//!   gives now, with its company's gas collectors), `hand_cards`;
//! - this round: what is face up and unused in the action area (or planned, in the Planning
//!   phase and own view): `resource_units_now`, `energy_now`, `research_now`, `field_now`,
//!   `research_reach_now` (plans a research scientist could pass now), `markers` (bonus markers
//!   still to place), `tiles`, `dropped_out`;
//! - lasting: `extra_slots` (switched on), `first_player_next`;
//! - who: `luna`, `luna_level`, `seats`;
//! - how the seat was played, in training only (`trained_*`: see `data::estimate`); 0 in play.

use super::weighted;
use crate::data::estimate::{BASE_FEATURES, FEATURE_COUNT, KNOTS_LAST};
use crate::data::{CardId, Company, GameData};
use crate::engine::state::{GameState, Seat, SlotCard, TileState};
use crate::engine::Phase;

/// Whose eyes a seat's features are read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The seat itself: hand and planned cards known.
    Own,
    /// Another seat: only what is public.
    Public,
}

const BASE: usize = BASE_FEATURES.len();
/// A seat's features (`data::estimate::BASE_FEATURES` order).
pub type Base = [f64; BASE];
/// A seat's features spread over the points in time (`data::estimate::feature_names` order).
pub type Features = [f64; FEATURE_COUNT];

/// What every seat's features share: the time left and the stations.
pub struct Context {
    /// Share of the game still to play, 1 at the start, 0 at the end.
    pub left: f64,
    share_value: [f64; 4],
    headroom: [f64; 4],
}

impl Context {
    pub fn of(data: &GameData, state: &GameState) -> Context {
        let rounds = (state.specials.len() + 1) as f64;
        let later = rounds - state.round as f64;
        let this_round = match state.phase {
            Phase::Setup | Phase::Planning => 1.0,
            Phase::Action => 0.5,
            Phase::Finished => 0.0,
        };
        let left = if state.phase == Phase::Finished {
            0.0
        } else {
            ((later.max(0.0) + this_round) / rounds).clamp(0.0, 1.0)
        };
        let shape = state.station_shape(data);
        let most: f64 = (0..3)
            .map(|col| {
                shape.coins[col]
                    .iter()
                    .take(shape.spaces[col] as usize)
                    .sum::<u32>() as f64
            })
            .sum();
        let share_value = Company::ALL.map(|c| state.share_value(data, c) as f64);
        let headroom = share_value.map(|v| (most - v).max(0.0));
        Context {
            left,
            share_value,
            headroom,
        }
    }
}

/// The two points in time `left` (the share of the game still to play) lies between, and the
/// weight of each.
fn knots(left: f64) -> [(usize, f64); 2] {
    let x = left.clamp(0.0, 1.0) * KNOTS_LAST as f64;
    let k = (x.floor() as usize).min(KNOTS_LAST - 1);
    let f = (x - k as f64).clamp(0.0, 1.0);
    [(k, 1.0 - f), (k + 1, f)]
}

/// The features of `seat` in `state`, read with `view`'s eyes, as in play (trained as 0).
pub fn base(data: &GameData, state: &GameState, ctx: &Context, seat: usize, view: View) -> Base {
    base_features(data, state, ctx, seat, view)
}

/// `base` spread over the points in time around `left` (for fitting).
pub fn expand(base: &Base, left: f64) -> Features {
    let mut out = [0.0; FEATURE_COUNT];
    for (k, w) in knots(left) {
        if w == 0.0 {
            continue;
        }
        for (i, x) in base.iter().enumerate() {
            out[k * BASE + i] += w * x;
        }
    }
    out
}

/// The seat's score as it stands by its features: cash, shares × share value now, tank and
/// research. The estimate takes it as it is (weight 1) and learns only the points still to
/// come, so at the end of the game it is the score, and the fit's shrinkage pulls the points to
/// come toward their mean rather than the score toward a constant.
pub fn standing(base: &Base) -> f64 {
    base[const { index("cash") }]
        + base[const { index("share_points") }]
        + base[const { index("tank_points") }]
        + base[const { index("research_points") }]
}

/// The estimate of `weights` (`FEATURE_COUNT` of them) for a seat's features `base` with
/// `left` of the game still to play: the score as it stands ([`standing`]) plus the weighted
/// features (the points still to come).
pub fn predict(weights: &[f64], base: &Base, left: f64) -> f64 {
    let mut sum = standing(base);
    for (k, w) in knots(left) {
        if w == 0.0 {
            continue;
        }
        let row = &weights[k * BASE..(k + 1) * BASE];
        sum += w * row.iter().zip(base).map(|(a, x)| a * x).sum::<f64>();
    }
    sum
}

/// Sets the training-only features of `base`: how the seat was played (the exploring player's
/// bias per way of scoring, and its share of random moves).
pub fn trained_as(base: &mut Base, tank: f64, research: f64, shares: f64, cash: f64, random: f64) {
    base[const { index("trained_tank_bias") }] = tank;
    base[const { index("trained_research_bias") }] = research;
    base[const { index("trained_shares_bias") }] = shares;
    base[const { index("trained_cash_bias") }] = cash;
    base[const { index("trained_random_moves") }] = random;
}

/// The cards of a seat that `view` sees: all it owns (own view), or the public ones (face-up
/// and used action cards, resting decks, Luna's reserve).
pub(crate) fn seen_cards<'s>(s: &'s Seat, view: View) -> Box<dyn Iterator<Item = CardId> + 's> {
    match view {
        View::Own => Box::new(s.owned_cards()),
        View::Public => Box::new(
            s.slots
                .iter()
                .flatten()
                .filter(|c| !matches!(c, SlotCard::Planned(_)))
                .map(|c| c.card())
                .chain(s.resting.iter().flatten().copied())
                .chain(s.luna.iter().flat_map(|l| l.reserve_cards.iter().copied())),
        ),
    }
}

/// Totals of a set of cards by kind: resource units, energy points, research scientists and
/// their research points, field scientists' tank steps a use.
#[derive(Default)]
struct CardTotals {
    units: f64,
    energy: f64,
    scientists: f64,
    research_points: f64,
    field_steps: f64,
}

impl CardTotals {
    fn add(&mut self, data: &GameData, state: &GameState, card: CardId) {
        use crate::data::cards::CardKind;
        let def = data.card(card);
        match def.kind {
            CardKind::Resource { .. } => self.units += def.value as f64,
            CardKind::Energy => self.energy += def.value as f64,
            CardKind::ResearchScientist => {
                self.scientists += 1.0;
                self.research_points += def.value as f64;
            }
            CardKind::FieldScientist {
                company,
                tank,
                gas_collectors_per_extra_tank,
                ..
            } => {
                let extra = match company {
                    Some(c) if gas_collectors_per_extra_tank > 0 => {
                        crate::engine::gas_collectors(data, state, c)
                            / gas_collectors_per_extra_tank
                    }
                    _ => 0,
                };
                self.field_steps += (tank + extra) as f64;
            }
            CardKind::SingleShare => {}
        }
    }
}

fn base_features(
    data: &GameData,
    state: &GameState,
    ctx: &Context,
    seat: usize,
    view: View,
) -> Base {
    let s = &state.seats[seat];
    let mut f = [0.0; BASE];
    // `at!("name")` is the feature's index, found when compiling (a misspelt name fails it).
    macro_rules! at {
        ($name:literal) => {
            const { index($name) }
        };
    }
    let mut set = |i: usize, v: f64| f[i] = v;
    set(at!("bias"), 1.0);
    set(at!("cash"), s.coins as f64);

    // Shares: the track's share icon plus the share icons on the cards this view sees.
    let mut shares = [0f64; 4];
    let mut next_shares = 0.0;
    let mut spaces = 0.0;
    for c in Company::ALL {
        let track = &data.tracks.tracks[state.tracks[c.index()]];
        let pos = s.track_pos[c.index()] as u32;
        let now = track.shares_at(pos);
        shares[c.index()] = now as f64;
        next_shares += (track.shares_at((pos + 2).min(track.last_space)) - now) as f64;
        spaces += pos as f64;
    }
    for card in seen_cards(s, view) {
        if let Some(c) = data.card(card).share {
            shares[c.index()] += 1.0;
        }
    }
    let dot = |a: &[f64; 4], b: &[f64; 4]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    set(at!("share_points"), dot(&shares, &ctx.share_value));
    set(at!("share_headroom"), dot(&shares, &ctx.headroom));
    set(at!("shares"), shares.iter().sum());
    set(at!("next_shares"), next_shares);
    set(at!("track_spaces"), spaces);
    set(
        at!("track_bonuses"),
        (s.bonus_active | s.bonus_pending).count_ones() as f64,
    );
    set(at!("stations_headroom"), ctx.headroom.iter().sum());

    // Tank and research, with the printed values ahead.
    let tank_table = |step: u32| -> f64 {
        if s.is_luna() {
            data.luna_board.tank_track.score(step) as f64
        } else {
            let t = &data.player_board.tank_track.score_by_step;
            t.get((step as usize).min(t.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0) as f64
        }
    };
    let tank = s.tank as u32;
    set(at!("tank_points"), tank_table(tank));
    for (i, k) in [
        (at!("tank_ahead_3"), 3),
        (at!("tank_ahead_6"), 6),
        (at!("tank_ahead_10"), 10),
    ] {
        set(i, tank_table(tank + k) - tank_table(tank));
    }
    // Research: index -1 before the starting token's plan is entered.
    let upload_at: i64 = if s.is_luna() {
        s.upload.unwrap_or(0) as i64
    } else {
        s.upload.map_or(-1, |u| u as i64)
    };
    let research_table = |screen: i64| -> f64 {
        if screen < 0 {
            return 0.0;
        }
        if s.is_luna() {
            data.luna_board.research_track.score(screen as u32) as f64
        } else {
            let t = &data.player_board.research_track.score_by_screen;
            t.get((screen as usize).min(t.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0) as f64
        }
    };
    let research_now = if s.is_luna() {
        research_table(upload_at)
    } else {
        crate::engine::score::research_score(data, state, seat) as f64
    };
    set(at!("research_points"), research_now);
    for (i, k) in [
        (at!("research_ahead_1"), 1),
        (at!("research_ahead_2"), 2),
        (at!("research_ahead_4"), 4),
    ] {
        set(i, research_table(upload_at + k) - research_table(upload_at));
    }
    let next = (upload_at + 1).max(0) as usize;
    let ready = s
        .research
        .iter()
        .skip(next)
        .take_while(|p| p.is_some())
        .count();
    // Plans taken this turn go onto the track at its end: they count as lying ready already,
    // or a step ahead would always prefer a coin to a plan.
    set(at!("plans_ahead"), (ready + s.acquired.len()) as f64);
    if view == View::Own && !s.is_luna() {
        set(
            at!("plans_in_reach"),
            weighted::plans_within_reach(data, state, seat) as f64,
        );
    }

    // Cards owned.
    let mut owned = CardTotals::default();
    for card in seen_cards(s, view) {
        owned.add(data, state, card);
    }
    set(at!("resource_units_owned"), owned.units);
    set(at!("energy_owned"), owned.energy);
    set(at!("research_points_owned"), owned.research_points);
    set(at!("research_scientists_owned"), owned.scientists);
    set(at!("field_steps_owned"), owned.field_steps);
    set(at!("hand_cards"), s.hand.len() as f64);

    // This round.
    let acting = state.phase == Phase::Action && !s.dropped_out;
    let planning = matches!(state.phase, Phase::Planning | Phase::Setup);
    let mut now = CardTotals::default();
    let mut scientist_now = false;
    for slot in s.slots.iter().flatten() {
        let counts = match slot {
            SlotCard::Up(_) => acting,
            SlotCard::Planned(_) => planning && view == View::Own,
            SlotCard::Used(_) => false,
        };
        if counts {
            now.add(data, state, slot.card());
            scientist_now |= data.card(slot.card()).is_research_scientist();
        }
    }
    for (kind, tile) in state.tiles.iter().enumerate() {
        let held = matches!(tile, TileState::Held { seat: t, used: false, .. } if *t == seat);
        if held && acting {
            match crate::engine::state::TileKind::ALL[kind] {
                crate::engine::state::TileKind::ResearchScientist => {
                    now.research_points += 1.0;
                    scientist_now = true;
                }
                crate::engine::state::TileKind::FieldScientist => now.field_steps += 2.0,
                crate::engine::state::TileKind::Energy => now.energy += 2.0,
                crate::engine::state::TileKind::PlusOne => now.units += 1.0,
            }
        }
    }
    set(at!("resource_units_now"), now.units);
    set(at!("energy_now"), now.energy);
    set(at!("research_now"), now.research_points);
    set(at!("field_now"), now.field_steps);
    if scientist_now && !s.is_luna() {
        let reach = weighted::research_reach_with(data, state, seat, &[]).max(0);
        set(at!("research_reach_now"), reach as f64);
    }
    let markers = if acting {
        s.markers_reserve
    } else if state.phase == Phase::Action {
        0
    } else {
        s.markers_total
    };
    set(at!("markers"), markers as f64);
    let tiles = state
        .tiles
        .iter()
        .filter(|t| match t {
            TileState::Held {
                seat: h,
                used: false,
                ..
            } => *h == seat && acting,
            TileState::Reserved { seat: r } => *r == seat,
            _ => false,
        })
        .count();
    set(at!("tiles"), tiles as f64);
    set(
        at!("dropped_out"),
        (state.phase == Phase::Action && s.dropped_out) as u8 as f64,
    );
    set(
        at!("extra_slots"),
        s.slot_on.iter().filter(|on| **on).count().saturating_sub(3) as f64,
    );
    set(
        at!("first_player_next"),
        (state.next_first_player == seat) as u8 as f64,
    );
    if let crate::engine::SeatKind::Luna { level } = s.kind {
        set(at!("luna"), 1.0);
        set(at!("luna_level"), level as f64);
    }
    set(at!("seats"), state.seats.len() as f64);
    f
}

/// The index of base feature `name` (evaluated when compiling; an unknown name fails the build).
const fn index(name: &str) -> usize {
    let mut i = 0;
    while i < BASE_FEATURES.len() {
        if same(BASE_FEATURES[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("not a feature of data::estimate::BASE_FEATURES")
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
