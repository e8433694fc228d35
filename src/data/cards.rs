//! Action cards, starting cards and single-energy cards: the file formats and the one card table
//! the engine uses (every physical card gets a `CardId`).

use super::common::{Company, Provenance, Resource};
use serde::{Deserialize, Serialize};

/// Card type as written in the data files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardType {
    Carbon,
    Minerals,
    Titanium,
    Energy,
    ResearchScientist,
    FieldScientist,
    SingleShare,
}

impl CardType {
    pub fn resource(self) -> Option<Resource> {
        match self {
            CardType::Carbon => Some(Resource::Carbon),
            CardType::Minerals => Some(Resource::Minerals),
            CardType::Titanium => Some(Resource::Titanium),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueUnit {
    Units,
    EnergyPoints,
    ResearchPoints,
    None,
}

/// "none" or a company, as the files write the extra share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ShareField {
    Company(Company),
    None(NoneTag),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoneTag {
    None,
    Plain,
}

impl ShareField {
    pub fn company(self) -> Option<Company> {
        match self {
            ShareField::Company(c) => Some(c),
            ShareField::None(_) => None,
        }
    }
}

/// The effect table of a field scientist or a single share card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CardEffect {
    #[serde(default)]
    pub tank: u32,
    #[serde(default)]
    pub coins: u32,
    #[serde(default)]
    pub gas_collector_company: Option<ShareField>,
    #[serde(default)]
    pub gas_collectors_per_extra_tank: u32,
    #[serde(default)]
    pub shares: u32,
    #[serde(default)]
    pub company: Option<Company>,
    #[serde(default)]
    pub playable: Option<bool>,
}

/// One `[[card]]` of action-cards.toml.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionCardEntry {
    pub id: String,
    pub letter: char,
    #[serde(rename = "type")]
    pub card_type: CardType,
    pub value: u32,
    pub value_unit: ValueUnit,
    pub cost: u32,
    pub share: ShareField,
    #[serde(default)]
    pub field_company: Option<ShareField>,
    #[serde(default)]
    pub effect: Option<CardEffect>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeckOrder {
    pub stack_bottom_to_top: Vec<char>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionCardsFile {
    pub count: usize,
    pub letter_counts: std::collections::BTreeMap<char, usize>,
    pub deck: DeckOrder,
    #[serde(rename = "card")]
    pub cards: Vec<ActionCardEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColourEntry {
    pub id: String,
    pub icon: String,
    #[serde(default)]
    pub example_player: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartingCardEntry {
    pub icon: String,
    #[serde(rename = "type")]
    pub card_type: CardType,
    pub value: u32,
    pub value_unit: ValueUnit,
    pub cost: u32,
    pub share: ShareField,
    pub instance_ids: Vec<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SingleEnergyEntry {
    pub id: String,
    pub seat: usize,
    #[serde(rename = "type")]
    pub card_type: CardType,
    pub value: u32,
    pub value_unit: ValueUnit,
    pub cost: u32,
    pub share: ShareField,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartingCardsFile {
    pub cards_per_colour: usize,
    pub single_energy_cards: usize,
    #[serde(rename = "colour")]
    pub colours: Vec<ColourEntry>,
    #[serde(rename = "starting_card")]
    pub starting_cards: Vec<StartingCardEntry>,
    #[serde(rename = "single_energy_card")]
    pub single_energy: Vec<SingleEnergyEntry>,
}

/// What a card does, in the engine's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CardKind {
    Resource {
        resource: Resource,
    },
    Energy,
    ResearchScientist,
    /// `company` None is the plain field scientist.
    FieldScientist {
        company: Option<Company>,
        tank: u32,
        coins: u32,
        gas_collectors_per_extra_tank: u32,
    },
    SingleShare,
}

/// Where a physical card comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "origin", rename_all = "snake_case")]
pub enum CardOrigin {
    Action { letter: char },
    Starting { colour: usize, icon: String },
    SingleEnergy { seat: usize },
}

/// One physical card, as the engine sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardDef {
    /// Stable label: "A01", "diamond-carbon1", "SE01".
    pub id: String,
    pub kind: CardKind,
    /// Units, energy points or research points; 0 for field scientists and single shares.
    pub value: u32,
    pub cost: u32,
    pub share: Option<Company>,
    pub origin: CardOrigin,
}

impl CardDef {
    pub fn resource(&self) -> Option<Resource> {
        match self.kind {
            CardKind::Resource { resource } => Some(resource),
            _ => None,
        }
    }

    pub fn is_energy(&self) -> bool {
        matches!(self.kind, CardKind::Energy)
    }

    pub fn is_research_scientist(&self) -> bool {
        matches!(self.kind, CardKind::ResearchScientist)
    }

    pub fn is_field_scientist(&self) -> bool {
        matches!(self.kind, CardKind::FieldScientist { .. })
    }

    /// Single share cards can never be placed in an action slot.
    pub fn is_playable(&self) -> bool {
        !matches!(self.kind, CardKind::SingleShare)
    }
}

pub(crate) fn card_kind(card_type: CardType, effect: Option<&CardEffect>) -> CardKind {
    match card_type {
        CardType::Carbon => CardKind::Resource {
            resource: Resource::Carbon,
        },
        CardType::Minerals => CardKind::Resource {
            resource: Resource::Minerals,
        },
        CardType::Titanium => CardKind::Resource {
            resource: Resource::Titanium,
        },
        CardType::Energy => CardKind::Energy,
        CardType::ResearchScientist => CardKind::ResearchScientist,
        CardType::FieldScientist => {
            let e = effect.cloned().unwrap_or_default();
            CardKind::FieldScientist {
                company: e.gas_collector_company.and_then(ShareField::company),
                tank: e.tank,
                coins: e.coins,
                gas_collectors_per_extra_tank: e.gas_collectors_per_extra_tank,
            }
        }
        CardType::SingleShare => CardKind::SingleShare,
    }
}
