//! The Discord adapter's figures against the fake Discord on loopback (tests/discord/fake.rs):
//! - memory: resident set size of the bot once it is connected with no game (idle), then with
//!   50 and with 100 active games (one player and Luna each), every game opened, started,
//!   played (a plan card chosen through the bot's own buttons) and rendered (status board and
//!   the private hand image); budgets: idle under 50 MiB, under 100 KiB per active game. The
//!   cost of a game is shown twice: the growth from 50 to 100 games per game (what one more
//!   game costs), and the growth from idle per game, which also holds the one-time costs of the
//!   first games (fonts and glyphs, the renderer's image cache, SQLite's page cache);
//! - acknowledgement latency: from the INTERACTION_CREATE the fake sends to the interaction
//!   callback it receives, over a stream of commands and clicks spread over the 100 games;
//!   budget: p99 under 50 ms.
//!
//! The work must be accepted, or the benchmark fails: every game active, every plan card
//! chosen through the buttons stored as a move (the game's sequence number advanced), every
//! interaction acknowledged and none refused by the rate limit (which is off:
//! `rate_limit_commands = 0`).
//!
//! The bot runs in a child process (this executable again, started with
//! `SKYMINES_BENCH_BOT=<fake url>` and the database path) so that its RSS is read alone from
//! `/proc/<pid>/status`: the fake keeps every request and attachment it received, which would
//! otherwise count as the bot's memory.
//!
//! `cargo bench --bench discord` (`BENCH_QUICK=1`: 10 games, 100 interactions)

#[path = "../tests/discord/fake.rs"]
mod discord_support;
#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use discord_support::Fake;
use serde_json::json;
use skymines::chat::{Chat, SystemClock};
use skymines::data::GameData;
use skymines::discord::{self, BotSettings};
use skymines::store::{Store, StoreOptions};
use std::collections::BTreeMap;
use std::io::{BufRead, Read};
use std::sync::Arc;
use std::time::Duration;
use support::{assert_accepted, fail, size, Samples};

const CHANNEL0: u64 = 300_000_000_000_000_000;
const USER0: u64 = 400_000_000_000_000_000;

/// Set in the child that runs the bot: the fake Discord's URL.
const BOT_ENV: &str = "SKYMINES_BENCH_BOT";
/// The child's database path.
const DB_ENV: &str = "SKYMINES_BENCH_DB";

/// The resident set size of process `pid`.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    match std::env::var(BOT_ENV) {
        Ok(proxy) => runtime.block_on(bot(proxy)),
        Err(_) => runtime.block_on(bench()),
    }
}

/// The child: the bot as `skymines` runs it, pointed at the fake. Says `ready` on stdout once
/// connected; stops (sending pending status edits) when its stdin closes.
async fn bot(proxy: String) {
    let db = std::env::var(DB_ENV).expect("the database path");
    let data = Arc::new(GameData::embedded().expect("data"));
    let (store, _) =
        tokio::task::spawn_blocking(move || Store::open(db, data, StoreOptions::default()))
            .await
            .expect("join")
            .expect("store");
    let store = Arc::new(store);
    let config: skymines::config::Config =
        toml::from_str("discord_token = \"fake-token\"\nrate_limit_commands = 0").expect("config");
    let chat = Arc::new(Chat::new(
        store.clone(),
        Arc::new(SystemClock),
        config.chat_config(),
    ));
    let mut settings = BotSettings::from_config(&config);
    settings.api_proxy = Some(proxy);
    let running = discord::start(settings, store, chat).await.expect("bot");
    while !running.is_ready() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!("ready");
    let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_to_end(&mut Vec::new())).await;
    running.stop().await.expect("stop");
}

/// The active games in the database (read beside the running bot): channel → the game's last
/// sequence number (the version of its state).
fn active_games(db: &std::path::Path) -> BTreeMap<u64, u64> {
    let conn = assert_accepted(
        "opening the database",
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY),
    );
    let mut stmt = assert_accepted(
        "reading the games",
        conn.prepare("SELECT channel, last_seq FROM games WHERE status = 'active'"),
    );
    let rows = assert_accepted(
        "reading the games",
        stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
        }),
    );
    assert_accepted("reading the games", rows.collect())
}

/// The newest message only `user` sees that offers a decision of `kind` (e.g. `plan_card`);
/// returns it with that button's custom id.
fn offer(fake: &Fake, user: u64, kind: &str) -> Option<(discord_support::Msg, String)> {
    let wanted = format!("\"d\":\"{kind}\"");
    fake.messages()
        .into_iter()
        .filter(|m| m.viewer == Some(user))
        .filter_map(|m| {
            let id = m
                .buttons
                .iter()
                .find(|(id, _)| id.starts_with("d:") && id.contains(&wanted))?
                .0
                .clone();
            Some((m, id))
        })
        .max_by_key(|(m, _)| m.changed)
}

/// Opens, starts, plays (one plan card, through the buttons of the bot's own prompt) and
/// renders (status, hand) the games `range`, one player and Luna each; fails unless every
/// game is active and every card chosen was stored as a move.
async fn open_games(fake: &Fake, db: &std::path::Path, range: std::ops::Range<u64>) {
    for g in range.clone() {
        let (user, channel) = (USER0 + g, CHANNEL0 + g);
        fake.name_user(user, &format!("Player{g}"));
        fake.slash(
            user,
            channel,
            false,
            &["skymines", "new"],
            &[("players", json!(1)), ("luna", json!("2"))],
        );
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    // Every lobby open before any start (interactions run concurrently: a start overtaking
    // its game's `new` would be refused).
    fake.settle(Duration::from_millis(1000), Duration::from_secs(60))
        .await;
    for g in range.clone() {
        fake.slash(USER0 + g, CHANNEL0 + g, false, &["skymines", "start"], &[]);
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    fake.settle(Duration::from_millis(1000), Duration::from_secs(60))
        .await;
    let before = wait_for_games(db, "started", range.clone(), |_, _| true).await;
    for g in range.clone() {
        fake.slash(USER0 + g, CHANNEL0 + g, false, &["plan"], &[]);
    }
    fake.settle(Duration::from_millis(1000), Duration::from_secs(60))
        .await;
    for g in range.clone() {
        let user = USER0 + g;
        let Some((msg, id)) = offer(fake, user, "plan_card") else {
            fail(&format!("game {g}"), "no plan card offered after /plan");
        };
        fake.click(user, &msg, &id);
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    for g in range.clone() {
        let (user, channel) = (USER0 + g, CHANNEL0 + g);
        fake.slash(user, channel, false, &["skymines", "status"], &[]);
        fake.slash(user, channel, false, &["hand"], &[]);
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    fake.settle(Duration::from_millis(1500), Duration::from_secs(60))
        .await;
    wait_for_games(db, "moved by the plan card click", range, |channel, seq| {
        before.get(&channel).is_some_and(|b| seq > *b)
    })
    .await;
}

/// Waits (a loaded machine may take a while) until every game of `range` is active and
/// `done(channel, sequence number)`; fails naming the first game that is not. Returns the
/// active games.
async fn wait_for_games(
    db: &std::path::Path,
    what: &str,
    range: std::ops::Range<u64>,
    done: impl Fn(u64, u64) -> bool,
) -> BTreeMap<u64, u64> {
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    loop {
        let games = active_games(db);
        let missing = range.clone().find(|g| {
            !games
                .get(&(CHANNEL0 + g))
                .is_some_and(|seq| done(CHANNEL0 + g, *seq))
        });
        match missing {
            None => return games,
            Some(g) if std::time::Instant::now() > deadline => fail(
                &format!("game {g}"),
                format!("not {what} (active games: {})", games.len()),
            ),
            Some(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

async fn bench() {
    let games = size(100u64, 10);
    let interactions = size(1000usize, 100);
    println!("discord benchmark ({})", support::mode());
    let dir = std::env::temp_dir().join(format!("skymines-discord-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("bench.db");
    let fake = Fake::start().await;
    let mut child = std::process::Command::new(std::env::current_exe().expect("this executable"))
        .env(BOT_ENV, fake.proxy_url())
        .env(DB_ENV, &db)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the bot");
    let pid = child.id();
    let stdout = child.stdout.take().expect("the bot's stdout");
    tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        assert_eq!(line.trim(), "ready", "the bot did not start");
    })
    .await
    .expect("join");
    fake.wait_identified(1, Duration::from_secs(20)).await;
    fake.settle(Duration::from_millis(300), Duration::from_secs(10))
        .await;
    let idle = rss_kib(pid);

    // 100 active games, each opened, started, played (one plan card chosen through the bot's
    // buttons) and rendered (the status board, the private hand image); measured at half way
    // too, so that the cost of one more game shows apart from the one-time costs of the first
    // games (the renderer's fonts and glyphs, its image cache, SQLite's page cache).
    open_games(&fake, &db, 0..games / 2).await;
    let half = rss_kib(pid);
    open_games(&fake, &db, games / 2..games).await;
    let live = active_games(&db).len() as u64;
    if live != games {
        fail(
            "opening the games",
            format!("{live} of {games} games active"),
        );
    }
    let with_games = rss_kib(pid);

    // A stream of interactions over the games: scores, status, the hand, and the Plan button.
    let mut tokens = Vec::with_capacity(interactions);
    for i in 0..interactions {
        let g = (i as u64 * 37) % games;
        let (user, channel) = (USER0 + g, CHANNEL0 + g);
        let token = match i % 4 {
            0 => fake.slash(user, channel, false, &["skymines", "scores"], &[]),
            1 => fake.slash(user, channel, false, &["hand"], &[]),
            2 => fake.slash(user, channel, false, &["skymines", "status"], &[]),
            _ => {
                let ping = fake.messages().into_iter().find_map(|m| {
                    let id = m
                        .buttons
                        .iter()
                        .find(|(id, _)| id.starts_with("o:"))?
                        .0
                        .clone();
                    (m.channel == channel).then_some((m, id))
                });
                match ping {
                    Some((ping, id)) => fake.click(user, &ping, &id),
                    None => fake.slash(user, channel, false, &["skymines", "scores"], &[]),
                }
            }
        };
        tokens.push(token);
        tokio::time::sleep(Duration::from_millis(8)).await;
    }
    fake.settle(Duration::from_millis(1000), Duration::from_secs(120))
        .await;
    // Every interaction acknowledged, and not answered (in its callback or a follow-up, both
    // addressed by its token) with the rate limit's refusal.
    let refusal = skymines::text::english().t("error.rate_limited");
    let refusals: Vec<String> = fake
        .requests()
        .into_iter()
        .filter(|r| r.json.to_string().contains(&refusal))
        .map(|r| r.path)
        .collect();
    let mut latencies = Samples::new("acknowledged interactions");
    for t in &tokens {
        let accepted = if refusals.iter().any(|path| path.contains(t.as_str())) {
            Err(format!("interaction {t} was refused: {refusal}"))
        } else {
            Ok(())
        };
        match (fake.ack_of(t), fake.sent_at(t)) {
            (Some(ack), Some(sent)) => latencies.keep(ack - sent, accepted),
            _ => fail("an interaction", format!("{t} was never acknowledged")),
        }
    }
    let after = rss_kib(pid);
    drop(child.stdin.take());
    let _ = tokio::task::spawn_blocking(move || child.wait()).await;
    fake.stop();
    let _ = std::fs::remove_dir_all(&dir);

    let mib = |kib: u64| kib as f64 / 1024.0;
    let average = with_games.saturating_sub(idle) as f64 / live.max(1) as f64;
    let marginal = with_games.saturating_sub(half) as f64 / (games - games / 2) as f64;
    let budget = 50 * 1024 + 100 * live;
    println!(
        "discord adapter against the fake Discord ({live} active games, each played through the bot's buttons and rendered)"
    );
    println!(
        "bot memory (RSS): idle {:.1} MiB (budget 50), with {} games {:.1} MiB, with {live} games {:.1} MiB (budget 50 MiB + 100 KiB a game = {:.1} MiB: {}), after {interactions} interactions {:.1} MiB",
        mib(idle),
        games / 2,
        mib(half),
        mib(with_games),
        mib(budget),
        if with_games <= budget { "met" } else { "MISSED" },
        mib(after)
    );
    println!(
        "per active game: {marginal:.1} KiB for each of the last {} games (budget 100), {average:.1} KiB on average over all {live} including the first games' one-time costs",
        games - games / 2
    );
    println!(
        "acknowledgement latency over {} interactions: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms (budget 50), max {:.2} ms",
        latencies.kept(),
        support::ms(latencies.percentile(0.50)),
        support::ms(latencies.percentile(0.90)),
        support::ms(latencies.percentile(0.99)),
        support::ms(latencies.percentile(1.0)),
    );
    latencies.finish(interactions);
}
