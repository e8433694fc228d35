//! Game setup (rulebook, "Setup", steps 1–13): tracks, stations, decks, displays, seats, starting
//! tokens, and the setup decisions: keeping one of two dealt starting tokens (the draft), putting
//! starting cards into the central resting slots ("Gameplay variant: Linked slots", p. 23).

use super::belt::BeltState;
use super::decision::Decision;
use super::effects;
use super::flow::Ctx;
use super::state::{
    Column, GameState, Phase, PlacedPlan, PlanRef, Seat, SeatKind, SpecialSlot, StationShape,
    TileState,
};
use super::{
    illegal, BoardSide, Event, GameOptions, Message, RuleError, SetupError, TokenSetup, TrackSetup,
    ENGINE_VERSION,
};
use crate::data::campaign::{PreplacedFrom, PreplacedOutposts, TakeRule};
use crate::data::{CardId, Company, GameData, PlanId};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(crate) fn new_game(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
) -> Result<GameState, SetupError> {
    // Every replay starts here: no events built only to be thrown away.
    set_up(options, names, Ctx::quiet(data)).map(|(state, _)| state)
}

/// [`new_game`] with what the set-up did that players see (tokens with their starting bonuses,
/// the starting cards rested, Luna's seat), for the game's first message.
pub(crate) fn new_game_said(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
) -> Result<(GameState, Vec<Event>), SetupError> {
    set_up(options, names, Ctx::new(data))
}

fn set_up(
    options: &GameOptions,
    names: &[String],
    mut ctx: Ctx,
) -> Result<(GameState, Vec<Event>), SetupError> {
    let data = ctx.data;
    let options = &super::campaign::effective_options(data, options)?;
    check_options(data, options)?;
    if names.len() != options.players {
        return Err(SetupError::Names(names.len(), options.players));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let tracks = allot_tracks(data, &options.tracks, &mut rng)?;

    // Action card stack: each letter shuffled on its own, E at the bottom, A on top.
    let mut action_stack: Vec<CardId> = Vec::new();
    for letter in &data.action_cards.deck.stack_bottom_to_top {
        let mut cards = data.action_cards_with_letter(*letter);
        cards.shuffle(&mut rng);
        action_stack.extend(cards);
    }
    let mut display = [None; 12];
    for space in display.iter_mut() {
        *space = action_stack.pop();
    }

    // Research plan supplies and display.
    let mut plan_supply: [Vec<PlanId>; 3] = Default::default();
    for (i, letter) in ['A', 'B', 'C'].iter().enumerate() {
        let mut plans: Vec<PlanId> = data
            .research
            .plans
            .iter()
            .enumerate()
            .filter(|(_, p)| p.letter == *letter)
            .map(|(k, _)| k as PlanId)
            .collect();
        plans.shuffle(&mut rng);
        plan_supply[i] = plans;
    }
    let research_display = data
        .board
        .research_display
        .spaces
        .iter()
        .map(|s| plan_supply[letter_index(s.letter)].pop())
        .collect();

    let participants = options.players + usize::from(options.luna.is_some());
    let markers = if participants <= 2 { 3 } else { 2 };
    let slot_on = {
        let mut on = [false; 5];
        for i in data.player_board.initially_on() {
            on[i] = true;
        }
        on
    };
    let screens = data.player_board.research_track.screens as usize;
    let mut seats: Vec<Seat> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut hand = data.starting_cards_of(i);
            if let Some(c) = data.single_energy_card(i + 1) {
                hand.push(c);
            }
            Seat {
                name: name.clone(),
                kind: SeatKind::Human,
                colour: i,
                hand,
                slots: [None; 5],
                slot_on,
                resting: Default::default(),
                coins: 1,
                markers_reserve: markers,
                markers_total: markers,
                tank: 0,
                research: vec![None; screens],
                upload: None,
                track_pos: [0; 4],
                bonus_active: 0,
                bonus_pending: 0,
                planned: false,
                dropped_out: false,
                token: None,
                token_choices: Vec::new(),
                pending_rest: Vec::new(),
                turns_this_round: 0,
                acquired: Vec::new(),
                tank_steps_this_action: 0,
                luna: None,
                mission: None,
            }
        })
        .collect();

    let mut spare_tokens = Vec::new();
    match options.tokens {
        TokenSetup::Fixed => {
            let by_seat = data.research.first_game_tokens.by_seat();
            for (i, seat) in seats.iter_mut().enumerate() {
                seat.token = data
                    .research
                    .starting_tokens
                    .iter()
                    .position(|t| t.id == by_seat[i]);
            }
        }
        TokenSetup::Draft => {
            let mut tokens: Vec<usize> = (0..data.research.starting_tokens.len()).collect();
            tokens.shuffle(&mut rng);
            for seat in seats.iter_mut() {
                seat.token_choices = tokens.drain(..2.min(tokens.len())).collect();
            }
            spare_tokens = tokens;
        }
    }

    let mut state = GameState {
        state_version: super::state::STATE_VERSION,
        engine_version: ENGINE_VERSION,
        data_hash: data.hash.clone(),
        options: options.clone(),
        rng,
        round: 1,
        phase: Phase::Setup,
        seats: Vec::new(),
        first_player: 0,
        next_first_player: 0,
        active: None,
        tracks,
        stations: [station_columns(data, options.board); 4],
        sectors: match options.board {
            BoardSide::Moon => vec![None; data.moon.sectors.len()],
            BoardSide::Belt => Vec::new(),
        },
        removed_outposts: [0; 4],
        action_stack,
        discard: Vec::new(),
        display,
        plan_supply,
        research_display,
        supplement_coins: data.board.supplement_space.setup_coins,
        specials: vec![
            SpecialSlot {
                coin_under: true,
                face_up: false,
                taken: false,
            };
            data.research.special_plans.len()
        ],
        bonus_spaces: vec![None; data.board.bonus_spaces.len()],
        track_bonus_spaces: vec![None; data.tracks.bonuses.len()],
        tiles: [TileState::Supply; 4],
        agenda: Vec::new(),
        decisions_applied: 0,
        spare_tokens,
        belt: (options.board == BoardSide::Belt).then(|| BeltState::new(data)),
        threat: None,
        missions: None,
    };
    state.seats = std::mem::take(&mut seats);

    // Tokens given by seat are public from the start unless a set-up choice is still to come
    // (linked slots): then they are said when the set-up ends (`perform_decision`).
    let said_now = options.tokens == TokenSetup::Fixed && !options.linked_slots;
    for seat in 0..state.seats.len() {
        if let Some(token) = state.seats[seat].token {
            if said_now {
                ctx.say(
                    "event.token_revealed",
                    &[
                        ("name", &state.seats[seat].name),
                        ("token", &data.token_label(token)),
                    ],
                );
            }
            apply_token(&mut ctx, &mut state, seat);
        }
    }
    // Modules are set up after the basic game (missions, then the threat card), Luna last.
    if options.missions {
        super::missions::setup(data, &mut state);
    }
    if options.threats {
        super::threats::setup(data, &mut state, options.threat_card.as_deref());
    }
    if let Some(pre) = options
        .chapter
        .and_then(|n| data.campaign.chapter(n as u32))
        .and_then(|c| c.preplaced_outposts)
    {
        preplace_outposts(data, &mut state, pre);
    }
    if let Some(level) = options.luna {
        if options.tokens == TokenSetup::Fixed {
            let used: Vec<Option<usize>> = state.seats.iter().map(|s| s.token).collect();
            state.spare_tokens = (0..data.research.starting_tokens.len())
                .filter(|t| !used.contains(&Some(*t)))
                .collect();
        }
        super::luna::add_seat(&mut ctx, &mut state, level);
    }
    if state.seats.iter().all(|s| s.setup_done()) {
        state.phase = Phase::Planning;
    }
    Ok((state, ctx.events))
}

/// A full station on the side in play (Moon: 3 columns of 5 outposts; Belt: 6 outposts, 5
/// shuttles, 6 outposts).
fn station_columns(data: &GameData, side: BoardSide) -> [Column; 3] {
    let shape = StationShape::of(data, side);
    shape.spaces.map(Column::full_of)
}

/// Chapter 3: the top outpost of each station column goes onto the sectors moon.toml lists.
fn preplace_outposts(data: &GameData, state: &mut GameState, pre: PreplacedOutposts) {
    let PreplacedOutposts {
        from: PreplacedFrom::MoonChapter3,
        take: TakeRule::TopOfEachColumn,
    } = pre;
    for company in Company::ALL {
        let sectors = data.moon.chapter3.sectors(company);
        for (column, sector) in sectors.iter().enumerate() {
            let Some(slot) = state.sectors.get_mut((*sector as usize).wrapping_sub(1)) else {
                continue;
            };
            if column < 3 && state.stations[company.index()][column].outposts > 0 {
                *slot = Some(company);
                effects::take_outpost(state, company, column);
            }
        }
    }
}

fn check_options(data: &GameData, o: &GameOptions) -> Result<(), SetupError> {
    if !(1..=4).contains(&o.players) {
        return Err(SetupError::PlayerCount(o.players));
    }
    if let Some(level) = o.luna {
        if level > 8 {
            return Err(SetupError::LunaLevel(level));
        }
        if o.players == 4 {
            return Err(SetupError::LunaWithFour);
        }
    }
    if o.players == 1 && o.luna.is_none() {
        return Err(SetupError::SoloNeedsLuna);
    }
    if o.threats && o.board != BoardSide::Belt {
        return Err(SetupError::ThreatsNeedBelt);
    }
    if let Some(id) = &o.threat_card {
        if data.threats.threat(id).is_none() {
            return Err(SetupError::UnknownThreat(id.clone()));
        }
    }
    Ok(())
}

fn letter_index(letter: char) -> usize {
    match letter {
        'A' => 0,
        'B' => 1,
        _ => 2,
    }
}

/// Track index per company (Skymine, Minerva, Astrogo, Tawac).
fn allot_tracks(
    data: &GameData,
    setup: &TrackSetup,
    rng: &mut ChaCha8Rng,
) -> Result<[usize; 4], SetupError> {
    let find = |id: &str| {
        data.track_index(id)
            .ok_or_else(|| SetupError::UnknownTrack(id.to_string()))
    };
    let mut out = [0usize; 4];
    match setup {
        TrackSetup::Default => {
            for c in Company::ALL {
                let id = data
                    .moon
                    .company(c)
                    .map(|e| e.default_track.clone())
                    .unwrap_or_default();
                out[c.index()] = find(&id)?;
            }
        }
        TrackSetup::Random => {
            // Shuffle the track cards, one per board edge; the half touching the edge names
            // the track.
            let mut cards: Vec<usize> = (0..data.tracks.cards.len()).collect();
            cards.shuffle(rng);
            for c in Company::ALL {
                let card = &data.tracks.cards[cards[c.index()]];
                let half = rng.gen_range(0..card.halves.len());
                out[c.index()] = find(&card.halves[half])?;
            }
        }
        TrackSetup::Chosen(ids) => {
            if ids.len() != 4 {
                return Err(SetupError::BadTrackChoice(ids.clone()));
            }
            let mut physical = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                let t = find(id)?;
                physical.push(data.tracks.tracks[t].physical_track);
                out[i] = t;
            }
            physical.sort();
            physical.dedup();
            if physical.len() != 4 {
                return Err(SetupError::BadTrackChoice(ids.clone()));
            }
        }
    }
    Ok(out)
}

/// Setup step 13 once a seat's token is known: token on the starting screen, the 3 matching
/// cards into the central resting slots, the starting bonus.
pub(crate) fn apply_token(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let data = ctx.data;
    let Some(token) = state.seats[seat].token else {
        return;
    };
    let t = &data.research.starting_tokens[token];
    state.seats[seat].research[0] = Some(PlacedPlan {
        plan: PlanRef::Token,
        face_down: false,
    });
    let colour = state.seats[seat].colour;
    let cards: Vec<CardId> = t
        .rest_icons
        .iter()
        .filter_map(|icon| data.starting_card(colour, icon))
        .collect();
    if state.options.linked_slots {
        // Which central slot holds which card matters with linked slots: the player chooses.
        state.seats[seat].pending_rest = cards;
    } else {
        let central: Vec<usize> = data
            .player_board
            .resting_slots
            .central
            .iter()
            .map(|c| c - 1)
            .collect();
        for (card, slot) in cards.into_iter().zip(central) {
            state.seats[seat].hand.retain(|c| *c != card);
            state.seats[seat].resting[slot].push(card);
            say_rested_starting(ctx, state, seat, card, slot);
        }
    }
    for bonus in &t.start_bonus {
        if bonus.track == "tank" {
            effects::tank(ctx, state, seat, bonus.n);
        } else if let Some(c) = Company::parse(&bonus.track) {
            effects::track_move_auto(ctx, state, seat, c, bonus.n);
        }
    }
    state.seats[seat].tank_steps_this_action = 0;
}

// ------------------------------------------------------------------------------------------
// The setup decisions (simultaneous, secret)

/// Every setup choice of a seat, in a fixed order (the legal ones are found by `check_decision`).
pub(crate) fn decision_candidates(
    data: &GameData,
    state: &GameState,
    seat: usize,
) -> Vec<Decision> {
    let s = &state.seats[seat];
    let mut out: Vec<Decision> = s
        .token_choices
        .iter()
        .map(|t| Decision::KeepToken { token: *t as u8 })
        .collect();
    for card in &s.pending_rest {
        for slot in &data.player_board.resting_slots.central {
            out.push(Decision::RestStartingCard {
                card: *card,
                slot: (*slot - 1) as u8,
            });
        }
    }
    out
}

/// Validates a setup decision.
pub(crate) fn check_decision(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match d {
        Decision::KeepToken { token } => {
            if s.token.is_some() {
                return Err(illegal("rule.token_chosen", &[]));
            }
            if !s.token_choices.contains(&(token as usize)) {
                return Err(illegal("rule.token_not_dealt", &[]));
            }
            Ok(())
        }
        Decision::RestStartingCard { card, slot } => {
            if !s.pending_rest.contains(&card) {
                return Err(illegal("rule.not_a_starting_card", &[]));
            }
            let central = &data.player_board.resting_slots.central;
            if !central.contains(&(slot as usize + 1)) {
                return Err(illegal("rule.starting_slots", &[]));
            }
            if !s.resting[slot as usize].is_empty() {
                return Err(illegal("rule.resting_slot_taken", &[]));
            }
            Ok(())
        }
        _ => Err(RuleError::NotNow(Message::new("rule.setting_up", &[]))),
    }
}

/// Carries out a validated setup decision.
pub(crate) fn perform_decision(ctx: &mut Ctx, st: &mut GameState, seat: usize, d: Decision) {
    match d {
        Decision::KeepToken { token } => {
            let seat_state = &mut st.seats[seat];
            let other: Vec<usize> = seat_state
                .token_choices
                .iter()
                .copied()
                .filter(|t| *t != token as usize)
                .collect();
            seat_state.token = Some(token as usize);
            st.spare_tokens.extend(other);
            ctx.tell(
                seat,
                "event.token_kept",
                &[("token", &ctx.data.token_label(token as usize))],
            );
            if st.seats.iter().all(|x| x.is_luna() || x.token.is_some()) {
                // Everyone has chosen: reveal together and carry out step 13.
                let humans: Vec<usize> = (0..st.seats.len())
                    .filter(|i| !st.seats[*i].is_luna())
                    .collect();
                for i in humans {
                    st.seats[i].token_choices.clear();
                    apply_token(ctx, st, i);
                    let id = st.seats[i]
                        .token
                        .map(|t| ctx.data.token_label(t))
                        .unwrap_or_default();
                    ctx.say(
                        "event.token_revealed",
                        &[("name", &st.seats[i].name), ("token", &id)],
                    );
                }
            }
        }
        Decision::RestStartingCard { card, slot } => {
            let seat_state = &mut st.seats[seat];
            seat_state.pending_rest.retain(|c| *c != card);
            seat_state.hand.retain(|c| *c != card);
            seat_state.resting[slot as usize].push(card);
            say_rested_starting(ctx, st, seat, card, usize::from(slot));
        }
        _ => {}
    }
    if st.seats.iter().all(|s| s.setup_done()) {
        st.phase = Phase::Planning;
        // Tokens given by seat were never secret, but the set-up kept them out of the public
        // view until now: they are said with it (drafted ones were said when revealed).
        if st.options.tokens == TokenSetup::Fixed {
            for i in (0..st.seats.len()).filter(|i| !st.seats[*i].is_luna()) {
                let id = st.seats[i]
                    .token
                    .map(|t| ctx.data.token_label(t))
                    .unwrap_or_default();
                ctx.say(
                    "event.token_revealed",
                    &[("name", &st.seats[i].name), ("token", &id)],
                );
            }
        }
        // The set-up decisions are over: the first round's planning begins.
        ctx.say(
            "event.round_begins",
            &[
                ("round", &st.round),
                ("name", &st.seats[st.first_player].name),
            ],
        );
    }
}

/// Says that a starting card went from the hand to resting slot `slot` (0-based): one line per
/// card, which the chat layer reads as one list.
fn say_rested_starting(ctx: &mut Ctx, state: &GameState, seat: usize, card: CardId, slot: usize) {
    let data = ctx.data;
    let rested = crate::text::Deferred(|| {
        crate::text::name_ref(
            "event.rested_card",
            &[
                ("card", &data.card_label(card)),
                ("slot", &crate::data::numbering::slot(slot)),
            ],
            &format!(
                "card on resting slot {}",
                crate::data::numbering::slot(slot)
            ),
        )
    });
    ctx.say(
        "event.rests_starting",
        &[("name", &state.seats[seat].name), ("cards", &rested)],
    );
}
