//! Company track sides A1–E2, their track bonuses and the track cards (tracks.toml).

use super::common::{Company, Provenance, Resource, Reward};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoneyBarrier {
    pub after_space: u32,
    pub cost: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BonusThreshold {
    pub after_space: u32,
    pub coins: u32,
    pub unlocks: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusKind {
    Permanent,
    BonusSpace,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackEntry {
    pub id: String,
    pub physical_track: char,
    pub side: u32,
    #[serde(default)]
    pub default_company: Option<String>,
    pub last_space: u32,
    /// [space, shares] pairs.
    pub share_icons: Vec<(u32, u32)>,
    pub shares_on_space: Vec<u32>,
    pub money_barriers: Vec<MoneyBarrier>,
    pub bonus_thresholds: Vec<BonusThreshold>,
    pub bonus_pair: String,
    pub bonus_kind: BonusKind,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl TrackEntry {
    /// Shares owned with the marker on `space` (the last share icon reached).
    pub fn shares_at(&self, space: u32) -> u32 {
        self.share_icons
            .iter()
            .filter(|(s, _)| *s <= space)
            .map(|(_, n)| *n)
            .max()
            .unwrap_or(0)
    }

    /// The money barrier between `space` and `space + 1`, if any.
    pub fn barrier_after(&self, space: u32) -> Option<&MoneyBarrier> {
        self.money_barriers.iter().find(|b| b.after_space == space)
    }

    /// The bonus threshold (and its index 0/1) between `space` and `space + 1`, if any.
    pub fn threshold_after(&self, space: u32) -> Option<(usize, &BonusThreshold)> {
        self.bonus_thresholds
            .iter()
            .enumerate()
            .find(|(_, t)| t.after_space == space)
    }
}

/// The machine form of a track bonus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TrackBonusEffect {
    /// Total energy +n when at least one face-up energy card is in the action area.
    EnergyTotalBonus {
        n: u32,
    },
    ExtraBonusMarkers {
        n: u32,
    },
    /// Display card total cost −n when paying with this resource.
    DisplayDiscount {
        n: u32,
        resource: Resource,
    },
    /// Mixed resource payment when acquiring a display card, and total cost −n.
    MixedPaymentAndDiscount {
        n: u32,
    },
    /// Each titanium card in the action area is worth +n.
    TitaniumCardValueBonus {
        n: u32,
    },
    /// A virtual field scientist icon; company field scientists count +n gas collectors.
    VirtualFieldScientist {
        gas_collector_bonus: u32,
    },
    /// A bonus space on the track, used with the "place 1 bonus marker" action.
    BonusSpace(BonusSpaceEffect),
}

/// A track's bonus space. Fields present decide what it does (see the engine's bonus module).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct BonusSpaceEffect {
    /// CrypCoin paid to place the marker.
    #[serde(default)]
    pub pay: u32,
    /// Choose one of these reward lists.
    #[serde(default)]
    pub reward_options: Vec<Vec<Reward>>,
    /// Buy a display card for coins with this discount (present = may buy).
    #[serde(default)]
    pub buy_display_card_discount: Option<u32>,
    /// Tank steps (with buy: "and/or").
    #[serde(default)]
    pub tank: u32,
    /// "and_or" or "either" for two-part rewards.
    #[serde(default)]
    pub combine: Option<String>,
    /// Discard a card from hand: "any" or a resource id.
    #[serde(default)]
    pub discard_from_hand: Option<String>,
    /// Coins = printed cost of the discarded card + n.
    #[serde(default)]
    pub coins_printed_cost_plus: Option<u32>,
    /// Steps on other company tracks (one per distinct track, largest first).
    #[serde(default)]
    pub other_tracks: Vec<u32>,
    /// For the discard-action bonus: "perform_discarded_card_action", "pay_2_take_card_from_discard_pile".
    #[serde(default)]
    pub options: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackBonusEntry {
    pub id: String,
    pub pair: String,
    pub order: u32,
    pub kind: BonusKind,
    pub track: String,
    pub effect: TrackBonusEffect,
    pub text: String,
    #[serde(default)]
    pub bonus_space_id: Option<String>,
    #[serde(default)]
    pub effect_source: Option<super::common::Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackCardEntry {
    pub id: String,
    pub halves: Vec<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TracksFile {
    pub track_sides: usize,
    pub physical_tracks: usize,
    pub track_cards: usize,
    #[serde(rename = "track")]
    pub tracks: Vec<TrackEntry>,
    #[serde(rename = "track_bonus")]
    pub bonuses: Vec<TrackBonusEntry>,
    #[serde(rename = "track_card")]
    pub cards: Vec<TrackCardEntry>,
}

impl TracksFile {
    pub fn default_company(track: &TrackEntry) -> Option<Company> {
        track.default_company.as_deref().and_then(Company::parse)
    }
}
