//! The shared parts of the game board (card display, research display, round track, bonus spaces,
//! bonus tiles: board.toml) and the standard side of the player board (player-board.toml).

use super::common::{Company, Provenance, Requirement, Reward};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisplaySpace {
    pub number: u32,
    pub row: u32,
    pub col: u32,
    pub board_cost: u32,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardDisplay {
    pub rows: u32,
    pub columns: u32,
    pub space_grid: Vec<Vec<u32>>,
    pub board_cost_grid: Vec<Vec<u32>>,
    #[serde(rename = "space")]
    pub spaces: Vec<DisplaySpace>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResearchDisplaySpace {
    pub id: String,
    pub letter: char,
    pub row: u32,
    pub position: u32,
    pub red_framed: bool,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResearchDisplay {
    pub rows: u32,
    pub positions_per_row: u32,
    pub row_letters: Vec<char>,
    #[serde(rename = "space")]
    pub spaces: Vec<ResearchDisplaySpace>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupplementSpace {
    pub setup_coins: u32,
    pub coins_added_per_round: u32,
    pub linked_spaces: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundTrack {
    pub spaces: Vec<u32>,
    pub setup_coin_on_spaces: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BonusArea {
    pub rows: u32,
    pub columns: u32,
    pub grid: Vec<Vec<String>>,
    pub luna_cells: Vec<Vec<bool>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusSpaceKind {
    Majority,
    Standard,
    Tile,
}

/// What a majority space compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MajorityCompare {
    ResearchScientistCards,
    TitaniumUnits,
    CarbonUnits,
    MineralsUnits,
    EnergyPoints,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MajorityTier {
    /// Units of the compared type (resource and energy majorities).
    #[serde(default)]
    pub min: u32,
    /// Scientist majority: research scientists, then other scientists.
    #[serde(default)]
    pub min_research_scientists: u32,
    #[serde(default)]
    pub min_other_scientists: u32,
    pub reward: Vec<Reward>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BonusSpaceEntry {
    pub id: String,
    pub kind: BonusSpaceKind,
    pub row: u32,
    pub col: u32,
    pub luna_cell: bool,
    #[serde(default)]
    pub compare: Option<MajorityCompare>,
    #[serde(default)]
    pub company: Option<Company>,
    #[serde(default)]
    pub tiers: Vec<MajorityTier>,
    #[serde(default)]
    pub requirement: Vec<Requirement>,
    #[serde(default)]
    pub reward: Vec<Reward>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BonusTileEffect {
    pub kind: String,
    #[serde(default)]
    pub n: u32,
    #[serde(default)]
    pub plus_per_other_face_up_field_scientist: u32,
    #[serde(default)]
    pub research_points: u32,
    #[serde(default)]
    pub energy_points: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BonusTileEntry {
    pub id: String,
    pub class: String,
    pub effect: BonusTileEffect,
    pub text: String,
    pub space_cost: u32,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardFile {
    pub card_display: CardDisplay,
    pub research_display: ResearchDisplay,
    pub supplement_space: SupplementSpace,
    pub round_track: RoundTrack,
    pub bonus_area: BonusArea,
    #[serde(rename = "bonus_space")]
    pub bonus_spaces: Vec<BonusSpaceEntry>,
    #[serde(rename = "bonus_tile")]
    pub bonus_tiles: Vec<BonusTileEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueLink {
    pub between: (u32, u32),
    pub value: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TankTrack {
    pub final_step: u32,
    pub on_step: u32,
    pub overflow_coins_per_step: u32,
    pub value_links: Vec<ValueLink>,
    pub score_by_step: Vec<u32>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossedOutA {
    pub screens: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResearchTrack {
    pub screens: u32,
    pub starting_screen: u32,
    pub on_screen: u32,
    pub final_screen: u32,
    pub overflow_coins_per_research_point: u32,
    pub value_links: Vec<ValueLink>,
    pub score_by_screen: Vec<u32>,
    pub crossed_out_a: CrossedOutA,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionSlots {
    pub count: usize,
    pub order_left_to_right: Vec<String>,
    pub luna_letters: Vec<String>,
    pub initially_on: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RestingSlots {
    pub count: usize,
    /// 1-based from the left.
    pub central: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerBoardFile {
    pub tank_track: TankTrack,
    pub research_track: ResearchTrack,
    pub action_slots: ActionSlots,
    pub resting_slots: RestingSlots,
}

impl PlayerBoardFile {
    /// Index of the action slot switched on by the tank track (the left additional slot).
    pub fn tank_slot(&self) -> usize {
        0
    }

    /// Index of the action slot switched on by the research track (the right additional slot).
    pub fn research_slot(&self) -> usize {
        self.action_slots.count.saturating_sub(1)
    }

    /// Indices of the slots that are on from the start.
    pub fn initially_on(&self) -> Vec<usize> {
        self.action_slots
            .order_left_to_right
            .iter()
            .enumerate()
            .filter(|(_, name)| self.action_slots.initially_on.contains(name))
            .map(|(i, _)| i)
            .collect()
    }
}
