//! Every user-facing sentence lives in a message catalog per language
//! (`assets/lang/<code>.toml`): the chat layer's replies and the engine's event texts alike, so a
//! translation is a file, not a refactor. Templates name their arguments in braces:
//! `"{name} joined ({count}/{total})"`.

use std::collections::BTreeMap;
use std::fmt::Display;

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

    /// The template for `key` with its arguments filled in. A missing key shows itself, so a
    /// gap is visible (and the catalog test fails).
    pub fn f(&self, key: &str, args: &[(&str, &dyn Display)]) -> String {
        let mut out = self
            .messages
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("[{key}]"));
        for (name, value) in args {
            out = out.replace(&format!("{{{name}}}"), &value.to_string());
        }
        out
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

/// The English catalog, parsed once (events are rendered in English as they happen; the chat
/// layer re-renders them from their key in the reader's language).
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

/// The longest display name shown, in characters (a longer one is cut with an ellipsis).
pub const NAME_LIMIT: usize = 24;

/// A player's display name as drawn into messages and images: no control, invisible or
/// direction-changing characters, no characters that ping or format on Discord (`@`, `` ` ``,
/// `*`, `_`, `~`, `|`, `<`, `>`, `[`, `]`, `\`), no leading `#`, `-` or `>` that would turn a
/// line into a heading or a list, runs of spaces folded, at most [`NAME_LIMIT`] characters
/// (cut with "…"). The one sanitiser for names: the chat layer applies it to every request,
/// the renderer to every name it draws.
pub fn sanitize_name(name: &str) -> String {
    let kept: String = name
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

/// Zero-width, joiner, direction and other format characters (Unicode Cf) that hide text or
/// reorder it.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0xE0000..=0xE007F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_and_cleaned() {
        assert_eq!(sanitize_name("  alice  "), "alice");
        assert_eq!(sanitize_name("@everyone"), "everyone");
        assert_eq!(sanitize_name("# big\n**bold**"), "big bold");
        assert_eq!(sanitize_name("a\u{202E}b\u{200B}c"), "abc");
        assert_eq!(sanitize_name("\u{200B}"), "Player");
        let long = sanitize_name(&"x".repeat(100));
        assert_eq!(long.chars().count(), NAME_LIMIT);
        assert!(long.ends_with('…'));
    }
}
