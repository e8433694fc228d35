//! TEMPORARY (not committed): every cut / small / off-image text over many random positions.
mod render_support;
use rand::{Rng, SeedableRng};
use render_support::*;
use skymines::engine::{self, BoardSide as S, GameOptions, Phase};
use std::collections::BTreeSet;

#[test]
fn wide() {
    let d = data();
    let r = renderer();
    let mut found = BTreeSet::new();
    let mut n = 0;
    for g in 0..60u64 {
        let players = 1 + (g % 4) as usize;
        let belt = g % 2 == 1;
        let luna = (players == 1 || (g % 5 == 2 && players < 4)).then_some((g % 9) as u8);
        let options = GameOptions {
            players,
            luna,
            seed: 3000 + g,
            board: if belt { S::Belt } else { S::Moon },
            threats: belt && g % 3 != 0,
            missions: g % 3 != 1,
            ..GameOptions::default()
        };
        let mut state = engine::new_game(d, &options, &skymines::sim::seat_names(players)).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(g);
        let mut steps = 0;
        while state.phase != Phase::Finished && steps < 3000 {
            steps += 1;
            let waiting = engine::waiting_on(&state);
            let seat = waiting[rng.gen_range(0..waiting.len())];
            let legal = engine::legal_decisions(d, &state, seat);
            let dd = skymines::bots::weighted::choose(&mut rng, d, &state, seat, &legal).unwrap();
            engine::apply(d, &mut state, seat, dd).unwrap();
            if rng.gen_range(0..40) == 0 || state.phase == Phase::Finished {
                for lang in ["en", "de"] {
                    let texts = skymines::text::for_language(lang);
                    let viewer = (0..state.seats.len()).find(|s| !state.seats[*s].is_luna());
                    let view = engine::view(d, &state, viewer);
                    let drawn = r.drawn_in(d, &view, texts);
                    for (k, im) in std::iter::once(&drawn.board).chain(&drawn.players).enumerate() {
                        for t in &im.texts {
                            n += 1;
                            let b = t.bounds;
                            if t.text.contains('…') {
                                found.insert(format!("CUT {lang} img{k}: {:?}", t.text));
                            }
                            if b.x < 0.0 || b.right() > im.width as f32 + 0.5 || b.y < 0.0 || b.bottom() > im.height as f32 + 0.5 {
                                found.insert(format!("OFF {lang} img{k}: {:?} {:?}", t.text, b));
                            }
                        }
                    }
                }
            }
        }
    }
    for f in &found {
        println!("{f}");
    }
    println!("{n} texts, {} problems", found.len());
}
