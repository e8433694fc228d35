//! The chat tests' table (a chat layer over a store of its own, driven by typed lines, on a
//! manual clock), where its games are stored (SQLite, or PostgreSQL when configured), the
//! reply filters (what everyone sees, what one user sees, whom the replies ping), and a chat
//! layer over a store file with alice as the bot's owner.

use super::pg::PgTestDb;
use super::{shared_data, TempDir};
use skymines::chat::{
    local_user_id, Audience, Chat, ChatConfig, Choice, ManualClock, Reply, Request,
};
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{Location, Store, StoreOptions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The text of the replies everyone in the channel sees (public posts and pings).
pub fn public_text(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter(|r| matches!(r.audience, Audience::Public | Audience::Ping(_)))
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text only `user` (a local user name) sees: ephemeral replies and DMs.
pub fn private_to(replies: &[Reply], user: &str) -> String {
    let id = local_user_id(user);
    replies
        .iter()
        .filter(|r| matches!(r.audience, Audience::Private(u) | Audience::Dm(u) if u == id))
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The users the replies ping.
pub fn pinged(replies: &[Reply]) -> Vec<u64> {
    replies
        .iter()
        .flat_map(|r| match &r.audience {
            Audience::Ping(users) => users.users().to_vec(),
            _ => Vec::new(),
        })
        .collect()
}

/// A chat layer over the store file `db` as the reliability tests use it: no images, no rate
/// limit, a manual clock, and alice the bot's one owner.
pub fn owner_alice_chat(db: &Path, read_only: bool) -> Chat {
    owner_alice_chat_and_store(db, read_only).0
}

/// [`owner_alice_chat`] and its SQLite store (for the file's test hooks).
pub fn owner_alice_chat_and_store(db: &Path, read_only: bool) -> (Chat, Arc<Store>) {
    let options = StoreOptions {
        read_only,
        ..StoreOptions::default()
    };
    let (store, _) = Store::open(db, shared_data(), options).expect("store");
    let store = Arc::new(store);
    let chat = Chat::new(
        store.clone(),
        Arc::new(ManualClock::new(START)),
        owner_alice_config(),
    );
    (chat, store)
}

/// The chat settings of [`owner_alice_chat`]: no images, no rate limit, alice the bot's owner.
pub fn owner_alice_config() -> ChatConfig {
    ChatConfig {
        images: false,
        rate_limit: 0,
        owners: vec![local_user_id("alice")],
        ..ChatConfig::default()
    }
}

/// When a table's clock starts: 2023-11-14 22:13:20 UTC.
pub const START: i64 = 1_700_000_000_000;

/// Where a table's games are stored: a SQLite file in a folder of its own, or a PostgreSQL
/// database of its own (both removed at the end).
pub enum Backing {
    Sqlite(TempDir),
    Postgres(PgTestDb),
}

impl Backing {
    pub fn sqlite(tag: &str) -> Backing {
        Backing::Sqlite(TempDir::new(tag))
    }

    /// SQLite, and PostgreSQL when `SKYMINES_TEST_PG_URL` names a server (see [`super::pg::pg_server`]).
    pub fn both(tag: &str) -> Vec<Backing> {
        let mut out = vec![Backing::sqlite(tag)];
        out.extend(PgTestDb::for_test(tag).map(Backing::Postgres));
        out
    }

    /// Opens the store (again: a restart).
    pub fn open(&self, options: StoreOptions) -> Arc<Store> {
        match self {
            Backing::Sqlite(dir) => Arc::new(
                Store::open(dir.db(), shared_data(), options)
                    .expect("SQLite opens")
                    .0,
            ),
            Backing::Postgres(db) => Arc::new(
                Store::open_postgres(db.url(), shared_data(), options)
                    .expect("PostgreSQL opens")
                    .0,
            ),
        }
    }

    /// The SQLite file (None on PostgreSQL).
    pub fn db(&self) -> Option<PathBuf> {
        match self {
            Backing::Sqlite(dir) => Some(dir.db()),
            Backing::Postgres(_) => None,
        }
    }
}

/// The chat tests' table: a chat layer over a store of its own, driven by the lines users type
/// (`alice /skymines new players:2`, parsed as the local mode parses them), on a manual clock
/// starting at [`START`], with every reply kept in `log` after the line that got it. alice is
/// the one owner the lines are parsed with (she may choose seeds), and the lines are said in
/// the local mode's channel outside any server, unless a test changes `owners` or `place`.
pub struct Table {
    pub chat: Chat,
    pub clock: Arc<ManualClock>,
    pub backing: Backing,
    /// The store's options (for [`Table::reopen`]).
    pub options: StoreOptions,
    pub owners: Vec<u64>,
    pub place: Location,
    pub log: Vec<(String, Reply)>,
    /// Every choice label [`Table::choices`] returned.
    pub offered: BTreeSet<String>,
}

impl Table {
    /// A table on a new SQLite file with the default store options.
    pub fn new(tag: &str, config: ChatConfig) -> Table {
        Table::on(Backing::sqlite(tag), StoreOptions::default(), config)
    }

    pub fn on(backing: Backing, options: StoreOptions, config: ChatConfig) -> Table {
        let clock = Arc::new(ManualClock::new(START));
        Table {
            chat: Chat::new(backing.open(options.clone()), clock.clone(), config),
            clock,
            backing,
            options,
            owners: vec![local_user_id("alice")],
            place: Location {
                guild: None,
                channel: LOCAL_CHANNEL,
            },
            log: Vec::new(),
            offered: BTreeSet::new(),
        }
    }

    /// The request of a typed line, said at the table's place.
    pub fn request(&self, line: &str) -> Request {
        let mut req = parse_line(line, &self.owners)
            .expect("line parses")
            .expect("not blank");
        req.place = self.place;
        req
    }

    /// Says one line; returns its replies (also kept in the log).
    pub fn say(&mut self, line: &str) -> Vec<Reply> {
        let req = self.request(line);
        self.send(line, &req)
    }

    /// Sends a request made by hand; `line` is what the log files its replies under.
    pub fn send(&mut self, line: &str, req: &Request) -> Vec<Reply> {
        let replies = self.chat.handle(req);
        for r in &replies {
            self.log.push((line.to_string(), r.clone()));
        }
        replies
    }

    /// Clicks a button as `user`.
    pub fn click(&mut self, user: &str, custom_id: &str) -> Vec<Reply> {
        self.say(&format!("{user} /click {custom_id}"))
    }

    /// The users the game in the table's channel waits on.
    pub fn waiting(&self) -> Vec<u64> {
        self.chat.waiting_users(&self.place)
    }

    /// The choices `user` is offered now (their labels are kept in `offered`).
    pub fn choices(&mut self, user: u64) -> Vec<Choice> {
        let choices = self.chat.pending_choices(&self.place, user);
        self.offered.extend(choices.iter().map(|c| c.label.clone()));
        choices
    }

    /// The SQLite file of the table's store (panics on PostgreSQL).
    pub fn db(&self) -> PathBuf {
        self.backing.db().expect("a table on SQLite")
    }

    /// The chat layer's store.
    pub fn store(&self) -> Arc<Store> {
        self.chat.store()
    }

    /// A new chat layer over the same store and clock (a restart of the bot's chat layer, or
    /// other settings).
    pub fn restart(&mut self, config: ChatConfig) {
        self.chat = Chat::new(self.store(), self.clock.clone(), config);
    }

    /// The bot's process restarted: the chat layer and its store are dropped, the store is
    /// opened afresh under a new chat layer with `config`. The clock goes on.
    pub fn reopened(self, config: ChatConfig) -> Table {
        let Table {
            chat,
            clock,
            backing,
            options,
            owners,
            place,
            log,
            offered,
        } = self;
        drop(chat);
        Table {
            chat: Chat::new(backing.open(options.clone()), clock.clone(), config),
            clock,
            backing,
            options,
            owners,
            place,
            log,
            offered,
        }
    }
}
