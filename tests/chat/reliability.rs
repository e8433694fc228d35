//! Reliability through the chat layer: a reply confirms only what was committed (lobbies on a
//! read-only or full database), and the local mode's rights follow the configured owners.

use crate::support::chat as chat_support;

use crate::support::{shared_data as data, TempDir};
use chat_support::{private_to, public_text};
use skymines::chat::{local_user_id, Answer, Chat, Request};
use skymines::local::parse_line;
use skymines::store::{GameStatus, Store, StoreOptions};
use std::path::{Path, PathBuf};

fn temp(tag: &str) -> (TempDir, PathBuf) {
    let dir = TempDir::new(&format!("reliab-{tag}"));
    let db = dir.join("r.db");
    (dir, db)
}

fn chat_on(db: &Path, read_only: bool) -> Chat {
    chat_support::owner_alice_chat(db, read_only)
}

fn request(line: &str, channel: u64) -> Request {
    let mut req = parse_line(line, &[local_user_id("alice")])
        .expect("parses")
        .expect("a line");
    req.place.channel = channel;
    req
}

fn say(chat: &Chat, line: &str) -> Answer {
    chat.answer(&request(line, 1))
}

/// Opens, joins and starts a two-player game (alice hosting, bob) in `channel`.
fn start_game(chat: &Chat, channel: u64, seed: u64) {
    for line in [
        format!("alice /skymines new players:2 seed:{seed}"),
        "bob /skymines join".to_string(),
        "alice /skymines start".to_string(),
    ] {
        assert!(!chat.answer(&request(&line, channel)).refused, "{line}");
    }
}

/// The first button of the first player the game in `channel` waits on, as a line to say.
fn first_button(chat: &Chat, channel: u64) -> String {
    let place = request("alice /skymines status", channel).place;
    let user = chat.waiting_users(&place)[0];
    let id = chat.pending_choices(&place, user).remove(0).custom_id;
    let name = ["alice", "bob"]
        .into_iter()
        .find(|n| local_user_id(n) == user)
        .expect("a player");
    format!("{name} /click {id}")
}

/// The stored lobbies' channels (what a restart finds).
fn stored_lobbies(db: &Path) -> Vec<u64> {
    let (store, _) = Store::open(db, data(), StoreOptions::default()).expect("store");
    store
        .campaigns()
        .lobbies()
        .expect("lobbies")
        .into_iter()
        .map(|(c, _)| c)
        .collect()
}

#[test]
fn a_lobby_on_a_read_only_database_is_refused_not_announced() {
    let (_dir, db) = temp("ro");
    drop(chat_on(&db, false));
    let chat = chat_on(&db, true);
    let a = say(&chat, "bob /skymines new players:2");
    assert!(a.refused, "{:?}", a.replies);
    let text = private_to(&a.replies, "bob");
    assert!(text.contains("read-only"), "{text}");
    assert_eq!(public_text(&a.replies), "", "nothing is announced");
    // Nothing is gathered in memory either: a join finds no lobby.
    let j = say(&chat, "carol /skymines join");
    assert!(j.refused);
    drop(chat);
    assert_eq!(stored_lobbies(&db), Vec::<u64>::new());

    // A lobby stored while writable; joining, leaving, its language and closing it on the
    // read-only database are refused and change nothing.
    let chat = chat_on(&db, false);
    assert!(!say(&chat, "bob /skymines new players:3").refused);
    assert!(!say(&chat, "carol /skymines join").refused);
    drop(chat);
    let chat = chat_on(&db, true);
    for line in [
        "dave /skymines join",
        "carol /skymines leave",
        "bob /skymines settings game_language:de",
        "bob /skymines abort",
        "bob /skymines leave",
    ] {
        let a = say(&chat, line);
        assert!(a.refused, "{line}: {:?}", a.replies);
        assert_eq!(public_text(&a.replies), "", "{line}");
    }
    let status = say(&chat, "bob /skymines status");
    let text = public_text(&status.replies);
    assert!(text.contains("bob, carol"), "{text}");
    drop(chat);
    let chat = chat_on(&db, false);
    let text = public_text(&say(&chat, "bob /skymines status").replies);
    assert!(
        text.contains("bob, carol") && !text.contains("dave"),
        "{text}"
    );
}

#[test]
fn on_a_full_disk_every_announced_lobby_is_stored_and_no_refused_one() {
    let (_dir, db) = temp("full");
    let (chat, store) = chat_support::owner_alice_chat_and_store(&db, false);
    store
        .admin()
        .set_page_limit(Some(store.admin().page_count().expect("pages") + 2))
        .expect("limit");
    let (mut confirmed, mut refused) = (Vec::new(), 0);
    for channel in 10..5_000u64 {
        let long = format!("player{channel}{}", "x".repeat(20));
        let opened = chat.answer(&request(
            &format!("{long} /skymines new players:4"),
            channel,
        ));
        let joined = chat.answer(&request("carol /skymines join", channel));
        if !opened.refused {
            assert!(public_text(&opened.replies).contains("opened"));
            confirmed.push(channel);
        } else {
            refused += 1;
            let text = private_to(&opened.replies, &long);
            assert!(text.contains("full"), "{text}");
            assert!(joined.refused, "no lobby to join");
        }
        if refused >= 3 {
            break;
        }
    }
    assert_eq!(refused, 3, "the limit must bite");
    assert!(confirmed.len() > 5);
    drop(chat);
    drop(store);
    assert_eq!(stored_lobbies(&db), confirmed);
}

#[test]
fn local_owners_have_the_owners_rights_and_other_names_only_a_players() {
    let (_dir, db) = temp("owners");
    let chat = chat_on(&db, false);
    // Only an owner chooses a seed.
    let a = say(&chat, "bob /skymines new players:2 seed:5");
    assert!(a.refused);
    assert!(
        private_to(&a.replies, "bob").contains("owner"),
        "{:?}",
        a.replies
    );
    assert!(!say(&chat, "bob /skymines new players:2").refused);
    assert!(!say(&chat, "carol /skymines join").refused);
    assert!(!say(&chat, "bob /skymines start").refused);
    // dave (a stranger) and carol (a player, not the host) may not abort bob's game or export
    // it while it runs; the admin tools are refused.
    for line in [
        "dave /skymines abort",
        "carol /skymines abort",
        "dave /skymines export",
        "carol /skymines export",
        "dave /skymines admin list",
        "dave /skymines admin report game:1",
    ] {
        let a = say(&chat, line);
        assert!(a.refused, "{line}: {:?}", a.replies);
    }
    let store = chat.store();
    assert_eq!(
        store.games().game(1).expect("game").status,
        GameStatus::Active
    );
    // alice, a configured owner, may.
    assert!(!say(&chat, "alice /skymines admin list all:yes").refused);
    assert!(!say(&chat, "alice /skymines export").refused);
    assert!(!say(&chat, "alice /skymines abort").refused);
    assert_ne!(
        store.games().game(1).expect("game").status,
        GameStatus::Active
    );
}

/// Two processes on one database (two stores on one file): the first has the game loaded and
/// has shown its prompt; the second ends, pauses or rolls the game back; the old button in the
/// first is then refused ("this game has changed; nothing was saved") with the game's fresh
/// state, and the stored game stays as the second left it.
#[test]
fn a_move_against_a_game_another_process_changed_is_refused() {
    let (_dir, db) = temp("two");
    let a = chat_on(&db, false);
    // Games 1, 2 and 3 in channels 1, 2 and 3, each with a prompt shown in process A.
    let mut buttons = Vec::new();
    for channel in 1..=3u64 {
        start_game(&a, channel, 11);
        buttons.push((channel, first_button(&a, channel)));
    }
    let b = chat_on(&db, false);
    assert!(!b.answer(&request("alice /skymines abort", 1)).refused);
    assert!(!b.answer(&request("alice /skymines pause", 2)).refused);
    // Game 3: B moves on once, then an owner rolls it back to the start.
    assert!(!b.answer(&request(&first_button(&b, 3), 3)).refused);
    assert!(
        !b.answer(&request("alice /skymines admin rollback move:0 game:3", 3))
            .refused
    );
    let seqs: Vec<u64> = (1..=3)
        .map(|g| b.store().games().log(g).expect("log").len() as u64)
        .collect();

    for (i, (channel, line)) in buttons.iter().enumerate() {
        let answer = a.answer(&request(line, *channel));
        assert!(answer.refused, "game {}: {:?}", i + 1, answer.replies);
        let name = line.split(' ').next().expect("a name");
        let text = private_to(&answer.replies, name);
        assert_eq!(public_text(&answer.replies), "", "nothing is announced");
        if i == 1 {
            // The chat reads the pause before it moves (the store's own check is for a pause
            // that comes in between: see store_errors).
            assert!(text.contains("paused"), "{text}");
            continue;
        }
        if text.contains("out of date") {
            // The chat saw the newer version itself and refused the old button.
            continue;
        }
        assert!(text.contains("has changed"), "{text}");
        assert!(text.contains("nothing was saved"), "{text}");
        if i == 0 {
            assert!(text.contains("abandoned"), "the fresh state: {text}");
        } else {
            assert!(text.contains("Round"), "the fresh state: {text}");
        }
    }
    // A fresh process finds the games as B left them: no move of A's was stored.
    drop(a);
    drop(b);
    let (store, _) = Store::open(&db, data(), StoreOptions::default()).expect("store");
    assert_eq!(
        store.games().game(1).expect("game").status,
        GameStatus::Abandoned
    );
    assert_eq!(
        store.games().game(2).expect("game").status,
        GameStatus::Active
    );
    assert!(store.schedule().paused_at(2).expect("paused").is_some());
    for g in 1..=3i64 {
        assert_eq!(
            store.games().log(g).expect("log").len() as u64,
            seqs[g as usize - 1]
        );
    }
}

/// Games 2 to 6 each get one stored value that does not decode (options that are not UTF-8,
/// a seed that is text, an unknown decision in a move, a seat name or a snapshot that is not
/// UTF-8): start-up
/// sets aside exactly those as damaged with the reason, game 1 plays on, `admin list` lists
/// them all and `admin report` gives each one's reason.
#[test]
fn one_unreadable_game_is_set_aside_and_the_others_play_on() {
    let (_dir, db) = temp("damaged");
    let chat = chat_on(&db, false);
    for channel in 1..=6u64 {
        start_game(&chat, channel, 3);
    }
    assert!(!chat.answer(&request(&first_button(&chat, 4), 4)).refused);
    drop(chat);
    let conn = rusqlite::Connection::open(&db).expect("opens");
    conn.execute_batch(
        "UPDATE games SET options = CAST(X'FFFE7B' AS TEXT) WHERE id = 2;
         UPDATE games SET seed = 'not a number' WHERE id = 3;
         DROP TRIGGER moves_no_update;
         UPDATE moves SET decisions = '[{\"Bogus\":1}]' WHERE game_id = 4;
         CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
         BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
         UPDATE seats SET name = CAST(X'FF41' AS TEXT) WHERE game_id = 5;
         UPDATE snapshots SET state = CAST(X'FF7B' AS TEXT) WHERE game_id = 6;",
    )
    .expect("damage");
    drop(conn);

    let (store, report) =
        Store::open(&db, data(), StoreOptions::default()).expect("start-up goes on");
    assert_eq!(report.restored, 1);
    let damaged: Vec<i64> = report.damaged.iter().map(|(g, _)| *g).collect();
    assert_eq!(damaged, [2, 3, 4, 5, 6], "{:?}", report.damaged);
    let words = ["options", "seed", "log", "seat", "snapshot"];
    for ((_, reason), word) in report.damaged.iter().zip(words) {
        assert!(reason.contains(word), "{reason}");
    }
    let lines = report.startup_lines(&db);
    assert!(lines[0].1.contains(&db.display().to_string()), "{lines:?}");
    assert_eq!(lines.iter().filter(|(warning, _)| *warning).count(), 5);
    drop(store);

    let chat = chat_on(&db, false);
    let list = chat.answer(&request("alice /skymines admin list all:yes", 9));
    assert!(!list.refused, "{:?}", list.replies);
    let text = private_to(&list.replies, "alice");
    for g in 1..=6 {
        assert!(text.contains(&format!("#{g} ")), "game {g}: {text}");
    }
    assert_eq!(text.matches("damaged").count(), 5, "{text}");
    for (g, word) in (2..=6).zip(words) {
        let r = chat.answer(&request(
            &format!("alice /skymines admin report game:{g}"),
            9,
        ));
        assert!(!r.refused, "game {g}: {:?}", r.replies);
        let text = private_to(&r.replies, "alice");
        assert!(
            text.contains("damaged") && text.contains(word),
            "game {g}: {text}"
        );
    }
    // Game 1 plays on.
    assert!(!chat.answer(&request(&first_button(&chat, 1), 1)).refused);
}

/// An existing empty file where games were expected is opened as new, with a loud warning
/// naming the file and what to do.
#[test]
fn an_empty_database_file_is_warned_about() {
    let (_dir, db) = temp("empty");
    std::fs::write(&db, b"").expect("an empty file");
    let (store, report) = Store::open(&db, data(), StoreOptions::default()).expect("opens");
    assert!(report.found_empty);
    let lines = report.startup_lines(&db);
    let warning = lines
        .iter()
        .find(|(w, _)| *w)
        .map(|(_, l)| l.clone())
        .expect("a warning");
    assert!(warning.contains("EMPTY") && warning.contains(&db.display().to_string()));
    assert!(
        warning.contains("backup") && warning.contains("-wal"),
        "{warning}"
    );
    drop(store);
    // The next start finds a (new, now initialised) database: no warning.
    let (_, report) = Store::open(&db, data(), StoreOptions::default()).expect("opens");
    assert!(!report.found_empty);
    assert!(report.startup_lines(&db).iter().all(|(w, _)| !*w));
}
