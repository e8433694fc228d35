//! Texts true to the state and status lines that count what is there (issue 34, items 4 and
//! 6), in English and German: a card is named by its face in a command and in a list of valid
//! values (no internal id), and each seat's status line counts its cards as the game has them
//! (planned face down, still to use, used, Luna's to play and played) all through a game.

use crate::support::chat::{private_to, public_text, Table};
use crate::transcripts::{at_first_turn, table, NAMES};
use rand::{Rng, SeedableRng};
use skymines::chat::local_user_id;
use skymines::engine::state::SlotCard;
use skymines::engine::{GameState, Phase};
use skymines::local::LOCAL_CHANNEL;
use skymines::store::Location;
use skymines::text::{self, Texts};

fn place() -> Location {
    Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    }
}

/// The first words of catalog entry `key` (before its first placeholder).
fn stem(texts: &Texts, key: &str) -> String {
    let t = texts.t(key);
    t.split('{').next().unwrap_or(&t).trim().to_string()
}

/// Words of `text` that are internal ids no player reads: card ids (A05, SE01), starting card
/// ids (diamond-carbon2).
fn internal_ids(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| {
            let c: Vec<char> = w.chars().collect();
            (c.len() == 3 && ('A'..='E').contains(&c[0]) && c[1..].iter().all(char::is_ascii_digit))
                || w.starts_with("SE0")
                || ["diamond-", "star-", "triangle-", "circle-"]
                    .iter()
                    .any(|p| w.starts_with(p))
        })
        .map(str::to_string)
        .collect()
}

/// "What was seen" 7: `/research card:researcher` was refused ("Card is an action slot number
/// 1-5 or `tile`") though the README names cards by their face. The face does what the slot
/// number does, in English and German.
#[test]
fn a_research_card_is_named_by_its_face() {
    for language in ["en", "de"] {
        let mut by_slot = at_first_turn(&format!("face-slot-{language}"), language);
        let mut by_face = at_first_turn(&format!("face-word-{language}"), language);
        let slot = by_slot.say("alice /research card:4 flip:none advance:0");
        let face = by_face.say("alice /research card:researcher flip:none advance:0");
        let refusal = text::for_language(language).t("parse.card_source");
        let said = private_to(&face, "alice");
        assert!(!said.contains(&refusal), "{language}: {said}");
        assert_eq!(said, private_to(&slot, "alice"), "{language}");
        assert_eq!(public_text(&face), public_text(&slot), "{language}");
    }
}

/// "What was seen" 7: `/plan cards:carbon` listed `diamond-carbon2, …, A05` as valid values. A
/// card the hand does not hold is refused with the hand named by face (`carbon2`, `titanium2`,
/// `researcher` …), never by id, in English and German.
#[test]
fn valid_values_name_the_cards_by_their_face() {
    for language in ["en", "de"] {
        let texts = text::for_language(language);
        let mut t = table(&format!("valid-faces-{language}"));
        t.say(&format!(
            "alice /skymines new players:2 seed:42 language:{language}"
        ));
        t.say("bob /skymines join");
        t.say("alice /skymines start");
        let said = private_to(&t.say("alice /plan cards:nonsense"), "alice");
        let listed = [
            stem(texts, "error.valid_values"),
            stem(texts, "error.valid_values_more"),
        ];
        assert!(
            listed.iter().any(|s| said.contains(s.as_str())),
            "{language}: the refusal lists the valid values: {said}"
        );
        assert!(
            internal_ids(&said).is_empty(),
            "{language}: ids in {said:?}: {:?}",
            internal_ids(&said)
        );
        for face in ["carbon2", "titanium2"] {
            assert!(said.contains(face), "{language}: {face} in {said}");
        }
    }
}

/// The cards a seat's status line should count in `state`, as the catalog words them.
fn expected_cards(texts: &Texts, state: &GameState, seat: usize) -> Option<String> {
    let s = &state.seats[seat];
    let slots = |f: fn(&SlotCard) -> bool| s.slots.iter().flatten().filter(|c| f(c)).count();
    Some(match (state.phase, &s.luna) {
        (Phase::Planning, Some(_)) => texts.t("status.cards_luna_planning"),
        (Phase::Planning, None) if s.planned => texts.f(
            "status.cards_planned",
            &[("n", &slots(|c| matches!(c, SlotCard::Planned(_))))],
        ),
        (Phase::Planning, None) => texts.t("status.cards_planning"),
        (Phase::Action, _) if s.dropped_out => texts.t("status.cards_dropped_out"),
        (Phase::Action, Some(l)) => {
            let face_down = l.slots.iter().flatten().filter(|x| !x.face_up).count();
            let face_up = l.slots.iter().flatten().filter(|x| x.face_up).count();
            texts.f(
                "status.cards_luna",
                &[("ready", &face_down), ("played", &face_up)],
            )
        }
        (Phase::Action, None) => texts.f(
            "status.cards_action",
            &[
                ("ready", &slots(|c| matches!(c, SlotCard::Up(_)))),
                ("used", &slots(|c| matches!(c, SlotCard::Used(_)))),
            ],
        ),
        _ => return None,
    })
}

/// "What was seen" 9: during planning computer players showed "3 cards in the action area",
/// Luna "0 cards" all game, and spent cards were still counted. Over a game of two players and
/// Luna played at random, each seat's status line counts its cards as the game has them: the
/// cards planned face down, those still to use and those used, Luna's still to play and played.
#[test]
fn status_lines_count_the_cards_the_game_has() {
    for (language, seed) in [("en", 3u64), ("de", 4)] {
        let texts = text::for_language(language);
        let mut t = table(&format!("status-{language}"));
        t.say(&format!(
            "alice /skymines new players:2 luna:2 seed:{seed} language:{language}"
        ));
        t.say("bob /skymines join");
        t.say("alice /skymines start");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut checked, mut luna_played, mut used) = (0, 0, 0);
        for _ in 0..400 {
            // A finished game is no longer the channel's: the game is over.
            let Some(game) = t
                .store()
                .games()
                .game_in_channel(LOCAL_CHANNEL)
                .expect("store")
            else {
                break;
            };
            let (state, _) = t.store().games().live_state(game).expect("state");
            let status = status_text(&t);
            for (seat, s) in state.seats.iter().enumerate() {
                let Some(cards) = expected_cards(texts, &state, seat) else {
                    continue;
                };
                let line = status
                    .lines()
                    .find(|l| l.contains(&format!(" {}: ", s.name)))
                    .unwrap_or_else(|| panic!("{language}: no line for {} in {status}", s.name));
                assert!(
                    line.contains(&format!("{cards} ")) || line.ends_with(&cards),
                    "{language}, round {}: {:?} does not say {cards:?}",
                    state.round,
                    line
                );
                checked += 1;
                luna_played += usize::from(
                    state.phase == Phase::Action
                        && s.luna
                            .as_ref()
                            .is_some_and(|l| l.slots.iter().flatten().any(|x| x.face_up)),
                );
                used += usize::from(
                    s.slots
                        .iter()
                        .flatten()
                        .any(|c| matches!(c, SlotCard::Used(_))),
                );
            }
            let waiting = t.waiting();
            let Some(&user) = waiting.get(rng.gen_range(0..waiting.len().max(1))) else {
                break;
            };
            let name = NAMES
                .iter()
                .find(|n| local_user_id(n) == user)
                .expect("a player");
            let choices = t.chat.pending_choices(&place(), user);
            if choices.is_empty() {
                break;
            }
            let pick = rng.gen_range(0..choices.len());
            t.say(&format!("{name} /choose option:{}", pick + 1));
        }
        assert!(checked > 300, "{language}: {checked} status lines checked");
        assert!(
            luna_played > 0 && used > 0,
            "{language}: {luna_played}, {used}"
        );
    }
}

/// The status reply's text (asked by a spectator, not logged).
fn status_text(t: &Table) -> String {
    public_text(&t.chat.handle(&t.request("carol /skymines status")))
}
