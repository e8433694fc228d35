//! Self-play toward a hard threat: with a threat card that asks for high track values, one seat
//! gets the best of several tries of each round (`selfplay::play_one`), so even those cards get
//! removed in self-play. What a try counts as progress is decided here.

use crate::bots::weighted::{energy_points, research_screen_for, tank_step_for};
use crate::data::{CardId, GameData};
use crate::engine;
use crate::engine::state::GameState;

/// Tries of a round the threat specialist keeps the best of (see `play_one`): more for a
/// research value, which takes more luck to reach than a tank value.
const TANK_TRIES: usize = 16;
const RESEARCH_TRIES: usize = 48;

/// The seat self-play works toward a hard threat with (the first human seat, when the threat on
/// the board asks for a tank or research value), and how many tries of each round it gets.
pub(super) fn threat_specialist(data: &GameData, state: &GameState) -> Option<(usize, usize)> {
    let tries = round_tries(engine::threats::on_board(data, state)?)?;
    let seat = state.seats.iter().position(|s| !s.is_luna())?;
    Some((seat, tries))
}

/// The tries of each round a threat card asking for track values gets (None for the others).
fn round_tries(card: &crate::data::threats::ThreatCard) -> Option<usize> {
    use crate::data::threats::ThreatRequirement as R;
    card.requirement
        .iter()
        .flat_map(|r| r.flatten())
        .filter_map(|r| match r {
            R::TankValuePassed { .. } => Some(TANK_TRIES),
            R::ResearchValuePassed { .. } => Some(RESEARCH_TRIES),
            _ => None,
        })
        .max()
}

/// How far `seat` got toward the threat's requirement: removing the card beats everything, then
/// the tank steps and research screens still counting toward the required values.
pub(super) fn threat_progress(data: &GameData, state: &GameState, seat: usize) -> u64 {
    use crate::data::threats::ThreatRequirement as R;
    let Some(threat) = &state.threat else {
        return 0;
    };
    if threat.removed_by == Some(seat) {
        return u64::MAX;
    }
    let Some(card) = data.threats.threats.get(threat.card as usize) else {
        return 0;
    };
    let s = &state.seats[seat];
    let owned: Vec<CardId> = s.owned_cards().collect();
    // In tenths of a tank step: the steps counting toward the value, and what the seat owns
    // for more (a field scientist moves about 3 steps a use, plus 1 per 2 gas collectors of
    // its company).
    let mut progress = 0u64;
    for r in card.requirement.iter().flat_map(|r| r.flatten()) {
        match r {
            R::TankValuePassed { value } => {
                let Some(target) = tank_step_for(data, *value) else {
                    continue;
                };
                if (s.tank as usize) >= target {
                    progress += 10 * target as u64 + 100;
                    continue;
                }
                progress += 10 * s.tank as u64;
                for c in &owned {
                    if let crate::data::cards::CardKind::FieldScientist { company, .. } =
                        data.card(*c).kind
                    {
                        progress += 25;
                        if let Some(company) = company {
                            progress += 3 * engine::gas_collectors(data, state, company) as u64;
                        }
                    }
                }
            }
            R::ResearchValuePassed { value } => {
                let Some(target) = research_screen_for(data, *value) else {
                    continue;
                };
                let reached = s.upload.map_or(0, |u| u as usize + 1);
                if reached > target {
                    progress += 20 * (target as u64 + 1) + 100;
                    continue;
                }
                progress += 20 * reached as u64;
                let ahead = s
                    .research
                    .iter()
                    .skip(reached)
                    .take_while(|p| p.is_some())
                    .count();
                progress += 8 * ahead as u64;
                progress += 20
                    * owned
                        .iter()
                        .filter(|c| data.card(**c).is_research_scientist())
                        .count() as u64;
            }
            _ => {}
        }
    }
    // The way to the card: company shuttles on its spaces, energy points to spend.
    let shuttles = data
        .threats
        .module
        .reach
        .shuttle_on
        .iter()
        .filter(|sp| {
            state
                .belt
                .as_ref()
                .and_then(|b| b.shuttle_on(data, **sp))
                .is_some()
        })
        .count() as u64;
    let energy = energy_points(data, &owned);
    progress += 15 * shuttles + 3 * energy.min(8) as u64;
    progress * 100 + s.coins.min(30) as u64 + 1
}
