//! Seeded self-play through the legal decisions, with invariant checks after every decision:
//! the harness behind `skymines simulate`, the invariant tests and the speed benchmark.

use crate::data::{CardId, Company, GameData};
use crate::engine::state::{GameState, Phase, SlotCard};
use crate::engine::{self, Decision, GameOptions, Task};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// What a simulation run measured.
#[derive(Debug, Clone, Serialize, Default)]
pub struct SimReport {
    pub games: usize,
    pub completed: usize,
    pub decisions: u64,
    pub invariant_violations: usize,
    /// The first few violations, in words.
    pub violation_examples: Vec<String>,
    pub games_per_second: f64,
    pub mean_final_score: f64,
    pub digest: String,
    pub decision_coverage: BTreeMap<String, u64>,
}

/// How the run is set up.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub games: usize,
    pub options: GameOptions,
    /// Check invariants after every decision (off for raw speed).
    pub check: bool,
    /// Decisions after which a game is abandoned as stuck.
    pub max_decisions: u64,
    /// Vary the setup options from game to game (random tracks, token draft every other game,
    /// linked slots every third), to cover every setup path.
    pub vary: bool,
}

/// Plays `config.games` seeded games; game `i` uses seed `options.seed + i`.
pub fn run(data: &GameData, config: &SimConfig) -> SimReport {
    let started = std::time::Instant::now();
    let mut report = SimReport {
        games: config.games,
        ..SimReport::default()
    };
    let mut hasher = Sha256::new();
    let mut score_sum = 0u64;
    let mut score_count = 0u64;
    for i in 0..config.games {
        let mut options = config.options.clone();
        options.seed = config.options.seed.wrapping_add(i as u64);
        if config.vary {
            options.tracks = engine::TrackSetup::Random;
            if i % 2 == 1 {
                options.tokens = engine::TokenSetup::Draft;
            }
            options.linked_slots = i % 3 == 0;
        }
        match play_one(data, &options, config, &mut report) {
            Ok(state) => {
                if state.phase == Phase::Finished {
                    report.completed += 1;
                    for s in engine::final_scores(data, &state) {
                        score_sum += s.total as u64;
                        score_count += 1;
                    }
                }
                hasher.update(serde_json::to_vec(&state).unwrap_or_default());
            }
            Err(e) => violation(&mut report, format!("seed {}: {e}", options.seed)),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    report.games_per_second = if secs > 0.0 {
        config.games as f64 / secs
    } else {
        0.0
    };
    report.mean_final_score = if score_count > 0 {
        score_sum as f64 / score_count as f64
    } else {
        0.0
    };
    report.digest = hasher
        .finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect();
    report
}

fn violation(report: &mut SimReport, text: String) {
    report.invariant_violations += 1;
    if report.violation_examples.len() < 10 {
        report.violation_examples.push(text);
    }
}

/// Seat names used in simulations.
pub fn seat_names(n: usize) -> Vec<String> {
    ["Lin", "Malik", "Amber", "Jo"]
        .iter()
        .take(n)
        .map(|s| s.to_string())
        .collect()
}

/// Chooses among the legal decisions at random, uniformly but for a mild bias: against dropping
/// out early or clearing a plan, toward moving research forward (planning a research scientist
/// with cards that meet the next plans, plans on the next empty screen, advancing the upload
/// marker) and toward entering sectors, so games reach the late-game rules.
pub fn choose(
    rng: &mut ChaCha8Rng,
    data: &GameData,
    state: &GameState,
    seat: usize,
    options: &[Decision],
) -> Option<Decision> {
    let s = &state.seats[seat];
    let first_empty = s
        .research
        .iter()
        .enumerate()
        .skip(s.upload.map(|u| u as usize + 1).unwrap_or(0))
        .find(|(_, p)| p.is_none())
        .map(|(i, _)| i as u8);
    let wanted = wanted_for_research(data, state, seat);
    let scientist_planned = s
        .slots
        .iter()
        .flatten()
        .any(|c| data.card(c.card()).is_research_scientist());
    let reach_now = research_reach(data, state, seat, None);
    let next = s.upload.map(|u| u + 1).unwrap_or(0);
    let next_blocked = (reach_now == 0
        && s.research.get(next as usize).is_some_and(|p| p.is_some()))
    .then_some(next);
    let weight = |d: &Decision| match d {
        Decision::DropOut => 1,
        Decision::PlanClear => 1,
        Decision::Advance => 30,
        Decision::FlipPlan { screen } if Some(*screen) == next_blocked => 20,
        Decision::StopAdvancing | Decision::StopExpanding | Decision::FlipPlan { .. } => 1,
        Decision::PlacePlan { screen, .. } if Some(*screen) == first_empty => 40,
        Decision::PlacePlan { .. } => 1,
        Decision::PlanCard { card, .. } => {
            let def = data.card(*card);
            let gain = research_reach(data, state, seat, Some(*card)) - reach_now;
            if def.is_research_scientist() && !scientist_planned {
                30
            } else if gain > 0 {
                10 + 25 * gain as u32
            } else if wanted.iter().any(|w| w.matches(def)) {
                8
            } else {
                4
            }
        }
        _ => 6,
    };
    let total: u32 = options.iter().map(weight).sum();
    if total == 0 {
        return options.first().copied();
    }
    let mut pick = rng.gen_range(0..total);
    for d in options {
        let w = weight(d);
        if pick < w {
            return Some(*d);
        }
        pick -= w;
    }
    options.last().copied()
}

/// How many plans in a row the upload marker could enter with the planned cards (plus `extra`),
/// a rough estimate for the self-play planner (bonuses ignored; not a rule).
fn research_reach(data: &GameData, state: &GameState, seat: usize, extra: Option<CardId>) -> i32 {
    use crate::engine::state::{AreaTotals, PlanRef};
    let s = &state.seats[seat];
    let mut t = AreaTotals::default();
    for card in s.slots.iter().flatten().map(|c| c.card()).chain(extra) {
        let def = data.card(card);
        if let Some(r) = def.resource() {
            t.units[r.index()] += def.value;
        } else if def.is_energy() {
            t.energy += def.value;
            t.energy_cards += 1;
        } else if def.is_research_scientist() {
            t.research_scientists += 1;
        } else if def.is_field_scientist() {
            t.field_scientists += 1;
        }
    }
    // The scientist doing the research does not count for the plans it enters.
    t.research_scientists = t.research_scientists.saturating_sub(1);
    let mut reach = 0;
    for placed in s
        .research
        .iter()
        .skip(s.upload.map(|u| u as usize + 1).unwrap_or(0))
    {
        let Some(p) = placed else { break };
        let reqs = match (p.face_down, p.plan) {
            (true, _) | (_, PlanRef::Special(_)) => Vec::new(),
            (_, PlanRef::Token) => s
                .token
                .map(|i| data.research.starting_tokens[i].plan_requirements.clone())
                .unwrap_or_default(),
            (_, PlanRef::Regular(id)) => data.research.plans[id as usize].requirements.clone(),
        };
        if !reqs.iter().all(|r| t.meets(r)) {
            break;
        }
        reach += 1;
    }
    reach
}

/// Card kinds the requirements of the next research plans ask for.
fn wanted_for_research(
    data: &GameData,
    state: &GameState,
    seat: usize,
) -> Vec<crate::data::Requirement> {
    use crate::engine::state::PlanRef;
    let s = &state.seats[seat];
    let next = s.upload.map(|u| u as usize + 1).unwrap_or(0);
    s.research
        .iter()
        .skip(next)
        .take(2)
        .flatten()
        .filter(|p| !p.face_down)
        .flat_map(|p| match p.plan {
            PlanRef::Token => s
                .token
                .map(|t| data.research.starting_tokens[t].plan_requirements.clone())
                .unwrap_or_default(),
            PlanRef::Regular(id) => data.research.plans[id as usize].requirements.clone(),
            PlanRef::Special(_) => Vec::new(),
        })
        .collect()
}

trait MatchesCard {
    fn matches(&self, card: &crate::data::cards::CardDef) -> bool;
}

impl MatchesCard for crate::data::Requirement {
    fn matches(&self, card: &crate::data::cards::CardDef) -> bool {
        use crate::data::{Requirement as R, Resource};
        match self {
            R::Carbon { .. } | R::ThreeCarbonThreeOfOneType => {
                card.resource() == Some(Resource::Carbon)
            }
            R::Minerals { .. } => card.resource() == Some(Resource::Minerals),
            R::Titanium { .. } => card.resource() == Some(Resource::Titanium),
            R::FourOfOneType => card.resource().is_some(),
            R::Energy { .. } => card.is_energy(),
            R::ResearchScientist { .. } => card.is_research_scientist(),
            R::FieldScientist { .. } => card.is_field_scientist(),
            R::EitherScientist { .. } => card.is_field_scientist() || card.is_research_scientist(),
            _ => false,
        }
    }
}

fn play_one(
    data: &GameData,
    options: &GameOptions,
    config: &SimConfig,
    report: &mut SimReport,
) -> Result<GameState, String> {
    let mut state =
        engine::new_game(data, options, &seat_names(options.players)).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ 0x5eed_5eed);
    let mut steps = 0u64;
    while state.phase != Phase::Finished {
        steps += 1;
        if steps > config.max_decisions {
            return Err(format!(
                "game did not finish within {} decisions",
                config.max_decisions
            ));
        }
        let waiting = engine::waiting_on(&state);
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            return Err(format!("nobody to move in phase {:?}", state.phase));
        };
        let legal = engine::legal_decisions(data, &state, seat);
        let Some(decision) = choose(&mut rng, data, &state, seat, &legal) else {
            return Err(format!(
                "seat {seat} is waited on but has no legal decision: {:?}",
                state.agenda.last()
            ));
        };
        if config.check && steps.is_multiple_of(53) {
            check_out_of_turn(data, &state, &waiting, report);
        }
        match engine::apply_traced(data, &mut state, seat, decision) {
            Ok((_, notes)) => {
                report.decisions += 1;
                for n in notes {
                    if n == engine::COIN_UNDERFLOW {
                        violation(
                            report,
                            format!("seed {}: a payment exceeded the coins", options.seed),
                        );
                    }
                    *report.decision_coverage.entry(n.to_string()).or_default() += 1;
                }
            }
            Err(e) => return Err(format!("a legal decision {decision:?} was refused: {e}")),
        }
        if config.check {
            for problem in invariants(data, &state) {
                violation(
                    report,
                    format!("seed {} after {decision:?}: {problem}", options.seed),
                );
            }
            if steps.is_multiple_of(25) {
                for problem in view_leaks(data, &state) {
                    violation(report, format!("seed {}: {problem}", options.seed));
                }
            }
        }
    }
    Ok(state)
}

fn check_out_of_turn(
    data: &GameData,
    state: &GameState,
    waiting: &[usize],
    report: &mut SimReport,
) {
    for seat in 0..state.seats.len() {
        if !waiting.contains(&seat) {
            let mut copy = state.clone();
            if engine::apply(data, &mut copy, seat, Decision::DropOut).is_ok() {
                violation(report, format!("seat {seat} acted out of turn"));
            }
            if copy != *state {
                violation(report, "a refused decision changed the state".to_string());
            }
        }
    }
}

/// Every broken invariant of a state, in words.
pub fn invariants(data: &GameData, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    // 15 outposts per company: station + board + removed from the game + ousted ones on their
    // way home during an expansion.
    for c in Company::ALL {
        let in_transit = state
            .agenda
            .iter()
            .map(|t| match t {
                Task::ReturnOusted { company, .. } if *company == c => 1,
                Task::Expand { entered, .. } => {
                    entered.iter().filter(|(_, o)| *o == Some(c)).count() as u32
                }
                _ => 0,
            })
            .sum::<u32>();
        let total = state.outposts_in_station(c)
            + state.outposts_on_board(c)
            + state.removed_outposts[c.index()] as u32
            + in_transit;
        if total != 15 {
            out.push(format!("{} has {total} outposts, not 15", c.id()));
        }
    }
    // Cards: every card in play exactly once.
    let mut seen: BTreeMap<CardId, usize> = BTreeMap::new();
    let all = state
        .action_stack
        .iter()
        .chain(state.discard.iter())
        .chain(state.display.iter().flatten())
        .copied()
        .chain(
            state
                .seats
                .iter()
                .flat_map(|s| s.owned_cards().collect::<Vec<_>>()),
        );
    for c in all {
        *seen.entry(c).or_default() += 1;
    }
    if let Some((c, n)) = seen.iter().find(|(_, n)| **n > 1) {
        out.push(format!("card {} is in {n} places", data.card(*c).id));
    }
    let humans = state.seats.iter().filter(|s| !s.is_luna()).count();
    let expected = data.action_cards.cards.len() + humans * 10;
    if seen.len() != expected {
        out.push(format!("{} cards in play, expected {expected}", seen.len()));
    }
    for (i, s) in state.seats.iter().enumerate() {
        if let Some(l) = &s.luna {
            // Luna's cards: deck, grade-2 stack, discard pile, slots and majority slots.
            let mut cards: Vec<u8> = l
                .deck
                .iter()
                .chain(l.grade2.iter())
                .chain(l.discard.iter())
                .chain(l.slots.iter().flatten().map(|x| &x.card))
                .chain(l.majority.iter().flatten())
                .copied()
                .collect();
            let n = cards.len();
            cards.sort();
            cards.dedup();
            let want = if data
                .luna_board
                .level(l.level as u32)
                .is_some_and(|x| x.grade2_in_game)
            {
                data.luna_cards.cards.len()
            } else {
                data.luna_cards
                    .cards
                    .iter()
                    .filter(|c| c.grade == 1)
                    .count()
            };
            if n != cards.len() || n != want {
                out.push(format!(
                    "Luna's cards: {n} held ({} distinct), expected {want}",
                    cards.len()
                ));
            }
        }
        for c in Company::ALL {
            let track = &data.tracks.tracks[state.tracks[c.index()]];
            if s.track_pos[c.index()] as u32 > track.last_space {
                out.push(format!("seat {i} is past the end of the {} track", c.id()));
            }
        }
        if s.tank as u32 > data.player_board.tank_track.final_step {
            out.push(format!("seat {i} is past the final tank space"));
        }
        if s.upload
            .is_some_and(|u| u as u32 > data.player_board.research_track.final_screen)
        {
            out.push(format!("seat {i} is past the final research screen"));
        }
        let placed = state
            .bonus_spaces
            .iter()
            .chain(state.track_bonus_spaces.iter())
            .flatten()
            .filter(|m| m.seat == i && !m.one_time)
            .count();
        if placed + s.markers_reserve as usize != s.markers_total as usize {
            out.push(format!("seat {i}'s bonus markers do not add up"));
        }
        if state.phase == Phase::Action
            && s.slots
                .iter()
                .flatten()
                .any(|c| matches!(c, SlotCard::Planned(_)))
        {
            out.push(format!(
                "seat {i} has an unrevealed card in the Action phase"
            ));
        }
    }
    out
}

/// Changes every other seat's hidden cards and checks each seat's view stays byte-identical.
pub fn view_leaks(data: &GameData, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    for viewer in 0..state.seats.len() {
        let before =
            serde_json::to_string(&engine::view(data, state, Some(viewer))).unwrap_or_default();
        let mut changed = state.clone();
        for (i, s) in changed.seats.iter_mut().enumerate() {
            if i == viewer {
                continue;
            }
            // Replace hidden cards with other cards (same count): a view must not notice.
            for c in s.hand.iter_mut() {
                *c = c.wrapping_add(1);
            }
            for slot in s.slots.iter_mut() {
                if let Some(SlotCard::Planned(c)) = slot {
                    *c = c.wrapping_add(1);
                }
            }
            s.token_choices.reverse();
        }
        let after =
            serde_json::to_string(&engine::view(data, &changed, Some(viewer))).unwrap_or_default();
        if before != after {
            out.push(format!(
                "seat {viewer}'s view depends on another seat's hidden cards"
            ));
        }
    }
    out
}

/// A simple greedy player for tests and benchmarks: one-step lookahead on the seat's final
/// score as the game stands; ties are broken by the self-play policy.
pub fn greedy_choose(
    rng: &mut ChaCha8Rng,
    data: &GameData,
    state: &GameState,
    seat: usize,
    options: &[Decision],
) -> Option<Decision> {
    let mut best: Vec<Decision> = Vec::new();
    let mut best_score = i64::MIN;
    for d in options {
        let mut next = state.clone();
        if engine::apply(data, &mut next, seat, *d).is_err() {
            continue;
        }
        let score = engine::final_scores(data, &next)
            .get(seat)
            .map(|s| s.total as i64)
            .unwrap_or(0);
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(*d);
        }
    }
    choose(rng, data, state, seat, &best)
}

/// Plays one solo game (the human seat played by `greedy_choose`) against Luna at `level`;
/// returns (human score, Luna score).
pub fn solo_vs_luna(data: &GameData, level: u8, seed: u64) -> Result<(u32, u32), String> {
    let options = GameOptions {
        players: 1,
        luna: Some(level),
        seed,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(data, &options, &seat_names(1)).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6e ^ 0x0ddba11);
    let mut steps = 0;
    while state.phase != Phase::Finished {
        steps += 1;
        if steps > 20_000 {
            return Err("solo game did not finish".to_string());
        }
        let seat = *engine::waiting_on(&state).first().ok_or("nobody to move")?;
        let legal = engine::legal_decisions(data, &state, seat);
        let d = greedy_choose(&mut rng, data, &state, seat, &legal).ok_or("no legal decision")?;
        engine::apply(data, &mut state, seat, d).map_err(|e| e.to_string())?;
    }
    let scores = engine::final_scores(data, &state);
    let human = scores.first().map(|s| s.total).unwrap_or(0);
    let luna = scores.last().map(|s| s.total).unwrap_or(0);
    Ok((human, luna))
}
