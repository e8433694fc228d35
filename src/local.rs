//! The local terminal mode: a second adapter over the chat layer, on the same store as the bot.
//! One command per line, `<user> <command> [option:value …]`, named exactly as the slash
//! commands (`alice /skymines new players:2 seed:42`, `bob /plan cards:carbon2,titanium2`);
//! a click is `<user> /click <custom id>` and `<user> /choose 3` picks choice 3 of the prompt.
//! Every reply is printed on its own line prefixed by its visibility: `[public]`,
//! `[private alice]`, `[dm bob]`, `[ping carol]`; images are written to files named in the reply.

use crate::chat::{local_user_id, Audience, Chat, Input, Reply, Request, User};
use crate::store::Location;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The local channel every line is said in.
pub const LOCAL_CHANNEL: u64 = 1;

/// Splits a line into words; double quotes group words (`cards:"a b"`).
pub fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut has = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                has = true;
            }
            c if c.is_whitespace() && !quoted => {
                if has {
                    words.push(std::mem::take(&mut current));
                    has = false;
                }
            }
            c => {
                current.push(c);
                has = true;
            }
        }
    }
    if has {
        words.push(current);
    }
    words
}

/// Parses one line into a request (None for blank lines and `#` comments). The speaker is one
/// of the bot's owners when their local id ([`local_user_id`] of the name) is in `owners`
/// (config `local_owners`, `--owner NAME`), with the rights an owner has on Discord; everyone
/// else is a plain player, as on Discord. Nobody is a channel moderator in the terminal.
pub fn parse_line(line: &str, owners: &[u64]) -> Result<Option<Request>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words = split_words(line);
    let Some((user, rest)) = words.split_first() else {
        return Ok(None);
    };
    let Some(first) = rest.first() else {
        return Err(format!(
            "`{}` said nothing: write `<user> /command [option:value …]`",
            crate::text::quote(user)
        ));
    };
    if !first.starts_with('/') {
        return Err(format!(
            "commands start with /, e.g. `{} /skymines status`",
            crate::text::quote(user)
        ));
    }
    let mut name = first.trim_start_matches('/').to_string();
    let mut options = BTreeMap::new();
    let mut positional = Vec::new();
    for w in &rest[1..] {
        match w.split_once(':') {
            Some((k, v)) if !k.is_empty() && name != "click" => {
                options.insert(k.to_string(), v.to_string());
            }
            // Subcommands (and the campaign's own): `/skymines campaign next`.
            _ if options.is_empty()
                && positional.is_empty()
                && (name == "skymines"
                    || name == "skymines campaign"
                    || name == "skymines admin") =>
            {
                name = format!("{name} {w}");
            }
            _ => positional.push(w.clone()),
        }
    }
    let id = local_user_id(user);
    let user = User {
        id,
        name: user.clone(),
        moderator: false,
        owner: owners.contains(&id),
    };
    let input = if name == "click" {
        // The custom id verbatim: it may hold quotes.
        let id = line
            .split_once("/click")
            .map(|(_, rest)| rest.trim().to_string())
            .unwrap_or_default();
        if id.is_empty() {
            return Err("write `/click <custom id>`".to_string());
        }
        Input::Click { custom_id: id }
    } else {
        if let [_, extra, ..] = positional.as_slice() {
            // `/choose 4 7`: one option at a time (a menu's several picks are `/click ID ID …`);
            // taking the first and dropping the rest would choose less than was typed.
            return Err(format!(
                "`{}`: one value only here (to pick several entries of a menu, write `/click ID ID …`)",
                crate::text::quote(extra)
            ));
        }
        if let Some(p) = positional.first() {
            // `/choose 3`, `/skymines help energy`, `/skymines log since-my-turn`.
            let key = match name.as_str() {
                "choose" => "option",
                "skymines help" => "topic",
                "skymines log" => "mode",
                _ => return Err(format!("`{p}`: options are written name:value")),
            };
            options.insert(key.to_string(), p.clone());
        }
        Input::Command { name, options }
    };
    Ok(Some(Request {
        place: Location {
            guild: None,
            channel: LOCAL_CHANNEL,
        },
        user,
        input,
        in_dm: false,
    }))
}

/// Prints replies and writes their images.
pub struct Printer {
    pub out_dir: PathBuf,
    names: HashMap<u64, String>,
    images_written: usize,
}

impl Printer {
    pub fn new(out_dir: &Path) -> Printer {
        Printer {
            out_dir: out_dir.to_path_buf(),
            names: HashMap::new(),
            images_written: 0,
        }
    }

    pub fn learn(&mut self, user: &User) {
        self.names.insert(user.id, user.name.clone());
    }

    /// The names of the seats of the game in the terminal's channel (a local id is made from
    /// the name), so a ping right after a restart names its player, not a number.
    pub fn learn_seats(&mut self, chat: &Chat) {
        let store = chat.store();
        let game = match store.games().game_in_channel(LOCAL_CHANNEL) {
            Ok(Some(game)) => game,
            _ => return,
        };
        if let Ok(state) = store.games().state(game) {
            for seat in &state.seats {
                self.names
                    .entry(local_user_id(&seat.name))
                    .or_insert_with(|| seat.name.clone());
            }
        }
    }

    fn name(&self, id: u64) -> String {
        self.names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    pub fn print(&mut self, replies: &[Reply], out: &mut dyn Write) -> std::io::Result<()> {
        for r in replies {
            let prefix = match r.audience {
                Audience::Public if r.status_of.is_some() => "[public] (status)".to_string(),
                Audience::Public => "[public]".to_string(),
                Audience::Private(u) => format!("[private {}]", self.name(u)),
                Audience::Dm(u) => format!("[dm {}]", self.name(u)),
                Audience::Ping(users) => {
                    let names: Vec<String> = users.users().iter().map(|u| self.name(*u)).collect();
                    format!("[ping {}]", names.join(", "))
                }
            };
            let prefix = crate::text::clean(&prefix);
            // Nothing a player typed may reach the terminal as a control sequence.
            let text = crate::chat::time::terminal_markers(&r.text);
            let text = crate::text::clean(&text);
            for (i, line) in text.lines().enumerate() {
                if i == 0 {
                    writeln!(out, "{prefix} {line}")?;
                } else {
                    writeln!(out, "{prefix}   {line}")?;
                }
            }
            let mut menu = None;
            for c in &r.choices {
                // A select menu's heading; several of its options are picked with one
                // `/click ID ID …`, as Discord sends a menu's picks together.
                if c.menu.is_some() && c.menu != menu {
                    if let Some(m) = &c.menu {
                        let several = if m.max_values > 1 {
                            " (/click ID ID … picks several)"
                        } else {
                            ""
                        };
                        let heading = crate::text::clean(&m.placeholder);
                        writeln!(out, "{prefix}   {heading}:{several}")?;
                    }
                }
                menu = c.menu.clone();
                // `/choose N` takes the option's own number (pages go on counting). A button
                // outside the list (Your turn, More choices, …) has no number: `/choose` would
                // pick an option, so it is shown as a button, clicked by its id.
                let description = if c.description.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", c.description)
                };
                let option = match c.number {
                    Some(n) => format!("({n}) {}{description}  [{}]", c.label, c.custom_id),
                    None => format!("• {}{description}  [{}]", c.label, c.custom_id),
                };
                writeln!(out, "{prefix}   {}", crate::text::clean(&option))?;
            }
            if let Some(img) = &r.image {
                std::fs::create_dir_all(&self.out_dir)?;
                self.images_written += 1;
                let path = self.out_dir.join(&img.file_name);
                std::fs::write(&path, &img.png)?;
                writeln!(
                    out,
                    "{prefix}   [image {}: {}]",
                    path.display(),
                    img.alt.lines().next().unwrap_or("")
                )?;
            }
        }
        Ok(())
    }
}

/// How a run of lines went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines read (blank ones and comments included).
    pub lines: usize,
    /// Requests refused, lines that did not parse and lines that were not UTF-8.
    pub refused: usize,
    /// With `strict`: the line the run stopped at.
    pub stopped_at: Option<usize>,
}

/// Runs lines from `input` through the chat layer, printing every reply: see [`run_lines`].
pub fn run(
    chat: &Chat,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    out_dir: &Path,
    interactive: bool,
) -> std::io::Result<()> {
    run_lines(chat, input, out, out_dir, interactive, false).map(|_| ())
}

/// Runs lines from `input` through the chat layer, printing every reply. A refused request is
/// followed by `[refused] line N`, a line that does not parse by `[error] line N: why`, a line
/// that is not UTF-8 by `[error] line N: …` and is skipped; with `strict` the run stops at the
/// first of them.
pub fn run_lines(
    chat: &Chat,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    out_dir: &Path,
    interactive: bool,
    strict: bool,
) -> std::io::Result<Summary> {
    let mut printer = Printer::new(out_dir);
    printer.learn_seats(chat);
    // Computer players whose turns a restart interrupted play on first.
    printer.print(&chat.resume_computers(), out)?;
    let mut summary = Summary::default();
    let mut bytes = Vec::new();
    loop {
        if interactive {
            write!(out, "> ")?;
            out.flush()?;
        }
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        summary.lines += 1;
        let n = summary.lines;
        let refused = match std::str::from_utf8(&bytes) {
            Err(e) => {
                writeln!(
                    out,
                    "[error] line {n}: not valid UTF-8 (byte {} of the line); skipped",
                    e.valid_up_to() + 1
                )?;
                true
            }
            Ok(line) if matches!(line.trim(), "quit" | "exit") => break,
            Ok(line) => match parse_line(line, &chat.config.owners) {
                Ok(Some(req)) => {
                    printer.learn(&req.user);
                    let answer = chat.answer(&req);
                    printer.print(&answer.replies, out)?;
                    if answer.refused {
                        writeln!(out, "[refused] line {n}")?;
                    }
                    answer.refused
                }
                Ok(None) => false,
                Err(e) => {
                    writeln!(out, "[error] line {n}: {}", crate::text::clean(&e))?;
                    true
                }
            },
        };
        if refused {
            summary.refused += 1;
            if strict {
                summary.stopped_at = Some(n);
                writeln!(out, "[stopped] line {n} was refused (--strict)")?;
                break;
            }
        }
    }
    out.flush()?;
    Ok(summary)
}
