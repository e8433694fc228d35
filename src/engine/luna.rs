//! Luna, the automa, as rules of the game: her setup, her cards in the Planning phase, the
//! majority values that block humans, her turns, and her Preparation phase. Every board choice
//! the physical game leaves to the players (company rankings, main outpost columns, MIN/MAX
//! sectors, ousting) is computed here, deterministically (the company rankings and outpost
//! columns in `choices`). Luna never waits for a decision.

use super::effects;
use super::flow::Ctx;
use super::state::{GameState, LunaSlot, LunaState, Seat, SeatKind};
use crate::data::board::MajorityCompare;
use crate::data::luna::{
    CardPick, CompanySelector, LunaAction, LunaReveal, MajorityIcon, PlanPick, SectorPick,
};
use crate::data::numbering;
use crate::data::{CardId, Company, GameData, MoonGraph};
use rand::seq::SliceRandom;

mod blocking;
mod choices;

/// Adds Luna's seat (last in seating order, to the right of the first player).
pub(crate) fn add_seat(ctx: &mut Ctx, state: &mut GameState, level: u8) {
    let data = ctx.data;
    let board = &data.luna_board;
    let lvl = board.level(level as u32);
    let grade = |g: u8| -> Vec<u8> {
        data.luna_cards
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| c.grade == g)
            .map(|(i, _)| i as u8)
            .collect()
    };
    let mut deck = grade(1);
    deck.shuffle(&mut state.rng);
    let mut grade2 = if lvl.is_some_and(|l| l.grade2_in_game) {
        grade(2)
    } else {
        Vec::new()
    };
    grade2.shuffle(&mut state.rng);
    let slot_index = |letter: char| board.action_slots.order.iter().position(|l| *l == letter);
    let mut slot_on = [false; 5];
    for letter in &board.action_slots.initially_on {
        if let Some(i) = slot_index(*letter) {
            slot_on[i] = true;
        }
    }
    let colour = state.seats.len();
    let markers = board.start.bonus_markers as u8;
    let seat = Seat {
        name: "Luna".to_string(),
        kind: SeatKind::Luna { level },
        colour,
        hand: Vec::new(),
        slots: [None; 5],
        slot_on,
        resting: Default::default(),
        coins: board.start.coins,
        markers_reserve: markers,
        markers_total: markers,
        tank: board.tank_track.start_step as u8,
        research: Vec::new(),
        upload: Some(board.research_track.start_step as u8),
        track_pos: [board.start.company_track_marker_step as u8; 4],
        bonus_active: 0,
        bonus_pending: 0,
        planned: true,
        dropped_out: false,
        token: None,
        token_choices: Vec::new(),
        pending_rest: Vec::new(),
        turns_this_round: 0,
        acquired: Vec::new(),
        tank_steps_this_action: 0,
        luna: Some(LunaState {
            level,
            deck,
            grade2,
            discard: Vec::new(),
            slots: [None; 5],
            majority: [None; 2],
            reserve_cards: Vec::new(),
            helium_tokens: lvl.map(|l| l.helium_tokens.clone()).unwrap_or_default(),
            research_tokens: lvl.map(|l| l.research_tokens.clone()).unwrap_or_default(),
        }),
        mission: None,
    };
    state.seats.push(seat);
    let me = state.seats.len() - 1;
    // A random spare starting research token: its starting bonus only.
    if !state.spare_tokens.is_empty() {
        let pick = rand::Rng::gen_range(&mut state.rng, 0..state.spare_tokens.len());
        let token = state.spare_tokens.remove(pick);
        let t = &data.research.starting_tokens[token];
        ctx.say("event.luna_token", &[("token", &data.token_label(token))]);
        for bonus in &t.start_bonus {
            if bonus.track == "tank" {
                tank(ctx, state, me, bonus.n, None);
            } else if let Some(c) = Company::parse(&bonus.track) {
                track_move(ctx, state, me, c, bonus.n);
            }
        }
    }
    // Levels 6–8: her markers start on the white-numbered spaces (placed after the token, as
    // the booklet orders the setup).
    if let Some(l) = lvl {
        if l.start_helium_step > 0 {
            state.seats[me].tank = l.start_helium_step as u8;
        }
        if l.start_research_step > 0 {
            state.seats[me].upload = Some(l.start_research_step as u8);
        }
    }
}

fn luna(state: &GameState, seat: usize) -> Option<&LunaState> {
    state.seats[seat].luna.as_ref()
}

fn luna_mut(state: &mut GameState, seat: usize) -> Option<&mut LunaState> {
    state.seats[seat].luna.as_mut()
}

/// Seats played by Luna.
pub(crate) fn luna_seats(state: &GameState) -> Vec<usize> {
    (0..state.seats.len())
        .filter(|&s| state.seats[s].luna.is_some())
        .collect()
}

/// Draws the top card of the Luna deck; an empty deck is rebuilt from the discard pile plus one
/// grade-2 card (on demand, DECISIONS A13).
fn draw(ctx: &mut Ctx, state: &mut GameState, seat: usize) -> Option<u8> {
    let data = ctx.data;
    let adds = {
        let l = luna(state, seat)?;
        data.luna_board
            .deck
            .reshuffle
            .levels_adding_grade2
            .contains(&(l.level as u32))
    };
    let GameState { seats, rng, .. } = state;
    let l = seats[seat].luna.as_mut()?;
    if l.deck.is_empty() {
        let mut cards = std::mem::take(&mut l.discard);
        let discarded = cards.len();
        if adds {
            for _ in 0..data.luna_board.deck.reshuffle.grade2_added {
                if let Some(c) = l.grade2.pop() {
                    cards.push(c);
                }
            }
        }
        let added = cards.len() - discarded;
        cards.shuffle(rng);
        l.deck = cards;
        ctx.count("luna_reshuffle");
        ctx.say(
            "event.luna_reshuffles",
            &[("n", &discarded), ("added", &added)],
        );
    }
    l.deck.pop()
}

/// Planning step a: one face-down card into each ON action slot, left to right.
pub(crate) fn deal(ctx: &mut Ctx, state: &mut GameState) {
    for seat in luna_seats(state) {
        let mut dealt = 0;
        for slot in 0..5 {
            if state.seats[seat].slot_on[slot] {
                if let Some(card) = draw(ctx, state, seat) {
                    if let Some(l) = luna_mut(state, seat) {
                        l.slots[slot] = Some(LunaSlot {
                            card,
                            face_up: false,
                        });
                        dealt += 1;
                    }
                }
            }
        }
        ctx.say("event.luna_deals", &[("n", &dealt)]);
    }
}

/// The first engine version in which Luna draws both majority cards before carrying out their
/// reveal icons (DECISIONS A15). Older stored games keep drawing the right card after the left
/// card's reveal (DECISIONS B18).
const MAJORITY_DRAWN_BEFORE_REVEALS: u32 = 2;

/// Planning step b: two cards into the majority slots and turned face up, then their reveal icons
/// carried out, left card then right card (DECISIONS A15). A grade-2 card that a reveal puts on
/// top of the deck stays there for the next draw.
pub(crate) fn reveal_majority(ctx: &mut Ctx, state: &mut GameState) {
    let data = ctx.data;
    let draw_first = state.engine_version >= MAJORITY_DRAWN_BEFORE_REVEALS;
    for seat in luna_seats(state) {
        let mut drawn = Vec::with_capacity(2);
        for m in 0..2 {
            let Some(card) = draw(ctx, state, seat) else {
                continue;
            };
            if let Some(l) = luna_mut(state, seat) {
                l.majority[m] = Some(card);
            }
            let c = &data.luna_cards.cards[card as usize];
            ctx.say(
                if m == 0 {
                    "event.luna_majority_left"
                } else {
                    "event.luna_majority_right"
                },
                &[
                    ("grade", &numbering::roman(c.grade)),
                    ("left", &c.majority.left),
                    ("right", &c.majority.right),
                    ("scientists", &c.majority.scientists),
                ],
            );
            if draw_first {
                drawn.push(card);
            } else {
                // Engine version 1: the left card's reveal came before the right card's draw.
                reveal(ctx, state, seat, card);
            }
        }
        for card in drawn {
            reveal(ctx, state, seat, card);
        }
        say_blocked(ctx, state, seat);
    }
}

/// Says which majority bonus spaces Luna's majority cards close this round, and to whom.
/// Values only fall during the Action phase (used cards no longer count), so a space closed now
/// stays closed to that player until she discards the card.
fn say_blocked(ctx: &mut Ctx, state: &GameState, seat: usize) {
    let data = ctx.data;
    let items: Vec<String> = (state.luna_closed_spaces(data, seat).iter())
        .map(|c| {
            let names = names_of(state, &c.below);
            let args: [(&str, &dyn std::fmt::Display); 3] = [
                ("space", &data.bonus_space_name(c.space)),
                ("value", &c.value),
                ("names", &names),
            ];
            let id = &data.board.bonus_spaces[c.space].id;
            crate::text::name_ref(
                "event.luna_block_item",
                &args,
                &format!("{id} ({})", c.value),
            )
        })
        .collect();
    match items.is_empty() {
        true => ctx.say("event.luna_blocks_nothing", &[]),
        false => ctx.say("event.luna_blocks", &[("spaces", &items.join("; "))]),
    }
}

/// Says the spaces open again after Luna discarded a majority card, to the players still
/// playing: their options would otherwise reappear unexplained.
fn say_reopened(ctx: &mut Ctx, state: &GameState, opened: Vec<(usize, Vec<usize>)>) {
    let data = ctx.data;
    let items: Vec<String> = (opened.iter())
        .map(|(space, seats)| {
            let names = names_of(state, seats);
            let args: [(&str, &dyn std::fmt::Display); 2] =
                [("space", &data.bonus_space_name(*space)), ("names", &names)];
            let id = &data.board.bonus_spaces[*space].id;
            crate::text::name_ref("event.luna_reopen_item", &args, id)
        })
        .collect();
    if !items.is_empty() {
        ctx.say("event.luna_reopens", &[("spaces", &items.join("; "))]);
    }
}

fn names_of(state: &GameState, seats: &[usize]) -> String {
    let names: Vec<&str> = seats
        .iter()
        .map(|&s| state.seats[s].name.as_str())
        .collect();
    names.join(", ")
}

/// Carries out the reveal icon of a majority card.
fn reveal(ctx: &mut Ctx, state: &mut GameState, seat: usize, card: u8) {
    match ctx.data.luna_cards.cards[card as usize].reveal {
        Some(LunaReveal::GainHelium { n }) => tank(ctx, state, seat, n, Some(card)),
        Some(LunaReveal::AdvanceResearch { n }) => research(ctx, state, seat, n, Some(card)),
        None => {}
    }
}

/// Luna's value for a majority space, from her majority slots (None if she has none).
pub(crate) fn majority_value(
    data: &GameData,
    state: &GameState,
    seat: usize,
    compare: MajorityCompare,
) -> Option<u32> {
    luna_majority_value(data, &luna(state, seat)?.majority, compare)
}

/// Luna's value for a majority space from the cards in her two majority slots (left, right):
/// the scientists of both cards for the research scientist space, else the number printed for
/// the space's icon on the card in the slot that shows it (None while that slot is empty).
/// The one place this is worked out: the rules and the board image both ask here.
pub fn luna_majority_value(
    data: &GameData,
    majority: &[Option<u8>; 2],
    compare: MajorityCompare,
) -> Option<u32> {
    let card = |m: usize| majority[m].and_then(|c| data.luna_cards.cards.get(c as usize));
    if compare == MajorityCompare::ResearchScientistCards {
        return Some((0..2).filter_map(card).map(|c| c.majority.scientists).sum());
    }
    let icon = match compare {
        MajorityCompare::TitaniumUnits => MajorityIcon::Titanium,
        MajorityCompare::CarbonUnits => MajorityIcon::Carbon,
        MajorityCompare::EnergyPoints => MajorityIcon::EnergyPoints,
        MajorityCompare::MineralsUnits => MajorityIcon::Minerals,
        MajorityCompare::ResearchScientistCards => return None,
    };
    let slots = &data.luna_board.majority_slots;
    for (m, icons) in [&slots.left_slot, &slots.right_slot]
        .into_iter()
        .enumerate()
    {
        if let Some(pos) = icons.iter().position(|i| *i == icon) {
            return card(m).map(|c| {
                if pos == 0 {
                    c.majority.left
                } else {
                    c.majority.right
                }
            });
        }
    }
    None
}

/// Preparation: her majority cards go to her discard pile.
pub(crate) fn preparation(ctx: &mut Ctx, state: &mut GameState) {
    for seat in luna_seats(state) {
        let mut discarded = 0;
        if let Some(l) = luna_mut(state, seat) {
            for m in 0..2 {
                if let Some(c) = l.majority[m].take() {
                    l.discard.push(c);
                    discarded += 1;
                }
            }
        }
        if discarded > 0 {
            ctx.say("event.luna_prep", &[("n", &discarded)]);
        }
        state.seats[seat].planned = true;
    }
}

/// Luna's turn: flip the leftmost face-down card and carry out its actions; after the rightmost,
/// her cards go to the discard pile, one majority card may follow, and she drops out.
pub(crate) fn take_turn(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let Some(l) = luna(state, seat) else { return };
    let next = (0..5).find(|&i| l.slots[i].is_some_and(|s| !s.face_up));
    if let Some(slot) = next {
        let card = l.slots[slot].map(|s| s.card).unwrap_or(0);
        if let Some(l) = luna_mut(state, seat) {
            l.slots[slot] = Some(LunaSlot {
                card,
                face_up: true,
            });
        }
        let letter = data
            .luna_board
            .action_slots
            .order
            .get(slot)
            .copied()
            .unwrap_or('b');
        let c = &data.luna_cards.cards[card as usize];
        ctx.count("luna_turn");
        ctx.say(
            "event.luna_card",
            &[
                ("grade", &numbering::roman(c.grade)),
                ("slot", &numbering::slot(slot)),
            ],
        );
        let mut selected: Vec<Company> = Vec::new();
        for action in &c.actions {
            ctx.count(action.kind());
            carry_out(ctx, state, seat, letter, action, &mut selected);
        }
    }
    let more = luna(state, seat).is_some_and(|l| l.slots.iter().flatten().any(|s| !s.face_up));
    if !more {
        end_of_phase(ctx, state, seat);
    }
}

fn end_of_phase(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let closed_before = state.luna_closed_spaces(data, seat);
    let mut discarded = false;
    let GameState { seats, rng, .. } = state;
    let Some(l) = seats[seat].luna.as_mut() else {
        return;
    };
    let mut played: Vec<u8> = l
        .slots
        .iter_mut()
        .filter_map(|s| s.take())
        .map(|s| s.card)
        .collect();
    played.shuffle(rng);
    l.discard.extend(played);
    if let Some(&top) = l.discard.last() {
        let m = data.luna_cards.cards[top as usize].majority;
        // Luna's cards carry no printed name: the line says what the card shows.
        let args: [(&str, &dyn std::fmt::Display); 2] = [("left", &m.left), ("right", &m.right)];
        let remove = if m.left > m.right {
            Some(0)
        } else if m.right > m.left {
            Some(1)
        } else {
            None
        };
        match remove {
            Some(side) => {
                if let Some(c) = l.majority[side].take() {
                    l.discard.push(c);
                    discarded = true;
                    ctx.count("luna_majority_discard");
                    ctx.say(
                        if side == 0 {
                            "event.luna_discards_left"
                        } else {
                            "event.luna_discards_right"
                        },
                        &args,
                    );
                }
            }
            None => {
                ctx.count("luna_majority_equal");
                ctx.say("event.luna_majority_equal", &args);
            }
        }
    }
    if discarded {
        let opened = state.luna_reopened_spaces(data, seat, &closed_before);
        say_reopened(ctx, state, opened);
    }
    state.seats[seat].dropped_out = true;
    ctx.say("event.luna_drops_out", &[]);
}

fn carry_out(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    letter: char,
    action: &LunaAction,
    selected: &mut Vec<Company>,
) {
    let data = ctx.data;
    match action {
        LunaAction::GainCoins { n } => {
            effects::gain_coins_saying(ctx, state, seat, *n, "event.luna_coins_card", &[])
        }
        LunaAction::GainHelium { n } => tank(ctx, state, seat, *n, None),
        LunaAction::AdvanceResearch { n } => research(ctx, state, seat, *n, None),
        LunaAction::AdvanceCompany { n, company } => {
            *selected = state.luna_select(data, seat, *company);
            for c in selected.clone() {
                // The summary names the rule she applied.
                let key = match company {
                    CompanySelector::MostValuable => "event.luna_advances_most_valuable",
                    CompanySelector::SecondMostValuable => "event.luna_advances_second",
                    CompanySelector::LeastValuable => "event.luna_advances_least",
                    CompanySelector::MostValuableTwoEach => "event.luna_advances_two_valuable",
                    CompanySelector::LeadBiggestMargin => "event.luna_advances_lead",
                    CompanySelector::LeadBiggestMarginTwoEach => "event.luna_advances_two_lead",
                    CompanySelector::AllFourEach => "event.luna_advances_all",
                };
                // The spaces she really moves (past the end of a track she gains coins
                // instead, said on their own line; at the end already, only that line).
                let pos = u32::from(state.seats[seat].track_pos[c.index()]);
                let last = data.tracks.tracks[state.tracks[c.index()]].last_space;
                let moved = (*n).min(last.saturating_sub(pos));
                if moved > 0 {
                    ctx.say(
                        key,
                        &[
                            ("n", &moved),
                            ("company", &data.company_name(c)),
                            ("coins", &state.share_value(data, c)),
                            ("margin", &state.luna_margin(seat, c)),
                        ],
                    );
                }
                track_move(ctx, state, seat, c, *n);
            }
        }
        LunaAction::ExpandCompany {
            points,
            company,
            sector,
        } => {
            let mut companies = if selected.is_empty() {
                state.luna_select(data, seat, *company)
            } else {
                selected.clone()
            };
            // With two companies, the less valuable one first (DECISIONS A13).
            let ranking = state.luna_value_ranking(data);
            companies.sort_by_key(|c| std::cmp::Reverse(ranking.iter().position(|r| r == c)));
            for c in companies {
                expand(ctx, state, seat, c, *points, *sector);
            }
        }
        LunaAction::GainCard(pick) => gain_cards(ctx, state, seat, letter, pick),
        LunaAction::PlaceBonusMarker { cell_by_slot, .. } => {
            let space = cell_by_slot.get(&letter).and_then(|[row, col]| {
                let id = data.board.bonus_area.grid.get(*row)?.get(*col)?;
                data.board.bonus_spaces.iter().position(|b| &b.id == id)
            });
            // Every card designates a space for every slot, and her 5 markers cover her 5 slots.
            let Some(space) = space else { return };
            let name = data.bonus_space_name(space);
            if state.bonus_spaces[space].is_some() {
                ctx.count("luna_bonus_space_taken");
                ctx.say("event.luna_bonus_taken", &[("space", &name)]);
            } else if state.seats[seat].markers_reserve > 0 {
                state.bonus_spaces[space] = Some(super::state::Marker {
                    seat,
                    one_time: false,
                });
                state.seats[seat].markers_reserve -= 1;
                ctx.say("event.luna_bonus_marker", &[("space", &name)]);
            }
        }
        LunaAction::DiscardResearchPlan(pick) => discard_plan(ctx, state, letter, pick),
    }
}

/// Moves Luna's helium-3 marker: ON switch, Luna tokens, 2 coins per step past the final space.
/// `reveal`: the majority card whose reveal icon moves it (None: a card action or her token).
pub(crate) fn tank(ctx: &mut Ctx, state: &mut GameState, seat: usize, n: u32, reveal: Option<u8>) {
    let track = &ctx.data.luna_board.tank_track;
    let from = state.seats[seat].tank as u32;
    let to = (from + n).min(track.final_step);
    state.seats[seat].tank = to as u8;
    if to > from {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("steps", &(to - from)), ("to", &to)];
        say_move(
            ctx,
            reveal,
            "event.luna_helium",
            "event.luna_helium_reveal",
            &args,
        );
    }
    let slot = slot_of(ctx.data, track.switch_on_slot);
    marker_moved(ctx, state, seat, from, to, track.switch_on_step, slot, true);
    let overflow = from + n - to;
    if overflow > 0 {
        let coins = overflow * track.overflow_coins_per_step;
        let key = "event.luna_coins_tank_end";
        effects::gain_coins_saying(ctx, state, seat, coins, key, &[("steps", &overflow)]);
    }
}

/// Moves Luna's upload marker over her (empty) research screens (`reveal` as for [`tank`]).
pub(crate) fn research(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    n: u32,
    reveal: Option<u8>,
) {
    let track = &ctx.data.luna_board.research_track;
    let from = state.seats[seat].upload.unwrap_or(0) as u32;
    let to = (from + n).min(track.final_step);
    state.seats[seat].upload = Some(to as u8);
    if to > from {
        let args: [(&str, &dyn std::fmt::Display); 2] = [
            ("steps", &(to - from)),
            ("screen", &numbering::screen(to as usize)),
        ];
        say_move(
            ctx,
            reveal,
            "event.luna_research",
            "event.luna_research_reveal",
            &args,
        );
    }
    let slot = slot_of(ctx.data, track.switch_on_slot);
    marker_moved(
        ctx,
        state,
        seat,
        from,
        to,
        track.switch_on_step,
        slot,
        false,
    );
    let overflow = from + n - to;
    if overflow > 0 {
        let coins = overflow * track.overflow_coins_per_step;
        let key = "event.luna_coins_research_end";
        effects::gain_coins_saying(ctx, state, seat, coins, key, &[("steps", &overflow)]);
    }
}

/// Announces a marker move: by a card action (`key`) or by a majority card's reveal icon
/// (`reveal_key`, naming the card).
fn say_move(
    ctx: &mut Ctx,
    reveal: Option<u8>,
    key: &str,
    reveal_key: &str,
    args: &[(&str, &dyn std::fmt::Display)],
) {
    // A reveal is said right after the line showing the majority card it belongs to ("its
    // reveal icon"): Luna's cards carry no printed name to cite.
    ctx.say(if reveal.is_some() { reveal_key } else { key }, args);
}

fn slot_of(data: &GameData, letter: char) -> usize {
    data.luna_board
        .action_slots
        .order
        .iter()
        .position(|l| *l == letter)
        .unwrap_or(0)
}

#[allow(clippy::too_many_arguments)]
fn marker_moved(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    from: u32,
    to: u32,
    on_step: u32,
    slot: usize,
    helium: bool,
) {
    let data = ctx.data;
    let level = luna(state, seat).map(|l| l.level).unwrap_or(2);
    let extra_slots = data
        .luna_board
        .level(level as u32)
        .is_none_or(|l| l.extra_slots);
    if extra_slots && from < on_step && to >= on_step && !state.seats[seat].slot_on[slot] {
        state.seats[seat].slot_on[slot] = true;
        ctx.count("luna_slot_on");
        ctx.say("event.luna_slot_on", &[]);
    }
    // Each Luna token reached or passed adds a grade-2 card on top of her deck.
    let Some(l) = luna_mut(state, seat) else {
        return;
    };
    let tokens = if helium {
        &mut l.helium_tokens
    } else {
        &mut l.research_tokens
    };
    let hit: Vec<u32> = tokens
        .iter()
        .copied()
        .filter(|t| *t > from && *t <= to)
        .collect();
    tokens.retain(|t| !hit.contains(t));
    let mut added = Vec::with_capacity(hit.len());
    for _ in &hit {
        let card = l.grade2.pop();
        if let Some(c) = card {
            l.deck.push(c);
        }
        added.push(card.is_some());
        ctx.count("luna_token");
    }
    for (token, added) in hit.into_iter().zip(added) {
        let key = match (helium, added) {
            (_, false) => "event.luna_token_empty",
            (true, true) => "event.luna_token_helium",
            (false, true) => "event.luna_token_research",
        };
        // Tank spaces as steps, research screens from the starting screen = screen 1.
        let at = if helium {
            token as usize
        } else {
            numbering::screen(token as usize)
        };
        ctx.say(key, &[("at", &at)]);
    }
}

/// Luna moves on a company track: barriers paid as far as she can (she keeps moving),
/// thresholds pay out as usual, past the end 2 coins per space; her track bonuses are ignored.
pub(crate) fn track_move(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    steps: u32,
) {
    let mut beyond = 0;
    for _ in 0..steps {
        match effects::step_status(ctx.data, state, seat, company) {
            effects::StepStatus::End => {
                ctx.count("luna_track_end_coins");
                beyond += 1;
            }
            effects::StepStatus::Barrier(cost) => {
                // She pays what she can and steps past as if paid in full.
                let paid = state.seats[seat].coins.min(cost);
                if paid < cost {
                    ctx.count("luna_partial_barrier");
                }
                effects::track_step_paying(ctx, state, seat, company, paid);
            }
            effects::StepStatus::Free => effects::track_step(ctx, state, seat, company),
        }
    }
    if beyond > 0 {
        // Past the end of a track: 2 CrypCoin per space (one line for the whole move).
        let company_name = ctx.data.company_name(company);
        effects::gain_coins_saying(
            ctx,
            state,
            seat,
            2 * beyond,
            "event.luna_coins_track_end",
            &[("steps", &beyond), ("company", &company_name)],
        );
    }
}

pub(crate) fn expand(
    ctx: &mut Ctx,
    state: &mut GameState,
    seat: usize,
    company: Company,
    points: u32,
    pick: SectorPick,
) {
    let data = ctx.data;
    if state.belt.is_some() {
        super::belt::luna_expand(ctx, state, seat, company, points, pick);
        return;
    }
    let mut placed = Vec::new();
    // Said after the expansion's line (and its company's share value): where each went, and
    // what it cost its company then.
    let mut ousted = Vec::new();
    for _ in 0..points {
        let Some(column) = state.luna_main_column(data, company) else {
            ctx.count("luna_expansion_forfeit");
            break;
        };
        let reachable: Vec<u8> = (1..=state.sectors.len() as u8)
            .filter(|&s| state.sectors[s as usize - 1] != Some(company))
            .filter(|&s| {
                data.moon_graph.neighbours[MoonGraph::sector_node(s as u32)]
                    .iter()
                    .any(|(n, _)| {
                        *n == MoonGraph::station_node(company)
                            || MoonGraph::node_sector(*n)
                                .is_some_and(|x| state.sectors[x as usize - 1] == Some(company))
                    })
            })
            .collect();
        let choose = |list: Vec<u8>| match pick {
            SectorPick::Min => list.into_iter().min(),
            SectorPick::Max => list.into_iter().max(),
        };
        let vacant: Vec<u8> = reachable
            .iter()
            .copied()
            .filter(|s| state.sectors[*s as usize - 1].is_none())
            .collect();
        let target = if vacant.is_empty() {
            // Oust from the reachable company on whose track Luna is farthest behind.
            let present: Vec<Company> = reachable
                .iter()
                .filter_map(|s| state.sectors[*s as usize - 1])
                .collect();
            let victim = state
                .luna_behind_ranking(data, seat)
                .into_iter()
                .find(|c| present.contains(c));
            victim.and_then(|v| {
                choose(
                    reachable
                        .iter()
                        .copied()
                        .filter(|s| state.sectors[*s as usize - 1] == Some(v))
                        .collect(),
                )
            })
        } else {
            choose(vacant)
        };
        let Some(sector) = target else { break };
        if let Some(other) = state.sectors[sector as usize - 1] {
            let column = match state.luna_return_column(data, other) {
                Some(col) => {
                    state.stations[other.index()][col].outposts += 1;
                    Some(col as u8)
                }
                None => {
                    state.removed_outposts[other.index()] += 1;
                    None
                }
            };
            let oust = effects::Ousted::now(data, state, seat, other, sector);
            ousted.push((oust, column));
            ctx.count("luna_oust");
        }
        effects::take_outpost(state, company, column);
        state.sectors[sector as usize - 1] = Some(company);
        placed.push(sector.to_string());
    }
    if !placed.is_empty() {
        ctx.say(
            "event.luna_expands",
            &[
                ("company", &data.company_name(company)),
                ("sectors", &placed.join(", ")),
                ("count", &placed.len()),
            ],
        );
        ctx.say_share_value(company, state.share_value(data, company));
    }
    for (oust, column) in ousted {
        effects::say_ousted(ctx, state, oust, column);
    }
}

fn gain_cards(ctx: &mut Ctx, state: &mut GameState, seat: usize, letter: char, pick: &CardPick) {
    let data = ctx.data;
    // Why she takes it, for her line: the space her card names for this slot, or the share of
    // the most valuable company.
    let mut why = "event.luna_takes_card";
    let spaces: Vec<usize> = match pick {
        CardPick::SlotMatrix { spaces_by_slot, .. } => spaces_by_slot
            .get(&letter)
            .map(|v| v.iter().map(|s| *s as usize).collect())
            .unwrap_or_default(),
        CardPick::MostValuableShare => {
            let ranking = state.luna_value_ranking(data);
            let best = (1..=12usize)
                .filter_map(|space| {
                    let card = state.display[space - 1]?;
                    let company = data.card(card).share?;
                    Some((
                        ranking.iter().position(|c| *c == company).unwrap_or(4),
                        space,
                    ))
                })
                .min();
            why = "event.luna_takes_share_card";
            if best.is_none() {
                // Her card's action happens, with nothing to take: said, so that a player
                // checking her card against the display is not left guessing.
                ctx.say("event.luna_takes_no_share_card", &[]);
            }
            best.map(|(_, space)| vec![space]).unwrap_or_default()
        }
    };
    for space in spaces {
        let Some(card): Option<CardId> =
            state.display.get(space.wrapping_sub(1)).copied().flatten()
        else {
            ctx.say(
                "event.luna_takes_no_card",
                &[("space", &space), ("slot", &slot_number(data, letter))],
            );
            continue;
        };
        state.display[space - 1] = None;
        if let Some(l) = luna_mut(state, seat) {
            l.reserve_cards.push(card);
        }
        ctx.count("luna_gain_card");
        let company = data
            .card(card)
            .share
            .map(|c| data.company_name(c))
            .unwrap_or_default();
        ctx.say(
            why,
            &[
                ("card", &data.card_label(card)),
                ("space", &space),
                ("slot", &slot_number(data, letter)),
                ("company", &company),
            ],
        );
    }
}

fn discard_plan(ctx: &mut Ctx, state: &mut GameState, letter: char, pick: &PlanPick) {
    let data = ctx.data;
    match pick.row() {
        Some((row_letter, row)) => {
            let Some(position) = row.position_by_slot.get(&letter) else {
                return;
            };
            let space = data
                .board
                .research_display
                .spaces
                .iter()
                .position(|s| s.letter == row_letter && s.position as usize == *position);
            if let Some(i) = space {
                let Some(plan) = state.research_display[i].take() else {
                    ctx.say(
                        "event.luna_discards_no_plan",
                        &[
                            ("space", &data.board.research_display.spaces[i].id),
                            ("slot", &slot_number(data, letter)),
                        ],
                    );
                    return;
                };
                {
                    ctx.count("luna_discard_plan");
                    ctx.say(
                        "event.luna_discards_plan",
                        &[
                            ("plan", &data.plan_label(plan)),
                            ("space", &data.board.research_display.spaces[i].id),
                            ("slot", &slot_number(data, letter)),
                        ],
                    );
                    super::round::refill_research_display(state, ctx);
                }
            }
        }
        None => {
            let latest = (0..state.specials.len())
                .rev()
                .find(|&i| state.specials[i].face_up && !state.specials[i].taken);
            if let Some(i) = latest {
                state.specials[i].taken = true;
                ctx.count("luna_discard_special");
                ctx.say(
                    "event.luna_discards_special",
                    &[
                        ("plan", &data.special_plan_label(i)),
                        ("round", &data.research.special_plans[i].round),
                    ],
                );
            } else {
                ctx.say("event.luna_discards_no_special", &[]);
            }
        }
    }
}

/// The number players call Luna's action slot `letter` (1–5 from the left).
fn slot_number(data: &GameData, letter: char) -> usize {
    data.luna_board
        .action_slots
        .order
        .iter()
        .position(|l| *l == letter)
        .map_or(0, numbering::slot)
}

/// Luna's research score: her track value (she never has special plans).
pub(crate) fn research_score(data: &GameData, state: &GameState, seat: usize) -> u32 {
    data.luna_board
        .research_track
        .score(state.seats[seat].upload.unwrap_or(0) as u32)
}

/// Luna's tank score.
pub(crate) fn tank_score(data: &GameData, state: &GameState, seat: usize) -> u32 {
    data.luna_board
        .tank_track
        .score(state.seats[seat].tank as u32)
}
