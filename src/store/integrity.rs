//! The whole-game check: what, besides the log's replay against its snapshots (`replay`), a
//! stored game must satisfy to go on, written once for both databases and used by start-up,
//! by loading a game, by `admin report` and by the rollback that mends a damaged game.
//!
//! - The seats: one row for each seat of the game, numbered 0, 1, … without gaps or extras,
//!   Luna's row where the game has Luna and a player's row elsewhere, each with the name the
//!   game gives the seat. (Seats are not history: their number, kinds and names hold for the
//!   whole game, so any state of it will do for the comparison.)
//! - The seed: the game row's seed column is the seed in its options.
//! - The move rows: each row carries a checksum of its columns, written with it
//!   ([`entry_checksum`]); a row that no longer matches was changed after it was written (a
//!   flipped bit on the disk, a hand edit) and makes its game damaged from that entry on. Rows
//!   written before the checksums came in (schema version 14) carry none and are not checked.
//!
//! What mends what: a log that breaks (a row that does not decode, a wrong checksum, a gap, a
//! snapshot that disagrees with a replay) is rolled back to its last good move; seats that do
//! not match the game are rewritten from it by the rollback of the damaged game
//! ([`repair_seats`]); a game row that does not decode needs a backup.
//!
//! DECISIONS B23. This file depends on no other of the store's modules but the SQL layer and
//! the error type, so that every part of the store may call it.

use super::error::Result;
use super::sql::{args, Tx};
use crate::engine::GameState;

/// A seat row as the check reads it: its number, whether it is Luna's, its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SeatFacts {
    pub(super) seat: usize,
    pub(super) luna: bool,
    pub(super) name: String,
}

/// What is wrong with a game's seat rows against `state` (any state of the game, with its
/// current seat names), or None when they match.
pub(super) fn seat_problem(rows: &[SeatFacts], state: &GameState) -> Option<String> {
    let shown = crate::text::quote;
    for (i, seat) in state.seats.iter().enumerate() {
        let name = shown(&seat.name);
        let Some(row) = rows.iter().find(|r| r.seat == i) else {
            return Some(format!("seat {i} ({name}) has no seat row"));
        };
        if row.luna != seat.is_luna() {
            return Some(if row.luna {
                format!("seat {i} ({name}) is stored as Luna's seat, but a player holds it")
            } else {
                format!("seat {i} is Luna's, but it is stored as a player's seat")
            });
        }
        if row.name != seat.name {
            return Some(format!(
                "seat {i} is stored with the name `{}`, but the game calls it `{name}`",
                shown(&row.name)
            ));
        }
    }
    let count = state.seats.len();
    if let Some(extra) = rows.iter().find(|r| r.seat >= count) {
        return Some(format!(
            "there is a seat row for seat {}, but the game has {count} seats",
            extra.seat
        ));
    }
    None
}

/// What is wrong with a game row's seed against the seed in its options, if anything.
pub(super) fn seed_problem(seed: u64, options_seed: u64) -> Option<String> {
    (seed != options_seed).then(|| {
        format!("the game row's seed {seed} is not the seed {options_seed} of its options")
    })
}

/// Rewrites a damaged game's seat rows from its state (inside the rollback's transaction): a
/// missing row comes back as an open seat (a computer player holds it until its player joins
/// it again) or as Luna's, a row of the wrong kind gets the right one, every row gets the
/// game's name and colour for its seat, and rows past the game's seats go. Returns what was
/// changed (for the log).
pub(super) fn repair_seats(tx: &mut Tx<'_>, game: i64, state: &GameState) -> Result<Vec<String>> {
    let mut changed = Vec::new();
    for (i, seat) in state.seats.iter().enumerate() {
        // The kind as raw bytes: a kind that is not text any more is simply wrong.
        let kind: Option<Option<String>> = tx.query_opt(
            "SELECT kind FROM seats WHERE game_id = $1 AND seat = $2",
            args![game, i],
            |r| Ok(r.get::<String>(0).ok()),
        )?;
        let right_kind = match kind.as_ref().and_then(|k| k.as_deref()) {
            Some("luna") => seat.is_luna(),
            Some("discord" | "local" | "vacant") => !seat.is_luna(),
            _ => false,
        };
        let fresh_kind = if seat.is_luna() { "luna" } else { "vacant" };
        match kind {
            None => {
                tx.execute(
                    "INSERT INTO seats (game_id, seat, kind, user_id, name, colour, notify) \
                     VALUES ($1, $2, $3, NULL, $4, $5, 'ephemeral')",
                    args![game, i, fresh_kind, &seat.name, seat.colour],
                )?;
                changed.push(format!("seat {i}: row re-created ({fresh_kind})"));
                continue;
            }
            Some(_) if !right_kind => {
                tx.execute(
                    "UPDATE seats SET kind = $3, user_id = NULL, waiting_since = NULL \
                     WHERE game_id = $1 AND seat = $2",
                    args![game, i, fresh_kind],
                )?;
                changed.push(format!("seat {i}: kind set to {fresh_kind}"));
            }
            Some(_) => {}
        }
        tx.execute(
            "UPDATE seats SET name = $3, colour = $4, notify = CASE WHEN notify = 'dm' \
             THEN 'dm' ELSE 'ephemeral' END WHERE game_id = $1 AND seat = $2",
            args![game, i, &seat.name, seat.colour],
        )?;
    }
    let extra = tx.execute(
        "DELETE FROM seats WHERE game_id = $1 AND seat >= $2",
        args![game, state.seats.len()],
    )?;
    if extra > 0 {
        changed.push(format!("{extra} seat row(s) past the game's seats removed"));
    }
    Ok(changed)
}

/// The columns of a move row, as the checksum covers them.
pub(super) struct EntryColumns<'a> {
    pub(super) seq: u64,
    pub(super) kind: &'a str,
    pub(super) seat: i64,
    pub(super) decisions: Option<&'a str>,
    pub(super) undoes: Option<u64>,
    pub(super) at: i64,
    pub(super) back_to: Option<u64>,
    pub(super) by: Option<u64>,
}

/// The checksum of a move row: a 64-bit fingerprint of every column (stored bit for bit in a
/// signed integer column). Each step of it is a bijection of its state for a given input
/// word, so two rows of the same length that differ in one 8-byte word (every single flipped
/// bit) never share it; it is no defence against someone who rewrites a row on purpose, who
/// can also rewrite its checksum. Cheap: start-up checks every row of every game.
pub(super) fn entry_checksum(c: &EntryColumns<'_>) -> i64 {
    let mut h = Fingerprint::new();
    h.word(c.seq);
    h.bytes(c.kind.as_bytes());
    h.word(c.seat as u64);
    h.opt_bytes(c.decisions.map(str::as_bytes));
    h.opt(c.undoes);
    h.word(c.at as u64);
    h.opt(c.back_to);
    h.opt(c.by);
    h.finish() as i64
}

/// The fingerprint behind [`entry_checksum`]: word by word, multiply and rotate, with a final
/// mix. Its value for a given input never changes (it is stored).
struct Fingerprint(u64);

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl Fingerprint {
    fn new() -> Fingerprint {
        Fingerprint(0x736b_796d_696e_6573)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(MULTIPLIER).rotate_left(29);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        let mut chunks = b.chunks_exact(8);
        for chunk in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(w));
        }
    }

    fn opt(&mut self, v: Option<u64>) {
        match v {
            Some(v) => {
                self.word(1);
                self.word(v);
            }
            None => self.word(0),
        }
    }

    fn opt_bytes(&mut self, v: Option<&[u8]>) {
        match v {
            Some(b) => {
                self.word(1);
                self.bytes(b);
            }
            None => self.word(0),
        }
    }

    fn finish(self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}
