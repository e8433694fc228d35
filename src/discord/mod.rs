//! The Discord adapter: a thin layer of serenity and poise over the chat layer
//! ([`crate::chat`]), which keeps every game rule and every sentence. This module owns what
//! is Discord's alone:
//! - the gateway connections — as many shards as Discord recommends, or the configured
//!   `shards` (and `shard_range`) — and the REST client (pointed at a fake Discord in tests),
//! - the slash commands, one to one with the chat commands, their autocomplete, and their
//!   registration (global, or the development guild; only when the command set changed),
//! - answering interactions within the 3-second limit (defer or acknowledge first, run the
//!   synchronous chat and store on the blocking pool, then edit and follow up),
//! - delivering replies by audience: ephemeral answers, DMs (with a channel fallback when
//!   Discord refuses them), pings whose allowed mentions name only their user, PNG attachments,
//! - the per-game status message (edited in place, coalesced, pinned while the game runs, its
//!   id kept in the store across restarts),
//! - the reminder and deadline timer (due times live in the store; the chat decides what is due).
//!
//! The bot token is a [`Secret`]: it is never printed or logged.

mod commands;
pub use commands::command_options;
mod deliver;
mod error;
mod failures;
mod interact;
pub mod lanes;
mod message;
mod outbox;
mod register;
mod shared;
mod status;

/// What the test binaries reach below this module's public face (`test-support` only).
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub mod testing;

use crate::chat::{Chat, ChatConfig, SystemClock};
use crate::config::{Config, Secret, Sharding};
use crate::store::Store;
use error::describe;
pub use error::DiscordError;
use failures::{archive, Gone};
use serenity::all::{
    ClientBuilder, FullEvent, GatewayIntents, HttpBuilder, Interaction, ShardManager,
};
use shared::{Data, Error, Shared};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How the bot runs.
#[derive(Debug, Clone)]
pub struct BotSettings {
    pub token: Secret,
    /// Send every REST request to this base URL instead of Discord (tests: a fake Discord on
    /// loopback, e.g. `http://127.0.0.1:PORT`); the gateway URL then comes from it too.
    pub api_proxy: Option<String>,
    /// Register the commands in this guild only.
    pub dev_guild_id: Option<u64>,
    /// The bot's owners (Discord user ids).
    pub owners: Vec<u64>,
    /// How often the reminder timer looks for due reminders and deadlines.
    pub tick_every: Duration,
    /// Status edits of one game are coalesced over this delay.
    pub status_debounce: Duration,
    /// Which gateway shards to connect (`shards` and `shard_range` in `config.toml`).
    pub sharding: Sharding,
    /// Changes the REST client before it is built (tests: a client that reaches a fake
    /// Discord as `https://discord.com` through a tunnel, with serenity's rate limiter on).
    pub rest_setup: Option<RestSetup>,
}

/// A change to the REST client's builder ([`BotSettings::rest_setup`]).
#[derive(Clone)]
pub struct RestSetup(pub Arc<dyn Fn(HttpBuilder) -> HttpBuilder + Send + Sync>);

impl std::fmt::Debug for RestSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RestSetup")
    }
}

impl BotSettings {
    pub fn from_config(config: &Config) -> BotSettings {
        BotSettings {
            token: config.discord_token.clone(),
            api_proxy: None,
            dev_guild_id: config.dev_guild_id,
            owners: config.owners.clone(),
            tick_every: Duration::from_secs(30),
            status_debounce: Duration::from_secs(1),
            // `Config::load` refused a combination that cannot work; a hand-built `Config`
            // with one runs every shard Discord recommends.
            sharding: config.sharding().unwrap_or(Sharding::Auto),
            rest_setup: None,
        }
    }
}

/// A running bot.
pub struct Running {
    shard_manager: Arc<ShardManager>,
    client: tokio::task::JoinHandle<Result<(), serenity::Error>>,
    shared: Arc<OnceLock<Arc<Shared>>>,
}

impl Running {
    /// Whether the first READY has been handled (commands registered, timer running).
    pub fn is_ready(&self) -> bool {
        self.shared.get().is_some()
    }

    /// How many status edits or sends have run (coalescing is visible here).
    pub fn status_flushes(&self) -> u64 {
        self.shared
            .get()
            .map(|s| s.status.flushes.load(std::sync::atomic::Ordering::Relaxed))
            .unwrap_or(0)
    }

    /// Waits until the client stops by itself (the gateway closed for good).
    pub async fn wait(&mut self) -> Result<(), DiscordError> {
        match (&mut self.client).await {
            Ok(r) => r.map_err(DiscordError::from),
            Err(e) => Err(DiscordError::Worker(e.to_string())),
        }
    }

    /// Stops the timer, sends the pending status edits, closes the gateway.
    pub async fn stop(self) -> Result<(), DiscordError> {
        if let Some(shared) = self.shared.get() {
            if let Some(t) = shared
                .ticker
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                t.abort();
            }
            shared.status.flush_all().await;
        }
        self.shard_manager.shutdown_all().await;
        match tokio::time::timeout(Duration::from_secs(10), self.client).await {
            Ok(Ok(r)) => r.map_err(DiscordError::from),
            Ok(Err(e)) => Err(DiscordError::Worker(e.to_string())),
            Err(_) => Err(DiscordError::Worker("the client did not stop".to_string())),
        }
    }
}

/// Connects the bot: commands, event handler, timer. Returns once the client task runs.
pub async fn start(
    settings: BotSettings,
    store: Arc<Store>,
    chat: Arc<Chat>,
) -> Result<Running, DiscordError> {
    if settings.token.is_empty() {
        return Err(DiscordError::NoToken);
    }
    crate::memory::tune_allocator();
    let mut http = HttpBuilder::new(settings.token.expose());
    if let Some(proxy) = &settings.api_proxy {
        http = http.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    if let Some(setup) = &settings.rest_setup {
        http = (setup.0)(http);
    }
    let http = http.build();
    let settings_sharding = settings.sharding;
    let cell: Arc<OnceLock<Arc<Shared>>> = Arc::new(OnceLock::new());
    let setup_cell = cell.clone();
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        event_handler: |_ctx, event, _framework, data| Box::pin(on_event(event, data)),
        on_error: |error| Box::pin(on_error(error)),
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let mut shared = Shared::new(
                    chat,
                    store,
                    ctx.http.clone(),
                    &settings.owners,
                    settings.status_debounce,
                );
                shared.dev_guild = settings.dev_guild_id;
                let shared = Arc::new(shared);
                tracing::info!(user = %ready.user.name, "connected to Discord");
                if let Err(e) = register::register(
                    &ctx.http,
                    &shared.store,
                    &framework.options().commands,
                    ready.application.id.get(),
                    settings.dev_guild_id,
                )
                .await
                {
                    tracing::error!(error = %e, "command registration failed");
                }
                // Every process runs its timer: its store holds and claims only the games of
                // its shards (`StoreOptions::shards`), and a claim is one process's.
                start_timer(&shared, settings.tick_every);
                let _ = setup_cell.set(shared.clone());
                Ok(shared)
            })
        })
        .build();
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await?;
    let shard_manager = client.shard_manager.clone();
    // Every shard shares the one framework, REST client and timer: a game's reminders and
    // status edits go over REST whichever shard its guild's events arrive on.
    let sharding = settings_sharding;
    let task = tokio::spawn(async move {
        match sharding {
            Sharding::Auto => client.start_autosharded().await,
            // serenity's range includes its end.
            Sharding::Range { first, last, total } => {
                client.start_shard_range(first..last, total).await
            }
        }
    });
    Ok(Running {
        shard_manager,
        client: task,
        shared: cell,
    })
}

/// The reminder timer: `Chat::tick` on the blocking pool every `every`, its replies sent.
fn start_timer(shared: &Arc<Shared>, every: Duration) {
    let s = shared.clone();
    let handle = tokio::spawn(async move {
        let mut interval = tokio::time::interval(every.max(Duration::from_millis(10)));
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            // Messages Discord did not take earlier go first, so channels read in order.
            outbox::flush(&s).await;
            let batch = s.tick().await;
            if !batch.replies.is_empty() {
                deliver::deliver(&s, &deliver::Origin::timer(), batch).await;
            }
            s.status.unpin_ended().await;
        }
    });
    if let Some(old) = shared
        .ticker
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .replace(handle)
    {
        old.abort();
    }
}

async fn on_event(event: &FullEvent, data: &Data) -> Result<(), Error> {
    match event {
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(click),
        } => interact::component(data, click).await,
        // A deleted channel or thread, or a server the bot was removed from (not one that is
        // merely unavailable during an outage): its games are archived, never lost.
        FullEvent::ChannelDelete { channel, .. } => {
            archive(&data.chat, Gone::Channel(channel.id.get())).await
        }
        FullEvent::ThreadDelete { thread, .. } => {
            archive(&data.chat, Gone::Channel(thread.id.get())).await
        }
        FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            archive(&data.chat, Gone::Guild(incomplete.id.get())).await
        }
        _ => {}
    }
    Ok(())
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            // The error may quote a user's own value: cleaned as every reply is.
            let error = crate::text::clean(&error.to_string()).into_owned();
            tracing::warn!(command = %ctx.command().qualified_name, error = %error, "command failed");
        }
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(error = %error, "setup failed");
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            register::command_mismatch(ctx, description).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %describe(&e), "error handler failed");
            }
        }
    }
}

/// Starts logging at `level` (error, warn, info, debug, trace) for this crate; the libraries
/// log warnings and errors only, so no request URL (with an interaction token) is ever logged.
pub fn init_logging(level: &str) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let ours = match level.trim().to_ascii_lowercase().as_str() {
        "error" => LevelFilter::ERROR,
        "warn" | "warning" => LevelFilter::WARN,
        "debug" => LevelFilter::DEBUG,
        "trace" => LevelFilter::TRACE,
        "off" => LevelFilter::OFF,
        _ => LevelFilter::INFO,
    };
    let filter = Targets::new()
        .with_target("skymines", ours)
        .with_default(LevelFilter::WARN.min(ours));
    let _ = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_target(false))
        .with(filter)
        .try_init();
}

/// `skymines` with a token: the bot, on the configured database, until Ctrl-C. Returns the
/// process exit code.
pub fn run(config: &Config) -> i32 {
    init_logging(&config.log_level);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return 1;
        }
    };
    match runtime.block_on(run_until_stopped(config)) {
        Ok(()) => 0,
        Err(e) => {
            tracing::error!(error = %e, "the bot stopped");
            eprintln!("the bot stopped: {e}");
            1
        }
    }
}

async fn run_until_stopped(config: &Config) -> Result<(), DiscordError> {
    let data = match config.data_dir() {
        Some(dir) => crate::data::GameData::from_dir(&dir),
        None => crate::data::GameData::embedded(),
    }
    .map_err(|e| DiscordError::Data(e.to_string()))?;
    let database = config.database();
    let options = crate::store::StoreOptions {
        shards: config.shard_filter(),
        ..crate::store::StoreOptions::default()
    };
    let open = database.clone();
    let (store, report) = lanes::blocking(move || open.open(Arc::new(data), options))
        .await
        .map_err(DiscordError::Worker)??;
    for (warning, line) in report.startup_lines(std::path::Path::new(&database.describe())) {
        if warning {
            tracing::warn!("{line}");
        } else {
            tracing::info!("{line}");
        }
    }
    let chat_config: ChatConfig = config.chat_config();
    // The chat layer reads the stored lobbies, the store's handles are dropped: store work, on
    // a blocking thread (the PostgreSQL client must not run on the async workers).
    let chat_store = store.clone();
    let chat = lanes::blocking(move || {
        Arc::new(Chat::new(chat_store, Arc::new(SystemClock), chat_config))
    })
    .await
    .map_err(|e| DiscordError::Worker(e.to_string()))?;
    let mut running = start(BotSettings::from_config(config), store.clone(), chat).await?;
    let ended = tokio::select! {
        r = running.wait() => Some(r),
        _ = tokio::signal::ctrl_c() => None,
    };
    let result = match ended {
        Some(r) => r,
        None => {
            tracing::info!("stopping");
            running.stop().await
        }
    };
    // The store's connections close on a blocking thread (the PostgreSQL client's own
    // runtime must not be dropped on an async worker).
    if let Err(e) = lanes::blocking(move || drop(store)).await {
        tracing::warn!(error = %e, "closing the store failed");
    }
    result
}
