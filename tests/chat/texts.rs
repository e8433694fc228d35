//! The text layer's rules: echoed input is short and harmless, names are cleaned and cut, a
//! name reference resolves in the reader's language, numbers pick singular or plural (moved
//! here from the crate's unit tests).

use skymines::text::{
    clean, fill, has_name_ref, name_ref, quote, sanitize_name, Texts, NAME_LIMIT, QUOTE_LIMIT,
    REF_OPEN,
};
use std::borrow::Cow;

#[test]
fn echoes_are_short_and_clean() {
    assert_eq!(clean("plain\ntext"), "plain\ntext");
    assert!(matches!(clean("plain"), Cow::Borrowed(_)));
    assert_eq!(
        clean("sta\u{1b}[2J\u{1b}]0;pwned\u{7}tus\u{0}"),
        "sta\\u{1b}[2J\\u{1b}]0;pwned\\u{7}tus\\u{0}"
    );
    assert_eq!(
        clean("a\u{202e}b\u{200b}c\u{9b}"),
        "a\\u{202e}b\\u{200b}c\\u{9b}"
    );
    let long = "x".repeat(100_000);
    let quoted = quote(&long);
    assert_eq!(quoted, format!("{}…", "x".repeat(QUOTE_LIMIT)));
    assert_eq!(quote("Europe/Berlin"), "Europe/Berlin");
    assert_eq!(quote("a`b\nc"), "a'b c");
    let texts = catalog(
        "en",
        r#""error.bad_timezone" = "Timezone: `{value}` is not a time zone."
"error.unknown_command" = "Unknown command `{name}`.""#,
    );
    let refusal = texts.f("error.bad_timezone", &[("value", &long)]);
    let expected = format!(
        "Timezone: `{}…` is not a time zone.",
        "x".repeat(QUOTE_LIMIT)
    );
    assert_eq!(refusal, expected);
    let refusal = texts.f("error.unknown_command", &[("name", &"sta\u{1b}[2Jtus")]);
    assert_eq!(refusal, "Unknown command `sta\\u{1b}[2Jtus`.");
}

#[test]
fn names_are_cut_and_cleaned() {
    assert_eq!(sanitize_name("  alice  "), "alice");
    assert_eq!(sanitize_name("@everyone"), "everyone");
    assert_eq!(sanitize_name("# big\n**bold**"), "big bold");
    assert_eq!(sanitize_name("a\u{202E}b\u{200B}c"), "abc");
    assert_eq!(sanitize_name("\u{200B}"), "Player");
    // Links lose what makes them links (issue 20 point 4).
    assert_eq!(
        sanitize_name("[link](https://evil.example)"),
        "link(https evil example)"
    );
    assert_eq!(sanitize_name("discord.gg/abc"), "discord gg/abc");
    assert_eq!(sanitize_name("Dr. Who"), "Dr. Who");
    let long = sanitize_name(&"x".repeat(100));
    assert_eq!(long.chars().count(), NAME_LIMIT);
    assert!(long.ends_with('…'));
}

fn catalog(code: &str, text: &str) -> Texts {
    Texts::parse(code, text).expect("test catalog")
}

#[test]
fn name_references_resolve_in_the_readers_language() {
    let de = catalog(
        "de",
        r#"
"card.label" = "{what}{share} [{id}]"
"card.carbon" = "{n} Kohlenstoff"
"card.share" = " +Anteil {company}"
"event.reveals" = "{name} deckt auf: {cards}"
"#,
    );
    let what = name_ref("card.carbon", &[("n", &2)], "2 carbon");
    let share = name_ref("card.share", &[("company", &"minerva")], " +minerva share");
    let card = name_ref(
        "card.label",
        &[("what", &what), ("share", &share), ("id", &"A01")],
        "2 carbon +minerva share [A01]",
    );
    assert_eq!(de.resolve(&card), "2 Kohlenstoff +Anteil minerva [A01]");
    let args = vec![
        ("name".to_string(), "alice".to_string()),
        ("cards".to_string(), format!("{card}, {card}")),
    ];
    assert_eq!(
        de.render("event.reveals", &args),
        "alice deckt auf: 2 Kohlenstoff +Anteil minerva [A01], 2 Kohlenstoff +Anteil minerva [A01]"
    );
    // A catalog without the key falls back to the English catalog, then to the carried English.
    let empty = catalog("xx", "");
    assert_eq!(
        empty.resolve(&name_ref("no.such.key", &[("n", &1)], "a | b")),
        "a | b"
    );
    let plain_text = "nothing to resolve | here";
    assert_eq!(de.resolve(plain_text), plain_text);
    assert!(!has_name_ref(&de.resolve(&card)));
    assert!(has_name_ref(&card));
}

#[test]
fn a_number_chooses_the_singular_or_the_plural() {
    let en = catalog(
        "en",
        r#""x" = "{name} moves {n} {n|space|spaces} ({n} {n|step|steps})""#,
    );
    assert_eq!(
        en.f("x", &[("name", &"ann"), ("n", &1)]),
        "ann moves 1 space (1 step)"
    );
    assert_eq!(
        en.f("x", &[("name", &"ann"), ("n", &2)]),
        "ann moves 2 spaces (2 steps)"
    );
    assert_eq!(en.f("x", &[("n", &0)]), "{name} moves 0 spaces (0 steps)");
    // An argument that is no number takes the plural; an unclosed choice stays visible.
    assert_eq!(fill("{n|one|many}", "n", "some"), "many");
    assert_eq!(fill("a {n|one", "n", "1"), "a {n|one");
    // Events carry their arguments as strings.
    let args = vec![("n".to_string(), "1".to_string())];
    assert_eq!(en.render("x", &args), "{name} moves 1 space (1 step)");
}

#[test]
fn a_broken_reference_never_shows_its_brackets() {
    let en = catalog("en", r#""x" = "{v}""#);
    let broken = format!("before {REF_OPEN}x|v=1 after");
    let out = en.resolve(&broken);
    assert!(out.starts_with("before "), "{out}");
    assert!(!out.contains(REF_OPEN));
}
