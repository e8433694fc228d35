//! The Discord adapter end to end: the real serenity/poise client against a fake Discord on
//! loopback (tests/discord/fake.rs). Two players and Luna play a full round and the start of
//! the next one — one player plans by DM, the other through the ephemeral planner — and the
//! test checks what the bot sent: ephemeral flags on private replies, PNG attachments, pings
//! whose allowed mentions name only their user, refusals for the wrong user, a refused DM
//! (50007) falling back to a mention with a button, stale buttons refused and stripped, the
//! coalesced and pinned status message, and command registration only when needed. Then the
//! bot is stopped mid-game and started again on the same database: the game and an old button
//! still work, the status message is edited in place.

use crate::fake as discord_support;
use crate::support::pg::PgTestDb;
use crate::support::{shared_data, TempDir};
use crate::waits::posts_about;
use crate::waits::{answered, at, current_prompt, eventually, message_when, message_where};
use crate::waits::{mentioned_first, newest_prompt, Fresh, WAIT};
use discord_support::{menu_max_values, Fake, Fault, Msg, Recorded, APP_ID, GUILD};
use serde_json::{json, Value};
use skymines::chat::{Chat, ChatConfig, ManualClock};
use skymines::discord::{self, BotSettings, Running};
use skymines::engine::{GameState, Phase};
use skymines::store::{GameId, Location, ShardFilter, Store, StoreOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

const ALICE: u64 = 100_000_000_000_000_001;
const BOB: u64 = 100_000_000_000_000_002;
const CAROL: u64 = 100_000_000_000_000_003;
const CHANNEL: u64 = 200_000_000_000_000_001;
/// A pause in which the fake hears nothing, before a check that nothing more was sent.
const QUIET: Duration = Duration::from_millis(150);

struct Bot {
    running: Running,
    store: Arc<Store>,
    chat: Arc<Chat>,
}

async fn start_bot(fake: &Fake, db: &Path, clock: Arc<ManualClock>) -> Bot {
    start_bot_with(fake, db, clock, |_| {}).await
}

/// [`start_bot`] with the settings changed by `change` first.
async fn start_bot_with(
    fake: &Fake,
    db: &Path,
    clock: Arc<ManualClock>,
    change: impl FnOnce(&mut BotSettings),
) -> Bot {
    let data = shared_data();
    let path = db.to_path_buf();
    let (store, _) =
        tokio::task::spawn_blocking(move || Store::open(path, data, StoreOptions::default()))
            .await
            .expect("join")
            .expect("store opens");
    start_bot_on(fake, Arc::new(store), "fake-token", clock, change).await
}

/// A bot on an opened store (either backend), sending with `token`.
async fn start_bot_on(
    fake: &Fake,
    store: Arc<Store>,
    token: &str,
    clock: Arc<ManualClock>,
    change: impl FnOnce(&mut BotSettings),
) -> Bot {
    let chat = Arc::new(sync(|| {
        Chat::new(
            store.clone(),
            clock,
            ChatConfig {
                images: true,
                // The scripted players click faster than people do.
                rate_limit: 0,
                ..ChatConfig::default()
            },
        )
    }));
    let config: skymines::config::Config = toml::from_str(&format!(
        "discord_token = \"{token}\"\nreminder_hours = 12.0"
    ))
    .expect("config");
    let mut settings = BotSettings::from_config(&config);
    settings.api_proxy = Some(fake.proxy_url());
    settings.tick_every = Duration::from_millis(250);
    settings.status_debounce = Duration::from_millis(400);
    change(&mut settings);
    let running = discord::start(settings, store.clone(), chat.clone())
        .await
        .expect("the bot starts");
    Bot {
        running,
        store,
        chat,
    }
}

/// Store work from the test's async body: the blocking PostgreSQL client runs its own runtime,
/// which must not start (nor be dropped) on an async worker thread.
fn sync<T>(f: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(f)
}

fn place() -> Location {
    Location {
        guild: Some(GUILD),
        channel: CHANNEL,
    }
}

/// The game running in `channel`, if any.
fn running(bot: &Bot, channel: u64) -> Option<GameId> {
    bot.store.games().game_in_channel(channel).expect("query")
}

fn game_of(bot: &Bot) -> GameId {
    running(bot, CHANNEL).expect("a game in the channel")
}

fn state(bot: &Bot) -> Arc<GameState> {
    bot.store.games().state(game_of(bot)).expect("state")
}

fn flags(r: &Recorded) -> u64 {
    r.json["flags"]
        .as_u64()
        .or_else(|| r.json["data"]["flags"].as_u64())
        .unwrap_or(0)
}

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x89, b'P', b'N', b'G'])
}

/// The callback of an interaction.
async fn callback(fake: &Fake, token: &str) -> Recorded {
    fake.wait_for("the interaction callback", WAIT, |r| {
        r.path.contains(token) && r.path.ends_with("/callback")
    })
    .await
}

/// The decision a choice's custom id carries (`d:game:version:{json}`; `n:game:version:n:{json}`).
fn decision(custom_id: &str) -> Option<Value> {
    let (parts, rest) = match custom_id.strip_prefix("n:") {
        Some(rest) => (4, rest),
        None => (3, custom_id.strip_prefix("d:")?),
    };
    serde_json::from_str(rest.splitn(parts, ':').nth(parts - 1)?).ok()
}

/// The kind of the decision a custom id carries ("" for other ids).
fn kind_of(custom_id: &str) -> String {
    decision(custom_id).map(|d| kind(&d)).unwrap_or_default()
}

/// How many cards `seat` has placed in its slots.
fn planned(state: &GameState, seat: usize) -> usize {
    state.seats[seat]
        .slots
        .iter()
        .filter(|s| s.is_some())
        .count()
}

/// The decision's kind, e.g. `plan_card`.
fn kind(d: &Value) -> String {
    d["d"].as_str().unwrap_or_default().to_string()
}

/// Which button the scripted player presses: plan two cards, then finish; in the action
/// phase drop out; otherwise the first choice.
fn pick(msg: &Msg, state: &GameState, seat: usize) -> String {
    if let Some((id, _)) = msg.buttons.iter().find(|(id, _)| id.starts_with("o:")) {
        return id.clone();
    }
    let decided: Vec<(String, String)> = msg
        .buttons
        .iter()
        .filter_map(|(id, _)| decision(id).map(|d| (id.clone(), kind(&d))))
        .collect();
    let planned = state.seats[seat]
        .slots
        .iter()
        .filter(|s| s.is_some())
        .count();
    let find = |k: &str| {
        decided
            .iter()
            .find(|(_, x)| x == k)
            .map(|(id, _)| id.clone())
    };
    if state.phase == Phase::Planning && planned < 2 {
        if let Some(id) = find("plan_card") {
            return id;
        }
    }
    for k in ["plan_done", "drop_out"] {
        if let Some(id) = find(k) {
            return id;
        }
    }
    decided
        .first()
        .map(|(id, _)| id.clone())
        .or_else(|| msg.buttons.first().map(|(id, _)| id.clone()))
        .expect("a prompt has buttons")
}

/// Plays by clicking the bot's buttons until `done` holds; returns the number of clicks.
async fn drive(fake: &Fake, bot: &Bot, done: impl Fn(&GameState) -> bool) -> usize {
    drive_at(fake, bot, place(), done).await
}

/// The display name the fake gives a test user.
fn name_of(user: u64) -> &'static str {
    match user {
        ALICE => "Alice",
        BOB => "Bob",
        CAROL => "Carol",
        _ => "Dave",
    }
}

/// [`drive`] for the game at `at`. Each click waits for its answer (the move is stored by
/// then), each prompt for the bot to have sent it; the last click's prompts too (a drive ends
/// where a phase changes, which asks everyone waited on anew).
async fn drive_at(
    fake: &Fake,
    bot: &Bot,
    at: Location,
    done: impl Fn(&GameState) -> bool,
) -> usize {
    let (mut clicks, mut clicked, mut mark) = (0, std::collections::HashMap::new(), 0);
    let game = sync(|| bot.store.games().game_in_channel(at.channel))
        .expect("query")
        .expect("a game in the channel");
    let state = |_: &Bot| sync(|| bot.store.games().state(game)).expect("state");
    loop {
        let st = state(bot);
        let waiting = sync(|| bot.chat.waiting_users(&at));
        if done(&st) {
            for user in waiting {
                let fresh = Fresh::new(clicked.get(&user).copied(), mark);
                current_prompt(fake, &bot.chat, &at, user, fresh).await;
            }
            return clicks;
        }
        assert!(clicks < 200, "the round does not end");
        assert!(!waiting.is_empty(), "nobody to wait for");
        let user = waiting[0];
        let seat = st
            .seats
            .iter()
            .position(|s| s.name == name_of(user))
            .expect("a seat");
        let fresh = Fresh::new(clicked.get(&user).copied(), 0);
        let msg = current_prompt(fake, &bot.chat, &at, user, fresh).await;
        let id = pick(&msg, &st, seat);
        eprintln!(
            "click {clicks}: round {} {:?} user {} msg {} [{}] -> {id}",
            st.round,
            st.phase,
            if user == ALICE { "alice" } else { "bob" },
            msg.id,
            msg.content.lines().last().unwrap_or("")
        );
        // The planning menu takes two cards in one pick when it allows several.
        let second = (st.phase == Phase::Planning
            && kind_of(&id) == "plan_card"
            && menu_max_values(&msg.rows, &id) >= 2)
            .then(|| {
                msg.buttons
                    .iter()
                    .map(|(other, _)| other)
                    .find(|other| **other != id && kind_of(other) == "plan_card")
                    .cloned()
            })
            .flatten();
        let planned_before = planned(&st, seat);
        let picked: Vec<&str> = std::iter::once(id.as_str())
            .chain(second.as_deref())
            .collect();
        mark = fake.request_count();
        clicked.insert(user, (msg.id, msg.changed));
        let token = fake.pick(user, &msg, &picked);
        answered(fake, &token).await;
        if picked.len() == 2 {
            assert_eq!(
                planned(&state(bot), seat),
                planned_before + 2,
                "two cards picked together are both planned"
            );
        }
        clicks += 1;
    }
}

fn requests_after(fake: &Fake, seq: usize) -> Vec<Recorded> {
    fake.requests()
        .into_iter()
        .filter(|r| r.seq > seq)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_players_and_luna_play_through_a_fake_discord_and_survive_a_restart() {
    // Only a guard against a hang: every step waits for what it needs, however slow.
    let outcome = tokio::time::timeout(Duration::from_secs(900), scenario()).await;
    assert!(outcome.is_ok(), "the scenario took too long");
}

async fn scenario() {
    let (_cleanup, db, fake, clock) = fresh().await;

    // ---- connect: identify, ready, one command registration
    let bot = start_bot(&fake, &db, clock.clone()).await;
    fake.wait_identified(1, WAIT).await;
    let put = fake
        .wait_for("command registration", WAIT, |r| {
            r.method == "PUT" && r.path == format!("/applications/{APP_ID}/commands")
        })
        .await;
    let names: Vec<&str> = put
        .json
        .as_array()
        .expect("a command list")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    for n in [
        "skymines",
        "hand",
        "plan",
        "resources",
        "energy",
        "research",
        "field",
        "bonus",
        "pass",
        "token",
        "tile",
        "undo",
        "choose",
    ] {
        assert!(names.contains(&n), "/{n} is registered");
    }
    let sk = put
        .json
        .as_array()
        .and_then(|l| l.iter().find(|c| c["name"] == "skymines"))
        .expect("/skymines");
    let subcommands: Vec<&str> = sk["options"]
        .as_array()
        .map(|l| l.iter().filter_map(|c| c["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(subcommands.len(), 18, "{subcommands:?}");
    for n in ["mygames", "board", "log", "settings", "admin", "campaign"] {
        assert!(subcommands.contains(&n), "/skymines {n} is registered");
    }
    let admin = sk["options"]
        .as_array()
        .and_then(|l| l.iter().find(|c| c["name"] == "admin"))
        .expect("/skymines admin");
    let tools: Vec<&str> = admin["options"]
        .as_array()
        .map(|l| l.iter().filter_map(|c| c["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(tools, ["list", "report", "rollback", "skip"]);

    // ---- the lobby: public answers; the wrong user is refused privately
    let t = fake.slash(
        ALICE,
        CHANNEL,
        false,
        &["skymines", "new"],
        &[("players", json!(2)), ("luna", json!("1"))],
    );
    let cb = callback(&fake, &t).await;
    assert_eq!(cb.json["type"], 5, "a command is deferred at once");
    assert_eq!(flags(&cb) & 64, 0, "the lobby is public");
    let lobby = message_where(&fake, "the lobby message with Join and Start", |m| {
        m.buttons.iter().any(|(id, _)| id == "l:join")
    })
    .await;
    assert!(lobby.viewer.is_none());

    let mark = fake.request_count();
    let t = fake.click(BOB, &lobby, "l:start");
    assert_eq!(callback(&fake, &t).await.json["type"], 6);
    let refusal = fake
        .wait_for("the refusal of a non-host start", WAIT, |r| {
            r.seq > mark
                && r.method == "POST"
                && r.path.starts_with("/webhooks/")
                && r.path.contains(&t)
        })
        .await;
    assert_eq!(flags(&refusal) & 64, 64, "a refusal is ephemeral");

    let t = fake.click(BOB, &lobby, "l:join");
    callback(&fake, &t).await;
    message_when(
        &fake,
        "the lobby edited in place, with Bob",
        lobby.id,
        |m| m.content.contains("Bob"),
    )
    .await;

    let mark = fake.request_count();
    let t = fake.slash(ALICE, CHANNEL, false, &["skymines", "start"], &[]);
    callback(&fake, &t).await;
    // The status message: a channel message with the board PNG, pinned.
    let status_post = fake
        .wait_for("the status message", WAIT, |r| {
            r.seq > mark && r.method == "POST" && r.path == format!("/channels/{CHANNEL}/messages")
        })
        .await;
    assert!(
        status_post.files.iter().any(|(_, b)| is_png(b)),
        "the status carries the board image"
    );
    let status_id = message_where(&fake, "the pinned status message", |m| m.pinned)
        .await
        .id;
    // Planning starts with one message that pings both players, and only them.
    let pings = eventually("the pings of both players", || {
        let pings: Vec<Recorded> = requests_after(&fake, mark)
            .into_iter()
            .filter(|r| {
                r.json["content"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("<@"))
            })
            .collect();
        let pinged: Vec<String> = pings
            .iter()
            .flat_map(|p| mentioned_first(p.json["content"].as_str().unwrap_or("")))
            .collect();
        [ALICE, BOB]
            .iter()
            .all(|u| pinged.contains(&u.to_string()))
            .then_some(pings)
    })
    .await;
    // Pings mention only their user.
    for p in &pings {
        let users = mentioned_first(p.json["content"].as_str().unwrap_or(""));
        assert_eq!(p.json["allowed_mentions"]["parse"], json!([]));
        assert_eq!(p.json["allowed_mentions"]["users"], json!(users));
    }
    let game = game_of(&bot);
    assert_eq!(state(&bot).phase, Phase::Planning);

    // ---- private commands are ephemeral; /hand carries the private player image
    let t = fake.slash(ALICE, CHANNEL, false, &["hand"], &[]);
    assert_eq!(
        flags(&callback(&fake, &t).await) & 64,
        64,
        "/hand is ephemeral"
    );
    let hand = fake
        .wait_for("the hand", WAIT, |r| {
            r.method == "PATCH" && r.path.contains(&t) && r.path.ends_with("@original")
        })
        .await;
    assert!(hand
        .files
        .iter()
        .any(|(n, b)| n.contains("private") && is_png(b)));

    let t = fake.slash(
        BOB,
        CHANNEL,
        false,
        &["skymines", "settings"],
        &[("notify", json!("dm"))],
    );
    assert_eq!(flags(&callback(&fake, &t).await) & 64, 64);
    answered(&fake, &t).await;

    // Autocomplete: Alice's hand, from memory.
    let t = fake.autocomplete(ALICE, CHANNEL, &["plan"], "cards", "");
    let ac = callback(&fake, &t).await;
    assert_eq!(ac.json["type"], 8);
    let choices = ac.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!choices.is_empty(), "the hand is suggested: {}", ac.json);
    let t = fake.autocomplete(ALICE, CHANNEL, &["energy"], "company", "");
    assert_eq!(callback(&fake, &t).await.json["type"], 8);

    // A non-player clicks Alice's Plan button: refused privately.
    let ping = newest_prompt(&fake, ALICE).expect("Alice's ping");
    let mark = fake.request_count();
    let t = fake.click(CAROL, &ping, &format!("o:{game}"));
    callback(&fake, &t).await;
    let refusal = fake
        .wait_for("the refusal of a non-player", WAIT, |r| {
            r.seq > mark
                && r.path.starts_with("/webhooks/")
                && r.path.contains(&t)
                && r.method == "POST"
        })
        .await;
    assert_eq!(flags(&refusal) & 64, 64);
    assert!(refusal.json["content"]
        .as_str()
        .is_some_and(|c| c.contains("not playing")));

    // ---- round 1: Bob plans inside his DM, Alice through the ephemeral planner
    let bob_dm = fake.open_dm(BOB);
    let fresh = Fresh::new(None, fake.request_count());
    let t = fake.slash(BOB, bob_dm, true, &["plan"], &[]);
    let cb = callback(&fake, &t).await;
    assert_eq!(flags(&cb) & 64, 0, "a DM answer needs no ephemeral flag");
    let dm_prompt = current_prompt(&fake, &bot.chat, &place(), BOB, fresh).await;
    assert_eq!(dm_prompt.channel, bob_dm, "the planner answers in the DM");
    let first_prompt_copy = dm_prompt.clone();

    // /skymines mygames answers in the DM with Bob's game in the server's channel.
    let mark = fake.request_count();
    let t = fake.slash(BOB, bob_dm, true, &["skymines", "mygames"], &[]);
    callback(&fake, &t).await;
    answered(&fake, &t).await;
    let said: String = requests_after(&fake, mark)
        .iter()
        .filter(|r| r.path.contains(&t))
        .map(|r| r.json.to_string())
        .collect();
    assert!(
        said.contains(&format!("<#{CHANNEL}>")),
        "the list links the game's channel: {said}"
    );
    // A spectator asks for a seat's public board by name: a public board image.
    let mark = fake.request_count();
    let t = fake.slash(
        CAROL,
        CHANNEL,
        false,
        &["skymines", "board"],
        &[("seat", json!("bob"))],
    );
    callback(&fake, &t).await;
    fake.wait_for("Bob's public board", WAIT, |r| {
        r.seq > mark
            && r.files
                .iter()
                .any(|(n, b)| n.contains("player") && is_png(b))
    })
    .await;

    // Alice asks for DMs too, but her DMs are closed: the bot must fall back.
    fake.refuse_dms(ALICE);
    let t = fake.slash(
        ALICE,
        CHANNEL,
        false,
        &["skymines", "settings"],
        &[("notify", json!("dm"))],
    );
    callback(&fake, &t).await;
    answered(&fake, &t).await;

    let moves_mark = fake.request_count();
    let clicks = drive(&fake, &bot, |s| s.round >= 2 && s.phase == Phase::Planning).await;
    assert!(clicks >= 6, "a round takes several clicks ({clicks})");
    // The status edits are debounced: the round's moves make at least one, after their answers.
    let status_path = format!("/channels/{CHANNEL}/messages/{status_id}");
    fake.wait_for("the status edited in place", WAIT, |r| {
        r.seq > moves_mark && r.method == "PATCH" && r.path == status_path
    })
    .await;
    let after_round = requests_after(&fake, moves_mark);
    // Long lists were select menus: picked through them, within Discord's limits, with the
    // options' descriptions.
    assert!(
        fake.selects.load(std::sync::atomic::Ordering::SeqCst) > 0,
        "a choice was picked from a select menu"
    );
    let mut described = 0;
    for r in &after_round {
        let rows = r.json["components"].as_array().cloned().unwrap_or_default();
        assert!(rows.len() <= 5, "at most five rows: {}", r.json);
        for row in &rows {
            for c in row["components"].as_array().into_iter().flatten() {
                assert!(c["custom_id"].as_str().is_some_and(|id| id.len() <= 100));
                if c["type"] == 3 {
                    let options = c["options"].as_array().expect("options");
                    assert!(!options.is_empty() && options.len() <= 25);
                    let max = c["max_values"].as_u64().unwrap_or(1) as usize;
                    assert!(max >= 1 && max <= options.len(), "{c}");
                    assert!(c["placeholder"]
                        .as_str()
                        .is_none_or(|p| p.chars().count() <= 150));
                    for o in options {
                        assert!(o["label"]
                            .as_str()
                            .is_some_and(|l| l.chars().count() <= 100));
                        assert!(o["value"].as_str().is_some_and(|v| v.len() <= 100));
                        if let Some(d) = o["description"].as_str() {
                            assert!(d.chars().count() <= 100, "{d}");
                            described += 1;
                        }
                    }
                } else {
                    assert!(c["label"].as_str().is_some_and(|l| l.chars().count() <= 80));
                }
            }
        }
    }
    assert!(described > 0, "select options carry descriptions");
    assert!(
        fake.multi_selects.load(std::sync::atomic::Ordering::SeqCst) > 0,
        "a round was planned through the multi-select of the hand"
    );
    eprintln!(
        "a played round: {} requests for {clicks} clicks ({:.2} per click)",
        after_round.len(),
        after_round.len() as f64 / clicks as f64
    );
    assert!(
        after_round.len() as f64 <= 2.5 * clicks as f64,
        "at most 2.5 requests a click over a played round: {} for {clicks}",
        after_round.len()
    );
    // Every prompt shown in the guild channel is ephemeral; prompts elsewhere are Bob's DMs.
    for m in fake.messages() {
        if m.buttons.iter().any(|(id, _)| id.starts_with("d:")) {
            if m.channel == CHANNEL {
                assert!(
                    m.ephemeral,
                    "a prompt in the channel is ephemeral: {}",
                    m.content
                );
            } else {
                assert_eq!(m.channel, bob_dm);
            }
        }
    }
    // The status message was edited in place, coalesced, with the image.
    let edits: Vec<&Recorded> = after_round
        .iter()
        .filter(|r| r.method == "PATCH" && r.path == status_path)
        .collect();
    assert!(!edits.is_empty(), "the status is edited in place");
    assert!(
        edits.len() < clicks,
        "a burst of moves makes one edit ({} edits for {clicks} clicks)",
        edits.len()
    );
    assert!(edits.iter().all(|r| r.files.iter().any(|(_, b)| is_png(b))));
    // Bob's turns and planners came to his DM; pushed ones name the game.
    assert!(
        fake.requests().iter().any(|r| r.method == "POST"
            && r.path == format!("/channels/{bob_dm}/messages")
            && r.json["content"]
                .as_str()
                .is_some_and(|c| c.contains(&format!("#{game}")))
            && {
                let rows = r.json["components"].to_string();
                rows.contains("\"custom_id\":\"d:") || rows.contains("\"value\":\"d:")
            }),
        "a planner or turn prompt was pushed into Bob's DM"
    );
    let pushed = fake
        .messages()
        .into_iter()
        .filter(|m| m.channel == bob_dm && m.buttons.iter().any(|(id, _)| id.starts_with("d:")))
        .max_by_key(|m| m.changed)
        .expect("Bob's current DM planner");
    // Alice's refused DM fell back to a mention with a button in the channel.
    let fallback = fake
        .messages()
        .into_iter()
        .find(|m| {
            m.channel == CHANNEL
                && m.content.starts_with(&format!("<@{ALICE}>"))
                && m.content.contains("direct messages")
        })
        .expect("the DM fallback in the channel");
    assert!(fallback
        .buttons
        .iter()
        .any(|(id, _)| id == &format!("o:{game}")));
    let fallback_request = fake
        .requests()
        .into_iter()
        .find(|r| {
            r.json["content"]
                .as_str()
                .is_some_and(|c| c.contains("direct messages"))
        })
        .expect("the fallback request");
    assert_eq!(
        fallback_request.json["allowed_mentions"]["users"],
        json!([ALICE.to_string()])
    );

    // A stale button (Bob's first planner, long answered) is refused and stripped.
    let mark = fake.request_count();
    let stale_id = first_prompt_copy
        .buttons
        .iter()
        .find(|(id, _)| id.starts_with("d:"))
        .map(|(id, _)| id.clone())
        .expect("a decision button");
    let t = fake.click(BOB, &first_prompt_copy, &stale_id);
    callback(&fake, &t).await;
    // Either the click's own response updates the message (type 7) or a later edit does.
    fake.wait_for("the stale message losing its buttons", WAIT, |r| {
        r.seq > mark
            && r.path.contains(&t)
            && ((r.method == "PATCH" && r.json["components"] == json!([]))
                || (r.path.ends_with("/callback")
                    && r.json["type"] == 7
                    && r.json["data"]["components"] == json!([])))
    })
    .await;
    fake.wait_for("the stale click refused privately", WAIT, |r| {
        r.seq > mark
            && r.method == "POST"
            && r.path.starts_with("/webhooks/")
            && r.path.contains(&t)
            && r.json["content"]
                .as_str()
                .is_some_and(|c| c.contains("out of date"))
    })
    .await;

    // ---- restart mid-game on the same database
    let flushes = bot.running.status_flushes();
    assert!(flushes >= 2);
    bot.running.stop().await.expect("the bot stops");
    drop(bot.chat);
    drop(bot.store);
    let mark = fake.request_count();
    let bot = start_bot(&fake, &db, clock.clone()).await;
    fake.wait_identified(2, WAIT).await;
    eventually("the restarted bot ready", || {
        bot.running.is_ready().then_some(())
    })
    .await;
    assert!(
        !requests_after(&fake, mark)
            .iter()
            .any(|r| r.method == "PUT" && r.path.ends_with("/commands")),
        "an unchanged command set is not registered again"
    );
    assert_eq!(game_of(&bot), game, "the game survived the restart");

    // Bob's pushed planner (sent before the restart) still works and is updated in place.
    let pushed = fake.message(pushed.id).expect("the pushed planner");
    let st = state(&bot);
    let bob_seat = st.seats.iter().position(|s| s.name == "Bob").expect("Bob");
    let id = pick(&pushed, &st, bob_seat);
    let t = fake.click(BOB, &pushed, &id);
    let cb = callback(&fake, &t).await;
    // In place: the click's own response (type 7) or an edit after an acknowledgement.
    let edit = if cb.json["type"] == 7 {
        cb.json["data"].clone()
    } else {
        fake.wait_for("the old planner answered in place", WAIT, |r| {
            r.method == "PATCH" && r.path.contains(&t)
        })
        .await
        .json
    };
    assert!(
        !edit["content"]
            .as_str()
            .unwrap_or("")
            .contains("out of date"),
        "an old but current button works after the restart"
    );

    // Alice opens her planner from the fallback button and both finish planning round 2.
    let t = fake.click(ALICE, &fallback, &format!("o:{game}"));
    answered(&fake, &t).await;
    let mark = fake.request_count();
    drive(&fake, &bot, |s| s.round >= 2 && s.phase != Phase::Planning).await;
    fake.wait_for(
        "the same status message edited after the restart",
        WAIT,
        |r| r.seq > mark && r.method == "PATCH" && r.path == status_path,
    )
    .await;
    let after = requests_after(&fake, mark);
    assert!(
        !after.iter().any(|r| r.method == "POST"
            && r.path == format!("/channels/{CHANNEL}/messages")
            && r.files.iter().any(|(n, _)| n.contains("board"))),
        "no second status message"
    );

    // Reminders: twelve hours later the timer pings whoever the game waits for (the due
    // times are in the store, so they survived the restart).
    let waited = bot.chat.waiting_users(&place());
    assert!(!waited.is_empty());
    let mark = fake.request_count();
    clock.advance(13 * 3_600_000);
    let reminder = fake
        .wait_for("a reminder ping", WAIT, |r| {
            r.seq > mark
                && r.json["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("waiting for you"))
        })
        .await;
    let pinged = reminder.json["allowed_mentions"]["users"].clone();
    assert!(
        waited.iter().any(|u| pinged == json!([u.to_string()])),
        "the reminder mentions only a waited-for player: {pinged}"
    );
    assert!(reminder.json["components"]
        .to_string()
        .contains(&format!("o:{game}")));

    // Every interaction was acknowledged well within Discord's 3 seconds.
    let slowest = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/callback"))
        .filter_map(|r| {
            let token = r.path.split('/').nth(3)?;
            Some(fake.ack_of(token)? - fake.sent_at(token)?)
        })
        .max()
        .unwrap_or_default();
    assert!(
        slowest < Duration::from_secs(3),
        "slowest acknowledgement {slowest:?}"
    );
    eprintln!("slowest acknowledgement: {slowest:?}");

    // The other commands too, so their answers are audited.
    for (path, options) in [
        (&["skymines", "help"][..], vec![]),
        (&["skymines", "help"][..], vec![("topic", json!("server"))]),
        (&["skymines", "status"][..], vec![]),
        (&["skymines", "scores"][..], vec![]),
        (&["skymines", "log"][..], vec![]),
        (&["skymines", "export"][..], vec![]),
        (&["skymines", "mygames"][..], vec![]),
        (&["skymines", "settings"][..], vec![]),
    ] {
        let t = fake.slash(ALICE, CHANNEL, false, path, &options);
        callback(&fake, &t).await;
        answered(&fake, &t).await;
    }
    // Every request of the whole flow, against Discord's documented limits (issue 20).
    let requests = fake.requests();
    let violations = audit(&requests);
    eprintln!("audited {} requests", requests.len());
    assert!(violations.is_empty(), "{}", violations.join("\n"));

    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn linked_slots_are_planned_through_one_menu_per_open_slot() {
    let outcome = tokio::time::timeout(Duration::from_secs(600), linked_slots_planning()).await;
    assert!(outcome.is_ok(), "the linked-slots planning took too long");
}

async fn linked_slots_planning() {
    let (_cleanup, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock).await;
    fake.wait_identified(1, WAIT).await;

    // A solo game against Luna with linked slots.
    let t = fake.slash(
        ALICE,
        CHANNEL,
        false,
        &["skymines", "new"],
        &[
            ("players", json!(1)),
            ("luna", json!("2")),
            ("linked_slots", json!(true)),
        ],
    );
    answered(&fake, &t).await;
    if running(&bot, CHANNEL).is_none() {
        let lobby = message_where(&fake, "the lobby's Start button", |m| {
            m.buttons.iter().any(|(id, _)| id == "l:start")
        })
        .await;
        let t = fake.click(ALICE, &lobby, "l:start");
        answered(&fake, &t).await;
    }
    // Setup choices (if any) by their first option, until planning.
    let (mut steps, mut fresh) = (0, Fresh::default());
    while state(&bot).phase != Phase::Planning {
        steps += 1;
        assert!(steps < 20, "planning does not start");
        let msg = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
        let id = msg.buttons[0].0.clone();
        fresh.clicked = Some((msg.id, msg.changed));
        let t = fake.click(ALICE, &msg, &id);
        answered(&fake, &t).await;
    }
    let st = state(&bot);
    assert!(st.options.linked_slots);
    let seat = st
        .seats
        .iter()
        .position(|s| s.name == "Alice")
        .expect("Alice");
    let open: Vec<usize> = (0..st.seats[seat].slots.len())
        .filter(|&i| st.seats[seat].slot_on[i] && st.seats[seat].slots[i].is_none())
        .collect();
    // Open the planner from the ping.
    let mut msg = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
    if let Some((id, _)) = msg.buttons.iter().find(|(id, _)| id.starts_with("o:")) {
        let id = id.clone();
        fresh.clicked = Some((msg.id, msg.changed));
        let t = fake.click(ALICE, &msg, &id);
        answered(&fake, &t).await;
        msg = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
    }
    // One single-pick menu per open slot, each offering only cards for that slot.
    let menus: Vec<Value> = msg
        .rows
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == 3)
        .collect();
    assert_eq!(menus.len(), open.len(), "{}", msg.rows);
    assert!(msg.rows.as_array().map_or(0, Vec::len) <= 5);
    for (menu, slot) in menus.iter().zip(&open) {
        assert_eq!(menu["max_values"].as_u64().unwrap_or(1), 1);
        for o in menu["options"].as_array().into_iter().flatten() {
            let value = o["value"].as_str().unwrap_or("");
            if let Some(d) = decision(value).filter(|d| kind(d) == "plan_card") {
                assert_eq!(d["slot"].as_u64(), Some(*slot as u64), "{menu}");
            }
        }
    }
    // Pick a card in the last open slot's menu: it lands in that slot.
    let last = *open.last().expect("an open slot");
    let value = menus
        .last()
        .and_then(|m| m["options"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|o| o["value"].as_str().map(str::to_string))
        .find(|v| kind_of(v) == "plan_card")
        .expect("a card for the last slot");
    let t = fake.pick(ALICE, &msg, &[value.as_str()]);
    answered(&fake, &t).await;
    let st = state(&bot);
    assert!(
        st.seats[seat].slots[last].is_some(),
        "the card is in slot {}",
        last + 1
    );
    assert_eq!(planned(&st, seat), 1);
}

// ---------------------------------------------------------------- hardening (issue 20)

const OTHER_CHANNEL: u64 = 200_000_000_000_000_002;
const FOREIGN_GUILD: u64 = 900_000_000_000_000_099;
const FOREIGN_CHANNEL: u64 = 200_000_000_000_000_003;

/// A fresh database directory, a fake Discord and a clock at the real time.
async fn fresh() -> (TempDir, PathBuf, Arc<Fake>, Arc<ManualClock>) {
    let dir = TempDir::new("discord");
    let db = dir.join("bot.db");
    let fake = Fake::start().await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    fake.name_user(ALICE, "Alice");
    fake.name_user(BOB, "Bob");
    fake.name_user(CAROL, "Carol");
    (dir, db, fake, Arc::new(ManualClock::new(now)))
}

/// Alice and Bob (and Luna) start a game in CHANNEL; returns once both are pinged to plan.
async fn started_game(fake: &Fake, bot: &Bot) -> GameId {
    started_game_in(fake, bot, CHANNEL, ALICE, BOB).await
}

/// `host` and `guest` (and Luna) start a game in `channel`; returns once both are pinged to
/// plan.
async fn started_game_in(fake: &Fake, bot: &Bot, channel: u64, host: u64, guest: u64) -> GameId {
    fake.wait_identified(1, WAIT).await;
    eventually("the bot ready", || bot.running.is_ready().then_some(())).await;
    let mark = fake.request_count();
    start_game_in(fake, channel, host, guest).await;
    let game = sync(|| bot.store.games().game_in_channel(channel))
        .expect("query")
        .expect("a game in the channel");
    assert_eq!(
        sync(|| bot.store.games().state(game)).expect("state").phase,
        Phase::Planning
    );
    for user in [host, guest] {
        let fresh = Fresh::new(None, mark);
        current_prompt(fake, &bot.chat, &at(channel), user, fresh).await;
    }
    game
}

/// Whether anyone but one user can see a message in `channel`.
fn public_in(fake: &Fake, channel: u64) -> Vec<Msg> {
    fake.messages()
        .into_iter()
        .filter(|m| m.channel == channel && m.viewer.is_none())
        .collect()
}

/// The follow-up that answered the interaction with this token (after `mark`).
async fn followup_of(fake: &Fake, token: &str, mark: usize) -> Recorded {
    fake.wait_for("the follow-up", WAIT, |r| {
        r.seq > mark && r.path.contains(token) && !r.path.ends_with("/callback")
    })
    .await
}

/// A message as if it had been shown in another channel (a forged or misplaced click).
fn moved_to(msg: &Msg, channel: u64) -> Msg {
    let mut m = msg.clone();
    m.channel = channel;
    m.object["channel_id"] = json!(channel.to_string());
    m
}

/// DECISIONS B13 (issue 20 point 1): a game's clicks and `/choose` work only in its channel
/// (or a DM planner's DM); from another channel of the server, another server, or the DM of
/// a player who does not plan by DM they are refused privately, change nothing, and nothing
/// public appears there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn game_traffic_stays_in_its_channel() {
    let (_dir, db, fake, clock) = fresh().await;
    fake.place_channel(FOREIGN_CHANNEL, FOREIGN_GUILD);
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;

    // Alice opens her planner where it belongs, so there is a real prompt to misuse.
    let ping = newest_prompt(&fake, ALICE).expect("Alice's ping");
    let t = fake.click(ALICE, &ping, &format!("o:{game}"));
    answered(&fake, &t).await;
    let fresh = Fresh::new(Some((ping.id, ping.changed)), 0);
    let prompt = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
    assert_eq!(prompt.channel, CHANNEL);
    let decide = prompt
        .buttons
        .iter()
        .find(|(id, _)| id.starts_with("d:"))
        .map(|(id, _)| id.clone())
        .expect("a decision button");
    let before = bot.store.games().state(game).expect("state");
    let bob_dm = fake.open_dm(BOB);

    for (channel, dm) in [
        (OTHER_CHANNEL, false),
        (FOREIGN_CHANNEL, false),
        (bob_dm, true),
    ] {
        let user = if dm { BOB } else { ALICE };
        let mut tokens = Vec::new();
        let mark = fake.request_count();
        for id in [format!("o:{game}"), decide.clone()] {
            tokens.push(fake.slash(user, channel, dm, &["choose"], &[("id", json!(id))]));
        }
        if !dm {
            tokens.push(fake.click(user, &moved_to(&prompt, channel), &decide));
            tokens.push(fake.click(user, &moved_to(&ping, channel), &format!("o:{game}")));
        }
        // Elsewhere in a server `/plan` finds no game; in a DM it finds Bob's, but he does
        // not plan by DM.
        let plan = fake.slash(user, channel, dm, &["plan"], &[]);
        for t in tokens.iter().chain([&plan]) {
            callback(&fake, t).await;
            let answer = followup_of(&fake, t, mark).await;
            let text = answer.json["content"].as_str().unwrap_or("").to_string();
            let why = if t == &plan && !dm {
                "no Skymines game"
            } else {
                "its own channel"
            };
            assert!(
                text.contains(why),
                "refused in {channel}: {text} {:?}",
                fake.requests()
                    .iter()
                    .filter(|r| r.path.contains(t.as_str()))
                    .map(|r| format!("{} {} {}", r.method, r.path, r.json))
                    .collect::<Vec<_>>()
            );
            assert!(
                dm || flags(&answer) & 64 == 64 || answer.method == "PATCH",
                "the refusal is private"
            );
        }
        // Every refusal has come; a pause before checking that nothing else did.
        fake.settle(QUIET, WAIT).await;
        assert!(
            public_in(&fake, channel).is_empty(),
            "nothing public in {channel}: {:?}",
            public_in(&fake, channel)
        );
        assert!(
            !fake.requests().iter().any(|r| r.seq > mark
                && r.method == "POST"
                && r.path == format!("/channels/{channel}/messages")),
            "no channel message in {channel}"
        );
    }
    let after = bot.store.games().state(game).expect("state");
    assert_eq!(*before, *after, "nothing changed");
    // In its own channel the same button still works.
    let t = fake.click(ALICE, &prompt, &decide);
    answered(&fake, &t).await;
    assert_ne!(*bot.store.games().state(game).expect("state"), *after);

    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

// ------------------------------------- issue 20 points 2–6 (closed DMs, deferrals, embeds, pins)

/// The public messages in CHANNEL that tell Alice her DMs are closed.
fn dm_notices(fake: &Fake) -> Vec<Msg> {
    public_in(fake, CHANNEL)
        .into_iter()
        .filter(|m| {
            m.content.starts_with(&format!("<@{ALICE}>")) && m.content.contains("direct messages")
        })
        .collect()
}

/// DECISIONS B14 (issue 20 point 2): a player who asks for DMs but has them closed costs one
/// refused DM and gets one notice over several turns, not one of each per turn; the refusal
/// is kept in the store; asking for DMs again tries them again (once).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn closed_dms_are_tried_once_until_asked_for_again() {
    let (_dir, db, fake, clock) = fresh().await;
    fake.refuse_dms(ALICE);
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;
    let ask_for_dms = || async {
        let t = fake.slash(
            ALICE,
            CHANNEL,
            false,
            &["skymines", "settings"],
            &[("notify", json!("dm"))],
        );
        answered(&fake, &t).await;
    };
    ask_for_dms().await;

    // A whole round and the next planning start: many prompts for Alice, one DM tried.
    let clicks = drive(&fake, &bot, |s| s.round >= 2 && s.phase == Phase::Planning).await;
    assert!(clicks >= 6, "several turns were played ({clicks} clicks)");
    eventually("the notice", || {
        (!dm_notices(&fake).is_empty()).then_some(())
    })
    .await;
    assert_eq!(fake.dm_attempts(ALICE), 1, "one refused DM over the round");
    let notices = dm_notices(&fake);
    assert_eq!(notices.len(), 1, "one notice: {notices:?}");
    assert!(notices[0]
        .buttons
        .iter()
        .any(|(id, _)| id == &format!("o:{game}")));
    let refused = bot.store.people().dm_refused_at(ALICE).expect("query");
    assert!(refused.is_some(), "the refusal is kept in the store");

    // Alice asks for DMs again: the next prompt tries one DM again (still refused: one more
    // notice), then none.
    ask_for_dms().await;
    let refused = bot.store.people().dm_refused_at(ALICE).expect("query");
    assert!(refused.is_none());
    drive(&fake, &bot, |s| s.round >= 2 && s.phase != Phase::Planning).await;
    eventually("a second notice", || {
        (dm_notices(&fake).len() > 1).then_some(())
    })
    .await;
    assert_eq!(fake.dm_attempts(ALICE), 2, "tried again once after asking");
    assert_eq!(dm_notices(&fake).len(), 2);

    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// The message a request creates or changes, if it carries one: the body of a channel message
/// or webhook call, the `data` of an interaction callback that answers with a message.
fn message_body(r: &Recorded) -> Option<&Value> {
    if r.path.ends_with("/callback") {
        return matches!(r.json["type"].as_u64(), Some(4 | 5 | 7)).then_some(&r.json["data"]);
    }
    let message = r.path.starts_with("/webhooks/")
        || (r.path.starts_with("/channels/") && r.path.contains("/messages"));
    (message && matches!(r.method.as_str(), "POST" | "PATCH")).then_some(&r.json)
}

/// Issue 20 point 4: a name with a link is defanged, and no message the bot sends (new,
/// edited, follow-up, deferral, the update of a clicked message) lets Discord preview a link:
/// every one carries the suppress-embeds flag (1 << 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_message_previews_a_link() {
    let (_dir, db, fake, clock) = fresh().await;
    fake.name_user(BOB, "Bob [win](https://evil.example/x)");
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;
    let ping = newest_prompt(&fake, ALICE).expect("Alice's ping");
    let t = fake.click(ALICE, &ping, &format!("o:{game}"));
    answered(&fake, &t).await;
    let fresh = Fresh::new(Some((ping.id, ping.changed)), 0);
    let prompt = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
    let st = state(&bot);
    let seat = st
        .seats
        .iter()
        .position(|s| s.name == "Alice")
        .expect("Alice");
    let t = fake.click(ALICE, &prompt, &pick(&prompt, &st, seat));
    answered(&fake, &t).await;
    let t = fake.slash(BOB, CHANNEL, false, &["skymines", "status"], &[]);
    answered(&fake, &t).await;

    let mut carried = 0;
    for r in fake.requests() {
        let Some((body, content)) =
            message_body(&r).and_then(|b| Some((b, b["content"].as_str()?)))
        else {
            continue;
        };
        assert!(!content.contains("https://"), "a live link: {content}");
        if content.contains("Bob") {
            carried += 1;
        }
        assert_eq!(
            body["flags"].as_u64().unwrap_or(0) & 4,
            4,
            "{} {} lets Discord preview links: {body}",
            r.method,
            r.path
        );
    }
    assert!(carried > 0, "Bob's name was shown");
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Issue 20 point 3: after a deferral whose edit or deletion fails, Discord would turn the next
/// follow-up into the deferred message (with the deferral's visibility). With the fake failing
/// every `@original` change: a private refusal of a publicly deferred command never shows
/// publicly, and the public line of a privately deferred command reaches the channel as an
/// ordinary message. No text sent privately ever appears in a public message.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_deferral_edit_never_changes_who_sees_a_reply() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;
    // Alice plans a card (with working edits), so she has a move to take back.
    let ping = newest_prompt(&fake, ALICE).expect("Alice's ping");
    let t = fake.click(ALICE, &ping, &format!("o:{game}"));
    answered(&fake, &t).await;
    let fresh = Fresh::new(Some((ping.id, ping.changed)), 0);
    let prompt = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
    let card = prompt
        .buttons
        .iter()
        .find(|(id, _)| kind_of(id) == "plan_card")
        .map(|(id, _)| id.clone())
        .expect("a card to plan");
    let t = fake.click(ALICE, &prompt, &card);
    answered(&fake, &t).await;
    let alice = state(&bot)
        .seats
        .iter()
        .position(|s| s.name == "Alice")
        .expect("Alice");
    assert_eq!(planned(&state(&bot), alice), 1);

    fake.fail_original_changes(true);
    // A public command refused privately: Bob may not abort the host's game.
    let mark = fake.request_count();
    let t = fake.slash(BOB, CHANNEL, false, &["skymines", "abort"], &[]);
    assert_eq!(
        flags(&callback(&fake, &t).await) & 64,
        0,
        "deferred publicly"
    );
    fake.wait_for("the bot's removal of the public deferral", WAIT, |r| {
        r.seq > mark && r.method == "DELETE" && r.path.contains(&t)
    })
    .await;
    // A private command with a public line: Alice takes her card back.
    let t = fake.slash(ALICE, CHANNEL, false, &["undo"], &[]);
    assert_eq!(
        flags(&callback(&fake, &t).await) & 64,
        64,
        "deferred privately"
    );
    answered(&fake, &t).await;
    assert_eq!(planned(&state(&bot), alice), 0, "the undo happened");
    eventually("the undo's public line in the channel", || {
        public_in(&fake, CHANNEL)
            .iter()
            .any(|m| m.content.contains("took back"))
            .then_some(())
    })
    .await;
    fake.fail_original_changes(false);

    let public = public_in(&fake, CHANNEL);
    assert!(
        !public.iter().any(|m| m.content.contains("Only the host")),
        "the refusal stayed private"
    );
    let private: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| flags(r) & 64 == 64)
        .filter_map(|r| message_body(r)?["content"].as_str().map(str::to_string))
        .filter(|c| !c.is_empty())
        .collect();
    for m in &public {
        assert!(
            !private.iter().any(|p| m.content.contains(p.as_str())),
            "private text in a public message: {}",
            m.content
        );
    }
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Log lines at warning level and above, from every test of this binary (installed once).
#[derive(Clone, Default)]
struct LogBuf(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogBuf {
    type Writer = LogBuf;

    fn make_writer(&'a self) -> LogBuf {
        self.clone()
    }
}

fn captured_logs() -> String {
    static LOGS: std::sync::OnceLock<LogBuf> = std::sync::OnceLock::new();
    let buf = LOGS.get_or_init(|| {
        let buf = LogBuf::default();
        let _ = tracing_subscriber::fmt()
            .with_writer(buf.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::WARN)
            .try_init();
        buf
    });
    String::from_utf8_lossy(&buf.0.lock().unwrap()).to_string()
}

/// `/skymines new|join|start` for `host` and `guest` (and Luna) in `channel`.
async fn start_game_in(fake: &Fake, channel: u64, host: u64, guest: u64) {
    for (user, path, options) in [
        (
            host,
            &["skymines", "new"][..],
            vec![("players", json!(2)), ("luna", json!("1"))],
        ),
        (guest, &["skymines", "join"][..], vec![]),
        (host, &["skymines", "start"][..], vec![]),
    ] {
        let t = fake.slash(user, channel, false, path, &options);
        answered(fake, &t).await;
    }
}

/// Issue 20 point 5: a game's status message is unpinned once the game is over (here aborted),
/// the message itself stays; a channel whose pins are full gets one clear log line however
/// many games try to pin there, and no unpin is tried for a message that was never pinned.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn status_pins_are_released_when_games_end() {
    captured_logs();
    let (_dir, db, fake, clock) = fresh().await;
    fake.refuse_pins(OTHER_CHANNEL, 30003);
    let bot = start_bot(&fake, &db, clock).await;
    started_game(&fake, &bot).await;
    let status = message_where(&fake, "the pinned status message", |m| {
        m.pinned && m.channel == CHANNEL
    })
    .await;

    let mark = fake.request_count();
    let t = fake.slash(ALICE, CHANNEL, false, &["skymines", "abort"], &[]);
    callback(&fake, &t).await;
    let unpin = format!("/channels/{CHANNEL}/pins/{}", status.id);
    fake.wait_for("the unpin", WAIT, |r| {
        r.seq > mark && r.method == "DELETE" && r.path == unpin
    })
    .await;
    let kept = message_when(&fake, "the status unpinned", status.id, |m| !m.pinned).await;
    assert!(!kept.content.is_empty());

    // A channel with full pins: two games, one after the other.
    for _ in 0..2 {
        start_game_in(&fake, OTHER_CHANNEL, ALICE, BOB).await;
        assert!(running(&bot, OTHER_CHANNEL).is_some());
        let t = fake.slash(ALICE, OTHER_CHANNEL, false, &["skymines", "abort"], &[]);
        answered(&fake, &t).await;
    }
    let full = format!("/channels/{OTHER_CHANNEL}/pins/");
    let pins = |fake: &Fake| {
        let r = fake.requests();
        r.iter()
            .filter(|r| r.method == "PUT" && r.path.starts_with(&full))
            .count()
    };
    let said = || {
        let logs = captured_logs();
        let lines = logs.lines().filter(|l| l.contains("pin limit"));
        lines
            .filter(|l| l.contains(&OTHER_CHANNEL.to_string()))
            .count()
    };
    eventually("each game's status pin tried", || {
        (pins(&fake) >= 2).then_some(())
    })
    .await;
    eventually("the full channel's log line", || (said() > 0).then_some(())).await;
    // Several timer ticks later (a pause: nothing more may come): one unpin in all, none in
    // the full channel.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let unpins: Vec<String> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "DELETE" && r.path.contains("/pins/"))
        .map(|r| r.path)
        .collect();
    assert_eq!(unpins, [unpin], "one unpin, never repeated");
    assert_eq!(pins(&fake), 2, "each game tried to pin its status once");
    assert_eq!(
        said(),
        1,
        "one clear line for the full channel:\n{}",
        captured_logs()
    );

    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Issue 20 point 6: an interaction whose options do not fit the command the bot knows (Discord
/// holds another version of it) is answered with a clear private message, not left
/// unanswered, and the commands are registered again — once, however many such clicks follow.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_command_of_another_shape_is_answered_and_registered_again() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock).await;
    fake.wait_identified(1, WAIT).await;
    let registered = |r: &Recorded| r.method == "PUT" && r.path.ends_with("/commands");
    fake.wait_for("the first registration", WAIT, registered)
        .await;
    let mark = fake.request_count();
    // `players` is an integer option; this version of the command sends text.
    for _ in 0..2 {
        let t = fake.slash(
            ALICE,
            CHANNEL,
            false,
            &["skymines", "new"],
            &[("players", json!("two"))],
        );
        let answer = callback(&fake, &t).await;
        assert_eq!(answer.json["type"], 4, "answered at once: {}", answer.json);
        assert_eq!(flags(&answer) & 64, 64, "privately");
        assert!(answer.json["data"]["content"]
            .as_str()
            .is_some_and(|c| c.contains("older form")));
    }
    fake.wait_for("the registration again", WAIT, |r| {
        r.seq > mark && registered(r)
    })
    .await;
    fake.settle(QUIET, WAIT).await; // a pause: no other registration may come
    assert_eq!(
        requests_after(&fake, mark)
            .iter()
            .filter(|r| registered(r))
            .count(),
        1,
        "registered again once"
    );
    assert!(running(&bot, CHANNEL).is_none());
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Issue 20's request audit: every request the bot sent, checked against Discord's documented
/// limits. Returns the violations (empty when all is well).
fn audit(requests: &[Recorded]) -> Vec<String> {
    let mut bad = Vec::new();
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    for r in requests {
        let at = format!("{} {} #{}", r.method, r.path, r.seq);
        let mut check = |ok: bool, what: &str, v: &Value| {
            if !ok {
                bad.push(format!("{at}: {what}: {v}"));
            }
        };
        if r.method == "PUT" && r.path.ends_with("/commands") {
            audit_commands(&r.json, &mut check);
            continue;
        }
        if r.path.ends_with("/callback") && r.json["type"] == 8 {
            let choices = r.json["data"]["choices"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            check(choices.len() <= 25, "more than 25 suggestions", &r.json);
            for c in &choices {
                check(chars(&c["name"]) <= 100, "a suggestion's name over 100", c);
                check(
                    chars(&c["value"]) <= 100,
                    "a suggestion's value over 100",
                    c,
                );
            }
            continue;
        }
        let Some(body) = message_body(r) else {
            continue;
        };
        check(
            chars(&body["content"]) <= 2000,
            "content over 2000",
            &body["content"],
        );
        if body["content"].as_str().is_some_and(|c| !c.is_empty()) {
            check(
                body["allowed_mentions"].is_object(),
                "text without allowed_mentions",
                body,
            );
        }
        let rows = body["components"].as_array().cloned().unwrap_or_default();
        check(rows.len() <= 5, "more than 5 rows", &body["components"]);
        for row in &rows {
            let parts = row["components"].as_array().cloned().unwrap_or_default();
            check(
                !parts.is_empty() && parts.len() <= 5,
                "a row of 0 or over 5",
                row,
            );
            for c in &parts {
                check(chars(&c["custom_id"]) <= 100, "custom_id over 100", c);
                if c["type"] == 3 {
                    check(parts.len() == 1, "a select menu shares its row", row);
                    let options = c["options"].as_array().cloned().unwrap_or_default();
                    check(
                        !options.is_empty() && options.len() <= 25,
                        "select options not 1-25",
                        c,
                    );
                    check(chars(&c["placeholder"]) <= 150, "placeholder over 150", c);
                    let max = c["max_values"].as_u64().unwrap_or(1) as usize;
                    check(max >= 1 && max <= options.len().max(1), "max_values", c);
                    for o in &options {
                        for field in ["label", "value", "description"] {
                            check(
                                chars(&o[field]) <= 100,
                                &format!("option {field} over 100"),
                                o,
                            );
                        }
                        check(chars(&o["label"]) >= 1, "an option without a label", o);
                    }
                } else {
                    check(chars(&c["label"]) <= 80, "button label over 80", c);
                }
            }
        }
        let listed: Vec<&str> = body["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["filename"].as_str())
            .collect();
        for (name, bytes) in &r.files {
            check(
                listed.contains(&name.as_str()),
                &format!("file {name} not referenced in attachments"),
                &body["attachments"],
            );
            check(
                bytes.len() <= 10 * 1024 * 1024,
                &format!("file {name} over 10 MiB"),
                &json!(bytes.len()),
            );
        }
    }
    bad
}

/// The command registration's limits: names 1-32, descriptions 1-100, at most 25 options (and
/// choices) per level, choice names and values within 100.
fn audit_commands(list: &Value, check: &mut impl FnMut(bool, &str, &Value)) {
    fn walk(v: &Value, check: &mut impl FnMut(bool, &str, &Value)) {
        let len = |f: &str| v[f].as_str().map_or(0, |s| s.chars().count());
        check(
            (1..=32).contains(&len("name")),
            "a name not 1-32",
            &v["name"],
        );
        check(
            (1..=100).contains(&len("description")),
            "a description not 1-100",
            &v["description"],
        );
        let choices = v["choices"].as_array().cloned().unwrap_or_default();
        check(choices.len() <= 25, "over 25 choices", &v["name"]);
        for c in &choices {
            let name = c["name"].as_str().map_or(0, |s| s.chars().count());
            check(name <= 100, "a choice name over 100", c);
            check(
                c["value"].as_str().map_or(0, |s| s.chars().count()) <= 100,
                "a choice value over 100",
                c,
            );
        }
        let options = v["options"].as_array().cloned().unwrap_or_default();
        check(options.len() <= 25, "over 25 options", &v["name"]);
        for o in &options {
            walk(o, check);
        }
    }
    for c in list.as_array().into_iter().flatten() {
        walk(c, check);
    }
}

/// The audit itself finds what it is for: crafted requests over each limit are reported.
#[test]
fn the_audit_reports_requests_over_the_limits() {
    let request = |method: &str, path: &str, json: Value, files: Vec<(String, Vec<u8>)>| Recorded {
        seq: 1,
        method: method.to_string(),
        path: path.to_string(),
        json,
        files,
        at: Instant::now(),
        token: String::new(),
    };
    let long = "x".repeat(101);
    let button = |label: &str| json!({"type": 2, "custom_id": "b", "label": label});
    let bad = [
        request(
            "POST",
            "/channels/1/messages",
            json!({"content": "y".repeat(2001), "allowed_mentions": {}}),
            vec![],
        ),
        request(
            "POST",
            "/channels/1/messages",
            json!({"content": "no mentions"}),
            vec![],
        ),
        request(
            "POST",
            "/webhooks/1/t",
            json!({"components": [{"type": 1, "components": vec![button("b"); 6]}]}),
            vec![],
        ),
        request(
            "PATCH",
            "/channels/1/messages/2",
            json!({"components": [{"type": 1, "components": [button(&"l".repeat(81))]}]}),
            vec![],
        ),
        request(
            "POST",
            "/channels/1/messages",
            json!({"components": [{"type": 1, "components": [
            {"type": 3, "custom_id": "m", "options": [{"label": "a", "value": "v", "description": long}]}]}]}),
            vec![],
        ),
        request(
            "POST",
            "/channels/1/messages",
            json!({"attachments": []}),
            vec![("board.png".into(), vec![0])],
        ),
        request(
            "PUT",
            "/applications/1/commands",
            json!([{"name": "c", "description": long}]),
            vec![],
        ),
    ];
    for r in &bad {
        assert_eq!(
            audit(std::slice::from_ref(r)).len(),
            1,
            "{} {}",
            r.path,
            r.json
        );
    }
    let good = request(
        "POST",
        "/channels/1/messages",
        json!({"content": "fine", "allowed_mentions": {"parse": []},
               "attachments": [{"id": 0, "filename": "board.png"}]}),
        vec![("board.png".into(), vec![0])],
    );
    assert!(audit(&[good]).is_empty());
}
// ---------------------------------------------------------------- sharding (issue 20 point 8)

/// A server whose events come on shard 0 of 2 (GUILD's come on shard 1).
const SHARD0_GUILD: u64 = GUILD - (1 << 22);
const SHARD0_CHANNEL: u64 = 200_000_000_000_000_010;
const DAVE: u64 = 100_000_000_000_000_004;

/// Discord asks for two shards and sends each server's events only on its shard: the bot
/// (sharding "auto", the default) connects both, a game is played in a server on each, and
/// the timer reminds the waiting players of both games.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_on_each_of_two_shards_is_played_and_reminded() {
    let (_dir, db, fake, clock) = fresh().await;
    fake.require_shards(2);
    fake.place_channel(SHARD0_CHANNEL, SHARD0_GUILD);
    fake.name_user(DAVE, "Dave");
    assert_eq!((fake.shard_of(SHARD0_GUILD), fake.shard_of(GUILD)), (0, 1));
    let bot = start_bot(&fake, &db, clock.clone()).await;
    // serenity waits five seconds between two shards' IDENTIFYs.
    fake.wait_identified(2, WAIT + Duration::from_secs(10))
        .await;
    assert_eq!(fake.connected_shards(), vec![0, 1]);
    let games = [
        (CHANNEL, GUILD, ALICE, BOB),
        (SHARD0_CHANNEL, SHARD0_GUILD, CAROL, DAVE),
    ];
    for (channel, guild, host, guest) in games {
        started_game_in(&fake, &bot, channel, host, guest).await;
        let at = Location {
            guild: Some(guild),
            channel,
        };
        let clicks = drive_at(&fake, &bot, at, |st| st.phase != Phase::Planning).await;
        assert!(clicks >= 2, "both players planned in {channel}");
    }
    let dispatched = fake.dispatched();
    for shard in [0, 1] {
        assert!(
            dispatched
                .iter()
                .any(|(s, e)| *s == shard && e == "INTERACTION_CREATE"),
            "shard {shard} carried its server's interactions: {dispatched:?}"
        );
    }

    // Twelve hours on, the one timer reminds the waiting player of each game, in its channel.
    let mark = fake.request_count();
    clock.advance(13 * 3_600_000);
    for (channel, guild, ..) in games {
        let waited = bot.chat.waiting_users(&Location {
            guild: Some(guild),
            channel,
        });
        assert!(
            !waited.is_empty(),
            "the game in {channel} waits for someone"
        );
        let reminder = fake
            .wait_for("a reminder in each game's channel", WAIT, |r| {
                r.seq > mark
                    && r.method == "POST"
                    && r.path == format!("/channels/{channel}/messages")
                    && r.json["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("waiting for you"))
            })
            .await;
        let pinged = reminder.json["allowed_mentions"]["users"].clone();
        assert!(
            waited.iter().any(|u| pinged == json!([u.to_string()])),
            "the reminder in {channel} mentions its waited-for player: {pinged}"
        );
    }
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Issue 24's acceptance: two bot instances with shard ranges 0-0 and 1-1 of `shards = 2`,
/// each with its own store connection to ONE PostgreSQL database and its own gateway client
/// (here two instances in one test process: each a separate serenity client, chat
/// layer and timer, sending with its own token), against one fake Discord. A game in a guild
/// on each shard is played; each instance answers only its shard's events, holds only its
/// shard's game, and its timer reminds only there: each reminder is posted once, by the owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_with_shard_ranges_share_one_postgres_database() {
    // A database of its own (dropped at the end); skipped without a server, failed under
    // SKYMINES_REQUIRE_PG=1.
    let Some(scratch) = sync(|| PgTestDb::for_test("shard ranges on PostgreSQL")) else {
        return;
    };
    let (_dir, _db, fake, clock) = fresh().await;
    fake.require_shards(2);
    fake.place_channel(SHARD0_CHANNEL, SHARD0_GUILD);
    fake.name_user(DAVE, "Dave");
    let data = shared_data();
    let mut bots = Vec::new();
    for shard in [0u32, 1] {
        let options = StoreOptions {
            shards: Some(ShardFilter {
                first: shard,
                last: shard,
                total: 2,
            }),
            ..StoreOptions::default()
        };
        let (store, _) = sync(|| Store::open_postgres(scratch.url(), data.clone(), options))
            .expect("PostgreSQL opens");
        let bot = start_bot_on(
            &fake,
            Arc::new(store),
            &format!("token-shard-{shard}"),
            clock.clone(),
            |settings| {
                settings.sharding = skymines::config::Sharding::Range {
                    first: shard,
                    last: shard,
                    total: 2,
                }
            },
        )
        .await;
        bots.push(bot);
    }
    fake.wait_identified(2, WAIT + Duration::from_secs(10))
        .await;
    assert_eq!(fake.connected_shards(), vec![0, 1]);
    // (channel, guild, host, guest, the instance whose shard the guild is on)
    let games = [
        (SHARD0_CHANNEL, SHARD0_GUILD, CAROL, DAVE, 0usize),
        (CHANNEL, GUILD, ALICE, BOB, 1),
    ];
    let mut ids = Vec::new();
    for (channel, guild, host, guest, owner) in games {
        assert_eq!(fake.shard_of(guild) as usize, owner);
        let bot = &bots[owner];
        ids.push(started_game_in(&fake, bot, channel, host, guest).await);
        let at = Location {
            guild: Some(guild),
            channel,
        };
        let clicks = drive_at(&fake, bot, at, |st| st.phase != Phase::Planning).await;
        assert!(clicks >= 2, "both players planned in {channel}");
    }
    fake.settle(QUIET, WAIT).await; // a pause: no stranger may speak in a channel
    for (i, (channel, .., owner)) in games.into_iter().enumerate() {
        // Each instance holds only its shard's game…
        assert_eq!(
            sync(|| bots[owner].store.games().live_games()),
            vec![ids[i]],
            "instance {owner} holds the game in {channel} only"
        );
        // …and every request about its channel came from it.
        let token = format!("token-shard-{owner}");
        let about = posts_about(&fake, channel).await;
        let strangers: Vec<_> = about.iter().filter(|r| r.token != token).collect();
        assert!(
            strangers.is_empty(),
            "only instance {owner} speaks in {channel}: {:?}",
            strangers
                .iter()
                .map(|r| format!("{} {} by {}", r.method, r.path, r.token))
                .collect::<Vec<_>>()
        );
    }
    // Both instances answered interactions (each on its own shard).
    for shard in [0, 1] {
        let token = format!("token-shard-{shard}");
        assert!(
            fake.requests()
                .iter()
                .any(|r| r.token == token && r.path.ends_with("/callback")),
            "instance {shard} answered interactions"
        );
    }

    // Twelve hours on, both timers run; each game's waiting player is reminded once, by the
    // instance that owns the game.
    let mark = fake.request_count();
    clock.advance(13 * 3_600_000);
    for (channel, ..) in games {
        fake.wait_for("a reminder in each game's channel", WAIT, |r| {
            r.seq > mark
                && r.method == "POST"
                && r.path == format!("/channels/{channel}/messages")
                && r.json["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("waiting for you"))
        })
        .await;
    }
    // Several more ticks of both timers (a pause: nothing may be sent twice).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    fake.settle(QUIET, WAIT).await;
    for (channel, .., owner) in games {
        let reminders: Vec<Recorded> = requests_after(&fake, mark)
            .into_iter()
            .filter(|r| {
                r.method == "POST"
                    && r.path == format!("/channels/{channel}/messages")
                    && r.json["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("waiting for you"))
            })
            .collect();
        assert_eq!(reminders.len(), 1, "one reminder in {channel}");
        assert_eq!(reminders[0].token, format!("token-shard-{owner}"));
    }
    for bot in bots {
        bot.running.stop().await.expect("the bot stops");
        // The last handles of the stores go on a blocking thread (their client's runtime).
        sync(move || drop((bot.chat, bot.store)));
    }
    fake.stop();
    sync(move || drop(scratch));
}

// ---------------------------------------------------------------- failure paths (issue 20 point 7)

/// The channel messages (not interaction answers) posted in `channel` after `mark` that
/// Discord took, with `text` in them.
fn taken_posts(fake: &Fake, channel: u64, mark: usize, text: &str) -> Vec<Recorded> {
    let faulted: Vec<usize> = fake.faulted().iter().map(|r| r.seq).collect();
    fake.requests()
        .into_iter()
        .filter(|r| {
            r.seq > mark
                && r.method == "POST"
                && r.path == format!("/channels/{channel}/messages")
                && !faulted.contains(&r.seq)
                && r.json["content"].as_str().is_some_and(|c| c.contains(text))
        })
        .collect()
}

/// A 429 with serenity's rate limiter on (the REST client reaches the fake as discord.com
/// through its HTTPS tunnel, as in production): the request is sent again once the wait
/// Discord named has passed, once, and the message arrives once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rate_limit_is_waited_out_as_discord_says() {
    let (_dir, db, fake, clock) = fresh().await;
    let tunnel = fake.tunnel_url();
    let bot = start_bot_with(&fake, &db, clock.clone(), move |settings| {
        let client = reqwest::Client::builder()
            .proxy(reqwest::Proxy::https(tunnel).expect("proxy url"))
            .danger_accept_invalid_certs(true)
            .build()
            .expect("client");
        settings.api_proxy = None;
        settings.rest_setup = Some(discord::RestSetup(Arc::new(move |b| {
            b.client(client.clone())
        })));
    })
    .await;
    let game = started_game(&fake, &bot).await;
    // The game's status message goes out after the start's replies (the pings, awaited): the
    // fault is for the reminder, so wait for the status first.
    status_message(&bot, game).await;
    let path = format!("/channels/{CHANNEL}/messages");
    fake.inject(Fault::rate_limited("POST", &path, 1.5, 1));
    let mark = fake.request_count();
    clock.advance(13 * 3_600_000);
    fake.wait_for("the rate-limited reminder", WAIT, |r| {
        r.seq > mark && r.method == "POST" && r.path == path
    })
    .await;
    let limited = fake.faulted();
    assert_eq!(limited.len(), 1, "one request was rate limited");
    let retried = fake
        .wait_for("the reminder sent again", WAIT, |r| {
            r.seq > limited[0].seq && r.method == "POST" && r.path == path
        })
        .await;
    let waited = retried.at - limited[0].at;
    assert!(
        // (The upper bound only tells Retry-After from a default wait of a minute.)
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(30),
        "sent again after Retry-After (1.5 s): {waited:?}"
    );
    assert_eq!(retried.json, limited[0].json, "the same message");
    fake.settle(QUIET, WAIT).await; // a pause: it may not come a third time
    let reminders = taken_posts(&fake, CHANNEL, mark, "waiting for you");
    let limited_text = limited[0].json["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(
        reminders
            .iter()
            .filter(|r| r.json["content"] == json!(limited_text))
            .count(),
        1,
        "the rate-limited reminder arrived once"
    );
    assert!(queued(&bot) == 0);
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// 500 and 502: a message Discord does not take waits in the outbox and arrives (once, in
/// order) when Discord works again; a status edit that failed is made again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn server_errors_lose_no_message() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock.clone()).await;
    let game = started_game(&fake, &bot).await;
    let status = status_message(&bot, game).await;
    let path = format!("/channels/{CHANNEL}/messages");
    fake.inject(Fault::server("POST", &path, 502, 1));
    fake.inject(Fault::server("POST", &path, 500, usize::MAX));
    let mark = fake.request_count();
    // Both players are reminded: two messages, neither taken.
    clock.advance(13 * 3_600_000);
    eventually("the two reminders queued", || {
        (queued(&bot) >= 2).then_some(())
    })
    .await;
    assert!(taken_posts(&fake, CHANNEL, mark, "waiting for you").is_empty());
    // The first failed; the second waits behind it.
    assert!(!fake.faulted().is_empty(), "Discord was tried");
    // A status edit fails once too.
    let edit_path = format!("/channels/{CHANNEL}/messages/{}", status.message);
    fake.inject(Fault::server("PATCH", &edit_path, 500, 1));
    let edit_mark = fake.request_count();
    // The planning ends: the status is edited.
    drive(&fake, &bot, |st| st.phase != Phase::Planning).await;
    let failed_edit = fake
        .wait_for("the failed status edit", WAIT, |r| {
            r.seq > edit_mark && r.method == "PATCH" && r.path == edit_path
        })
        .await;
    fake.wait_for("the status edited again", WAIT, |r| {
        r.seq > failed_edit.seq && r.method == "PATCH" && r.path == edit_path
    })
    .await;

    // Discord works again: the queued reminders arrive, once each, and the outbox empties.
    fake.clear_faults();
    eventually("the outbox sent", || (queued(&bot) == 0).then_some(())).await;
    let taken = || taken_posts(&fake, CHANNEL, mark, "waiting for you").len();
    eventually("both reminders taken", || (taken() >= 2).then_some(())).await;
    fake.settle(QUIET, WAIT).await; // a pause: none may come twice
    let delivered = taken_posts(&fake, CHANNEL, mark, "waiting for you");
    let mut pinged: Vec<String> = delivered
        .iter()
        .map(|r| r.json["allowed_mentions"]["users"].to_string())
        .collect();
    pinged.sort();
    assert_eq!(
        pinged,
        vec![
            json!([ALICE.to_string()]).to_string(),
            json!([BOB.to_string()]).to_string()
        ],
        "each reminder arrived once"
    );
    let shown = fake
        .messages()
        .into_iter()
        .filter(|m| m.channel == CHANNEL && m.content.contains("waiting for you"))
        .count();
    assert_eq!(shown, 2);
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

const NO_RIGHTS_CHANNEL: u64 = 200_000_000_000_000_020;

/// Waits until `n` requests were answered with a fault.
async fn refused(fake: &Fake, n: usize) {
    eventually("refused requests", || {
        (fake.faulted().len() >= n).then_some(())
    })
    .await
}

/// The game's status message, once it has been sent (the first one is debounced).
async fn status_message(bot: &Bot, game: GameId) -> skymines::store::StatusMessage {
    eventually("a status message", || {
        bot.store.discord().status(game).expect("query")
    })
    .await
}

/// How many messages wait in the outbox.
fn queued(bot: &Bot) -> usize {
    // One process on SQLite: a claim is every unsent message.
    bot.store
        .schedule()
        .claim_notifications(10, Duration::ZERO)
        .expect("outbox")
        .len()
}

/// 50013: the bot may not post in the channel; the log says so in one line naming what to
/// grant, however many messages fail there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn missing_permissions_are_one_clear_log_line() {
    captured_logs();
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock.clone()).await;
    started_game_in(&fake, &bot, NO_RIGHTS_CHANNEL, ALICE, BOB).await;
    let path = format!("/channels/{NO_RIGHTS_CHANNEL}/messages");
    fake.inject(Fault::code("POST", &path, 50013, usize::MAX));
    // Two reminders now, two more a reminder period later.
    clock.advance(13 * 3_600_000);
    refused(&fake, 2).await;
    clock.advance(13 * 3_600_000);
    refused(&fake, 4).await;
    let channel = NO_RIGHTS_CHANNEL.to_string();
    let about = |l: &str| l.contains("50013") || l.to_lowercase().contains("permission");
    let told = || {
        captured_logs()
            .lines()
            .any(|l| l.contains(&channel) && about(l))
    };
    eventually("the log line", || told().then_some(())).await;
    fake.settle(QUIET, WAIT).await; // a pause: no second line may come
    let lines: Vec<String> = captured_logs()
        .lines()
        .filter(|l| l.contains(&channel))
        .map(str::to_string)
        .collect();
    let about: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("50013") || l.to_lowercase().contains("permission"))
        .collect();
    assert_eq!(about.len(), 1, "one line: {lines:#?}");
    assert!(
        about[0].contains("missing permissions") && about[0].contains("Send Messages"),
        "the line says what is missing: {}",
        about[0]
    );
    assert!(queued(&bot) == 0, "a refused message is not retried");
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// 10008 on a status edit (someone deleted the status message): a new status message is sent
/// and pinned, and later edits go to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_deleted_status_message_is_sent_anew() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;
    let old = status_message(&bot, game).await;
    let old_path = format!("/channels/{CHANNEL}/messages/{}", old.message);
    fake.inject(Fault::code("PATCH", &old_path, 10008, usize::MAX));
    // The planning ends: the status is edited, and its message is gone.
    drive(&fake, &bot, |st| st.phase != Phase::Planning).await;
    let new = eventually("a new status message", || {
        let now = bot.store.discord().status(game).expect("query");
        now.filter(|s| s.message != old.message)
    })
    .await;
    let pinned = |m: &Msg| m.pinned;
    let shown = message_when(&fake, "the new status pinned", new.message, pinned).await;
    assert!(
        shown.files.iter().any(|f| f.ends_with(".png")),
        "it shows the board"
    );
    assert_eq!(new.channel, CHANNEL);
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

const THREAD: u64 = 200_000_000_000_000_030;
const GONE_GUILD: u64 = 900_000_000_000_000_050;
const GONE_GUILD_CHANNEL: u64 = 200_000_000_000_000_031;
const UNKNOWN_CHANNEL: u64 = 200_000_000_000_000_032;

/// Waits until `game` is archived; returns the reason.
async fn archived(bot: &Bot, game: GameId) -> String {
    eventually("the game archived", || {
        bot.store.games().archived_reason(game).expect("query")
    })
    .await
}

/// CHANNEL_DELETE, THREAD_DELETE and GUILD_DELETE (the bot removed, not an outage) archive the
/// games there; an outage's GUILD_DELETE archives nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn deleted_channels_threads_and_servers_archive_their_games() {
    let (_dir, db, fake, clock) = fresh().await;
    fake.place_channel(GONE_GUILD_CHANNEL, GONE_GUILD);
    fake.name_user(DAVE, "Dave");
    let bot = start_bot(&fake, &db, clock).await;
    let in_channel = started_game_in(&fake, &bot, CHANNEL, ALICE, BOB).await;
    let in_thread = started_game_in(&fake, &bot, THREAD, CAROL, DAVE).await;
    let in_guild = started_game_in(&fake, &bot, GONE_GUILD_CHANNEL, ALICE, CAROL).await;

    fake.delete_guild(GONE_GUILD, true);
    fake.delete_channel(CHANNEL, GUILD);
    fake.delete_thread(THREAD, OTHER_CHANNEL, GUILD);
    assert_eq!(archived(&bot, in_channel).await, "channel_deleted");
    assert_eq!(archived(&bot, in_thread).await, "channel_deleted");
    assert_eq!(
        bot.store.games().archived_reason(in_guild).expect("query"),
        None,
        "an outage archives nothing"
    );
    fake.delete_guild(GONE_GUILD, false);
    assert_eq!(archived(&bot, in_guild).await, "guild_removed");
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// A channel deleted while the bot was away: Discord answers 10003 (unknown channel) to the
/// game's next message, and the game is archived as if the delete had been seen.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_unknown_channel_archives_its_game() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock.clone()).await;
    let game = started_game_in(&fake, &bot, UNKNOWN_CHANNEL, ALICE, BOB).await;
    for method in ["POST", "PATCH", "PUT"] {
        fake.inject(Fault::code(
            method,
            &format!("/channels/{UNKNOWN_CHANNEL}/"),
            10003,
            usize::MAX,
        ));
    }
    clock.advance(13 * 3_600_000);
    assert_eq!(archived(&bot, game).await, "channel_deleted");
    assert!(queued(&bot) == 0);
    bot.running.stop().await.expect("the bot stops");
    fake.stop();
}

/// Issue 23: a player who leaves mid-game through Discord is replaced by a computer player at
/// the game's level. The leave is announced publicly; the computer player's turns are posted in
/// the channel, one message each, pinging only Alice; the game goes on to Alice's next turn
/// and Bob is never pinged again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_who_leaves_is_replaced_by_a_computer_player() {
    let (_dir, db, fake, clock) = fresh().await;
    let bot = start_bot(&fake, &db, clock).await;
    let game = started_game(&fake, &bot).await;
    drive(&fake, &bot, |st| st.phase == Phase::Action).await;
    let bob_seat = state(&bot)
        .seats
        .iter()
        .position(|s| s.name == "Bob")
        .expect("Bob's seat");
    let round = state(&bot).round;
    let before = fake.messages().iter().map(|m| m.id).max().unwrap_or(0);

    let t = fake.slash(BOB, CHANNEL, false, &["skymines", "leave"], &[]);
    callback(&fake, &t).await;
    let ask = message_where(&fake, "Bob's private question to confirm", |m| {
        m.viewer == Some(BOB)
            && m.id > before
            && m.buttons.iter().any(|(id, _)| id.starts_with("v:"))
    })
    .await;
    let confirm = ask.buttons[0].0.clone();
    let t = fake.click(BOB, &ask, &confirm);
    answered(&fake, &t).await;
    let seats = bot.store.people().seats(game).expect("seats");
    assert_eq!(seats[bob_seat].owner, skymines::store::SeatOwner::Vacant);
    let posts = |after: u64| -> Vec<Msg> {
        let mut posts: Vec<Msg> = public_in(&fake, CHANNEL)
            .into_iter()
            .filter(|m| m.id > after && !m.pinned)
            .collect();
        posts.sort_by_key(|m| m.id);
        posts
    };
    let left = "Bob left the game. From now on a computer player (normal) plays seat";
    eventually("the public line of Bob's leaving", || {
        posts(before)
            .iter()
            .any(|m| m.content.contains(left))
            .then_some(())
    })
    .await;

    // Alice plays on; the computer player takes Bob's turns until it is Alice's turn again
    // after at least one of them.
    let mut clicks = 0;
    let computer_turn = |msgs: &[Msg]| {
        msgs.iter().any(|m| {
            without_mentions(&m.content).starts_with("Bob ")
                && m.content.contains("Alice, it is your turn")
        })
    };
    let mut fresh = Fresh::default();
    loop {
        // Alice's next prompt comes with the computer player's turn message (it pings her).
        let msg = current_prompt(&fake, &bot.chat, &place(), ALICE, fresh).await;
        if computer_turn(&posts(before)) {
            break;
        }
        assert!(clicks < 60, "the computer player never took Bob's turn");
        let st = state(&bot);
        assert!(st.round <= round + 1, "the game stalls");
        let waiting = bot.chat.waiting_users(&place());
        assert_eq!(waiting, vec![ALICE], "only Alice is ever waited on");
        let seat = st
            .seats
            .iter()
            .position(|s| s.name == "Alice")
            .expect("Alice's seat");
        // Alice takes a turn rather than dropping out, so the computer player's turn comes.
        let id = msg
            .buttons
            .iter()
            .map(|(id, _)| id.clone())
            .find(|id| !matches!(kind_of(id).as_str(), "drop_out" | "plan_done" | ""))
            .unwrap_or_else(|| pick(&msg, &st, seat));
        fresh.clicked = Some((msg.id, msg.changed));
        let token = fake.pick(ALICE, &msg, &[id.as_str()]);
        answered(&fake, &token).await;
        clicks += 1;
    }
    let after = posts(before);
    let mut turn = after
        .iter()
        .filter(|m| without_mentions(&m.content).starts_with("Bob "))
        .peekable();
    assert!(turn.peek().is_some());
    for m in turn {
        // One message per computer turn, pinging Alice (its lines, then the ping) or nobody.
        let mentioned = mentioned_first(&m.content);
        assert!(
            mentioned.iter().all(|u| *u == ALICE.to_string()),
            "{}",
            m.content
        );
    }
    assert!(
        after.iter().all(|m| !m.content.contains(&BOB.to_string())),
        "Bob is not pinged after leaving"
    );
    let st = state(&bot);
    let alice = st
        .seats
        .iter()
        .position(|s| s.name == "Alice")
        .expect("seat");
    assert_eq!(skymines::engine::waiting_on(&st), vec![alice]);
    bot.running.stop().await.expect("the bot stops");
}

/// A message's text after its leading mentions (`<@1> <@2> text` → `text`).
fn without_mentions(content: &str) -> &str {
    let mut rest = content;
    while let Some(after) = rest.strip_prefix("<@") {
        match after.find("> ") {
            Some(end) => rest = &after[end + 2..],
            None => break,
        }
    }
    rest
}
