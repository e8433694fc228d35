//! The hand-weighted estimate (the players' estimate before the learned one, kept to compare
//! with it: `skymines train` reports both errors, and `Estimator::Handmade` plays with it). What
//! a position is worth to a seat at the end of the game: its score as it stands plus what it
//! has built for later rounds. Scoring as it stands sees none of that early on (every station
//! starts with its coin icons covered, so a share is worth 0 until outposts leave; the tank and
//! research tracks score in steps; a card scores nothing until it is used), so a player that
//! only counts the score as it stands never invests. This estimate counts:
//!
//! - shares at the value their company is likely to reach by the end (its value now plus a
//!   share of what the coming rounds' expansions uncover), and half a share for a track marker
//!   one step short of its next share icon;
//! - tank and research progress toward their next scoring step, every research screen the upload
//!   marker has entered, and plans lying ready ahead of the upload marker;
//! - what the seat's cards will still do: the unused cards in its action area this round, the
//!   cards in its hand next round, and every owned card for the rounds after (a card comes back
//!   about every [`CARD_CYCLE`] rounds); switched-on slots and unplaced bonus markers likewise.
//!
//! Another seat is judged from what is public (DECISIONS B16): its hand and face-down plans count
//! as so many average cards, and the share icons on them are not counted.
//!
//! The weights are estimates from self-play, not rules: a coordinate search of the normal
//! player's weights against Luna's level 1 (200 solo games a try; the kept values raised its
//! mean lead by about 12 points on other seeds, and hard's score against normal from 150 to 162;
//! see BENCHMARKS.md).

use super::features::{self, View};
use super::weighted;
use crate::data::{CardId, Company, GameData};
use crate::engine::state::{SlotCard, TileKind};
use crate::engine::{self, GameState, Phase};

/// Rounds after which an owned card is back in hand, in the estimate (five resting decks, one
/// taken back a round, three to five cards planned make about 2.5; counting a card's later uses
/// at that rate overvalued buying).
const CARD_CYCLE: f64 = 4.0;
/// Coin icons a station uncovers per round on average, per seat in the game (0.6 and 1.4 saw
/// too little of it and undervalued early shares).
const GROWTH_PER_SEAT: f64 = 2.24;
/// Points one unit of a resource card brings when used (track steps, cards).
const PER_UNIT: f64 = 2.0;
/// Points one energy point brings when used (outposts and their rewards).
const PER_ENERGY: f64 = 2.0;
/// Points a research scientist brings when used: a base for the upload and its research points.
const RESEARCH_BASE: f64 = 1.5;
const PER_RESEARCH_POINT: f64 = 0.75;
/// Points a field scientist brings when used (a tank step and coins).
const FIELD: f64 = 2.0;
/// Share of the next scoring step that progress toward it is worth (progress is kept; the rest
/// of the way still has to be made).
const PROGRESS: f64 = 0.9;
/// Points a plan lying ready ahead of the upload marker, that the seat's own cards can meet, is
/// worth (less than passing it, so the marker moves on).
const PLAN_READY: f64 = 0.75;
/// Plans ahead of the marker that count as ready (more are rarely passed in one round).
const PLANS_AHEAD: usize = 4;
/// Share of a share icon one step short of it that counts.
const NEXT_SHARE: f64 = 0.5;
/// Points each research screen an unused research scientist could pass now is worth.
const PENDING_SCREEN: f64 = 2.5;
/// Points each research screen the upload marker has entered is worth on top of the track's
/// progress toward its next scoring step: the way on keeps paying (each entered plan's reward,
/// the next steps of 10, the extra slot), and with the progress alone the players left the track
/// near its start (1–7 research points a game where Luna scores 15–27).
const UPLOAD_SCREEN: f64 = 5.0;
/// Points an unplaced bonus marker is worth in the Action phase.
const MARKER: f64 = 2.0;
/// What a card another seat holds face down is worth to it when used, in the estimate (about
/// the mean of [`use_value`] over the action cards: 2-unit resources and energy bring 4, a
/// research scientist 3).
const HIDDEN_CARD: f64 = 3.5;
/// Points an extra action slot is worth each later round.
const SLOT: f64 = 6.0;

/// The seat's estimated final score.
pub fn estimate(data: &GameData, state: &GameState, seat: usize) -> f64 {
    let scores = engine::final_scores(data, state);
    estimate_with(
        data,
        state,
        seat,
        &scores,
        &Outlook::of(data, state),
        View::Own,
    )
}

/// The seat's estimated lead over the best other seat at the end.
pub fn lead(data: &GameData, state: &GameState, seat: usize) -> f64 {
    let scores = engine::final_scores(data, state);
    let outlook = Outlook::of(data, state);
    let own = estimate_with(data, state, seat, &scores, &outlook, View::Own);
    let best_other = (0..state.seats.len())
        .filter(|i| *i != seat)
        .map(|i| estimate_with(data, state, i, &scores, &outlook, View::Public))
        .fold(f64::MIN, f64::max);
    if best_other == f64::MIN {
        own
    } else {
        own - best_other
    }
}

fn estimate_with(
    data: &GameData,
    state: &GameState,
    seat: usize,
    scores: &[engine::ScoreBreakdown],
    outlook: &Outlook,
    view: View,
) -> f64 {
    let Some(score) = scores.get(seat) else {
        return 0.0;
    };
    if state.phase == Phase::Finished {
        return score.total as f64;
    }
    let s = &state.seats[seat];
    let later = outlook.later;
    // The share icons on another seat's hidden cards (hand, face-down plans) are not seen.
    let mut unseen = [0u32; 4];
    if view == View::Public {
        let hidden = s.hand.iter().copied().chain(
            s.slots
                .iter()
                .flatten()
                .filter(|c| is_planned(c))
                .map(|c| c.card()),
        );
        for card in hidden {
            if let Some(company) = data.card(card).share {
                unseen[company.index()] += 1;
            }
        }
    }
    let mut value = score.total as f64;
    for c in &score.companies {
        value -= (unseen[c.company.index()] * c.share_value) as f64;
    }
    for c in &score.companies {
        let now = c.share_value as f64;
        let then = outlook.share_value[c.company.index()];
        let shares = c.shares.saturating_sub(unseen[c.company.index()]);
        value += shares as f64 * (then - now);
        let track = &data.tracks.tracks[state.tracks[c.company.index()]];
        let pos = s.track_pos[c.company.index()] as u32;
        if pos < track.last_space {
            let step = track
                .shares_at(pos + 1)
                .saturating_sub(track.shares_at(pos));
            value += NEXT_SHARE * step as f64 * then;
        }
    }
    if s.is_luna() {
        return value;
    }
    let board = &data.player_board;
    value += PROGRESS * progress(&board.tank_track.score_by_step, s.tank as usize);
    let own = view == View::Own;
    // Whether the seat's cards meet a plan's requirements reads its hand: another seat's plans
    // lying ready ahead of its upload marker all count.
    let ready = if own {
        weighted::plans_within_reach(data, state, seat)
    } else {
        let next = s.upload.map_or(0, |u| u as usize + 1);
        s.research
            .iter()
            .skip(next)
            .take_while(|p| p.is_some())
            .count()
            + s.acquired.len()
    };
    value += PLAN_READY * ready.min(PLANS_AHEAD) as f64;
    // Screens entered (the marker starts before the starting token's plan on screen 0).
    let entered = s.upload.map_or(0, |u| u as usize + 1);
    let by_entered: Vec<u32> = std::iter::once(0)
        .chain(board.research_track.score_by_screen.iter().copied())
        .collect();
    value += PROGRESS * progress(&by_entered, entered);
    value += UPLOAD_SCREEN * entered as f64;
    let card = |c: CardId| use_value(data, c);
    // Another seat's hand and face-down plans are hidden: each counts as an average card.
    let hidden = s.hand.len() + s.slots.iter().flatten().filter(|c| is_planned(c)).count();
    let hand: f64 = if own {
        s.hand.iter().copied().map(card).sum()
    } else {
        s.hand.len() as f64 * HIDDEN_CARD
    };
    // Every owned card, for the rounds after the next.
    let owned: f64 = if own {
        s.owned_cards().map(card).sum()
    } else {
        features::seen_cards(s, View::Public).map(card).sum::<f64>() + hidden as f64 * HIDDEN_CARD
    };
    value += owned * (later - 1.0).max(0.0) / CARD_CYCLE;
    if later >= 1.0 {
        value += hand;
    }
    let acting = state.phase == Phase::Action && !s.dropped_out;
    if acting {
        let unused: f64 = s
            .slots
            .iter()
            .flatten()
            .filter(|c| matches!(c, SlotCard::Up(_)))
            .map(|c| card(c.card()))
            .sum();
        value += unused + MARKER * s.markers_reserve as f64;
        // An unused research scientist will carry the marker as far as the face-up cards
        // allow: flipping a card those plans need loses that.
        let scientist = s
            .up_cards()
            .any(|(_, c)| data.card(c).is_research_scientist())
            || state.holds_unused_tile(seat, TileKind::ResearchScientist);
        let hides = s.slots.iter().flatten().any(is_planned);
        if scientist && (own || !hides) {
            let reach = weighted::research_reach_with(data, state, seat, &[]).max(0);
            value += PENDING_SCREEN * reach as f64;
        }
    } else if state.phase == Phase::Planning {
        let planned: f64 = s
            .slots
            .iter()
            .flatten()
            .map(|c| match (own, c) {
                (false, SlotCard::Planned(_)) => HIDDEN_CARD,
                _ => card(c.card()),
            })
            .sum();
        value += planned;
    }
    let extra_slots = s.slot_on.iter().filter(|on| **on).count().saturating_sub(3);
    value += SLOT * extra_slots as f64 * later;
    value
}

fn is_planned(c: &SlotCard) -> bool {
    matches!(c, SlotCard::Planned(_))
}

/// What every seat's estimate shares: the rounds left and each company's expected share value.
struct Outlook {
    /// Whole rounds left after the current one.
    later: f64,
    /// Each company's share value expected at the end (by company index).
    share_value: [f64; 4],
}

impl Outlook {
    fn of(data: &GameData, state: &GameState) -> Outlook {
        let last = state.specials.len() + 1;
        let later = last.saturating_sub(state.round as usize) as f64;
        // The rest of this round counts as half a round of expansions once its actions have
        // begun.
        let this_round = match state.phase {
            Phase::Action => 0.5,
            _ => 1.0,
        };
        let shape = state.station_shape(data);
        let most: u32 = state
            .outpost_columns()
            .iter()
            .map(|col| shape.coins[*col].iter().sum::<u32>())
            .sum();
        let growth = GROWTH_PER_SEAT * state.seats.len() as f64 / 4.0 * (later + this_round);
        let share_value = Company::ALL.map(|company| {
            let now = state.share_value(data, company) as f64;
            (now + growth).min(most as f64).max(now)
        });
        Outlook { later, share_value }
    }
}

/// The share of the next scoring step reached at `at` (steps of equal score before it count
/// toward it), in points of that step.
fn progress(score_by: &[u32], at: usize) -> f64 {
    let Some(&now) = score_by.get(at) else {
        return 0.0;
    };
    let Some(next_at) = (at + 1..score_by.len()).find(|i| score_by[*i] > now) else {
        return 0.0;
    };
    let since = (0..at).rev().take_while(|i| score_by[*i] == now).count();
    let done = since as f64 / (since + next_at - at) as f64;
    done * (score_by[next_at] - now) as f64
}

/// What using a card once brings, in points.
pub fn use_value(data: &GameData, card: CardId) -> f64 {
    let def = data.card(card);
    if def.resource().is_some() {
        PER_UNIT * def.value as f64
    } else if def.is_energy() {
        PER_ENERGY * def.value as f64
    } else if def.is_research_scientist() {
        RESEARCH_BASE + PER_RESEARCH_POINT * def.value as f64
    } else if def.is_field_scientist() {
        FIELD
    } else {
        0.0
    }
}
