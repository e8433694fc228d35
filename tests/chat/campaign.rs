//! Campaigns through the chat layer: a whole 4-chapter campaign played with the commands a user
//! types (`/skymines campaign new|status|next`, the lobby, `/choose` for every game decision,
//! the level-choice buttons), its announcements, success points, Luna's level choice and
//! compensation, the final rating, a restart in the middle, and the refusals.

use rand::{Rng, SeedableRng};
use skymines::chat::{local_user_id, ChatConfig, Reply};
use skymines::data::GameData;
use skymines::engine::campaign::{self, ChapterResult};
use skymines::engine::Decision;
use skymines::local::LOCAL_CHANNEL;
use skymines::sim;
use skymines::store::{CampaignStatus, FailPoint};

use crate::support::chat::{private_to, public_text, Table};

fn config() -> ChatConfig {
    ChatConfig {
        images: false,
        rate_limit: 0,
        ..ChatConfig::default()
    }
}

fn table(tag: &str) -> Table {
    Table::new(tag, config())
}

impl Table {
    /// Plays the channel's game to its end, every decision a `/choose` among the offered
    /// choices (like clicking buttons). Returns the replies of the last move.
    fn play_out(&mut self, names: &[&str], seed: u64) -> Vec<Reply> {
        let place = self.place;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut last = Vec::new();
        for _ in 0..20_000 {
            let waiting = self.chat.waiting_users(&place);
            if waiting.is_empty() {
                return last;
            }
            let user = waiting[rng.gen_range(0..waiting.len())];
            let name = names
                .iter()
                .find(|n| local_user_id(n) == user)
                .expect("a waited-on user is a player");
            let choices = self.chat.pending_choices(&place, user);
            assert!(
                !choices.is_empty(),
                "{name} is waited on but offered nothing"
            );
            let mut pick = rng.gen_range(0..choices.len());
            if choices[pick].label == "Drop out" && choices.len() > 1 && rng.gen_bool(0.7) {
                pick = (pick + 1) % choices.len();
            }
            last = self.say(&format!("{name} /choose option:{}", pick + 1));
        }
        panic!("the game does not end");
    }
}

impl Table {
    /// Like `play_out`, but each choice is the one the module-aware self-play policy
    /// (`bots::weighted::choose`) picks among the offered buttons, so mission tasks get fulfilled.
    fn play_out_by_policy(&mut self, names: &[&str], seed: u64) {
        let data = GameData::embedded().expect("data");
        let place = self.place;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..20_000 {
            let waiting = self.chat.waiting_users(&place);
            let Some(&user) = waiting.first() else {
                return;
            };
            let name = names
                .iter()
                .find(|n| local_user_id(n) == user)
                .expect("a waited-on user is a player");
            let store = self.chat.store();
            let game = store
                .games()
                .game_in_channel(LOCAL_CHANNEL)
                .expect("query")
                .expect("a game");
            let state = store.games().state(game).expect("state");
            let seat = store
                .people()
                .seats(game)
                .expect("seats")
                .iter()
                .position(|s| s.owner == skymines::store::SeatOwner::Discord(user))
                .expect("a seat");
            // (`choices` keeps every label offered in `offered`.)
            let choices = self.choices(user);
            let offered: Vec<Decision> = choices
                .iter()
                .map(|c| {
                    // `d:GAME:VERSION:DECISION`, or the first of an option of several decisions
                    // `n:GAME:VERSION:N:FIRST`.
                    let (parts, id) = match c.custom_id.strip_prefix("n:") {
                        Some(rest) => (4, rest),
                        None => (3, c.custom_id.strip_prefix("d:").expect("a decision id")),
                    };
                    let json = id.splitn(parts, ':').nth(parts - 1).expect("a decision id");
                    serde_json::from_str(json).expect("a decision")
                })
                .collect();
            let pick = skymines::bots::weighted::choose(&mut rng, &data, &state, seat, &offered)
                .expect("a choice");
            let n = offered.iter().position(|d| *d == pick).expect("offered") + 1;
            self.say(&format!("{name} /choose option:{n}"));
        }
        panic!("the game does not end");
    }
}

/// The level-choice buttons of some replies: (custom id, label).
fn level_buttons(replies: &[Reply]) -> Vec<(String, String)> {
    replies
        .iter()
        .flat_map(|r| r.choices.iter())
        .filter(|c| c.custom_id.starts_with("c:"))
        .map(|c| (c.custom_id.clone(), c.label.clone()))
        .collect()
}

fn results(t: &Table) -> (Vec<ChapterResult>, CampaignStatus) {
    let store = t.chat.store();
    let id = store
        .campaigns()
        .last_campaign_in_channel(LOCAL_CHANNEL)
        .expect("query")
        .expect("a campaign");
    let record = store
        .campaigns()
        .campaign(id)
        .expect("query")
        .expect("the campaign");
    let results = record
        .chapters
        .iter()
        .filter_map(|c| c.result.clone())
        .map(|r| serde_json::from_value(r).expect("a chapter result"))
        .collect();
    (results, record.status)
}

const NAMES: [&str; 2] = ["alice", "bob"];

/// Opens a campaign for alice and bob against Luna (seeded) and starts chapter 1.
fn open_campaign(t: &mut Table, seed: u64) {
    let opened = t.say(&format!(
        "alice /skymines campaign new players:2 seed:{seed}"
    ));
    let text = public_text(&opened);
    assert!(text.contains("opens a Skymines campaign"), "{text}");
    assert!(text.contains("against Luna (level 3)"), "{text}");
    t.say("bob /skymines join");
    let started = public_text(&t.say("alice /skymines start"));
    assert!(
        started.contains("Campaign chapter 1/4: Mining the Moon"),
        "{started}"
    );
}

#[test]
fn a_whole_four_chapter_campaign_through_the_commands() {
    let data = GameData::embedded().expect("data");
    let mut t = table("whole");
    open_campaign(&mut t, 5);

    // Refusals while chapter 1 runs: a second campaign, next by a stranger, next too early.
    let second = t.say("bob /skymines campaign new players:2");
    assert!(private_to(&second, "bob").contains("already has a campaign"));
    let stranger = t.say("carol /skymines campaign next");
    assert!(private_to(&stranger, "carol").contains("Only the campaign's players"));
    let early = t.say("alice /skymines campaign next");
    assert!(
        private_to(&early, "alice").contains("Chapter 1 is still being played"),
        "{early:?}"
    );
    assert!(
        public_text(&early).is_empty(),
        "a refusal says nothing publicly"
    );

    let mut level = 3u8;
    let mut luna_sp_by_choice = 0u32;
    let mut restarted = false;
    let mut chapter = 1u8;
    let mut loop_games = 0;
    loop {
        let end = t.play_out(&NAMES, 100 + chapter as u64 + 10 * loop_games);
        let text = public_text(&end);
        if text.contains("Time anomaly! The threat card stayed on the board") {
            // The loop's next game goes through `next` like a chapter (capped here: random
            // clicking rarely removes the card).
            loop_games += 1;
            assert!(loop_games < 3, "the loop goes on (seed choice)");
            let next = public_text(&t.say("alice /skymines campaign next"));
            assert!(next.contains("Time anomaly loop: game"), "{next}");
            continue;
        }
        let name = data
            .campaign
            .chapter(chapter as u32)
            .expect("chapter")
            .name
            .clone();
        assert!(
            text.contains(&format!("Campaign chapter {chapter}, {name}, is over")),
            "{text}"
        );
        // The announcement: every seat with its score, SP, breakdown and running total.
        let (recorded, status) = results(&t);
        assert_eq!(recorded.len(), chapter as usize);
        let result = recorded.last().expect("this chapter").clone();
        let standing = campaign::standing(&data, &recorded);
        for (i, seat) in result.seats.iter().enumerate() {
            let line = format!("{}: {} CrypCoin, {} SP (", seat.name, seat.score, seat.sp);
            assert!(text.contains(&line), "{line} in {text}");
            assert!(text.contains(&format!("total {} SP", standing.totals[i])));
        }
        assert_eq!(result.luna_level, Some(level));
        if chapter == 4 {
            assert_eq!(status, CampaignStatus::Finished);
            assert!(
                text.contains("The campaign is over! The final rating:"),
                "{text}"
            );
            for (i, name) in standing.names.iter().enumerate() {
                let rating = campaign::rating(&data, standing.totals[i]).expect("a row");
                assert!(text.contains(&format!(
                    "{name}: {} SP, rating {}: {}",
                    standing.totals[i], rating.label, rating.text
                )));
            }
            assert!(
                level_buttons(&end).is_empty(),
                "no level choice after chapter 4"
            );
            break;
        }
        // Before chapters 2-4: the players choose Luna's level with buttons.
        let buttons = level_buttons(&end);
        let luna_won = result.luna_won();
        let labels: Vec<&str> = buttons.iter().map(|(_, l)| l.as_str()).collect();
        if luna_won {
            assert_eq!(
                labels,
                [
                    format!("Lower Luna to level {} (Luna +1 SP)", level - 1),
                    format!("Keep Luna at level {level}")
                ]
            );
            assert!(text.contains(&format!("Luna won chapter {chapter}")));
        } else {
            assert_eq!(
                labels,
                [
                    format!("Raise Luna to level {}", level + 1),
                    format!("Keep Luna at level {level} (Luna +2 SP)")
                ]
            );
            assert!(text.contains(&format!("Luna did not win chapter {chapter}")));
        }
        // Next before the choice shows the buttons again; a stranger cannot choose.
        let again = t.say("bob /skymines campaign next");
        assert_eq!(level_buttons(&again), buttons);
        let stranger = t.click("carol", &buttons[0].0);
        assert!(private_to(&stranger, "carol").contains("Only the campaign's players"));

        if !restarted {
            // A restart between chapters loses nothing: the status and the buttons still work.
            t = t.reopened(config());
            restarted = true;
            let status = public_text(&t.say("bob /skymines campaign status"));
            assert!(status.contains("Chapters played: 1/4"), "{status}");
            assert!(
                status.contains("choose Luna's level for chapter 2"),
                "{status}"
            );
        }

        // Chapter 1 and 3: keep the level; chapter 2: the other choice.
        let pick = if chapter == 2 { 0 } else { 1 };
        let (id, label) = buttons[pick].clone();
        let chosen = public_text(&t.click("alice", &id));
        let luna_before = result.seats.iter().find(|s| s.luna).expect("Luna").sp;
        let compensation = match (luna_won, pick) {
            (true, 0) => 1,
            (false, 1) => 2,
            _ => 0,
        };
        luna_sp_by_choice += compensation;
        level = match (luna_won, pick) {
            (true, 0) => level - 1,
            (false, 0) => level + 1,
            _ => level,
        };
        assert!(
            chosen.contains(&format!(
                "alice chose: Luna plays chapter {} at level {level}.",
                chapter + 1
            )),
            "{label}: {chosen}"
        );
        assert_eq!(chosen.contains("Luna gains"), compensation > 0);
        let (recorded, _) = results(&t);
        let luna_after = recorded[chapter as usize - 1]
            .seats
            .iter()
            .find(|s| s.luna)
            .expect("Luna");
        assert_eq!(luna_after.sp, luna_before + compensation);
        assert_eq!(
            luna_after
                .lines
                .iter()
                .any(|l| l.rule == "luna_level_choice"),
            compensation > 0
        );
        // A click that lost the race (issue 19) says who decided what.
        let late = t.click("bob", &buttons[1 - pick].0);
        assert!(
            private_to(&late, "bob").contains(&format!(
                "Too late: alice has already chosen: Luna plays chapter {} at level {level}.",
                chapter + 1
            )),
            "{late:?}"
        );

        chapter += 1;
        loop_games = 0;
        if chapter == 2 {
            // Creating the chapter's game and recording it in the campaign is one transaction:
            // a failure before it commits leaves neither the game nor the record.
            fails_before_commit(&mut t, "bob", "/skymines campaign next");
            let status = public_text(&t.say("bob /skymines campaign status"));
            assert!(!status.contains("Now playing"), "{status}");
        }
        let next = public_text(&t.say("bob /skymines campaign next"));
        let name = &data.campaign.chapter(chapter as u32).expect("chapter").name;
        assert!(
            next.contains(&format!("Campaign chapter {chapter}/4: {name}")),
            "{next}"
        );
        assert!(next.contains(&format!("Luna (level {level})")), "{next}");
    }

    // The status after the campaign: every chapter with its breakdown, totals and the rating.
    let status = public_text(&t.say("carol /skymines campaign status"));
    assert!(status.contains("Chapters played: 4/4"), "{status}");
    for n in 1..=4 {
        assert!(
            status.contains(&format!("Campaign chapter {n}, ")),
            "{status}"
        );
    }
    assert!(status.contains("Running totals"), "{status}");
    assert!(status.contains("The campaign is over!"), "{status}");
    let (recorded, status) = results(&t);
    assert_eq!(status, CampaignStatus::Finished);
    let luna_choice_sp: u32 = recorded
        .iter()
        .flat_map(|r| r.seats.iter().filter(|s| s.luna))
        .flat_map(|s| s.lines.iter())
        .filter(|l| l.rule == "luna_level_choice")
        .map(|l| l.sp)
        .sum();
    assert_eq!(luna_choice_sp, luna_sp_by_choice);
    // Each chapter was played with its own options by the same seats.
    let store = t.chat.store();
    let id = store
        .campaigns()
        .last_campaign_in_channel(LOCAL_CHANNEL)
        .expect("query")
        .expect("campaign");
    let record = store
        .campaigns()
        .campaign(id)
        .expect("query")
        .expect("campaign");
    for c in &record.chapters {
        let game = store.games().game(c.game.expect("a game")).expect("game");
        assert_eq!(game.options.chapter, Some(c.chapter));
        let fixed =
            campaign::chapter_options(&data, c.chapter, 2, game.options.luna, 0).expect("options");
        assert_eq!(game.options.board, fixed.board);
        assert_eq!(game.options.missions, fixed.missions);
        assert_eq!(game.options.threats, fixed.threats);
        assert_eq!(game.seat_names[..2], ["alice", "bob"]);
    }
    // A new campaign may start once this one is over.
    let again = public_text(&t.say("alice /skymines campaign new players:2"));
    assert!(again.contains("opens a Skymines campaign"), "{again}");
}

#[test]
fn campaign_refusals_change_nothing() {
    let mut t = table("refuse");
    let none = t.say("alice /skymines campaign next");
    assert!(private_to(&none, "alice").contains("no campaign in this channel"));
    let none = t.say("alice /skymines campaign status");
    assert!(private_to(&none, "alice").contains("no campaign in this channel"));
    let four = t.say("alice /skymines campaign new players:4 luna:yes");
    assert!(private_to(&four, "alice").contains("Luna never joins 4 humans"));
    let solo = t.say("alice /skymines campaign new players:1 luna:no");
    assert!(private_to(&solo, "alice").contains("solo campaign is played against Luna"));
    let odd = t.say("alice /skymines campaign new players:2 board:belt");
    assert!(private_to(&odd, "alice").contains("Unknown option `board`"));
    // Solo, easier: Luna starts at 4.
    let solo = public_text(&t.say("alice /skymines campaign new players:1 easier:yes"));
    assert!(solo.contains("against Luna (level 4)"), "{solo}");
    // A second campaign while the first gathers its players: the channel is busy.
    let busy = t.say("bob /skymines campaign new players:2");
    assert!(!private_to(&busy, "bob").is_empty());
    t.say("alice /skymines leave");
    // A four-player campaign plays without Luna.
    let four = public_text(&t.say("alice /skymines campaign new players:4"));
    assert!(!four.contains("Luna"), "{four}");
}

/// `user`'s `command` with its transaction failing just before it commits: the user is told
/// nothing was changed, nobody else hears of it, and no game was created.
fn fails_before_commit(t: &mut Table, user: &str, command: &str) {
    t.chat.store().fail_next(FailPoint::BeforeCommit);
    let failed = t.say(&format!("{user} {command}"));
    assert!(public_text(&failed).is_empty(), "{failed:?}");
    assert!(private_to(&failed, user).contains("nothing was changed"));
    let game = t
        .chat
        .store()
        .games()
        .game_in_channel(LOCAL_CHANNEL)
        .expect("query");
    assert_eq!(game, None);
}

/// Starting a campaign creates the campaign and its chapter 1 game in one transaction: a failure
/// before it commits leaves neither, the lobby stays, and the next start works.
#[test]
fn a_failed_campaign_start_leaves_neither_campaign_nor_game() {
    let mut t = table("atomic-start");
    t.say("alice /skymines campaign new players:2 seed:9");
    t.say("bob /skymines join");
    fails_before_commit(&mut t, "alice", "/skymines start");
    let store = t.chat.store();
    assert_eq!(
        store
            .campaigns()
            .campaign_in_channel(LOCAL_CHANNEL)
            .expect("query"),
        None
    );
    let started = public_text(&t.say("alice /skymines start"));
    assert!(
        started.contains("Campaign chapter 1/4: Mining the Moon"),
        "{started}"
    );
    let game = store.games().game_in_channel(LOCAL_CHANNEL).expect("query");
    let (results, status) = results(&t);
    assert!(results.is_empty());
    assert_eq!(status, CampaignStatus::Active);
    let id = store
        .campaigns()
        .campaign_in_channel(LOCAL_CHANNEL)
        .expect("query")
        .expect("a campaign");
    let record = store
        .campaigns()
        .campaign(id)
        .expect("query")
        .expect("the campaign");
    assert_eq!(record.chapters[0].game, game, "chapter 1 records its game");
}

/// A campaign document that no longer reads (a damaged row, a bot downgrade) is an error on the
/// bot's side: the player gets the catalog's apology pointing at the status command, never the
/// decoder's details, and nothing is changed.
#[test]
fn a_campaign_that_does_not_read_gets_an_apology_not_the_details() {
    let mut t = table("damaged");
    open_campaign(&mut t, 5);
    let store = t.chat.store();
    let id = store
        .campaigns()
        .campaign_in_channel(LOCAL_CHANNEL)
        .expect("query")
        .expect("a campaign");
    let (before, status) = results(&t);
    store
        .campaigns()
        .save_campaign(id, &serde_json::json!({ "chapter": "two" }), status, None)
        .expect("a damaged document is stored");
    for line in [
        "alice /skymines campaign status",
        "bob /skymines campaign next",
    ] {
        let name = line.split(' ').next().unwrap_or_default();
        let text = private_to(&t.say(line), name);
        assert!(
            text.contains("went wrong on our side with this campaign"),
            "{text}"
        );
        assert!(text.contains("/skymines campaign status"), "{text}");
        for detail in ["campaign 1:", "invalid type", "missing field", "chapter"] {
            assert!(!text.contains(detail), "{detail} leaked: {text}");
        }
    }
    assert_eq!(results(&t), (before, status));
}

#[test]
fn a_chapter_game_refuses_options_the_chapter_fixes() {
    let mut t = table("chapter");
    let refused = t.say("alice /skymines new players:2 chapter:2 board:moon");
    assert!(
        private_to(&refused, "alice").contains("Chapter 2 fixes board (belt)"),
        "{refused:?}"
    );
    let refused = t.say("alice /skymines new players:2 chapter:4 threats:no");
    assert!(private_to(&refused, "alice").contains("Chapter 4 fixes threats (yes)"));
    let refused = t.say("alice /skymines new players:2 chapter:1 tokens:fixed");
    assert!(private_to(&refused, "alice").contains("Chapter 1 fixes tokens (draft)"));
    // Agreeing options and the linked slots variant (no chapter fixes it) are fine.
    let ok =
        public_text(&t.say("alice /skymines new players:2 chapter:2 board:belt linked_slots:yes"));
    assert!(ok.contains("opened a Skymines game"), "{ok}");
}

#[test]
fn mission_tasks_and_one_time_markers_are_offered_as_labelled_buttons() {
    let data = GameData::embedded().expect("data");
    let tasks: Vec<String> = data
        .missions
        .tasks()
        .flat_map(|(_, t)| [Some(t.text.clone()), t.moon.clone()])
        .flatten()
        .collect();
    let mut t = table("missions");
    for seed in 1..=30u64 {
        t.say(&format!(
            "alice /skymines new players:2 missions:yes seed:{seed}"
        ));
        t.say("bob /skymines join");
        let started = public_text(&t.say("alice /skymines start"));
        assert!(started.contains("begins"), "{started}");
        t.play_out_by_policy(&NAMES, seed);
        let claimed = t.offered.iter().any(|l| l.starts_with("Claim mission: "));
        let marker = t
            .offered
            .iter()
            .any(|l| l.starts_with("Place a one-time bonus marker: "));
        if claimed && marker {
            break;
        }
    }
    let claims: Vec<&String> = t
        .offered
        .iter()
        .filter(|l| l.starts_with("Claim mission: "))
        .collect();
    assert!(
        !claims.is_empty(),
        "a claimable task was offered as a button"
    );
    for label in &claims {
        let task = label.trim_start_matches("Claim mission: ");
        assert!(tasks.iter().any(|t| t == task), "{label} names a task");
    }
    assert!(
        t.offered
            .iter()
            .any(|l| l.starts_with("Place a one-time bonus marker: ")),
        "the one-time bonus marker placement was offered as a button"
    );
}

/// A campaign seed whose chapter 4 deals the Time anomaly (chapter games take their seeds from
/// the campaign's: `seed + 100 × chapter + loop game`), whatever Luna's level by then.
fn seed_with_time_anomaly_in_chapter_4(data: &GameData) -> u64 {
    (1..10_000u64)
        .find(|s| {
            (1..=5u8).all(|level| {
                let o =
                    campaign::chapter_options(data, 4, 2, Some(level), s + 400).expect("options");
                let names = sim::seat_names(2);
                let g = skymines::engine::new_game(data, &o, &names).expect("game");
                skymines::engine::threats::card(data, &g).map(|c| c.id.as_str())
                    == Some("time_anomaly")
            })
        })
        .expect("a seed")
}

#[test]
fn the_time_anomaly_loop_runs_through_next_and_can_be_ended() {
    let data = GameData::embedded().expect("data");
    let seed = seed_with_time_anomaly_in_chapter_4(&data);
    let mut t = table("loop");
    open_campaign(&mut t, seed);
    // Chapters 1-3, keeping Luna's level.
    for chapter in 1..=3u8 {
        let end = t.play_out(&NAMES, chapter as u64);
        let buttons = level_buttons(&end);
        let keep = buttons
            .iter()
            .find(|(_, l)| l.starts_with("Keep"))
            .expect("a keep button");
        t.click("alice", &keep.0.clone());
        t.say("alice /skymines campaign next");
    }
    let early = t.say("alice /skymines campaign next end_loop:yes");
    assert!(private_to(&early, "alice").contains("still being played"));
    // Chapter 4's first game: random clicking leaves the Time anomaly on the board.
    let end = public_text(&t.play_out(&NAMES, 4));
    assert!(
        end.contains("Time anomaly! The threat card stayed on the board"),
        "{end}"
    );
    assert!(end.contains("game 1 of the loop"), "{end}");
    let (recorded, status) = results(&t);
    assert_eq!(recorded.len(), 3, "the chapter is not over yet");
    assert_eq!(status, CampaignStatus::Active);
    let status_text = public_text(&t.say("bob /skymines campaign status"));
    assert!(status_text.contains("Time anomaly loop: 1 game of chapter 4"));
    // `next` plays the loop's next game with the same threat card.
    let next = public_text(&t.say("bob /skymines campaign next"));
    assert!(next.contains("Campaign chapter 4/4"), "{next}");
    assert!(next.contains("Time anomaly loop: game 2"), "{next}");
    let store = t.chat.store();
    let game = store
        .games()
        .game_in_channel(LOCAL_CHANNEL)
        .expect("query")
        .expect("the loop's game");
    let state = store.games().state(game).expect("state");
    assert_eq!(
        skymines::engine::threats::card(&data, &state).map(|c| c.id.as_str()),
        Some("time_anomaly")
    );
    let end = public_text(&t.play_out(&NAMES, 44));
    assert!(end.contains("game 2 of the loop"), "{end}");
    // The players end the loop: chapter 4 counts the average of its two games.
    let stranger = t.say("carol /skymines campaign next end_loop:yes");
    assert!(private_to(&stranger, "carol").contains("Only the campaign's players"));
    let ended = public_text(&t.say("alice /skymines campaign next end_loop:yes"));
    assert!(
        ended.contains("alice ends the Time anomaly loop of chapter 4"),
        "{ended}"
    );
    assert!(
        ended.contains("the average of 2 games in the Time anomaly's loop"),
        "{ended}"
    );
    assert!(
        ended.contains("The campaign is over! The final rating:"),
        "{ended}"
    );
    let (recorded, status) = results(&t);
    assert_eq!(status, CampaignStatus::Finished);
    let chapter4 = &recorded[3];
    assert_eq!(chapter4.games, 2);
    // The winner point went once, to the best averaged score.
    let best = chapter4.seats.iter().map(|s| s.score).max().expect("seats");
    for s in &chapter4.seats {
        let winner = s.lines.iter().any(|l| l.rule == "winner");
        assert_eq!(winner, s.score == best, "{s:?}");
    }
}
