//! The nights as an iCalendar file (RFC 5545; interchange.md "Planned nights and a player's own
//! card"): what `/kalender.ics` and a player's own calendar answer. Lines end in CRLF and are
//! folded at 75 octets (never inside a UTF-8 character); TEXT values are escaped; the events'
//! times are the club's wall clock with `TZID=` the club's zone, whose `VTIMEZONE` is derived from
//! the time-zone database for the years the calendar covers (one observance per change of offset,
//! so it is right for any zone, not only Europe/Berlin).
//!
//! Pure text: the events come from the planned and played nights (`service`), the web serves it.

use std::ops::RangeInclusive;

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Offset, TimeZone, Timelike, Utc,
};
use chrono_tz::{OffsetComponents, OffsetName, Tz};

/// The longest content line in octets, without its CRLF (RFC 5545 §3.1).
pub const MAX_LINE_OCTETS: usize = 75;

/// An event's `STATUS` (RFC 5545 §3.8.1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Planned or played.
    Confirmed,
    /// Not sure yet (a player's own calendar: he has not answered).
    Tentative,
    /// Cancelled.
    Cancelled,
}

impl Status {
    fn text(self) -> &'static str {
        match self {
            Status::Confirmed => "CONFIRMED",
            Status::Tentative => "TENTATIVE",
            Status::Cancelled => "CANCELLED",
        }
    }
}

/// One night as a `VEVENT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its `UID`: the same for the night whatever changes (planned, moved, started, cancelled).
    pub uid: String,
    /// Its `DTSTAMP`: when it was last changed.
    pub stamp: DateTime<Utc>,
    /// Start on the club's wall clock (a time the zone has: [`skipped`]).
    pub start: NaiveDateTime,
    /// End on the club's wall clock.
    pub end: NaiveDateTime,
    /// No time is known (a night imported or entered without a plan): a date-only event on
    /// `start`'s day (`DTSTART;VALUE=DATE`, `DTEND` the next day), no invented hours.
    pub all_day: bool,
    /// `SUMMARY`.
    pub summary: String,
    /// `LOCATION`; empty: none.
    pub location: String,
    /// `DESCRIPTION`; empty: none (may hold line breaks).
    pub description: String,
    /// `URL` of its page; `None`: none.
    pub url: Option<String>,
    /// `STATUS`.
    pub status: Status,
    /// `SEQUENCE`.
    pub sequence: u32,
}

/// The calendar `name` (`X-WR-CALNAME`) of `events` in `zone`, with the zone's `VTIMEZONE` for
/// `years` (widened to every event's year and the year before the first, whose last change of
/// offset the first events stand in), as the text of a `.ics` file: CRLF line ends, folded lines.
pub fn ics(name: &str, zone: Tz, years: RangeInclusive<i32>, events: &[Event]) -> String {
    let first = events
        .iter()
        .map(|e| e.start.year())
        .chain([*years.start()])
        .min()
        .unwrap_or(*years.start());
    let last = events
        .iter()
        .map(|e| e.end.year())
        .chain([*years.end()])
        .max()
        .unwrap_or(*years.end());
    let mut lines = vec![
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        "PRODID:-//Schockerliga//Spielabende//DE".to_string(),
        "CALSCALE:GREGORIAN".to_string(),
        format!("X-WR-CALNAME:{}", text(name)),
        format!("X-WR-TIMEZONE:{}", zone.name()),
        "REFRESH-INTERVAL;VALUE=DURATION:PT6H".to_string(),
        "X-PUBLISHED-TTL:PT6H".to_string(),
    ];
    lines.extend(vtimezone(zone, first - 1..=last));
    for e in events {
        lines.extend(vevent(zone, e));
    }
    lines.push("END:VCALENDAR".to_string());
    let mut out = String::new();
    for line in lines {
        out.push_str(&fold(&line));
    }
    out
}

/// The lines of one `VEVENT`.
fn vevent(zone: Tz, e: &Event) -> Vec<String> {
    let tzid = zone.name();
    let mut lines = vec![
        "BEGIN:VEVENT".to_string(),
        format!("UID:{}", text(&e.uid)),
        format!("DTSTAMP:{}", e.stamp.format("%Y%m%dT%H%M%SZ")),
        format!("SUMMARY:{}", text(&e.summary)),
    ];
    let when = if e.all_day {
        let day = e.start.date();
        let next = day.succ_opt().unwrap_or(day);
        [
            format!("DTSTART;VALUE=DATE:{}", day.format("%Y%m%d")),
            format!("DTEND;VALUE=DATE:{}", next.format("%Y%m%d")),
        ]
    } else {
        [
            format!("DTSTART;TZID={tzid}:{}", local(e.start)),
            format!("DTEND;TZID={tzid}:{}", local(e.end)),
        ]
    };
    lines.splice(3..3, when);
    if !e.location.is_empty() {
        lines.push(format!("LOCATION:{}", text(&e.location)));
    }
    if !e.description.is_empty() {
        lines.push(format!("DESCRIPTION:{}", text(&e.description)));
    }
    if let Some(url) = &e.url {
        lines.push(format!("URL:{url}"));
    }
    lines.push(format!("STATUS:{}", e.status.text()));
    lines.push(format!("SEQUENCE:{}", e.sequence));
    lines.push("TRANSP:OPAQUE".to_string());
    lines.push("END:VEVENT".to_string());
    lines
}

/// The wall-clock time `at` in `zone` when the zone skips it (the hour the clocks go forward:
/// 02:30 on the last Sunday of March in Europe/Berlin), moved as RFC 5545 §3.3.5 reads it (with
/// the offset before the gap: 03:30); `None` when the zone has that time.
pub fn skipped(zone: Tz, at: NaiveDateTime) -> Option<NaiveDateTime> {
    if zone.from_local_datetime(&at).earliest().is_some() {
        return None;
    }
    let before = zone
        .from_local_datetime(&(at - Duration::hours(6)))
        .earliest()?
        .offset()
        .fix()
        .local_minus_utc();
    let utc = at - Duration::seconds(i64::from(before));
    Some(zone.from_utc_datetime(&utc).naive_local())
}

/// A wall-clock time as a DATE-TIME of local form: `20270108T193000`.
fn local(t: NaiveDateTime) -> String {
    t.format("%Y%m%dT%H%M%S").to_string()
}

/// A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks.
pub fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// One content line folded (RFC 5545 §3.1): at most [`MAX_LINE_OCTETS`] octets a line, the
/// continuation lines starting with one space, never splitting a UTF-8 character; each line ends
/// in CRLF.
pub fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    let mut room = MAX_LINE_OCTETS;
    let mut used = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if used + n > room {
            out.push_str("\r\n ");
            // The space counts: a continuation line carries 74 octets of the value.
            room = MAX_LINE_OCTETS - 1;
            used = 0;
        }
        out.push(c);
        used += n;
    }
    out.push_str("\r\n");
    out
}

/// One change of the zone's offset: when (UTC), the offset before and after, whether daylight
/// saving time is in force after it, and its abbreviation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Change {
    at: NaiveDateTime,
    from: i32,
    to: i32,
    daylight: bool,
    name: Option<String>,
}

/// The offset of `zone` at `utc`: (seconds east of UTC, DST in force, abbreviation).
fn offset_at(zone: Tz, utc: NaiveDateTime) -> (i32, bool, Option<String>) {
    let o = zone.offset_from_utc_datetime(&utc);
    (
        o.fix().local_minus_utc(),
        o.dst_offset() != Duration::zero(),
        o.abbreviation().map(str::to_string),
    )
}

/// The changes of `zone`'s offset within `years`, in order: found day by day at midnight UTC,
/// then to the minute by bisection.
fn changes(zone: Tz, years: RangeInclusive<i32>) -> Vec<Change> {
    let (Some(mut day), Some(end)) = (
        NaiveDate::from_ymd_opt(*years.start(), 1, 1),
        NaiveDate::from_ymd_opt(years.end().saturating_add(1), 1, 1),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut before = offset_at(zone, day.and_time(Default::default()));
    while day < end {
        let Some(next) = day.succ_opt() else { break };
        let after = offset_at(zone, next.and_time(Default::default()));
        if after.0 != before.0 || after.1 != before.1 {
            // The first minute of the new offset, between the two midnights.
            let (mut lo, mut hi) = (0i64, 24 * 60);
            let start = day.and_time(Default::default());
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                let at = offset_at(zone, start + Duration::minutes(mid));
                if at.0 == before.0 && at.1 == before.1 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let at = start + Duration::minutes(hi);
            let new = offset_at(zone, at);
            out.push(Change {
                at,
                from: before.0,
                to: new.0,
                daylight: new.1,
                name: new.2,
            });
        }
        before = after;
        day = next;
    }
    out
}

/// `+0100` for 3600 seconds east of UTC (`+013045` when seconds remain).
fn utc_offset(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.unsigned_abs();
    let (h, m, rest) = (s / 3600, s / 60 % 60, s % 60);
    if rest == 0 {
        format!("{sign}{h:02}{m:02}")
    } else {
        format!("{sign}{h:02}{m:02}{rest:02}")
    }
}

/// The `VTIMEZONE` of `zone` for `years`: one `STANDARD` or `DAYLIGHT` observance per change of
/// offset (its `DTSTART` the wall-clock time the change happens at, in the offset before it); a
/// zone that does not change gets one `STANDARD` from 1970.
pub fn vtimezone(zone: Tz, years: RangeInclusive<i32>) -> Vec<String> {
    let mut lines = vec![
        "BEGIN:VTIMEZONE".to_string(),
        format!("TZID:{}", zone.name()),
        format!("X-LIC-LOCATION:{}", zone.name()),
    ];
    let found = changes(zone, years.clone());
    if found.is_empty() {
        let start = NaiveDate::from_ymd_opt(*years.start(), 1, 1).unwrap_or_default();
        let (off, daylight, name) = offset_at(zone, start.and_time(Default::default()));
        let kind = if daylight { "DAYLIGHT" } else { "STANDARD" };
        lines.push(format!("BEGIN:{kind}"));
        lines.push("DTSTART:19700101T000000".to_string());
        lines.push(format!("TZOFFSETFROM:{}", utc_offset(off)));
        lines.push(format!("TZOFFSETTO:{}", utc_offset(off)));
        if let Some(n) = name {
            lines.push(format!("TZNAME:{}", text(&n)));
        }
        lines.push(format!("END:{kind}"));
    }
    for c in found {
        let kind = if c.daylight { "DAYLIGHT" } else { "STANDARD" };
        let wall = c.at + Duration::seconds(i64::from(c.from));
        lines.push(format!("BEGIN:{kind}"));
        lines.push(format!(
            "DTSTART:{}",
            local(wall.with_second(0).unwrap_or(wall))
        ));
        lines.push(format!("TZOFFSETFROM:{}", utc_offset(c.from)));
        lines.push(format!("TZOFFSETTO:{}", utc_offset(c.to)));
        if let Some(n) = c.name {
            lines.push(format!("TZNAME:{}", text(&n)));
        }
        lines.push(format!("END:{kind}"));
    }
    lines.push("END:VTIMEZONE".to_string());
    lines
}

#[cfg(test)]
mod tests;
