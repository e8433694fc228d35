//! The "Threat cards" module (Belt side only; campaign chapter 4): the module rules and the 6
//! threat cards with their requirement and end-of-game consequence (threats.toml).

use super::common::{BoardSide, Provenance, Source};
use serde::{Deserialize, Serialize};

/// How a threat is reached during an expansion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreatReach {
    /// The expanding company needs a shuttle on one of these shuttle spaces.
    pub shuttle_on: Vec<u32>,
    /// Energy points spent to reach the threat.
    pub energy: u32,
}

/// What dealing with a threat gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ThreatReward {
    RemoveThreatCard,
    /// The card flipped face down: one share of a company of the owner's choice.
    WildShare,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreatModule {
    pub board_side: BoardSide,
    pub cards: usize,
    pub in_play: usize,
    pub position: String,
    pub reach: ThreatReach,
    pub reward: Vec<ThreatReward>,
    pub wild_share: String,
    pub new_threat_after_removal: bool,
    pub luna_deals_with_threat: bool,
    pub campaign_sp_for_remover: u32,
    #[serde(default)]
    pub reward_note_source: Option<Source>,
    #[serde(default)]
    pub reward_note: Option<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// What a player must do (or have) to deal with a threat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ThreatRequirement {
    PayCoins {
        n: u32,
    },
    /// Energy on top of the energy spent to reach the threat, from the same expansion.
    SpendExtraEnergy {
        n: u32,
    },
    /// Energy cards removed from the hand, face up onto the action card discard pile.
    DiscardEnergyCardsFromHand {
        n: u32,
    },
    /// The helium-3 marker has passed the tank-track link printed with this value.
    TankValuePassed {
        value: u32,
    },
    /// The upload marker has passed the research-track link printed with this value.
    ResearchValuePassed {
        value: u32,
    },
    AllOf {
        of: Vec<ThreatRequirement>,
    },
}

impl ThreatRequirement {
    /// This requirement and every requirement nested in it.
    pub fn flatten(&self) -> Vec<&ThreatRequirement> {
        let mut out = vec![self];
        if let ThreatRequirement::AllOf { of } = self {
            for r in of {
                out.extend(r.flatten());
            }
        }
        out
    }
}

/// Tied companies for the Rogue comet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    EachTiedCompany,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    Up,
}

/// What happens if the threat is still on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConsequenceEffect {
    LoseCash,
    DevalueMostValuableStation {
        ignore_coins: u32,
        ties: TieRule,
    },
    DiscardAllEnergyCards,
    NoTankScore,
    GameEndsAfterRound {
        round: u32,
    },
    TimeLoop {
        rounding: Rounding,
        same_threat_next_game: bool,
    },
}

impl ConsequenceEffect {
    /// The kind name as written in the file.
    pub fn kind(&self) -> &'static str {
        match self {
            ConsequenceEffect::LoseCash => "lose_cash",
            ConsequenceEffect::DevalueMostValuableStation { .. } => "devalue_most_valuable_station",
            ConsequenceEffect::DiscardAllEnergyCards => "discard_all_energy_cards",
            ConsequenceEffect::NoTankScore => "no_tank_score",
            ConsequenceEffect::GameEndsAfterRound { .. } => "game_ends_after_round",
            ConsequenceEffect::TimeLoop { .. } => "time_loop",
        }
    }

    /// Every consequence kind there is; each threat card has a different one.
    pub const KINDS: [&'static str; 6] = [
        "lose_cash",
        "devalue_most_valuable_station",
        "discard_all_energy_cards",
        "no_tank_score",
        "game_ends_after_round",
        "time_loop",
    ];
}

/// When a consequence applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsequenceTiming {
    #[serde(rename = "start_of_final_scoring")]
    StartOfFinalScoring,
    #[serde(rename = "end_of_action_phase_round_6")]
    EndOfActionPhaseRound6,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Consequence {
    #[serde(flatten)]
    pub effect: ConsequenceEffect,
    pub timing: ConsequenceTiming,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreatCard {
    pub id: String,
    pub name: String,
    /// All of these must be met.
    pub requirement: Vec<ThreatRequirement>,
    pub requirement_text: String,
    pub consequence: Consequence,
    pub consequence_text: String,
    pub flavour: String,
    /// Whether the consequence applies to Luna too.
    pub applies_to_luna: bool,
    pub luna_text: String,
    #[serde(default)]
    pub derived_note: Option<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreatsFile {
    pub schema_version: u32,
    pub module: ThreatModule,
    #[serde(rename = "threat")]
    pub threats: Vec<ThreatCard>,
}

impl ThreatsFile {
    pub fn threat(&self, id: &str) -> Option<&ThreatCard> {
        self.threats.iter().find(|t| t.id == id)
    }
}
