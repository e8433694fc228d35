//! How many clicks a person needs to play a game through the chat layer. Seeded games are played
//! by computer players (the normal level, one playout: reproducible), each seat's decisions
//! carried out as a person would through the prompts the chat shows: one click on an option, one
//! click for several options of one select menu (as Discord sends a multi-select's picks
//! together), one click per page turned to reach an option, and one click on the Plan / Your
//! turn button of a ping when the person has no current prompt. Nothing is typed.
//!
//! The chat may offer a decision in another form than the engine's (one option per kind of
//! Belt space, a planned card in the first open slot): an option counts as the decision a seat
//! wanted when it is the same decision or the same kind with the same preview. A decision no
//! prompt offers fails the test: the prompts must never hide a legal choice.
//!
//! The figure: `cargo test --release --test chat prompt_counts:: -- --nocapture` prints the
//! clicks of each game and the total, by question; `SKYMINES_PROMPT_GAMES=N` plays the first N
//! of the 20 games (CI plays a few).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skymines::bots::{self, Budget, Level};
use skymines::chat::{local_user_id, Audience, Chat, ChatConfig, ManualClock, Reply};
use skymines::data::GameData;
use skymines::engine::{self, Decision, GameState, Phase};
use skymines::local::{parse_line, LOCAL_CHANNEL};
use skymines::store::{Location, Store, StoreOptions, Synchronous};
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::support::{shared_data as game_data, TempDir};

const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

/// The 20 games: player count and options of `/skymines new`, and the seed.
const GAMES: [(usize, &str, u64); 20] = [
    (2, "", 1),
    (2, "", 2),
    (3, "", 3),
    (4, "", 4),
    (1, "luna:2", 5),
    (2, "luna:1", 6),
    (2, "board:belt", 7),
    (3, "board:belt", 8),
    (2, "missions:yes", 9),
    (3, "missions:yes", 10),
    (2, "linked_slots:yes", 11),
    (2, "tokens:draft", 12),
    (2, "board:belt threats:yes", 13),
    (1, "luna:4", 14),
    (3, "luna:2", 15),
    (2, "", 16),
    (3, "", 17),
    (4, "board:belt", 18),
    (2, "tracks:random", 19),
    (2, "missions:yes board:belt", 20),
];

/// Clicks a person made, by kind.
#[derive(Default, Debug, Clone)]
struct Counts {
    /// Clicks on an option (one per menu pick, however many options it picks).
    decide: BTreeMap<String, usize>,
    /// Clicks that turn a page or narrow a list.
    navigate: usize,
    /// Clicks on a ping's Plan / Your turn button.
    open: usize,
    /// Engine decisions carried out (for the clicks per decision).
    decisions: usize,
}

impl Counts {
    fn total(&self) -> usize {
        self.decide.values().sum::<usize>() + self.navigate + self.open
    }

    fn add(&mut self, other: &Counts) {
        for (k, n) in &other.decide {
            *self.decide.entry(k.clone()).or_default() += n;
        }
        self.navigate += other.navigate;
        self.open += other.open;
        self.decisions += other.decisions;
    }
}

struct Player {
    chat: Chat,
    data: Arc<GameData>,
    _dir: TempDir,
    game: i64,
    /// The last prompt each user was shown (a private reply or DM with options).
    prompts: BTreeMap<u64, Reply>,
    /// Each seat's decisions thought out ahead, with the state they start from.
    queues: BTreeMap<usize, (GameState, Vec<Decision>)>,
    rngs: Vec<ChaCha8Rng>,
    counts: Counts,
}

fn place() -> Location {
    Location {
        guild: None,
        channel: LOCAL_CHANNEL,
    }
}

impl Player {
    fn new(tag: &str) -> Player {
        let dir = TempDir::new(&format!("prompt-counts-{tag}"));
        let data = game_data();
        let options = StoreOptions {
            synchronous: Synchronous::Normal,
            ..StoreOptions::default()
        };
        let (store, _) = Store::open(dir.join("t.db"), data.clone(), options).expect("store");
        let config = ChatConfig {
            images: false,
            rate_limit: 0,
            owners: vec![local_user_id("alice")],
            ..ChatConfig::default()
        };
        Player {
            chat: Chat::new(
                Arc::new(store),
                Arc::new(ManualClock::new(1_700_000_000_000)),
                config,
            ),
            data,
            _dir: dir,
            game: 0,
            prompts: BTreeMap::new(),
            queues: BTreeMap::new(),
            rngs: Vec::new(),
            counts: Counts::default(),
        }
    }

    fn store(&self) -> Arc<Store> {
        self.chat.store()
    }

    fn state(&self) -> GameState {
        (*self.store().games().state(self.game).expect("state")).clone()
    }

    /// Says one line as its user; keeps the prompts the replies show.
    fn say(&mut self, line: &str) -> Vec<Reply> {
        let req = parse_line(line, &[local_user_id("alice")])
            .expect("line parses")
            .expect("not blank");
        let replies = self.chat.handle(&req);
        for r in &replies {
            if let Audience::Private(u) | Audience::Dm(u) = r.audience {
                if r.choices.iter().any(|c| c.number.is_some()) {
                    self.prompts.insert(u, r.clone());
                }
            }
        }
        replies
    }

    fn start(&mut self, players: usize, extra: &str, seed: u64) {
        self.say(&format!(
            "alice /skymines new players:{players} seed:{seed} {extra}"
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
            .expect("a game started");
        self.rngs = (0..players)
            .map(|i| ChaCha8Rng::seed_from_u64(seed ^ 0x0b07 ^ ((i as u64) << 40)))
            .collect();
    }

    /// The decisions `seat` wants next, as far as it decides alone: thought out on a copy of
    /// the game until the question passes to another seat or the phase changes.
    fn wanted(&mut self, seat: usize) -> Vec<Decision> {
        let state = self.state();
        if let Some((from, queue)) = self.queues.get(&seat) {
            if *from == state && !queue.is_empty() {
                return queue.clone();
            }
        }
        let mut scratch = state.clone();
        let mut queue = Vec::new();
        while queue.len() < 12
            && scratch.phase == state.phase
            && scratch.round == state.round
            && engine::waiting_on(&scratch).contains(&seat)
        {
            let Some(d) = bots::decide(
                Level::Normal,
                &self.data,
                &scratch,
                seat,
                &mut self.rngs[seat],
                Budget::playouts(1),
            ) else {
                break;
            };
            engine::apply(&self.data, &mut scratch, seat, d).expect("a bot's decision is legal");
            queue.push(d);
            if engine::turn_stamp(&scratch, seat) != engine::turn_stamp(&state, seat) {
                break;
            }
        }
        let queue = self.normalized(&state, seat, queue);
        self.queues.insert(seat, (state, queue.clone()));
        queue
    }

    /// The same decisions in the order a person gives them when the order changes nothing:
    /// a run of track steps company by company, a card selection in the order the cards lie,
    /// acquired plans placed in the order acquired (on different screens).
    fn normalized(&self, state: &GameState, seat: usize, queue: Vec<Decision>) -> Vec<Decision> {
        let data = &self.data;
        let run = |f: fn(&Decision) -> bool| {
            queue.iter().position(&f).map(|start| {
                let len = queue[start..].iter().take_while(|d| f(d)).count();
                (start, len)
            })
        };
        let replay = |q: &[Decision]| -> Option<GameState> {
            let mut s = state.clone();
            for d in q {
                engine::apply(data, &mut s, seat, *d).ok()?;
            }
            Some(s)
        };
        let mut queue = queue.clone();
        // Track steps, company by company (first named first), where the end is the same.
        if let Some((start, len)) = run(|d| matches!(d, Decision::TrackStep { .. })) {
            let steps = &queue[start..start + len];
            let mut grouped: Vec<Decision> = Vec::new();
            for d in steps {
                if !grouped.contains(d) {
                    grouped.extend(steps.iter().filter(|x| *x == d));
                }
            }
            let mut q = queue.clone();
            q.splice(start..start + len, grouped);
            if replay(&q).is_some() && replay(&q) == replay(&queue) {
                queue = q;
            }
        }
        // A card selection: the cards in the order they lie (a set of cards either way).
        if let Some((start, len)) = run(|d| matches!(d, Decision::SelectCard { .. })) {
            let order: Vec<_> = state.seats[seat].up_cards().map(|(_, c)| c).collect();
            let mut picks = queue[start..start + len].to_vec();
            picks.sort_by_key(|d| match d {
                Decision::SelectCard { card } => order.iter().position(|c| c == card),
                _ => None,
            });
            let mut q = queue.clone();
            q.splice(start..start + len, picks);
            if replay(&q).is_some() {
                queue = q;
            }
        }
        // Plans placed in the order acquired, when they go to different screens.
        if let Some((start, len)) = run(|d| matches!(d, Decision::PlacePlan { .. })) {
            let Some(mut s) = replay(&queue[..start]) else {
                return queue;
            };
            let acquired = s.seats[seat].acquired.clone();
            let mut placed = Vec::new();
            for d in &queue[start..start + len] {
                if let Decision::PlacePlan { index, screen } = *d {
                    let plan = s.seats[seat].acquired.get(usize::from(index)).copied();
                    placed.push((plan, screen));
                    let _ = engine::apply(data, &mut s, seat, *d);
                }
            }
            let mut screens: Vec<u8> = placed.iter().map(|(_, sc)| *sc).collect();
            screens.sort();
            screens.dedup();
            if screens.len() == placed.len() {
                placed.sort_by_key(|(plan, _)| acquired.iter().position(|p| Some(*p) == *plan));
                let mut left = acquired.clone();
                let mut in_order = Vec::new();
                for (plan, screen) in placed {
                    let Some(index) = left.iter().position(|p| Some(*p) == plan) else {
                        return queue;
                    };
                    left.remove(index);
                    in_order.push(Decision::PlacePlan {
                        index: index as u8,
                        screen,
                    });
                }
                let mut q = queue.clone();
                q.splice(start..start + len, in_order);
                if replay(&q).is_some() && replay(&q) == replay(&queue) {
                    queue = q;
                }
            }
        }
        queue
    }

    /// Whether option `e` gives what decision `d` gives (the same decision, or the same kind of
    /// decision with the same preview) on `state`.
    fn same(&self, state: &GameState, seat: usize, d: Decision, e: Decision) -> bool {
        if d == e {
            return true;
        }
        // A decision is JSON tagged with its kind ("d").
        let kind = |x: Decision| {
            serde_json::to_value(x)
                .ok()
                .and_then(|v| v.get("d").and_then(|k| k.as_str()).map(str::to_string))
                .unwrap_or_default()
        };
        if kind(d) != kind(e) {
            return false;
        }
        // A card is the same card when it has the same face (alike cards are alike).
        let face = |x: Decision| {
            let def = self.data.card(card_of(x)? as _);
            Some(format!("{:?}{}{:?}", def.kind, def.value, def.share))
        };
        if face(d) != face(e) {
            return false;
        }
        // Alike cards differ only in which cards the preview names: the card itself and the
        // cards chosen so far, which the question that follows lists (`next`). So the preview
        // of `e` is read with the two cards' names exchanged. What else tells the two apart
        // leaves the player nothing different: which lies face down for the rest of the round
        // (dropping out turns every card of the action area face up before it rests) and its
        // back, which goes where the card goes either way. The units each gives (the "+1"
        // tile) are in the preview and must match.
        let json = |p: Result<engine::Preview, _>| serde_json::to_value(p.ok()?).ok();
        let (Some(pd), Some(mut pe)) = (
            json(engine::preview(&self.data, state, seat, d)),
            json(engine::preview(&self.data, state, seat, e)),
        ) else {
            return false;
        };
        if let (Some(a), Some(b)) = (card_of(d), card_of(e)) {
            swap_cards(&mut pe, a, b);
        }
        pd == pe
    }

    /// How many of `wanted` (from the start) the options `ids` carry out, picked together;
    /// None when they do not start it.
    fn covers(&self, user: u64, seat: usize, wanted: &[Decision], ids: &[&str]) -> Option<usize> {
        let mut state = self.state();
        let mut n = 0;
        let mut swaps: Vec<(u64, u64)> = Vec::new();
        for id in ids {
            for mut e in self.chat.click_decisions(user, id) {
                // Cards picked together from the hand's menu fill the open slots from the left
                // (without linked slots, where the slot changes nothing).
                if let Decision::PlanCard { card, .. } = e {
                    let me = &state.seats[seat];
                    let free = (0..5u8)
                        .find(|&i| me.slot_on[i as usize] && me.slots[i as usize].is_none());
                    if let (false, Some(slot)) = (state.options.linked_slots, free) {
                        e = Decision::PlanCard { card, slot };
                    }
                }
                // Past what was thought out (an option that carries a further step, such as a
                // station column), the player's next decision there is wanted.
                let next = match wanted.get(n) {
                    Some(d) => *d,
                    None => bots::decide(
                        Level::Normal,
                        &self.data,
                        &state,
                        seat,
                        &mut self.rngs.get(seat)?.clone(),
                        Budget::playouts(1),
                    )?,
                };
                // An alike card used in place of the one wanted stands for it from then on.
                let mut d = swaps
                    .iter()
                    .fold(next, |d, (from, to)| with_card(d, *from, *to));
                // Without linked slots a planned card's slot changes nothing.
                if let (Decision::PlanCard { card, .. }, Decision::PlanCard { slot, .. }) = (d, e) {
                    if !state.options.linked_slots {
                        d = Decision::PlanCard { card, slot };
                    }
                }
                if !self.same(&state, seat, d, e) {
                    return None;
                }
                if let (Some(want), Some(used)) = (card_of(d), card_of(e)) {
                    if want != used {
                        swaps.push((used, want));
                    }
                }
                engine::apply(&self.data, &mut state, seat, e).ok()?;
                n += 1;
            }
        }
        (n > 0).then_some(n)
    }

    /// The best click of `prompt` towards `wanted`: the option ids to send together and how
    /// many wanted decisions they carry out.
    fn best_click(
        &self,
        user: u64,
        seat: usize,
        prompt: &Reply,
        wanted: &[Decision],
    ) -> Option<(Vec<String>, usize)> {
        let mut best: Option<(Vec<String>, usize)> = None;
        let mut consider = |ids: Vec<String>, n: usize| {
            if best.as_ref().is_none_or(|(_, m)| n > *m) {
                best = Some((ids, n));
            }
        };
        for c in prompt.choices.iter().filter(|c| c.number.is_some()) {
            if let Some(n) = self.covers(user, seat, wanted, &[c.custom_id.as_str()]) {
                consider(vec![c.custom_id.clone()], n);
            }
        }
        // Several options of one multi-select menu, picked greedily in the order wanted.
        let menus: Vec<_> = prompt
            .choices
            .iter()
            .filter_map(|c| c.menu.clone())
            .filter(|m| m.max_values > 1)
            .collect();
        for menu in menus {
            let options: Vec<&str> = prompt
                .choices
                .iter()
                .filter(|c| c.menu.as_ref() == Some(&menu))
                .map(|c| c.custom_id.as_str())
                .collect();
            let mut picked: Vec<&str> = Vec::new();
            let mut covered = 0;
            while picked.len() < menu.max_values as usize {
                let next = options
                    .iter()
                    .filter(|o| !picked.contains(o))
                    .find_map(|o| {
                        let mut ids = picked.clone();
                        ids.push(o);
                        self.covers(user, seat, wanted, &ids)
                            .filter(|n| *n > covered)
                            .map(|n| (*o, n))
                    });
                match next {
                    Some((o, n)) => {
                        picked.push(o);
                        covered = n;
                    }
                    None => break,
                }
            }
            if covered > 0 {
                consider(picked.iter().map(|s| s.to_string()).collect(), covered);
            }
        }
        best
    }

    /// Whether `prompt` is still current: its options are among those the seat is offered now.
    fn current(&self, user: u64, prompt: &Reply) -> bool {
        let fresh: Vec<String> = self
            .chat
            .pending_choices(&place(), user)
            .into_iter()
            .map(|c| c.custom_id)
            .collect();
        prompt
            .choices
            .iter()
            .filter(|c| c.number.is_some() && !c.custom_id.starts_with("f:"))
            .all(|c| fresh.contains(&c.custom_id))
    }

    /// One interaction of `name`: opens the prompt if need be, turns pages until an option
    /// carries out the next wanted decisions, and clicks it.
    fn act(&mut self, name: &str) {
        let user = local_user_id(name);
        let state = self.state();
        let seat = state
            .seats
            .iter()
            .position(|s| s.name == name)
            .expect("a seat");
        let wanted = self.wanted(seat);
        assert!(!wanted.is_empty(), "{name} is waited on but wants nothing");
        let shown = self.prompts.get(&user).cloned();
        let mut prompt = match shown {
            Some(p) if self.current(user, &p) => p,
            _ => {
                self.counts.open += 1;
                self.say(&format!("{name} /click o:{}", self.game));
                self.prompts
                    .get(&user)
                    .cloned()
                    .expect("the Plan / Your turn button shows a prompt")
            }
        };
        // Pages and narrowing clicks, breadth first, until an option carries the decision.
        let mut navigated = 0;
        let mut tried: Vec<String> = Vec::new();
        let click = loop {
            if let Some(best) = self.best_click(user, seat, &prompt, &wanted) {
                break best;
            }
            let next = prompt
                .choices
                .iter()
                // "Place … first" is numbered for `/choose` but narrows like a page button.
                .filter(|c| c.number.is_none() || c.custom_id.starts_with("f:"))
                .filter(|c| !tried.contains(&c.custom_id))
                .find(|c| !c.custom_id.starts_with("o:") && !c.custom_id.starts_with("l:"))
                .map(|c| c.custom_id.clone());
            let Some(next) = next else {
                panic!(
                    "{name} (round {}, {:?}) wants {:?}; the prompt offers none of it:\n{}\n{:#?}",
                    state.round,
                    state.phase,
                    wanted,
                    prompt.text,
                    prompt.choices.iter().map(|c| &c.label).collect::<Vec<_>>()
                );
            };
            tried.push(next.clone());
            navigated += 1;
            assert!(
                navigated < 6,
                "{name}: no option found after {navigated} pages"
            );
            self.say(&format!("{name} /click {next}"));
            prompt = self.prompts.get(&user).cloned().expect("a page");
        };
        self.counts.navigate += navigated;
        let kind = question(&state, seat);
        *self.counts.decide.entry(kind.clone()).or_default() += 1;
        self.counts.decisions += click.1;
        if std::env::var("SKYMINES_PROMPT_TRACE").is_ok() {
            println!(
                "{name} {kind}: {} of {:?}",
                click.1,
                &wanted[..wanted.len().min(4)]
            );
        }
        let before = state;
        self.prompts.remove(&user);
        let replies = self.say(&format!("{name} /click {}", click.0.join(" ")));
        let after = self.state();
        assert!(
            after != before,
            "{name}'s click changed nothing: {:?}",
            replies.iter().map(|r| &r.text).collect::<Vec<_>>()
        );
        // What was thought out beyond the click stays wanted when the game is where it was
        // thought to be.
        if let Some((from, queue)) = self.queues.get_mut(&seat) {
            let mut expected = from.clone();
            let done: Vec<Decision> = queue.drain(..click.1.min(queue.len())).collect();
            for d in &done {
                let _ = engine::apply(&self.data, &mut expected, seat, *d);
            }
            if expected == after {
                *from = after;
            } else {
                queue.clear();
            }
        }
    }

    /// Plays the game to its end; returns its clicks.
    fn play(&mut self, players: usize) -> Counts {
        let mut steps = 0;
        loop {
            let waiting = self.chat.waiting_users(&place());
            let Some(&user) = waiting.first() else {
                break;
            };
            steps += 1;
            assert!(steps < 5_000, "the game does not end");
            let name = NAMES[..players]
                .iter()
                .find(|n| local_user_id(n) == user)
                .expect("a waited-on user is a player");
            self.act(name);
        }
        assert_eq!(self.state().phase, Phase::Finished, "the game ended");
        self.counts.clone()
    }
}

/// The card a decision names, if any.
fn card_of(d: Decision) -> Option<u64> {
    serde_json::to_value(d).ok()?.get("card")?.as_u64()
}

/// `d` with card `from` named `to` instead (two alike cards trade places).
fn with_card(d: Decision, from: u64, to: u64) -> Decision {
    let swap = |c: u64| {
        if c == from {
            to
        } else if c == to {
            from
        } else {
            c
        }
    };
    match card_of(d) {
        Some(c) if c == from || c == to => {
            let mut v = serde_json::to_value(d).expect("a decision is JSON");
            v["card"] = serde_json::json!(swap(c));
            serde_json::from_value(v).unwrap_or(d)
        }
        _ => d,
    }
}

/// Exchanges cards `a` and `b` wherever `v` (a preview as JSON) names a card: the fields
/// `card`, `on_card`, `chosen` and `cards`, at any depth.
fn swap_cards(v: &mut serde_json::Value, a: u64, b: u64) {
    let swap = |x: &mut serde_json::Value| match x.as_u64() {
        Some(c) if c == a => *x = serde_json::json!(b),
        Some(c) if c == b => *x = serde_json::json!(a),
        _ => {}
    };
    match v {
        serde_json::Value::Object(fields) => {
            for (key, x) in fields.iter_mut() {
                match (key.as_str(), x) {
                    ("card" | "on_card", x) => swap(x),
                    ("chosen" | "cards", serde_json::Value::Array(xs)) => {
                        xs.iter_mut().for_each(swap)
                    }
                    (_, x) => swap_cards(x, a, b),
                }
            }
        }
        serde_json::Value::Array(xs) => xs.iter_mut().for_each(|x| swap_cards(x, a, b)),
        _ => {}
    }
}

/// What a click answered: the phase, or the pending question's catalog key.
fn question(state: &GameState, seat: usize) -> String {
    match state.phase {
        Phase::Action => state
            .agenda
            .last()
            .filter(|t| t.seat() == seat)
            .map(|t| {
                engine::task_description(t)
                    .trim_start_matches("task.")
                    .to_string()
            })
            .unwrap_or_else(|| "action".to_string()),
        p => format!("{p:?}").to_lowercase(),
    }
}

#[test]
fn clicks_a_person_needs_for_twenty_computer_player_games() {
    let games: usize = std::env::var("SKYMINES_PROMPT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(GAMES.len())
        .min(GAMES.len());
    let mut total = Counts::default();
    for (players, extra, seed) in GAMES.iter().take(games) {
        let mut p = Player::new(&format!("g{seed}"));
        p.start(*players, extra, *seed);
        let counts = p.play(*players);
        println!(
            "game {seed:>2} ({players}p {extra:<24}): {:>4} clicks for {:>4} decisions",
            counts.total(),
            counts.decisions
        );
        total.add(&counts);
    }
    println!(
        "{games} games: {} clicks ({} on options, {} pages and narrowing, {} Plan / Your turn) for {} decisions",
        total.total(),
        total.decide.values().sum::<usize>(),
        total.navigate,
        total.open,
        total.decisions
    );
    let mut by: Vec<_> = total.decide.iter().collect();
    by.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
    for (k, n) in by {
        println!("  {k:<28} {n:>5}");
    }
}
