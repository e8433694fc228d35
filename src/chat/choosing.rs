//! Choosing by number without mistakes: the numbered list of a game's private prompt is kept
//! per user and game with the version it was built at, in the store with the game (DECISIONS
//! B19), so `/choose N` picks exactly what that reader was shown, also after a restart, and a
//! number from an older list (or with no list shown) is refused with the fresh one. Each option also carries the notes a player needs before choosing: that it
//! cannot be undone (it reveals something or passes the turn) or that it wastes something (a
//! bonus space that gives nothing, DECISIONS A5; a flip of a screen already passed; covering a
//! plan).

use super::commands::Options;
use super::prompt::ClickId;
use super::{Chat, Choice, Reply, Request};
use crate::data::{Company, Reward};
use crate::engine::preview::{Currency, Preview};
use crate::engine::state::{GameState, PlanRef};
use crate::engine::{self, BonusRef, Decision, Task};
use crate::store::GameId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A list shown to a reader: its options (each the decisions one click plays) in the order
/// numbered, at a click version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Shown {
    pub version: u64,
    pub options: Vec<Vec<Decision>>,
    /// The acquired research plans whose "Place … first" buttons follow the options, numbered
    /// on after them.
    #[serde(default)]
    pub focus: Vec<usize>,
}

/// The last list shown to each (user, game) by this process: the store keeps the lists
/// (DECISIONS B19: a restart or another process must not forget them); this copy only spares
/// writing a list again that is already stored.
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

    fn forget_game(&self, game: GameId) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(_, g), _| *g != game);
    }
}

impl Chat {
    /// Remembers the list `user` is being shown in `game` (what `/choose N` refers to), in the
    /// store with the game. A list that cannot be stored is logged: `/choose` then refuses with
    /// the fresh list, as for a list never shown.
    pub(crate) fn remember_shown(
        &self,
        user: u64,
        game: GameId,
        version: u64,
        options: Vec<Vec<Decision>>,
    ) {
        self.remember_shown_list(
            user,
            game,
            Shown {
                version,
                options,
                focus: Vec::new(),
            },
        );
    }

    /// [`Chat::remember_shown`] for a list with its "Place … first" buttons.
    pub(crate) fn remember_shown_list(&self, user: u64, game: GameId, shown: Shown) {
        let version = shown.version;
        if self.shown.get(user, game).as_ref() == Some(&shown) {
            return;
        }
        let stored = serde_json::to_string(&shown)
            .map_err(|e| e.to_string())
            .and_then(|doc| {
                self.store
                    .people()
                    .save_shown_list(game, user, version, &doc)
                    .map_err(|e| e.to_string())
            });
        match stored {
            Ok(()) => self.shown.remember(user, game, shown),
            Err(e) => tracing::warn!(game, error = %e, "cannot store the list shown"),
        }
    }

    /// The list `user` was last shown in `game`, as stored (by this process or another, before
    /// a restart or after it).
    fn shown_list(&self, user: u64, game: GameId) -> Option<Shown> {
        let (version, doc) = match self.store.people().shown_list(game, user) {
            Ok(row) => row?,
            Err(e) => {
                tracing::warn!(game, error = %e, "cannot read the list shown");
                return self.shown.get(user, game);
            }
        };
        serde_json::from_str::<Shown>(&doc)
            .ok()
            .filter(|s| s.version == version)
    }

    /// Forgets the lists shown in a game that ended.
    pub(crate) fn forget_shown(&self, game: GameId) {
        self.shown.forget_game(game);
        if let Err(e) = self.store.people().clear_shown_lists(game) {
            tracing::warn!(game, error = %e, "cannot clear the lists shown");
        }
    }

    /// The option `number` (1-based) for `decision` of `seat` at `version`: its label, its
    /// preview (computed by the engine) and, in words, what it does and the notes on it.
    pub(crate) fn decision_choice(
        &self,
        game: GameId,
        version: u64,
        state: &GameState,
        seat: usize,
        decision: Decision,
        number: usize,
    ) -> Choice {
        let preview = engine::preview(&self.data, state, seat, decision).ok();
        let mut choice = Choice::new(
            ClickId::Decide {
                game,
                version,
                decision,
            }
            .encode(),
            self.label(state, seat, decision),
        );
        if let Some(p) = &preview {
            choice.description = self.description(state, seat, decision, p);
        }
        choice.preview = preview;
        choice.number = Some(number);
        choice.menu = self.choice_menu(state, seat, decision);
        choice
    }

    /// What an option whose (last) decision is `d` does, with preview `p`: its notes, its
    /// consequences, and that it cannot be undone.
    pub(crate) fn description(
        &self,
        state: &GameState,
        seat: usize,
        d: Decision,
        p: &Preview,
    ) -> String {
        let token = state.seats.get(seat).and_then(|s| s.token);
        let mut parts = self.option_notes(d, p, token);
        let consequences = self.consequences(d, p, token);
        if !consequences.is_empty() {
            // A track bonus's printed text may end the list with its own full stop.
            let list = consequences.join(", ");
            // After a note's full stop the list is a sentence of its own.
            parts.push(if parts.last().is_some_and(|n| n.ends_with('.')) {
                super::as_sentence(&list)
            } else if list.ends_with('.') {
                list
            } else {
                format!("{list}.")
            });
        }
        if p.irreversible {
            parts.push(self.texts.t("note.final"));
        }
        parts.join(" ")
    }

    /// What a player should know before choosing `d` beyond its consequences: whether it
    /// wastes something (DECISIONS A5), or covers a plan. `token`: the seat's starting research
    /// token (the plan printed on it).
    pub(crate) fn option_notes(
        &self,
        d: Decision,
        p: &Preview,
        token: Option<usize>,
    ) -> Vec<String> {
        let t = &self.texts;
        let mut notes = Vec::new();
        if p.gains_nothing {
            let majority = match d {
                Decision::PlaceBonus {
                    space: BonusRef::Board(i),
                }
                | Decision::PlaceOneTimeBonus {
                    space: BonusRef::Board(i),
                } => self.data.board.bonus_spaces.get(i as usize).and_then(|b| {
                    (b.kind == crate::data::board::BonusSpaceKind::Majority).then_some(b.compare)
                }),
                _ => None,
            };
            let warning = match (d, majority) {
                (_, Some(Some(crate::data::board::MajorityCompare::ResearchScientistCards))) => {
                    "note.no_research_scientist"
                }
                (_, Some(_)) => "note.no_tier",
                (Decision::FlipPlan { .. }, _) if p.marker_on_it => "note.flip_standing",
                (Decision::FlipPlan { .. }, _) => "note.flip_passed",
                _ => "note.gains_nothing",
            };
            notes.push(t.t(warning));
        }
        if let Some(plan) = p.covers {
            let plan = self.placed_plan_text(plan, p.plan_face_down, token);
            notes.push(t.f("note.covers", &[("plan", &plan)]));
        }
        notes
    }

    /// The preview's consequences in words, short (a select menu shows 100 characters).
    fn consequences(&self, d: Decision, p: &Preview, token: Option<usize>) -> Vec<String> {
        let t = &self.texts;
        let data = &self.data;
        let company = |c: Company| data.company_name(c).to_string();
        let rewards = |list: &[Reward]| {
            list.iter()
                .map(|r| self.texts.resolve(&data.reward_name(r)))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let mut out = Vec::new();
        match (d, p.plan) {
            // What a flip gives up and what it gives: the printed plan, then none of it.
            // A special plan flipped gives up its end-game value: said with its number.
            (Decision::FlipPlan { .. }, Some(PlanRef::Special(i))) => {
                let value = data
                    .research
                    .special_plans
                    .get(i as usize)
                    .map_or(0, |s| s.value);
                let plan = self.plan_text(PlanRef::Special(i), token);
                out.push(t.f("note.flip_special", &[("plan", &plan), ("value", &value)]))
            }
            (Decision::FlipPlan { .. }, Some(plan)) => {
                out.push(t.f("note.flip", &[("plan", &self.plan_text(plan, token))]))
            }
            (Decision::Advance, Some(plan)) => {
                out.push(self.placed_plan_text(plan, p.plan_face_down, token))
            }
            _ => {}
        }
        for c in &p.costs {
            let key = match c.currency {
                Currency::Coins => "note.cost_coins",
                Currency::Units => "note.cost_units",
                Currency::Energy => "note.cost_energy",
                Currency::ResearchPoints => "note.cost_points",
            };
            out.push(t.f(key, &[("amount", &c.amount), ("left", &c.left)]));
        }
        if let Some(units) = p.units {
            out.push(t.f("note.units", &[("units", &units)]));
        }
        let g = &p.gains;
        if g.coins > 0 {
            out.push(t.f("note.coins", &[("n", &g.coins)]));
        }
        if g.tank > 0 {
            out.push(t.f("note.tank", &[("n", &g.tank)]));
        }
        for (c, n) in &g.tracks {
            out.push(t.f("note.track", &[("company", &company(*c)), ("n", n)]));
        }
        for (c, n) in &g.shares {
            out.push(t.f(
                "note.shares",
                &[("company", &company(*c)), ("n", &signed(*n))],
            ));
        }
        if !g.cards.is_empty() {
            let cards: Vec<String> = g.cards.iter().map(|c| self.card_name(*c)).collect();
            out.push(t.f("note.cards", &[("cards", &cards.join(", "))]));
        }
        if g.research_points > 0 {
            out.push(t.f("note.research_points", &[("n", &g.research_points)]));
        }
        for b in &g.bonuses {
            if let Some(bonus) = data.tracks.bonuses.get(*b) {
                // The bonus's text is a sentence of its own; inside the list it loses its stop.
                let text = self.texts.resolve(&bonus.display_text());
                out.push(t.f("note.unlocks", &[("bonus", &text.trim_end_matches('.'))]));
            }
        }
        for tile in &g.tiles {
            out.push(t.f(
                "note.tile",
                &[("tile", &self.texts.resolve(&data.tile_name(tile.data_id())))],
            ));
        }
        if g.markers > 0 {
            // A claimed mission task brings a one-time bonus marker: named as such.
            let key = if matches!(d, Decision::ClaimTask { .. }) {
                "note.one_time_markers"
            } else {
                "note.markers"
            };
            out.push(t.f(key, &[("n", &signed(g.markers))]));
        }
        if g.first_player {
            out.push(t.t("note.first_player"));
        }
        for (c, n) in &g.outposts_removed {
            out.push(t.f("note.removed", &[("company", &company(*c)), ("n", n)]));
        }
        // After a money barrier's question, the rewards still to come follow it.
        let barrier_first = matches!(p.next, Some(Task::TrackMove { .. }));
        let then = (p.rewards_later && !p.rewards.is_empty())
            .then(|| t.f("note.then", &[("rewards", &rewards(&p.rewards))]));
        if !barrier_first {
            out.extend(then.clone());
        }
        out.extend(self.next_question(p.next.as_ref()));
        if barrier_first {
            out.extend(then);
        }
        if !p.tiers.is_empty() {
            let tiers: Vec<String> = p
                .tiers
                .iter()
                .map(|tier| format!("{}: {}", tier.tier + 1, rewards(&tier.rewards)))
                .collect();
            out.push(t.f("note.tiers", &[("tiers", &tiers.join("; "))]));
        }
        if let Some(c) = p.ousts {
            out.push(t.f("note.ousts", &[("company", &company(c))]));
        }
        let share_values = [p.share_value, p.ousted_share_value];
        for v in share_values
            .into_iter()
            .flatten()
            .filter(|v| v.before != v.after)
        {
            out.push(t.f(
                "note.share_value",
                &[
                    ("company", &company(v.company)),
                    ("before", &v.before),
                    ("after", &v.after),
                ],
            ));
        }
        if p.forfeits > 0 {
            // What is given up: the units left to spend, the steps past a barrier, energy, the
            // unused cards of a seat dropping out, the plans the upload marker could enter.
            let key = match d {
                Decision::StopExpanding => "note.forfeits_energy",
                Decision::DeclineBarrier => "note.forfeits_steps",
                Decision::DropOut => "note.forfeits_cards",
                Decision::StopAdvancing => "note.forfeits_advance",
                _ => "note.forfeits_units",
            };
            out.push(t.f(key, &[("n", &p.forfeits)]));
        }
        if p.forfeits_markers > 0 {
            out.push(t.f("note.forfeits_markers", &[("n", &p.forfeits_markers)]));
        }
        if d == Decision::DealWithThreat {
            out.push(t.t("note.wild_share"));
        }
        out
    }

    /// The question that follows, where it says what more the choice brings.
    fn next_question(&self, next: Option<&Task>) -> Option<String> {
        let t = &self.texts;
        let company = |c: &Company| self.data.company_name(*c).to_string();
        Some(match next? {
            Task::TrackOfChoice { steps, .. } => t.f("note.next_track_of_choice", &[("n", steps)]),
            Task::TrackMove {
                company: c, steps, ..
            } => t.f(
                "note.next_barrier",
                &[("company", &company(c)), ("n", steps)],
            ),
            Task::OtherTracks { steps, .. } => {
                let steps: Vec<String> = steps.iter().map(|n| format!("+{n}")).collect();
                t.f("note.next_other_tracks", &[("steps", &steps.join(", "))])
            }
            Task::BuyForCoins { .. } => t.t("note.next_buy"),
            Task::DiscardFromHand { .. } => t.t("note.next_discard"),
            Task::RemoveOutposts { n, .. } => t.f("note.next_remove", &[("n", n)]),
            _ => return None,
        })
    }

    /// `/choose option:N` (or `id:CUSTOM_ID`): option N of the list this user was last shown
    /// in this game, while it is current; otherwise the refusal with the fresh list.
    pub(crate) fn choose(&self, req: &Request, opts: &Options) -> Result<Vec<Reply>, String> {
        if let Some(id) = opts.get("id") {
            return self.click(req, id);
        }
        let (game, seat) = self.find_game(req, Some(opts))?;
        let seat = seat.ok_or_else(|| self.texts.t("error.not_a_player"))?;
        self.check_place(req, game)?;
        self.refuse_if_paused(game)?;
        let n: usize = opts
            .get("option")
            .and_then(|o| o.trim().trim_start_matches('#').parse().ok())
            .ok_or_else(|| self.texts.t("error.choose_number"))?;
        let state = self.state(game)?;
        let version = self.click_version(game, &state, seat)?;
        match self.shown_list(req.user.id, game) {
            Some(shown) if shown.version == version && shown.options.is_empty() => {
                Err(self.texts.t("error.nothing_open"))
            }
            Some(shown) if shown.version == version => {
                let i = n.checked_sub(1);
                // "Place … first" is numbered on after the options: its placement prompt.
                let focus = i
                    .and_then(|i| i.checked_sub(shown.options.len()))
                    .and_then(|k| shown.focus.get(k));
                if let Some(&plan) = focus {
                    return self
                        .prompt_at(game, &state, seat, req.user.id, 0, plan)
                        .map(|p| vec![p])
                        .ok_or_else(|| self.texts.t("error.nothing_to_decide"));
                }
                let option = i
                    .and_then(|i| shown.options.get(i))
                    .cloned()
                    .ok_or_else(|| {
                        self.texts.f(
                            "error.no_such_option",
                            &[
                                ("n", &n),
                                ("count", &(shown.options.len() + shown.focus.len())),
                            ],
                        )
                    })?;
                self.play(req, game, seat, &option)
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

/// A change with its sign ("+2", "-1").
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}
