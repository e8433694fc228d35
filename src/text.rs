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
