//! One numbering everywhere (DECISIONS B17): the numbers the images draw for research screens,
//! action and resting slots, display spaces, sectors, Belt spaces and track spaces are the
//! numbers the chat's option labels and the text summary use for the same state. The renderer
//! records every text it draws with what it stands for (`render::Role`); these tests read
//! those labels and the chat's words for seeded positions and fail on any difference.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::testing;
use skymines::chat::{Chat, ChatConfig, ManualClock};
use skymines::engine::{self, BoardSide, Decision, GameOptions, GameState, Phase};
use skymines::render::{DrawnText, Renderer, Role};
use skymines::store::{Store, StoreOptions};
use std::sync::Arc;

/// A chat layer over a fresh store file in a folder removed on drop.
pub struct Fixture {
    pub chat: Chat,
    dir: std::path::PathBuf,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn fixture(name: &str) -> Fixture {
    let dir =
        std::env::temp_dir().join(format!("skymines-numbering-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = Arc::new(skymines::data::GameData::embedded().expect("data"));
    let (store, _) =
        Store::open(dir.join("db.sqlite"), data, StoreOptions::default()).expect("store");
    let config = ChatConfig {
        images: false,
        rate_limit: 0,
        ..ChatConfig::default()
    };
    let chat = Chat::new(
        Arc::new(store),
        Arc::new(ManualClock::new(1_700_000_000_000)),
        config,
    );
    Fixture { chat, dir }
}

/// The first number after `word` in `text` ("screen 5" → 5).
fn number_after(text: &str, word: &str) -> Option<u32> {
    let at = text.find(word)? + word.len();
    let digits: String = text[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The number an image label shows ("slot 5", "#12", "resting 3", "7").
fn label_number(d: &DrawnText) -> Option<u32> {
    let digits: String = d
        .text
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The number drawn for `role`, if the image draws one.
fn drawn_number(texts: &[DrawnText], role: Role) -> Option<u32> {
    texts
        .iter()
        .find(|d| d.role == Some(role))
        .and_then(label_number)
}

/// Checks one decision's label against the images; returns how many numbers were compared.
fn check_decision(
    chat: &Chat,
    state: &GameState,
    seat: usize,
    d: Decision,
    board: &[DrawnText],
    player: &[DrawnText],
) -> usize {
    use skymines::engine::ActionSource;
    let label = testing::label(chat, state, seat, d);
    // (the word the label puts before the number, the image, the role drawn there)
    let wanted: Vec<(&str, &[DrawnText], Role)> = match d {
        Decision::PlacePlan { screen, .. } | Decision::FlipPlan { screen } => vec![(
            "screen",
            player,
            Role::Screen {
                seat,
                index: screen as usize,
            },
        )],
        Decision::PlanCard { slot, .. } => vec![(
            "slot",
            player,
            Role::ActionSlot {
                seat,
                index: slot as usize,
            },
        )],
        Decision::UseResearch {
            source: ActionSource::Slot(i),
        }
        | Decision::UseField {
            source: ActionSource::Slot(i),
        } => vec![(
            "slot",
            player,
            Role::ActionSlot {
                seat,
                index: i as usize,
            },
        )],
        Decision::TakeRestingDeck { slot } => vec![(
            "deck",
            player,
            Role::RestingSlot {
                seat,
                index: slot as usize,
            },
        )],
        Decision::RestCard { slot, .. } | Decision::RestStartingCard { slot, .. } => vec![(
            "slot",
            player,
            Role::RestingSlot {
                seat,
                index: slot as usize,
            },
        )],
        Decision::BuyCard { space } => vec![(
            "space",
            board,
            Role::DisplaySpace {
                number: space as u32,
            },
        )],
        Decision::EnterSector { sector, .. } => {
            vec![("Sector", board, Role::Sector { id: sector as u32 })]
        }
        Decision::EnterBelt { target, .. } => vec![(
            if engine::belt::is_shuttle_space(&testing::data(chat), target) {
                "Shuttle space"
            } else {
                "Asteroid"
            },
            board,
            Role::BeltSpace {
                number: target as u32,
            },
        )],
        _ => Vec::new(),
    };
    for (word, image, role) in &wanted {
        let said = number_after(&label, word);
        let drawn = drawn_number(image, *role);
        assert!(
            said.is_some() && said == drawn,
            "the option `{label}` says {word} {said:?}; the image draws {drawn:?} for {role:?}"
        );
    }
    wanted.len()
}

/// The summary's screen number for a seat's upload marker matches the screen label the image
/// draws where the marker stands.
fn check_upload_marker(
    summary: &str,
    name: &str,
    seat: usize,
    player: &skymines::render::Drawn,
) -> usize {
    let Some(line) = summary.lines().find(|l| l.contains(&format!(" {name}:"))) else {
        return 0;
    };
    let Some(said) = number_after(line, "research screen") else {
        return 0; // "research start": before the first plan
    };
    let Some(&(_, mx, my)) = player
        .marks
        .iter()
        .find(|(r, _, _)| *r == Role::UploadMarker { seat })
    else {
        panic!("{name}'s upload marker is not drawn");
    };
    let screens: Vec<&DrawnText> = player
        .texts
        .iter()
        .filter(|d| matches!(d.role, Some(Role::Screen { seat: s, .. }) if s == seat))
        .collect();
    // The player board: the screen's number left of the marker on the same line. Luna's track:
    // the number under the marker's step, when that step is numbered.
    let drawn = screens
        .iter()
        .filter(|d| (d.y - my).abs() < 1.0 && d.x <= mx)
        .max_by(|a, b| a.x.total_cmp(&b.x))
        .or_else(|| screens.iter().find(|d| (d.x - mx).abs() < 1.0))
        .and_then(|d| label_number(d));
    match drawn {
        Some(n) => {
            assert_eq!(
                Some(n),
                Some(said),
                "the summary puts {name}'s upload marker on screen {said}; the image on {n}"
            );
            1
        }
        None => 0,
    }
}

/// Plays a seeded random game and compares image and text numbers every few decisions.
fn compare_over_a_game(name: &str, options: GameOptions, every: u32) -> (usize, Vec<Role>) {
    let fx = fixture(name);
    let chat = &fx.chat;
    let data = testing::data(chat);
    let renderer = Renderer::new().expect("renderer");
    let en = skymines::text::english();
    let humans = skymines::sim::seat_names(options.players);
    let mut state = engine::new_game(&data, &options, &humans).expect("game");
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut compared = 0;
    let mut roles = Vec::new();
    let mut step = 0u32;
    while state.phase != Phase::Finished && step < 3000 {
        let waiting = engine::waiting_on(&state);
        if step.is_multiple_of(every) {
            for &seat in &waiting {
                let view = engine::view(&data, &state, Some(seat));
                let drawn = renderer.drawn_in(&data, &view, en);
                for im in std::iter::once(&drawn.board).chain(&drawn.players) {
                    roles.extend(im.texts.iter().filter_map(|d| d.role));
                }
                let player = &drawn.players[seat].texts;
                for d in engine::legal_decisions(&data, &state, seat) {
                    compared += check_decision(chat, &state, seat, d, &drawn.board.texts, player);
                }
                let summary = renderer.summary_text_in(&data, &view, en);
                for (i, s) in state.seats.iter().enumerate() {
                    compared += check_upload_marker(&summary, &s.name, i, &drawn.players[i]);
                }
            }
        }
        let Some(&seat) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
            break;
        };
        let legal = engine::legal_decisions(&data, &state, seat);
        let d = skymines::bots::weighted::choose(&mut rng, &data, &state, seat, &legal)
            .expect("a decision");
        engine::apply(&data, &mut state, seat, d).expect("legal");
        step += 1;
    }
    (compared, roles)
}

fn kinds(roles: &[Role]) -> std::collections::BTreeSet<&'static str> {
    roles
        .iter()
        .map(|r| match r {
            Role::Screen { .. } => "screen",
            Role::ActionSlot { .. } => "action slot",
            Role::RestingSlot { .. } => "resting slot",
            Role::DisplaySpace { .. } => "display space",
            Role::Sector { .. } => "sector",
            Role::BeltSpace { .. } => "belt space",
            Role::TrackSpace { .. } => "track space",
            Role::TankStep { .. } => "tank step",
            Role::UploadMarker { .. } => "upload marker",
            Role::Score { .. } => "score",
        })
        .collect()
}

#[test]
fn a_two_player_moon_game_numbers_its_images_as_its_text() {
    let options = GameOptions {
        players: 2,
        seed: 7,
        ..GameOptions::default()
    };
    let (compared, roles) = compare_over_a_game("moon", options, 5);
    assert!(compared > 200, "only {compared} numbers compared");
    let kinds = kinds(&roles);
    for k in [
        "screen",
        "action slot",
        "resting slot",
        "display space",
        "sector",
    ] {
        assert!(kinds.contains(k), "no {k} label drawn: {kinds:?}");
    }
}

#[test]
fn a_belt_game_numbers_its_images_as_its_text() {
    let options = GameOptions {
        players: 3,
        seed: 11,
        board: BoardSide::Belt,
        ..GameOptions::default()
    };
    let (compared, roles) = compare_over_a_game("belt", options, 9);
    assert!(compared > 200, "only {compared} numbers compared");
    assert!(kinds(&roles).contains("belt space"));
}

#[test]
fn a_game_with_luna_numbers_her_screens_as_the_text() {
    let options = GameOptions {
        players: 2,
        luna: Some(5),
        seed: 3,
        ..GameOptions::default()
    };
    let (compared, roles) = compare_over_a_game("luna", options, 7);
    assert!(compared > 200, "only {compared} numbers compared");
    assert!(kinds(&roles).contains("screen"));
}

#[test]
fn the_final_image_shows_the_scores_the_text_gives() {
    let fx = fixture("scores");
    let chat = &fx.chat;
    let data = testing::data(chat);
    let options = GameOptions {
        players: 3,
        seed: 5,
        ..GameOptions::default()
    };
    let state = skymines::render::cli::simulate_options(&data, &options, 7, 0).expect("game");
    assert_eq!(state.phase, Phase::Finished);
    let renderer = Renderer::new().expect("renderer");
    let view = engine::view(&data, &state, None);
    let drawn = renderer.drawn_in(&data, &view, skymines::text::english());
    let text = testing::scores_text(chat, &state);
    let mut compared = 0;
    for (seat, s) in state.seats.iter().enumerate() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{}:", s.name)))
            .expect("a score line per seat");
        let total: u32 = line[s.name.len() + 1..]
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .expect("a total");
        // (category column, the number the text gives for it)
        let said = [
            (0, number_after(line, "cash")),
            (5, number_after(line, "tank")),
            (6, number_after(line, "research")),
            (7, Some(total)),
        ];
        for (category, value) in said {
            let role = Role::Score { seat, category };
            let image = drawn_number(&drawn.board.texts, role);
            assert!(
                value.is_some() && image == value,
                "{}: the text says {value:?} for column {category}, the image {image:?}",
                s.name
            );
            compared += 1;
        }
        // Each company: "Name shares×value=points" in the text, the points in the image.
        for c in skymines::data::Company::ALL {
            let name = data.company_name(c);
            let points = number_after(line, &format!("{name} "))
                .and_then(|_| line.split(&format!("{name} ")).nth(1))
                .and_then(|rest| rest.split('=').nth(1))
                .and_then(|v| {
                    v.chars()
                        .take_while(char::is_ascii_digit)
                        .collect::<String>()
                        .parse::<u32>()
                        .ok()
                });
            let role = Role::Score {
                seat,
                category: 1 + c.index(),
            };
            assert_eq!(
                drawn_number(&drawn.board.texts, role),
                points,
                "{} {name}",
                s.name
            );
            compared += 1;
        }
    }
    assert_eq!(compared, state.seats.len() * 8);
}
