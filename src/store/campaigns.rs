//! Campaigns: four chapters played in a row in one channel, each chapter a stored game, and
//! what each chapter gave (a JSON result the campaign layer defines).

use super::error::{Result, StoreError};
use super::{from_db, now_ms, to_db, FailPoint, GameId, Location, NewGame, Store};
use crate::engine::GameState;
use rusqlite::Connection;
use rusqlite::{params, OptionalExtension};

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

/// What a campaign step writes about one chapter (see [`Store::save_campaign`]).
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

impl Store {
    pub fn create_campaign(
        &self,
        location: Location,
        options: &serde_json::Value,
    ) -> Result<CampaignId> {
        self.write(|tx| insert_campaign(tx, &location, options))
    }

    /// Creates a campaign together with its chapter 1 game in one transaction: the campaign's
    /// document is made from the game's id, and chapter 1 records the game.
    pub fn create_campaign_game(
        &self,
        new: NewGame,
        options: impl FnOnce(GameId) -> std::result::Result<serde_json::Value, String>,
    ) -> Result<(CampaignId, GameId, std::sync::Arc<GameState>)> {
        self.create_game_for_chapter(new, None, 1, options)
    }

    /// Records which game plays a chapter.
    pub fn set_chapter_game(&self, campaign: CampaignId, chapter: u8, game: GameId) -> Result<()> {
        check_chapter(chapter)?;
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO campaign_chapters (campaign_id, chapter, game_id) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET game_id = excluded.game_id",
            )?
            .execute(params![campaign, chapter, game])?;
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
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO campaign_chapters (campaign_id, chapter, result, completed_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET result = excluded.result, completed_at = excluded.completed_at",
            )?
            .execute(params![campaign, chapter, text, now])?;
            Ok(())
        })
    }

    pub fn set_campaign_status(&self, campaign: CampaignId, status: CampaignStatus) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached("UPDATE campaigns SET status = ?2 WHERE id = ?1")?
                .execute(params![campaign, status.as_str()])?;
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
        self.write(|tx| write_campaign(tx, campaign, options, status, chapter))
    }

    /// Creates the game of a campaign chapter and saves the campaign's document (made from the
    /// new game's id) with that chapter's game, in one transaction: a crash leaves either both
    /// or neither.
    pub fn create_chapter_game(
        &self,
        new: NewGame,
        campaign: CampaignId,
        chapter: u8,
        options: impl FnOnce(GameId) -> std::result::Result<serde_json::Value, String>,
    ) -> Result<(GameId, std::sync::Arc<GameState>)> {
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
        options: impl FnOnce(GameId) -> std::result::Result<serde_json::Value, String>,
    ) -> Result<(CampaignId, GameId, std::sync::Arc<GameState>)> {
        check_chapter(chapter)?;
        let location = new.location;
        let mut id = campaign.unwrap_or_default();
        let (game, state) = self.create_game_and(new, |tx, game| {
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
            self.hit(FailPoint::BeforeCommit)
        })?;
        Ok((id, game, state))
    }

    /// A campaign with its chapters in order; None if there is no such campaign.
    pub fn campaign(&self, campaign: CampaignId) -> Result<Option<CampaignRecord>> {
        self.read(|c| {
            let head = c
                .prepare_cached(
                    "SELECT guild, channel, status, options, created_at FROM campaigns WHERE id = ?1",
                )?
                .query_row([campaign], |r| {
                    Ok((
                        r.get::<_, Option<i64>>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                    ))
                })
                .optional()?;
            let Some((guild, channel, status, options, created_at)) = head else {
                return Ok(None);
            };
            let mut stmt = c.prepare_cached(
                "SELECT chapter, game_id, result, completed_at FROM campaign_chapters \
                 WHERE campaign_id = ?1 ORDER BY chapter",
            )?;
            let chapters = stmt
                .query_map([campaign], |r| {
                    let result: Option<String> = r.get(2)?;
                    Ok(ChapterRecord {
                        chapter: r.get(0)?,
                        game: r.get(1)?,
                        result: result.map(json_or_text),
                        completed_at: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Some(campaign_record(
                campaign,
                (guild, channel, status, options, created_at),
                chapters,
            )))
        })
    }

    /// The newest campaign of a channel, whatever its status (a finished one stays readable).
    pub fn last_campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT id FROM campaigns WHERE channel = ?1 ORDER BY id DESC LIMIT 1",
            )?
            .query_row([to_db(channel)], |r| r.get(0))
            .optional()?)
        })
    }

    /// The active campaign of a channel.
    pub fn campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT id FROM campaigns WHERE channel = ?1 AND status = 'active' ORDER BY id DESC LIMIT 1",
            )?
            .query_row([to_db(channel)], |r| r.get(0))
            .optional()?)
        })
    }
}

/// Writes a campaign's document and status and, when given, a chapter's game and/or result (a
/// `None` field keeps what is stored), inside the caller's transaction.
fn write_campaign(
    tx: &Connection,
    campaign: CampaignId,
    options: &serde_json::Value,
    status: CampaignStatus,
    chapter: Option<ChapterWrite<'_>>,
) -> Result<()> {
    let now = now_ms();
    let changed = tx
        .prepare_cached("UPDATE campaigns SET options = ?2, status = ?3 WHERE id = ?1")?
        .execute(params![campaign, options.to_string(), status.as_str()])?;
    if changed == 0 {
        return Err(StoreError::Invalid(format!("no campaign {campaign}")));
    }
    if let Some(c) = chapter {
        let result = c.result.map(|r| r.to_string());
        let completed = result.as_ref().map(|_| now);
        tx.prepare_cached(
            "INSERT INTO campaign_chapters (campaign_id, chapter, game_id, result, completed_at) \
             VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (campaign_id, chapter) DO UPDATE SET \
             game_id = COALESCE(excluded.game_id, game_id), \
             result = COALESCE(excluded.result, result), \
             completed_at = COALESCE(excluded.completed_at, completed_at)",
        )?
        .execute(params![campaign, c.chapter, c.game, result, completed])?;
    }
    Ok(())
}

/// Inserts an active campaign row (inside the caller's transaction); returns its id.
fn insert_campaign(
    tx: &Connection,
    location: &Location,
    options: &serde_json::Value,
) -> Result<CampaignId> {
    tx.prepare_cached(
        "INSERT INTO campaigns (guild, channel, status, options, created_at) VALUES (?1, ?2, 'active', ?3, ?4)",
    )?
    .execute(params![
        location.guild.map(to_db),
        to_db(location.channel),
        options.to_string(),
        now_ms()
    ])?;
    Ok(tx.last_insert_rowid())
}

/// A campaign's row: guild, channel, status, options, created_at.
pub(super) type CampaignRow = (Option<i64>, i64, String, String, i64);

/// A campaign from its row and chapters (either backend).
pub(super) fn campaign_record(
    id: CampaignId,
    row: CampaignRow,
    chapters: Vec<ChapterRecord>,
) -> CampaignRecord {
    let (guild, channel, status, options, created_at) = row;
    CampaignRecord {
        id,
        location: Location {
            guild: guild.map(from_db),
            channel: from_db(channel),
        },
        status: CampaignStatus::parse(&status),
        options: json_or_text(options),
        chapters,
        created_at,
    }
}

/// A stored JSON document, or its text when it does not parse (kept readable, not lost).
pub(super) fn json_or_text(text: String) -> serde_json::Value {
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}
