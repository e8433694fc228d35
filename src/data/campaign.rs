//! The campaign: 4 chapters with their setup and modules, the success-point rules, the final
//! rating table and Luna's campaign adjustments (campaign.toml).

use super::common::{BoardSide, Provenance};
use super::luna::LunaCampaign;
use serde::{Deserialize, Serialize};

/// Setup step 3: how the company tracks are allotted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackSetup {
    /// Option A: A1, B1, C1, D1 on their default companies.
    Default,
    /// Option B: the track cards.
    Random,
    /// Option C: free choice.
    Choice,
}

/// Setup step 13: how starting research tokens are handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenSetup {
    /// Option A: the first-game tokens by seat.
    FirstGame,
    /// Option B: deal 2, keep 1.
    Draft,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Module {
    Missions,
    Threats,
}

/// Where pre-placed outposts are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PreplacedFrom {
    /// moon.toml `[chapter3]`.
    #[serde(rename = "moon.chapter3")]
    MoonChapter3,
}

/// Which outposts are taken from the stations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakeRule {
    TopOfEachColumn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreplacedOutposts {
    pub from: PreplacedFrom,
    pub take: TakeRule,
}

/// A chapter-specific success point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChapterSpKind {
    /// The first player in the game to unlock the personal bonus space of their status card.
    FirstToUnlockPersonalBonusSpace,
    /// The player who removed the threat card.
    RemovedThreatCard,
}

impl ChapterSpKind {
    /// The kind's name as written in the file (and in the success-point lines).
    pub fn id(&self) -> &'static str {
        match self {
            ChapterSpKind::FirstToUnlockPersonalBonusSpace => {
                "first_to_unlock_personal_bonus_space"
            }
            ChapterSpKind::RemovedThreatCard => "removed_threat_card",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChapterSp {
    pub kind: ChapterSpKind,
    pub sp: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chapter {
    pub id: u32,
    pub name: String,
    pub board: BoardSide,
    pub tracks: TrackSetup,
    pub tokens: TokenSetup,
    pub modules: Vec<Module>,
    #[serde(default)]
    pub preplaced_outposts: Option<PreplacedOutposts>,
    pub extra_sp: Vec<ChapterSp>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl Chapter {
    pub fn has_module(&self, m: Module) -> bool {
        self.modules.contains(&m)
    }
}

/// The tracks whose final space earns SP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpTrack {
    /// Each of the 4 company tracks.
    Company,
    Tank,
    Research,
}

/// What an SP rule rewards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpRuleKind {
    /// At least `min` players earned fewer CrypCoin than you (ties with them do not count).
    PlayersWithFewerCoins {
        min: u32,
    },
    ChapterWinner {
        ties_share: bool,
    },
    /// At least `min` one-time bonus markers are gone from your mission status card.
    OneTimeMarkersGone {
        min: u32,
    },
    /// `sp` for each listed track whose final space you reached.
    FinalSpaceReached {
        tracks: Vec<SpTrack>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpRule {
    pub id: String,
    pub rule: SpRuleKind,
    pub sp: u32,
    pub text: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub min_sp: u32,
    pub label: String,
    pub text: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// Luna's campaign rules: the same fields as luna-board.toml `[campaign]`, with provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignLuna {
    #[serde(flatten)]
    pub rules: LunaCampaign,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverallWinner {
    /// Most total SP after the last chapter; ties share the victory.
    MostTotalSp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignFile {
    pub schema_version: u32,
    pub chapters: usize,
    pub games_per_chapter: u32,
    pub luna_optional: bool,
    pub luna_required_solo: bool,
    pub score_sheet_row: String,
    pub overall_winner: OverallWinner,
    #[serde(flatten)]
    pub provenance: Provenance,
    #[serde(rename = "chapter")]
    pub chapter_list: Vec<Chapter>,
    #[serde(rename = "sp_rule")]
    pub sp_rules: Vec<SpRule>,
    #[serde(rename = "rating")]
    pub ratings: Vec<Rating>,
    pub luna: CampaignLuna,
}

impl CampaignFile {
    pub fn chapter(&self, id: u32) -> Option<&Chapter> {
        self.chapter_list.iter().find(|c| c.id == id)
    }

    /// The rating row for a total of `sp` success points.
    pub fn rating(&self, sp: u32) -> Option<&Rating> {
        self.ratings
            .iter()
            .filter(|r| r.min_sp <= sp)
            .max_by_key(|r| r.min_sp)
    }
}
