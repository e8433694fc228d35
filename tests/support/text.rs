//! Helpers for the tests that read the text catalogs.
#![allow(dead_code)]

/// A template without its `{argument}`s: the words a reader sees whatever the arguments (a
/// plural choice `{n|card|cards}` keeps both its words).
pub fn literal(template: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut forms = false;
    for c in template.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if forms {
                    out.push(' ');
                    forms = false;
                }
            }
            '|' if depth == 1 => {
                forms = true;
                out.push(' ');
            }
            c if depth == 0 || forms => out.push(c),
            _ => {}
        }
    }
    out
}

/// The words of `template` a reader sees as prose: no arguments, nothing in backticks and
/// nothing typed (a command after `/` with its lowercase words, `option:value`, paths and ids
/// with `/` or `_`), lowercased.
pub fn prose_words(template: &str) -> Vec<String> {
    let literal = literal(template);
    let mut plain = String::new();
    let mut code = false;
    for c in literal.chars() {
        if c == '`' {
            code = !code;
            plain.push(' ');
        } else if !code {
            plain.push(c);
        }
    }
    let mut words = Vec::new();
    let mut command = false;
    for token in plain.split_whitespace() {
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '_');
        if token.trim_start_matches(['(', '„', '"']).starts_with('/') {
            command = true;
            continue;
        }
        let typed = bare.contains('/')
            || bare.contains('_')
            || token
                .trim_end_matches(['.', ',', ';', ':', ')', '!', '?'])
                .contains(':');
        if typed || (command && bare.chars().all(|c| c.is_ascii_lowercase())) {
            continue;
        }
        command = false;
        words.extend(
            token
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase),
        );
    }
    words
}

/// Words German spells as English does, which German players read as German: the German
/// rulebook's own terms (Shuttle, Asteroid, Slot, Screen, Tank, Station, Marker, Bonus, Plan …),
/// Discord's German words (Server, Threads, Log) and everyday German (Bot, Export, Phase, Form,
/// Minute, also, per, was, links, Rest, Hand, Bots, Computer, Person, normal …).
pub const GERMAN_TOO: [&str; 47] = [
    "admin", "also", "asteroid", "bonus", "bot", "bots", "computer", "crypcoin", "discord",
    "einstein", "export", "form", "hand", "helium", "links", "log", "luna", "marker", "mars",
    "max", "minute", "normal", "option", "per", "person", "phase", "plan", "plans", "private",
    "rest", "rosen", "screen", "screens", "server", "servers", "shuttle", "shuttles", "skymines",
    "slot", "slots", "solo", "start", "station", "tank", "threads", "utc", "was",
];

/// The English catalog's words (3+ letters, lowercased) that German does not share (company
/// names are names in every language).
pub fn english_words() -> std::collections::BTreeSet<String> {
    let data = skymines::data::GameData::embedded().expect("data");
    let company_words: Vec<String> = skymines::data::Company::ALL
        .iter()
        .flat_map(|c| {
            data.company_name(*c)
                .split(|ch: char| !ch.is_alphabetic())
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let en = skymines::text::for_language("en");
    en.keys()
        .filter_map(|k| en.template(k))
        .flat_map(|t| {
            literal(t)
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| w.len() >= 3)
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .filter(|w| !GERMAN_TOO.contains(&w.as_str()))
        .filter(|w| !company_words.iter().any(|c| c == w))
        .collect()
}

/// The first English word (of `english`) in the prose of `text`.
pub fn english_word_in(text: &str, english: &std::collections::BTreeSet<String>) -> Option<String> {
    prose_words(text).into_iter().find(|w| english.contains(w))
}
