//! Playing over days and weeks: `/skymines mygames` across channels, spectators' public player
//! boards, and a per-user rate limit on commands and clicks.

use super::commands::Options;
use super::{time, Chat, Image, Reply, Request};
use crate::data::numbering;
use crate::engine::{self, Phase};

impl Chat {
    /// Every game the user sits in, with round, phase and whether it waits on them.
    pub(crate) fn mygames(&self, req: &Request) -> Result<Vec<Reply>, String> {
        let mut lines = Vec::new();
        for game in self.store.games().live_games() {
            // A game that cannot be read (or ended meanwhile) is left out of the list.
            let unread = "cannot read a game: it is left out of /skymines mygames";
            let Some(Some(seat)) = self.logged(unread, self.seat_in(game, req.user.id)) else {
                continue;
            };
            let (Some(record), Some(state)) = (
                self.logged(unread, self.store.games().game(game)),
                self.logged(unread, self.store.games().state(game)),
            ) else {
                continue;
            };
            let phase = match state.phase {
                Phase::Setup => self.texts.t("phase.setup"),
                Phase::Planning => self.texts.t("phase.planning"),
                Phase::Action => self.texts.t("phase.action"),
                Phase::Finished => self.texts.t("phase.finished"),
            };
            let key = if engine::waiting_on(&state).contains(&seat) {
                "mygames.line_waiting"
            } else {
                "mygames.line"
            };
            lines.push(self.texts.f(
                key,
                &[
                    ("game", &game),
                    ("channel", &time::channel_marker(record.location.channel)),
                    ("round", &state.round),
                    ("phase", &phase),
                ],
            ));
        }
        let text = if lines.is_empty() {
            self.texts.t("mygames.none")
        } else {
            format!("{}\n{}", self.texts.t("mygames.title"), lines.join("\n"))
        };
        Ok(vec![Reply::private(req.user.id, text)])
    }

    /// `/skymines board [player:NAME]`: the board, or one seat's public player board, for anyone
    /// in the channel (spectators included): public information only.
    pub(crate) fn board(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        // Like the status: the running game, or the last finished one until a new one starts.
        let (game, _) = self.find_viewable_game(req, None)?;
        let state = self.store.games().state(game).map_err(|e| self.err(e))?;
        // Public: the game's language (an unknown name is answered privately, in the user's).
        let public_texts = self.game_texts(game);
        let Some(who) = opts.get("player") else {
            return Ok(vec![self.status_reply(game, &state)]);
        };
        let seat = self.seat_named(game, who)?;
        let view = engine::view(&self.data, &state, None);
        let p = &view.seats[seat];
        let text = public_texts.f(
            "board.player",
            &[
                ("name", &p.name),
                ("coins", &p.coins),
                ("tank", &p.tank),
                ("research", &numbering::marker_screen(p.upload)),
                ("hand", &p.hand_size),
                ("markers", &p.markers_reserve),
            ],
        );
        let image = if self.config.images {
            crate::render::player_png_in(&self.data, &view, seat, false, public_texts)
                .ok()
                .map(|png| Image {
                    file_name: format!("skymines-{game}-player-{}.png", seat + 1),
                    png,
                    alt: public_texts.f("alt.player", &[("name", &state.seats[seat].name)]),
                })
        } else {
            None
        };
        Ok(vec![Reply::public(text).with_image(image)])
    }

    /// Whether the user has sent too many requests lately (then they get a polite refusal).
    pub(crate) fn rate_limited(&self, user: u64) -> bool {
        let (limit, window) = (self.config.rate_limit, self.config.rate_window_ms);
        if limit == 0 {
            return false;
        }
        let now = self.clock.now_ms();
        let Ok(mut recent) = self.recent.lock() else {
            return false;
        };
        let times = recent.entry(user).or_default();
        times.retain(|t| now - *t < window);
        if times.len() >= limit {
            return true;
        }
        times.push(now);
        false
    }
}
