//! The "Mission cards" module: the module rules, the personal bonus space of the mission status
//! card, and the 6 mission cards with 3 tasks each (missions.toml).

use super::common::{Provenance, Requirement, Reward, Source};
use serde::{Deserialize, Serialize};

/// How many mission cards lie face up, by number of players, people and computer players alike
/// (Luna does not count; DECISIONS B16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceUpCards {
    pub humans_1_to_2: usize,
    pub humans_3_to_4: usize,
}

impl FaceUpCards {
    pub fn for_humans(&self, humans: usize) -> usize {
        if humans <= 2 {
            self.humans_1_to_2
        } else {
            self.humans_3_to_4
        }
    }
}

/// When a placed one-time bonus marker leaves the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OneTimeMarkerRemoval {
    NextPreparationPhase,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissionModule {
    pub cards: usize,
    pub tasks_per_card: usize,
    pub face_up_cards: FaceUpCards,
    pub one_time_markers_per_player: usize,
    pub coins_per_task: u32,
    pub one_card_per_player: bool,
    pub luna_participates: bool,
    pub one_time_marker_removed: OneTimeMarkerRemoval,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// The personal bonus space's requirement, as missions.toml writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PersonalRequirement {
    PayCoins { n: u32 },
}

impl PersonalRequirement {
    /// The same requirement in the shared vocabulary.
    pub fn requirement(&self) -> Requirement {
        match self {
            PersonalRequirement::PayCoins { n } => Requirement::Pay { n: *n },
        }
    }
}

/// The personal bonus space's reward, as missions.toml writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PersonalReward {
    CompanyTrackOfChoice { n: u32 },
}

impl PersonalReward {
    /// The same reward in the shared vocabulary.
    pub fn reward(&self) -> Reward {
        match self {
            PersonalReward::CompanyTrackOfChoice { n } => Reward::TrackOfChoice { n: *n },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonalBonusSpace {
    pub requirement: Vec<PersonalRequirement>,
    pub reward: Vec<PersonalReward>,
    pub identical_on_all_status_cards: bool,
    #[serde(default)]
    pub identical_source: Option<Source>,
    #[serde(default)]
    pub identical_ref: Option<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl PersonalBonusSpace {
    pub fn requirements(&self) -> Vec<Requirement> {
        self.requirement.iter().map(|r| r.requirement()).collect()
    }

    pub fn rewards(&self) -> Vec<Reward> {
        self.reward.iter().map(|r| r.reward()).collect()
    }
}

/// When a task is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskCheck {
    /// The condition holds on the game state at some moment of the player's turn.
    TurnState,
    /// The condition is met by what happened in the course of one action.
    SingleAction,
}

/// The actions a single-action task can be met by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskAction {
    Any,
    UseResourceCards,
    UseAllEnergyCards,
    UseResearchScientist,
    UseFieldScientist,
    PlaceBonusMarker,
}

/// What a task's condition counts (see the header of missions.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    FaceUpScientistCards,
    FaceUpMaxUnitsOneType,
    FaceUpEnergyPoints,
    FaceUpResourceTypes,
    FaceUpUnitsTwoTypes,
    FaceUpCards,
    ResearchPointsGained,
    CompanyTrackSpacesMoved,
    TankSpacesMoved,
    PiecesPlacedFromStation,
    PiecesOusted,
    CoinsGained,
    ResearchPlansOnTrack,
    SpecialPlansOnTrack,
    TracksPastFirstThreshold,
    SwitchedOnAdditionalSlots,
    CompaniesWithMinShares,
    ReserveCoins,
}

impl Metric {
    /// Counters over one action (the rest read the current game state).
    pub fn is_per_action(self) -> bool {
        matches!(
            self,
            Metric::ResearchPointsGained
                | Metric::CompanyTrackSpacesMoved
                | Metric::TankSpacesMoved
                | Metric::PiecesPlacedFromStation
                | Metric::PiecesOusted
                | Metric::CoinsGained
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskCondition {
    pub metric: Metric,
    pub min: u32,
    /// For `companies_with_min_shares`: the shares each company needs.
    #[serde(default)]
    pub shares: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissionTask {
    /// 1-based column on the card (the one-time bonus marker of that column).
    pub column: usize,
    pub text: String,
    pub check: TaskCheck,
    #[serde(default)]
    pub actions: Vec<TaskAction>,
    pub condition: TaskCondition,
    /// How the task reads on the Moon / Belt side, where it differs.
    #[serde(default)]
    pub moon: Option<String>,
    #[serde(default)]
    pub belt: Option<String>,
    /// "stated" when the wording and condition are given by the rulebook.
    #[serde(default)]
    pub condition_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissionCard {
    pub id: u32,
    pub theme: String,
    #[serde(rename = "task")]
    pub tasks: Vec<MissionTask>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissionsFile {
    pub schema_version: u32,
    pub module: MissionModule,
    pub personal_bonus_space: PersonalBonusSpace,
    #[serde(rename = "card")]
    pub cards: Vec<MissionCard>,
}

impl MissionsFile {
    pub fn card(&self, id: u32) -> Option<&MissionCard> {
        self.cards.iter().find(|c| c.id == id)
    }

    /// Every task with its card id.
    pub fn tasks(&self) -> impl Iterator<Item = (u32, &MissionTask)> {
        self.cards
            .iter()
            .flat_map(|c| c.tasks.iter().map(move |t| (c.id, t)))
    }
}
