//! The slash commands, one to one with the chat layer's commands and option names: game
//! management under `/skymines`, turn actions at the top level (DECISIONS B9). Each command
//! only gathers its options as text and hands them to [`interact::command`]; suggestions for
//! typed options come from the chat layer ([`interact::autocomplete`]).

use super::interact;
use super::shared::{Ctx, Data, Error};
use serenity::all::AutocompleteChoice;

/// Every command of the bot, in registration order.
pub(crate) fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        skymines(),
        hand(),
        plan(),
        resources(),
        energy(),
        research(),
        field(),
        bonus(),
        pass(),
        token(),
        tile(),
        undo(),
        choose(),
    ]
}

/// Every command as the chat layer names it (`"skymines admin rollback"`, `"plan"`) with the
/// names of its options, in registration order: what a user can send, for tests that try
/// every command and option.
pub fn command_options() -> Vec<(String, Vec<String>)> {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, Vec<String>)>) {
        let name = v["name"].as_str().unwrap_or_default();
        let path = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix} {name}")
        };
        let options = v["options"].as_array().cloned().unwrap_or_default();
        // Option types 1 and 2 are subcommands and subcommand groups.
        let (subs, plain): (Vec<_>, Vec<_>) = options
            .iter()
            .partition(|o| matches!(o["type"].as_u64(), Some(1 | 2)));
        if subs.is_empty() {
            let names = plain
                .iter()
                .filter_map(|o| o["name"].as_str().map(str::to_string))
                .collect();
            out.push((path, names));
        } else {
            for sub in subs {
                walk(&path, sub, out);
            }
        }
    }
    let commands = poise::builtins::create_application_commands(&all());
    let mut out = Vec::new();
    if let Ok(serde_json::Value::Array(list)) = serde_json::to_value(&commands) {
        for c in &list {
            walk("", c, &mut out);
        }
    }
    out
}

/// Options by name; unset ones left out.
fn options<const N: usize>(pairs: [(&str, Option<String>); N]) -> Vec<(String, String)> {
    pairs
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
        .collect()
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

/// Suggestions for the option being typed.
async fn complete(ctx: Ctx<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    interact::autocomplete(ctx, partial).await
}

/// Skymines games in this channel: open, join, start, follow and end them.
#[poise::command(
    slash_command,
    subcommands(
        "sk_new",
        "sk_join",
        "sk_leave",
        "sk_start",
        "sk_abort",
        "sk_status",
        "sk_scores",
        "sk_log",
        "sk_export",
        "sk_help",
        "sk_settings",
        "sk_mygames",
        "sk_board",
        "sk_campaign",
        "sk_kick",
        "sk_pause",
        "sk_resume",
        "sk_admin"
    ),
    subcommand_required
)]
async fn skymines(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a game in this channel; others join, then you start it.
#[poise::command(slash_command, rename = "new")]
#[allow(clippy::too_many_arguments)]
async fn sk_new(
    ctx: Ctx<'_>,
    #[description = "Players, people and computer players, 1-4 (default 2)"]
    #[min = 1]
    #[max = 4]
    players: Option<u8>,
    #[description = "Computer players among them, 0-3 (default 0)"]
    #[min = 0]
    #[max = 3]
    bots: Option<u8>,
    #[description = "Level of the computer players: easy, normal or hard (default normal)"]
    #[autocomplete = "complete"]
    bot_level: Option<String>,
    #[description = "Luna the automa: her level 0-8, or none"]
    #[autocomplete = "complete"]
    luna: Option<String>,
    #[description = "Board side: moon or belt"]
    #[autocomplete = "complete"]
    board: Option<String>,
    #[description = "Company tracks: default, random, or four track ids"]
    #[autocomplete = "complete"]
    tracks: Option<String>,
    #[description = "Starting research tokens: fixed or draft"]
    #[autocomplete = "complete"]
    tokens: Option<String>,
    #[description = "Linked action slots variant"] linked_slots: Option<bool>,
    #[description = "Mission cards"] missions: Option<bool>,
    #[description = "Threat cards (Belt only)"] threats: Option<bool>,
    #[description = "Campaign chapter 1-4"]
    #[min = 1]
    #[max = 4]
    chapter: Option<u8>,
    #[description = "Seed (the bot's owners only)"] seed: Option<String>,
    #[description = "Language of the game's public messages: en or de"]
    #[autocomplete = "complete"]
    language: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("players", players.map(|v| v.to_string())),
        ("bots", bots.map(|v| v.to_string())),
        ("bot_level", bot_level),
        ("luna", luna),
        ("board", board),
        ("tracks", tracks),
        ("tokens", tokens),
        ("linked_slots", linked_slots.map(yes_no)),
        ("missions", missions.map(yes_no)),
        ("threats", threats.map(yes_no)),
        ("chapter", chapter.map(|v| v.to_string())),
        ("seed", seed),
        ("language", language),
    ]);
    interact::command(ctx, "skymines new", opts).await
}

/// Join the game being gathered in this channel.
#[poise::command(slash_command, rename = "join")]
async fn sk_join(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines join", Vec::new()).await
}

/// Leave this channel's game (the host closes a lobby; a running game asks to confirm).
#[poise::command(slash_command, rename = "leave")]
async fn sk_leave(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines leave", Vec::new()).await
}

/// Start the gathered game (host or moderator).
#[poise::command(slash_command, rename = "start")]
async fn sk_start(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines start", Vec::new()).await
}

/// End this channel's game without a result (host or moderator).
#[poise::command(slash_command, rename = "abort")]
async fn sk_abort(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines abort", Vec::new()).await
}

/// Show the game's status and board.
#[poise::command(slash_command, rename = "status")]
async fn sk_status(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines status", Vec::new()).await
}

/// Show the scores.
#[poise::command(slash_command, rename = "scores")]
async fn sk_scores(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines scores", Vec::new()).await
}

/// The game's public log.
#[poise::command(slash_command, rename = "log")]
async fn sk_log(
    ctx: Ctx<'_>,
    #[description = "Only what happened since your last turn (shown to you only)"]
    since_my_turn: Option<bool>,
    #[description = "Log mode: since-my-turn"]
    #[autocomplete = "complete"]
    mode: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("since_my_turn", since_my_turn.map(yes_no)),
        ("mode", mode),
        ("game", game),
    ]);
    interact::command(ctx, "skymines log", opts).await
}

/// Every game you sit in, across channels and servers (works in DMs too).
#[poise::command(slash_command, rename = "mygames")]
async fn sk_mygames(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines mygames", Vec::new()).await
}

/// The board, or one seat's public player board (anyone in the channel may look).
#[poise::command(slash_command, rename = "board")]
async fn sk_board(
    ctx: Ctx<'_>,
    #[description = "The player whose board to show"] player: Option<serenity::all::User>,
    #[description = "Or a seat by name, e.g. luna"] seat: Option<String>,
) -> Result<(), Error> {
    let who = player.map(|u| u.id.get().to_string()).or(seat);
    interact::command(ctx, "skymines board", options([("player", who)])).await
}

/// Export the game record (finished games; running games for the bot's owners).
#[poise::command(slash_command, rename = "export")]
async fn sk_export(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines export", Vec::new()).await
}

/// How to play with this bot.
#[poise::command(slash_command, rename = "help")]
async fn sk_help(
    ctx: Ctx<'_>,
    #[description = "A topic"]
    #[autocomplete = "complete"]
    topic: Option<String>,
) -> Result<(), Error> {
    interact::command(ctx, "skymines help", options([("topic", topic)])).await
}

/// Your settings: private prompts, language, away time, time zone, quiet hours, reminders.
#[poise::command(slash_command, rename = "settings")]
#[allow(clippy::too_many_arguments)]
async fn sk_settings(
    ctx: Ctx<'_>,
    #[description = "Private prompts: ephemeral (in the channel) or dm"]
    #[autocomplete = "complete"]
    notify: Option<String>,
    #[description = "Your language for private replies: en or de"]
    #[autocomplete = "complete"]
    language: Option<String>,
    #[description = "This game's public language (host): en or de"]
    #[autocomplete = "complete"]
    game_language: Option<String>,
    #[description = "Away until: a duration (3d, 12h), a date (2026-12-24), or off"] away: Option<
        String,
    >,
    #[description = "Your time zone, e.g. Europe/Berlin, or a UTC offset such as +01:00"] timezone: Option<String>,
    #[description = "Quiet hours without reminders, local from-to, e.g. 22-08, or off"]
    quiet: Option<String>,
    #[description = "Reminders when a game waits on you: on or off"]
    #[autocomplete = "complete"]
    reminders: Option<String>,
    #[description = "Remind me after (5m to 7d, e.g. 6h), or default"] remind_after: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("notify", notify),
        ("language", language),
        ("game_language", game_language),
        ("away", away),
        ("timezone", timezone),
        ("quiet", quiet),
        ("reminders", reminders),
        ("remind_after", remind_after),
        ("game", game),
    ]);
    interact::command(ctx, "skymines settings", opts).await
}

/// A campaign in this channel: four chapters with the same players.
#[poise::command(
    slash_command,
    rename = "campaign",
    subcommands("campaign_new", "campaign_status", "campaign_next"),
    subcommand_required
)]
async fn sk_campaign(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a campaign in this channel; others join, then you start chapter 1.
#[poise::command(slash_command, rename = "new")]
async fn campaign_new(
    ctx: Ctx<'_>,
    #[description = "Human players, 1-4 (default 2)"]
    #[min = 1]
    #[max = 4]
    players: Option<u8>,
    #[description = "Luna: yes or no (default yes with 1-3 players), or her starting level 0-8"]
    #[autocomplete = "complete"]
    luna: Option<String>,
    #[description = "Luna starts one level lower"] easier: Option<bool>,
    #[description = "Linked action slots variant (every chapter)"] linked_slots: Option<bool>,
    #[description = "Seed (the bot's owners only)"] seed: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("players", players.map(|v| v.to_string())),
        ("luna", luna),
        ("easier", easier.map(yes_no)),
        ("linked_slots", linked_slots.map(yes_no)),
        ("seed", seed),
    ]);
    interact::command(ctx, "skymines campaign new", opts).await
}

/// The campaign's chapters, success points, running totals and rating.
#[poise::command(slash_command, rename = "status")]
async fn campaign_status(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines campaign status", Vec::new()).await
}

/// Start the campaign's next chapter (its players or a moderator).
#[poise::command(slash_command, rename = "next")]
async fn campaign_next(
    ctx: Ctx<'_>,
    #[description = "End a Time anomaly loop: the chapter counts its games so far"]
    end_loop: Option<bool>,
) -> Result<(), Error> {
    let opts = options([("end_loop", end_loop.map(yes_no))]);
    interact::command(ctx, "skymines campaign next", opts).await
}

/// Free the seat of an inactive player (host or moderator).
#[poise::command(slash_command, rename = "kick")]
async fn sk_kick(
    ctx: Ctx<'_>,
    #[description = "The inactive player"] player: serenity::all::User,
) -> Result<(), Error> {
    let opts = options([("player", Some(player.id.get().to_string()))]);
    interact::command(ctx, "skymines kick", opts).await
}

/// Pause the game: no reminders, deadlines or moves (host or moderator).
#[poise::command(slash_command, rename = "pause")]
async fn sk_pause(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines pause", Vec::new()).await
}

/// Resume a paused game (host or moderator).
#[poise::command(slash_command, rename = "resume")]
async fn sk_resume(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "skymines resume", Vec::new()).await
}

/// Admin tools for this server's moderators and the bot's owners (answers only you see).
#[poise::command(
    slash_command,
    rename = "admin",
    subcommands("adm_list", "adm_report", "adm_rollback", "adm_skip"),
    subcommand_required
)]
async fn sk_admin(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// The games of this server: status, round, last move, whom they wait on.
#[poise::command(slash_command, rename = "list")]
async fn adm_list(
    ctx: Ctx<'_>,
    #[description = "Only games in this status: running, finished, abandoned or damaged"]
    status: Option<String>,
    #[description = "Every server's games (the bot's owners only)"] all: Option<bool>,
) -> Result<(), Error> {
    let opts = options([("status", status), ("all", all.map(yes_no))]);
    interact::command(ctx, "skymines admin list", opts).await
}

/// A game's health: for a damaged game why, its last good move and what can be done.
#[poise::command(slash_command, rename = "report")]
async fn adm_report(
    ctx: Ctx<'_>,
    #[description = "The game's number (default: this channel's game)"] game: Option<String>,
) -> Result<(), Error> {
    interact::command(ctx, "skymines admin report", options([("game", game)])).await
}

/// Roll a game back to an earlier move (recorded in its log; the later moves are reverted).
#[poise::command(slash_command, rename = "rollback")]
async fn adm_rollback(
    ctx: Ctx<'_>,
    #[description = "The move to go back to (0 = the start)"]
    #[rename = "move"]
    back_to: u64,
    #[description = "The game's number (default: this channel's game)"] game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("move", Some(back_to.to_string())), ("game", game)]);
    interact::command(ctx, "skymines admin rollback", opts).await
}

/// Play a stalled turn safely for the player the game waits on.
#[poise::command(slash_command, rename = "skip")]
async fn adm_skip(
    ctx: Ctx<'_>,
    #[description = "The game's number (default: this channel's game)"] game: Option<String>,
    #[description = "Only this waiting player (by name)"] player: Option<String>,
) -> Result<(), Error> {
    let opts = options([("game", game), ("player", player)]);
    interact::command(ctx, "skymines admin skip", opts).await
}

/// Your hand and your private board (only you see it).
#[poise::command(slash_command)]
async fn hand(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "hand", Vec::new()).await
}

/// Plan cards from your hand for this round.
#[poise::command(slash_command)]
async fn plan(
    ctx: Ctx<'_>,
    #[description = "Cards from your hand, e.g. carbon2,titanium2"]
    #[autocomplete = "complete"]
    cards: Option<String>,
    #[description = "Action slots for those cards, e.g. 1,2"]
    #[autocomplete = "complete"]
    slots: Option<String>,
    #[description = "Finish planning (default yes when cards are given)"] done: Option<bool>,
    #[description = "Take your planned cards back"] clear: Option<bool>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("cards", cards),
        ("slots", slots),
        ("done", done.map(yes_no)),
        ("clear", clear.map(yes_no)),
        ("game", game),
    ]);
    interact::command(ctx, "plan", opts).await
}

/// Use resources: buy a card and/or move on company tracks.
#[poise::command(slash_command)]
async fn resources(
    ctx: Ctx<'_>,
    #[description = "carbon, minerals, titanium or mixed"]
    #[rename = "type"]
    #[autocomplete = "complete"]
    kind: Option<String>,
    #[description = "Face-up resource cards to use"]
    #[autocomplete = "complete"]
    cards: Option<String>,
    #[description = "Display space 1-12 to buy, or none"]
    #[autocomplete = "complete"]
    buy: Option<String>,
    #[description = "Track steps, e.g. ore+2,gas+1"]
    #[autocomplete = "complete"]
    tracks: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("type", kind),
        ("cards", cards),
        ("buy", buy),
        ("tracks", tracks),
        ("game", game),
    ]);
    interact::command(ctx, "resources", opts).await
}

/// Use energy: expand a company into sectors.
#[poise::command(slash_command)]
async fn energy(
    ctx: Ctx<'_>,
    #[description = "The company that expands"]
    #[autocomplete = "complete"]
    company: Option<String>,
    #[description = "Sectors to enter, in order"]
    #[autocomplete = "complete"]
    sectors: Option<String>,
    #[description = "Station columns the outposts come from, in order (1-3)"]
    #[autocomplete = "complete"]
    columns: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("company", company),
        ("sectors", sectors),
        ("columns", columns),
        ("game", game),
    ]);
    interact::command(ctx, "energy", opts).await
}

/// Use a research scientist.
#[poise::command(slash_command)]
async fn research(
    ctx: Ctx<'_>,
    #[description = "Action slot 1-5 of the scientist, or tile"]
    #[autocomplete = "complete"]
    card: Option<String>,
    #[description = "Research screen to flip first, or none"]
    #[autocomplete = "complete"]
    flip: Option<String>,
    #[description = "Plans to advance the upload marker, or max"]
    #[autocomplete = "complete"]
    advance: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([
        ("card", card),
        ("flip", flip),
        ("advance", advance),
        ("game", game),
    ]);
    interact::command(ctx, "research", opts).await
}

/// Use a field scientist.
#[poise::command(slash_command)]
async fn field(
    ctx: Ctx<'_>,
    #[description = "Action slot 1-5 of the scientist, or tile"]
    #[autocomplete = "complete"]
    card: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("card", card), ("game", game)]);
    interact::command(ctx, "field", opts).await
}

/// Place a bonus marker.
#[poise::command(slash_command)]
async fn bonus(
    ctx: Ctx<'_>,
    #[description = "The bonus space"]
    #[autocomplete = "complete"]
    space: Option<String>,
    #[description = "Majority reward tier"]
    #[autocomplete = "complete"]
    tier: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("space", space), ("tier", tier), ("game", game)]);
    interact::command(ctx, "bonus", opts).await
}

/// Drop out of this round (asks to confirm).
#[poise::command(slash_command)]
async fn pass(
    ctx: Ctx<'_>,
    #[description = "The resting deck to take, 1-5"]
    #[autocomplete = "complete"]
    deck: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("deck", deck), ("game", game)]);
    interact::command(ctx, "pass", opts).await
}

/// Setup: keep a starting research token and rest starting cards.
#[poise::command(slash_command)]
async fn token(
    ctx: Ctx<'_>,
    #[description = "The token to keep"]
    #[autocomplete = "complete"]
    keep: Option<String>,
    #[description = "Starting cards to rest, card:slot, e.g. carbon1:2"]
    #[autocomplete = "complete"]
    rest: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("keep", keep), ("rest", rest), ("game", game)]);
    interact::command(ctx, "token", opts).await
}

/// Put the +1 tile on a face-up resource card.
#[poise::command(slash_command)]
async fn tile(
    ctx: Ctx<'_>,
    #[description = "The resource card"]
    #[autocomplete = "complete"]
    card: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("card", card), ("game", game)]);
    interact::command(ctx, "tile", opts).await
}

/// Take back your last decisions (while nothing new was revealed).
#[poise::command(slash_command)]
async fn undo(ctx: Ctx<'_>) -> Result<(), Error> {
    interact::command(ctx, "undo", Vec::new()).await
}

/// Pick a choice of your current question by number (the typed twin of a button).
#[poise::command(slash_command)]
async fn choose(
    ctx: Ctx<'_>,
    #[description = "The choice's number"]
    #[autocomplete = "complete"]
    option: Option<String>,
    #[description = "A button's id"] id: Option<String>,
    #[description = "In a DM: which game"]
    #[autocomplete = "complete"]
    game: Option<String>,
) -> Result<(), Error> {
    let opts = options([("option", option), ("id", id), ("game", game)]);
    interact::command(ctx, "choose", opts).await
}
