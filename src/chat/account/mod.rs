//! The public account check (DECISIONS B20): every change a turn makes to what other players
//! may see is said in that turn's public message, with its numbers. Seeded games of every kind
//! (Moon and Belt, mission and threat cards, Luna at every level, 1–4 players, people and
//! computer players) are played on the engine; the steps are gathered into messages by the
//! chat's own rules ([`super::turn::ends_turn`], [`super::turn::message`]), and each message's
//! events — the very events whose rendering is the message players read, one line each — are
//! read as claims ([`claims`]) and compared with the change of the spectator's view
//! ([`facts`]) from the message before to this one: every changed quantity must be claimed,
//! and what the lines claim must add up to the change exactly. A number a claim rests on must
//! be in the line as written in English and in German, and a share value is said right after
//! the line that moved its station.
//!
//! Why the events and not the text: the message is `events.map(render).join("\n")` (see
//! `Chat::after_move`), so each line is one event rendered; parsing the words back would test
//! the parser. The events are the honest reading once the words carry the numbers, which the
//! check asserts line by line.

mod claims;
mod facts;

use super::computers;
use super::game::Actor;
use super::turn;
use crate::bots::Level;
use crate::data::GameData;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, BoardSide, Event, GameOptions, TokenSetup, TrackSetup, Visibility};
use claims::{Claim, Reading};
use facts::{Fact, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// What a run of the check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountReport {
    pub games: usize,
    /// Public messages checked.
    pub messages: u64,
    /// Changed public quantities checked.
    pub changes: u64,
    pub misses: u64,
    /// The first misses, in words (seed, round, what, the message's lines).
    pub examples: Vec<String>,
    /// Misses by kind of quantity (the fact's name without its seat or place).
    pub by_kind: BTreeMap<String, u64>,
}

impl AccountReport {
    /// Adds another run's findings (examples kept up to the run's limit).
    pub fn absorb(&mut self, other: AccountReport) {
        self.add(other, examples());
    }

    fn add(&mut self, other: AccountReport, keep: usize) {
        self.games += other.games;
        self.messages += other.messages;
        self.changes += other.changes;
        self.misses += other.misses;
        for e in other.examples {
            if self.examples.len() < keep {
                self.examples.push(e);
            }
        }
        for (k, n) in other.by_kind {
            *self.by_kind.entry(k).or_default() += n;
        }
    }

    /// One line: games, messages, changes checked, misses.
    pub fn summary(&self) -> String {
        format!(
            "account check: {} games, {} messages, {} changes checked, {} misses",
            self.games, self.messages, self.changes, self.misses
        )
    }
}

/// Examples kept per run (`SKYMINES_ACCOUNT_EXAMPLES` sets another number).
fn examples() -> usize {
    std::env::var("SKYMINES_ACCOUNT_EXAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}
/// A game that has not ended after this many moves is reported as stuck.
const MOVES_MAX: usize = 5_000;

/// Checks the games of seeds `first .. first + games`, on `threads` threads (each takes every
/// `threads`-th seed); the report is the same whatever the number of threads.
pub fn check_seeds(data: &GameData, first: u64, games: usize, threads: usize) -> AccountReport {
    let threads = threads.clamp(1, games.max(1));
    let parts: Vec<Vec<(u64, AccountReport)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (0..games)
                        .skip(t)
                        .step_by(threads)
                        .map(|i| {
                            let seed = first.wrapping_add(i as u64);
                            (seed, check_game(data, seed, &mut |_| {}))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all: Vec<(u64, AccountReport)> = parts.into_iter().flatten().collect();
    all.sort_by_key(|(seed, _)| *seed);
    let mut report = AccountReport::default();
    for (_, r) in all {
        report.add(r, examples());
    }
    report
}

/// What kind of game a seed plays: its options, which seats computer players play, and theirs
/// and the people's choices come from the seed too.
#[derive(Debug, Clone)]
pub struct GameKind {
    pub options: GameOptions,
    /// Per seat (Luna's included, always false): a computer player plays it.
    pub computers: Vec<bool>,
    pub level: Level,
}

/// The kind of game seed `seed` plays: every kind the game has, mixed by the seed.
pub fn game_kind(seed: u64) -> GameKind {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xacc0_u64.wrapping_mul(0x9E37_79B9));
    let players = rng.gen_range(1..=4usize);
    let luna = if players == 1 || (players < 4 && rng.gen_bool(0.4)) {
        Some(rng.gen_range(0..=8u8))
    } else {
        None
    };
    let belt = rng.gen_bool(0.4);
    let options = GameOptions {
        players,
        luna,
        board: if belt {
            BoardSide::Belt
        } else {
            BoardSide::Moon
        },
        tracks: if rng.gen_bool(0.5) {
            TrackSetup::Random
        } else {
            TrackSetup::Default
        },
        tokens: if rng.gen_bool(0.3) {
            TokenSetup::Draft
        } else {
            TokenSetup::Fixed
        },
        linked_slots: rng.gen_bool(0.25),
        missions: rng.gen_bool(0.4),
        threats: belt && rng.gen_bool(0.6),
        chapter: None,
        seed,
        threat_card: None,
    };
    // Seat 0 is a person (a game needs one); the others are computer players now and then.
    let mut computers: Vec<bool> = (0..players).map(|s| s > 0 && rng.gen_bool(0.4)).collect();
    if luna.is_some() {
        computers.push(false);
    }
    GameKind {
        options,
        computers,
        level: Level::Easy,
    }
}

/// Plays the game of `seed` and checks each of its public messages; `show` sees each message's
/// events, one line each as posted.
pub fn check_game(data: &GameData, seed: u64, show: &mut dyn FnMut(&[Event])) -> AccountReport {
    check_game_mutated(data, seed, show, &mut |_| {})
}

/// [`check_game`] with each message's events passed through `mutate` before they are read (a
/// test removes a line or changes a number, and the check must find it).
pub fn check_game_mutated(
    data: &GameData,
    seed: u64,
    show: &mut dyn FnMut(&[Event]),
    mutate: &mut dyn FnMut(&mut Vec<Event>),
) -> AccountReport {
    let kind = game_kind(seed);
    let names = crate::sim::seat_names(kind.options.players);
    let mut report = AccountReport {
        games: 1,
        ..AccountReport::default()
    };
    let mut state = match engine::new_game(data, &kind.options, &names) {
        Ok(s) => s,
        Err(e) => {
            report.misses += 1;
            report
                .examples
                .push(format!("seed {seed}: cannot set up: {e}"));
            return report;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut start = state.clone();
    let mut gathered: Vec<Event> = Vec::new();
    let person = |s: usize| !kind.computers.get(s).copied().unwrap_or(true);
    for _ in 0..MOVES_MAX {
        if state.phase == Phase::Finished {
            break;
        }
        let waiting = engine::waiting_on(&state);
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            break;
        };
        let before = state.clone();
        let (decisions, actor) = if person(seat) {
            let legal = engine::legal_decisions(data, &state, seat);
            let pick = crate::bots::weighted::choose(&mut rng, data, &state, seat, &legal);
            (
                pick.into_iter().collect::<Vec<_>>(),
                Actor::Person { seat, user: 0 },
            )
        } else {
            let ds = computers::think(data, &state, seat, kind.level, &mut rng);
            (ds, Actor::Computer { seat })
        };
        if decisions.is_empty() {
            report.misses += 1;
            report.examples.push(format!(
                "seed {seed}: seat {seat} is waited on and cannot move"
            ));
            return report;
        }
        let events = match engine::apply_batch(data, &mut state, seat, &decisions) {
            Ok(events) => events,
            Err(e) => {
                report.misses += 1;
                report
                    .examples
                    .push(format!("seed {seed}: a legal move was refused: {e}"));
                return report;
            }
        };
        gathered.extend(
            events
                .into_iter()
                .filter(|e| e.visibility == Visibility::Public),
        );
        if turn::ends_turn(actor, Some(&before), &state, |s| {
            person(s) && !state.seats[s].is_luna()
        }) {
            let mut message = turn::message(std::mem::take(&mut gathered));
            mutate(&mut message);
            let lines: Vec<String> = message.iter().map(Event::text).collect();
            show(&message);
            let found = check_message(data, &start, &state, &message);
            report.messages += 1;
            report.changes += found.changes;
            for miss in found.misses {
                report.misses += 1;
                *report.by_kind.entry(miss.kind.clone()).or_default() += 1;
                if report.examples.len() < examples() {
                    report.examples.push(format!(
                        "seed {seed}, round {}: {}\n  lines:\n    {}",
                        state.round,
                        miss.what,
                        lines.join("\n    ")
                    ));
                }
            }
            start = state.clone();
        }
    }
    if state.phase != Phase::Finished {
        report.misses += 1;
        report
            .examples
            .push(format!("seed {seed}: the game did not end"));
    }
    report
}

/// One thing a message left unsaid or said wrongly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Miss {
    /// The kind of quantity ("Coins", "Sector", "event without a reading" …).
    pub kind: String,
    pub what: String,
}

/// What checking one message found.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub changes: u64,
    pub misses: Vec<Miss>,
}

/// Compares the change of the public view from `before` to `after` with what `events` (one
/// message, as posted) claim.
pub(crate) fn check_message(
    data: &GameData,
    before: &GameState,
    after: &GameState,
    events: &[Event],
) -> Found {
    let was = facts::facts(data, before);
    let now = facts::facts(data, after);
    let reading = Reading {
        data,
        before,
        after,
    };
    let mut found = Found::default();
    let mut said: BTreeMap<Fact, Vec<Claim>> = BTreeMap::new();
    for e in events {
        let Some((claims, numbers)) = claims::claims(&reading, e) else {
            found.misses.push(Miss {
                kind: "event without a reading".into(),
                what: format!("no reading for the line {:?} ({})", e.text(), e.key),
            });
            continue;
        };
        for arg in numbers {
            if let Some(miss) = number_unshown(e, arg) {
                found.misses.push(miss);
            }
        }
        for c in claims {
            said.entry(c.fact()).or_default().push(c);
        }
    }
    found
        .misses
        .extend(share_values_out_of_place(&reading, events));
    let none = Value::from("-");
    let keys: std::collections::BTreeSet<Fact> = was.keys().chain(now.keys()).copied().collect();
    for fact in keys {
        let b = was.get(&fact).unwrap_or(&none);
        let a = now.get(&fact).unwrap_or(&none);
        let claims = said.get(&fact).map(Vec::as_slice).unwrap_or(&[]);
        let changed = a != b;
        if changed {
            found.changes += 1;
            if claims.is_empty() {
                found.misses.push(miss(
                    fact,
                    format!(
                        "{} changed {b} → {a}, and no line says so",
                        describe(fact, after)
                    ),
                ));
                continue;
            }
        }
        if let Some(problem) = judge(b, a, claims) {
            found.misses.push(miss(
                fact,
                format!("{} changed {b} → {a}, but {problem}", describe(fact, after)),
            ));
        }
    }
    found
}

/// The share value lines of `events` (one message) that do not come right after the line that
/// moved their company's station (an expansion, an oust, a removal): a value said away from its
/// cause reads as another change (Luna's came after "Luna drops out").
fn share_values_out_of_place(reading: &Reading, events: &[Event]) -> Vec<Miss> {
    let facts = |e: &Event| -> Vec<Fact> {
        claims::claims(reading, e)
            .map(|(claims, _)| claims.iter().map(Claim::fact).collect())
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.key != "event.share_value" {
            continue;
        }
        let Some(company) = facts(e).into_iter().find_map(|f| match f {
            Fact::ShareValue(c) => Some(c),
            _ => None,
        }) else {
            continue;
        };
        let before = i.checked_sub(1).map(|j| &events[j]);
        if before.is_some_and(|b| facts(b).contains(&Fact::Station(company))) {
            continue;
        }
        out.push(Miss {
            kind: "share value away from its cause".into(),
            what: format!(
                "the line {:?} does not follow the line that moved its station (it follows {:?})",
                e.text(),
                before.map(Event::text).unwrap_or_default()
            ),
        });
    }
    out
}

/// Whether the claims on one fact agree with its change from `b` to `a` (None) or what is
/// wrong with them.
fn judge(b: &str, a: &str, claims: &[Claim]) -> Option<String> {
    let deltas: Vec<i64> = claims
        .iter()
        .filter_map(|c| match c {
            Claim::Delta(_, n) => Some(*n),
            _ => None,
        })
        .collect();
    // A line that says a change in words (all markers return) leaves the sum unchecked.
    let in_words = claims.iter().any(|c| matches!(c, Claim::Touch(_)));
    if !deltas.is_empty() && !in_words {
        let said: i64 = deltas.iter().sum();
        match (b.parse::<i64>(), a.parse::<i64>()) {
            (Ok(b), Ok(a)) if a - b == said => {}
            (Ok(b), Ok(a)) => return Some(format!("the lines say {said:+}, not {:+}", a - b)),
            _ => {
                return Some(format!(
                    "the lines say {said:+} of a value that is no number"
                ))
            }
        }
    }
    // Where the lines leave it: the last line that says where it ends, unless a later line
    // changes it again in words (a card taken, then the display refilled).
    let last = claims.iter().rev().find_map(|c| match c {
        Claim::To(_, v) => Some(Some(v)),
        Claim::Touch(_) => Some(None),
        Claim::Delta(..) => None,
    });
    match last {
        Some(Some(v)) if v != a => Some(format!("the lines say it ends at {v}")),
        _ => None,
    }
}

fn miss(fact: Fact, what: String) -> Miss {
    let kind = format!("{fact:?}");
    let kind = match fact {
        Fact::Seat(_, f) => format!("{f:?}"),
        _ => kind,
    };
    let kind = kind.split('(').next().unwrap_or_default().to_string();
    Miss { kind, what }
}

/// A fact in words for a report (the seat by name).
fn describe(fact: Fact, state: &GameState) -> String {
    match fact {
        Fact::Seat(s, f) => {
            let name = state.seats.get(s).map_or("?", |x| x.name.as_str());
            format!("{name}'s {f:?}")
        }
        other => format!("{other:?}"),
    }
}

/// A miss when the number argument `arg` of `e` is not in the line as written in English or
/// German (a claim must rest on what players read).
fn number_unshown(e: &Event, arg: &str) -> Option<Miss> {
    let value = e.arg(arg)?;
    for texts in [crate::text::english(), crate::text::german()] {
        let line = e.render(texts);
        let shown = value
            .split(',')
            .map(str::trim)
            .all(|n| contains_number(&line, n));
        if !shown {
            return Some(Miss {
                kind: "number not in the line".into(),
                what: format!(
                    "the {} line {line:?} does not show its {arg} {value}",
                    texts.code
                ),
            });
        }
    }
    None
}

/// Whether `text` holds `n` as a whole number (not as part of a longer one).
fn contains_number(text: &str, n: &str) -> bool {
    let digits = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    text.match_indices(n).any(|(i, _)| {
        !digits(text[..i].chars().next_back()) && !digits(text[i + n.len()..].chars().next())
    })
}
