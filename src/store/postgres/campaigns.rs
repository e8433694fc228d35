//! Campaigns on PostgreSQL (the twin of [`crate::store::campaigns`]): four chapters played in a
//! row in one channel, each chapter a stored game, and what each chapter gave.

use super::{Db, PgStore};
use crate::engine::GameState;
use crate::store::backend::CampaignOptions;
use crate::store::campaigns::{campaign_record, check_chapter, json_or_text};
use crate::store::error::{Result, StoreError};
use crate::store::{
    now_ms, to_db, CampaignId, CampaignRecord, CampaignStatus, ChapterRecord, ChapterWrite,
    FailPoint, GameId, Location, NewGame,
};
use std::sync::Arc;

impl PgStore {
    pub fn create_campaign(
        &self,
        location: Location,
        options: &serde_json::Value,
    ) -> Result<CampaignId> {
        self.write(|db| insert_campaign(db, &location, options))
    }

    /// Creates a campaign together with its chapter 1 game in one transaction.
    pub fn create_campaign_game(
        &self,
        new: NewGame,
        options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)> {
        self.create_game_for_chapter(new, None, 1, options)
    }

    /// Creates the game of a campaign chapter and saves the campaign's document with that
    /// chapter's game, in one transaction.
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

    /// A chapter's game and, in the same transaction, the campaign itself (when `campaign` is
    /// None), its document made from the game's id and the chapter's row.
    fn create_game_for_chapter(
        &self,
        new: NewGame,
        campaign: Option<CampaignId>,
        chapter: u8,
        options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)> {
        check_chapter(chapter)?;
        let location = new.location;
        let mut id = campaign.unwrap_or_default();
        let (game, state) = self.create_game_and(new, |db, game| {
            let options = options(game).map_err(StoreError::Invalid)?;
            if campaign.is_none() {
                id = insert_campaign(db, &location, &options)?;
            }
            let write = ChapterWrite {
                chapter,
                game: Some(game),
                result: None,
            };
            write_campaign(db, id, &options, CampaignStatus::Active, Some(write))?;
            self.hit(FailPoint::BeforeCommit)
        })?;
        Ok((id, game, state))
    }

    /// Records which game plays a chapter.
    pub fn set_chapter_game(&self, campaign: CampaignId, chapter: u8, game: GameId) -> Result<()> {
        check_chapter(chapter)?;
        self.write(|db| {
            db.execute(
                "INSERT INTO campaign_chapters (campaign_id, chapter, game_id) VALUES ($1, $2, $3) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET game_id = EXCLUDED.game_id",
                &[&campaign, &i64::from(chapter), &game],
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
        self.write(|db| {
            db.execute(
                "INSERT INTO campaign_chapters (campaign_id, chapter, result, completed_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (campaign_id, chapter) DO UPDATE SET result = EXCLUDED.result, completed_at = EXCLUDED.completed_at",
                &[&campaign, &i64::from(chapter), &text, &now],
            )?;
            Ok(())
        })
    }

    pub fn set_campaign_status(&self, campaign: CampaignId, status: CampaignStatus) -> Result<()> {
        self.write(|db| {
            db.execute(
                "UPDATE campaigns SET status = $2 WHERE id = $1",
                &[&campaign, &status.as_str()],
            )?;
            Ok(())
        })
    }

    /// Saves one step of a campaign in a single transaction (see
    /// [`crate::store::Store::save_campaign`]).
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
        self.write(|db| write_campaign(db, campaign, options, status, chapter))
    }

    /// A campaign with its chapters in order; None if there is no such campaign.
    pub fn campaign(&self, campaign: CampaignId) -> Result<Option<CampaignRecord>> {
        self.read(|db| {
            let Some(head) = db.query_opt(
                "SELECT guild, channel, status, options, created_at FROM campaigns WHERE id = $1",
                &[&campaign],
            )?
            else {
                return Ok(None);
            };
            let chapters = db
                .query(
                    "SELECT chapter, game_id, result, completed_at FROM campaign_chapters \
                     WHERE campaign_id = $1 ORDER BY chapter",
                    &[&campaign],
                )?
                .iter()
                .map(|r| {
                    let chapter: i64 = r.try_get(0)?;
                    Ok(ChapterRecord {
                        // The table holds chapters 1 to 4 only.
                        chapter: u8::try_from(chapter).unwrap_or_default(),
                        game: r.try_get(1)?,
                        result: r.try_get::<_, Option<String>>(2)?.map(json_or_text),
                        completed_at: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Some(campaign_record(
                campaign,
                (
                    head.try_get(0)?,
                    head.try_get(1)?,
                    head.try_get(2)?,
                    head.try_get(3)?,
                    head.try_get(4)?,
                ),
                chapters,
            )))
        })
    }

    /// The newest campaign of a channel, whatever its status.
    pub fn last_campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.campaign_of(
            "SELECT id FROM campaigns WHERE channel = $1 ORDER BY id DESC LIMIT 1",
            channel,
        )
    }

    /// The active campaign of a channel.
    pub fn campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>> {
        self.campaign_of(
            "SELECT id FROM campaigns WHERE channel = $1 AND status = 'active' ORDER BY id DESC LIMIT 1",
            channel,
        )
    }

    fn campaign_of(&self, sql: &str, channel: u64) -> Result<Option<CampaignId>> {
        self.read(|db| {
            Ok(db
                .query_opt(sql, &[&to_db(channel)])?
                .map(|r| r.try_get(0))
                .transpose()?)
        })
    }
}

/// Writes a campaign's document and status and, when given, a chapter's game and/or result (a
/// `None` field keeps what is stored), inside the caller's transaction.
fn write_campaign(
    db: &mut Db<'_>,
    campaign: CampaignId,
    options: &serde_json::Value,
    status: CampaignStatus,
    chapter: Option<ChapterWrite<'_>>,
) -> Result<()> {
    let now = now_ms();
    let changed = db.execute(
        "UPDATE campaigns SET options = $2, status = $3 WHERE id = $1",
        &[&campaign, &options.to_string(), &status.as_str()],
    )?;
    if changed == 0 {
        return Err(StoreError::Invalid(format!("no campaign {campaign}")));
    }
    if let Some(c) = chapter {
        let result = c.result.map(|r| r.to_string());
        let completed = result.as_ref().map(|_| now);
        db.execute(
            "INSERT INTO campaign_chapters (campaign_id, chapter, game_id, result, completed_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (campaign_id, chapter) DO UPDATE SET \
             game_id = COALESCE(EXCLUDED.game_id, campaign_chapters.game_id), \
             result = COALESCE(EXCLUDED.result, campaign_chapters.result), \
             completed_at = COALESCE(EXCLUDED.completed_at, campaign_chapters.completed_at)",
            &[
                &campaign,
                &i64::from(c.chapter),
                &c.game,
                &result,
                &completed,
            ],
        )?;
    }
    Ok(())
}

/// Inserts an active campaign row (inside the caller's transaction); returns its id.
fn insert_campaign(
    db: &mut Db<'_>,
    location: &Location,
    options: &serde_json::Value,
) -> Result<CampaignId> {
    Ok(db
        .query_opt(
            "INSERT INTO campaigns (guild, channel, status, options, created_at) \
             VALUES ($1, $2, 'active', $3, $4) RETURNING id",
            &[
                &location.guild.map(to_db),
                &to_db(location.channel),
                &options.to_string(),
                &now_ms(),
            ],
        )?
        .ok_or(StoreError::Invalid(
            "the campaign was not stored".to_string(),
        ))?
        .try_get(0)?)
}
