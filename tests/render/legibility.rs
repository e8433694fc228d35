//! Every word of the images can be read at the size Discord shows them (about 550 px wide):
//! measured on what the painter records of each text it draws, for the board and every player
//! image, on the Moon and the Belt, with and without the modules (Luna, mission cards, threat
//! cards), in every language. No text is cut short with "…", none is under 9 px at 550 px wide
//! or runs off its image; the threat card's requirement, reward and consequence stand on the
//! board in full; the mission tasks too; and the board names the majority spaces and the phase
//! as the chat's text does (one name per thing).

use crate::render_support::*;
use skymines::engine::{self, BoardSide, GameOptions, GameState};
use skymines::render::{Drawn, DrawnImages};
use skymines::text::{self, Texts};

/// Seeded positions: (what it shows, options, rounds played, decisions after them).
fn positions() -> Vec<(&'static str, GameState)> {
    let game = |players, luna, belt: bool, missions, threats, seed| GameOptions {
        players,
        luna,
        seed,
        board: if belt {
            BoardSide::Belt
        } else {
            BoardSide::Moon
        },
        missions,
        threats,
        ..GameOptions::default()
    };
    [
        (
            "Moon, 4 players",
            game(4, None, false, false, false, 11),
            4,
            0,
        ),
        (
            "Moon, solo against Luna",
            game(1, Some(3), false, false, false, 5),
            3,
            10,
        ),
        (
            "Moon, Luna and missions",
            game(2, Some(4), false, true, false, 6),
            5,
            7,
        ),
        (
            "Belt, no modules",
            game(3, None, true, false, false, 9),
            2,
            5,
        ),
        (
            "Belt, missions and threats",
            game(3, None, true, true, true, 21),
            4,
            0,
        ),
        (
            "Belt, Luna, missions, threats",
            game(2, Some(2), true, true, true, 42),
            3,
            7,
        ),
        ("Belt, finished", game(4, None, true, true, true, 44), 9, 0),
        (
            "Moon, finished",
            game(2, None, false, false, false, 7),
            9,
            0,
        ),
    ]
    .into_iter()
    .map(|(name, options, rounds, decisions)| {
        let state = skymines::render::cli::simulate_options(data(), &options, rounds, decisions)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        (name, state)
    })
    .collect()
}

/// What the board and every seat's image (seat 0's own private one) draw in `texts`.
fn drawn(state: &GameState, texts: &Texts) -> DrawnImages {
    renderer().drawn_in(data(), &engine::view(data(), state, Some(0)), texts)
}

fn images(drawn: &DrawnImages) -> impl Iterator<Item = (String, &Drawn)> {
    std::iter::once(("board".to_string(), &drawn.board)).chain(
        drawn
            .players
            .iter()
            .enumerate()
            .map(|(seat, d)| (format!("player image of seat {seat}"), d)),
    )
}

/// The board's texts joined with spaces, in the order drawn (a text wrapped over lines reads
/// whole again).
fn board_words(drawn: &DrawnImages) -> String {
    drawn
        .board
        .texts
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_text_is_whole_and_at_least_9_px_high_at_550_px() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for (name, state) in positions() {
        for language in text::language_codes() {
            let drawn = drawn(&state, text::for_language(language));
            for (image, d) in images(&drawn) {
                let scale = 550.0 / d.width as f32;
                for t in &d.texts {
                    checked += 1;
                    let at = format!("{name}, {language}, {image}: {:?}", t.text);
                    if t.text.contains('…') {
                        problems.push(format!("{at} is cut short"));
                    }
                    if t.size * scale < 9.0 {
                        problems.push(format!(
                            "{at} is {:.1} px high at 550 px wide",
                            t.size * scale
                        ));
                    }
                    let b = t.bounds;
                    if b.x < 0.0
                        || b.right() > d.width as f32 + 0.5
                        || b.y < 0.0
                        || b.bottom() > d.height as f32 + 0.5
                    {
                        problems.push(format!("{at} runs off the image ({b:?})"));
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} texts drawn");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A Belt game in its first round with threat card `id` on the board.
fn with_threat(id: &str) -> GameState {
    let options = GameOptions {
        players: 3,
        seed: 21,
        board: BoardSide::Belt,
        threats: true,
        threat_card: Some(id.to_string()),
        ..GameOptions::default()
    };
    skymines::render::cli::simulate_options(data(), &options, 0, 3).expect("the game plays")
}

#[test]
fn the_threat_card_stands_on_the_board_in_full() {
    let threats = &data().threats;
    assert_eq!(threats.threats.len(), 6);
    for card in &threats.threats {
        let state = with_threat(&card.id);
        for language in text::language_codes() {
            let texts = text::for_language(language);
            let drawn = drawn(&state, texts);
            let reach = &threats.module.reach;
            let spaces: Vec<String> = reach.shuttle_on.iter().map(|s| s.to_string()).collect();
            let expected = [
                texts.f(
                    "image.threat_remove",
                    &[
                        ("energy", &reach.energy),
                        ("spaces", &spaces.join(&texts.t("image.or"))),
                        ("requirement", &texts.resolve(&card.requirement_words())),
                    ],
                ),
                texts.t("image.threat_reward"),
                texts.f(
                    "image.threat_stays",
                    &[("consequence", &texts.resolve(&card.consequence_words()))],
                ),
            ]
            .join(" ");
            // The strip: the lines after its title, at its left edge.
            let title = texts.f(
                "image.threat_title",
                &[("name", &texts.resolve(&card.display_name()))],
            );
            let texts_drawn = &drawn.board.texts;
            let start = texts_drawn
                .iter()
                .position(|t| t.text == title)
                .unwrap_or_else(|| panic!("{language}: no title {title:?}"));
            let first = texts_drawn.get(start + 1).expect("the strip's first line");
            let strip: Vec<&str> = texts_drawn[start + 1..]
                .iter()
                .take_while(|t| (t.x - first.x).abs() < 0.5)
                .map(|t| t.text.as_str())
                .collect();
            assert_eq!(strip.join(" "), expected, "{} in {language}", card.id);
            assert!(expected.contains(&texts.resolve(&card.requirement_words())));
            // On the map: "Threat" and the card's whole name (hyphenated where it breaks).
            let name = texts.resolve(&card.display_name());
            let map_top = renderer().layout().board.tracks.rect.y;
            let words = drawn
                .board
                .texts
                .iter()
                .filter(|t| t.y < map_top)
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
                .replace("- ", "-")
                .replace('-', "");
            assert!(
                words.contains(&name.replace('-', "")),
                "{} in {language}: the map does not show {name:?}",
                card.id
            );
        }
    }
}

#[test]
fn the_mission_tasks_stand_on_the_board_in_full() {
    let options = GameOptions {
        players: 3,
        seed: 21,
        board: BoardSide::Belt,
        missions: true,
        threats: true,
        ..GameOptions::default()
    };
    let state =
        skymines::render::cli::simulate_options(data(), &options, 2, 0).expect("the game plays");
    let view = engine::view(data(), &state, Some(0));
    let missions = view.missions.as_ref().expect("mission cards in play");
    for language in text::language_codes() {
        let texts = text::for_language(language);
        let words = board_words(&drawn(&state, texts));
        for id in &missions.face_up {
            let card = data().missions.card(*id).expect("a mission card");
            for task in &card.tasks {
                let text = texts.resolve(&task.common_text(card.id));
                assert!(
                    words.contains(&text),
                    "{language}: mission {id} task {}: {text:?} is not drawn whole",
                    task.column
                );
            }
        }
    }
}

#[test]
fn the_board_names_majority_spaces_and_phases_as_the_text_does() {
    let (_, state) = positions().swap_remove(0);
    for language in text::language_codes() {
        let texts = text::for_language(language);
        let words = board_words(&drawn(&state, texts));
        for (i, space) in data().board.bonus_spaces.iter().enumerate() {
            if space.kind != skymines::data::board::BonusSpaceKind::Majority {
                continue;
            }
            let name = texts.resolve(&data().bonus_space_name(i));
            assert!(
                words.contains(&name),
                "{language}: the board does not name {:?} as the text does ({name:?})",
                space.id
            );
        }
        let phase = match state.phase {
            engine::Phase::Planning => "phase.planning",
            engine::Phase::Action => "phase.action",
            engine::Phase::Setup => "phase.setup",
            engine::Phase::Finished => "phase.finished",
        };
        assert!(
            words.contains(&texts.t(phase)),
            "{language}: the header does not say {:?}",
            texts.t(phase)
        );
    }
}
