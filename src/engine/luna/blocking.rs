//! Which majority bonus spaces Luna's majority cards close, and to whom (Luna booklet, planning
//! step b 3: a player whose value is lower than hers may not place a marker there), and which
//! open again when she discards a majority card at the end of her Action phase. Pure reads of
//! the state, written as methods of [`GameState`] (as in `choices`); what is said is
//! [`super`]'s.

use super::majority_value;
use crate::data::GameData;
use crate::engine::effects;
use crate::engine::state::GameState;

/// A majority bonus space Luna's majority cards close: her value there, the players below it.
pub(crate) struct Closed {
    pub space: usize,
    pub value: u32,
    pub below: Vec<usize>,
}

impl GameState {
    /// The majority bonus spaces Luna (seat `seat`) closes now, in board order.
    pub(crate) fn luna_closed_spaces(&self, data: &GameData, seat: usize) -> Vec<Closed> {
        let mut out = Vec::new();
        for (space, entry) in data.board.bonus_spaces.iter().enumerate() {
            let Some(compare) = entry.compare else {
                continue;
            };
            let Some(value) = majority_value(data, self, seat, compare) else {
                continue;
            };
            let below: Vec<usize> = (0..self.seats.len())
                .filter(|&s| !self.seats[s].is_luna())
                .filter(|&s| effects::majority_value(data, self, s, compare) < value)
                .collect();
            if !below.is_empty() {
                out.push(Closed {
                    space,
                    value,
                    below,
                });
            }
        }
        out
    }

    /// The spaces of `before` that are open now to players still playing, with those players:
    /// (space, seats). A space that holds a marker is open to nobody.
    pub(crate) fn luna_reopened_spaces(
        &self,
        data: &GameData,
        seat: usize,
        before: &[Closed],
    ) -> Vec<(usize, Vec<usize>)> {
        let after = self.luna_closed_spaces(data, seat);
        before
            .iter()
            .filter(|was| {
                self.bonus_spaces
                    .get(was.space)
                    .is_some_and(Option::is_none)
            })
            .filter_map(|was| {
                let still: &[usize] = after
                    .iter()
                    .find(|now| now.space == was.space)
                    .map_or(&[], |now| now.below.as_slice());
                let open: Vec<usize> = was
                    .below
                    .iter()
                    .copied()
                    .filter(|s| !still.contains(s) && !self.seats[*s].dropped_out)
                    .collect();
                (!open.is_empty()).then_some((was.space, open))
            })
            .collect()
    }
}
