//! The game state: everything on the table, plus the agenda of pending work in the current turn.
//! Plain data with small helpers; the rules that change it live in the sibling modules.

use super::decision::{ActionSource, Task};
use super::{BoardSide, GameOptions};
use crate::data::{CardId, Company, GameData, PlanId, Requirement, Resource};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Version of the serialized state layout.
pub const STATE_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Starting research tokens (draft) and, with linked slots, the starting cards' resting slots.
    Setup,
    Planning,
    Action,
    Finished,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    Human,
    /// The automa (its behaviour arrives with the Luna module).
    Luna {
        level: u8,
    },
}

/// A card in an action slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotCard {
    /// Placed face down in the Planning phase, not yet revealed (hidden information).
    Planned(CardId),
    /// Face up and usable.
    Up(CardId),
    /// Used this round and flipped face down (public: everyone saw it).
    Used(CardId),
}

impl SlotCard {
    pub fn card(self) -> CardId {
        match self {
            SlotCard::Planned(c) | SlotCard::Up(c) | SlotCard::Used(c) => c,
        }
    }
}

/// A plan lying on a research track screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlanRef {
    /// The plan printed on the seat's starting research token.
    Token,
    Regular(PlanId),
    /// Special research plan by index 0–5 (rounds 2–7).
    Special(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedPlan {
    pub plan: PlanRef,
    pub face_down: bool,
}

/// The four bonus tiles, by what they do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TileKind {
    PlusOne,
    FieldScientist,
    ResearchScientist,
    Energy,
}

impl TileKind {
    pub const ALL: [TileKind; 4] = [
        TileKind::PlusOne,
        TileKind::FieldScientist,
        TileKind::ResearchScientist,
        TileKind::Energy,
    ];

    /// The tile's id in board.toml.
    pub fn data_id(self) -> &'static str {
        match self {
            TileKind::PlusOne => "plus_one_resource",
            TileKind::FieldScientist => "field_scientist",
            TileKind::ResearchScientist => "research_scientist",
            TileKind::Energy => "energy",
        }
    }

    pub fn from_data_id(id: &str) -> Option<TileKind> {
        TileKind::ALL.into_iter().find(|t| t.data_id() == id)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TileState {
    /// Below the board, free.
    Supply,
    /// Below the board, reserved through its tile space this round. Who receives a tile in the
    /// next Preparation phase is decided by the marker on its tile space (the tile may also be
    /// held this round, and then stays `Held` until its holder drops out).
    Reserved { seat: usize },
    /// In a seat's action area this round.
    Held {
        seat: usize,
        used: bool,
        /// The "+1" tile: the resource card it was placed on.
        on_card: Option<CardId>,
    },
}

/// A bonus marker on a bonus space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub seat: usize,
    pub one_time: bool,
}

/// One station column: outposts form a stack from the base up; space 1 is the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    pub outposts: u8,
    /// The crossed-out 5th space has been revealed: it can never be covered again.
    pub floor_revealed: bool,
}

impl Column {
    /// A full Moon column (5 home spaces).
    pub fn full() -> Column {
        Column::full_of(MOON_COLUMN_SPACES)
    }

    /// A full column of `spaces` home spaces (the Belt's outer columns have 6, its shuttle
    /// column 5).
    pub fn full_of(spaces: u8) -> Column {
        Column {
            outposts: spaces,
            floor_revealed: false,
        }
    }

    /// Lowest space (1-based) an outpost may occupy in a Moon column: 5, or 4 once the floor is
    /// revealed.
    pub fn base(self) -> u8 {
        self.base_in(MOON_COLUMN_SPACES)
    }

    pub fn has_room(self) -> bool {
        self.has_room_in(MOON_COLUMN_SPACES)
    }

    /// Whether home space `space` (1-based) of a Moon column is covered.
    pub fn covers(self, space: u8) -> bool {
        self.covers_in(space, MOON_COLUMN_SPACES)
    }

    /// Lowest space (1-based) a piece may occupy in a column of `spaces` home spaces: the
    /// crossed-out bottom space until it has been revealed, then the one above it.
    pub fn base_in(self, spaces: u8) -> u8 {
        if self.floor_revealed {
            spaces.saturating_sub(1)
        } else {
            spaces
        }
    }

    pub fn has_room_in(self, spaces: u8) -> bool {
        self.outposts < self.base_in(spaces)
    }

    /// Whether home space `space` (1-based) of a column of `spaces` home spaces is covered.
    pub fn covers_in(self, space: u8, spaces: u8) -> bool {
        let base = self.base_in(spaces);
        space <= base && space + self.outposts > base
    }

    /// Vacant home spaces (the revealed crossed-out space counts as vacant).
    pub fn vacant_in(self, spaces: u8) -> u32 {
        (1..=spaces).filter(|s| !self.covers_in(*s, spaces)).count() as u32
    }
}

/// Home spaces of a Moon station column.
pub const MOON_COLUMN_SPACES: u8 = 5;

/// The shape of the stations on the board side in play: home spaces and coin icons per column,
/// which columns hold outposts (the Belt's middle column holds shuttles) and the logo column.
#[derive(Debug, Clone, Copy)]
pub struct StationShape<'d> {
    pub spaces: [u8; 3],
    /// Coin icons per home space, index 0 = space 1 (top).
    pub coins: [&'d [u32]; 3],
    pub outpost_columns: &'static [usize],
    pub shuttle_column: Option<usize>,
    /// The outpost column next to the company logo (Luna's tie-break).
    pub logo: usize,
}

impl<'d> StationShape<'d> {
    pub fn of(data: &'d GameData, side: BoardSide) -> StationShape<'d> {
        let (resolved, outpost_columns, shuttle_column): (_, &'static [usize], _) = match side {
            BoardSide::Moon => (&data.moon_station, &[0, 1, 2], None),
            BoardSide::Belt => (&data.belt_station, &[0, 2], Some(1)),
        };
        StationShape {
            spaces: resolved.spaces,
            coins: [0, 1, 2].map(|i| resolved.coins[i].as_slice()),
            outpost_columns,
            shuttle_column,
            logo: resolved.logo,
        }
    }

    pub fn holds_outposts(&self, column: usize) -> bool {
        self.outpost_columns.contains(&column)
    }

    /// The value of one share of a station with these columns: its uncovered coin icons.
    pub fn share_value(&self, station: &[Column; 3]) -> u32 {
        station
            .iter()
            .enumerate()
            .map(|(i, col)| self.visible_coins(i, *col))
            .sum()
    }

    /// Uncovered coin icons of one column.
    pub fn visible_coins(&self, column: usize, col: Column) -> u32 {
        let spaces = self.spaces[column];
        (1..=spaces)
            .filter(|&s| !col.covers_in(s, spaces))
            .map(|s| self.coins[column].get(s as usize - 1).copied().unwrap_or(0))
            .sum()
    }
}

/// A special research plan on the round track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialSlot {
    pub coin_under: bool,
    pub face_up: bool,
    pub taken: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    pub kind: SeatKind,
    /// Player colour 0–3 (♦ ★ ▲ ○): picks the starting cards.
    pub colour: usize,
    pub hand: Vec<CardId>,
    pub slots: [Option<SlotCard>; 5],
    pub slot_on: [bool; 5],
    pub resting: [Vec<CardId>; 5],
    pub coins: u32,
    pub markers_reserve: u8,
    pub markers_total: u8,
    pub tank: u8,
    pub research: Vec<Option<PlacedPlan>>,
    /// None: on the left half of the starting token (before screen 0's plan).
    pub upload: Option<u8>,
    /// Track marker per company (by company index).
    pub track_pos: [u8; 4],
    /// Track bonuses usable now (bits by index in data.tracks.bonuses).
    pub bonus_active: u32,
    /// Track bonuses unlocked this turn: usable from the seat's next turn.
    pub bonus_pending: u32,
    pub planned: bool,
    pub dropped_out: bool,
    /// Index of the starting research token in data.research.starting_tokens.
    pub token: Option<usize>,
    /// Draft: the two tokens dealt (secret until the reveal).
    pub token_choices: Vec<usize>,
    /// Linked slots: starting cards still to be put into the central resting slots.
    pub pending_rest: Vec<CardId>,
    pub turns_this_round: u32,
    /// Plans taken this turn, placed on the track at the end of the turn.
    pub acquired: Vec<PlanRef>,
    /// Turn-local counters (mission tasks, coverage): reset at the start of each action.
    pub tank_steps_this_action: u32,
    /// Luna's deck, slots and reserve (None for human seats).
    pub luna: Option<LunaState>,
    /// The seat's mission status card, one-time bonus markers and per-action counters (None
    /// without the mission cards module, and always for Luna).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission: Option<super::missions::MissionStatus>,
}

/// A Luna card in one of Luna's action slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaSlot {
    /// Index into data.luna_cards.cards.
    pub card: u8,
    pub face_up: bool,
}

/// The automa's own components: her deck of Luna cards, slots and the action cards she gained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LunaState {
    pub level: u8,
    /// Face-down Luna deck; the top is the last element.
    pub deck: Vec<u8>,
    /// Face-down grade-2 stack; the top is the last element.
    pub grade2: Vec<u8>,
    /// Face-up discard pile; the top is the last element.
    pub discard: Vec<u8>,
    pub slots: [Option<LunaSlot>; 5],
    /// Left and right majority slots (face up).
    pub majority: [Option<u8>; 2],
    /// Action cards gained, kept face down in her reserve (they count for shares).
    pub reserve_cards: Vec<CardId>,
    /// Tank steps and research steps still holding a Luna token (levels 3–8).
    pub helium_tokens: Vec<u32>,
    pub research_tokens: Vec<u32>,
}

impl Seat {
    pub fn is_luna(&self) -> bool {
        matches!(self.kind, SeatKind::Luna { .. })
    }

    /// Setup is complete for this seat (Luna needs nothing).
    pub fn setup_done(&self) -> bool {
        self.is_luna() || (self.token.is_some() && self.pending_rest.is_empty())
    }

    /// Face-up usable cards in the action slots.
    pub fn up_cards(&self) -> impl Iterator<Item = (usize, CardId)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Some(SlotCard::Up(c)) => Some((i, *c)),
            _ => None,
        })
    }

    pub fn slot_of(&self, card: CardId) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| s.map(SlotCard::card) == Some(card))
    }

    /// Every action card the seat owns (hand, action area, resting decks, Luna's reserve).
    pub fn owned_cards(&self) -> impl Iterator<Item = CardId> + '_ {
        self.hand
            .iter()
            .copied()
            .chain(self.slots.iter().flatten().map(|s| s.card()))
            .chain(self.resting.iter().flatten().copied())
            .chain(
                self.luna
                    .iter()
                    .flat_map(|l| l.reserve_cards.iter().copied()),
            )
    }
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub state_version: u32,
    pub engine_version: u32,
    pub data_hash: String,
    pub options: GameOptions,
    pub rng: ChaCha8Rng,
    pub round: u8,
    pub phase: Phase,
    pub seats: Vec<Seat>,
    pub first_player: usize,
    /// Who takes the first player marker at the next Preparation phase.
    pub next_first_player: usize,
    /// Seat whose turn it is in the Action phase.
    pub active: Option<usize>,
    /// Track index (in data.tracks.tracks) per company index.
    pub tracks: [usize; 4],
    pub stations: [[Column; 3]; 4],
    /// Outpost per Moon sector (index = sector number − 1).
    pub sectors: Vec<Option<Company>>,
    /// Outposts removed from the game per company.
    pub removed_outposts: [u8; 4],
    /// Face-down action card stack; the top is the last element.
    pub action_stack: Vec<CardId>,
    /// Face-up discard pile; the top is the last element.
    pub discard: Vec<CardId>,
    /// Card display spaces 1–12 (index 0 = space 1).
    pub display: [Option<CardId>; 12],
    /// Face-down plan supplies A, B, C; the top is the last element.
    pub plan_supply: [Vec<PlanId>; 3],
    /// Research display, by space in data.board.research_display.spaces order.
    pub research_display: Vec<Option<PlanId>>,
    pub supplement_coins: u32,
    pub specials: Vec<SpecialSlot>,
    /// Markers on the 12 board bonus spaces (data.board.bonus_spaces order).
    pub bonus_spaces: Vec<Option<Marker>>,
    /// Markers on track bonus spaces, by track bonus index.
    pub track_bonus_spaces: Vec<Option<Marker>>,
    pub tiles: [TileState; 4],
    /// Pending work of the current turn; the top is the last element.
    pub agenda: Vec<Task>,
    /// Increments with every applied decision (stale-click protection in the chat layer).
    pub decisions_applied: u64,
    /// Draft: tokens that went back to the box (used to give Luna a spare token).
    pub spare_tokens: Vec<usize>,
    /// The Belt side's asteroids and shuttle spaces (None on the Moon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belt: Option<super::belt::BeltState>,
    /// The threat card module (None when not in play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat: Option<super::threats::ThreatState>,
    /// The mission cards module (None when not in play).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missions: Option<super::missions::MissionsState>,
}

impl GameState {
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    pub fn tile_index(kind: TileKind) -> usize {
        kind as usize
    }

    pub fn tile(&self, kind: TileKind) -> TileState {
        self.tiles[Self::tile_index(kind)]
    }

    /// The tile `kind` if `seat` holds it unused.
    pub fn holds_unused_tile(&self, seat: usize, kind: TileKind) -> bool {
        matches!(self.tile(kind), TileState::Held { seat: s, used: false, .. } if s == seat)
    }

    /// Visible coin icons in a company's station: the value of one share. On the Belt the
    /// shuttle column's uncovered coin icons count too (every uncovered coin icon counts).
    pub fn share_value(&self, data: &GameData, company: Company) -> u32 {
        self.station_shape(data)
            .share_value(&self.stations[company.index()])
    }

    /// The stations' shape on the board side in play.
    pub fn station_shape<'d>(&self, data: &'d GameData) -> StationShape<'d> {
        StationShape::of(data, self.options.board)
    }

    /// The station columns holding outposts (all three on the Moon, the outer two on the Belt).
    pub fn outpost_columns(&self) -> &'static [usize] {
        match self.options.board {
            BoardSide::Moon => &[0, 1, 2],
            BoardSide::Belt => &[0, 2],
        }
    }

    /// The Belt's shuttle column, if the Belt is in play.
    pub fn shuttle_column(&self) -> Option<usize> {
        (self.options.board == BoardSide::Belt).then_some(1)
    }

    /// Outposts (never shuttles) in a company's station.
    pub fn outposts_in_station(&self, company: Company) -> u32 {
        self.outpost_columns()
            .iter()
            .map(|&i| self.stations[company.index()][i].outposts as u32)
            .sum()
    }

    /// Shuttles in a company's station (0 on the Moon).
    pub fn shuttles_in_station(&self, company: Company) -> u32 {
        self.shuttle_column()
            .map(|i| self.stations[company.index()][i].outposts as u32)
            .unwrap_or(0)
    }

    /// Outposts of a company in Moon sectors or on Belt asteroids.
    pub fn outposts_on_board(&self, company: Company) -> u32 {
        let on_moon = self.sectors.iter().filter(|s| **s == Some(company)).count() as u32;
        let on_belt = self.belt.as_ref().map_or(0, |b| b.outposts_of(company));
        on_moon + on_belt
    }

    pub fn track_of(&self, data: &'_ GameData, company: Company) -> usize {
        let _ = data;
        self.tracks[company.index()]
    }

    /// Whether a track bonus (by index) is usable by `seat` now.
    pub fn has_bonus(&self, seat: usize, bonus: usize) -> bool {
        self.seats[seat].bonus_active & (1 << bonus) != 0
    }

    /// Shares a seat owns of a company: the track's share icon plus share icons on owned cards.
    pub fn shares(&self, data: &GameData, seat: usize, company: Company) -> u32 {
        let track = &data.tracks.tracks[self.tracks[company.index()]];
        let on_track = track.shares_at(self.seats[seat].track_pos[company.index()] as u32);
        let on_cards = self.seats[seat]
            .owned_cards()
            .filter(|c| data.card(*c).share == Some(company))
            .count() as u32;
        on_track + on_cards
    }

    /// The next seat in clockwise order after `seat` that has not dropped out.
    pub fn next_active_after(&self, seat: usize) -> Option<usize> {
        let n = self.seats.len();
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&s| !self.seats[s].dropped_out)
    }

    pub fn source_card(&self, seat: usize, source: ActionSource) -> Option<CardId> {
        match source {
            ActionSource::Slot(i) => self.seats[seat].slots[i as usize].map(SlotCard::card),
            ActionSource::Discarded(c) => Some(c),
            ActionSource::Tile => None,
        }
    }
}

/// What a seat has face up in its action area, with every bonus applied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AreaTotals {
    pub units: [u32; 3],
    pub energy: u32,
    pub energy_cards: u32,
    pub research_scientists: u32,
    pub field_scientists: u32,
}

impl AreaTotals {
    pub fn units_of(&self, r: Resource) -> u32 {
        self.units[r.index()]
    }

    /// Whether these totals meet a card requirement (costs and discards are checked elsewhere).
    pub fn meets(&self, req: &Requirement) -> bool {
        match req {
            Requirement::Carbon { min } => self.units_of(Resource::Carbon) >= *min,
            Requirement::Minerals { min } => self.units_of(Resource::Minerals) >= *min,
            Requirement::Titanium { min } => self.units_of(Resource::Titanium) >= *min,
            Requirement::Energy { min } => self.energy >= *min,
            Requirement::ResearchScientist { min } => self.research_scientists >= *min,
            Requirement::FieldScientist { min } => self.field_scientists >= *min,
            Requirement::EitherScientist { min } => {
                self.research_scientists + self.field_scientists >= *min
            }
            Requirement::FourOfOneType => self.units.iter().any(|u| *u >= 4),
            Requirement::ThreeCarbonThreeOfOneType => {
                let c = self.units_of(Resource::Carbon);
                c >= 6
                    || (c >= 3
                        && (self.units_of(Resource::Minerals) >= 3
                            || self.units_of(Resource::Titanium) >= 3))
            }
            Requirement::Pay { .. }
            | Requirement::NotFirstPlayerOnFirstTurnOfRound
            | Requirement::DiscardFromHand { .. } => true,
        }
    }
}
