//! The chat layer end to end: whole games played through the same commands a user types (one
//! `<user> /command option:value` line at a time), for every player count with and without
//! Luna, checking replies, pings, privacy, stale clicks and error paths.

use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, Audience, ChatConfig, Reply};
use skymines::data::GameData;
use skymines::engine::Phase;
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::Location;
use skymines::text;

use crate::support::chat as chat_support;
use crate::support::text as text_support;
use chat_support::{private_to, public_text, Table};
use text_support::literal;

fn place() -> Location {
    Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    }
}

pub(crate) fn table(tag: &str) -> Table {
    Table::new(
        tag,
        ChatConfig {
            images: false,
            reminder_after_ms: 3_600_000,
            deadline_ms: Some(24 * 3_600_000),
            rate_limit: 0,
            ..ChatConfig::default()
        },
    )
}

pub(crate) const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

/// The local owners of these tables: alice (she chooses the seeds); the others are players.
fn owners() -> Vec<u64> {
    vec![local_user_id("alice")]
}

/// Opens, joins and starts a game; returns the players' names.
pub(crate) fn start(t: &mut Table, players: usize, extra: &str, seed: u64) -> Vec<&'static str> {
    let names: Vec<&str> = NAMES[..players].to_vec();
    t.say(&format!(
        "alice /skymines new players:{players} seed:{seed} {extra}"
    ));
    for n in &names[1..] {
        t.say(&format!("{n} /skymines join"));
    }
    let replies = t.say("alice /skymines start");
    assert!(public_text(&replies).contains("begins"), "{replies:?}");
    names
}

/// Plays to the end by choosing among the offered choices at random (like clicking buttons,
/// typed as `/choose option:N`).
pub(crate) fn play_out(t: &mut Table, names: &[&str], seed: u64) -> usize {
    play_until(t, names, seed, |_| false)
}

/// [`play_out`] that stops early, before a move, once `stop` holds.
fn play_until(t: &mut Table, names: &[&str], seed: u64, stop: impl Fn(&Table) -> bool) -> usize {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut moves = 0;
    loop {
        let waiting = t.waiting();
        if waiting.is_empty() || stop(t) {
            break;
        }
        moves += 1;
        assert!(moves < 20_000, "the game does not end");
        let user = waiting[rng.gen_range(0..waiting.len())];
        let name = names
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a waited-on user is a player");
        let choices = t.chat.pending_choices(&place(), user);
        assert!(
            !choices.is_empty(),
            "{name} is waited on but offered nothing"
        );
        // Mild bias against dropping out early, as in self-play (in either language).
        let mut pick = rng.gen_range(0..choices.len());
        let drop_out = text::for_language("en").t("label.drop_out") == choices[pick].label
            || text::for_language("de").t("label.drop_out") == choices[pick].label;
        if drop_out && choices.len() > 1 && rng.gen_bool(0.7) {
            pick = (pick + 1) % choices.len();
        }
        let replies = t.say(&format!("{name} /choose option:{}", pick + 1));
        for r in &replies {
            if let Audience::Private(u) = r.audience {
                assert_eq!(u, user, "a private reply goes only to the one who acted");
            }
        }
    }
    moves
}

fn assert_finished(t: &Table) {
    assert_finished_in(t, "en");
    assert_turns_read_as_one(t);
}

/// Every public message of a whole game reads a repeated step once: no line is followed by the
/// same track move or the same CrypCoin gain of the same player (it would be one line with the
/// sum), and no line speaks of not moving the upload marker (the rulebook: not advancing on the
/// research track).
fn assert_turns_read_as_one(t: &Table) {
    let summed = |line: &str| {
        let (who, what) = line.split_once(' ')?;
        let what = what.strip_prefix("moves ").map_or_else(
            || what.strip_prefix("gains ").map(|rest| ("gains", rest)),
            |rest| Some(("moves", rest)),
        )?;
        let (_, target) = what.1.split_once(' ')?;
        let target = target
            .trim_start_matches("spaces ")
            .trim_start_matches("space ");
        let kind_of_move = target.starts_with("on the ") && target.ends_with(" track");
        let coins = target == "CrypCoin";
        (kind_of_move || coins).then(|| format!("{who} {} {target}", what.0))
    };
    let mut merged_anything = false;
    for (line, r) in &t.log {
        if !matches!(r.audience, Audience::Public | Audience::Ping(_)) {
            continue;
        }
        let lines: Vec<&str> = r.text.lines().collect();
        for pair in lines.windows(2) {
            let (a, b) = (summed(pair[0]), summed(pair[1]));
            assert!(
                a.is_none() || a != b,
                "after {line:?}, a repeated step reads twice:\n{}",
                r.text
            );
        }
        merged_anything |= lines.iter().any(|l| {
            summed(l).is_some() && (l.contains(" spaces on the ") || l.contains(" gains "))
        });
        assert!(
            !r.text.contains("does not move the upload marker"),
            "{}",
            r.text
        );
        // (A status line without the first player's mark once ended in a space.)
        assert!(
            r.text.lines().all(|l| l == l.trim_end()),
            "a line ends in a space: {:?}",
            r.text
        );
    }
    assert!(
        merged_anything,
        "the check saw track moves or CrypCoin gains"
    );
}

#[test]
fn two_players_play_a_whole_game_to_final_scoring() {
    let mut t = table("2p");
    let names = start(&mut t, 2, "", 7);
    play_out(&mut t, &names, 7);
    assert_finished(&t);
}

#[test]
fn three_players_play_a_whole_game_with_draft_and_random_tracks() {
    let mut t = table("3p");
    let names = start(&mut t, 3, "tokens:draft tracks:random", 8);
    play_out(&mut t, &names, 8);
    assert_finished(&t);
}

#[test]
fn four_players_play_a_whole_game_with_linked_slots() {
    let mut t = table("4p");
    let names = start(&mut t, 4, "linked_slots:yes", 9);
    play_out(&mut t, &names, 9);
    assert_finished(&t);
}

#[test]
fn solo_against_luna_plays_a_whole_game() {
    let mut t = table("solo");
    let names = start(&mut t, 1, "luna:3", 10);
    play_out(&mut t, &names, 10);
    assert_finished(&t);
    let luna_lines = t
        .log
        .iter()
        .filter(|(_, r)| r.audience == Audience::Public && r.text.contains("Luna plays the grade"))
        .count();
    assert!(luna_lines >= 7, "Luna's turns are summarised publicly");
}

/// Against Luna alone the game waits on the person again right after each turn (Luna's turn is
/// played within the person's step); the channel still gets each turn as it ends, Luna's
/// answer included, not the whole Action phase at its end.
#[test]
fn solo_turns_go_out_one_at_a_time() {
    let mut t = table("soloturn");
    start(&mut t, 1, "luna:1", 5);
    t.say("alice /plan cards:carbon2,energy1,energy2");
    let used = t.say("alice /resources");
    assert!(public_text(&used).is_empty(), "the turn goes on: {used:?}");
    t.say("alice /choose 3"); // no card bought
    t.say("alice /choose 1"); // the first unit: a track step
    let last = t.say("alice /choose 1"); // the second unit ends the turn
    let public = public_text(&last);
    assert!(
        public.contains("alice uses 2 carbon") && public.contains("moves 2 spaces"),
        "the turn's lines go out when it ends: {public}"
    );
    assert!(
        public.contains("Luna plays the grade"),
        "Luna's answer goes out with it: {public}"
    );
    assert!(
        !last.iter().any(|r| matches!(r.audience, Audience::Ping(_))),
        "nobody is pinged: the person who just moved is asked again privately"
    );
    assert!(
        private_to(&last, "alice").contains("Your turn: choose an action"),
        "{last:?}"
    );
    // The next turn starts afresh: its first step shows nothing publicly.
    let next = t.say("alice /choose 1");
    assert!(
        !public_text(&next).contains("uses 2 carbon"),
        "the last turn's lines are not repeated: {next:?}"
    );
}

#[test]
fn two_players_and_luna_play_a_whole_game() {
    let mut t = table("2pl");
    let names = start(&mut t, 2, "luna:5", 11);
    play_out(&mut t, &names, 11);
    assert_finished(&t);
}

#[test]
fn typed_commands_plan_and_take_a_turn() {
    let mut t = table("typed");
    start(&mut t, 2, "", 42);
    let r = t.say("alice /plan cards:carbon2,titanium2,researcher");
    // Planning is posted with the reveal; the planner sees the step at once.
    assert!(private_to(&r, "alice").contains("alice has planned (3 cards face down)"));
    assert!(
        !public_text(&r).contains("carbon2"),
        "planned cards stay secret"
    );
    let r = t.say("bob /plan cards:energy2,minerals2,researcher");
    let reveal = public_text(&r);
    assert!(reveal.contains("alice reveals"), "{reveal}");
    assert!(
        reveal.contains("2 carbon") && !reveal.contains("diamond-"),
        "the reveal shows the cards by their face: {reveal}"
    );
    // bob is not the first player.
    let r = t.say("bob /energy company:minerva");
    assert!(matches!(r[0].audience, Audience::Private(_)));
    assert!(r[0].text.contains("not your turn"), "{}", r[0].text);
    // alice takes a resource action with typed options.
    let r = t.say("alice /resources type:carbon tracks:tawac+2");
    let text = public_text(&r);
    assert!(text.contains("alice uses"), "{text}");
}

#[test]
fn privacy_public_replies_do_not_depend_on_what_others_planned() {
    // The same game twice; bob plans different (equally many) cards. Until the reveal, every
    // public reply is identical.
    let mut outs = Vec::new();
    for plan in [
        "energy2,minerals2,researcher",
        "carbon1,titanium2,researcher",
    ] {
        let mut t = table("privacy");
        start(&mut t, 3, "", 5);
        t.say("alice /plan cards:carbon2,titanium2,researcher");
        t.say(&format!("bob /plan cards:{plan}"));
        t.say("alice /skymines status");
        let public: Vec<String> = t
            .log
            .iter()
            .filter(|(_, r)| matches!(r.audience, Audience::Public | Audience::Ping(_)))
            .map(|(_, r)| r.text.clone())
            .collect();
        outs.push(public);
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn stale_clicks_and_wrong_users_are_refused_privately() {
    let mut t = table("stale");
    start(&mut t, 2, "", 3);
    let alice = local_user_id("alice");
    let old = t.chat.pending_choices(&place(), alice);
    let first = old[0].custom_id.clone();
    t.say(&format!("alice /click {first}"));
    // The same button again: the game has moved on.
    let r = t.say(&format!("alice /click {first}"));
    assert_eq!(r.len(), 1);
    assert!(matches!(r[0].audience, Audience::Private(_)));
    assert!(r[0].text.contains("out of date"), "{}", r[0].text);
    // Someone who does not play.
    let r = t.say(&format!(
        "eve /click {}",
        t.chat.pending_choices(&place(), alice)[0].custom_id
    ));
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
    let r = t.say("eve /plan cards:carbon2");
    assert!(r[0].text.contains("not playing"));
}

#[test]
fn lobby_rules_one_game_per_channel_host_starts() {
    let mut t = table("lobby");
    t.say("alice /skymines new players:2");
    let r = t.say("bob /skymines new players:3");
    assert!(r[0].text.contains("already has"), "{}", r[0].text);
    let r = t.say("bob /skymines start");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
    let r = t.say("alice /skymines start");
    assert!(r[0].text.contains("needs 2 players"), "{}", r[0].text);
    t.say("bob /skymines join");
    let r = t.say("carol /skymines join");
    assert!(r[0].text.contains("full"));
    let r = t.say("alice /skymines new players:1");
    assert!(r[0].text.contains("already has"));
    let r = t.say("dave /skymines new players:1 luna:9");
    assert!(r[0].text.contains("already has") || r[0].text.contains("level"));
}

#[test]
fn bad_options_get_specific_errors_and_change_nothing() {
    let mut t = table("errors");
    let r = t.say("alice /skymines new players:1");
    assert!(r[0].text.contains("Luna"), "{}", r[0].text);
    let r = t.say("alice /skymines new players:2 board:mars");
    assert!(r[0].text.contains("mars"), "{}", r[0].text);
    let r = t.say("alice /skymines new players:2 colour:red");
    assert!(r[0].text.contains("Unknown option"), "{}", r[0].text);
    start(&mut t, 2, "", 4);
    let r = t.say("alice /plan cards:A99");
    assert!(
        r[0].text.contains("not a card in your hand"),
        "{}",
        r[0].text
    );
    let r = t.say("alice /resources type:carbon");
    assert!(
        r[0].text.contains("not possible in this phase"),
        "{}",
        r[0].text
    );
    let r = t.say("alice /frobnicate");
    assert!(r[0].text.contains("Unknown command"));
}

#[test]
fn reminders_and_deadlines_follow_the_injected_clock() {
    let mut t = table("clock");
    start(&mut t, 2, "", 12);
    assert!(t.chat.tick().is_empty(), "nothing is due yet");
    t.clock.advance(3_600_000 + 1);
    let due = t.chat.tick();
    let pinged: Vec<u64> = due
        .iter()
        .flat_map(|r| match &r.audience {
            Audience::Ping(users) => users.users().to_vec(),
            _ => Vec::new(),
        })
        .collect();
    assert!(pinged.contains(&local_user_id("alice")) && pinged.contains(&local_user_id("bob")));
    // After the deadline the bot plays the stalled planning safely (done as is).
    t.clock.advance(24 * 3_600_000);
    let played = t.chat.tick();
    assert!(
        played
            .iter()
            .any(|r| r.text.contains("played their turn safely")),
        "{played:?}"
    );
}

/// Against Luna alone the game waits on the person all through the Action phase; the reminder
/// and the deadline still count from the end of their last turn, not from the phase's start
/// (an active player is neither reminded nor played for).
#[test]
fn a_solo_players_reminder_counts_from_their_last_turn() {
    let mut t = table("soloremind");
    start(&mut t, 1, "luna:1", 5);
    t.say("alice /plan cards:carbon2,energy1,energy2");
    t.clock.advance(50 * 60_000);
    for line in [
        "alice /resources",
        "alice /choose 3",
        "alice /choose 1",
        "alice /choose 1",
    ] {
        t.say(line);
    }
    t.clock.advance(20 * 60_000);
    let due = t.chat.tick();
    assert!(
        due.is_empty(),
        "20 minutes after her turn alice is not reminded: {due:?}"
    );
    t.clock.advance(45 * 60_000);
    let due = t.chat.tick();
    assert!(
        due.iter()
            .any(|r| matches!(&r.audience, Audience::Ping(users) if users.users().contains(&local_user_id("alice")))),
        "an hour after her turn she is: {due:?}"
    );
}

#[test]
fn undo_takes_back_only_your_own_move_before_anything_is_revealed() {
    let mut t = table("undo");
    start(&mut t, 2, "", 21);
    t.say("alice /plan cards:carbon2 done:no");
    let r = t.say("alice /undo");
    assert!(public_text(&r).contains("took back"), "{r:?}");
    let r = t.say("bob /undo");
    assert!(
        r[0].text.contains("Only your own") || r[0].text.contains("nothing"),
        "{}",
        r[0].text
    );
    t.say("alice /plan cards:carbon2,titanium2");
    t.say("bob /plan cards:energy2");
    // bob's plan revealed everything: it cannot be undone.
    let r = t.say("bob /undo");
    assert!(r[0].text.contains("cannot be undone"), "{}", r[0].text);
}

#[test]
fn rapid_fire_commands_are_politely_limited_per_user() {
    let mut t = table("rate");
    t.restart(ChatConfig {
        images: false,
        rate_limit: 5,
        rate_window_ms: 10_000,
        ..ChatConfig::default()
    });
    for _ in 0..5 {
        let r = t.say("alice /skymines help");
        assert!(!r[0].text.contains("Slow down"));
    }
    let r = t.say("alice /skymines help");
    assert!(r[0].text.contains("Slow down"), "{}", r[0].text);
    // Another user is not affected; after the window alice may go on.
    assert!(!t.say("bob /skymines help")[0].text.contains("Slow down"));
    t.clock.advance(10_001);
    assert!(!t.say("alice /skymines help")[0].text.contains("Slow down"));
}

#[test]
fn mygames_and_spectator_boards_show_public_information() {
    let mut t = table("weeks");
    start(&mut t, 2, "luna:2", 30);
    let r = t.say("bob /skymines mygames");
    assert!(matches!(r[0].audience, Audience::Private(_)));
    assert!(
        r[0].text.contains("#1") && r[0].text.contains("waiting for you"),
        "{}",
        r[0].text
    );
    let r = t.say("eve /skymines mygames");
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
    // A spectator sees a player's public board: no hand contents.
    let r = t.say("eve /skymines board player:alice");
    assert_eq!(r[0].audience, Audience::Public);
    assert!(
        r[0].text.contains("alice") && r[0].text.contains(" cards in hand"),
        "{}",
        r[0].text
    );
    assert!(!r[0].text.contains("carbon2"));
    let r = t.say("eve /skymines board player:luna");
    assert!(r[0].text.contains("Luna"), "{}", r[0].text);
}

/// The English catalog's own words: the literal pieces between the arguments of every English
/// template, at least 12 characters long, that the German catalog does not share.
fn english_sentences() -> Vec<String> {
    let (en, de) = (text::for_language("en"), text::for_language("de"));
    let german: Vec<&str> = de.keys().filter_map(|k| de.template(k)).collect();
    let mut pieces = Vec::new();
    for template in en.keys().filter_map(|k| en.template(k)) {
        let mut rest = template;
        loop {
            let (piece, tail) = match rest.find('{') {
                Some(open) => (
                    &rest[..open],
                    rest[open..].find('}').map(|c| &rest[open + c + 1..]),
                ),
                None => (rest, None),
            };
            let piece = piece.trim();
            if piece.chars().count() >= 12 && !german.iter().any(|g| g.contains(piece)) {
                pieces.push(piece.to_string());
            }
            match tail {
                Some(tail) => rest = tail,
                None => break,
            }
        }
    }
    pieces
}

/// Every reply's text and button labels.
fn everything_said(t: &Table) -> Vec<String> {
    t.log
        .iter()
        .flat_map(|(_, r)| {
            std::iter::once(r.text.clone()).chain(r.choices.iter().map(|c| c.label.clone()))
        })
        .collect()
}

/// Fails on any English sentence of the catalog in what the table said; returns it all.
fn assert_no_english(t: &Table) -> String {
    let said = everything_said(t);
    let english = english_sentences();
    assert!(
        english.len() > 100,
        "the check has teeth: {}",
        english.len()
    );
    for text in &said {
        if let Some(sentence) = english.iter().find(|e| text.contains(e.as_str())) {
            panic!("English in a German game: {sentence:?} in {text:?}");
        }
    }
    said.join("\n")
}

#[test]
fn a_whole_game_runs_in_german() {
    let mut t = table("german");
    let r = t.say("alice /skymines new players:2 seed:13 language:de");
    assert!(public_text(&r).contains("eröffnet"), "{r:?}");
    assert_eq!(r[0].choices[0].label, "Mitspielen");
    t.say("bob /skymines join");
    let r = t.say("alice /skymines start");
    assert!(public_text(&r).contains("beginnt"), "{r:?}");
    play_out(&mut t, &NAMES[..2], 13);
    let finals = t
        .log
        .iter()
        .filter(|(_, r)| r.audience == Audience::Public && r.text.starts_with("Schlusswertung:"))
        .count();
    assert_eq!(finals, 1, "the final scores are announced once, in German");
    for line in [
        "alice /skymines scores",
        "alice /skymines status",
        "bob /hand",
        "bob /skymines log",
        "alice /skymines help",
        "alice /skymines help topic:energy",
        "bob /skymines settings",
        "alice /frobnicate",
    ] {
        t.say(line);
    }
    let all = assert_no_english(&t);
    for german in [
        "Planungsphase",
        "Aktionsphase",
        "steigt aus der Aktionsphase aus",
        "hat geplant",
        "Sammelreihen",
        "Bargeld",
        "Hilfethemen",
        "Energie: mit allen deinen Energiekarten",
        "Unbekannter Befehl",
        "Deine Sprache: Deutsch",
    ] {
        assert!(all.contains(german), "missing {german:?}");
    }
}

/// English words (4+ letters) of the component names that no German template uses.
fn english_name_words() -> Vec<String> {
    let (en, de) = (text::for_language("en"), text::for_language("de"));
    let german: Vec<String> = de
        .keys()
        .filter_map(|k| de.template(k))
        .map(|t| literal(t).to_lowercase())
        .collect();
    let mut words: Vec<String> = en
        .keys()
        .filter(|k| text::NAME_GROUPS.iter().any(|g| k.starts_with(g)))
        .filter_map(|k| en.template(k))
        .flat_map(|t| {
            literal(t)
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.chars().count() >= 4)
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .filter(|w| !german.iter().any(|g| contains_word(g, w)))
        // Everyday words that are no component's own name (the engine's questions use them).
        .filter(|w| !["card", "first", "player", "plus"].contains(&w.as_str()))
        .collect();
    words.sort();
    words.dedup();
    words
}

/// Whether `word` stands alone in `text` (not part of an id such as `diamond-carbon2`, a
/// command option such as `type:carbon` or a command such as `/research`).
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || matches!(c, ':' | '-' | '_' | '/'))
            && !after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
    })
}

/// `text` without its `[card-id]` tags (ids are what players type, the same in every language).
pub(crate) fn without_ids(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn component_names_reach_readers_in_their_language_and_never_as_references() {
    let words = english_name_words();
    for expected in ["carbon", "titanium", "scientist", "share"] {
        assert!(words.iter().any(|w| w == expected), "{expected}: {words:?}");
    }
    let follow_ups = [
        "alice /skymines scores",
        "alice /skymines status",
        "bob /hand",
        "bob /skymines log",
        "alice /skymines log",
        "alice /skymines campaign status",
    ];
    // A German game with every module (Belt, missions, threats, Luna).
    let mut t = table("names-de");
    t.say("alice /skymines new players:2 luna:2 seed:21 language:de board:belt missions:yes threats:yes");
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    let mut midgame = Vec::new();
    for _ in 0..3 {
        play_steps(&mut t, &NAMES[..2], 40);
        for line in ["alice /hand", "bob /hand", "alice /skymines log"] {
            midgame.extend(t.say(line));
        }
    }
    play_out(&mut t, &NAMES[..2], 21);
    for line in follow_ups {
        t.say(line);
    }
    let said = everything_said(&t);
    assert!(
        said.iter().any(|s| s.contains("Kohlenstoff")),
        "the game names cards"
    );
    for text in &said {
        assert!(!text::has_name_ref(text), "a raw name reference: {text:?}");
        let clean = without_ids(text).to_lowercase();
        if let Some(word) = words.iter().find(|w| contains_word(&clean, w)) {
            panic!("English name {word:?} in a German game: {text:?}");
        }
    }
    // An English game: the same names in English, no references either.
    let mut t = table("names-en");
    start(&mut t, 3, "board:belt missions:yes threats:yes", 22);
    play_out(&mut t, &NAMES[..3], 22);
    for line in follow_ups {
        t.say(line);
    }
    let said = everything_said(&t);
    assert!(
        said.iter()
            .any(|s| s.contains("1 carbon") || s.contains("2 carbon")),
        "the game names cards by their face"
    );
    for text in &said {
        assert!(!text::has_name_ref(text), "a raw name reference: {text:?}");
    }
}

/// Plays up to `steps` random choices (a game in progress, for mid-game replies).
fn play_steps(t: &mut Table, names: &[&str], steps: usize) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(steps as u64);
    for _ in 0..steps {
        let waiting = t.waiting();
        let Some(&user) = waiting.first() else { return };
        let name = names
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a waited-on user is a player");
        let choices = t.chat.pending_choices(&place(), user);
        let pick = rng.gen_range(0..choices.len().max(1));
        t.say(&format!("{name} /choose option:{}", pick + 1));
    }
}

/// The private text of the first reply.
fn first_text(replies: &[Reply]) -> &str {
    replies.first().map(|r| r.text.as_str()).unwrap_or("")
}

#[test]
fn refusals_and_questions_of_a_german_game_come_in_german() {
    let mut t = table("german-refusals");
    // Options that cannot be read, and a game that cannot be set up (the user's language).
    t.say("alice /skymines settings language:de");
    let r = t.say("alice /skymines new board:mars");
    assert_eq!(
        first_text(&r),
        "`board`: `mars` ist weder `moon` noch `belt`."
    );
    let r = t.say("alice /skymines new players:9");
    assert_eq!(
        first_text(&r),
        "Eine Partie braucht 1 bis 4 Mitspielende (Personen und Computer), nicht 9."
    );
    t.say("alice /skymines new players:2 seed:13 language:de");
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    // A typed command that names no card of the hand: nothing is planned.
    let r = t.say("alice /plan cards:nonsense");
    // The refusal lists the cards that are (one sentence style: capital, full stop).
    let text = first_text(&r);
    assert!(
        text.starts_with("`nonsense` ist keine Karte auf deiner Hand. Gültige Werte: ")
            && text.contains("carbon2")
            && !text.contains("diamond-")
            && text.ends_with('.'),
        "{text}"
    );
    t.say("alice /plan done:yes");
    t.say("bob /plan done:yes");
    // Refused rule decisions: no carbon and no energy card face up, a track that is no company.
    let r = t.say("alice /resources type:carbon");
    assert_eq!(
        first_text(&r),
        "Du hast keine offene Karte „Kohlenstoff“ in deinem Aktionsbereich."
    );
    let r = t.say("alice /energy company:minerva");
    assert_eq!(
        first_text(&r),
        "Du hast keine offene Energiekarte in deinem Aktionsbereich."
    );
    let r = t.say("alice /resources type:plutonium");
    assert!(
        first_text(&r).starts_with(
            "`plutonium` ist keine Sorte: schreib type:carbon, type:minerals, type:titanium oder type:mixed"
        ),
        "{}",
        first_text(&r)
    );
    let r = t.say("bob /bonus space:majority_titanium");
    assert_eq!(
        first_text(&r),
        "Du bist nicht am Zug (es wird auf alice gewartet)."
    );
    let r = t.say("alice /pass deck:9");
    assert_eq!(first_text(&r), "Sammel-Slot 9 ist leer.");
    // A question without its own sentence: the generic "Wähle:" with the task in German.
    let r = t.say("alice /pass");
    let confirm = r[0].choices[0].custom_id.clone();
    let r = t.say(&format!("alice /click {confirm}"));
    let asked: Vec<&str> = r.iter().map(|r| r.text.as_str()).collect();
    assert!(
        asked
            .iter()
            .any(|a| a.contains("Wähle: die Sammelreihe, die du zurück auf die Hand nimmst.")),
        "{asked:#?}"
    );
    assert_no_english(&t);
    // Autocomplete suggestions are read by the one typing: in German too.
    let req = parse_line("alice /plan", &owners())
        .expect("parses")
        .expect("a line");
    let games: Vec<String> = t
        .chat
        .autocomplete(&req, "game", "")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(games, ["Skymines-Partie #1 (wartet auf dich)"]);
    let cards: Vec<String> = t
        .chat
        .autocomplete(&req, "cards", "")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert!(cards.iter().any(|c| c.contains("Kohlenstoff")), "{cards:?}");
}

#[test]
fn a_german_player_reads_private_replies_in_german_while_public_ones_follow_the_game() {
    let mut t = table("mixed");
    let bob = local_user_id("bob");
    let r = t.say("bob /skymines settings language:fr");
    assert!(
        r[0].text.contains("`fr` is not a valid value"),
        "{}",
        r[0].text
    );
    let r = t.say("bob /skymines settings language:de");
    assert_eq!(r[0].audience, Audience::Private(bob));
    assert!(
        r[0].text.contains("Deine Sprache: Deutsch"),
        "{}",
        r[0].text
    );
    let r = t.say("bob /skymines settings language:fr");
    assert!(
        r[0].text.contains("ist kein gültiger Wert"),
        "{}",
        r[0].text
    );
    // An English game (start() checks the English announcement).
    start(&mut t, 2, "", 17);
    let r = t.say("bob /hand");
    assert_eq!(r[0].audience, Audience::Private(bob));
    assert!(r[0].text.contains("Aktionsbereich"), "{}", r[0].text);
    let r = t.say("alice /hand");
    assert!(r[0].text.contains("Action area"), "{}", r[0].text);
    let labels: Vec<String> = t
        .chat
        .pending_choices(&place(), bob)
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert!(labels.iter().any(|l| l == "Fertig geplant"), "{labels:?}");
    t.say("bob /skymines settings notify:dm");
    let r = t.say("bob /plan cards:energy2,minerals2,researcher");
    // Planning is posted with the reveal; the planner sees the step at once.
    assert!(private_to(&r, "bob").contains("bob hat geplant"), "{r:?}");
    let r = t.say("alice /plan cards:carbon2,titanium2,researcher");
    assert!(public_text(&r).contains("Action phase"), "{r:?}");
    // bob is refused in German; the pings and the DM prompt of his turn follow the audience.
    let mut replies = Vec::new();
    while !t.waiting().contains(&bob) {
        replies.extend(t.say("alice /choose option:1"));
    }
    let ping = replies
        .iter()
        .find(|r| matches!(r.audience, Audience::Ping(users) if users.contains(bob)))
        .expect("bob is pinged");
    assert!(ping.text.contains("it is your turn"), "{}", ping.text);
    assert_eq!(ping.choices[0].label, "Your turn");
    let dm = replies
        .iter()
        .find(|r| r.audience == Audience::Dm(bob))
        .expect("bob's prompt comes by DM");
    assert!(dm.text.starts_with("Skymines-Partie #1:"), "{}", dm.text);
    assert!(dm.text.contains("Du bist am Zug"), "{}", dm.text);
    // Only the host sets the game's language; then public replies (and the private replies of
    // players without a language of their own) are German.
    let r = t.say("bob /skymines settings game_language:de");
    assert!(r[0].text.contains("Spielleitung"), "{}", r[0].text);
    let r = t.say("alice /skymines status");
    assert!(r[0].text.starts_with("Round"), "{}", r[0].text);
    let r = t.say("alice /skymines settings game_language:de");
    assert!(r[0].text.contains("Deutsch"), "{}", r[0].text);
    let r = t.say("alice /skymines status");
    assert!(r[0].text.starts_with("Runde"), "{}", r[0].text);
    let r = t.say("alice /hand");
    assert!(r[0].text.contains("Aktionsbereich"), "{}", r[0].text);
    let r = t.say("alice /skymines settings language:en");
    assert!(
        r[0].text.contains("Your language: English"),
        "{}",
        r[0].text
    );
    let r = t.say("alice /hand");
    assert!(r[0].text.contains("Action area"), "{}", r[0].text);
    // Settings survive a new Chat over the same store (they are stored).
    t.restart(ChatConfig {
        images: false,
        rate_limit: 0,
        ..ChatConfig::default()
    });
    assert!(t.say("bob /hand")[0].text.contains("Aktionsbereich"));
    assert!(t.say("eve /skymines status")[0].text.starts_with("Runde"));
}

#[test]
fn the_configured_default_language_applies_when_nobody_chose_one() {
    let mut t = table("default-de");
    t.restart(ChatConfig {
        images: false,
        rate_limit: 0,
        default_language: "de".to_string(),
        ..ChatConfig::default()
    });
    let r = t.say("alice /skymines new players:2");
    assert!(public_text(&r).contains("eröffnet"), "{r:?}");
    let r = t.say("bob /skymines settings language:en");
    assert!(
        r[0].text.contains("Your language: English"),
        "{}",
        r[0].text
    );
    let r = t.say("bob /skymines start");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
}

#[test]
fn the_status_board_image_is_stored_per_state_version_and_read_back() {
    let mut t = table("board-images");
    t.restart(ChatConfig {
        images: true,
        rate_limit: 0,
        ..ChatConfig::default()
    });
    start(&mut t, 1, "luna:2", 40);
    let store = t.store();
    let (game, images) = (store.games().live_games()[0], store.images());
    let (_, version) = store.games().live_state(game).expect("live");
    let board = |replies: &[Reply]| {
        replies
            .iter()
            .find_map(|r| {
                r.image
                    .as_ref()
                    .filter(|i| i.file_name.ends_with("board.png"))
            })
            .map(|i| i.png.clone())
            .expect("a board image")
    };
    let shown = board(&t.say("alice /skymines status"));
    assert_eq!(
        images.board_png(game, version).expect("read"),
        Some(shown.clone()),
        "the board of the current version is kept in the database"
    );
    // Stand-in bytes in the database prove the next status reads it instead of drawing.
    images
        .store_board_png(game, version, b"stored board")
        .expect("write");
    assert_eq!(board(&t.say("alice /skymines status")), b"stored board");
    // A move makes a new version with its own image.
    t.say("alice /plan cards:carbon2 done:no");
    let (_, next) = store.games().live_state(game).expect("live");
    assert!(next > version);
    let moved = board(&t.say("alice /skymines status"));
    assert_ne!(moved, b"stored board");
    assert_eq!(
        images.board_png(game, next).expect("read"),
        Some(moved.clone())
    );
    // The game's language changes: the stored English board is not shown again; the German one
    // is drawn and kept in its place.
    images
        .store_board_png(game, version, b"old English board")
        .expect("write");
    t.say("alice /skymines settings game_language:de");
    assert_eq!(images.board_png(game, version).expect("read"), None);
    let german = board(&t.say("alice /skymines status"));
    assert_ne!(german, moved, "the board is drawn again in German");
    assert_eq!(images.board_png(game, next).expect("read"), Some(german));
}

#[test]
fn a_button_shown_before_an_undo_is_refused_as_stale_after_it() {
    let mut t = table("undo-stale");
    start(&mut t, 2, "", 21);
    let alice = local_user_id("alice");
    let before = t.chat.pending_choices(&place(), alice);
    t.say("alice /plan cards:carbon2 done:no");
    let r = t.say("alice /undo");
    assert!(public_text(&r).contains("took back"), "{r:?}");
    // The undo restored the planning state exactly: the same question and choices…
    let after = t.chat.pending_choices(&place(), alice);
    let labels =
        |c: &[skymines::chat::Choice]| c.iter().map(|c| c.label.clone()).collect::<Vec<_>>();
    assert_eq!(labels(&after), labels(&before));
    // …but a button from before the undo is out of date and changes nothing.
    let r = t.say(&format!("alice /click {}", before[0].custom_id));
    assert_eq!(r.len(), 1);
    assert!(matches!(r[0].audience, Audience::Private(_)));
    assert!(r[0].text.contains("out of date"), "{}", r[0].text);
    assert_eq!(
        labels(&t.chat.pending_choices(&place(), alice)),
        labels(&before)
    );
    // Another player's plan does not outdate alice's new buttons.
    t.say("bob /plan cards:energy2 done:no");
    let r = t.say(&format!("alice /click {}", after[0].custom_id));
    assert!(r.iter().all(|r| !r.text.contains("out of date")), "{r:?}");
}

#[test]
fn a_lobby_survives_a_restart_and_goes_on() {
    let mut t = table("lobby-restart");
    t.say("alice /skymines new players:3 language:de seed:5");
    t.say("bob /skymines join");
    let restart = |t: &mut Table| {
        t.restart(ChatConfig {
            images: false,
            rate_limit: 0,
            ..ChatConfig::default()
        })
    };
    restart(&mut t);
    // The lobby is still there, with its players, options and language.
    let r = t.say("bob /skymines join");
    assert!(
        r[0].text.contains("bereits") || r[0].text.contains("already"),
        "bob is still in it: {}",
        r[0].text
    );
    let r = t.say("dave /skymines new players:1");
    assert!(!r[0].text.is_empty());
    t.say("carol /skymines join");
    restart(&mut t);
    let r = t.say("alice /skymines start");
    let text = public_text(&r);
    assert!(
        text.contains("#1"),
        "the game starts after two restarts: {text}"
    );
    let state = t.store().games().live_state(1).expect("game").0;
    assert_eq!(state.seats.len(), 3);
    assert_eq!(state.options.seed, 5, "the chosen seed survived");
    // Started lobbies are gone from the store: another restart has nothing to restore.
    restart(&mut t);
    let r = t.say("bob /skymines join");
    assert!(
        !public_text(&r).contains("(3/3)") && !public_text(&r).contains("joined"),
        "{r:?}"
    );
    assert!(t.store().campaigns().lobbies().expect("lobbies").is_empty());
}

fn live_state(t: &Table) -> std::sync::Arc<skymines::engine::state::GameState> {
    let store = t.store();
    let game = store
        .games()
        .game_in_channel(LOCAL_CHANNEL)
        .expect("store")
        .expect("a game");
    store.games().state(game).expect("state")
}

/// Answers `name`'s questions with option 1 of the list shown to them until the game no longer
/// waits on them alone.
fn answer_with_first(t: &mut Table, name: &str) {
    for _ in 0..50 {
        if t.waiting() != vec![local_user_id(name)] {
            return;
        }
        t.chat.pending_choices(&place(), local_user_id(name));
        t.say(&format!("{name} /choose 1"));
    }
    panic!("{name} is asked forever");
}

#[test]
fn choose_by_number_means_the_list_that_reader_was_shown_and_typed_commands_help() {
    let mut t = table("choose-shown");
    start(&mut t, 2, "", 7);
    // Cards named by their faces.
    let r = t.say("alice /plan cards:titanium2,minerals2");
    // Planning is posted with the reveal; the planner sees the step at once.
    assert!(
        private_to(&r, "alice").contains("alice has planned"),
        "{r:?}"
    );
    let r = t.say("bob /plan cards:energy2,researcher");
    assert!(public_text(&r).contains("Action phase"), "{r:?}");
    assert_eq!(t.waiting(), vec![local_user_id("alice")]);

    // An unknown option is refused naming the valid ones; a bad value lists the valid values.
    let r = t.say("alice /research source:tile");
    assert_eq!(
        first_text(&r),
        "Unknown option `source` (options: card, flip, advance, game)."
    );
    let r = t.say("alice /bonus space:tile_plus");
    let text = first_text(&r);
    assert!(
        text.starts_with("`tile_plus` is not a bonus space. Valid values: ")
            && text.contains("majority_titanium")
            && text.ends_with('.'),
        "{text}"
    );

    // No list shown yet: a number is refused, with the list it would refer to.
    let before = live_state(&t).decisions_applied;
    let r = t.say("alice /choose 1");
    assert!(
        r[0].text.starts_with("You have not been shown a list"),
        "{}",
        r[0].text
    );
    assert!(!r[0].choices.is_empty());
    assert_eq!(live_state(&t).decisions_applied, before);

    // The majority tier asked for on one's own turn (one tier qualifies: taken by itself).
    let r = t.say("alice /bonus space:titanium tier:1");
    assert!(
        public_text(&r).contains("alice places a bonus marker on"),
        "{r:?}"
    );
    assert_eq!(t.waiting(), vec![local_user_id("bob")]);

    // /pass shows one option, Drop out; /choose 1 then drops out.
    let r = t.say("bob /pass");
    assert_eq!(r[0].choices.len(), 1);
    assert_eq!(r[0].choices[0].label, "Drop out");
    assert_eq!(r[0].choices[0].number, Some(1));
    let r = t.say("bob /choose 1");
    assert!(!r.iter().any(|r| r.text.contains("older list")), "{r:?}");
    answer_with_first(&mut t, "bob");
    assert!(live_state(&t).seats[1].dropped_out, "bob dropped out");

    // alice's last list is from before bob's turn: its numbers are refused, the fresh list shown.
    assert!(t.waiting().contains(&local_user_id("alice")));
    let before = live_state(&t).decisions_applied;
    let r = t.say("alice /choose 1");
    assert!(
        r[0].text
            .starts_with("That number belongs to an older list"),
        "{}",
        r[0].text
    );
    assert!(!r[0].choices.is_empty());
    assert_eq!(live_state(&t).decisions_applied, before);
    // Now the number is that of the list just shown.
    let shown = r[0].choices[0].clone();
    assert_eq!(shown.number, Some(1));
    let r = t.say("alice /choose 1");
    assert!(!r.iter().any(|r| r.text.contains("older list")), "{r:?}");
    assert!(live_state(&t).decisions_applied > before);
    // Every refusal said so far (a private reply without choices to a typed line) is one
    // sentence style; step lines start with a player's name.
    for (line, reply) in &t.log {
        let refusal = matches!(reply.audience, Audience::Private(_))
            && reply.choices.is_empty()
            && !reply.text.starts_with("alice ")
            && !reply.text.starts_with("bob ");
        if refusal {
            let first = reply.text.lines().next().unwrap_or("");
            assert!(
                first.chars().next().is_some_and(|c| !c.is_lowercase()) && first.ends_with('.'),
                "{line}: {first}"
            );
        }
    }
}

#[test]
fn the_last_finished_game_stays_viewable_until_a_new_one_starts() {
    let mut t = table("after-the-game");
    let names = start(&mut t, 2, "", 11);
    play_out(&mut t, &names, 11);
    assert_finished(&t);
    let over = t
        .log
        .iter()
        .find(|(_, r)| r.audience == Audience::Public && r.text.starts_with("Final scores"))
        .map(|(_, r)| r.text.clone())
        .expect("the game-over message");
    assert!(
        over.contains("wins the game!") || over.contains("Shared victory"),
        "{over}"
    );
    let scores = public_text(&t.say("carol /skymines scores"));
    assert!(scores.starts_with("Final scores"), "{scores}");
    let status = public_text(&t.say("carol /skymines status"));
    assert!(status.contains("Final scores"), "{status}");
    let log = public_text(&t.say("carol /skymines log"));
    assert!(!log.contains("There is no Skymines game"), "{log}");
    assert!(log.contains("alice"), "{log}");
    // A lobby is no new game yet; a started one replaces the old result.
    t.say("alice /skymines new players:2");
    assert!(public_text(&t.say("carol /skymines scores")).starts_with("Final scores"));
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    let scores = public_text(&t.say("carol /skymines scores"));
    assert!(
        scores.starts_with("Scores if the game ended now"),
        "{scores}"
    );
}

/// Planning without linked slots: the hand is one menu of up to as many cards as slots are
/// open, and several cards picked together (Discord sends a menu's picks at once; the local
/// mode takes `/click ID ID`) fill the open slots from the left. The same picks again are
/// out of date and change nothing.
#[test]
fn several_cards_picked_from_the_planning_menu_are_all_planned() {
    let mut t = table("multi-pick");
    start(&mut t, 2, "", 21);
    let alice = local_user_id("alice");
    let store = t.store();
    let game = store
        .games()
        .game_in_channel(place().channel)
        .expect("query")
        .expect("a game");
    let mut steps = 0;
    while store.games().state(game).expect("state").phase != Phase::Planning {
        steps += 1;
        assert!(steps < 20, "planning does not start");
        let user = t.waiting()[0];
        let name = NAMES
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a player");
        t.say(&format!("{name} /choose option:1"));
    }
    let before = store.games().state(game).expect("state");
    let seat = before
        .seats
        .iter()
        .position(|s| s.name == "alice")
        .expect("alice");
    let open: Vec<usize> = (0..before.seats[seat].slots.len())
        .filter(|&i| before.seats[seat].slot_on[i] && before.seats[seat].slots[i].is_none())
        .collect();
    assert!(open.len() >= 2, "{open:?}");
    let cards: Vec<_> = t
        .chat
        .pending_choices(&place(), alice)
        .into_iter()
        .filter(|c| c.custom_id.contains("plan_card"))
        .collect();
    assert!(cards.len() >= 2);
    for c in &cards {
        let menu = c.menu.as_ref().expect("a planning card is a menu option");
        assert_eq!(menu.max_values as usize, open.len());
    }
    let line = format!("alice /click {} {}", cards[0].custom_id, cards[1].custom_id);
    let replies = t.say(&line);
    let after = store.games().state(game).expect("state");
    let filled: Vec<usize> = (0..5)
        .filter(|&i| after.seats[seat].slots.get(i).is_some_and(|s| s.is_some()))
        .collect();
    assert_eq!(filled, open[..2].to_vec(), "{replies:?}");
    let again = t.say(&line);
    assert_eq!(
        store.games().state(game).expect("state").seats[seat].slots,
        after.seats[seat].slots
    );
    assert!(
        again
            .iter()
            .any(|r| matches!(r.audience, Audience::Private(u) if u == alice)
                && r.text.contains("out of date")),
        "{again:?}"
    );
}

/// Issue 19 points 4 and 7: the campaign help says which chapters have success points of their
/// own (chapters 3 and 4, from the campaign data; 1 and 2 have none), and `/choose` with
/// nothing open says so instead of "choose 1 to 0".
#[test]
fn the_campaign_help_names_the_chapters_with_their_own_points_and_choose_knows_nothing_is_open() {
    let mut t = table("help-campaign");
    let help = first_text(&t.say("alice /skymines help topic:campaign")).to_string();
    assert!(!help.contains("chapter's own point"), "{help}");
    assert!(
        help.contains(
            "chapter 3: +1 SP (first to unlock the personal bonus space); \
             chapter 4: +1 SP (removed the threat card)"
        ),
        "{help}"
    );
    assert!(!help.contains("chapter 1:") && !help.contains("chapter 2:"));
    // A player no question waits on is shown an empty list; choosing from it says so.
    start(&mut t, 2, "", 9);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut idle = None;
    for _ in 0..200 {
        let waiting = t.waiting();
        if waiting.len() == 1 {
            let other = NAMES[..2]
                .iter()
                .find(|n| local_user_id(n) != waiting[0])
                .expect("the other player");
            if t.chat
                .pending_choices(&place(), local_user_id(other))
                .is_empty()
            {
                idle = Some(*other);
                break;
            }
        }
        let user = waiting[0];
        let name = NAMES[..2]
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a player");
        let n = t.chat.pending_choices(&place(), user).len();
        t.say(&format!("{name} /choose option:{}", rng.gen_range(1..=n)));
    }
    let idle = idle.expect("a player with nothing to choose");
    let r = t.say(&format!("{idle} /choose option:4"));
    let text = first_text(&r);
    assert_eq!(
        text,
        "Nothing is open for you to choose right now: there are no options."
    );
}

/// The public messages of the log (posts and pings, not the status), with the line said.
fn public_posts(t: &Table) -> Vec<&Reply> {
    t.log
        .iter()
        .map(|(_, r)| r)
        .filter(|r| matches!(r.audience, Audience::Public | Audience::Ping(_)))
        .filter(|r| r.status_of.is_none())
        .collect()
}

/// Issue 23: one person and two computer players play a whole game through the chat. The
/// computer players are seated by `/skymines new bots:2`, plan at once, and take their turns
/// one after another until the person must act, in one public message (a turn, or the turns
/// in a row once the people have dropped out) that pings nobody but the person whose turn
/// comes next; bob takes a computer player's seat over in the
/// middle of the game, and the game goes on to its final scores.
#[test]
fn one_person_and_two_computer_players_play_a_whole_game() {
    let mut t = table("computers");
    // A game needs a person: refused, and nothing is opened.
    let r = t.say("alice /skymines new players:2 bots:2");
    assert!(
        first_text(&r).contains("A game needs at least one person"),
        "{r:?}"
    );
    let r = t.say("alice /skymines new players:3 bots:2 bot_level:fast");
    assert!(first_text(&r).contains("easy, normal, hard"), "{r:?}");
    assert!(t.say("alice /skymines status")[0]
        .text
        .contains("There is no Skymines game"));

    let opened = t.say("alice /skymines new players:3 bots:2 bot_level:easy seed:12");
    let text = public_text(&opened);
    assert!(text.contains("(3/3)"), "{text}");
    assert!(text.contains("Computer players: 2, level easy"), "{text}");
    let started = t.say("alice /skymines start");
    assert!(public_text(&started).contains("begins"), "{started:?}");
    let state = live_state(&t);
    let names: Vec<&str> = state.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alice", "Computer 1", "Computer 2"]);
    // The computer players planned at once: the game waits on alice alone.
    assert_eq!(t.waiting(), vec![local_user_id("alice")]);
    assert!(state.seats[1].planned && state.seats[2].planned);
    let status = t.say("alice /skymines status");
    assert!(
        public_text(&status)
            .contains("Computer players (easy): Computer 1 (seat 2), Computer 2 (seat 3)."),
        "{status:?}"
    );

    // To round 3, then bob takes over the first computer player's seat.
    let alice = ["alice"];
    play_until(&mut t, &alice, 12, |t| live_state(t).round >= 3);
    let joined = t.say("bob /skymines join");
    let joined_at = t.log.len();
    assert!(
        public_text(&joined).contains("bob takes over seat 2 (Computer 1)"),
        "{joined:?}"
    );
    assert!(private_to(&joined, "bob").contains("You now play seat 2"));
    let seats = t.store().people().seats(live_game(&t)).expect("seats");
    assert_eq!(
        seats[1].owner,
        skymines::store::SeatOwner::Discord(local_user_id("bob"))
    );
    let both = ["alice", "bob"];
    play_out(&mut t, &both, 13);
    assert_finished(&t);

    // Nobody but the people was ever pinged or told anything privately.
    let people = [local_user_id("alice"), local_user_id("bob")];
    for (line, r) in &t.log {
        match r.audience {
            Audience::Ping(p) => assert!(
                p.users().iter().all(|u| people.contains(u)),
                "{line}: {r:?}"
            ),
            Audience::Private(u) | Audience::Dm(u) => assert!(people.contains(&u), "{line}"),
            Audience::Public => {}
        }
    }
    // From round 3 on (bob in seat 2), each run of turns Computer 2 played in a row in the
    // action phase is one public message, opened by the run's first line (its action), however
    // many steps and turns it took: one turn while a person plays too, several once the people
    // have dropped out, which go out together when a person must act or the phase ends.
    let store = t.store();
    let game = live_game(&t);
    let export = store.admin().export(game).expect("export");
    let data = crate::support::shared_data();
    let mut replay =
        skymines::engine::new_game(&data, &export.options, &export.seat_names).expect("set-up");
    let (mut computer_turns, mut computer_runs, mut computer_steps) = (0, 0, 0);
    let mut run_goes_on = false;
    for entry in &export.log {
        if let skymines::store::LogEntry::Batch {
            seat, decisions, ..
        } = entry
        {
            let (phase, round) = (replay.phase, replay.round);
            let counted = phase == Phase::Action && round >= 3;
            if counted && *seat == 2 {
                computer_turns += 1;
                computer_steps += decisions.len();
                if !run_goes_on {
                    computer_runs += 1;
                }
            }
            skymines::engine::apply_batch(&data, &mut replay, *seat, decisions).expect("replays");
            run_goes_on = counted && *seat == 2 && replay.phase == phase && replay.round == round;
        }
    }
    assert!(computer_turns >= 10, "computer turns: {computer_turns}");
    assert!(
        computer_runs < computer_turns,
        "some turns came in a row ({computer_runs} runs of {computer_turns} turns)"
    );
    assert!(
        computer_steps > computer_turns,
        "some turns took several steps"
    );
    let computer_posts = t.log[joined_at..]
        .iter()
        .map(|(_, r)| r)
        .filter(|r| matches!(r.audience, Audience::Public | Audience::Ping(_)))
        .filter(|r| r.status_of.is_none())
        .filter(|r| r.text.starts_with("Computer 2 ") && !r.text.contains("has planned"))
        .count();
    assert_eq!(
        computer_posts, computer_runs,
        "one message per run of computer turns"
    );
    let scores = public_posts(&t)
        .into_iter()
        .find(|r| r.text.starts_with("Final scores"))
        .expect("final scores")
        .text
        .clone();
    // The seat bob took over scores under his name.
    for name in ["alice", "bob", "Computer 2"] {
        assert!(scores.contains(name), "{scores}");
    }
    assert!(!scores.contains("Computer 1"), "{scores}");
}

/// The channel's game (running or just finished).
fn live_game(t: &Table) -> skymines::store::GameId {
    let store = t.store();
    let games = store.games();
    let now = games.game_in_channel(LOCAL_CHANNEL).expect("store");
    let last = games.last_finished_in_channel(LOCAL_CHANNEL);
    now.or_else(|| last.expect("store")).expect("a game")
}

/// Issue 23: the lobby's "Add a computer player" button (the host's) seats computer players,
/// growing the game while the options allow; a person who joins a full lobby takes a computer
/// player's seat; the game starts with the people first, then the computer players.
#[test]
fn the_lobby_button_seats_computer_players_and_people_take_their_seats() {
    let mut t = table("computer-lobby");
    t.say("alice /skymines new players:2 luna:2");
    let r = t.say("bob /click l:bot");
    assert!(first_text(&r).contains("Only the host"), "{r:?}");
    let r = t.say("alice /click l:bot");
    assert!(
        public_text(&r).contains("alice added a computer player (2/2)."),
        "{r:?}"
    );
    // A full lobby shows no Add button (issue 34); Join stays, to take the computer's seat.
    let labels: Vec<&str> = r[0].choices.iter().map(|c| c.label.as_str()).collect();
    assert!(!labels.contains(&"Add a computer player") && labels.contains(&"Join"));
    // Full: the game grows by a seat (Luna plays with up to three players)…
    let r = t.say("alice /click l:bot");
    assert!(public_text(&r).contains("(3/3)"), "{r:?}");
    assert!(
        public_text(&r).contains("Computer players: 2, level normal."),
        "{r:?}"
    );
    // …but not past what the options allow.
    let r = t.say("alice /click l:bot");
    assert_eq!(first_text(&r), "This game is full.");
    let r = t.say("bob /skymines join");
    assert!(
        public_text(&r).contains("bob joined and takes a computer player's seat (3/3)."),
        "{r:?}"
    );
    let r = t.say("alice /skymines status");
    assert!(
        public_text(&r).contains("Computer players: 1, level normal."),
        "{r:?}"
    );
    let r = t.say("alice /skymines start");
    assert!(public_text(&r).contains("begins"), "{r:?}");
    let names: Vec<String> = live_state(&t)
        .seats
        .iter()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(names, ["alice", "bob", "Computer 1", "Luna"]);
    let mut waiting = t.waiting();
    waiting.sort();
    let mut people = vec![local_user_id("alice"), local_user_id("bob")];
    people.sort();
    assert_eq!(waiting, people, "the computer player planned at once");
}

/// The id of the option labelled `label` among the choices `name` is offered now, as a line.
fn choose_labelled(t: &Table, name: &str, label: &str) -> String {
    let choices = t.chat.pending_choices(&place(), local_user_id(name));
    let choice = choices
        .iter()
        .find(|c| c.label == label)
        .unwrap_or_else(|| panic!("{name} is offered {label:?}: {choices:#?}"));
    format!(
        "{name} /choose option:{}",
        choice.number.expect("a numbered option")
    )
}

/// A 2-player game (seed 42) in `language` where both have planned (alice: carbon2,
/// titanium2 and her research scientist in slots 2-4) and alice takes the first turn.
pub(crate) fn at_first_turn(tag: &str, language: &str) -> Table {
    let mut t = table(tag);
    t.say(&format!(
        "alice /skymines new players:2 seed:42 language:{language}"
    ));
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    t.say("alice /plan cards:carbon2,titanium2,researcher");
    t.say("bob /plan cards:energy2,minerals2,researcher");
    t
}

#[test]
fn a_turns_repeated_track_steps_read_as_one_line_with_the_sum() {
    let mut t = at_first_turn("merge-tracks", "en");
    // Two units, two steps on one track: two decisions, one line in the turn's message.
    let r = t.say("alice /resources type:carbon tracks:tawac+2");
    let turn = public_text(&r);
    assert!(
        turn.contains("alice moves 2 spaces on the Tawac Industries track"),
        "{turn}"
    );
    assert!(!turn.contains("moves 1 space"), "{turn}");
    // The log reads the turn as its message did.
    let log = public_text(&t.say("bob /skymines log"));
    assert!(
        log.contains("alice moves 2 spaces on the Tawac Industries track"),
        "{log}"
    );
    assert!(!log.contains("moves 1 space"), "{log}");
    let r = t.say("bob /resources type:minerals tracks:minerva+1,skymine+1");
    let turn = public_text(&r);
    assert!(
        turn.contains("bob moves 1 space on the Minerva Corp. track")
            && turn.contains("bob moves 1 space on the Skymine Resources track"),
        "steps on two tracks stay two lines: {turn}"
    );
    // In a German game, with the German plural.
    let mut t = at_first_turn("merge-tracks-de", "de");
    let r = t.say("alice /resources type:carbon tracks:tawac+2");
    let turn = public_text(&r);
    assert!(
        turn.contains("alice zieht 2 Felder auf der Leiste von Tawac Industries"),
        "{turn}"
    );
}

#[test]
fn research_without_a_move_reads_in_the_rulebooks_words_and_coins_per_point_are_summed() {
    let mut t = at_first_turn("merge-coins", "en");
    // The research scientist without flipping or advancing: its 2 research points remain.
    let r = t.say("alice /research card:4 flip:none advance:0");
    let step = private_to(&r, "alice");
    assert!(
        step.contains("alice does not advance on the research track: no research plan reward"),
        "{step}"
    );
    let coin = text::for_language("en").t("label.take_coin");
    let line = choose_labelled(&t, "alice", &coin);
    t.say(&line);
    let line = choose_labelled(&t, "alice", &coin);
    let r = t.say(&line);
    let turn = public_text(&r);
    assert!(turn.contains("alice gains 2 CrypCoin"), "{turn}");
    assert!(!turn.contains("alice gains 1 CrypCoin"), "{turn}");
    assert!(
        turn.contains("alice does not advance on the research track"),
        "{turn}"
    );
    assert!(!turn.contains("upload marker"), "no engine words: {turn}");
}

#[test]
fn a_flip_option_names_the_plan_it_turns_face_down_with_its_printed_reward() {
    // A seeded game played at random until a player may flip the plan of their starting
    // research token (screen 1).
    let mut t = table("flip");
    let names = start(&mut t, 2, "luna:2 board:belt missions:yes threats:yes", 21);
    let flip = |t: &Table| {
        t.waiting().into_iter().find_map(|user| {
            t.chat
                .pending_choices(&place(), user)
                .into_iter()
                .find(|c| c.label == "Flip the plan on screen 1 (2 CrypCoin)")
                .map(|c| (user, c))
        })
    };
    play_until(&mut t, &names, 21, |t| flip(t).is_some());
    let (user, choice) = flip(&t).expect("a flip of screen 1 is offered in this game");
    let seat = names
        .iter()
        .position(|n| local_user_id(n) == user)
        .expect("a player");
    let state = t.store().games().live_state(1).expect("game").0;
    let data = GameData::embedded().expect("data");
    let token = &data.research.starting_tokens[state.seats[seat].token.expect("a kept token")];
    let en = text::for_language("en");
    let reward: Vec<String> = token
        .plan_reward
        .iter()
        .map(|r| en.resolve(&data.reward_name(r)))
        .collect();
    let requirements: Vec<String> = token
        .plan_requirements
        .iter()
        .map(|r| en.resolve(&data.requirement_name(r)))
        .collect();
    let printed = format!(
        "your starting token's plan [{} → {}]",
        requirements.join(" + "),
        reward.join(" + ")
    );
    assert!(
        choice.description.starts_with(&format!(
            "turns {printed} face down: no requirements, no reward, pay 2 CrypCoin"
        )),
        "{}",
        choice.description
    );
}

/// Everything a player reads in a whole game, for the reading checks: every reply's text (public,
/// ephemeral, pings, status, DMs) with its buttons' labels and descriptions.
fn everything_read(t: &Table) -> Vec<String> {
    t.log
        .iter()
        .flat_map(|(_, r)| {
            std::iter::once(r.text.clone()).chain(
                r.choices
                    .iter()
                    .map(|c| format!("{} :: {}", c.label, c.description)),
            )
        })
        .collect()
}

/// A whole game of alice and bob with `options`, played to its end through the chat.
fn whole_game(tag: &str, options: &str, seed: u64) -> Table {
    let mut t = table(tag);
    t.say(&format!("alice /skymines new seed:{seed} {options}"));
    t.say("bob /skymines join");
    t.say("alice /skymines start");
    play_out(&mut t, &NAMES[..2], seed);
    t
}

/// A whole game with Luna (2 players) and one with a computer player (3 seats), played through
/// the chat, in `language`; returns both tables.
fn two_whole_games(language: &str) -> [Table; 2] {
    let mut luna = whole_game(
        &format!("read-luna-{language}"),
        &format!("players:2 luna:3 language:{language}"),
        31,
    );
    let mut computer = whole_game(
        &format!("read-computer-{language}"),
        &format!("players:3 bots:1 language:{language}"),
        32,
    );
    for t in [&mut luna, &mut computer] {
        assert_finished_in(t, language);
        for line in [
            "alice /skymines scores",
            "alice /skymines status",
            "bob /hand",
            "bob /skymines log",
            "bob /skymines board player:alice",
        ] {
            t.say(line);
        }
    }
    [luna, computer]
}

/// Whole games read as sentences: no plural in brackets ("card(s)", "Karte(n)"), companies by
/// their names from the data (never a lower-case id such as "+tawac share"), no track bonus that
/// only says "Same" as the one before it, a finished game's status waits on nobody rather than
/// "-", and a planner without cards is said once.
#[test]
fn whole_games_with_luna_and_with_a_computer_player_read_as_sentences() {
    let data = crate::support::shared_data();
    for language in ["en", "de"] {
        let games = two_whole_games(language);
        for t in &games {
            // The finished game's boards stay viewable, like its status and scores.
            let board = t
                .log
                .iter()
                .rev()
                .find(|(line, _)| line == "bob /skymines board player:alice")
                .map(|(_, r)| r.text.clone())
                .unwrap_or_default();
            assert!(board.starts_with("alice: "), "{board}");
            let read = everything_read(t);
            assert!(read.len() > 500, "a whole game was read: {}", read.len());
            for text in &read {
                for bracket in ["(s)", "(n)", "(en)", "(e)", "(er)"] {
                    assert!(!text.contains(bracket), "{bracket} in {text:?}");
                }
                for company in skymines::data::Company::ALL {
                    assert!(
                        !contains_word(text, company.id()),
                        "company id {:?} in {text:?}",
                        company.id()
                    );
                }
                for stale in ["Same, ", "Ebenso, ", "Waiting for: -", "gewartet auf: -"] {
                    assert!(!text.contains(stale), "{stale:?} in {text:?}");
                }
            }
            // Cards with a share name their company as the data does.
            let all = read.join("\n");
            let shares = skymines::data::Company::ALL
                .iter()
                .filter(|c| {
                    let name = data.company_name(**c);
                    all.contains(&format!("+{name} share"))
                        || all.contains(&format!("+Anteil {name}"))
                })
                .count();
            assert!(shares > 0, "the games show share cards");
            // Each seat's plan is said once at the reveal: an empty plan has no reveal line.
            let texts = text::for_language(language);
            for (_, r) in &t.log {
                for name in ["alice", "bob", "Computer 1"] {
                    let nothing = texts.f("event.planned_nothing", &[("name", &name)]);
                    let reveals = texts.f("event.reveals", &[("name", &name), ("cards", &"")]);
                    let lines: Vec<&str> = r.text.lines().collect();
                    if lines.contains(&nothing.as_str()) {
                        assert!(
                            !lines.iter().any(|l| l.starts_with(reveals.trim_end())),
                            "{}",
                            r.text
                        );
                    }
                }
            }
        }
    }
}

/// The game's final scores were announced once, in its language.
fn assert_finished_in(t: &Table, language: &str) {
    let heading = text::for_language(language).t("scores.final");
    let finals = t
        .log
        .iter()
        .filter(|(_, r)| r.audience == Audience::Public && r.text.starts_with(heading.trim_end()))
        .count();
    assert_eq!(finals, 1, "the final scores are announced once");
}

/// A player who plans no cards is said once at the reveal ("bob has planned no cards"), not
/// again as having nothing to reveal; an expansion that enters nothing says, in the rulebook's words, that the energy
/// points are forfeited (not "expands … into no sector"). In English and German.
#[test]
fn an_empty_plan_is_said_once_and_an_expansion_into_nothing_forfeits_the_energy() {
    for (language, nothing, forfeits, old) in [
        (
            "en",
            "bob has planned no cards",
            "alice enters no sector and forfeits 2 energy points",
            "into no sector",
        ),
        (
            "de",
            "bob hat keine Karten geplant",
            "alice nimmt keinen Sektor ein und lässt 2 Energiepunkte verfallen",
            "in keinen Sektor",
        ),
    ] {
        let texts = text::for_language(language);
        let mut t = table(&format!("empty-plan-{language}"));
        t.say(&format!(
            "alice /skymines new players:2 seed:42 language:{language}"
        ));
        t.say("bob /skymines join");
        t.say("alice /skymines start");
        t.say("alice /plan cards:energy2,carbon2");
        let line = choose_labelled(&t, "bob", &texts.t("label.plan_done"));
        let r = t.say(&line);
        let reveal = public_text(&r);
        let about_bob: Vec<&str> = reveal.lines().filter(|l| l.starts_with("bob ")).collect();
        assert_eq!(about_bob, [nothing], "{reveal}");
        // alice's plan reads once, as its reveal (not also "has planned (2 cards face down)").
        let about_alice: Vec<&str> = reveal.lines().filter(|l| l.starts_with("alice ")).collect();
        assert_eq!(about_alice.len(), 1, "{reveal}");
        let energy2 = texts.f("card.energy", &[("n", &2)]);
        assert!(about_alice[0].contains(&energy2), "{reveal}");
        t.say("alice /energy company:tawac");
        let line = choose_labelled(&t, "alice", &texts.t("label.stop_expanding"));
        let turn = public_text(&t.say(&line));
        assert!(turn.contains(forfeits), "{turn}");
        assert!(!turn.contains(old), "{turn}");
    }
}
