//! Consistency checks run on every load: counts, unique ids, references, geometry. One module
//! per component file in `assets/`, named after it; what they share is in `helpers`.

mod action_cards;
mod belt;
mod board;
mod campaign;
mod helpers;
mod luna_board;
mod luna_cards;
mod missions;
mod moon;
mod player_board;
mod research;
mod starting_cards;
mod threats;
mod tracks;

use super::GameData;
use helpers::Check;

pub(super) fn all(d: &GameData) -> Check {
    action_cards::check(d)?;
    starting_cards::check(d)?;
    research::check(d)?;
    tracks::check(d)?;
    board::check(d)?;
    player_board::check(d)?;
    moon::check(d)?;
    belt::check(d)?;
    missions::check(d)?;
    threats::check(d)?;
    luna_cards::check(d)?;
    luna_board::check(d)?;
    campaign::check(d)?;
    Ok(())
}
