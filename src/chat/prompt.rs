//! Stateless buttons: custom ids carry the game, the state version and the choice, so they work
//! after a restart and a stale click is recognised. A prompt lists the legal decisions of the
//! pending question as choices, a page at a time (Discord allows 25 components a message).

use crate::engine::campaign::LevelChange;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision};
use crate::store::GameId;

/// Choices per page (leaves room for the navigation button).
pub(crate) const PAGE: usize = 20;

/// What a click means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClickId {
    Lobby(String),
    /// Open the private prompt of `game` (the Plan / Your turn buttons of public pings).
    Open {
        game: GameId,
    },
    /// Confirm leaving the running `game` (its seat falls vacant).
    Leave {
        game: GameId,
    },
    Decide {
        game: GameId,
        version: u64,
        decision: Decision,
    },
    Page {
        game: GameId,
        version: u64,
        page: usize,
    },
    /// Option `number` (1-based) of the seat's list at `version`: an option of several
    /// decisions (see `offers`), found again from the state, which the version pins; `first`
    /// is its first decision (a check, and for adapters that read ids).
    Offer {
        game: GameId,
        version: u64,
        number: usize,
        first: Decision,
    },
    /// The research plan placement prompt for acquired plan `plan` (0-based) first.
    Focus {
        game: GameId,
        version: u64,
        plan: usize,
    },
    /// A campaign's level choice for Luna before `chapter`.
    Level {
        campaign: crate::store::CampaignId,
        chapter: u8,
        change: LevelChange,
    },
}

impl ClickId {
    pub fn encode(&self) -> String {
        match self {
            ClickId::Lobby(a) => format!("l:{a}"),
            ClickId::Open { game } => format!("o:{game}"),
            ClickId::Leave { game } => format!("v:{game}"),
            ClickId::Decide {
                game,
                version,
                decision,
            } => format!(
                "d:{game}:{version}:{}",
                serde_json::to_string(decision).unwrap_or_default()
            ),
            ClickId::Page {
                game,
                version,
                page,
            } => format!("p:{game}:{version}:{page}"),
            ClickId::Offer {
                game,
                version,
                number,
                first,
            } => format!(
                "n:{game}:{version}:{number}:{}",
                serde_json::to_string(first).unwrap_or_default()
            ),
            ClickId::Focus {
                game,
                version,
                plan,
            } => format!("f:{game}:{version}:{plan}"),
            ClickId::Level {
                campaign,
                chapter,
                change,
            } => format!(
                "c:{campaign}:{chapter}:{}",
                match change {
                    LevelChange::Decrease => "decrease",
                    LevelChange::Keep => "keep",
                    LevelChange::Increase => "increase",
                }
            ),
        }
    }

    pub fn parse(id: &str) -> Option<ClickId> {
        let (kind, rest) = id.split_once(':')?;
        match kind {
            "l" => Some(ClickId::Lobby(rest.to_string())),
            "o" => Some(ClickId::Open {
                game: rest.parse().ok()?,
            }),
            "v" => Some(ClickId::Leave {
                game: rest.parse().ok()?,
            }),
            "d" => {
                let mut parts = rest.splitn(3, ':');
                let game = parts.next()?.parse().ok()?;
                let version = parts.next()?.parse().ok()?;
                let decision = serde_json::from_str(parts.next()?).ok()?;
                Some(ClickId::Decide {
                    game,
                    version,
                    decision,
                })
            }
            "p" => {
                let mut parts = rest.splitn(3, ':');
                Some(ClickId::Page {
                    game: parts.next()?.parse().ok()?,
                    version: parts.next()?.parse().ok()?,
                    page: parts.next()?.parse().ok()?,
                })
            }
            "n" => {
                let mut parts = rest.splitn(4, ':');
                Some(ClickId::Offer {
                    game: parts.next()?.parse().ok()?,
                    version: parts.next()?.parse().ok()?,
                    number: parts.next()?.parse().ok()?,
                    first: serde_json::from_str(parts.next()?).ok()?,
                })
            }
            "f" => {
                let mut parts = rest.splitn(3, ':');
                Some(ClickId::Focus {
                    game: parts.next()?.parse().ok()?,
                    version: parts.next()?.parse().ok()?,
                    plan: parts.next()?.parse().ok()?,
                })
            }
            "c" => {
                let mut parts = rest.splitn(3, ':');
                Some(ClickId::Level {
                    campaign: parts.next()?.parse().ok()?,
                    chapter: parts.next()?.parse().ok()?,
                    change: match parts.next()? {
                        "decrease" => LevelChange::Decrease,
                        "keep" => LevelChange::Keep,
                        "increase" => LevelChange::Increase,
                        _ => return None,
                    },
                })
            }
            _ => None,
        }
    }
}

/// Where a game's log stands, for click versions. The store's log sequence numbers count
/// every batch and every undo record, so they only grow; the engine's decision count falls
/// back after an undo, and a button shown before the undo would match again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LogMark {
    /// The game's last log sequence number.
    pub last: u64,
    /// The last sequence number of the seat's own entries (0: none yet).
    pub own: u64,
}

/// The version a click must carry: in simultaneous phases the seat's own planning state and
/// its own last log entry (so another player's plan does not outdate my buttons, my undo
/// does), otherwise the game's last log entry.
pub(crate) fn version(state: &GameState, seat: usize, log: LogMark) -> u64 {
    match state.phase {
        Phase::Setup | Phase::Planning => {
            let s = &state.seats[seat];
            let mut h: u64 = 1469598103934665603;
            let mut mix = |x: u64| {
                h ^= x;
                h = h.wrapping_mul(1099511628211);
            };
            for c in &s.hand {
                mix(*c as u64);
            }
            for slot in &s.slots {
                mix(slot.map(|c| c.card() as u64 + 1).unwrap_or(0));
            }
            mix(u64::from(s.planned));
            mix(s.token.map(|t| t as u64 + 1).unwrap_or(0));
            mix(s.pending_rest.len() as u64);
            mix(state.round as u64);
            mix(log.own);
            h % 1_000_000_007
        }
        _ => log.last,
    }
}

/// The decisions offered as choices: the legal ones, those that gain nothing last (issue 18:
/// the rules allow them, their text says so), except that without linked slots a card is
/// offered once, for the leftmost free slot (which slot holds it does not matter then).
pub fn offered(data: &crate::data::GameData, state: &GameState, seat: usize) -> Vec<Decision> {
    let mut legal = engine::legal_decisions(data, state, seat);
    if state.belt.is_some() {
        legal = one_per_belt_space(data, state, seat, legal);
    }
    if state.phase != Phase::Planning || state.options.linked_slots {
        legal
            .sort_by_key(|d| engine::preview(data, state, seat, *d).is_ok_and(|p| p.gains_nothing));
        return legal;
    }
    let s = &state.seats[seat];
    let first_free = (0..5u8).find(|&i| s.slot_on[i as usize] && s.slots[i as usize].is_none());
    legal
        .into_iter()
        .filter(|d| match d {
            Decision::PlanCard { slot, .. } => Some(*slot) == first_free,
            _ => true,
        })
        .collect()
}

/// Belt expansions (issue 19): one option per Belt space that plays differently. The engine
/// offers every outpost space of an asteroid once per outer station column; outpost spaces of
/// one asteroid holding the same (no gas collector link, the same piece or none) are one
/// option, and the second column is offered only when the column matters (the engine's rule:
/// another share value or another crossed-out space revealed).
fn one_per_belt_space(
    data: &crate::data::GameData,
    state: &GameState,
    seat: usize,
    legal: Vec<Decision>,
) -> Vec<Decision> {
    let column_matters = belt_column_matters(data, state, seat);
    let mut seen = Vec::new();
    legal
        .into_iter()
        .filter(|d| {
            let Decision::EnterBelt {
                target,
                space,
                column,
            } = *d
            else {
                return true;
            };
            let key = (
                belt_space_kind(data, state, target, space),
                column_matters.then_some(column),
            );
            let new = !seen.contains(&key);
            seen.push(key);
            new
        })
        .collect()
}

/// What sets one outpost space of an asteroid apart from another: its gas collector link (the
/// space itself then) and the piece on it.
fn belt_space_kind(
    data: &crate::data::GameData,
    state: &GameState,
    target: u8,
    space: u8,
) -> (u8, Option<u8>, Option<crate::data::Company>) {
    let Some((i, asteroid)) = data
        .belt
        .asteroids
        .iter()
        .enumerate()
        .find(|(_, a)| a.id == u32::from(target))
    else {
        return (target, Some(space), None);
    };
    let linked = asteroid
        .linked_gas_spaces
        .as_ref()
        .is_some_and(|l| l.contains(&(u32::from(space) + 1)));
    let piece = state
        .belt
        .as_ref()
        .and_then(|b| b.outposts.get(i))
        .and_then(|spaces| spaces.get(usize::from(space)).copied().flatten());
    (target, linked.then_some(space), piece)
}

/// Whether the station column of a Belt outpost changes the outcome for the company the seat
/// is expanding now.
pub fn belt_column_matters(data: &crate::data::GameData, state: &GameState, seat: usize) -> bool {
    match state.agenda.last() {
        Some(engine::Task::Expand {
            seat: s, company, ..
        }) if *s == seat => engine::belt::outpost_column_matters(data, state, *company),
        _ => false,
    }
}
