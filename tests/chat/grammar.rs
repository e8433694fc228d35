//! Texts true to the state and to the language (issue 34, item 4): every catalog template,
//! filled with sample values, reads with the right articles, possessives and plurals in English
//! and German; and the public lines of seeded games of every kind name components by their
//! printed face or name, never by an internal id.

use crate::support::data;
use skymines::chat::account;
use skymines::engine::Event;
use skymines::text::{self, Texts};

/// Every argument name a template uses (`{name}`, `{n|one|many}`).
fn arguments(template: &str) -> Vec<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            let next = rest[name.len()..].chars().next();
            (!name.is_empty() && matches!(next, Some('}' | '|'))).then_some(name)
        })
        .collect()
}

/// The words of `text`, without the punctuation around them.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `text` puts `n` before `word` within one clause, right before it or with one
/// lowercase word between ("1 coin icons"); a noun used as the first part of a compound ("2
/// outpost spaces") is no disagreement.
fn number_before(text: &str, n: &str, word: &str) -> Option<String> {
    let nouns: Vec<&str> = EN_NOUNS
        .iter()
        .chain(DE_NOUNS)
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    // Prepositions and articles between a number and a noun start another phrase.
    const NOT_BETWEEN: &[&str] = &[
        "auf", "in", "an", "am", "im", "von", "der", "die", "das", "den", "dem", "und", "on", "to",
        "of", "at", "from", "the", "and", "for",
    ];
    text.split([',', ';', ':', '(', ')', '\n', '.', '—', '[', ']', '→', '+'])
        .find_map(|clause| {
            let w = words(clause);
            (0..w.len()).find_map(|i| {
                if w[i] != n {
                    return None;
                }
                let next = w.get(i + 1)?;
                let direct =
                    next == word && !w.get(i + 2).is_some_and(|x| nouns.contains(&x.as_str()));
                let between = next.chars().all(|c| c.is_lowercase())
                    && !NOT_BETWEEN.contains(&next.as_str())
                    && w.get(i + 2).is_some_and(|x| x == word)
                    && !w.get(i + 3).is_some_and(|x| nouns.contains(&x.as_str()));
                (direct || between).then(|| w[i..(i + 3).min(w.len())].join(" "))
            })
        })
}

/// The arguments that carry a count (the number a noun after them must agree with).
const COUNTS: &[&str] = &[
    "n",
    "count",
    "steps",
    "units",
    "energy",
    "cost",
    "coins",
    "amount",
    "spaces",
    "points",
    "moved",
    "moves",
    "players",
    "margin",
    "scientists",
    "ready",
    "idle",
    "left",
    "total",
    "discount",
    "gas",
    "extra",
    "discarded",
    "added",
    "days",
    "games",
    "bots",
    "markers",
    "joined",
    "need",
    "hand",
    "open",
    "pages",
    "levels",
    "tiers",
    "rounds",
    "chapters",
    "seats",
    "rests",
    "paid",
    "scored",
    "supplement",
    "tank",
    "step",
    "used",
    "planned",
    "held",
    "gains",
];

/// Each template of `texts` with its count arguments set to `count` and every other argument
/// to `other` (a name: "Zed", or a company's name).
fn filled(texts: &Texts, count: &str, other: &str) -> Vec<(String, String)> {
    texts
        .keys()
        .map(|key| {
            let template = texts.template(key).unwrap_or_default().to_string();
            let args: Vec<(String, String)> = arguments(&template)
                .into_iter()
                .map(|a| {
                    let v = if COUNTS.contains(&a.as_str()) {
                        count
                    } else {
                        other
                    };
                    (a, v.to_string())
                })
                .collect();
            (key.to_string(), texts.render(key, &args))
        })
        .collect()
}

/// Each template of `texts` with its `company` arguments set to `company` (the others to a
/// name, counts to 3).
fn filled_company(texts: &Texts, company: &str) -> Vec<(String, String)> {
    texts
        .keys()
        .filter_map(|key| {
            let template = texts.template(key).unwrap_or_default().to_string();
            let names = arguments(&template);
            names.iter().any(|a| a == "company").then(|| {
                let args: Vec<(String, String)> = names
                    .into_iter()
                    .map(|a| {
                        let v = if a == "company" {
                            company
                        } else if COUNTS.contains(&a.as_str()) {
                            "3"
                        } else {
                            "Zed"
                        };
                        (a, v.to_string())
                    })
                    .collect();
                (key.to_string(), texts.render(key, &args))
            })
        })
        .collect()
}

/// English words that name countable things, singular and plural.
const EN_NOUNS: &[(&str, &str)] = &[
    ("card", "cards"),
    ("space", "spaces"),
    ("step", "steps"),
    ("point", "points"),
    ("unit", "units"),
    ("screen", "screens"),
    ("icon", "icons"),
    ("player", "players"),
    ("game", "games"),
    ("marker", "markers"),
    ("outpost", "outposts"),
    ("sector", "sectors"),
    ("plan", "plans"),
    ("collector", "collectors"),
    ("share", "shares"),
    ("round", "rounds"),
    ("tile", "tiles"),
    ("seat", "seats"),
    ("move", "moves"),
];

const DE_NOUNS: &[(&str, &str)] = &[
    ("Karte", "Karten"),
    ("Feld", "Felder"),
    ("Einheit", "Einheiten"),
    ("Screen", "Screens"),
    ("Münzsymbol", "Münzsymbole"),
    ("Person", "Personen"),
    ("Partie", "Partien"),
    ("Bonusmarker", "Bonusmarker"),
    ("Außenposten", "Außenposten"),
    ("Sektor", "Sektoren"),
    ("Plan", "Pläne"),
    ("Energiepunkt", "Energiepunkte"),
    ("Forschungspunkt", "Forschungspunkte"),
    ("Anteil", "Anteile"),
];

/// Plural and article mistakes in English `text` (the empty list when it reads right).
fn english_mistakes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (one, many) in EN_NOUNS {
        // "1 cards", "1 coin icons" — and "2 card".
        for (n, word) in [("1", many), ("2", one)] {
            if let Some(m) = number_before(text, n, word) {
                out.push(format!("number and noun disagree: {m:?}"));
            }
        }
    }
    let w = words(text);
    for pair in w.windows(2) {
        let vowel = pair[1].starts_with(['A', 'E', 'I', 'O', 'a', 'e', 'i', 'o']);
        // (A "one-time" marker starts with the sound of w.)
        if (pair[0] == "a" || pair[0] == "A") && vowel && !pair[1].starts_with("one") {
            out.push(format!("\"a\" before a vowel: \"{} {}\"", pair[0], pair[1]));
        }
    }
    if text.contains("s's ") || text.contains("s.'s ") {
        out.push("a possessive \"s's\"".to_string());
    }
    if text.contains("(s)") {
        out.push("a plural in brackets".to_string());
    }
    out
}

fn german_mistakes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (one, many) in DE_NOUNS {
        if one == many {
            continue;
        }
        for (n, word) in [("1", many), ("2", one)] {
            if let Some(m) = number_before(text, n, word) {
                out.push(format!("Zahl und Nomen passen nicht: {m:?}"));
            }
        }
    }
    if text.contains("(n)") || text.contains("(e)") {
        out.push("ein Plural in Klammern".to_string());
    }
    out
}

#[test]
fn every_template_reads_right_with_one_and_with_two() {
    let mut problems = Vec::new();
    for (texts, mistakes) in [
        (text::english(), english_mistakes as fn(&str) -> Vec<String>),
        (text::german(), german_mistakes),
    ] {
        for value in ["1", "2"] {
            for (key, line) in filled(texts, value, "Zed") {
                for m in mistakes(&line) {
                    problems.push(format!("{} {key} ({value}): {m} in {line:?}", texts.code));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn company_names_take_the_right_article_and_possessive() {
    let mut problems = Vec::new();
    for company in ["Astrogo Enterprises", "Skymine Resources", "Minerva Corp."] {
        for (key, line) in filled_company(text::english(), company) {
            for m in english_mistakes(&line) {
                problems.push(format!("{key}: {m} in {line:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Internal ids that no player reads: card ids (A05, SE01, diamond-carbon1), research plan ids,
/// starting token ids (T03), track bonus space ids (B-SELL-1), special plan ids (SP2).
fn internal_ids(text: &str) -> Vec<String> {
    let is_id = |w: &str| {
        let c: Vec<char> = w.chars().collect();
        let digits = |from: usize| c.len() > from && c[from..].iter().all(char::is_ascii_digit);
        (c.len() == 3 && ('A'..='E').contains(&c[0]) && digits(1))
            || (c.len() == 3 && c[0] == 'T' && digits(1))
            || (w.starts_with("SE0") && digits(3))
            || (w.starts_with("SP") && c.len() == 3 && digits(2))
            || (w.split('-').count() == 3
                && w.split('-')
                    .next()
                    .is_some_and(|p| p.len() == 1 && p.chars().all(|x| x.is_ascii_uppercase()))
                && w.split('-')
                    .nth(1)
                    .is_some_and(|p| p.len() > 1 && p.chars().all(|x| x.is_ascii_uppercase())))
            || ["diamond-", "star-", "triangle-", "circle-"]
                .iter()
                .any(|p| w.starts_with(p))
    };
    words(text).into_iter().filter(|w| is_id(w)).collect()
}

/// The public lines of the account check's first `games` games, in English and German.
fn public_lines(games: u64) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for seed in 0..games {
        account::check_game(data(), seed, &mut |events: &[Event]| {
            for e in events {
                for texts in [text::english(), text::german()] {
                    out.push((texts.code.clone(), e.render(texts)));
                }
            }
        });
    }
    out
}

#[test]
fn the_public_lines_of_seeded_games_read_right_and_name_no_internal_id() {
    let mut problems = Vec::new();
    for (code, line) in public_lines(40) {
        let mut found = internal_ids(&line);
        if text::has_name_ref(&line) {
            found.push("an unresolved name reference".to_string());
        }
        found.extend(if code == "en" {
            english_mistakes(&line)
        } else {
            german_mistakes(&line)
        });
        for f in found {
            problems.push(format!("{code}: {f} in {line:?}"));
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{} problems, e.g.\n{}",
        problems.len(),
        problems
            .iter()
            .take(400)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_id_check_finds_ids() {
    // The check itself: it must see the ids the issue quoted.
    assert_eq!(
        internal_ids("Bonus space: B-SELL-1 (Discard 1 card)"),
        ["B-SELL-1"]
    );
    assert_eq!(
        internal_ids("Valid values: diamond-carbon2, A05, A09"),
        ["diamond-carbon2", "A05", "A09"]
    );
    assert!(internal_ids("Share value of Minerva Corp.: 2 → 1 CrypCoin").is_empty());
    assert!(!english_mistakes("Remove a Astrogo Enterprises outpost").is_empty());
    assert!(!english_mistakes("Skymine Resources's station").is_empty());
    assert!(!english_mistakes("most valuable company: 1 coin icons").is_empty());
    assert!(english_mistakes("Luna advances 2 spaces (1 coin icon)").is_empty());
}
