//! The conversation, independent of Discord: takes (place, user, command with options |
//! component click) and returns replies tagged public / private-to-user / DM / ping, each
//! optionally with an image. It drives the engine and the store and knows who may do what.
//! The Discord adapter and the local terminal mode are thin layers over this one.
//!
//! Private information never appears in a public reply: public texts and images are built from
//! `engine::view(…, None)` (the spectator's view) or from public events only.

pub mod account;
mod adapter;
mod admin;
mod asking;
mod campaign;
mod choosing;
mod commands;
mod computers;
mod describe;
mod dms;
mod game;
mod language;
mod lobby;
mod offers;
mod prompt;
mod schedule;
mod seats;
pub mod time;
mod turn;
mod weeks;

/// What the test binaries reach below this module's public face (`test-support` only).
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub mod testing;

use crate::data::GameData;
use crate::store::{GameId, Location, Store, StoreError};
pub use crate::text::Texts;
pub use adapter::{click_game, open_click_id, Suggestion};
pub use language::{as_sentence, Voice};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

/// Who is speaking. Ids are Discord user ids (the local mode derives them from names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: u64,
    pub name: String,
    /// May manage games in this channel (Discord's Manage Messages/Channels or a mod role).
    pub moderator: bool,
    /// One of the bot's owners (config).
    pub owner: bool,
}

/// What the user did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// A slash command (`"skymines new"`, `"plan"`, …) with its options by name.
    Command {
        name: String,
        options: BTreeMap<String, String>,
    },
    /// A click on a button or a select-menu choice, by custom id.
    Click { custom_id: String },
}

/// One request to the chat layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub place: Location,
    pub user: User,
    pub input: Input,
    /// The request came from a DM with the bot (no channel game; DM planners name their game).
    pub in_dm: bool,
}

/// Who sees a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    /// Everyone in the channel.
    Public,
    /// Only this user, as an answer to their own interaction (ephemeral on Discord).
    Private(u64),
    /// A direct message the bot pushes to this user.
    Dm(u64),
    /// A public message that pings these users (mentions restricted to them).
    Ping(Pinged),
}

/// The users one public message pings: at most one per seat, so a game's whole table fits (a
/// round's planning start pings everyone in one message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pinged {
    users: [u64; 4],
    len: u8,
}

impl Pinged {
    pub fn one(user: u64) -> Pinged {
        Pinged {
            users: [user, 0, 0, 0],
            len: 1,
        }
    }

    /// Adds `user` (a fifth user is ignored: no game has five seats).
    pub fn add(&mut self, user: u64) {
        if !self.contains(user) && (self.len as usize) < self.users.len() {
            self.users[self.len as usize] = user;
            self.len += 1;
        }
    }

    pub fn users(&self) -> &[u64] {
        &self.users[..self.len as usize]
    }

    pub fn contains(&self, user: u64) -> bool {
        self.users().contains(&user)
    }
}

/// A PNG attached to a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub file_name: String,
    pub png: Vec<u8>,
    /// Alt text: a short summary of what the image shows.
    pub alt: String,
}

/// A button or select-menu choice; its custom id carries game, state version and choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub custom_id: String,
    /// What the option is, short (a select menu shows at most 100 characters).
    pub label: String,
    /// What the option does: its consequences and warnings ("" when there is nothing to add;
    /// a select menu shows at most 100 characters, a button list shows it after the label).
    #[serde(default)]
    pub description: String,
    /// The number `/choose N` picks this option by (None: not a game decision).
    #[serde(default)]
    pub number: Option<usize>,
    /// What the decision would do, computed by the engine (None: not a game decision).
    #[serde(default)]
    pub preview: Option<crate::engine::Preview>,
    /// The select menu this option belongs to (None: a button, or a menu the adapter makes of
    /// a long list). Options with the same menu form one select menu.
    #[serde(default)]
    pub menu: Option<Menu>,
}

/// A select menu the chat asks for: planning picks several cards at once (one menu of the
/// hand), or one card per slot with the linked-slots variant (one menu per open slot). The
/// chosen options' ids arrive together, separated by spaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Menu {
    /// What the menu asks (Discord shows it while nothing is picked).
    pub placeholder: String,
    /// How many options may be picked at once.
    pub max_values: u8,
}

impl Choice {
    /// A plain button: a custom id and a label.
    pub fn new(custom_id: impl Into<String>, label: impl Into<String>) -> Choice {
        Choice {
            custom_id: custom_id.into(),
            label: label.into(),
            description: String::new(),
            number: None,
            preview: None,
            menu: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub audience: Audience,
    pub text: String,
    pub image: Option<Image>,
    pub choices: Vec<Choice>,
    /// The game whose status message this reply replaces (edited in place by the adapter).
    pub status_of: Option<GameId>,
    /// The game a public reply or ping belongs to when that may not be the request's channel
    /// (the timer's lines, an admin's announcements): the adapter posts it in that game's
    /// channel.
    pub about: Option<GameId>,
}

impl Reply {
    pub fn new(audience: Audience, text: impl Into<String>) -> Reply {
        Reply {
            audience,
            text: text.into(),
            image: None,
            choices: Vec::new(),
            status_of: None,
            about: None,
        }
    }

    pub fn public(text: impl Into<String>) -> Reply {
        Reply::new(Audience::Public, text)
    }

    pub fn private(user: u64, text: impl Into<String>) -> Reply {
        Reply::new(Audience::Private(user), text)
    }

    pub fn with_choices(mut self, choices: Vec<Choice>) -> Reply {
        self.choices = choices;
        self
    }

    pub fn with_image(mut self, image: Option<Image>) -> Reply {
        self.image = image;
        self
    }

    /// Marks the reply as belonging to `game`'s channel.
    pub fn about(mut self, game: GameId) -> Reply {
        self.about = Some(game);
        self
    }
}

/// What a request came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub replies: Vec<Reply>,
    /// The request was refused (its one reply says why); nothing changed.
    pub refused: bool,
}

/// The injected clock (reminders and deadlines are testable).
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// The real clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

/// A clock tests move by hand.
#[derive(Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock(AtomicI64::new(start_ms))
    }

    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Chat settings (from config.toml).
#[derive(Debug, Clone)]
pub struct ChatConfig {
    /// The bot's owners: Discord ids, and the local mode's owners by their local ids
    /// ([`local_user_id`]). The adapters mark a requester an owner by this list.
    pub owners: Vec<u64>,
    /// Remind a player this long after the game starts waiting on them.
    pub reminder_after_ms: i64,
    /// After this long the bot plays a stalled turn safely (None: never).
    pub deadline_ms: Option<i64>,
    /// Attach PNG images to replies (off in fast tests).
    pub images: bool,
    /// At most this many requests per user in `rate_window_ms` (0 = no limit).
    pub rate_limit: usize,
    pub rate_window_ms: i64,
    /// The language of replies nobody chose one for (`en`, `de`).
    pub default_language: String,
    /// The host (or a moderator) may kick a player the game has waited on this long.
    pub kick_after_ms: i64,
    /// A running game nobody moved in for this long is deleted (None: never)…
    pub abandoned_after_ms: Option<i64>,
    /// …after a public warning this long before.
    pub abandoned_warning_ms: i64,
    /// Everyone may choose a seed (the local mode: its one operator types every player's
    /// lines, DECISIONS B4); otherwise only the owners may.
    pub anyone_may_seed: bool,
}

impl Default for ChatConfig {
    fn default() -> ChatConfig {
        ChatConfig {
            owners: Vec::new(),
            reminder_after_ms: 12 * 3600 * 1000,
            deadline_ms: None,
            images: true,
            rate_limit: 12,
            rate_window_ms: 10_000,
            default_language: "en".to_string(),
            kick_after_ms: 24 * 3600 * 1000,
            abandoned_after_ms: None,
            abandoned_warning_ms: 3 * 24 * 3600 * 1000,
            anyone_may_seed: false,
        }
    }
}

/// The chat layer.
pub struct Chat {
    pub(crate) data: Arc<GameData>,
    pub(crate) store: Arc<Store>,
    /// The catalog of the reply being written (see `language`).
    pub(crate) texts: Voice,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) config: ChatConfig,
    /// Games being gathered, by channel (kept in the store on every change).
    pub(crate) lobbies: lobby::Lobbies,
    /// Serialises campaign steps (recording a chapter, starting the next one).
    pub(crate) campaign_lock: Mutex<()>,
    /// Recent request times per user (rate limit).
    pub(crate) recent: Mutex<BTreeMap<u64, Vec<i64>>>,
    /// The numbered list each user was last shown in each game (what `/choose N` means).
    pub(crate) shown: choosing::ShownLists,
    /// The public lines of each game's turn so far (posted together when the turn ends).
    pub(crate) turn_lines: turn::TurnLines,
}

impl Chat {
    pub fn new(store: Arc<Store>, clock: Arc<dyn Clock>, config: ChatConfig) -> Chat {
        Chat {
            data: store.data().clone(),
            lobbies: lobby::Lobbies::restore(store.clone()),
            store,
            texts: Voice::new(&config.default_language),
            clock,
            config,
            campaign_lock: Mutex::new(()),
            recent: Mutex::new(BTreeMap::new()),
            shown: choosing::ShownLists::default(),
            turn_lines: turn::TurnLines::default(),
        }
    }

    pub fn store(&self) -> Arc<Store> {
        self.store.clone()
    }

    /// A store result whose error the caller cannot answer with (a timer's work, a note in a
    /// reply): the error is logged with what was being done and why it matters, and the
    /// caller goes on without the value.
    pub(crate) fn logged<T>(&self, doing: &str, result: Result<T, StoreError>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                tracing::warn!(error = %e, "{doing}");
                None
            }
        }
    }

    pub fn texts(&self) -> &Texts {
        &self.texts
    }

    /// Handles one request; never panics on user input, always answers something. Replies
    /// are written in the requester's language unless they speak to others (see `language`).
    pub fn handle(&self, req: &Request) -> Vec<Reply> {
        self.answer(req).replies
    }

    /// Handles one request like [`Chat::handle`] and says whether it was refused (a refusal
    /// changes nothing).
    pub fn answer(&self, req: &Request) -> Answer {
        // Display names reach messages and images only through the one sanitiser.
        let mut clean = req.clone();
        clean.user.name = crate::text::sanitize_name(&req.user.name);
        let req = &clean;
        self.speaking(self.requester_texts(req), || self.answer_in_language(req))
    }

    fn answer_in_language(&self, req: &Request) -> Answer {
        if self.rate_limited(req.user.id) {
            return Answer {
                replies: vec![Reply::private(
                    req.user.id,
                    self.texts.t("error.rate_limited"),
                )],
                refused: true,
            };
        }
        let result = match &req.input {
            Input::Command { name, options } => self.command(req, name, options),
            Input::Click { custom_id } => self.click(req, custom_id),
        };
        match result {
            Ok(replies) => Answer {
                replies,
                refused: false,
            },
            // Refusals may carry names from the engine (card labels): written for the reader.
            Err(message) => Answer {
                replies: vec![Reply::private(
                    req.user.id,
                    as_sentence(&self.texts.resolve(&message)),
                )],
                refused: true,
            },
        }
    }

    fn command(
        &self,
        req: &Request,
        name: &str,
        options: &BTreeMap<String, String>,
    ) -> Result<Vec<Reply>, String> {
        let name = name.trim().trim_start_matches('/');
        let opts = commands::Options::new(options);
        if let Some(known) = commands::known_options(name) {
            if let Some(k) = opts.keys().find(|k| !known.contains(k)) {
                return Err(self.texts.f(
                    "error.unknown_option",
                    &[("option", &k), ("options", &known.join(", "))],
                ));
            }
        }
        // A move in a channel whose game was set aside hears why, whoever sends it.
        if MOVE_COMMANDS.contains(&name) {
            self.damaged_here(req)?;
        }
        match name {
            "skymines new" => self.lobby_new(req, &opts),
            "skymines join" => self.join(req),
            "skymines leave" => self.leave(req),
            "skymines kick" => self.kick(req, &opts),
            "skymines pause" => self.pause(req),
            "skymines resume" => self.resume(req),
            "skymines start" => self.lobby_start(req),
            "skymines abort" => self.abort(req),
            "skymines status" => self.status(req),
            "skymines scores" => self.scores(req),
            "skymines log" => self.log(req, &opts),
            "skymines export" => self.export(req),
            "skymines help" => Ok(vec![self.help(req, opts.get("topic"))]),
            "skymines settings" => self.settings(req, &opts),
            "skymines mygames" => self.mygames(req),
            "skymines board" => self.board(req, &opts),
            "skymines campaign new" => self.campaign_new(req, &opts),
            // Public campaign texts speak the channel's language.
            "skymines campaign status" => self
                .speaking(self.channel_texts(req.place.channel), || {
                    self.campaign_status(req)
                }),
            "skymines campaign next" => self.campaign_next(req, &opts),
            admin if admin.starts_with("skymines admin") => self.admin(req, admin, &opts),
            "hand" => self.hand(req),
            "undo" => self.undo(req),
            "choose" => self.choose(req, &opts),
            "plan" | "resources" | "energy" | "research" | "field" | "bonus" | "pass" | "token"
            | "tile" => self.action_command(req, name, &opts),
            other => Err(self.texts.f("error.unknown_command", &[("name", &other)])),
        }
    }

    /// DECISIONS B13: an action on `game` comes from the game's own channel (or thread), or
    /// from the DM of one of its players who plans by DM; anything else is refused (a click or
    /// `/choose id:` typed elsewhere must not open a prompt or play a move there).
    pub(crate) fn check_place(&self, req: &Request, game: GameId) -> Result<(), String> {
        self.refuse_if_damaged(game)?;
        let allowed = if req.in_dm {
            self.store
                .people()
                .seats(game)
                .map_err(|e| self.err(e))?
                .iter()
                .any(|s| {
                    s.owner == crate::store::SeatOwner::Discord(req.user.id)
                        && s.notify == crate::store::Notify::Dm
                })
        } else {
            self.store
                .games()
                .game(game)
                .map_err(|e| self.err(e))?
                .location
                .channel
                == req.place.channel
        };
        if allowed {
            Ok(())
        } else {
            Err(self.texts.t("error.wrong_place"))
        }
    }

    fn click(&self, req: &Request, custom_id: &str) -> Result<Vec<Reply>, String> {
        if custom_id.split_whitespace().nth(1).is_some() {
            // Several options of one select menu, picked together.
            let mut picked = Vec::new();
            for id in custom_id.split_whitespace() {
                match prompt::ClickId::parse(id) {
                    Some(prompt::ClickId::Decide {
                        game,
                        version,
                        decision,
                    }) => {
                        self.check_place(req, game)?;
                        picked.push((game, version, decision))
                    }
                    _ => return Err(self.texts.t("error.stale")),
                }
            }
            return self.decide_picked(req, &picked);
        }
        let parsed = prompt::ClickId::parse(custom_id);
        if let Some(game) = parsed.as_ref().and_then(prompt::ClickId::game) {
            self.check_place(req, game)?;
        }
        match parsed {
            Some(prompt::ClickId::Leave { game }) => self.leave_confirmed(req, game),
            Some(prompt::ClickId::Lobby(action)) => match action.as_str() {
                "join" => self.lobby_join(req),
                "bot" => self.lobby_add_computer(req),
                "start" => self.lobby_start(req),
                _ => Err(self.texts.t("error.stale")),
            },
            Some(prompt::ClickId::Open { game }) => self.open_prompt(req, game),
            Some(prompt::ClickId::Decide {
                game,
                version,
                decision,
            }) => self.decide_click(req, game, version, decision),
            Some(prompt::ClickId::Page {
                game,
                version,
                page,
            }) => self.page_click(req, game, version, page),
            Some(prompt::ClickId::Offer {
                game,
                version,
                number,
                first,
            }) => self.offer_click(req, game, version, number, first),
            Some(prompt::ClickId::Focus {
                game,
                version,
                plan,
            }) => self.focus_click(req, game, version, plan),
            Some(prompt::ClickId::Level {
                campaign,
                chapter,
                change,
            }) => self.speaking(self.channel_texts(req.place.channel), || {
                self.campaign_level_click(req, campaign, chapter, change)
            }),
            None => Err(self.texts.t("error.stale")),
        }
    }
}

/// A stable user id for a local-mode name (Discord ids are never this small).
pub fn local_user_id(name: &str) -> u64 {
    let mut h: u64 = 1469598103934665603;
    for b in name.to_lowercase().bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(1099511628211);
    }
    h % 1_000_000_000
}

/// The typed commands that act in a running game (each refused with what is wrong when the
/// channel's game was set aside as damaged).
const MOVE_COMMANDS: [&str; 12] = [
    "hand",
    "undo",
    "choose",
    "plan",
    "resources",
    "energy",
    "research",
    "field",
    "bonus",
    "pass",
    "token",
    "tile",
];
