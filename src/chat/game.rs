//! Commands inside a running game: planning and turn actions (typed or clicked), the clicks on
//! the private prompt (the prompt itself is `asking`'s), the hand, status, scores, log, export,
//! settings, undo and abort; pings when a turn passes; reminders and deadlines from the
//! injected clock.

use super::commands::{self, Options};
use super::offers;
use super::prompt::{self, ClickId};
use super::{Audience, Chat, Choice, Image, Pinged, Reply, Request};
use crate::engine::state::{GameState, Phase};
use crate::engine::{self, Decision, Event, Visibility};
use crate::store::{replay, GameId, GameStatus, LogEntry, Notify, SeatOwner, StoreError};
use std::sync::Arc;

/// Who made the move a reply is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Actor {
    /// Nobody: the start, an admin's rollback, or a stalled turn the bot played safely.
    Nobody,
    /// A person at `seat`, asking as `user`.
    Person { seat: usize, user: u64 },
    /// The computer player at `seat` (one whole turn, or a step of planning or set-up).
    Computer { seat: usize },
}

impl Actor {
    pub(super) fn seat(self) -> Option<usize> {
        match self {
            Actor::Nobody => None,
            Actor::Person { seat, .. } | Actor::Computer { seat } => Some(seat),
        }
    }

    fn user(self) -> Option<u64> {
        match self {
            Actor::Person { user, .. } => Some(user),
            _ => None,
        }
    }
}

impl Chat {
    /// A store error as a reply in the reader's language: a refused decision, a setup error,
    /// and what a player can act on (try again, the game is over, …); the rest is the store's
    /// own English (the operator's side: files, schema, corrupt data).
    pub(crate) fn err(&self, e: impl Into<StoreError>) -> String {
        match e.into() {
            StoreError::Rule(e) => e.render(&self.texts),
            StoreError::Setup(e) => e.render(&self.texts),
            StoreError::ReadOnly => self.texts.t("error.store_read_only"),
            StoreError::DiskFull => self.texts.t("error.store_disk_full"),
            StoreError::Busy | StoreError::Conflict(_) => self.texts.t("error.store_busy"),
            StoreError::Changed(game) => self.changed(game),
            StoreError::ChannelBusy => self.texts.t("error.channel_busy"),
            StoreError::NoSuchGame(game) => {
                self.texts.f("admin.error.no_such_game", &[("game", &game)])
            }
            StoreError::NotActive { game, status } => self.not_running(game, status),
            StoreError::NothingToUndo { .. } => self.texts.t("error.undo_nothing"),
            StoreError::UndoBlocked(_) => self.texts.t("error.undo_blocked"),
            StoreError::UndoAfterOthers { .. } => self.texts.t("error.undo_other"),
            StoreError::NoSuchSeat(_) => self.texts.t("error.not_a_player"),
            StoreError::NoPerson => self.texts.t("error.last_person"),
            // A damaged game or file says so (`admin`); the rest: the operator's log gets the
            // details, the player a plain apology (the transaction was rolled back).
            other => self.store_trouble(other),
        }
    }

    /// A move refused because the game changed under it (another process ended, paused or
    /// rolled it back): says so, then how the game stands now.
    fn changed(&self, game: GameId) -> String {
        let now = match self.store.games().game(game) {
            Ok(record) if record.status != GameStatus::Active => {
                self.not_running(game, record.status)
            }
            Ok(_) => match self.store.games().state(game) {
                Ok(state) => self.status_reply(game, &state).text,
                Err(e) => self.internal(&e),
            },
            Err(e) => self.internal(&e),
        };
        format!("{}\n{now}", self.texts.t("error.store_changed"))
    }

    /// An error on the bot's side: logged in full, answered with the reader's "something went
    /// wrong, nothing was changed" (the details may name files and mean nothing to players).
    pub(crate) fn internal(&self, e: &dyn std::fmt::Display) -> String {
        tracing::error!(error = %crate::text::clean(&e.to_string()), "internal error answering a command");
        self.texts.t("error.internal")
    }

    /// The game of the request's channel (or, in a DM, the user's game named by `game` or the
    /// only one waiting on them), with the user's seat if they play in it.
    pub(crate) fn find_game(
        &self,
        req: &Request,
        opts: Option<&Options>,
    ) -> Result<(GameId, Option<usize>), String> {
        let game = if req.in_dm {
            match opts
                .and_then(|o| o.get("game"))
                .and_then(|g| g.parse::<GameId>().ok())
            {
                Some(g) => g,
                None => self
                    .games_waiting_on(req.user.id)
                    .first()
                    .copied()
                    .ok_or_else(|| self.texts.t("error.dm_which_game"))?,
            }
        } else {
            self.store
                .games()
                .game_in_channel(req.place.channel)
                .map_err(|e| self.err(e))?
                .ok_or_else(|| self.texts.t("error.no_game"))?
        };
        Ok((game, self.seat_of(game, req.user.id)?))
    }

    /// The game `/skymines status|scores|log|export` look at: the channel's running game, or
    /// once it is over the channel's last finished game (until another one starts there).
    pub(crate) fn find_viewable_game(
        &self,
        req: &Request,
        opts: Option<&Options>,
    ) -> Result<(GameId, Option<usize>), String> {
        match self.find_game(req, opts) {
            Err(e) if !req.in_dm => match self
                .store
                .games()
                .last_finished_in_channel(req.place.channel)
            {
                Ok(Some(game)) => Ok((game, self.seat_of(game, req.user.id)?)),
                _ => Err(e),
            },
            found => found,
        }
    }

    pub(crate) fn seat_of(&self, game: GameId, user: u64) -> Result<Option<usize>, String> {
        self.seat_in(game, user).map_err(|e| self.err(e))
    }

    /// [`Chat::seat_of`] with the store's error.
    pub(crate) fn seat_in(&self, game: GameId, user: u64) -> Result<Option<usize>, StoreError> {
        let seats = self.store.people().seats(game)?;
        Ok(seats
            .iter()
            .find(|s| s.owner == SeatOwner::Discord(user))
            .map(|s| s.seat))
    }

    /// The Discord user of a seat and how they are notified (None: nobody's, or the seats
    /// cannot be read, which is logged).
    pub(crate) fn user_of(&self, game: GameId, seat: usize) -> Option<(u64, Notify)> {
        self.logged(
            "cannot read a game's seats: its player is not addressed",
            self.store.people().seats(game),
        )?
        .into_iter()
        .find_map(|s| match s.owner {
            SeatOwner::Discord(id) if s.seat == seat => Some((id, s.notify)),
            _ => None,
        })
    }

    fn games_waiting_on(&self, user: u64) -> Vec<GameId> {
        let unread = "cannot read a game: it is not taken for one waiting on the user";
        self.store
            .games()
            .live_games()
            .into_iter()
            .filter(|g| {
                let Some(Some(seat)) = self.logged(unread, self.seat_in(*g, user)) else {
                    return false;
                };
                self.logged(unread, self.store.games().state(*g))
                    .is_some_and(|s| engine::waiting_on(&s).contains(&seat))
            })
            .collect()
    }

    pub(crate) fn state(&self, game: GameId) -> Result<Arc<GameState>, String> {
        self.store.games().state(game).map_err(|e| self.err(e))
    }

    /// Applies a seat's decisions and builds every reply the move causes.
    pub(crate) fn play(
        &self,
        req: &Request,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
    ) -> Result<Vec<Reply>, String> {
        self.refuse_if_paused(game)?;
        let before = self.state(game)?;
        let actor = Actor::Person {
            seat,
            user: req.user.id,
        };
        // What the move implies for the schedule is stored with it, in its transaction.
        let plan = self.wait_plan(game).map_err(|e| self.err(e))?;
        let outcome = self
            .store
            .games()
            .apply_with(game, seat, decisions, &Self::move_effects(&plan, actor))
            .map_err(|e| self.err(e))?;
        let mut replies = self.after_move(
            game,
            &outcome.state,
            outcome.seq,
            &outcome.events,
            actor,
            Some(&before),
        );
        replies.extend(self.play_computers(game));
        Ok(replies)
    }

    /// Replies after a move (or the start, `before` None): private events, and when the turn
    /// is over (the game waits on someone else, the phase or round changes, the bot moved, a
    /// computer player ended its turn) the
    /// turn's public lines in one message, the status and a ping for each seat the game starts
    /// waiting on (the turn's lines go with the ping when there is one); the actor's next
    /// question (with the step's public lines while the turn goes on); the final scores.
    /// `version` is the state's (its log entry's sequence number, 0 at the start).
    pub(crate) fn after_move(
        &self,
        game: GameId,
        state: &GameState,
        version: u64,
        events: &[Event],
        actor: Actor,
        before: Option<&GameState>,
    ) -> Vec<Reply> {
        let mut replies = Vec::new();
        let public_texts = self.game_texts(game);
        let public_events: Vec<&Event> = events
            .iter()
            .filter(|e| e.visibility == Visibility::Public)
            .collect();
        for e in events {
            if let Visibility::Private(seat) = e.visibility {
                if let Some((user, _)) = self.user_of(game, seat) {
                    let audience = match actor.user() {
                        Some(actor_user) if actor_user == user => Audience::Private(user),
                        _ => Audience::Dm(user),
                    };
                    let reader = self.reader_texts(user, Some(game));
                    replies.push(Reply::new(audience, e.render(reader)));
                }
            }
        }
        // (What the change implies for the schedule was stored with it: see `schedule`.)
        let waiting = engine::waiting_on(state);
        let waiting_before = before.map(engine::waiting_on).unwrap_or_default();
        let same_phase = before.is_some_and(|b| b.phase == state.phase && b.round == state.round);
        let turn_over = self.ends_turn(game, actor, before, state);
        let lines: Vec<String> = self
            .gather_turn(
                game,
                version,
                actor.seat(),
                public_events.iter().map(|e| (*e).clone()).collect(),
                turn_over,
            )
            .iter()
            .map(|e| e.render(public_texts))
            .collect();
        // While the turn goes on, the actor sees the step's public lines with the next question.
        let step: Vec<String> = match actor.user() {
            Some(user) if !turn_over => {
                let reader = self.reader_texts(user, Some(game));
                public_events.iter().map(|e| e.render(reader)).collect()
            }
            _ => Vec::new(),
        };
        if turn_over {
            let mut status = self.status_reply(game, state);
            status.status_of = Some(game);
            if state.phase == Phase::Finished {
                self.forget_turn(game);
                self.forget_shown(game);
                if !lines.is_empty() {
                    replies.push(Reply::public(lines.join("\n")));
                }
                replies.push(status);
                replies.push(Reply::public(
                    self.speaking(public_texts, || self.scores_text(state)),
                ));
                replies
                    .extend(self.speaking(public_texts, || self.campaign_game_over(game, state)));
                return replies;
            }
            replies.push(status);
        }
        // (Computer players plan at once: the last person to plan was asked just now.)
        let last_planner = state.phase == Phase::Planning
            && same_phase
            && waiting.len() == 1
            && waiting_before.len() > 1
            && !matches!(actor, Actor::Computer { .. });
        // Everyone the game starts waiting on, pinged together in one message.
        let mut pinged: Option<(Pinged, Vec<String>, &str, &str)> = None;
        let mut actor_asked = false;
        for seat in &waiting {
            let Some((user, notify)) = self.user_of(game, *seat) else {
                continue;
            };
            if actor.user().is_some() && actor.seat() == Some(*seat) {
                // The actor gets the next question privately, right away.
                if let Some(mut p) = self.prompt(game, state, *seat, user, 0) {
                    if !step.is_empty() {
                        p.text = format!("{}\n{}", step.join("\n"), p.text);
                    }
                    actor_asked = true;
                    replies.push(p);
                }
                continue;
            }
            let newly_waited = !same_phase || !waiting_before.contains(seat);
            if !newly_waited && !last_planner {
                continue;
            }
            let (key, button) = match state.phase {
                Phase::Setup => ("ping.setup", "button.setup"),
                Phase::Planning if last_planner => ("ping.last_planner", "button.plan"),
                Phase::Planning => ("ping.plan", "button.plan"),
                _ => ("ping.turn", "button.turn"),
            };
            let name = state.seats[*seat].name.clone();
            match &mut pinged {
                Some((users, names, _, _)) => {
                    users.add(user);
                    names.push(name);
                }
                None => pinged = Some((Pinged::one(user), vec![name], key, button)),
            }
            if notify == Notify::Dm && newly_waited {
                if let Some(mut p) = self.prompt(game, state, *seat, user, 0) {
                    p.audience = Audience::Dm(user);
                    let reader = self.reader_texts(user, Some(game));
                    p.text = format!("{}\n{}", reader.f("dm.game", &[("game", &game)]), p.text);
                    replies.push(p);
                }
            }
        }
        if let (Some(user), false) = (actor.user(), actor_asked || step.is_empty()) {
            replies.push(Reply::private(user, step.join("\n")));
        }
        // The turn's lines and the ping of whoever the game now waits on: one message.
        match pinged {
            Some((users, names, key, button)) => {
                let ask = public_texts.f(key, &[("name", &names.join(", "))]);
                let text = if lines.is_empty() {
                    ask
                } else {
                    format!("{}\n{ask}", lines.join("\n"))
                };
                let mut ping = Reply::new(Audience::Ping(users), text);
                ping.choices = vec![Choice::new(
                    ClickId::Open { game }.encode(),
                    public_texts.t(button),
                )];
                replies.push(ping);
            }
            None if !lines.is_empty() => replies.push(Reply::public(lines.join("\n"))),
            None => {}
        }
        replies
    }

    /// The public status: text (spectator view) and the board image.
    pub(crate) fn status_reply(&self, game: GameId, state: &GameState) -> Reply {
        self.speaking(self.game_texts(game), || {
            let view = engine::view(&self.data, state, None);
            let mut text = self.status_text(&view, super::lobby::is_user_seed(state.options.seed));
            for note in self.status_notes(game) {
                text.push('\n');
                text.push_str(&note);
            }
            let image = self.board_image(game, state);
            Reply::public(text).with_image(image)
        })
    }

    fn board_image(&self, game: GameId, state: &GameState) -> Option<Image> {
        if !self.config.images {
            return None;
        }
        let view = engine::view(&self.data, state, None);
        let png = self.stored_board_png(game, state, &view)?;
        Some(Image {
            file_name: format!("skymines-{game}-board.png"),
            png,
            alt: crate::render::summary_text_in(&self.data, &view, self.texts.current()),
        })
    }

    /// The public board PNG of `state`: when it is the game's live state, the one stored for
    /// its version (DECISIONS B8), drawn and stored on first request; otherwise drawn.
    fn stored_board_png(
        &self,
        game: GameId,
        state: &GameState,
        view: &engine::SeatView,
    ) -> Option<Vec<u8>> {
        // The stored image is in the game's language; another language is drawn, not stored.
        let texts = self.texts.current();
        let version = match self.store.games().live_state(game) {
            Ok((live, seq))
                if std::ptr::eq(live.as_ref(), state)
                    && texts.code == self.game_texts(game).code =>
            {
                Some(seq)
            }
            // Not the live state (another language, an ended game): drawn, not stored.
            Ok(_) | Err(StoreError::NotActive { .. }) => None,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the live state: the board is drawn, not stored");
                None
            }
        };
        if let Some(version) = version {
            let stored = self.logged(
                "cannot read a stored board image: it is drawn again",
                self.store.images().board_png(game, version),
            );
            if let Some(Some(png)) = stored {
                return Some(png);
            }
        }
        let png = crate::render::board_png_in(&self.data, view, texts).ok()?;
        if let Some(version) = version {
            if let Err(e) = self.store.images().store_board_png(game, version, &png) {
                tracing::warn!(game, version, error = %e, "cannot store the board image");
            }
        }
        Some(png)
    }

    fn player_image(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
        private: bool,
    ) -> Option<Image> {
        if !self.config.images {
            return None;
        }
        let view = engine::view(&self.data, state, if private { Some(seat) } else { None });
        let png =
            crate::render::player_png_in(&self.data, &view, seat, private, self.texts.current())
                .ok()?;
        Some(Image {
            file_name: format!(
                "skymines-{game}-player-{}{}.png",
                seat + 1,
                if private { "-private" } else { "" }
            ),
            png,
            alt: self
                .texts
                .f("alt.player", &[("name", &state.seats[seat].name)]),
        })
    }

    /// The version `seat`'s buttons of `game` carry now (see [`prompt::version`]).
    pub(crate) fn click_version(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
    ) -> Result<u64, String> {
        self.click_version_in(game, state, seat)
            .map_err(|e| self.err(e))
    }

    /// [`Chat::click_version`] with the store's error.
    pub(crate) fn click_version_in(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
    ) -> Result<u64, StoreError> {
        let (last, own) = self.store.games().log_marks(game, seat)?;
        Ok(prompt::version(state, seat, prompt::LogMark { last, own }))
    }

    /// Every choice the user's pending question offers (all pages, in the user's language), for
    /// adapters and tests.
    pub fn pending_choices(&self, place: &crate::store::Location, user: u64) -> Vec<Choice> {
        let unread = "cannot read the channel's game: no choices";
        let Some(Some(game)) =
            self.logged(unread, self.store.games().game_in_channel(place.channel))
        else {
            return Vec::new();
        };
        let Some(Some(seat)) = self.logged(unread, self.seat_in(game, user)) else {
            return Vec::new();
        };
        let Some(state) = self.logged(unread, self.store.games().state(game)) else {
            return Vec::new();
        };
        let Some(version) = self.logged(unread, self.click_version_in(game, &state, seat)) else {
            return Vec::new();
        };
        self.speaking(self.reader_texts(user, Some(game)), || {
            let offered = offers::offers(&self.data, &state, seat, 0);
            self.remember_shown(user, game, version, offered.clone());
            offered
                .iter()
                .enumerate()
                .map(|(i, o)| self.offer_choice(game, version, &state, seat, o, i + 1))
                .collect()
        })
    }

    /// Users the game in this channel waits on now.
    pub fn waiting_users(&self, place: &crate::store::Location) -> Vec<u64> {
        let unread = "cannot read the channel's game: nobody taken for waited on";
        let Some(Some(game)) =
            self.logged(unread, self.store.games().game_in_channel(place.channel))
        else {
            return Vec::new();
        };
        let Some(state) = self.logged(unread, self.store.games().state(game)) else {
            return Vec::new();
        };
        engine::waiting_on(&state)
            .into_iter()
            .filter_map(|s| self.user_of(game, s).map(|(u, _)| u))
            .collect()
    }

    pub(crate) fn open_prompt(&self, req: &Request, game: GameId) -> Result<Vec<Reply>, String> {
        let seat = self
            .seat_of(game, req.user.id)?
            .ok_or_else(|| self.texts.t("error.not_a_player"))?;
        let state = self.state(game)?;
        match self.prompt(game, &state, seat, req.user.id, 0) {
            Some(p) => Ok(vec![p]),
            None => Err(self.texts.t("error.nothing_to_decide")),
        }
    }

    /// The clicker's seat and the game's state, while the version the click carries is still
    /// current (otherwise the click is out of date and refused).
    pub(super) fn current_click(
        &self,
        req: &Request,
        game: GameId,
        version: u64,
    ) -> Result<(usize, Arc<GameState>), String> {
        let seat = self
            .seat_of(game, req.user.id)?
            .ok_or_else(|| self.texts.t("error.not_a_player"))?;
        let state = self.state(game)?;
        if self.click_version(game, &state, seat)? != version {
            return Err(self.texts.t("error.stale"));
        }
        Ok((seat, state))
    }

    pub(crate) fn page_click(
        &self,
        req: &Request,
        game: GameId,
        version: u64,
        page: usize,
    ) -> Result<Vec<Reply>, String> {
        let (seat, state) = self.current_click(req, game, version)?;
        self.prompt(game, &state, seat, req.user.id, page)
            .map(|p| vec![p])
            .ok_or_else(|| self.texts.t("error.nothing_to_decide"))
    }

    pub(crate) fn decide_click(
        &self,
        req: &Request,
        game: GameId,
        version: u64,
        decision: Decision,
    ) -> Result<Vec<Reply>, String> {
        let (seat, _) = self.current_click(req, game, version)?;
        self.play(req, game, seat, &[decision])
    }

    /// Options picked together from one select menu of a prompt (as Discord sends a
    /// multi-select's picks): cards to plan (without linked slots they fill the open slots from
    /// the left in the order picked), or where the cards of a seat dropping out rest (each card
    /// once, each to another resting slot). A pick from an older prompt is out of date; several
    /// options of a list that takes one at a time are refused as such, nothing played.
    pub(crate) fn decide_picked(
        &self,
        req: &Request,
        picked: &[(GameId, u64, Decision)],
    ) -> Result<Vec<Reply>, String> {
        let Some(&(game, version, _)) = picked.first() else {
            return Err(self.texts.t("error.stale"));
        };
        if picked.iter().any(|&(g, v, _)| g != game || v != version) {
            return Err(self.texts.t("error.stale"));
        }
        let (seat, state) = self.current_click(req, game, version)?;
        let all = |f: fn(&Decision) -> bool| picked.iter().all(|(_, _, d)| f(d));
        if all(|d| matches!(d, Decision::RestCard { .. })) {
            let mut cards: Vec<_> = Vec::new();
            let mut slots: Vec<u8> = Vec::new();
            for (_, _, d) in picked {
                if let Decision::RestCard { card, slot } = *d {
                    if cards.contains(&card) || slots.contains(&slot) {
                        return Err(self.texts.t("error.rest_pick"));
                    }
                    cards.push(card);
                    slots.push(slot);
                }
            }
            let decisions: Vec<Decision> = picked.iter().map(|&(_, _, d)| d).collect();
            return self.play(req, game, seat, &decisions);
        }
        if !all(|d| matches!(d, Decision::PlanCard { .. })) {
            return Err(self.texts.t("error.one_option"));
        }
        let s = &state.seats[seat];
        let mut open = (0..s.slots.len() as u8)
            .filter(|&i| s.slot_on[i as usize] && s.slots[i as usize].is_none());
        let decisions: Vec<Decision> = picked
            .iter()
            .map(|&(_, _, d)| match d {
                Decision::PlanCard { card, slot } if !state.options.linked_slots => {
                    Decision::PlanCard {
                        card,
                        slot: open.next().unwrap_or(slot),
                    }
                }
                d => d,
            })
            .collect();
        self.play(req, game, seat, &decisions)
    }

    /// Planning, setup and turn-action commands.
    pub(crate) fn action_command(
        &self,
        req: &Request,
        name: &str,
        opts: &Options,
    ) -> Result<Vec<Reply>, String> {
        let (game, seat) = self.find_game(req, Some(opts))?;
        let seat = seat.ok_or_else(|| self.texts.t("error.not_a_player"))?;
        self.check_place(req, game)?;
        self.refuse_if_paused(game)?;
        let state = self.state(game)?;
        let phase_ok = match name {
            "plan" => state.phase == Phase::Planning,
            "token" => state.phase == Phase::Setup,
            _ => state.phase == Phase::Action,
        };
        if !phase_ok {
            return Err(self.texts.f("error.wrong_phase", &[("command", &name)]));
        }
        if state.phase == Phase::Action && !engine::waiting_on(&state).contains(&seat) {
            let names: Vec<String> = engine::waiting_on(&state)
                .iter()
                .map(|s| state.seats[*s].name.clone())
                .collect();
            return Err(self
                .texts
                .f("error.not_your_turn", &[("names", &names.join(", "))]));
        }
        if name == "pass" && opts.get("deck").is_none() {
            // Dropping out asks for confirmation and shows the resting decks.
            let version = self.click_version(game, &state, seat)?;
            let text = format!(
                "{}\n{}",
                self.texts.t("ask.confirm_pass"),
                self.hand_text(&state, seat)
            );
            let mut confirm =
                self.decision_choice(game, version, &state, seat, Decision::DropOut, 1);
            confirm.label = self.texts.t("button.confirm_pass");
            self.remember_shown(req.user.id, game, version, vec![vec![Decision::DropOut]]);
            return Ok(vec![
                Reply::private(req.user.id, text).with_choices(vec![confirm])
            ]);
        }
        let valid = |option: &str| -> Vec<String> {
            self.raw_suggestions(req, name, option, opts)
                .into_iter()
                .map(|(_, value)| value)
                .collect()
        };
        let commands::Translated { decisions, open } =
            commands::translate(&self.data, &self.texts, &state, seat, name, opts, &valid)?;
        let mut replies = if decisions.is_empty() {
            self.prompt(game, &state, seat, req.user.id, 0)
                .map(|p| vec![p])
                .ok_or_else(|| self.texts.t("error.nothing_to_decide"))?
        } else {
            self.play(req, game, seat, &decisions)?
        };
        // A choice the command left open is asked by the prompt: the note goes above it.
        if let Some(note) = open {
            let user = req.user.id;
            match replies
                .iter_mut()
                .find(|r| r.audience == Audience::Private(user) && !r.choices.is_empty())
            {
                Some(prompt) => prompt.text = format!("{note}\n{}", prompt.text),
                None => replies.push(Reply::private(user, note)),
            }
        }
        Ok(replies)
    }

    pub(crate) fn hand(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let (game, seat) = self.find_game(req, None)?;
        let seat = seat.ok_or_else(|| self.texts.t("error.not_a_player"))?;
        let state = self.state(game)?;
        let text = self.hand_text(&state, seat);
        let image = self.player_image(game, &state, seat, true);
        Ok(vec![Reply::private(req.user.id, text).with_image(image)])
    }

    pub(crate) fn status(&self, req: &Request) -> Result<Vec<Reply>, String> {
        if let Ok(lobbies) = self.lobbies.lock() {
            if let Some(l) = lobbies.get(&req.place.channel) {
                let names: Vec<&str> = l.players.iter().map(|(_, n)| n.as_str()).collect();
                let mut text = l.texts(self).f(
                    "lobby.status",
                    &[
                        ("joined", &names.join(", ")),
                        ("players", &l.options.players),
                    ],
                );
                if l.computers.count > 0 {
                    text = format!("{text}\n{}", super::lobby::computers_line(l.texts(self), l));
                }
                return Ok(vec![Reply::public(text)]);
            }
        }
        let (game, _) = self.find_viewable_game(req, None)?;
        let state = self.state(game)?;
        let mut reply = self.status_reply(game, &state);
        if state.phase == Phase::Finished {
            // A finished game's status is its result.
            let scores = self.speaking(self.game_texts(game), || self.scores_text(&state));
            reply.text = format!("{}\n{scores}", reply.text);
        }
        Ok(vec![reply])
    }

    pub(crate) fn scores(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let (game, _) = self.find_viewable_game(req, None)?;
        let state = self.state(game)?;
        let text = self.speaking(self.game_texts(game), || self.scores_text(&state));
        Ok(vec![Reply::public(text)])
    }

    /// The game's public log, rebuilt by replaying its decisions (no hidden information).
    pub(crate) fn log(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let (game, seat) = self.find_viewable_game(req, Some(opts))?;
        let since_my_turn = opts.get("since").is_some()
            || opts.flag("since_my_turn") == Some(true)
            || opts.get("mode") == Some("since-my-turn");
        // The catch-up is private (the reader's language), the whole log public (the game's).
        let texts = if since_my_turn {
            self.texts.current()
        } else {
            self.game_texts(game)
        };
        self.speaking(texts, || self.log_text(req, game, seat, since_my_turn))
    }

    fn log_text(
        &self,
        req: &Request,
        game: GameId,
        seat: Option<usize>,
        since_my_turn: bool,
    ) -> Result<Vec<Reply>, String> {
        let export = self.store.admin().export(game).map_err(|e| self.err(e))?;
        let undone = crate::store::replay::undone_set(&export.log);
        let mut state = engine::new_game(&self.data, &export.options, &export.seat_names)
            .map_err(|e| self.err(e))?;
        // (log entry, seat, public event).
        let mut events: Vec<(u64, usize, Event)> = Vec::new();
        for entry in &export.log {
            if let LogEntry::Batch {
                seq,
                seat: s,
                decisions,
                ..
            } = entry
            {
                if undone.contains(seq) {
                    continue;
                }
                events.extend(
                    engine::apply_batch(&self.data, &mut state, *s, decisions)
                        .map_err(|e| self.err(e))?
                        .into_iter()
                        .filter(|e| e.visibility == Visibility::Public)
                        .map(|e| (*seq, *s, e)),
                );
            }
        }
        // A run of one summed step reads as one line, as in the turn's message.
        let lines: Vec<(u64, usize, String)> =
            super::turn::merge_runs(events, |(_, last_seat, last), (seq, seat, e)| {
                let sum = super::turn::summed(last, e).filter(|_| last_seat == seat)?;
                Some((*seq, *seat, sum))
            })
            .into_iter()
            .map(|(q, s, e)| (q, s, e.render(&self.texts)))
            .collect();
        let from = match (since_my_turn, seat) {
            (true, Some(me)) => lines
                .iter()
                .rev()
                .find(|(_, s, _)| *s == me)
                .map(|(q, _, _)| *q)
                .unwrap_or(0),
            _ => 0,
        };
        let text = super::turn::log_lines(&self.texts, &lines, from);
        let mut reply = Reply::public(text);
        if since_my_turn {
            reply.audience = super::Audience::Private(req.user.id);
            reply.image = self.board_image(game, &state);
        }
        Ok(vec![reply])
    }

    pub(crate) fn export(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let (game, _) = self.find_viewable_game(req, None)?;
        let record = self.store.games().game(game).map_err(|e| self.err(e))?;
        if record.status == GameStatus::Active && !req.user.owner {
            return Err(self.texts.t("error.export_running"));
        }
        let doc = self.store.admin().export(game).map_err(|e| self.err(e))?;
        Ok(vec![Reply::private(req.user.id, doc.to_json())])
    }

    /// `/skymines settings`: where private prompts go (`notify:`, per seat), the user's own
    /// language (`language:`, every game), the channel game's public language
    /// (`game_language:`, host or moderator), and the user's away time, time zone and quiet
    /// hours (`away:`, `timezone:`, `quiet:`, every game). Every option is checked before any
    /// is changed.
    pub(crate) fn settings(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        let language = self.language_option(opts, "language")?;
        let game_language = self.language_option(opts, "game_language")?;
        let notify = match opts.get("notify") {
            None => None,
            Some("dm") => Some(Notify::Dm),
            Some("ephemeral" | "private") => Some(Notify::Ephemeral),
            Some(other) => {
                return Err(self.texts.f(
                    "error.bad_value",
                    &[("option", &"notify"), ("value", &other)],
                ))
            }
        };
        // Only `notify:` needs a seat; the languages (and showing them) work anywhere.
        let seat = match self.find_game(req, Some(opts)) {
            Ok((game, Some(seat))) => Some((game, seat)),
            Ok((_, None)) if notify.is_some() => return Err(self.texts.t("error.not_a_player")),
            Err(e) if notify.is_some() => return Err(e),
            _ => None,
        };
        let personal = self.personal_settings(req, opts)?;
        if let Some(code) = game_language {
            self.set_channel_language(req, code)?;
        }
        if let Some(personal) = &personal {
            self.store
                .people()
                .set_user_settings(req.user.id, personal)
                .map_err(|e| self.err(e))?;
        }
        if let (Some(notify), Some((game, seat))) = (notify, seat) {
            self.store
                .people()
                .set_notify(game, seat, notify)
                .map_err(|e| self.err(e))?;
            if notify == Notify::Dm {
                self.dms_wanted(req.user.id)?;
            }
        }
        if let Some(code) = language {
            self.store
                .people()
                .set_user_language(req.user.id, code)
                .map_err(|e| self.err(e))?;
        }
        // The answer is in the language just chosen.
        self.speaking(self.requester_texts(req), || {
            let mut lines = Vec::new();
            if let Some((game, seat)) = seat {
                let seats = self.store.people().seats(game).map_err(|e| self.err(e))?;
                let notify = seats
                    .iter()
                    .find(|s| s.seat == seat)
                    .map(|s| s.notify)
                    .unwrap_or_default();
                let how = match notify {
                    crate::store::Notify::Ephemeral => "settings.notify_ephemeral",
                    crate::store::Notify::Dm => "settings.notify_dm",
                };
                lines.push(
                    self.texts
                        .f("settings.show", &[("notify", &self.texts.t(how))]),
                );
            }
            lines.push(self.texts.f(
                "settings.language",
                &[("language", &self.texts.t("settings.language_name"))],
            ));
            if !req.in_dm {
                let channel = self.channel_texts(req.place.channel);
                lines.push(self.texts.f(
                    "settings.game_language",
                    &[("language", &channel.t("settings.language_name"))],
                ));
            }
            let personal = self
                .store
                .people()
                .user_settings(req.user.id)
                .map_err(|e| self.err(e))?;
            lines.push(self.personal_settings_text(&personal));
            Ok(vec![Reply::private(req.user.id, lines.join("\n"))])
        })
    }

    /// A language option, checked (`en`, `de`).
    fn language_option(
        &self,
        opts: &Options,
        option: &str,
    ) -> Result<Option<&'static str>, String> {
        opts.get(option)
            .map(|value| {
                super::language::parse_language(value).ok_or_else(|| {
                    self.texts
                        .f("error.bad_value", &[("option", &option), ("value", &value)])
                })
            })
            .transpose()
    }

    /// Sets the public language of the channel's lobby or game (its host or a moderator).
    fn set_channel_language(&self, req: &Request, code: &'static str) -> Result<(), String> {
        if let Ok(mut lobbies) = self.lobbies.lock() {
            if let Some(lobby) = lobbies.get_mut(&req.place.channel) {
                if lobby.host != req.user.id && !req.user.moderator {
                    return Err(self.texts.t("error.host_only"));
                }
                lobby.language = Some(code);
                return lobbies.commit().map_err(|e| self.err(e));
            }
        }
        let game = self
            .store
            .games()
            .game_in_channel(req.place.channel)
            .map_err(|e| self.err(e))?
            .ok_or_else(|| self.texts.t("error.no_game"))?;
        let host_seat = Some(0);
        if self.seat_of(game, req.user.id)? != host_seat && !req.user.moderator && !req.user.owner {
            return Err(self.texts.t("error.host_only"));
        }
        self.store
            .people()
            .set_game_language(game, code)
            .map_err(|e| self.err(e))
    }

    /// `/undo` (DECISIONS B6): takes back the seat's last batch in effect, one batch per call,
    /// so repeated calls go further back; refused for a batch that revealed hidden or random
    /// information or passed the turn ([`engine::undo_barrier`], the rule behind the options'
    /// "cannot be undone"), and for one with another seat's batch after it. Recorded as an undo,
    /// never erased.
    pub(crate) fn undo(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let (game, seat) = self.find_game(req, None)?;
        let seat = seat.ok_or_else(|| self.texts.t("error.not_a_player"))?;
        self.check_place(req, game)?;
        self.refuse_if_paused(game)?;
        let log = self.store.games().log(game).map_err(|e| self.err(e))?;
        let mut undone = replay::undone_set(&log);
        let target = crate::store::undo_target(&log, &undone, seat).map_err(|e| self.err(e))?;
        // The state before that batch, beside the state now (the state after it: every later
        // batch is undone or refused above).
        let after = self.state(game)?;
        undone.insert(target);
        let record = self.store.games().game(game).map_err(|e| self.err(e))?;
        let before = replay::initial_state(&self.data, &record.options, &record.seat_names)
            .and_then(|start| replay::replay_onto(&self.data, start, &log, &undone))
            .map_err(|e| self.internal(&e))?;
        if engine::undo_barrier(&before, &after) {
            return Err(self.texts.t("error.undo_revealed"));
        }
        // What the undo implies for the schedule is stored with it, in its transaction.
        let plan = self.wait_plan(game).map_err(|e| self.err(e))?;
        let actor = Actor::Person {
            seat,
            user: req.user.id,
        };
        let effects = Self::move_effects(&plan, actor);
        let outcome = self
            .store
            .games()
            .undo_with(game, seat, &|before, after| effects(before, after, &[]))
            .map_err(|e| self.err(e))?;
        self.forget_last_step(game, seat);
        let mut replies = vec![Reply::public(
            self.game_texts(game)
                .f("undo.done", &[("name", &after.seats[seat].name)]),
        )];
        let mut status = self.status_reply(game, &outcome.state);
        status.status_of = Some(game);
        replies.push(status);
        if let Some(p) = self.prompt(game, &outcome.state, seat, req.user.id, 0) {
            replies.push(p);
        }
        Ok(replies)
    }

    pub(crate) fn abort(&self, req: &Request) -> Result<Vec<Reply>, String> {
        if let Ok(mut lobbies) = self.lobbies.lock() {
            if let Some(l) = lobbies.get(&req.place.channel) {
                if l.host != req.user.id && !req.user.moderator {
                    return Err(self.texts.t("error.host_only"));
                }
                let closed = l.texts(self).f("lobby.closed", &[("name", &req.user.name)]);
                lobbies.remove(&req.place.channel);
                lobbies.commit().map_err(|e| self.err(e))?;
                return Ok(vec![Reply::public(closed)]);
            }
        }
        let (game, seat) = self.find_game(req, None)?;
        let host_seat = Some(0);
        if seat != host_seat && !req.user.moderator && !req.user.owner {
            return Err(self.texts.t("error.host_only"));
        }
        // Its reminders go with it, in the same transaction.
        self.store.games().abandon(game).map_err(|e| self.err(e))?;
        Ok(vec![Reply::public(
            self.game_texts(game)
                .f("game.aborted", &[("name", &req.user.name)]),
        )])
    }

    pub(crate) fn help(&self, req: &Request, topic: Option<&str>) -> Reply {
        let key = format!("help.{}", topic.unwrap_or("overview").to_ascii_lowercase());
        let text = if key == "help.campaign" {
            self.texts
                .f(&key, &[("chapter_points", &self.chapter_points_help())])
        } else if self.texts.has(&key) {
            self.texts.t(&key)
        } else {
            self.texts.t("help.overview")
        };
        Reply::private(req.user.id, text)
    }
}
