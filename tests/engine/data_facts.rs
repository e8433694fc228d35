//! The facts the rule texts state (FACTS.md), checked against the component data in `assets/`,
//! group by group; plus the provenance of the reconstructed parts and the data hash.

use crate::support::data;
use skymines::data::belt::BeltTarget;
use skymines::data::board::BonusSpaceKind;
use skymines::data::campaign::{ChapterSpKind, Module, SpRuleKind, TokenSetup, TrackSetup};
use skymines::data::cards::{CardKind, CardOrigin, CardType};
use skymines::data::missions::{Metric, PersonalRequirement, PersonalReward};
use skymines::data::moon::LineType;
use skymines::data::threats::{ConsequenceEffect, ThreatRequirement};
use skymines::data::tracks::{TrackBonusEffect, TrackEntry};
use skymines::data::{
    BoardSide, Company, GameData, MoonGraph, Requirement, Resource, Reward, Source, Structure,
};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// A fresh copy of `assets/` in the temp folder.
fn copy_assets(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "skymines-facts-{tag}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    for entry in std::fs::read_dir(assets_dir()).expect("read assets") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let name = path.file_name().expect("file name");
            std::fs::copy(&path, dir.join(name)).expect("copy asset");
        }
    }
    dir
}

/// Replaces exactly one occurrence of `from` in `dir/file`.
fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("read copy");
    assert_eq!(
        text.matches(from).count(),
        1,
        "`{from}` must occur once in {file}"
    );
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write copy");
}

// ------------------------------------------------------------------ action cards (FACTS §1.4, §1.30)

#[test]
fn action_cards_have_the_stated_letters() {
    let d = data();
    let mut by_letter: BTreeMap<char, usize> = BTreeMap::new();
    for c in &d.action_cards.cards {
        *by_letter.entry(c.letter).or_default() += 1;
    }
    let want: BTreeMap<char, usize> = [('A', 9), ('B', 16), ('C', 11), ('D', 4), ('E', 4)].into();
    assert_eq!(by_letter, want);
    assert_eq!(d.action_cards.cards.len(), 44);
    // The stack is built E (bottom), D, C, B, A (top).
    assert_eq!(
        d.action_cards.deck.stack_bottom_to_top,
        vec!['E', 'D', 'C', 'B', 'A']
    );
}

#[test]
fn the_last_eight_cards_d_and_e_are_the_single_share_cards() {
    let d = data();
    for c in &d.action_cards.cards {
        let de = c.letter == 'D' || c.letter == 'E';
        assert_eq!(
            c.card_type == CardType::SingleShare,
            de,
            "{}: single share cards are exactly the D and E cards",
            c.id
        );
        if de {
            assert!(c.share.company().is_some(), "{} names its company", c.id);
        }
    }
    // Single share cards can never be played.
    let single: Vec<_> = d
        .cards
        .iter()
        .filter(|c| c.kind == CardKind::SingleShare)
        .collect();
    assert_eq!(single.len(), 8);
    assert!(single.iter().all(|c| !c.is_playable()));
}

#[test]
fn five_field_scientists_one_plain_and_one_per_company() {
    let d = data();
    let field: Vec<CardKind> = d
        .cards
        .iter()
        .filter(|c| c.is_field_scientist())
        .map(|c| c.kind)
        .collect();
    assert_eq!(field.len(), 5);
    let plain: Vec<_> = field
        .iter()
        .filter(|k| matches!(k, CardKind::FieldScientist { company: None, .. }))
        .collect();
    assert_eq!(plain.len(), 1);
    // FS-1: the plain one gives tank +1 and 2 CrypCoin.
    assert!(matches!(
        plain[0],
        CardKind::FieldScientist {
            tank: 1,
            coins: 2,
            ..
        }
    ));
    for company in Company::ALL {
        let of: Vec<_> = field
            .iter()
            .filter(
                |k| matches!(k, CardKind::FieldScientist { company: Some(c), .. } if *c == company),
            )
            .collect();
        assert_eq!(of.len(), 1, "one {company:?} field scientist");
        // FS-2: tank +2, 1 CrypCoin, +1 tank per 2 gas collectors.
        assert!(matches!(
            of[0],
            CardKind::FieldScientist {
                tank: 2,
                coins: 1,
                gas_collectors_per_extra_tank: 2,
                ..
            }
        ));
    }
    // None among the starting cards.
    assert!(d
        .cards
        .iter()
        .filter(|c| matches!(c.origin, CardOrigin::Starting { .. }))
        .all(|c| !c.is_field_scientist()));
}

#[test]
fn cards_named_in_the_examples_exist() {
    let d = data();
    let action = |t: CardType, v: u32| {
        d.action_cards
            .cards
            .iter()
            .filter(move |c| c.card_type == t && c.value == v)
    };
    // EX-4/EX-5: Lin holds "one of the 3-unit titanium cards", so there are at least two.
    assert!(action(CardType::Titanium, 3).count() >= 2);
    // EX-8: a research scientist card showing 2 research points; EX-25: a 2-energy card.
    assert!(d
        .cards
        .iter()
        .any(|c| c.is_research_scientist() && c.value == 2));
    assert!(d.cards.iter().any(|c| c.is_energy() && c.value == 2));
    // Three energy-point icons: 1, 2 and 3.
    let energy: BTreeSet<u32> = d
        .cards
        .iter()
        .filter(|c| c.is_energy())
        .map(|c| c.value)
        .collect();
    assert!(energy.is_superset(&BTreeSet::from([1, 2, 3])));
    // EX-13: a 1-unit carbon card with printed cost 1.
    assert!(d
        .cards
        .iter()
        .any(|c| c.resource() == Some(Resource::Carbon) && c.value == 1 && c.cost == 1));
}

// ------------------------------------------------------------------ starting cards (§1.6, §1.7)

#[test]
fn nine_starting_cards_per_colour_and_single_energy_cards_01_to_04() {
    let d = data();
    assert_eq!(d.starting_cards.colours.len(), 4);
    for colour in 0..4 {
        let cards = d.starting_cards_of(colour);
        assert_eq!(cards.len(), 9, "colour {colour}");
        for id in cards {
            let c = d.card(id);
            assert!(!c.is_field_scientist() && c.is_playable(), "{}", c.id);
        }
    }
    let ids: Vec<&str> = d
        .starting_cards
        .single_energy
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids, ["01", "02", "03", "04"]);
    for seat in 1..=4 {
        let id = d.single_energy_card(seat).expect("one per seat");
        let c = d.card(id);
        assert!(c.is_energy() && c.value == 1, "{}", c.id);
    }
    // Every other card type is in a starting hand: resources, energy, research scientist.
    let kinds: BTreeSet<String> = d
        .starting_cards_of(0)
        .into_iter()
        .map(|id| format!("{:?}", d.card(id).kind))
        .collect();
    for r in Resource::ALL {
        assert!(kinds.contains(&format!("{:?}", CardKind::Resource { resource: r })));
    }
    assert!(kinds.contains("Energy") && kinds.contains("ResearchScientist"));
}

// ------------------------------------------------------------------ research (§1.9, §1.11, §1.12, RP-2)

#[test]
fn research_plans_special_plans_and_starting_tokens() {
    let d = data();
    for letter in ['A', 'B', 'C'] {
        let n = d
            .research
            .plans
            .iter()
            .filter(|p| p.letter == letter)
            .count();
        assert_eq!(n, 24, "{letter} plans");
    }
    let rounds: Vec<u32> = d.research.special_plans.iter().map(|s| s.round).collect();
    assert_eq!(rounds, [2, 3, 4, 5, 6, 7]);
    // EX-8: Lin pays 2 CrypCoin to enter a special plan.
    assert!(d.research.special_plans.iter().any(|s| s.coin_cost == 2));
    // RP-2: A 1, B 1, C 2, special 2 research points; 1 RP buys 1 CrypCoin.
    let a = &d.research.acquisition;
    assert_eq!((a.a, a.b, a.c, a.special, a.coin), (1, 1, 2, 2, 1));
    assert_eq!(d.research.starting_tokens.len(), 10);
    // The three starting bonuses the German rulebook prints as examples.
    let bonus = |want: &[(&str, u32)]| {
        d.research.starting_tokens.iter().any(|t| {
            t.start_bonus.len() == want.len()
                && t.start_bonus
                    .iter()
                    .zip(want)
                    .all(|(b, (track, n))| b.track == *track && b.n == *n)
        })
    };
    assert!(bonus(&[("skymine", 3)]));
    assert!(bonus(&[("minerva", 2)]));
    assert!(bonus(&[("astrogo", 1), ("tank", 1)]));
}

// ------------------------------------------------------------------ company tracks (§1.3, §3)

fn first_threshold(t: &TrackEntry) -> &skymines::data::tracks::BonusThreshold {
    t.bonus_thresholds
        .iter()
        .min_by_key(|b| b.after_space)
        .expect("two thresholds")
}

#[test]
fn ten_track_sides_a1_to_e2() {
    let d = data();
    let ids: Vec<&str> = d.tracks.tracks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1", "E2"]
    );
    for t in &d.tracks.tracks {
        assert_eq!(
            t.bonus_thresholds.len(),
            2,
            "{}: exactly 2 thresholds",
            t.id
        );
        assert!(t
            .bonus_thresholds
            .iter()
            .all(|b| (1..=2).contains(&b.coins)));
        assert!((1..=2).contains(&t.money_barriers.len()), "{}", t.id);
        assert_eq!(t.shares_at(0), 0, "{}: no shares on space 0", t.id);
    }
    // Default tracks (setup option A).
    for (company, track) in [
        (Company::Skymine, "A1"),
        (Company::Minerva, "B1"),
        (Company::Astrogo, "C1"),
        (Company::Tawac, "D1"),
    ] {
        assert_eq!(
            d.moon.company(company).map(|c| c.default_track.as_str()),
            Some(track)
        );
    }
}

#[test]
fn a1_first_threshold_pays_one_coin() {
    let d = data();
    let a1 = d.track("A1").expect("A1");
    assert_eq!(first_threshold(a1).coins, 1);
}

#[test]
fn a2_carries_the_extra_bonus_markers() {
    let d = data();
    let a2 = d.track("A2").expect("A2");
    let mut thresholds = a2.bonus_thresholds.clone();
    thresholds.sort_by_key(|t| t.after_space);
    let effects: Vec<TrackBonusEffect> = thresholds
        .iter()
        .map(|t| d.track_bonus(&t.unlocks).expect("bonus").effect.clone())
        .collect();
    assert_eq!(
        effects,
        [
            TrackBonusEffect::ExtraBonusMarkers { n: 1 },
            TrackBonusEffect::ExtraBonusMarkers { n: 2 }
        ]
    );
    // No other track has them.
    for b in &d.tracks.bonuses {
        if matches!(b.effect, TrackBonusEffect::ExtraBonusMarkers { .. }) {
            assert_eq!(b.track, "A2");
        }
    }
}

#[test]
fn d2_carries_the_other_tracks_bonus_spaces() {
    let d = data();
    let d2 = d.track("D2").expect("D2");
    let mut thresholds = d2.bonus_thresholds.clone();
    thresholds.sort_by_key(|t| t.after_space);
    let spaces: Vec<(u32, Vec<u32>)> = thresholds
        .iter()
        .map(
            |t| match &d.track_bonus(&t.unlocks).expect("bonus").effect {
                TrackBonusEffect::BonusSpace(s) => (s.pay, s.other_tracks.clone()),
                other => panic!("D2 bonus is not a bonus space: {other:?}"),
            },
        )
        .collect();
    assert_eq!(spaces, [(1, vec![3, 2]), (1, vec![3, 2, 2])]);
}

#[test]
fn track_cards_pair_the_two_sides_of_one_track() {
    let d = data();
    assert_eq!(d.tracks.cards.len(), 5);
    let mut letters = BTreeSet::new();
    for c in &d.tracks.cards {
        assert_eq!(c.halves.len(), 2, "{}", c.id);
        let l = c.halves[0].chars().next().expect("letter");
        assert_eq!(c.halves, [format!("{l}1"), format!("{l}2")], "{}", c.id);
        letters.insert(l);
    }
    assert_eq!(letters, BTreeSet::from(['A', 'B', 'C', 'D', 'E']));
}

// ------------------------------------------------------------------ Moon (§2.2-2.4, EX-5, EX-6, EX-12, EX-27)

fn line(d: &GameData, a: usize, b: usize) -> Option<LineType> {
    d.moon_graph
        .neighbours
        .get(a)?
        .iter()
        .find(|(n, _)| *n == b)
        .map(|(_, l)| *l)
}

#[test]
fn moon_has_24_sectors_and_4_stations() {
    let d = data();
    let ids: Vec<u32> = d.moon.sectors.iter().map(|s| s.id).collect();
    assert_eq!(ids, (1..=24).collect::<Vec<_>>());
    assert_eq!(d.moon_graph.sector_count, 24);
    for c in Company::ALL {
        assert!(
            !d.moon_graph.neighbours[MoonGraph::station_node(c)].is_empty(),
            "{c:?} station touches sectors"
        );
    }
}

#[test]
fn ex6_geometry_minerva_reaches_21_16_24() {
    let d = data();
    let minerva = MoonGraph::station_node(Company::Minerva);
    let s = MoonGraph::sector_node;
    // 21 over a single line from Minerva's station (or network), 16 over a single line from 21,
    // 24 over a double line from the Minerva station.
    let to_21_from_station = line(d, minerva, s(21)) == Some(LineType::Single);
    let to_21_from_network = d.moon_graph.neighbours[s(21)].iter().any(|(n, l)| {
        *l == LineType::Single
            && MoonGraph::node_sector(*n).is_some()
            && line(d, minerva, *n).is_some()
    });
    assert!(to_21_from_station || to_21_from_network);
    assert_eq!(line(d, s(21), s(16)), Some(LineType::Single));
    assert_eq!(line(d, minerva, s(24)), Some(LineType::Double));
    // Costs 1 + 1 + (2 + 1 for the Skymine outpost in 24) = Lin's 5 energy.
    let cost = |l: Option<LineType>| l.map(LineType::energy).unwrap_or(99);
    let total = cost(line(d, minerva, s(21)).or(Some(LineType::Single)))
        + cost(line(d, s(21), s(16)))
        + cost(line(d, minerva, s(24)))
        + 1;
    assert_eq!(total, 5);
}

#[test]
fn ex6_rewards_one_coin_and_three_research_points() {
    let d = data();
    let (mut coins, mut rp) = (0, 0);
    for id in [21, 16, 24] {
        for st in &d.moon.sector(id).expect("sector").structures {
            match st {
                Structure::DeepMine { n } => coins += n,
                Structure::ResearchStation { n } => rp += n,
                other => panic!(
                    "sector {id}: EX-6 names only coins and research points, found {other:?}"
                ),
            }
        }
    }
    assert_eq!((coins, rp), (1, 3));
    // EX-7: one station shows 1 RP and one 2 RP.
    let mut stations: Vec<u32> = [21, 16, 24]
        .iter()
        .flat_map(|id| d.moon.sector(*id).expect("sector").structures.clone())
        .filter_map(|s| match s {
            Structure::ResearchStation { n } => Some(n),
            _ => None,
        })
        .collect();
    stations.sort_unstable();
    assert_eq!(stations, [1, 2]);
}

#[test]
fn enclaves_sit_inside_empty_rings() {
    let d = data();
    assert_eq!(d.moon.enclaves.len(), 2);
    for e in &d.moon.enclaves {
        let ring = d.moon.sector(e.surrounded_by).expect("ring");
        assert!(
            ring.structures.is_empty(),
            "ring {} has no structures",
            ring.id
        );
        let nbrs: Vec<usize> = d.moon_graph.neighbours[MoonGraph::sector_node(e.sector)]
            .iter()
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(
            nbrs,
            [MoonGraph::sector_node(e.surrounded_by)],
            "enclave {} borders only its ring",
            e.sector
        );
    }
}

#[test]
fn chapter3_outposts_are_stated_and_connected_to_their_stations() {
    let d = data();
    let c3 = &d.moon.chapter3;
    assert_eq!(c3.sectors(Company::Skymine), [6, 19, 20]);
    assert_eq!(c3.sectors(Company::Minerva), [16, 21, 23]);
    assert_eq!(c3.sectors(Company::Astrogo), [1, 7, 11]);
    assert_eq!(c3.sectors(Company::Tawac), [2, 3, 4]);
    for c in Company::ALL {
        let own: BTreeSet<usize> = c3
            .sectors(c)
            .iter()
            .map(|s| MoonGraph::sector_node(*s))
            .collect();
        let start = MoonGraph::station_node(c);
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([start]);
        while let Some(n) = queue.pop_front() {
            for (nb, _) in &d.moon_graph.neighbours[n] {
                if own.contains(nb) && seen.insert(*nb) {
                    queue.push_back(*nb);
                }
            }
        }
        assert_eq!(
            seen, own,
            "{c:?}'s chapter-3 sectors connect to its station"
        );
    }
}

/// Whether some action card of this type and value has this total cost on some display space.
fn display_total(d: &GameData, t: CardType, value: u32, total: u32) -> bool {
    d.action_cards
        .cards
        .iter()
        .filter(|c| c.card_type == t && c.value == value)
        .any(|c| (1..=12).any(|space| c.cost + d.display_board_cost(space) == total))
}

#[test]
fn ex5_and_ex12_display_cards_are_possible() {
    let d = data();
    // EX-5: a 2-unit minerals card with total cost 4.
    assert!(display_total(d, CardType::Minerals, 2, 4));
    // EX-12: a 2-unit titanium card with total cost 3.
    assert!(display_total(d, CardType::Titanium, 2, 3));
}

// ------------------------------------------------------------------ player board and stations (§2.4, §4)

#[test]
fn player_board_tracks_show_the_threat_values() {
    let d = data();
    let values = |links: &[skymines::data::board::ValueLink]| -> BTreeSet<u32> {
        links.iter().map(|l| l.value).collect()
    };
    let tank = values(&d.player_board.tank_track.value_links);
    assert!(tank.contains(&25) && tank.contains(&40), "{tank:?}");
    let research = values(&d.player_board.research_track.value_links);
    assert!(
        research.contains(&20) && research.contains(&40),
        "{research:?}"
    );
    // EX-8: the ON screen is the fifth screen (index 4, the starting screen being index 0).
    let r = &d.player_board.research_track;
    assert_eq!((r.starting_screen, r.on_screen), (0, 4));
    // 3 ON slots + 2 additional ones; 5 resting slots, the 3 central ones used at setup.
    assert_eq!(d.player_board.action_slots.count, 5);
    assert_eq!(d.player_board.initially_on(), [1, 2, 3]);
    assert_eq!(d.player_board.resting_slots.central, [2, 3, 4]);
}

#[test]
fn moon_stations_have_3_columns_of_5_with_a_crossed_out_2_coin_space() {
    let d = data();
    let l = &d.moon.station_layout;
    assert_eq!(l.columns.len(), 3);
    assert_eq!(l.home_spaces_per_column, 5);
    assert_eq!(l.crossed_out_space, 5);
    for col in l.column_coins() {
        assert_eq!(col.len(), 5);
        assert_eq!(col[4], 2);
    }
}

// ------------------------------------------------------------------ bonus spaces (§2.7)

#[test]
fn twelve_bonus_spaces_five_majority_three_standard_four_tile() {
    let d = data();
    let count = |k| d.board.bonus_spaces.iter().filter(|s| s.kind == k).count();
    assert_eq!(d.board.bonus_spaces.len(), 12);
    assert_eq!(count(BonusSpaceKind::Majority), 5);
    assert_eq!(count(BonusSpaceKind::Standard), 3);
    assert_eq!(count(BonusSpaceKind::Tile), 4);
    // Tile spaces cost 1 or 2 and reserve the 4 different tiles.
    let mut tiles = BTreeSet::new();
    for s in d
        .board
        .bonus_spaces
        .iter()
        .filter(|s| s.kind == BonusSpaceKind::Tile)
    {
        assert!(matches!(
            s.requirement.as_slice(),
            [Requirement::Pay { n: 1 | 2 }]
        ));
        match s.reward.as_slice() {
            [Reward::ReserveBonusTile { tile }] => assert!(tiles.insert(tile.clone())),
            other => panic!("{}: {other:?}", s.id),
        }
    }
    assert_eq!(tiles.len(), 4);
}

#[test]
fn titanium_majority_tiers_are_as_stated() {
    let d = data();
    let ti = d
        .board
        .bonus_spaces
        .iter()
        .find(|s| s.id == "majority_titanium")
        .expect("titanium majority space");
    let tiers: Vec<(u32, Vec<Reward>)> =
        ti.tiers.iter().map(|t| (t.min, t.reward.clone())).collect();
    let astrogo = |n| Reward::CompanyTrack {
        company: Company::Astrogo,
        n,
    };
    assert_eq!(
        tiers,
        [
            (2, vec![astrogo(2)]),
            (4, vec![astrogo(3), Reward::RemoveOutposts { n: 1 }]),
            (6, vec![astrogo(4), Reward::ResearchPoints { n: 1 }]),
        ]
    );
}

#[test]
fn scientist_minerals_and_standard_spaces_are_as_stated() {
    let d = data();
    let space = |id: &str| {
        d.board
            .bonus_spaces
            .iter()
            .find(|s| s.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let sci: Vec<(u32, u32, Vec<Reward>)> = space("majority_scientist")
        .tiers
        .iter()
        .map(|t| {
            (
                t.min_research_scientists,
                t.min_other_scientists,
                t.reward.clone(),
            )
        })
        .collect();
    assert_eq!(
        sci,
        [
            (1, 0, vec![Reward::Coins { n: 2 }]),
            (
                1,
                1,
                vec![Reward::Coins { n: 2 }, Reward::ResearchPoints { n: 1 }]
            ),
            (
                1,
                2,
                vec![Reward::Coins { n: 3 }, Reward::ResearchPoints { n: 2 }]
            ),
        ]
    );
    // EX-10: the minerals "4+" tier is Minerva +3 and tank +1.
    let four = space("majority_minerals")
        .tiers
        .iter()
        .find(|t| t.min == 4)
        .expect("4+ tier");
    assert_eq!(
        four.reward,
        [
            Reward::CompanyTrack {
                company: Company::Minerva,
                n: 3
            },
            Reward::Tank { n: 1 }
        ]
    );
    let first = space("first_player");
    assert_eq!(
        first.requirement,
        [Requirement::NotFirstPlayerOnFirstTurnOfRound]
    );
    assert_eq!(
        first.reward,
        [
            Reward::TakeFirstPlayerMarker,
            Reward::ResearchPoints { n: 1 }
        ]
    );
    let buy = space("buy_card");
    assert_eq!(buy.requirement, [Requirement::Pay { n: 1 }]);
    assert_eq!(buy.reward, [Reward::BuyDisplayCard { discount: 0 }]);
    let sell = space("discard_for_coins");
    assert_eq!(
        sell.requirement,
        [Requirement::DiscardFromHand {
            card: "any".to_string()
        }]
    );
    assert_eq!(sell.reward, [Reward::CoinsPrintedCostPlus { n: 2 }]);
}

// ------------------------------------------------------------------ Belt (§8.3, EX-20, EX-21)

#[test]
fn belt_numbers_named_in_the_texts_exist() {
    let d = data();
    let b = &d.belt;
    assert_eq!(b.side, BoardSide::Belt);
    for a in [1, 10, 14, 15, 18] {
        assert!(b.asteroid(a).is_some(), "asteroid {a}");
    }
    for s in [11, 13, 16, 19] {
        assert!(b.flight_path(s).is_some(), "shuttle space {s}");
    }
    assert!(b.flight_path(13).expect("13").reward_icon);
    assert!(!b.flight_path(19).expect("19").reward_icon);
    assert_eq!(
        b.asteroid(14).expect("14").reward,
        [
            Structure::ResearchStation { n: 1 },
            Structure::DeepMine { n: 1 }
        ]
    );
    let mut between = b.threat_space.between_shuttle_spaces;
    between.sort_unstable();
    assert_eq!(between, [11, 16]);
}

#[test]
fn belt_stations_hold_12_outposts_and_5_shuttles() {
    let d = data();
    let l = &d.belt.station_layout;
    assert_eq!(d.belt.stations.len(), 4);
    assert_eq!(l.columns.len(), 3);
    assert_eq!(
        l.columns[1], l.shuttle_column,
        "shuttles in the middle column"
    );
    let outposts: usize = l.outpost_columns.iter().map(|c| l.spaces(c)).sum();
    assert_eq!(outposts, 12);
    assert_eq!(l.spaces(&l.shuttle_column), 5);
    assert!(!l.crossed_out_space.is_empty());
    // Every station has printed-shuttle paths of its own company.
    for c in Company::ALL {
        assert!(!d.belt.station_asteroids(c).is_empty(), "{c:?}");
    }
    assert!(d
        .belt
        .station_paths
        .iter()
        .all(|p| p.printed_shuttle == p.station));
}

#[test]
fn ex20_belt_expansion_costs_six() {
    let d = data();
    let b = &d.belt;
    let ex = &b.example_ex20;
    // Minerva starts on 18; 19 lies on a path from 18; 14 behind 19's energy icon; 13 holds an
    // Astrogo shuttle and is attached to 14.
    let p19 = b.flight_path(19).expect("19");
    let p13 = b.flight_path(13).expect("13");
    assert!(p19.ends.contains(&18) && p19.ends.contains(&14));
    assert!(p13.ends.contains(&14));
    let icon =
        |p: &skymines::data::belt::FlightPath, a| u32::from(p.energy_towards(a) == Some(true));
    let costs = [
        1 + icon(p19, 18),     // shuttle space 19, reached from 18
        1 + icon(p19, 14),     // asteroid 14 through 19's part next to 14
        1 + icon(p13, 14) + 1, // shuttle space 13 from 14, ousting the pink shuttle
        1,                     // asteroid 18: Minerva is already there
    ];
    assert_eq!(costs, [1, 2, 2, 1]);
    assert_eq!(costs.to_vec(), ex.costs);
    assert_eq!(costs.iter().sum::<u32>(), ex.energy);
    assert_eq!(
        ex.entered
            .iter()
            .map(|s| BeltTarget::parse(s))
            .collect::<Vec<_>>(),
        [
            Some(BeltTarget::Shuttle(19)),
            Some(BeltTarget::Outpost(14)),
            Some(BeltTarget::Shuttle(13)),
            Some(BeltTarget::Outpost(18))
        ]
    );
}

#[test]
fn ex21_linked_gas_collectors_on_1_and_15() {
    let d = data();
    let b = &d.belt;
    let linked: Vec<u32> = b
        .asteroids
        .iter()
        .filter(|a| a.linked_gas_spaces.is_some())
        .map(|a| a.id)
        .collect();
    assert_eq!(linked, [1, 15]);
    // Minerva on 10 and on both linked spaces of 15 controls 3 gas collectors.
    let screens: usize = [10, 15]
        .iter()
        .flat_map(|a| b.asteroid(*a).expect("asteroid").reward.iter())
        .filter(|s| s.is_gas_collector())
        .count();
    assert_eq!(screens + 1, 3);
    assert_eq!(b.example_ex21.gas_collectors_controlled, 3);
}

// ------------------------------------------------------------------ missions (§8.2)

#[test]
fn six_mission_cards_with_three_tasks_and_the_personal_bonus_space() {
    let d = data();
    let m = &d.missions;
    assert_eq!(m.cards.len(), 6);
    assert!(m.cards.iter().all(|c| c.tasks.len() == 3));
    assert_eq!(m.module.face_up_cards.for_humans(1), 1);
    assert_eq!(m.module.face_up_cards.for_humans(2), 1);
    assert_eq!(m.module.face_up_cards.for_humans(3), 2);
    assert_eq!(m.module.face_up_cards.for_humans(4), 2);
    assert_eq!(m.module.coins_per_task, 2);
    assert_eq!(m.module.one_time_markers_per_player, 3);
    assert!(!m.module.luna_participates);
    let p = &m.personal_bonus_space;
    assert_eq!(p.requirement, [PersonalRequirement::PayCoins { n: 1 }]);
    assert_eq!(p.reward, [PersonalReward::CompanyTrackOfChoice { n: 3 }]);
    assert_eq!(p.requirements(), [Requirement::Pay { n: 1 }]);
    assert_eq!(p.rewards(), [Reward::TrackOfChoice { n: 3 }]);
}

#[test]
fn the_four_stated_tasks_are_in_the_data() {
    let d = data();
    let stated: Vec<(Metric, u32)> = d
        .missions
        .tasks()
        .filter(|(_, t)| t.condition_source == Some(Source::Stated))
        .map(|(_, t)| (t.condition.metric, t.condition.min))
        .collect();
    let want = [
        (Metric::FaceUpScientistCards, 3),
        (Metric::FaceUpMaxUnitsOneType, 7),
        (Metric::TankSpacesMoved, 4),
        (Metric::PiecesPlacedFromStation, 5),
    ];
    assert_eq!(stated.len(), 4);
    for w in want {
        assert!(stated.contains(&w), "{w:?}");
    }
}

// ------------------------------------------------------------------ threats (§8.4)

#[test]
fn the_six_named_threats() {
    let d = data();
    let t = &d.threats;
    let names: BTreeSet<&str> = t.threats.iter().map(|x| x.name.as_str()).collect();
    let want = BTreeSet::from([
        "Space pirates",
        "Rogue comet",
        "Artificial Einstein-Rosen bridge",
        "Probe with unknown signature",
        "Singularity",
        "Time anomaly",
    ]);
    assert_eq!(names, want);
    let by_name = |n: &str| {
        t.threats
            .iter()
            .find(|x| x.name == n)
            .unwrap_or_else(|| panic!("{n}"))
    };
    assert_eq!(
        by_name("Space pirates").requirement,
        [ThreatRequirement::PayCoins { n: 6 }]
    );
    assert_eq!(
        by_name("Rogue comet").requirement,
        [ThreatRequirement::SpendExtraEnergy { n: 3 }]
    );
    assert_eq!(
        by_name("Artificial Einstein-Rosen bridge").requirement,
        [ThreatRequirement::DiscardEnergyCardsFromHand { n: 2 }]
    );
    assert_eq!(
        by_name("Probe with unknown signature").requirement,
        [ThreatRequirement::TankValuePassed { value: 40 }]
    );
    assert_eq!(
        by_name("Singularity").requirement,
        [ThreatRequirement::ResearchValuePassed { value: 40 }]
    );
    assert_eq!(
        by_name("Time anomaly").requirement,
        [ThreatRequirement::AllOf {
            of: vec![
                ThreatRequirement::TankValuePassed { value: 25 },
                ThreatRequirement::ResearchValuePassed { value: 20 }
            ]
        }]
    );
    assert_eq!(
        by_name("Singularity").consequence.effect,
        ConsequenceEffect::GameEndsAfterRound { round: 6 }
    );
    // Only Singularity and Time anomaly apply to Luna.
    let luna: BTreeSet<&str> = t
        .threats
        .iter()
        .filter(|x| x.applies_to_luna)
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(luna, BTreeSet::from(["Singularity", "Time anomaly"]));
    assert!(t
        .threats
        .iter()
        .all(|x| x.provenance.source == Source::Stated));
    assert_eq!(t.module.board_side, BoardSide::Belt);
    assert_eq!(t.module.reach.energy, 2);
}

// ------------------------------------------------------------------ Luna (§9, luna-*.toml)

#[test]
fn luna_has_19_cards_and_levels_0_to_8() {
    let d = data();
    let l = &d.luna_cards;
    assert_eq!(l.cards.len(), 19);
    assert_eq!(l.grade(1).len(), 12);
    assert_eq!(l.grade(2).len(), 7);
    let b = &d.luna_board;
    let levels: Vec<u32> = b.levels.iter().map(|l| l.level).collect();
    assert_eq!(levels, (0..=8).collect::<Vec<_>>());
    assert_eq!(b.action_slots.order, ['a', 'b', 'c', 'd', 'e']);
    assert_eq!(b.action_slots.initially_on, ['b', 'c', 'd']);
    // Her research ON switch is the fifth screen too, and her tracks print 25/40 and 20/40.
    assert_eq!(
        b.research_track.switch_on_step,
        d.player_board.research_track.on_screen
    );
    assert!(b.tank_track.score_threshold_coins.contains(&25));
    assert!(b.tank_track.score_threshold_coins.contains(&40));
    assert!(b.research_track.score_threshold_coins.contains(&20));
    assert!(b.research_track.score_threshold_coins.contains(&40));
    assert_eq!(b.start.bonus_markers, 5);
    assert_eq!(b.start.coins, 1);
}

// ------------------------------------------------------------------ campaign (§8.5, §9.9)

#[test]
fn the_four_campaign_chapters() {
    let d = data();
    let c = &d.campaign;
    let rows: Vec<(u32, &str, BoardSide, Vec<Module>)> = c
        .chapter_list
        .iter()
        .map(|x| (x.id, x.name.as_str(), x.board, x.modules.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                1,
                "Mining the Moon",
                BoardSide::Moon,
                vec![Module::Missions]
            ),
            (2, "Into the Belt", BoardSide::Belt, vec![Module::Missions]),
            (
                3,
                "Return to the Moon",
                BoardSide::Moon,
                vec![Module::Missions]
            ),
            (
                4,
                "Lurking in the Belt",
                BoardSide::Belt,
                vec![Module::Missions, Module::Threats]
            ),
        ]
    );
    for x in &c.chapter_list {
        assert_eq!(x.tracks, TrackSetup::Random, "chapter {}", x.id);
        assert_eq!(x.tokens, TokenSetup::Draft, "chapter {}", x.id);
        assert_eq!(x.preplaced_outposts.is_some(), x.id == 3);
        assert_eq!(x.provenance.source, Source::Stated);
    }
    let extra = |id| {
        c.chapter(id)
            .expect("chapter")
            .extra_sp
            .iter()
            .map(|x| (x.kind, x.sp))
            .collect::<Vec<_>>()
    };
    assert!(extra(1).is_empty() && extra(2).is_empty());
    assert_eq!(
        extra(3),
        [(ChapterSpKind::FirstToUnlockPersonalBonusSpace, 1)]
    );
    assert_eq!(extra(4), [(ChapterSpKind::RemovedThreatCard, 1)]);
}

#[test]
fn success_points_rating_and_luna_levels() {
    let d = data();
    let c = &d.campaign;
    let rules: Vec<SpRuleKind> = c.sp_rules.iter().map(|r| r.rule.clone()).collect();
    assert!(rules.contains(&SpRuleKind::PlayersWithFewerCoins { min: 1 }));
    assert!(rules.contains(&SpRuleKind::PlayersWithFewerCoins { min: 2 }));
    assert!(rules.contains(&SpRuleKind::ChapterWinner { ties_share: true }));
    assert!(rules.contains(&SpRuleKind::OneTimeMarkersGone { min: 2 }));
    assert!(rules
        .iter()
        .any(|r| matches!(r, SpRuleKind::FinalSpaceReached { tracks } if tracks.len() == 3)));
    assert!(c.sp_rules.iter().all(|r| r.sp == 1));
    let labels: Vec<(u32, &str)> = c
        .ratings
        .iter()
        .map(|r| (r.min_sp, r.label.as_str()))
        .collect();
    assert_eq!(
        labels,
        [(0, "<7"), (7, "7+"), (12, "12+"), (17, "17+"), (22, "22+")]
    );
    assert!(c.rating(6).expect("rating").text.contains("down-to-earth"));
    assert!(c.rating(7).expect("rating").text.contains("okay-ish"));
    assert!(c
        .rating(16)
        .expect("rating")
        .text
        .contains("halfway to the Moon"));
    assert!(c.rating(17).expect("rating").text.contains("Mars"));
    assert!(c.rating(40).expect("rating").text.contains("legend"));
    let l = &c.luna.rules;
    assert_eq!(
        (
            l.start_level_with_2_or_3_humans,
            l.start_level_with_2_or_3_humans_easier
        ),
        (3, 2)
    );
    assert_eq!((l.start_level_solo, l.start_level_solo_easier), (5, 4));
    assert_eq!(
        (
            l.won_decrease_bonus_sp,
            l.not_won_keep_bonus_sp,
            l.one_time_marker_category_sp
        ),
        (1, 2, 1)
    );
}

// ------------------------------------------------------------------ provenance (FACTS §10)

/// Every item FACTS §10 lists as unknown must be tagged reconstructed or inferred.
#[test]
fn unknown_data_is_never_tagged_stated() {
    let d = data();
    let guessed = |s: Source| s != Source::Stated;
    let check = |what: &str, tags: Vec<(String, Source)>| {
        assert!(!tags.is_empty(), "{what}: nothing to check");
        for (id, s) in tags {
            assert!(guessed(s), "{what} `{id}` is tagged stated (FACTS §10)");
        }
    };
    // 10.1 action cards, 10.2 starting cards.
    check(
        "action card",
        d.action_cards
            .cards
            .iter()
            .map(|c| (c.id.clone(), c.provenance.source))
            .collect(),
    );
    check(
        "starting card",
        d.starting_cards
            .starting_cards
            .iter()
            .map(|c| (c.icon.clone(), c.provenance.source))
            .chain(
                d.starting_cards
                    .single_energy
                    .iter()
                    .map(|c| (c.id.clone(), c.provenance.source)),
            )
            .collect(),
    );
    // 10.3-10.5 research.
    check(
        "research plan",
        d.research
            .plans
            .iter()
            .map(|p| (p.id.clone(), p.provenance.source))
            .chain(
                d.research
                    .special_plans
                    .iter()
                    .map(|p| (p.id.clone(), p.provenance.source)),
            )
            .chain(
                d.research
                    .starting_tokens
                    .iter()
                    .map(|p| (p.id.clone(), p.provenance.source)),
            )
            .collect(),
    );
    // 10.6 track layouts; only the A2 and D2 bonuses are stated.
    check(
        "track",
        d.tracks
            .tracks
            .iter()
            .map(|t| (t.id.clone(), t.provenance.source))
            .collect(),
    );
    for b in &d.tracks.bonuses {
        if b.provenance.source == Source::Stated {
            assert!(b.track == "A2" || b.track == "D2", "{} is stated", b.id);
        }
    }
    // 10.7/10.8 Moon and stations.
    check(
        "moon sector",
        d.moon
            .sectors
            .iter()
            .map(|s| (s.id.to_string(), s.provenance.source))
            .chain(
                d.moon
                    .stations
                    .iter()
                    .map(|s| (s.company.id().to_string(), s.provenance.source)),
            )
            .chain([(
                "station_layout".to_string(),
                d.moon.station_layout.provenance.source,
            )])
            .collect(),
    );
    // 10.9-10.11 board costs, research display, bonus spaces and tiles.
    check(
        "board",
        d.board
            .card_display
            .spaces
            .iter()
            .map(|s| (format!("display {}", s.number), s.provenance.source))
            .chain(
                d.board
                    .research_display
                    .spaces
                    .iter()
                    .map(|s| (s.id.clone(), s.provenance.source)),
            )
            .chain(
                d.board
                    .bonus_spaces
                    .iter()
                    .map(|s| (s.id.clone(), s.provenance.source)),
            )
            .chain(
                d.board
                    .bonus_tiles
                    .iter()
                    .map(|s| (s.id.clone(), s.provenance.source)),
            )
            .collect(),
    );
    // 10.12 player board.
    check(
        "player board",
        vec![
            (
                "tank_track".to_string(),
                d.player_board.tank_track.provenance.source,
            ),
            (
                "research_track".to_string(),
                d.player_board.research_track.provenance.source,
            ),
        ],
    );
    // 10.14 missions: every task placement is ours; only 4 conditions are stated.
    check(
        "mission",
        d.missions
            .cards
            .iter()
            .map(|c| (format!("card {}", c.id), c.provenance.source))
            .chain(
                d.missions
                    .tasks()
                    .map(|(c, t)| (format!("card {c} task {}", t.column), t.provenance.source)),
            )
            .collect(),
    );
    // 10.15 Belt.
    let b = &d.belt;
    check(
        "belt",
        b.asteroids
            .iter()
            .map(|a| (format!("asteroid {}", a.id), a.provenance.source))
            .chain(
                b.flight_paths
                    .iter()
                    .map(|p| (format!("shuttle {}", p.shuttle_space), p.provenance.source)),
            )
            .chain(b.station_paths.iter().map(|p| {
                (
                    format!("station path {}-{}", p.station.id(), p.asteroid),
                    p.provenance.source,
                )
            }))
            .chain(
                b.stations
                    .iter()
                    .map(|s| (s.company.id().to_string(), s.provenance.source)),
            )
            .chain([
                (
                    "station_layout".to_string(),
                    b.station_layout.provenance.source,
                ),
                ("numbering".to_string(), b.numbering_source),
                ("threat_space".to_string(), b.threat_space.provenance.source),
            ])
            .collect(),
    );
    // The counts add up over every tagged entry.
    let (stated, inferred, reconstructed) = d.provenance_counts();
    assert!(stated > 0 && inferred > 0 && reconstructed > stated + inferred);
}

// ------------------------------------------------------------------ data hash

#[test]
fn data_hash_is_stable_and_follows_the_values() {
    let a = GameData::embedded().expect("the built-in data loads");
    let b = GameData::embedded().expect("the built-in data loads");
    assert_eq!(a.hash.len(), 32);
    assert_eq!(a.hash, b.hash, "two loads give the same hash");
    let dir = copy_assets("hash");
    let copy = GameData::from_dir(&dir).expect("an unchanged copy loads");
    assert_eq!(
        copy.hash, a.hash,
        "a copy of assets/ hashes like the built-in data"
    );
    // Comments do not count.
    edit(
        &dir,
        "campaign.toml",
        "schema_version = 1\n",
        "schema_version = 1 # note\n",
    );
    assert_eq!(GameData::from_dir(&dir).expect("loads").hash, a.hash);
    // Values do, in every file.
    let changes = [
        ("campaign.toml", "min_sp = 22", "min_sp = 23"),
        ("luna-cards.toml", "majority = { left = 0, right = 3, scientists = 1 }\n\n[[card.action]]\nkind = \"gain_card\"", "majority = { left = 1, right = 3, scientists = 1 }\n\n[[card.action]]\nkind = \"gain_card\""),
        ("belt.toml", "reward = [{ kind = \"gas_collector\", n = 2 }]", "reward = [{ kind = \"gas_collector\", n = 1 }]"),
        ("missions.toml", "condition = { metric = \"reserve_coins\", min = 15 }", "condition = { metric = \"reserve_coins\", min = 16 }"),
    ];
    let mut seen = BTreeSet::from([a.hash.clone()]);
    for (file, from, to) in changes {
        edit(&dir, file, from, to);
        let h = GameData::from_dir(&dir)
            .unwrap_or_else(|e| panic!("{file} still loads: {e}"))
            .hash;
        assert!(seen.insert(h), "changing {file} changes the hash");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
