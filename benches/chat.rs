//! Chat layer speed: command → replies ready (engine + store + render), with 100 active games.
//! Each sample is one `/choose option:N` (a button click typed) in a random game, with the
//! board image rendered for the status. Run with `cargo bench --bench chat`.

use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, Chat, ChatConfig, Input, Request, SystemClock, User};
use skymines::data::GameData;
use skymines::store::{Location, Store, StoreOptions};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

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

fn main() {
    let dir = std::env::temp_dir().join(format!("skymines-chat-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = Arc::new(GameData::embedded().expect("data"));
    let (store, _) =
        Store::open(dir.join("bench.db"), data, StoreOptions::default()).expect("store");
    let chat = Chat::new(
        Arc::new(store),
        Arc::new(SystemClock),
        ChatConfig::default(),
    );
    let games = 100u64;
    for g in 0..games {
        let ch = 1000 + g;
        chat.handle(&request(
            ch,
            "alice",
            "skymines new",
            &[("players", "2".into()), ("seed", g.to_string())],
        ));
        chat.handle(&request(ch, "bob", "skymines join", &[]));
        chat.handle(&request(ch, "alice", "skymines start", &[]));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut samples = Vec::new();
    for _ in 0..1500 {
        let ch = 1000 + rng.gen_range(0..games);
        let place = Location {
            guild: None,
            channel: ch,
        };
        let waiting = chat.waiting_users(&place);
        let Some(&user) = waiting.first() else {
            continue;
        };
        let name = if user == local_user_id("alice") {
            "alice"
        } else {
            "bob"
        };
        let n = chat.pending_choices(&place, user).len();
        if n == 0 {
            continue;
        }
        let pick = rng.gen_range(1..=n);
        let started = Instant::now();
        let replies = chat.handle(&request(
            ch,
            name,
            "choose",
            &[("option", pick.to_string())],
        ));
        samples.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(!replies.is_empty());
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let q = |p: f64| samples[((samples.len() as f64 - 1.0) * p) as usize];
    println!(
        "command -> replies ready with {games} active games ({} samples, images on): median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        samples.len(),
        q(0.5),
        q(0.99),
        q(1.0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
