//! The campaign: each chapter's options and setup (chapter 3's pre-placed outposts), the
//! success points after a chapter (every rule, the chapter-specific points, Luna's automatic
//! one-time-marker point), Luna's starting level and the level choice between chapters with its
//! compensation, the running total and the rating table, and whole 4-chapter campaigns played
//! by self-play with their success-point totals recomputed independently.

use crate::common::*;
use crate::modules_support::*;
use skymines::data::Company;
use skymines::engine::campaign::{self, ChapterResult, LevelChange};
use skymines::engine::{
    self, BoardSide, GameOptions, GameState, SetupError, TokenSetup, TrackSetup,
};

// ------------------------------------------------------------------------------------------
// chapters

#[test]
fn each_chapter_fixes_its_board_tracks_tokens_and_modules() {
    let want = [
        (1, BoardSide::Moon, false),
        (2, BoardSide::Belt, false),
        (3, BoardSide::Moon, false),
        (4, BoardSide::Belt, true),
    ];
    for (ch, board, threats) in want {
        let o = campaign::chapter_options(data(), ch, 2, Some(3), 5).expect("a chapter");
        assert_eq!(o.board, board, "chapter {ch}");
        assert_eq!(o.tracks, TrackSetup::Random, "option B in step 3");
        assert_eq!(o.tokens, TokenSetup::Draft, "option B in step 13");
        assert!(o.missions, "every chapter plays the mission cards");
        assert_eq!(o.threats, threats);
        assert_eq!(o.chapter, Some(ch));
        assert_eq!(o.luna, Some(3));
        let s = new_game(&o);
        assert_eq!(s.options, o);
        assert!(s.missions.is_some());
        assert_eq!(s.belt.is_some(), board == BoardSide::Belt);
        assert_eq!(s.threat.is_some(), threats);
    }
    // A chapter overrides the options it fixes.
    let s = new_game(&GameOptions {
        players: 2,
        chapter: Some(1),
        board: BoardSide::Belt,
        threats: true,
        ..Default::default()
    });
    assert_eq!(s.options.board, BoardSide::Moon);
    assert!(!s.options.threats);
    assert!(matches!(
        campaign::chapter_options(data(), 5, 2, None, 1),
        Err(SetupError::UnknownChapter(5))
    ));
}

#[test]
fn chapter_3_places_the_top_outpost_of_each_column_on_the_stated_sectors() {
    let o = campaign::chapter_options(data(), 3, 2, None, 8).expect("chapter 3");
    let s = new_game(&o);
    for c in Company::ALL {
        let sectors = data().moon.chapter3.sectors(c);
        assert_eq!(sectors.len(), 3);
        for n in sectors {
            assert_eq!(s.sectors[*n as usize - 1], Some(c), "{c:?} on {n}");
        }
        assert_eq!(s.stations[c.index()].map(|col| col.outposts), [4, 4, 4]);
        assert_eq!(s.outposts_on_board(c), 3);
    }
    // Stated: Skymine 6, 19, 20; Minerva 16, 21, 23; Astrogo 1, 7, 11; Tawac 2, 3, 4.
    assert_eq!(data().moon.chapter3.sectors(Company::Skymine), &[6, 19, 20]);
    assert_eq!(data().moon.chapter3.sectors(Company::Tawac), &[2, 3, 4]);
}

#[test]
fn lunas_campaign_level_starts_at_3_or_2_with_company_and_5_or_4_solo() {
    assert_eq!(campaign::luna_start_level(data(), 2, false), Some(3));
    assert_eq!(campaign::luna_start_level(data(), 3, true), Some(2));
    assert_eq!(campaign::luna_start_level(data(), 1, false), Some(5));
    assert_eq!(campaign::luna_start_level(data(), 1, true), Some(4));
    assert_eq!(campaign::luna_start_level(data(), 4, false), None);
}

#[test]
fn the_level_choice_after_a_chapter_and_its_compensation() {
    let won = campaign::luna_level_choices(data(), 3, true);
    assert_eq!(won.len(), 2);
    assert!(won
        .iter()
        .any(|c| c.change == LevelChange::Decrease && c.level == 2 && c.luna_sp == 1));
    assert!(won
        .iter()
        .any(|c| c.change == LevelChange::Keep && c.level == 3 && c.luna_sp == 0));
    let lost = campaign::luna_level_choices(data(), 3, false);
    assert!(lost
        .iter()
        .any(|c| c.change == LevelChange::Increase && c.level == 4 && c.luna_sp == 0));
    assert!(lost
        .iter()
        .any(|c| c.change == LevelChange::Keep && c.level == 3 && c.luna_sp == 2));
    // Levels stay within 0-8.
    assert_eq!(campaign::luna_level_choices(data(), 0, true).len(), 1);
    assert_eq!(campaign::luna_level_choices(data(), 8, false).len(), 1);
}

// ------------------------------------------------------------------------------------------
// success points

/// A finished chapter game with `players` humans (and Luna) whose totals are their coins.
fn chapter_end(chapter: u8, players: usize, luna: bool, coins: &[u32]) -> GameState {
    let o = campaign::chapter_options(data(), chapter, players, luna.then_some(3), 4)
        .expect("a chapter");
    let mut s = new_game(&o);
    for (i, seat) in s.seats.iter_mut().enumerate() {
        seat.coins = coins[i];
        seat.track_pos = [0; 4];
        seat.tank = 0;
        seat.upload = if seat.is_luna() { Some(0) } else { None };
        seat.hand.clear();
        seat.resting = Default::default();
        seat.slots = [None; 5];
        if let Some(l) = seat.luna.as_mut() {
            l.reserve_cards.clear();
        }
    }
    finish(&mut s);
    s
}

fn sp_of(r: &ChapterResult, seat: usize, rule: &str) -> u32 {
    r.seats[seat]
        .lines
        .iter()
        .filter(|l| l.rule == rule)
        .map(|l| l.sp)
        .sum()
}

#[test]
fn fewer_coins_points_and_the_winner_point_with_ties() {
    let s = chapter_end(1, 4, false, &[10, 20, 20, 5]);
    let totals: Vec<u32> = engine::final_scores(data(), &s)
        .iter()
        .map(|x| x.total)
        .collect();
    assert_eq!(totals, vec![10, 20, 20, 5]);
    let r = campaign::chapter_result(data(), &s).expect("finished");
    // Seat 3 has the fewest: nobody earned less.
    assert_eq!(sp_of(&r, 3, "fewer_coins_one"), 0);
    assert_eq!(sp_of(&r, 0, "fewer_coins_one"), 1);
    assert_eq!(sp_of(&r, 0, "fewer_coins_two"), 0, "only one earned less");
    assert_eq!(sp_of(&r, 1, "fewer_coins_two"), 1);
    // Tied winners both get the point.
    assert_eq!(sp_of(&r, 1, "winner"), 1);
    assert_eq!(sp_of(&r, 2, "winner"), 1);
    assert_eq!(sp_of(&r, 0, "winner"), 0);
    // Tied for the fewest: no point.
    let s = chapter_end(1, 3, false, &[7, 7, 9]);
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 0, "fewer_coins_one"), 0);
    assert_eq!(sp_of(&r, 2, "fewer_coins_two"), 1);
    // Tied for the second fewest: no second point.
    let s = chapter_end(1, 4, false, &[3, 7, 7, 9]);
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 1, "fewer_coins_two"), 0);
    assert_eq!(sp_of(&r, 3, "fewer_coins_two"), 1);
}

#[test]
fn two_one_time_markers_gone_give_a_point_and_luna_always_gets_it() {
    let mut s = chapter_end(2, 2, true, &[5, 5, 5]);
    if let Some(m) = s.seats[0].mission.as_mut() {
        m.fulfilled = [true, false, true];
    }
    if let Some(m) = s.seats[1].mission.as_mut() {
        m.fulfilled = [true, false, false];
    }
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 0, "one_time_markers"), 1);
    assert_eq!(sp_of(&r, 1, "one_time_markers"), 0);
    assert_eq!(sp_of(&r, 2, "one_time_markers"), 1, "Luna");
    assert!(r.seats[2].luna);
}

#[test]
fn each_track_whose_final_space_was_reached_gives_a_point() {
    let mut s = chapter_end(1, 2, true, &[5, 5, 5]);
    for c in [Company::Skymine, Company::Tawac] {
        let last = data().tracks.tracks[s.tracks[c.index()]].last_space as u8;
        s.seats[0].track_pos[c.index()] = last;
    }
    s.seats[0].tank = data().player_board.tank_track.final_step as u8;
    s.seats[1].upload = Some(data().player_board.research_track.final_screen as u8);
    s.seats[2].tank = data().luna_board.tank_track.final_step as u8;
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 0, "final_spaces"), 3, "2 company tracks + tank");
    assert_eq!(sp_of(&r, 1, "final_spaces"), 1, "research");
    assert_eq!(sp_of(&r, 2, "final_spaces"), 1, "Luna's tank");
}

#[test]
fn chapter_3_and_4_extra_points() {
    let mut s = chapter_end(3, 2, false, &[5, 5]);
    if let Some(m) = s.missions.as_mut() {
        m.first_unlocked = Some(1);
    }
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 1, "first_to_unlock_personal_bonus_space"), 1);
    assert_eq!(sp_of(&r, 0, "first_to_unlock_personal_bonus_space"), 0);
    // Chapter 1 has no such point.
    let mut s = chapter_end(1, 2, false, &[5, 5]);
    if let Some(m) = s.missions.as_mut() {
        m.first_unlocked = Some(1);
    }
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 1, "first_to_unlock_personal_bonus_space"), 0);
    // Chapter 4: the player who removed the threat card.
    let mut s = chapter_end(4, 2, false, &[5, 5]);
    if let Some(t) = s.threat.as_mut() {
        t.on_board = false;
        t.removed_by = Some(0);
    }
    let r = campaign::chapter_result(data(), &s).expect("finished");
    assert_eq!(sp_of(&r, 0, "removed_threat_card"), 1);
    assert_eq!(sp_of(&r, 1, "removed_threat_card"), 0);
}

#[test]
fn a_chapter_result_needs_a_finished_chapter_game() {
    let s = new_game(&options(2, 1));
    assert_eq!(
        campaign::chapter_result(data(), &s),
        Err(campaign::CampaignError::NotFinished)
    );
    let mut s = new_game(&options(2, 1));
    finish(&mut s);
    assert_eq!(
        campaign::chapter_result(data(), &s),
        Err(campaign::CampaignError::NotAChapter)
    );
}

#[test]
fn the_rating_table() {
    let label = |sp| campaign::rating(data(), sp).map(|r| r.label.clone());
    assert_eq!(label(0).as_deref(), Some("<7"));
    assert_eq!(label(6).as_deref(), Some("<7"));
    assert_eq!(label(7).as_deref(), Some("7+"));
    assert_eq!(label(12).as_deref(), Some("12+"));
    assert_eq!(label(21).as_deref(), Some("17+"));
    assert_eq!(label(22).as_deref(), Some("22+"));
}

// ------------------------------------------------------------------------------------------
// whole campaigns

/// The success points of one seat recomputed straight from the rules, independently of
/// `campaign::chapter_result`.
fn recompute_sp(s: &GameState, seat: usize, chapter: u8) -> u32 {
    let totals: Vec<u32> = engine::final_scores(data(), s)
        .iter()
        .map(|x| x.total)
        .collect();
    let mine = totals[seat];
    let fewer = totals.iter().filter(|t| **t < mine).count();
    let mut sp = 0;
    sp += u32::from(fewer >= 1) + u32::from(fewer >= 2);
    sp += u32::from(mine == *totals.iter().max().unwrap());
    let seat_s = &s.seats[seat];
    sp += if seat_s.is_luna() {
        1
    } else {
        u32::from(
            seat_s
                .mission
                .as_ref()
                .map_or(0, |m| m.fulfilled.iter().filter(|f| **f).count())
                >= 2,
        )
    };
    for c in Company::ALL {
        let last = data().tracks.tracks[s.tracks[c.index()]].last_space as u8;
        sp += u32::from(seat_s.track_pos[c.index()] >= last);
    }
    let (tank_last, research_last) = if seat_s.is_luna() {
        (
            data().luna_board.tank_track.final_step,
            data().luna_board.research_track.final_step,
        )
    } else {
        (
            data().player_board.tank_track.final_step,
            data().player_board.research_track.final_screen,
        )
    };
    sp += u32::from(seat_s.tank as u32 >= tank_last);
    sp += u32::from(seat_s.upload.is_some_and(|u| u as u32 >= research_last));
    if chapter == 3 {
        sp += u32::from(s.missions.as_ref().and_then(|m| m.first_unlocked) == Some(seat));
    }
    if chapter == 4 {
        sp += u32::from(s.threat.as_ref().and_then(|t| t.removed_by) == Some(seat));
    }
    sp
}

/// Plays a whole campaign by self-play; returns the chapter results and the SP totals.
fn play_campaign(humans: usize, luna: bool, seed: u64) -> (Vec<ChapterResult>, Vec<u32>) {
    let mut level = luna
        .then(|| campaign::luna_start_level(data(), humans, false))
        .flatten();
    let mut results = Vec::new();
    for chapter in 1..=4u8 {
        let mut options =
            campaign::chapter_options(data(), chapter, humans, level, seed + chapter as u64)
                .expect("chapter options");
        let mut games = Vec::new();
        loop {
            let s = played(&options, seed * 7 + chapter as u64 + games.len() as u64);
            let r = campaign::chapter_result(data(), &s).expect("a chapter result");
            // Every seat's SP match the independent recomputation.
            for (i, seat) in r.seats.iter().enumerate() {
                assert_eq!(
                    seat.sp,
                    recompute_sp(&s, i, chapter),
                    "chapter {chapter} seat {i}"
                );
                assert_eq!(seat.sp, seat.lines.iter().map(|l| l.sp).sum::<u32>());
            }
            games.push(r);
            if !campaign::in_time_loop(data(), &s) || games.len() >= 3 {
                break;
            }
            options = campaign::next_loop_options(data(), &s, options.seed + 1000);
        }
        let mut result = campaign::average_loop(data(), &games).expect("the chapter's games");
        if let Some(l) = level {
            let choices = campaign::luna_level_choices(data(), l, result.luna_won());
            // The players keep her level when she lost (she gains 2 SP) and lower it when she won.
            let choice = choices[choices.len() - 1];
            campaign::apply_level_choice(&mut result, &choice);
            level = Some(choice.level);
        }
        results.push(result);
    }
    let standing = campaign::standing(data(), &results);
    assert!(standing.complete);
    for (i, total) in standing.totals.iter().enumerate() {
        let sum: u32 = results.iter().map(|r| r.seats[i].sp).sum();
        assert_eq!(*total, sum);
        assert_eq!(
            standing.ratings[i].0,
            campaign::rating(data(), *total)
                .map(|r| r.label.clone())
                .unwrap_or_default()
        );
    }
    let best = standing.totals.iter().max().copied().unwrap_or(0);
    for (i, t) in standing.totals.iter().enumerate() {
        assert_eq!(standing.leaders.contains(&i), *t == best);
    }
    (results, standing.totals)
}

#[test]
fn a_full_four_chapter_campaign_with_its_success_point_totals() {
    let (results, totals) = play_campaign(2, true, 41);
    assert_eq!(results.len(), 4);
    assert_eq!(
        results.iter().map(|r| r.chapter).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    // Luna's level choice: kept when she lost gives her 2 SP in that chapter.
    for r in &results {
        let luna = r.seats.iter().find(|s| s.luna).expect("Luna plays");
        let comp: u32 = luna
            .lines
            .iter()
            .filter(|l| l.rule == "luna_level_choice")
            .map(|l| l.sp)
            .sum();
        if r.luna_won() {
            assert_eq!(comp, 0, "kept after a win: no compensation");
        } else {
            assert_eq!(comp, 2);
        }
    }
    // Seeded: the same campaign gives the same totals.
    let (_, again) = play_campaign(2, true, 41);
    assert_eq!(totals, again);
    assert_eq!(totals.len(), 3);
}

#[test]
fn campaigns_with_one_to_four_humans() {
    for (humans, luna) in [(1, true), (3, false), (4, false)] {
        let (results, totals) = play_campaign(humans, luna, 5 + humans as u64);
        assert_eq!(results.len(), 4);
        assert_eq!(totals.len(), humans + usize::from(luna));
    }
}

#[test]
fn the_standing_after_some_chapters() {
    let s = chapter_end(1, 2, false, &[9, 4]);
    let r1 = campaign::chapter_result(data(), &s).expect("finished");
    let standing = campaign::standing(data(), std::slice::from_ref(&r1));
    assert!(!standing.complete);
    assert_eq!(standing.chapters_played, 1);
    assert_eq!(standing.totals, vec![2, 0]);
    assert_eq!(standing.leaders, vec![0]);
    let standing = campaign::standing(data(), &[r1.clone(), r1.clone(), r1.clone(), r1]);
    assert!(standing.complete);
    assert_eq!(standing.totals, vec![8, 0]);
    assert_eq!(standing.ratings[0].0, "7+");
}
