//! A turn's account merged as a reader wants it: a run of one-step moves is one line with the
//! sum, and other seats' lines keep runs apart (moved here from the crate's unit tests).

use skymines::chat::testing::merge_repeats;
use skymines::engine::{Event, Visibility};

fn event(key: &str, args: &[(&str, &str)]) -> Event {
    Event {
        visibility: Visibility::Public,
        key: key.to_string(),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

fn step(name: &str, company: &str) -> Event {
    event(
        "event.track_move",
        &[("name", name), ("moved", "1"), ("company", company)],
    )
}

fn texts(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::text).collect()
}

#[test]
fn a_run_of_one_step_is_one_line_with_the_sum() {
    let coin = event("event.gain_coins", &[("name", "ann"), ("n", "1")]);
    let merged = merge_repeats([
        step("ann", "Minerva Corp."),
        step("ann", "Minerva Corp."),
        step("ann", "Minerva Corp."),
        coin.clone(),
        coin,
    ]);
    assert_eq!(
        texts(&merged),
        [
            "ann moves 3 spaces on the Minerva Corp. track",
            "ann gains 2 CrypCoin",
        ]
    );
}

#[test]
fn the_tank_sums_its_steps_and_ends_where_the_last_move_ended() {
    let tank = |steps: &str, to: &str| {
        event(
            "event.tank",
            &[("name", "ann"), ("steps", steps), ("to", to)],
        )
    };
    let merged = merge_repeats([tank("1", "3"), tank("2", "5")]);
    assert_eq!(
        texts(&merged),
        ["ann moves the helium-3 marker 3 spaces forward to 5"]
    );
}

#[test]
fn other_seats_tracks_and_events_in_between_keep_lines_apart() {
    let between = event("event.gain_coins", &[("name", "ann"), ("n", "2")]);
    let merged = merge_repeats([
        step("ann", "Minerva Corp."),
        step("ann", "Tawac Industries"),
        step("bob", "Tawac Industries"),
        step("bob", "Tawac Industries"),
        between,
        step("bob", "Tawac Industries"),
        // Not a summed event: two outposts stay two lines.
        event(
            "event.remove_outpost",
            &[("name", "bob"), ("company", "x"), ("column", "2")],
        ),
        event(
            "event.remove_outpost",
            &[("name", "bob"), ("company", "x"), ("column", "2")],
        ),
    ]);
    assert_eq!(
        texts(&merged),
        [
            "ann moves 1 space on the Minerva Corp. track",
            "ann moves 1 space on the Tawac Industries track",
            "bob moves 2 spaces on the Tawac Industries track",
            "ann gains 2 CrypCoin",
            "bob moves 1 space on the Tawac Industries track",
            "bob removes an outpost of x from column 2 of its station: it leaves the game",
            "bob removes an outpost of x from column 2 of its station: it leaves the game",
        ]
    );
}

#[test]
fn a_private_event_never_merges_into_a_public_one() {
    let mut private = step("ann", "Minerva Corp.");
    private.visibility = Visibility::Private(0);
    let merged = merge_repeats([step("ann", "Minerva Corp."), private]);
    assert_eq!(merged.len(), 2);
}
