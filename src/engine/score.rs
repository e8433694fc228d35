//! Final scoring in the rulebook's 7 categories, with a per-seat breakdown. Ties share. With the
//! threat cards, a threat still on the board at the end applies its consequence here (Luna is
//! spared all but the Singularity and the Time anomaly), and the wild share counts for the
//! company worth the most to its holder (DECISIONS A12).

use super::state::{GameState, PlanRef};
use super::threats;
use crate::data::threats::ConsequenceEffect;
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
    /// Highest total (ties share the victory). Never set while a Time anomaly loop continues.
    pub winner: bool,
    /// The company the wild share (threat card reward) was counted for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wild_share: Option<Company>,
    /// Time anomaly: this game is one of a loop; there is no winner yet, another game follows and
    /// the loop's scores are averaged (rounded up) once a game removes the card.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub time_loop: bool,
}

/// Scores every seat as the game stands (final once the phase is `Finished`).
pub fn final_scores(data: &GameData, state: &GameState) -> Vec<ScoreBreakdown> {
    let values = ShareValues::of(data, state);
    let mut out: Vec<ScoreBreakdown> = (0..state.seats.len())
        .map(|seat| score_seat(data, state, seat, &values))
        .collect();
    let best = out.iter().map(|s| s.total).max().unwrap_or(0);
    let time_loop = threats::time_loop_continues(data, state);
    for s in out.iter_mut() {
        s.winner = s.total == best && !time_loop;
        s.time_loop = time_loop;
    }
    out
}

/// A station the Rogue comet hits at Final scoring: its share value before and as scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Devalued {
    pub company: Company,
    pub value: u32,
    pub scored: u32,
}

/// The Rogue comet's consequence: the company or companies showing the most uncovered coin
/// icons, each scored with `ignore_coins` fewer (empty when no such consequence applies).
pub fn devalued_stations(data: &GameData, state: &GameState) -> Vec<Devalued> {
    let Some(ConsequenceEffect::DevalueMostValuableStation { ignore_coins, .. }) =
        threats::final_consequence(data, state)
    else {
        return Vec::new();
    };
    let most = Company::ALL
        .iter()
        .map(|c| state.share_value(data, *c))
        .max()
        .unwrap_or(0);
    Company::ALL
        .iter()
        .map(|c| (*c, state.share_value(data, *c)))
        .filter(|(_, v)| *v == most)
        .map(|(company, value)| Devalued {
            company,
            value,
            scored: value.saturating_sub(ignore_coins),
        })
        .collect()
}

/// Every company's share value, as it stands and as the Rogue comet leaves it, worked out once
/// for all seats.
struct ShareValues {
    plain: [u32; 4],
    devalued: Vec<Devalued>,
}

impl ShareValues {
    fn of(data: &GameData, state: &GameState) -> ShareValues {
        ShareValues {
            plain: Company::ALL.map(|c| state.share_value(data, c)),
            devalued: devalued_stations(data, state),
        }
    }

    /// A company's share value for one seat, after the Rogue comet (ignore 2 coin icons of the
    /// company or companies showing the most uncovered coin icons; not for Luna).
    fn for_seat(&self, data: &GameData, state: &GameState, seat: usize, company: Company) -> u32 {
        let value = self.plain[company.index()];
        if self.devalued.is_empty() || !threats::applies_to(data, state, seat) {
            return value;
        }
        self.devalued
            .iter()
            .find(|d| d.company == company)
            .map_or(value, |d| d.scored)
    }
}

fn score_seat(
    data: &GameData,
    state: &GameState,
    seat: usize,
    values: &ShareValues,
) -> ScoreBreakdown {
    let s = &state.seats[seat];
    let consequence =
        threats::final_consequence(data, state).filter(|_| threats::applies_to(data, state, seat));
    let mut companies: Vec<CompanyScore> = SCORING_ORDER
        .iter()
        .map(|&company| {
            let shares = match consequence {
                // Einstein-Rosen bridge: every energy card goes, with its share icons.
                Some(ConsequenceEffect::DiscardAllEnergyCards) => {
                    let track = &data.tracks.tracks[state.tracks[company.index()]];
                    let on_track = track.shares_at(s.track_pos[company.index()] as u32);
                    let on_cards = s
                        .owned_cards()
                        .filter(|c| {
                            let def = data.card(*c);
                            def.share == Some(company) && !def.is_energy()
                        })
                        .count() as u32;
                    on_track + on_cards
                }
                _ => state.shares(data, seat, company),
            };
            let share_value = values.for_seat(data, state, seat, company);
            CompanyScore {
                company,
                shares,
                share_value,
                points: shares * share_value,
            }
        })
        .collect();
    // The wild share: one share of the company worth the most to its holder.
    let wild_share = if state
        .threat
        .as_ref()
        .is_some_and(|t| t.removed_by == Some(seat))
    {
        let best = companies
            .iter_mut()
            .max_by_key(|c| (c.share_value, std::cmp::Reverse(c.company)));
        best.map(|c| {
            c.shares += 1;
            c.points = c.shares * c.share_value;
            c.company
        })
    } else {
        None
    };
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
    // Space pirates: no cash; the probe: no tank score.
    let cash = match consequence {
        Some(ConsequenceEffect::LoseCash) => 0,
        _ => s.coins,
    };
    let tank = match consequence {
        Some(ConsequenceEffect::NoTankScore) => 0,
        _ => tank,
    };
    let total = cash + companies.iter().map(|c| c.points).sum::<u32>() + tank + research;
    ScoreBreakdown {
        seat,
        name: s.name.clone(),
        cash,
        companies,
        tank,
        research,
        total,
        winner: false,
        wild_share,
        time_loop: false,
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
