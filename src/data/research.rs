//! Research plans, special research plans and starting research tokens (research.toml).

use super::common::{Provenance, Requirement, Reward};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acquisition {
    #[serde(rename = "A")]
    pub a: u32,
    #[serde(rename = "B")]
    pub b: u32,
    #[serde(rename = "C")]
    pub c: u32,
    pub special: u32,
    pub coin: u32,
}

impl Acquisition {
    /// Research points to take a plan of this letter from the display.
    pub fn plan_cost(&self, letter: char) -> u32 {
        match letter {
            'A' => self.a,
            'B' => self.b,
            _ => self.c,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanEntry {
    pub id: String,
    pub letter: char,
    pub requirements: Vec<Requirement>,
    pub reward: Vec<Reward>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpecialPlanEntry {
    pub id: String,
    pub round: u32,
    pub coin_cost: u32,
    pub value: u32,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// One step of a starting bonus: a company id or "tank", and how far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartBonus {
    pub track: String,
    pub n: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartingTokenEntry {
    pub id: String,
    pub rest_icons: Vec<String>,
    pub start_bonus: Vec<StartBonus>,
    pub plan_requirements: Vec<Requirement>,
    pub plan_reward: Vec<Reward>,
    #[serde(default)]
    pub first_game_seat: usize,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResearchFile {
    pub plan_count: usize,
    pub plan_letter_counts: std::collections::BTreeMap<char, usize>,
    pub special_plan_count: usize,
    pub starting_token_count: usize,
    pub acquisition: Acquisition,
    #[serde(rename = "plan")]
    pub plans: Vec<PlanEntry>,
    #[serde(rename = "special_plan")]
    pub special_plans: Vec<SpecialPlanEntry>,
    #[serde(rename = "starting_token")]
    pub starting_tokens: Vec<StartingTokenEntry>,
    pub first_game_tokens: FirstGameTokens,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstGameTokens {
    pub seat_1: String,
    pub seat_2: String,
    pub seat_3: String,
    pub seat_4: String,
}

impl FirstGameTokens {
    pub fn by_seat(&self) -> [&str; 4] {
        [&self.seat_1, &self.seat_2, &self.seat_3, &self.seat_4]
    }
}
