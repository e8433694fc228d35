//! A decision's preview: what choosing it would do for the seat, computed by the rules
//! themselves so that no consequence is guessed elsewhere (issue 18). Two sources, each exact:
//!
//! - the decision applied to a copy of the state, with the automatic steps after it run up to
//!   the seat's next question or the end of its turn (never into another seat's turn or a new
//!   round, so nothing hidden or random is read): the seat's coins, tank, track steps, shares,
//!   cards, plans, unlocked track bonuses, tiles and markers before and after ([`Gains`]), the
//!   question that follows, whether the turn ends and whether anything hidden was revealed;
//! - the cost helpers (`actions::costs`, the Belt's entry costs, the track's barriers, the
//!   research acquisition costs) and the printed data for what only shows later in the action:
//!   a sector's structures paid when the expansion ends, a majority space's tier rewards, a
//!   reward option, a research plan.
//!
//! The preview is plain serializable data, so any client can render it.

use super::actions::{costs, plan_rewards, research_points_of};
use super::belt;
use super::decision::{Decision, Task};
use super::effects::{self, StepStatus};
use super::flow;
use super::state::{GameState, PlanRef, TileKind};
use super::{round, Phase, RuleError};
use crate::data::{CardId, Company, GameData, Reward, Structure};
use serde::{Deserialize, Serialize};

/// What a cost is paid in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Currency {
    Coins,
    /// Resource units of the cards being used.
    Units,
    Energy,
    ResearchPoints,
}

/// A price after discounts and what is left of that currency after paying it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    pub amount: u32,
    pub currency: Currency,
    pub left: u32,
}

/// How the seat's own holdings change at once (up to its next question or its turn's end).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gains {
    /// Net change of CrypCoin (negative: paid).
    pub coins: i64,
    /// Tank (helium-3) steps.
    pub tank: u32,
    /// Steps per company track.
    pub tracks: Vec<(Company, u32)>,
    /// Change of shares per company.
    pub shares: Vec<(Company, i64)>,
    /// Cards that came into the hand.
    pub cards: Vec<CardId>,
    /// Research plans acquired (placed at the end of the turn).
    pub plans: Vec<PlanRef>,
    /// Research points to utilize next.
    pub research_points: u32,
    /// Track bonuses unlocked (index into the data's track bonuses), usable from the next turn.
    pub bonuses: Vec<usize>,
    /// Bonus tiles reserved or received.
    pub tiles: Vec<TileKind>,
    /// Change of bonus markers in reserve (regular and one-time).
    pub markers: i64,
    /// The seat takes the first player marker.
    pub first_player: bool,
    /// Outposts removed from the game, per company.
    pub outposts_removed: Vec<(Company, u32)>,
}

impl Gains {
    /// Whether the seat gains nothing at all (paying or losing something is no gain).
    pub fn is_nothing(&self) -> bool {
        self.coins <= 0
            && self.tank == 0
            && self.tracks.is_empty()
            && self.shares.iter().all(|(_, n)| *n <= 0)
            && self.cards.is_empty()
            && self.plans.is_empty()
            && self.research_points == 0
            && self.bonuses.is_empty()
            && self.tiles.is_empty()
            && self.markers <= 0
            && !self.first_player
            && self.outposts_removed.is_empty()
    }
}

/// A reward tier of a majority space the seat qualifies for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tier {
    /// Index into the space's tiers.
    pub tier: u8,
    pub rewards: Vec<Reward>,
}

/// A station's share value (visible coin icons) before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShareValue {
    pub company: Company,
    pub before: u32,
    pub after: u32,
}

/// Everything a seat should know before taking a decision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    /// Prices after discounts (a card, a sector, a barrier, research points, coins paid).
    pub costs: Vec<Cost>,
    /// What changes for the seat at once.
    pub gains: Gains,
    /// The printed rewards of the choice: a sector's structures (paid when the expansion
    /// ends), a tier's or an option's rewards, the reward of the plan the upload marker
    /// reaches (paid when it stops there).
    pub rewards: Vec<Reward>,
    /// The rewards are paid later in the action (not yet in `gains`).
    pub rewards_later: bool,
    /// The majority space's tiers the seat may then choose from.
    pub tiers: Vec<Tier>,
    /// Resource units: of a card selected or given the "+1" tile, of the selection, or face up
    /// of the type an action uses.
    pub units: Option<u32>,
    /// The card bought, sold, selected, taken or given the "+1" tile.
    pub card: Option<CardId>,
    /// The plan taken, placed, flipped or reached.
    pub plan: Option<PlanRef>,
    /// The plan a placed plan covers.
    pub covers: Option<PlanRef>,
    /// The company whose outpost (or shuttle) is ousted.
    pub ousts: Option<Company>,
    /// A station whose share value changes (the column an outpost leaves or returns to).
    pub share_value: Option<ShareValue>,
    /// The share value of the company whose outpost is ousted, where it changes by the end of
    /// the choice (the outpost goes home to its station when the expansion ends).
    #[serde(default)]
    pub ousted_share_value: Option<ShareValue>,
    /// Units, energy or track steps given up; dropping out: the unused face-up cards of the
    /// action area; stopping the upload marker: the plans it could still enter.
    pub forfeits: u32,
    /// Dropping out: the bonus markers left in the reserve, unplaced this round.
    #[serde(default)]
    pub forfeits_markers: u32,
    /// The seat's next question in this turn.
    pub next: Option<Task>,
    /// The decision ends the seat's turn.
    pub ends_turn: bool,
    /// `/undo` would refuse to take the decision back ([`undo_barrier`]: it ends the turn or
    /// reveals something hidden).
    pub irreversible: bool,
    /// The rules allow it, but it gains nothing (a majority space without a tier the seat
    /// meets, a flip of a screen the upload marker has reached).
    pub gains_nothing: bool,
    /// The plan reached (`plan`) or covered (`covers`) lies face down: no requirements, no
    /// reward, whatever its face says.
    #[serde(default)]
    pub plan_face_down: bool,
    /// A flip of the screen the upload marker stands on (not one it has passed).
    #[serde(default)]
    pub marker_on_it: bool,
}

/// The preview of `d` for `seat` (an illegal decision gets the rules' reason, as `apply` would).
pub fn preview(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<Preview, RuleError> {
    let mut after = state.clone();
    let (_, ends_turn) = flow::apply_within_turn(data, &mut after, seat, d)?;
    let next = if ends_turn || after.phase != Phase::Action {
        None
    } else {
        after.agenda.last().filter(|t| t.seat() == seat).cloned()
    };
    let irreversible = undo_refused_after(data, state, seat, &[d])?;
    let mut p = Preview {
        gains: gains(data, state, &after, seat),
        ends_turn,
        irreversible,
        next,
        ..Preview::default()
    };
    let task = state.agenda.last().filter(|_| state.phase == Phase::Action);
    detail(data, state, &after, seat, task, d, &mut p);
    p.ousted_share_value = ousted_share_value(data, state, &after, p.ousts);
    rewards_after_barrier(&after, seat, &mut p);
    let paid = u32::try_from(-p.gains.coins).unwrap_or(0);
    if paid > 0 && !p.costs.iter().any(|c| c.currency == Currency::Coins) {
        p.costs.push(Cost {
            amount: paid,
            currency: Currency::Coins,
            left: after.seats[seat].coins,
        });
    }
    p.gains_nothing = p.gains_nothing
        || (matches!(d, Decision::ChooseTier { .. }) && p.gains.is_nothing() && p.next.is_none())
        || (matches!(
            d,
            Decision::PlaceBonus { .. } | Decision::PlaceOneTimeBonus { .. }
        ) && p.gains.is_nothing()
            && p.tiers.is_empty()
            && p.next.is_none());
    Ok(p)
}

/// The preview of a batch of decisions of `seat` played together (one option of a prompt: a
/// card selection with its action, several steps on one track, the upload marker's advance to
/// where it stops): the last decision's details where the batch's earlier steps leave the
/// game, with what the whole batch changes for the seat (its gains, the units and CrypCoin it
/// spends) and whether `/undo` could take the whole batch back.
pub fn preview_batch(
    data: &GameData,
    state: &GameState,
    seat: usize,
    batch: &[Decision],
) -> Result<Preview, RuleError> {
    let Some((&last, earlier)) = batch.split_last() else {
        return Err(RuleError::NotNow(crate::engine::Message::new(
            "rule.nothing_pending",
            &[],
        )));
    };
    if earlier.is_empty() {
        return preview(data, state, seat, last);
    }
    let mut mid = state.clone();
    for d in earlier {
        flow::apply(data, &mut mid, seat, *d)?;
    }
    let mut p = preview(data, &mid, seat, last)?;
    // What the first step says and the last does not: a sector's cost and structures, the
    // outpost ousted, what dropping out gives up.
    let head = preview(data, state, seat, batch[0])?;
    for c in head.costs {
        if !p.costs.iter().any(|x| x.currency == c.currency) {
            p.costs.push(c);
        }
    }
    // An advance's reward is the last plan's alone (a flipped or special plan gives none), so
    // only an expansion takes the first step's sector rewards.
    let advances = matches!(batch[0], Decision::Advance | Decision::SkipFlip);
    if p.rewards.is_empty() && !advances {
        p.rewards = head.rewards;
        p.rewards_later |= head.rewards_later;
    }
    p.ousts = p.ousts.or(head.ousts);
    p.share_value = p.share_value.or(head.share_value);
    p.card = p.card.or(head.card);
    if batch[0] == Decision::DropOut {
        p.forfeits = head.forfeits;
        p.forfeits_markers = head.forfeits_markers;
    }
    let mut after = mid.clone();
    flow::apply_within_turn(data, &mut after, seat, last)?;
    p.irreversible = undo_refused_after(data, state, seat, batch)?;
    // A card selection's units: those the action goes on with.
    if let Some(Task::BuyWithUnits { units, .. } | Task::SpendUnits { units, .. }) =
        after.agenda.last().filter(|t| t.seat() == seat)
    {
        if batch
            .iter()
            .any(|d| matches!(d, Decision::SelectCard { .. }))
        {
            p.units = Some(*units);
        }
    }
    p.gains = gains(data, state, &after, seat);
    p.ousted_share_value = ousted_share_value(data, state, &after, p.ousts);
    // A sector's structures are paid when the expansion ends: by the batch's end, if it ended.
    if p.rewards_later && matches!(batch[0], Decision::ExpandInto { .. }) {
        p.rewards_later = expansion_goes_on(&after, seat);
    }
    if matches!(last, Decision::ChooseTier { .. }) {
        p.gains_nothing = p.gains.is_nothing() && p.next.is_none();
    }
    // Research points spent by the whole batch, over every pool of points it draws on.
    let (points_before, points_after) = (
        research_points_to_use(state, seat),
        research_points_to_use(&after, seat),
    );
    for c in p.costs.iter_mut() {
        if c.currency == Currency::ResearchPoints {
            c.amount = points_before.saturating_sub(points_after);
            c.left = points_after;
        }
    }
    let units: u32 = batch
        .iter()
        .filter(|d| matches!(d, Decision::TrackStep { .. }))
        .count() as u32;
    p.costs.retain(|c| c.currency != Currency::Coins);
    for c in p.costs.iter_mut() {
        if c.currency == Currency::Units && units > 1 {
            c.amount = units;
        }
    }
    let paid = u32::try_from(-p.gains.coins).unwrap_or(0);
    if paid > 0 {
        p.costs.push(Cost {
            amount: paid,
            currency: Currency::Coins,
            left: after.seats[seat].coins,
        });
    }
    rewards_after_barrier(&after, seat, &mut p);
    Ok(p)
}

/// A money barrier stops the option with a question (pay or stop): the rewards still waiting
/// under it (a tier's research point after its track steps) come after it, whatever the
/// answer, and belong in the option's description.
fn rewards_after_barrier(after: &GameState, seat: usize, p: &mut Preview) {
    if !matches!(p.next, Some(Task::TrackMove { .. })) || p.rewards_later {
        return;
    }
    let waiting: Vec<Reward> = (after.agenda.iter().rev().skip(1))
        .map_while(|t| match t {
            Task::Reward { seat: s, reward } if *s == seat => Some(reward.clone()),
            // Research points already granted wait as the question of how to spend them.
            Task::SpendResearch { seat: s, points } if *s == seat => {
                Some(Reward::ResearchPoints { n: *points })
            }
            _ => None,
        })
        .collect();
    if !waiting.is_empty() {
        p.rewards = waiting;
        p.rewards_later = true;
    }
}

/// Whether `/undo` refuses to take back a batch that turned `before` into `after` (DECISIONS
/// B6): it revealed hidden or random information or passed the turn ([`reveals_hidden`]). The
/// one rule for both sides: an option says "cannot be undone" (`Preview::irreversible`, from
/// [`undo_refused_after`]) exactly when this holds for it, and the chat layer's `/undo`
/// refuses exactly then.
pub fn undo_barrier(before: &GameState, after: &GameState) -> bool {
    reveals_hidden(before, after)
}

/// Whether `/undo` would refuse to take back `batch` (one option: one decision or several) of
/// `seat` right after it was played on `state`: the batch played as the store plays it, the
/// rest of the turn and what follows it included, then [`undo_barrier`]. The one place an
/// option's "cannot be undone" is decided, for a single decision and a batch alike.
pub fn undo_refused_after(
    data: &GameData,
    state: &GameState,
    seat: usize,
    batch: &[Decision],
) -> Result<bool, RuleError> {
    let mut after = state.clone();
    super::apply_batch(data, &mut after, seat, batch)?;
    Ok(undo_barrier(state, &after))
}

/// Whether going from `before` to `after` revealed hidden or random information (a card drawn,
/// a plan refilled, the plans revealed, Luna's cards, a new round) or passed the turn on.
pub fn reveals_hidden(before: &GameState, after: &GameState) -> bool {
    before.rng != after.rng
        || before.round != after.round
        || before.phase != after.phase
        || before.action_stack.len() != after.action_stack.len()
        || before
            .plan_supply
            .iter()
            .map(Vec::len)
            .ne(after.plan_supply.iter().map(Vec::len))
        || before.active != after.active
        || before
            .seats
            .iter()
            .zip(&after.seats)
            .any(|(a, b)| a.turns_this_round != b.turns_this_round || a.luna != b.luna)
}

/// The seat's holdings before and after.
fn gains(data: &GameData, before: &GameState, after: &GameState, seat: usize) -> Gains {
    let (b, a) = (&before.seats[seat], &after.seats[seat]);
    let mut hand = b.hand.clone();
    let mut cards = Vec::new();
    for c in &a.hand {
        match hand.iter().position(|x| x == c) {
            Some(i) => {
                hand.remove(i);
            }
            None => cards.push(*c),
        }
    }
    let one_time = |s: &GameState| {
        s.seats[seat]
            .mission
            .as_ref()
            .map_or(0, |m| i64::from(m.one_time_reserve))
    };
    // A tile is the seat's for the next round once its marker is on the tile's space.
    let tile_of = |s: &GameState, k: TileKind| {
        s.bonus_spaces.iter().enumerate().any(|(i, m)| {
            m.is_some_and(|m| m.seat == seat) && round::reserved_tile(data, i) == Some(k)
        })
    };
    let newly = |bits_after: u32, bits_before: u32| {
        (0..data.tracks.bonuses.len())
            .filter(move |i| bits_after & (1 << i) != 0 && bits_before & (1 << i) == 0)
    };
    Gains {
        coins: i64::from(a.coins) - i64::from(b.coins),
        tank: u32::from(a.tank.saturating_sub(b.tank)),
        tracks: Company::ALL
            .into_iter()
            .filter_map(|c| {
                let n = a.track_pos[c.index()].saturating_sub(b.track_pos[c.index()]);
                (n > 0).then_some((c, u32::from(n)))
            })
            .collect(),
        shares: Company::ALL
            .into_iter()
            .filter_map(|c| {
                let n = i64::from(after.shares(data, seat, c))
                    - i64::from(before.shares(data, seat, c));
                (n != 0).then_some((c, n))
            })
            .collect(),
        cards,
        plans: a.acquired.iter().skip(b.acquired.len()).copied().collect(),
        research_points: research_points_to_use(after, seat)
            .saturating_sub(research_points_to_use(before, seat)),
        bonuses: newly(
            a.bonus_pending | a.bonus_active,
            b.bonus_pending | b.bonus_active,
        )
        .collect(),
        tiles: TileKind::ALL
            .into_iter()
            .filter(|k| tile_of(after, *k) && !tile_of(before, *k))
            .collect(),
        markers: i64::from(a.markers_reserve) - i64::from(b.markers_reserve) + one_time(after)
            - one_time(before),
        first_player: after.next_first_player == seat && before.next_first_player != seat,
        outposts_removed: Company::ALL
            .into_iter()
            .filter_map(|c| {
                let n = after.removed_outposts[c.index()]
                    .saturating_sub(before.removed_outposts[c.index()]);
                (n > 0).then_some((c, u32::from(n)))
            })
            .collect(),
    }
}

/// What a decision's kind adds: its prices, the printed rewards that follow, the card or plan
/// it is about.
fn detail(
    data: &GameData,
    state: &GameState,
    after: &GameState,
    seat: usize,
    task: Option<&Task>,
    d: Decision,
    p: &mut Preview,
) {
    let s = &state.seats[seat];
    let coins = |amount: u32| Cost {
        amount,
        currency: Currency::Coins,
        left: s.coins.saturating_sub(amount),
    };
    // Research points are spent from every pool of them the seat has to use this turn (a plan's
    // reward and the research scientist's own points come as two).
    let points_total = research_points_to_use(state, seat);
    match (task, d) {
        (_, Decision::PlaceTile { card }) => {
            p.card = Some(card);
            p.units = Some(effects::card_units(data, after, seat, card));
        }
        (_, Decision::UseResources { resource }) => {
            let cards: Vec<CardId> = s
                .up_cards()
                .map(|(_, c)| c)
                .filter(|c| {
                    let r = data.card(*c).resource();
                    r.is_some() && (resource.is_none() || r == resource)
                })
                .collect();
            p.units = Some(costs::resource_value(data, state, seat, &cards));
        }
        (_, Decision::UseResearch { source }) => {
            p.gains.research_points = research_points_of(data, state, seat, source);
        }
        (Some(Task::SelectResources { .. }), Decision::SelectCard { card }) => {
            p.card = Some(card);
            p.units = Some(effects::card_units(data, state, seat, card));
        }
        (Some(Task::SelectResources { chosen, .. }), Decision::FinishSelecting) => {
            p.units = Some(costs::resource_value(data, state, seat, chosen));
        }
        (
            Some(Task::BuyWithUnits {
                units,
                cards,
                mixed,
                ..
            }),
            Decision::BuyCard { space },
        ) => {
            p.card = state.display[space as usize - 1];
            if let Ok(cost) = costs::display_cost(data, state, seat, space, cards, *mixed, 0) {
                p.costs.push(Cost {
                    amount: cost,
                    currency: Currency::Units,
                    left: units.saturating_sub(cost),
                });
            }
        }
        (Some(Task::BuyForCoins { discount, .. }), Decision::BuyCard { space }) => {
            p.card = state.display[space as usize - 1];
            if let Ok(cost) = costs::display_cost(data, state, seat, space, &[], false, *discount) {
                p.costs.push(coins(cost));
            }
        }
        (Some(Task::SpendUnits { units, .. }), Decision::TrackStep { company }) => {
            p.costs.push(Cost {
                amount: 1,
                currency: Currency::Units,
                left: units - 1,
            });
            if let StepStatus::Barrier(price) = effects::step_status(data, state, seat, company) {
                p.costs.push(coins(price));
            }
        }
        (Some(Task::SpendUnits { units, .. }), Decision::StopTracks) => p.forfeits = *units,
        (Some(Task::TrackMove { company, .. }), Decision::PayBarrier) => {
            if let StepStatus::Barrier(price) = effects::step_status(data, state, seat, *company) {
                p.costs.push(coins(price));
            }
        }
        (Some(Task::TrackMove { steps, .. }), Decision::DeclineBarrier) => p.forfeits = *steps,
        (
            Some(Task::Expand {
                company,
                energy,
                entered,
                ..
            }),
            Decision::EnterSector { sector, .. }
            | Decision::EnterBelt { target: sector, .. }
            | Decision::ExpandInto { sector },
        ) => {
            let cost = match d {
                Decision::EnterBelt { target, space, .. } => {
                    belt::enter_cost(data, state, *company, target, space)
                }
                _ => costs::sector_cost(data, state, *company, sector, entered),
            };
            if let Ok(cost) = cost {
                p.costs.push(Cost {
                    amount: cost,
                    currency: Currency::Energy,
                    left: energy.saturating_sub(cost),
                });
            }
            let mut now = entered.clone();
            now.push((sector, None));
            p.ousts = entered_after(after, seat)
                .and_then(|e| e.get(entered.len()).copied())
                .and_then(|(_, ousted)| ousted)
                .or_else(|| match d {
                    Decision::EnterSector { .. } | Decision::ExpandInto { .. } => state
                        .sectors
                        .get(usize::from(sector).wrapping_sub(1))
                        .copied()
                        .flatten(),
                    _ => None,
                });
            p.rewards = expansion_gain(data, state, after, *company, entered, &now);
            let asks_column = matches!(p.next, Some(Task::PickColumn { .. }));
            p.rewards_later = asks_column || expansion_goes_on(after, seat);
            if !asks_column {
                p.share_value = Some(share_value(data, state, after, *company));
            }
        }
        (Some(Task::Expand { energy, .. }), Decision::StopExpanding) => p.forfeits = *energy,
        (_, Decision::DropOut) => {
            p.forfeits = s.up_cards().count() as u32;
            p.forfeits_markers = u32::from(s.markers_reserve);
        }
        (Some(Task::ResearchAdvance { .. }), Decision::StopAdvancing) => {
            p.forfeits = further_advances(data, state, seat);
        }
        (_, Decision::FlipPlan { screen }) => {
            p.plan = s.research[screen as usize].map(|placed| placed.plan);
            p.gains_nothing = s.upload.is_some_and(|u| screen <= u);
            p.marker_on_it = s.upload == Some(screen);
        }
        (_, Decision::Advance) => {
            let next = s.upload.map_or(0, |u| u + 1);
            if let Some(placed) = s.research.get(next as usize).copied().flatten() {
                p.plan = Some(placed.plan);
                p.plan_face_down = placed.face_down;
                if !placed.face_down {
                    p.rewards = plan_rewards(data, state, seat, placed.plan);
                    p.rewards_later = matches!(p.next, Some(Task::ResearchAdvance { .. }));
                }
            }
        }
        (Some(Task::SpendResearch { .. }), Decision::TakePlan { space }) => {
            let plan = state.research_display[space as usize];
            p.plan = plan.map(PlanRef::Regular);
            if let Some(plan) = plan {
                let letter = data.research.plans[plan as usize].letter;
                p.costs.push(points_cost(
                    data.research.acquisition.plan_cost(letter),
                    points_total,
                ));
            }
        }
        (Some(Task::SpendResearch { .. }), Decision::TakeSpecial { index }) => {
            p.plan = Some(PlanRef::Special(index));
            p.costs
                .push(points_cost(data.research.acquisition.special, points_total));
        }
        (Some(Task::SpendResearch { .. }), Decision::TakeCoin) => {
            p.costs
                .push(points_cost(data.research.acquisition.coin, points_total));
        }
        (_, Decision::PlacePlan { index, screen }) => {
            p.plan = s.acquired.get(index as usize).copied();
            let covered = s.research.get(screen as usize).copied().flatten();
            p.covers = covered.map(|placed| placed.plan);
            p.plan_face_down = covered.is_some_and(|placed| placed.face_down);
        }
        (Some(Task::ChooseTier { space, .. }), Decision::ChooseTier { tier }) => {
            p.rewards = data.board.bonus_spaces[*space as usize]
                .tiers
                .get(tier as usize)
                .map(|t| t.reward.clone())
                .unwrap_or_default();
        }
        (Some(Task::ChooseRewards { options, .. }), Decision::ChooseOption { option }) => {
            p.rewards = options.get(option as usize).cloned().unwrap_or_default();
        }
        (_, Decision::DiscardCard { card } | Decision::TakeFromDiscard { card }) => {
            p.card = Some(card);
        }
        (Some(Task::PickColumn { .. }), Decision::OutpostColumn { .. }) => {
            if let Some(Task::Expand { company, .. }) = state.agenda.iter().rev().nth(1) {
                p.share_value = Some(share_value(data, state, after, *company));
            }
        }
        (_, Decision::RemoveOutpost { company, .. }) => {
            p.share_value = Some(share_value(data, state, after, company));
        }
        (Some(Task::ReturnOusted { company, .. }), Decision::ReturnOutpost { .. }) => {
            p.share_value = Some(share_value(data, state, after, *company));
        }
        _ => {}
    }
    if let Some(Task::ChooseTier { space, tiers, .. }) = &p.next {
        let space = &data.board.bonus_spaces[*space as usize];
        p.tiers = tiers
            .iter()
            .filter_map(|&tier| {
                space.tiers.get(tier as usize).map(|t| Tier {
                    tier,
                    rewards: t.reward.clone(),
                })
            })
            .collect();
    }
}

/// How many more plans the seat's upload marker could enter now, one after the other.
fn further_advances(data: &GameData, state: &GameState, seat: usize) -> u32 {
    let mut scratch = state.clone();
    let mut n = 0;
    while n < 32
        && matches!(scratch.agenda.last(), Some(Task::ResearchAdvance { .. }))
        && super::legal_decisions(data, &scratch, seat).contains(&Decision::Advance)
        && flow::apply(data, &mut scratch, seat, Decision::Advance).is_ok()
    {
        n += 1;
    }
    n
}

fn points_cost(amount: u32, points: u32) -> Cost {
    Cost {
        amount,
        currency: Currency::ResearchPoints,
        left: points.saturating_sub(amount),
    }
}

/// The research points `seat` has to utilize in this turn: every pool of them waiting on the
/// agenda (a plan's reward and the research scientist's own points come as two), which the
/// question, the costs and the options that bring points count whole.
pub fn research_points_to_use(state: &GameState, seat: usize) -> u32 {
    if state.phase != Phase::Action {
        return 0;
    }
    state
        .agenda
        .iter()
        .map(|t| match t {
            Task::SpendResearch { seat: s, points } if *s == seat => *points,
            _ => 0,
        })
        .sum()
}

/// Whether the seat's expansion goes on in `state` (its sectors' structures not yet paid).
fn expansion_goes_on(state: &GameState, seat: usize) -> bool {
    state
        .agenda
        .iter()
        .any(|t| matches!(t, Task::Expand { seat: s, .. } if *s == seat))
}

/// The sectors (or Belt spaces) entered so far in the seat's expansion in `state`, if it goes on.
fn entered_after(state: &GameState, seat: usize) -> Option<&Vec<(u8, Option<Company>)>> {
    match state.agenda.last() {
        Some(Task::Expand {
            seat: s, entered, ..
        }) if *s == seat => Some(entered),
        _ => None,
    }
}

/// What entering one more sector or Belt space adds to the expansion's rewards: on the Moon the
/// sector's structures, on the Belt the reward screen of an asteroid first reached and a
/// shuttle space's track icon.
fn expansion_gain(
    data: &GameData,
    before: &GameState,
    after: &GameState,
    company: Company,
    entered: &[(u8, Option<Company>)],
    now: &[(u8, Option<Company>)],
) -> Vec<Reward> {
    let (structures, icons) = if before.belt.is_some() {
        let (mut gained, icons_now) = belt::expansion_rewards(data, after, company, now);
        let (had, icons_before) = belt::expansion_rewards(data, before, company, entered);
        for st in had {
            if let Some(i) = gained.iter().position(|g| *g == st) {
                gained.remove(i);
            }
        }
        (gained, icons_now.saturating_sub(icons_before))
    } else {
        let sector = now.last().map_or(0, |(s, _)| *s);
        let structures = data
            .moon
            .sector(sector as u32)
            .map(|s| s.structures.clone())
            .unwrap_or_default();
        (structures, 0)
    };
    let mut out: Vec<Reward> = structures
        .into_iter()
        .map(|st| match st {
            Structure::DeepMine { n } => Reward::Coins { n },
            Structure::GasCollector { n } => Reward::Tank { n },
            Structure::StripMine { n } => Reward::CompanyTrack { company, n },
            Structure::ResearchStation { n } => Reward::ResearchPoints { n },
        })
        .collect();
    if icons > 0 {
        out.push(Reward::CompanyTrack { company, n: icons });
    }
    out
}

/// The ousted company's share value before and after, where it changed.
fn ousted_share_value(
    data: &GameData,
    before: &GameState,
    after: &GameState,
    ousted: Option<Company>,
) -> Option<ShareValue> {
    ousted
        .map(|c| share_value(data, before, after, c))
        .filter(|v| v.before != v.after)
}

fn share_value(data: &GameData, before: &GameState, after: &GameState, c: Company) -> ShareValue {
    ShareValue {
        company: c,
        before: before.share_value(data, c),
        after: after.share_value(data, c),
    }
}
