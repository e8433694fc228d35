//! The campaign as pure functions (campaign.toml): each chapter's options, the success points
//! (SP) after a chapter — every chapter's rules, the chapter-specific points, Luna's automatic
//! one-time-marker point —, the Time anomaly's averaging of a loop's games, Luna's starting level
//! and the level choice between chapters with its SP compensation, the running total and the
//! final rating. No state is kept here: the chat/store layer records each chapter's result and
//! calls these functions (`/skymines campaign new|status|next`).

use super::state::GameState;
use super::{score, threats, BoardSide, GameOptions, Phase, SetupError, TokenSetup, TrackSetup};
use crate::data::campaign::{
    ChapterSpKind, Module, Rating, SpRuleKind, SpTrack, TokenSetup as DataTokens,
    TrackSetup as DataTracks,
};
use crate::data::{Company, GameData};
use serde::{Deserialize, Serialize};

/// Why a campaign step cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CampaignError {
    #[error("the campaign has chapters 1 to {max}, not {got}")]
    NoSuchChapter { got: u8, max: usize },
    #[error("the game is not over yet")]
    NotFinished,
    #[error("this game is not a campaign chapter")]
    NotAChapter,
    #[error("the time loop's games do not belong together: {0}")]
    LoopMismatch(String),
    #[error("no chapter results")]
    Empty,
}

/// A campaign chapter's options: the chapter fixes the board side, the random tracks, the token
/// draft and its modules; the players choose the number of humans, Luna's level and the seed.
pub fn chapter_options(
    data: &GameData,
    chapter: u8,
    players: usize,
    luna: Option<u8>,
    seed: u64,
) -> Result<GameOptions, SetupError> {
    effective_options(
        data,
        &GameOptions {
            players,
            luna,
            chapter: Some(chapter),
            seed,
            ..GameOptions::default()
        },
    )
}

/// The options a game is really set up with: a chapter overrides the options it fixes.
pub(crate) fn effective_options(
    data: &GameData,
    options: &GameOptions,
) -> Result<GameOptions, SetupError> {
    let mut o = options.clone();
    let Some(n) = options.chapter else {
        return Ok(o);
    };
    let ch = data
        .campaign
        .chapter(n as u32)
        .ok_or(SetupError::UnknownChapter(n))?;
    o.board = match ch.board {
        crate::data::BoardSide::Moon => BoardSide::Moon,
        crate::data::BoardSide::Belt => BoardSide::Belt,
    };
    o.tracks = match ch.tracks {
        DataTracks::Default => TrackSetup::Default,
        DataTracks::Random => TrackSetup::Random,
        // Free choice: keep the players' chosen tracks, or deal them if none were chosen.
        DataTracks::Choice => match &options.tracks {
            TrackSetup::Chosen(ids) => TrackSetup::Chosen(ids.clone()),
            _ => TrackSetup::Random,
        },
    };
    o.tokens = match ch.tokens {
        DataTokens::FirstGame => TokenSetup::Fixed,
        DataTokens::Draft => TokenSetup::Draft,
    };
    o.missions = ch.has_module(Module::Missions);
    o.threats = ch.has_module(Module::Threats);
    Ok(o)
}

/// Luna's starting level in a campaign: with 2–3 humans 3 (easier 2), solo 5 (easier 4). None
/// for 4 humans (Luna never joins 4).
pub fn luna_start_level(data: &GameData, humans: usize, easier: bool) -> Option<u8> {
    let c = &data.campaign.luna.rules;
    let level = match (humans, easier) {
        (1, false) => c.start_level_solo,
        (1, true) => c.start_level_solo_easier,
        (2 | 3, false) => c.start_level_with_2_or_3_humans,
        (2 | 3, true) => c.start_level_with_2_or_3_humans_easier,
        _ => return None,
    };
    Some(level as u8)
}

/// One line of a seat's success points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpLine {
    /// The rule's id in campaign.toml (sp_rule ids, or the chapter's extra kind, or
    /// "luna_level_choice").
    pub rule: String,
    pub sp: u32,
}

/// One seat's outcome of a chapter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSp {
    pub seat: usize,
    pub name: String,
    pub luna: bool,
    /// The final score (CrypCoin earned; averaged over a time loop).
    pub score: u32,
    pub sp: u32,
    pub lines: Vec<SpLine>,
}

/// What a chapter gave: the record the campaign layer stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChapterResult {
    pub chapter: u8,
    pub seats: Vec<SeatSp>,
    /// Games played for this chapter (more than 1 after a Time anomaly loop).
    pub games: u32,
    /// Luna's level in this chapter, if she played.
    pub luna_level: Option<u8>,
}

impl ChapterResult {
    /// The seats with the highest score (ties share).
    pub fn winners(&self) -> Vec<usize> {
        let best = self.seats.iter().map(|s| s.score).max().unwrap_or(0);
        self.seats
            .iter()
            .filter(|s| s.score == best)
            .map(|s| s.seat)
            .collect()
    }

    /// Whether Luna won (or shared the win).
    pub fn luna_won(&self) -> bool {
        let winners = self.winners();
        self.seats
            .iter()
            .any(|s| s.luna && winners.contains(&s.seat))
    }
}

/// The success points of a finished chapter game. A game of a Time anomaly loop is scored the
/// same way (its points are averaged with the loop's other games by `average_loop`).
pub fn chapter_result(data: &GameData, state: &GameState) -> Result<ChapterResult, CampaignError> {
    if state.phase != Phase::Finished {
        return Err(CampaignError::NotFinished);
    }
    let Some(n) = state.options.chapter else {
        return Err(CampaignError::NotAChapter);
    };
    let chapter = data
        .campaign
        .chapter(n as u32)
        .ok_or(CampaignError::NoSuchChapter {
            got: n,
            max: data.campaign.chapter_list.len(),
        })?;
    let scores = score::final_scores(data, state);
    let totals: Vec<u32> = scores.iter().map(|s| s.total).collect();
    let best = totals.iter().copied().max().unwrap_or(0);
    let in_loop = in_time_loop(data, state);
    let mut seats = Vec::new();
    for (i, s) in state.seats.iter().enumerate() {
        let mine = totals[i];
        let mut lines = Vec::new();
        for rule in &data.campaign.sp_rules {
            let earned = match &rule.rule {
                SpRuleKind::PlayersWithFewerCoins { min } => {
                    let fewer = totals.iter().filter(|t| **t < mine).count() as u32;
                    if fewer >= *min {
                        rule.sp
                    } else {
                        0
                    }
                }
                // A game of the Time anomaly's loop has no winner yet (DECISIONS A8):
                // `average_loop` gives this point to the best averaged score.
                SpRuleKind::ChapterWinner { .. } => {
                    if mine == best && !in_loop {
                        rule.sp
                    } else {
                        0
                    }
                }
                SpRuleKind::OneTimeMarkersGone { min } => {
                    if s.is_luna() {
                        data.campaign.luna.rules.one_time_marker_category_sp
                    } else if s.mission.as_ref().is_some_and(|m| m.markers_gone() >= *min) {
                        rule.sp
                    } else {
                        0
                    }
                }
                SpRuleKind::FinalSpaceReached { tracks } => {
                    rule.sp * final_spaces_reached(data, state, i, tracks)
                }
            };
            if earned > 0 {
                lines.push(SpLine {
                    rule: rule.id.clone(),
                    sp: earned,
                });
            }
        }
        for extra in &chapter.extra_sp {
            let earned = match extra.kind {
                ChapterSpKind::FirstToUnlockPersonalBonusSpace => state
                    .missions
                    .as_ref()
                    .is_some_and(|m| m.first_unlocked == Some(i)),
                ChapterSpKind::RemovedThreatCard => state
                    .threat
                    .as_ref()
                    .is_some_and(|t| t.removed_by == Some(i)),
            };
            if earned {
                lines.push(SpLine {
                    rule: extra.kind.id().to_string(),
                    sp: extra.sp,
                });
            }
        }
        seats.push(SeatSp {
            seat: i,
            name: s.name.clone(),
            luna: s.is_luna(),
            score: mine,
            sp: lines.iter().map(|l| l.sp).sum(),
            lines,
        });
    }
    Ok(ChapterResult {
        chapter: n,
        seats,
        games: 1,
        luna_level: state.seats.iter().find_map(|s| match s.kind {
            super::SeatKind::Luna { level } => Some(level),
            super::SeatKind::Human => None,
        }),
    })
}

/// How many of the listed tracks' final spaces the seat reached (each company track counts).
fn final_spaces_reached(
    data: &GameData,
    state: &GameState,
    seat: usize,
    tracks: &[SpTrack],
) -> u32 {
    let s = &state.seats[seat];
    tracks
        .iter()
        .map(|t| match t {
            SpTrack::Company => Company::ALL
                .iter()
                .filter(|c| {
                    let track = &data.tracks.tracks[state.tracks[c.index()]];
                    s.track_pos[c.index()] as u32 >= track.last_space
                })
                .count() as u32,
            SpTrack::Tank => {
                let last = if s.is_luna() {
                    data.luna_board.tank_track.final_step
                } else {
                    data.player_board.tank_track.final_step
                };
                u32::from(s.tank as u32 >= last)
            }
            SpTrack::Research => {
                let last = if s.is_luna() {
                    data.luna_board.research_track.final_step
                } else {
                    data.player_board.research_track.final_screen
                };
                u32::from(s.upload.is_some_and(|u| u as u32 >= last))
            }
        })
        .sum()
}

/// Whether this chapter game leaves the players in the Time anomaly's loop: another game of the
/// same chapter follows (same seats, the same threat card: `next_loop_options`).
pub fn in_time_loop(data: &GameData, state: &GameState) -> bool {
    threats::time_loop_continues(data, state)
}

/// The options of the loop's next game: the same options with a new seed and the same threat
/// card.
pub fn next_loop_options(data: &GameData, state: &GameState, seed: u64) -> GameOptions {
    let mut o = state.options.clone();
    o.seed = seed;
    o.threat_card = threats::card(data, state).map(|c| c.id.clone());
    o
}

fn div_up(sum: u32, n: u32) -> u32 {
    sum.div_ceil(n.max(1))
}

/// The Time anomaly's final result (DECISIONS A8; rulebook, "Module: Threat cards", list of threat
/// cards): the scores and the success points of every game spent in the loop (the last one removed
/// the card), added up and divided by the number of games, fractions rounded up. The loop's games
/// have no winner, so the chapter-winner point is not part of any game's points: it goes to the
/// seats with the best averaged score (ties share), once. The last game's own winner point is
/// replaced by that one. A chapter of a single ordinary game is returned unchanged, with its
/// line-by-line breakdown.
pub fn average_loop(
    data: &GameData,
    games: &[ChapterResult],
) -> Result<ChapterResult, CampaignError> {
    let first = games.first().ok_or(CampaignError::Empty)?;
    for g in games {
        if g.chapter != first.chapter || g.seats.len() != first.seats.len() {
            return Err(CampaignError::LoopMismatch(format!(
                "chapter {} with {} seats vs chapter {} with {} seats",
                g.chapter,
                g.seats.len(),
                first.chapter,
                first.seats.len()
            )));
        }
    }
    let winner_rules: Vec<&str> = data
        .campaign
        .sp_rules
        .iter()
        .filter(|r| matches!(r.rule, SpRuleKind::ChapterWinner { .. }))
        .map(|r| r.id.as_str())
        .collect();
    // A chapter of one ordinary game (it has its winner) stays as it is. A single game of a
    // loop the players ended early has no winner yet: it goes through the averaging below.
    let has_winner = first.seats.iter().any(|s| {
        s.lines
            .iter()
            .any(|l| winner_rules.contains(&l.rule.as_str()))
    });
    if games.len() == 1 && (has_winner || winner_rules.is_empty()) {
        return Ok(first.clone());
    }
    let winner_sp: u32 = data
        .campaign
        .sp_rules
        .iter()
        .filter(|r| matches!(r.rule, SpRuleKind::ChapterWinner { .. }))
        .map(|r| r.sp)
        .sum();
    // Each game's points without a winner point (only the loop's last game can have one).
    let points_without_winner = |s: &SeatSp| -> u32 {
        s.sp - s
            .lines
            .iter()
            .filter(|l| winner_rules.contains(&l.rule.as_str()))
            .map(|l| l.sp)
            .sum::<u32>()
    };
    let n: u32 = games.iter().map(|g| g.games).sum();
    let mut seats: Vec<SeatSp> = (0..first.seats.len())
        .map(|i| {
            let score: u32 = games.iter().map(|g| g.seats[i].score * g.games).sum();
            let sp: u32 = games
                .iter()
                .map(|g| points_without_winner(&g.seats[i]) * g.games)
                .sum();
            SeatSp {
                seat: i,
                name: first.seats[i].name.clone(),
                luna: first.seats[i].luna,
                score: div_up(score, n),
                sp: div_up(sp, n),
                lines: vec![SpLine {
                    rule: "time_loop_average".to_string(),
                    sp: div_up(sp, n),
                }],
            }
        })
        .collect();
    let best = seats.iter().map(|s| s.score).max().unwrap_or(0);
    for s in seats.iter_mut().filter(|s| s.score == best) {
        if let Some(rule) = winner_rules.first() {
            s.sp += winner_sp;
            s.lines.push(SpLine {
                rule: rule.to_string(),
                sp: winner_sp,
            });
        }
    }
    Ok(ChapterResult {
        chapter: first.chapter,
        seats,
        games: n,
        luna_level: first.luna_level,
    })
}

/// The players' choice about Luna's level for the next chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelChange {
    Decrease,
    Keep,
    Increase,
}

/// One option of that choice: the next level and the SP Luna gains at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelChoice {
    pub change: LevelChange,
    pub level: u8,
    pub luna_sp: u32,
}

/// After a chapter: if Luna won, lower her level by 1 (Luna +1 SP) or keep it; if she did not,
/// raise it by 1 or keep it (keeping gives Luna +2 SP). Levels stay within 0–8.
pub fn luna_level_choices(data: &GameData, level: u8, luna_won: bool) -> Vec<LevelChoice> {
    let c = &data.campaign.luna.rules;
    let keep = |sp| LevelChoice {
        change: LevelChange::Keep,
        level,
        luna_sp: sp,
    };
    let mut out = Vec::new();
    if luna_won {
        if level > 0 {
            out.push(LevelChoice {
                change: LevelChange::Decrease,
                level: level - 1,
                luna_sp: c.won_decrease_bonus_sp,
            });
        }
        out.push(keep(0));
    } else {
        if level < 8 {
            out.push(LevelChoice {
                change: LevelChange::Increase,
                level: level + 1,
                luna_sp: 0,
            });
        }
        out.push(keep(c.not_won_keep_bonus_sp));
    }
    out
}

/// Records the level choice in the chapter's result: Luna's SP compensation is added at once.
pub fn apply_level_choice(result: &mut ChapterResult, choice: &LevelChoice) {
    if choice.luna_sp == 0 {
        return;
    }
    if let Some(l) = result.seats.iter_mut().find(|s| s.luna) {
        l.sp += choice.luna_sp;
        l.lines.push(SpLine {
            rule: "luna_level_choice".to_string(),
            sp: choice.luna_sp,
        });
    }
}

/// The campaign so far: each seat's running SP total and, after the last chapter, the overall
/// winners and each seat's rating.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub chapters_played: usize,
    pub names: Vec<String>,
    pub totals: Vec<u32>,
    /// Seats with the most SP (ties share the overall victory).
    pub leaders: Vec<usize>,
    /// Whether every chapter has been played.
    pub complete: bool,
    /// The rating label and text per seat (by total SP).
    pub ratings: Vec<(String, String)>,
}

/// The running total of a campaign's chapter results (seats in the same order every chapter).
pub fn standing(data: &GameData, results: &[ChapterResult]) -> Standing {
    let names: Vec<String> = results
        .first()
        .map(|r| r.seats.iter().map(|s| s.name.clone()).collect())
        .unwrap_or_default();
    let totals: Vec<u32> = (0..names.len())
        .map(|i| {
            results
                .iter()
                .filter_map(|r| r.seats.get(i))
                .map(|s| s.sp)
                .sum()
        })
        .collect();
    let best = totals.iter().copied().max().unwrap_or(0);
    Standing {
        chapters_played: results.len(),
        leaders: (0..totals.len()).filter(|i| totals[*i] == best).collect(),
        complete: results.len() >= data.campaign.chapters,
        ratings: totals
            .iter()
            .map(|t| {
                rating(data, *t)
                    .map(|r| (r.label.clone(), r.display_text()))
                    .unwrap_or_default()
            })
            .collect(),
        names,
        totals,
    }
}

/// The rating row for a total of success points.
pub fn rating(data: &GameData, sp: u32) -> Option<&Rating> {
    data.campaign.rating(sp)
}
