//! "Cannot be undone" (issue 34, item 3; DECISIONS B6): an option says it exactly when `/undo`
//! refuses to take it back right after, both decided by one function
//! (`engine::undo_refused_after`, over `engine::undo_barrier`), in English and German.
//!
//! The check used to click one option of each prompt at random. A choice whose options disagree
//! on the note (a majority space's reward tiers, the companies of an expansion, the ends of a
//! card selection) was met only now and then, and its options never side by side: tier 2 of
//! the scientist majority read "+2 CrypCoin" like tier 1 but without "Cannot be undone", and
//! nothing compared the two. Now every option of such a choice is clicked and taken back, and
//! options of one choice that read the same apart from the note must carry the same note; the
//! tier read the same because the preview of an option of several decisions dropped the
//! research points it leaves to use ("1 RP to use": the question that follows it, and why it
//! can still be taken back).

use crate::prompts::{alice_chooses_action, find, place, private, texts, top, Table, NAMES};
use crate::support::shared_data as game_data;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::chat::local_user_id;
use skymines::data::Reward;
use skymines::engine::preview::Preview;
use skymines::engine::{self, BonusRef, Decision, GameState, Task};
use std::collections::BTreeMap;

/// One option of a prompt as `user` sees it: its id, label, description, preview and the
/// decisions a click plays.
struct Shown {
    id: String,
    label: String,
    description: String,
    preview: Option<Preview>,
    decisions: Vec<Decision>,
}

fn shown(t: &Table, name: &str) -> Vec<Shown> {
    let user = local_user_id(name);
    t.chat
        .pending_choices(&place(), user)
        .into_iter()
        .filter(|c| c.number.is_some())
        .map(|c| Shown {
            decisions: t.chat.click_decisions(user, &c.custom_id),
            id: c.custom_id,
            label: c.label,
            description: c.description,
            preview: c.preview,
        })
        .collect()
}

/// Clicks `name`'s option that plays `decisions` and asks `/undo` right after: whether the undo
/// took it back and what it said, or None when no option plays them or the click changed
/// nothing. The game is where it was afterwards either way (an undo refused: the store rolls
/// the game back).
fn click_and_undo(t: &Table, name: &str, decisions: &[Decision]) -> Option<(bool, String)> {
    let option = shown(t, name)
        .into_iter()
        .find(|o| o.decisions == decisions)?;
    let before = t.state();
    let (_, seq) = t.store().games().live_state(t.game).expect("the game");
    t.click(name, &option.id);
    if t.state() == before {
        return None;
    }
    let r = t.say(&format!("{name} /undo"));
    let undone = t.state() == before;
    if !undone {
        t.store()
            .games()
            .rollback(t.game, seq, 0, None)
            .expect("rolled back");
        assert_eq!(t.state(), before, "the rollback returns the game");
    }
    Some((undone, private(&r, name)))
}

/// Over the options of seeded games (Luna, the Belt, missions; English and German): the option
/// clicked at random, and every option of each choice whose options disagree on the note.
#[test]
fn cannot_be_undone_is_exactly_what_undo_refuses() {
    let (mut checked, mut side_by_side) = (0, 0);
    for (seed, extra, players, language) in [
        (31u64, "", 2usize, "en"),
        (32, "luna:2", 1, "de"),
        (33, "board:belt missions:yes", 3, "en"),
        (34, "", 2, "de"),
    ] {
        let mut t = Table::sqlite("undo-note");
        t.start(players, extra, seed, language);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let final_note = texts(language).t("note.final");
        let says_final = |o: &Shown| o.description.contains(&final_note);
        for _ in 0..400 {
            let waiting = t.chat.waiting_users(&place());
            let Some(user) = waiting.first() else { break };
            let name = *NAMES
                .iter()
                .find(|n| local_user_id(n) == *user)
                .expect("a player");
            // The options of each choice (their first decision), side by side.
            let mut choices: BTreeMap<String, Vec<Shown>> = BTreeMap::new();
            for o in shown(&t, name) {
                if let Some(first) = o.decisions.first() {
                    choices.entry(format!("{first:?}")).or_default().push(o);
                }
            }
            for options in choices.values() {
                if options.iter().all(says_final) || !options.iter().any(says_final) {
                    continue;
                }
                // Read the same apart from the note: the same note.
                let plain = |o: &Shown| o.description.replace(&final_note, "").trim().to_string();
                for (i, a) in options.iter().enumerate() {
                    for b in options[..i].iter().filter(|b| !plain(b).is_empty()) {
                        assert!(
                            plain(a) != plain(b) || says_final(a) == says_final(b),
                            "{language}, seed {seed}: `{} — {}` and `{} — {}` read the same \
                             but for the note",
                            a.label,
                            a.description,
                            b.label,
                            b.description
                        );
                    }
                }
                for o in options {
                    if let Some((undone, said)) = click_and_undo(&t, name, &o.decisions) {
                        assert_eq!(
                            says_final(o),
                            !undone,
                            "{language}, seed {seed}: `{} — {}`: /undo said {said:?}",
                            o.label,
                            o.description
                        );
                        side_by_side += 1;
                    }
                }
            }
            // One option at random: clicked, taken back where it may be, and played again.
            let options = shown(&t, name);
            let pick = &options[rng.gen_range(0..options.len())];
            let before = t.state();
            t.click(name, &pick.id);
            if t.state() == before {
                continue;
            }
            let after = t.state();
            let r = t.say(&format!("{name} /undo"));
            let undone = t.state() == before;
            assert_eq!(
                says_final(pick),
                !undone,
                "{language}, seed {seed}: `{} — {}`: /undo said {:?}",
                pick.label,
                pick.description,
                private(&r, name)
            );
            checked += 1;
            if undone {
                let again = shown(&t, name)
                    .into_iter()
                    .find(|o| o.decisions == pick.decisions)
                    .expect("the same option again");
                t.click(name, &again.id);
                assert_eq!(t.state(), after, "seed {seed}: the same move again");
            }
        }
    }
    assert!(checked > 300, "{checked} options clicked at random");
    assert!(
        side_by_side > 20,
        "{side_by_side} options of choices that disagree"
    );
}

/// A majority space alice may place on now whose reward tiers she may choose from, one of them
/// with research points.
fn tiers_with_research_points(state: &GameState) -> Option<u8> {
    if !alice_chooses_action(state) {
        return None;
    }
    let data = game_data();
    data.board
        .bonus_spaces
        .iter()
        .enumerate()
        .find_map(|(i, space)| {
            let mut s = state.clone();
            let place = Decision::PlaceBonus {
                space: BonusRef::Board(i as u8),
            };
            engine::apply(&data, &mut s, 0, place).ok()?;
            let Some(Task::ChooseTier { tiers, .. }) = top(&s) else {
                return None;
            };
            let points = tiers.iter().any(|t| {
                space.tiers[*t as usize]
                    .reward
                    .iter()
                    .any(|r| matches!(r, Reward::ResearchPoints { .. }))
            });
            (tiers.len() >= 2 && points).then_some(i as u8)
        })
}

/// The options of a majority space, one per reward tier: a tier that leaves research points to
/// use says so ("1 RP to use", as the option of one decision says it; it read "+2 CrypCoin" like
/// the tier before it) and can be taken back; each tier's note is what `/undo` does.
#[test]
fn a_reward_tier_that_leaves_research_points_to_use_says_so() {
    for language in ["en", "de"] {
        let (t, space) = find("tier-points", language, "", tiers_with_research_points);
        let final_note = texts(language).t("note.final");
        let place = Decision::PlaceBonus {
            space: BonusRef::Board(space),
        };
        let mut tiers: Vec<Shown> = shown(&t, "alice")
            .into_iter()
            .filter(|o| o.decisions.len() == 2 && o.decisions[0] == place)
            .collect();
        if tiers.is_empty() {
            // The list did not fit a page with a tier per option: the space, then its tiers.
            let space = shown(&t, "alice")
                .into_iter()
                .find(|o| o.decisions == [place])
                .expect("the space is offered");
            t.click("alice", &space.id);
            tiers = shown(&t, "alice")
                .into_iter()
                .filter(|o| matches!(o.decisions[..], [Decision::ChooseTier { .. }]))
                .collect();
        }
        assert!(tiers.len() >= 2, "{language}: one option per tier");
        let mut with_points = 0;
        for o in &tiers {
            let next = o.preview.as_ref().and_then(|p| p.next.clone());
            if let Some(Task::SpendResearch { points, .. }) = next {
                let says = texts(language).f("note.research_points", &[("n", &points)]);
                assert!(
                    o.description.contains(&says),
                    "{language}: `{} — {}` does not say `{says}`",
                    o.label,
                    o.description
                );
                with_points += 1;
            }
            let (undone, said) = click_and_undo(&t, "alice", &o.decisions).expect("played");
            assert_eq!(
                o.description.contains(&final_note),
                !undone,
                "{language}: `{} — {}`: /undo said {said:?}",
                o.label,
                o.description
            );
        }
        assert!(with_points > 0, "{language}: a tier with research points");
    }
}
