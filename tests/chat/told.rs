//! What the channel is told that it used to leave out (issue 34, item 1): the set-up (each
//! seat's starting research token, its starting bonus and rested cards) in the game's first
//! post; Luna's lines without the helper app's card ids; `/skymines log` starting with a whole
//! turn; the plan the upload marker lands on; where an expansion's energy comes from.

use crate::support::chat::{public_text, Table};
use crate::transcripts::{play_out, start, table};
use skymines::chat::account;
use skymines::chat::testing::log_start;

/// The game's first post says what the set-up did, seat by seat, in the game's language.
#[test]
fn the_first_post_says_each_seats_token_and_starting_cards() {
    for (language, token, rests) in [
        (
            "en",
            "reveals the starting research token",
            "rests the starting cards",
        ),
        ("de", "Start-Forschungsplättchen", "Startkarten"),
    ] {
        let mut t = table(&format!("setup-{language}"));
        t.say(&format!(
            "alice /skymines new players:2 seed:5 language:{language}"
        ));
        t.say("bob /skymines join");
        let first = public_text(&t.say("alice /skymines start"));
        for name in ["alice", "bob"] {
            assert!(
                first.contains(&format!("{name} {token}"))
                    || first.lines().any(|l| l.contains(name) && l.contains(token)),
                "{language}: no token line for {name} in:\n{first}"
            );
            assert!(
                first.lines().any(|l| l.contains(name) && l.contains(rests)),
                "{language}: no starting cards for {name} in:\n{first}"
            );
        }
    }
}

/// The German catalog words the test above looks for are the catalog's own.
#[test]
fn the_german_setup_words_are_the_catalogs() {
    let de = skymines::text::for_language("de");
    assert!(de
        .t("event.token_revealed")
        .contains("Start-Forschungsplättchen"));
    assert!(de.t("event.rests_starting").contains("Startkarten"));
}

/// Luna's cards have no printed names: her lines describe them, and no "I-10" reaches the
/// channel in a whole solo game.
#[test]
fn a_solo_game_against_luna_shows_no_card_id() {
    let mut t = table("luna-ids");
    let names = start(&mut t, 1, "luna:2", 12);
    play_out(&mut t, &names, 12);
    let all: String = t
        .log
        .iter()
        .map(|(_, r)| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let ids: Vec<&str> = all
        .split(|c: char| c.is_whitespace() || ",()".contains(c))
        .filter(|w| {
            let (head, tail) = w.split_once('-').unwrap_or(("", ""));
            (head == "I" || head == "II")
                && !tail.is_empty()
                && tail.chars().all(|c| c.is_ascii_digit())
        })
        .collect();
    assert!(ids.is_empty(), "Luna card ids in the channel: {ids:?}");
    assert!(
        all.contains("Luna plays the grade I card"),
        "no Luna turn seen"
    );
}

/// A long log starts at the beginning of a turn, not in its middle, and says how much it left
/// out.
#[test]
fn a_long_log_starts_with_a_whole_turn() {
    // (turn, batch) per line: a cut at 3 of 10 lines would split the turn of lines 2..=4.
    let turns = [0, 0, 1, 1, 1, 2, 2, 3, 3, 3];
    let batches = [1, 1, 2, 3, 3, 4, 4, 5, 6, 6];
    assert_eq!(log_start(&turns, &batches, 7), 2);
    assert_eq!(log_start(&turns, &batches, 10), 0);
    // A turn longer than the reach: its batch's start instead.
    let turns = [0; 40];
    let batches: Vec<u32> = (0..40).map(|i| i / 4).collect();
    assert_eq!(log_start(&turns, &batches, 10), 28);
    // Nothing to hold on to: the plain cut.
    let batches = [0; 40];
    assert_eq!(log_start(&turns, &batches, 10), 30);

    let mut t: Table = table("long-log");
    let names = start(&mut t, 2, "", 21);
    play_out(&mut t, &names, 21);
    let log = public_text(&t.say("alice /skymines log"));
    let first = log.lines().next().unwrap_or_default();
    assert!(
        first.starts_with('…') && first.contains("earlier lines not shown"),
        "{log}"
    );
}

/// Moving the upload marker names the plan it lands on (whose reward the next lines carry
/// out); an energy action names the cards its energy comes from. Read from the public
/// messages of seeded games of every kind, as the account check plays them.
#[test]
fn uploads_name_their_plan_and_expansions_their_energy() {
    let data = crate::support::data();
    let mut lines: Vec<(String, String)> = Vec::new();
    for seed in 0..6 {
        account::check_game(data, seed, &mut |events| {
            lines.extend(events.iter().map(|e| (e.key.clone(), e.text())));
        });
    }
    let onto: Vec<&String> = lines
        .iter()
        .filter(|(k, _)| k == "event.upload_onto")
        .map(|(_, t)| t)
        .collect();
    assert!(!onto.is_empty(), "no upload onto a plan in 6 games");
    for line in &onto {
        assert!(line.contains(", onto ") && line.contains('→'), "{line}");
    }
    let energy: Vec<&String> = lines
        .iter()
        .filter(|(k, _)| k == "event.expands_with_from")
        .map(|(_, t)| t)
        .collect();
    assert!(!energy.is_empty(), "no expansion names its energy cards");
    for line in &energy {
        assert!(
            line.contains(" energy: ") && line.contains("energy"),
            "{line}"
        );
    }
}

/// A Belt asteroid has several outpost spaces under one number: entering two of them reads
/// "15 ×2", not "15, 15".
#[test]
fn a_belt_line_names_each_space_once() {
    assert_eq!(
        skymines::data::numbering::counted_list(&[17, 20, 15, 15]),
        "17, 20, 15 ×2"
    );
    let data = crate::support::data();
    let mut belt_lines = 0;
    for seed in 0..40 {
        if account::game_kind(seed).options.board != skymines::engine::BoardSide::Belt {
            continue;
        }
        account::check_game(data, seed, &mut |events| {
            for e in events {
                if !["event.expanded_belt", "event.luna_expands_belt"].contains(&e.key.as_str()) {
                    continue;
                }
                let Some(list) = e.arg("sectors").or(e.arg("spaces")) else {
                    continue;
                };
                belt_lines += 1;
                let items: Vec<&str> = list
                    .split(", ")
                    .map(|x| x.split(' ').next().unwrap_or(x))
                    .collect();
                let mut unique = items.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), items.len(), "{}", e.text());
            }
        });
    }
    assert!(belt_lines > 10, "only {belt_lines} expansion lines");
}
