//! The research screens and slots as players number them: from 1, the fifth screen the one that
//! switches the slot on (moved here from the crate's unit tests).

use skymines::data::numbering::{parse_ordinal, screen, screen_index, slot, slot_index};

#[test]
fn the_fifth_screen_is_the_slot_switching_screen() {
    let data = skymines::data::GameData::embedded().expect("data");
    let rt = &data.player_board.research_track;
    assert_eq!(screen(rt.starting_screen as usize), 1);
    assert_eq!(
        screen(rt.on_screen as usize),
        5,
        "EX-8: the fifth screen switches the slot on"
    );
    assert_eq!(screen(rt.final_screen as usize), rt.screens as usize);
    assert_eq!(screen_index(5).map(u32::from), Some(rt.on_screen));
    assert_eq!(screen_index(0), None);
}

#[test]
fn slots_count_from_one_on_the_left() {
    let data = skymines::data::GameData::embedded().expect("data");
    let pb = &data.player_board;
    assert_eq!(slot(pb.tank_slot()), 1);
    assert_eq!(slot(pb.research_slot()), 5);
    assert_eq!(slot_index(1), Some(0));
    assert_eq!(parse_ordinal(" 3 "), Some(2));
    assert_eq!(parse_ordinal("0"), None);
    assert_eq!(parse_ordinal("x"), None);
    assert_eq!(parse_ordinal("300"), None);
}
