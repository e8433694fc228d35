//! Choosing by number without mistakes: the numbered list of a game's private prompt is kept
//! per user and game with the version it was built at, so `/choose N` picks exactly what that
//! reader was shown, and a number from an older list (or with no list shown) is refused with
//! the fresh one. Each option also carries the notes a player needs before choosing: that it
//! cannot be undone (it reveals something or passes the turn) or that it wastes something (a
//! bonus space that gives nothing, DECISIONS A5; a flip of a screen already passed; covering a
//! plan).

use super::commands::Options;
use super::prompt::ClickId;
use super::{Chat, Choice, Reply, Request};
use crate::engine::state::GameState;
use crate::engine::{self, BonusRef, Decision};
use crate::store::GameId;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A list shown to a reader: the decisions in the order numbered, at a click version.
#[derive(Debug, Clone)]
pub(crate) struct Shown {
    pub version: u64,
    pub decisions: Vec<Decision>,
}

/// The last list shown to each (user, game).
#[derive(Default)]
pub(crate) struct ShownLists(Mutex<BTreeMap<(u64, GameId), Shown>>);

impl ShownLists {
    fn remember(&self, user: u64, game: GameId, shown: Shown) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((user, game), shown);
    }

    fn get(&self, user: u64, game: GameId) -> Option<Shown> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(user, game))
            .cloned()
    }
}

impl Chat {
    /// Remembers the list `user` is being shown in `game` (what `/choose N` refers to).
    pub(crate) fn remember_shown(
        &self,
        user: u64,
        game: GameId,
        version: u64,
        decisions: Vec<Decision>,
    ) {
        self.shown
            .remember(user, game, Shown { version, decisions });
    }

    /// The option `number` (1-based) for `decision` of `seat` at `version`: its label and the
    /// notes on what it does.
    pub(crate) fn decision_choice(
        &self,
        game: GameId,
        version: u64,
        state: &GameState,
        seat: usize,
        decision: Decision,
        number: usize,
    ) -> Choice {
        let mut choice = Choice::new(
            ClickId::Decide {
                game,
                version,
                decision,
            }
            .encode(),
            self.label(state, seat, decision),
        );
        choice.description = self.option_notes(state, seat, decision).join(" ");
        choice.number = Some(number);
        choice
    }

    /// What a player should know before choosing `d`: whether it wastes something, and
    /// whether it can be taken back.
    pub(crate) fn option_notes(&self, state: &GameState, seat: usize, d: Decision) -> Vec<String> {
        let t = &self.texts;
        let s = &state.seats[seat];
        let mut notes = Vec::new();
        let mut scratch = state.clone();
        let events = engine::apply(&self.data, &mut scratch, seat, d).unwrap_or_default();
        match d {
            Decision::PlaceBonus { space } | Decision::PlaceOneTimeBonus { space }
                if events.iter().any(|e| e.key == "event.no_tier") =>
            {
                let warning = match space {
                    BonusRef::Board(i)
                        if self.data.board.bonus_spaces[i as usize].compare
                            == Some(
                                crate::data::board::MajorityCompare::ResearchScientistCards,
                            ) =>
                    {
                        "note.no_research_scientist"
                    }
                    _ => "note.no_tier",
                };
                notes.push(t.t(warning));
            }
            Decision::FlipPlan { screen } if s.upload.is_some_and(|u| screen <= u) => {
                notes.push(t.t("note.flip_passed"));
            }
            Decision::PlacePlan { screen, .. } => {
                if let Some(p) = s.research.get(screen as usize).copied().flatten() {
                    notes.push(t.f("note.covers", &[("plan", &self.plan_text(p.plan))]));
                }
            }
            _ => {}
        }
        if !events.is_empty() && super::game::reveals_hidden(state, &scratch) {
            notes.push(t.t("note.final"));
        }
        notes
    }

    /// `/choose option:N` (or `id:CUSTOM_ID`): option N of the list this user was last shown
    /// in this game, while it is current; otherwise the refusal with the fresh list.
    pub(crate) fn choose(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        if let Some(id) = opts.get("id") {
            return self.click(req, id);
        }
        let (game, seat) = self.find_game(req, Some(opts))?;
        let seat = seat.ok_or_else(|| self.texts.t("error.not_a_player"))?;
        self.refuse_if_paused(game)?;
        let n: usize = opts
            .get("option")
            .and_then(|o| o.trim().trim_start_matches('#').parse().ok())
            .ok_or_else(|| self.texts.t("error.choose_number"))?;
        let state = self.state(game)?;
        let version = self.click_version(game, &state, seat)?;
        match self.shown.get(req.user.id, game) {
            Some(shown) if shown.version == version => {
                let d = n
                    .checked_sub(1)
                    .and_then(|i| shown.decisions.get(i))
                    .copied()
                    .ok_or_else(|| {
                        self.texts.f(
                            "error.no_such_option",
                            &[("n", &n), ("count", &shown.decisions.len())],
                        )
                    })?;
                self.play(req, game, seat, &[d])
            }
            // Never guess what an old number meant: show the list it now refers to.
            Some(_) => self.with_fresh_list(req, game, &state, seat, "error.choose_stale"),
            None => self.with_fresh_list(req, game, &state, seat, "error.choose_unseen"),
        }
    }

    /// The refusal `key` followed by the seat's current prompt (which becomes the list shown).
    fn with_fresh_list(
        &self,
        req: &Request,
        game: GameId,
        state: &GameState,
        seat: usize,
        key: &str,
    ) -> Result<Vec<Reply>, String> {
        let refusal = self.texts.t(key);
        match self.prompt(game, state, seat, req.user.id, 0) {
            Some(mut p) => {
                p.text = format!("{refusal}\n{}", p.text);
                Ok(vec![p])
            }
            None => Err(format!(
                "{refusal} {}",
                self.texts.t("error.nothing_to_decide")
            )),
        }
    }
}
