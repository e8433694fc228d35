//! Admin tools for a server's moderators (games of their server) and the bot's owners (every
//! game): `/skymines admin list | report | rollback | skip`, answered privately, with public
//! announcements in the game's channel; and, on the timer, the cleanup of abandoned games (a
//! public warning first, deletion after the grace period unless someone moves).

use super::commands::Options;
use super::{Audience, Chat, Reply, Request};
use crate::engine;
use crate::store::{
    GameId, GameRecord, GameStatus, IdleWatch, Mend, SeatOwner, StoreError, WaitPlan,
};
use std::collections::BTreeMap;

/// At most this many games in one list.
const LIST_LIMIT: usize = 25;

const DAY_MS: i64 = 24 * 3600 * 1000;

impl Chat {
    /// `/skymines admin …`: who may, then which tool.
    pub(crate) fn admin(
        &self,
        req: &Request,
        name: &str,
        opts: &Options,
    ) -> Result<Vec<Reply>, String> {
        if !req.user.moderator && !req.user.owner {
            return Err(self.texts.t("admin.error.not_allowed"));
        }
        match name.trim_start_matches("skymines admin").trim() {
            "list" => self.admin_list(req, opts),
            "report" => self.admin_report(req, opts),
            "rollback" => self.admin_rollback(req, opts),
            "skip" => self.admin_skip(req, opts),
            _ => Err(self
                .texts
                .f("error.unknown_command", &[("name", &name.trim())])),
        }
    }

    /// Owners everywhere; moderators for the games of the server they speak in.
    fn may_administer(&self, req: &Request, record: &GameRecord) -> bool {
        req.user.owner
            || (req.user.moderator
                && !req.in_dm
                && req.place.guild.is_some()
                && record.location.guild == req.place.guild)
    }

    /// The game named by `game:N` (or this channel's game), if the user may administer it.
    fn administered_game(&self, req: &Request, opts: &Options) -> Result<GameRecord, String> {
        let id = match opts.get("game") {
            Some(g) => g
                .trim()
                .trim_start_matches('#')
                .parse::<GameId>()
                .map_err(|_| {
                    self.texts
                        .f("error.bad_value", &[("option", &"game"), ("value", &g)])
                })?,
            None => self
                .store
                .games()
                .game_in_channel(req.place.channel)
                .map_err(|e| self.err(e))?
                .ok_or_else(|| self.texts.t("admin.error.which_game"))?,
        };
        let record = match self.store.games().game(id) {
            // A running game whose row does not decode: the check sets it aside, after which
            // it reads with what can be read (its place among it).
            Err(StoreError::Corrupt { .. }) => self.store.admin().check(id).map(|c| c.record),
            other => other,
        };
        let record = record.map_err(|e| match e {
            // Not even its place reads: no rollback reaches it, a backup does.
            StoreError::Corrupt { message, .. } => self.texts.f(
                "admin.report.unreadable",
                &[("game", &id), ("reason", &crate::text::clean(&message))],
            ),
            StoreError::NoSuchGame(_) => self.texts.f("admin.error.no_such_game", &[("game", &id)]),
            other => self.err(other),
        })?;
        if !self.may_administer(req, &record) {
            return Err(self
                .texts
                .f("admin.error.not_your_server", &[("game", &id)]));
        }
        Ok(record)
    }

    fn status_name(&self, status: GameStatus) -> String {
        self.texts.t(match status {
            GameStatus::Active => "admin.status.active",
            GameStatus::Finished => "admin.status.finished",
            GameStatus::Abandoned => "admin.status.abandoned",
            GameStatus::Damaged => "admin.status.damaged",
            GameStatus::Archived => "admin.status.archived",
        })
    }

    /// `list [status:S] [all:yes]`: the games of this server (owners: `all` for every server).
    fn admin_list(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let everywhere = req.user.owner && (opts.flag("all") == Some(true) || req.in_dm);
        let guild = if everywhere { None } else { req.place.guild };
        if guild.is_none() && !everywhere {
            return Err(self.texts.t("admin.error.in_a_server"));
        }
        let status = match opts.get("status") {
            None => None,
            Some("running") => Some(GameStatus::Active),
            Some(s) => Some(GameStatus::parse(s).ok_or_else(|| {
                self.texts
                    .f("error.bad_value", &[("option", &"status"), ("value", &s)])
            })?),
        };
        let records = self
            .store
            .admin()
            .list_games(guild, LIST_LIMIT * 8)
            .map_err(|e| self.err(e))?;
        let lines: Vec<String> = records
            .iter()
            .filter(|r| status.is_none_or(|s| r.status == s))
            .take(LIST_LIMIT)
            .map(|r| self.list_line(r))
            .collect();
        let text = if lines.is_empty() {
            self.texts.t("admin.list.none")
        } else {
            format!(
                "{}\n{}",
                self.texts.f("admin.list.title", &[("count", &lines.len())]),
                lines.join("\n")
            )
        };
        Ok(vec![Reply::private(req.user.id, text)])
    }

    /// One game of the list: id, channel, status, round and phase, last move, whom it waits on.
    fn list_line(&self, record: &GameRecord) -> String {
        let status = self.status_name(record.status);
        let when = record.updated_at / 1000;
        let live = (record.status == GameStatus::Active)
            .then(|| {
                self.logged(
                    "cannot read a listed game's state: it is listed without it",
                    self.store.games().live_state(record.id),
                )
            })
            .flatten();
        let Some((state, _)) = live else {
            return self.texts.f(
                "admin.list.line",
                &[
                    ("game", &record.id),
                    ("channel", &record.location.channel),
                    ("status", &status),
                    ("at", &when),
                ],
            );
        };
        let waiting: Vec<String> = engine::waiting_on(&state)
            .into_iter()
            .map(|s| state.seats[s].name.clone())
            .collect();
        self.texts.f(
            "admin.list.line_running",
            &[
                ("game", &record.id),
                ("channel", &record.location.channel),
                ("status", &status),
                ("round", &state.round),
                ("phase", &self.phase_name(&state.phase)),
                ("at", &when),
                ("waiting", &waiting.join(", ")),
            ],
        )
    }

    /// `report game:N`: the game checked whole (see `store::Admin::check`): for a damaged
    /// game (also one the check sets aside now) what is wrong and what mends it, a short
    /// health line for the others.
    fn admin_report(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let record = self.administered_game(req, opts)?;
        let game = record.id;
        let checkup = self.store.admin().check(game).map_err(|e| self.err(e))?;
        let (record, history) = (&checkup.record, &checkup.history);
        let text = if record.status == GameStatus::Damaged {
            let reason = record
                .damage_report
                .clone()
                .or_else(|| checkup.problem.clone())
                .unwrap_or_default();
            // The recorded reason, and what the check finds now when that is another thing.
            let reason = match &checkup.problem {
                Some(p) if !reason.contains(p.as_str()) => format!("{reason}; {p}"),
                _ => reason,
            };
            let key = match checkup.mend {
                Mend::Rewrite => "admin.report.damaged_rewrite",
                Mend::Backup => "admin.report.damaged_backup",
                Mend::Rollback | Mend::Nothing => "admin.report.damaged",
            };
            self.texts.f(
                key,
                &[
                    ("game", &game),
                    ("reason", &reason),
                    ("last_good", &history.last_good),
                    ("moves", &history.entries),
                ],
            )
        } else {
            let status = self.status_name(record.status);
            match &checkup.problem {
                None => self.texts.f(
                    "admin.report.healthy",
                    &[
                        ("game", &game),
                        ("status", &status),
                        ("moves", &history.entries),
                    ],
                ),
                Some(problem) => self.texts.f(
                    "admin.report.doubtful",
                    &[
                        ("game", &game),
                        ("status", &status),
                        ("last_good", &history.last_good),
                        ("moves", &history.entries),
                        ("problem", problem),
                    ],
                ),
            }
        };
        let text = if checkup.set_aside {
            format!(
                "{}\n{text}",
                self.texts.f("admin.report.set_aside", &[("game", &game)])
            )
        } else {
            text
        };
        Ok(vec![Reply::private(req.user.id, text)])
    }

    /// Every action on a game set aside as damaged is refused with what is wrong (before
    /// anything else could answer it otherwise).
    pub(crate) fn refuse_if_damaged(&self, game: GameId) -> Result<(), String> {
        match self.store.games().game(game) {
            Ok(record) if record.status == GameStatus::Damaged => {
                Err(self.store_trouble(StoreError::Damaged {
                    game,
                    report: record.damage_report.unwrap_or_default(),
                }))
            }
            Ok(_) => Ok(()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Err with what is wrong when the request's channel holds a game set aside as damaged
    /// (also for someone whose seat row is the damage).
    pub(crate) fn damaged_here(&self, req: &Request) -> Result<(), String> {
        if req.in_dm {
            return Ok(());
        }
        match self.store.games().game_in_channel(req.place.channel) {
            Ok(Some(game)) => self.refuse_if_damaged(game),
            Ok(None) => Ok(()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// A store error that is no player's doing: a damaged game or file, or a file gone under
    /// the bot, said as such (what is wrong, that nothing changed, who mends it); anything
    /// else is the bot's own trouble (logged, "something went wrong").
    pub(crate) fn store_trouble(&self, e: StoreError) -> String {
        match e {
            StoreError::Damaged { game, report } => self.texts.f(
                "error.game_damaged",
                &[("game", &game), ("report", &crate::text::clean(&report))],
            ),
            StoreError::Corrupt { game, message } => self.texts.f(
                "error.game_unreadable",
                &[("game", &game), ("report", &crate::text::clean(&message))],
            ),
            StoreError::FileGone { .. } => {
                tracing::error!(error = %e, "the game database takes no more moves");
                self.texts.t("error.store_file_gone")
            }
            e if e.is_stored_damage() => {
                let detail = crate::text::clean(&e.to_string()).into_owned();
                tracing::error!(error = %detail, "the game database file is damaged");
                self.texts.t("error.store_file_damaged")
            }
            other => self.internal(&other),
        }
    }

    /// `rollback game:N move:M`: appends a rollback record (the moves after M are reverted, not
    /// erased), announces it in the game's channel, and the game goes on from there.
    fn admin_rollback(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let record = self.administered_game(req, opts)?;
        let game = record.id;
        let back_to: u64 = match opts.get("move") {
            Some(m) => m.trim().parse().map_err(|_| {
                self.texts
                    .f("error.bad_value", &[("option", &"move"), ("value", &m)])
            })?,
            None => return Err(self.texts.t("admin.error.move_option")),
        };
        // Who the game waits on from there, and their reminders, go with the rollback.
        let plan = self.wait_plan(game).map_err(|e| self.err(e))?;
        let waits = WaitPlan {
            fresh: true,
            ..plan
        };
        let outcome = self
            .store
            .games()
            .rollback(game, back_to, req.user.id, Some(&waits))
            .map_err(|e| match e {
                StoreError::NoSuchMove { last, .. } => self.texts.f(
                    "admin.error.no_such_move",
                    &[("game", &game), ("move", &back_to), ("last", &last)],
                ),
                StoreError::NothingToRollBack { .. } => self
                    .texts
                    .f("admin.error.already_there", &[("move", &back_to)]),
                StoreError::RollbackUnverified {
                    last_good, problem, ..
                } => self.texts.f(
                    "admin.error.rollback_unverified",
                    &[
                        ("move", &back_to),
                        ("last_good", &last_good),
                        ("problem", &problem),
                    ],
                ),
                StoreError::NotActive { status, .. } => self.not_running(game, status),
                other => other.to_string(),
            })?;
        let key = if outcome.revived {
            "admin.rollback.revived"
        } else {
            "admin.rollback.done"
        };
        // The announcement is public: in the game's language.
        let mut replies = vec![Reply::public(self.game_texts(game).f(
            key,
            &[
                ("name", &req.user.name),
                ("game", &game),
                ("move", &back_to),
            ],
        ))];
        replies.extend(self.after_move(
            game,
            &outcome.state,
            outcome.seq,
            &[],
            super::game::Actor::Nobody,
            None,
        ));
        replies.extend(self.play_computers(game));
        let mut replies = in_game_channel(replies, game);
        replies.push(Reply::private(
            req.user.id,
            self.texts.f(
                "admin.rollback.confirm",
                &[("game", &game), ("move", &back_to), ("seq", &outcome.seq)],
            ),
        ));
        Ok(replies)
    }

    pub(crate) fn not_running(&self, game: GameId, status: GameStatus) -> String {
        self.texts.f(
            "admin.error.not_running",
            &[("game", &game), ("status", &self.status_name(status))],
        )
    }

    /// `skip game:N [player:NAME]`: the stalled seat's current decision (every seat the game
    /// waits on, or the named one), played safely by the bot and announced.
    fn admin_skip(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let record = self.administered_game(req, opts)?;
        let game = record.id;
        if record.status != GameStatus::Active {
            return Err(self.not_running(game, record.status));
        }
        let state = self.store.games().state(game).map_err(|e| self.err(e))?;
        let seats = self.store.people().seats(game).map_err(|e| self.err(e))?;
        let human = |s: usize| {
            seats
                .iter()
                .any(|r| r.seat == s && r.owner != SeatOwner::Luna)
        };
        let mut stalled: Vec<usize> = engine::waiting_on(&state)
            .into_iter()
            .filter(|s| human(*s))
            .collect();
        if let Some(name) = opts.get("player") {
            let name = name.trim().trim_start_matches('@');
            stalled.retain(|s| state.seats[*s].name.eq_ignore_ascii_case(name));
            if stalled.is_empty() {
                return Err(self
                    .texts
                    .f("admin.error.not_waiting_on", &[("name", &name)]));
            }
        }
        if stalled.is_empty() {
            return Err(self.texts.t("admin.error.nothing_to_skip"));
        }
        let mut replies = Vec::new();
        let mut names = Vec::new();
        for seat in stalled {
            // Each skip starts from the state the previous one left.
            let state = self.store.games().state(game).map_err(|e| self.err(e))?;
            if !engine::waiting_on(&state).contains(&seat) {
                continue;
            }
            let played = self.play_safely(game, &state, seat, "admin.skip.played");
            if played.is_empty() {
                return Err(self.texts.f(
                    "admin.error.skip_failed",
                    &[("name", &state.seats[seat].name)],
                ));
            }
            names.push(state.seats[seat].name.clone());
            replies.extend(played);
        }
        replies.extend(self.play_computers(game));
        let mut replies = in_game_channel(replies, game);
        replies.push(Reply::private(
            req.user.id,
            self.texts.f(
                "admin.skip.confirm",
                &[("game", &game), ("names", &names.join(", "))],
            ),
        ));
        Ok(replies)
    }

    /// The timer's cleanup of abandoned games: a running game at the same move for
    /// `abandoned_after_ms - abandoned_warning_ms` gets a public warning; still at that move
    /// when the warning's time is up, it is deleted (abandoned: its record stays, its channel is
    /// free). A move meanwhile cancels the warning. The idle time counts from the first tick
    /// that saw the game at its current move (on the injected clock), so a game is never
    /// deleted sooner than configured.
    pub(crate) fn sweep_idle_games(&self) -> Vec<Reply> {
        let Some(after) = self.config.abandoned_after_ms else {
            return Vec::new();
        };
        let notice = self.config.abandoned_warning_ms.clamp(0, after);
        let now = self.clock.now_ms();
        let Some(watches) = self.logged(
            "cannot read the idle-game watches: the sweep waits for the next tick",
            self.store.schedule().idle_watches(),
        ) else {
            return Vec::new();
        };
        let mut watches: BTreeMap<GameId, IdleWatch> =
            watches.into_iter().map(|w| (w.game, w)).collect();
        let mut replies = Vec::new();
        for game in self.store.games().live_games() {
            let Some((_, seq)) = self.logged(
                "cannot read a game for the idle sweep: it is looked at again at the next tick",
                self.store.games().live_state(game),
            ) else {
                continue;
            };
            let watch = watches.remove(&game);
            let Some(paused) = self.logged(
                "cannot tell whether a game is paused: the idle sweep passes it over this time",
                self.store.schedule().paused_at(game),
            ) else {
                continue;
            };
            // A paused game is idle on purpose: its idle time starts again when it resumes.
            if paused.is_some() {
                if watch.is_some() {
                    self.logged(
                        "cannot clear a paused game's idle watch: cleared at the next tick",
                        self.store.schedule().clear_idle_watch(game),
                    );
                }
                continue;
            }
            match watch {
                Some(w) if w.seq == seq => match w.warning {
                    None if now - w.since >= after - notice => {
                        let delete_at = (w.since + after).max(now + notice);
                        let warned = IdleWatch {
                            warning: Some((now, delete_at)),
                            ..w
                        };
                        let saved = self.logged(
                            "cannot record an idle game's warning: it is warned at the next tick",
                            self.store.schedule().set_idle_watch(&warned),
                        );
                        if saved.is_some() {
                            replies.push(
                                Reply::public(self.game_texts(game).f(
                                    "admin.idle.warning",
                                    &[
                                        ("game", &game),
                                        ("idle", &((now - w.since) / DAY_MS)),
                                        ("days", &((delete_at - now + DAY_MS - 1) / DAY_MS)),
                                        ("at", &(delete_at / 1000)),
                                    ],
                                ))
                                .about(game),
                            );
                        }
                    }
                    Some((_, delete_at)) if now >= delete_at => {
                        replies.extend(self.delete_idle_game(game, now - w.since));
                    }
                    _ => {}
                },
                previous => {
                    let fresh = IdleWatch {
                        game,
                        seq,
                        since: now,
                        warning: None,
                    };
                    let saved = self.logged(
                        "cannot record a game's idle watch: it starts at the next tick",
                        self.store.schedule().set_idle_watch(&fresh),
                    );
                    if saved.is_some() && previous.is_some_and(|w| w.warning.is_some()) {
                        replies.push(
                            Reply::public(
                                self.game_texts(game)
                                    .f("admin.idle.cancelled", &[("game", &game)]),
                            )
                            .about(game),
                        );
                    }
                }
            }
        }
        // Games that ended otherwise need no watch.
        for game in watches.keys() {
            self.logged(
                "cannot clear an ended game's idle watch: cleared at the next tick",
                self.store.schedule().clear_idle_watch(*game),
            );
        }
        replies
    }
}

impl Chat {
    /// Deletes (abandons) an idle game and says so in its channel; nothing if that fails.
    fn delete_idle_game(&self, game: GameId, idle_ms: i64) -> Option<Reply> {
        let text = self.game_texts(game).f(
            "admin.idle.deleted",
            &[("game", &game), ("idle", &(idle_ms / DAY_MS))],
        );
        // Its reminders go with it, in the same transaction.
        self.logged(
            "cannot delete an idle game: it is tried again at the next tick",
            self.store.games().abandon(game),
        )?;
        self.logged(
            "cannot clear a deleted game's idle watch: cleared at the next tick",
            self.store.schedule().clear_idle_watch(game),
        );
        Some(Reply::public(text).about(game))
    }
}

/// Marks the public replies and pings as belonging to `game`'s channel (an admin may speak
/// from another channel).
fn in_game_channel(replies: Vec<Reply>, game: GameId) -> Vec<Reply> {
    replies
        .into_iter()
        .map(|r| match r.audience {
            Audience::Public | Audience::Ping(_) => r.about(game),
            _ => r,
        })
        .collect()
}
