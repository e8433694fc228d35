//! Closed DMs (DECISIONS B14): when Discord refuses a DM to a player (their privacy settings),
//! the refusal is kept in the store, the player's seats that planned by DM switch to ephemeral
//! prompts, and one notice says so in the game's channel. Adapters ask [`Chat::dms_closed`]
//! before sending a DM and send none to such a player until they ask for DMs again
//! (`/skymines settings notify:dm`).

use super::{Audience, Chat, Choice, Pinged, Reply};
use crate::store::{GameId, Notify, SeatOwner};

impl Chat {
    /// Whether DMs to `user` are known to be refused (no DM is tried then).
    pub fn dms_closed(&self, user: u64) -> bool {
        self.logged(
            "cannot tell whether a user's DMs are closed: a DM is tried",
            self.store.people().dm_refused_at(user),
        )
        .flatten()
        .is_some()
    }

    /// Discord refused a DM to `user` (sent for `game`, if any): records it, switches every
    /// running seat of theirs that planned by DM to ephemeral prompts and returns the one
    /// notice, a mention in the game's channel with a button that opens the prompt there
    /// (nothing when the refusal was already known).
    pub fn dms_refused(&self, user: u64, game: Option<GameId>) -> Vec<Reply> {
        match self.store.people().set_dm_refused(user, true) {
            Ok(true) => {}
            Ok(false) => return Vec::new(),
            Err(e) => tracing::warn!(error = %e, "cannot record a refused DM"),
        }
        for g in self.store.games().live_games() {
            let Some(seats) = self.logged(
                "cannot read a game's seats: its DM prompts are not switched",
                self.store.people().seats(g),
            ) else {
                continue;
            };
            for s in seats
                .iter()
                .filter(|s| s.owner == SeatOwner::Discord(user) && s.notify == Notify::Dm)
            {
                if let Err(e) = self.store.people().set_notify(g, s.seat, Notify::Ephemeral) {
                    tracing::warn!(game = g, error = %e, "cannot switch a seat to ephemeral prompts");
                }
            }
        }
        let Some(game) = game else {
            return Vec::new();
        };
        let texts = self.game_texts(game);
        let mut notice =
            Reply::new(Audience::Ping(Pinged::one(user)), texts.t("dm.closed")).about(game);
        notice.choices = vec![Choice::new(
            super::open_click_id(game),
            texts.t("button.open_here"),
        )];
        vec![notice]
    }

    /// The user asked for DMs again: they are tried again from now on.
    pub(crate) fn dms_wanted(&self, user: u64) -> Result<(), String> {
        self.store
            .people()
            .set_dm_refused(user, false)
            .map(|_| ())
            .map_err(|e| self.err(e))
    }
}
