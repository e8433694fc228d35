//! Rendering never fails on positions reached by 500 random games (1 to 4 players, every
//! round; solo games against Luna, some on the Belt with a threat card, some with Luna, some
//! with the mission cards): a snapshot at each round start,
//! a few mid-round points and the final position, drawn as the board and one seat's public and
//! private boards (the seat rotates).

use crate::render_support::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skymines::engine::{self, BoardSide as EngineSide, GameOptions, Phase};
use skymines::render;

const GAMES: u64 = 500;

/// Plays game `g` and renders its snapshots; returns how many were drawn.
fn play_and_render(g: u64) -> usize {
    let d = data();
    let r = renderer();
    let players = 1 + (g % 4) as usize;
    let belt = g % 4 == 1 || g % 7 == 3;
    // Solo games always have Luna; 2-3 player games sometimes.
    let luna = (players == 1 || (g % 5 == 2 && players < 4)).then_some((g % 9) as u8);
    let options = GameOptions {
        players,
        luna,
        seed: 1000 + g,
        board: if belt {
            EngineSide::Belt
        } else {
            EngineSide::Moon
        },
        threats: belt,
        missions: g.is_multiple_of(3),
        ..GameOptions::default()
    };
    let mut state = engine::new_game(d, &options, &skymines::sim::seat_names(players))
        .unwrap_or_else(|e| panic!("game {g}: {e}"));
    let mut rng = ChaCha8Rng::seed_from_u64(77 + g);
    // Two mid-round points per game, at random decisions of random rounds.
    let mid: Vec<(u8, u32)> = (0..2)
        .map(|_| (rng.gen_range(1..=7u8), rng.gen_range(3..40u32)))
        .collect();
    let mut last_round = 0u8;
    let mut in_round = 0u32;
    let mut drawn = 0;
    let snapshot = |state: &engine::GameState, k: usize| {
        let seat = k % state.seats.len();
        let spectator = engine::view(d, state, None);
        let own = engine::view(d, state, Some(seat));
        let board = r.board_image(d, &own, render::side_of(&own));
        assert_eq!(board.width(), r.layout().canvas.width);
        let public = r
            .player_image(d, &spectator, seat, false)
            .unwrap_or_else(|e| panic!("game {g}: public image: {e}"));
        if state.seats[seat].is_luna() {
            return;
        }
        let private = r
            .player_image(d, &own, seat, true)
            .unwrap_or_else(|e| panic!("game {g}: private image: {e}"));
        assert_eq!(public.width(), private.width());
        assert!(!r.summary_text(d, &spectator).is_empty());
    };
    let mut steps = 0;
    while state.phase != Phase::Finished {
        steps += 1;
        assert!(steps < 30_000, "game {g} does not end");
        if state.round != last_round {
            last_round = state.round;
            in_round = 0;
            snapshot(&state, drawn);
            drawn += 1;
        }
        in_round += 1;
        if mid.contains(&(state.round, in_round)) {
            snapshot(&state, drawn);
            drawn += 1;
        }
        let waiting = engine::waiting_on(&state);
        let seat = waiting[rng.gen_range(0..waiting.len())];
        let legal = engine::legal_decisions(d, &state, seat);
        let decision = skymines::bots::weighted::choose(&mut rng, d, &state, seat, &legal)
            .unwrap_or_else(|| panic!("game {g}: no decision"));
        engine::apply(d, &mut state, seat, decision).unwrap_or_else(|e| panic!("game {g}: {e}"));
    }
    snapshot(&state, drawn);
    drawn + 1
}

#[test]
fn rendering_never_fails_on_random_games() {
    let started = std::time::Instant::now();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8) as u64;
    let total: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (0..GAMES)
                        .filter(|g| g % threads == t)
                        .map(play_and_render)
                        .sum::<usize>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic while rendering"))
            .sum()
    });
    eprintln!(
        "{GAMES} games, {total} snapshots (board + public + private each) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(total >= GAMES as usize * 8);
}
