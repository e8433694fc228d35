//! The Discord adapter's figures against the fake Discord on loopback (tests/discord_support):
//! - memory: resident set size once the bot is connected with no game (idle), then per
//!   active game after 100 games (one player and Luna each) were opened, started and looked at
//!   through the bot; budgets: idle under 50 MiB, under 100 KiB per active game;
//! - acknowledgement latency: from the INTERACTION_CREATE the fake sends to the interaction
//!   callback it receives, over a stream of commands and clicks spread over the 100 games;
//!   budget: p99 under 50 ms.
//!
//! `cargo bench --bench discord` (the process's RSS includes the fake, which is small).

#[path = "../tests/discord_support/mod.rs"]
mod discord_support;

use discord_support::Fake;
use serde_json::json;
use skymines::chat::{Chat, ChatConfig, SystemClock};
use skymines::data::GameData;
use skymines::discord::{self, BotSettings};
use skymines::store::{Store, StoreOptions};
use std::sync::Arc;
use std::time::Duration;

const GAMES: u64 = 100;
const INTERACTIONS: usize = 1000;
const CHANNEL0: u64 = 300_000_000_000_000_000;
const USER0: u64 = 400_000_000_000_000_000;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(bench());
}

async fn bench() {
    let dir = std::env::temp_dir().join(format!("skymines-discord-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("bench.db");
    let fake = Fake::start().await;
    let data = Arc::new(GameData::embedded().expect("data"));
    let path = db.clone();
    let (store, _) =
        tokio::task::spawn_blocking(move || Store::open(path, data, StoreOptions::default()))
            .await
            .expect("join")
            .expect("store");
    let store = Arc::new(store);
    let chat = Arc::new(Chat::new(
        store.clone(),
        Arc::new(SystemClock),
        ChatConfig {
            rate_limit: 0,
            ..ChatConfig::default()
        },
    ));
    let config: skymines::config::Config =
        toml::from_str("discord_token = \"fake-token\"").expect("config");
    let mut settings = BotSettings::from_config(&config);
    settings.api_proxy = Some(fake.proxy_url());
    let running = discord::start(settings, store.clone(), chat.clone())
        .await
        .expect("bot");
    fake.wait_identified(1, Duration::from_secs(20)).await;
    while !running.is_ready() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    fake.settle(Duration::from_millis(300), Duration::from_secs(10))
        .await;
    let idle = rss_kib();

    // 100 active games, each opened and started through the bot.
    for g in 0..GAMES {
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
        fake.slash(user, channel, false, &["skymines", "start"], &[]);
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    fake.settle(Duration::from_millis(1500), Duration::from_secs(60))
        .await;
    let live = store.live_games().len();
    let with_games = rss_kib();

    // A stream of interactions over the games: scores, status, the hand, and the Plan button.
    let mut tokens = Vec::with_capacity(INTERACTIONS);
    for i in 0..INTERACTIONS {
        let g = (i as u64 * 37) % GAMES;
        let (user, channel) = (USER0 + g, CHANNEL0 + g);
        let token = match i % 4 {
            0 => fake.slash(user, channel, false, &["skymines", "scores"], &[]),
            1 => fake.slash(user, channel, false, &["hand"], &[]),
            2 => fake.slash(user, channel, false, &["skymines", "status"], &[]),
            _ => {
                let game = store
                    .game_in_channel(channel)
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                match fake.messages().into_iter().find(|m| {
                    m.channel == channel && m.buttons.iter().any(|(id, _)| id.starts_with("o:"))
                }) {
                    Some(ping) => fake.click(user, &ping, &format!("o:{game}")),
                    None => fake.slash(user, channel, false, &["skymines", "scores"], &[]),
                }
            }
        };
        tokens.push(token);
        tokio::time::sleep(Duration::from_millis(8)).await;
    }
    fake.settle(Duration::from_millis(1000), Duration::from_secs(120))
        .await;
    let mut latencies: Vec<Duration> = tokens
        .iter()
        .filter_map(|t| Some(fake.ack_of(t)? - fake.sent_at(t)?))
        .collect();
    let missing = tokens.len() - latencies.len();
    latencies.sort();
    let after = rss_kib();
    running.stop().await.expect("stop");
    fake.stop();
    let _ = std::fs::remove_dir_all(&dir);

    let per_game = with_games.saturating_sub(idle) as f64 / live.max(1) as f64;
    println!("discord adapter against the fake Discord ({live} active games)");
    println!(
        "memory: idle {:.1} MiB (budget 50), with {live} games {:.1} MiB, {:.1} KiB per active game (budget 100), after {INTERACTIONS} interactions {:.1} MiB",
        idle as f64 / 1024.0,
        with_games as f64 / 1024.0,
        per_game,
        after as f64 / 1024.0
    );
    println!(
        "acknowledgement latency over {} interactions ({missing} unanswered): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms (budget 50), max {:.2} ms",
        latencies.len(),
        percentile(&latencies, 0.50).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.90).as_secs_f64() * 1000.0,
        percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
    );
}
