//! Games spread over threads, their results in game order (so a table does not depend on the
//! number of threads).

/// `play(g)` for every game g in 0..games, spread over `threads` threads, in game order.
pub(super) fn in_threads<T: Send>(
    games: usize,
    threads: usize,
    play: impl Fn(usize) -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    let threads = threads.clamp(1, games.max(1));
    let mut results: Vec<(usize, Result<T, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let play = &play;
                scope.spawn(move || {
                    (t..games)
                        .step_by(threads)
                        .map(|g| (g, play(g)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec![(usize::MAX, Err("a match thread panicked".into()))])
            })
            .collect()
    });
    results.sort_by_key(|(g, _)| *g);
    results.into_iter().map(|(_, r)| r).collect()
}
