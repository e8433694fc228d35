//! Issue 18, "every option shows its consequences": a seeded full 2-player game played through
//! the local mode's lines; every option of every prompt carries the engine's preview of its
//! decision with the consequence fields of its kind (a check on the structured preview, not on
//! wording), options that gain nothing come last and say so, and the preview is the one the
//! engine gives for that state.

use crate::support::chat as chat_support;
use crate::support::preview as preview_support;

use chat_support::{owner_alice_config, Table};
use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, Choice, Reply};
use skymines::engine::Decision;
use skymines::local::LOCAL_CHANNEL;
use skymines::store::Location;

/// The decision options of a list (the page button is no decision).
fn decisions(choices: &[Choice]) -> impl Iterator<Item = &Choice> {
    choices
        .iter()
        .filter(|c| c.number.is_some() && !c.custom_id.starts_with("f:"))
}

#[test]
fn every_option_of_a_seeded_two_player_game_carries_its_preview() {
    let mut t = Table::new("previews", owner_alice_config());
    let place = Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    };
    t.say("alice /skymines new players:2 seed:7");
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    let data = crate::support::shared_data();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut options, mut prompts, mut wasted) = (0, 0, 0);
    let mut replies: Vec<Reply> = Vec::new();
    for _ in 0..20_000 {
        let waiting = t.chat.waiting_users(&place);
        let Some(&user) = waiting.first() else { break };
        let name = if user == local_user_id("alice") {
            "alice"
        } else {
            "bob"
        };
        let game = t
            .chat
            .store()
            .games()
            .game_in_channel(LOCAL_CHANNEL)
            .expect("store")
            .expect("the game");
        let (state, _) = t.chat.store().games().live_state(game).expect("state");
        let seat = state
            .seats
            .iter()
            .position(|s| s.name == name)
            .expect("a seat");
        // Every prompt shown so far, and the whole list now.
        for r in replies.iter().filter(|r| !r.choices.is_empty()) {
            for c in decisions(&r.choices) {
                assert!(c.preview.is_some(), "{}: no preview in a prompt", c.label);
            }
            prompts += 1;
        }
        let choices = t.chat.pending_choices(&place, user);
        assert!(!choices.is_empty());
        let mut seen_wasted = false;
        for c in decisions(&choices) {
            options += 1;
            let p = c.preview.as_ref().expect("every option has its preview");
            // A decision's custom id: `d:GAME:VERSION:DECISION-JSON`. An option of several
            // decisions (`n:GAME:VERSION:N:FIRST`) is previewed as its whole batch, which the
            // prompt tests compare with the menu path; here it only has to carry one.
            if c.custom_id.starts_with("d:") {
                let d: Decision = c
                    .custom_id
                    .splitn(4, ':')
                    .nth(3)
                    .and_then(|json| serde_json::from_str(json).ok())
                    .unwrap_or_else(|| panic!("a decision option's id: {}", c.custom_id));
                assert_eq!(
                    Some(p),
                    skymines::engine::preview(&data, &state, seat, d)
                        .ok()
                        .as_ref(),
                    "the option's preview is the engine's"
                );
                if let Some(why) = preview_support::missing_field(&data, &state, d, p) {
                    panic!("{why}");
                }
            }
            if p.gains_nothing {
                wasted += 1;
                seen_wasted = true;
                assert!(!c.description.is_empty(), "a wasted option says so");
            } else {
                assert!(!seen_wasted, "options that gain nothing come last");
            }
            if p.irreversible {
                assert!(!c.description.is_empty(), "an irreversible option says so");
            }
        }
        let pick = rng.gen_range(0..choices.len());
        replies = t.say(&format!("{name} /choose option:{}", pick + 1));
    }
    assert!(t.chat.waiting_users(&place).is_empty(), "the game ended");
    assert!(
        options > 1_000 && prompts > 100,
        "{options} options, {prompts} prompts"
    );
    let _ = wasted;
}
