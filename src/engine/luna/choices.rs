//! Luna's board choices (Luna booklet, "Company rankings", "Main outpost column"): the ranking
//! of the companies by value, by her lead and by how far she is behind, the companies an action
//! of hers selects, the main outpost column she takes an outpost from and the column an
//! outpost ousted by her returns to. Pure reads of the state, written as methods of
//! [`GameState`] so that the Moon's and the Belt's expansions ask the same questions (`luna_`
//! names them as Luna's); what she does with the answers is [`super`]'s.

use crate::data::luna::CompanySelector;
use crate::data::{Company, GameData};
use crate::engine::state::GameState;

impl GameState {
    /// Companies by value, most valuable first: visible coin icons, then vacant home spaces, then
    /// the track ID.
    pub(crate) fn luna_value_ranking(&self, data: &GameData) -> Vec<Company> {
        let mut companies = Company::ALL.to_vec();
        companies.sort_by(|a, b| {
            let spaces = self.station_shape(data).spaces;
            let key = |c: &Company| {
                let vacant: u32 = self.stations[c.index()]
                    .iter()
                    .zip(spaces)
                    .map(|(col, n)| col.vacant_in(n))
                    .sum();
                (self.share_value(data, *c), vacant)
            };
            key(b).cmp(&key(a)).then_with(|| {
                self.luna_track_id(data, *a)
                    .cmp(self.luna_track_id(data, *b))
            })
        });
        companies
    }

    fn luna_track_id<'d>(&self, data: &'d GameData, c: Company) -> &'d str {
        &data.tracks.tracks[self.tracks[c.index()]].id
    }

    /// Luna's margin on a track: her position minus the best other marker (negative = behind).
    pub(crate) fn luna_margin(&self, seat: usize, c: Company) -> i32 {
        let mine = self.seats[seat].track_pos[c.index()] as i32;
        let best = (0..self.seats.len())
            .filter(|&s| s != seat)
            .map(|s| self.seats[s].track_pos[c.index()] as i32)
            .max()
            .unwrap_or(0);
        mine - best
    }

    /// Tracks ordered by Luna's lead, biggest first (ties: the more valuable).
    fn luna_lead_ranking(&self, data: &GameData, seat: usize) -> Vec<Company> {
        let value = self.luna_value_ranking(data);
        let mut companies = value.clone();
        companies.sort_by_key(|c| {
            (
                std::cmp::Reverse(self.luna_margin(seat, *c)),
                value.iter().position(|v| v == c),
            )
        });
        companies
    }

    /// Tracks ordered by how far Luna is behind, farthest first (ties: the more valuable).
    pub(crate) fn luna_behind_ranking(&self, data: &GameData, seat: usize) -> Vec<Company> {
        let value = self.luna_value_ranking(data);
        let mut companies = value.clone();
        companies.sort_by_key(|c| {
            (
                self.luna_margin(seat, *c),
                value.iter().position(|v| v == c),
            )
        });
        companies
    }

    pub(crate) fn luna_select(
        &self,
        data: &GameData,
        seat: usize,
        selector: CompanySelector,
    ) -> Vec<Company> {
        let value = self.luna_value_ranking(data);
        match selector {
            CompanySelector::MostValuable => vec![value[0]],
            CompanySelector::SecondMostValuable => vec![value[1]],
            CompanySelector::LeastValuable => vec![value[3]],
            CompanySelector::MostValuableTwoEach => vec![value[0], value[1]],
            CompanySelector::LeadBiggestMargin => vec![self.luna_lead_ranking(data, seat)[0]],
            CompanySelector::LeadBiggestMarginTwoEach => {
                self.luna_lead_ranking(data, seat)[..2].to_vec()
            }
            CompanySelector::AllFourEach => Company::ALL.to_vec(),
        }
    }

    /// The main outpost column of a station (index), if it has an outpost to take.
    pub(crate) fn luna_main_column(&self, data: &GameData, company: Company) -> Option<usize> {
        self.luna_column_choice(data, company, true)
    }

    /// The booklet's main outpost column: of the columns whose final home space is covered, the one
    /// with the most vacant home spaces; only if every final space is vacant, the one with the most
    /// vacant home spaces that shows the fewest coin icons; remaining ties go to the column nearer
    /// the company logo. `taking`: only a column with an outpost left can supply one (an ousted
    /// outpost may return to an emptied column).
    fn luna_column_choice(&self, data: &GameData, company: Company, taking: bool) -> Option<usize> {
        let cols = &self.stations[company.index()];
        // The station's outpost columns on the side in play (the Belt's shuttle column never is).
        let shape = self.station_shape(data);
        let vacant = |i: usize| cols[i].vacant_in(shape.spaces[i]);
        let visible_coins = |i: usize| shape.visible_coins(i, cols[i]);
        let distance = |i: usize| (i as i32 - shape.logo as i32).abs();
        // The final home space is the crossed-out bottom space of each column.
        let final_covered: Vec<usize> = shape
            .outpost_columns
            .iter()
            .copied()
            .filter(|&i| cols[i].covers_in(shape.spaces[i], shape.spaces[i]))
            .collect();
        if !final_covered.is_empty() {
            return final_covered
                .into_iter()
                .min_by_key(|&i| (std::cmp::Reverse(vacant(i)), distance(i)));
        }
        shape
            .outpost_columns
            .iter()
            .copied()
            .filter(|&i| !taking || cols[i].outposts > 0)
            .min_by_key(|&i| (std::cmp::Reverse(vacant(i)), visible_coins(i), distance(i)))
    }

    /// Where an ousted outpost goes for Luna: the lowest vacant space of its main outpost column
    /// (any outpost column with room if that one is full).
    pub(crate) fn luna_return_column(&self, data: &GameData, company: Company) -> Option<usize> {
        let cols = &self.stations[company.index()];
        let shape = self.station_shape(data);
        let room = |i: usize| cols[i].has_room_in(shape.spaces[i]);
        match self.luna_column_choice(data, company, false) {
            Some(i) if room(i) => Some(i),
            _ => shape.outpost_columns.iter().copied().find(|&i| room(i)),
        }
    }
}
