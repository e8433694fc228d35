//! Issue 19, the modules as a careful player sees them: Belt choices name the Belt space's
//! kind and ask the station column only when it matters; the threat option states the whole
//! energy it takes; the event lines carry no empty fragments; final scoring says what the
//! threat's consequence and the wild share did; a one-time bonus marker is named as such.

use super::numbering::fixture;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::testing;
use skymines::data::Company;
use skymines::engine::{self, BoardSide, Decision, GameOptions, GameState, Phase, Task};

/// Seeded self-play on the Belt until `seat`'s energy action asks for a Belt space (with at
/// least one outpost space offered).
fn belt_expansion(seed: u64) -> Option<(GameState, usize)> {
    let data = skymines::data::GameData::embedded().expect("data");
    let options = GameOptions {
        players: 3,
        seed,
        board: BoardSide::Belt,
        ..GameOptions::default()
    };
    let mut state = engine::new_game(&data, &options, &skymines::sim::seat_names(3)).ok()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..4000 {
        if state.phase == Phase::Finished {
            return None;
        }
        if let Some(Task::Expand { seat, .. }) = state.agenda.last() {
            let legal = engine::legal_decisions(&data, &state, *seat);
            let outposts = legal.iter().any(|d| {
                matches!(d, Decision::EnterBelt { target, .. }
                    if !engine::belt::is_shuttle_space(&data, *target))
            });
            if outposts {
                return Some((state.clone(), *seat));
            }
        }
        let waiting = engine::waiting_on(&state);
        let seat = *waiting.get(rng.gen_range(0..waiting.len().max(1)))?;
        let legal = engine::legal_decisions(&data, &state, seat);
        let d = skymines::bots::weighted::choose(&mut rng, &data, &state, seat, &legal)?;
        engine::apply(&data, &mut state, seat, d).ok()?;
    }
    None
}

#[test]
fn belt_options_name_the_space_its_cost_and_the_column_only_when_it_matters() {
    let fx = fixture("modules-belt");
    let chat = &fx.chat;
    let data = testing::data(chat);
    let en = skymines::text::english();
    let mut checked = 0;
    let mut asked_column = 0;
    for seed in 1..40 {
        let Some((state, seat)) = belt_expansion(seed) else {
            continue;
        };
        checked += 1;
        // The Belt's own question, not the Moon's "enter a sector".
        let question = testing::question(chat, &state, seat);
        assert!(question.contains("Belt space"), "{question}");
        assert!(!question.contains("sector"), "{question}");
        let offered = testing::offered(&data, &state, seat);
        let matters = testing::belt_column_matters(&data, &state, seat);
        let mut targets = std::collections::BTreeMap::new();
        for d in offered.iter().copied() {
            let Decision::EnterBelt { target, space, .. } = d else {
                continue;
            };
            *targets.entry((target, space)).or_insert(0) += 1;
            let label = testing::label(chat, &state, seat, d);
            assert!(!label.contains("Belt space"), "{label}");
            if engine::belt::is_shuttle_space(&data, target) {
                assert_eq!(label, format!("Shuttle space {target}"));
            } else {
                assert!(
                    label.starts_with(&format!("Asteroid {target}, outpost space {}", space + 1)),
                    "{label}"
                );
                assert_eq!(label.contains("column"), matters, "{label}");
            }
            // Its cost and what it changes come with it.
            let choice = testing::decision_choice(chat, 1, 1, &state, seat, d, 1);
            let cost = engine::preview(&data, &state, seat, d)
                .expect("a preview")
                .costs[0]
                .amount;
            let energy = en.f("note.cost_energy", &[("amount", &cost), ("left", &0)]);
            let energy = energy.split(" (").next().unwrap_or_default();
            assert!(
                choice.description.contains(energy),
                "{label}: {}",
                choice.description
            );
        }
        for (key, n) in &targets {
            let shuttle = engine::belt::is_shuttle_space(&data, key.0);
            let most = if matters && !shuttle { 2 } else { 1 };
            assert!(*n <= most, "Belt space {key:?} offered {n} times");
        }
        // Two empty outpost spaces of one asteroid without a gas collector link are one option.
        for a in data
            .belt
            .asteroids
            .iter()
            .filter(|a| a.linked_gas_spaces.is_none())
        {
            let i = data
                .belt
                .asteroids
                .iter()
                .position(|x| x.id == a.id)
                .unwrap_or(0);
            let empty =
                |sp: u8| state.belt.as_ref().expect("belt").outposts[i][usize::from(sp)].is_none();
            let offered_empty = targets
                .keys()
                .filter(|(t, sp)| u32::from(*t) == a.id && empty(*sp))
                .count();
            assert!(offered_empty <= 1, "asteroid {}: {offered_empty}", a.id);
        }
        if matters {
            asked_column += 1;
        }
        // Every Belt space that can be entered is still offered.
        let legal = engine::legal_decisions(&data, &state, seat);
        for d in legal {
            if let Decision::EnterBelt { target, .. } = d {
                assert!(targets.keys().any(|(t, _)| *t == target), "{target}");
            }
        }
    }
    assert!(checked >= 10, "only {checked} Belt expansions found");
    assert!(
        asked_column < checked,
        "the column is not asked every time ({asked_column}/{checked})"
    );
}

/// A bare Belt position with `threat` on the board: seat 0 expands Minerva with `energy`,
/// Minerva's shuttle on shuttle space 11.
fn dealing(threat: &str, energy: u32) -> GameState {
    let data = skymines::data::GameData::embedded().expect("data");
    let options = GameOptions {
        players: 2,
        seed: 3,
        board: BoardSide::Belt,
        threats: true,
        threat_card: Some(threat.to_string()),
        ..GameOptions::default()
    };
    let mut state = engine::new_game(&data, &options, &skymines::sim::seat_names(2)).expect("game");
    let path = data
        .belt
        .flight_paths
        .iter()
        .position(|p| p.shuttle_space == 11)
        .expect("shuttle space 11");
    state.stations[Company::Minerva.index()][1].outposts -= 1;
    state.belt.as_mut().expect("belt").shuttles[path] = Some(Company::Minerva);
    state.phase = Phase::Action;
    state.active = Some(0);
    state.seats[0].coins = 10;
    state.agenda = vec![Task::Expand {
        seat: 0,
        company: Company::Minerva,
        energy,
        entered: Vec::new(),
        threat: false,
    }];
    state
}

#[test]
fn the_threat_option_states_the_whole_energy_and_the_result_has_no_empty_fragments() {
    let fx = fixture("modules-threat");
    let chat = &fx.chat;
    let data = testing::data(chat);
    let mut s = dealing("rogue_comet", 6);
    assert!(engine::legal_decisions(&data, &s, 0).contains(&Decision::DealWithThreat));
    let label = testing::label(chat, &s, 0, Decision::DealWithThreat);
    assert_eq!(label, "Deal with the threat Rogue comet: 5 energy");
    let choice = testing::decision_choice(chat, 1, 1, &s, 0, Decision::DealWithThreat, 1);
    assert!(
        choice.description.contains("wild share"),
        "{}",
        choice.description
    );
    let mut events = engine::apply(&data, &mut s, 0, Decision::DealWithThreat).expect("deal");
    events.extend(engine::apply(&data, &mut s, 0, Decision::StopExpanding).expect("stop"));
    let text: Vec<String> = events.iter().map(|e| e.text()).collect();
    let text = text.join("\n");
    assert!(
        text.contains("spends 5 energy to deal with the threat Rogue comet"),
        "{text}"
    );
    assert!(!text.contains("pays 0"), "{text}");
    assert!(!text.contains(" -"), "{text}");
    assert!(!text.contains("+0"), "{text}");
    // The energy the threat left is forfeited, in the rulebook's words.
    assert!(
        text.contains("enters no Belt space and forfeits 1 energy point"),
        "{text}"
    );

    // Space pirates: 2 energy and 6 CrypCoin, said in the option and the result.
    let mut s = dealing("space_pirates", 2);
    let label = testing::label(chat, &s, 0, Decision::DealWithThreat);
    assert_eq!(
        label,
        "Deal with the threat Space pirates: 2 energy, pay 6 CrypCoin"
    );
    let mut events = engine::apply(&data, &mut s, 0, Decision::DealWithThreat).expect("deal");
    assert!(
        events
            .iter()
            .any(|e| e.text().contains("spends 2 energy and pays 6 CrypCoin")),
        "{events:?}"
    );
    // The threat took all the energy: nothing is left to forfeit.
    if engine::legal_decisions(&data, &s, 0).contains(&Decision::StopExpanding) {
        events.extend(engine::apply(&data, &mut s, 0, Decision::StopExpanding).expect("stop"));
    }
    let text: Vec<String> = events.iter().map(|e| e.text()).collect();
    let text = text.join("\n");
    assert!(text.contains(" enters no Belt space"), "{text}");
    assert!(!text.contains("forfeits"), "{text}");
}

#[test]
fn final_scoring_says_what_the_threat_and_the_wild_share_did() {
    let fx = fixture("modules-scoring");
    let chat = &fx.chat;
    let data = testing::data(chat);
    // The comet stayed: the station(s) showing the most coin icons are scored with 2 fewer.
    let mut s = dealing("rogue_comet", 0);
    s.agenda.clear();
    s.phase = Phase::Finished;
    let text = testing::scores_text(chat, &s);
    let hit = engine::score::devalued_stations(&data, &s);
    assert!(!hit.is_empty());
    assert!(
        text.contains("The threat Rogue comet is still on the board"),
        "{text}"
    );
    for d in &hit {
        let line = format!(
            "{} is scored at {} instead of {} CrypCoin per share",
            data.company_name(d.company),
            d.scored,
            d.value
        );
        assert!(text.contains(&line), "{line} in {text}");
    }
    // Removed by seat 1: its wild share counted for a company, said by name, and shown on its
    // player board.
    if let Some(t) = s.threat.as_mut() {
        t.on_board = false;
        t.removed_by = Some(1);
    }
    let text = testing::scores_text(chat, &s);
    assert!(!text.contains("still on the board"), "{text}");
    let wild = engine::final_scores(&data, &s)[1]
        .wild_share
        .expect("counted");
    let line = format!(
        "{}'s wild share counted as one more {} share",
        s.seats[1].name,
        data.company_name(wild)
    );
    assert!(text.contains(&line), "{text}");
    let renderer = skymines::render::Renderer::new().expect("renderer");
    let view = engine::view(&data, &s, None);
    let drawn = renderer.drawn_in(&data, &view, skymines::text::english());
    let said = |seat: usize| {
        drawn.players[seat]
            .texts
            .iter()
            .any(|t| t.text == "Wild share")
    };
    assert!(said(1), "the holder's board shows the wild share");
    assert!(!said(0), "only the holder's");
}

#[test]
fn a_one_time_bonus_marker_is_announced_as_one() {
    let data = skymines::data::GameData::embedded().expect("data");
    let options = GameOptions {
        players: 2,
        seed: 5,
        missions: true,
        ..GameOptions::default()
    };
    let mut s = engine::new_game(&data, &options, &skymines::sim::seat_names(2)).expect("game");
    s.phase = Phase::Action;
    s.active = Some(0);
    s.agenda = vec![Task::ChooseAction { seat: 0 }];
    if let Some(m) = s.seats[0].mission.as_mut() {
        m.one_time_reserve = 1;
    }
    let d = engine::legal_decisions(&data, &s, 0)
        .into_iter()
        .find(|d| {
            matches!(
                d,
                Decision::PlaceOneTimeBonus {
                    space: engine::BonusRef::Board(_)
                }
            )
        })
        .expect("a one-time marker can be placed");
    let events = engine::apply(&data, &mut s, 0, d).expect("placed");
    assert!(
        events
            .iter()
            .any(|e| e.text().contains("places a one-time bonus marker on")),
        "{events:?}"
    );
}
