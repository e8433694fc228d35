//! Board snapshot speed and size: time to draw and PNG-encode the main board and the player
//! boards of a mid-game 4-player position (goal: under 40 ms and 1 MiB), and the cache (an
//! identical state is not drawn again). The board's time is split into drawing, the palette
//! and the compression, with the size each compression setting gives. Every timed render must
//! return a PNG (and the last of each kind must decode to the layout's size), or the benchmark
//! fails.
//! `cargo bench --bench render` (`BENCH_QUICK=1`: 5 renders each).

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

use skymines::data::{BoardSide, GameData};
use skymines::engine;
use skymines::render::{self, testing, RenderError, Renderer};
use std::time::Instant;
use support::{assert_accepted, fail, ms, size, Samples};

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A render was accepted if it gave a PNG.
fn png(result: &Result<Vec<u8>, RenderError>) -> Result<(), String> {
    match result {
        Ok(bytes) if bytes.starts_with(PNG_SIGNATURE) => Ok(()),
        Ok(bytes) => Err(format!("{} bytes that are not a PNG", bytes.len())),
        Err(e) => Err(e.to_string()),
    }
}

/// Times `n` calls of `f`, keeping each only if `accepted` says its result is good.
fn time<T>(
    what: &str,
    n: usize,
    mut f: impl FnMut() -> T,
    accepted: impl Fn(&T) -> Result<(), String>,
) -> (Samples, T) {
    let mut samples = Samples::new(what);
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let result = f();
        let elapsed = t.elapsed();
        samples.keep(elapsed, accepted(&result));
        out = Some(result);
    }
    match out {
        Some(out) => (samples, out),
        None => fail(what, "no sample taken"),
    }
}

fn decoded_size(what: &str, bytes: &[u8]) -> (u32, u32) {
    let img = assert_accepted(what, image::load_from_memory(bytes));
    (img.width(), img.height())
}

fn main() {
    let data = assert_accepted("the built-in data", GameData::embedded());
    let state = assert_accepted(
        "a mid-game position",
        render::cli::simulate(&data, 11, 4, 4),
    );
    let public = engine::view(&data, &state, None);
    let own = engine::view(&data, &state, Some(0));
    let r = assert_accepted("the renderer", Renderer::new());
    let n = size(60, 5);
    println!("render benchmark ({})", support::mode());
    // Warm-up.
    assert_accepted(
        "warm-up render",
        r.board_png_uncached(&data, &public, BoardSide::Moon),
    );

    let (samples, board) = time(
        "main board render + PNG",
        n,
        || r.board_png_uncached(&data, &public, BoardSide::Moon),
        png,
    );
    let board = assert_accepted("main board", board);
    let (w, h) = decoded_size("the main board PNG", &board);
    if w != r.layout().canvas.width {
        fail(
            "the main board PNG",
            format!("{w} px wide, the layout says {}", r.layout().canvas.width),
        );
    }
    println!(
        "main board render + PNG encode: median {:.1} ms, p90 {:.1} ms, max {:.1} ms (goal < 40 ms); {} bytes ({:.0} KiB), {w}x{h} px",
        ms(samples.percentile(0.5)),
        ms(samples.percentile(0.9)),
        ms(samples.percentile(1.0)),
        board.len(),
        board.len() as f64 / 1024.0,
    );
    samples.finish(n);
    let (samples, _) = time(
        "main board drawing only",
        n,
        || r.board_image(&data, &public, BoardSide::Moon),
        |img| {
            (img.width() == w)
                .then_some(())
                .ok_or_else(|| format!("an image {} px wide, not {w}", img.width()))
        },
    );
    println!(
        "  of which drawing only: median {:.1} ms",
        ms(samples.percentile(0.5))
    );
    samples.finish(n);
    encoding(&r.board_image(&data, &public, BoardSide::Moon), n);

    let mut largest = board.len();
    for (label, private, view) in [("public", false, &public), ("private", true, &own)] {
        let (samples, bytes) = time(
            &format!("player board ({label})"),
            n,
            || {
                r.player_image(&data, view, 0, private)
                    .and_then(|_| r.player_png(&data, view, 0, private))
            },
            png,
        );
        let bytes = assert_accepted("player board", bytes);
        decoded_size("a player board PNG", &bytes);
        largest = largest.max(bytes.len());
        println!(
            "player board ({label}) draw (+ cached PNG): median {:.1} ms, p90 {:.1} ms; {} bytes ({:.0} KiB)",
            ms(samples.percentile(0.5)),
            ms(samples.percentile(0.9)),
            bytes.len(),
            bytes.len() as f64 / 1024.0
        );
        samples.finish(n);
    }

    // Cache: the same state again is a lookup, not a render, and gives the same bytes.
    let first = assert_accepted("board (cached)", r.board_png(&data, &public));
    let before = r.stats();
    let (samples, _) = time(
        "identical state again",
        n,
        || r.board_png(&data, &public),
        |again| match again {
            Ok(bytes) if *bytes == first => Ok(()),
            Ok(_) => Err("other bytes than the first render".into()),
            Err(e) => Err(e.to_string()),
        },
    );
    let after = r.stats();
    if after.renders != before.renders {
        fail(
            "the render cache",
            format!(
                "{} renders of an identical state",
                after.renders - before.renders
            ),
        );
    }
    println!(
        "identical state again: median {:.3} ms, renders {} -> {} (cache hits +{})",
        ms(samples.percentile(0.5)),
        before.renders,
        after.renders,
        after.cache_hits - before.cache_hits,
    );
    samples.finish(n);
    println!(
        "largest PNG {largest} bytes ({}under the 1 MiB goal)",
        if largest < 1024 * 1024 { "" } else { "NOT " }
    );
}

/// Where the PNG encoding of the drawn board goes: the palette (colours counted, chosen, each
/// pixel's place), then the compression of the places, with the size each compression gives
/// (the one the renderer uses is marked).
fn encoding(drawn: &image::RgbImage, n: usize) {
    use png::DeflateCompression::{FdeflateUltraFast, Level};
    use png::Filter::{NoFilter, Up};
    let pixels = (drawn.width() * drawn.height()) as usize;
    let part = |what: &str, samples: Samples| {
        println!(
            "  of which {what}: median {:.1} ms",
            ms(samples.percentile(0.5))
        );
        samples.finish(n);
    };
    let counted = |runs: &testing::Runs| {
        let colours = runs.by_use();
        (!colours.is_empty())
            .then_some(())
            .ok_or_else(|| "no colour".to_string())
    };
    let (samples, runs) = time("colours", n, || testing::Runs::of(drawn), counted);
    part("the colours counted", samples);
    let colours = runs.by_use();
    let chosen = |(palette, places): &(Vec<u32>, Vec<u8>)| {
        (palette.len() <= 256 && places.len() == colours.len())
            .then_some(())
            .ok_or_else(|| format!("{} colours, {} places", palette.len(), places.len()))
    };
    let (samples, (_, places)) = time(
        "palette choice",
        n,
        || testing::choose_palette(&colours),
        chosen,
    );
    part(
        &format!("the palette chosen ({} colours)", colours.len()),
        samples,
    );
    let placed = |p: &Vec<u8>| {
        (p.len() == pixels)
            .then_some(())
            .ok_or_else(|| format!("{} places", p.len()))
    };
    let (samples, _) = time("places", n, || runs.places(&colours, &places), placed);
    part("each pixel's place", samples);
    let settings = [
        ("zlib level 6", Level(6), NoFilter),
        ("zlib level 4", Level(4), NoFilter),
        ("zlib level 3", Level(3), NoFilter),
        ("zlib level 2", Level(2), NoFilter),
        ("zlib level 1", Level(1), NoFilter),
        ("zlib level 3, Up filter", Level(3), Up),
        ("zlib level 2, Up filter", Level(2), Up),
        ("zlib level 1, Up filter", Level(1), Up),
        ("fdeflate, Up filter", FdeflateUltraFast, Up),
    ];
    for (name, deflate, filter) in settings {
        let (samples, bytes) = time(
            name,
            n,
            || testing::encode_png_with(drawn, deflate, filter),
            png,
        );
        let bytes = assert_accepted(name, bytes);
        let used = format!("{:?} {:?}", testing::DEFLATE, testing::FILTER)
            == format!("{deflate:?} {filter:?}");
        println!(
            "  palette + {name}: median {:.1} ms, {} bytes ({:.0} KiB){}",
            ms(samples.percentile(0.5)),
            bytes.len(),
            bytes.len() as f64 / 1024.0,
            if used { "  <- used" } else { "" }
        );
        samples.finish(n);
    }
}
