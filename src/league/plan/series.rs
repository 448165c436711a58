//! A season of nights in one step (issue 38.1): the dates of a recurrence rule between two days,
//! minus the exceptions. Pure: the service checks each date as a single planned night and stores
//! the new ones. Names only the model.

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use crate::league::model::format::{date_de, weekday_de};

/// The most days from the first to the last day of a series (a little over a year: at most 58
/// weekly nights).
pub const MAX_DAYS: i64 = 400;

/// How often the club meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Every `n` weeks from the first day (1: weekly, 2: every other week).
    Weeks(u32),
    /// The `n`-th given weekday of every month (1–4), or the last one (`n` = 5 reads „letzter“).
    Monthly(u8, Weekday),
}

impl Rule {
    /// The rule as typed on the command line or in the form: `week`/`woche`/`wöchentlich`,
    /// `2-weeks`/`2 wochen`/`14-tägig`, or `1. Freitag` … `4. Freitag`, `letzter Freitag`
    /// (weekday names German or English, case ignored). Refused (German) with what was typed.
    pub fn parse(typed: &str) -> Result<Rule, String> {
        let t = typed.trim().to_lowercase();
        let t = t.as_str();
        match t {
            "week" | "woche" | "wöchentlich" | "jede woche" | "1-week" | "1 woche" => {
                return Ok(Rule::Weeks(1))
            }
            "2-weeks" | "2 weeks" | "2 wochen" | "2-wochen" | "alle 2 wochen" | "14-tägig"
            | "zweiwöchentlich" => return Ok(Rule::Weeks(2)),
            _ => {}
        }
        let refusal = || {
            format!(
                "Rhythmus: „{}“ verstehe ich nicht (wöchentlich, alle 2 Wochen, „1. Freitag“ … \
                 „4. Freitag“ oder „letzter Freitag“).",
                typed.trim().chars().take(30).collect::<String>()
            )
        };
        let (nth, day) = t.split_once(char::is_whitespace).ok_or_else(refusal)?;
        let n = match nth.trim_end_matches('.') {
            "1" | "erster" | "first" => 1,
            "2" | "zweiter" | "second" => 2,
            "3" | "dritter" | "third" => 3,
            "4" | "vierter" | "fourth" => 4,
            "letzter" | "last" => 5,
            _ => return Err(refusal()),
        };
        let day = weekday(day.trim().trim_end_matches(" im monat")).ok_or_else(refusal)?;
        Ok(Rule::Monthly(n, day))
    }

    /// The rule in German: „wöchentlich“, „alle 2 Wochen“, „jeden 1. Freitag im Monat“.
    pub fn de(&self) -> String {
        match self {
            Rule::Weeks(1) => "wöchentlich".to_string(),
            Rule::Weeks(n) => format!("alle {n} Wochen"),
            Rule::Monthly(5, d) => format!("jeden letzten {} im Monat", weekday_de(*d)),
            Rule::Monthly(n, d) => format!("jeden {n}. {} im Monat", weekday_de(*d)),
        }
    }
}

/// A weekday by its German or English name (or the first two letters), lower case.
fn weekday(name: &str) -> Option<Weekday> {
    let days = [
        (Weekday::Mon, "montag", "monday"),
        (Weekday::Tue, "dienstag", "tuesday"),
        (Weekday::Wed, "mittwoch", "wednesday"),
        (Weekday::Thu, "donnerstag", "thursday"),
        (Weekday::Fri, "freitag", "friday"),
        (Weekday::Sat, "samstag", "saturday"),
        (Weekday::Sun, "sonntag", "sunday"),
    ];
    days.iter()
        .find(|(_, de, en)| name == *de || name == *en || (name.len() == 2 && de.starts_with(name)))
        .map(|(d, _, _)| *d)
}

/// The dates of `rule` from `from` to `until` (both included), without `except`, oldest first.
/// Weeks count from `from` itself; a monthly rule takes its day in every month the range
/// touches. Refused (German): `until` before `from`, a range over [`MAX_DAYS`], an exception that is not one of the rule's dates (a typo would else
/// plan the night it meant to leave out).
pub fn dates(
    rule: Rule,
    from: NaiveDate,
    until: NaiveDate,
    except: &[NaiveDate],
) -> Result<Vec<NaiveDate>, String> {
    if until < from {
        return Err(format!(
            "Bis: der {} liegt vor dem ersten Tag ({}).",
            date_de(until),
            date_de(from)
        ));
    }
    if (until - from).num_days() > MAX_DAYS {
        return Err(format!(
            "Von {} bis {} sind mehr als {MAX_DAYS} Tage: eine Serie plant höchstens gut ein Jahr.",
            date_de(from),
            date_de(until)
        ));
    }
    let all = match rule {
        Rule::Weeks(n) => {
            let step = Duration::weeks(i64::from(n.max(1)));
            std::iter::successors(Some(from), |d| Some(*d + step))
                .take_while(|d| *d <= until)
                .collect::<Vec<_>>()
        }
        Rule::Monthly(n, day) => months(from, until)
            .filter_map(|(y, m)| monthly_day(y, m, n, day))
            .filter(|d| *d >= from && *d <= until)
            .collect(),
    };
    if let Some(stray) = except.iter().find(|e| !all.contains(e)) {
        return Err(format!(
            "Außer: der {} ist kein Tag der Serie ({}).",
            date_de(*stray),
            rule.de()
        ));
    }
    Ok(all.into_iter().filter(|d| !except.contains(d)).collect())
}

/// Every (year, month) from `from`'s month to `until`'s.
fn months(from: NaiveDate, until: NaiveDate) -> impl Iterator<Item = (i32, u32)> {
    let start = from.year() * 12 + from.month0() as i32;
    let end = until.year() * 12 + until.month0() as i32;
    (start..=end).map(|k| (k.div_euclid(12), k.rem_euclid(12) as u32 + 1))
}

/// The `n`-th `day` of the month (5: the last), if the month has it.
fn monthly_day(year: i32, month: u32, n: u8, day: Weekday) -> Option<NaiveDate> {
    if n >= 5 {
        let next = if month == 12 {
            NaiveDate::from_ymd_opt(year + 1, 1, 1)?
        } else {
            NaiveDate::from_ymd_opt(year, month + 1, 1)?
        };
        let last = next.pred_opt()?;
        let back = (7 + last.weekday().num_days_from_monday() - day.num_days_from_monday()) % 7;
        return Some(last - Duration::days(i64::from(back)));
    }
    NaiveDate::from_weekday_of_month_opt(year, month, day, n)
}

/// The exceptions as typed: days (`2027-04-02` or `02.04.2027`) separated by commas, semicolons
/// or spaces; empty gives none. Refused (German) naming the one that is no day.
pub fn parse_except(typed: &str) -> Result<Vec<NaiveDate>, String> {
    typed
        .split([',', ';', ' ', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            NaiveDate::parse_from_str(t, "%Y-%m-%d")
                .or_else(|_| NaiveDate::parse_from_str(t, "%d.%m.%Y"))
                .map_err(|_| {
                    format!(
                        "Außer: „{}“ ist kein Tag (TT.MM.JJJJ, mehrere mit Komma).",
                        t.chars().take(20).collect::<String>()
                    )
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
