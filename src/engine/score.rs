//! Final scoring in the rulebook's 7 categories, with a per-seat breakdown. Ties share.

use super::state::{GameState, PlanRef};
use crate::data::{Company, GameData};
use serde::{Deserialize, Serialize};

/// The order the scoring pad lists the companies.
pub const SCORING_ORDER: [Company; 4] = [
    Company::Astrogo,
    Company::Tawac,
    Company::Skymine,
    Company::Minerva,
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyScore {
    pub company: Company,
    pub shares: u32,
    pub share_value: u32,
    pub points: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreBreakdown {
    pub seat: usize,
    pub name: String,
    pub cash: u32,
    pub companies: Vec<CompanyScore>,
    pub tank: u32,
    pub research: u32,
    pub total: u32,
    /// Highest total (ties share the victory).
    pub winner: bool,
}

/// Scores every seat as the game stands (final once the phase is `Finished`).
pub fn final_scores(data: &GameData, state: &GameState) -> Vec<ScoreBreakdown> {
    let mut out: Vec<ScoreBreakdown> = (0..state.seats.len())
        .map(|seat| score_seat(data, state, seat))
        .collect();
    let best = out.iter().map(|s| s.total).max().unwrap_or(0);
    for s in out.iter_mut() {
        s.winner = s.total == best;
    }
    out
}

fn score_seat(data: &GameData, state: &GameState, seat: usize) -> ScoreBreakdown {
    let s = &state.seats[seat];
    let companies: Vec<CompanyScore> = SCORING_ORDER
        .iter()
        .map(|&company| {
            let shares = state.shares(data, seat, company);
            let share_value = state.share_value(data, company);
            CompanyScore {
                company,
                shares,
                share_value,
                points: shares * share_value,
            }
        })
        .collect();
    let (tank, research) = if s.is_luna() {
        (
            super::luna::tank_score(data, state, seat),
            super::luna::research_score(data, state, seat),
        )
    } else {
        (
            data.player_board
                .tank_track
                .score_by_step
                .get(s.tank as usize)
                .copied()
                .unwrap_or(0),
            research_score(data, state, seat),
        )
    };
    let total = s.coins + companies.iter().map(|c| c.points).sum::<u32>() + tank + research;
    ScoreBreakdown {
        seat,
        name: s.name.clone(),
        cash: s.coins,
        companies,
        tank,
        research,
        total,
        winner: false,
    }
}

/// The last value the upload marker passed, plus face-up special plans it reached or passed.
pub fn research_score(data: &GameData, state: &GameState, seat: usize) -> u32 {
    let s = &state.seats[seat];
    let Some(upload) = s.upload else { return 0 };
    let track = data
        .player_board
        .research_track
        .score_by_screen
        .get(upload as usize)
        .copied()
        .unwrap_or(0);
    let specials: u32 = s.research[..=upload as usize]
        .iter()
        .flatten()
        .filter(|p| !p.face_down)
        .filter_map(|p| match p.plan {
            PlanRef::Special(i) => data
                .research
                .special_plans
                .get(i as usize)
                .map(|sp| sp.value),
            _ => None,
        })
        .sum();
    track + specials
}
