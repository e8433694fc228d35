//! The engine's preview of a decision (issue 18): the rulebook's worked examples (FACTS §7) seen
//! before they are played, and over seeded self-play of every legal decision of every state:
//! every option has a preview with the consequence fields of its kind, and playing it gives
//! what the preview said.

use crate::common::*;
use crate::support::preview as preview_support;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skymines::data::Company::{Minerva, Skymine};
use skymines::data::Resource::{Carbon, Titanium};
use skymines::data::{Company, GameData, Reward};
use skymines::engine::preview::{Cost, Currency, Preview, Tier};
use skymines::engine::state::{PlacedPlan, PlanRef, SlotCard};
use skymines::engine::{
    self, BoardSide, BonusRef, Decision as D, GameOptions, GameState, Phase, Task,
};

fn preview(s: &GameState, seat: usize, d: D) -> Preview {
    engine::preview(data(), s, seat, d).expect("a legal decision has a preview")
}

fn cost(amount: u32, currency: Currency, left: u32) -> Cost {
    Cost {
        amount,
        currency,
        left,
    }
}

fn board(space: &str) -> D {
    D::PlaceBonus {
        space: BonusRef::Board(board_space(space)),
    }
}

/// EX-5: 5 titanium units buy the 2-unit minerals card of total cost 4; 1 unit is left.
#[test]
fn ex05_the_buy_shows_its_price_in_units_and_what_is_left() {
    let d = data();
    let mut s = blank(2);
    let (t2, t3) = (resource_card(Titanium, 2), card("B06"));
    let m2 = resource_card(skymines::data::Resource::Minerals, 2);
    up(&mut s, 0, 1, t2);
    up(&mut s, 0, 2, t3);
    clear_display(&mut s);
    display(&mut s, 7, m2);
    let start = preview(
        &s,
        0,
        D::UseResources {
            resource: Some(Titanium),
        },
    );
    assert_eq!(start.units, Some(5), "both titanium cards: 2 + 3");
    assert!(!start.irreversible, "choosing the action reveals nothing");
    use_resources(&mut s, 0, Some(Titanium), &[t2, t3]);
    let buy = preview(&s, 0, D::BuyCard { space: 7 });
    assert_eq!(d.card(m2).cost + d.display_board_cost(7), 4);
    assert_eq!(buy.costs, vec![cost(4, Currency::Units, 1)]);
    assert_eq!(buy.card, Some(m2));
    assert_eq!(buy.gains.cards, vec![m2]);
    assert_eq!(buy.next, Some(Task::SpendUnits { seat: 0, units: 1 }));
    let none = preview(&s, 0, D::NoBuy);
    assert_eq!(none.next, Some(Task::SpendUnits { seat: 0, units: 5 }));
    act(&mut s, 0, D::BuyCard { space: 7 });
    let step = preview(&s, 0, D::TrackStep { company: Minerva });
    assert_eq!(step.costs, vec![cost(1, Currency::Units, 0)]);
    assert_eq!(step.gains.tracks, vec![(Minerva, 1)]);
    assert!(
        step.ends_turn && step.irreversible,
        "the last unit ends the turn"
    );
}

/// EX-6: 5 energy into 21 (1), 16 (1) and 24 (2 + 1 to oust Skymine): the previews give each
/// sector's cost and what is left, the ousted company and the structures, which add up to the
/// example's 1 CrypCoin and 3 research points.
#[test]
fn ex06_each_sector_shows_its_cost_reward_and_whom_it_ousts() {
    let mut s = blank(2);
    up(&mut s, 0, 1, energy_card(3));
    up(&mut s, 0, 2, energy_card(2));
    s.sectors[23] = Some(Skymine);
    s.stations[Skymine.index()][0].outposts = 4;
    let energy = preview(&s, 0, D::UseEnergy);
    assert_eq!(
        energy.next,
        Some(Task::ChooseExpansion { seat: 0, energy: 5 })
    );
    act(&mut s, 0, D::UseEnergy);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    let mut rewards: Vec<Reward> = Vec::new();
    for (sector, price, left, ousts) in [
        (21, 1, 4, None),
        (16, 1, 3, None),
        (24, 3, 0, Some(Skymine)),
    ] {
        let d = D::EnterSector { sector, column: 0 };
        let p = preview(&s, 0, d);
        assert_eq!(
            p.costs,
            vec![cost(price, Currency::Energy, left)],
            "sector {sector}"
        );
        assert_eq!(p.ousts, ousts, "sector {sector}");
        let v = p.share_value.expect("the station's share value");
        assert_eq!(v.company, Minerva);
        assert_eq!(v.before, s.share_value(data(), Minerva));
        rewards.extend(p.rewards);
        act(&mut s, 0, d);
    }
    let coins: u32 = rewards
        .iter()
        .map(|r| match r {
            Reward::Coins { n } => *n,
            _ => 0,
        })
        .sum();
    let points: u32 = rewards
        .iter()
        .map(|r| match r {
            Reward::ResearchPoints { n } => *n,
            _ => 0,
        })
        .sum();
    assert_eq!((coins, points), (1, 3), "{rewards:?}");
    assert_eq!(s.seats[0].coins, 1);
    assert_eq!(top(&s), &Task::SpendResearch { seat: 0, points: 3 });
    // EX-7: the research points' spending shows its price and what is left.
    let coin = preview(&s, 0, D::TakeCoin);
    assert_eq!(coin.costs, vec![cost(1, Currency::ResearchPoints, 2)]);
    assert_eq!(coin.gains.coins, 1);
}

/// EX-8: the flip names the plan it flips and costs 2 CrypCoin; a screen already passed gains
/// nothing and says so.
#[test]
fn ex08_a_flip_names_its_plan_and_a_passed_screen_gains_nothing() {
    let mut s = blank(2);
    s.seats[0].coins = 5;
    up(&mut s, 0, 1, research_scientist(2));
    let energy_plan = PlanRef::Regular(plan("A01"));
    put_plan(&mut s, 0, 1, energy_plan);
    put_plan(&mut s, 0, 2, PlanRef::Regular(plan("A02")));
    s.seats[0].upload = Some(1);
    let use_it = preview(
        &s,
        0,
        D::UseResearch {
            source: skymines::engine::ActionSource::Slot(1),
        },
    );
    assert_eq!(
        use_it.gains.research_points, 2,
        "the card's research points"
    );
    act(
        &mut s,
        0,
        D::UseResearch {
            source: skymines::engine::ActionSource::Slot(1),
        },
    );
    let ahead = preview(&s, 0, D::FlipPlan { screen: 2 });
    assert_eq!(ahead.plan, Some(PlanRef::Regular(plan("A02"))));
    assert_eq!(ahead.costs, vec![cost(2, Currency::Coins, 3)]);
    assert!(!ahead.gains_nothing);
    let passed = preview(&s, 0, D::FlipPlan { screen: 1 });
    assert_eq!(passed.plan, Some(energy_plan));
    assert!(passed.gains_nothing, "the upload marker is past screen 1");
    // Flipped, the plan asks nothing and gives nothing when the upload marker reaches it.
    act(&mut s, 0, D::FlipPlan { screen: 2 });
    let advance = preview(&s, 0, D::Advance);
    assert_eq!(advance.plan, Some(PlanRef::Regular(plan("A02"))));
    assert!(
        advance.rewards.is_empty() && advance.costs.is_empty(),
        "{advance:?}"
    );
}

/// A research scientist reaching a plan that gives research points has both pools to use: the
/// plan's first, then the card's. The advance that stops there says all of them, a CrypCoin
/// costs 1 of the whole, and an advance on to a flipped plan promises no plan reward (it was
/// "then 2 RP", the first plan's, and no word of the card's points).
#[test]
fn a_research_scientists_points_and_the_plans_are_counted_together() {
    let mut s = blank(2);
    s.seats[0].coins = 5;
    up(&mut s, 0, 1, research_scientist(2));
    up(
        &mut s,
        0,
        2,
        resource_card(skymines::data::Resource::Minerals, 3),
    );
    put_plan(&mut s, 0, 1, PlanRef::Regular(plan("A06")));
    put_plan(&mut s, 0, 2, PlanRef::Regular(plan("A02")));
    if let Some(placed) = s.seats[0].research[2].as_mut() {
        placed.face_down = true;
    }
    s.seats[0].upload = Some(0);
    act(
        &mut s,
        0,
        D::UseResearch {
            source: skymines::engine::ActionSource::Slot(1),
        },
    );
    act(&mut s, 0, D::SkipFlip);
    let batch = |s: &GameState, ds: &[D]| {
        engine::preview_batch(data(), s, 0, ds).expect("a legal batch has a preview")
    };
    let stop_on_it = batch(&s, &[D::Advance, D::StopAdvancing]);
    assert_eq!(
        stop_on_it.gains.research_points, 4,
        "the plan's 2 and the card's 2: {stop_on_it:?}"
    );
    let on_to_flipped = batch(&s, &[D::Advance, D::Advance]);
    assert!(
        on_to_flipped.rewards.is_empty(),
        "a flipped plan gives nothing: {on_to_flipped:?}"
    );
    assert_eq!(on_to_flipped.gains.research_points, 2, "the card's alone");
    act_all(&mut s, 0, &[D::Advance, D::StopAdvancing]);
    assert_eq!(
        preview(&s, 0, D::TakeCoin).costs,
        vec![cost(1, Currency::ResearchPoints, 3)]
    );
    let three = batch(&s, &[D::TakeCoin, D::TakeCoin, D::TakeCoin]);
    assert_eq!(three.costs, vec![cost(3, Currency::ResearchPoints, 1)]);
}

/// EX-10: with 5 minerals the majority space offers its "4+" and lower tiers with their
/// rewards; the "4+" tier gives Minerva +3 and tank +1.
#[test]
fn ex10_the_majority_space_shows_its_tiers_and_the_tier_its_rewards() {
    let d = data();
    let mut s = blank(3);
    up(&mut s, 0, 1, card("B03"));
    up(&mut s, 0, 2, card("A03"));
    up(&mut s, 1, 1, card("star-minerals2"));
    up(&mut s, 2, 1, card("C04"));
    up(&mut s, 2, 2, card("triangle-minerals2"));
    let space = board_space("majority_minerals") as usize;
    let p = preview(&s, 0, board("majority_minerals"));
    let tiers = &d.board.bonus_spaces[space].tiers;
    assert_eq!(
        p.tiers,
        vec![
            Tier {
                tier: 0,
                rewards: tiers[0].reward.clone()
            },
            Tier {
                tier: 1,
                rewards: tiers[1].reward.clone()
            }
        ]
    );
    assert!(!p.gains_nothing);
    act(&mut s, 0, board("majority_minerals"));
    let tier = preview(&s, 0, D::ChooseTier { tier: 1 });
    assert!(tier.rewards.contains(&Reward::CompanyTrack {
        company: Minerva,
        n: 3
    }));
    assert!(tier.rewards.contains(&Reward::Tank { n: 1 }));
    assert_eq!(tier.gains.tracks, vec![(Minerva, 3)]);
    assert_eq!(tier.gains.tank, 1);
    assert!(tier.ends_turn);
}

/// A majority space the seat meets no tier of: allowed, gains nothing, offered as such.
#[test]
fn a_majority_space_without_a_tier_gains_nothing() {
    let mut s = blank(2);
    let p = preview(&s, 0, board("majority_minerals"));
    assert!(
        p.gains_nothing && p.tiers.is_empty() && p.ends_turn,
        "{p:?}"
    );
    up(&mut s, 0, 1, card("C03"));
    assert!(!preview(&s, 0, board("majority_minerals")).gains_nothing);
}

/// EX-12: the buy-card space costs 1 CrypCoin, then the card its total cost (3): 1 left.
#[test]
fn ex12_the_buy_card_space_and_the_card_show_their_prices() {
    let mut s = blank(2);
    s.seats[0].coins = 5;
    let t2 = card("A05");
    clear_display(&mut s);
    display(&mut s, 3, t2);
    display(&mut s, 1, card("A01"));
    let space = preview(&s, 0, board("buy_card"));
    assert_eq!(space.costs, vec![cost(1, Currency::Coins, 4)]);
    assert!(matches!(space.next, Some(Task::BuyForCoins { .. })));
    act(&mut s, 0, board("buy_card"));
    let buy = preview(&s, 0, D::BuyCard { space: 3 });
    assert_eq!(buy.costs, vec![cost(3, Currency::Coins, 1)]);
    assert_eq!(buy.gains.cards, vec![t2]);
}

/// EX-13: the discard space's sell value: printed cost 1 + 2 = 3 CrypCoin.
#[test]
fn ex13_a_discard_for_coins_shows_its_sell_value() {
    let mut s = blank(2);
    let c1 = resource_card(Carbon, 1);
    s.seats[0].hand = vec![c1, card("B06")];
    act(&mut s, 0, board("discard_for_coins"));
    let sell = preview(&s, 0, D::DiscardCard { card: c1 });
    assert_eq!(sell.gains.coins, 3);
    assert_eq!(sell.card, Some(c1));
}

/// EX-17: the step that passes A1's first threshold shows its CrypCoin and the track bonus it
/// unlocks.
#[test]
fn ex17_a_step_past_a_threshold_shows_the_coin_and_the_unlocked_bonus() {
    let d = data();
    let mut s = blank(2);
    let a1 = &d.tracks.tracks[s.tracks[Skymine.index()]];
    let th = a1.bonus_thresholds[0].clone();
    s.seats[0].track_pos[Skymine.index()] = th.after_space as u8;
    up(&mut s, 0, 1, card("B06"));
    clear_display(&mut s);
    use_resources(&mut s, 0, Some(Titanium), &[card("B06")]);
    let p = preview(&s, 0, D::TrackStep { company: Skymine });
    assert_eq!(p.gains.coins, i64::from(th.coins));
    assert_eq!(p.gains.bonuses, vec![track_bonus(&th.unlocks) as usize]);
}

/// A placed plan says which plan it covers.
#[test]
fn placing_a_plan_names_the_plan_it_covers() {
    let mut s = blank(2);
    let old = PlanRef::Regular(plan("A01"));
    s.seats[0].research[3] = Some(PlacedPlan {
        plan: old,
        face_down: false,
    });
    s.seats[0].acquired = vec![PlanRef::Regular(plan("A02"))];
    s.agenda.push(Task::PlacePlans { seat: 0 });
    let p = preview(
        &s,
        0,
        D::PlacePlan {
            index: 0,
            screen: 3,
        },
    );
    assert_eq!(p.covers, Some(old));
    assert_eq!(p.plan, Some(PlanRef::Regular(plan("A02"))));
    assert_eq!(
        preview(
            &s,
            0,
            D::PlacePlan {
                index: 0,
                screen: 4
            }
        )
        .covers,
        None
    );
}

/// Point 9: dropping out in the last round asks nothing more (engine version 4): the first
/// resting deck is taken and the cards rest in the first slots, reported in one line; a game
/// of an older engine version still asks.
#[test]
fn dropping_out_in_the_last_round_answers_its_questions() {
    for version in [3, engine::ENGINE_VERSION] {
        let mut s = blank(2);
        s.engine_version = version;
        s.round = s.specials.len() as u8 + 1;
        let (a, b) = (card("A01"), card("A03"));
        s.seats[0].slots[1] = Some(SlotCard::Used(a));
        s.seats[0].slots[2] = Some(SlotCard::Up(b));
        s.seats[0].resting[3] = vec![card("diamond-carbon1")];
        s.seats[0].resting[4] = vec![card("diamond-minerals1")];
        let ev = act(&mut s, 0, D::DropOut);
        if version < 4 {
            assert_eq!(top(&s), &Task::TakeRestingDeck { seat: 0 });
            continue;
        }
        assert!(s.seats[0].dropped_out, "no question was left");
        assert_eq!(s.seats[0].hand, vec![card("diamond-carbon1")]);
        assert_eq!(s.seats[0].resting[0], vec![a]);
        assert_eq!(s.seats[0].resting[1], vec![b]);
        let lines = ev
            .iter()
            .filter(|e| e.key == "event.drop_out_last_round")
            .count();
        assert_eq!(lines, 1, "{}", texts(&ev));
        assert_eq!(waiting(&s), vec![1]);
    }
}

// ------------------------------------------------------------------------------------------
// Seeded self-play: every legal decision of every state.

/// Sum of a reward kind in a list.
fn sum(rewards: &[Reward], pick: impl Fn(&Reward) -> Option<u32>) -> u32 {
    rewards.iter().filter_map(pick).sum()
}

/// Checks the preview of `d` against the rules: the fields of its kind are there, the prices
/// match what playing it costs, and a sector's rewards are what the expansion pays when it
/// stops there.
fn check_one(data: &GameData, s: &GameState, seat: usize, d: D) -> Result<(), String> {
    let p = engine::preview(data, s, seat, d).map_err(|e| format!("{d:?}: no preview: {e}"))?;
    if let Some(why) = preview_support::missing_field(data, s, d, &p) {
        return Err(why);
    }
    let mut after = s.clone();
    engine::apply(data, &mut after, seat, d).map_err(|e| format!("{d:?}: {e}"))?;
    let (b, a) = (&s.seats[seat], &after.seats[seat]);
    let wrong = |what: &str| Err(format!("{d:?}: {what} differs from {p:?}"));
    if !p.ends_turn {
        // Within the turn the preview is the move itself.
        if i64::from(a.coins) - i64::from(b.coins) != p.gains.coins {
            return wrong("coins");
        }
        if u32::from(a.tank - b.tank) != p.gains.tank {
            return wrong("tank");
        }
        let steps: u32 = p.gains.tracks.iter().map(|(_, n)| n).sum();
        let moved: u32 = (0..4)
            .map(|i| u32::from(a.track_pos[i] - b.track_pos[i]))
            .sum();
        if steps != moved {
            return wrong("track steps");
        }
    }
    for c in &p.costs {
        if c.left + c.amount
            != match (c.currency, s.agenda.last()) {
                (Currency::Coins, _) => b.coins,
                (Currency::Units, Some(Task::BuyWithUnits { units, .. }))
                | (Currency::Units, Some(Task::SpendUnits { units, .. })) => *units,
                (Currency::Energy, Some(Task::Expand { energy, .. })) => *energy,
                // Every pool of research points the turn has to use (a plan's and the card's).
                (Currency::ResearchPoints, Some(Task::SpendResearch { .. })) => {
                    engine::preview::research_points_to_use(s, seat)
                }
                _ => return wrong("the currency of a cost"),
            }
        {
            return wrong("a cost's amount and what is left");
        }
        match (c.currency, after.agenda.last()) {
            (Currency::Coins, _) if !p.ends_turn && p.gains.coins < -i64::from(c.amount) => {
                return wrong("coins paid");
            }
            (Currency::Energy, Some(Task::Expand { energy, .. })) if *energy != c.left => {
                return wrong("energy left");
            }
            // Spent to 0, the next research points are another source's.
            (Currency::ResearchPoints, Some(Task::SpendResearch { points, .. }))
                if c.left > 0 && *points > c.left =>
            {
                return wrong("research points left");
            }
            _ => {}
        }
    }
    let first_entry =
        matches!(s.agenda.last(), Some(Task::Expand { entered, .. }) if entered.is_empty());
    if let (
        D::EnterSector { .. } | D::EnterBelt { .. } | D::ExpandInto { .. },
        true,
        Some(Task::Expand { .. }),
    ) = (d, first_entry, after.agenda.last())
    {
        // The first entry, then stop: the expansion pays exactly the preview's rewards.
        let mut stopped = after.clone();
        engine::apply(data, &mut stopped, seat, D::StopExpanding)
            .map_err(|e| format!("{d:?} then stop: {e}"))?;
        let st = &stopped.seats[seat];
        let of = |pick: fn(&Reward) -> Option<u32>| sum(&p.rewards, pick);
        let coins = of(|r| match r {
            Reward::Coins { n } => Some(*n),
            _ => None,
        });
        let tank = of(|r| match r {
            Reward::Tank { n } => Some(*n),
            _ => None,
        });
        let points = of(|r| match r {
            Reward::ResearchPoints { n } => Some(*n),
            _ => None,
        });
        let steps = of(|r| match r {
            Reward::CompanyTrack { n, .. } => Some(*n),
            _ => None,
        });
        let final_step = data.player_board.tank_track.final_step;
        let tank_room = final_step.saturating_sub(u32::from(a.tank));
        if u32::from(st.tank - a.tank) != tank.min(tank_room) || st.coins < a.coins + coins {
            return wrong("the sector's coins and tank");
        }
        let spend = stopped.agenda.iter().rev().find_map(|t| match t {
            Task::SpendResearch { seat: x, points } if *x == seat => Some(*points),
            _ => None,
        });
        // Exact when nothing else pays coins: no tank overflow, no threshold, no points turned
        // into coins by themselves, no other seat's turn after (Luna's thresholds pay everyone
        // past them).
        let turn_ended = st.turns_this_round != a.turns_this_round;
        let plain =
            !turn_ended && tank <= tank_room && steps == 0 && spend.is_some() == (points > 0);
        if plain && (st.coins != a.coins + coins || spend.unwrap_or(0) != points) {
            return wrong("the sector's coins and research points");
        }
    }
    if let D::PlaceBonus { .. } = d {
        if let Some(Task::ChooseTier { tiers, .. }) = after.agenda.last() {
            let shown: Vec<u8> = p.tiers.iter().map(|t| t.tier).collect();
            if &shown != tiers {
                return wrong("the tiers");
            }
        }
    }
    Ok(())
}

/// Plays seeded games with the self-play policy and checks every legal decision of every state
/// on the way; returns how many decisions were checked.
fn check_games(options: GameOptions, games: u64) -> usize {
    let data = data();
    let mut checked = 0;
    let mut failures = Vec::new();
    for g in 0..games {
        let mut o = options.clone();
        o.seed += g;
        let mut s = engine::new_game(data, &o, &names(o.players)).expect("game");
        let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
        let mut moves = 0;
        while s.phase != Phase::Finished && moves < 5_000 {
            moves += 1;
            let seat = engine::waiting_on(&s)[0];
            let legal = engine::legal_decisions(data, &s, seat);
            for d in &legal {
                checked += 1;
                if let Err(e) = check_one(data, &s, seat, *d) {
                    if failures.len() < 5 {
                        failures.push(format!("seed {} round {}: {e}", o.seed, s.round));
                    }
                }
            }
            let d = skymines::bots::weighted::choose(&mut rng, data, &s, seat, &legal)
                .expect("a choice");
            engine::apply(data, &mut s, seat, d).expect("legal");
        }
        assert_eq!(s.phase, Phase::Finished, "seed {} ends", o.seed);
    }
    assert!(failures.is_empty(), "{failures:#?}");
    checked
}

#[test]
fn every_option_of_seeded_two_player_games_has_a_true_preview() {
    let n = check_games(
        GameOptions {
            players: 2,
            seed: 7,
            ..GameOptions::default()
        },
        20,
    );
    assert!(n > 5_000, "{n} decisions checked");
}

#[test]
fn every_option_of_seeded_games_with_luna_and_the_belt_has_a_true_preview() {
    check_games(
        GameOptions {
            players: 2,
            luna: Some(3),
            seed: 70,
            ..GameOptions::default()
        },
        10,
    );
    check_games(
        GameOptions {
            players: 3,
            board: BoardSide::Belt,
            threats: true,
            missions: true,
            linked_slots: true,
            seed: 700,
            ..GameOptions::default()
        },
        10,
    );
}

#[test]
fn a_preview_serializes_for_any_client() {
    let mut s = blank(2);
    up(&mut s, 0, 1, energy_card(3));
    act(&mut s, 0, D::UseEnergy);
    act(
        &mut s,
        0,
        D::ChooseCompany {
            company: Company::Minerva,
        },
    );
    let legal = legal(&s, 0);
    for d in legal {
        let p = preview(&s, 0, d);
        let json = serde_json::to_string(&p).expect("json");
        let back: Preview = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, p);
    }
}

// ------------------------------------------------------------------------------------------
// One option per sector (engine version 4)

/// A Minerva expansion with 5 energy on a fresh board.
fn minerva_expansion(version: u32) -> GameState {
    let mut s = blank(2);
    s.engine_version = version;
    up(&mut s, 0, 1, energy_card(3));
    up(&mut s, 0, 2, energy_card(2));
    act(&mut s, 0, D::UseEnergy);
    act(&mut s, 0, D::ChooseCompany { company: Minerva });
    s
}

/// Each reachable sector is one option from engine version 4 on; before, one per column.
#[test]
fn a_sector_is_one_option_and_older_games_keep_one_per_column() {
    let s = minerva_expansion(engine::ENGINE_VERSION);
    let sectors: Vec<u8> = legal(&s, 0)
        .into_iter()
        .filter_map(|d| match d {
            D::ExpandInto { sector } => Some(sector),
            D::EnterSector { .. } => panic!("no option per column: {d:?}"),
            _ => None,
        })
        .collect();
    let old = minerva_expansion(3);
    let mut per_column: Vec<u8> = legal(&old, 0)
        .into_iter()
        .filter_map(|d| match d {
            D::EnterSector { sector, .. } => Some(sector),
            D::ExpandInto { .. } => panic!("version 3 knows no ExpandInto"),
            _ => None,
        })
        .collect();
    assert!(
        per_column.len() > sectors.len(),
        "{per_column:?} vs {sectors:?}"
    );
    per_column.dedup();
    assert_eq!(per_column, sectors, "the same sectors, each once");
    assert!(engine::apply(
        data(),
        &mut old.clone(),
        0,
        D::ExpandInto { sector: sectors[0] }
    )
    .is_err());
}

/// The column is asked only when the columns would leave different share values: a full
/// station's columns differ in their top coin icons (or not), and the question follows
/// exactly when they do.
#[test]
fn the_column_is_a_second_question_only_when_it_matters() {
    let mut asked = 0;
    let mut silent = 0;
    for outposts in [[5, 5, 5], [1, 5, 5], [2, 2, 5], [3, 4, 1], [1, 1, 1]] {
        let mut s = minerva_expansion(engine::ENGINE_VERSION);
        for (c, n) in outposts.iter().enumerate() {
            s.stations[Minerva.index()][c].outposts = *n;
        }
        let sector = legal(&s, 0)
            .into_iter()
            .find_map(|d| match d {
                D::ExpandInto { sector } => Some(sector),
                _ => None,
            })
            .expect("a reachable sector");
        // What each column would leave: the share value and the revealed floors.
        let mut outcomes: Vec<(u32, usize)> = (0..3)
            .filter_map(|column| {
                let mut t = s.clone();
                engine::apply(data(), &mut t, 0, D::EnterSector { sector, column }).ok()?;
                let floors = t.stations[Minerva.index()]
                    .iter()
                    .filter(|c| c.floor_revealed)
                    .count();
                Some((t.share_value(data(), Minerva), floors))
            })
            .collect();
        outcomes.sort_unstable();
        outcomes.dedup();
        let p = preview(&s, 0, D::ExpandInto { sector });
        let asks = matches!(p.next, Some(Task::PickColumn { .. }));
        assert_eq!(asks, outcomes.len() > 1, "{outposts:?}: {outcomes:?}");
        act(&mut s, 0, D::ExpandInto { sector });
        if asks {
            asked += 1;
            assert_eq!(s.sectors[sector as usize - 1], None, "not entered yet");
            let column = legal(&s, 0)
                .into_iter()
                .find_map(|d| match d {
                    D::OutpostColumn { column } => Some(column),
                    _ => None,
                })
                .expect("a column to choose");
            let pick = preview(&s, 0, D::OutpostColumn { column });
            assert!(pick.share_value.is_some());
            act(&mut s, 0, D::OutpostColumn { column });
        } else {
            silent += 1;
        }
        assert_eq!(s.sectors[sector as usize - 1], Some(Minerva));
    }
    assert!(asked > 0 && silent > 0, "asked {asked}, silent {silent}");
}
