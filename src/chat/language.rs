//! The language each reply is written in. Private replies and DMs follow their reader: the
//! user's `/skymines settings language:`, else the language of the game they are replying
//! about, else `default_language` from the config. Public replies and pings follow the game:
//! `/skymines new language:` or the host's `/skymines settings game_language:`, else the default.
//!
//! The code that writes sentences says `self.texts.f(…)` everywhere; `Voice` (the type of
//! `Chat::texts`) dereferences to the catalog of the reply being written now. `handle` starts
//! every request in the requester's language, and the places that write for another audience
//! (public replies, pings, DMs to other players) switch with [`Chat::speaking`] around the
//! text they build. The switch is per thread and undone on return, so concurrent requests on
//! other threads never see it.

use super::lobby::Lobby;
use super::{Chat, Request};
use crate::store::GameId;
use crate::text::{self, Texts};
use std::cell::Cell;

thread_local! {
    /// The catalog of the reply being written on this thread (None: the configured default).
    static WRITING_IN: Cell<Option<&'static Texts>> = const { Cell::new(None) };
}

/// The chat layer's catalog: the language of the reply being written (see the module doc).
#[derive(Debug, Clone, Copy)]
pub struct Voice {
    default: &'static Texts,
}

impl Voice {
    pub fn new(default_language: &str) -> Voice {
        Voice {
            default: text::for_language(default_language),
        }
    }

    /// The catalog replies are written in right now.
    pub fn current(&self) -> &'static Texts {
        WRITING_IN.with(Cell::get).unwrap_or(self.default)
    }

    /// The configured default language.
    pub fn default_texts(&self) -> &'static Texts {
        self.default
    }
}

impl std::ops::Deref for Voice {
    type Target = Texts;

    fn deref(&self) -> &Texts {
        self.current()
    }
}

/// A refusal in the one sentence style of every refusal: its first letter capitalised and a
/// full stop at the end (the engine's reasons and the parse errors are fragments that other
/// sentences also quote, so the style is applied here, where a refusal leaves the chat layer).
pub fn as_sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let mut out = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out
}

/// A language code the user typed, checked against the built-in catalogs.
pub(crate) fn parse_language(code: &str) -> Option<&'static str> {
    let code = code.trim().to_ascii_lowercase();
    let code = match code.as_str() {
        "english" | "englisch" => "en",
        "german" | "deutsch" => "de",
        other => other,
    };
    text::language_codes().find(|c| *c == code)
}

impl Lobby {
    /// The language of the lobby's public replies (and later of its game).
    pub(crate) fn texts(&self, chat: &Chat) -> &'static Texts {
        match self.language {
            Some(code) => text::for_language(code),
            None => chat.texts.default_texts(),
        }
    }
}

impl Chat {
    /// Runs `write` with replies written in `texts`, then restores the previous language.
    pub(crate) fn speaking<R>(&self, texts: &'static Texts, write: impl FnOnce() -> R) -> R {
        struct Restore(Option<&'static Texts>);
        impl Drop for Restore {
            fn drop(&mut self) {
                WRITING_IN.with(|w| w.set(self.0));
            }
        }
        let _restore = Restore(WRITING_IN.with(|w| w.replace(Some(texts))));
        write()
    }

    /// The language of a game's public replies and pings.
    pub(crate) fn game_texts(&self, game: GameId) -> &'static Texts {
        let chosen = self.logged(
            "cannot read a game's language: it speaks the default language",
            self.store.people().game_language(game),
        );
        match chosen.flatten() {
            Some(code) => text::for_language(&code),
            None => self.texts.default_texts(),
        }
    }

    /// The language of a lobby's public replies (before its game exists), if it has a lobby.
    pub(crate) fn lobby_texts(&self, channel: u64) -> Option<&'static Texts> {
        let lobbies = self.lobbies.lock().ok()?;
        Some(lobbies.get(&channel)?.texts(self))
    }

    /// The language of a channel's public replies: its lobby's, its latest game's (running or
    /// over), or the default.
    pub(crate) fn channel_texts(&self, channel: u64) -> &'static Texts {
        if let Some(texts) = self.lobby_texts(channel) {
            return texts;
        }
        let chosen = self.logged(
            "cannot read a channel's language: it speaks the default language",
            self.store.people().channel_language(channel),
        );
        match chosen.flatten() {
            Some(code) => text::for_language(&code),
            None => self.texts.default_texts(),
        }
    }

    /// The language of a user's private replies about `game` (their own setting first).
    pub(crate) fn reader_texts(&self, user: u64, game: Option<GameId>) -> &'static Texts {
        match self.user_language(user) {
            Some(code) => text::for_language(&code),
            None => match game {
                Some(game) => self.game_texts(game),
                None => self.texts.default_texts(),
            },
        }
    }

    /// The language a request is answered in (privately): the user's, else the channel's.
    pub(crate) fn requester_texts(&self, req: &Request) -> &'static Texts {
        match self.user_language(req.user.id) {
            Some(code) => text::for_language(&code),
            None if req.in_dm => self.texts.default_texts(),
            None => self.channel_texts(req.place.channel),
        }
    }

    /// The language a user chose (None: none, or it cannot be read, which is logged).
    fn user_language(&self, user: u64) -> Option<String> {
        self.logged(
            "cannot read a user's language: they are answered in the game's or the default",
            self.store.people().user_language(user),
        )
        .flatten()
    }
}
