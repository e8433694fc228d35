//! The message catalogs: every key the code uses exists in English, and every other language
//! file has exactly the English keys (a missing translation fails here).

use skymines::text::Texts;
use std::collections::BTreeSet;
use std::path::Path;

use crate::support::text as text_support;

fn sources(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("src dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(std::fs::read_to_string(&path).expect("source"));
        }
    }
}

/// Keys in calls like `.say("event.x"`, `.tell(seat, "event.x"`, `.t("ask.y")`, `.f("z.w",`,
/// `illegal("rule.x"` and `Message::new("setup.y"` (in src/chat, src/engine and the rest of src).
fn used_keys() -> BTreeSet<String> {
    let mut texts = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut texts,
    );
    let mut keys = BTreeSet::new();
    for text in texts {
        for (i, _) in text.match_indices('"') {
            let rest = &text[i + 1..];
            let Some(end) = rest.find('"') else { continue };
            let word = &rest[..end];
            let prefixes = [
                "event.",
                "ask.",
                "button.",
                "error.",
                "label.",
                "lobby.",
                "ping.",
                "game.",
                "help.",
                "image.",
                "hand.",
                "status.",
                "scores.",
                "word.",
                "phase.",
                "mygames.",
                "board.",
                "undo.",
                "log.",
                "settings.",
                "dm.",
                "alt.",
                "deadline.",
                "campaign.",
                "admin.",
                "rule.",
                "setup.",
                "task.",
                "parse.",
                "note.",
            ];
            if prefixes
                .iter()
                .chain(skymines::text::NAME_GROUPS.iter())
                .any(|p| word.starts_with(p))
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '.' || c == '_')
                && word.len() > 4
                && !word.ends_with('.')
                && ![".png", ".toml", ".rs"].iter().any(|x| word.ends_with(x))
            {
                keys.insert(word.to_string());
            }
        }
    }
    keys
}

#[test]
fn every_key_the_code_uses_is_in_the_english_catalog() {
    let en = Texts::english();
    let used = used_keys();
    // The scan reaches the engine's refusals and questions and the chat layer's parse errors.
    for group in ["rule.", "setup.", "task.", "parse.", "event.", "error."] {
        assert!(
            used.iter().filter(|k| k.starts_with(group)).count() >= 5,
            "no {group} keys found in src/"
        );
    }
    let missing: Vec<String> = used.into_iter().filter(|k| !en.has(k)).collect();
    assert!(
        missing.is_empty(),
        "keys missing from assets/lang/en.toml: {missing:?}"
    );
}

#[test]
fn every_language_file_has_the_english_keys() {
    let en = Texts::english();
    let english: BTreeSet<&str> = en.keys().collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/lang");
    for entry in std::fs::read_dir(&dir).expect("lang dir") {
        let path = entry.expect("entry").path();
        let code = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        let text = std::fs::read_to_string(&path).expect("catalog");
        let lang = Texts::parse(&code, &text).expect("catalog parses");
        let keys: BTreeSet<&str> = lang.keys().collect();
        let missing: Vec<_> = english.difference(&keys).collect();
        let extra: Vec<_> = keys.difference(&english).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{code}: missing {missing:?}, extra {extra:?}"
        );
        let mismatched: Vec<String> = keys
            .intersection(&english)
            .filter_map(|key| {
                let theirs = placeholders(lang.template(key).unwrap_or(""));
                let ours = placeholders(en.template(key).unwrap_or(""));
                (theirs != ours).then(|| format!("{key}: {theirs:?} vs English {ours:?}"))
            })
            .collect();
        assert!(
            mismatched.is_empty(),
            "{code}: arguments differ from English: {mismatched:#?}"
        );
    }
}

/// The `{argument}` names a template uses (a plural choice `{n|card|cards}` uses `n`).
fn placeholders(template: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find('}') else { break };
        let inside = &rest[..close];
        names.insert(inside.split('|').next().unwrap_or(inside).to_string());
        rest = &rest[close + 1..];
    }
    names
}

#[test]
fn every_language_is_built_in_and_complete() {
    let codes: Vec<&str> = skymines::text::language_codes().collect();
    assert_eq!(codes, ["en", "de"]);
    let en = Texts::english();
    for code in codes {
        let lang = Texts::built_in(code).expect("built-in catalog parses");
        assert_eq!(lang.keys().count(), en.keys().count(), "{code}");
    }
    let de = skymines::text::german();
    assert_eq!(de.code, "de");
    assert_eq!(
        de.f("event.gain_coins", &[("name", &"Lin"), ("n", &3)]),
        "Lin erhält 3 CrypCoin"
    );
    assert_eq!(skymines::text::for_language("xx").code, "en");
}

#[test]
fn placeholders_are_read_from_templates() {
    let names = placeholders("{name} joined ({joined}/{players} {players|seat|seats})");
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["joined", "name", "players"]
    );
    // Both words of a plural choice are prose (the German-words check reads them).
    assert_eq!(
        text_support::literal("{n} {n|Karte|Karten} ({n})")
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["Karte", "Karten", "()"]
    );
}

#[test]
fn templates_fill_their_arguments() {
    let en = Texts::english();
    let s = en.f("event.gain_coins", &[("name", &"Lin"), ("n", &3)]);
    assert_eq!(s, "Lin gains 3 CrypCoin");
    assert_eq!(en.t("no.such.key"), "[no.such.key]");
}

#[test]
fn every_help_topic_the_overview_names_has_its_text_in_every_language() {
    let english = Texts::english();
    let overview = english.t("help.overview");
    let (_, list) = overview
        .rsplit_once(':')
        .expect("the overview ends with its list of topics");
    let topics: Vec<&str> = list
        .trim_end_matches('.')
        .split(',')
        .map(str::trim)
        .collect();
    assert!(topics.len() >= 12, "topics listed: {topics:?}");
    let help_keys: BTreeSet<String> = english
        .keys()
        .filter_map(|k| k.strip_prefix("help."))
        .filter(|k| *k != "overview")
        .map(str::to_string)
        .collect();
    let listed: BTreeSet<String> = topics.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        listed, help_keys,
        "the overview lists exactly the help topics"
    );
    for code in skymines::text::language_codes() {
        let texts = Texts::built_in(code).expect("built in");
        for topic in &topics {
            let key = format!("help.{topic}");
            assert!(texts.has(&key), "{code}: {key}");
            // The overview names the topics by their command words in every language.
            assert!(
                texts.t("help.overview").contains(topic),
                "{code}: overview names {topic}"
            );
        }
    }
}

/// Whether `s` reads as one refusal sentence: a capital first letter (or a command, a quoted
/// word or an argument first) and a full stop (or ? or !) at the end.
fn is_sentence(s: &str) -> bool {
    let s = s.trim();
    let first_ok = s
        .chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || matches!(c, '/' | '`' | '{' | '„' | '"'));
    first_ok && s.ends_with(['.', '?', '!'])
}

#[test]
fn every_refusal_is_one_sentence_style_in_every_language() {
    for code in skymines::text::language_codes() {
        let texts = Texts::built_in(code).expect("built in");
        let mut bad = Vec::new();
        for key in texts.keys() {
            let template = texts.template(key).unwrap_or("");
            let group = key.split('.').next().unwrap_or("");
            if group == "error" || key.starts_with("admin.error.") {
                // Whole refusals: written as sentences.
                if !is_sentence(template) {
                    bad.push(format!("{key}: {template}"));
                }
            } else if ["rule", "parse", "setup"].contains(&group) {
                // Reasons quoted inside other sentences: no full stop of their own, and made a
                // sentence where the refusal leaves the chat layer.
                if template.trim_end().ends_with('.') {
                    bad.push(format!("{key} ends with a full stop: {template}"));
                }
                let sentence = skymines::chat::as_sentence(template);
                if !is_sentence(&sentence) {
                    bad.push(format!("{key} as a refusal: {sentence}"));
                }
            }
        }
        assert!(bad.is_empty(), "{code}: {bad:#?}");
    }
    assert_eq!(
        skymines::chat::as_sentence("it is not your turn (waiting for bob)"),
        "It is not your turn (waiting for bob)."
    );
    assert_eq!(
        skymines::chat::as_sentence("Schon fertig."),
        "Schon fertig."
    );
}

/// Issue 19: every German template, read word by word, shows no English word a player would
/// read (ephemeral, Belt, sector, mission …): a word of the English catalog is refused in a
/// German template's prose unless German spells it the same (the German rulebook's own terms
/// and everyday German, `text_support::GERMAN_TOO`).
#[test]
fn no_german_template_shows_an_english_word() {
    let english = text_support::english_words();
    // The check has teeth: the English words of the issue are caught in prose, not typed.
    for (prose, word) in [
        (
            "Deine Einstellungen: private Nachrichten per ephemeral.",
            "ephemeral",
        ),
        ("Wähle ein Belt-Feld.", "belt"),
        ("Nimm einen sector ein.", "sector"),
        ("Mission erfüllen: {task}", "mission"),
    ] {
        assert_eq!(
            text_support::english_word_in(prose, &english).as_deref(),
            Some(word),
            "{prose}"
        );
    }
    assert_eq!(
        text_support::english_word_in("Ändern mit /skymines settings notify:ephemeral.", &english),
        None
    );
    let de = Texts::built_in("de").expect("de");
    let found: Vec<String> = de
        .keys()
        .filter_map(|key| {
            let template = de.template(key)?;
            let word = text_support::english_word_in(template, &english)?;
            Some(format!("{key}: {word:?} in {template:?}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "English in German templates:\n{}",
        found.join("\n")
    );
}

/// A plural written as "card(s)", "Karte(n)" or "Zug/Züge" reads as a form, not a sentence: a
/// word after a number names both its forms with the catalog's plural choice
/// (`{n} {n|card|cards}`), in every language.
fn bracketed_plural(template: &str) -> Option<String> {
    const ENDINGS: [&str; 6] = ["(s)", "(n)", "(e)", "(en)", "(er)", "(es)"];
    let words = template.split(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | '|'));
    words
        .filter(|w| {
            let bracketed = ENDINGS.iter().any(|e| {
                w.strip_suffix(e)
                    .or_else(|| w.trim_end_matches([',', '.', ';', ':']).strip_suffix(e))
                    .is_some_and(|stem| stem.chars().last().is_some_and(char::is_alphabetic))
            });
            // "Zug/Züge", "Forschungsplan/-plänen": two forms joined by a slash.
            // Not "AND/OR" or "Europe/Berlin": the second form repeats the first's start or is
            // an ending.
            let slashed = w.split_once('/').is_some_and(|(a, b)| {
                let ending = b.starts_with('-');
                let same_start = a.chars().next().is_some_and(char::is_alphabetic)
                    && a.chars().next() == b.chars().next();
                a.chars().last().is_some_and(char::is_alphabetic) && (ending || same_start)
            });
            bracketed || slashed
        })
        .map(str::to_string)
        .next()
}

#[test]
fn no_template_writes_a_plural_in_brackets() {
    for (template, word) in [
        ("{hand} card(s) in hand", Some("card(s)")),
        ("{n} Karte(n) auf der Hand", Some("Karte(n)")),
        ("seit {idle} Tag(en).", Some("Tag(en).")),
        ("ihre {moves} Zug/Züge", Some("Zug/Züge")),
        (
            "nach {n} Forschungsplan/-plänen",
            Some("Forschungsplan/-plänen"),
        ),
        ("{n} {n|card|cards} in hand (first player)", None),
        ("`Europe/Berlin` oder /skymines join", None),
        ("CrypCoin AND/OR tank +1", None),
    ] {
        assert_eq!(bracketed_plural(template).as_deref(), word, "{template}");
    }
    let mut found = Vec::new();
    for code in skymines::text::language_codes() {
        let texts = Texts::built_in(code).expect("built-in catalog");
        for key in texts.keys() {
            let template = texts.template(key).unwrap_or_default();
            if let Some(word) = bracketed_plural(template) {
                found.push(format!("{code} {key}: {word:?} in {template:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "plurals in brackets:\n{}",
        found.join("\n")
    );
}
