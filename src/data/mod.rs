//! The box: loading and validating every component of the game from `assets/` (or a corrected
//! copy named by `data_dir`). The engine never hard-codes component data; it reads `GameData`.
//!
//! Every file is parsed into typed structs, then checked. A bad file fails with a `DataError`
//! naming the file, the entry and the field; loading never panics.

pub mod belt;
pub mod board;
pub mod campaign;
pub mod cards;
pub mod common;
pub mod estimate;
pub mod luna;
pub mod missions;
pub mod moon;
mod names;
pub mod numbering;
pub mod research;
pub mod threats;
pub mod tracks;
mod validate;

pub use common::{
    BoardSide, Company, Provenance, Requirement, Resource, Reward, Source, Structure,
};

use cards::{card_kind, CardDef, CardOrigin};
use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Why the data could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{file}: cannot read the file: {message}")]
    Read { file: String, message: String },
    #[error("{file}: not valid data: {message}")]
    Parse { file: String, message: String },
    #[error("{file}: entry `{entry}`, field `{field}`: {message}")]
    Invalid {
        file: String,
        entry: String,
        field: String,
        message: String,
    },
}

impl DataError {
    pub(crate) fn invalid(
        file: &str,
        entry: impl Into<String>,
        field: &str,
        message: impl Into<String>,
    ) -> DataError {
        DataError::Invalid {
            file: file.to_string(),
            entry: entry.into(),
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The data files, in load order. Names are relative to the data folder.
pub const FILES: &[&str] = &[
    "action-cards.toml",
    "starting-cards.toml",
    "research.toml",
    "tracks.toml",
    "board.toml",
    "player-board.toml",
    "moon.toml",
    "belt.toml",
    "missions.toml",
    "threats.toml",
    "luna-cards.toml",
    "luna-board.toml",
    "campaign.toml",
];

/// The copy of `assets/` built into the binary, used when no `data_dir` is configured.
fn embedded(name: &str) -> Option<&'static str> {
    Some(match name {
        "action-cards.toml" => include_str!("../../assets/action-cards.toml"),
        "starting-cards.toml" => include_str!("../../assets/starting-cards.toml"),
        "research.toml" => include_str!("../../assets/research.toml"),
        "tracks.toml" => include_str!("../../assets/tracks.toml"),
        "board.toml" => include_str!("../../assets/board.toml"),
        "player-board.toml" => include_str!("../../assets/player-board.toml"),
        "moon.toml" => include_str!("../../assets/moon.toml"),
        "belt.toml" => include_str!("../../assets/belt.toml"),
        "missions.toml" => include_str!("../../assets/missions.toml"),
        "threats.toml" => include_str!("../../assets/threats.toml"),
        "luna-cards.toml" => include_str!("../../assets/luna-cards.toml"),
        "luna-board.toml" => include_str!("../../assets/luna-board.toml"),
        "campaign.toml" => include_str!("../../assets/campaign.toml"),
        estimate::FILE => include_str!("../../assets/estimate.toml"),
        _ => return None,
    })
}

/// Where the files come from.
#[derive(Debug, Clone)]
pub enum DataSource {
    Embedded,
    Dir(PathBuf),
}

impl DataSource {
    fn read(&self, name: &str) -> Result<String, DataError> {
        match self {
            DataSource::Embedded => embedded(name).map(str::to_string).ok_or(DataError::Read {
                file: name.to_string(),
                message: "not built into this binary".to_string(),
            }),
            DataSource::Dir(dir) => {
                std::fs::read_to_string(dir.join(name)).map_err(|e| DataError::Read {
                    file: dir.join(name).display().to_string(),
                    message: e.to_string(),
                })
            }
        }
    }

    fn parse<T: DeserializeOwned>(&self, name: &str) -> Result<T, DataError> {
        let text = self.read(name)?;
        toml::from_str(&text).map_err(|e| DataError::Parse {
            file: name.to_string(),
            message: e.to_string().trim().replace('\n', " "),
        })
    }
}

/// Index of a physical card in `GameData::cards`.
pub type CardId = u8;
/// Index of a research plan in `GameData::research.plans`.
pub type PlanId = u8;

/// Every component of the game, loaded and checked.
#[derive(Debug, Clone, Serialize)]
pub struct GameData {
    pub action_cards: cards::ActionCardsFile,
    pub starting_cards: cards::StartingCardsFile,
    pub research: research::ResearchFile,
    pub tracks: tracks::TracksFile,
    pub board: board::BoardFile,
    pub player_board: board::PlayerBoardFile,
    pub moon: moon::MoonFile,
    pub belt: belt::BeltFile,
    pub missions: missions::MissionsFile,
    pub threats: threats::ThreatsFile,
    pub luna_cards: luna::LunaCardsFile,
    pub luna_board: luna::LunaBoardFile,
    pub campaign: campaign::CampaignFile,
    /// Every physical card: the 44 action cards, then 9 starting cards per colour, then the
    /// single-energy cards 01–04.
    pub cards: Vec<CardDef>,
    /// Moon adjacency: for each node (stations 0–3 by company index, sectors 4.. by number − 1
    /// + 4), its neighbours with the line crossed.
    #[serde(skip)]
    pub moon_graph: MoonGraph,
    /// The Moon's station layout with its column names resolved to positions.
    #[serde(skip)]
    pub moon_station: ResolvedStation,
    /// The Belt's, likewise.
    #[serde(skip)]
    pub belt_station: ResolvedStation,
    /// Hash of the loaded data (stored games record it).
    #[serde(skip)]
    pub hash: String,
    /// The computer players' learned estimate (`estimate.toml`): not component data, so not
    /// part of the hash (retraining must not make stored games look played under other data).
    #[serde(skip)]
    pub estimate: estimate::EstimateFile,
}

/// A station layout by column position (0–2, clockwise), resolved once at load: the rules ask
/// for a station's coin icons in every score and estimate, and names are slow keys.
#[derive(Debug, Clone, Default)]
pub struct ResolvedStation {
    /// Home spaces per column.
    pub spaces: [u8; 3],
    /// Coin icons per home space of each column, index 0 = space 1 (top).
    pub coins: [Vec<u32>; 3],
    /// The column next to the company logo.
    pub logo: usize,
}

impl ResolvedStation {
    fn moon(l: &moon::StationLayout) -> ResolvedStation {
        ResolvedStation::resolve(
            &l.columns,
            &l.logo_column,
            |_| l.home_spaces_per_column,
            |name| l.coins.get(name).map(Vec::as_slice).unwrap_or(&[]),
        )
    }

    fn belt(l: &belt::BeltStationLayout) -> ResolvedStation {
        ResolvedStation::resolve(
            &l.columns,
            &l.logo_column,
            |name| l.spaces(name),
            |name| l.column_coins(name),
        )
    }

    /// The layout of `columns` (clockwise names), each column's home spaces and coin icons
    /// looked up by its name.
    fn resolve<'l>(
        columns: &[String],
        logo_column: &str,
        spaces: impl Fn(&str) -> usize,
        coins: impl Fn(&str) -> &'l [u32],
    ) -> ResolvedStation {
        let name = |i: usize| columns.get(i).map(String::as_str).unwrap_or("");
        ResolvedStation {
            spaces: [0, 1, 2].map(|i| spaces(name(i)) as u8),
            coins: [0, 1, 2].map(|i| coins(name(i)).to_vec()),
            logo: columns.iter().position(|c| c == logo_column).unwrap_or(0),
        }
    }
}

/// Adjacency of the Moon map, built from the borders.
#[derive(Debug, Clone, Default)]
pub struct MoonGraph {
    /// neighbours[node] = (node, line)
    pub neighbours: Vec<Vec<(usize, moon::LineType)>>,
    pub sector_count: usize,
}

impl MoonGraph {
    pub const STATIONS: usize = 4;

    pub fn station_node(c: Company) -> usize {
        c.index()
    }

    /// Node of sector `n` (1-based).
    pub fn sector_node(n: u32) -> usize {
        n as usize - 1 + Self::STATIONS
    }

    /// Sector number of a node, if it is a sector.
    pub fn node_sector(node: usize) -> Option<u32> {
        (node >= Self::STATIONS).then(|| (node - Self::STATIONS + 1) as u32)
    }
}

impl GameData {
    /// The data built into the binary.
    pub fn embedded() -> Result<GameData, DataError> {
        GameData::load(&DataSource::Embedded)
    }

    /// A data folder (a corrected copy of `assets/`).
    pub fn from_dir(dir: &Path) -> Result<GameData, DataError> {
        GameData::load(&DataSource::Dir(dir.to_path_buf()))
    }

    pub fn load(src: &DataSource) -> Result<GameData, DataError> {
        let action_cards: cards::ActionCardsFile = src.parse("action-cards.toml")?;
        let starting_cards: cards::StartingCardsFile = src.parse("starting-cards.toml")?;
        let research: research::ResearchFile = src.parse("research.toml")?;
        let tracks: tracks::TracksFile = src.parse("tracks.toml")?;
        let board: board::BoardFile = src.parse("board.toml")?;
        let player_board: board::PlayerBoardFile = src.parse("player-board.toml")?;
        let moon: moon::MoonFile = src.parse("moon.toml")?;
        let belt: belt::BeltFile = src.parse("belt.toml")?;
        let missions: missions::MissionsFile = src.parse("missions.toml")?;
        let threats: threats::ThreatsFile = src.parse("threats.toml")?;
        let luna_cards: luna::LunaCardsFile = src.parse("luna-cards.toml")?;
        let luna_board: luna::LunaBoardFile = src.parse("luna-board.toml")?;
        let campaign: campaign::CampaignFile = src.parse("campaign.toml")?;

        let mut data = GameData {
            cards: Vec::new(),
            moon_graph: MoonGraph::default(),
            moon_station: ResolvedStation::default(),
            belt_station: ResolvedStation::default(),
            hash: String::new(),
            estimate: load_estimate(src)?,
            action_cards,
            starting_cards,
            research,
            tracks,
            board,
            player_board,
            moon,
            belt,
            missions,
            threats,
            luna_cards,
            luna_board,
            campaign,
        };
        validate::all(&data)?;
        data.cards = build_card_table(&data);
        data.moon_graph = build_moon_graph(&data.moon);
        data.moon_station = ResolvedStation::moon(&data.moon.station_layout);
        data.belt_station = ResolvedStation::belt(&data.belt.station_layout);
        data.hash = data_hash(&data);
        Ok(data)
    }

    pub fn card(&self, id: CardId) -> &CardDef {
        &self.cards[id as usize]
    }

    /// Card ids of the action cards with this letter.
    pub fn action_cards_with_letter(&self, letter: char) -> Vec<CardId> {
        (0..self.cards.len())
            .filter(|&i| self.cards[i].origin == CardOrigin::Action { letter })
            .map(|i| i as CardId)
            .collect()
    }

    /// The 9 starting cards of a colour (0–3), in file order.
    pub fn starting_cards_of(&self, colour: usize) -> Vec<CardId> {
        (0..self.cards.len())
            .filter(|&i| matches!(&self.cards[i].origin, CardOrigin::Starting { colour: c, .. } if *c == colour))
            .map(|i| i as CardId)
            .collect()
    }

    /// The starting card of `colour` with this icon.
    pub fn starting_card(&self, colour: usize, icon: &str) -> Option<CardId> {
        (0..self.cards.len())
            .find(|&i| matches!(&self.cards[i].origin, CardOrigin::Starting { colour: c, icon: ic } if *c == colour && ic == icon))
            .map(|i| i as CardId)
    }

    /// The single-energy card for seat 1–4.
    pub fn single_energy_card(&self, seat: usize) -> Option<CardId> {
        (0..self.cards.len())
            .find(|&i| self.cards[i].origin == CardOrigin::SingleEnergy { seat })
            .map(|i| i as CardId)
    }

    pub fn track(&self, id: &str) -> Option<&tracks::TrackEntry> {
        self.tracks.tracks.iter().find(|t| t.id == id)
    }

    pub fn track_index(&self, id: &str) -> Option<usize> {
        self.tracks.tracks.iter().position(|t| t.id == id)
    }

    pub fn track_bonus(&self, id: &str) -> Option<&tracks::TrackBonusEntry> {
        self.tracks.bonuses.iter().find(|b| b.id == id)
    }

    pub fn company_name(&self, c: Company) -> &str {
        self.moon
            .company(c)
            .map(|e| e.name.as_str())
            .unwrap_or(c.id())
    }

    /// Board cost of display space 1–12.
    pub fn display_board_cost(&self, space: usize) -> u32 {
        self.board
            .card_display
            .spaces
            .iter()
            .find(|s| s.number as usize == space)
            .map(|s| s.board_cost)
            .unwrap_or(0)
    }

    /// Counts of entries by provenance tag over every tagged entry. The Luna files carry no
    /// per-entry tags (their contents are transcribed from the Luna helper app as a whole), and
    /// the worked examples kept in the board files are scenarios rather than components, so
    /// neither is counted.
    pub fn provenance_counts(&self) -> (usize, usize, usize) {
        let mut tags: Vec<Source> = Vec::new();
        tags.extend(self.action_cards.cards.iter().map(|c| c.provenance.source));
        tags.extend(
            self.starting_cards
                .starting_cards
                .iter()
                .map(|c| c.provenance.source),
        );
        tags.extend(
            self.starting_cards
                .single_energy
                .iter()
                .map(|c| c.provenance.source),
        );
        tags.extend(self.research.plans.iter().map(|p| p.provenance.source));
        tags.extend(
            self.research
                .special_plans
                .iter()
                .map(|p| p.provenance.source),
        );
        tags.extend(
            self.research
                .starting_tokens
                .iter()
                .map(|p| p.provenance.source),
        );
        tags.extend(self.tracks.tracks.iter().map(|t| t.provenance.source));
        tags.extend(self.tracks.bonuses.iter().map(|t| t.provenance.source));
        tags.extend(self.tracks.cards.iter().map(|t| t.provenance.source));
        tags.extend(
            self.board
                .card_display
                .spaces
                .iter()
                .map(|s| s.provenance.source),
        );
        tags.extend(
            self.board
                .research_display
                .spaces
                .iter()
                .map(|s| s.provenance.source),
        );
        tags.extend(self.board.bonus_spaces.iter().map(|s| s.provenance.source));
        tags.extend(self.board.bonus_tiles.iter().map(|s| s.provenance.source));
        tags.push(self.player_board.tank_track.provenance.source);
        tags.push(self.player_board.research_track.provenance.source);
        tags.extend(self.moon.companies.iter().map(|s| s.provenance.source));
        tags.extend(self.moon.stations.iter().map(|s| s.provenance.source));
        tags.extend(self.moon.sectors.iter().map(|s| s.provenance.source));
        tags.push(self.moon.station_layout.provenance.source);
        let b = &self.belt;
        tags.push(b.numbering_source);
        tags.push(b.station_layout.provenance.source);
        tags.extend(b.stations.iter().map(|s| s.provenance.source));
        tags.extend(b.station_paths.iter().map(|s| s.provenance.source));
        tags.extend(b.asteroids.iter().map(|s| s.provenance.source));
        tags.extend(b.flight_paths.iter().map(|s| s.provenance.source));
        tags.push(b.threat_space.provenance.source);
        let m = &self.missions;
        tags.push(m.module.provenance.source);
        tags.push(m.personal_bonus_space.provenance.source);
        tags.extend(m.cards.iter().map(|c| c.provenance.source));
        tags.extend(m.tasks().map(|(_, t)| t.provenance.source));
        tags.push(self.threats.module.provenance.source);
        tags.extend(self.threats.threats.iter().map(|t| t.provenance.source));
        let c = &self.campaign;
        tags.push(c.provenance.source);
        tags.extend(c.chapter_list.iter().map(|x| x.provenance.source));
        tags.extend(c.sp_rules.iter().map(|x| x.provenance.source));
        tags.extend(c.ratings.iter().map(|x| x.provenance.source));
        tags.push(c.luna.provenance.source);
        let count = |s: Source| tags.iter().filter(|t| **t == s).count();
        (
            count(Source::Stated),
            count(Source::Inferred),
            count(Source::Reconstructed),
        )
    }
}

fn build_card_table(data: &GameData) -> Vec<CardDef> {
    let mut cards = Vec::new();
    for c in &data.action_cards.cards {
        cards.push(CardDef {
            id: c.id.clone(),
            kind: card_kind(c.card_type, c.effect.as_ref()),
            value: c.value,
            cost: c.cost,
            share: c.share.company(),
            origin: CardOrigin::Action { letter: c.letter },
        });
    }
    for (colour, col) in data.starting_cards.colours.iter().enumerate() {
        for s in &data.starting_cards.starting_cards {
            cards.push(CardDef {
                id: format!("{}-{}", col.id, s.icon),
                kind: card_kind(s.card_type, None),
                value: s.value,
                cost: s.cost,
                share: s.share.company(),
                origin: CardOrigin::Starting {
                    colour,
                    icon: s.icon.clone(),
                },
            });
        }
    }
    for e in &data.starting_cards.single_energy {
        cards.push(CardDef {
            id: format!("SE{}", e.id),
            kind: card_kind(e.card_type, None),
            value: e.value,
            cost: e.cost,
            share: e.share.company(),
            origin: CardOrigin::SingleEnergy { seat: e.seat },
        });
    }
    cards
}

fn build_moon_graph(m: &moon::MoonFile) -> MoonGraph {
    let n = MoonGraph::STATIONS + m.sectors.len();
    let mut neighbours = vec![Vec::new(); n];
    for b in &m.borders {
        let a = match b.a {
            moon::BorderEnd::Sector(s) => MoonGraph::sector_node(s),
            moon::BorderEnd::Station(c) => MoonGraph::station_node(c),
        };
        let bn = MoonGraph::sector_node(b.b);
        neighbours[a].push((bn, b.line));
        neighbours[bn].push((a, b.line));
    }
    MoonGraph {
        neighbours,
        sector_count: m.sectors.len(),
    }
}

/// The learned estimate of a data source: a data folder's own `estimate.toml`, or the built-in
/// one when the folder has none (a corrected copy of the box needs no retrained estimate).
fn load_estimate(src: &DataSource) -> Result<estimate::EstimateFile, DataError> {
    let text = match src {
        DataSource::Dir(dir) if !dir.join(estimate::FILE).exists() => {
            DataSource::Embedded.read(estimate::FILE)?
        }
        _ => src.read(estimate::FILE)?,
    };
    estimate::EstimateFile::parse(&text).map_err(|e| match e {
        estimate::EstimateError::Parse(message) => DataError::Parse {
            file: estimate::FILE.to_string(),
            message,
        },
        estimate::EstimateError::Invalid { field, message } => {
            DataError::invalid(estimate::FILE, "", &field, message)
        }
    })
}

/// A stable hash over the parsed data (not the file bytes, so comments and formatting do not
/// change it).
fn data_hash(data: &GameData) -> String {
    let json = serde_json::to_vec(data).unwrap_or_default();
    let digest = Sha256::digest(&json);
    digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
}
