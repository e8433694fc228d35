//! Campaigns and lobbies. A campaign is four chapters played in a row in one channel, each
//! chapter a stored game, and what each chapter gave (a JSON result the campaign layer
//! defines). A lobby is a game being gathered (migration `0007_lobbies.sql`): one JSON document
//! per channel that the chat layer defines, written on every change so a restart keeps it.

use super::error::{Result, StoreError};
use super::sql::{args, Row, Tx};
use super::{now_ms, FailPoint, GameId, Location, NewGame, Store};
use crate::engine::GameState;
use std::sync::Arc;

/// The campaigns' and lobbies' role (see [`Store::campaigns`]).
#[derive(Clone, Copy)]
pub struct Campaigns<'s>(pub(super) &'s Store);

impl Store {
    /// Campaigns and lobbies.
    pub fn campaigns(&self) -> Campaigns<'_> {
        Campaigns(self)
    }
}

/// How a campaign's options are made once its game has an id (see
/// [`Campaigns::create_campaign_game`]).
pub type CampaignOptions<'a> =
    Box<dyn FnOnce(GameId) -> std::result::Result<serde_json::Value, String> + 'a>;

/// A campaign's row id.
pub type CampaignId = i64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CampaignStatus {
    Active,
    Finished,
    Abandoned,
}

impl CampaignStatus {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            CampaignStatus::Active => "active",
            CampaignStatus::Finished => "finished",
            CampaignStatus::Abandoned => "abandoned",
        }
    }

    pub(super) fn parse(s: &str) -> CampaignStatus {
        match s {
            "finished" => CampaignStatus::Finished,
            "abandoned" => CampaignStatus::Abandoned,
            _ => CampaignStatus::Active,
        }
    }
}

/// One chapter of a campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct ChapterRecord {
    pub chapter: u8,
    pub game: Option<GameId>,
    pub result: Option<serde_json::Value>,
    pub completed_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CampaignRecord {
    pub id: CampaignId,
    pub location: Location,
    pub status: CampaignStatus,
    pub options: serde_json::Value,
    pub chapters: Vec<ChapterRecord>,
    pub created_at: i64,
}

/// What a campaign step writes about one chapter (see [`Campaigns::save_campaign`]).
#[derive(Debug, Clone, Copy)]
pub struct ChapterWrite<'a> {
    pub chapter: u8,
    pub game: Option<GameId>,
    pub result: Option<&'a serde_json::Value>,
}

pub(super) fn check_chapter(chapter: u8) -> Result<()> {
    if (1..=4).contains(&chapter) {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "a campaign has chapters 1 to 4, not {chapter}"
        )))
    }
}

impl Campaigns<'_> {
    pub fn create_campaign(
        &self,
        location: Location,
        options: &serde_json::Value,
    ) -> Result<CampaignId> {
        self.0
            .db
            .write(|tx| insert_campaign(tx, &location, options))
    }

    /// Creates a campaign together with its chapter 1 game in one transaction: the campaign's
    /// document is made from the game's id, and chapter 1 records the game.
    pub fn create_campaign_game(
        &self,
        new: NewGame,
        options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)> {
        self.create_game_for_chapter(new, None, 1, options)
    }

    /// Creates the game of a campaign chapter and saves the campaign's document (made from the
    /// new game's id) with that chapter's game, in one transaction: a crash leaves either both
    /// or neither.
    pub fn create_chapter_game(
        &self,
        new: NewGame,
        campaign: CampaignId,
        chapter: u8,
        options: CampaignOptions<'_>,
    ) -> Result<(GameId, Arc<GameState>)> {
        let (_, game, state) =
            self.create_game_for_chapter(new, Some(campaign), chapter, options)?;
        Ok((game, state))
    }

    /// Creates a chapter's game and, in the same transaction, the campaign itself (when
    /// `campaign` is None), its document made from the game's id and the chapter's row.
    fn create_game_for_chapter(
        &self,
        new: NewGame,
        campaign: Option<CampaignId>,
        chapter: u8,
        options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)> {
        check_chapter(chapter)?;
        let store = self.0;
        let location = new.location;
        let mut id = campaign.unwrap_or_default();
        let (game, state) = store.games().create_game_and(new, |tx, game| {
            let options = options(game).map_err(StoreError::Invalid)?;
            if campaign.is_none() {
                id = insert_campaign(tx, &location, &options)?;
            }
            let write = ChapterWrite {
                chapter,
                game: Some(game),
                result: None,
            };
            write_campaign(tx, id, &options, CampaignStatus::Active, Some(write))?;
            store.hit(FailPoint::BeforeCommit)
        })?;
        Ok((id, game, state))
    }

    /// Records which game plays a chapter.
    pub fn set_chapter_game(&self, campaign: CampaignId, chapter: u8, game: GameId) -> Result<()> {
        check_chapter(chapter)?;
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO campaign_chapters (campaign_id, chapter, game_id) VALUES ($1, $2, $3) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET game_id = excluded.game_id",
                args![campaign, chapter, game],
            )?;
            Ok(())
        })
    }

    /// Records what a chapter gave.
    pub fn record_chapter_result(
        &self,
        campaign: CampaignId,
        chapter: u8,
        result: &serde_json::Value,
    ) -> Result<()> {
        check_chapter(chapter)?;
        let now = now_ms();
        let text = result.to_string();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO campaign_chapters (campaign_id, chapter, result, completed_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET result = excluded.result, \
                 completed_at = excluded.completed_at",
                args![campaign, chapter, &text, now],
            )?;
            Ok(())
        })
    }

    pub fn set_campaign_status(&self, campaign: CampaignId, status: CampaignStatus) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(
                "UPDATE campaigns SET status = $2 WHERE id = $1",
                args![campaign, status.as_str()],
            )?;
            Ok(())
        })
    }

    /// Saves one step of a campaign in a single transaction: the campaign layer's document
    /// (the `options` JSON), its status and, when given, a chapter's game and/or result (a
    /// `None` field keeps what is stored). A crash never leaves the document and the chapter
    /// record disagreeing.
    pub fn save_campaign(
        &self,
        campaign: CampaignId,
        options: &serde_json::Value,
        status: CampaignStatus,
        chapter: Option<ChapterWrite<'_>>,
    ) -> Result<()> {
        if let Some(c) = &chapter {
            check_chapter(c.chapter)?;
        }
        self.0
            .db
            .write(|tx| write_campaign(tx, campaign, options, status, chapter))
    }

    /// A campaign with its chapters in order; None if there is no such campaign.
    pub fn campaign(&self, campaign: CampaignId) -> Result<Option<CampaignRecord>> {
        self.0.db.read(|tx| {
            let head = tx.query_opt(
                "SELECT guild, channel, status, options, created_at FROM campaigns WHERE id = $1",
                args![campaign],
                |r| campaign_head(campaign, r),
            )?;
            let Some(mut record) = head else {
                return Ok(None);
            };
            record.chapters = tx.query(
                "SELECT chapter, game_id, result, completed_at FROM campaign_chapters \
                 WHERE campaign_id = $1 ORDER BY chapter",
                args![campaign],
                |r| {
                    Ok(ChapterRecord {
                        chapter: u8::try_from(r.get::<i64>(0)?).unwrap_or(0),
                        game: r.get(1)?,
                        result: r.get::<Option<String>>(2)?.map(json_or_text),
                        completed_at: r.get(3)?,
                    })
                },
            )?;
            Ok(Some(record))
        })
    }

    /// The newest campaign of a channel, whatever its status (a finished one stays readable).
    pub fn last_campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT id FROM campaigns WHERE channel = $1 ORDER BY id DESC LIMIT 1",
                args![channel],
                |r| r.get(0),
            )
        })
    }

    /// The active campaign of a channel.
    pub fn campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT id FROM campaigns WHERE channel = $1 AND status = 'active' \
                 ORDER BY id DESC LIMIT 1",
                args![channel],
                |r| r.get(0),
            )
        })
    }

    /// Saves (or replaces) the lobby of `channel`.
    pub fn save_lobby(&self, channel: u64, body: &str) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO lobbies (channel, body, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (channel) DO UPDATE SET body = excluded.body, \
                 updated_at = excluded.updated_at",
                args![channel, body, now],
            )?;
            Ok(())
        })
    }

    /// Forgets the lobby of `channel` (started, closed or dropped).
    pub fn delete_lobby(&self, channel: u64) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute("DELETE FROM lobbies WHERE channel = $1", args![channel])?;
            Ok(())
        })
    }

    /// Every stored lobby as (channel, document).
    pub fn lobbies(&self) -> Result<Vec<(u64, String)>> {
        self.0.db.read(|tx| {
            tx.query(
                "SELECT channel, body FROM lobbies ORDER BY channel",
                args![],
                |r| Ok((r.u64(0)?, r.get(1)?)),
            )
        })
    }
}

/// Writes a campaign's document and status and, when given, a chapter's game and/or result (a
/// `None` field keeps what is stored), inside the caller's transaction.
fn write_campaign(
    tx: &mut Tx<'_>,
    campaign: CampaignId,
    options: &serde_json::Value,
    status: CampaignStatus,
    chapter: Option<ChapterWrite<'_>>,
) -> Result<()> {
    let now = now_ms();
    let changed = tx.execute(
        "UPDATE campaigns SET options = $2, status = $3 WHERE id = $1",
        args![campaign, &options.to_string(), status.as_str()],
    )?;
    if changed == 0 {
        return Err(StoreError::Invalid(format!("no campaign {campaign}")));
    }
    if let Some(c) = chapter {
        let result = c.result.map(|r| r.to_string());
        let completed = result.as_ref().map(|_| now);
        tx.execute(
            "INSERT INTO campaign_chapters (campaign_id, chapter, game_id, result, completed_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (campaign_id, chapter) DO UPDATE SET \
             game_id = COALESCE(excluded.game_id, campaign_chapters.game_id), \
             result = COALESCE(excluded.result, campaign_chapters.result), \
             completed_at = COALESCE(excluded.completed_at, campaign_chapters.completed_at)",
            args![campaign, c.chapter, c.game, result.as_ref(), completed],
        )?;
    }
    Ok(())
}

/// Inserts an active campaign row (inside the caller's transaction); returns its id.
fn insert_campaign(
    tx: &mut Tx<'_>,
    location: &Location,
    options: &serde_json::Value,
) -> Result<CampaignId> {
    tx.query_one(
        "INSERT INTO campaigns (guild, channel, status, options, created_at) \
         VALUES ($1, $2, 'active', $3, $4) RETURNING id",
        args![
            location.guild,
            location.channel,
            &options.to_string(),
            now_ms()
        ],
        |r| r.get(0),
    )
}

/// A campaign's row (guild, channel, status, options, created_at), its chapters not yet read.
fn campaign_head(id: CampaignId, r: &Row<'_>) -> Result<CampaignRecord> {
    Ok(CampaignRecord {
        id,
        location: Location {
            guild: r.opt_u64(0)?,
            channel: r.u64(1)?,
        },
        status: CampaignStatus::parse(&r.get::<String>(2)?),
        options: json_or_text(r.get(3)?),
        chapters: Vec::new(),
        created_at: r.get(4)?,
    })
}

/// A stored JSON document, or its text when it does not parse (kept readable, not lost).
fn json_or_text(text: String) -> serde_json::Value {
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}
