//! Times and channels in replies, and the per-user reminder calendar.
//!
//! The chat layer stays frontend-agnostic: a time in a reply is a marker (`⟨t:UNIX⟩`, Unix
//! seconds) that each adapter formats — Discord as a timestamp the client shows in the
//! reader's own zone (`<t:UNIX:R>`), the terminal as a readable UTC time; a channel is a marker
//! (`⟨c:ID⟩`) that Discord shows as a link.
//!
//! A user's time zone is a named IANA zone (`Europe/Berlin`, whose offset follows daylight-saving
//! time, from the tz table built into the binary) or a fixed UTC offset (`+01:00`, `UTC-5`).
//! Quiet hours are whole local hours `[from, to)`, wrapping past midnight (`22-08`).

use crate::store::UserSettings;

/// A minute, an hour and a day in milliseconds (the unit of every time the store keeps).
pub const MINUTE_MS: i64 = 60_000;
pub const HOUR_MS: i64 = 60 * MINUTE_MS;
pub const DAY_MS: i64 = 24 * HOUR_MS;
/// The furthest ahead "away until" may reach.
const AWAY_MAX_MS: i64 = 366 * DAY_MS;
const MARK_OPEN: &str = "⟨t:";
const CHANNEL_OPEN: &str = "⟨c:";
const MARK_CLOSE: char = '⟩';

/// The marker of a time (Unix ms) in a reply's text.
pub fn marker(ms: i64) -> String {
    format!("{MARK_OPEN}{}{MARK_CLOSE}", ms.div_euclid(1000))
}

/// The marker of a channel in a reply's text: a link on Discord, the channel's number in the
/// terminal.
pub fn channel_marker(channel: u64) -> String {
    format!("{CHANNEL_OPEN}{channel}{MARK_CLOSE}")
}

/// Replaces every marker opened by `open` in `text` with `format(payload)` (a marker whose
/// payload `format` refuses stays as it is).
fn render_markers(text: &str, open: &str, format: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(MARK_CLOSE) else {
            break;
        };
        out.push_str(&rest[..start]);
        match format(&after[..end]) {
            Some(done) => out.push_str(&done),
            None => out.push_str(&rest[start..start + open.len() + end + MARK_CLOSE.len_utf8()]),
        }
        rest = &after[end + MARK_CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// Markers as Discord shows them: times as timestamps (relative, in each reader's own zone),
/// channels as links.
pub fn discord_markers(text: &str) -> String {
    let text = render_markers(text, MARK_OPEN, |s| {
        s.parse::<i64>().ok().map(|s| format!("<t:{s}:R>"))
    });
    render_markers(&text, CHANNEL_OPEN, |c| {
        c.parse::<u64>().ok().map(|c| format!("<#{c}>"))
    })
}

/// Markers for the terminal mode: times as readable UTC times, channels as their numbers.
pub fn terminal_markers(text: &str) -> String {
    let text = render_markers(text, MARK_OPEN, |s| {
        let ms = s.parse::<i64>().ok()? * 1000;
        let (y, m, d) = civil_from_days(ms.div_euclid(DAY_MS));
        let minutes = ms.rem_euclid(DAY_MS) / MINUTE_MS;
        Some(format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
            minutes / 60,
            minutes % 60
        ))
    });
    render_markers(&text, CHANNEL_OPEN, |c| {
        c.parse::<u64>().ok().map(|c| c.to_string())
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (inverse of [`days_from_civil`]).
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// A UTC offset in minutes: `UTC`, `Z`, `+01:00`, `-5`, `+0530`, `UTC+2`, `GMT-03:30`
/// (at most 14 hours either way). None for anything else, named zones included.
pub fn parse_offset(text: &str) -> Option<i32> {
    let t = text.trim().to_ascii_uppercase();
    let t = t
        .strip_prefix("UTC")
        .or_else(|| t.strip_prefix("GMT"))
        .unwrap_or(&t)
        .trim();
    if t.is_empty() || t == "Z" {
        return Some(0);
    }
    // Sign and digits by characters, never by byte position: the text is the user's.
    let (sign, digits) = match (t.strip_prefix('+'), t.strip_prefix('-')) {
        (Some(rest), _) => (1, rest),
        (_, Some(rest)) => (-1, rest),
        _ => return None,
    };
    if !digits.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    // Only ASCII digits and a colon from here: byte positions are character positions.
    let (h, m) = match digits.split_once(':') {
        Some((h, m)) => (h, m),
        None if digits.len() == 4 => digits.split_at(2),
        None => (digits, "0"),
    };
    if h.is_empty() || h.len() > 2 || m.is_empty() || m.len() > 2 {
        return None;
    }
    let h: i32 = h.parse().ok()?;
    let m: i32 = m.parse().ok()?;
    let total = h * 60 + m;
    (m < 60 && total <= 14 * 60).then_some(sign * total)
}

/// A time zone setting: a named zone or a fixed offset in minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Named(chrono_tz::Tz),
    Fixed(i32),
}

/// A time zone: a fixed offset (see [`parse_offset`]) or an IANA zone name in any letter case
/// (`Europe/Berlin`, `america/new_york`). None for anything else.
pub fn parse_zone(text: &str) -> Option<Zone> {
    parse_offset(text).map(Zone::Fixed).or_else(|| {
        chrono_tz::Tz::from_str_insensitive(text.trim())
            .ok()
            .map(Zone::Named)
    })
}

/// Sets the user's time zone.
pub fn set_zone(settings: &mut UserSettings, zone: Zone) {
    match zone {
        Zone::Named(tz) => settings.time_zone = Some(tz),
        Zone::Fixed(minutes) => {
            settings.time_zone = None;
            settings.utc_offset_min = minutes;
        }
    }
}

/// The user's offset from UTC at `ms` (Unix ms), in minutes: by their named zone's rules at
/// that moment, else their fixed offset.
pub fn offset_at(settings: &UserSettings, ms: i64) -> i32 {
    use chrono::{Offset, TimeZone};
    let named = settings.time_zone.and_then(|tz| {
        let utc = chrono::DateTime::from_timestamp_millis(ms)?.naive_utc();
        Some(tz.offset_from_utc_datetime(&utc).fix().local_minus_utc() / 60)
    });
    named.unwrap_or(settings.utc_offset_min)
}

/// The user's time zone in words at `ms`: `Europe/Berlin (UTC+02:00)` or `UTC+01:00`.
pub fn zone_text(settings: &UserSettings, ms: i64) -> String {
    let offset = offset_text(offset_at(settings, ms));
    match settings.time_zone {
        Some(tz) => format!("{} ({offset})", tz.name()),
        None => offset,
    }
}

/// An offset as text: `+01:00`, `-05:30`, `+00:00`.
pub fn offset_text(minutes: i32) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.abs();
    format!("UTC{sign}{:02}:{:02}", m / 60, m % 60)
}

/// Quiet hours `22-08` (local whole hours, from before to); `off` clears them (Some(None)).
pub fn parse_quiet(text: &str) -> Option<Option<(u8, u8)>> {
    let t = text.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "off" | "none" | "no") {
        return Some(None);
    }
    let (from, to) = t.split_once('-')?;
    let hour = |s: &str| -> Option<u8> {
        let s = s.trim();
        let s = s.strip_suffix(":00").unwrap_or(s);
        s.parse::<u8>().ok().filter(|h| *h < 24)
    };
    let (from, to) = (hour(from)?, hour(to)?);
    (from != to).then_some(Some((from, to)))
}

/// "Away until": a duration from now (`3d`, `12h`, `90m`, `2w`, `1d12h`), a local date
/// (`2026-12-01`: from the start of that day) or date and time (`2026-12-01T18:00`, or with a
/// space), in the user's offset; `off` clears it (Some(None)). None for anything else, or a
/// time in the past or more than a year ahead.
pub fn parse_away(text: &str, now_ms: i64, settings: &UserSettings) -> Option<Option<i64>> {
    let t = text.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "off" | "none" | "no" | "back") {
        return Some(None);
    }
    // A local date: its offset is the zone's on that date (daylight-saving time may differ
    // from today's).
    let until = parse_duration(&t).map(|d| now_ms + d).or_else(|| {
        parse_local_date(&t).map(|local| local - offset_at(settings, local) as i64 * MINUTE_MS)
    })?;
    (until > now_ms && until - now_ms <= AWAY_MAX_MS).then_some(Some(until))
}

/// A personal reminder delay (`30m`, `6h`, `1d12h`): whole minutes from 5 minutes to 7 days;
/// `default` goes back to the bot's (Some(None)). None for anything else.
pub fn parse_reminder_delay(text: &str) -> Option<Option<u32>> {
    let t = text.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "default" | "reset") {
        return Some(None);
    }
    let ms = parse_duration(&t)?;
    (5 * MINUTE_MS..=7 * DAY_MS)
        .contains(&ms)
        .then(|| u32::try_from(ms / MINUTE_MS).ok())
        .flatten()
        .map(Some)
}

/// A delay in the units it was most likely given in: `2d`, `6h`, `1h30m`, `45m`.
pub fn delay_text(ms: i64) -> String {
    let minutes = ms.max(0) / MINUTE_MS;
    let (d, h, m) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let mut out = String::new();
    for (n, unit) in [(d, 'd'), (h, 'h'), (m, 'm')] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    if out.is_empty() {
        out.push_str("0m");
    }
    out
}

fn parse_duration(t: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut number = String::new();
    let mut any = false;
    for c in t.chars().filter(|c| !c.is_whitespace()) {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'w' => 7 * DAY_MS,
            'd' => DAY_MS,
            'h' => HOUR_MS,
            'm' => MINUTE_MS,
            _ => return None,
        };
        let n: i64 = number.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        number.clear();
        any = true;
    }
    (any && number.is_empty()).then_some(total)
}

/// `YYYY-MM-DD` or `YYYY-MM-DD[T ]HH:MM` as local Unix ms (before applying the offset).
fn parse_local_date(t: &str) -> Option<i64> {
    let (date, time) = match t.split_once(['t', ' ']) {
        Some((d, tm)) => (d, Some(tm)),
        None => (t, None),
    };
    let mut parts = date.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    if civil_from_days(days) != (y, m, d) {
        return None; // 31 February and friends
    }
    let minutes = match time {
        None => 0,
        Some(tm) => {
            let (h, mi) = tm.trim().split_once(':')?;
            let (h, mi): (i64, i64) = (h.parse().ok()?, mi.parse().ok()?);
            if h > 23 || mi > 59 {
                return None;
            }
            h * 60 + mi
        }
    };
    Some(days * DAY_MS + minutes * MINUTE_MS)
}

/// Whether `ms` falls in the user's quiet hours.
pub fn in_quiet_hours(ms: i64, settings: &UserSettings) -> bool {
    let Some((from, to)) = settings.quiet else {
        return false;
    };
    let hour =
        ((ms + offset_at(settings, ms) as i64 * MINUTE_MS).rem_euclid(DAY_MS) / HOUR_MS) as u8;
    if from < to {
        (from..to).contains(&hour)
    } else {
        hour >= from || hour < to
    }
}

/// The earliest time at or after `ms` a reminder may reach the user: after their away time and
/// outside their quiet hours.
pub fn reminder_time(ms: i64, settings: &UserSettings) -> i64 {
    let mut at = ms.max(settings.away_until.unwrap_or(i64::MIN));
    if let (true, Some((_, to))) = (in_quiet_hours(at, settings), settings.quiet) {
        let local = at + offset_at(settings, at) as i64 * MINUTE_MS;
        let minute_of_day = local.rem_euclid(DAY_MS) / MINUTE_MS;
        let until_end = (to as i64 * 60 - minute_of_day).rem_euclid(24 * 60);
        at = at - local.rem_euclid(MINUTE_MS) + until_end * MINUTE_MS;
    }
    at
}
