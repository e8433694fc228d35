//! Decisions (what a seat may choose) and tasks (the pending work that asks for them).
//!
//! Every turn action is a short sequence of small decisions: choose the action, then the cards,
//! the card to buy, track steps, sectors, research-point spending, plan placement… A typed chat
//! command supplies several at once; missing ones are asked for one by one.

use crate::data::{CardId, Company, Resource, Reward};
use serde::{Deserialize, Serialize};

/// Where the card behind an action comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSource {
    /// A face-up card in action slot 0–4.
    Slot(u8),
    /// The matching action tile (research scientist, field scientist or energy tile).
    Tile,
    /// A card discarded from hand through the discard-action track bonus.
    Discarded(CardId),
}

/// A bonus space: one of the 12 on the board, or a track bonus space (by track bonus index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusRef {
    Board(u8),
    Track(u8),
    /// The personal bonus space on the seat's own mission status card (mission cards module,
    /// unlocked once all three tasks are fulfilled).
    Personal,
}

/// One small choice a seat makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "d", rename_all = "snake_case")]
pub enum Decision {
    // ---- setup (simultaneous, secret)
    /// Draft: keep one of the two dealt starting research tokens (index into the token list).
    KeepToken {
        token: u8,
    },
    /// Linked slots: put a starting card into central resting slot 1–3 (index 1..=3 of 0..5).
    RestStartingCard {
        card: CardId,
        slot: u8,
    },

    // ---- planning (simultaneous, secret)
    PlanCard {
        card: CardId,
        slot: u8,
    },
    /// Take all planned cards back (allowed until everyone has planned).
    PlanClear,
    PlanDone,

    // ---- choosing the turn's action
    /// Free step: put the "+1" tile on a face-up resource card.
    PlaceTile {
        card: CardId,
    },
    /// Resources of one type (or `None` = mixed, with the second minerals bonus, to buy a card).
    UseResources {
        resource: Option<Resource>,
    },
    UseEnergy,
    UseResearch {
        source: ActionSource,
    },
    UseField {
        source: ActionSource,
    },
    PlaceBonus {
        space: BonusRef,
    },
    DropOut,

    // ---- inside actions
    SelectCard {
        card: CardId,
    },
    FinishSelecting,
    /// Buy the card on display space 1–12.
    BuyCard {
        space: u8,
    },
    NoBuy,
    /// One unit: one step on a company track.
    TrackStep {
        company: Company,
    },
    /// Forfeit the remaining units (only when every movable track needs a barrier payment).
    StopTracks,
    ChooseCompany {
        company: Company,
    },
    /// Enter a Moon sector with an outpost from station column 0–2.
    EnterSector {
        sector: u8,
        column: u8,
    },
    StopExpanding,
    /// Pay 2 to flip the plan on this research screen face down.
    FlipPlan {
        screen: u8,
    },
    SkipFlip,
    Advance,
    StopAdvancing,
    /// Research points: take the plan on research display space (index).
    TakePlan {
        space: u8,
    },
    /// Research points: take the face-up special plan (index 0–5).
    TakeSpecial {
        index: u8,
    },
    TakeCoin,
    /// Put acquired plan number `index` (in acquisition order) on research screen `screen`.
    PlacePlan {
        index: u8,
        screen: u8,
    },
    /// Majority space reward tier (index into the space's tiers).
    ChooseTier {
        tier: u8,
    },
    /// A choice among listed options (reward options, discard-action variants).
    ChooseOption {
        option: u8,
    },
    DiscardCard {
        card: CardId,
    },
    TakeFromDiscard {
        card: CardId,
    },
    PayBarrier,
    DeclineBarrier,
    /// Remove the top outpost of a station column from the game.
    RemoveOutpost {
        company: Company,
        column: u8,
    },
    /// Return an ousted outpost to this column of its station.
    ReturnOutpost {
        column: u8,
    },
    TakeRestingDeck {
        slot: u8,
    },
    /// Drop out: move this card from its action slot to resting slot 0–4.
    RestCard {
        card: CardId,
        slot: u8,
    },

    // ---- modules (appended so the order of the basic game's decisions stays as it was)
    /// Mission cards: fulfil the task in `column` (1–3) of face-up mission card `card` (its id):
    /// +2 CrypCoin and that column's one-time bonus marker. Never an action itself.
    ClaimTask {
        card: u8,
        column: u8,
    },
    /// Mission cards: claim nothing more at the end of this action.
    EndClaims,
    /// Belt: enter the Belt space with target number `target`: outpost space `space` (0-based)
    /// of an asteroid with an outpost from outer station column `column` (0 or 2), or a shuttle
    /// space (`space` 0) with a shuttle from the middle column (`column` 1).
    EnterBelt {
        target: u8,
        space: u8,
        column: u8,
    },
    /// Threat cards: spend 2 energy of this expansion to reach the threat and meet its
    /// requirement (the company needs a shuttle on shuttle space 11 or 16).
    DealWithThreat,
    /// Mission cards: place a one-time bonus marker (removed from the game at the next
    /// Preparation phase) instead of a regular one.
    PlaceOneTimeBonus {
        space: BonusRef,
    },
    /// Enter Moon sector `sector` (engine version 4, one option per sector): the outpost comes
    /// from the station column it may come from when the columns make no difference; when they
    /// would leave different share values, `OutpostColumn` answers which one.
    ExpandInto {
        sector: u8,
    },
    /// The station column 0–2 the outpost entering a sector comes from (after `ExpandInto`).
    OutpostColumn {
        column: u8,
    },
}

impl Decision {
    /// A stable name of the decision's kind (for coverage counts and logs).
    pub fn kind(&self) -> &'static str {
        match self {
            Decision::KeepToken { .. } => "keep_token",
            Decision::RestStartingCard { .. } => "rest_starting_card",
            Decision::PlanCard { .. } => "plan_card",
            Decision::PlanClear => "plan_clear",
            Decision::PlanDone => "plan_done",
            Decision::PlaceTile { .. } => "place_tile",
            Decision::UseResources { resource: None } => "use_resources_mixed",
            Decision::UseResources { .. } => "use_resources",
            Decision::UseEnergy => "use_energy",
            Decision::UseResearch { .. } => "use_research",
            Decision::UseField { .. } => "use_field",
            Decision::PlaceBonus { .. } => "place_bonus",
            Decision::DropOut => "drop_out",
            Decision::SelectCard { .. } => "select_card",
            Decision::FinishSelecting => "finish_selecting",
            Decision::BuyCard { .. } => "buy_card",
            Decision::NoBuy => "no_buy",
            Decision::TrackStep { .. } => "track_step",
            Decision::StopTracks => "stop_tracks",
            Decision::ChooseCompany { .. } => "choose_company",
            Decision::EnterSector { .. } => "enter_sector",
            Decision::StopExpanding => "stop_expanding",
            Decision::FlipPlan { .. } => "flip_plan",
            Decision::SkipFlip => "skip_flip",
            Decision::Advance => "advance",
            Decision::StopAdvancing => "stop_advancing",
            Decision::TakePlan { .. } => "take_plan",
            Decision::TakeSpecial { .. } => "take_special",
            Decision::TakeCoin => "take_coin",
            Decision::PlacePlan { .. } => "place_plan",
            Decision::ChooseTier { .. } => "choose_tier",
            Decision::ChooseOption { .. } => "choose_option",
            Decision::DiscardCard { .. } => "discard_card",
            Decision::TakeFromDiscard { .. } => "take_from_discard",
            Decision::PayBarrier => "pay_barrier",
            Decision::DeclineBarrier => "decline_barrier",
            Decision::RemoveOutpost { .. } => "remove_outpost",
            Decision::ReturnOutpost { .. } => "return_outpost",
            Decision::TakeRestingDeck { .. } => "take_resting_deck",
            Decision::RestCard { .. } => "rest_card",
            Decision::ClaimTask { .. } => "claim_task",
            Decision::EndClaims => "end_claims",
            Decision::EnterBelt { .. } => "enter_belt",
            Decision::DealWithThreat => "deal_with_threat",
            Decision::PlaceOneTimeBonus { .. } => "place_one_time_bonus",
            Decision::ExpandInto { .. } => "expand_into",
            Decision::OutpostColumn { .. } => "outpost_column",
        }
    }
}

/// Why cards are being selected and what follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiscardPurpose {
    /// Standard bonus space: coins = printed cost + n.
    Coins { plus: u32 },
    /// Discard-action track bonus: then perform and/or buy from the pile.
    DiscardAction { and_or: bool },
}

/// Pending work in the current turn. The agenda is a stack: the top task is the one being asked
/// or run. Tasks that need no choice run automatically.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    /// The active seat chooses its action (free steps such as the "+1" tile stay available).
    ChooseAction { seat: usize },
    /// Resource action: picking cards of `resource` (None = mixed, must buy).
    SelectResources {
        seat: usize,
        resource: Option<Resource>,
        chosen: Vec<CardId>,
    },
    /// Resource action: buy at most one display card with `units`.
    BuyWithUnits {
        seat: usize,
        units: u32,
        /// The cards paying (for discounts and for flipping afterwards).
        cards: Vec<CardId>,
        mixed: bool,
        /// Paid with a card discarded through the discard-action bonus (nothing to flip).
        from_discard: bool,
    },
    /// Spend resource units one track step at a time.
    SpendUnits { seat: usize, units: u32 },
    /// Energy action: choose the company.
    ChooseExpansion { seat: usize, energy: u32 },
    /// Energy action: entering sectors.
    Expand {
        seat: usize,
        company: Company,
        energy: u32,
        /// Sectors (Moon) or Belt spaces (target numbers) entered, with the company ousted
        /// there, if any.
        entered: Vec<(u8, Option<Company>)>,
        /// Threat cards: the threat was dealt with in this expansion (its reward follows the
        /// expansion's rewards).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        threat: bool,
    },
    /// Research action: optional 2-coin flip before moving.
    ResearchFlip { seat: usize, source: ActionSource },
    /// Research action: moving the upload marker.
    ResearchAdvance {
        seat: usize,
        source: ActionSource,
        /// The last plan entered in this action, if any.
        entered: Option<u8>,
    },
    /// Utilize research points.
    SpendResearch { seat: usize, points: u32 },
    /// Move a marker on a specific company track; asks before paying a money barrier.
    TrackMove {
        seat: usize,
        company: Company,
        steps: u32,
    },
    /// Steps on one company track of the seat's choice.
    TrackOfChoice { seat: usize, steps: u32 },
    /// Steps on distinct company tracks, none of them in `excluded` (largest first).
    OtherTracks {
        seat: usize,
        excluded: Vec<Company>,
        steps: Vec<u32>,
    },
    /// Remove outposts from stations (top of a column).
    RemoveOutposts { seat: usize, n: u32 },
    /// Return an ousted outpost of `company` to its station; `seat` chooses the column.
    ReturnOusted {
        seat: usize,
        company: Company,
        /// The Moon sector or Belt space it was ousted from (0 in games stored before it was
        /// kept: the line then names no place).
        #[serde(default)]
        from: u8,
    },
    /// A majority space's reward tier.
    ChooseTier {
        seat: usize,
        space: u8,
        tiers: Vec<u8>,
    },
    /// Choose one of several reward lists.
    ChooseRewards {
        seat: usize,
        options: Vec<Vec<Reward>>,
    },
    /// Buy a display card for coins (`optional`: and/or bonuses).
    BuyForCoins {
        seat: usize,
        discount: u32,
        optional: bool,
    },
    /// Discard a card from hand (`filter`: None = any card, or one resource type).
    DiscardFromHand {
        seat: usize,
        filter: Option<Resource>,
        purpose: DiscardPurpose,
    },
    /// Discard-action bonus after discarding: perform the card's action and/or buy from the pile.
    DiscardActionChoice {
        seat: usize,
        card: CardId,
        and_or: bool,
    },
    /// Pay 2 and take any card from the discard pile.
    TakeFromDiscard { seat: usize },
    /// Apply one reward (expands into other tasks).
    Reward { seat: usize, reward: Reward },
    /// Drop out: take one resting deck into the hand.
    TakeRestingDeck { seat: usize },
    /// Drop out: move the action-slot cards to different resting slots.
    RestCards { seat: usize, used_slots: Vec<u8> },
    /// End of turn: place acquired plans on the research track.
    PlacePlans { seat: usize },
    /// End of turn: flip the cards an action used (after its rewards).
    FlipUsed {
        seat: usize,
        cards: Vec<CardId>,
        tiles: Vec<super::state::TileKind>,
    },
    /// End of turn: refill the research display, unlock track bonuses, pass the turn.
    EndTurn { seat: usize },
    /// Mission cards: after the action has resolved, the tasks it fulfilled may be claimed.
    ClaimTasks { seat: usize },
    /// Threat cards: remove `n` more energy cards from the hand to the discard pile.
    DiscardEnergy { seat: usize, n: u32 },
    /// Threat cards: after the expansion's rewards, the threat card's reward (removal and the
    /// wild share).
    ThreatReward { seat: usize },
    /// Energy action (engine version 4): which station column the outpost entering `sector`
    /// comes from, asked only when the columns would leave different share values.
    PickColumn { seat: usize, sector: u8 },
}

impl Task {
    /// The seat this task waits on.
    pub fn seat(&self) -> usize {
        match self {
            Task::ChooseAction { seat }
            | Task::SelectResources { seat, .. }
            | Task::BuyWithUnits { seat, .. }
            | Task::SpendUnits { seat, .. }
            | Task::ChooseExpansion { seat, .. }
            | Task::Expand { seat, .. }
            | Task::ResearchFlip { seat, .. }
            | Task::ResearchAdvance { seat, .. }
            | Task::SpendResearch { seat, .. }
            | Task::TrackMove { seat, .. }
            | Task::TrackOfChoice { seat, .. }
            | Task::OtherTracks { seat, .. }
            | Task::RemoveOutposts { seat, .. }
            | Task::ReturnOusted { seat, .. }
            | Task::ChooseTier { seat, .. }
            | Task::ChooseRewards { seat, .. }
            | Task::BuyForCoins { seat, .. }
            | Task::DiscardFromHand { seat, .. }
            | Task::DiscardActionChoice { seat, .. }
            | Task::TakeFromDiscard { seat }
            | Task::Reward { seat, .. }
            | Task::TakeRestingDeck { seat }
            | Task::RestCards { seat, .. }
            | Task::PlacePlans { seat }
            | Task::FlipUsed { seat, .. }
            | Task::EndTurn { seat }
            | Task::ClaimTasks { seat }
            | Task::DiscardEnergy { seat, .. }
            | Task::ThreatReward { seat }
            | Task::PickColumn { seat, .. } => *seat,
        }
    }

    /// The catalog key (`task.*`) of what this task asks.
    pub fn describe(&self) -> &'static str {
        match self {
            Task::ChooseAction { .. } => "task.choose_action",
            Task::SelectResources { .. } => "task.select_resources",
            Task::BuyWithUnits { .. } => "task.buy_with_units",
            Task::SpendUnits { .. } => "task.spend_units",
            Task::ChooseExpansion { .. } => "task.choose_company",
            Task::Expand { .. } => "task.expand",
            Task::ResearchFlip { .. } => "task.research_flip",
            Task::ResearchAdvance { .. } => "task.research_advance",
            Task::SpendResearch { .. } => "task.spend_research",
            Task::TrackMove { .. } => "task.track_move",
            Task::TrackOfChoice { .. } => "task.track_of_choice",
            Task::OtherTracks { .. } => "task.other_tracks",
            Task::RemoveOutposts { .. } => "task.remove_outposts",
            Task::ReturnOusted { .. } => "task.return_ousted",
            Task::ChooseTier { .. } => "task.choose_tier",
            Task::ChooseRewards { .. } => "task.choose_rewards",
            Task::BuyForCoins { .. } => "task.buy_for_coins",
            Task::DiscardFromHand { .. } => "task.discard_from_hand",
            Task::DiscardActionChoice { .. } => "task.discard_action",
            Task::TakeFromDiscard { .. } => "task.take_from_discard",
            Task::Reward { .. } => "task.reward",
            Task::TakeRestingDeck { .. } => "task.take_resting_deck",
            Task::RestCards { .. } => "task.rest_cards",
            Task::PlacePlans { .. } => "task.place_plans",
            Task::FlipUsed { .. } | Task::EndTurn { .. } => "task.end_turn",
            Task::ClaimTasks { .. } => "task.claim_tasks",
            Task::DiscardEnergy { .. } => "task.discard_energy",
            Task::ThreatReward { .. } => "task.threat_reward",
            Task::PickColumn { .. } => "task.pick_column",
        }
    }
}
