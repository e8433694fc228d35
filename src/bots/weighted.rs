//! The self-play policy: a weighted random choice among the legal decisions, biased toward
//! moves that push a game into its late rules (research, entering sectors, the modules' goals).
//! It drives the invariant harness (`sim`) and the rollouts of the stronger players; it reads the
//! state it is given, so players hand it a sample of what their seat knows, never the real game.

use crate::data::{CardId, GameData};
use crate::engine::state::{GameState, SlotCard};
use crate::engine::{self, Decision, Task};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

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
            f.ready = asks_for_track_values(card) && !f.research && !f.tank;
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
    /// Plans in the chain.
    plans: usize,
}

impl ResearchChain {
    fn of(data: &GameData, state: &GameState, seat: usize, pool: &CardPool) -> ResearchChain {
        let s = &state.seats[seat];
        let mut chain = ResearchChain {
            requirements: Vec::new(),
            blocked_at: None,
            plans: 0,
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
            chain.plans += 1;
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

/// How many plans ahead of the upload marker the seat's own cards could carry it through in one
/// research scientist action (the specialist's chain; an estimate, not a rule).
pub(crate) fn plans_within_reach(data: &GameData, state: &GameState, seat: usize) -> usize {
    let pool = CardPool::of(data, &state.seats[seat]);
    ResearchChain::of(data, state, seat, &pool).plans
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

pub(crate) fn research_reach_with(
    data: &GameData,
    state: &GameState,
    seat: usize,
    extra: &[CardId],
) -> i32 {
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

/// The first tank step scoring at least `value`.
pub(crate) fn tank_step_for(data: &GameData, value: u32) -> Option<usize> {
    let steps = &data.player_board.tank_track.score_by_step;
    steps.iter().position(|v| *v >= value)
}

/// The first research screen scoring at least `value`.
pub(crate) fn research_screen_for(data: &GameData, value: u32) -> Option<usize> {
    let screens = &data.player_board.research_track.score_by_screen;
    screens.iter().position(|v| *v >= value)
}

/// The energy points on these cards.
pub(crate) fn energy_points(data: &GameData, cards: &[CardId]) -> u32 {
    let defs = cards.iter().map(|c| data.card(*c));
    defs.filter(|d| d.is_energy()).map(|d| d.value).sum()
}

/// Whether a threat card asks for a tank or research value (hard to reach by chance).
pub(crate) fn asks_for_track_values(card: &crate::data::threats::ThreatCard) -> bool {
    use crate::data::threats::ThreatRequirement as R;
    card.requirement
        .iter()
        .flat_map(|r| r.flatten())
        .any(|r| matches!(r, R::TankValuePassed { .. } | R::ResearchValuePassed { .. }))
}
