//! Lines the rules say that must match what changed: the first player marker taken from
//! someone against the marker kept ("take (or keep)", rulebook: the first player bonus space);
//! Luna's majority spaces opening again when she discards a majority card; her lines without
//! the helper app's card ids, and her card gains from an empty display space said.

use crate::common::{act, blank, board_space, texts};
use crate::luna_rules::german;
use crate::luna_support::{
    bonus_space, lay, lc, luna_mut, luna_turn, marker_of, play, position, right_of_luna,
};
use skymines::engine::{self, BonusRef, Decision as D};

/// Luna's action slots b and d (0-based).
const SLOT_B: usize = 1;
const SLOT_D: usize = 3;

fn first_player_space() -> D {
    D::PlaceBonus {
        space: BonusRef::Board(board_space("first_player")),
    }
}

#[test]
fn the_first_player_marker_is_kept_or_taken_as_it_happens() {
    // Lin (seat 0) is first player and takes the space on a later turn: she keeps it.
    let mut s = blank(2);
    s.seats[0].coins = 1;
    act(&mut s, 0, board_decision("tile_plus_one_resource"));
    act(&mut s, 1, D::DropOut);
    let mut said = texts(&act(&mut s, 0, first_player_space()));
    said.push_str(&texts(&act(&mut s, 0, D::TakeCoin)));
    let lin = s.seats[0].name.clone();
    assert!(
        said.contains(&format!("{lin} keeps the first player marker")),
        "{said}"
    );
    assert!(!said.contains("takes the first player marker"), "{said}");

    // Malik takes it from her.
    let mut s = blank(2);
    s.seats[0].coins = 1;
    act(&mut s, 0, board_decision("tile_plus_one_resource"));
    let mut said = texts(&act(&mut s, 1, first_player_space()));
    said.push_str(&texts(&act(&mut s, 1, D::TakeCoin)));
    let malik = s.seats[1].name.clone();
    assert!(
        said.contains(&format!("{malik} takes the first player marker")),
        "{said}"
    );
}

fn board_decision(space: &str) -> D {
    D::PlaceBonus {
        space: BonusRef::Board(board_space(space)),
    }
}

#[test]
fn a_discarded_majority_card_reopens_the_spaces_it_closed_to_those_still_playing() {
    let mut s = position(2);
    // I-9 on the left shows carbon 3: nobody with empty hands reaches it.
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    lay(&mut s, SLOT_D, lc("I-2")); // 4 against 0: the left card goes
    let still = s.seats[0].name.clone();
    let gone = s.seats[right_of_luna(&s)].name.clone();
    let events = luna_turn(&mut s);
    let all = luna_texts(&events);
    let line = all
        .lines()
        .find(|l| l.starts_with("With that card gone"))
        .unwrap_or_else(|| panic!("no reopening line in:\n{all}"));
    assert!(
        line.contains(&format!("“carbon majority” to {still}")),
        "{line}"
    );
    assert!(!line.contains(&gone), "{gone} has dropped out: {line}");
    assert!(german(&events, "event.luna_reopens").contains("wieder offen"));
    // A space that holds a marker opens to nobody.
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    lay(&mut s, SLOT_D, lc("I-2"));
    s.bonus_spaces[bonus_space("majority_carbon")] = marker_of(0);
    let all = luna_texts(&luna_turn(&mut s));
    assert!(!all.contains("“carbon majority” to"), "{all}");
    // An equal comparison discards nothing and reopens nothing.
    let mut s = position(2);
    luna_mut(&mut s).majority = [Some(lc("I-9")), Some(lc("I-10"))];
    lay(&mut s, SLOT_D, lc("I-5"));
    let all = luna_texts(&luna_turn(&mut s));
    assert!(!all.contains("open again"), "{all}");
}

#[test]
fn her_lines_name_no_card_id_and_an_empty_display_space_is_said() {
    let mut s = position(2);
    s.display = [None; 12];
    let mut events = Vec::new();
    for card in ["I-1", "I-2", "I-3", "I-4", "I-5", "I-6", "I-7", "I-8"] {
        luna_mut(&mut s).slots = [None; 5];
        events.extend(play(&mut s, card, SLOT_B));
    }
    let all = luna_texts(&events);
    let ids = regex_free_ids(&all);
    assert!(ids.is_empty(), "card ids in Luna's lines: {ids:?}\n{all}");
    assert!(
        all.contains("Luna plays the grade I card in her action slot 2"),
        "{all}"
    );
    // I-1 and I-2 take cards from the display: with none there, each says so.
    assert!(
        events
            .iter()
            .any(|e| e.key == "event.luna_takes_no_card"
                || e.key == "event.luna_takes_no_share_card"),
        "{all}"
    );
    assert!(all.contains("Luna takes no card"), "{all}");
}

/// Words like "I-10" or "II-3" (the card ids of the helper app, printed nowhere).
fn regex_free_ids(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| {
            let (head, tail) = w.split_once('-').unwrap_or(("", ""));
            (head == "I" || head == "II")
                && !tail.is_empty()
                && tail.chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}

fn luna_texts(events: &[engine::Event]) -> String {
    crate::luna_support::texts(events)
}

/// In the last round a tile reserved for the next round is worth nothing, and the option says
/// so; earlier it is worth the tile.
#[test]
fn a_tile_for_the_next_round_gives_nothing_in_the_last_round() {
    let data = crate::support::data();
    let space = board_decision("tile_plus_one_resource");
    let mut s = blank(2);
    s.seats[0].coins = 3;
    let early = engine::preview::preview(data, &s, 0, space).expect("legal");
    assert!(
        !early.gains_nothing && !early.gains.tiles.is_empty(),
        "{early:?}"
    );
    s.round = s.specials.len() as u8 + 1;
    let last = engine::preview::preview(data, &s, 0, space).expect("legal");
    assert!(last.gains_nothing && last.only_next_round, "{last:?}");
}

/// Steps a reward cannot take are said with why: a money barrier the seat cannot pay (its cost
/// and the seat's coins), or the end of the track. Before, the marker stopped in silence and a
/// reward's "+2" that moved it one space read as a miscount.
#[test]
fn steps_lost_to_an_unpaid_barrier_or_the_tracks_end_are_said() {
    use skymines::data::Company::Minerva;
    use skymines::data::Resource::Minerals;
    let data = crate::support::data();
    let mut s = blank(2);
    let track = &data.tracks.tracks[s.tracks[Minerva.index()]];
    let barrier = &track.money_barriers[0];
    let (at, cost) = (barrier.after_space as u8, barrier.cost);
    crate::common::up(&mut s, 0, 1, crate::common::resource_card(Minerals, 2));
    s.seats[0].track_pos[Minerva.index()] = at - 1;
    s.seats[0].coins = cost - 1;
    let said = texts(&act(&mut s, 0, board_decision("majority_minerals")));
    let lin = s.seats[0].name.clone();
    assert!(
        said.contains(&format!(
            "{lin} stops before the money barrier on the Minerva Corp. track: it costs {cost} CrypCoin and {lin} has {}, so 1 step is lost",
            cost - 1
        )),
        "{said}"
    );
    // At the track's end.
    let mut s = blank(2);
    crate::common::up(&mut s, 0, 1, crate::common::resource_card(Minerals, 2));
    let last = data.tracks.tracks[s.tracks[Minerva.index()]].last_space as u8;
    s.seats[0].track_pos[Minerva.index()] = last;
    let said = texts(&act(&mut s, 0, board_decision("majority_minerals")));
    assert!(
        said.contains("is at the end of the Minerva Corp. track: 2 more steps are lost"),
        "{said}"
    );
}
