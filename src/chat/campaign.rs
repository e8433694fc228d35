//! Campaigns in a channel (`/skymines campaign new|status|next`): four chapters played by the
//! same players, one stored game per chapter (more in a Time anomaly loop). The campaign's
//! players are gathered through the ordinary lobby (`/skymines join`, `/skymines start` starts
//! chapter 1). When a chapter's game ends its result is recorded at once (`chapter_result`,
//! averaged over a Time anomaly loop) and announced with the success-point breakdown; before
//! chapters 2–4 the players choose Luna's level with buttons (with its success-point
//! compensation); after chapter 4 the final rating is announced.
//!
//! Everything lives in the store (the campaign's JSON document and its chapter rows, each step
//! written in one transaction), so a restart loses nothing; a chapter game that ended while the
//! result could not be recorded is recorded by the next `status` or `next`.
//!
//! Settled questions (DECISIONS A8/A14): a Time anomaly loop's games have no winner, so the
//! chapter-winner point is given once, from the averaged scores (`campaign::average_loop`);
//! every other success point is written down per game and averaged. The linked-slots variant is
//! not fixed by any chapter, so a campaign may be played with it (`linked_slots:yes` applies to
//! every chapter); options a chapter fixes cannot be combined with it (`/skymines new
//! chapter:N` with a conflicting option is refused, naming the option).

use super::commands::Options;
use super::lobby::{new_seats, Lobby};
use super::prompt::ClickId;
use super::{Chat, Choice, Reply, Request};
use crate::engine::campaign::{self, ChapterResult, LevelChange, LevelChoice, SeatSp};
use crate::engine::state::{GameState, Phase};
use crate::store::{
    CampaignId, CampaignRecord, CampaignStatus, ChapterWrite, GameId, GameStatus, NewGame,
};
use serde::{Deserialize, Serialize};

/// What `/skymines campaign new` chose beyond the first chapter's game options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CampaignSetup {
    /// Luna starts one level lower (the rulebook's easier start).
    pub easier: bool,
    /// A seed someone chose: each chapter's game derives its seed from it (reproducible).
    pub seed: Option<u64>,
}

/// The campaign layer's document (the store's `campaigns.options` JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct CampaignDoc {
    /// The human players (id, name) in seat order; the same seats play every chapter.
    players: Vec<(u64, String)>,
    easier: bool,
    linked_slots: bool,
    /// Luna's level for the chapter being played or the next one (None: no Luna).
    luna_level: Option<u8>,
    seed: Option<u64>,
    /// The chapter being played, or the next one to play.
    chapter: u8,
    /// The game playing `chapter` now, until its result is recorded.
    current_game: Option<GameId>,
    /// Time anomaly loop: the written-down results of this chapter's earlier games and the last
    /// of those games (the next one uses its threat card).
    loop_games: Vec<ChapterResult>,
    loop_last_game: Option<GameId>,
    /// The players still have to choose Luna's level before `chapter`.
    level_choice_pending: bool,
    /// The last level choice: who chose, for which chapter, which level (a late click is told).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level_chosen: Option<(String, u8, u8)>,
}

/// Games of one chapter (the Time anomaly loop included) a campaign's seeds leave room for.
const SEEDS_PER_CHAPTER: u64 = 100;

impl CampaignDoc {
    fn is_player(&self, user: u64) -> bool {
        self.players.iter().any(|(id, _)| *id == user)
    }
}

fn chapters_in(data: &crate::data::GameData) -> u8 {
    data.campaign.chapter_list.len() as u8
}

/// A new campaign's document, before its chapter 1 game exists.
fn first_chapter_doc(lobby: &Lobby, setup: &CampaignSetup) -> CampaignDoc {
    CampaignDoc {
        players: lobby
            .players
            .iter()
            .map(|(id, name)| (*id, crate::text::sanitize_name(name)))
            .collect(),
        easier: setup.easier,
        linked_slots: lobby.options.linked_slots,
        luna_level: lobby.options.luna,
        seed: setup.seed,
        chapter: 1,
        current_game: None,
        loop_games: Vec::new(),
        loop_last_game: None,
        level_choice_pending: false,
        level_chosen: None,
    }
}

impl Chat {
    /// A campaign step failed on the bot's side (a document that does not read or write, a
    /// chapter result that cannot be computed): logged in full; the players are told to check
    /// `/skymines campaign status`, as an earlier step may already have been saved.
    fn campaign_err(&self, e: impl std::fmt::Display) -> String {
        tracing::error!(error = %e, "campaign step failed");
        self.texts.t("error.campaign_internal")
    }

    /// The channel's active campaign with its document.
    fn load_campaign(&self, channel: u64) -> Result<(CampaignRecord, CampaignDoc), String> {
        let id = self
            .store
            .campaigns()
            .campaign_in_channel(channel)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.texts.t("error.no_campaign"))?;
        self.campaign_by_id(id)
    }

    fn campaign_by_id(&self, id: CampaignId) -> Result<(CampaignRecord, CampaignDoc), String> {
        let record = self
            .store
            .campaigns()
            .campaign(id)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.texts.t("error.no_campaign"))?;
        let doc: CampaignDoc = serde_json::from_value(record.options.clone())
            .map_err(|e| self.campaign_err(format!("campaign {id}: {e}")))?;
        Ok((record, doc))
    }

    fn save(
        &self,
        id: CampaignId,
        doc: &CampaignDoc,
        status: CampaignStatus,
        chapter: Option<ChapterWrite<'_>>,
    ) -> Result<(), String> {
        let json = serde_json::to_value(doc).map_err(|e| self.campaign_err(e))?;
        self.store
            .campaigns()
            .save_campaign(id, &json, status, chapter)
            .map_err(|e| self.err(e))
    }

    /// The recorded result of every finished chapter, in order.
    fn chapter_results(&self, record: &CampaignRecord) -> Vec<ChapterResult> {
        record
            .chapters
            .iter()
            .filter_map(|c| c.result.clone())
            .filter_map(|r| serde_json::from_value(r).ok())
            .collect()
    }

    fn chapter_name(&self, chapter: u8) -> String {
        self.data
            .campaign
            .chapter(chapter as u32)
            .map(|c| self.texts.resolve(&c.display_name()))
            .unwrap_or_default()
    }

    /// `/skymines campaign new`: opens a lobby for the campaign's players. Options: `players`
    /// (1–4), `luna` (yes/no, or her starting level 0–8; default yes with 1–3 humans),
    /// `easier` (Luna starts one level lower), `linked_slots`, `seed` (owners and local mode).
    pub(crate) fn campaign_new(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        if req.in_dm {
            return Err(self.texts.t("error.not_in_dm"));
        }
        let known = ["players", "luna", "easier", "linked_slots", "seed"];
        if let Some(k) = opts.keys().find(|k| !known.contains(k)) {
            return Err(self.texts.f(
                "error.unknown_option",
                &[("option", &k), ("options", &known.join(", "))],
            ));
        }
        if self
            .store
            .campaigns()
            .campaign_in_channel(req.place.channel)
            .map_err(|e| self.err(e))?
            .is_some()
        {
            return Err(self.texts.t("error.campaign_exists"));
        }
        if self.channel_busy(&req.place)? {
            return Err(self.texts.t("error.channel_busy"));
        }
        let number = |key: &str| -> Result<Option<u64>, String> {
            opts.get(key)
                .map(|v| {
                    v.parse::<u64>().map_err(|_| {
                        self.texts
                            .f("error.bad_value", &[("option", &key), ("value", &v)])
                    })
                })
                .transpose()
        };
        let players = number("players")?.unwrap_or(2) as usize;
        let easier = opts.flag("easier").unwrap_or(false);
        let luna = match opts.get("luna") {
            None => players < 4,
            Some(v) if v.parse::<u8>().is_ok() => true,
            Some(_) => opts.flag("luna").unwrap_or(false),
        };
        if luna && players >= 4 {
            return Err(self.texts.t("error.campaign_luna_four"));
        }
        if !luna && players == 1 {
            return Err(self.texts.t("error.campaign_solo_luna"));
        }
        let level = match opts.get("luna").and_then(|v| v.parse::<u8>().ok()) {
            Some(l) => Some(l),
            None if luna => campaign::luna_start_level(&self.data, players, easier),
            None => None,
        };
        let seed = number("seed")?;
        if seed.is_some_and(|s| !super::lobby::is_user_seed(s)) {
            return Err(self.texts.f(
                "error.bad_value",
                &[("option", &"seed"), ("value", &"2^63+")],
            ));
        }
        if seed.is_some() && !req.user.owner && !self.config.anyone_may_seed {
            return Err(self.texts.t("error.seed_owner_only"));
        }
        let setup = CampaignSetup { easier, seed };
        let mut options = campaign::chapter_options(
            &self.data,
            1,
            players,
            level,
            self.chapter_seed(req, &setup.seed, 1, 0),
        )
        .map_err(|e| self.err(e))?;
        options.linked_slots = opts.flag("linked_slots").unwrap_or(false);
        let mut reply = self.open_lobby(
            req,
            options,
            seed.is_some(),
            None,
            Some(setup),
            super::lobby::Computers::default(),
        )?;
        reply.text = self.speaking(self.channel_texts(req.place.channel), || {
            self.texts.f(
                "campaign.opened",
                &[
                    ("host", &req.user.name),
                    ("players", &players),
                    ("luna", &self.luna_words(level)),
                ],
            )
        });
        Ok(vec![reply])
    }

    fn luna_words(&self, level: Option<u8>) -> String {
        level
            .map(|l| self.texts.f("campaign.with_luna", &[("level", &l)]))
            .unwrap_or_default()
    }

    /// A chapter game's seed: derived from a chosen seed (reproducible), else drawn.
    fn chapter_seed(&self, req: &Request, seed: &Option<u64>, chapter: u8, loop_game: u64) -> u64 {
        match seed {
            Some(s) => s.wrapping_add(SEEDS_PER_CHAPTER * chapter as u64 + loop_game),
            None => self.fresh_seed(req),
        }
    }

    /// Called by the lobby when a campaign's lobby starts: the campaign is created with its
    /// players together with chapter 1's game (one transaction, so a crash leaves neither a
    /// game without its campaign nor the reverse).
    pub(crate) fn create_first_chapter(
        &self,
        lobby: &Lobby,
        setup: &CampaignSetup,
    ) -> Result<(GameId, std::sync::Arc<GameState>), String> {
        let doc = first_chapter_doc(lobby, setup);
        let seats = new_seats(&lobby.players);
        let mut new = NewGame::new(lobby.place, lobby.options.clone(), seats);
        new.language = lobby.language.map(str::to_string);
        new.waits = Some(self.new_game_plan(&new.seats).map_err(|e| self.err(e))?);
        let with_game = |game: GameId| {
            let mut doc = doc.clone();
            doc.current_game = Some(game);
            serde_json::to_value(&doc).map_err(|e| e.to_string())
        };
        let (_, game, state) = self
            .store
            .campaigns()
            .create_campaign_game(new, Box::new(with_game))
            .map_err(|e| self.err(e))?;
        Ok((game, state))
    }

    /// The announcement of a campaign's chapter 1 (its game was created with the campaign).
    pub(crate) fn campaign_begun(
        &self,
        lobby: &Lobby,
        setup: &CampaignSetup,
        game: GameId,
    ) -> Reply {
        Reply::public(self.chapter_begins_text(&first_chapter_doc(lobby, setup), game))
    }

    fn chapter_begins_text(&self, doc: &CampaignDoc, game: GameId) -> String {
        let mut text = self.texts.f(
            "campaign.chapter_begins",
            &[
                ("chapter", &doc.chapter),
                ("chapters", &chapters_in(&self.data)),
                ("name", &self.chapter_name(doc.chapter)),
                ("game", &game),
                ("luna", &self.luna_words(doc.luna_level)),
            ],
        );
        if !doc.loop_games.is_empty() {
            text.push('\n');
            text.push_str(&self.texts.f(
                "campaign.loop_game_begins",
                &[("n", &(doc.loop_games.len() + 1))],
            ));
        }
        text
    }

    /// Called after every move that ends a game: if the game plays a campaign's chapter, its
    /// result is recorded and announced.
    pub(crate) fn campaign_game_over(&self, game: GameId, state: &GameState) -> Vec<Reply> {
        if state.phase != Phase::Finished || state.options.chapter.is_none() {
            return Vec::new();
        }
        let Some(record) = self.logged(
            "cannot read a finished game's record: its campaign chapter's result is not recorded",
            self.store.games().game(game),
        ) else {
            return Vec::new();
        };
        let Ok(_guard) = self.campaign_lock.lock() else {
            return Vec::new();
        };
        let (campaign, doc) = match self.load_campaign(record.location.channel) {
            Ok(found) => found,
            Err(why) => {
                tracing::warn!(
                    game,
                    "a chapter game ended but its campaign cannot be read: {why}"
                );
                return Vec::new();
            }
        };
        if doc.current_game != Some(game) {
            return Vec::new();
        }
        self.record_game(&campaign, doc, game, state)
            .unwrap_or_else(|e| vec![Reply::public(e)])
    }

    /// Brings a campaign up to date with its current game: records it if it ended, forgets it
    /// if it was aborted (the chapter is then played again). Returns the announcements.
    fn sync_campaign(
        &self,
        campaign: &CampaignRecord,
        doc: &mut CampaignDoc,
    ) -> Result<Vec<Reply>, String> {
        let Some(game) = doc.current_game else {
            return Ok(Vec::new());
        };
        let record = self.store.games().game(game).map_err(|e| self.err(e))?;
        match record.status {
            GameStatus::Finished => {
                let state = self.store.games().state(game).map_err(|e| self.err(e))?;
                let replies = self.record_game(campaign, doc.clone(), game, &state)?;
                *doc = self.campaign_by_id(campaign.id)?.1;
                Ok(replies)
            }
            GameStatus::Abandoned => {
                doc.current_game = None;
                self.save(campaign.id, doc, CampaignStatus::Active, None)?;
                Ok(Vec::new())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Records a finished chapter game: another game of a Time anomaly loop, or the chapter's
    /// result (averaged over the loop), then the level choice or the final rating.
    fn record_game(
        &self,
        campaign: &CampaignRecord,
        mut doc: CampaignDoc,
        game: GameId,
        state: &GameState,
    ) -> Result<Vec<Reply>, String> {
        let result =
            campaign::chapter_result(&self.data, state).map_err(|e| self.campaign_err(e))?;
        let chapter = doc.chapter;
        doc.current_game = None;
        if campaign::in_time_loop(&self.data, state) {
            doc.loop_games.push(result.clone());
            doc.loop_last_game = Some(game);
            self.save(campaign.id, &doc, CampaignStatus::Active, None)?;
            let mut text = self.texts.f(
                "campaign.loop_continues",
                &[("chapter", &chapter), ("n", &doc.loop_games.len())],
            );
            for seat in &result.seats {
                text.push('\n');
                text.push_str(&self.seat_line(seat, None));
            }
            return Ok(vec![Reply::public(text)]);
        }
        let mut games = std::mem::take(&mut doc.loop_games);
        games.push(result);
        self.finish_chapter(campaign, doc, &games, Some(game))
    }

    /// Records a chapter's result from its games (one, or a Time anomaly loop's, averaged),
    /// then asks for Luna's level or announces the final rating.
    fn finish_chapter(
        &self,
        campaign: &CampaignRecord,
        mut doc: CampaignDoc,
        games: &[ChapterResult],
        game: Option<GameId>,
    ) -> Result<Vec<Reply>, String> {
        let chapter = doc.chapter;
        doc.current_game = None;
        doc.loop_games.clear();
        doc.loop_last_game = None;
        let result = campaign::average_loop(&self.data, games).map_err(|e| self.campaign_err(e))?;
        let mut results = self.chapter_results(campaign);
        results.retain(|r| r.chapter != chapter);
        results.push(result.clone());
        let last = chapter >= chapters_in(&self.data);
        let status = if last {
            CampaignStatus::Finished
        } else {
            doc.chapter = chapter + 1;
            doc.level_choice_pending = doc.luna_level.is_some();
            CampaignStatus::Active
        };
        let json = serde_json::to_value(&result).map_err(|e| self.campaign_err(e))?;
        self.save(
            campaign.id,
            &doc,
            status,
            Some(ChapterWrite {
                chapter,
                game,
                result: Some(&json),
            }),
        )?;
        let standing = campaign::standing(&self.data, &results);
        let mut text = self.chapter_text(&result, &standing.totals);
        let reply = if last {
            text.push('\n');
            text.push_str(&self.final_rating_text(&standing));
            Reply::public(text)
        } else if let Some(level) = doc.luna_level {
            text.push('\n');
            text.push_str(&self.level_question(&result, doc.chapter));
            Reply::public(text).with_choices(self.level_buttons(
                campaign.id,
                doc.chapter,
                level,
                &result,
            ))
        } else {
            text.push('\n');
            text.push_str(
                &self
                    .texts
                    .f("campaign.next_hint", &[("chapter", &doc.chapter)]),
            );
            Reply::public(text)
        };
        Ok(vec![reply])
    }

    /// One seat's line: score, success points with their breakdown, and the running total.
    fn seat_line(&self, seat: &SeatSp, total: Option<u32>) -> String {
        let breakdown = if seat.lines.is_empty() {
            self.texts.t("campaign.sp.none")
        } else {
            seat.lines
                .iter()
                .map(|l| {
                    self.texts.f(
                        "campaign.sp_part",
                        &[("label", &self.sp_label(&l.rule)), ("sp", &l.sp)],
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut line = self.texts.f(
            "campaign.seat_line",
            &[
                ("name", &seat.name),
                ("score", &seat.score),
                ("sp", &seat.sp),
                ("breakdown", &breakdown),
            ],
        );
        if let Some(t) = total {
            line.push_str(&self.texts.f("campaign.running_total", &[("total", &t)]));
        }
        line
    }

    /// The chapters with success points of their own, from the campaign data (the help).
    pub(crate) fn chapter_points_help(&self) -> String {
        let parts: Vec<String> = self
            .data
            .campaign
            .chapter_list
            .iter()
            .flat_map(|c| {
                c.extra_sp.iter().map(move |x| {
                    self.texts.f(
                        "campaign.help_chapter_point",
                        &[
                            ("chapter", &c.id),
                            ("sp", &x.sp),
                            ("what", &self.sp_label(x.kind.id())),
                        ],
                    )
                })
            })
            .collect();
        if parts.is_empty() {
            self.texts.t("campaign.help_no_chapter_points")
        } else {
            parts.join("; ")
        }
    }

    /// What a success-point line is for, in words.
    fn sp_label(&self, rule: &str) -> String {
        let key = match rule {
            "fewer_coins_one" => "campaign.sp.fewer_coins_one",
            "fewer_coins_two" => "campaign.sp.fewer_coins_two",
            "winner" => "campaign.sp.winner",
            "one_time_markers" => "campaign.sp.one_time_markers",
            "final_spaces" => "campaign.sp.final_spaces",
            "first_to_unlock_personal_bonus_space" => "campaign.sp.first_personal_bonus",
            "removed_threat_card" => "campaign.sp.removed_threat",
            "time_loop_average" => "campaign.sp.time_loop_average",
            "luna_level_choice" => "campaign.sp.luna_level_choice",
            other => return other.replace('_', " "),
        };
        self.texts.t(key)
    }

    /// A chapter's announcement: every seat's score and success points, with running totals.
    fn chapter_text(&self, result: &ChapterResult, totals: &[u32]) -> String {
        let mut lines = vec![self.texts.f(
            "campaign.chapter_over",
            &[
                ("chapter", &result.chapter),
                ("name", &self.chapter_name(result.chapter)),
                (
                    "games",
                    &if result.games > 1 {
                        self.texts
                            .f("campaign.loop_average", &[("games", &result.games)])
                    } else {
                        String::new()
                    },
                ),
            ],
        )];
        for (i, seat) in result.seats.iter().enumerate() {
            lines.push(self.seat_line(seat, totals.get(i).copied()));
        }
        lines.join("\n")
    }

    fn final_rating_text(&self, standing: &campaign::Standing) -> String {
        let mut lines = vec![self.texts.t("campaign.final")];
        for (i, name) in standing.names.iter().enumerate() {
            let (label, text) = standing.ratings.get(i).cloned().unwrap_or_default();
            lines.push(self.texts.f(
                "campaign.rating_line",
                &[
                    ("name", name),
                    ("total", &standing.totals[i]),
                    ("label", &label),
                    ("text", &text),
                ],
            ));
        }
        let winners: Vec<&str> = standing
            .leaders
            .iter()
            .filter_map(|i| standing.names.get(*i).map(String::as_str))
            .collect();
        lines.push(
            self.texts
                .f("campaign.overall_winner", &[("names", &winners.join(", "))]),
        );
        lines.join("\n")
    }

    fn level_question(&self, result: &ChapterResult, next: u8) -> String {
        let key = if result.luna_won() {
            "campaign.level_ask_won"
        } else {
            "campaign.level_ask_lost"
        };
        self.texts
            .f(key, &[("chapter", &result.chapter), ("next", &next)])
    }

    fn level_buttons(
        &self,
        campaign: CampaignId,
        next: u8,
        level: u8,
        result: &ChapterResult,
    ) -> Vec<Choice> {
        campaign::luna_level_choices(&self.data, level, result.luna_won())
            .into_iter()
            .map(|c| {
                Choice::new(
                    ClickId::Level {
                        campaign,
                        chapter: next,
                        change: c.change,
                    }
                    .encode(),
                    self.level_label(&c),
                )
            })
            .collect()
    }

    fn level_label(&self, c: &LevelChoice) -> String {
        let key = match c.change {
            LevelChange::Decrease => "campaign.level_decrease",
            LevelChange::Keep => "campaign.level_keep",
            LevelChange::Increase => "campaign.level_increase",
        };
        let bonus = if c.luna_sp > 0 {
            self.texts.f("campaign.level_bonus", &[("sp", &c.luna_sp)])
        } else {
            String::new()
        };
        self.texts.f(key, &[("level", &c.level), ("bonus", &bonus)])
    }

    /// May this user act for the campaign (one of its players, or a channel moderator)?
    fn check_campaign_player(&self, req: &Request, doc: &CampaignDoc) -> Result<(), String> {
        if doc.is_player(req.user.id) || req.user.moderator {
            Ok(())
        } else {
            Err(self.texts.t("error.campaign_not_player"))
        }
    }

    /// A level-choice button: records the players' choice of Luna's level for the next chapter
    /// and Luna's compensation in the finished chapter's result.
    pub(crate) fn campaign_level_click(
        &self,
        req: &Request,
        id: CampaignId,
        chapter: u8,
        change: LevelChange,
    ) -> Result<Vec<Reply>, String> {
        let _guard = self
            .campaign_lock
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        let (record, mut doc) = self.campaign_by_id(id)?;
        self.check_campaign_player(req, &doc)?;
        if record.status != CampaignStatus::Active
            || record.location.channel != req.place.channel
            || !doc.level_choice_pending
            || doc.chapter != chapter
        {
            // A click that lost the race: say who decided what.
            return Err(match &doc.level_chosen {
                Some((name, c, level)) if *c == chapter => self.texts.f(
                    "campaign.level_already_chosen",
                    &[("name", name), ("chapter", c), ("level", level)],
                ),
                _ => self.texts.t("error.stale"),
            });
        }
        let finished = chapter - 1;
        let mut result = self
            .chapter_results(&record)
            .into_iter()
            .find(|r| r.chapter == finished)
            .ok_or_else(|| self.texts.t("error.stale"))?;
        let level = doc.luna_level.ok_or_else(|| self.texts.t("error.stale"))?;
        let choice = campaign::luna_level_choices(&self.data, level, result.luna_won())
            .into_iter()
            .find(|c| c.change == change)
            .ok_or_else(|| self.texts.t("error.stale"))?;
        campaign::apply_level_choice(&mut result, &choice);
        doc.luna_level = Some(choice.level);
        doc.level_choice_pending = false;
        doc.level_chosen = Some((req.user.name.clone(), chapter, choice.level));
        let json = serde_json::to_value(&result).map_err(|e| self.campaign_err(e))?;
        self.save(
            id,
            &doc,
            CampaignStatus::Active,
            Some(ChapterWrite {
                chapter: finished,
                game: None,
                result: Some(&json),
            }),
        )?;
        let bonus = if choice.luna_sp > 0 {
            self.texts
                .f("campaign.level_bonus_given", &[("sp", &choice.luna_sp)])
        } else {
            String::new()
        };
        Ok(vec![Reply::public(self.texts.f(
            "campaign.level_chosen",
            &[
                ("name", &req.user.name),
                ("chapter", &chapter),
                ("level", &choice.level),
                ("bonus", &bonus),
            ],
        ))])
    }

    /// `/skymines campaign next`: starts the next chapter's game (or the Time anomaly loop's
    /// next game) with the campaign's players and the chapter's own options.
    /// With `end_loop:yes` the players end a Time anomaly loop instead (DECISIONS A8: a loop
    /// may be abandoned): the chapter's result is the average of the loop's games so far.
    pub(crate) fn campaign_next(
        &self,
        req: &Request,
        opts: &Options,
    ) -> Result<Vec<Reply>, String> {
        if req.in_dm {
            return Err(self.texts.t("error.not_in_dm"));
        }
        if let Some(k) = opts.keys().find(|k| *k != "end_loop") {
            return Err(self.texts.f(
                "error.unknown_option",
                &[("option", &k), ("options", &"end_loop")],
            ));
        }
        let end_loop = opts.flag("end_loop").unwrap_or(false);
        let (mut replies, doc, game, state) = {
            let _guard = self
                .campaign_lock
                .lock()
                .map_err(|_| self.texts.t("error.internal"))?;
            let (record, mut doc) = self.load_campaign(req.place.channel)?;
            self.check_campaign_player(req, &doc)?;
            let mut replies = self.sync_campaign(&record, &mut doc)?;
            let record = match self.store.campaigns().campaign(record.id) {
                Ok(Some(r)) => r,
                _ => return Err(self.texts.t("error.no_campaign")),
            };
            if record.status != CampaignStatus::Active {
                // The catch-up just recorded the last chapter: its announcement says it all.
                return Ok(replies);
            }
            if let Some(game) = doc.current_game {
                return Err(self.texts.f(
                    "error.campaign_chapter_running",
                    &[("chapter", &doc.chapter), ("game", &game)],
                ));
            }
            if end_loop {
                if doc.loop_games.is_empty() {
                    return Err(self.texts.t("error.campaign_no_loop"));
                }
                let games = doc.loop_games.clone();
                let mut text = self.texts.f(
                    "campaign.loop_ended",
                    &[("name", &req.user.name), ("chapter", &doc.chapter)],
                );
                let mut out = self.finish_chapter(&record, doc, &games, None)?;
                if let Some(first) = out.first_mut() {
                    text.push('\n');
                    text.push_str(&first.text);
                    first.text = text;
                }
                replies.extend(out);
                return Ok(replies);
            }
            if doc.level_choice_pending {
                let finished = doc.chapter - 1;
                let result = self
                    .chapter_results(&record)
                    .into_iter()
                    .find(|r| r.chapter == finished)
                    .ok_or_else(|| self.texts.t("error.internal"))?;
                let level = doc.luna_level.unwrap_or(0);
                replies.push(
                    Reply::public(self.level_question(&result, doc.chapter))
                        .with_choices(self.level_buttons(record.id, doc.chapter, level, &result)),
                );
                return Ok(replies);
            }
            if self.channel_busy(&req.place)? {
                return Err(self.texts.t("error.channel_busy"));
            }
            let seed = self.chapter_seed(req, &doc.seed, doc.chapter, doc.loop_games.len() as u64);
            let options = match doc.loop_last_game {
                Some(previous) => {
                    let state = self
                        .store
                        .games()
                        .state(previous)
                        .map_err(|e| self.err(e))?;
                    campaign::next_loop_options(&self.data, &state, seed)
                }
                None => {
                    let mut o = campaign::chapter_options(
                        &self.data,
                        doc.chapter,
                        doc.players.len(),
                        doc.luna_level,
                        seed,
                    )
                    .map_err(|e| self.err(e))?;
                    o.linked_slots = doc.linked_slots;
                    o
                }
            };
            let mut new = NewGame::new(req.place, options, new_seats(&doc.players));
            new.waits = Some(self.new_game_plan(&new.seats).map_err(|e| self.err(e))?);
            let with_game = |game: GameId| {
                let mut doc = doc.clone();
                doc.current_game = Some(game);
                serde_json::to_value(&doc).map_err(|e| e.to_string())
            };
            let (game, state) = self
                .store
                .campaigns()
                .create_chapter_game(new, record.id, doc.chapter, Box::new(with_game))
                .map_err(|e| self.err(e))?;
            doc.current_game = Some(game);
            (replies, doc, game, state)
        };
        self.speaking(self.game_texts(game), || {
            replies.push(Reply::public(super::lobby::started_text(
                &self.data,
                &self.texts,
                game,
                doc.seed,
                &state,
            )));
            replies.push(Reply::public(self.chapter_begins_text(&doc, game)));
        });
        replies.extend(self.after_move(game, &state, 0, &[], super::game::Actor::Nobody, None));
        Ok(replies)
    }

    /// `/skymines campaign status`: the chapters played with each seat's success points and
    /// their breakdown, the running totals with the rating-table row they reach, and what
    /// comes next.
    pub(crate) fn campaign_status(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let _guard = self
            .campaign_lock
            .lock()
            .map_err(|_| self.texts.t("error.internal"))?;
        let id = match self
            .store
            .campaigns()
            .campaign_in_channel(req.place.channel)
            .map_err(|e| self.err(e))?
        {
            Some(id) => id,
            None => self
                .last_campaign_in(req.place.channel)?
                .ok_or_else(|| self.texts.t("error.no_campaign"))?,
        };
        let (record, mut doc) = self.campaign_by_id(id)?;
        let mut replies = self.sync_campaign(&record, &mut doc)?;
        let record = self
            .store
            .campaigns()
            .campaign(id)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.texts.t("error.no_campaign"))?;
        let results = self.chapter_results(&record);
        let standing = campaign::standing(&self.data, &results);
        let names: Vec<&str> = doc.players.iter().map(|(_, n)| n.as_str()).collect();
        let mut lines = vec![self.texts.f(
            "campaign.status_head",
            &[
                ("id", &id),
                ("players", &names.join(", ")),
                ("luna", &self.luna_words(doc.luna_level)),
                ("played", &results.len()),
                ("chapters", &chapters_in(&self.data)),
            ],
        )];
        let mut running = vec![0u32; standing.totals.len()];
        for r in &results {
            lines.push(String::new());
            for (i, s) in r.seats.iter().enumerate() {
                if let Some(t) = running.get_mut(i) {
                    *t += s.sp;
                }
            }
            lines.push(self.chapter_text(r, &running));
        }
        if !results.is_empty() {
            lines.push(String::new());
            lines.push(self.texts.t("campaign.status_totals"));
            for (i, name) in standing.names.iter().enumerate() {
                let (label, _) = standing.ratings.get(i).cloned().unwrap_or_default();
                lines.push(self.texts.f(
                    "campaign.total_line",
                    &[
                        ("name", name),
                        ("total", &standing.totals[i]),
                        ("label", &label),
                    ],
                ));
            }
        }
        lines.push(String::new());
        let next = if record.status == CampaignStatus::Finished {
            self.final_rating_text(&standing)
        } else if let Some(game) = doc.current_game {
            self.texts.f(
                "campaign.status_playing",
                &[("chapter", &doc.chapter), ("game", &game)],
            )
        } else if doc.level_choice_pending {
            self.texts.f(
                "campaign.status_level_pending",
                &[("chapter", &doc.chapter)],
            )
        } else {
            self.texts
                .f("campaign.next_hint", &[("chapter", &doc.chapter)])
        };
        lines.push(next);
        if !doc.loop_games.is_empty() {
            lines.push(self.texts.f(
                "campaign.status_loop",
                &[("n", &doc.loop_games.len()), ("chapter", &doc.chapter)],
            ));
        }
        replies.push(Reply::public(lines.join("\n")));
        Ok(replies)
    }

    /// The most recent campaign of a channel that is over (its status stays readable).
    fn last_campaign_in(&self, channel: u64) -> Result<Option<CampaignId>, String> {
        self.store
            .campaigns()
            .last_campaign_in_channel(channel)
            .map_err(|e| self.err(e))
    }
}
