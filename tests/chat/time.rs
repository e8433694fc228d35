//! Times in replies and the reminder calendar: delays, dates, offsets, named zones with
//! daylight-saving time, quiet hours and each frontend's time markers (moved here from the
//! crate's unit tests).

use skymines::chat::time::*;
use skymines::store::UserSettings;

#[test]
fn reminder_delays_are_whole_minutes_within_bounds() {
    assert_eq!(parse_reminder_delay("6h"), Some(Some(360)));
    assert_eq!(parse_reminder_delay(" 1d12h "), Some(Some(2160)));
    assert_eq!(parse_reminder_delay("default"), Some(None));
    assert_eq!(parse_reminder_delay("4m"), None, "under 5 minutes");
    assert_eq!(parse_reminder_delay("8d"), None, "over a week");
    assert_eq!(parse_reminder_delay("soon"), None);
    assert_eq!(delay_text(360 * MINUTE_MS), "6h");
    assert_eq!(delay_text(2160 * MINUTE_MS), "1d12h");
    assert_eq!(delay_text(90 * MINUTE_MS), "1h30m");
}

#[test]
fn dates_round_trip_and_offsets_parse() {
    assert_eq!(days_from_civil(1970, 1, 1), 0);
    assert_eq!(
        civil_from_days(days_from_civil(2026, 2, 28) + 1),
        (2026, 3, 1)
    );
    assert_eq!(parse_offset("+01:00"), Some(60));
    assert_eq!(parse_offset("UTC-5"), Some(-300));
    assert_eq!(parse_offset("+0530"), Some(330));
    assert_eq!(parse_offset("utc"), Some(0));
    assert_eq!(parse_offset("Europe/Berlin"), None);
    assert_eq!(parse_offset("+15"), None);
    // Non-ASCII after the sign or in the digits is refused, not a panic.
    for bad in [
        "ü", "€", "é1", "+1é1", "-é", "+ü:00", "+0:€", "UTC€", "+１２",
    ] {
        assert_eq!(parse_offset(bad), None, "{bad}");
        assert_eq!(parse_zone(bad), None, "{bad}");
    }
    assert_eq!(parse_quiet("22-08"), Some(Some((22, 8))));
    assert_eq!(parse_quiet("8-8"), None);
    assert_eq!(parse_quiet("off"), Some(None));
}

/// Settings with only a fixed offset (minutes) or a named zone.
fn fixed(minutes: i32) -> UserSettings {
    UserSettings {
        utc_offset_min: minutes,
        ..UserSettings::default()
    }
}

fn named(zone: &str) -> UserSettings {
    let mut s = UserSettings::default();
    set_zone(&mut s, parse_zone(zone).expect("a known zone"));
    s
}

#[test]
fn away_accepts_durations_and_local_dates() {
    let now = days_from_civil(2026, 11, 22) * DAY_MS + 12 * HOUR_MS;
    let utc = fixed(0);
    assert_eq!(parse_away("3d", now, &utc), Some(Some(now + 3 * DAY_MS)));
    assert_eq!(
        parse_away("1d12h", now, &utc),
        Some(Some(now + 36 * HOUR_MS))
    );
    let dec1 = days_from_civil(2026, 12, 1) * DAY_MS;
    assert_eq!(
        parse_away("2026-12-01", now, &fixed(60)),
        Some(Some(dec1 - HOUR_MS))
    );
    assert_eq!(
        parse_away("2026-12-01T18:30", now, &utc),
        Some(Some(dec1 + 18 * HOUR_MS + 30 * MINUTE_MS))
    );
    assert_eq!(parse_away("2026-11-01", now, &utc), None, "in the past");
    assert_eq!(parse_away("2026-02-31", now, &utc), None);
    assert_eq!(parse_away("soon", now, &utc), None);
    assert_eq!(parse_away("off", now, &utc), Some(None));
    // A summer date in Berlin is two hours ahead of UTC, though today (November) is one.
    let jul1 = days_from_civil(2027, 7, 1) * DAY_MS;
    assert_eq!(
        parse_away("2027-07-01", now, &named("Europe/Berlin")),
        Some(Some(jul1 - 2 * HOUR_MS))
    );
}

#[test]
fn named_zones_follow_daylight_saving_time() {
    assert_eq!(parse_zone("+01:00"), Some(Zone::Fixed(60)));
    assert_eq!(
        parse_zone("europe/berlin"),
        Some(Zone::Named(chrono_tz::Tz::Europe__Berlin))
    );
    assert_eq!(parse_zone("Mars/Olympus_Mons"), None);
    let berlin = named("Europe/Berlin");
    let jan = days_from_civil(2026, 1, 15) * DAY_MS;
    let jul = days_from_civil(2026, 7, 15) * DAY_MS;
    assert_eq!(offset_at(&berlin, jan), 60);
    assert_eq!(offset_at(&berlin, jul), 120);
    assert_eq!(zone_text(&berlin, jul), "Europe/Berlin (UTC+02:00)");
    assert_eq!(offset_at(&named("America/New_York"), jan), -300);
    // Quiet hours 22-08, Berlin: 06:30 UTC is 07:30 local in winter (quiet) but 08:30 in
    // summer (awake); 20:30 UTC is 21:30 in winter (awake) but 22:30 in summer (quiet).
    let quiet = UserSettings {
        quiet: Some((22, 8)),
        ..berlin
    };
    let at = |day: i64, h: i64, m: i64| day + h * HOUR_MS + m * MINUTE_MS;
    assert!(in_quiet_hours(at(jan, 6, 30), &quiet));
    assert!(!in_quiet_hours(at(jul, 6, 30), &quiet));
    assert!(!in_quiet_hours(at(jan, 20, 30), &quiet));
    assert!(in_quiet_hours(at(jul, 20, 30), &quiet));
    // A reminder held at night comes at 08:00 local: 07:00 UTC in winter, 06:00 in summer.
    assert_eq!(
        reminder_time(at(jan, 23, 0), &quiet),
        at(jan + DAY_MS, 7, 0)
    );
    assert_eq!(
        reminder_time(at(jul, 23, 0), &quiet),
        at(jul + DAY_MS, 6, 0)
    );
    // Choosing a fixed offset again drops the named zone.
    let mut s = berlin;
    set_zone(&mut s, Zone::Fixed(-300));
    assert_eq!((s.time_zone, offset_at(&s, jul)), (None, -300));
}

#[test]
fn markers_render_per_frontend() {
    let text = format!("due {} and {}", marker(86_400_000), marker(0));
    assert_eq!(discord_markers(&text), "due <t:86400:R> and <t:0:R>");
    assert_eq!(
        terminal_markers(&text),
        "due 1970-01-02 00:00 UTC and 1970-01-01 00:00 UTC"
    );
    assert_eq!(discord_markers("no ⟨t:x⟩ here"), "no ⟨t:x⟩ here");
    let text = format!("game in {} at {}", channel_marker(42), marker(0));
    assert_eq!(discord_markers(&text), "game in <#42> at <t:0:R>");
    assert_eq!(
        terminal_markers(&text),
        "game in 42 at 1970-01-01 00:00 UTC"
    );
}
