//! Typed command options → the engine's small decisions. A typed command may give a whole
//! action at once; each step is checked on a scratch copy of the state, so an error names the
//! exact step, and options left out simply leave the rest to be asked with buttons. A shortcut
//! never chooses for the player (DECISIONS B20): where the typed options leave a choice open
//! (a station column, which cards, whether to buy or flip, which card, a linked slot), it is
//! made only when every way of making it ends the same; otherwise the command stops there and
//! the prompt asks it, saying what was not played.

use crate::data::{numbering, CardId, Company, GameData, Resource};
use crate::engine::state::GameState;
use crate::engine::{self, ActionSource, BonusRef, Decision, Task};
use crate::text::Texts;
use std::collections::BTreeMap;

/// A command's options, by name.
pub(crate) struct Options<'a> {
    map: &'a BTreeMap<String, String>,
}

impl<'a> Options<'a> {
    pub fn new(map: &'a BTreeMap<String, String>) -> Options<'a> {
        Options { map }
    }

    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.map
            .get(key)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        self.get(key).map(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "yes" | "true" | "on" | "1" | "y"
            )
        })
    }

    /// A list option: items separated by commas or spaces.
    pub fn list(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(|v| {
                v.split([',', ' ', ';'])
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn keys(&self) -> impl Iterator<Item = &'a str> {
        self.map.keys().map(String::as_str)
    }
}

/// Finds a card among `candidates` by its id ("A05", "SE01", "diamond-carbon1"), its starting
/// card icon ("carbon1"), its 1-based position ("2" or "#2"), or its face ("carbon2",
/// "energy1", "research", "field") when that face names one kind of card among them (cards
/// with the same face are alike, so the first is taken).
pub(crate) fn resolve_card(data: &GameData, candidates: &[CardId], word: &str) -> Option<CardId> {
    let w = word.trim().trim_start_matches('#').to_ascii_lowercase();
    if let Ok(n) = w.parse::<usize>() {
        return n.checked_sub(1).and_then(|i| candidates.get(i).copied());
    }
    let by_id = candidates.iter().copied().find(|c| {
        let id = data.card(*c).id.to_ascii_lowercase();
        id == w || id.rsplit_once('-').is_some_and(|(_, icon)| icon == w)
    });
    if by_id.is_some() {
        return by_id;
    }
    let w = w.replace([' ', '-'], "_");
    let matching: Vec<CardId> = candidates
        .iter()
        .copied()
        .filter(|c| card_faces(data, *c).contains(&w))
        .collect();
    let face = |c: &CardId| {
        let def = data.card(*c);
        (def.kind, def.value, def.share)
    };
    let alike = |list: &[CardId]| match list.first() {
        Some(first) if list.iter().all(|c| face(c) == face(first)) => Some(*first),
        _ => None,
    };
    // A face word without a company ("carbon2") names the card without a share when cards with
    // and without one match it ("carbon2_tawac" names the other).
    alike(&matching).or_else(|| {
        let plain: Vec<CardId> = matching
            .iter()
            .copied()
            .filter(|c| data.card(*c).share.is_none())
            .collect();
        alike(&plain)
    })
}

/// The word that names `card` among `candidates` by its face, as [`resolve_card`] reads it
/// (`carbon2`, `carbon2_tawac`, `research`, `field_astrogo` …): what lists of valid values
/// show. The card's id only when no face word names it (it never should).
pub(crate) fn card_word(data: &GameData, candidates: &[CardId], card: CardId) -> String {
    let def = data.card(card);
    let same = |c: CardId| {
        let d = data.card(c);
        (d.kind, d.value, d.share) == (def.kind, def.value, def.share)
    };
    card_faces(data, card)
        .into_iter()
        .find(|w| resolve_card(data, candidates, w).is_some_and(same))
        .unwrap_or_else(|| def.id.clone())
}

/// The words a card can be named by from its face: `carbon2` and `carbon`, `energy1` and
/// `energy`, `research` (`researcher`, `research2`), `field` (`field_scientist`, `field_helios`),
/// `share`; a card with a company share first with the company (`carbon2_tawac`).
pub(crate) fn card_faces(data: &GameData, card: CardId) -> Vec<String> {
    use crate::data::cards::CardKind;
    let def = data.card(card);
    let n = def.value;
    let mut faces = match def.kind {
        CardKind::Resource { resource } => {
            vec![format!("{}{n}", resource.id()), resource.id().to_string()]
        }
        CardKind::Energy => vec![format!("energy{n}"), "energy".to_string()],
        CardKind::ResearchScientist => vec![
            "research".to_string(),
            "researcher".to_string(),
            "research_scientist".to_string(),
            format!("research{n}"),
        ],
        CardKind::FieldScientist { company, .. } => {
            let mut faces = vec!["field".to_string(), "field_scientist".to_string()];
            if let Some(c) = company {
                faces.push(format!("field_{}", c.id()));
            }
            faces
        }
        CardKind::SingleShare => vec!["share".to_string()],
    };
    // A card with a company share is also named with it: `carbon2_tawac`, `share_minerva`.
    if let Some(c) = def.share {
        let with_share: Vec<String> = faces.iter().map(|f| format!("{f}_{}", c.id())).collect();
        faces.splice(0..0, with_share);
    }
    faces
}

/// The options each typed game command takes (as the slash commands register them); a
/// command not listed here checks its own.
pub(crate) fn known_options(command: &str) -> Option<&'static [&'static str]> {
    Some(match command {
        "plan" => &["cards", "slots", "done", "clear", "game"],
        "resources" => &["type", "cards", "buy", "tracks", "game"],
        "energy" => &["company", "sectors", "columns", "game"],
        "research" => &["card", "flip", "advance", "game"],
        "field" => &["card", "game"],
        "bonus" => &["space", "tier", "game"],
        "pass" => &["deck", "game"],
        "token" => &["keep", "rest", "game"],
        "tile" => &["card", "game"],
        "choose" => &["option", "id", "game"],
        "hand" | "undo" => &["game"],
        _ => return None,
    })
}

/// A refusal that names what is valid: `reason` (a fragment), then the valid values of
/// `option` of `/command` (the first ten, and how to see the rest); `reason` alone when there
/// is no list to give.
pub(crate) fn with_valid_values(
    t: &Texts,
    reason: String,
    command: &str,
    option: &str,
    valid: &[String],
) -> String {
    const SHOWN: usize = 10;
    if valid.is_empty() {
        return reason;
    }
    let listed = valid
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let rest = if valid.len() > SHOWN {
        t.f(
            "error.valid_values_more",
            &[
                ("values", &listed),
                ("more", &(valid.len() - SHOWN)),
                ("command", &command),
                ("option", &option),
            ],
        )
    } else {
        t.f("error.valid_values", &[("values", &listed)])
    };
    format!("{}. {rest}", reason.trim_end_matches('.'))
}

pub(crate) fn parse_company(word: &str) -> Option<Company> {
    let w = word.trim().to_ascii_lowercase();
    Company::ALL
        .into_iter()
        .find(|c| c.id() == w || (w.len() >= 3 && c.id().starts_with(&w)))
}

/// Applies typed steps on a scratch state and collects the decisions; its errors are written
/// in `texts` (the reader's language).
#[derive(Clone)]
pub(crate) struct Script<'a> {
    data: &'a GameData,
    texts: &'a Texts,
    /// The command typed and the valid values of each of its options now (for refusals).
    command: &'a str,
    valid: &'a dyn Fn(&str) -> Vec<String>,
    scratch: GameState,
    seat: usize,
    pub decisions: Vec<Decision>,
    /// The events of the last decision applied.
    last_events: Vec<engine::Event>,
    /// The choice the command left open where its possible completions end differently (then
    /// the command stops there and the prompt asks, DECISIONS B20): what it is, in words.
    pub open: Option<String>,
}

/// A typed command worked out: the decisions to play and, when the command left open a choice
/// that changes the outcome, a note saying so (the prompt then asks it).
pub(crate) struct Translated {
    pub decisions: Vec<Decision>,
    pub open: Option<String>,
}

impl<'a> Script<'a> {
    pub fn new(
        data: &'a GameData,
        texts: &'a Texts,
        state: &GameState,
        seat: usize,
        command: &'a str,
        valid: &'a dyn Fn(&str) -> Vec<String>,
    ) -> Script<'a> {
        Script {
            data,
            texts,
            command,
            valid,
            scratch: state.clone(),
            seat,
            decisions: Vec::new(),
            last_events: Vec::new(),
            open: None,
        }
    }

    /// The command leaves a choice open here: `what` (a catalog key of the choice in words,
    /// with `args`) and the typed options `rest` not played yet.
    fn leave_open(&mut self, what: &str, args: &[(&str, &dyn std::fmt::Display)], rest: &[String]) {
        let what = self.texts.f(what, args);
        let mut note = self.texts.f("typed.left_open", &[("what", &what)]);
        if !rest.is_empty() {
            note.push(' ');
            note.push_str(
                &self
                    .texts
                    .f("typed.not_played", &[("rest", &rest.join(" "))]),
            );
        }
        self.open = Some(note);
    }

    /// Plays `rest` after each of `alternatives` (what the typed command did not say) on its own
    /// copy: when every alternative that works ends the same, the script goes on from that end
    /// (the choice changes nothing, so it is made); when they end differently, nothing is
    /// played and `Ok(false)` says the choice is open; when none works, the first one's error.
    fn settle<T>(
        &mut self,
        alternatives: &[T],
        rest: impl Fn(&mut Script<'a>, &T) -> Result<(), String>,
    ) -> Result<bool, String> {
        let mut ends: Vec<Script<'a>> = Vec::new();
        let mut first_error = None;
        for alternative in alternatives {
            let mut copy = self.clone();
            match rest(&mut copy, alternative) {
                Ok(()) => ends.push(copy),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match ends.split_first() {
            None => Err(first_error.unwrap_or_else(|| self.texts.t("error.nothing_to_decide"))),
            Some((first, others)) if others.iter().all(|o| o.scratch == first.scratch) => {
                *self = first.clone();
                Ok(true)
            }
            Some(_) => Ok(false),
        }
    }

    pub fn state(&self) -> &GameState {
        &self.scratch
    }

    /// Applies one decision, or fails with the engine's reason.
    pub fn push(&mut self, d: Decision) -> Result<(), String> {
        self.last_events = engine::apply(self.data, &mut self.scratch, self.seat, d)
            .map_err(|e| e.render(self.texts))?;
        self.decisions.push(d);
        Ok(())
    }

    /// Applies `d` only if it is legal now (optional closing steps).
    pub fn push_if_legal(&mut self, d: Decision) {
        if engine::legal_decisions(self.data, &self.scratch, self.seat).contains(&d) {
            let _ = self.push(d);
        }
    }

    pub fn top(&self) -> Option<&Task> {
        self.scratch.agenda.last()
    }

    /// `word` is not a valid value of `option`: the reason (`key`, with `{word}`) and the
    /// values that are.
    pub fn invalid(&self, key: &str, option: &str, word: &str) -> String {
        let reason = self.texts.f(key, &[("word", &word)]);
        with_valid_values(
            self.texts,
            reason,
            self.command,
            option,
            &(self.valid)(option),
        )
    }
}

/// Translates a typed command into decisions for `seat`; a mistake is explained in `t`, with
/// the valid values of the option at fault (`valid(option)`).
pub(crate) fn translate(
    data: &GameData,
    t: &Texts,
    state: &GameState,
    seat: usize,
    command: &str,
    opts: &Options,
    valid: &dyn Fn(&str) -> Vec<String>,
) -> Result<Translated, String> {
    let mut s = Script::new(data, t, state, seat, command, valid);
    let me = &state.seats[seat];
    match command {
        "plan" => {
            let cards = opts.list("cards");
            if !cards.is_empty() {
                if me.planned || me.slots.iter().any(Option::is_some) {
                    s.push(Decision::PlanClear)?;
                }
                let slots = opts.list("slots");
                for (i, word) in cards.iter().enumerate() {
                    let hand = s.state().seats[seat].hand.clone();
                    let card = resolve_card(data, &hand, word)
                        .ok_or_else(|| s.invalid("parse.not_in_hand", "cards", word))?;
                    let slot = match slots.get(i) {
                        Some(n) => numbering::parse_ordinal(n)
                            .ok_or_else(|| t.f("parse.not_a_slot", &[("word", n)]))?,
                        None => {
                            let free = free_slots(s.state(), seat);
                            // With linked slots the slot decides the card's resting slot: not
                            // taken for the player while several are free.
                            if state.options.linked_slots && free.len() > 1 {
                                let rest = format!("cards:{}", cards[i..].join(","));
                                s.leave_open("typed.open_slot", &[("card", word)], &[rest]);
                                break;
                            }
                            *free.first().ok_or_else(|| t.t("parse.slots_full"))?
                        }
                    };
                    s.push(Decision::PlanCard { card, slot })?;
                }
                if s.open.is_none() && opts.flag("done") != Some(false) {
                    s.push(Decision::PlanDone)?;
                }
            } else if opts.flag("done") == Some(true) {
                s.push(Decision::PlanDone)?;
            } else if opts.flag("clear") == Some(true) {
                s.push(Decision::PlanClear)?;
            }
        }
        "token" => {
            if let Some(word) = opts.get("keep") {
                let choices = &me.token_choices;
                let token = word
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|i| choices.get(i).copied())
                    .or_else(|| {
                        choices.iter().copied().find(|t| {
                            data.research.starting_tokens[*t]
                                .id
                                .eq_ignore_ascii_case(word)
                        })
                    })
                    .ok_or_else(|| s.invalid("parse.not_a_token", "keep", word))?;
                s.push(Decision::KeepToken { token: token as u8 })?;
            }
            for pair in opts.list("rest") {
                let (card, slot) = pair
                    .split_once(':')
                    .ok_or_else(|| t.t("parse.rest_format"))?;
                let pending = s.state().seats[seat].pending_rest.clone();
                let card = resolve_card(data, &pending, card)
                    .ok_or_else(|| s.invalid("parse.not_a_starting_card", "rest", card))?;
                let slot = numbering::parse_ordinal(slot)
                    .ok_or_else(|| t.t("parse.resting_slot_number"))?;
                s.push(Decision::RestStartingCard { card, slot })?;
            }
        }
        "tile" => {
            let word = opts.get("card").ok_or_else(|| t.t("parse.tile_card"))?;
            let up: Vec<CardId> = me.up_cards().map(|(_, c)| c).collect();
            let card = resolve_card(data, &up, word)
                .ok_or_else(|| s.invalid("parse.not_face_up", "card", word))?;
            s.push(Decision::PlaceTile { card })?;
        }
        "resources" => {
            let kind = opts.get("type").map(str::to_ascii_lowercase);
            let resource = match kind.as_deref() {
                Some("mixed") => None,
                Some(k) => Some(
                    Resource::parse(k).ok_or_else(|| s.invalid("parse.not_a_type", "type", k))?,
                ),
                None => {
                    // The only type with face-up cards, if there is one.
                    let mut types: Vec<Resource> = me
                        .up_cards()
                        .filter_map(|(_, c)| data.card(c).resource())
                        .collect();
                    types.sort();
                    types.dedup();
                    match types.as_slice() {
                        [one] => Some(*one),
                        [] => return Err(t.t("parse.no_face_up_resource")),
                        _ => return Err(t.t("parse.which_type")),
                    }
                }
            };
            s.push(Decision::UseResources { resource })?;
            let up: Vec<CardId> = me.up_cards().map(|(_, c)| c).collect();
            let words = opts.list("cards");
            // The cards to use: those named; none named, every choice of the type's cards
            // (alike faces counted once, all of them first); mixed cards are always named.
            let selections: Vec<Vec<CardId>> = if !words.is_empty() {
                vec![words
                    .iter()
                    .map(|w| {
                        resolve_card(data, &up, w)
                            .ok_or_else(|| s.invalid("parse.not_face_up", "cards", w))
                    })
                    .collect::<Result<_, _>>()?]
            } else {
                match resource {
                    Some(r) => card_choices(
                        data,
                        &up.iter()
                            .copied()
                            .filter(|c| data.card(*c).resource() == Some(r))
                            .collect::<Vec<_>>(),
                    ),
                    None => vec![Vec::new()],
                }
            };
            // The purchase: as typed; unsaid with track steps typed, no card or any card.
            let buys: Vec<Buy> = match opts.get("buy") {
                Some("none") | Some("no") => vec![Buy::Nothing],
                Some(space) => {
                    vec![Buy::Space(space.parse::<u8>().map_err(|_| {
                        s.invalid("parse.not_a_display_space", "buy", space)
                    })?)]
                }
                None if opts.get("tracks").is_some() => std::iter::once(Buy::Nothing)
                    .chain((1..=12).map(Buy::Space))
                    .collect(),
                None => vec![Buy::Unsaid],
            };
            let settled = s.settle(&selections, |sc, cards| {
                select_cards(sc, cards)?;
                let bought = sc.settle(&buys, |sc, buy| {
                    buy_step(sc, *buy)?;
                    track_steps(sc, opts)
                })?;
                if !bought {
                    sc.leave_open("typed.open_buy", &[], &typed(opts, &["buy", "tracks"]));
                }
                Ok(())
            })?;
            if !settled {
                s.leave_open(
                    "typed.open_cards",
                    &[],
                    &typed(opts, &["cards", "buy", "tracks"]),
                );
            }
        }
        "energy" => {
            s.push(Decision::UseEnergy)?;
            if let Some(word) = opts.get("company") {
                let company = parse_company(word)
                    .ok_or_else(|| s.invalid("parse.not_a_company", "company", word))?;
                if matches!(s.top(), Some(Task::ChooseExpansion { .. })) {
                    s.push(Decision::ChooseCompany { company })?;
                }
                let columns = opts.list("columns");
                let sectors = opts.list("sectors");
                for (i, word) in sectors.iter().enumerate() {
                    let sector = word
                        .parse::<u8>()
                        .map_err(|_| s.invalid("parse.not_a_sector", "sectors", word))?;
                    if let Some(c) = columns.get(i) {
                        let column = numbering::parse_ordinal(c)
                            .ok_or_else(|| t.t("parse.column_number"))?;
                        s.push(Decision::EnterSector { sector, column })?;
                        continue;
                    }
                    // The column unsaid: asked, as the menus ask it, where it changes the
                    // outcome.
                    if !enter_sector(&mut s, company, sector)? {
                        let rest = if sectors.len() > i + 1 {
                            vec![format!("sectors:{}", sectors[i + 1..].join(","))]
                        } else {
                            Vec::new()
                        };
                        s.leave_open("typed.open_column", &[("sector", &sector)], &rest);
                        break;
                    }
                }
                // An expansion that could go on is not stopped for the player: stopping
                // forfeits the energy left, and the prompt says how much.
            }
        }
        "research" => {
            let sources = sources(
                &s,
                opts,
                |c| data.card(c).is_research_scientist(),
                Decision::UseResearch {
                    source: ActionSource::Tile,
                },
            )?;
            let flips: Vec<Option<u8>> = match opts.get("flip") {
                Some("none") | Some("no") => vec![None],
                Some(screen) => vec![Some(
                    screen
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .and_then(numbering::screen_index)
                        .ok_or_else(|| t.t("parse.screen_number"))?,
                )],
                // Advancing without a word on flipping: not flipping, or flipping any plan.
                None if opts.get("advance").is_some() => std::iter::once(None)
                    .chain((0..me.research.len() as u8).map(Some))
                    .collect(),
                None => Vec::new(),
            };
            let settled = s.settle(&sources, |sc, source| {
                sc.push(Decision::UseResearch { source: *source })?;
                if flips.is_empty() {
                    return Ok(());
                }
                let flipped = sc.settle(&flips, |sc, flip| {
                    match flip {
                        None => sc.push_if_legal(Decision::SkipFlip),
                        Some(screen) => sc.push(Decision::FlipPlan { screen: *screen })?,
                    }
                    advance_steps(sc, opts)
                })?;
                if !flipped {
                    sc.leave_open("typed.open_flip", &[], &typed(opts, &["advance"]));
                }
                Ok(())
            })?;
            if !settled {
                s.leave_open("typed.open_source", &[], &typed(opts, &["flip", "advance"]));
            }
        }
        "field" => {
            let sources = sources(
                &s,
                opts,
                |c| data.card(c).is_field_scientist(),
                Decision::UseField {
                    source: ActionSource::Tile,
                },
            )?;
            if !s.settle(&sources, |sc, source| {
                sc.push(Decision::UseField { source: *source })
            })? {
                s.leave_open("typed.open_source", &[], &[]);
            }
        }
        "bonus" => {
            if let Some(word) = opts.get("space") {
                let space = resolve_bonus_space(data, word)
                    .ok_or_else(|| s.invalid("parse.not_a_bonus_space", "space", word))?;
                let tier = opts
                    .get("tier")
                    .map(|word| {
                        numbering::parse_ordinal(word).ok_or_else(|| t.t("parse.tier_number"))
                    })
                    .transpose()?;
                s.push(Decision::PlaceBonus { space })?;
                if let Some(tier) = tier {
                    bonus_tier(&mut s, space, tier)?;
                }
            }
        }
        "pass" => {
            s.push(Decision::DropOut)?;
            if let Some(deck) = opts.get("deck") {
                let slot =
                    numbering::parse_ordinal(deck).ok_or_else(|| t.t("parse.deck_number"))?;
                s.push(Decision::TakeRestingDeck { slot })?;
            }
        }
        _ => {}
    }
    Ok(Translated {
        decisions: s.decisions,
        open: s.open,
    })
}

/// The reward tier asked for with a majority space just placed on. The engine takes the only
/// tier a seat qualifies for by itself (tiers are nested, so that is tier 1); then there is no
/// question left and the tier asked for is only checked.
fn bonus_tier(s: &mut Script, space: BonusRef, tier: u8) -> Result<(), String> {
    use crate::data::board::BonusSpaceKind;
    let t = s.texts;
    if matches!(s.top(), Some(Task::ChooseTier { .. })) {
        return s.push(Decision::ChooseTier { tier });
    }
    let majority = match space {
        BonusRef::Board(i) => s
            .data
            .board
            .bonus_spaces
            .get(i as usize)
            .is_some_and(|b| b.kind == BonusSpaceKind::Majority),
        _ => false,
    };
    if !majority {
        return Err(t.t("parse.tier_majority_only"));
    }
    if s.last_events.iter().any(|e| e.key == "event.no_tier") {
        return Err(t.t("parse.no_tier_there"));
    }
    if tier != 0 {
        return Err(t.t("rule.tier_not_met"));
    }
    Ok(())
}

fn track_steps(s: &mut Script, opts: &Options) -> Result<(), String> {
    let t = s.texts;
    for item in opts.list("tracks") {
        let (name, n) = match item.split_once(['+', ':', '=']) {
            Some((name, n)) => (
                name,
                n.parse::<u32>()
                    .map_err(|_| t.f("parse.steps_number", &[("item", &item)]))?,
            ),
            None => (item.as_str(), 1),
        };
        let company =
            parse_company(name).ok_or_else(|| t.f("parse.not_a_company", &[("word", &name)]))?;
        for _ in 0..n {
            s.push(Decision::TrackStep { company })?;
        }
    }
    Ok(())
}

/// The empty switched-on action slots, leftmost first.
fn free_slots(state: &GameState, seat: usize) -> Vec<u8> {
    let s = &state.seats[seat];
    (0..5u8)
        .filter(|&i| s.slot_on[i as usize] && s.slots[i as usize].is_none())
        .collect()
}

/// Enters Moon `sector` for `company` with the column unsaid: the engine takes the column
/// itself where it changes nothing (engine version 4 on) and otherwise asks, as the menus do;
/// false when the column is asked (nothing more is played). Older games offer every column:
/// one is taken only when all give the same preview.
fn enter_sector(s: &mut Script, company: Company, sector: u8) -> Result<bool, String> {
    let one_option_per_sector = engine::legal_decisions(s.data, s.state(), s.seat)
        .iter()
        .any(|d| matches!(d, Decision::ExpandInto { .. }));
    if one_option_per_sector {
        s.push(Decision::ExpandInto { sector })?;
        return Ok(!matches!(s.top(), Some(Task::PickColumn { .. })));
    }
    let columns: Vec<u8> = (0..3u8)
        .filter(|&c| s.state().stations[company.index()][c as usize].outposts > 0)
        .collect();
    if columns.is_empty() {
        return Err(s.texts.t("parse.no_outposts_left"));
    }
    let (data, seat) = (s.data, s.seat);
    let previews: Vec<_> = columns
        .iter()
        .map(|&column| {
            engine::preview(
                data,
                s.state(),
                seat,
                Decision::EnterSector { sector, column },
            )
            .ok()
        })
        .collect();
    if previews.iter().any(|p| *p != previews[0]) {
        return Ok(false);
    }
    s.push(Decision::EnterSector {
        sector,
        column: columns[0],
    })?;
    Ok(true)
}

/// A purchase in `/resources`: none, the card on a display space, or left to the prompt.
#[derive(Debug, Clone, Copy)]
enum Buy {
    Nothing,
    Space(u8),
    Unsaid,
}

/// Selects `cards` for the resource action under way (the engine selects a lone card itself).
fn select_cards(s: &mut Script, cards: &[CardId]) -> Result<(), String> {
    if cards.is_empty() {
        return Ok(());
    }
    for card in cards {
        if let Some(Task::SelectResources { chosen, .. }) = s.top() {
            if !chosen.contains(card) {
                s.push(Decision::SelectCard { card: *card })?;
            }
        }
    }
    if matches!(s.top(), Some(Task::SelectResources { .. })) {
        s.push(Decision::FinishSelecting)?;
    }
    Ok(())
}

/// The purchase, where the action asks for one.
fn buy_step(s: &mut Script, buy: Buy) -> Result<(), String> {
    match buy {
        Buy::Nothing => s.push_if_legal(Decision::NoBuy),
        Buy::Space(space) => s.push(Decision::BuyCard { space })?,
        Buy::Unsaid => {}
    }
    Ok(())
}

/// `advance:N` or `advance:max` of `/research`: the upload marker's steps, then stop.
fn advance_steps(s: &mut Script, opts: &Options) -> Result<(), String> {
    let Some(adv) = opts.get("advance") else {
        return Ok(());
    };
    let t = s.texts;
    let max = adv == "max" || adv == "all";
    let n: usize = if max {
        usize::MAX
    } else {
        adv.parse().map_err(|_| t.t("parse.advance"))?
    };
    let mut moved = 0;
    while moved < n && matches!(s.top(), Some(Task::ResearchAdvance { .. })) {
        if !engine::legal_decisions(s.data, s.state(), s.seat).contains(&Decision::Advance) {
            if max {
                break;
            }
            return Err(t.f("parse.advance_stuck", &[("moved", &moved)]));
        }
        s.push(Decision::Advance)?;
        moved += 1;
    }
    s.push_if_legal(Decision::StopAdvancing);
    Ok(())
}

/// Every choice among `cards` (one resource type's face-up cards): all of them first, then each
/// other non-empty selection, selections of alike faces counted once.
fn card_choices(data: &GameData, cards: &[CardId]) -> Vec<Vec<CardId>> {
    // One type's cards: a face is its value and share.
    let face = |c: &CardId| {
        let d = data.card(*c);
        (d.value, d.share)
    };
    let mut out: Vec<Vec<CardId>> = vec![cards.to_vec()];
    let mut seen = vec![faces_of(cards, face)];
    for mask in (1u32..(1 << cards.len().min(8))).rev() {
        let pick: Vec<CardId> = cards
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        let faces = faces_of(&pick, face);
        if !seen.contains(&faces) {
            seen.push(faces);
            out.push(pick);
        }
    }
    out
}

/// The faces of `cards`, sorted (which of two alike cards is used changes nothing).
fn faces_of<F: Ord>(cards: &[CardId], face: impl Fn(&CardId) -> F) -> Vec<F> {
    let mut faces: Vec<F> = cards.iter().map(face).collect();
    faces.sort();
    faces
}

/// The typed options among `keys`, as typed (`key:value`), for the note on what was not played.
fn typed(opts: &Options, keys: &[&str]) -> Vec<String> {
    keys.iter()
        .filter_map(|k| opts.get(k).map(|v| format!("{k}:{v}")))
        .collect()
}

/// The card (or tile) an action uses: the one named, or, unsaid, each kind of face-up card
/// (`wanted`) the seat may use for it (alike faces once, the leftmost slot's first), then the
/// tile when `tile` (the action on the tile) is legal.
fn sources(
    s: &Script,
    opts: &Options,
    wanted: impl Fn(CardId) -> bool,
    tile: Decision,
) -> Result<Vec<ActionSource>, String> {
    let (data, t, state, seat) = (s.data, s.texts, s.state(), s.seat);
    match opts.get("card") {
        Some("tile") => Ok(vec![ActionSource::Tile]),
        Some(n) if n.trim().parse::<u32>().is_ok() => numbering::parse_ordinal(n)
            .map(|slot| vec![ActionSource::Slot(slot)])
            .ok_or_else(|| t.t("parse.card_source")),
        // The card's face, as the README says (`research`, `researcher`, `field`).
        Some(word) => {
            let me = &state.seats[seat];
            let up: Vec<CardId> = me
                .up_cards()
                .map(|(_, c)| c)
                .filter(|c| wanted(*c))
                .collect();
            resolve_card(data, &up, word)
                .and_then(|c| me.slot_of(c))
                .map(|i| vec![ActionSource::Slot(i as u8)])
                .ok_or_else(|| t.t("parse.card_source"))
        }
        None => {
            let mut out = Vec::new();
            let mut faces = Vec::new();
            for (slot, card) in state.seats[seat].up_cards() {
                let d = data.card(card);
                let face = (d.kind, d.value, d.share);
                if wanted(card) && !faces.contains(&face) {
                    faces.push(face);
                    out.push(ActionSource::Slot(slot as u8));
                }
            }
            if engine::legal_decisions(data, state, seat).contains(&tile) {
                out.push(ActionSource::Tile);
            }
            if out.is_empty() {
                return Err(t.t("parse.no_such_card_source"));
            }
            Ok(out)
        }
    }
}

/// A bonus space by its id ("majority_titanium", "buy_card"), a short name ("titanium",
/// "first"), or a track bonus id ("B-BUY-1").
pub(crate) fn resolve_bonus_space(data: &GameData, word: &str) -> Option<BonusRef> {
    let w = word.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    if let Some(i) = data
        .tracks
        .bonuses
        .iter()
        .position(|b| b.id.to_ascii_lowercase().replace('-', "_") == w)
    {
        return Some(BonusRef::Track(i as u8));
    }
    let spaces = &data.board.bonus_spaces;
    spaces
        .iter()
        .position(|b| b.id == w)
        .or_else(|| {
            spaces
                .iter()
                .position(|b| b.id.split('_').any(|part| part == w))
        })
        .map(|i| BonusRef::Board(i as u8))
}
