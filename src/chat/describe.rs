//! Words for what the players see: choice labels, the pending question, a hand, the status and
//! the scores. Sentences come from the message catalog; names and numbers from the data.

use super::Chat;
use crate::data::numbering;
use crate::data::{CardId, Company};
use crate::engine::state::{GameState, PlanRef, SlotCard};
use crate::engine::view::SeatView;
use crate::engine::{self, ActionSource, BonusRef, Decision, Phase, Task};

impl Chat {
    /// A card's label in the language of the reply being written.
    pub(crate) fn card_name(&self, card: CardId) -> String {
        self.texts.resolve(&self.data.card_label(card))
    }

    fn company(&self, c: Company) -> String {
        self.data.company_name(c).to_string()
    }

    fn source_name(&self, state: &GameState, seat: usize, source: ActionSource) -> String {
        match source {
            ActionSource::Slot(i) => match state.seats[seat].slots[i as usize] {
                Some(c) => self.texts.f(
                    "label.slot_card",
                    &[
                        ("slot", &numbering::slot(usize::from(i))),
                        ("card", &self.card_name(c.card())),
                    ],
                ),
                None => self
                    .texts
                    .f("label.slot", &[("slot", &numbering::slot(usize::from(i)))]),
            },
            ActionSource::Tile => self.texts.t("label.tile"),
            ActionSource::Discarded(c) => self.card_name(c),
        }
    }

    pub(crate) fn bonus_space_name(&self, space: BonusRef) -> String {
        match space {
            BonusRef::Board(i) => self.texts.resolve(&self.data.bonus_space_name(i as usize)),
            // By what it says (its data id is no name players use).
            BonusRef::Track(i) => self
                .data
                .tracks
                .bonuses
                .get(i as usize)
                .map(|b| {
                    let text = self.texts.resolve(&b.display_text());
                    self.texts.f("label.track_bonus_space", &[("text", &text)])
                })
                .unwrap_or_default(),
            BonusRef::Personal => self.texts.t("label.personal_space"),
        }
    }

    /// A button label for a decision.
    pub(crate) fn label(&self, state: &GameState, seat: usize, d: Decision) -> String {
        let t = &self.texts;
        let data = &self.data;
        match d {
            Decision::KeepToken { token } => t.f(
                "label.keep_token",
                &[("token", &data.token_label(token as usize))],
            ),
            Decision::RestStartingCard { card, slot } => t.f(
                "label.rest_card",
                &[
                    ("card", &self.card_name(card)),
                    ("slot", &numbering::slot(usize::from(slot))),
                ],
            ),
            Decision::PlanCard { card, slot } => t.f(
                "label.plan_card",
                &[
                    ("card", &self.card_name(card)),
                    ("slot", &numbering::slot(usize::from(slot))),
                ],
            ),
            Decision::PlanClear => t.t("label.plan_clear"),
            Decision::PlanDone => t.t("label.plan_done"),
            Decision::PlaceTile { card } => {
                t.f("label.place_tile", &[("card", &self.card_name(card))])
            }
            Decision::UseResources { resource: Some(r) } => {
                t.f("label.use_resources", &[("type", &r.name())])
            }
            Decision::UseResources { resource: None } => t.t("label.use_resources_mixed"),
            Decision::UseEnergy => {
                let e = engine::energy_total(data, state, seat);
                t.f("label.use_energy", &[("energy", &e)])
            }
            Decision::UseResearch { source } => t.f(
                "label.use_research",
                &[("source", &self.source_name(state, seat, source))],
            ),
            Decision::UseField { source } => t.f(
                "label.use_field",
                &[("source", &self.source_name(state, seat, source))],
            ),
            Decision::PlaceBonus { space } => t.f(
                "label.place_bonus",
                &[("space", &self.bonus_space_name(space))],
            ),
            Decision::DropOut => t.t("label.drop_out"),
            Decision::SelectCard { card } => {
                t.f("label.select_card", &[("card", &self.card_name(card))])
            }
            Decision::FinishSelecting => t.t("label.finish_selecting"),
            Decision::BuyCard { space } => {
                let card = state.display[space as usize - 1];
                // The price after discounts, as the engine's preview computes it.
                let cost = engine::preview(data, state, seat, d)
                    .ok()
                    .and_then(|p| p.costs.first().map(|c| c.amount))
                    .unwrap_or(0);
                t.f(
                    "label.buy_card",
                    &[
                        ("space", &space),
                        ("card", &card.map(|c| self.card_name(c)).unwrap_or_default()),
                        ("cost", &cost),
                    ],
                )
            }
            Decision::NoBuy => t.t("label.no_buy"),
            Decision::TrackStep { company } => {
                t.f("label.track_step", &[("company", &self.company(company))])
            }
            Decision::StopTracks => t.t("label.stop_tracks"),
            Decision::ChooseCompany { company } => {
                t.f("label.company", &[("company", &self.company(company))])
            }
            Decision::EnterSector { sector, column } => t.f(
                "label.enter_sector",
                &[
                    ("sector", &sector),
                    ("column", &numbering::ordinal(usize::from(column))),
                ],
            ),
            Decision::StopExpanding => t.t("label.stop_expanding"),
            Decision::FlipPlan { screen } => t.f(
                "label.flip_plan",
                &[("screen", &numbering::screen(usize::from(screen)))],
            ),
            Decision::SkipFlip => t.t("label.skip_flip"),
            Decision::Advance => t.t("label.advance"),
            Decision::StopAdvancing => t.t("label.stop_advancing"),
            Decision::TakePlan { space } => {
                let plan = state.research_display[space as usize];
                let id = plan
                    .map(|p| self.plan_text(PlanRef::Regular(p), None))
                    .unwrap_or_default();
                t.f("label.take_plan", &[("plan", &id)])
            }
            Decision::TakeSpecial { index } => t.f(
                "label.take_special",
                &[("plan", &self.plan_text(PlanRef::Special(index), None))],
            ),
            Decision::TakeCoin => t.t("label.take_coin"),
            Decision::PlacePlan { index, screen } => {
                let plan = state.seats[seat]
                    .acquired
                    .get(index as usize)
                    .map(|p| self.plan_text(*p, state.seats[seat].token))
                    .unwrap_or_default();
                t.f(
                    "label.place_plan",
                    &[
                        ("plan", &plan),
                        ("screen", &numbering::screen(usize::from(screen))),
                    ],
                )
            }
            Decision::ChooseTier { tier } => t.f(
                "label.tier",
                &[("tier", &numbering::ordinal(usize::from(tier)))],
            ),
            Decision::ChooseOption { option } => t.f("label.option", &[("option", &(option + 1))]),
            Decision::DiscardCard { card } => {
                t.f("label.discard", &[("card", &self.card_name(card))])
            }
            Decision::TakeFromDiscard { card } => {
                t.f("label.take_discard", &[("card", &self.card_name(card))])
            }
            Decision::PayBarrier => t.t("label.pay_barrier"),
            Decision::DeclineBarrier => t.t("label.decline_barrier"),
            Decision::RemoveOutpost { company, column } => t.f(
                "label.remove_outpost",
                &[
                    ("company", &self.company(company)),
                    ("column", &numbering::ordinal(usize::from(column))),
                ],
            ),
            Decision::ReturnOutpost { column } => t.f(
                "label.return_outpost",
                &[("column", &numbering::ordinal(usize::from(column)))],
            ),
            Decision::TakeRestingDeck { slot } => {
                let n = state.seats[seat].resting[slot as usize].len();
                t.f(
                    "label.take_deck",
                    &[("slot", &numbering::slot(usize::from(slot))), ("count", &n)],
                )
            }
            Decision::RestCard { card, slot } => t.f(
                "label.rest_card",
                &[
                    ("card", &self.card_name(card)),
                    ("slot", &numbering::slot(usize::from(slot))),
                ],
            ),
            Decision::ClaimTask { card, column } => t.f(
                "label.claim_task",
                &[("task", &self.mission_task_text(state, card, column))],
            ),
            Decision::EndClaims => t.t("label.end_claims"),
            Decision::EnterBelt {
                target,
                space,
                column,
            } => {
                // The Belt space's kind and number; the station column only when taking the
                // piece from the other column would change the share value.
                if crate::engine::belt::is_shuttle_space(data, target) {
                    return t.f("label.belt_shuttle", &[("target", &target)]);
                }
                let label = t.f(
                    "label.belt_outpost",
                    &[("target", &target), ("space", &(space + 1))],
                );
                if super::prompt::belt_column_matters(data, state, seat) {
                    let column = t.f(
                        "label.belt_column",
                        &[("column", &numbering::ordinal(usize::from(column)))],
                    );
                    format!("{label}{column}")
                } else {
                    label
                }
            }
            Decision::DealWithThreat => match engine::threats::card(data, state) {
                // The whole energy it takes (reach + requirement) and what else it costs (a
                // marker's value is a condition the offer already meets).
                Some(card) => {
                    use crate::data::threats::ThreatRequirement as R;
                    let others: String = card
                        .requirement_parts(|r| {
                            matches!(r, R::PayCoins { .. } | R::DiscardEnergyCardsFromHand { .. })
                        })
                        .iter()
                        .map(|p| format!(", {}", t.resolve(p)))
                        .collect();
                    t.f(
                        "label.deal_with_threat",
                        &[
                            ("threat", &card.display_name()),
                            ("energy", &engine::threats::energy_needed(data, card)),
                            ("others", &others),
                        ],
                    )
                }
                None => t.t("label.deal_with_threat_none"),
            },
            Decision::ExpandInto { sector } => t.f("label.expand_into", &[("sector", &sector)]),
            Decision::OutpostColumn { column } => {
                t.f("label.outpost_column", &[("column", &(column + 1))])
            }
            Decision::PlaceOneTimeBonus { space } => t.f(
                "label.place_one_time_bonus",
                &[("space", &self.bonus_space_name(space))],
            ),
        }
    }

    /// A mission task in words, as it reads on this game's board side.
    fn mission_task_text(&self, state: &GameState, card: u8, column: u8) -> String {
        let task = self
            .data
            .missions
            .card(card as u32)
            .and_then(|c| c.tasks.iter().find(|t| t.column == column as usize));
        let Some(task) = task else {
            return format!("{card}/{column}");
        };
        let side = match state.options.board {
            crate::engine::BoardSide::Moon => crate::data::common::BoardSide::Moon,
            crate::engine::BoardSide::Belt => crate::data::common::BoardSide::Belt,
        };
        self.texts.resolve(&task.display_text(card as u32, side))
    }

    /// A research plan in words: requirements → reward, as printed. `token` is the starting
    /// research token of the seat whose track holds the plan (its plan is printed on it).
    pub(crate) fn plan_text(&self, plan: PlanRef, token: Option<usize>) -> String {
        let data = &self.data;
        let list = |names: Vec<String>| names.join(" + ");
        // (requirements, rewards) in words.
        let printed = |requirements: &[crate::data::Requirement],
                       reward: &[crate::data::Reward]| {
            (
                list(
                    requirements
                        .iter()
                        .map(|r| data.requirement_name(r))
                        .collect(),
                ),
                list(reward.iter().map(|r| data.reward_name(r)).collect()),
            )
        };
        match plan {
            PlanRef::Regular(p) => {
                let p = &data.research.plans[p as usize];
                let (requirements, rewards) = printed(&p.requirements, &p.reward);
                self.texts.f(
                    "label.plan_text",
                    &[("requirements", &requirements), ("rewards", &rewards)],
                )
            }
            PlanRef::Special(i) => {
                let s = &data.research.special_plans[i as usize];
                self.texts.f(
                    "label.special_plan_text",
                    &[
                        ("round", &s.round),
                        ("cost", &s.coin_cost),
                        ("value", &s.value),
                    ],
                )
            }
            PlanRef::Token => match token.and_then(|t| data.research.starting_tokens.get(t)) {
                Some(tok) => {
                    let (requirements, rewards) = printed(&tok.plan_requirements, &tok.plan_reward);
                    self.texts.f(
                        "label.token_plan_text",
                        &[("requirements", &requirements), ("rewards", &rewards)],
                    )
                }
                None => self.texts.t("label.token_plan"),
            },
        }
    }

    /// A plan lying on a research track: its printed face, or, flipped, that it lies face down
    /// and asks and gives nothing.
    pub(crate) fn placed_plan_text(
        &self,
        plan: PlanRef,
        face_down: bool,
        token: Option<usize>,
    ) -> String {
        let printed = self.plan_text(plan, token);
        if face_down {
            self.texts.f("label.flipped_plan", &[("plan", &printed)])
        } else {
            printed
        }
    }

    /// The pending question for a seat, in words.
    pub(crate) fn question(&self, state: &GameState, seat: usize) -> String {
        let t = &self.texts;
        match state.phase {
            Phase::Setup => {
                if state.seats[seat].token.is_none() {
                    t.t("ask.token")
                } else {
                    t.t("ask.rest_starting")
                }
            }
            Phase::Planning => {
                let s = &state.seats[seat];
                let planned: Vec<String> = s
                    .slots
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| {
                        c.map(|c| format!("{}: {}", i + 1, self.card_name(c.card())))
                    })
                    .collect();
                t.f(
                    "ask.plan",
                    &[
                        (
                            "planned",
                            &if planned.is_empty() {
                                t.t("word.nothing")
                            } else {
                                planned.join(", ")
                            },
                        ),
                        // The button's own words, so the text names what the reader sees.
                        ("done", &t.t("label.plan_done")),
                    ],
                )
            }
            Phase::Action => match state.agenda.last() {
                Some(Task::ChooseAction { .. }) => t.t("ask.action"),
                Some(Task::SelectResources { chosen, .. }) => {
                    let units: u32 = chosen.iter().map(|c| self.data.card(*c).value).sum();
                    t.f("ask.select_resources", &[("units", &units)])
                }
                Some(Task::BuyWithUnits { units, .. }) => {
                    t.f("ask.buy_with_units", &[("units", units)])
                }
                Some(Task::SpendUnits { units, .. }) => t.f("ask.spend_units", &[("units", units)]),
                Some(Task::Expand {
                    energy, company, ..
                }) => t.f(
                    if state.belt.is_some() {
                        "ask.expand_belt"
                    } else {
                        "ask.expand"
                    },
                    &[("energy", energy), ("company", &self.company(*company))],
                ),
                // The points of this source now; another source's (a plan's reward before the
                // card's) come after them and are used on their own: a 2-RP plan needs 2 from
                // one source, so the list may lack the C plans until then.
                Some(Task::SpendResearch { points, .. }) => {
                    let all = engine::preview::research_points_to_use(state, seat);
                    let later = all.saturating_sub(*points);
                    match later {
                        0 => t.f("ask.research_points", &[("points", points)]),
                        _ => t.f(
                            "ask.research_points_then",
                            &[("points", points), ("later", &later)],
                        ),
                    }
                }
                Some(Task::TrackMove { company, steps, .. }) => t.f(
                    "ask.barrier",
                    &[("company", &self.company(*company)), ("steps", steps)],
                ),
                Some(task) => t.f(
                    "ask.generic",
                    &[("what", &t.t(engine::task_description(task)))],
                ),
                None => t.t("ask.nothing"),
            },
            Phase::Finished => t.t("ask.nothing"),
        }
    }

    /// The seat's private summary: hand, action area, resting decks, tokens.
    pub(crate) fn hand_text(&self, state: &GameState, seat: usize) -> String {
        let t = &self.texts;
        let s = &state.seats[seat];
        let hand: Vec<String> = s.hand.iter().map(|c| self.card_name(*c)).collect();
        let area: Vec<String> = s
            .slots
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let what = match c {
                    None if s.slot_on[i] => t.t("word.empty"),
                    None => t.t("word.off"),
                    Some(SlotCard::Planned(c)) => {
                        format!("{} ({})", self.card_name(*c), t.t("word.face_down"))
                    }
                    Some(SlotCard::Up(c)) => self.card_name(*c),
                    Some(SlotCard::Used(c)) => {
                        format!("{} ({})", self.card_name(*c), t.t("word.used"))
                    }
                };
                format!("{}: {what}", i + 1)
            })
            .collect();
        let resting: Vec<String> = s
            .resting
            .iter()
            .enumerate()
            .map(|(i, d)| {
                format!(
                    "{}: {}",
                    i + 1,
                    if d.is_empty() {
                        "-".to_string()
                    } else {
                        d.iter()
                            .map(|c| self.card_name(*c))
                            .collect::<Vec<_>>()
                            .join(" / ")
                    }
                )
            })
            .collect();
        let tokens: Vec<String> = s
            .token_choices
            .iter()
            .map(|tk| self.label(state, seat, Decision::KeepToken { token: *tk as u8 }))
            .collect();
        let mut out = t.f(
            "hand.summary",
            &[
                (
                    "hand",
                    &if hand.is_empty() {
                        "-".to_string()
                    } else {
                        hand.join(", ")
                    },
                ),
                ("area", &area.join(" | ")),
                ("resting", &resting.join(" | ")),
                ("coins", &s.coins),
                ("markers", &s.markers_reserve),
            ],
        );
        if !tokens.is_empty() {
            out.push('\n');
            out.push_str(&t.f("hand.tokens", &[("tokens", &tokens.join("; "))]));
        }
        out
    }

    /// A phase's name.
    pub(crate) fn phase_name(&self, phase: &Phase) -> String {
        match phase {
            Phase::Setup => self.texts.t("phase.setup"),
            Phase::Planning => self.texts.t("phase.planning"),
            Phase::Action => self.texts.t("phase.action"),
            Phase::Finished => self.texts.t("phase.finished"),
        }
    }

    /// The public status: round, phase, whom the game waits on (spectator view only).
    pub(crate) fn status_text(&self, view: &SeatView, seeded: bool) -> String {
        let t = &self.texts;
        let waiting: Vec<String> = view
            .waiting_on
            .iter()
            .map(|s| view.seats[*s].name.clone())
            .collect();
        let phase = self.phase_name(&view.phase);
        // A game that waits on nobody (it is over) says so by not naming anyone.
        let key = if waiting.is_empty() {
            "status.line_idle"
        } else {
            "status.line"
        };
        let mut out = t.f(
            key,
            &[
                ("round", &view.round),
                ("phase", &phase),
                ("waiting", &waiting.join(", ")),
            ],
        );
        for (i, s) in view.seats.iter().enumerate() {
            out.push('\n');
            // Without a mark the template's last space would trail the line.
            out.push_str(
                t.f(
                    "status.seat",
                    &[
                        ("symbol", &seat_symbol(s.colour)),
                        ("name", &s.name),
                        ("coins", &s.coins),
                        ("tank", &s.tank),
                        ("cards", &self.seat_cards(view, s)),
                        (
                            "mark",
                            &if view.first_player == i {
                                t.t("word.first_player")
                            } else {
                                String::new()
                            },
                        ),
                    ],
                )
                .trim_end(),
            );
        }
        if seeded {
            out.push('\n');
            out.push_str(&t.t("status.seeded"));
        }
        out
    }

    /// What a seat has in its action area now, as the status line says it: during planning the
    /// cards planned face down (or that it is still planning), in the Action phase the cards
    /// still to use and those used (Luna's face-down cards still to play), or that it dropped
    /// out; nothing before the first round or after the game.
    fn seat_cards(&self, view: &SeatView, s: &crate::engine::view::PublicSeat) -> String {
        use crate::engine::view::SlotView;
        let t = &self.texts;
        let count = |f: fn(&SlotView) -> bool| s.slots.iter().filter(|x| f(x)).count();
        match (view.phase, &s.luna) {
            (Phase::Planning, Some(_)) => t.t("status.cards_luna_planning"),
            (Phase::Planning, None) if s.planned => t.f(
                "status.cards_planned",
                &[(
                    "n",
                    &count(|x| matches!(x, SlotView::Hidden | SlotView::OwnPlanned(_))),
                )],
            ),
            (Phase::Planning, None) => t.t("status.cards_planning"),
            (Phase::Action, _) if s.dropped_out => t.t("status.cards_dropped_out"),
            (Phase::Action, Some(l)) => t.f(
                "status.cards_luna",
                &[
                    ("ready", &l.face_down.iter().filter(|d| **d).count()),
                    ("played", &l.slots.iter().flatten().count()),
                ],
            ),
            (Phase::Action, None) => t.f(
                "status.cards_action",
                &[
                    ("ready", &count(|x| matches!(x, SlotView::Up(_)))),
                    ("used", &count(|x| matches!(x, SlotView::Used(_)))),
                ],
            ),
            _ => String::new(),
        }
    }

    /// A threat still on the board at Final scoring: its consequence, and for the Rogue comet
    /// the station(s) it hit with their share value before and as scored.
    fn threat_at_scoring(&self, state: &GameState) -> Vec<String> {
        let t = &self.texts;
        let data = &self.data;
        let Some(card) = engine::threats::card(data, state)
            .filter(|_| engine::threats::final_consequence(data, state).is_some())
        else {
            return Vec::new();
        };
        let mut out = vec![t.f(
            "scores.threat_applied",
            &[
                ("threat", &card.display_name()),
                ("consequence", &card.consequence_words()),
            ],
        )];
        for d in engine::score::devalued_stations(data, state) {
            out.push(t.f(
                "scores.devalued",
                &[
                    ("company", &self.company(d.company)),
                    ("value", &d.value),
                    ("scored", &d.scored),
                ],
            ));
        }
        out
    }

    pub(crate) fn scores_text(&self, state: &GameState) -> String {
        let t = &self.texts;
        let mut lines = Vec::new();
        let title = if state.phase == Phase::Finished {
            "scores.final"
        } else {
            "scores.provisional"
        };
        lines.push(t.t(title));
        let mut winners = Vec::new();
        let mut modules = self.threat_at_scoring(state);
        for s in engine::final_scores(&self.data, state) {
            if let Some(company) = s.wild_share {
                modules.push(t.f(
                    "scores.wild_share",
                    &[("name", &s.name), ("company", &self.company(company))],
                ));
            }
            let companies: Vec<String> = s
                .companies
                .iter()
                .map(|c| {
                    format!(
                        "{} {}×{}={}",
                        self.company(c.company),
                        c.shares,
                        c.share_value,
                        c.points
                    )
                })
                .collect();
            lines.push(t.f(
                "scores.line",
                &[
                    ("name", &s.name),
                    ("total", &s.total),
                    ("cash", &s.cash),
                    ("companies", &companies.join(", ")),
                    ("tank", &s.tank),
                    ("research", &s.research),
                    ("winner", &if s.winner { " 🏆" } else { "" }),
                ],
            ));
            if s.winner {
                winners.push(s.name.clone());
            }
        }
        lines.extend(modules);
        if state.phase == Phase::Finished && !winners.is_empty() {
            let key = if winners.len() == 1 {
                "scores.winner"
            } else {
                "scores.winners"
            };
            lines.push(t.f(key, &[("names", &winners.join(", "))]));
        }
        lines.join("\n")
    }
}

/// The player symbol of a colour: ♦ ★ ▲ ○ (Luna's seat takes the next one).
pub(crate) fn seat_symbol(colour: usize) -> &'static str {
    ["♦", "★", "▲", "○", "☾"]
        .get(colour)
        .copied()
        .unwrap_or("☾")
}
