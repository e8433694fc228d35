//! How positions on the components are numbered for people (DECISIONS B17): the one place that
//! turns the engine's indices into the numbers that text, images, typed options and help show,
//! and typed numbers back into indices.
//!
//! - Research screens count from the starting screen = screen 1, so the slot-switching screen
//!   (index 4) is screen 5, the rulebook's "fifth screen" (EX-8).
//! - Action slots and resting slots are 1–5 from left to right.
//! - Card display spaces, Moon sectors and Belt spaces carry the numbers printed on the board;
//!   the engine keeps those numbers as they are, so they need no conversion.
//! - Company track spaces and tank spaces are steps from the start space (the start is 0), as
//!   the data files count them (`tracks.toml`, `player-board.toml`).
//!
//! - Luna's card grades are roman numerals (I, II), as the booklet writes them.
//!
//! Mission columns and majority tiers are ordinals as well (1 = the first); they use [`slot`]'s
//! rule through [`ordinal`].

/// The number people use for research screen `index` (the starting screen is 1).
pub fn screen(index: usize) -> usize {
    index + 1
}

/// The number of the screen an upload marker stands on: before the first plan it waits on the
/// starting screen (on the left half of the starting research token).
pub fn marker_screen(upload: Option<u8>) -> usize {
    screen(upload.map(usize::from).unwrap_or(0))
}

/// The research screen index of the screen people call `number` (None for 0).
pub fn screen_index(number: u32) -> Option<u8> {
    ordinal_index(number)
}

/// The number people use for action or resting slot `index` (1–5 from the left).
pub fn slot(index: usize) -> usize {
    ordinal(index)
}

/// The action or resting slot index of the slot people call `number` (None for 0).
pub fn slot_index(number: u32) -> Option<u8> {
    ordinal_index(number)
}

/// Spaces entered, in the order first entered, each once: a Belt asteroid entered again (it
/// has several outpost spaces under one number) reads "15 ×2", so no number repeats in a line.
pub fn counted_list<T: PartialEq + std::fmt::Display>(entered: &[T]) -> String {
    let mut seen: Vec<(&T, usize)> = Vec::new();
    for n in entered {
        match seen.iter_mut().find(|(m, _)| *m == n) {
            Some((_, k)) => *k += 1,
            None => seen.push((n, 1)),
        }
    }
    seen.iter()
        .map(|(n, k)| match k {
            1 => n.to_string(),
            _ => format!("{n} ×{k}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Luna card's grade as the booklet prints it on the card backs (I or II).
pub fn roman(grade: u8) -> &'static str {
    match grade {
        1 => "I",
        2 => "II",
        _ => "?",
    }
}

/// A position counted from 1 for the 0-based `index` (a station column, a reward tier).
pub fn ordinal(index: usize) -> usize {
    index + 1
}

/// The 0-based index of the position people call `number` (None for 0).
pub fn ordinal_index(number: u32) -> Option<u8> {
    number.checked_sub(1).and_then(|i| u8::try_from(i).ok())
}

/// Parses a typed 1-based number ("5") into a 0-based index; None for 0, words or overflow.
pub fn parse_ordinal(word: &str) -> Option<u8> {
    word.trim().parse::<u32>().ok().and_then(ordinal_index)
}
