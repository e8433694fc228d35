//! The admin tools through the chat layer (ManualClock, a real store on a temporary file):
//! who may use them, the list, the report of a damaged game, rollbacks that replay the same
//! after a restart (also of a damaged game), force-skipping a stalled turn, and the warning
//! then deletion of abandoned games, which a move cancels.

use skymines::chat::{Audience, Chat, ChatConfig, Input, ManualClock, Reply, Request, User};
use skymines::engine::{self, GameState};
use skymines::store::torture::{next_move, torture_options, Move};
use skymines::store::{
    GameId, GameStatus, Location, LogEntry, NewGame, NewSeat, Notify, SeatOwner, Store,
    StoreOptions,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::support::chat::START;
use crate::support::store::tamper_latest_snapshot;
use crate::support::{shared_data as data, TempDir};

const DAY: i64 = 24 * 3600 * 1000;
const GUILD_A: u64 = 9_001;
const GUILD_B: u64 = 9_002;
/// Seeds of two-player torture games (2 + seed % 3 players).
const SEED: u64 = 6;
const OTHER_SEED: u64 = 9;

/// A chat layer over a store file; `reopen` closes and reopens both (a restart).
struct Bench {
    dir: TempDir,
    clock: Arc<ManualClock>,
    store: Arc<Store>,
    chat: Chat,
}

fn store_options() -> StoreOptions {
    StoreOptions {
        snapshot_every: 4,
        ..StoreOptions::default()
    }
}

fn config() -> ChatConfig {
    ChatConfig {
        images: false,
        rate_limit: 0,
        reminder_after_ms: 365 * DAY,
        deadline_ms: None,
        abandoned_after_ms: Some(10 * DAY),
        abandoned_warning_ms: 3 * DAY,
        ..ChatConfig::default()
    }
}

impl Bench {
    fn new(tag: &str) -> Bench {
        let dir = TempDir::new(&format!("admin-{tag}"));
        let clock = Arc::new(ManualClock::new(START));
        let (store, _) = Store::open(dir.join("t.db"), data(), store_options()).expect("store");
        let store = Arc::new(store);
        let chat = Chat::new(store.clone(), clock.clone(), config());
        Bench {
            dir,
            clock,
            store,
            chat,
        }
    }

    fn db(&self) -> PathBuf {
        self.dir.join("t.db")
    }

    /// Closes the store file (the chat layer runs on a scratch store meanwhile).
    fn close(&mut self) {
        let (scratch, _) =
            Store::open(self.dir.join("scratch.db"), data(), store_options()).expect("scratch");
        let scratch = Arc::new(scratch);
        self.chat = Chat::new(scratch.clone(), self.clock.clone(), config());
        self.store = scratch;
    }

    /// Opens the store file again (a restart); returns what start-up found damaged.
    fn open(&mut self) -> Vec<(GameId, String)> {
        let (store, report) = Store::open(self.db(), data(), store_options()).expect("reopen");
        self.store = Arc::new(store);
        self.chat = Chat::new(self.store.clone(), self.clock.clone(), config());
        report.damaged
    }

    fn reopen(&mut self) -> Vec<(GameId, String)> {
        self.close();
        self.open()
    }

    fn say(
        &self,
        user: &User,
        guild: Option<u64>,
        name: &str,
        opts: &[(&str, &str)],
    ) -> Vec<Reply> {
        let req = Request {
            place: Location {
                guild,
                channel: guild.map_or(1, |g| g * 10),
            },
            user: user.clone(),
            input: Input::Command {
                name: name.to_string(),
                options: opts
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect::<BTreeMap<_, _>>(),
            },
            in_dm: guild.is_none(),
        };
        self.chat.handle(&req)
    }

    /// A two-player game of torture seed `seed` in `channel` of `guild`, played by users
    /// 100 and 101.
    fn game(&self, guild: u64, channel: u64, seed: u64) -> GameId {
        let options = torture_options(seed);
        let names = skymines::sim::seat_names(options.players);
        let seats = names
            .iter()
            .enumerate()
            .map(|(i, n)| NewSeat {
                owner: SeatOwner::Discord(100 + i as u64),
                name: n.clone(),
                notify: Notify::Ephemeral,
            })
            .collect();
        self.store
            .games()
            .create_game(NewGame {
                location: Location {
                    guild: Some(guild),
                    channel,
                },
                options,
                seats,
                bot_level: None,
                language: None,
                waits: None,
            })
            .expect("game")
            .0
    }

    /// Drives game `game` (torture seed `seed`) until its log holds `entries` entries.
    fn drive(&self, game: GameId, seed: u64, entries: u64) {
        loop {
            let (state, seq) = self.store.games().live_state(game).expect("live");
            if seq >= entries {
                return;
            }
            let undoable = match self.store.games().last_entry(game).expect("log") {
                Some(LogEntry::Batch { seat, .. }) => Some(seat),
                _ => None,
            };
            match next_move(&data(), &state, undoable, seed, seq).expect("the game goes on") {
                Move::Batch { seat, decisions } => {
                    self.store
                        .games()
                        .apply(game, seat, &decisions)
                        .expect("move");
                }
                Move::Undo { seat } => {
                    self.store.games().undo(game, seat).expect("undo");
                }
            }
        }
    }

    /// One more legal move of whoever the game waits on.
    fn any_move(&self, game: GameId) {
        let (state, _) = self.store.games().live_state(game).expect("live");
        let seat = engine::waiting_on(&state)[0];
        let legal = engine::legal_decisions(&data(), &state, seat);
        self.store
            .games()
            .apply(game, seat, &legal[..1])
            .expect("a move");
    }

    fn state(&self, game: GameId) -> GameState {
        (*self.store.games().state(game).expect("state")).clone()
    }
}

fn user(id: u64, name: &str, moderator: bool, owner: bool) -> User {
    User {
        id,
        name: name.to_string(),
        moderator,
        owner,
    }
}

fn moderator() -> User {
    user(1, "Mia", true, false)
}

fn owner() -> User {
    user(2, "Olga", false, true)
}

fn player() -> User {
    user(100, "Pat", false, false)
}

/// The single private reply to `who`.
fn private_text(replies: &[Reply], who: &User) -> String {
    let private: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.audience == Audience::Private(who.id))
        .collect();
    assert_eq!(private.len(), 1, "one private answer: {replies:#?}");
    private[0].text.clone()
}

fn texts() -> skymines::chat::Texts {
    skymines::chat::Texts::english()
}

#[test]
fn only_moderators_of_the_games_server_and_owners_may_administer() {
    let bench = Bench::new("perm");
    let game = bench.game(GUILD_A, 500, SEED);
    bench.drive(game, SEED, 6);
    let before = bench.store.games().log(game).expect("log");
    let t = texts();

    // Someone without rights: every tool refused, nothing changed.
    for (tool, opts) in [
        ("skymines admin list", vec![]),
        ("skymines admin report", vec![("game", "1")]),
        (
            "skymines admin rollback",
            vec![("game", "1"), ("move", "2")],
        ),
        ("skymines admin skip", vec![("game", "1")]),
    ] {
        let replies = bench.say(&player(), Some(GUILD_A), tool, &opts);
        assert_eq!(replies.len(), 1);
        assert_eq!(
            private_text(&replies, &player()),
            t.t("admin.error.not_allowed")
        );
    }

    // A moderator of another server: refused for this game.
    let game_opt = game.to_string();
    for (tool, opts) in [
        ("skymines admin report", vec![("game", game_opt.as_str())]),
        (
            "skymines admin rollback",
            vec![("game", game_opt.as_str()), ("move", "2")],
        ),
        ("skymines admin skip", vec![("game", game_opt.as_str())]),
    ] {
        let replies = bench.say(&moderator(), Some(GUILD_B), tool, &opts);
        assert_eq!(replies.len(), 1, "{tool}");
        assert_eq!(
            private_text(&replies, &moderator()),
            t.f("admin.error.not_your_server", &[("game", &game)]),
            "{tool}"
        );
    }
    // Its list shows no game of the other server.
    let replies = bench.say(&moderator(), Some(GUILD_B), "skymines admin list", &[]);
    assert_eq!(private_text(&replies, &moderator()), t.t("admin.list.none"));
    // A moderator in a DM has no server.
    let replies = bench.say(&moderator(), None, "skymines admin list", &[]);
    assert_eq!(
        private_text(&replies, &moderator()),
        t.t("admin.error.in_a_server")
    );
    assert_eq!(
        bench.store.games().log(game).expect("log"),
        before,
        "nothing changed"
    );

    // The game's own server's moderator and the bot's owner (from anywhere) may.
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin report",
        &[("game", &game_opt)],
    );
    assert!(private_text(&replies, &moderator()).contains("healthy"));
    let replies = bench.say(
        &owner(),
        Some(GUILD_B),
        "skymines admin report",
        &[("game", &game_opt)],
    );
    assert!(private_text(&replies, &owner()).contains("healthy"));
    // Bad input: a clear error.
    let replies = bench.say(
        &owner(),
        Some(GUILD_A),
        "skymines admin report",
        &[("game", "77")],
    );
    assert_eq!(
        private_text(&replies, &owner()),
        t.f("admin.error.no_such_game", &[("game", &77)])
    );
}

#[test]
fn the_list_shows_this_servers_games_with_their_state() {
    let bench = Bench::new("list");
    let running = bench.game(GUILD_A, 500, SEED);
    bench.drive(running, SEED, 5);
    let gone = bench.game(GUILD_A, 501, OTHER_SEED);
    bench.store.games().abandon(gone).expect("abandon");
    let elsewhere = bench.game(GUILD_B, 600, SEED);

    let replies = bench.say(&moderator(), Some(GUILD_A), "skymines admin list", &[]);
    assert_eq!(replies.len(), 1);
    let text = private_text(&replies, &moderator());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        texts().f("admin.list.title", &[("count", &2)]),
        "{text}"
    );
    let line_of = |g: GameId| {
        lines
            .iter()
            .find(|l| l.starts_with(&format!("#{g} ")))
            .copied()
            .unwrap_or_else(|| panic!("game {g} listed: {text}"))
    };
    let state = bench.state(running);
    let waiting: Vec<String> = engine::waiting_on(&state)
        .into_iter()
        .map(|s| state.seats[s].name.clone())
        .collect();
    let running_line = line_of(running);
    assert!(running_line.contains("<#500>"), "{running_line}");
    assert!(running_line.contains("running"), "{running_line}");
    assert!(
        running_line.contains(&format!("round {}", state.round)),
        "{running_line}"
    );
    assert!(running_line.contains(&format!("waiting on {}", waiting.join(", "))));
    assert!(
        running_line.contains("<t:"),
        "last activity: {running_line}"
    );
    let gone_line = line_of(gone);
    assert!(
        gone_line.contains("<#501>") && gone_line.contains("abandoned"),
        "{gone_line}"
    );
    assert!(
        !text.contains(&format!("#{elsewhere} ")),
        "another server's game: {text}"
    );

    // A status filter.
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin list",
        &[("status", "running")],
    );
    let text = private_text(&replies, &moderator());
    assert!(text.contains(&format!("#{running} ")) && !text.contains(&format!("#{gone} ")));
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin list",
        &[("status", "sleeping")],
    );
    assert!(private_text(&replies, &moderator()).contains("sleeping"));

    // The bot's owner sees every server's games with all:yes; a moderator's all:yes is ignored.
    let replies = bench.say(
        &owner(),
        Some(GUILD_A),
        "skymines admin list",
        &[("all", "yes")],
    );
    let text = private_text(&replies, &owner());
    for g in [running, gone, elsewhere] {
        assert!(text.contains(&format!("#{g} ")), "{text}");
    }
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin list",
        &[("all", "yes")],
    );
    assert!(!private_text(&replies, &moderator()).contains(&format!("#{elsewhere} ")));
}

#[test]
fn a_rollback_is_recorded_announced_and_replays_the_same_after_a_restart() {
    let mut bench = Bench::new("rollback");
    let game = bench.game(GUILD_A, 500, SEED);
    bench.drive(game, SEED, 30);
    // The same game stopped at move 12.
    let stopped = bench.game(GUILD_A, 501, SEED);
    bench.drive(stopped, SEED, 12);
    let g = game.to_string();
    let t = texts();

    // Moves that do not exist are refused; nothing changes.
    let before = bench.store.games().log(game).expect("log");
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", "31")],
    );
    assert_eq!(
        private_text(&replies, &moderator()),
        t.f(
            "admin.error.no_such_move",
            &[("game", &game), ("move", &31), ("last", &30)]
        )
    );
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", "twelve")],
    );
    assert_eq!(replies.len(), 1);
    assert!(private_text(&replies, &moderator()).contains("twelve"));
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", "30")],
    );
    assert_eq!(
        private_text(&replies, &moderator()),
        t.f("admin.error.already_there", &[("move", &30)])
    );
    assert_eq!(bench.store.games().log(game).expect("log"), before);

    // Back to move 12 (asked from another channel of the server).
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", "12")],
    );
    let announcement = replies
        .iter()
        .find(|r| r.audience == Audience::Public && r.status_of.is_none())
        .expect("a public announcement");
    assert_eq!(
        announcement.text,
        t.f(
            "admin.rollback.done",
            &[("name", &"Mia"), ("game", &game), ("move", &12)]
        )
    );
    assert_eq!(
        announcement.game(),
        Some(game),
        "posted in the game's channel"
    );
    assert!(
        replies.iter().any(|r| r.status_of == Some(game)),
        "a new status"
    );
    assert!(
        replies
            .iter()
            .filter(|r| matches!(r.audience, Audience::Public | Audience::Ping(_)))
            .all(|r| r.game() == Some(game)),
        "every public line belongs to the game's channel"
    );
    assert!(private_text(&replies, &moderator()).contains("move 12"));

    let log = bench.store.games().log(game).expect("log");
    assert_eq!(log.len(), 31, "appended, nothing erased");
    assert_eq!(log[..30], before[..]);
    assert!(matches!(
        log[30],
        LogEntry::Rollback {
            seq: 31,
            back_to: 12,
            by: 1,
            ..
        }
    ));
    assert_eq!(
        bench.state(game),
        bench.state(stopped),
        "the state after move 12"
    );

    // The game goes on from there; a restart replays to the same state.
    bench.any_move(game);
    bench.any_move(stopped);
    let playing = bench.state(game);
    assert_eq!(playing, bench.state(stopped));
    let damaged = bench.reopen();
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(bench.state(game), playing);
    let replies = bench.say(
        &owner(),
        Some(GUILD_A),
        "skymines admin report",
        &[("game", &g)],
    );
    assert!(private_text(&replies, &owner()).contains("healthy"));
}

/// Tampers with the latest snapshot of `game` the way the store tests do; returns its move.
fn tamper_snapshot(db: &std::path::Path, game: GameId) -> u64 {
    let conn = rusqlite::Connection::open(db).expect("sql");
    tamper_latest_snapshot(&conn, game).0 as u64
}

#[test]
fn a_damaged_game_is_reported_and_a_rollback_makes_it_playable_again() {
    let mut bench = Bench::new("damaged");
    let game = bench.game(GUILD_A, 500, SEED);
    bench.drive(game, SEED, 18);
    let reference = bench.game(GUILD_A, 501, SEED);
    let g = game.to_string();
    let t = texts();
    bench.close();
    let tampered = tamper_snapshot(&bench.db(), game);
    assert!(tampered > 4, "a snapshot after the start: {tampered}");
    let damaged = bench.open();
    assert_eq!(damaged.len(), 1, "{damaged:?}");
    assert_eq!(damaged[0].0, game);
    let record = bench.store.games().game(game).expect("record");
    assert_eq!(record.status, GameStatus::Damaged);

    // The report: the recorded reason, the last good move, what to do.
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin report",
        &[("game", &g)],
    );
    let report = private_text(&replies, &moderator());
    let last_good = tampered - 1;
    assert_eq!(
        report,
        t.f(
            "admin.report.damaged",
            &[
                ("game", &game),
                ("reason", &record.damage_report.clone().expect("a reason")),
                ("last_good", &last_good),
                ("moves", &18),
            ]
        )
    );
    assert!(report.contains(&format!("move:{last_good}")), "{report}");

    // Past the damage: refused, nothing changes.
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", &tampered.to_string())],
    );
    assert!(private_text(&replies, &moderator())
        .starts_with(&format!("Cannot go back to move {tampered}")));
    assert_eq!(
        bench.store.games().game(game).expect("record").status,
        GameStatus::Damaged
    );
    assert_eq!(bench.store.games().log(game).expect("log").len(), 18);

    // Back to the last good move: playable again, from the state a replay gives.
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin rollback",
        &[("game", &g), ("move", &last_good.to_string())],
    );
    assert!(replies.iter().any(|r| r.audience == Audience::Public
        && r.text
            == t.f(
                "admin.rollback.revived",
                &[("name", &"Mia"), ("game", &game), ("move", &last_good)]
            )));
    let record = bench.store.games().game(game).expect("record");
    assert_eq!(record.status, GameStatus::Active);
    assert_eq!(record.damage_report, None);
    bench.drive(reference, SEED, last_good);
    assert_eq!(bench.state(game), bench.state(reference));
    bench.any_move(game);
    bench.any_move(reference);
    let playing = bench.state(game);
    assert_eq!(playing, bench.state(reference));
    let damaged = bench.reopen();
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(bench.state(game), playing);
    assert!(bench.store.games().is_live(game));
}

#[test]
fn force_skip_plays_the_stalled_seat_safely_and_announces_it() {
    let bench = Bench::new("skip");
    let game = bench.game(GUILD_A, 500, SEED);
    bench.drive(game, SEED, 8);
    let g = game.to_string();
    let state = bench.state(game);
    let waiting = engine::waiting_on(&state);
    let seat = waiting[0];
    let name = state.seats[seat].name.clone();
    let other = state
        .seats
        .iter()
        .enumerate()
        .find(|(i, _)| !waiting.contains(i))
        .map(|(_, s)| s.name.clone());

    if let Some(other) = other {
        let replies = bench.say(
            &moderator(),
            Some(GUILD_A),
            "skymines admin skip",
            &[("game", &g), ("player", &other)],
        );
        assert_eq!(
            private_text(&replies, &moderator()),
            texts().f("admin.error.not_waiting_on", &[("name", &other)])
        );
    }
    let entries = bench.store.games().log(game).expect("log").len();
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin skip",
        &[("game", &g), ("player", &name)],
    );
    let line = texts().f("admin.skip.played", &[("name", &name)]);
    let announced = replies
        .iter()
        .find(|r| r.text == line)
        .expect("the skip is announced");
    assert_eq!(announced.audience, Audience::Public);
    assert_eq!(announced.game(), Some(game));
    assert!(private_text(&replies, &moderator()).contains(&name));
    let log = bench.store.games().log(game).expect("log");
    assert_eq!(log.len(), entries + 1);
    assert!(matches!(&log[entries], LogEntry::Batch { seat: s, .. } if *s == seat));
    let after = bench.state(game);
    assert!(
        !engine::waiting_on(&after).contains(&seat)
            || after.phase != state.phase
            || after.round != state.round
            || after.active != state.active,
        "the stalled decision was made"
    );

    // A finished (here: abandoned) game cannot be skipped.
    bench.store.games().abandon(game).expect("abandon");
    let replies = bench.say(
        &moderator(),
        Some(GUILD_A),
        "skymines admin skip",
        &[("game", &g)],
    );
    assert_eq!(
        private_text(&replies, &moderator()),
        texts().f(
            "admin.error.not_running",
            &[("game", &game), ("status", &"abandoned")]
        )
    );
}

#[test]
fn an_idle_game_is_warned_then_deleted_unless_someone_moves() {
    let mut bench = Bench::new("idle");
    let idle = bench.game(GUILD_A, 500, SEED);
    let saved = bench.game(GUILD_A, 501, OTHER_SEED);
    bench.drive(idle, SEED, 3);
    let t = texts();

    assert!(bench.chat.tick().is_empty(), "first sight: nothing yet");
    bench.clock.advance(6 * DAY);
    assert!(bench.chat.tick().is_empty(), "six idle days: nothing yet");
    bench.clock.advance(DAY);
    let warnings = bench.chat.tick();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    let delete_at = (bench.clock_now() + 3 * DAY) / 1000;
    for g in [idle, saved] {
        let w = warnings
            .iter()
            .find(|r| r.game() == Some(g))
            .expect("a warning for each game");
        assert_eq!(w.audience, Audience::Public);
        assert_eq!(
            w.text,
            t.f(
                "admin.idle.warning",
                &[("game", &g), ("idle", &7), ("days", &3), ("at", &delete_at)]
            )
        );
    }
    assert!(bench.chat.tick().is_empty(), "warned once");

    // The warning survives a restart; a move in one game cancels its deletion.
    bench.reopen();
    bench.any_move(saved);
    bench.clock.advance(DAY);
    let replies = bench.chat.tick();
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert_eq!(
        replies[0].text,
        t.f("admin.idle.cancelled", &[("game", &saved)])
    );
    assert_eq!(replies[0].game(), Some(saved));
    bench.clock.advance(2 * DAY - 1);
    assert!(bench.chat.tick().is_empty(), "not yet");
    bench.clock.advance(1);
    let replies = bench.chat.tick();
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert_eq!(
        replies[0].text,
        t.f("admin.idle.deleted", &[("game", &idle), ("idle", &10)])
    );
    assert_eq!(replies[0].game(), Some(idle));
    assert_eq!(
        bench.store.games().game(idle).expect("record").status,
        GameStatus::Abandoned
    );
    assert_eq!(
        bench.store.games().game_in_channel(500).expect("lookup"),
        None
    );
    assert_eq!(
        bench.store.games().game(saved).expect("record").status,
        GameStatus::Active
    );

    // The saved game's idle time starts again from the move.
    bench.clock.advance(4 * DAY);
    assert!(bench.chat.tick().is_empty());
    bench.clock.advance(DAY);
    let replies = bench.chat.tick();
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].game(), Some(saved));
    assert!(
        replies[0].text.contains("deleted in 3 days"),
        "{}",
        replies[0].text
    );
}

impl Bench {
    fn clock_now(&self) -> i64 {
        use skymines::chat::Clock;
        self.clock.now_ms()
    }
}

/// The meaning of rollback records in the log: which batches are in effect, and which
/// snapshots a replay may start from.
#[test]
fn replay_honours_rollbacks_including_undone_batches_they_bring_back() {
    use skymines::store::replay::{check_log, undone_set, usable_snapshot};
    let batch = |seq| LogEntry::Batch {
        seq,
        seat: 0,
        decisions: Vec::new(),
        at: 0,
    };
    let undo = |seq, undoes| LogEntry::Undo {
        seq,
        seat: 0,
        undoes,
        at: 0,
    };
    let rollback = |seq, back_to| LogEntry::Rollback {
        seq,
        back_to,
        by: 1,
        at: 0,
    };
    let log = vec![
        batch(1),
        batch(2),
        undo(3, 2),
        batch(4),
        rollback(5, 2),
        batch(6),
    ];
    assert_eq!(check_log(&log), Ok(()));
    // After 5: the state after move 2, where batch 2 was still in effect.
    assert_eq!(undone_set(&log[..5]), [4].into());
    assert_eq!(undone_set(&log), [4].into());
    // Back to 3: batch 2 undone again, batch 6 reverted.
    let mut more = log.clone();
    more.push(rollback(7, 3));
    assert_eq!(undone_set(&more), [2, 4, 6].into());
    // Snapshot 4 (after the undo) is not a base for the log with rollback 5 (which goes back
    // before it); snapshots at or after the rollback, or before both its target and the
    // batch the undo reverts, are.
    assert_eq!(usable_snapshot(&[0, 4], &log), Some(0));
    assert_eq!(usable_snapshot(&[0, 1, 4], &log), Some(1));
    assert_eq!(usable_snapshot(&[0, 4, 5], &log), Some(5));
    // A rollback forward is malformed.
    assert!(check_log(&[batch(1), rollback(2, 2)]).is_err());
}

#[test]
fn a_paused_game_is_never_deleted_and_its_idle_time_restarts_on_resume() {
    let bench = Bench::new("idle-paused");
    let game = bench.game(GUILD_A, 510, SEED);
    assert!(bench.chat.tick().is_empty(), "first sight: nothing yet");
    bench.clock.advance(6 * DAY);
    bench
        .store
        .schedule()
        .set_paused(game, Some(bench.clock_now()))
        .expect("pause");
    // Weeks of pause: no warning, no deletion.
    for _ in 0..30 {
        bench.clock.advance(DAY);
        assert!(bench.chat.tick().is_empty(), "paused games are left alone");
    }
    assert_eq!(
        bench.store.games().game(game).expect("record").status,
        GameStatus::Active
    );
    // Resumed: a fresh idle period, so the warning comes 7 days after the resume.
    bench
        .store
        .schedule()
        .set_paused(game, None)
        .expect("resume");
    assert!(bench.chat.tick().is_empty());
    bench.clock.advance(7 * DAY - 1);
    assert!(
        bench.chat.tick().is_empty(),
        "not 7 days since the resume yet"
    );
    bench.clock.advance(1);
    let replies = bench.chat.tick();
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert!(
        replies[0].text.contains("deleted in 3 days"),
        "{}",
        replies[0].text
    );
}
