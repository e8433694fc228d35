//! The Belt side of the game board (module "Belt side of the board", chapters 2 and 4):
//! stations, printed-shuttle station paths, asteroids, flight paths with their shuttle spaces,
//! the threat card's place and the two stated worked examples (belt.toml).

use super::common::{BoardSide, Company, Provenance, Source, Structure};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Station columns on the Belt: two outer outpost columns and a middle shuttle column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeltStationLayout {
    pub outpost_columns: Vec<String>,
    pub shuttle_column: String,
    /// All columns in clockwise order; the shuttle column is the middle one.
    pub columns: Vec<String>,
    pub home_spaces: BTreeMap<String, usize>,
    /// 1-based home space that is crossed out, per column.
    pub crossed_out_space: BTreeMap<String, usize>,
    /// Coin icons per home space, index 0 = space 1 (top, nearest the board centre).
    pub coins: BTreeMap<String, Vec<u32>>,
    pub logo_column: String,
    #[serde(default)]
    pub structure_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl BeltStationLayout {
    /// Home spaces of a column (0 for an unknown column).
    pub fn spaces(&self, column: &str) -> usize {
        self.home_spaces.get(column).copied().unwrap_or(0)
    }

    /// Coin icons per home space of a column, top first.
    pub fn column_coins(&self, column: &str) -> &[u32] {
        self.coins.get(column).map(Vec::as_slice).unwrap_or(&[])
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeltStation {
    pub company: Company,
    pub edge: String,
    /// Where the station paths start (drawing coordinates).
    pub anchor: [i32; 2],
    pub rect: [i32; 4],
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A path from a station to an asteroid with a printed shuttle: no shuttle space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StationPath {
    pub station: Company,
    pub asteroid: u32,
    pub printed_shuttle: Company,
    /// Energy icon on the part between the printed shuttle and the asteroid.
    pub energy: bool,
    #[serde(default)]
    pub rules_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Asteroid {
    /// Target number (shared with shuttle spaces).
    pub id: u32,
    pub pos: [i32; 2],
    /// A company id (the station it lies in front of) or "inner".
    pub zone: String,
    pub outpost_spaces: u32,
    /// The reward screen, gained by the first outpost(s) of a company here.
    pub reward: Vec<Structure>,
    /// The two outpost spaces (1-based) linked to the extra gas collector, if any.
    #[serde(default)]
    pub linked_gas_spaces: Option<Vec<u32>>,
    #[serde(default)]
    pub facts_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A flight path between two asteroids, with one shuttle space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlightPath {
    /// Target number of the shuttle space.
    pub shuttle_space: u32,
    pub pos: [i32; 2],
    /// The two asteroids the path joins.
    pub ends: [u32; 2],
    /// Whether the part between the shuttle space and `ends[i]` shows an energy icon.
    pub energy: [bool; 2],
    /// The shuttle space shows the "+1 on the expanded company's track" icon.
    pub reward_icon: bool,
    #[serde(default)]
    pub role: String,
    #[serde(default)]
    pub facts_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl FlightPath {
    /// Whether the part next to asteroid `a` shows an energy icon (None if `a` is not an end).
    pub fn energy_towards(&self, a: u32) -> Option<bool> {
        self.ends
            .iter()
            .position(|e| *e == a)
            .map(|i| self.energy[i])
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreatSpace {
    pub between_shuttle_spaces: [u32; 2],
    pub rect: [i32; 4],
    /// Energy spent to reach the threat from one of the shuttle spaces.
    pub reach_cost: u32,
    /// The expanding company needs a shuttle on one of these.
    pub requires_shuttle_on: Vec<u32>,
    #[serde(default)]
    pub rules_source: Option<Source>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// EX-20's starting position: outposts (asteroid → count) and shuttles (space → company).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ex20Before {
    pub minerva_outposts: BTreeMap<String, u32>,
    pub shuttles: BTreeMap<String, Company>,
}

/// EX-20 (Belt expansion), kept as data so tests can replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleEx20 {
    pub company: Company,
    pub energy: u32,
    pub before: Ex20Before,
    /// "shuttle:N" or "outpost:N", in order.
    pub entered: Vec<String>,
    pub costs: Vec<u32>,
    pub rewards: Vec<String>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// EX-21 (Belt field scientist).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleEx21 {
    pub company: Company,
    pub outposts_on: Vec<u32>,
    pub covers_linked_spaces_of: u32,
    pub gas_collectors_controlled: u32,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// A Belt space named in an example: a shuttle space or an outpost space on an asteroid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeltTarget {
    Shuttle(u32),
    Outpost(u32),
}

impl BeltTarget {
    /// Parses "shuttle:19" / "outpost:14".
    pub fn parse(s: &str) -> Option<BeltTarget> {
        let (kind, n) = s.split_once(':')?;
        let n: u32 = n.trim().parse().ok()?;
        match kind.trim() {
            "shuttle" => Some(BeltTarget::Shuttle(n)),
            "outpost" => Some(BeltTarget::Outpost(n)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BeltFile {
    pub schema_version: u32,
    pub side: BoardSide,
    pub target_numbers: String,
    pub target_count: u32,
    pub numbering_rule: String,
    pub numbering_source: Source,
    #[serde(default)]
    pub numbering_ref: Option<String>,
    #[serde(default)]
    pub numbering_why: Option<String>,
    pub station_layout: BeltStationLayout,
    #[serde(rename = "station")]
    pub stations: Vec<BeltStation>,
    #[serde(rename = "station_path")]
    pub station_paths: Vec<StationPath>,
    #[serde(rename = "asteroid")]
    pub asteroids: Vec<Asteroid>,
    #[serde(rename = "flight_path")]
    pub flight_paths: Vec<FlightPath>,
    pub threat_space: ThreatSpace,
    pub example_ex20: ExampleEx20,
    pub example_ex21: ExampleEx21,
}

impl BeltFile {
    pub fn asteroid(&self, id: u32) -> Option<&Asteroid> {
        self.asteroids.iter().find(|a| a.id == id)
    }

    /// The flight path holding shuttle space `n`.
    pub fn flight_path(&self, shuttle_space: u32) -> Option<&FlightPath> {
        self.flight_paths
            .iter()
            .find(|p| p.shuttle_space == shuttle_space)
    }

    pub fn station(&self, c: Company) -> Option<&BeltStation> {
        self.stations.iter().find(|s| s.company == c)
    }

    /// Asteroids joined to a company's station by a printed-shuttle path.
    pub fn station_asteroids(&self, c: Company) -> Vec<u32> {
        self.station_paths
            .iter()
            .filter(|p| p.station == c)
            .map(|p| p.asteroid)
            .collect()
    }

    /// Flight paths attached to asteroid `a`.
    pub fn paths_at(&self, a: u32) -> Vec<&FlightPath> {
        self.flight_paths
            .iter()
            .filter(|p| p.ends.contains(&a))
            .collect()
    }
}
