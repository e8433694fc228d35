//! TEMPORARY (not committed): fingerprints of many rendered images, to prove a refactor keeps
//! every pixel and every drawn text.
mod render_support;
use render_support::*;
use sha2::{Digest, Sha256};
use skymines::engine::{self, BoardSide as S, GameOptions};
use skymines::render;

#[test]
fn fingerprint() {
    let d = data();
    let r = renderer();
    let mut out = String::new();
    let mut cases = Vec::new();
    for g in 0..18u64 {
        let players = 1 + (g % 4) as usize;
        let belt = g % 3 == 1;
        let luna = (players == 1 || g % 5 == 2).then_some((g % 9) as u8);
        let options = GameOptions {
            players,
            luna,
            seed: 500 + g,
            board: if belt { S::Belt } else { S::Moon },
            threats: belt && g % 2 == 0 || g == 7,
            missions: g % 4 != 0,
            ..GameOptions::default()
        };
        let rounds = [0u8, 1, 3, 5, 7, 9][(g % 6) as usize];
        let decisions = (g * 7 % 30) as u32;
        if let Ok(st) = render::cli::simulate_options(d, &options, rounds, decisions) {
            cases.push(st);
        }
    }
    for (k, st) in cases.iter().enumerate() {
        for lang in ["en", "de"] {
            let texts = skymines::text::for_language(lang);
            let own = engine::view(d, st, Some(0));
            let mut h = Sha256::new();
            let board = r.board_png_in(d, &own, texts).unwrap();
            h.update(decode(&board).as_raw());
            for seat in 0..own.seats.len() {
                let png = r.player_png_in(d, &own, seat, false, texts).unwrap();
                h.update(decode(&png).as_raw());
            }
            if !st.seats[0].is_luna() {
                let png = r.player_png_in(d, &own, 0, true, texts).unwrap();
                h.update(decode(&png).as_raw());
            }
            let drawn = r.drawn_in(d, &own, texts);
            for im in std::iter::once(&drawn.board).chain(&drawn.players) {
                for t in &im.texts {
                    h.update(
                        format!("{:?}|{}|{}|{}|{:?}\n", t.text, t.x, t.y, t.size, t.role)
                            .as_bytes(),
                    );
                }
                h.update(format!("{:?}", im.marks).as_bytes());
            }
            h.update(r.summary_text_in(d, &own, texts).as_bytes());
            for seat in 0..own.seats.len() {
                h.update(
                    r.player_summary_text_in(d, &own, seat, seat == 0, texts)
                        .map(|s| s)
                        .unwrap_or_default()
                        .as_bytes(),
                );
            }
            out.push_str(&format!("{k} {lang} {:x}\n", h.finalize()));
        }
    }
    let path = std::env::var("FP_OUT").unwrap_or("/tmp/rt/fp.txt".into());
    std::fs::write(&path, &out).unwrap();
    println!("{out}");
}

fn diag_cases() -> Vec<(&'static str, GameOptions, u8, u32)> {
    let o = |players, luna, belt: bool, missions, threats, seed| GameOptions {
        players,
        luna,
        seed,
        board: if belt { S::Belt } else { S::Moon },
        missions,
        threats,
        ..GameOptions::default()
    };
    vec![
        ("moon4", o(4, None, false, false, false, 11), 4, 0),
        ("moonluna", o(1, Some(3), false, false, false, 5), 3, 10),
        ("moon2luna-m", o(2, Some(4), false, true, false, 6), 5, 7),
        ("belt3-mt", o(3, None, true, true, true, 21), 4, 0),
        ("belt2luna-mt", o(2, Some(2), true, true, true, 42), 3, 7),
        ("belt4-end", o(4, None, true, true, true, 44), 9, 0),
    ]
}

#[test]
fn diag() {
    let d = data();
    let r = renderer();
    let dir = std::env::var("DIAG_DIR").unwrap_or("/tmp/rt/img".into());
    let _ = std::fs::create_dir_all(&dir);
    for (name, options, rounds, decisions) in diag_cases() {
        let st = render::cli::simulate_options(d, &options, rounds, decisions).unwrap();
        for lang in ["en", "de"] {
            let texts = skymines::text::for_language(lang);
            let own = engine::view(d, &st, Some(0));
            let drawn = r.drawn_in(d, &own, texts);
            for (k, im) in std::iter::once(&drawn.board)
                .chain(&drawn.players)
                .enumerate()
            {
                for t in &im.texts {
                    if t.text.contains('…') {
                        println!("CUT {name} {lang} img{k}: {:?} size {}", t.text, t.size);
                    }
                }
            }
            if std::env::var("DIAG_PNG").is_ok() {
                let board = decode(&r.board_png_in(d, &own, texts).unwrap());
                half(&board)
                    .save(format!("{dir}/{name}-{lang}-board.png"))
                    .unwrap();
                for seat in 0..own.seats.len() {
                    let private = seat == 0 && !st.seats[0].is_luna();
                    let img = decode(&r.player_png_in(d, &own, seat, private, texts).unwrap());
                    half(&img)
                        .save(format!("{dir}/{name}-{lang}-p{seat}.png"))
                        .unwrap();
                }
            }
        }
    }
}
