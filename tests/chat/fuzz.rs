//! No input crashes anything: every registered command with every one of its options (and an
//! unknown one) gets non-ASCII, huge and control-character values, from an owner, a player and
//! a stranger, in a channel with a running game, in one with a lobby, and in a DM; clicks and
//! autocomplete get the same values, and whole lines go through the local mode's parser. No
//! request may panic, every one is answered, and a refused one changes nothing in the database.

use crate::support::chat as chat_support;

use chat_support::{Backing, Table};
use skymines::chat::{local_user_id, Input, Request, User};
use skymines::local::parse_line;
use skymines::store::{Location, StoreOptions};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

const GAME_CHANNEL: u64 = 1;
const LOBBY_CHANNEL: u64 = 2;

/// The values every option is tried with.
fn nasty_values() -> Vec<String> {
    let mut v: Vec<String> = [
        "ü",
        "€",
        "é1",
        "+1é1",
        "-é",
        "UTC+ü",
        "ü:ü",
        "1:é",
        "🂡🂡",
        "\u{0}",
        "\u{7}\u{1b}[2J",
        "\r\n",
        "\t",
        "\u{202e}evil",
        "\u{feff}",
        "a\u{0301}",
        "\u{10FFFF}",
        "-1",
        "0",
        "18446744073709551616",
        "99999999999999999999999999",
        "1e9",
        "NaN",
        "",
        " ",
        ":",
        ",,",
        "1,,2",
        "\"",
        "\\",
        "<@123> @everyone",
        "carbon2,ü",
        "ore+é",
        "2026-13-45T99:99",
        "1dé",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("x".repeat(100_000));
    v.push("é".repeat(30_000));
    v.push("1,".repeat(20_000));
    v.push("\u{0}".repeat(10_000));
    v
}

fn user(name: &str, owner: bool) -> User {
    User {
        id: local_user_id(name),
        name: name.to_string(),
        moderator: false,
        owner,
    }
}

/// Every row of every table, as text: equal before and after a refusal.
fn digest(db: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("the database opens");
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .expect("tables")
        .query_map([], |r| r.get(0))
        .expect("tables")
        .collect::<Result<_, _>>()
        .expect("tables");
    tables.retain(|t| t != "sqlite_sequence");
    let mut out = String::new();
    for t in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{t}\" ORDER BY rowid"))
            .or_else(|_| conn.prepare(&format!("SELECT * FROM \"{t}\"")))
            .expect("rows");
        let n = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                (0..n)
                    .map(|i| {
                        r.get::<_, rusqlite::types::Value>(i)
                            .map(|v| format!("{v:?}"))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .expect("rows");
        out.push_str(&t);
        for row in rows {
            out.push('|');
            out.push_str(&row.expect("a row").join(","));
        }
        out.push('\n');
    }
    out
}

/// Why `text` (a reply a user reads) is not safe to show, if it is not: a control character
/// other than the line break, an invisible or direction-changing character, or more than
/// `QUOTE_LIMIT` characters of one of the long hostile values quoted back.
fn raw_echo(text: &str) -> Option<String> {
    if let Some(c) = text.chars().find(|&c| {
        (c.is_control() && c != '\n')
            || matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0xFEFF)
    }) {
        return Some(format!("raw character U+{:04X}", c as u32));
    }
    let limit = skymines::text::QUOTE_LIMIT + 1;
    for long in [
        "x".repeat(limit),
        "é".repeat(limit),
        "1,".repeat(limit / 2 + 1),
    ] {
        if text.contains(&long) {
            return Some(format!(
                "a long value quoted ({} characters)",
                text.chars().count()
            ));
        }
    }
    None
}

/// A chat over a fresh database: a running two-player game (alice, bob) in channel 1, a lobby
/// (carol, dave) in channel 2. alice is an owner.
fn table(n: usize) -> Table {
    let t = Table::on(
        Backing::sqlite(&format!("fuzz-{n}")),
        StoreOptions::default(),
        chat_support::owner_alice_config(),
    );
    let chat = &t.chat;
    let owners = [local_user_id("alice")];
    for line in [
        "alice /skymines new players:2 seed:7",
        "bob /skymines join",
        "alice /skymines start",
    ] {
        let req = parse_line(line, &owners).expect("parses").expect("a line");
        assert!(!chat.answer(&req).refused, "{line}");
    }
    for line in ["carol /skymines new players:3", "dave /skymines join"] {
        let mut req = parse_line(line, &owners).expect("parses").expect("a line");
        req.place.channel = LOBBY_CHANNEL;
        assert!(!chat.answer(&req).refused, "{line}");
    }
    t
}

/// The places a request is tried in, by turns.
fn place(i: usize) -> (Location, bool) {
    let channel = [GAME_CHANNEL, LOBBY_CHANNEL, 99][i % 3];
    (
        Location {
            guild: None,
            channel,
        },
        i % 5 == 4,
    )
}

#[test]
fn every_command_and_option_survives_hostile_values_and_a_refusal_changes_nothing() {
    let commands = skymines::discord::command_options();
    assert!(commands.len() > 30, "{commands:?}");
    let values = nasty_values();
    let users = [user("alice", true), user("bob", false), user("eve", false)];
    let mut tables = 0;
    let mut t = table(tables);
    let (mut tried, mut refused, mut changed) = (0usize, 0usize, 0usize);
    let mut panics = Vec::new();
    let mut leaks = Vec::new();
    let mut echoes = Vec::new();
    let mut i = 0usize;
    let mut requests: Vec<Input> = Vec::new();
    for (command, options) in &commands {
        requests.push(Input::Command {
            name: command.clone(),
            options: BTreeMap::new(),
        });
        for option in options.iter().map(String::as_str).chain(["ü", "x"]) {
            for value in &values {
                let mut map = BTreeMap::new();
                map.insert(option.to_string(), value.clone());
                requests.push(Input::Command {
                    name: command.clone(),
                    options: map,
                });
            }
        }
    }
    for value in &values {
        requests.push(Input::Command {
            name: value.clone(),
            options: BTreeMap::new(),
        });
        for prefix in [
            "", "l:", "o:", "v:", "d:1:", "d:1:0:", "p:1:0:", "c:1:1:", "o:1",
        ] {
            requests.push(Input::Click {
                custom_id: format!("{prefix}{value}"),
            });
        }
    }
    for input in requests {
        i += 1;
        let (place, in_dm) = place(i);
        let req = Request {
            place,
            user: users[i % users.len()].clone(),
            input,
            in_dm,
        };
        let before = digest(&t.db());
        let answer = catch_unwind(AssertUnwindSafe(|| t.chat.answer(&req)));
        tried += 1;
        let Ok(answer) = answer else {
            panics.push(format!("{:.200?}", req.input));
            tables += 1;
            t = table(tables);
            continue;
        };
        assert!(
            !answer.replies.is_empty(),
            "no answer to {:.200?}",
            req.input
        );
        for reply in &answer.replies {
            let mut texts = vec![reply.text.as_str()];
            for c in &reply.choices {
                texts.push(&c.label);
                texts.push(&c.description);
            }
            for text in texts {
                if let Some(why) = raw_echo(text) {
                    let input: String = format!("{:?}", req.input).chars().take(120).collect();
                    let shown: String = text.chars().take(200).collect();
                    echoes.push(format!("{why} in the answer to {input}: {shown:?}"));
                }
            }
        }
        if let Input::Command { name, options } = &req.input {
            for (option, value) in options {
                let typed = catch_unwind(AssertUnwindSafe(|| {
                    t.chat.autocomplete(&req, option, value).len()
                }));
                if typed.is_err() {
                    panics.push(format!("autocomplete {name} {option}:{value:.80?}"));
                }
            }
        }
        if answer.refused {
            refused += 1;
            // A refusal is one private reply to the requester.
            if answer.replies.len() != 1
                || answer.replies[0].audience != skymines::chat::Audience::Private(req.user.id)
            {
                leaks.push(format!("{:.200?}", req.input));
            }
            let after = digest(&t.db());
            assert!(
                before == after,
                "refused {:.300?} from {} changed the database",
                req.input,
                req.user.name
            );
        } else if digest(&t.db()) != before {
            // An accepted change (a setting, an abort…): start again from the same tables.
            changed += 1;
            tables += 1;
            t = table(tables);
        }
    }
    eprintln!(
        "{tried} requests over {} commands: {refused} refused, {changed} accepted changes, {} panics",
        commands.len(),
        panics.len()
    );
    assert!(panics.is_empty(), "panics on: {panics:#?}");
    assert!(leaks.is_empty(), "refusals not private: {leaks:#?}");
    echoes.truncate(20);
    assert!(echoes.is_empty(), "raw or long echoes: {echoes:#?}");
    assert!(refused > tried / 2, "{refused} of {tried} refused");
}

#[test]
fn whole_lines_with_hostile_values_parse_or_are_refused_without_panicking() {
    let t = table(1000);
    let owners = [local_user_id("alice")];
    let values = nasty_values();
    let mut lines = 0;
    for (command, options) in skymines::discord::command_options() {
        for option in &options {
            for value in values.iter().step_by(3) {
                for line in [
                    format!("bob /{command} {option}:{value}"),
                    format!("bob /{command} {option}:\"{value}\" {value}"),
                    format!("{value} /{command} {value}"),
                ] {
                    lines += 1;
                    let parsed = catch_unwind(|| parse_line(&line, &owners));
                    let Ok(parsed) = parsed else {
                        panic!("the parser panicked on {line:.200?}");
                    };
                    if let Ok(Some(req)) = parsed {
                        let answered = catch_unwind(AssertUnwindSafe(|| t.chat.handle(&req)));
                        assert!(answered.is_ok(), "the chat panicked on {line:.200?}");
                    }
                }
            }
        }
    }
    assert!(lines > 1000, "{lines}");
}
