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

/// The English catalog, built into the binary.
const EN: &str = include_str!("../assets/lang/en.toml");

impl Texts {
    pub fn english() -> Texts {
        Texts::parse("en", EN).unwrap_or_else(|_| Texts {
            code: "en".to_string(),
            messages: BTreeMap::new(),
        })
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
