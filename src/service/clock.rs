//! The club's clock (interchange.md "Running it for a club"): every "today" and every time shown
//! to people comes from one [`Clock`] (the instant, UTC) read in the club's time zone (default
//! `Europe/Berlin`, whatever the server's `TZ` says). [`SystemClock`] is the only place in `src/`
//! that reads the system's wall clock; tests put a [`FixedClock`] in its place.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

/// Where the instant comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The instant now, in UTC.
    fn now(&self) -> DateTime<Utc>;
}

/// The system's wall clock (the only reader of it in `src/`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still at an instant until it is set or advanced (tests).
#[derive(Debug)]
pub struct FixedClock {
    at: Mutex<DateTime<Utc>>,
}

impl FixedClock {
    /// A clock standing at `at` (UTC).
    pub fn at(at: DateTime<Utc>) -> Arc<FixedClock> {
        Arc::new(FixedClock { at: Mutex::new(at) })
    }

    /// A clock standing at `text`, an RFC 3339 instant ("2026-04-30T23:30:00Z"). Errors: the
    /// parser's message for text that is not one.
    pub fn parse(text: &str) -> Result<Arc<FixedClock>, String> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| FixedClock::at(t.with_timezone(&Utc)))
            .map_err(|e| format!("{text}: {e}"))
    }

    /// Puts the clock at `at`.
    pub fn set(&self, at: DateTime<Utc>) {
        *self.at.lock().unwrap_or_else(|e| e.into_inner()) = at;
    }

    /// Moves the clock on by `by` (negative: back).
    pub fn advance(&self, by: Duration) {
        let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
        *at += by;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.at.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The club's time zone when neither the settings nor `--timezone` name one.
pub const DEFAULT_TIMEZONE: Tz = chrono_tz::Europe::Berlin;

/// Reads a time zone name of the IANA database ("Europe/Berlin", "UTC"; surrounding blanks
/// ignored). `Err`: a German message naming the text and what is expected.
pub fn parse_timezone(text: &str) -> Result<Tz, String> {
    let name = text.trim();
    if name.is_empty() {
        return Err("Zeitzone fehlt: bitte einen Namen wie Europe/Berlin angeben.".into());
    }
    name.parse::<Tz>().map_err(|_| {
        format!(
            "Zeitzone „{name}“ gibt es nicht: bitte einen Namen der IANA-Zeitzonendatenbank \
             angeben, z. B. Europe/Berlin, Europe/Vienna oder UTC."
        )
    })
}

/// An instant source read in the club's time zone: what "today" and "now" mean for the club.
/// Cloning shares the source.
#[derive(Debug, Clone)]
pub struct ClubClock {
    clock: Arc<dyn Clock>,
    timezone: Tz,
}

impl ClubClock {
    /// The clock `clock` read in `timezone`.
    pub fn new(clock: Arc<dyn Clock>, timezone: Tz) -> ClubClock {
        ClubClock { clock, timezone }
    }

    /// The system clock in `timezone`.
    pub fn system(timezone: Tz) -> ClubClock {
        ClubClock::new(Arc::new(SystemClock), timezone)
    }

    /// The club's time zone.
    pub fn timezone(&self) -> Tz {
        self.timezone
    }

    /// The instant now (UTC).
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Now on the club's wall clock.
    pub fn now_local(&self) -> DateTime<Tz> {
        self.local(self.now())
    }

    /// The club's date today (the date on the club's wall clock now).
    pub fn today(&self) -> NaiveDate {
        self.now_local().date_naive()
    }

    /// The club's year now.
    pub fn year(&self) -> i32 {
        self.today().year()
    }

    /// `at` on the club's wall clock.
    pub fn local(&self, at: DateTime<Utc>) -> DateTime<Tz> {
        at.with_timezone(&self.timezone)
    }

    /// A stored RFC 3339 instant ("2026-11-29T14:20:07.5Z", as the audit log keeps them) as the
    /// club's German wall-clock time "29.11.2026 15:20:07"; text that is no such instant is
    /// returned as it is.
    pub fn stamp_de(&self, rfc3339: &str) -> String {
        DateTime::parse_from_rfc3339(rfc3339)
            .map(|t| {
                self.local(t.with_timezone(&Utc))
                    .format("%d.%m.%Y %H:%M:%S")
                    .to_string()
            })
            .unwrap_or_else(|_| rfc3339.to_string())
    }

    /// The first instant after `after` at which the club's wall clock shows `time` (e.g. 04:00
    /// for the daily backup). A day on which `time` does not exist (skipped by a DST change)
    /// takes the first instant after the gap; one on which it exists twice, the earlier.
    pub fn next_at(&self, after: DateTime<Utc>, time: NaiveTime) -> DateTime<Utc> {
        let start = self.local(after).date_naive();
        for offset in 0..3 {
            let day = start + Duration::days(offset);
            let Some(at) = self.at_local(day, time) else {
                continue;
            };
            if at > after {
                return at;
            }
        }
        // Unreachable for real time zones (a day has every wall-clock time at most an hour
        // apart); a day later is the safe answer.
        after + Duration::days(1)
    }

    /// The instant at which the club's wall clock shows `time` on `day`: the earlier of two
    /// (the autumn hour), the end of a spring gap; `None` only if no instant of that day
    /// comes near.
    fn at_local(&self, day: NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
        let wall = day.and_time(time);
        if let Some(t) = self.timezone.from_local_datetime(&wall).earliest() {
            return Some(t.with_timezone(&Utc));
        }
        // In a gap: step forward in minutes until the wall clock exists again.
        (1..=180).find_map(|m| {
            self.timezone
                .from_local_datetime(&(wall + Duration::minutes(m)))
                .earliest()
                .map(|t| t.with_timezone(&Utc))
        })
    }
}

#[cfg(test)]
mod tests;
