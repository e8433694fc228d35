//! Living with a game over days, through the chat layer with the injected clock: leaving and
//! taking a seat over mid-round (the seat then carries its person's name), kicking inactive
//! players, vacant seats played safely, pause and resume, away-until and quiet hours delaying
//! reminders, rate limits on clicks, sanitised names, games archived when their channel is
//! gone, and restarts of the bot (on SQLite, and on PostgreSQL when `SKYMINES_TEST_PG_URL`
//! names a server): a taken-over seat keeps its name, a turn under way is still posted whole.

use skymines::chat::time::{discord_markers, terminal_markers};
use skymines::chat::{local_user_id, Audience, Chat, ChatConfig, Reply, Request};
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{GameStatus, Location, StoreOptions};

use crate::support::chat as chat_support;
use chat_support::{pinged, private_to, public_text, Backing, Table};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;
/// 2023-11-14 22:13:20 UTC.
const START: i64 = 1_700_000_000_000;

fn place() -> Location {
    Location {
        guild: Some(7),
        channel: LOCAL_CHANNEL,
    }
}

fn config() -> ChatConfig {
    ChatConfig {
        images: false,
        reminder_after_ms: HOUR,
        deadline_ms: None,
        rate_limit: 0,
        kick_after_ms: DAY,
        ..ChatConfig::default()
    }
}

fn table(tag: &str, config: ChatConfig) -> Table {
    table_on(Backing::sqlite(tag), config)
}

fn table_on(backing: Backing, config: ChatConfig) -> Table {
    let mut t = Table::on(backing, StoreOptions::default(), config);
    // Lines from users who are neither moderators nor the bot's owners, in a server.
    t.owners = Vec::new();
    t.place = place();
    t
}

/// A request from a user who is neither a moderator nor one of the bot's owners.
fn request(line: &str, moderator: bool) -> Request {
    let mut req = parse_line(line, &[])
        .expect("line parses")
        .expect("not blank");
    req.user.owner = false;
    req.user.moderator = moderator;
    req.place = place();
    req
}

impl Table {
    fn say_as_moderator(&self, line: &str) -> Vec<Reply> {
        self.chat.handle(&request(line, true))
    }

    fn choose_labelled(&mut self, user: &str, label_start: &str) -> Option<Vec<Reply>> {
        let choices = self.chat.pending_choices(&place(), local_user_id(user));
        let i = choices
            .iter()
            .position(|c| c.label.starts_with(label_start))?;
        Some(self.say(&format!("{user} /choose option:{}", i + 1)))
    }

    /// Plans up to two cards and finishes planning.
    fn plan_some(&mut self, user: &str) {
        for _ in 0..2 {
            if self.choose_labelled(user, "Plan ").is_none() {
                break;
            }
        }
        let done = self.choose_labelled(user, "Done planning");
        assert!(done.is_some(), "{user} can finish planning");
    }
}

/// Opens and starts a two-player game of alice (the host) and bob.
fn start(t: &mut Table) {
    t.say("alice /skymines new players:2");
    t.say("bob /skymines join");
    let r = t.say("alice /skymines start");
    assert!(public_text(&r).contains("begins"), "{r:?}");
}

/// Plays both plans; returns (the player whose turn it is, the other one).
fn to_action_phase(t: &mut Table) -> (&'static str, &'static str) {
    t.plan_some("alice");
    t.plan_some("bob");
    let waiting = t.waiting();
    assert_eq!(waiting.len(), 1, "one player's turn in the Action phase");
    if waiting[0] == local_user_id("alice") {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    }
}

/// The custom id of the leave confirmation button.
fn leave(t: &mut Table, user: &str) -> Vec<Reply> {
    let ask = t.say(&format!("{user} /skymines leave"));
    assert!(
        matches!(ask[0].audience, Audience::Private(_)) && ask[0].text.contains("Leave this game"),
        "{ask:?}"
    );
    let id = ask[0].choices[0].custom_id.clone();
    t.click(user, &id)
}

#[test]
fn a_seat_is_taken_over_mid_round_and_the_newcomer_plays_on() {
    let mut t = table("takeover", config());
    start(&mut t);
    let (active, leaver) = to_action_phase(&mut t);
    let left = leave(&mut t, leaver);
    let text = public_text(&left);
    assert!(text.contains(&format!("{leaver} left the game")), "{text}");
    assert!(
        text.contains("From now on a computer player (normal) plays seat"),
        "{text}"
    );
    // Not waited on yet: the computer player has not played the seat.
    assert_eq!(t.waiting(), vec![local_user_id(active)]);

    // Before joining, carol sees nothing private.
    let r = t.say("carol /hand");
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
    let joined = t.say("carol /skymines join");
    let public = public_text(&joined);
    assert!(public.contains("carol takes over seat"), "{public}");
    assert!(
        !public.contains("Hand:"),
        "the public announcement shows no hand: {public}"
    );
    let private = private_to(&joined, "carol");
    assert!(
        private.contains("Its cards are yours") && private.contains("Hand:"),
        "{private}"
    );
    assert!(private_to(&joined, leaver).is_empty());
    let r = t.say("carol /hand");
    assert!(r[0].text.contains("Hand:"), "{}", r[0].text);

    // The active player finishes their turn; the turn reaches carol, not the leaver.
    for _ in 0..100 {
        if t.waiting() != vec![local_user_id(active)] {
            break;
        }
        t.say(&format!("{active} /choose option:1"));
    }
    let waiting = t.waiting();
    assert!(
        waiting.contains(&local_user_id("carol")),
        "carol plays the seat: {waiting:?}"
    );
    assert!(!waiting.contains(&local_user_id(leaver)));
    let r = t.say(&format!("{leaver} /choose option:1"));
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
    let r = t.say(&format!("{leaver} /skymines leave"));
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
    let r = t.say("carol /choose option:1");
    assert!(
        !r.iter()
            .any(|r| r.text.contains("not playing") || r.text.contains("not your turn")),
        "{r:?}"
    );
    // The seat is taken: nobody else can join.
    let r = t.say("dave /skymines join");
    assert!(r[0].text.contains("no open seat"), "{}", r[0].text);
}

#[test]
fn kicks_need_the_host_and_an_inactive_player() {
    let mut t = table("kick", config());
    start(&mut t);
    let r = t.say("carol /skymines kick player:bob");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
    let r = t.say("bob /skymines kick player:alice");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
    let r = t.say("alice /skymines kick player:bob");
    assert!(r[0].text.contains("not inactive"), "{}", r[0].text);
    assert!(
        r[0].text.contains("⟨t:"),
        "the time a kick becomes possible: {}",
        r[0].text
    );
    let r = t.say("alice /skymines kick");
    assert!(r[0].text.contains("Whom?"), "{}", r[0].text);
    let r = t.say("alice /skymines kick player:zed");
    assert!(
        r[0].text.contains("No player called `zed`"),
        "{}",
        r[0].text
    );
    let r = t.say("alice /skymines kick player:alice");
    assert!(r[0].text.contains("/skymines leave"), "{}", r[0].text);

    // alice plans; a day later bob still has not. alice is no longer waited on.
    t.plan_some("alice");
    t.clock.advance(DAY + 1);
    let r = t.say_as_moderator("carol /skymines kick player:alice");
    assert!(r[0].text.contains("not holding up"), "{}", r[0].text);
    let r = t.say(&format!(
        "alice /skymines kick player:<@{}>",
        local_user_id("bob")
    ));
    let public = public_text(&r);
    assert!(public.contains("alice removed bob"), "{public}");
    assert!(private_to(&r, "bob").contains("You were removed"), "{r:?}");
    // bob's seat was waited on: a computer player planned for it at once; the game goes on.
    assert!(
        public.contains("From now on a computer player (normal) plays seat 2"),
        "{public}"
    );
    // (bob's cards are revealed with alice's: the computer player planned them.)
    assert!(public.contains("bob reveals: "), "{public}");
    assert!(!t.waiting().contains(&local_user_id("bob")));
    assert!(!t.waiting().is_empty(), "the game goes on");
    let r = t.say("bob /choose option:1");
    assert!(r[0].text.contains("not playing"), "{}", r[0].text);
}

/// Issue 23: a seat left mid-game is played by a computer player at the game's level (normal
/// by default): it takes its turns, each announced in one public message, and the game goes on
/// to the remaining person's turns.
#[test]
fn a_seat_left_mid_game_is_played_by_a_computer_player() {
    let mut t = table("vacant", config());
    start(&mut t);
    let (active, leaver) = to_action_phase(&mut t);
    leave(&mut t, leaver);
    let mut computer_turns = 0;
    for _ in 0..200 {
        let waiting = t.waiting();
        assert!(
            !waiting.contains(&local_user_id(leaver)),
            "the leaver is never waited on"
        );
        if waiting.is_empty() {
            break;
        }
        let r = t.say(&format!("{active} /choose option:1"));
        computer_turns += r
            .iter()
            .filter(|r| r.status_of.is_none() && r.text.starts_with(&format!("{leaver} ")))
            .count();
        if computer_turns >= 2 && t.waiting() == vec![local_user_id(active)] {
            break;
        }
    }
    assert!(computer_turns >= 2, "the computer player took turns");
    assert_eq!(
        t.waiting(),
        vec![local_user_id(active)],
        "the game waits on the one person left"
    );
    let status = t.say("eve /skymines status");
    assert!(
        public_text(&status).contains(&format!("Computer players (normal): {leaver} (seat")),
        "{status:?}"
    );
    // The last person cannot leave: refused privately, nothing changed.
    let r = leave(&mut t, active);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(
        matches!(r[0].audience, Audience::Private(_))
            && r[0].text.contains("A game needs at least one person"),
        "{r:?}"
    );
    assert_eq!(t.waiting(), vec![local_user_id(active)]);
}

#[test]
fn a_paused_game_sends_nothing_refuses_moves_and_resumes() {
    let mut t = table(
        "pause",
        ChatConfig {
            deadline_ms: Some(DAY),
            ..config()
        },
    );
    start(&mut t);
    let r = t.say("bob /skymines pause");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
    let r = t.say("alice /skymines pause");
    assert!(public_text(&r).contains("paused the game"), "{r:?}");
    let r = t.say("alice /skymines pause");
    assert!(r[0].text.contains("already paused"), "{}", r[0].text);
    let status = public_text(&t.say("eve /skymines status"));
    assert!(status.contains("Paused since ⟨t:"), "{status}");
    let r = t.say("bob /choose option:1");
    assert!(r[0].text.contains("paused"), "{}", r[0].text);
    let r = t.say("alice /plan cards:carbon2");
    assert!(r[0].text.contains("paused"), "{}", r[0].text);
    // Two days: no reminders, no deadline plays.
    t.clock.advance(2 * DAY);
    assert!(t.chat.tick().is_empty(), "a paused game sends nothing");
    assert_eq!(t.waiting().len(), 2, "nobody was played for");

    let r = t.say("bob /skymines resume");
    assert!(r[0].text.contains("Only the host"), "{}", r[0].text);
    let r = t.say_as_moderator("carol /skymines resume");
    assert!(public_text(&r).contains("carol resumed the game"), "{r:?}");
    assert!(!public_text(&r).contains("Paused since"));
    let r = t.say("alice /skymines resume");
    assert!(r[0].text.contains("not paused"), "{}", r[0].text);
    // Waits count from the resume: nothing due at once, a reminder an hour later.
    assert!(t.chat.tick().is_empty());
    t.clock.advance(HOUR + 1);
    let due = pinged(&t.chat.tick());
    assert!(due.contains(&local_user_id("alice")) && due.contains(&local_user_id("bob")));
    t.plan_some("alice");
    let status = public_text(&t.say("eve /skymines status"));
    assert!(
        status.contains("bob's turn is played for them ⟨t:"),
        "{status}"
    );
    assert!(discord_markers(&status).contains("<t:"), "{status}");
}

#[test]
fn away_until_delays_a_reminder() {
    let mut t = table("away", config());
    start(&mut t);
    let r = t.say("bob /skymines settings away:3h");
    let text = private_to(&r, "bob");
    assert!(text.contains("away until ⟨t:"), "{text}");
    assert!(terminal_markers(&text).contains("UTC"), "{text}");
    let r = t.say("bob /skymines settings away:sometime");
    assert!(
        r[0].text.contains("not a time I understand"),
        "{}",
        r[0].text
    );
    t.clock.advance(HOUR + 1);
    let due = pinged(&t.chat.tick());
    assert!(due.contains(&local_user_id("alice")), "{due:?}");
    assert!(!due.contains(&local_user_id("bob")), "bob is away");
    t.clock.advance(HOUR);
    assert!(!pinged(&t.chat.tick()).contains(&local_user_id("bob")));
    t.clock.advance(HOUR);
    assert!(
        pinged(&t.chat.tick()).contains(&local_user_id("bob")),
        "bob is back"
    );
    // Clearing it: reminders follow the usual rhythm again.
    let r = t.say("bob /skymines settings away:off");
    assert!(private_to(&r, "bob").contains("not away"), "{r:?}");
}

#[test]
fn quiet_hours_hold_reminders_until_they_end() {
    let mut t = table("quiet", config());
    // START is 22:13 UTC: 23:13 at UTC+1, inside 22-08.
    let r = t.say("bob /skymines settings timezone:Mars/Olympus");
    assert!(r[0].text.contains("is not a time zone"), "{}", r[0].text);
    // A named zone is kept by name in the store and read back from it.
    let r = t.say("bob /skymines settings timezone:europe/berlin");
    let text = private_to(&r, "bob");
    assert!(text.contains("Europe/Berlin (UTC+01:00)"), "{text}");
    let r = t.say("bob /skymines settings");
    assert!(private_to(&r, "bob").contains("Europe/Berlin"), "{r:?}");
    let r = t.say("bob /skymines settings timezone:+01:00 quiet:22-08");
    let text = private_to(&r, "bob");
    assert!(
        text.contains("UTC+01:00") && text.contains("22-08"),
        "{text}"
    );
    let r = t.say("bob /skymines settings quiet:25-3");
    assert!(r[0].text.contains("not a range of hours"), "{}", r[0].text);
    start(&mut t);
    t.clock.advance(HOUR + 1);
    let due = pinged(&t.chat.tick());
    assert!(due.contains(&local_user_id("alice")), "{due:?}");
    assert!(!due.contains(&local_user_id("bob")), "bob's night");
    // 08:00 at UTC+1 is 07:00 UTC the next day.
    let seven_utc = (START / DAY + 1) * DAY + 7 * HOUR;
    t.clock.advance(seven_utc - 60_000 - t.chat_now());
    assert!(
        !pinged(&t.chat.tick()).contains(&local_user_id("bob")),
        "06:59 UTC: still quiet"
    );
    t.clock.advance(60_000);
    assert!(
        pinged(&t.chat.tick()).contains(&local_user_id("bob")),
        "08:00 local: reminded"
    );
}

impl Table {
    fn chat_now(&self) -> i64 {
        use skymines::chat::Clock;
        self.clock.now_ms()
    }
}

#[test]
fn clicks_count_against_the_rate_limit() {
    let mut t = table(
        "rate",
        ChatConfig {
            rate_limit: 3,
            rate_window_ms: 10_000,
            ..config()
        },
    );
    for _ in 0..3 {
        let r = t.click("alice", "o:1");
        assert!(!r[0].text.contains("Slow down"), "{}", r[0].text);
    }
    let r = t.click("alice", "o:1");
    assert!(r[0].text.contains("Slow down"), "{}", r[0].text);
    // Commands share the same allowance.
    assert!(t.say("alice /skymines help")[0].text.contains("Slow down"));
    assert!(!t.click("bob", "o:1")[0].text.contains("Slow down"));
    t.clock.advance(10_001);
    assert!(!t.click("alice", "o:1")[0].text.contains("Slow down"));
}

/// `rate_limit_commands`/`rate_limit_seconds` in config.toml set the limit (0 in either = none),
/// and a local script, one author typing every player's moves, is never limited.
#[test]
fn the_rate_limit_is_configured_and_off_for_scripts() {
    let parse = |text: &str| -> skymines::config::Config { toml::from_str(text).expect("config") };
    let default = parse("").chat_config();
    assert_eq!((default.rate_limit, default.rate_window_ms), (12, 10_000));
    let set = parse("rate_limit_commands = 3\nrate_limit_seconds = 2.5").chat_config();
    assert_eq!((set.rate_limit, set.rate_window_ms), (3, 2_500));
    assert_eq!(parse("rate_limit_commands = 0").chat_config().rate_limit, 0);
    assert_eq!(parse("rate_limit_seconds = 0").chat_config().rate_limit, 0);

    let dir = crate::support::TempDir::new("weeks-script");
    let script = dir.join("moves.txt");
    std::fs::write(&script, "alice /skymines help\n".repeat(20)).expect("script");
    let config = dir.join("config.toml");
    std::fs::write(&config, "rate_limit_commands = 2\nrate_limit_seconds = 60").expect("config");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skymines"))
        .args(["local", "--no-images", "--db"])
        .arg(dir.join("script.db"))
        .arg("--script")
        .arg(&script)
        .arg("--out")
        .arg(dir.path())
        .arg("--config")
        .arg(&config)
        .output()
        .expect("run the local mode");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.matches("/skymines").count() >= 20, "{text}");
    assert!(!text.contains("Slow down"), "{text}");
}

#[test]
fn long_and_odd_names_are_cut_and_sanitised() {
    let mut t = table("names", config());
    t.say("alice /skymines new players:2");
    let mut req = request("x /skymines join", false);
    req.user.name = "@everyone **Bold** `tick` \u{202E}and a name far too long to show".into();
    req.user.id = 99;
    let r = t.chat.handle(&req);
    let text = public_text(&r);
    assert!(
        !text.contains('@') && !text.contains("**") && !text.contains('`'),
        "{text}"
    );
    assert!(!text.contains('\u{202E}'), "{text}");
    let shown = text.split(" joined").next().expect("a joined line");
    assert!(
        shown.chars().count() <= 24 && shown.ends_with('…'),
        "{shown}"
    );
    let r = t.say("alice /skymines start");
    let status = public_text(&r);
    assert!(
        status.contains(shown) && !status.contains("far too long"),
        "{status}"
    );
}

#[test]
fn a_deleted_channel_archives_its_game_and_export_still_works() {
    let mut t = table("archive", config());
    start(&mut t);
    t.plan_some("alice");
    let archived = t.chat.channel_gone(LOCAL_CHANNEL);
    assert_eq!(archived.len(), 1);
    let store = t.chat.store();
    let game = archived[0];
    assert_eq!(
        store.games().game(game).expect("kept").status,
        GameStatus::Archived
    );
    assert_eq!(
        store
            .games()
            .archived_reason(game)
            .expect("reason")
            .as_deref(),
        Some("channel_deleted")
    );
    let doc = store.admin().export(game).expect("export works");
    assert_eq!(doc.status, GameStatus::Archived);
    assert!(!doc.log.is_empty(), "the moves are kept");
    assert!(store
        .schedule()
        .claim_due_reminders(i64::MAX, 0)
        .expect("reminders")
        .is_empty());
    // The game no longer answers in the channel; a new one can start there.
    let r = t.say("alice /skymines status");
    assert!(r[0].text.contains("no Skymines game"), "{}", r[0].text);
    let r = t.say("alice /skymines new players:2");
    assert!(public_text(&r).contains("opened"), "{r:?}");
    // The bot removed from another server touches nothing here.
    assert!(t.chat.guild_gone(8).is_empty());
}

#[test]
fn reminders_can_be_turned_off_or_given_a_personal_delay() {
    let mut t = table("remind-settings", config());
    // Refused values change nothing.
    let r = t.say("bob /skymines settings remind_after:2m");
    assert!(r[0].text.contains("not a reminder delay"), "{}", r[0].text);
    let r = t.say("bob /skymines settings reminders:maybe");
    assert!(r[0].text.contains("maybe"), "{}", r[0].text);
    let r = t.say("bob /skymines settings reminders:off");
    assert!(private_to(&r, "bob").contains("Reminders: off"), "{r:?}");
    let r = t.say("alice /skymines settings remind_after:3h");
    assert!(
        private_to(&r, "alice").contains("Reminders: on, 3h"),
        "{r:?}"
    );
    start(&mut t);
    // The default delay (1 h) passes: nobody is pinged (alice waits 3 h, bob never).
    t.clock.advance(HOUR + 1);
    let due = pinged(&t.chat.tick());
    assert!(due.is_empty(), "{due:?}");
    t.clock.advance(2 * HOUR);
    let due = pinged(&t.chat.tick());
    assert_eq!(
        due,
        vec![local_user_id("alice")],
        "alice after 3 h; bob has them off"
    );
    // The next one comes after alice's delay again, never for bob.
    t.clock.advance(HOUR);
    assert!(pinged(&t.chat.tick()).is_empty());
    t.clock.advance(2 * HOUR);
    assert_eq!(pinged(&t.chat.tick()), vec![local_user_id("alice")]);
    // Turned back on (with the default delay), bob is reminded from the next wait on.
    let r = t.say("bob /skymines settings reminders:on remind_after:default");
    assert!(private_to(&r, "bob").contains("Reminders: on, 1h"), "{r:?}");
}

/// Issue 23: a restart between a move and the computer players' turns it led to loses nothing:
/// the next tick of the new chat layer plays them (here the game was stored but its computer
/// player had not planned yet).
#[test]
fn computer_turns_interrupted_by_a_restart_are_played_at_the_next_tick() {
    use skymines::store::{NewGame, NewSeat, Notify, SeatOwner};
    let t = table("computer-restart", config());
    let store = t.chat.store();
    let mut options = skymines::store::torture::torture_options(3);
    options.players = 2;
    let seat = |owner, name: &str| NewSeat {
        owner,
        name: name.to_string(),
        notify: Notify::Ephemeral,
    };
    let (game, state) = store
        .games()
        .create_game(with_level(
            NewGame {
                location: place(),
                options,
                seats: vec![
                    seat(SeatOwner::Discord(local_user_id("alice")), "alice"),
                    seat(SeatOwner::Vacant, "Computer 1"),
                ],
                bot_level: None,
                language: None,
                waits: None,
            },
            "easy",
        ))
        .expect("game");
    assert!(skymines::engine::waiting_on(&state).contains(&1));
    let before = store.games().log(game).expect("log").len();
    // The restart: a new chat layer over the same store.
    let chat = Chat::new(store.clone(), t.clock.clone(), config());
    chat.tick();
    let state = store.games().state(game).expect("state");
    assert!(
        !skymines::engine::waiting_on(&state).contains(&1),
        "the computer player moved"
    );
    assert_eq!(chat.waiting_users(&place()), vec![local_user_id("alice")]);
    assert_eq!(
        store.games().log(game).expect("log").len(),
        before + 1,
        "one stored move"
    );
    // Nothing is left to do: another tick changes nothing.
    chat.tick();
    assert_eq!(store.games().log(game).expect("log").len(), before + 1);
}

/// Opens the store of `t` afresh under a new chat layer: the bot's restart.
fn restart(t: Table) -> Table {
    t.reopened(config())
}

/// The lines of the replies everyone in the channel sees.
fn public_lines(replies: &[Reply]) -> Vec<String> {
    public_text(replies).lines().map(str::to_string).collect()
}

/// A seat taken over from a computer player carries its person's name from then on: the
/// moves announced, the status and the boards say "bob", also after a restart; the
/// announcement of the take-over still names the computer player it replaced.
#[test]
fn a_computer_seat_taken_over_carries_its_persons_name_after_a_restart() {
    for backing in Backing::both("seatname") {
        taken_over_seat_names_its_person(backing);
    }
}

fn taken_over_seat_names_its_person(backing: Backing) {
    let mut t = table_on(backing, config());
    t.say("alice /skymines new players:2");
    let r = t.click("alice", "l:bot");
    assert!(public_text(&r).contains("added a computer player"), "{r:?}");
    let r = t.say("alice /skymines start");
    assert!(public_text(&r).contains("begins"), "{r:?}");
    let status = public_text(&t.say("eve /skymines status"));
    assert!(status.contains("Computer 1"), "{status}");

    let joined = t.say("bob /skymines join");
    let public = public_text(&joined);
    assert!(
        public.contains("bob takes over seat 2 (Computer 1)"),
        "{public}"
    );
    let status = joined
        .iter()
        .find(|r| r.status_of.is_some())
        .expect("the take-over comes with the status")
        .text
        .clone();
    assert!(
        status.contains("★ bob:") && !status.contains("Computer 1"),
        "the status names bob: {status}"
    );
    let status = public_text(&t.say("eve /skymines status"));
    assert!(
        status.contains("★ bob:") && !status.contains("Computer 1"),
        "{status}"
    );

    // alice plans; then play on until bob's seat has moved: every line said after the
    // take-over names bob.
    let mut said = Vec::new();
    for _ in 0..2 {
        if t.choose_labelled("alice", "Plan ").is_none() {
            break;
        }
    }
    let r = t
        .choose_labelled("alice", "Done planning")
        .expect("alice finishes planning");
    said.extend(public_lines(&r));
    let mut bob_moved = false;
    for _ in 0..200 {
        let waiting = t.waiting();
        let who = if waiting.contains(&local_user_id("alice")) {
            "alice"
        } else if waiting.contains(&local_user_id("bob")) {
            "bob"
        } else {
            break;
        };
        let r = t.say(&format!("{who} /choose option:1"));
        said.extend(public_lines(&r));
        bob_moved |= who == "bob"
            && public_lines(&r)
                .iter()
                .any(|l| l.starts_with("bob ") && !l.contains("your turn"));
        if bob_moved && t.waiting() == vec![local_user_id("alice")] {
            break;
        }
    }
    assert!(bob_moved, "bob's moves are announced as his: {said:#?}");
    assert!(
        said.iter().any(|l| l.starts_with("bob reveals")),
        "bob's plan is revealed as his: {said:#?}"
    );
    assert!(said.iter().all(|l| !l.contains("Computer 1")), "{said:#?}");

    let mut t = restart(t);
    let status = public_text(&t.say("eve /skymines status"));
    assert!(
        status.contains("★ bob:") && !status.contains("Computer 1"),
        "after a restart the status still names bob: {status}"
    );
    let scores = public_text(&t.say("eve /skymines scores"));
    assert!(
        scores.contains("bob") && !scores.contains("Computer 1"),
        "{scores}"
    );
}

/// One message per turn survives a restart (DECISIONS B15): the new chat layer has not seen
/// the turn begin, so it rebuilds the steps played before the restart from the stored log,
/// and the message that ends the turn holds every step's line, each once.
#[test]
fn a_turn_interrupted_by_a_restart_is_still_posted_whole() {
    for backing in Backing::both("turnrestart") {
        interrupted_turn_is_posted_whole(backing);
    }
}

fn interrupted_turn_is_posted_whole(backing: Backing) {
    let mut t = table_on(backing, config());
    start(&mut t);
    let (active, next) = to_action_phase(&mut t);
    // (The first /choose may only bring up the current list.)
    let mut first = t.say(&format!("{active} /choose option:1"));
    if first[0].text.contains("older list") {
        first = t.say(&format!("{active} /choose option:1"));
    }
    assert_eq!(
        t.waiting(),
        vec![local_user_id(active)],
        "the turn goes on after its first step"
    );
    assert!(
        public_text(&first).is_empty(),
        "nothing public yet: {first:?}"
    );
    let first_lines: Vec<String> = private_to(&first, active)
        .lines()
        .filter(|l| l.starts_with(&format!("{active} ")))
        .map(str::to_string)
        .collect();
    assert!(!first_lines.is_empty(), "{first:?}");

    let mut t = restart(t);
    let mut turn_message = None;
    for _ in 0..100 {
        if t.waiting() != vec![local_user_id(active)] {
            break;
        }
        let r = t.say(&format!("{active} /choose option:1"));
        turn_message = r
            .iter()
            .find(|r| matches!(r.audience, Audience::Ping(_)))
            .map(|r| r.text.clone())
            .or(turn_message);
    }
    let message = turn_message.expect("the turn ends with a ping of the next player");
    assert!(
        message.contains(&format!("{next}, it is your turn")),
        "{message}"
    );
    for line in &first_lines {
        assert_eq!(
            message.matches(line.as_str()).count(),
            1,
            "the step before the restart is in the turn's message once: {line}\n{message}"
        );
    }
}

/// A new game whose computer players play at `level`.
fn with_level(mut new: skymines::store::NewGame, level: &str) -> skymines::store::NewGame {
    new.bot_level = Some(level.to_string());
    new
}
