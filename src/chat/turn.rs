//! One public message per turn (DECISIONS B15): the public events of a turn's steps are gathered
//! here and posted together when the turn ends (the game waits on someone else, the phase or
//! round changes, or the bot moved), with the ping of the player whose turn it is when there is
//! one. The events are kept in memory, one entry per step and seat, so an undone step loses its
//! lines. Memory is only a cache of what the stored log says: a chat layer that has not seen a
//! game's turn begin (after a restart) rebuilds the turn's steps from the log before it adds
//! the next one, so a turn interrupted by a restart is still posted whole.
//!
//! A turn often repeats one small step (a track step per resource unit, a CrypCoin per research
//! point): such runs are read as one line with the summed amount ([`merge_repeats`]). A plan
//! announced and revealed in the same message is read once, as its reveal.

use super::game::Actor;
use super::{Chat, Texts};
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Event, Visibility};
use crate::store::{replay, GameId, LogEntry, SeatOwner};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// One step of a turn: the seat that moved (None: the bot) and the step's public events.
type Step = (Option<usize>, Vec<Event>);

/// The public events of each game's turn so far, step by step. A game this chat layer has seen
/// a turn of has an entry (empty between turns); a game without one is rebuilt from its log.
#[derive(Default)]
pub(crate) struct TurnLines(Mutex<BTreeMap<GameId, Vec<Step>>>);

impl TurnLines {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<GameId, Vec<Step>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Chat {
    /// Whether a step ends the turn (see [`ends_turn`]), the seats' people as they are now.
    pub(crate) fn ends_turn(
        &self,
        game: GameId,
        actor: Actor,
        before: Option<&GameState>,
        after: &GameState,
    ) -> bool {
        ends_turn(actor, before, after, |seat| {
            self.user_of(game, seat).is_some()
        })
    }

    /// Adds a step's public events (log entry `version`) to the game's turn; when `turn_over`,
    /// returns every event gathered, repeats merged (and forgets them), otherwise nothing.
    pub(crate) fn gather_turn(
        &self,
        game: GameId,
        version: u64,
        seat: Option<usize>,
        events: Vec<Event>,
        turn_over: bool,
    ) -> Vec<Event> {
        let known = self.turn_lines.lock().contains_key(&game);
        // Rebuilt outside the lock: a replay must not hold up the other games' moves.
        let rebuilt = if known {
            Vec::new()
        } else {
            self.rebuild_turn(game, version)
        };
        let mut map = self.turn_lines.lock();
        let steps = map.entry(game).or_insert(rebuilt);
        steps.push((seat, events));
        if !turn_over {
            return Vec::new();
        }
        message(
            std::mem::take(steps)
                .into_iter()
                .flat_map(|(_, events)| events),
        )
    }

    /// Forgets the lines of `seat`'s last step in `game` (the step was undone). A game not in
    /// memory needs nothing: its rebuild leaves undone steps out.
    pub(crate) fn forget_last_step(&self, game: GameId, seat: usize) {
        if let Some(steps) = self.turn_lines.lock().get_mut(&game) {
            if let Some(i) = steps.iter().rposition(|(s, _)| *s == Some(seat)) {
                steps.remove(i);
            }
        }
    }

    /// Forgets a finished game's turn.
    pub(crate) fn forget_turn(&self, game: GameId) {
        self.turn_lines.lock().remove(&game);
    }

    /// The steps of the turn under way before log entry `version`, rebuilt from the stored
    /// log: the batches in effect after the last rollback (which, like the start, ended a
    /// turn), replayed with their events, cut after each step that [`Chat::ends_turn`]. Who
    /// moved is read from the seats as they are now (a seat no person holds is a computer
    /// player's); a stalled turn the bot played counts as its seat's step. Nothing when the
    /// log cannot be read or replayed (then the turn goes out with the lines from here on,
    /// as before).
    fn rebuild_turn(&self, game: GameId, version: u64) -> Vec<Step> {
        let read = self
            .store
            .games()
            .game(game)
            .and_then(|rec| Ok((rec, self.store.games().log(game)?)));
        let (rec, mut log) = match read {
            Ok(x) => x,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the log to rebuild the turn");
                return Vec::new();
            }
        };
        log.retain(|e| e.seq() < version);
        let undone = replay::undone_set(&log);
        let restart = log
            .iter()
            .rposition(|e| matches!(e, LogEntry::Rollback { .. }))
            .map_or(0, |i| i + 1);
        let start = replay::initial_state(&self.data, &rec.options, &rec.seat_names)
            .and_then(|start| replay::replay_onto(&self.data, start, &log[..restart], &undone));
        let mut state = match start {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot replay the log to rebuild the turn");
                return Vec::new();
            }
        };
        let people: Vec<usize> = match self.store.people().seats(game) {
            Ok(seats) => seats
                .iter()
                .filter(|s| matches!(s.owner, SeatOwner::Discord(_)))
                .map(|s| s.seat)
                .collect(),
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the seats to rebuild the turn");
                return Vec::new();
            }
        };
        let mut steps = Vec::new();
        for entry in &log[restart..] {
            let LogEntry::Batch {
                seq,
                seat,
                decisions,
                ..
            } = entry
            else {
                continue;
            };
            if undone.contains(seq) {
                continue;
            }
            let before = state.clone();
            let events = match engine::apply_batch(&self.data, &mut state, *seat, decisions) {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!(game, seq, error = %e, "cannot replay a move to rebuild the turn");
                    return Vec::new();
                }
            };
            // (Who moved matters, not as whom: a person's user id plays no part in the rule.)
            let actor = if people.contains(seat) {
                Actor::Person {
                    seat: *seat,
                    user: 0,
                }
            } else {
                Actor::Computer { seat: *seat }
            };
            let public = events
                .into_iter()
                .filter(|e| e.visibility == Visibility::Public);
            steps.push((Some(*seat), public.collect()));
            if ends_turn(actor, Some(&before), &state, |s| people.contains(&s)) {
                steps.clear();
            }
        }
        steps
    }
}

/// Whether a step ends the turn, so its lines and the turn's earlier ones go out now: `actor`
/// moved from `before` (None: the game starts) to `after`; `person(seat)` says whether a person
/// plays the seat. The one rule for live moves and for a turn rebuilt from the log. Planning
/// and the set-up are simultaneous: their lines go out with the phase's end. A computer
/// player's move in the action phase is its whole turn; computer turns in a row (the people
/// have dropped out) go out together when a person is waited on again or the phase ends, not
/// as a message each.
pub(crate) fn ends_turn(
    actor: Actor,
    before: Option<&GameState>,
    after: &GameState,
    person: impl Fn(usize) -> bool,
) -> bool {
    let same_phase = before.is_some_and(|b| b.phase == after.phase && b.round == after.round);
    let waiting = engine::waiting_on(after);
    match actor {
        Actor::Nobody => true,
        _ if !same_phase => true,
        Actor::Computer { .. } => {
            after.phase == Phase::Action && waiting.iter().any(|s| person(*s))
        }
        Actor::Person { .. } => {
            after.phase == Phase::Action
                && (before.is_some_and(|b| engine::waiting_on(b) != waiting)
                    || turn_passed(actor, before, after))
        }
    }
}

/// Whether the actor's own turn ended with this step (or the phase moved on), also when the
/// game waits on the same seat again: against Luna alone her turns are played within the
/// person's step, and once the others have dropped out a player's turns follow each other.
pub(crate) fn turn_passed(actor: Actor, before: Option<&GameState>, after: &GameState) -> bool {
    actor.seat().is_some_and(|seat| {
        before.is_some_and(|b| engine::turn_stamp(b, seat) != engine::turn_stamp(after, seat))
    })
}

/// A turn's public events as its message shows them, one line each: repeats merged, a plan
/// announced and revealed in the same message read once. The one rule for the posted message
/// and the public account check.
pub(crate) fn message(events: impl IntoIterator<Item = Event>) -> Vec<Event> {
    after_their_expansion(without_announced_reveals(merge_repeats(events)))
}

/// `events` with the share value lines of an expanding company that come before its expansion's
/// line moved right after that line, as one change: the value falls as the outposts leave the
/// station, step by step (a threat dealt with on the way may come between), but reads as the
/// expansion's consequence. A share value line right after the line that moved its station
/// otherwise (an oust, a removal, Luna's expansion) stays where it is.
fn after_their_expansion(events: Vec<Event>) -> Vec<Event> {
    const EXPANDED: [&str; 2] = ["event.expanded", "event.expanded_belt"];
    const MOVES_A_STATION: [&str; 7] = [
        "event.oust",
        "event.oust_removed",
        "event.oust_shuttle",
        "event.oust_shuttle_removed",
        "event.remove_outpost",
        "event.luna_expands",
        "event.luna_expands_belt",
    ];
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    for e in events {
        if !EXPANDED.contains(&e.key.as_str()) {
            out.push(e);
            continue;
        }
        let since = out
            .iter()
            .rposition(|x| EXPANDED.contains(&x.key.as_str()))
            .map_or(0, |i| i + 1);
        let in_place = |i: usize| {
            i > 0
                && MOVES_A_STATION.contains(&out[i - 1].key.as_str())
                && out[i - 1].arg("company") == out[i].arg("company")
        };
        let steps: Vec<usize> = (since..out.len())
            .filter(|&i| {
                out[i].key == "event.share_value"
                    && out[i].arg("company") == e.arg("company")
                    && !in_place(i)
            })
            .collect();
        let mut moved: Vec<Event> = steps.iter().rev().map(|&i| out.remove(i)).collect();
        moved.reverse();
        out.push(e);
        out.extend(merge_runs(moved, joined));
    }
    out
}

/// An event that a reader takes as one with the same event right after it: its catalog key,
/// the argument that adds up, and the argument that tells where the run ended (the later one
/// stands). Every other argument (who, which track) must be equal.
struct Summed {
    key: &'static str,
    amount: &'static str,
    position: Option<&'static str>,
}

const SUMMED: [Summed; 4] = [
    // A track step per resource unit or research point: "moves 3 spaces on the … track".
    Summed {
        key: "event.track_move",
        amount: "moved",
        position: None,
    },
    // A CrypCoin per research point: "gains 3 CrypCoin".
    Summed {
        key: "event.gain_coins",
        amount: "n",
        position: None,
    },
    Summed {
        key: "event.tank",
        amount: "steps",
        position: Some("to"),
    },
    Summed {
        key: "event.units_forfeited",
        amount: "units",
        position: None,
    },
];

/// `events` with each run of the same summed event (same key, same seat and target, one right
/// after the other) written as one event with the summed amount. Events in between (a bonus
/// threshold passed, another seat's move) keep the runs apart, so a line never claims more than
/// happened at its place in the turn; other events are never merged.
pub fn merge_repeats(events: impl IntoIterator<Item = Event>) -> Vec<Event> {
    merge_runs(events, summed)
}

/// `items` with each one that `merge` joins to the one before it replaced by the joined item
/// (the run goes on from there): the one loop behind [`merge_repeats`] and the log's lines.
pub(crate) fn merge_runs<T>(
    items: impl IntoIterator<Item = T>,
    merge: impl Fn(&T, &T) -> Option<T>,
) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        if let Some(last) = out.last_mut() {
            if let Some(joined) = merge(last, &item) {
                *last = joined;
                continue;
            }
        }
        out.push(item);
    }
    out
}

/// `events` without a seat's "has planned (3 cards face down)" when the same message shows
/// those cards ("alice reveals: …"): the reveal says it all. An empty plan has no reveal line
/// and keeps its one line ("bob has planned no cards").
fn without_announced_reveals(events: Vec<Event>) -> Vec<Event> {
    let revealed: Vec<String> = events
        .iter()
        .filter(|e| e.key == "event.reveals")
        .filter_map(|e| e.arg("name").map(str::to_string))
        .collect();
    events
        .into_iter()
        .filter(|e| {
            e.key != "event.planned"
                || !e
                    .arg("name")
                    .is_some_and(|n| revealed.iter().any(|r| r == n))
        })
        .collect()
}

/// Events a reader takes as one with the same event right after it in another way: a value
/// that changed twice reads as one change from the first line's `from` to the last line's
/// `to`; a list given item by item reads as one list.
enum Joined {
    /// "Share value of Minerva Corp.: 2 → 1", then "1 → 0": "2 → 0".
    FromTo {
        key: &'static str,
        from: &'static str,
        to: &'static str,
    },
    /// "alice rests 2 carbon on resting slot 1", "… 3 energy on resting slot 3": one list.
    Listed {
        key: &'static str,
        list: &'static str,
    },
}

const JOINED: [Joined; 3] = [
    Joined::FromTo {
        key: "event.share_value",
        from: "from",
        to: "to",
    },
    Joined::Listed {
        key: "event.rests",
        list: "cards",
    },
    Joined::Listed {
        key: "event.rests_starting",
        list: "cards",
    },
];

/// `first` and `then` as one event under a [`Joined`] rule.
fn joined(first: &Event, then: &Event) -> Option<Event> {
    if then.key != first.key || then.visibility != first.visibility {
        return None;
    }
    let (key, own) = JOINED
        .iter()
        .map(|j| match j {
            Joined::FromTo { key, from, to } => (*key, [*from, *to]),
            Joined::Listed { key, list } => (*key, [*list, *list]),
        })
        .find(|(key, _)| *key == first.key)?;
    let rest = |e: &Event| {
        let mut rest: Vec<(String, String)> = e
            .args
            .iter()
            .filter(|(k, _)| !own.contains(&k.as_str()))
            .cloned()
            .collect();
        rest.sort();
        rest
    };
    if rest(first) != rest(then) {
        return None;
    }
    let mut merged = then.clone();
    for j in &JOINED {
        match j {
            Joined::FromTo { key: k, from, .. } if *k == key => {
                let was = first.arg(from)?.to_string();
                for (name, v) in &mut merged.args {
                    if name == from {
                        *v = was.clone();
                    }
                }
            }
            Joined::Listed { key: k, list } if *k == key => {
                let joined = format!("{}, {}", first.arg(list)?, then.arg(list)?);
                for (name, v) in &mut merged.args {
                    if name == list {
                        *v = joined.clone();
                    }
                }
            }
            _ => {}
        }
    }
    Some(merged)
}

/// `first` and `then` as one event, when they are a run of a summed event.
pub(crate) fn summed(first: &Event, then: &Event) -> Option<Event> {
    let Some(rule) = SUMMED.iter().find(|r| r.key == first.key) else {
        return joined(first, then);
    };
    if then.key != first.key || then.visibility != first.visibility {
        return None;
    }
    let amount = |e: &Event| e.arg(rule.amount)?.parse::<u64>().ok();
    let total = amount(first)? + amount(then)?;
    let others = |e: &Event| {
        let mut rest: Vec<(String, String)> = e
            .args
            .iter()
            .filter(|(k, _)| k != rule.amount && Some(k.as_str()) != rule.position)
            .cloned()
            .collect();
        rest.sort();
        rest
    };
    if others(first) != others(then) {
        return None;
    }
    let mut merged = then.clone();
    for (k, v) in &mut merged.args {
        if k == rule.amount {
            *v = total.to_string();
        }
    }
    Some(merged)
}

/// The text of `/skymines log`: the `lines` (batch, seat, text) after batch `from`, about the
/// last [`LOG_LINES`] of them, starting with a whole turn and saying how many came before.
pub(crate) fn log_lines(texts: &Texts, lines: &[(u64, usize, String)], from: u64) -> String {
    let shown: Vec<&(u64, usize, String)> = lines.iter().filter(|(q, _, _)| *q > from).collect();
    if shown.is_empty() {
        return texts.t("log.empty");
    }
    let (batches, seats): (Vec<u64>, Vec<usize>) = shown.iter().map(|(q, s, _)| (*q, *s)).unzip();
    let first = log_start(&seats, &batches, LOG_LINES);
    let earlier = (first > 0).then(|| texts.f("log.earlier", &[("n", &first)]));
    let rest = shown[first..].iter().map(|(_, _, t)| t.clone());
    earlier
        .into_iter()
        .chain(rest)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lines `/skymines log` shows at most, about: a turn is not cut where it can be helped (see
/// [`log_start`]).
pub(crate) const LOG_LINES: usize = 40;

/// Where a log of lines starts so that it shows about the last `limit` lines and begins where
/// a turn does: `turns` and `batches` give each line's turn and batch (any keys that stay the
/// same along one). The start moves back to the beginning of the turn it would cut, or forward
/// to the next turn, by at most half the limit; failing that, to a batch's beginning the same
/// way; failing that, it cuts.
pub fn log_start<T: PartialEq, B: PartialEq>(turns: &[T], batches: &[B], limit: usize) -> usize {
    if turns.len() <= limit {
        return 0;
    }
    let cut = turns.len() - limit;
    run_start(turns, cut, limit / 2)
        .or_else(|| run_start(batches, cut, limit / 2))
        .unwrap_or(cut)
}

/// The start of a run of equal keys within `reach` of `cut` (backwards first), if any.
fn run_start<K: PartialEq>(keys: &[K], cut: usize, reach: usize) -> Option<usize> {
    let starts = |i: usize| i == 0 || keys.get(i - 1) != keys.get(i);
    let back = (cut.saturating_sub(reach)..=cut).rev().find(|&i| starts(i));
    let forward = (cut..keys.len().min(cut + reach + 1)).find(|&i| starts(i));
    back.or(forward)
}
