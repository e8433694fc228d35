//! Ousts in the channel's account (issue 34, item 1): each oust line says whose expansion
//! ousted the piece (a player's or Luna's), and the share value the oust changed comes right
//! after its line, on a person's turn as on Luna's (Luna's came at the end of her turn, after
//! "Luna drops out"), in English and German. Read from the messages of the public account
//! check's seeded games of every kind, as they are posted.

use crate::support::data;
use skymines::chat::account;
use skymines::engine::Event;
use skymines::text;

/// The lines that say an ousted piece went home or out of the game.
const OUSTS: [&str; 4] = [
    "event.oust",
    "event.oust_removed",
    "event.oust_shuttle",
    "event.oust_shuttle_removed",
];

/// The lines after which a company's share value may change: its station gave up outposts or
/// shuttles (an expansion, a removal) or got one back (an oust).
const MOVES_A_STATION: [&str; 9] = [
    "event.expanded",
    "event.expanded_belt",
    "event.luna_expands",
    "event.luna_expands_belt",
    "event.remove_outpost",
    "event.oust",
    "event.oust_removed",
    "event.oust_shuttle",
    "event.oust_shuttle_removed",
];

/// Who expands in an expansion line: the player it names, or Luna.
fn expander(e: &Event) -> Option<String> {
    match e.key.as_str() {
        "event.expanded" | "event.expanded_belt" => e.arg("name").map(str::to_string),
        "event.luna_expands" | "event.luna_expands_belt" => Some("Luna".to_string()),
        _ => None,
    }
}

/// The messages of the account check's games of seeds `0..games`, each as its events (one a
/// line, as posted).
fn messages(games: u64) -> Vec<Vec<Event>> {
    let mut out = Vec::new();
    for seed in 0..games {
        account::check_game(data(), seed, &mut |events: &[Event]| {
            out.push(events.to_vec())
        });
    }
    out
}

/// Games enough to see ousts by people and by Luna, on the Moon and on the Belt.
const GAMES: u64 = 40;

#[test]
fn a_share_value_comes_right_after_the_oust_or_expansion_that_changed_it() {
    let mut misplaced = Vec::new();
    let (mut after_oust, mut after_luna_oust) = (0, 0);
    for message in messages(GAMES) {
        let luna_turn = message
            .iter()
            .any(|e| e.key.starts_with("event.luna_expands"));
        for (i, e) in message.iter().enumerate() {
            if e.key != "event.share_value" {
                continue;
            }
            let before = i.checked_sub(1).map(|j| &message[j]);
            let caused = before.is_some_and(|b| {
                MOVES_A_STATION.contains(&b.key.as_str()) && b.arg("company") == e.arg("company")
            });
            if !caused {
                misplaced.push(format!(
                    "{:?} after {:?} in\n    {}",
                    e.text(),
                    before.map(Event::text).unwrap_or_default(),
                    message
                        .iter()
                        .map(Event::text)
                        .collect::<Vec<_>>()
                        .join("\n    ")
                ));
            } else if before.is_some_and(|b| OUSTS.contains(&b.key.as_str())) {
                after_oust += 1;
                after_luna_oust += usize::from(luna_turn);
            }
        }
    }
    assert!(
        misplaced.is_empty(),
        "{} share value lines away from their cause, the first:\n{}",
        misplaced.len(),
        misplaced
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(
        after_oust > 0 && after_luna_oust > 0,
        "ousts seen: {after_oust}, on Luna's turns {after_luna_oust}"
    );
}

#[test]
fn an_oust_line_names_whose_expansion_ousted_the_piece() {
    let (mut by_people, mut by_luna) = (0, 0);
    for message in messages(GAMES) {
        let mut expanding: Option<String> = None;
        for e in &message {
            if let Some(who) = expander(e) {
                expanding = Some(who);
            }
            if !OUSTS.contains(&e.key.as_str()) {
                continue;
            }
            let who = expanding
                .clone()
                .unwrap_or_else(|| panic!("an oust without an expansion before it: {e:?}"));
            assert_eq!(e.arg("name"), Some(who.as_str()), "{:?}", e.text());
            for texts in [text::english(), text::german()] {
                let line = e.render(texts);
                assert!(
                    line.starts_with(&format!("{who} ")),
                    "{}: {line:?} does not say that {who} ousted it",
                    texts.code
                );
            }
            if who == "Luna" {
                by_luna += 1;
            } else {
                by_people += 1;
            }
        }
    }
    assert!(
        by_people > 0 && by_luna > 0,
        "ousts by people: {by_people}, by Luna: {by_luna}"
    );
}
