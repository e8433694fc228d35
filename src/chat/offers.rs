//! What a prompt offers (issue 34: fewer, clearer prompts). The engine asks one small decision
//! at a time; a prompt gathers them into options a player answers with one click wherever the
//! steps that follow are part of the same choice: which cards of a type to use with the action
//! (the card selection and its end), which company an expansion is for, a majority space with
//! its reward tier, dropping out with the resting deck taken back, a sector with the station
//! column of its outpost, how many steps on one track (no card and all units on one track),
//! CrypCoin for several research points, how far the upload marker goes before it stops (with
//! not flipping); where each card of a seat dropping out rests is one multi-select (see
//! `Chat::choice_menu`). Each option is a batch played together (one undo step, previewed as
//! a whole). Where the list would no longer fit on a page (DECISIONS B3: 20 options and the
//! page button), the gathered forms give way to the plain steps again, so no option is ever
//! further than before. Nothing is hidden: every legal decision starts an option.
//!
//! Two more: placing acquired research plans asks one plan at a time (its screens, and a
//! button per other plan to place that one first), not every plan on every screen in one long
//! list; a station column is asked only among columns that end differently (DECISIONS A2: ask
//! only when the choice changes the outcome).
//!
//! This module only chooses the offers, from the game alone; how they are shown, labelled and
//! clicked is [`super::asking`]'s.

use super::prompt::{self, PAGE};
use crate::data::{CardId, GameData};
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision, Task};

/// One option of a prompt: the decisions one click plays, in order.
pub type Offer = Vec<Decision>;

/// The options of `seat`'s pending question, in the order numbered; `focus`: the acquired
/// research plan being placed (0: the first).
pub fn offers(data: &GameData, state: &GameState, seat: usize, focus: usize) -> Vec<Offer> {
    let singles = prompt::offered(data, state, seat);
    let top = state
        .agenda
        .last()
        .filter(|t| state.phase == Phase::Action && t.seat() == seat);
    let plain =
        |singles: Vec<Decision>| -> Vec<Offer> { singles.into_iter().map(|d| vec![d]).collect() };
    match top {
        Some(Task::ChooseAction { .. }) => action_offers(data, state, seat, singles),
        Some(Task::SpendUnits { .. }) => track_offers(data, state, seat, singles),
        Some(Task::ResearchFlip { .. }) | Some(Task::ResearchAdvance { .. }) => {
            research_offers(data, state, seat, singles)
        }
        Some(Task::PlacePlans { .. }) => {
            let plans = state.seats[seat].acquired.len();
            let focus = if focus < plans { focus } else { 0 };
            plain(
                singles
                    .into_iter()
                    .filter(|d| {
                        !matches!(d, Decision::PlacePlan { index, .. } if usize::from(*index) != focus)
                    })
                    .collect(),
            )
        }
        Some(Task::PickColumn { .. }) | Some(Task::ReturnOusted { .. }) => {
            plain(once_per_preview(data, state, seat, singles))
        }
        Some(Task::Expand { .. }) => expand_offers(data, state, seat, singles),
        Some(Task::BuyWithUnits { .. }) => buy_offers(data, state, seat, singles),
        Some(Task::SpendResearch { .. }) => research_point_offers(data, state, seat, singles),
        _ => plain(singles),
    }
}

/// The acquired plans a player may place first instead of the one `focus` names (buttons of
/// the plan placement prompt): their indices.
pub(crate) fn other_plans(state: &GameState, seat: usize, focus: usize) -> Vec<usize> {
    let top = state.agenda.last();
    if state.phase != Phase::Action
        || !matches!(top, Some(Task::PlacePlans { seat: s }) if *s == seat)
    {
        return Vec::new();
    }
    let plans = state.seats[seat].acquired.len();
    let focus = if focus < plans { focus } else { 0 };
    (0..plans).filter(|i| *i != focus).collect()
}

/// Plays `batch` on a copy of `state`; None when a step is refused.
fn played(
    data: &GameData,
    state: &GameState,
    seat: usize,
    batch: &[Decision],
) -> Option<GameState> {
    let mut s = state.clone();
    for d in batch {
        engine::apply(data, &mut s, seat, *d).ok()?;
    }
    Some(s)
}

/// The seat's pending task in `state`, if it is still the seat's turn to answer one.
fn asks(state: &GameState, seat: usize) -> Option<&Task> {
    state
        .agenda
        .last()
        .filter(|t| state.phase == Phase::Action && t.seat() == seat)
}

/// The action choice: each resource type's card selections (alike cards once, all of them
/// first), an expansion per company, a majority space per reward tier, dropping out per
/// resting deck taken back; the gathered forms only while the list fits a page, in that order.
fn action_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut offers: Vec<Vec<Offer>> = singles.iter().map(|d| vec![vec![*d]]).collect();
    let count = |offers: &Vec<Vec<Offer>>| offers.iter().map(Vec::len).sum::<usize>();
    for kind in 0..4 {
        for (i, d) in singles.iter().enumerate() {
            let gathered = match (kind, d) {
                (0, Decision::UseResources { resource: Some(r) }) => {
                    let cards: Vec<CardId> = state.seats[seat]
                        .up_cards()
                        .map(|(_, c)| c)
                        .filter(|c| data.card(*c).resource() == Some(*r))
                        .collect();
                    selections(data, state, seat, *d, &cards)
                }
                (1, Decision::UseEnergy) => follow_ups(data, state, seat, *d, |t| {
                    matches!(t, Task::ChooseExpansion { .. })
                }),
                (2, Decision::PlaceBonus { .. }) => follow_ups(data, state, seat, *d, |t| {
                    matches!(t, Task::ChooseTier { .. })
                }),
                (3, Decision::DropOut) => follow_ups(data, state, seat, *d, |t| {
                    matches!(t, Task::TakeRestingDeck { .. })
                }),
                _ => continue,
            };
            if gathered.len() > 1 && count(&offers) - 1 + gathered.len() <= PAGE {
                offers[i] = gathered;
            }
        }
    }
    offers.into_iter().flatten().collect()
}

/// `first` followed by each answer of the question it raises (when `question` is that question):
/// one option per answer; just `first` otherwise.
fn follow_ups(
    data: &GameData,
    state: &GameState,
    seat: usize,
    first: Decision,
    question: impl Fn(&Task) -> bool,
) -> Vec<Offer> {
    let Some(after) = played(data, state, seat, &[first]) else {
        return vec![vec![first]];
    };
    match asks(&after, seat) {
        Some(t) if question(t) => engine::legal_decisions(data, &after, seat)
            .into_iter()
            .map(|d| vec![first, d])
            .collect(),
        _ => vec![vec![first]],
    }
}

/// A resource action with each selection of `cards` (one type's face-up cards): the action,
/// the cards selected and the selection's end, alike cards counted once, all the cards first.
///
/// Cards are alike when they have the same face (value, cost, company share) and give the same
/// units here: the "+1" tile lies on one card, so of two cards with one face, using the one
/// it lies on is another choice (one unit more, the tile spent). What still tells alike cards
/// apart changes nothing for the player: which of them lies face down for the rest of the
/// round (dropping out turns every card of the action area face up before it rests, spent or
/// not) and so which alike card is left to use later, and its back (an action card's letter
/// or a starting card's colour), which goes where the card goes, whichever was used.
fn selections(
    data: &GameData,
    state: &GameState,
    seat: usize,
    first: Decision,
    cards: &[CardId],
) -> Vec<Offer> {
    if cards.len() < 2 || cards.len() > 5 {
        return vec![vec![first]];
    }
    let Some(asked) = played(data, state, seat, &[first]) else {
        return vec![vec![first]];
    };
    let face: Vec<_> = cards
        .iter()
        .map(|c| {
            let d = data.card(*c);
            let units = engine::preview(data, &asked, seat, Decision::SelectCard { card: *c })
                .ok()
                .and_then(|p| p.units);
            (d.value, d.cost, d.share, units)
        })
        .collect();
    let mut seen: Vec<Vec<_>> = Vec::new();
    let mut out = Vec::new();
    for mask in (1u32..(1 << cards.len())).rev() {
        let pick: Vec<CardId> = cards
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        let mut faces: Vec<_> = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| face[i])
            .collect();
        faces.sort();
        if seen.contains(&faces) {
            continue;
        }
        seen.push(faces);
        let mut batch = vec![first];
        let mut s = asked.clone();
        for card in &pick {
            if matches!(asks(&s, seat), Some(Task::SelectResources { chosen, .. }) if !chosen.contains(card))
            {
                let d = Decision::SelectCard { card: *card };
                if engine::apply(data, &mut s, seat, d).is_err() {
                    break;
                }
                batch.push(d);
            }
        }
        if matches!(asks(&s, seat), Some(Task::SelectResources { .. })) {
            if engine::apply(data, &mut s, seat, Decision::FinishSelecting).is_err() {
                continue;
            }
            batch.push(Decision::FinishSelecting);
        }
        out.push(batch);
    }
    if out.is_empty() {
        vec![vec![first]]
    } else {
        out
    }
}

/// Resource units on the tracks: on each track the seat may step on, +1, +2, … as far as the
/// units go (or until the steps raise another question), fewer of the middle counts where the
/// list would not fit a page; forfeiting the rest where it is allowed.
fn track_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut runs: Vec<Vec<Offer>> = Vec::new();
    let mut others: Vec<Offer> = Vec::new();
    for d in singles {
        if !matches!(d, Decision::TrackStep { .. }) {
            others.push(vec![d]);
            continue;
        }
        let mut run = vec![vec![d]];
        let mut s = state.clone();
        if engine::apply(data, &mut s, seat, d).is_ok() {
            while matches!(asks(&s, seat), Some(Task::SpendUnits { .. })) && run.len() < 12 {
                if engine::apply(data, &mut s, seat, d).is_err() {
                    break;
                }
                let mut next = run.last().cloned().unwrap_or_default();
                next.push(d);
                run.push(next);
            }
        }
        runs.push(run);
    }
    // Leave out middle counts (never +1 nor the whole run) until the list fits a page.
    let room = PAGE.saturating_sub(others.len());
    while runs.iter().map(Vec::len).sum::<usize>() > room {
        let Some(longest) = runs
            .iter_mut()
            .filter(|r| r.len() > 2)
            .max_by_key(|r| r.len())
        else {
            break;
        };
        let middle = longest.len() - 2;
        longest.remove(middle);
    }
    runs.into_iter().flatten().chain(others).collect()
}

/// The research action's flip and advance: not flipping and advancing straight to where the
/// upload marker stops (each place it may stop, not moving included) are one option each; a
/// flip stays a question of its own (the advance is asked after it).
fn research_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut out: Vec<Offer> = Vec::new();
    for d in singles {
        match d {
            Decision::SkipFlip | Decision::StopAdvancing => {
                let first: Vec<Decision> = if d == Decision::SkipFlip {
                    vec![d]
                } else {
                    Vec::new()
                };
                let advances = advances(data, state, seat, &first);
                if advances.is_empty() {
                    out.push(vec![d]);
                } else {
                    out.extend(advances);
                }
            }
            // Advancing step by step: its stops are the options above.
            Decision::Advance => {}
            d => out.push(vec![d]),
        }
    }
    if out.is_empty() {
        vec![vec![Decision::Advance]]
    } else {
        out
    }
}

/// After `first`: the upload marker stopping where it stands, then at each further plan it may
/// enter in turn (advance, advance, …, stop); empty when `first` does not lead to the advance.
fn advances(data: &GameData, state: &GameState, seat: usize, first: &[Decision]) -> Vec<Offer> {
    let Some(mut s) = played(data, state, seat, first) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut path = first.to_vec();
    loop {
        if !matches!(asks(&s, seat), Some(Task::ResearchAdvance { .. })) {
            // The advance ended by itself (or asks something else): this is where it stops.
            if path.len() > first.len() {
                out.push(path);
            }
            break;
        }
        let mut stop = path.clone();
        stop.push(Decision::StopAdvancing);
        out.push(stop);
        if out.len() > PAGE
            || !engine::legal_decisions(data, &s, seat).contains(&Decision::Advance)
            || engine::apply(data, &mut s, seat, Decision::Advance).is_err()
        {
            break;
        }
        path.push(Decision::Advance);
    }
    out
}

/// Entering sectors: a sector whose outpost's station column then changes the outcome is one
/// option per column that ends differently (sector and column at once), while the list fits a
/// page.
fn expand_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut offers: Vec<Vec<Offer>> = singles.iter().map(|d| vec![vec![*d]]).collect();
    for (i, d) in singles.iter().enumerate() {
        if !matches!(d, Decision::ExpandInto { .. }) {
            continue;
        }
        let Some(after) = played(data, state, seat, &[*d]) else {
            continue;
        };
        if !matches!(asks(&after, seat), Some(Task::PickColumn { .. })) {
            continue;
        }
        let columns = once_per_preview(
            data,
            &after,
            seat,
            engine::legal_decisions(data, &after, seat),
        );
        let count = offers.iter().map(Vec::len).sum::<usize>();
        if count - 1 + columns.len() <= PAGE {
            offers[i] = columns.into_iter().map(|c| vec![*d, c]).collect();
        }
    }
    offers.into_iter().flatten().collect()
}

/// A card to buy with resource units, or none: with none, all the units on one track is one
/// option per track (the other amounts are asked after "No card").
fn buy_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut out: Vec<Offer> = singles.iter().map(|d| vec![*d]).collect();
    if !singles.contains(&Decision::NoBuy) {
        return out;
    }
    let Some(after) = played(data, state, seat, &[Decision::NoBuy]) else {
        return out;
    };
    let Some(Task::SpendUnits { units, .. }) = asks(&after, seat) else {
        return out;
    };
    let units = *units as usize;
    for company in crate::data::Company::ALL {
        let step = Decision::TrackStep { company };
        let mut batch = vec![Decision::NoBuy];
        batch.extend(std::iter::repeat_n(step, units));
        if units > 1 && played(data, state, seat, &batch).is_some() && out.len() < PAGE {
            out.push(batch);
        }
    }
    out
}

/// Research points: CrypCoin for one point or for several at once (1, 2, … CrypCoin), the
/// plans one by one.
fn research_point_offers(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Offer> {
    let mut out: Vec<Offer> = Vec::new();
    for d in singles {
        if d != Decision::TakeCoin {
            out.push(vec![d]);
            continue;
        }
        let mut s = state.clone();
        let mut batch = Vec::new();
        while matches!(asks(&s, seat), Some(Task::SpendResearch { .. }))
            && batch.len() < 8
            && engine::apply(data, &mut s, seat, d).is_ok()
        {
            batch.push(d);
            out.push(batch.clone());
        }
        if batch.is_empty() {
            out.push(vec![d]);
        }
    }
    out
}

/// The decisions of `singles` whose previews differ (a station column asked only among columns
/// that end differently), the first of each.
fn once_per_preview(
    data: &GameData,
    state: &GameState,
    seat: usize,
    singles: Vec<Decision>,
) -> Vec<Decision> {
    let mut seen = Vec::new();
    singles
        .into_iter()
        .filter(|d| {
            let p = engine::preview(data, state, seat, *d).ok();
            let new = !seen.contains(&p);
            seen.push(p);
            new
        })
        .collect()
}
