//! Luna, the automa: her 19 cards (luna-cards.toml) and her side of the player board with the
//! difficulty levels and campaign adjustments (luna-board.toml). The Luna booklet gives the rules;
//! each file's header says what its fields mean, and docs/decisions.md (A10, A13, A15, A16) what
//! the booklet leaves open.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A slot letter a–e (Luna's action slots, left to right).
pub type SlotLetter = char;

/// Geometry the card arrays refer to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaGeometry {
    pub slot_order: Vec<SlotLetter>,
    pub slots_initially_on: Vec<SlotLetter>,
    /// card_display_space[row][col] = display space number (as board.toml's space_grid).
    pub card_display_space: Vec<Vec<u32>>,
    /// bonus_cell_exists[row][col] (as board.toml's bonus_area.luna_cells).
    pub bonus_cell_exists: Vec<Vec<bool>>,
    pub research_row_length: usize,
}

/// The majority section of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaMajority {
    pub left: u32,
    pub right: u32,
    /// Research-scientist icons.
    pub scientists: u32,
}

/// The action icon in the square at the bottom centre, carried out in a majority slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LunaReveal {
    GainHelium { n: u32 },
    AdvanceResearch { n: u32 },
}

/// Which company track(s) an action selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompanySelector {
    MostValuable,
    SecondMostValuable,
    LeastValuable,
    MostValuableTwoEach,
    LeadBiggestMargin,
    LeadBiggestMarginTwoEach,
    AllFourEach,
}

impl CompanySelector {
    /// How many tracks it selects.
    pub fn count(self) -> usize {
        match self {
            CompanySelector::MostValuableTwoEach | CompanySelector::LeadBiggestMarginTwoEach => 2,
            CompanySelector::AllFourEach => 4,
            _ => 1,
        }
    }
}

/// MIN or MAX: the lowest or highest sector / target number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectorPick {
    Min,
    Max,
}

/// How Luna picks display cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "selection", rename_all = "snake_case")]
pub enum CardPick {
    /// Every card on a display space marked with the slot's letter.
    SlotMatrix {
        /// 4 rows × 3 columns of slot-letter strings (card display geometry).
        matrix: Vec<Vec<String>>,
        /// The same, as display space numbers per slot letter.
        spaces_by_slot: BTreeMap<SlotLetter, Vec<u32>>,
    },
    /// The card showing a share of the most valuable company (lowest space on ties).
    MostValuableShare,
}

/// One lettered row of the research display, as a card marks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowPick {
    /// One slot-letter string per space of the row, index 0 = leftmost.
    pub row: Vec<String>,
    pub position_by_slot: BTreeMap<SlotLetter, usize>,
}

/// Which research plan Luna discards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "which")]
pub enum PlanPick {
    A(RowPick),
    B(RowPick),
    C(RowPick),
    /// The special plan revealed most recently that is still face up.
    #[serde(rename = "latest_special")]
    LatestSpecial,
}

impl PlanPick {
    /// The research-display row letter and its pick, for A/B/C.
    pub fn row(&self) -> Option<(char, &RowPick)> {
        match self {
            PlanPick::A(r) => Some(('A', r)),
            PlanPick::B(r) => Some(('B', r)),
            PlanPick::C(r) => Some(('C', r)),
            PlanPick::LatestSpecial => None,
        }
    }
}

/// One entry of a card's action section. Unknown kinds are rejected when the file is parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LunaAction {
    GainCoins {
        n: u32,
    },
    GainHelium {
        n: u32,
    },
    AdvanceResearch {
        n: u32,
    },
    AdvanceCompany {
        n: u32,
        company: CompanySelector,
    },
    ExpandCompany {
        points: u32,
        company: CompanySelector,
        sector: SectorPick,
    },
    GainCard(CardPick),
    PlaceBonusMarker {
        /// 3 rows × 4 columns of slot-letter strings (bonus-space array).
        matrix: Vec<Vec<String>>,
        /// [row, col] of the marked cell per slot letter.
        cell_by_slot: BTreeMap<SlotLetter, [usize; 2]>,
    },
    DiscardResearchPlan(PlanPick),
}

impl LunaAction {
    /// The kind name as written in the file.
    pub fn kind(&self) -> &'static str {
        match self {
            LunaAction::GainCoins { .. } => "gain_coins",
            LunaAction::GainHelium { .. } => "gain_helium",
            LunaAction::AdvanceResearch { .. } => "advance_research",
            LunaAction::AdvanceCompany { .. } => "advance_company",
            LunaAction::ExpandCompany { .. } => "expand_company",
            LunaAction::GainCard(_) => "gain_card",
            LunaAction::PlaceBonusMarker { .. } => "place_bonus_marker",
            LunaAction::DiscardResearchPlan(_) => "discard_research_plan",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaCard {
    /// The helper app's label: "I-n" (grade 1) or "II-n" (grade 2).
    pub id: String,
    pub grade: u8,
    pub majority: LunaMajority,
    #[serde(default)]
    pub reveal: Option<LunaReveal>,
    #[serde(rename = "action")]
    pub actions: Vec<LunaAction>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaCardsFile {
    pub schema_version: u32,
    /// Where the card contents were transcribed from.
    pub source: String,
    pub card_count: usize,
    pub grade1_count: usize,
    pub grade2_count: usize,
    pub geometry: LunaGeometry,
    #[serde(rename = "card")]
    pub cards: Vec<LunaCard>,
}

impl LunaCardsFile {
    pub fn card(&self, id: &str) -> Option<&LunaCard> {
        self.cards.iter().find(|c| c.id == id)
    }

    pub fn grade(&self, grade: u8) -> Vec<&LunaCard> {
        self.cards.iter().filter(|c| c.grade == grade).collect()
    }
}

/// Which of Luna's tracks switches a slot on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LunaTrackName {
    TankTrack,
    ResearchTrack,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaActionSlots {
    pub order: Vec<SlotLetter>,
    pub initially_on: Vec<SlotLetter>,
    pub switched_on_by: BTreeMap<SlotLetter, LunaTrackName>,
}

/// The four values a majority card stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MajorityIcon {
    Titanium,
    Carbon,
    EnergyPoints,
    Minerals,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScientistRule {
    SumOfBothCards,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaMajoritySlots {
    pub count: usize,
    /// What the (left, right) values of the card in the left slot stand for.
    pub left_slot: Vec<MajorityIcon>,
    /// What the (left, right) values of the card in the right slot stand for.
    pub right_slot: Vec<MajorityIcon>,
    pub scientists: ScientistRule,
}

/// Luna's tank or research track. Steps count from the start (step 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaTrack {
    pub start_step: u32,
    pub final_step: u32,
    pub switch_on_slot: SlotLetter,
    pub switch_on_step: u32,
    pub overflow_coins_per_step: u32,
    pub score_threshold_steps: Vec<u32>,
    pub score_threshold_coins: Vec<u32>,
    /// Score per step 0..=final_step.
    pub score_by_step: Vec<u32>,
}

impl LunaTrack {
    /// The score with the marker on `step` (clamped to the final step).
    pub fn score(&self, step: u32) -> u32 {
        let i = step.min(self.final_step) as usize;
        self.score_by_step.get(i).copied().unwrap_or(0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaStart {
    pub coins: u32,
    pub bonus_markers: u32,
    pub company_track_marker_step: u32,
    pub starting_research_token: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HumanBonusMarkers {
    pub solo_with_one_luna: u32,
    pub two_humans_with_one_luna: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaReshuffle {
    pub grade2_added: u32,
    pub levels_adding_grade2: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaTokenRule {
    pub grade2_added_to_top: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaDeck {
    pub grade1_cards: usize,
    pub grade2_cards: usize,
    pub discard_pile: String,
    pub cards_per_round: String,
    pub reshuffle: LunaReshuffle,
    pub luna_token: LunaTokenRule,
}

/// One difficulty level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaLevel {
    pub level: u32,
    pub name: String,
    pub grade2_in_game: bool,
    /// false: no ON/OFF markers, so slots a and e never switch on.
    pub extra_slots: bool,
    /// Tank steps with a Luna token.
    pub helium_tokens: Vec<u32>,
    /// Research steps with a Luna token.
    pub research_tokens: Vec<u32>,
    pub start_helium_step: u32,
    pub start_research_step: u32,
}

/// The booklet's campaign adjustments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaCampaign {
    pub start_level_with_2_or_3_humans: u32,
    pub start_level_with_2_or_3_humans_easier: u32,
    pub start_level_solo: u32,
    pub start_level_solo_easier: u32,
    pub won_decrease_bonus_sp: u32,
    pub not_won_keep_bonus_sp: u32,
    pub one_time_marker_category_sp: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaBoardFile {
    pub schema_version: u32,
    pub source_rules: String,
    pub source_numbers: String,
    pub action_slots: LunaActionSlots,
    pub majority_slots: LunaMajoritySlots,
    pub tank_track: LunaTrack,
    pub research_track: LunaTrack,
    pub start: LunaStart,
    pub human_bonus_markers: HumanBonusMarkers,
    pub deck: LunaDeck,
    #[serde(rename = "level")]
    pub levels: Vec<LunaLevel>,
    pub campaign: LunaCampaign,
}

impl LunaBoardFile {
    pub fn level(&self, level: u32) -> Option<&LunaLevel> {
        self.levels.iter().find(|l| l.level == level)
    }
}
