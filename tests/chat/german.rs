//! A German game of every module (the Belt, missions, threats) reads German throughout: every
//! text, option and description of the game and of the commands after it is read word by word
//! against the English catalog's words, and the German names of its components are there.

use crate::support::chat::public_text;
use crate::support::text as text_support;
use crate::transcripts::{play_out, table, without_ids, NAMES};

/// Issue 19: a German 3-player Belt game with mission cards and a threat card, played to the
/// end with the follow-ups players use, reads in the German rulebook's words (Setzfeld,
/// Aufgabe erfüllen, Bedrohung, Einmal-Bonusmarker …) and shows no English word: every reply,
/// option and option text is read word by word against the English catalog's words.
#[test]
fn a_german_belt_game_with_missions_and_a_threat_shows_no_english_word() {
    // Random play may claim no mission task in a game: a second seed is played then.
    let mut said = Vec::new();
    for seed in [5, 6, 7] {
        said.extend(german_belt_game(seed));
        if said.iter().any(|s| s.contains("Aufgabe erfüllen")) {
            break;
        }
    }
    let english = text_support::english_words();
    for text in &said {
        if let Some(word) = text_support::english_word_in(&without_ids(text), &english) {
            panic!("English word {word:?} in a German game: {text:?}");
        }
    }
    let all = said.join("\n");
    for german in [
        "Setzfeld",
        "besetze ein Setzfeld (",
        "oder beende die Ausbreitung",
        "Aufgabe erfüllen",
        "Bedrohung",
        "Einmal-Bonusmarker",
        "Shuttlefeld",
        "Außenpostenfeld",
        "Schlusswertung",
    ] {
        assert!(all.contains(german), "missing {german:?}");
    }
    for english in [
        "Gürtelfeld",
        "Mission erfüllen",
        "per ephemeral",
        "Sektor ein",
    ] {
        assert!(!all.contains(english), "{english:?} in the German game");
    }
}

/// A German 3-player Belt game with missions and threats played out at random, then the
/// replies and commands a player reads after it: every text, option and description said.
fn german_belt_game(seed: u64) -> Vec<String> {
    let mut t = table(&format!("german-belt-{seed}"));
    t.say(&format!(
        "alice /skymines new players:3 seed:{seed} language:de board:belt missions:yes threats:yes"
    ));
    t.say("bob /skymines join");
    t.say("carol /skymines join");
    let r = t.say("alice /skymines start");
    assert!(public_text(&r).contains("beginnt"), "{r:?}");
    play_out(&mut t, &NAMES[..3], seed);
    for line in [
        "alice /skymines scores",
        "alice /skymines status",
        "bob /hand",
        "bob /skymines log",
        "alice /skymines help topic:belt",
        "alice /skymines help topic:threats",
        "alice /skymines help topic:missions",
        "alice /skymines help topic:campaign",
        "bob /skymines settings",
        "carol /choose option:4",
    ] {
        t.say(line);
    }
    t.log
        .iter()
        .flat_map(|(_, r)| {
            std::iter::once(r.text.clone()).chain(
                r.choices
                    .iter()
                    .flat_map(|c| [c.label.clone(), c.description.clone()]),
            )
        })
        .collect()
}
