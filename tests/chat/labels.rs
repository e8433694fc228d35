//! Option labels that say what the click does (issue 34, "texts true to the state"): the two
//! games a tester played through the local mode (their typed lines in `replays/`) replayed
//! line by line, and the options that promised something else checked where they were shown.
//! Each check quotes what the old label said.

use crate::support::chat::{owner_alice_config, Table};
use skymines::chat::{Choice, Reply};

/// Every typed line of a replayed game with the replies it got.
struct Replayed {
    lines: Vec<(String, Vec<Reply>)>,
}

impl Replayed {
    fn play(tag: &str, script: &str) -> Replayed {
        let mut t = Table::new(tag, owner_alice_config());
        let lines = script
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| (l.to_string(), t.say(l)))
            .collect();
        Replayed { lines }
    }

    /// The first reply (after line `from`, 0-based) whose text holds `needle`, with its line's
    /// index.
    fn reply_after(&self, from: usize, needle: &str) -> (usize, &Reply) {
        self.lines
            .iter()
            .enumerate()
            .skip(from)
            .find_map(|(i, (_, rs))| rs.iter().find(|r| r.text.contains(needle)).map(|r| (i, r)))
            .unwrap_or_else(|| panic!("no reply says {needle:?}"))
    }

    /// Every choice shown in the game.
    fn choices(&self) -> impl Iterator<Item = &Choice> {
        self.lines
            .iter()
            .flat_map(|(_, rs)| rs.iter().flat_map(|r| r.choices.iter()))
    }
}

/// The choice of `reply` whose label starts with `label`.
fn choice<'a>(reply: &'a Reply, label: &str) -> &'a Choice {
    reply
        .choices
        .iter()
        .find(|c| c.label.starts_with(label))
        .unwrap_or_else(|| panic!("no option {label:?} in {:?}", reply.text))
}

fn game1() -> Replayed {
    Replayed::play("labels-game1", include_str!("replays/game1.txt"))
}

fn game2() -> Replayed {
    Replayed::play("labels-game2", include_str!("replays/game2.txt"))
}

/// Point 1: advancing onto a flipped plan or a special plan promises no plan reward, and the
/// flipped plan is named as flipped (old: `Advance to screen 7: special plan 3 … then +2 on a
/// company track of your choice`, `Advance to screen 3: [3 titanium + 2 minerals → …] — then 2
/// RP`).
#[test]
fn advancing_onto_a_flipped_or_special_plan_promises_no_reward() {
    let g = game2();
    let (_, flipped) = g.reply_after(0, "on screen 6 face down");
    let special = choice(flipped, "Advance to screen 7");
    assert!(
        !special.description.contains("track of your choice"),
        "a special plan gives no reward: {}",
        special.description
    );
    let onto_flipped = choice(flipped, "Advance to screen 6");
    assert!(
        onto_flipped.label.contains("flipped plan"),
        "{}",
        onto_flipped.label
    );
    assert!(
        !onto_flipped.description.contains("track of your choice"),
        "{}",
        onto_flipped.description
    );
    let g = game1();
    let (_, flipped) = g.reply_after(0, "on screen 3 face down");
    let onto_flipped = choice(flipped, "Advance to screen 3");
    assert!(
        onto_flipped.label.contains("flipped plan"),
        "{}",
        onto_flipped.label
    );
    assert!(
        !onto_flipped.description.contains("then 2 RP"),
        "{}",
        onto_flipped.description
    );
}

/// Points 2 and 3: a research scientist reaching a plan that gives 1 RP has 3 RP to use (the
/// plan's 1 and the card's 2); the advance says so, the question gives both sources and each
/// CrypCoin option costs its own RP (old: `1 RP to use`, `Utilize 1 research point`, `(10) 2
/// CrypCoin — 1 RP (1 left)`, `(11) 3 CrypCoin — 1 RP (0 left)`).
#[test]
fn research_points_are_counted_whole() {
    let g = game1();
    let (i, asked) = g.reply_after(0, "Choose: advancing the upload marker");
    let advance = choice(asked, "Advance the upload marker");
    assert!(
        advance.description.contains("3 RP to use"),
        "{}",
        advance.description
    );
    let (_, spend) = g.reply_after(i + 1, "research point");
    assert!(
        // The plan's point now, the card's two after it (two sources are used one by one:
        // the C plans, 2 RP from one source, wait for the card's points).
        spend
            .text
            .contains("Utilize 1 research point now, then 2 more"),
        "{}",
        spend.text
    );
    for (label, cost) in [
        ("1 CrypCoin", "1 RP (2 left)"),
        ("2 CrypCoin", "2 RP (1 left)"),
        ("3 CrypCoin", "3 RP (0 left)"),
        ("Take plan", "1 RP (2 left)"),
    ] {
        let c = choice(spend, label);
        assert!(
            c.description.starts_with(cost),
            "{label}: {}",
            c.description
        );
    }
}

/// Point 4: a sector entered with the last energy pays its structures at once; they are not
/// promised again as "then …" (old: `Sector 22 … — 1 energy (0 left), tank +1, …, then tank
/// +1.`).
#[test]
fn a_last_sector_reward_is_counted_once() {
    let g = game1();
    let last: Vec<&Choice> = g
        .choices()
        .filter(|c| c.label.starts_with("Sector 22") && c.description.contains("energy (0 left)"))
        .collect();
    assert!(!last.is_empty());
    for c in last {
        assert!(
            !c.description.contains("then tank"),
            "{}: {}",
            c.label,
            c.description
        );
    }
}

/// Point 5: a majority tier's option names all it gives, its research points included, and one
/// that gives nothing says so (old: `research scientist majority — Reward tier 2 — +2
/// CrypCoin.`, `energy majority — Reward tier 2 — Skymine Resources track +3, Skymine Resources
/// shares +1.`, `energy majority — Reward tier 2` with nothing after it).
#[test]
fn majority_tiers_name_their_research_points() {
    let g2 = game2();
    let g1 = game1();
    for label in [
        "Bonus space: research scientist majority — Reward tier 2",
        "Bonus space: energy majority — Reward tier 2",
    ] {
        // A tier whose track move stops at a money barrier names its research point after
        // the barrier's question: it comes whatever the answer.
        let (stopped, shown): (Vec<&Choice>, Vec<&Choice>) = g1
            .choices()
            .chain(g2.choices())
            .filter(|c| c.label == label)
            .partition(|c| c.description.contains("money barrier"));
        assert!(!shown.is_empty(), "{label}");
        for c in shown {
            assert!(
                c.description.contains("1 RP to use") || c.description.contains("Gains nothing"),
                "{label}: {}",
                c.description
            );
            assert!(!c.description.is_empty(), "{label}: says nothing");
        }
        for c in stopped.iter().filter(|_| label.contains("energy")) {
            let barrier = c.description.find("money barrier").unwrap_or(0);
            let rp = c.description.rfind("1 RP");
            assert!(
                rp.is_some_and(|at| at > barrier),
                "{label}: {}",
                c.description
            );
        }
    }
}

/// Point 6: `/choose N` picks "Place … first" by the number the list shows (old: `bob /choose
/// 11` → `There is no option 11; choose 1 to 10.`).
#[test]
fn choose_picks_place_first_by_its_number() {
    let g = game1();
    let (i, shown) = g.reply_after(0, "Choose: where to place your new research plans");
    let first = shown
        .choices
        .iter()
        .find(|c| c.label.starts_with("Place ") && c.label.ends_with(" first"))
        .expect("a Place … first option");
    let n = first.number.expect("numbered for /choose");
    let (line, replies) = g.lines[i + 1..]
        .iter()
        .find(|(l, _)| l.ends_with(&format!("/choose {n}")))
        .expect("the tester chose it by number");
    let text: Vec<&str> = replies.iter().map(|r| r.text.as_str()).collect();
    assert!(
        !text.iter().any(|t| t.contains("There is no option")),
        "{line}: {text:?}"
    );
}

/// Point 7: an expansion option into an occupied sector says whose outpost it ousts (old:
/// `Sector 11 (outpost from column 1) — 2 energy (2 left), then 2 RP, Minerva Corp. share value
/// 8→9.` while sector 11 held Astrogo).
#[test]
fn expansion_options_name_the_oust() {
    let g = game1();
    let c = g
        .choices()
        .find(|c| {
            c.label == "Sector 11 (outpost from column 1)"
                && c.description.contains("Minerva Corp. share value 8→9")
        })
        .expect("the option the tester saw");
    assert!(c.description.contains("ousts Astrogo"), "{}", c.description);
}
