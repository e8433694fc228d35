//! Board snapshot speed and size: median time to draw and PNG-encode the main board and the
//! player boards of a mid-game 4-player position, PNG sizes, and the cache (an identical state
//! is not drawn again). Run with `cargo bench --bench render`.

use skymines::data::{BoardSide, GameData};
use skymines::engine;
use skymines::render::{self, Renderer};
use std::time::Instant;

fn stats(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.9), ms[ms.len() - 1])
}

fn time<T>(n: usize, mut f: impl FnMut() -> T) -> (Vec<f64>, T) {
    let mut out = None;
    let mut ms = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        out = Some(f());
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    (ms, out.expect("n > 0"))
}

fn main() {
    let data = GameData::embedded().expect("data");
    let state = render::cli::simulate(&data, 11, 4, 4).expect("a mid-game position");
    let public = engine::view(&data, &state, None);
    let own = engine::view(&data, &state, Some(0));
    let r = Renderer::new().expect("renderer");
    let n = 60;
    // Warm-up.
    let _ = r.board_png_uncached(&data, &public, BoardSide::Moon);

    let (ms, png) = time(n, || {
        r.board_png_uncached(&data, &public, BoardSide::Moon)
            .expect("board")
    });
    let (med, p90, max) = stats(ms);
    println!(
        "main board render + PNG encode: median {med:.1} ms, p90 {p90:.1} ms, max {max:.1} ms; {} bytes ({:.0} KiB), {}x{} px",
        png.len(),
        png.len() as f64 / 1024.0,
        r.layout().canvas.width,
        r.layout().board.height
    );
    let (ms, _) = time(n, || r.board_image(&data, &public, BoardSide::Moon));
    let (med, _, _) = stats(ms);
    println!("  of which drawing only: median {med:.1} ms");

    for (label, private, view) in [("public", false, &public), ("private", true, &own)] {
        let (ms, bytes) = time(n, || {
            r.player_image(&data, view, 0, private).expect("player");
            r.player_png(&data, view, 0, private).expect("player")
        });
        let (med, p90, _) = stats(ms);
        println!(
            "player board ({label}) draw (+ cached PNG): median {med:.1} ms, p90 {p90:.1} ms; {} bytes ({:.0} KiB)",
            bytes.len(),
            bytes.len() as f64 / 1024.0
        );
    }

    // Cache: the same state again is a lookup, not a render.
    let before = r.stats();
    let (ms, again) = time(n, || r.board_png(&data, &public).expect("board"));
    let after = r.stats();
    let (med, _, _) = stats(ms);
    println!(
        "identical state again: median {:.3} ms, renders {} -> {} (cache hits +{}), same bytes: {}",
        med,
        before.renders,
        after.renders,
        after.cache_hits - before.cache_hits,
        again == r.board_png(&data, &public).expect("board")
    );
    let limit = 1024 * 1024;
    let sizes = [
        png.len(),
        r.player_png(&data, &public, 0, false).expect("p").len(),
        r.player_png(&data, &own, 0, true).expect("p").len(),
    ];
    println!(
        "largest PNG {} bytes ({}under 1 MiB)",
        sizes.iter().max().copied().unwrap_or(0),
        if sizes.iter().all(|s| *s < limit) {
            ""
        } else {
            "NOT "
        }
    );
}
