//! The "Threat cards" module (rulebook, "Module: Threat cards", p. 30; Belt side only; campaign
//! chapter 4): the card drawn at setup, dealing with it during an energy action (a shuttle of the
//! expanding company on shuttle space 11 or 16, 2 energy to reach it, the card's requirement), its
//! reward (removal and the wild share), and what happens when it is still on the board at the end:
//! the six consequences at final scoring with Luna's exceptions, the Singularity's end after round
//! 6, and the Time anomaly's loop of games (reported here; the campaign/chat layer links the
//! games).

use super::decision::Task;
use super::flow::Ctx;
use super::state::GameState;
use super::{effects, illegal, Message, RuleError};
use crate::data::threats::{ConsequenceEffect, ThreatCard, ThreatRequirement};
use crate::data::GameData;
use serde::{Deserialize, Serialize};

/// The threat card in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreatState {
    /// Index of the card in data.threats.threats.
    pub card: u8,
    /// Still on the board (not dealt with).
    pub on_board: bool,
    /// The seat that dealt with it: it holds the card face down as a wild share.
    pub removed_by: Option<usize>,
}

/// The threat card's data.
pub fn card<'d>(data: &'d GameData, state: &GameState) -> Option<&'d ThreatCard> {
    state
        .threat
        .as_ref()
        .and_then(|t| data.threats.threats.get(t.card as usize))
}

/// The card still on the board, if any.
pub fn on_board<'d>(data: &'d GameData, state: &GameState) -> Option<&'d ThreatCard> {
    state
        .threat
        .as_ref()
        .filter(|t| t.on_board)
        .and_then(|t| data.threats.threats.get(t.card as usize))
}

/// Setup: the named card (a time loop plays the same card again), or one drawn at random.
pub(crate) fn setup(data: &GameData, state: &mut GameState, forced: Option<&str>) {
    let n = data.threats.threats.len();
    if n == 0 {
        return;
    }
    let card = match forced.and_then(|id| data.threats.threats.iter().position(|t| t.id == id)) {
        Some(i) => i,
        None => rand::Rng::gen_range(&mut state.rng, 0..n),
    };
    state.threat = Some(ThreatState {
        card: card as u8,
        on_board: true,
        removed_by: None,
    });
}

/// Energy the requirement adds on top of the energy to reach the threat.
fn extra_energy(req: &[ThreatRequirement]) -> u32 {
    req.iter()
        .flat_map(|r| r.flatten())
        .map(|r| match r {
            ThreatRequirement::SpendExtraEnergy { n } => *n,
            _ => 0,
        })
        .sum()
}

/// The energy dealing with the threat takes from the expansion (reach + requirement).
pub(crate) fn energy_needed(data: &GameData, card: &ThreatCard) -> u32 {
    data.threats.module.reach.energy + extra_energy(&card.requirement)
}

/// The tank track's score for a position ("the last value passed", DECISIONS A9).
pub(crate) fn tank_value(data: &GameData, step: u8) -> u32 {
    data.player_board
        .tank_track
        .score_by_step
        .get(step as usize)
        .copied()
        .unwrap_or(0)
}

/// The research track's printed value the upload marker has passed (not the special plans).
pub(crate) fn research_value(data: &GameData, upload: Option<u8>) -> u32 {
    upload
        .and_then(|u| {
            data.player_board
                .research_track
                .score_by_screen
                .get(u as usize)
                .copied()
        })
        .unwrap_or(0)
}

fn energy_cards_in_hand(data: &GameData, state: &GameState, seat: usize) -> u32 {
    state.seats[seat]
        .hand
        .iter()
        .filter(|c| data.card(**c).is_energy())
        .count() as u32
}

fn check_requirement(
    data: &GameData,
    state: &GameState,
    seat: usize,
    req: &ThreatRequirement,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match req {
        ThreatRequirement::PayCoins { n } if s.coins < *n => Err(RuleError::NotEnoughCoins {
            have: s.coins,
            need: *n,
        }),
        ThreatRequirement::DiscardEnergyCardsFromHand { n }
            if energy_cards_in_hand(data, state, seat) < *n =>
        {
            Err(illegal(
                "rule.threat_energy_cards",
                &[
                    ("n", &n),
                    ("held", &energy_cards_in_hand(data, state, seat)),
                ],
            ))
        }
        ThreatRequirement::TankValuePassed { value } if tank_value(data, s.tank) < *value => {
            Err(illegal("rule.threat_tank", &[("value", &value)]))
        }
        ThreatRequirement::ResearchValuePassed { value }
            if research_value(data, s.upload) < *value =>
        {
            Err(illegal("rule.threat_research", &[("value", &value)]))
        }
        ThreatRequirement::AllOf { of } => of
            .iter()
            .try_for_each(|r| check_requirement(data, state, seat, r)),
        _ => Ok(()),
    }
}

/// Whether `seat` may deal with the threat now, in its expansion of the task on top.
pub(crate) fn check_deal(data: &GameData, state: &GameState, seat: usize) -> Result<(), RuleError> {
    let Some(Task::Expand {
        company,
        energy,
        threat,
        ..
    }) = state.agenda.last()
    else {
        return Err(RuleError::NotNow(Message::new(
            "rule.threat_during_energy",
            &[],
        )));
    };
    let Some(card) = on_board(data, state) else {
        return Err(illegal("rule.no_threat", &[]));
    };
    if *threat {
        return Err(illegal("rule.threat_done", &[]));
    }
    let spaces = &data.threats.module.reach.shuttle_on;
    let belt = state.belt.as_ref();
    if !spaces
        .iter()
        .any(|sp| belt.and_then(|b| b.shuttle_on(data, *sp)) == Some(*company))
    {
        let list: Vec<String> = spaces.iter().map(|s| s.to_string()).collect();
        return Err(illegal(
            "rule.threat_needs_shuttle",
            &[
                ("company", &data.company_name(*company)),
                ("spaces", &list.join("/")),
            ],
        ));
    }
    let need = energy_needed(data, card);
    if *energy < need {
        return Err(illegal(
            "rule.threat_energy",
            &[
                ("threat", &card.display_name()),
                ("need", &need),
                ("energy", &energy),
            ],
        ));
    }
    card.requirement
        .iter()
        .try_for_each(|r| check_requirement(data, state, seat, r))
}

/// Deals with the threat (the caller checked): the energy is spent, coins paid, and energy cards
/// to discard are asked for next. The reward follows the expansion's rewards.
pub(crate) fn deal(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let Some(card) = on_board(data, state) else {
        return;
    };
    let need = energy_needed(data, card);
    let mut discard = 0;
    let mut pay = 0;
    for r in card.requirement.iter().flat_map(|r| r.flatten()) {
        match r {
            ThreatRequirement::PayCoins { n } => pay += n,
            ThreatRequirement::DiscardEnergyCardsFromHand { n } => discard += n,
            _ => {}
        }
    }
    if let Some(Task::Expand { energy, threat, .. }) = state.agenda.last_mut() {
        *energy = energy.saturating_sub(need);
        *threat = true;
    }
    effects::pay(ctx, state, seat, pay);
    ctx.count("threat_dealt");
    // Only what the requirement asks is said: no "pays 0 CrypCoin".
    ctx.say(
        if pay > 0 {
            "event.threat_dealt_paying"
        } else {
            "event.threat_dealt"
        },
        &[
            ("name", &state.seats[seat].name),
            ("energy", &need),
            ("threat", &card.display_name()),
            ("coins", &pay),
        ],
    );
    if discard > 0 {
        state.agenda.push(Task::DiscardEnergy { seat, n: discard });
    }
}

/// Checks one energy card to remove from the hand for the threat.
pub(crate) fn check_discard(
    data: &GameData,
    state: &GameState,
    seat: usize,
    card: crate::data::CardId,
) -> Result<(), RuleError> {
    if !state.seats[seat].hand.contains(&card) {
        return Err(illegal("rule.card_not_in_hand", &[]));
    }
    if !data.card(card).is_energy() {
        return Err(illegal("rule.threat_asks_energy", &[]));
    }
    Ok(())
}

/// Removes one energy card from the hand face up onto the discard pile.
pub(crate) fn discard(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    card: crate::data::CardId,
    n: u32,
) {
    state.seats[seat].hand.retain(|c| *c != card);
    state.discard.push(card);
    ctx.say(
        "event.threat_discard",
        &[
            ("name", &state.seats[seat].name),
            ("card", &ctx.data.card_label(card)),
        ],
    );
    state.agenda.pop();
    if n > 1 {
        state.agenda.push(Task::DiscardEnergy { seat, n: n - 1 });
    }
}

/// The threat's reward after the expansion: the card leaves the board and its holder keeps it
/// face down as a wild share.
pub(crate) fn collect_reward(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let Some(t) = state.threat.as_mut() else {
        return;
    };
    if !t.on_board {
        return;
    }
    t.on_board = false;
    t.removed_by = Some(seat);
    let id = data
        .threats
        .threats
        .get(t.card as usize)
        .map(|c| (c.id.as_str(), c.display_name()))
        .unwrap_or(("", String::new()));
    ctx.count(removed_note(id.0));
    ctx.say(
        "event.threat_removed",
        &[("name", &state.seats[seat].name), ("threat", &id.1)],
    );
}

/// The coverage note for removing a threat card.
fn removed_note(id: &str) -> &'static str {
    match id {
        "space_pirates" => "threat_removed_space_pirates",
        "rogue_comet" => "threat_removed_rogue_comet",
        "einstein_rosen_bridge" => "threat_removed_einstein_rosen_bridge",
        "probe_unknown_signature" => "threat_removed_probe_unknown_signature",
        "singularity" => "threat_removed_singularity",
        "time_anomaly" => "threat_removed_time_anomaly",
        _ => "threat_removed_other",
    }
}

/// The coverage note for a consequence applying at the end of the game.
pub(crate) fn consequence_note(effect: &ConsequenceEffect) -> &'static str {
    match effect {
        ConsequenceEffect::LoseCash => "threat_consequence_lose_cash",
        ConsequenceEffect::DevalueMostValuableStation { .. } => {
            "threat_consequence_devalue_most_valuable_station"
        }
        ConsequenceEffect::DiscardAllEnergyCards => "threat_consequence_discard_all_energy_cards",
        ConsequenceEffect::NoTankScore => "threat_consequence_no_tank_score",
        ConsequenceEffect::GameEndsAfterRound { .. } => "threat_consequence_game_ends_after_round",
        ConsequenceEffect::TimeLoop { .. } => "threat_consequence_time_loop",
    }
}

/// Singularity: the game ends after this round's Action phase while the card is on the board.
pub(crate) fn ends_game_after(data: &GameData, state: &GameState) -> bool {
    match on_board(data, state).map(|c| c.consequence.effect) {
        Some(ConsequenceEffect::GameEndsAfterRound { round }) => state.round as u32 >= round,
        _ => false,
    }
}

/// The consequence applying at final scoring (the game is over and the card still on the board).
pub fn final_consequence(data: &GameData, state: &GameState) -> Option<ConsequenceEffect> {
    if state.phase != super::Phase::Finished {
        return None;
    }
    on_board(data, state).map(|c| c.consequence.effect)
}

/// Whether a final-scoring consequence applies to this seat (Luna only for the cards that say so).
pub(crate) fn applies_to(data: &GameData, state: &GameState, seat: usize) -> bool {
    final_consequence(data, state).is_some()
        && (!state.seats[seat].is_luna()
            || on_board(data, state).is_some_and(|c| c.applies_to_luna))
}

/// Time anomaly: the game ended with the card on the board, so there is no winner yet and another
/// game of the loop follows (same seats, the same threat card, a new random setup); the scores
/// and success points of the loop's games are averaged, rounded up, once a game removes it.
pub fn time_loop_continues(data: &GameData, state: &GameState) -> bool {
    matches!(
        final_consequence(data, state),
        Some(ConsequenceEffect::TimeLoop { .. })
    )
}
