//! The prompts a player answers (issue 34), through the chat layer as players type and click,
//! in English and German: typed shortcuts never choose for the player (DECISIONS B20, A2), the
//! list a player was shown survives a restart on SQLite and PostgreSQL (B19), `/undo` goes back
//! one batch per call and never past another seat's batch (B6), and what stopping early gives
//! up. Whether an option says "cannot be undone" exactly when `/undo` refuses it is
//! [`crate::undo_notes`]'s, over this module's table.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::{local_user_id, Audience, Chat, ChatConfig, ManualClock, Reply};
use skymines::engine::{self, Decision, GameState, Phase, Task};
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{Location, Store, StoreOptions};
use skymines::text;
use std::sync::Arc;

use crate::support::chat::Backing;
use crate::support::shared_data as game_data;

/// The backing's name in a failure message.
fn backing_name(backing: &Backing) -> &'static str {
    match backing {
        Backing::Sqlite(_) => "SQLite",
        Backing::Postgres(_) => "PostgreSQL",
    }
}

pub(crate) struct Table {
    pub(crate) chat: Chat,
    backing: Backing,
    pub(crate) game: i64,
}

fn config() -> ChatConfig {
    ChatConfig {
        images: false,
        rate_limit: 0,
        owners: vec![local_user_id("alice")],
        ..ChatConfig::default()
    }
}

pub(crate) fn place() -> Location {
    Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    }
}

pub(crate) const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

impl Table {
    fn new(backing: Backing) -> Table {
        let chat = Chat::new(
            backing.open(StoreOptions::default()),
            Arc::new(ManualClock::new(1_700_000_000_000)),
            config(),
        );
        Table {
            chat,
            backing,
            game: 0,
        }
    }

    /// A table on SQLite.
    pub(crate) fn sqlite(tag: &str) -> Table {
        Table::new(Backing::sqlite(&format!("prompts-{tag}")))
    }

    /// The bot restarts: a new chat layer over the store opened again.
    fn restart(&mut self) {
        self.chat = Chat::new(
            self.backing.open(StoreOptions::default()),
            Arc::new(ManualClock::new(1_700_000_000_000)),
            config(),
        );
    }

    pub(crate) fn say(&self, line: &str) -> Vec<Reply> {
        let req = parse_line(line, &[local_user_id("alice")])
            .expect("line parses")
            .expect("not blank");
        self.chat.handle(&req)
    }

    pub(crate) fn store(&self) -> Arc<Store> {
        self.chat.store()
    }

    pub(crate) fn state(&self) -> GameState {
        (*self.store().games().state(self.game).expect("state")).clone()
    }

    /// Opens, joins and starts a game of `players` (alice first) with `extra` options;
    /// `language` is every player's own language.
    pub(crate) fn start(&mut self, players: usize, extra: &str, seed: u64, language: &str) {
        for n in &NAMES[..players] {
            self.say(&format!("{n} /skymines settings language:{language}"));
        }
        self.say(&format!(
            "alice /skymines new players:{players} seed:{seed} language:{language} {extra}"
        ));
        for n in &NAMES[1..players] {
            self.say(&format!("{n} /skymines join"));
        }
        self.say("alice /skymines start");
        self.game = self
            .store()
            .games()
            .game_in_channel(LOCAL_CHANNEL)
            .expect("lookup")
            .expect("a game");
    }

    /// Plays random legal moves (straight into the store, as if clicked) until `until` holds
    /// before a move; false when the game ended first.
    pub(crate) fn advance(&mut self, seed: u64, until: impl Fn(&GameState) -> bool) -> bool {
        let data = game_data();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..3000 {
            let state = self.state();
            if state.phase == Phase::Finished {
                return false;
            }
            if until(&state) {
                // The chat layer meets the game where it is, as after a restart.
                self.restart();
                return true;
            }
            let seat = engine::waiting_on(&state)[0];
            let legal = engine::legal_decisions(&data, &state, seat);
            let mut d = legal[rng.gen_range(0..legal.len())];
            if d == Decision::DropOut && legal.len() > 1 && rng.gen_bool(0.9) {
                d = *legal
                    .iter()
                    .find(|x| **x != Decision::DropOut)
                    .expect("another");
            }
            self.store()
                .games()
                .apply(self.game, seat, &[d])
                .expect("a legal move");
        }
        false
    }

    /// The options `user` is offered now, with the decisions each applies.
    pub(crate) fn options(&self, user: &str) -> Vec<(String, String, Vec<Decision>)> {
        let id = local_user_id(user);
        self.chat
            .pending_choices(&place(), id)
            .into_iter()
            .map(|c| {
                let d = self.chat.click_decisions(id, &c.custom_id);
                (c.custom_id, format!("{} — {}", c.label, c.description), d)
            })
            .collect()
    }

    pub(crate) fn click(&self, user: &str, id: &str) -> Vec<Reply> {
        self.say(&format!("{user} /click {id}"))
    }

    /// Clicks `user`'s options that play `path`, each option a piece of it, as the menus
    /// offer them.
    fn click_path(&self, user: &str, path: &[Decision]) {
        let mut rest = path;
        while !rest.is_empty() {
            let (id, _, ds) = self
                .options(user)
                .into_iter()
                .filter(|(_, _, ds)| !ds.is_empty() && rest.starts_with(ds))
                .max_by_key(|(_, _, ds)| ds.len())
                .unwrap_or_else(|| panic!("{user} is offered no start of {rest:?}"));
            self.click(user, &id);
            rest = &rest[ds.len()..];
        }
    }
}

/// What `user` sees privately in `replies`.
pub(crate) fn private(replies: &[Reply], user: &str) -> String {
    let id = local_user_id(user);
    replies
        .iter()
        .filter(|r| matches!(r.audience, Audience::Private(u) | Audience::Dm(u) if u == id))
        .map(|r| r.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn texts(language: &str) -> &'static skymines::text::Texts {
    text::for_language(language)
}

/// The first words of a catalog entry (before its first placeholder).
fn stem(language: &str, key: &str) -> String {
    let t = texts(language).t(key);
    t.split('{').next().unwrap_or(&t).trim().to_string()
}

pub(crate) fn top(state: &GameState) -> Option<&Task> {
    state.agenda.last()
}

/// Alice's turn with nothing under way: the action to take is hers to choose.
pub(crate) fn alice_chooses_action(state: &GameState) -> bool {
    state.phase == Phase::Action
        && engine::waiting_on(state) == vec![0]
        && engine::legal_decisions(&game_data(), state, 0).contains(&Decision::DropOut)
}

/// A sector and company where alice, expanding with her energy now, is asked the station
/// column of the first outpost (the columns would leave different share values).
fn column_question(state: &GameState) -> Option<(String, u8)> {
    let data = game_data();
    if !alice_chooses_action(state) {
        return None;
    }
    let mut s = state.clone();
    engine::apply(&data, &mut s, 0, Decision::UseEnergy).ok()?;
    for company in skymines::data::Company::ALL {
        let mut c = s.clone();
        if matches!(top(&c), Some(Task::ChooseExpansion { .. }))
            && engine::apply(&data, &mut c, 0, Decision::ChooseCompany { company }).is_err()
        {
            continue;
        }
        for sector in 1..=24u8 {
            let mut e = c.clone();
            if engine::apply(&data, &mut e, 0, Decision::ExpandInto { sector }).is_ok()
                && matches!(top(&e), Some(Task::PickColumn { .. }))
            {
                return Some((company.id().to_string(), sector));
            }
        }
    }
    None
}

/// Finds, over seeded 2-player games, a moment `found` accepts; returns the table there.
pub(crate) fn find<T>(
    tag: &str,
    language: &str,
    extra: &str,
    found: impl Fn(&GameState) -> Option<T> + Copy,
) -> (Table, T) {
    for seed in 1..60u64 {
        let mut t = Table::sqlite(tag);
        t.start(2, extra, seed, language);
        if t.advance(seed, |s| found(s).is_some()) {
            let what = found(&t.state()).expect("found");
            return (t, what);
        }
    }
    panic!("{tag}: no seeded game reached the moment looked for");
}

// ---- Item 2: typed shortcuts never choose for the player.

/// "What was seen" 3: `/energy company:… sectors:…` took the station column itself where the
/// columns leave different share values. It asks, as the menus do; the menus' column options
/// differ in what they give.
#[test]
fn energy_shortcut_asks_the_column_where_it_changes_the_outcome() {
    for language in ["en", "de"] {
        let (t, (company, sector)) = find("energy-column", language, "", column_question);
        let replies = t.say(&format!("alice /energy company:{company} sectors:{sector}"));
        let text = private(&replies, "alice");
        assert!(
            text.contains(&stem(language, "typed.left_open")),
            "{language}: the shortcut says it stopped at an open choice:\n{text}"
        );
        let state = t.state();
        assert!(
            matches!(top(&state), Some(Task::PickColumn { .. })),
            "{language}: the column is asked: {:?}",
            top(&state)
        );
        // The menus ask the same question, with options that give different things.
        let options = t.options("alice");
        let columns: Vec<_> = options
            .iter()
            .filter(|(_, _, d)| matches!(d.as_slice(), [Decision::OutpostColumn { .. }]))
            .collect();
        assert!(columns.len() >= 2, "{language}: {options:?}");
        assert!(
            columns.iter().any(|(_, l, _)| *l != columns[0].1),
            "{language}: the column options differ: {columns:?}"
        );
    }
}

/// The shortcut and the menu path agree: where the column changes nothing, the shortcut plays
/// exactly what the menus play; where it changes the outcome, the shortcut stops where the
/// menus ask. Over seeded positions with energy to use.
#[test]
fn energy_shortcut_does_what_the_menus_do() {
    let data = game_data();
    let mut compared = 0;
    for seed in 1..12u64 {
        // In English and German, seed by seed.
        let language = ["en", "de"][seed as usize % 2];
        let mut typed = Table::sqlite("energy-typed");
        let mut menus = Table::sqlite("energy-menus");
        typed.start(2, "", seed, language);
        menus.start(2, "", seed, language);
        let can_expand = |s: &GameState| {
            alice_chooses_action(s)
                && engine::legal_decisions(&game_data(), s, 0).contains(&Decision::UseEnergy)
        };
        if !typed.advance(seed, can_expand) || !menus.advance(seed, can_expand) {
            continue;
        }
        let state = typed.state();
        assert_eq!(state, menus.state());
        // The first company the seat may expand and the first sector it may enter.
        let mut s = state.clone();
        engine::apply(&data, &mut s, 0, Decision::UseEnergy).expect("energy");
        let Some(company) = skymines::data::Company::ALL.into_iter().find(|c| {
            let mut x = s.clone();
            engine::apply(&data, &mut x, 0, Decision::ChooseCompany { company: *c }).is_ok()
        }) else {
            continue;
        };
        let mut x = s.clone();
        engine::apply(&data, &mut x, 0, Decision::ChooseCompany { company }).expect("company");
        let Some(sector) = (1..=24u8).find(|sector| {
            engine::legal_decisions(&data, &x, 0)
                .contains(&Decision::ExpandInto { sector: *sector })
        }) else {
            continue;
        };
        typed.say(&format!(
            "alice /energy company:{} sectors:{sector}",
            company.id()
        ));
        let mut path = vec![Decision::UseEnergy];
        if matches!(top(&s), Some(Task::ChooseExpansion { .. })) {
            path.push(Decision::ChooseCompany { company });
        }
        menus.click_path("alice", &path);
        let sector_options: Vec<Vec<Decision>> = menus
            .options("alice")
            .into_iter()
            .map(|(_, _, d)| d)
            .filter(|d| d.first() == Some(&Decision::ExpandInto { sector }))
            .collect();
        if sector_options == [vec![Decision::ExpandInto { sector }]] {
            // The column changes nothing: the menus enter the sector as the shortcut did.
            menus.click_path("alice", &[Decision::ExpandInto { sector }]);
            assert_eq!(typed.state(), menus.state(), "seed {seed}");
        } else {
            // The menus offer the sector once per column that ends differently: the shortcut
            // asks the same columns.
            assert!(
                matches!(top(&typed.state()), Some(Task::PickColumn { sector: s, .. }) if *s == sector),
                "seed {seed}: the shortcut asks the column"
            );
            let asked: Vec<Vec<Decision>> = typed
                .options("alice")
                .into_iter()
                .map(|(_, _, d)| d)
                .collect();
            let menu_columns: Vec<Vec<Decision>> =
                sector_options.iter().map(|d| d[1..].to_vec()).collect();
            assert_eq!(asked, menu_columns, "seed {seed}");
        }
        compared += 1;
    }
    assert!(compared >= 5, "{compared} positions compared");
}

/// Which cards of one type alice has face up with different values.
fn mixed_values(state: &GameState) -> Option<String> {
    let data = game_data();
    if !alice_chooses_action(state) {
        return None;
    }
    for r in ["carbon", "minerals", "titanium"] {
        let values: Vec<u32> = state.seats[0]
            .up_cards()
            .filter(|(_, c)| data.card(*c).resource().map(|x| x.id()) == Some(r))
            .map(|(_, c)| data.card(c).value)
            .collect();
        if values.len() >= 2 && values.iter().any(|v| *v != values[0]) {
            return Some(r.to_string());
        }
    }
    None
}

/// `/resources type:X` with cards of different values face up: which cards is a choice that
/// changes the outcome, so it is asked (it took them all).
#[test]
fn resources_shortcut_asks_which_cards_when_it_matters() {
    for language in ["en", "de"] {
        let (t, resource) = find("resources-cards", language, "", mixed_values);
        let replies = t.say(&format!("alice /resources type:{resource}"));
        let text = private(&replies, "alice");
        assert!(
            text.contains(&stem(language, "typed.left_open")),
            "{language}: {text}"
        );
        assert!(
            matches!(top(&t.state()), Some(Task::SelectResources { .. })),
            "{language}: the cards are asked: {:?}",
            top(&t.state())
        );
    }
}

/// Alice may use a research scientist now and flip a plan before advancing.
fn may_flip(state: &GameState) -> Option<()> {
    let data = game_data();
    if !alice_chooses_action(state) || state.seats[0].coins < 2 {
        return None;
    }
    let source = engine::legal_decisions(&data, state, 0)
        .into_iter()
        .find(|d| matches!(d, Decision::UseResearch { .. }))?;
    let mut s = state.clone();
    engine::apply(&data, &mut s, 0, source).ok()?;
    engine::legal_decisions(&data, &s, 0)
        .iter()
        .any(|d| matches!(d, Decision::FlipPlan { .. }))
        .then_some(())
}

/// `/research advance:max` says nothing of flipping: flipping (2 CrypCoin, a plan face down)
/// or not changes the outcome, so it is asked (it skipped the flip for the player).
#[test]
fn research_shortcut_asks_whether_to_flip() {
    for language in ["en", "de"] {
        let (t, ()) = find("research-flip", language, "", may_flip);
        let replies = t.say("alice /research advance:max");
        let text = private(&replies, "alice");
        assert!(
            text.contains(&stem(language, "typed.left_open")),
            "{language}: {text}"
        );
        // Asked: which research scientist (two of different values), or else whether to flip;
        // never skipped for her.
        let state = t.state();
        assert!(
            matches!(top(&state), Some(Task::ResearchFlip { .. })) || alice_chooses_action(&state),
            "{language}: {:?}",
            top(&state)
        );
    }
}

/// With linked slots the action slot decides where the card rests: `/plan cards:…` without
/// `slots` does not pick it while several slots are free.
#[test]
fn plan_shortcut_with_linked_slots_asks_the_slot() {
    for language in ["en", "de"] {
        let mut t = Table::sqlite("plan-linked");
        t.start(2, "linked_slots:yes", 3, language);
        // The starting cards' set-up first.
        assert!(t.advance(3, |s| s.phase == Phase::Planning));
        let hand = t.state().seats[0].hand.clone();
        let card = game_data().card(hand[0]).id.clone();
        let replies = t.say(&format!("alice /plan cards:{card}"));
        let text = private(&replies, "alice");
        assert!(
            text.contains(&stem(language, "typed.left_open")),
            "{language}: {text}"
        );
        let me = &t.state().seats[0];
        assert!(
            !me.planned && me.slots.iter().all(Option::is_none),
            "{language}: nothing planned for her"
        );
        // Naming the slot plans it.
        t.say(&format!("alice /plan cards:{card} slots:2 done:no"));
        assert!(t.state().seats[0].slots[1].is_some(), "{language}");
    }
}

// ---- Item 3: lists and undo that survive.

/// "What was seen" 4: after a restart, `/choose N` acts on the list shown before it (it was
/// refused: "You have not been shown a list"), on SQLite and PostgreSQL, list after list; a
/// player never shown one is still refused with the fresh list.
#[test]
fn a_list_shown_before_a_restart_is_chosen_from_after_it() {
    for language in ["en", "de"] {
        for backing in Backing::both(&format!("shown-restart-{language}")) {
            let name = backing_name(&backing);
            let mut t = Table::new(backing);
            t.start(2, "", 5, language);
            // Alice is shown her planner (one list), then the bot restarts.
            t.say(&format!("alice /click o:{}", t.game));
            let before = t.state();
            t.restart();
            let replies = t.say("alice /choose 1");
            let text = private(&replies, "alice");
            assert!(
                !text.contains(&stem(language, "error.choose_unseen")),
                "{name} {language}: the list is remembered: {text}"
            );
            assert_ne!(t.state(), before, "{name} {language}: option 1 was played");
            // The list her choice showed her is the one `/choose` means after the next restart.
            let shown = t.state();
            t.restart();
            t.say("alice /choose 1");
            assert_ne!(t.state(), shown, "{name} {language}: the second list too");
            // Bob never opened his: refused, with the fresh list.
            let replies = t.say("bob /choose 1");
            assert!(
                private(&replies, "bob").contains(&stem(language, "error.choose_unseen")),
                "{name} {language}"
            );
        }
    }
}

/// A seat's moves in its turn, taken back one batch per `/undo` (the second `/undo` said
/// "There is nothing to undo"), back to the batch that passed the turn to it; never further.
#[test]
fn undo_goes_back_one_batch_per_call() {
    for language in ["en", "de"] {
        let (t, ()) = find("undo-steps", language, "", |s| {
            (alice_chooses_action(s)
                && engine::legal_decisions(&game_data(), s, 0).contains(&Decision::UseEnergy))
            .then_some(())
        });
        let final_note = texts(language).t("note.final");
        let start = t.state();
        // Two batches of her turn, neither of them its end: the expansion, then a sector.
        let (first, _, _) = t
            .options("alice")
            .into_iter()
            .find(|(_, l, d)| d.first() == Some(&Decision::UseEnergy) && !l.contains(&final_note))
            .expect("an expansion that goes on");
        t.click("alice", &first);
        let after_first = t.state();
        assert_ne!(after_first, start, "{language}");
        let second = t
            .options("alice")
            .into_iter()
            .find(|(_, l, _)| !l.contains(&final_note));
        if let Some((id, _, _)) = second {
            t.click("alice", &id);
            assert_ne!(t.state(), after_first, "{language}");
            let r = t.say("alice /undo");
            assert_eq!(
                t.state(),
                after_first,
                "{language}: one batch back: {}",
                private(&r, "alice")
            );
        }
        let r = t.say("alice /undo");
        assert_eq!(
            t.state(),
            start,
            "{language}: the next /undo goes back further: {}",
            private(&r, "alice")
        );
        // The batch before hers passed the turn to her (or was another seat's): it stays.
        let r = t.say("alice /undo");
        let text = private(&r, "alice");
        assert!(
            text == texts(language).t("error.undo_revealed")
                || text == texts(language).t("error.undo_other"),
            "{language}: {text}"
        );
        assert_eq!(t.state(), start, "{language}");
    }
}

/// No `/undo` past another seat's batch in effect (B6); once that seat took its batch back, the
/// earlier one is the seat's own last again. In simultaneous planning.
#[test]
fn undo_never_goes_past_another_seats_batch() {
    for language in ["en", "de"] {
        let mut t = Table::sqlite("undo-others");
        t.start(2, "", 8, language);
        let hand = |t: &Table, seat: usize| t.state().seats[seat].hand.clone();
        let card = |t: &Table, seat: usize| game_data().card(hand(t, seat)[0]).id.clone();
        t.say(&format!("alice /plan cards:{} done:no", card(&t, 0)));
        let alice_planned = t.state();
        t.say(&format!("bob /plan cards:{} done:no", card(&t, 1)));
        let r = t.say("alice /undo");
        assert_eq!(
            private(&r, "alice"),
            texts(language).t("error.undo_other"),
            "{language}"
        );
        t.say("bob /undo");
        assert_eq!(
            t.state(),
            alice_planned,
            "{language}: bob's plan is taken back"
        );
        // Bob's batch is undone: alice's is hers to take back (it said "nothing to undo").
        let r = t.say("alice /undo");
        assert!(
            !private(&r, "alice").contains(&texts(language).t("error.undo_nothing")),
            "{language}: {}",
            private(&r, "alice")
        );
        assert!(
            t.state().seats[0].slots.iter().all(Option::is_none),
            "{language}: alice's plan is taken back"
        );
    }
}

/// Stopping early says what it gives up: dropping out with unused cards in the action area
/// names them (it said only "Cannot be undone").
#[test]
fn dropping_out_says_what_it_gives_up() {
    for language in ["en", "de"] {
        let (t, ()) = find("drop-out", language, "", |s| {
            (alice_chooses_action(s) && s.seats[0].up_cards().count() >= 2).then_some(())
        });
        let n = t.state().seats[0].up_cards().count();
        let says = texts(language).f("note.forfeits_cards", &[("n", &n)]);
        let drop_outs: Vec<_> = t
            .options("alice")
            .into_iter()
            .filter(|(_, _, d)| d.first() == Some(&Decision::DropOut))
            .collect();
        assert!(!drop_outs.is_empty(), "{language}: drop out is offered");
        for (_, label, _) in drop_outs {
            assert!(label.contains(&says), "{language}: `{label}` says `{says}`");
        }
    }
}

// ---- Item 5: fewer, clearer prompts.

/// "What was seen" 10: a full lobby (2/2, solo 1/1) shows no Join and no Add button: only
/// Start; a lobby with a seat open shows all three.
#[test]
fn a_full_lobby_offers_only_start() {
    for language in ["en", "de"] {
        let t_ = texts(language);
        let labels = |r: &[Reply]| -> Vec<String> {
            r.iter()
                .flat_map(|r| r.choices.iter().map(|c| c.label.clone()))
                .collect()
        };
        let t = Table::sqlite("lobby-full");
        let r = t.say(&format!(
            "alice /skymines new players:2 seed:3 language:{language}"
        ));
        assert_eq!(
            labels(&r),
            [
                t_.t("button.join"),
                t_.t("button.add_bot"),
                t_.t("button.start")
            ],
            "{language}: a seat is open"
        );
        let r = t.say("bob /skymines join");
        assert_eq!(labels(&r), [t_.t("button.start")], "{language}: 2/2");
        let solo = Table::sqlite("lobby-solo");
        let r = solo.say(&format!(
            "alice /skymines new players:1 luna:2 seed:3 language:{language}"
        ));
        assert_eq!(labels(&r), [t_.t("button.start")], "{language}: 1/1");
    }
}

/// "What was seen" 8: two options of a list that takes one at a time, clicked together, are
/// refused as such (it said "That button is out of date" though nothing had moved on); nothing
/// is played.
#[test]
fn two_options_of_a_single_choice_list_are_refused_as_such() {
    for language in ["en", "de"] {
        let (t, ()) = find("two-ids", language, "", |s| {
            alice_chooses_action(s).then_some(())
        });
        let options = t.options("alice");
        let before = t.state();
        let r = t.click("alice", &format!("{} {}", options[0].0, options[1].0));
        let text = private(&r, "alice");
        assert_eq!(text, texts(language).t("error.one_option"), "{language}");
        assert_ne!(text, texts(language).t("error.stale"), "{language}");
        assert_eq!(t.state(), before, "{language}: nothing played");
        // One of them alone still works: the list was current.
        t.click("alice", &options[0].0);
        assert_ne!(t.state(), before, "{language}");
    }
}

/// Resting cards (a seat dropping out): one multi-select of card and resting slot pairs, one
/// pick per card, all at once (it was one prompt per card), with a line saying where each card
/// went; a pick that uses a slot twice is refused, nothing played.
#[test]
fn resting_cards_is_one_multi_select_with_a_line_per_card() {
    for language in ["en", "de"] {
        let (t, ()) = find("rest-cards", language, "", |s| {
            (matches!(top(s), Some(Task::RestCards { seat: 0, .. }))
                && s.seats[0].slots.iter().flatten().count() >= 2)
                .then_some(())
        });
        let state = t.state();
        let cards: Vec<_> = state.seats[0]
            .slots
            .iter()
            .flatten()
            .map(|c| c.card())
            .collect();
        let choices = t.chat.pending_choices(&place(), local_user_id("alice"));
        assert!(choices.len() <= 25, "{language}");
        let menu = choices[0].menu.clone().expect("a select menu");
        assert!(
            choices.iter().all(|c| c.menu.as_ref() == Some(&menu)),
            "{language}: one menu"
        );
        assert_eq!(menu.max_values as usize, cards.len(), "{language}");
        // Each card to its own slot: the first free slot for each, in turn.
        let options = t.options("alice");
        let mut picked: Vec<String> = Vec::new();
        let mut used: Vec<u8> = Vec::new();
        for card in &cards {
            let (id, _, _) = options
                .iter()
                .find(|(_, _, d)| {
                    matches!(d.as_slice(), [Decision::RestCard { card: c, slot }] if c == card && !used.contains(slot))
                })
                .expect("a slot for each card");
            if let [Decision::RestCard { slot, .. }] = t
                .chat
                .click_decisions(local_user_id("alice"), id)
                .as_slice()
            {
                used.push(*slot);
            }
            picked.push(id.clone());
        }
        // The same slot twice: refused.
        let twice = options
            .iter()
            .filter(|(_, _, d)| matches!(d.as_slice(), [Decision::RestCard { slot, .. }] if *slot == used[0]))
            .map(|(id, _, _)| id.clone())
            .take(2)
            .collect::<Vec<_>>();
        if twice.len() == 2 {
            let r = t.click("alice", &twice.join(" "));
            assert_eq!(
                private(&r, "alice"),
                texts(language).t("error.rest_pick"),
                "{language}"
            );
            assert_eq!(t.state(), state, "{language}");
        }
        let r = t.click("alice", &picked.join(" "));
        let after = t.state();
        assert!(
            after.seats[0].slots.iter().all(Option::is_none),
            "{language}: all rested"
        );
        let lines = r
            .iter()
            .map(|r| r.text.clone())
            .collect::<Vec<_>>()
            .join("\n");
        for (card, slot) in cards.iter().zip(&used) {
            let line = texts(language).f(
                "event.rested_card",
                &[
                    ("card", &game_data().card_label(*card)),
                    ("slot", &(usize::from(*slot) + 1)),
                ],
            );
            let line = texts(language).resolve(&line);
            assert!(lines.contains(&line), "{language}: `{line}` in\n{lines}");
        }
    }
}

/// Placing acquired research plans: one plan at a time, its screens only, with a button to
/// place another plan first; never a second page (it was every plan on every screen: 30
/// options and "More choices").
#[test]
fn plans_are_placed_one_plan_at_a_time() {
    for language in ["en", "de"] {
        let (t, ()) = find("place-plans", language, "", |s| {
            (matches!(top(s), Some(Task::PlacePlans { seat: 0 })) && s.seats[0].acquired.len() >= 2)
                .then_some(())
        });
        let plans = t.state().seats[0].acquired.len();
        let r = t.say(&format!("alice /click o:{}", t.game));
        let prompt = r
            .iter()
            .find(|r| !r.choices.is_empty())
            .expect("the prompt");
        let numbered: Vec<_> = prompt
            .choices
            .iter()
            .filter(|c| c.number.is_some() && !c.custom_id.starts_with("f:"))
            .collect();
        assert!(
            numbered.len() <= 20,
            "{language}: {} options",
            numbered.len()
        );
        for c in &numbered {
            let d = t.chat.click_decisions(local_user_id("alice"), &c.custom_id);
            assert!(
                matches!(d.as_slice(), [Decision::PlacePlan { index: 0, .. }]),
                "{language}: only the first plan's screens: {d:?}"
            );
        }
        let first_others: Vec<_> = prompt
            .choices
            .iter()
            .filter(|c| c.number.is_none() || c.custom_id.starts_with("f:"))
            .collect();
        assert!(
            first_others.iter().all(|c| !c.custom_id.starts_with("p:")),
            "{language}: no page button"
        );
        // `/choose N` takes them by the numbers that follow the screens' options.
        let after: Vec<Option<usize>> = first_others.iter().map(|c| c.number).collect();
        let expected: Vec<Option<usize>> = (0..first_others.len())
            .map(|k| Some(numbered.len() + k + 1))
            .collect();
        assert_eq!(after, expected, "{language}: numbered on");
        assert_eq!(
            first_others.len(),
            plans - 1,
            "{language}: a button per other plan"
        );
        // "Place … first" shows that plan's screens.
        let r = t.click("alice", &first_others[0].custom_id);
        let prompt = r
            .iter()
            .find(|r| !r.choices.is_empty())
            .expect("its prompt");
        assert!(
            prompt
                .choices
                .iter()
                .filter(|c| c.number.is_some() && !c.custom_id.starts_with("f:"))
                .all(|c| {
                    matches!(
                        t.chat.click_decisions(local_user_id("alice"), &c.custom_id).as_slice(),
                        [Decision::PlacePlan { index, .. }] if *index != 0
                    )
                }),
            "{language}"
        );
        assert!(
            first_others[0]
                .label
                .starts_with(&stem(language, "label.place_first")),
            "{language}"
        );
    }
}

/// The station column is asked only among columns that end differently: two columns that
/// give the same are one option (it listed every column).
#[test]
fn a_column_is_offered_once_per_outcome() {
    let data = game_data();
    let twin_columns = |s: &GameState| {
        if !matches!(top(s), Some(Task::PickColumn { seat: 0, .. })) {
            return None;
        }
        let legal = engine::legal_decisions(&game_data(), s, 0);
        let previews: Vec<_> = legal
            .iter()
            .map(|d| engine::preview(&game_data(), s, 0, *d).ok())
            .collect();
        let twins = previews
            .iter()
            .enumerate()
            .any(|(i, p)| previews[..i].contains(p));
        twins.then_some(legal.len())
    };
    for language in ["en", "de"] {
        let (t, legal) = find("column-once", language, "", twin_columns);
        let options = t.options("alice");
        assert!(options.len() < legal, "{language}: {options:?}");
        let state = t.state();
        let previews: Vec<_> = options
            .iter()
            .map(|(_, _, d)| engine::preview(&data, &state, 0, d[0]).ok())
            .collect();
        for (i, p) in previews.iter().enumerate() {
            assert!(
                !previews[..i].contains(p),
                "{language}: options end differently"
            );
        }
    }
}
