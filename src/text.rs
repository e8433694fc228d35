//! Every user-facing sentence lives in a message catalog per language
//! (`assets/lang/<code>.toml`): the chat layer's replies and the engine's event texts alike, so a
//! translation is a file, not a refactor. Templates name their arguments in braces:
//! `"{name} joined ({count}/{total})"`; a word that follows a number names both its forms after
//! the argument, singular first: `"{n} {n|card|cards}"` (see [`fill`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{Display, Write};

/// One language's message catalog.
#[derive(Debug, Clone)]
pub struct Texts {
    pub code: String,
    messages: BTreeMap<String, String>,
}

/// The catalogs built into the binary: (language code, file).
const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("../assets/lang/en.toml")),
    ("de", include_str!("../assets/lang/de.toml")),
];

/// The language codes with a built-in catalog, English first (the fallback).
pub fn language_codes() -> impl Iterator<Item = &'static str> {
    BUILT_IN.iter().map(|(code, _)| *code)
}

impl Texts {
    pub fn english() -> Texts {
        Texts::built_in("en").unwrap_or_else(|| Texts {
            code: "en".to_string(),
            messages: BTreeMap::new(),
        })
    }

    /// The built-in catalog for `code` (`en`, `de`), if there is one.
    pub fn built_in(code: &str) -> Option<Texts> {
        let (code, file) = BUILT_IN.iter().find(|(c, _)| *c == code)?;
        Texts::parse(code, file).ok()
    }

    /// Parses a catalog (flat `key = "template"` pairs).
    pub fn parse(code: &str, text: &str) -> Result<Texts, String> {
        let messages: BTreeMap<String, String> =
            toml::from_str(text).map_err(|e| format!("lang/{code}.toml: {e}"))?;
        Ok(Texts {
            code: code.to_string(),
            messages,
        })
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.messages.keys().map(String::as_str)
    }

    pub fn has(&self, key: &str) -> bool {
        self.messages.contains_key(key)
    }

    /// The raw template of `key`, arguments unfilled.
    pub fn template(&self, key: &str) -> Option<&str> {
        self.messages.get(key).map(String::as_str)
    }

    /// The template for `key` with its arguments filled in, and every name reference in the
    /// result (see [`name_ref`]) written in this language. A missing key shows itself, so a
    /// gap is visible (and the catalog test fails).
    pub fn f(&self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        let mut out = self
            .messages
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("[{key}]"));
        for (name, value) in args {
            let value = value.to_string();
            // A user's own words stand in backticks in a template: quoted short and clean.
            let quoted = format!("`{{{name}}}`");
            if out.contains(&quoted) {
                out = out.replace(&quoted, &format!("`{}`", quote(&value)));
            }
            out = fill(&out, name, &clean(&value));
        }
        self.resolve(&out)
    }

    /// `text` with every name reference (see [`name_ref`]) written in this language: the
    /// reference's catalog template with its arguments (themselves resolved), else the English
    /// catalog's, else the English the reference carries (a name from a corrected data folder
    /// that no catalog knows). Text without references comes back unchanged.
    pub fn resolve(&self, text: &str) -> String {
        self.resolve_at(text, 0)
    }

    fn resolve_at(&self, text: &str, depth: usize) -> String {
        if !text.contains(REF_OPEN) {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(REF_OPEN) {
            out.push_str(&rest[..start]);
            let inner_start = start + REF_OPEN.len_utf8();
            let Some(len) = ref_len(&rest[inner_start..]) else {
                // An unclosed reference: keep the text readable rather than lose it.
                out.push_str(&rest[inner_start..]);
                return out;
            };
            let inner = &rest[inner_start..inner_start + len];
            out.push_str(&self.resolve_ref(inner, depth));
            rest = &rest[inner_start + len + REF_CLOSE.len_utf8()..];
        }
        out.push_str(rest);
        out
    }

    /// One reference's inside (`key|name=value|…|=fallback`) in this language.
    fn resolve_ref(&self, inner: &str, depth: usize) -> String {
        let mut fields = split_fields(inner).into_iter();
        let key = fields.next().unwrap_or_default();
        let mut args: Vec<(&str, String)> = Vec::new();
        let mut fallback: Option<String> = None;
        for field in fields {
            match field.split_once('=') {
                Some(("", value)) => fallback = Some(value.to_string()),
                Some((name, value)) if is_arg_name(name) => args.push((name, value.to_string())),
                // A value that held the separator itself: it continues the previous one.
                _ => match (&mut fallback, args.last_mut()) {
                    (Some(f), _) => f.push_str(&format!("{REF_SEP}{field}")),
                    (None, Some((_, v))) => v.push_str(&format!("{REF_SEP}{field}")),
                    (None, None) => {}
                },
            }
        }
        let template = self
            .template(key)
            .or_else(|| english().template(key))
            .map(str::to_string);
        let filled = match (template, fallback) {
            (Some(mut t), _) => {
                for (name, value) in &args {
                    t = fill(&t, name, value);
                }
                t
            }
            (None, Some(f)) => f,
            (None, None) => format!("[{key}]"),
        };
        if depth >= REF_MAX_DEPTH {
            return filled;
        }
        self.resolve_at(&filled, depth + 1)
    }

    /// A template without arguments.
    pub fn t(&self, key: &str) -> String {
        self.f(key, &[])
    }

    /// A template with owned arguments (as events carry them).
    pub fn render(&self, key: &str, args: &[(String, String)]) -> String {
        let refs: Vec<(&str, &dyn Display)> = args
            .iter()
            .map(|(k, v)| (k.as_str(), v as &dyn Display))
            .collect();
        self.f(key, &refs)
    }
}

/// `template` with the argument `name` filled in: `{name}` becomes `value`, and a plural choice
/// `{name|one|other}` becomes `one` when `value` is 1 and `other` otherwise (English and German
/// both use the singular for exactly one: "1 card", "0 cards", "2 Karten").
pub fn fill(template: &str, name: &str, value: &str) -> String {
    let plain = format!("{{{name}}}");
    let choice = format!("{{{name}|");
    let mut out = String::with_capacity(template.len() + value.len());
    let mut rest = template;
    loop {
        let next_plain = rest.find(&plain);
        let next_choice = rest.find(&choice);
        match (next_plain, next_choice) {
            (Some(p), c) if c.is_none_or(|c| p < c) => {
                out.push_str(&rest[..p]);
                out.push_str(value);
                rest = &rest[p + plain.len()..];
            }
            (_, Some(c)) => {
                out.push_str(&rest[..c]);
                let inner_start = c + choice.len();
                let Some(len) = rest[inner_start..].find('}') else {
                    // An unclosed choice: keep the text as written rather than lose it.
                    out.push_str(&rest[c..]);
                    return out;
                };
                let forms = &rest[inner_start..inner_start + len];
                let (one, other) = forms.split_once('|').unwrap_or((forms, forms));
                out.push_str(if value.trim() == "1" { one } else { other });
                rest = &rest[inner_start + len + 1..];
            }
            _ => break,
        }
    }
    out.push_str(rest);
    out
}

/// The English catalog, parsed once (an event's English text, `Event::text`, and the fallback
/// when another catalog lacks a key; the chat layer renders events from their key in the
/// reader's language).
pub fn english() -> &'static Texts {
    static EN_TEXTS: std::sync::OnceLock<Texts> = std::sync::OnceLock::new();
    EN_TEXTS.get_or_init(Texts::english)
}

/// The German catalog, parsed once (English if it failed to parse; the catalog test guards it).
pub fn german() -> &'static Texts {
    static DE_TEXTS: std::sync::OnceLock<Texts> = std::sync::OnceLock::new();
    DE_TEXTS.get_or_init(|| Texts::built_in("de").unwrap_or_else(Texts::english))
}

/// The catalog for a language code; an unknown code falls back to English.
pub fn for_language(code: &str) -> &'static Texts {
    match code {
        "de" => german(),
        _ => english(),
    }
}

/// A text built only when it is shown: an event argument whose label costs a lookup and a
/// format, which a quiet replay never reads (`Ctx::say` drops its arguments unread there).
pub struct Deferred<F>(pub F);

impl<F: Fn() -> String> Display for Deferred<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&(self.0)())
    }
}

pub const REF_OPEN: char = '⟦';
const REF_CLOSE: char = '⟧';
const REF_SEP: char = '|';
/// References nest (a card names its company); deeper than this is a bug, not a name.
const REF_MAX_DEPTH: usize = 8;

/// A name that reaches text in the reader's language: a reference to the catalog template
/// The catalog groups that name game components: the keys [`name_ref`] points at, whose English
/// words must never reach a reader of another language.
pub const NAME_GROUPS: [&str; 11] = [
    "card.",
    "bonus_space.",
    "resource.",
    "tile.",
    "threat.",
    "chapter.",
    "mission.",
    "rating.",
    "requirement.",
    "reward.",
    "track_bonus.",
];

/// `key` (e.g. `card.carbon` = "{n} carbon" / "{n} Kohlenstoff") with its arguments, carrying
/// `english` for a catalog that lacks the key (a corrected data folder may add ids no catalog
/// knows). The engine stores events with string arguments, so a name is a marker inside such a
/// string (`⟦card.carbon|n=2|=2 carbon⟧`) that [`Texts::f`], [`Texts::render`] and
/// [`Texts::resolve`] write out in their language; arguments may be references themselves.
/// The one mechanism for translated names: data keeps its English names, catalogs translate.
pub fn name_ref(key: &str, args: &[(&str, &dyn Display)], english: &str) -> String {
    let mut out = String::new();
    out.push(REF_OPEN);
    out.push_str(key);
    for (name, value) in args {
        out.push(REF_SEP);
        out.push_str(name);
        out.push('=');
        // Written in place: names are built for every event and many refusals.
        let _ = write!(out, "{value}");
    }
    out.push(REF_SEP);
    out.push('=');
    out.push_str(english);
    out.push(REF_CLOSE);
    out
}

/// An argument whose text is worked out only when it is written: for a sentence that may never
/// be (a refusal built only to test whether a decision is legal keeps no arguments).
pub struct Lazy<F>(pub F);

impl<F: Fn() -> String> Display for Lazy<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&(self.0)())
    }
}

/// Whether `text` still holds an unresolved name reference (tests: nothing a user reads may).
pub fn has_name_ref(text: &str) -> bool {
    text.contains(REF_OPEN) || text.contains(REF_CLOSE)
}

/// `text` with its name references in English (logs, errors and other text outside any
/// reader's language).
pub fn plain(text: &str) -> String {
    english().resolve(text)
}

/// The length of a reference's inside: up to its matching close (references nest).
fn ref_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            REF_OPEN => depth += 1,
            REF_CLOSE if depth == 0 => return Some(i),
            REF_CLOSE => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A reference's fields, split at separators outside nested references.
fn split_fields(inner: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let mut depth = 0usize;
    let mut from = 0;
    for (i, c) in inner.char_indices() {
        match c {
            REF_OPEN => depth += 1,
            REF_CLOSE => depth = depth.saturating_sub(1),
            REF_SEP if depth == 0 => {
                fields.push(&inner[from..i]);
                from = i + REF_SEP.len_utf8();
            }
            _ => {}
        }
    }
    fields.push(&inner[from..]);
    fields
}

fn is_arg_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The most characters of a user's own value that a reply quotes back (see [`quote`]).
pub const QUOTE_LIMIT: usize = 40;

/// `text` with every character that could rewrite a terminal or hide and reorder text written
/// out as a visible escape (`\u{1b}`): C0 controls but the line break, DEL, C1 controls, and
/// the zero-width, joiner and direction characters of [`is_invisible`]. The one cleaner for
/// what reaches a reader or a log line: [`Texts::f`] applies it to every argument it fills in,
/// the local mode to every line it prints, the Discord adapter to every log line that carries
/// a user's words. Text without such characters comes back borrowed.
pub fn clean(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && c != '\n') || is_invisible(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A user's own value as a refusal quotes it: cleaned (see [`clean`]), on one line, without
/// backticks, and cut to its first [`QUOTE_LIMIT`] characters with "…", so a 100 KB value
/// echoes as a short prefix. [`Texts::f`] applies it to every argument a template writes in
/// backticks (`` `{value}` ``), the catalogs' mark for a user's own words.
pub fn quote(value: &str) -> String {
    // A backtick would end the code span the value is quoted in.
    let one_line = value.replace(['\n', '\r'], " ").replace('`', "'");
    // Cut before escaping, so an escape is never cut in half.
    let cut: String = one_line.chars().take(QUOTE_LIMIT).collect();
    let cleaned = clean(&cut).into_owned();
    if cut.len() < one_line.len() {
        format!("{cleaned}…")
    } else {
        cleaned
    }
}

/// The longest display name shown, in characters (a longer one is cut with an ellipsis).
pub const NAME_LIMIT: usize = 24;

/// A player's display name as drawn into messages and images: no control, invisible or
/// direction-changing characters, no characters that ping or format on Discord (`@`, `` ` ``,
/// `*`, `_`, `~`, `|`, `<`, `>`, `[`, `]`, `\`), no leading `#`, `-` or `>` that would turn a
/// line into a heading or a list, no links (see [`defang_links`]), runs of spaces folded, at
/// most [`NAME_LIMIT`] characters (cut with "…"). The one sanitiser for names: the chat layer
/// applies it to every request, the renderer to every name it draws.
pub fn sanitize_name(name: &str) -> String {
    let kept: String = defang_links(name)
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| {
            !c.is_control()
                && !is_invisible(*c)
                && !matches!(
                    c,
                    '@' | '`' | '*' | '_' | '~' | '|' | '<' | '>' | '[' | ']' | '\\'
                )
        })
        .collect();
    let folded = kept
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>();
    let joined = folded.join(" ");
    let trimmed = joined.trim_start_matches(['#', '-', ' ']).trim();
    if trimmed.is_empty() {
        return "Player".to_string();
    }
    if trimmed.chars().count() <= NAME_LIMIT {
        return trimmed.to_string();
    }
    let cut: String = trimmed.chars().take(NAME_LIMIT - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Text Discord would not turn into a link: every `://` and every dot between two letters or
/// digits (a domain: `evil.example`, `discord.gg`) become a space.
fn defang_links(text: &str) -> String {
    let chars: Vec<char> = text.replace("://", " ").chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let between = i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
            if c == '.' && between {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Zero-width, joiner, direction and other format characters (Unicode Cf) that hide text or
/// reorder it.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0xE0000..=0xE007F)
}
