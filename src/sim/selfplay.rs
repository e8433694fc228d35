//! Seeded self-play through the legal decisions, with the invariant checks after every decision:
//! the harness behind `skymines simulate`, the invariant tests and the speed benchmark (single
//! games, and whole 4-chapter campaigns).

use super::checks::{invariants, view_leaks};
use super::threat_tries::{threat_progress, threat_specialist};
use crate::bots::weighted::choose;
use crate::data::GameData;
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision, GameOptions};
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
                    // A try that removed the card cannot be beaten (the first best is kept):
                    // the tries after it would change nothing.
                    if best.0 == u64::MAX {
                        break;
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
            // Counted without a new String once the note is known.
            if let Some(count) = report.decision_coverage.get_mut(n) {
                *count += 1;
            } else {
                report.decision_coverage.insert(n.to_string(), 1);
            }
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
