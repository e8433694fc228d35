//! Living with a game over days: leaving a running game (a computer player takes the seat over),
//! kicking an inactive player, taking a computer player's seat over (see `computers` for how
//! they play, so the game never stalls), pausing and resuming, personal settings (away until, time zone, quiet hours)
//! that delay reminders, and archiving games whose channel or server is gone.
//!
//! Who is the host: whoever sits in seat 0 (as for `/skymines abort`); a player who takes seat
//! 0 over becomes the host. Channel moderators and the bot's owners may do what the host may.

use super::commands::Options;
use super::prompt::ClickId;
use super::time;
use super::{Audience, Chat, Choice, Reply, Request};
use crate::engine;
use crate::store::{GameId, SeatOwner, StoreError, UserSettings, WaitPlan};

impl Chat {
    /// Whether the user hosts the game (sits in seat 0) or may act for the host.
    fn may_manage(&self, req: &Request, game: GameId) -> Result<bool, String> {
        Ok(req.user.moderator || req.user.owner || self.seat_of(game, req.user.id)? == Some(0))
    }

    /// Refuses turn actions while the game is paused.
    pub(crate) fn refuse_if_paused(&self, game: GameId) -> Result<(), String> {
        match self.store.schedule().paused_at(game) {
            Ok(Some(_)) => Err(self.texts.t("error.paused")),
            Ok(None) => Ok(()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// `/skymines leave`: leaves the lobby, or asks to confirm leaving the running game.
    pub(crate) fn leave(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let in_lobby = self
            .lobbies
            .lock()
            .map(|l| l.contains_key(&req.place.channel))
            .unwrap_or(false);
        if in_lobby || req.in_dm {
            return self.lobby_leave(req);
        }
        let Some(game) = self
            .store
            .games()
            .game_in_channel(req.place.channel)
            .map_err(|e| self.err(e))?
        else {
            return self.lobby_leave(req);
        };
        if self.seat_of(game, req.user.id)?.is_none() {
            return Err(self.texts.t("error.not_a_player"));
        }
        let confirm = Choice::new(
            ClickId::Leave { game }.encode(),
            self.texts.t("button.confirm_leave"),
        );
        Ok(vec![Reply::private(
            req.user.id,
            self.texts.t("ask.confirm_leave"),
        )
        .with_choices(vec![confirm])])
    }

    /// The confirmation button of `/skymines leave`: a computer player takes the seat over
    /// (the game's last person cannot leave it: `/skymines abort` ends it).
    pub(crate) fn leave_confirmed(
        &self,
        req: &Request,
        game: GameId,
    ) -> Result<Vec<Reply>, String> {
        let seat = self
            .seat_of(game, req.user.id)?
            .ok_or_else(|| self.texts.t("error.not_a_player"))?;
        self.store
            .people()
            .vacate_seat(game, seat)
            .map_err(|e| self.err(e))?;
        let texts = self.game_texts(game);
        let level = super::computers::level_words(texts, self.computer_level(game));
        let mut replies = vec![Reply::public(texts.f(
            "seat.left",
            &[
                ("name", &req.user.name),
                ("seat", &(seat + 1)),
                ("level", &level),
            ],
        ))];
        replies.extend(self.after_vacancy(game));
        Ok(replies)
    }

    /// `/skymines kick player:@x`: the host or a moderator frees the seat of a player the game
    /// has waited on for at least `kick_after_ms`.
    pub(crate) fn kick(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let (game, _) = self.find_game(req, Some(opts))?;
        let wanted = opts
            .get("player")
            .ok_or_else(|| self.texts.t("error.kick_who"))?;
        if !self.may_manage(req, game)? {
            return Err(self.texts.t("error.host_only"));
        }
        let seat = self.seat_named(game, wanted)?;
        let seats = self.store.people().seats(game).map_err(|e| self.err(e))?;
        let record = seats
            .iter()
            .find(|s| s.seat == seat)
            .ok_or_else(|| self.texts.t("error.internal"))?;
        let SeatOwner::Discord(kicked) = record.owner else {
            return Err(self
                .texts
                .f("error.kick_not_human", &[("name", &record.name)]));
        };
        if kicked == req.user.id {
            return Err(self.texts.t("error.kick_self"));
        }
        let state = self.state(game)?;
        let now = self.clock.now_ms();
        let since = record
            .waiting_since
            .filter(|_| engine::waiting_on(&state).contains(&seat));
        match since {
            Some(since) if now - since >= self.config.kick_after_ms => {}
            Some(since) => {
                return Err(self.texts.f(
                    "error.kick_active",
                    &[
                        ("name", &record.name),
                        ("when", &time::marker(since + self.config.kick_after_ms)),
                    ],
                ))
            }
            None => {
                return Err(self
                    .texts
                    .f("error.kick_not_waited", &[("name", &record.name)]))
            }
        }
        self.store
            .people()
            .vacate_seat(game, seat)
            .map_err(|e| self.err(e))?;
        let texts = self.game_texts(game);
        let level = super::computers::level_words(texts, self.computer_level(game));
        let mut replies = vec![
            Reply::public(texts.f(
                "seat.kicked",
                &[
                    ("name", &record.name),
                    ("by", &req.user.name),
                    ("seat", &(seat + 1)),
                    ("since", &time::marker(since.unwrap_or(now))),
                    ("level", &level),
                ],
            )),
            Reply::new(
                Audience::Dm(kicked),
                self.reader_texts(kicked, Some(game))
                    .f("seat.kicked_dm", &[("game", &game)]),
            ),
        ];
        replies.extend(self.after_vacancy(game));
        Ok(replies)
    }

    /// After a seat fell vacant: the new status, and the computer player plays the seat if it
    /// is waited on.
    fn after_vacancy(&self, game: GameId) -> Vec<Reply> {
        let mut replies = Vec::new();
        let state = self.logged(
            "cannot read the game after a seat fell vacant: no status with the announcement",
            self.store.games().state(game),
        );
        if let Some(state) = state {
            let mut status = self.status_reply(game, &state);
            status.status_of = Some(game);
            replies.push(status);
        }
        replies.extend(self.play_computers(game));
        replies
    }

    /// The seat of a player named by mention (`<@id>`), id, name, or `luna`.
    pub(crate) fn seat_named(&self, game: GameId, who: &str) -> Result<usize, String> {
        let wanted = who
            .trim()
            .trim_start_matches("<@")
            .trim_start_matches('!')
            .trim_end_matches('>')
            .trim_start_matches('@');
        let seats = self.store.people().seats(game).map_err(|e| self.err(e))?;
        seats
            .iter()
            .find(|s| {
                s.name.eq_ignore_ascii_case(wanted)
                    || matches!(s.owner, SeatOwner::Discord(id) if id.to_string() == wanted)
                    || (s.owner == SeatOwner::Luna && wanted.eq_ignore_ascii_case("luna"))
            })
            .map(|s| s.seat)
            .ok_or_else(|| self.texts.f("error.no_such_player", &[("name", &wanted)]))
    }

    /// `/skymines join`: joins the lobby, or takes over the first computer player's seat of the
    /// running game, announced with the status under the newcomer's name. The newcomer's hand
    /// is shown to them only, after they sit down.
    pub(crate) fn join(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let in_lobby = self
            .lobbies
            .lock()
            .map(|l| l.contains_key(&req.place.channel))
            .unwrap_or(false);
        let game = if in_lobby || req.in_dm {
            None
        } else {
            self.store
                .games()
                .game_in_channel(req.place.channel)
                .map_err(|e| self.err(e))?
        };
        let Some(game) = game else {
            return self.lobby_join(req);
        };
        if self.seat_of(game, req.user.id)?.is_some() {
            return Err(self.texts.t("error.already_joined"));
        }
        let seats = self.store.people().seats(game).map_err(|e| self.err(e))?;
        let (seat, was) = seats
            .iter()
            .find(|s| s.owner == SeatOwner::Vacant)
            .map(|s| (s.seat, s.name.clone()))
            .ok_or_else(|| self.texts.t("error.no_open_seat"))?;
        // The newcomer's wait starts now when the game waits on the seat (reminders and kicks
        // count from here), stored with the take-over.
        let owners = seats.iter().map(|s| {
            let owner = if s.seat == seat {
                SeatOwner::Discord(req.user.id)
            } else {
                s.owner
            };
            (s.seat, owner)
        });
        let plan = self.plan_for(owners).map_err(|e| self.err(e))?;
        // From here on the seat, and every state of the game, carries the newcomer's name.
        self.store
            .people()
            .take_seat(game, seat, req.user.id, &req.user.name, Some(&plan))
            .map_err(|e| match e {
                StoreError::NoSuchSeat(_) => self.texts.t("error.no_open_seat"),
                other => self.err(other),
            })?;
        let state = self.state(game)?;
        let mut replies = vec![Reply::public(self.game_texts(game).f(
            "seat.taken",
            &[
                ("name", &req.user.name),
                ("seat", &(seat + 1)),
                ("was", &was),
            ],
        ))];
        // The status and board under the newcomer's name (as after a seat fell vacant).
        let mut status = self.status_reply(game, &state);
        status.status_of = Some(game);
        replies.push(status);
        let intro = self.texts.f("seat.taken_private", &[("seat", &(seat + 1))]);
        let private = match self.prompt(game, &state, seat, req.user.id, 0) {
            Some(mut p) => {
                p.text = format!("{intro}\n{}", p.text);
                p
            }
            None => Reply::private(
                req.user.id,
                format!("{intro}\n{}", self.hand_text(&state, seat)),
            ),
        };
        replies.push(private);
        Ok(replies)
    }

    /// The game of a pause or resume request, once the user may manage it (host or
    /// moderator) and whether it is paused equals `paused`; otherwise the catalog's `refusal`.
    fn game_to_pause_or_resume(
        &self,
        req: &Request,
        paused: bool,
        refusal: &str,
    ) -> Result<GameId, String> {
        let (game, _) = self.find_game(req, None)?;
        if !self.may_manage(req, game)? {
            return Err(self.texts.t("error.host_only"));
        }
        let paused_now = self
            .store
            .schedule()
            .paused_at(game)
            .map_err(|e| self.err(e))?
            .is_some();
        if paused_now != paused {
            return Err(self.texts.t(refusal));
        }
        Ok(game)
    }

    /// `/skymines pause`: no reminders, no deadlines, no turn actions until resumed.
    pub(crate) fn pause(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let game = self.game_to_pause_or_resume(req, false, "error.already_paused")?;
        self.store
            .schedule()
            .set_paused(game, Some(self.clock.now_ms()))
            .map_err(|e| self.err(e))?;
        Ok(vec![Reply::public(
            self.game_texts(game)
                .f("game.paused", &[("name", &req.user.name)]),
        )])
    }

    /// `/skymines resume`: the game goes on; every wait starts afresh from now.
    pub(crate) fn resume(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let game = self.game_to_pause_or_resume(req, true, "error.not_paused")?;
        // Every wait starts afresh from now, stored with the resume.
        let plan = self.wait_plan(game).map_err(|e| self.err(e))?;
        let waits = WaitPlan {
            fresh: true,
            ..plan
        };
        self.store
            .schedule()
            .resume(game, &waits)
            .map_err(|e| self.err(e))?;
        let state = self.state(game)?;
        let mut replies = vec![Reply::public(
            self.game_texts(game)
                .f("game.resumed", &[("name", &req.user.name)]),
        )];
        let mut status = self.status_reply(game, &state);
        status.status_of = Some(game);
        replies.push(status);
        replies.extend(self.play_computers(game));
        Ok(replies)
    }

    /// The user's settings with the personal options of `/skymines settings` (away,
    /// timezone, quiet) applied, checked but not stored; None when none was given.
    pub(crate) fn personal_settings(
        &self,
        req: &Request,
        opts: &Options,
    ) -> Result<Option<UserSettings>, String> {
        if !["timezone", "quiet", "away", "reminders", "remind_after"]
            .iter()
            .any(|k| opts.get(k).is_some())
        {
            return Ok(None);
        }
        let mut settings = self
            .store
            .people()
            .user_settings(req.user.id)
            .map_err(|e| self.err(e))?;
        if let Some(tz) = opts.get("timezone") {
            let zone = time::parse_zone(tz)
                .ok_or_else(|| self.texts.f("error.bad_timezone", &[("value", &tz)]))?;
            time::set_zone(&mut settings, zone);
        }
        if let Some(q) = opts.get("quiet") {
            settings.quiet = time::parse_quiet(q)
                .ok_or_else(|| self.texts.f("error.bad_quiet", &[("value", &q)]))?;
        }
        if let Some(a) = opts.get("away") {
            let now = self.clock.now_ms();
            settings.away_until = time::parse_away(a, now, &settings)
                .ok_or_else(|| self.texts.f("error.bad_away", &[("value", &a)]))?;
        }
        if let Some(r) = opts.get("reminders") {
            settings.reminders_off = match r.trim().to_ascii_lowercase().as_str() {
                "on" | "yes" | "true" => false,
                "off" | "no" | "false" => true,
                _ => {
                    return Err(self.texts.f(
                        "error.bad_value",
                        &[("option", &"reminders"), ("value", &r)],
                    ))
                }
            };
        }
        if let Some(d) = opts.get("remind_after") {
            settings.remind_after_min = time::parse_reminder_delay(d)
                .ok_or_else(|| self.texts.f("error.bad_remind_after", &[("value", &d)]))?;
        }
        Ok(Some(settings))
    }

    /// The user's away time, time zone and quiet hours, in words.
    pub(crate) fn personal_settings_text(&self, s: &UserSettings) -> String {
        let now = self.clock.now_ms();
        let away = match s.away_until {
            Some(t) if t > now => self
                .texts
                .f("settings.away_until", &[("when", &time::marker(t))]),
            _ => self.texts.t("settings.not_away"),
        };
        let quiet = match s.quiet {
            Some((from, to)) => format!("{from:02}-{to:02}"),
            None => self.texts.t("word.off"),
        };
        let personal = self.texts.f(
            "settings.personal",
            &[
                ("away", &away),
                ("timezone", &time::zone_text(s, now)),
                ("quiet", &quiet),
            ],
        );
        let reminders = if s.reminders_off {
            self.texts.t("settings.reminders_off")
        } else {
            let delay = s
                .remind_after_min
                .map(|m| i64::from(m) * 60_000)
                .unwrap_or(self.config.reminder_after_ms);
            self.texts.f(
                "settings.reminders_on",
                &[("delay", &time::delay_text(delay))],
            )
        };
        format!("{personal}\n{reminders}")
    }

    /// Lines the status adds about living over days: paused, vacant seats, deadlines.
    pub(crate) fn status_notes(&self, game: GameId) -> Vec<String> {
        let mut notes = Vec::new();
        let unread = "cannot read the game for the status's notes: they are left out";
        let paused = self
            .logged(unread, self.store.schedule().paused_at(game))
            .flatten();
        if let Some(since) = paused {
            notes.push(
                self.texts
                    .f("status.paused", &[("since", &time::marker(since))]),
            );
        }
        let seats = self
            .logged(unread, self.store.people().seats(game))
            .unwrap_or_default();
        let computers: Vec<String> = seats
            .iter()
            .filter(|s| s.owner == SeatOwner::Vacant)
            .map(|s| {
                self.texts.f(
                    "status.computer_seat",
                    &[("name", &s.name), ("seat", &(s.seat + 1))],
                )
            })
            .collect();
        if !computers.is_empty() {
            let level = super::computers::level_words(&self.texts, self.computer_level(game));
            notes.push(self.texts.f(
                "status.vacant",
                &[("seats", &computers.join(", ")), ("level", &level)],
            ));
        }
        let reminders = self
            .logged(unread, self.store.schedule().reminders(game))
            .unwrap_or_default();
        for r in reminders {
            if r.kind != Self::DEADLINE {
                continue;
            }
            if let Some(s) = seats.iter().find(|s| s.seat == r.seat) {
                notes.push(self.texts.f(
                    "status.deadline",
                    &[("name", &s.name), ("when", &time::marker(r.due_at))],
                ));
            }
        }
        notes
    }

    /// The Discord channel was deleted: its game is archived (kept, exportable), its lobby
    /// dropped. Returns the archived games.
    pub fn channel_gone(&self, channel: u64) -> Vec<GameId> {
        if let Ok(mut lobbies) = self.lobbies.lock() {
            lobbies.remove(&channel);
        }
        self.store
            .games()
            .archive_channel(channel)
            .unwrap_or_else(|e| {
                tracing::warn!(channel, error = %e, "cannot archive the channel's game");
                Vec::new()
            })
    }

    /// The bot was removed from a server: its games are archived, its lobbies dropped.
    pub fn guild_gone(&self, guild: u64) -> Vec<GameId> {
        if let Ok(mut lobbies) = self.lobbies.lock() {
            lobbies.retain(|_, l| l.place.guild != Some(guild));
        }
        self.store.games().archive_guild(guild).unwrap_or_else(|e| {
            tracing::warn!(guild, error = %e, "cannot archive the server's games");
            Vec::new()
        })
    }
}
