//! Small read-only helpers for adapters (the Discord adapter, tests): the game a reply is about,
//! whether a reply refuses a stale click, and autocomplete suggestions for a command option
//! being typed. Suggestions are legal values only, computed from the live state in memory (a
//! turn command's earlier steps are tried on a scratch copy, as the typed command would be).

use super::commands::{parse_company, Options};
use super::prompt::ClickId;
use super::{Audience, Chat, Input, Reply, Request};
use crate::data::numbering;
use crate::engine::state::GameState;
use crate::engine::{self, ActionSource, BonusRef, Decision};
use crate::store::GameId;
use crate::text::Texts;

/// At most this many suggestions (Discord shows 25).
const MAX_SUGGESTIONS: usize = 25;

/// One autocomplete suggestion: what the user sees and the value the option receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub name: String,
    pub value: String,
}

impl ClickId {
    /// The game a click id names (lobby and campaign clicks name none).
    pub(crate) fn game(&self) -> Option<GameId> {
        match self {
            ClickId::Lobby(_) | ClickId::Level { .. } => None,
            ClickId::Open { game }
            | ClickId::Leave { game }
            | ClickId::Decide { game, .. }
            | ClickId::Page { game, .. }
            | ClickId::Offer { game, .. }
            | ClickId::Focus { game, .. } => Some(*game),
        }
    }
}

impl Reply {
    /// The game this reply is about when it says so: the status it replaces, or the game its
    /// buttons name. Public event lines say nothing; they belong with the rest of their batch.
    pub fn game(&self) -> Option<GameId> {
        self.about.or(self.status_of).or_else(|| {
            self.choices
                .iter()
                .find_map(|c| ClickId::parse(&c.custom_id).and_then(|id| id.game()))
        })
    }
}

/// The custom id of a button that opens the user's private prompt of `game` (what the Plan and
/// Your turn buttons of pings carry).
pub fn open_click_id(game: GameId) -> String {
    ClickId::Open { game }.encode()
}

/// The game a click id names, if any (for adapters that order work per game).
/// Several picks of one menu (space-separated) belong to the first one's game.
pub fn click_game(custom_id: &str) -> Option<GameId> {
    let first = custom_id.split_whitespace().next()?;
    ClickId::parse(first).and_then(|id| id.game())
}

impl Chat {
    /// What a click by `user` on `custom_id` asks of its game now, for adapters and tools
    /// that read prompts: the decisions it plays (a select menu's several picks,
    /// space-separated, in order), or none for a click that only shows something (another page
    /// of a list, the prompt itself) or that is out of date.
    pub fn click_decisions(&self, user: u64, custom_id: &str) -> Vec<Decision> {
        custom_id
            .split_whitespace()
            .flat_map(|id| match ClickId::parse(id) {
                Some(ClickId::Decide { decision, .. }) => vec![decision],
                Some(ClickId::Offer {
                    game,
                    version,
                    number,
                    first,
                }) => self
                    .offer_at(user, game, version, number)
                    .filter(|o| o.first() == Some(&first))
                    .unwrap_or_default(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// Whether `reply` is the refusal of an out-of-date button (the adapter then removes the
    /// buttons of the message that was clicked).
    pub fn is_stale_refusal(&self, reply: &Reply) -> bool {
        matches!(reply.audience, Audience::Private(_))
            && crate::text::language_codes()
                .any(|code| reply.text == crate::text::for_language(code).t("error.stale"))
    }

    /// Suggestions for `option` of the command in `req` (its other options as typed so far),
    /// matching `partial`. List options (`cards:a,b`) complete their last item.
    pub fn autocomplete(&self, req: &Request, option: &str, partial: &str) -> Vec<Suggestion> {
        let Input::Command { name, options } = &req.input else {
            return Vec::new();
        };
        let command = name.trim().trim_start_matches('/');
        let opts = Options::new(options);
        let list = matches!(
            (command, option),
            ("plan", "cards" | "slots")
                | ("resources", "cards" | "tracks")
                | ("energy", "sectors" | "columns")
                | ("token", "rest")
        );
        let (head, last) = if list {
            match partial.rfind([',', ' ']) {
                Some(i) => (&partial[..=i], &partial[i + 1..]),
                None => ("", partial),
            }
        } else {
            ("", partial)
        };
        let already: Vec<String> = head
            .split([',', ' '])
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect();
        // Suggestions are read by the one typing: their language.
        let raw = self.speaking(self.requester_texts(req), || {
            self.raw_suggestions(req, command, option, &opts)
        });
        let needle = last.trim().to_ascii_lowercase();
        raw.into_iter()
            .filter(|(_, v)| !list || !already.contains(&v.to_ascii_lowercase()))
            .filter(|(n, v)| {
                needle.is_empty()
                    || v.to_ascii_lowercase().contains(&needle)
                    || n.to_ascii_lowercase().contains(&needle)
            })
            .take(MAX_SUGGESTIONS)
            .map(|(n, v)| Suggestion {
                name: clip(&n, 100),
                value: clip(&format!("{head}{v}"), 100),
            })
            .collect()
    }

    /// (name, value) pairs before filtering (also the valid values a refusal lists).
    pub(super) fn raw_suggestions(
        &self,
        req: &Request,
        command: &str,
        option: &str,
        opts: &Options,
    ) -> Vec<(String, String)> {
        let words = |items: &[&str]| -> Vec<(String, String)> {
            items
                .iter()
                .map(|s| (s.to_string(), s.to_string()))
                .collect()
        };
        match (command, option) {
            (_, "game") => return self.games_of(req.user.id),
            ("skymines new", "board") => return words(&["moon", "belt"]),
            ("skymines new", "tracks") => return words(&["default", "random"]),
            ("skymines new", "tokens") => return words(&["fixed", "draft"]),
            ("skymines new", "bot_level") => return words(&super::lobby::level_names()),
            ("skymines new", "luna") => {
                return words(&["none", "0", "1", "2", "3", "4", "5", "6", "7", "8"])
            }
            ("skymines campaign new", "luna") => {
                return words(&["yes", "no", "0", "1", "2", "3", "4", "5", "6", "7", "8"])
            }
            ("skymines settings", "notify") => return words(&["ephemeral", "dm"]),
            ("skymines settings", "reminders") => return words(&["on", "off"]),
            ("skymines settings", "language" | "game_language") | ("skymines new", "language") => {
                return words(&crate::text::language_codes().collect::<Vec<_>>())
            }
            ("skymines log", "mode") => return words(&["since-my-turn"]),
            ("skymines help", "topic") => {
                return self
                    .texts
                    .keys()
                    .filter_map(|k| k.strip_prefix("help."))
                    .map(|t| (t.to_string(), t.to_string()))
                    .collect()
            }
            _ => {}
        }
        let Some((state, seat)) = self.my_seat(req, opts) else {
            return Vec::new();
        };
        let me = &state.seats[seat];
        // A card's value is the face word typed commands take (`carbon2`, `research`).
        let word_among = |among: &[crate::data::CardId], c: crate::data::CardId| {
            (
                self.card_name(c),
                super::commands::card_word(&self.data, among, c),
            )
        };
        let card = |c: crate::data::CardId| word_among(&me.hand, c);
        let up: Vec<crate::data::CardId> = me.up_cards().map(|(_, c)| c).collect();
        let numbers = |n: std::ops::RangeInclusive<usize>| -> Vec<(String, String)> {
            n.map(|i| (i.to_string(), i.to_string())).collect()
        };
        match (command, option) {
            ("plan", "cards") => me.hand.iter().map(|c| card(*c)).collect(),
            ("plan", "slots") => (0..5)
                .filter(|i| me.slot_on[*i] && me.slots[*i].is_none())
                .map(|i| (numbering::slot(i).to_string(), (i + 1).to_string()))
                .collect(),
            // By position (the tokens carry no printed name): `/token keep:1`.
            ("token", "keep") => me
                .token_choices
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let label = self.texts.resolve(&self.data.token_label(*t));
                    (label, (i + 1).to_string())
                })
                .collect(),
            ("token", "rest") => me
                .pending_rest
                .iter()
                .flat_map(|c| {
                    let (name, id) = word_among(&me.pending_rest, *c);
                    (1..=5).map(move |s| {
                        (
                            self.texts
                                .f("label.rest_card", &[("card", &name), ("slot", &s)]),
                            format!("{id}:{s}"),
                        )
                    })
                })
                .collect(),
            ("tile", "card") => self
                .legal(&state, seat, &[])
                .into_iter()
                .filter_map(|d| match d {
                    Decision::PlaceTile { card: c } => Some(word_among(&up, c)),
                    _ => None,
                })
                .collect(),
            ("resources", "type") => {
                let mut out: Vec<(String, String)> = Vec::new();
                for d in self.legal(&state, seat, &[]) {
                    if let Decision::UseResources { resource } = d {
                        let v = resource.map(|r| r.id()).unwrap_or("mixed").to_string();
                        if !out.iter().any(|(_, x)| *x == v) {
                            out.push((v.clone(), v));
                        }
                    }
                }
                out
            }
            ("resources", "cards") => up
                .iter()
                .filter(|c| self.data.card(**c).resource().is_some())
                .map(|c| word_among(&up, *c))
                .collect(),
            ("resources", "buy") => {
                let mut out = vec![("none".to_string(), "none".to_string())];
                out.extend(state.display.iter().enumerate().filter_map(|(i, c)| {
                    c.map(|c| {
                        (
                            format!("{}: {}", i + 1, self.card_name(c)),
                            (i + 1).to_string(),
                        )
                    })
                }));
                out
            }
            ("resources", "tracks") => crate::data::Company::ALL
                .iter()
                .map(|c| (format!("{}+1", c.id()), format!("{}+1", c.id())))
                .collect(),
            ("energy", "company") => {
                let first = [Decision::UseEnergy];
                self.legal(&state, seat, &first)
                    .into_iter()
                    .filter_map(|d| match d {
                        Decision::ChooseCompany { company } => Some((
                            self.data.company_name(company).to_string(),
                            company.id().to_string(),
                        )),
                        _ => None,
                    })
                    .collect()
            }
            ("energy", "sectors") => {
                let mut steps = vec![Decision::UseEnergy];
                if let Some(company) = opts.get("company").and_then(parse_company) {
                    steps.push(Decision::ChooseCompany { company });
                }
                let mut sectors: Vec<u8> =
                    self.legal(&state, seat, &steps)
                        .into_iter()
                        .filter_map(|d| match d {
                            Decision::EnterSector { sector, .. }
                            | Decision::ExpandInto { sector } => Some(sector),
                            _ => None,
                        })
                        .collect();
                sectors.sort_unstable();
                sectors.dedup();
                sectors
                    .into_iter()
                    .map(|s| (s.to_string(), s.to_string()))
                    .collect()
            }
            ("energy", "columns") => numbers(1..=3),
            ("research", "card") | ("field", "card") => {
                let research = command == "research";
                self.legal(&state, seat, &[])
                    .into_iter()
                    .filter_map(|d| match (d, research) {
                        (Decision::UseResearch { source }, true)
                        | (Decision::UseField { source }, false) => {
                            source_value(&self.texts, source)
                                .map(|(n, v)| (self.source_label(&state, seat, source, n), v))
                        }
                        _ => None,
                    })
                    .collect()
            }
            ("research", "flip") => {
                let source = opts.get("card").and_then(parse_source).or_else(|| {
                    self.legal(&state, seat, &[])
                        .into_iter()
                        .find_map(|d| match d {
                            Decision::UseResearch { source } => Some(source),
                            _ => None,
                        })
                });
                let mut out = vec![("none".to_string(), "none".to_string())];
                if let Some(source) = source {
                    out.extend(
                        self.legal(&state, seat, &[Decision::UseResearch { source }])
                            .into_iter()
                            .filter_map(|d| match d {
                                Decision::FlipPlan { screen } => Some((
                                    self.texts.f(
                                        "label.flip_plan",
                                        &[("screen", &numbering::screen(usize::from(screen)))],
                                    ),
                                    numbering::screen(usize::from(screen)).to_string(),
                                )),
                                _ => None,
                            }),
                    );
                }
                out
            }
            ("research", "advance") => {
                let mut out = vec![("max".to_string(), "max".to_string())];
                out.extend(numbers(1..=6));
                out
            }
            ("bonus", "space") => self
                .legal(&state, seat, &[])
                .into_iter()
                .filter_map(|d| match d {
                    Decision::PlaceBonus { space } => Some(space),
                    _ => None,
                })
                .filter_map(|space| {
                    let id = match space {
                        BonusRef::Board(i) => {
                            self.data.board.bonus_spaces.get(i as usize)?.id.clone()
                        }
                        BonusRef::Track(i) => self.data.tracks.bonuses.get(i as usize)?.id.clone(),
                        BonusRef::Personal => "personal".to_string(),
                    };
                    Some((self.bonus_space_name(space), id))
                })
                .collect(),
            ("bonus", "tier") => numbers(1..=3),
            ("pass", "deck") => {
                let slots: Vec<u8> = self
                    .legal(&state, seat, &[Decision::DropOut])
                    .into_iter()
                    .filter_map(|d| match d {
                        Decision::TakeRestingDeck { slot } => Some(slot),
                        _ => None,
                    })
                    .collect();
                slots
                    .into_iter()
                    .map(|s| ((s + 1).to_string(), (s + 1).to_string()))
                    .collect()
            }
            ("choose", "option") => super::offers::offers(&self.data, &state, seat, 0)
                .into_iter()
                .enumerate()
                .map(|(i, o)| {
                    (
                        format!("{}. {}", i + 1, self.offer_label(&state, seat, &o)),
                        (i + 1).to_string(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The live state and the user's seat in the game of the request (in a DM: the `game`
    /// option or the user's only game).
    fn my_seat(&self, req: &Request, opts: &Options) -> Option<(std::sync::Arc<GameState>, usize)> {
        let game = if req.in_dm {
            match opts.get("game").and_then(|g| g.parse::<GameId>().ok()) {
                Some(g) => g,
                None => {
                    let mine = self.user_games(req.user.id);
                    match mine.as_slice() {
                        [one] => *one,
                        _ => return None,
                    }
                }
            }
        } else {
            self.logged(
                "cannot look up the channel's game: no suggestions",
                self.store.games().game_in_channel(req.place.channel),
            )??
        };
        let seat = self.logged(
            "cannot read the game's seats: no suggestions",
            self.seat_in(game, req.user.id),
        )??;
        let state = self.logged(
            "cannot read the game: no suggestions",
            self.store.games().state(game),
        )?;
        Some((state, seat))
    }

    /// The live games the user plays in.
    fn user_games(&self, user: u64) -> Vec<GameId> {
        self.store
            .games()
            .live_games()
            .into_iter()
            .filter(|g| {
                self.logged(
                    "cannot read a game's seats: it is not listed among the user's",
                    self.seat_in(*g, user),
                )
                .flatten()
                .is_some()
            })
            .collect()
    }

    fn games_of(&self, user: u64) -> Vec<(String, String)> {
        self.user_games(user)
            .into_iter()
            .map(|g| {
                let waiting = self
                    .logged(
                        "cannot read a game's seats: it is listed as not waiting",
                        self.seat_in(g, user),
                    )
                    .flatten()
                    .zip(self.logged(
                        "cannot read a game: it is listed as not waiting",
                        self.store.games().state(g),
                    ))
                    .is_some_and(|(s, st)| engine::waiting_on(&st).contains(&s));
                let key = if waiting {
                    "label.game_waiting"
                } else {
                    "label.game"
                };
                let name = self.texts.f(key, &[("game", &g)]);
                (name, g.to_string())
            })
            .collect()
    }

    /// The legal decisions after trying `first` on a scratch copy (empty when a step fails).
    fn legal(&self, state: &GameState, seat: usize, first: &[Decision]) -> Vec<Decision> {
        let mut scratch = state.clone();
        for d in first {
            if engine::apply(&self.data, &mut scratch, seat, *d).is_err() {
                return Vec::new();
            }
        }
        engine::legal_decisions(&self.data, &scratch, seat)
    }

    fn source_label(
        &self,
        state: &GameState,
        seat: usize,
        source: ActionSource,
        fallback: String,
    ) -> String {
        match source {
            ActionSource::Slot(i) => match state.seats[seat].slots.get(i as usize) {
                Some(Some(c)) => self.texts.f(
                    "label.slot_card",
                    &[
                        ("card", &self.card_name(c.card())),
                        ("slot", &numbering::slot(usize::from(i))),
                    ],
                ),
                _ => fallback,
            },
            _ => fallback,
        }
    }
}

/// The `card` option value of an action source (slot number or `tile`).
fn source_value(t: &Texts, source: ActionSource) -> Option<(String, String)> {
    match source {
        ActionSource::Slot(i) => Some((
            t.f("label.slot", &[("slot", &numbering::slot(usize::from(i)))]),
            (i + 1).to_string(),
        )),
        ActionSource::Tile => Some((t.t("label.tile"), "tile".to_string())),
        ActionSource::Discarded(_) => None,
    }
}

fn parse_source(word: &str) -> Option<ActionSource> {
    match word.trim() {
        "tile" => Some(ActionSource::Tile),
        n => numbering::parse_ordinal(n).map(ActionSource::Slot),
    }
}

/// At most `max` characters.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}
