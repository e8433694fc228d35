//! The Moon side of the game board: companies, stations, sectors, borders (moon.toml).

use super::common::{Company, Provenance, Structure};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    pub rows: u32,
    pub columns: u32,
    pub cell_size: u32,
    pub cells: Vec<String>,
}

impl Grid {
    /// Sector number of each cell, row by row; None for a malformed cell.
    pub fn cell(&self, row: usize, col: usize) -> Option<u32> {
        self.cells
            .get(row)?
            .split_whitespace()
            .nth(col)?
            .parse()
            .ok()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompanyEntry {
    pub id: Company,
    pub name: String,
    pub colour: String,
    pub station: String,
    pub default_track: String,
    pub moon_edge: String,
    pub belt_edge: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StationLayout {
    pub columns: Vec<String>,
    pub home_spaces_per_column: usize,
    pub crossed_out_space: usize,
    /// Coin icons per home space, index 0 = space 1 (top, nearest the board centre).
    pub coins: BTreeMap<String, Vec<u32>>,
    pub logo_column: String,
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl StationLayout {
    /// Coin icons per column in `columns` order.
    pub fn column_coins(&self) -> Vec<Vec<u32>> {
        self.columns
            .iter()
            .map(|c| self.coins.get(c).cloned().unwrap_or_default())
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StationEntry {
    pub company: Company,
    pub edge: String,
    pub rect: [i32; 4],
    pub touches: Vec<u32>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectorEntry {
    pub id: u32,
    pub label: [i32; 2],
    pub structures: Vec<Structure>,
    #[serde(default)]
    pub chapter3_start: Option<Company>,
    #[serde(default)]
    pub surrounds: Option<u32>,
    #[serde(default)]
    pub enclave_in: Option<u32>,
    #[serde(flatten)]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnclaveEntry {
    pub sector: u32,
    pub surrounded_by: u32,
}

/// One end of a border: a sector number or a station (company id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BorderEnd {
    Sector(u32),
    Station(Company),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineType {
    Single,
    Double,
}

impl LineType {
    pub fn energy(self) -> u32 {
        match self {
            LineType::Single => 1,
            LineType::Double => 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BorderEntry {
    pub a: BorderEnd,
    pub b: u32,
    pub line: LineType,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chapter3 {
    pub skymine: Vec<u32>,
    pub minerva: Vec<u32>,
    pub astrogo: Vec<u32>,
    pub tawac: Vec<u32>,
}

impl Chapter3 {
    pub fn sectors(&self, c: Company) -> &[u32] {
        match c {
            Company::Skymine => &self.skymine,
            Company::Minerva => &self.minerva,
            Company::Astrogo => &self.astrogo,
            Company::Tawac => &self.tawac,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoonFile {
    pub grid: Grid,
    #[serde(rename = "company")]
    pub companies: Vec<CompanyEntry>,
    pub station_layout: StationLayout,
    #[serde(rename = "station")]
    pub stations: Vec<StationEntry>,
    #[serde(rename = "sector")]
    pub sectors: Vec<SectorEntry>,
    #[serde(rename = "enclave")]
    pub enclaves: Vec<EnclaveEntry>,
    #[serde(rename = "border")]
    pub borders: Vec<BorderEntry>,
    pub chapter3: Chapter3,
}

impl MoonFile {
    pub fn company(&self, c: Company) -> Option<&CompanyEntry> {
        self.companies.iter().find(|e| e.id == c)
    }

    pub fn sector(&self, id: u32) -> Option<&SectorEntry> {
        self.sectors.iter().find(|s| s.id == id)
    }
}
