//! The store's roles besides the game log, on both backends (the places and helpers of
//! `backends`): lobbies, campaigns (their document, chapters and status), seats (vacated,
//! taken, paused, archived), user settings and languages, and what the Discord adapter keeps
//! (status messages, named facts, refused DMs).

use super::backends::{a_move, discord_game, discord_new_game, places, with_level};
use skymines::store::{
    ArchiveReason, CampaignStatus, ChapterWrite, GameStatus, Location, Notify, SeatOwner,
    StatusMessage, StoreError, UserSettings,
};
use std::time::Duration;

#[test]
fn lobbies_are_saved_listed_and_deleted() {
    for place in places("lobbies") {
        let name = place.name();
        let (store, _) = place.open(8);
        assert!(
            store.campaigns().lobbies().expect("none").is_empty(),
            "{name}"
        );
        // Snowflakes above i64::MAX come back bit for bit.
        let big = u64::MAX - 7;
        store
            .campaigns()
            .save_lobby(big, r#"{"seats":1}"#)
            .expect("save");
        store
            .campaigns()
            .save_lobby(5, r#"{"seats":2}"#)
            .expect("save");
        store
            .campaigns()
            .save_lobby(5, r#"{"seats":3}"#)
            .expect("replace");
        // A restart keeps them; ordered by the stored (signed) channel on both backends.
        drop(store);
        let (store, _) = place.open(8);
        assert_eq!(
            store.campaigns().lobbies().expect("list"),
            vec![
                (big, r#"{"seats":1}"#.to_string()),
                (5, r#"{"seats":3}"#.to_string())
            ],
            "{name}"
        );
        store.campaigns().delete_lobby(5).expect("delete");
        store
            .campaigns()
            .delete_lobby(6)
            .expect("deleting nothing is fine");
        assert_eq!(
            store.campaigns().lobbies().expect("list"),
            vec![(big, r#"{"seats":1}"#.to_string())],
            "{name}"
        );
    }
}

#[test]
fn campaigns_keep_their_document_chapters_and_status() {
    use serde_json::json;
    for place in places("campaigns") {
        let name = place.name();
        let (store, _) = place.open(8);
        let here = Location {
            guild: Some(9),
            channel: 300,
        };
        // The campaign and its chapter 1 game in one transaction, the document made from the
        // game's id.
        let (campaign, game1, _) = store
            .campaigns()
            .create_campaign_game(
                discord_new_game(9, 300, &[1, 2]),
                Box::new(|g| Ok(json!({ "game": g }))),
            )
            .expect("campaign");
        let rec = store
            .campaigns()
            .campaign(campaign)
            .expect("read")
            .expect("stored");
        assert_eq!(rec.location, here, "{name}");
        assert_eq!(rec.status, CampaignStatus::Active, "{name}");
        assert_eq!(rec.options, json!({ "game": game1 }), "{name}");
        assert_eq!(rec.chapters.len(), 1, "{name}");
        assert_eq!(
            (rec.chapters[0].chapter, rec.chapters[0].game),
            (1, Some(game1)),
            "{name}"
        );
        assert_eq!(rec.chapters[0].result, None, "{name}");
        assert_eq!(
            store.campaigns().campaign_in_channel(300).expect("q"),
            Some(campaign)
        );
        // A document that cannot be made stores neither the game nor the campaign.
        let err = store
            .campaigns()
            .create_campaign_game(
                discord_new_game(9, 301, &[1, 2]),
                Box::new(|_| Err("no document".to_string())),
            )
            .unwrap_err();
        assert!(matches!(err, StoreError::Invalid(_)), "{name}: {err}");
        assert_eq!(
            store.games().game_in_channel(301).expect("q"),
            None,
            "{name}"
        );
        assert_eq!(
            store.campaigns().last_campaign_in_channel(301).expect("q"),
            None
        );
        // Chapter 1 gives a result; chapter 2's game takes the channel.
        store
            .campaigns()
            .record_chapter_result(campaign, 1, &json!({ "won": true }))
            .expect("result");
        store.games().abandon(game1).expect("chapter 1 over");
        let (game2, _) = store
            .campaigns()
            .create_chapter_game(
                discord_new_game(9, 300, &[1, 2]),
                campaign,
                2,
                Box::new(move |g| Ok(json!({ "game": g, "chapter": 2 }))),
            )
            .expect("chapter 2");
        assert_eq!(
            store
                .campaigns()
                .campaign(campaign)
                .expect("read")
                .expect("stored")
                .options,
            json!({ "game": game2, "chapter": 2 }),
            "{name}"
        );
        // One step: the document, the status and chapter 2's result (its game kept).
        store
            .campaigns()
            .save_campaign(
                campaign,
                &json!({ "done": true }),
                CampaignStatus::Finished,
                Some(ChapterWrite {
                    chapter: 2,
                    game: None,
                    result: Some(&json!({ "won": false })),
                }),
            )
            .expect("save");
        let rec = store
            .campaigns()
            .campaign(campaign)
            .expect("read")
            .expect("stored");
        assert_eq!(rec.status, CampaignStatus::Finished, "{name}");
        assert_eq!(rec.options, json!({ "done": true }), "{name}");
        let chapters: Vec<_> = rec
            .chapters
            .iter()
            .map(|c| {
                (
                    c.chapter,
                    c.game,
                    c.result.clone(),
                    c.completed_at.is_some(),
                )
            })
            .collect();
        assert_eq!(
            chapters,
            vec![
                (1, Some(game1), Some(json!({ "won": true })), true),
                (2, Some(game2), Some(json!({ "won": false })), true),
            ],
            "{name}"
        );
        assert_eq!(
            store.campaigns().campaign_in_channel(300).expect("q"),
            None,
            "{name}"
        );
        assert_eq!(
            store.campaigns().last_campaign_in_channel(300).expect("q"),
            Some(campaign),
            "{name}"
        );
        store
            .campaigns()
            .set_chapter_game(campaign, 3, game2)
            .expect("chapter 3");
        assert!(matches!(
            store.campaigns().set_chapter_game(campaign, 5, game2),
            Err(StoreError::Invalid(_))
        ));
        store
            .campaigns()
            .set_campaign_status(campaign, CampaignStatus::Abandoned)
            .expect("status");
        let rec = store
            .campaigns()
            .campaign(campaign)
            .expect("read")
            .expect("stored");
        assert_eq!(rec.status, CampaignStatus::Abandoned, "{name}");
        assert_eq!(rec.chapters[2].game, Some(game2), "{name}");
        assert!(matches!(
            store
                .campaigns()
                .save_campaign(9999, &json!({}), CampaignStatus::Active, None),
            Err(StoreError::Invalid(_))
        ));
        let other = store
            .campaigns()
            .create_campaign(
                Location {
                    guild: None,
                    channel: 302,
                },
                &json!({ "n": 1 }),
            )
            .expect("campaign");
        assert_ne!(other, campaign, "{name}");
        let rec = store
            .campaigns()
            .campaign(other)
            .expect("read")
            .expect("stored");
        assert!(rec.chapters.is_empty(), "{name}");
        assert_eq!(
            store.campaigns().campaign(other + 100).expect("read"),
            None,
            "{name}"
        );
    }
}

#[test]
fn seats_fall_vacant_are_taken_paused_and_archived() {
    for place in places("seats") {
        let name = place.name();
        let (store, _) = place.open(8);
        let game = discord_game(&store, 7, 400, &[1, 2]);
        assert_eq!(
            store.games().bot_level(game).expect("level"),
            "normal",
            "{name}"
        );
        store
            .schedule()
            .set_reminder(game, 0, "turn", 5)
            .expect("reminder");
        store
            .schedule()
            .set_reminder(game, 1, "turn", 5)
            .expect("reminder");
        store
            .schedule()
            .set_waiting_since(game, 0, Some(123))
            .expect("waiting");
        assert_eq!(
            store.schedule().waiting_since(game, 0).expect("q"),
            Some(123)
        );
        assert_eq!(store.schedule().waiting_since(game, 1).expect("q"), None);
        // Seat 0's player leaves: a computer player takes over, its reminders go.
        store.people().vacate_seat(game, 0).expect("vacate");
        let seats = store.people().seats(game).expect("seats");
        assert_eq!(seats[0].owner, SeatOwner::Vacant, "{name}");
        assert_eq!(seats[0].waiting_since, None, "{name}");
        let reminders: Vec<usize> = store
            .schedule()
            .reminders(game)
            .expect("reminders")
            .iter()
            .map(|r| r.seat)
            .collect();
        assert_eq!(reminders, vec![1], "{name}");
        assert!(matches!(
            store.people().vacate_seat(game, 0),
            Err(StoreError::NoSuchSeat(0))
        ));
        // The last person cannot leave.
        assert!(
            matches!(
                store.people().vacate_seat(game, 1),
                Err(StoreError::NoPerson)
            ),
            "{name}"
        );
        assert_eq!(
            store.people().seats(game).expect("seats")[1].owner,
            SeatOwner::Discord(2),
            "{name}"
        );
        // Someone takes the vacant seat; nobody else can then.
        store
            .people()
            .take_seat(game, 0, 3, "three", None)
            .expect("take");
        let seats = store.people().seats(game).expect("seats");
        assert_eq!(
            (seats[0].owner, seats[0].name.as_str()),
            (SeatOwner::Discord(3), "three"),
            "{name}"
        );
        assert!(matches!(
            store.people().take_seat(game, 0, 4, "four", None),
            Err(StoreError::NoSuchSeat(0))
        ));
        store
            .people()
            .set_notify(game, 1, Notify::Dm)
            .expect("notify");
        assert_eq!(
            store.people().seats(game).expect("seats")[1].notify,
            Notify::Dm
        );
        assert!(matches!(
            store.people().set_notify(game, 9, Notify::Dm),
            Err(StoreError::NoSuchSeat(9))
        ));
        // A paused game takes no move; resumed, it does.
        store.schedule().set_paused(game, Some(50)).expect("pause");
        assert_eq!(
            store.schedule().paused_at(game).expect("q"),
            Some(50),
            "{name}"
        );
        let (seat, decisions) = a_move(&store, game);
        let err = store.games().apply(game, seat, &decisions).unwrap_err();
        assert!(matches!(err, StoreError::Changed(_)), "{name}: {err}");
        store.schedule().set_paused(game, None).expect("resume");
        assert_eq!(store.schedule().paused_at(game).expect("q"), None, "{name}");
        let (seat, decisions) = a_move(&store, game);
        assert_eq!(
            store
                .games()
                .apply(game, seat, &decisions)
                .expect("move")
                .seq,
            1
        );
        // Computer players at a level; a level the database does not know stores nothing.
        let bots = store
            .games()
            .create_game(with_level(discord_new_game(7, 401, &[5, 6]), "hard"))
            .expect("bots")
            .0;
        assert_eq!(
            store.games().bot_level(bots).expect("level"),
            "hard",
            "{name}"
        );
        assert!(store
            .games()
            .create_game(with_level(discord_new_game(7, 402, &[5, 6]), "silly"))
            .is_err());
        assert_eq!(
            store.games().game_in_channel(402).expect("q"),
            None,
            "{name}"
        );
        // Archived: kept, out of memory, no reminders, the channel free.
        assert_eq!(
            store.games().archive_channel(400).expect("archive"),
            vec![game]
        );
        assert_eq!(
            store.games().archived_reason(game).expect("q").as_deref(),
            Some(ArchiveReason::ChannelDeleted.as_str()),
            "{name}"
        );
        assert_eq!(
            store.games().game(game).expect("row").status,
            GameStatus::Archived
        );
        assert!(!store.games().is_live(game), "{name}");
        assert!(store
            .schedule()
            .reminders(game)
            .expect("reminders")
            .is_empty());
        assert_eq!(
            store.games().game_in_channel(400).expect("q"),
            None,
            "{name}"
        );
        assert!(store.games().is_live(bots), "{name}");
        assert_eq!(store.games().archive_guild(7).expect("archive"), vec![bots]);
        assert_eq!(
            store.games().archived_reason(bots).expect("q").as_deref(),
            Some(ArchiveReason::GuildRemoved.as_str()),
            "{name}"
        );
        assert!(matches!(
            store.games().archive(game, ArchiveReason::GuildRemoved),
            Err(StoreError::NotActive { .. })
        ));
        assert!(matches!(
            store.schedule().set_paused(game, Some(1)),
            Err(StoreError::NotActive { .. })
        ));
        assert_eq!(store.games().archived_reason(9999).ok(), None, "{name}");
    }
}

#[test]
fn user_settings_and_languages_are_kept() {
    for place in places("settings") {
        let name = place.name();
        let (store, _) = place.open(8);
        let user = u64::MAX - 3;
        assert_eq!(
            store.people().user_settings(user).expect("q"),
            UserSettings::default()
        );
        let settings = UserSettings {
            away_until: Some(99),
            utc_offset_min: -300,
            time_zone: "Europe/Berlin".parse().ok(),
            quiet: Some((22, 7)),
            reminders_off: true,
            remind_after_min: Some(30),
        };
        store
            .people()
            .set_user_settings(user, &settings)
            .expect("set");
        assert_eq!(
            store.people().user_settings(user).expect("q"),
            settings,
            "{name}"
        );
        let fewer = UserSettings {
            utc_offset_min: 60,
            ..UserSettings::default()
        };
        store
            .people()
            .set_user_settings(user, &fewer)
            .expect("replace");
        assert_eq!(
            store.people().user_settings(user).expect("q"),
            fewer,
            "{name}"
        );
        let out_of_range = UserSettings {
            quiet: Some((24, 3)),
            ..settings
        };
        assert!(store
            .people()
            .set_user_settings(user, &out_of_range)
            .is_err());
        assert_eq!(
            store.people().user_settings(user).expect("q"),
            fewer,
            "{name}"
        );
        // Languages: a user's, a game's, and a channel's (its latest game's).
        assert_eq!(store.people().user_language(user).expect("q"), None);
        store.people().set_user_language(user, "de").expect("set");
        store
            .people()
            .set_user_language(user, "en")
            .expect("replace");
        assert_eq!(
            store.people().user_language(user).expect("q").as_deref(),
            Some("en")
        );
        let game = discord_game(&store, 3, 600, &[1, 2]);
        assert_eq!(store.people().game_language(game).expect("q"), None);
        assert_eq!(store.people().channel_language(600).expect("q"), None);
        store
            .images()
            .store_board_png(game, 0, b"png")
            .expect("png");
        store.people().set_game_language(game, "de").expect("set");
        // The board showed the old language's words: drawn again.
        assert_eq!(
            store.images().board_png(game, 0).expect("q"),
            None,
            "{name}"
        );
        assert_eq!(
            store.images().pending_renders(10).expect("q"),
            vec![(game, 0)]
        );
        store
            .images()
            .store_board_png(game, 0, b"png")
            .expect("png");
        store
            .people()
            .set_game_language(game, "de")
            .expect("the same again");
        assert_eq!(
            store.images().board_png(game, 0).expect("q").as_deref(),
            Some(&b"png"[..]),
            "{name}: the same language keeps the board"
        );
        assert_eq!(
            store.people().game_language(game).expect("q").as_deref(),
            Some("de")
        );
        store.games().abandon(game).expect("abandon");
        assert_eq!(
            store.people().channel_language(600).expect("q").as_deref(),
            Some("de"),
            "{name}: the channel keeps its last game's language"
        );
        discord_game(&store, 3, 600, &[1, 2]);
        assert_eq!(
            store.people().channel_language(600).expect("q"),
            None,
            "{name}"
        );
    }
}

#[test]
fn discord_status_messages_meta_and_dm_refusals() {
    for place in places("discord") {
        let name = place.name();
        let (store, _) = place.open(8);
        let game = discord_game(&store, 3, 700, &[1, 2]);
        assert_eq!(store.discord().status(game).expect("q"), None);
        let status = StatusMessage {
            channel: u64::MAX - 1,
            message: u64::MAX - 2,
        };
        store.discord().set_status(game, status).expect("set");
        assert_eq!(store.discord().status(game).expect("q"), Some(status));
        store.discord().set_pinned(game, true).expect("pin");
        assert!(
            store
                .discord()
                .pinned_of_ended_games()
                .expect("q")
                .is_empty(),
            "{name}: a running game keeps its pin"
        );
        store.games().abandon(game).expect("abandon");
        assert_eq!(
            store.discord().pinned_of_ended_games().expect("q"),
            vec![(game, status)],
            "{name}"
        );
        // A new status message is not pinned.
        let moved = StatusMessage {
            channel: 5,
            message: 6,
        };
        store.discord().set_status(game, moved).expect("replace");
        assert_eq!(store.discord().status(game).expect("q"), Some(moved));
        assert!(store
            .discord()
            .pinned_of_ended_games()
            .expect("q")
            .is_empty());
        assert_eq!(store.discord().meta("commands").expect("q"), None);
        store.discord().set_meta("commands", "a").expect("set");
        store.discord().set_meta("commands", "b").expect("replace");
        assert_eq!(
            store.discord().meta("commands").expect("q").as_deref(),
            Some("b")
        );
        let user = u64::MAX - 9;
        assert_eq!(store.people().dm_refused_at(user).expect("q"), None);
        assert!(
            store.people().set_dm_refused(user, true).expect("refused"),
            "{name}"
        );
        let first = store
            .people()
            .dm_refused_at(user)
            .expect("q")
            .expect("a time");
        std::thread::sleep(Duration::from_millis(5));
        assert!(
            !store.people().set_dm_refused(user, true).expect("again"),
            "{name}: nothing changes"
        );
        assert_eq!(
            store.people().dm_refused_at(user).expect("q"),
            Some(first),
            "{name}"
        );
        assert!(store
            .people()
            .set_dm_refused(user, false)
            .expect("open again"));
        assert_eq!(
            store.people().dm_refused_at(user).expect("q"),
            None,
            "{name}"
        );
        assert!(
            !store.people().set_dm_refused(user, false).expect("nothing"),
            "{name}"
        );
    }
}
