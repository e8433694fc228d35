//! The private prompt: a seat's pending question as one message of options, in the reader's
//! language. The options are the gathered offers of [`super::offers`] (one click plays an
//! offer's decisions as one batch), numbered for `/choose N` and remembered as the list shown
//! (DECISIONS B19), paged at 20 (B3) except where they are select menus (planning's cards,
//! where a seat dropping out rests its cards); an offer's label and preview, the buttons that
//! place another acquired research plan first, and the clicks on gathered offers.

use super::offers::{offers, other_plans, Offer};
use super::prompt::{ClickId, PAGE};
use super::{Chat, Choice, Menu, Reply, Request};
use crate::data::numbering;
use crate::engine::state::{GameState, Phase, PlanRef};
use crate::engine::{self, Decision};
use crate::store::GameId;

impl Chat {
    /// The private prompt of a seat: the question and its choices, one page, in the user's
    /// language.
    pub(crate) fn prompt(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
        user: u64,
        page: usize,
    ) -> Option<Reply> {
        self.prompt_at(game, state, seat, user, page, 0)
    }

    /// [`Chat::prompt`] with acquired research plan `focus` the one being placed.
    pub(crate) fn prompt_at(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
        user: u64,
        page: usize,
        focus: usize,
    ) -> Option<Reply> {
        self.speaking(self.reader_texts(user, Some(game)), || {
            self.prompt_in_language(game, state, seat, user, page, focus)
        })
    }

    fn prompt_in_language(
        &self,
        game: GameId,
        state: &GameState,
        seat: usize,
        user: u64,
        page: usize,
        focus: usize,
    ) -> Option<Reply> {
        if !engine::waiting_on(state).contains(&seat) && state.phase != Phase::Planning {
            return None;
        }
        let offered = offers(&self.data, state, seat, focus);
        if offered.is_empty() {
            return None;
        }
        let version = self.logged(
            "cannot read a game's log marks: no prompt",
            self.click_version_in(game, state, seat),
        )?;
        // Planning fits on one page: its cards are select menus (see `choice_menu`), as are
        // where a seat dropping out rests its cards (at most 25 options).
        let in_menus = offered
            .iter()
            .all(|o| matches!(o.as_slice(), [d] if self.choice_menu(state, seat, *d).is_some()));
        let per_page = if state.phase == Phase::Planning || in_menus {
            offered.len().max(1)
        } else {
            PAGE
        };
        let pages = offered.len().div_ceil(per_page);
        let page = page.min(pages.saturating_sub(1));
        let mut choices: Vec<Choice> = offered
            .iter()
            .enumerate()
            .skip(page * per_page)
            .take(per_page)
            .map(|(i, o)| self.offer_choice(game, version, state, seat, o, i + 1))
            .collect();
        let count = offered.len();
        let focus_plans = other_plans(state, seat, focus);
        let shown = super::choosing::Shown {
            version,
            options: offered,
            focus: focus_plans,
        };
        self.remember_shown_list(user, game, shown);
        if pages > 1 {
            choices.push(Choice::new(
                ClickId::Page {
                    game,
                    version,
                    page: (page + 1) % pages,
                }
                .encode(),
                self.texts.f(
                    "button.more",
                    &[("page", &((page + 1) % pages + 1)), ("pages", &pages)],
                ),
            ));
        }
        choices.extend(self.focus_choices(game, version, state, seat, focus, count));
        let mut text = self.question(state, seat);
        if state.phase == Phase::Planning || state.phase == Phase::Setup {
            text = format!("{}\n{}", self.hand_text(state, seat), text);
        }
        Some(Reply::private(user, text).with_choices(choices))
    }

    /// The select menu an option belongs to. Planning: without linked slots the slot does not
    /// matter, so the hand is one menu of up to as many cards as there are open slots; with
    /// linked slots each open slot has its own menu of one card. Dropping out: where each card
    /// rests is one menu of card and slot pairs (at most 5 × 5), one pick per card. Other
    /// options are buttons.
    pub(crate) fn choice_menu(&self, state: &GameState, seat: usize, d: Decision) -> Option<Menu> {
        let s = &state.seats[seat];
        match d {
            Decision::PlanCard { slot, .. } if state.options.linked_slots => Some(Menu {
                placeholder: self.texts.f("menu.plan_slot", &[("slot", &(slot + 1))]),
                max_values: 1,
            }),
            Decision::PlanCard { .. } => {
                let open = (0..s.slots.len())
                    .filter(|&i| s.slot_on[i] && s.slots[i].is_none())
                    .count();
                Some(Menu {
                    placeholder: self.texts.f("menu.plan_cards", &[("open", &open)]),
                    max_values: open.clamp(1, 25) as u8,
                })
            }
            Decision::RestCard { .. } => {
                let cards = s.slots.iter().flatten().count();
                Some(Menu {
                    placeholder: self.texts.f("menu.rest_cards", &[("cards", &cards)]),
                    max_values: cards.clamp(1, 25) as u8,
                })
            }
            _ => None,
        }
    }

    /// Option `number` (1-based) of an option list: a single decision is the engine's own
    /// option (see [`Chat::decision_choice`]); several are one option named for what they do
    /// together, previewed as a whole.
    pub(crate) fn offer_choice(
        &self,
        game: GameId,
        version: u64,
        state: &GameState,
        seat: usize,
        offer: &[Decision],
        number: usize,
    ) -> Choice {
        let (Some(&last), true) = (offer.last(), offer.len() > 1) else {
            let d = offer.first().copied().unwrap_or(Decision::PlanDone);
            return self.decision_choice(game, version, state, seat, d, number);
        };
        let preview = engine::preview_batch(&self.data, state, seat, offer).ok();
        let mut choice = Choice::new(
            ClickId::Offer {
                game,
                version,
                number,
                first: offer[0],
            }
            .encode(),
            self.offer_label(state, seat, offer),
        );
        // Dropping out is described by what it gives up; the rest by the last step.
        let told = if offer[0] == Decision::DropOut {
            offer[0]
        } else {
            last
        };
        if let Some(p) = &preview {
            choice.description = self.description(state, seat, told, p);
        }
        choice.preview = preview;
        choice.number = Some(number);
        choice
    }

    /// What an option does, in a few words: a single decision's label, or what several do
    /// together.
    pub(crate) fn offer_label(&self, state: &GameState, seat: usize, offer: &[Decision]) -> String {
        let t = &self.texts;
        let data = &self.data;
        let (Some(&first), true) = (offer.first(), offer.len() > 1) else {
            return offer
                .first()
                .map(|d| self.label(state, seat, *d))
                .unwrap_or_default();
        };
        let advances = offer.iter().filter(|d| **d == Decision::Advance).count();
        match (first, offer.get(1).copied()) {
            (Decision::UseResources { .. }, _) => {
                let cards: Vec<String> = offer
                    .iter()
                    .filter_map(|d| match d {
                        Decision::SelectCard { card } => Some(self.card_name(*card)),
                        _ => None,
                    })
                    .collect();
                let units = engine::preview_batch(data, state, seat, offer)
                    .ok()
                    .and_then(|p| p.units)
                    .unwrap_or(0);
                t.f(
                    "label.use_cards",
                    &[("cards", &cards.join(" + ")), ("units", &units)],
                )
            }
            (Decision::UseEnergy, Some(Decision::ChooseCompany { company })) => t.f(
                "label.expand_company",
                &[
                    ("company", &data.company_name(company)),
                    ("energy", &engine::energy_total(data, state, seat)),
                ],
            ),
            (Decision::NoBuy, Some(Decision::TrackStep { company })) => t.f(
                "label.no_buy_track",
                &[
                    ("company", &data.company_name(company)),
                    ("n", &(offer.len() - 1)),
                ],
            ),
            (Decision::TakeCoin, _) => t.f("label.take_coins", &[("n", &offer.len())]),
            (Decision::ExpandInto { sector }, Some(Decision::OutpostColumn { column })) => t.f(
                "label.enter_sector",
                &[
                    ("sector", &sector),
                    ("column", &numbering::ordinal(usize::from(column))),
                ],
            ),
            (Decision::PlaceBonus { .. }, Some(Decision::ChooseTier { tier })) => format!(
                "{} — {}",
                self.label(state, seat, first),
                t.f(
                    "label.tier",
                    &[("tier", &numbering::ordinal(usize::from(tier)))]
                )
            ),
            (Decision::DropOut, Some(Decision::TakeRestingDeck { slot })) => t.f(
                "label.drop_out_deck",
                &[
                    ("slot", &numbering::slot(usize::from(slot))),
                    ("count", &state.seats[seat].resting[slot as usize].len()),
                ],
            ),
            (Decision::TrackStep { company }, _) => t.f(
                "label.track_steps",
                &[
                    ("company", &data.company_name(company)),
                    ("n", &offer.len()),
                ],
            ),
            (Decision::SkipFlip, _) if advances == 0 => t.t("label.skip_flip_stay"),
            (Decision::SkipFlip, _) | (Decision::Advance, _) => {
                let key = if first == Decision::SkipFlip {
                    "label.skip_flip_advance_to"
                } else {
                    "label.advance_to"
                };
                let s = &state.seats[seat];
                let screen = s.upload.map_or(advances - 1, |u| usize::from(u) + advances);
                // The plan as it lies: a flipped one asks and gives nothing.
                let plan = s
                    .research
                    .get(screen)
                    .copied()
                    .flatten()
                    .map(|placed| self.placed_plan_text(placed.plan, placed.face_down, s.token))
                    .unwrap_or_default();
                t.f(
                    key,
                    &[("screen", &numbering::screen(screen)), ("plan", &plan)],
                )
            }
            _ => offer
                .iter()
                .map(|d| self.label(state, seat, *d))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The buttons of the plan placement prompt that place another acquired plan first,
    /// numbered for `/choose` after the prompt's `options` options (as the list shown keeps
    /// them).
    pub(crate) fn focus_choices(
        &self,
        game: GameId,
        version: u64,
        state: &GameState,
        seat: usize,
        focus: usize,
        options: usize,
    ) -> Vec<Choice> {
        let s = &state.seats[seat];
        other_plans(state, seat, focus)
            .into_iter()
            .enumerate()
            .filter_map(|(k, plan)| {
                let placed: PlanRef = *s.acquired.get(plan)?;
                let mut choice = Choice::new(
                    ClickId::Focus {
                        game,
                        version,
                        plan,
                    }
                    .encode(),
                    self.texts.f(
                        "label.place_first",
                        &[("plan", &self.plan_text(placed, s.token))],
                    ),
                );
                choice.number = Some(options + k + 1);
                Some(choice)
            })
            .collect()
    }

    /// Option `number` of `user`'s list in `game` at `version`, while that is the version now.
    pub(crate) fn offer_at(
        &self,
        user: u64,
        game: GameId,
        version: u64,
        number: usize,
    ) -> Option<Offer> {
        let seat = self.seat_of(game, user).ok().flatten()?;
        let state = self.state(game).ok()?;
        if self.click_version(game, &state, seat).ok()? != version {
            return None;
        }
        number
            .checked_sub(1)
            .and_then(|i| offers(&self.data, &state, seat, 0).into_iter().nth(i))
    }

    /// A click on an option of several decisions: played together, while the list is current.
    pub(crate) fn offer_click(
        &self,
        req: &Request,
        game: GameId,
        version: u64,
        number: usize,
        first: Decision,
    ) -> Result<Vec<Reply>, String> {
        let seat = self
            .seat_of(game, req.user.id)?
            .ok_or_else(|| self.texts.t("error.not_a_player"))?;
        let offer = self
            .offer_at(req.user.id, game, version, number)
            .filter(|o| o.first() == Some(&first))
            .ok_or_else(|| self.texts.t("error.stale"))?;
        self.play(req, game, seat, &offer)
    }

    /// A click on "Place … first": the plan placement prompt for that plan.
    pub(crate) fn focus_click(
        &self,
        req: &Request,
        game: GameId,
        version: u64,
        plan: usize,
    ) -> Result<Vec<Reply>, String> {
        let (seat, state) = self.current_click(req, game, version)?;
        self.prompt_at(game, &state, seat, req.user.id, 0, plan)
            .map(|p| vec![p])
            .ok_or_else(|| self.texts.t("error.nothing_to_decide"))
    }
}
