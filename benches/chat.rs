//! Chat layer speed: command → replies ready (engine + store + render), with 100 active
//! 2-player games, each played by its own two users. Each sample is one `/choose option:N` (a
//! button click typed) by the player a random game waits on, with the board image rendered for
//! the status; it is kept only if the move was accepted (the game's state version, its log
//! sequence number, advanced), otherwise the benchmark fails. The rate limit is off
//! (`rate_limit_commands = 0`): the benchmark types faster than people do.
//! Goal: p99 under 200 ms. `cargo bench --bench chat` (`BENCH_QUICK=1`: 10 games, 100 commands).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, Chat, ChatConfig, Input, Request, SystemClock, User};
use skymines::data::GameData;
use skymines::store::{Location, Store, StoreOptions};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;
use support::{assert_accepted, fail, ms, size, Samples};

fn request(channel: u64, name: &str, command: &str, options: &[(&str, String)]) -> Request {
    Request {
        place: Location {
            guild: None,
            channel,
        },
        user: User {
            id: local_user_id(name),
            name: name.to_string(),
            moderator: false,
            owner: true,
        },
        input: Input::Command {
            name: command.to_string(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<BTreeMap<_, _>>(),
        },
        in_dm: false,
    }
}

/// The chat settings of the benchmark: config.toml's defaults with the rate limit off.
pub fn bench_config() -> ChatConfig {
    let config = skymines::config::Config {
        rate_limit_commands: 0,
        ..skymines::config::Config::default()
    };
    config.chat_config()
}

/// Opens `games` games (game `g` in channel `1000 + g`, played by `g{g}-a` and `g{g}-b`), then
/// times `commands` `/choose` commands in random games; `dir` holds the database.
pub fn measure(dir: &std::path::Path, config: ChatConfig, games: u64, commands: usize) -> Samples {
    let data = Arc::new(assert_accepted("the built-in data", GameData::embedded()));
    let (store, _) = assert_accepted(
        "opening the store",
        Store::open(dir.join("bench.db"), data, StoreOptions::default()),
    );
    let store = Arc::new(store);
    let chat = Chat::new(store.clone(), Arc::new(SystemClock), config);
    let mut names = HashMap::new();
    let mut ids = Vec::new();
    for g in 0..games {
        let ch = 1000 + g;
        let (a, b) = (format!("g{g}-a"), format!("g{g}-b"));
        chat.handle(&request(
            ch,
            &a,
            "skymines new",
            &[("players", "2".into()), ("seed", g.to_string())],
        ));
        chat.handle(&request(ch, &b, "skymines join", &[]));
        let replies = chat.handle(&request(ch, &a, "skymines start", &[]));
        let Ok(Some(id)) = store.games().game_in_channel(ch) else {
            let said: Vec<&str> = replies.iter().map(|r| r.text.as_str()).collect();
            fail(&format!("starting game {g}"), said.join(" | "));
        };
        ids.push(id);
        for name in [a, b] {
            names.insert(local_user_id(&name), name);
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut samples = Samples::new("/choose commands");
    for _ in 0..commands {
        let g = rng.gen_range(0..games);
        let (ch, id) = (1000 + g, ids[g as usize]);
        let place = Location {
            guild: None,
            channel: ch,
        };
        let Some(&user) = chat.waiting_users(&place).first() else {
            samples.skip("the game waits on nobody (finished)");
            continue;
        };
        let n = chat.pending_choices(&place, user).len();
        if n == 0 {
            samples.skip("no choice offered");
            continue;
        }
        let pick = rng.gen_range(1..=n);
        let before = assert_accepted("the game's record", store.games().game(id)).seq;
        let started = Instant::now();
        let replies = chat.handle(&request(
            ch,
            &names[&user],
            "choose",
            &[("option", pick.to_string())],
        ));
        let elapsed = started.elapsed();
        let after = assert_accepted("the game's record", store.games().game(id)).seq;
        let accepted = if after > before {
            Ok(())
        } else {
            let said: Vec<&str> = replies.iter().map(|r| r.text.as_str()).collect();
            Err(format!(
                "game {g} stayed at move {before}; the bot said: {}",
                said.join(" | ")
            ))
        };
        samples.keep(elapsed, accepted);
    }
    samples
}

fn main() {
    let games = size(100u64, 10);
    let commands = size(1500usize, 100);
    let dir = std::env::temp_dir().join(format!("skymines-chat-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_accepted("the temp folder", std::fs::create_dir_all(&dir));
    println!("chat benchmark ({})", support::mode());
    let samples = measure(&dir, bench_config(), games, commands);
    println!(
        "command -> replies ready with {games} active games (images on): median {:.1} ms, p99 {:.1} ms (goal < 200 ms), max {:.1} ms",
        ms(samples.percentile(0.5)),
        ms(samples.percentile(0.99)),
        ms(samples.percentile(1.0)),
    );
    let _ = std::fs::remove_dir_all(&dir);
    samples.finish(commands * 9 / 10);
}
