//! Chat volume (DECISIONS B15), counted through the chat layer: seeded games of 2, 3 and 4
//! players and with Luna, played to the end the way players click (the Your-turn button of a
//! ping, then a random option of the list shown, avoiding dropping out while there is anything
//! else), count the channel's messages, pings and status edits beside the game's turns, rounds
//! and hand-offs, and check the targets: channel messages (pings included) at most
//! turns + 2 × rounds + 5, pings at most hand-offs, status edits at most turns + 2 × rounds.
//! Turns are human turns only (Luna's are played inside a human's move): stricter targets.

use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, Audience, Chat, ChatConfig, ManualClock, Reply};
use skymines::engine::state::{GameState, Phase};
use skymines::engine::{self};
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{Store, StoreOptions};
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::support::chat::START;
use crate::support::{shared_data, TempDir};

#[derive(Debug, Default)]
struct Volume {
    channel_messages: usize,
    pings: usize,
    status_edits: usize,
    turns: usize,
    rounds: usize,
    hand_offs: usize,
    clicks: usize,
}

fn chat(tag: &str) -> (Chat, TempDir) {
    let dir = TempDir::new(&format!("volume-{tag}"));
    let (store, _) =
        Store::open(dir.join("v.db"), shared_data(), StoreOptions::default()).expect("store");
    let config = ChatConfig {
        images: false,
        rate_limit: 0,
        ..ChatConfig::default()
    };
    let clock = Arc::new(ManualClock::new(START));
    (Chat::new(Arc::new(store), clock, config), dir)
}

fn state(chat: &Chat) -> Option<Arc<GameState>> {
    let store = chat.store();
    let game = match store.games().game_in_channel(LOCAL_CHANNEL).ok()? {
        Some(game) => game,
        None => store
            .games()
            .last_finished_in_channel(LOCAL_CHANNEL)
            .ok()??,
    };
    store.games().state(game).ok()
}

/// Human turns that ended between two states, and the seats the turn passed to.
fn count_move(
    before: &GameState,
    after: &GameState,
    actor: usize,
    humans: &[usize],
    v: &mut Volume,
) {
    let same = before.phase == after.phase && before.round == after.round;
    if before.phase == Phase::Action {
        if !same {
            if before.active.is_some_and(|a| humans.contains(&a)) {
                v.turns += 1;
            }
        } else {
            for &s in humans {
                v.turns += after.seats[s]
                    .turns_this_round
                    .saturating_sub(before.seats[s].turns_this_round)
                    as usize;
            }
        }
    }
    let waiting_before = engine::waiting_on(before);
    let waiting = engine::waiting_on(after);
    let last_planner =
        after.phase == Phase::Planning && same && waiting.len() == 1 && waiting_before.len() > 1;
    for s in &waiting {
        let newly = !same || !waiting_before.contains(s);
        if humans.contains(s) && *s != actor && (newly || last_planner) {
            v.hand_offs += 1;
        }
    }
}

fn tally(replies: &[Reply], v: &mut Volume) {
    for r in replies {
        match r.audience {
            Audience::Public if r.status_of.is_some() => v.status_edits += 1,
            Audience::Public => v.channel_messages += 1,
            Audience::Ping(users) => {
                v.channel_messages += 1;
                v.pings += users.users().len();
            }
            _ => {}
        }
    }
}

/// Plays one seeded game through the chat layer and counts (from the start on).
fn play(players: usize, luna: Option<u8>, seed: u64) -> Volume {
    let (chat, _dir) = chat(&format!("{players}-{seed}"));
    let names = &["alice", "bob", "carol", "dave"][..players];
    let owners = [local_user_id("alice")];
    let say =
        |line: &str| chat.handle(&parse_line(line, &owners).expect("parses").expect("a line"));
    let luna_opt = luna.map(|l| format!(" luna:{l}")).unwrap_or_default();
    say(&format!(
        "alice /skymines new players:{players} seed:{seed}{luna_opt}"
    ));
    for n in &names[1..] {
        say(&format!("{n} /skymines join"));
    }
    let mut v = Volume::default();
    let start = say("alice /skymines start");
    tally(&start, &mut v);
    let first = state(&chat).expect("a game");
    let humans: Vec<usize> = (0..first.seats.len())
        .filter(|s| names.contains(&first.seats[*s].name.as_str()))
        .collect();
    // The start hands the game to every human it waits on.
    v.hand_offs += engine::waiting_on(&first)
        .iter()
        .filter(|s| humans.contains(s))
        .count();
    let mut shown: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let remember = |replies: &[Reply], shown: &mut BTreeMap<u64, Vec<String>>| {
        for r in replies {
            if let Audience::Private(u) | Audience::Dm(u) = r.audience {
                let ids: Vec<String> = r
                    .choices
                    .iter()
                    // One decision (`d:`) or an option of several played together (`n:`).
                    .filter(|c| c.custom_id.starts_with("d:") || c.custom_id.starts_with("n:"))
                    .map(|c| c.custom_id.clone())
                    .collect();
                if !ids.is_empty() {
                    shown.insert(u, ids);
                }
            }
        }
    };
    remember(&start, &mut shown);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..20_000 {
        let Some(before) = state(&chat) else { break };
        if before.phase == Phase::Finished {
            break;
        }
        let waiting = chat.waiting_users(&skymines::store::Location {
            guild: None,
            channel: LOCAL_CHANNEL,
        });
        if waiting.is_empty() {
            break;
        }
        let user = waiting[rng.gen_range(0..waiting.len())];
        let name = names
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a player");
        let seat = humans
            .iter()
            .copied()
            .find(|s| before.seats[*s].name == *name)
            .expect("a seat");
        let line = match shown.get(&user).filter(|ids| !ids.is_empty()) {
            // The Your-turn / Plan button of the ping opens the list.
            None => format!("{name} /click o:{}", 1),
            Some(ids) => {
                let keep: Vec<&String> = ids
                    .iter()
                    .filter(|id| !id.contains("drop_out") && !id.contains("plan_clear"))
                    .collect();
                let pick = if keep.is_empty() {
                    ids[rng.gen_range(0..ids.len())].clone()
                } else {
                    keep[rng.gen_range(0..keep.len())].clone()
                };
                v.clicks += 1;
                format!("{name} /click {pick}")
            }
        };
        shown.remove(&user);
        let replies = say(&line);
        tally(&replies, &mut v);
        remember(&replies, &mut shown);
        if let Some(after) = state(&chat) {
            count_move(&before, &after, seat, &humans, &mut v);
            v.rounds = after.round as usize;
        }
    }
    let end = state(&chat).expect("a game");
    assert_eq!(end.phase, Phase::Finished, "the game ends: {v:?}");
    v.rounds = end.round as usize;
    v
}

fn check(players: usize, luna: Option<u8>, seed: u64) {
    let v = play(players, luna, seed);
    println!("players {players}, luna {luna:?}, seed {seed}: {v:?}");
    assert!(v.turns > 10 && v.rounds >= 6, "{v:?}");
    assert!(
        v.channel_messages <= v.turns + 2 * v.rounds + 5,
        "too many channel messages: {v:?}"
    );
    assert!(v.pings <= v.hand_offs, "a ping without a hand-off: {v:?}");
    assert!(
        v.status_edits <= v.turns + 2 * v.rounds,
        "too many status edits: {v:?}"
    );
}

#[test]
fn two_players_stay_within_the_volume_targets() {
    check(2, None, 7);
}

#[test]
fn three_players_stay_within_the_volume_targets() {
    check(3, None, 8);
}

#[test]
fn four_players_stay_within_the_volume_targets() {
    check(4, None, 9);
}

#[test]
fn two_players_and_luna_stay_within_the_volume_targets() {
    check(2, Some(3), 10);
}
