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
