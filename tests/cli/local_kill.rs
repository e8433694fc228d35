//! The kill test: a scripted three-player game is typed into the local mode (`skymines local`,
//! a child process, one line at a time as a player would), and the child is SIGKILLed at
//! random points, also while a line is being handled. After every kill the database is opened
//! and every move the local mode confirmed must be in the game's log exactly once and in order
//! (the line in flight may or may not have been stored, nothing else); the game then goes on
//! in a new child from where the log stands. The script is made beforehand by playing the same
//! seed through the chat layer in this process, one button click per move. The local mode's
//! per-user rate limit stays on: the driver keeps each player under it.
//!
//! After every kill every game also still waits on each of its people with their reminder and
//! deadline (and on nobody else): a move's consequences for the schedule are stored in the
//! move's transaction. `a_crash_right_after_any_commit_leaves_every_wait_reminded` stops the
//! child exactly after each of its commits in turn (the `test-support` feature's crash point),
//! where a random kill would rarely land.
//!
//! `kills_during_a_scripted_game_lose_and_duplicate_nothing` is the bounded version the suite
//! runs; `many_kills_during_scripted_games` (ignored; `cargo test --release --test cli
//! local_kill:: -- --ignored`) is the long one.

use crate::support::chat as chat_support;

use crate::support::{shared_data as data, TempDir};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::local_user_id;
use skymines::engine;
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{GameId, GameStatus, Location, LogEntry, SeatOwner, Store, StoreOptions};
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const NAMES: [&str; 3] = ["alice", "bob", "carol"];

fn temp(tag: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(&format!("kill-{tag}"));
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// A move as the log keeps it, without its time.
#[derive(Debug, Clone, PartialEq)]
struct Move(u64, String);

fn moves(log: &[LogEntry]) -> Vec<Move> {
    log.iter()
        .map(|e| match e {
            LogEntry::Batch {
                seq,
                seat,
                decisions,
                ..
            } => Move(
                *seq,
                format!("{seat}:{}", serde_json::to_string(decisions).expect("json")),
            ),
            other => Move(other.seq(), format!("{other:?}")),
        })
        .collect()
}

/// The opening lines (not killed) and the move lines, each one button click that stores one
/// move, from playing `seed` to the end (or `max` moves) in this process; and the log they make.
fn script(dir: &Path, seed: u64, max: usize) -> (Vec<String>, Vec<String>, Vec<Move>) {
    let chat = chat_support::owner_alice_chat(&dir.join("reference.db"), false);
    let owners = [local_user_id("alice")];
    let opening = vec![
        format!("alice /skymines new players:3 seed:{seed}"),
        "bob /skymines join".to_string(),
        "carol /skymines join".to_string(),
        "alice /skymines start".to_string(),
    ];
    for line in &opening {
        let req = parse_line(line, &owners).expect("parses").expect("a line");
        assert!(!chat.answer(&req).refused, "{line}");
    }
    let place = Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    };
    let store = chat.store();
    let game = store
        .games()
        .game_in_channel(LOCAL_CHANNEL)
        .expect("lookup")
        .expect("the game");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut lines = Vec::new();
    while lines.len() < max {
        let waiting = chat.waiting_users(&place);
        if waiting.is_empty() {
            break;
        }
        let user = waiting[rng.gen_range(0..waiting.len())];
        let name = NAMES
            .iter()
            .find(|n| local_user_id(n) == user)
            .expect("a player");
        let choices: Vec<String> = chat
            .pending_choices(&place, user)
            .into_iter()
            .map(|c| c.custom_id)
            // One decision (`d:`) or an option of several played together (`n:`).
            .filter(|id| id.starts_with("d:") || id.starts_with("n:"))
            .collect();
        assert!(!choices.is_empty(), "{name} is waited on and has a choice");
        let line = format!("{name} /click {}", choices[rng.gen_range(0..choices.len())]);
        let before = store.games().log(game).expect("log").len();
        let req = parse_line(&line, &owners).expect("parses").expect("a line");
        assert!(!chat.answer(&req).refused, "{line}");
        assert_eq!(
            store.games().log(game).expect("log").len(),
            before + 1,
            "one click, one move: {line}"
        );
        lines.push(line);
    }
    let log = moves(&store.games().log(game).expect("log"));
    (opening, lines, log)
}

/// The local mode's configuration: alice owns it, and a stalled turn has a deadline.
const CONFIG: &str = "local_owners = [\"alice\"]\ndeadline_hours = 48\n";

/// The game, if it runs, waits on each of its people with their reminder and deadline, since
/// when it waits on them, and keeps no reminder of a seat it does not wait on.
fn assert_waits_reminded(store: &Store, game: GameId, when: &str) {
    let record = store.games().game(game).expect("the game");
    if record.status != GameStatus::Active {
        return;
    }
    let state = store.games().state(game).expect("the state");
    let waited = engine::waiting_on(&state);
    let seats = store.people().seats(game).expect("the seats");
    let reminders = store.schedule().reminders(game).expect("the reminders");
    for seat in &seats {
        let kinds: Vec<&str> = reminders
            .iter()
            .filter(|r| r.seat == seat.seat)
            .map(|r| r.kind.as_str())
            .collect();
        if !waited.contains(&seat.seat) {
            assert!(
                kinds.is_empty() && seat.waiting_since.is_none(),
                "{when}: {} is not waited on but has {kinds:?} (waiting since {:?})",
                seat.name,
                seat.waiting_since
            );
        } else if matches!(seat.owner, SeatOwner::Discord(_)) {
            assert_eq!(
                kinds,
                ["deadline", "remind"],
                "{when}: the game waits on {} without their reminder and deadline",
                seat.name
            );
            assert!(
                seat.waiting_since.is_some(),
                "{when}: the game waits on {} since an unknown time",
                seat.name
            );
        }
    }
}

/// The chat's per-user rate limit (12 commands in 10 s) applies to the interactive local mode:
/// the driver keeps each player under it, as a fast typist would have to.
const RATE: (usize, Duration) = (12, Duration::from_millis(10_300));

/// The local mode in a child process, typed into line by line.
struct Local {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// When each player's recent lines were sent to this child.
    sent: HashMap<String, VecDeque<Instant>>,
}

impl Local {
    fn start(db: &Path, config: &Path) -> Local {
        Local::start_crashing(db, config, None).expect("the first prompt")
    }

    /// The local mode, aborting right after its `crash_after`th commit when given (None: the
    /// child is gone before its first prompt).
    fn start_crashing(db: &Path, config: &Path, crash_after: Option<u64>) -> Option<Local> {
        let mut command = Command::new(env!("CARGO_BIN_EXE_skymines"));
        command
            .args(["local", "--no-images", "--db"])
            .arg(db)
            .arg("--config")
            .arg(config)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(n) = crash_after {
            command.env("SKYMINES_TEST_CRASH_AFTER_COMMITS", n.to_string());
        }
        let mut child = command.spawn().expect("the local mode starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let mut local = Local {
            child,
            stdin,
            stdout,
            sent: HashMap::new(),
        };
        match local.until_prompt() {
            Some(_) => Some(local),
            None => {
                local.kill();
                None
            }
        }
    }

    /// The output up to the next prompt (None: the child is gone).
    fn until_prompt(&mut self) -> Option<String> {
        let mut text = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            if text.ends_with(b"\n> ") || text == b"> " {
                return Some(String::from_utf8_lossy(&text).into_owned());
            }
            match self.stdout.read(&mut buf) {
                Ok(0) | Err(_) => return None,
                Ok(n) => text.extend_from_slice(&buf[..n]),
            }
        }
    }

    fn send(&mut self, line: &str) {
        let name = line.split(' ').next().unwrap_or_default().to_string();
        let times = self.sent.entry(name).or_default();
        while times.front().is_some_and(|t| t.elapsed() >= RATE.1) {
            times.pop_front();
        }
        if times.len() >= RATE.0 {
            if let Some(oldest) = times.pop_front() {
                std::thread::sleep(RATE.1.saturating_sub(oldest.elapsed()));
            }
        }
        times.push_back(Instant::now());
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Says one line and waits for its replies: whether the local mode accepted it.
    fn say(&mut self, line: &str) -> bool {
        self.try_say(line).expect("the local mode answers")
    }

    /// [`Local::say`]; None when the child died before it answered.
    fn try_say(&mut self, line: &str) -> Option<bool> {
        self.send(line);
        let out = self.until_prompt()?;
        Some(!out.contains("[refused]") && !out.contains("[error]"))
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The figures of a kill run.
#[derive(Debug, Default)]
struct Figures {
    kills: usize,
    confirmed: usize,
    in_flight_stored: usize,
    lost: usize,
    duplicated: usize,
}

/// Plays `seed` through killed children; returns the figures.
fn killed_game(
    seed: u64,
    max_moves: usize,
    mut kills_left: usize,
    rng: &mut ChaCha8Rng,
) -> Figures {
    let (_dir, dir) = temp(&seed.to_string());
    let (opening, lines, reference) = script(&dir, seed, max_moves);
    let db = dir.join("killed.db");
    let config = dir.join("config.toml");
    std::fs::write(&config, CONFIG).expect("config");
    let mut figures = Figures::default();
    let mut local = Local::start(&db, &config);
    for line in &opening {
        assert!(local.say(line), "{line}");
    }
    // next: the index of the next move line; confirmed: moves the local mode confirmed.
    let (mut next, mut confirmed) = (0usize, 0usize);
    while next < lines.len() {
        let run = if kills_left > 0 {
            rng.gen_range(0..(lines.len() / (kills_left + 1)).max(2))
        } else {
            usize::MAX
        };
        let mut said = 0;
        while next < lines.len() && said < run {
            assert!(local.say(&lines[next]), "move {} refused", next + 1);
            next += 1;
            said += 1;
            confirmed = next;
        }
        if next >= lines.len() {
            break;
        }
        // The kill: usually while the next line is handled, sometimes between lines.
        if rng.gen_ratio(4, 5) {
            local.send(&lines[next]);
            std::thread::sleep(Duration::from_micros(rng.gen_range(0..4_000)));
        }
        local.kill();
        kills_left -= 1;
        figures.kills += 1;
        // Every confirmed move once and in order; the one in flight at most once.
        let (store, report) =
            Store::open(&db, data(), StoreOptions::default()).expect("reopens after the kill");
        assert!(report.damaged.is_empty(), "{:?}", report.damaged);
        // The only game of a fresh database (it may have finished with the line in flight).
        let game = 1;
        assert!(store.games().game(game).is_ok(), "the game survives");
        assert_waits_reminded(
            &store,
            game,
            &format!("seed {seed}, kill {}", figures.kills),
        );
        let stored = moves(&store.games().log(game).expect("log"));
        drop(store);
        figures.lost += confirmed.saturating_sub(stored.len());
        figures.duplicated += stored.len().saturating_sub(confirmed + 1);
        assert_eq!(
            stored[..],
            reference[..stored.len().min(reference.len())],
            "seed {seed}: the stored moves are the confirmed ones, in order"
        );
        assert!(
            (confirmed..=confirmed + 1).contains(&stored.len()),
            "seed {seed}: {} moves confirmed, {} stored",
            confirmed,
            stored.len()
        );
        figures.in_flight_stored += stored.len() - confirmed;
        next = stored.len();
        confirmed = next;
        local = Local::start(&db, &config);
    }
    local.kill();
    figures.confirmed = confirmed;
    let (store, _) = Store::open(&db, data(), StoreOptions::default()).expect("reopens");
    let game = 1;
    assert_eq!(
        moves(&store.games().log(game).expect("log")),
        reference,
        "seed {seed}"
    );
    figures
}

fn report(figures: &[Figures], started: Instant) -> Figures {
    let mut sum = Figures::default();
    for f in figures {
        sum.kills += f.kills;
        sum.confirmed += f.confirmed;
        sum.in_flight_stored += f.in_flight_stored;
        sum.lost += f.lost;
        sum.duplicated += f.duplicated;
    }
    eprintln!(
        "kill test: {} games, {} kills, {} confirmed moves, {} lost, {} duplicated ({} lines in flight at a kill were stored), {:.1} s",
        figures.len(),
        sum.kills,
        sum.confirmed,
        sum.lost,
        sum.duplicated,
        sum.in_flight_stored,
        started.elapsed().as_secs_f64()
    );
    sum
}

#[test]
fn kills_during_a_scripted_game_lose_and_duplicate_nothing() {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(0x0c1a);
    let figures = vec![killed_game(41, 120, 12, &mut rng)];
    let sum = report(&figures, started);
    assert_eq!((sum.lost, sum.duplicated), (0, 0));
    assert!(sum.kills >= 10 && sum.confirmed >= 100, "{sum:?}");
}

#[test]
#[ignore = "long: many kills over whole games (run with --ignored)"]
fn many_kills_during_scripted_games() {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(0x10c4);
    let figures: Vec<Figures> = (50..56)
        .map(|seed| killed_game(seed, usize::MAX, 40, &mut rng))
        .collect();
    let sum = report(&figures, started);
    assert_eq!((sum.lost, sum.duplicated), (0, 0));
}

/// A child that aborts right after its Nth commit, for N from 1 on, across a scripted game:
/// after each crash every wait has its reminder and deadline, and the moves confirmed are
/// stored once, in order.
#[test]
fn a_crash_right_after_any_commit_leaves_every_wait_reminded() {
    let (_dir, dir) = temp("commits");
    let (opening, lines, reference) = script(&dir, 43, 40);
    let db = dir.join("crashed.db");
    let config = dir.join("config.toml");
    std::fs::write(&config, CONFIG).expect("config");
    let mut local = Local::start(&db, &config);
    for line in &opening {
        assert!(local.say(line), "{line}");
    }
    local.kill();
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0ff);
    let (mut next, mut crashes) = (0usize, 0usize);
    while next < lines.len() {
        // Each child stops after 1 to 3 commits: every commit of the game is a crash point
        // for some child.
        let crash_after = rng.gen_range(1..=3);
        if let Some(mut child) = Local::start_crashing(&db, &config, Some(crash_after)) {
            while next < lines.len() {
                match child.try_say(&lines[next]) {
                    Some(accepted) => {
                        assert!(accepted, "move {} refused", next + 1);
                        next += 1;
                    }
                    None => break,
                }
            }
            child.kill();
        }
        crashes += 1;
        let (store, report) =
            Store::open(&db, data(), StoreOptions::default()).expect("reopens after the crash");
        assert!(report.damaged.is_empty(), "{:?}", report.damaged);
        let stored = moves(&store.games().log(1).expect("log"));
        assert_eq!(stored[..], reference[..stored.len()], "crash {crashes}");
        assert!(
            stored.len() >= next,
            "crash {crashes}: a confirmed move was lost"
        );
        assert_waits_reminded(
            &store,
            1,
            &format!("crash {crashes} (after commit {crash_after})"),
        );
        next = stored.len();
        assert!(crashes < 10 * lines.len(), "no progress");
    }
    assert!(crashes >= 10, "{crashes} crashes");
}
