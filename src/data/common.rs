//! Vocabulary shared by every data file: companies, provenance tags, requirements and rewards.

use serde::{Deserialize, Serialize};

/// The four companies. Their names, colours and stations come from `moon.toml`; the set itself is
/// fixed by the rules (four stations, four company tracks in play).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Company {
    Skymine,
    Minerva,
    Astrogo,
    Tawac,
}

impl Company {
    pub const ALL: [Company; 4] = [
        Company::Skymine,
        Company::Minerva,
        Company::Astrogo,
        Company::Tawac,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Company {
        Company::ALL[i % 4]
    }

    pub fn id(self) -> &'static str {
        match self {
            Company::Skymine => "skymine",
            Company::Minerva => "minerva",
            Company::Astrogo => "astrogo",
            Company::Tawac => "tawac",
        }
    }

    pub fn parse(s: &str) -> Option<Company> {
        Company::ALL
            .into_iter()
            .find(|c| c.id().eq_ignore_ascii_case(s.trim()))
    }
}

/// How sure an entry is: stated by the rule texts, inferred from them, or our reconstruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Stated,
    Inferred,
    #[default]
    Reconstructed,
}

/// The provenance fields every entry carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Provenance {
    pub source: Source,
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// The three resource types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Carbon,
    Minerals,
    Titanium,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Carbon, Resource::Minerals, Resource::Titanium];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn id(self) -> &'static str {
        match self {
            Resource::Carbon => "carbon",
            Resource::Minerals => "minerals",
            Resource::Titanium => "titanium",
        }
    }

    pub fn parse(s: &str) -> Option<Resource> {
        Resource::ALL
            .into_iter()
            .find(|r| r.id().eq_ignore_ascii_case(s.trim()))
    }
}

/// A condition checked against the face-up cards in a player's action area, or a cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requirement {
    Carbon {
        min: u32,
    },
    Minerals {
        min: u32,
    },
    Titanium {
        min: u32,
    },
    Energy {
        min: u32,
    },
    /// A research scientist other than the one advancing the upload marker.
    ResearchScientist {
        min: u32,
    },
    FieldScientist {
        min: u32,
    },
    EitherScientist {
        min: u32,
    },
    FourOfOneType,
    ThreeCarbonThreeOfOneType,
    /// Pay CrypCoin to the bank.
    Pay {
        n: u32,
    },
    NotFirstPlayerOnFirstTurnOfRound,
    /// Remove one card from your hand to the discard pile ("any" or a resource id).
    DiscardFromHand {
        card: String,
    },
}

/// Something a player gains. One enum for plans, bonus spaces and majority tiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reward {
    Coins { n: u32 },
    ResearchPoints { n: u32 },
    Tank { n: u32 },
    TrackOfChoice { n: u32 },
    CompanyTrack { company: Company, n: u32 },
    RemoveOutposts { n: u32 },
    TitaniumMinusOne,
    TakeFirstPlayerMarker,
    BuyDisplayCard { discount: u32 },
    CoinsPrintedCostPlus { n: u32 },
    ReserveBonusTile { tile: String },
}

/// A structure in a Moon sector or on an asteroid's reward screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Structure {
    DeepMine { n: u32 },
    StripMine { n: u32 },
    GasCollector { n: u32 },
    ResearchStation { n: u32 },
}

impl Structure {
    pub fn is_gas_collector(&self) -> bool {
        matches!(self, Structure::GasCollector { .. })
    }
}

/// The two sides of the game board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardSide {
    Moon,
    Belt,
}
