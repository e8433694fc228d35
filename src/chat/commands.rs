//! Typed command options → the engine's small decisions. A typed command may give a whole
//! action at once; each step is checked on a scratch copy of the state, so an error names the
//! exact step, and options left out simply leave the rest to be asked with buttons.

use crate::data::{numbering, CardId, Company, GameData, Resource};
use crate::engine::state::{GameState, SlotCard};
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
) -> Result<Vec<Decision>, String> {
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
                            free_slot(s.state(), seat).ok_or_else(|| t.t("parse.slots_full"))?
                        }
                    };
                    s.push(Decision::PlanCard { card, slot })?;
                }
                if opts.flag("done") != Some(false) {
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
            let chosen: Vec<CardId> = if words.is_empty() {
                match resource {
                    Some(r) => up
                        .iter()
                        .copied()
                        .filter(|c| data.card(*c).resource() == Some(r))
                        .collect(),
                    None => Vec::new(),
                }
            } else {
                words
                    .iter()
                    .map(|w| {
                        resolve_card(data, &up, w)
                            .ok_or_else(|| s.invalid("parse.not_face_up", "cards", w))
                    })
                    .collect::<Result<_, _>>()?
            };
            // The engine picks a lone card by itself: only ask for what is still pending.
            if !chosen.is_empty() {
                for card in chosen {
                    if let Some(Task::SelectResources { chosen: done, .. }) = s.top() {
                        if !done.contains(&card) {
                            s.push(Decision::SelectCard { card })?;
                        }
                    }
                }
                if matches!(s.top(), Some(Task::SelectResources { .. })) {
                    s.push(Decision::FinishSelecting)?;
                }
            }
            match opts.get("buy") {
                Some("none") | Some("no") => s.push(Decision::NoBuy)?,
                Some(space) => {
                    let space = space
                        .parse::<u8>()
                        .map_err(|_| s.invalid("parse.not_a_display_space", "buy", space))?;
                    s.push(Decision::BuyCard { space })?;
                }
                // Track steps without a purchase mean: no card.
                None if opts.get("tracks").is_some() => s.push_if_legal(Decision::NoBuy),
                None => {}
            }
            track_steps(&mut s, opts)?;
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
                    let column = match columns.get(i) {
                        Some(c) => {
                            numbering::parse_ordinal(c).ok_or_else(|| t.t("parse.column_number"))?
                        }
                        None => default_column(s.state(), company)
                            .ok_or_else(|| t.t("parse.no_outposts_left"))?,
                    };
                    s.push(Decision::EnterSector { sector, column })?;
                }
                if !sectors.is_empty() {
                    s.push_if_legal(Decision::StopExpanding);
                }
            }
        }
        "research" => {
            let source = source_option(data, t, state, seat, opts, |c| {
                data.card(c).is_research_scientist()
            })?;
            s.push(Decision::UseResearch { source })?;
            match opts.get("flip") {
                Some("none") | Some("no") => s.push_if_legal(Decision::SkipFlip),
                Some(screen) => {
                    let screen = screen
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .and_then(numbering::screen_index)
                        .ok_or_else(|| t.t("parse.screen_number"))?;
                    s.push(Decision::FlipPlan { screen })?;
                }
                None if opts.get("advance").is_some() => s.push_if_legal(Decision::SkipFlip),
                None => {}
            }
            if let Some(adv) = opts.get("advance") {
                let max = adv == "max" || adv == "all";
                let n: usize = if max {
                    usize::MAX
                } else {
                    adv.parse().map_err(|_| t.t("parse.advance"))?
                };
                let mut moved = 0;
                while moved < n && matches!(s.top(), Some(Task::ResearchAdvance { .. })) {
                    if !engine::legal_decisions(data, s.state(), seat).contains(&Decision::Advance)
                    {
                        if max {
                            break;
                        }
                        return Err(t.f("parse.advance_stuck", &[("moved", &moved)]));
                    }
                    s.push(Decision::Advance)?;
                    moved += 1;
                }
                s.push_if_legal(Decision::StopAdvancing);
            }
        }
        "field" => {
            let source = source_option(data, t, state, seat, opts, |c| {
                data.card(c).is_field_scientist()
            })?;
            s.push(Decision::UseField { source })?;
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
    Ok(s.decisions)
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

/// The leftmost empty switched-on action slot.
fn free_slot(state: &GameState, seat: usize) -> Option<u8> {
    let s = &state.seats[seat];
    (0..5u8).find(|&i| s.slot_on[i as usize] && s.slots[i as usize].is_none())
}

/// Where an outpost comes from when the player does not say: the column with the fewest
/// outposts left, so one column empties first (the rulebook's advice: its 2-coin space shows).
pub(crate) fn default_column(state: &GameState, company: Company) -> Option<u8> {
    let cols = &state.stations[company.index()];
    (0..3u8)
        .filter(|&c| cols[c as usize].outposts > 0)
        .min_by_key(|&c| (cols[c as usize].outposts, c))
}

fn source_option(
    data: &GameData,
    t: &Texts,
    state: &GameState,
    seat: usize,
    opts: &Options,
    wanted: impl Fn(CardId) -> bool,
) -> Result<ActionSource, String> {
    match opts.get("card") {
        Some("tile") => Ok(ActionSource::Tile),
        Some(n) if n.trim().parse::<u32>().is_ok() => numbering::parse_ordinal(n)
            .map(ActionSource::Slot)
            .ok_or_else(|| t.t("parse.card_source")),
        // The card's face, as the README says (`research`, `researcher`, `field`).
        Some(word) => {
            let me = &state.seats[seat];
            let up: Vec<CardId> = me.up_cards().map(|(_, c)| c).filter(|c| wanted(*c)).collect();
            resolve_card(data, &up, word)
                .and_then(|c| me.slot_of(c))
                .map(|i| ActionSource::Slot(i as u8))
                .ok_or_else(|| t.t("parse.card_source"))
        }
        None => state.seats[seat]
            .slots
            .iter()
            .position(|s| matches!(s, Some(SlotCard::Up(c)) if wanted(*c)))
            .map(|i| ActionSource::Slot(i as u8))
            .ok_or_else(|| t.t("parse.no_such_card_source")),
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
