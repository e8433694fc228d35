//! Seeded self-play through the legal decisions, with invariant checks after every decision:
//! the harness behind `skymines simulate`, the invariant tests and the speed benchmark. With a
//! threat card that asks for high track values, one seat gets the best of several tries of each
//! round (`play_one`), so even those cards get removed in self-play.

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
    let first_empty = first_empty_screen(s);
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
    let modules = (state.threat.is_some() || state.missions.is_some())
        .then(|| ModuleFocus::of(data, state, seat, options));
    let base_weight = |d: &Decision| match d {
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
    let weight = |d: &Decision| match &modules {
        Some(f) => f.weight(data, state, seat, d, base_weight(d)),
        None => base_weight(d),
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

/// What the self-play policy works toward in games with modules: the threat card's requirement
/// (so the threat gets removed in self-play too) and the open mission tasks. Only used when a
/// module is in play, so the basic game's self-play is unchanged.
struct ModuleFocus {
    /// The threat is on the board and this seat does not meet its requirement in these parts.
    research: bool,
    tank: bool,
    energy: bool,
    coins: bool,
    hand_energy: bool,
    /// The threat is on the board (head for its shuttle spaces).
    threat: bool,
    /// The seat meets the threat's track requirements: reach the card with energy now.
    ready: bool,
    /// Research screens still to pass for the threat's research value.
    research_need: Option<i32>,
    /// Open mission task metrics of this seat.
    tasks: Vec<crate::data::missions::Metric>,
    /// The research specialist's cards and plan chain (only when `research`), worked out once
    /// per choice rather than once per weighed option.
    chain: Option<(CardPool, ResearchChain)>,
    /// The research specialist's best cards to plan (only when `research` and planning).
    research_plan: Option<Vec<CardId>>,
    /// The screen where a legal placement covers the first plan the chain cannot pass.
    cover: Option<u8>,
}

impl ModuleFocus {
    fn of(data: &GameData, state: &GameState, seat: usize, options: &[Decision]) -> ModuleFocus {
        use crate::data::threats::ThreatRequirement as R;
        let s = &state.seats[seat];
        let mut f = ModuleFocus {
            research: false,
            tank: false,
            energy: false,
            coins: false,
            hand_energy: false,
            threat: false,
            ready: false,
            research_need: None,
            research_plan: None,
            tasks: Vec::new(),
            chain: None,
            cover: None,
        };
        if let Some(card) = engine::threats::on_board(data, state) {
            f.threat = true;
            for r in card.requirement.iter().flat_map(|r| r.flatten()) {
                match r {
                    R::TankValuePassed { value } => {
                        f.tank |= engine::threats::tank_value(data, s.tank) < *value
                    }
                    R::ResearchValuePassed { value } => {
                        f.research |= engine::threats::research_value(data, s.upload) < *value;
                        let at = s.upload.map_or(-1, |u| u as i32);
                        f.research_need = research_screen_for(data, *value)
                            .map(|t| t as i32 - at)
                            .filter(|n| *n > 0);
                    }
                    R::SpendExtraEnergy { .. } => f.energy = true,
                    R::PayCoins { n } => f.coins |= s.coins < *n + 2,
                    R::DiscardEnergyCardsFromHand { .. } => f.hand_energy = true,
                    R::AllOf { .. } => {}
                }
            }
            f.ready = round_tries(card).is_some() && !f.research && !f.tank;
        }
        if let (Some(ms), Some(m)) = (&state.missions, &s.mission) {
            for card in &ms.face_up {
                if m.card.is_some_and(|c| c != *card) {
                    continue;
                }
                if let Some(c) = data.missions.card(*card) {
                    for t in &c.tasks {
                        if !m
                            .fulfilled
                            .get(t.column.wrapping_sub(1))
                            .copied()
                            .unwrap_or(true)
                        {
                            f.tasks.push(t.condition.metric);
                        }
                    }
                }
            }
            use crate::data::missions::Metric as M;
            // Both additional slots: the tank's and the research track's ON switches.
            if f.tasks.contains(&M::SwitchedOnAdditionalSlots) {
                let pb = &data.player_board;
                f.tank |= (s.tank as u32) < pb.tank_track.on_step;
                f.research |= s
                    .upload
                    .is_none_or(|u| (u as u32) < pb.research_track.on_screen);
            }
            f.tank |= f.tasks.contains(&M::TankSpacesMoved);
        }
        if f.research {
            let pool = CardPool::of(data, s);
            let chain = ResearchChain::of(data, state, seat, &pool);
            f.cover = chain.blocked_at.filter(|b| {
                options
                    .iter()
                    .any(|d| matches!(d, Decision::PlacePlan { screen, .. } if screen == b))
            });
            f.chain = Some((pool, chain));
            if options
                .iter()
                .any(|d| matches!(d, Decision::PlanCard { .. } | Decision::PlanDone))
            {
                f.research_plan = Some(best_research_plan(
                    data,
                    state,
                    seat,
                    f.tank,
                    f.research_need,
                ));
            }
        }
        f
    }

    fn wants(&self, m: crate::data::missions::Metric) -> bool {
        self.tasks.contains(&m)
    }

    /// The weight of a decision for this seat, given the basic policy's weight.
    fn weight(
        &self,
        data: &GameData,
        state: &GameState,
        seat: usize,
        d: &Decision,
        base: u32,
    ) -> u32 {
        use crate::data::missions::Metric as M;
        let card_kind = |c: CardId| {
            let def = data.card(c);
            (
                def.is_research_scientist(),
                def.is_field_scientist(),
                def.is_energy(),
                def.resource(),
            )
        };
        match d {
            Decision::ClaimTask { .. } => 60,
            Decision::EndClaims => 1,
            Decision::DealWithThreat => 200,
            Decision::UseResearch { .. } if self.research => 150,
            Decision::UseResearch { .. } if self.wants(M::ResearchPlansOnTrack) => 60,
            Decision::UseField { .. } if self.tank => 150,
            Decision::UseField { .. } if self.wants(M::TankSpacesMoved) => 60,
            Decision::UseEnergy if self.ready => 400,
            Decision::UseEnergy if self.threat || self.wants(M::PiecesPlacedFromStation) => 20,
            Decision::UseResources { .. }
                if self.tank && field_scientist_on_display(data, state) =>
            {
                base + 30
            }
            Decision::TakePlan { space } if self.research => {
                // Only plans the seat's own cards can chain with the plans already ahead of
                // its upload marker; an A plan may not go on an empty crossed-out-A screen.
                let Some(plan) = state
                    .research_display
                    .get(*space as usize)
                    .copied()
                    .flatten()
                else {
                    return 1;
                };
                let Some((pool, chain)) = &self.chain else {
                    return base;
                };
                let plan = &data.research.plans[plan as usize];
                let crossed = chain.blocked_at.is_none()
                    && first_empty_screen(&state.seats[seat])
                        .is_some_and(|i| crossed_out_a(data, i));
                if plan.letter == 'A' && crossed {
                    1
                } else if chain.fits(pool, &plan.requirements) {
                    300
                } else {
                    2
                }
            }
            Decision::PlacePlan { screen, .. } if self.research => {
                // Cover the first plan the seat's cards cannot chain (still unreached), else
                // fill the first empty screen.
                match self.cover {
                    Some(cover) if cover == *screen => 400,
                    Some(_) => 0,
                    // (The basic policy's weight already prefers the first empty screen.)
                    None => base * base,
                }
            }
            Decision::FlipPlan { screen } if self.research => {
                // Flip the first plan the face-up cards cannot enter: it opens the way on.
                let s = &state.seats[seat];
                let next = s.upload.map(|u| u as usize + 1).unwrap_or(0);
                let first_closed = next + research_reach(data, state, seat, None).max(0) as usize;
                if *screen as usize == first_closed {
                    300
                } else {
                    0
                }
            }
            Decision::Advance if self.research => 200,
            Decision::TakeRestingDeck { slot } if self.research || self.tank => {
                let deck = &state.seats[seat].resting[*slot as usize];
                let useful = deck.iter().any(|c| {
                    let (rs, fs, _, _) = card_kind(*c);
                    (rs && self.research) || (fs && self.tank)
                });
                // A specialist needs its scientists back, and as many cards as it can get to
                // plan around them.
                base + if useful { 60 } else { 0 } + 15 * deck.len() as u32
            }
            Decision::TakePlan { space } if self.wants(M::TankSpacesMoved) => {
                // A plan whose reward moves the tank far.
                let tank: u32 = state
                    .research_display
                    .get(*space as usize)
                    .copied()
                    .flatten()
                    .map(|p| {
                        data.research.plans[p as usize]
                            .reward
                            .iter()
                            .map(|r| match r {
                                crate::data::Reward::Tank { n } => *n,
                                _ => 0,
                            })
                            .sum()
                    })
                    .unwrap_or(0);
                base + 30 * tank
            }
            Decision::TakePlan { .. }
                if self.wants(M::ResearchPlansOnTrack)
                    || self.wants(M::SwitchedOnAdditionalSlots) =>
            {
                30
            }
            Decision::TakeSpecial { .. } if self.research => {
                // A special plan asks coins, not cards, and may go where A plans may not: the
                // way past the crossed-out-A screens.
                if first_empty_screen(&state.seats[seat]).is_some_and(|i| crossed_out_a(data, i)) {
                    250
                } else {
                    30
                }
            }
            Decision::TakeSpecial { .. } if self.wants(M::SpecialPlansOnTrack) => 60,
            Decision::TakeCoin if self.research => {
                // Coins flip a blocking plan (2 each); better than a plan that does not fit.
                let Some((pool, chain)) = &self.chain else {
                    return base;
                };
                let any_fits = state
                    .research_display
                    .iter()
                    .flatten()
                    .any(|p| chain.fits(pool, &data.research.plans[*p as usize].requirements));
                if any_fits {
                    1
                } else {
                    40
                }
            }
            Decision::PlanCard { card, .. } if self.research => {
                if self
                    .research_plan
                    .as_ref()
                    .is_some_and(|p| p.contains(card))
                {
                    1000
                } else {
                    1
                }
            }
            Decision::PlanDone if self.research => {
                let best = self.research_plan.as_deref().unwrap_or_default();
                let s = &state.seats[seat];
                if best.iter().all(|c| !s.hand.contains(c)) {
                    1000
                } else {
                    1
                }
            }
            Decision::PlanCard { card, .. } => {
                // (A research-focused seat plans by `best_research_plan` above.)
                let (_, fs, en, res) = card_kind(*card);
                if fs && self.tank {
                    base + 80
                } else if fs && self.wants(M::TankSpacesMoved) {
                    base + 40
                } else if en && self.ready {
                    base + 200
                } else if en && self.hand_energy {
                    1
                } else if en && (self.energy || self.wants(M::FaceUpEnergyPoints)) {
                    base + 20
                } else if res.is_some()
                    && (self.wants(M::FaceUpMaxUnitsOneType) || self.wants(M::FaceUpUnitsTwoTypes))
                {
                    let planned: u32 = state.seats[seat]
                        .slots
                        .iter()
                        .flatten()
                        .filter(|c| data.card(c.card()).resource() == res)
                        .map(|c| data.card(c.card()).value)
                        .sum();
                    base + 10 + 10 * planned.min(4)
                } else {
                    base
                }
            }
            Decision::NoBuy
                if self.wants(M::CompanyTrackSpacesMoved)
                    && matches!(state.agenda.last(), Some(Task::BuyWithUnits { units, .. }) if *units >= 5) =>
            {
                200
            }
            Decision::BuyCard { space } => {
                let Some(Some(card)) = state.display.get(*space as usize - 1) else {
                    return base;
                };
                let (rs, fs, en, res) = card_kind(*card);
                if (fs && self.tank) || (rs && self.research) {
                    base + 200
                } else if res.is_some()
                    && (self.wants(M::FaceUpUnitsTwoTypes) || self.wants(M::FaceUpMaxUnitsOneType))
                    && data.card(*card).value >= 3
                {
                    base + 100
                } else if en && (self.energy || self.hand_energy) {
                    base + 30
                } else if self.research && (en || res.is_some()) {
                    // More and bigger cards to meet research plans with.
                    base + 20 * data.card(*card).value
                } else {
                    base
                }
            }
            Decision::ChooseCompany { company }
                if matches!(state.agenda.last(), Some(Task::ChooseExpansion { .. })) =>
            {
                let shuttle = state.belt.as_ref().is_some_and(|b| {
                    data.threats
                        .module
                        .reach
                        .shuttle_on
                        .iter()
                        .any(|sp| b.shuttle_on(data, *sp) == Some(*company))
                });
                if self.ready && shuttle {
                    base + 1000
                } else if self.threat && shuttle {
                    base + 60
                } else {
                    base
                }
            }
            Decision::EnterBelt { target, space, .. } => {
                let t = *target as u32;
                let Some(Task::Expand { company, .. }) = state.agenda.last() else {
                    return base;
                };
                let belt = state.belt.as_ref();
                let (gas, occupied) = match engine::belt::target(data, t) {
                    Some(engine::belt::Target::Asteroid(a)) => (
                        if belt.is_some_and(|b| b.has_outpost(a, *company)) {
                            0
                        } else {
                            data.belt.asteroids[a]
                                .reward
                                .iter()
                                .map(|r| match r {
                                    crate::data::Structure::GasCollector { n } => *n,
                                    _ => 0,
                                })
                                .sum()
                        },
                        belt.and_then(|b| b.outposts[a].get(*space as usize).copied().flatten())
                            .is_some(),
                    ),
                    Some(engine::belt::Target::Shuttle(p)) => {
                        (0, belt.and_then(|b| b.shuttles[p]).is_some())
                    }
                    None => (0, false),
                };
                let reach = &data.threats.module.reach.shuttle_on;
                let mut w = base;
                if self.threat && reach.contains(&t) {
                    w += 40;
                } else if self.threat
                    && reach
                        .iter()
                        .filter_map(|sp| data.belt.flight_path(*sp))
                        .any(|p| p.ends.contains(&t))
                {
                    w += 15;
                }
                if self.tank {
                    w += 20 * gas;
                }
                if occupied && self.wants(M::PiecesOusted) {
                    w += 30;
                }
                w
            }
            Decision::EnterSector { sector, .. } | Decision::ExpandInto { sector } => {
                let Some(s) = data.moon.sector(*sector as u32) else {
                    return base;
                };
                let gas: u32 = s
                    .structures
                    .iter()
                    .map(|r| match r {
                        crate::data::Structure::GasCollector { n } => *n,
                        _ => 0,
                    })
                    .sum();
                let occupied = state
                    .sectors
                    .get(*sector as usize - 1)
                    .copied()
                    .flatten()
                    .is_some();
                let mut w = base;
                if self.tank {
                    w += 20 * gas;
                }
                if occupied && self.wants(M::PiecesOusted) {
                    w += 30;
                }
                w
            }
            Decision::ChooseOption { option } if self.tank || self.research => {
                match state.agenda.last() {
                    Some(Task::ChooseRewards { options, .. }) => {
                        let gives = |r: &crate::data::Reward| match r {
                            crate::data::Reward::Tank { n } if self.tank => *n,
                            crate::data::Reward::ResearchPoints { n } if self.research => *n,
                            _ => 0,
                        };
                        let v: u32 = options
                            .get(*option as usize)
                            .map(|o| o.iter().map(gives).sum())
                            .unwrap_or(0);
                        base + 20 * v
                    }
                    _ => base,
                }
            }
            Decision::PlaceBonus { space } | Decision::PlaceOneTimeBonus { space } => {
                let id = match space {
                    crate::engine::BonusRef::Board(i) => data
                        .board
                        .bonus_spaces
                        .get(*i as usize)
                        .map(|b| b.id.as_str())
                        .unwrap_or(""),
                    _ => "",
                };
                match id {
                    "tile_field_scientist" if self.tank => base + 40,
                    // A research action without a card, and the spaces paying research points.
                    "tile_research_scientist" if self.research => base + 200,
                    "majority_scientist" if self.research => base + 100,
                    "first_player" if self.research => base + 60,
                    "tile_energy" if self.energy => base + 20,
                    _ => base,
                }
            }
            _ => base,
        }
    }
}

/// The research-focused planner: the hand cards (with what is already planned) that let a research
/// scientist enter the most plans in a row (no more than the `need`ed screens, and then with the
/// energy to reach the threat card); ties keep more cards, then more energy points and field
/// scientists when the tank is wanted too.
fn best_research_plan(
    data: &GameData,
    state: &GameState,
    seat: usize,
    tank: bool,
    need: Option<i32>,
) -> Vec<CardId> {
    let s = &state.seats[seat];
    let free: usize = (0..5)
        .filter(|i| s.slot_on[*i] && s.slots[*i].is_none())
        .count();
    let hand: Vec<CardId> = s
        .hand
        .iter()
        .copied()
        .filter(|c| data.card(*c).is_playable())
        .collect();
    let n = hand.len().min(12);
    let extra = |c: &CardId| {
        let def = data.card(*c);
        match () {
            _ if def.is_field_scientist() && tank => 10,
            _ if def.is_energy() => def.value,
            _ => 0,
        }
    };
    let planned: Vec<CardId> = s
        .slots
        .iter()
        .flatten()
        .filter(|c| !matches!(c, SlotCard::Used(_)))
        .map(|c| c.card())
        .collect();
    let planned_energy = energy_points(data, &planned);
    let mut best: (i32, bool, usize, u32, Vec<CardId>) = (-1, false, 0, 0, Vec::new());
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize > free {
            continue;
        }
        let chosen: Vec<CardId> = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| hand[i])
            .collect();
        let scientist = s
            .slots
            .iter()
            .flatten()
            .map(|c| c.card())
            .chain(chosen.iter().copied())
            .any(|c| data.card(c).is_research_scientist());
        let reach = if scientist {
            research_reach_with(data, state, seat, &chosen)
        } else {
            -1
        };
        let extras = chosen.iter().map(extra).sum();
        let reach = need.map_or(reach, |n| reach.min(n));
        let can_deal = need.is_some_and(|n| reach >= n)
            && planned_energy + energy_points(data, &chosen) >= data.threats.module.reach.energy;
        if (reach, can_deal, chosen.len(), extras) > (best.0, best.1, best.2, best.3) {
            best = (reach, can_deal, chosen.len(), extras, chosen);
        }
    }
    best.4
}

/// The first empty research screen ahead of the seat's upload marker.
fn first_empty_screen(seat: &crate::engine::state::Seat) -> Option<u8> {
    seat.research
        .iter()
        .enumerate()
        .skip(seat.upload.map(|u| u as usize + 1).unwrap_or(0))
        .find(|(_, p)| p.is_none())
        .map(|(i, _)| i as u8)
}

/// Whether research screen `screen` shows a crossed-out A (no A plan may go there empty).
fn crossed_out_a(data: &GameData, screen: u8) -> bool {
    data.player_board
        .research_track
        .crossed_out_a
        .screens
        .contains(&(screen as u32))
}

/// What entering a placed plan asks of the cards face up: nothing for a flipped plan or a
/// special plan (whose cost is paid in coins).
fn plan_requirements(
    data: &GameData,
    seat: &crate::engine::state::Seat,
    placed: &crate::engine::state::PlacedPlan,
) -> Vec<crate::data::Requirement> {
    use crate::engine::state::PlanRef;
    match (placed.face_down, placed.plan) {
        (true, _) | (_, PlanRef::Special(_)) => Vec::new(),
        (_, PlanRef::Token) => seat
            .token
            .map(|i| data.research.starting_tokens[i].plan_requirements.clone())
            .unwrap_or_default(),
        (_, PlanRef::Regular(id)) => data.research.plans[id as usize].requirements.clone(),
    }
}

/// The research specialist's view of its own cards: what it could show face up at best, to
/// carry the upload marker through a chain of plans in one research scientist action. (A
/// self-play estimate, not a rule: each plan is checked on its own, so a chain needs, per card
/// kind, the largest value any of its plans asks for.)
struct CardPool {
    /// Values of the owned carbon, minerals, titanium and energy cards, largest first.
    values: [Vec<u32>; 4],
    research_scientists: usize,
    field_scientists: usize,
    /// Action slots switched on.
    slots: usize,
}

/// Index of energy in `CardPool::values` (after the three resources).
const ENERGY: usize = 3;

impl CardPool {
    fn of(data: &GameData, seat: &crate::engine::state::Seat) -> CardPool {
        let mut pool = CardPool {
            values: Default::default(),
            research_scientists: 0,
            field_scientists: 0,
            slots: seat.slot_on.iter().filter(|on| **on).count(),
        };
        // The cards it can plan next: hand, action area and its largest resting deck (a
        // drop-out takes one deck back).
        let largest_deck = seat.resting.iter().max_by_key(|d| d.len());
        let cards = seat
            .hand
            .iter()
            .copied()
            .chain(seat.slots.iter().flatten().map(|c| c.card()))
            .chain(largest_deck.into_iter().flatten().copied());
        for card in cards {
            let def = data.card(card);
            if let Some(r) = def.resource() {
                pool.values[r.index()].push(def.value);
            } else if def.is_energy() {
                pool.values[ENERGY].push(def.value);
            } else if def.is_research_scientist() {
                pool.research_scientists += 1;
            } else if def.is_field_scientist() {
                pool.field_scientists += 1;
            }
        }
        for v in &mut pool.values {
            v.sort_unstable_by(|a, b| b.cmp(a));
        }
        pool
    }

    /// The fewest cards of kind `kind` whose values reach `min`.
    fn cards_for(&self, kind: usize, min: u32) -> Option<usize> {
        if min == 0 {
            return Some(0);
        }
        let mut sum = 0;
        for (i, v) in self.values[kind].iter().enumerate() {
            sum += v;
            if sum >= min {
                return Some(i + 1);
            }
        }
        None
    }

    /// Action slots (the advancing research scientist included) that meet every requirement of
    /// `reqs` at once, or None when the seat's cards cannot or the slots do not suffice.
    fn slots_for(&self, reqs: &[crate::data::Requirement]) -> Option<usize> {
        use crate::data::Requirement as R;
        let mut need = [0u32; 4];
        let (mut research, mut field, mut either) = (0usize, 0usize, 0usize);
        let (mut four_of_one, mut three_carbon) = (false, false);
        for r in reqs {
            match *r {
                R::Carbon { min } => need[0] = need[0].max(min),
                R::Minerals { min } => need[1] = need[1].max(min),
                R::Titanium { min } => need[2] = need[2].max(min),
                R::Energy { min } => need[ENERGY] = need[ENERGY].max(min),
                R::ResearchScientist { min } => research = research.max(min as usize),
                R::FieldScientist { min } => field = field.max(min as usize),
                R::EitherScientist { min } => either = either.max(min as usize),
                R::FourOfOneType => four_of_one = true,
                R::ThreeCarbonThreeOfOneType => three_carbon = true,
                _ => {}
            }
        }
        // Scientists: the advancing one does not count; "either" takes spare field scientists
        // first, then spare research scientists.
        let spare_field = self.field_scientists.checked_sub(field)?;
        let spare_research = self.research_scientists.checked_sub(1 + research)?;
        let short = either.saturating_sub(research + field);
        if short > spare_field + spare_research {
            return None;
        }
        let scientists = 1 + research + field + short;
        let fours: &[Option<usize>] = if four_of_one {
            &[Some(0), Some(1), Some(2)]
        } else {
            &[None]
        };
        let threes: &[[u32; 3]] = if three_carbon {
            &[[6, 0, 0], [3, 3, 0], [3, 0, 3]]
        } else {
            &[[0, 0, 0]]
        };
        let mut best: Option<usize> = None;
        for four in fours {
            for three in threes {
                let mut n = need;
                if let Some(i) = four {
                    n[*i] = n[*i].max(4);
                }
                for (i, v) in three.iter().enumerate() {
                    n[i] = n[i].max(*v);
                }
                let cards: Option<usize> = (0..4).map(|k| self.cards_for(k, n[k])).sum();
                if let Some(c) = cards {
                    best = Some(best.map_or(c, |b| b.min(c)));
                }
            }
        }
        best.map(|c| c + scientists).filter(|n| *n <= self.slots)
    }
}

/// The research specialist's chain: the requirements of the unreached plans from the upload
/// marker on, as far as its cards can carry it in one action, and the first screen they cannot
/// (a plan there is worth covering with a better one).
struct ResearchChain {
    requirements: Vec<crate::data::Requirement>,
    blocked_at: Option<u8>,
}

impl ResearchChain {
    fn of(data: &GameData, state: &GameState, seat: usize, pool: &CardPool) -> ResearchChain {
        let s = &state.seats[seat];
        let mut chain = ResearchChain {
            requirements: Vec::new(),
            blocked_at: None,
        };
        let next = s.upload.map(|u| u as usize + 1).unwrap_or(0);
        for (screen, placed) in s.research.iter().enumerate().skip(next) {
            let Some(p) = placed else { break };
            let mut with = chain.requirements.clone();
            with.extend(plan_requirements(data, s, p));
            if pool.slots_for(&with).is_none() {
                chain.blocked_at = Some(screen as u8);
                break;
            }
            chain.requirements = with;
        }
        chain
    }

    /// Whether the chain, extended by a plan asking `reqs`, still fits the seat's cards.
    fn fits(&self, pool: &CardPool, reqs: &[crate::data::Requirement]) -> bool {
        let mut with = self.requirements.clone();
        with.extend_from_slice(reqs);
        pool.slots_for(&with).is_some()
    }
}

fn field_scientist_on_display(data: &GameData, state: &GameState) -> bool {
    state
        .display
        .iter()
        .flatten()
        .any(|c| data.card(*c).is_field_scientist())
}

/// How many plans in a row the upload marker could enter with the planned cards (plus `extra`),
/// a rough estimate for the self-play planner (bonuses ignored; not a rule).
fn research_reach(data: &GameData, state: &GameState, seat: usize, extra: Option<CardId>) -> i32 {
    let extra: Vec<CardId> = extra.into_iter().collect();
    research_reach_with(data, state, seat, &extra)
}

fn research_reach_with(data: &GameData, state: &GameState, seat: usize, extra: &[CardId]) -> i32 {
    use crate::engine::state::AreaTotals;
    let s = &state.seats[seat];
    let mut t = AreaTotals::default();
    // Cards used this round are face down: they meet nothing.
    for card in s
        .slots
        .iter()
        .flatten()
        .filter(|c| !matches!(c, SlotCard::Used(_)))
        .map(|c| c.card())
        .chain(extra.iter().copied())
    {
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
        if !plan_requirements(data, s, p).iter().all(|r| t.meets(r)) {
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
    let s = &state.seats[seat];
    let next = s.upload.map(|u| u as usize + 1).unwrap_or(0);
    s.research
        .iter()
        .skip(next)
        .take(2)
        .flatten()
        .flat_map(|p| plan_requirements(data, s, p))
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

/// The first tank step scoring at least `value`.
fn tank_step_for(data: &GameData, value: u32) -> Option<usize> {
    let steps = &data.player_board.tank_track.score_by_step;
    steps.iter().position(|v| *v >= value)
}

/// The first research screen scoring at least `value`.
fn research_screen_for(data: &GameData, value: u32) -> Option<usize> {
    let screens = &data.player_board.research_track.score_by_screen;
    screens.iter().position(|v| *v >= value)
}

/// The energy points on these cards.
fn energy_points(data: &GameData, cards: &[CardId]) -> u32 {
    let defs = cards.iter().map(|c| data.card(*c));
    defs.filter(|d| d.is_energy()).map(|d| d.value).sum()
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
