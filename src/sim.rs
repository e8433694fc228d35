//! Seeded self-play through the legal decisions, with invariant checks after every decision:
//! the harness behind `skymines simulate`, the invariant tests and the speed benchmark. With a
//! threat card that asks for high track values, one seat gets the best of several tries of each
//! round (`play_one`), so even those cards get removed in self-play.

use crate::bots::weighted::{choose, energy_points, research_screen_for, tank_step_for};
use crate::bots::{self, Budget, Level};
use crate::data::{CardId, Company, GameData};
use crate::engine::state::{GameState, Phase, SlotCard};
use crate::engine::{self, Decision, GameOptions, Task};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

mod reports;
mod threads;
pub use reports::{merge_reports, points_by_company, MatchReport};
use threads::in_threads;

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
    /// Games that ended with the Time anomaly still on the board (its loop continues).
    #[serde(default)]
    pub time_loops: usize,
    /// Campaign runs: loops abandoned at the simulation's cap of games per loop.
    #[serde(default)]
    pub time_loops_capped: usize,
    /// Campaign runs: whole 4-chapter campaigns played.
    #[serde(default)]
    pub campaigns: usize,
    /// Campaign runs: the mean total success points per seat after chapter 4.
    #[serde(default)]
    pub mean_campaign_sp: f64,
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
                    if engine::threats::time_loop_continues(data, &state) {
                        report.time_loops += 1;
                    }
                }
                hasher.update(serde_json::to_vec(&state).unwrap_or_default());
            }
            Err(e) => violation(&mut report, format!("seed {}: {e}", options.seed)),
        }
    }
    report.mean_final_score = mean(score_sum, score_count);
    finish(report, started, hasher)
}

/// Games a simulated Time anomaly loop may last before the campaign run abandons it (the rules
/// loop until a game removes the card; random self-play might never).
pub const TIME_LOOP_CAP: usize = 3;

/// Plays `config.games` whole 4-chapter campaigns with `config.options.players` humans (and Luna
/// when `config.options.luna` is set: she starts at her campaign level, and the players' level
/// choice between chapters is made at random). Each chapter uses the chapter's own options; a
/// Time anomaly loop is replayed with the same threat card up to `TIME_LOOP_CAP` games and its
/// results averaged. Campaign `i` uses seeds from `options.seed + 100 * i`.
pub fn run_campaigns(data: &GameData, config: &SimConfig) -> SimReport {
    use crate::engine::campaign;
    let started = std::time::Instant::now();
    let mut report = SimReport::default();
    let mut hasher = Sha256::new();
    let (mut score_sum, mut score_count) = (0u64, 0u64);
    let (mut sp_sum, mut sp_count) = (0u64, 0u64);
    let humans = config.options.players;
    for i in 0..config.games {
        let base = config.options.seed.wrapping_add(100 * i as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(base ^ 0xca3a_1a9e);
        let mut level = config
            .options
            .luna
            .and_then(|_| campaign::luna_start_level(data, humans, rng.gen_bool(0.5)));
        let mut results = Vec::new();
        let mut failed = false;
        for chapter in 1..=data.campaign.chapter_list.len() as u8 {
            let mut seed = base.wrapping_add(10 * chapter as u64);
            let mut options = match campaign::chapter_options(data, chapter, humans, level, seed) {
                Ok(o) => o,
                Err(e) => {
                    violation(&mut report, format!("campaign {i} chapter {chapter}: {e}"));
                    failed = true;
                    break;
                }
            };
            options.linked_slots = config.options.linked_slots;
            let mut games = Vec::new();
            loop {
                report.games += 1;
                let state = match play_one(data, &options, config, &mut report) {
                    Ok(s) => s,
                    Err(e) => {
                        violation(&mut report, format!("seed {}: {e}", options.seed));
                        failed = true;
                        break;
                    }
                };
                hasher.update(serde_json::to_vec(&state).unwrap_or_default());
                report.completed += 1;
                for s in engine::final_scores(data, &state) {
                    score_sum += s.total as u64;
                    score_count += 1;
                }
                match campaign::chapter_result(data, &state) {
                    Ok(r) => games.push(r),
                    Err(e) => {
                        violation(&mut report, format!("seed {}: {e}", options.seed));
                        failed = true;
                        break;
                    }
                }
                if !campaign::in_time_loop(data, &state) {
                    break;
                }
                report.time_loops += 1;
                if games.len() >= TIME_LOOP_CAP {
                    report.time_loops_capped += 1;
                    break;
                }
                seed = seed.wrapping_add(1);
                options = campaign::next_loop_options(data, &state, seed);
            }
            if failed {
                break;
            }
            let mut result = match campaign::average_loop(data, &games) {
                Ok(r) => r,
                Err(e) => {
                    violation(&mut report, format!("campaign {i} chapter {chapter}: {e}"));
                    failed = true;
                    break;
                }
            };
            if let Some(l) = level {
                let choices = campaign::luna_level_choices(data, l, result.luna_won());
                if let Some(choice) = choices.get(rng.gen_range(0..choices.len().max(1))) {
                    campaign::apply_level_choice(&mut result, choice);
                    level = Some(choice.level);
                }
            }
            hasher.update(serde_json::to_vec(&result).unwrap_or_default());
            results.push(result);
        }
        if failed {
            continue;
        }
        report.campaigns += 1;
        let standing = campaign::standing(data, &results);
        if !standing.complete {
            violation(
                &mut report,
                format!("campaign {i} did not play every chapter"),
            );
        }
        for t in &standing.totals {
            sp_sum += *t as u64;
            sp_count += 1;
        }
    }
    report.mean_final_score = mean(score_sum, score_count);
    report.mean_campaign_sp = mean(sp_sum, sp_count);
    finish(report, started, hasher)
}

fn mean(sum: u64, count: u64) -> f64 {
    if count > 0 {
        sum as f64 / count as f64
    } else {
        0.0
    }
}

/// The run's speed (games played since `started`) and the digest of every final state.
fn finish(mut report: SimReport, started: std::time::Instant, hasher: Sha256) -> SimReport {
    let secs = started.elapsed().as_secs_f64();
    report.games_per_second = if secs > 0.0 {
        report.games as f64 / secs
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

/// Tries of a round the threat specialist keeps the best of (see `play_one`): more for a
/// research value, which takes more luck to reach than a tank value.
const TANK_TRIES: usize = 16;
const RESEARCH_TRIES: usize = 48;

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
    let specialist = threat_specialist(data, &state);
    while state.phase != Phase::Finished {
        match specialist.filter(|_| engine::threats::on_board(data, &state).is_some()) {
            // A threat asking for high track values: play each round several times from the
            // same position and keep the try that brought the first human seat furthest toward
            // the requirement (or removed the card). Random self-play alone never gets there,
            // and the rules of removing these cards should still fire in whole games.
            Some((seat, tries)) => {
                let end = Stop::RoundEnd(state.round);
                let seeds: Vec<u64> = (0..tries).map(|_| rng.gen()).collect();
                let mut best = (0u64, seeds[0]);
                for seed in seeds {
                    let mut copy = state.clone();
                    let mut try_steps = steps;
                    let mut try_rng = ChaCha8Rng::seed_from_u64(seed);
                    let tried = play_until(
                        data,
                        &mut copy,
                        &mut try_rng,
                        config,
                        None,
                        &mut try_steps,
                        end,
                    );
                    let progress = match tried {
                        Ok(()) => threat_progress(data, &copy, seat),
                        Err(_) => 0,
                    };
                    if progress > best.0 {
                        best = (progress, seed);
                    }
                }
                let mut round_rng = ChaCha8Rng::seed_from_u64(best.1);
                play_until(
                    data,
                    &mut state,
                    &mut round_rng,
                    config,
                    Some(&mut *report),
                    &mut steps,
                    end,
                )?;
            }
            None => play_until(
                data,
                &mut state,
                &mut rng,
                config,
                Some(&mut *report),
                &mut steps,
                Stop::GameEnd,
            )?,
        }
    }
    Ok(state)
}

/// Where `play_until` stops.
#[derive(Clone, Copy)]
enum Stop {
    GameEnd,
    /// The given round is over (or the game).
    RoundEnd(u8),
}

/// Plays decisions chosen by `choose` until `stop`. With a report, every decision is checked
/// and counted; without one (a try that may be thrown away) nothing is.
fn play_until(
    data: &GameData,
    state: &mut GameState,
    rng: &mut ChaCha8Rng,
    config: &SimConfig,
    mut report: Option<&mut SimReport>,
    steps: &mut u64,
    stop: Stop,
) -> Result<(), String> {
    let seed = state.options.seed;
    loop {
        let done = match &stop {
            Stop::GameEnd => state.phase == Phase::Finished,
            Stop::RoundEnd(round) => state.phase == Phase::Finished || state.round != *round,
        };
        if done {
            return Ok(());
        }
        *steps += 1;
        if *steps > config.max_decisions {
            return Err(format!(
                "game did not finish within {} decisions",
                config.max_decisions
            ));
        }
        let waiting = engine::waiting_on(state);
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            return Err(format!("nobody to move in phase {:?}", state.phase));
        };
        let legal = engine::legal_decisions(data, state, seat);
        let Some(decision) = choose(rng, data, state, seat, &legal) else {
            return Err(format!(
                "seat {seat} is waited on but has no legal decision: {:?}",
                state.agenda.last()
            ));
        };
        let check = config.check && report.is_some();
        if let Some(report) = report.as_deref_mut().filter(|_| check) {
            if steps.is_multiple_of(53) {
                check_out_of_turn(data, state, &waiting, report);
            }
        }
        let notes = match engine::apply_traced(data, state, seat, decision) {
            Ok((_, notes)) => notes,
            Err(e) => return Err(format!("a legal decision {decision:?} was refused: {e}")),
        };
        let Some(report) = report.as_deref_mut() else {
            continue;
        };
        report.decisions += 1;
        for n in notes {
            if n == engine::COIN_UNDERFLOW {
                violation(report, format!("seed {seed}: a payment exceeded the coins"));
            }
            *report.decision_coverage.entry(n.to_string()).or_default() += 1;
        }
        if check {
            for problem in invariants(data, state) {
                violation(report, format!("seed {seed} after {decision:?}: {problem}"));
            }
            if steps.is_multiple_of(25) {
                for problem in view_leaks(data, state) {
                    violation(report, format!("seed {seed}: {problem}"));
                }
            }
        }
    }
}

/// The seat self-play works toward a hard threat with (the first human seat, when the threat on
/// the board asks for a tank or research value), and how many tries of each round it gets.
fn threat_specialist(data: &GameData, state: &GameState) -> Option<(usize, usize)> {
    let tries = round_tries(engine::threats::on_board(data, state)?)?;
    let seat = state.seats.iter().position(|s| !s.is_luna())?;
    Some((seat, tries))
}

/// The tries of each round a threat card asking for track values gets (None for the others).
fn round_tries(card: &crate::data::threats::ThreatCard) -> Option<usize> {
    use crate::data::threats::ThreatRequirement as R;
    card.requirement
        .iter()
        .flat_map(|r| r.flatten())
        .filter_map(|r| match r {
            R::TankValuePassed { .. } => Some(TANK_TRIES),
            R::ResearchValuePassed { .. } => Some(RESEARCH_TRIES),
            _ => None,
        })
        .max()
}

/// How far `seat` got toward the threat's requirement: removing the card beats everything, then
/// the tank steps and research screens still counting toward the required values.
fn threat_progress(data: &GameData, state: &GameState, seat: usize) -> u64 {
    use crate::data::threats::ThreatRequirement as R;
    let Some(threat) = &state.threat else {
        return 0;
    };
    if threat.removed_by == Some(seat) {
        return u64::MAX;
    }
    let Some(card) = data.threats.threats.get(threat.card as usize) else {
        return 0;
    };
    let s = &state.seats[seat];
    let owned: Vec<CardId> = s.owned_cards().collect();
    // In tenths of a tank step: the steps counting toward the value, and what the seat owns
    // for more (a field scientist moves about 3 steps a use, plus 1 per 2 gas collectors of
    // its company).
    let mut progress = 0u64;
    for r in card.requirement.iter().flat_map(|r| r.flatten()) {
        match r {
            R::TankValuePassed { value } => {
                let Some(target) = tank_step_for(data, *value) else {
                    continue;
                };
                if (s.tank as usize) >= target {
                    progress += 10 * target as u64 + 100;
                    continue;
                }
                progress += 10 * s.tank as u64;
                for c in &owned {
                    if let crate::data::cards::CardKind::FieldScientist { company, .. } =
                        data.card(*c).kind
                    {
                        progress += 25;
                        if let Some(company) = company {
                            progress += 3 * engine::gas_collectors(data, state, company) as u64;
                        }
                    }
                }
            }
            R::ResearchValuePassed { value } => {
                let Some(target) = research_screen_for(data, *value) else {
                    continue;
                };
                let reached = s.upload.map_or(0, |u| u as usize + 1);
                if reached > target {
                    progress += 20 * (target as u64 + 1) + 100;
                    continue;
                }
                progress += 20 * reached as u64;
                let ahead = s
                    .research
                    .iter()
                    .skip(reached)
                    .take_while(|p| p.is_some())
                    .count();
                progress += 8 * ahead as u64;
                progress += 20
                    * owned
                        .iter()
                        .filter(|c| data.card(**c).is_research_scientist())
                        .count() as u64;
            }
            _ => {}
        }
    }
    // The way to the card: company shuttles on its spaces, energy points to spend.
    let shuttles = data
        .threats
        .module
        .reach
        .shuttle_on
        .iter()
        .filter(|sp| {
            state
                .belt
                .as_ref()
                .and_then(|b| b.shuttle_on(data, **sp))
                .is_some()
        })
        .count() as u64;
    let energy = energy_points(data, &owned);
    progress += 15 * shuttles + 3 * energy.min(8) as u64;
    progress * 100 + s.coins.min(30) as u64 + 1
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
    if state.belt.is_some() {
        belt_invariants(data, state, &mut out);
    } else {
        moon_outposts(state, &mut out);
    }
    let shape = state.station_shape(data);
    for c in Company::ALL {
        for (i, col) in state.stations[c.index()].iter().enumerate() {
            if col.outposts > col.base_in(shape.spaces[i]) {
                out.push(format!(
                    "{} column {} holds {} pieces above its lowest usable space",
                    c.id(),
                    i + 1,
                    col.outposts
                ));
            }
        }
    }
    if let Some(t) = &state.threat {
        if t.removed_by.is_some() == t.on_board {
            out.push("the threat card is both on the board and removed (or neither)".to_string());
        }
    }
    cards_and_seats(data, state, &mut out);
    out
}

/// 15 outposts per company on the Moon: station + board + removed from the game + ousted ones on
/// their way home during an expansion.
fn moon_outposts(state: &GameState, out: &mut Vec<String>) {
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
}

/// On the Belt: 12 outposts and 5 shuttles per company, conserved (station, Belt, removed from
/// the game, ousted on their way home).
fn belt_invariants(data: &GameData, state: &GameState, out: &mut Vec<String>) {
    let Some(belt) = &state.belt else { return };
    let shape = state.station_shape(data);
    let want_outposts: u32 = shape
        .outpost_columns
        .iter()
        .map(|i| shape.spaces[*i] as u32)
        .sum();
    let want_shuttles: u32 = shape
        .shuttle_column
        .map(|i| shape.spaces[i] as u32)
        .unwrap_or(0);
    for c in Company::ALL {
        let (mut outposts_moving, mut shuttles_moving) = (0u32, 0u32);
        for t in &state.agenda {
            match t {
                Task::ReturnOusted { company, .. } if *company == c => outposts_moving += 1,
                Task::Expand { entered, .. } => {
                    for (target, o) in entered {
                        if *o == Some(c) {
                            if engine::belt::is_shuttle_space(data, *target) {
                                shuttles_moving += 1;
                            } else {
                                outposts_moving += 1;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let outposts = state.outposts_in_station(c)
            + belt.outposts_of(c)
            + state.removed_outposts[c.index()] as u32
            + outposts_moving;
        if outposts != want_outposts {
            out.push(format!(
                "{} has {outposts} outposts, not {want_outposts}",
                c.id()
            ));
        }
        let shuttles = state.shuttles_in_station(c)
            + belt.shuttles_of(c)
            + belt.removed_shuttles[c.index()] as u32
            + shuttles_moving;
        if shuttles != want_shuttles {
            out.push(format!(
                "{} has {shuttles} shuttles, not {want_shuttles}",
                c.id()
            ));
        }
    }
    if state.sectors.iter().any(Option::is_some) {
        out.push("an outpost stands in a Moon sector on the Belt side".to_string());
    }
}

fn cards_and_seats(data: &GameData, state: &GameState, out: &mut Vec<String>) {
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
        // DECISIONS A17: the upload marker stands on the starting research token from setup, so
        // no plan covers it (engine version 5 on); the policy only aims at legal screens.
        if state.engine_version >= 5
            && s.token.is_some()
            && state.phase != Phase::Setup
            && s.research
                .first()
                .is_some_and(|p| p.is_some_and(|p| p.plan != engine::state::PlanRef::Token))
        {
            out.push(format!(
                "seat {i}: a plan covers the starting research token"
            ));
        }
        let personal: Vec<engine::state::Marker> = state
            .seats
            .iter()
            .filter_map(|x| x.mission.as_ref().and_then(|m| m.personal))
            .collect();
        let placed = state
            .bonus_spaces
            .iter()
            .chain(state.track_bonus_spaces.iter())
            .flatten()
            .chain(personal.iter())
            .filter(|m| m.seat == i && !m.one_time)
            .count();
        if placed + s.markers_reserve as usize != s.markers_total as usize {
            out.push(format!("seat {i}'s bonus markers do not add up"));
        }
        if let Some(m) = &s.mission {
            if s.is_luna() {
                out.push("Luna has a mission status card".to_string());
            }
            if (m.one_time_reserve + m.one_time_placed) as u32 != m.markers_gone() {
                out.push(format!("seat {i}'s one-time bonus markers do not add up"));
            }
            if let Some(p) = m.personal {
                if p.seat != i {
                    out.push(format!(
                        "another seat's marker on seat {i}'s personal space"
                    ));
                }
            }
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
}

/// Changes every other seat's hidden cards and checks each seat's view stays byte-identical.
pub fn view_leaks(data: &GameData, state: &GameState) -> Vec<String> {
    let mut out = Vec::new();
    // Once the game is over the final scores are public, and they count the shares in hand.
    if state.phase == Phase::Finished {
        return out;
    }
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

/// A game played to its end by computer players, and how long each seat thought.
pub struct BotGame {
    pub state: GameState,
    /// Per seat, the time of each decision it thought about (forced ones are not counted).
    pub thinking: Vec<Vec<std::time::Duration>>,
    /// Every decision of the game in order, with its seat.
    pub decisions: Vec<(usize, Decision)>,
}

/// Plays a game with `options` where human seat `i` is played at `players[i]` with `budget`;
/// each seat thinks with its own generator, drawn from `seed`.
pub fn play_bots(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    seed: u64,
) -> Result<BotGame, String> {
    let mut state =
        engine::new_game(data, options, &seat_names(options.players)).map_err(|e| e.to_string())?;
    let mut rngs: Vec<ChaCha8Rng> = (0..state.seats.len())
        .map(|i| ChaCha8Rng::seed_from_u64(seed ^ 0x0b07 ^ ((i as u64) << 40)))
        .collect();
    let mut thinking = vec![Vec::new(); state.seats.len()];
    let mut decisions = Vec::new();
    let mut steps = 0;
    while state.phase != Phase::Finished {
        steps += 1;
        if steps > 20_000 {
            return Err("the game did not finish".to_string());
        }
        let seat = *engine::waiting_on(&state).first().ok_or("nobody to move")?;
        let (level, budget) = *players.get(seat).ok_or("a seat without a player")?;
        let started = std::time::Instant::now();
        let d = bots::decide(level, data, &state, seat, &mut rngs[seat], budget)
            .ok_or("no legal decision")?;
        if engine::legal_decisions(data, &state, seat).len() > 1 {
            thinking[seat].push(started.elapsed());
        }
        engine::apply(data, &mut state, seat, d).map_err(|e| e.to_string())?;
        decisions.push((seat, d));
    }
    Ok(BotGame {
        state,
        thinking,
        decisions,
    })
}

/// Plays one solo game (the human seat played by the easy computer player) against Luna at
/// `level`; returns (human score, Luna score).
pub fn solo_vs_luna(data: &GameData, level: u8, seed: u64) -> Result<(u32, u32), String> {
    let options = GameOptions {
        players: 1,
        luna: Some(level),
        seed,
        ..GameOptions::default()
    };
    let game = play_bots(data, &options, &[(Level::Easy, Budget::playouts(1))], seed)?;
    let scores = engine::final_scores(data, &game.state);
    let human = scores.first().map(|s| s.total).unwrap_or(0);
    let luna = scores.last().map(|s| s.total).unwrap_or(0);
    Ok((human, luna))
}

/// One game of a match, by player: win shares, final scores, Luna's win share and final score,
/// thinking times.
type GameResult = (
    Vec<f64>,
    Vec<engine::ScoreBreakdown>,
    f64,
    Option<engine::ScoreBreakdown>,
    Vec<Vec<std::time::Duration>>,
);

/// Plays `games` seeded games (game `i` uses seed `options.seed + i`) between `players`, who
/// change seats from game to game so no one always starts; spread over `threads` threads.
pub fn bot_match(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    games: usize,
    threads: usize,
) -> Result<MatchReport, String> {
    let n = players.len();
    let play = |g: usize| -> Result<GameResult, String> {
        let game = play_match_game(data, options, players, g)?;
        let breakdown = engine::final_scores(data, &game.state);
        let scores: Vec<u32> = breakdown.iter().map(|s| s.total).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = scores.iter().filter(|s| **s == best).count() as f64;
        let share = |seat: usize| {
            if scores[seat] == best {
                1.0 / winners
            } else {
                0.0
            }
        };
        let seat_of = |p: usize| (p + g) % n;
        let wins = (0..n).map(|p| share(seat_of(p))).collect();
        let own = (0..n).map(|p| breakdown[seat_of(p)].clone()).collect();
        let luna = if scores.len() > n {
            (share(n), breakdown.get(n).cloned())
        } else {
            (0.0, None)
        };
        let think = (0..n).map(|p| game.thinking[seat_of(p)].clone()).collect();
        Ok((wins, own, luna.0, luna.1, think))
    };
    let results = in_threads(games, threads, play);
    let mut report = MatchReport {
        players: players.iter().map(|(l, b)| b.describe(*l)).collect(),
        games,
        wins: vec![0.0; n],
        mean_score: vec![0.0; n],
        points_from: vec![BTreeMap::new(); n],
        ..MatchReport::default()
    };
    let mut think: Vec<Vec<std::time::Duration>> = vec![Vec::new(); n];
    let per_game = 1.0 / games.max(1) as f64;
    let add = |into: &mut BTreeMap<String, f64>, score: &engine::ScoreBreakdown| {
        for (what, points) in points_by_company(score) {
            *into.entry(what).or_default() += points as f64 * per_game;
        }
    };
    for r in results {
        let (wins, own, luna_win, luna_score, t) = r?;
        for p in 0..n {
            report.wins[p] += wins[p];
            report.mean_score[p] += own[p].total as f64 * per_game;
            add(&mut report.points_from[p], &own[p]);
            think[p].extend(&t[p]);
        }
        report.luna_wins += luna_win;
        if let Some(luna) = luna_score {
            report.luna_mean_score += luna.total as f64 * per_game;
            add(&mut report.luna_points_from, &luna);
        }
    }
    let percentile = |v: &mut Vec<std::time::Duration>, q: f64| -> f64 {
        v.sort_unstable();
        let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len().max(1)) - 1;
        v.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    for t in think.iter_mut() {
        report.think_p50_ms.push(percentile(t, 0.5));
        report.think_p99_ms.push(percentile(t, 0.99));
    }
    Ok(report)
}

/// Game `g` of a match: seed `options.seed + g`, player p in seat (p + g) % n, so no player
/// always starts.
fn play_match_game(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    g: usize,
) -> Result<BotGame, String> {
    let n = players.len();
    let seed = options.seed + g as u64;
    let seated: Vec<(Level, Budget)> = (0..n).map(|s| players[(s + n - g % n) % n]).collect();
    play_bots(
        data,
        &GameOptions {
            seed,
            ..options.clone()
        },
        &seated,
        seed,
    )
}

/// A spread of numbers: count, mean, standard deviation and quantiles.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct Distribution {
    pub count: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub p10: f64,
    pub p50: f64,
    pub p90: f64,
    pub max: f64,
}

impl Distribution {
    pub fn of(values: &[f64]) -> Distribution {
        if values.is_empty() {
            return Distribution::default();
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        let mean = sorted.iter().sum::<f64>() / n;
        let var = sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
        Distribution {
            count: sorted.len(),
            mean,
            sd: var.sqrt(),
            min: sorted[0],
            p10: q(0.1),
            p50: q(0.5),
            p90: q(0.9),
            max: sorted[sorted.len() - 1],
        }
    }
}

/// Games played and won (a shared first place counts as a share of a win) by the players who
/// had something in common.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct WinRate {
    pub players: usize,
    pub wins: f64,
    pub win_rate: f64,
}

impl WinRate {
    fn add(&mut self, win: f64) {
        self.players += 1;
        self.wins += win;
        self.win_rate = self.wins / self.players as f64;
    }
}

/// The balance report (`skymines simulate --bots LEVEL --players P --stats`): what seeded games
/// between computer players looked like. Every rate is over player seats (Luna, when she
/// plays, only takes wins away); `fair_share` is what a rate would be with no advantage.
#[derive(Debug, Clone, Serialize, Default)]
pub struct BalanceReport {
    pub games: usize,
    /// Seats in a game, Luna included.
    pub seats: usize,
    /// 1 / seats.
    pub fair_share: f64,
    /// Final scores of the player seats.
    pub score: Distribution,
    /// The winners' scores.
    pub winning_score: Distribution,
    /// Mean points per player seat by scoring category (cash, shares, tank, research); they
    /// add up to the mean score.
    pub points_from: BTreeMap<String, f64>,
    /// Luna's mean points a game by the same categories (empty when she does not play): where
    /// she outscores the players.
    pub luna_points_from: BTreeMap<String, f64>,
    /// Luna's mean final score (0 when she does not play).
    pub luna_score: f64,
    pub rounds: Distribution,
    /// Decisions a game (every small choice, all seats).
    pub decisions: Distribution,
    /// Turns (actions taken, drop-outs included) per player seat and game.
    pub turns: Distribution,
    /// Mean per player seat and game of each kind of turn action, and of cards bought, plans
    /// taken and sectors entered inside actions.
    pub action_mix: BTreeMap<String, f64>,
    /// By seat in clockwise order from the first player of round 1.
    pub by_seat: Vec<WinRate>,
    /// By starting research token.
    pub by_token: BTreeMap<String, WinRate>,
    /// By company focus: the company a player's share points came most from.
    pub by_focus: BTreeMap<String, WinRate>,
    /// By the track of the focus company: "A1 (skymine)".
    pub by_focus_track: BTreeMap<String, WinRate>,
}

/// A final score by scoring category: cash, shares (all companies), tank, research.
fn points_by_category(score: &engine::ScoreBreakdown) -> [(&'static str, u32); 4] {
    let shares = score.companies.iter().map(|c| c.points).sum();
    [
        ("cash", score.cash),
        ("shares", shares),
        ("tank", score.tank),
        ("research", score.research),
    ]
}

/// The turn action (or counted step inside one) a decision is, for the action mix.
fn action_kind(d: &Decision) -> Option<&'static str> {
    Some(match d {
        Decision::UseResources { .. } => "use resources",
        Decision::UseEnergy => "use energy",
        Decision::UseResearch { .. } => "use research scientist",
        Decision::UseField { .. } => "use field scientist",
        Decision::PlaceBonus { .. } => "place bonus marker",
        Decision::DropOut => "drop out",
        Decision::BuyCard { .. } => "cards bought",
        Decision::TakePlan { .. } | Decision::TakeSpecial { .. } => "plans taken",
        Decision::EnterSector { .. } | Decision::ExpandInto { .. } => "sectors entered",
        _ => return None,
    })
}

/// Whether a kind of `action_kind` is a turn (the rest are steps inside one).
fn is_turn(kind: &str) -> bool {
    !matches!(kind, "cards bought" | "plans taken" | "sectors entered")
}

/// Plays `games` seeded games between `players` (seated as in [`bot_match`]) and reports the
/// balance figures.
pub fn balance(
    data: &GameData,
    options: &GameOptions,
    players: &[(Level, Budget)],
    games: usize,
    threads: usize,
) -> Result<BalanceReport, String> {
    let results = in_threads(games, threads, |g| {
        play_match_game(data, options, players, g)
    });
    let n = players.len();
    let mut report = BalanceReport {
        games,
        by_seat: vec![WinRate::default(); n],
        ..BalanceReport::default()
    };
    let (mut scores, mut winning, mut rounds, mut decisions, mut turns) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut from: BTreeMap<String, f64> = BTreeMap::new();
    let mut mix: BTreeMap<String, f64> = BTreeMap::new();
    for r in results {
        let game = r?;
        let state = &game.state;
        report.seats = state.seats.len();
        let final_scores = engine::final_scores(data, state);
        let best = final_scores.iter().map(|s| s.total).max().unwrap_or(0);
        let sharing = final_scores.iter().filter(|s| s.total == best).count() as f64;
        winning.push(best as f64);
        rounds.push(state.round as f64);
        decisions.push(game.decisions.len() as f64);
        for (seat, score) in final_scores.iter().enumerate() {
            if state.seats[seat].is_luna() {
                report.luna_score += score.total as f64 / games as f64;
                for (what, points) in points_by_category(score) {
                    *report.luna_points_from.entry(what.to_string()).or_default() +=
                        points as f64 / games as f64;
                }
                continue;
            }
            let win = if score.total == best {
                1.0 / sharing
            } else {
                0.0
            };
            scores.push(score.total as f64);
            for (what, points) in points_by_category(score) {
                *from.entry(what.to_string()).or_default() += points as f64;
            }
            report.by_seat[seat].add(win);
            let s = &state.seats[seat];
            if let Some(token) = s.token.and_then(|t| data.research.starting_tokens.get(t)) {
                report
                    .by_token
                    .entry(token.id.clone())
                    .or_default()
                    .add(win);
            }
            if let Some(focus) = score
                .companies
                .iter()
                .filter(|c| c.points > 0)
                .max_by_key(|c| c.points)
            {
                let track = &data.tracks.tracks[state.tracks[focus.company.index()]];
                let company = focus.company.id();
                report
                    .by_focus
                    .entry(company.to_string())
                    .or_default()
                    .add(win);
                report
                    .by_focus_track
                    .entry(format!("{} ({company})", track.id))
                    .or_default()
                    .add(win);
            }
            let mut own_turns = 0.0;
            for kind in game
                .decisions
                .iter()
                .filter(|(by, _)| *by == seat)
                .filter_map(|(_, d)| action_kind(d))
            {
                *mix.entry(kind.to_string()).or_default() += 1.0;
                if is_turn(kind) {
                    own_turns += 1.0;
                }
            }
            turns.push(own_turns);
        }
    }
    let per_player = (games * n).max(1) as f64;
    report.fair_share = 1.0 / report.seats.max(1) as f64;
    report.score = Distribution::of(&scores);
    report.winning_score = Distribution::of(&winning);
    report.rounds = Distribution::of(&rounds);
    report.decisions = Distribution::of(&decisions);
    report.turns = Distribution::of(&turns);
    report.points_from = from.into_iter().map(|(k, v)| (k, v / per_player)).collect();
    report.action_mix = mix.into_iter().map(|(k, v)| (k, v / per_player)).collect();
    Ok(report)
}
