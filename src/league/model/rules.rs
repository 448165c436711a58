//! The season's rule set (`SeasonRules`, league.md §10): every number of the league's rules, with its
//! defaults by season year, and the override object of the season file (interchange.md).

use std::collections::BTreeMap;

use chrono::{Datelike, Months, NaiveDate};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::format::{date_de, month_name};

/// A month and day within a season, written `"MM-DD"` (e.g. the 1. Liga deadline `"11-30"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MonthDay {
    /// 1..=12
    pub month: u32,
    /// 1..=31 (checked against the month)
    pub day: u32,
}

impl MonthDay {
    /// The date of this month-day in `year`; `None` for 29 February in a common year.
    pub fn in_year(self, year: i32) -> Option<chrono::NaiveDate> {
        chrono::NaiveDate::from_ymd_opt(year, self.month, self.day)
    }
}

impl MonthDay {
    /// German day and month as the pages show it: „30.11.“.
    pub fn de(self) -> String {
        format!("{:02}.{:02}.", self.day, self.month)
    }

    /// A month-day as typed in a German form: „30.11.“ (the stop after the month may be left
    /// out, „1.4.“ too), or the season file's „11-30“. Errors: German, naming the typed text.
    pub fn from_de(typed: &str) -> Result<MonthDay, String> {
        let t = typed.trim();
        let Some((d, m)) = t.strip_suffix('.').unwrap_or(t).split_once('.') else {
            return MonthDay::try_from(t.to_string())
                .map_err(|_| format!("„{t}“ ist kein Tag und Monat wie 30.11."));
        };
        let err = || format!("„{t}“ ist kein Tag und Monat wie 30.11.");
        let day: u32 = d.trim().parse().map_err(|_| err())?;
        let month: u32 = m.trim().parse().map_err(|_| err())?;
        chrono::NaiveDate::from_ymd_opt(2024, month, day).ok_or_else(err)?;
        Ok(MonthDay { month, day })
    }
}

impl TryFrom<String> for MonthDay {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let err = || format!("\"{s}\" ist kein Monat-Tag im Format \"MM-TT\" (z. B. \"11-30\")");
        let (m, d) = s.split_once('-').ok_or_else(err)?;
        let month: u32 = m.parse().map_err(|_| err())?;
        let day: u32 = d.parse().map_err(|_| err())?;
        // 2024 is a leap year: every valid month-day exists in it.
        chrono::NaiveDate::from_ymd_opt(2024, month, day).ok_or_else(err)?;
        Ok(MonthDay { month, day })
    }
}

impl From<MonthDay> for String {
    fn from(md: MonthDay) -> String {
        format!("{:02}-{:02}", md.month, md.day)
    }
}

/// The largest fine in cents (10.000 €): the catalogue's bound in [`SeasonRules::check`] and the bound
/// of a fine's own `amount_cents` in a season file; keeps every sum of cents far from `i64::MAX`.
pub const MAX_FINE_CENTS: i64 = 1_000_000;

/// The league rules of one season (league.md §10). Field names are those of the season file's
/// `rules` object. Money is integer cents; counts are rounds or Deckel as named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonRules {
    /// Rounds played per night at a table, and rounds of one Teilnahme (10).
    pub rounds_per_night: u32,
    /// Counted points of a plain Schock Out (1).
    pub out_points: i64,
    /// Counted points of a Hand-Out (2 from 2007, else 1).
    pub hand_out_points: i64,
    /// Factor of a Joker-Runde's Outs (2 from 2011); `None`: the season has no Joker.
    pub joker_multiplier: Option<i64>,
    /// Julen that make one counted Out (3).
    pub julen_per_out: u32,
    /// Whether open Julen carry into the next season (false: they expire).
    pub julen_carry_across_seasons: bool,
    /// Fewer rounds than this puts a player in the Kreisliga (11).
    pub kreisliga_below_rounds: u32,
    /// Rounds a paid player needs by the deadline to stay in the 1. Liga after it (100).
    pub min_rounds_first_liga: u32,
    /// The 1. Liga deadline within the season ("11-30").
    pub first_liga_deadline: MonthDay,
    /// Jahresbeitrag when paid before `fee_increase_from_month`, in cents (1500).
    pub fee_base_cents: i64,
    /// Rise of the Jahresbeitrag per month from `fee_increase_from_month` on, in cents (100).
    pub fee_monthly_increase_cents: i64,
    /// First month that costs base + one increase (4 = April).
    pub fee_increase_from_month: u32,
    /// Last month in which a Jahresbeitrag is accepted (9 = September).
    pub last_join_month: u32,
    /// The Strafenkatalog: kind → cents (`late` 100, `sleepy` 50 from 2012, else empty).
    pub fines: BTreeMap<String, i64>,
    /// Paid rounds per night after which a player is a Sozialfall (3).
    pub sozialfall_after: u32,
    /// What the Lucky Looser gets, in cents (1000), at most the season's fees.
    pub lucky_looser_cents: i64,
    /// Percent of the pot for places 1..n of the 1. Liga ([30, 25, 20, 15, 10]).
    pub payout_percent: Vec<u32>,
    /// Participants from which a night is played at two tables (10).
    pub split_tables_from: u32,
    /// The dice game's RuleSet: a preset name or an object of RuleSet fields (schocken-rules.md).
    pub game: Value,
}

impl SeasonRules {
    /// The defaults for season `year` (league.md §10: Hand-Out points from 2007, Joker from 2011,
    /// Strafenkatalog from 2012).
    pub fn defaults_for(year: i32) -> SeasonRules {
        let fines = if year >= 2012 {
            BTreeMap::from([("late".to_string(), 100), ("sleepy".to_string(), 50)])
        } else {
            BTreeMap::new()
        };
        SeasonRules {
            rounds_per_night: 10,
            out_points: 1,
            hand_out_points: if year >= 2007 { 2 } else { 1 },
            joker_multiplier: if year >= 2011 { Some(2) } else { None },
            julen_per_out: 3,
            julen_carry_across_seasons: false,
            kreisliga_below_rounds: 11,
            min_rounds_first_liga: 100,
            first_liga_deadline: MonthDay { month: 11, day: 30 },
            fee_base_cents: 1500,
            fee_monthly_increase_cents: 100,
            fee_increase_from_month: 4,
            last_join_month: 9,
            fines,
            sozialfall_after: 3,
            lucky_looser_cents: 1000,
            payout_percent: vec![30, 25, 20, 15, 10],
            split_tables_from: 10,
            game: Value::String("schockerliga".to_string()),
        }
    }

    /// The rules of season `year`: its defaults with `overrides` (the season file's `rules` object)
    /// applied. Errors name the field and why (unknown field, wrong type, value out of range).
    pub fn with_overrides(
        year: i32,
        overrides: &Map<String, Value>,
    ) -> Result<SeasonRules, String> {
        let mut merged = match serde_json::to_value(Self::defaults_for(year)) {
            Ok(Value::Object(m)) => m,
            _ => return Err("interner Fehler: Standardregeln nicht darstellbar".to_string()),
        };
        for (key, value) in overrides {
            if !merged.contains_key(key) {
                return Err(format!("rules.{key}: unbekanntes Feld der Saisonregeln"));
            }
            merged.insert(key.clone(), value.clone());
        }
        let rules: SeasonRules =
            serde_json::from_value(Value::Object(merged)).map_err(|e| format!("rules: {e}"))?;
        rules.check()?;
        Ok(rules)
    }

    /// The fields that differ from the defaults of `year`: what the season file's `rules` holds.
    pub fn overrides(&self, year: i32) -> Map<String, Value> {
        let (Ok(Value::Object(mine)), Ok(Value::Object(defaults))) = (
            serde_json::to_value(self),
            serde_json::to_value(Self::defaults_for(year)),
        ) else {
            return Map::new();
        };
        mine.into_iter()
            .filter(|(k, v)| defaults.get(k) != Some(v))
            .collect()
    }

    /// Range checks of the values; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        let fail = |field: &str, why: &str| Err(format!("rules.{field}: {why}"));
        if self.rounds_per_night == 0 || self.rounds_per_night > 100 {
            return fail("rounds_per_night", "muss zwischen 1 und 100 liegen");
        }
        if !(0..=1000).contains(&self.out_points) {
            return fail("out_points", "muss zwischen 0 und 1000 liegen");
        }
        if !(0..=1000).contains(&self.hand_out_points) {
            return fail("hand_out_points", "muss zwischen 0 und 1000 liegen");
        }
        if let Some(m) = self.joker_multiplier {
            if !(1..=100).contains(&m) {
                return fail(
                    "joker_multiplier",
                    "muss zwischen 1 und 100 liegen oder null sein",
                );
            }
        }
        if self.julen_per_out == 0 || self.julen_per_out > 100 {
            return fail("julen_per_out", "muss zwischen 1 und 100 liegen");
        }
        if self.fee_base_cents < 0 || self.fee_base_cents > 1_000_000 {
            return fail(
                "fee_base_cents",
                "muss zwischen 0 und 1.000.000 Cent liegen",
            );
        }
        if self.fee_monthly_increase_cents < 0 || self.fee_monthly_increase_cents > 1_000_000 {
            return fail(
                "fee_monthly_increase_cents",
                "muss zwischen 0 und 1.000.000 Cent liegen",
            );
        }
        if !(1..=12).contains(&self.fee_increase_from_month) {
            return fail("fee_increase_from_month", "muss ein Monat 1..12 sein");
        }
        if !(1..=12).contains(&self.last_join_month) {
            return fail("last_join_month", "muss ein Monat 1..12 sein");
        }
        for (kind, cents) in &self.fines {
            if kind.trim().is_empty() || kind.chars().count() > 40 {
                return fail("fines", "Strafart muss 1 bis 40 Zeichen haben");
            }
            if let Err(why) = super::names::check_name_chars(kind) {
                return fail("fines", &format!("Strafart {why}"));
            }
            if !(0..=MAX_FINE_CENTS).contains(cents) {
                return fail("fines", "Betrag muss zwischen 0 und 1.000.000 Cent liegen");
            }
        }
        if !(0..=1_000_000).contains(&self.lucky_looser_cents) {
            return fail(
                "lucky_looser_cents",
                "muss zwischen 0 und 1.000.000 Cent liegen",
            );
        }
        // Each percent is checked before the sum, and the sum is taken in u64: a huge percent would
        // overflow a u32 sum (panic in debug, wrap-around to a "valid" total in release).
        if self.payout_percent.len() > 20
            || self.payout_percent.iter().any(|&p| p > 100)
            || self
                .payout_percent
                .iter()
                .map(|&p| u64::from(p))
                .sum::<u64>()
                > 100
        {
            return fail(
                "payout_percent",
                "höchstens 20 Plätze, zusammen höchstens 100 %",
            );
        }
        if self.split_tables_from < 2 {
            return fail("split_tables_from", "muss mindestens 2 sein");
        }
        Ok(())
    }

    /// The days a Jahresbeitrag of season `year` may be dated (league.md §5): 1 January to the
    /// last day of `last_join_month` (30 September by default), as (first, last).
    pub fn fee_window(&self, year: i32) -> (NaiveDate, NaiveDate) {
        let first = NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or_default();
        let last = NaiveDate::from_ymd_opt(year, self.last_join_month.clamp(1, 12), 1)
            .and_then(|d| d.checked_add_months(Months::new(1)))
            .and_then(|d| d.pred_opt())
            .unwrap_or(first);
        (first, last)
    }
}

/// The year the new-season form proposes on the club's `today`, with `years` the seasons there
/// are: this year while its Jahresbeitrag can still be paid and it does not exist yet, else the
/// next (issue 21.13: a season created in October–December takes no fee, nobody reaches the
/// 1. Liga).
pub fn proposed_season_year(today: NaiveDate, years: &[i32]) -> i32 {
    let now = today.year();
    let (_, fee_until) = SeasonRules::defaults_for(now).fee_window(now);
    if years.contains(&now) || today > fee_until {
        now + 1
    } else {
        now
    }
}

/// Refuses a season `year` the club cannot have yet on its `today`: one after the next year (an
/// import of 2030 or 9999). `Err`: the German reason, to follow „Saison 2030“: „liegt zu weit in
/// der Zukunft: höchstens bis 2027 (das nächste Jahr; heute ist der 26.12.2026)“.
pub fn year_in_reach(year: i32, today: NaiveDate) -> Result<(), String> {
    let last = today.year() + 1;
    if year > last {
        return Err(format!(
            "liegt zu weit in der Zukunft: höchstens bis {last} (das nächste Jahr; heute ist der {})",
            date_de(today)
        ));
    }
    Ok(())
}

/// The warning for a season `year` under `rules` on `today` when no Jahresbeitrag can be paid
/// in it any more from now on (its last join day is past while the season is this year or
/// later), German; `None` for a past season (its history is entered with the old dates) and
/// while fees are open.
pub fn late_fee_warning(year: i32, rules: &SeasonRules, today: NaiveDate) -> Option<String> {
    let (_, fee_until) = rules.fee_window(year);
    (year >= today.year() && today > fee_until).then(|| {
        format!(
            "Saison {year}: ein Jahresbeitrag braucht einen Zahltag bis {}, und der ist vorbei. \
             Nur vorher bezahlte Beiträge lassen sich noch buchen; ohne Beitrag erreicht niemand \
             die 1. Liga. Die Abende bis Jahresende gehören trotzdem in diese Saison (Tabelle, \
             Strafen, Lucky Looser); die Liga mit Jahresbeiträgen ist die Saison {}.",
            date_de(fee_until),
            year + 1
        )
    })
}

/// Reason given for a Jahresbeitrag dated after `last_join_month` September (league.md §5).
pub const JOIN_DEADLINE_REASON: &str = "Beitritt zur 1. Liga nur bis Ende September";

/// The Jahresbeitrag in cents for a payment on `paid_on` in season `season_year` (league.md §5):
/// `fee_base_cents` before `fee_increase_from_month`, then one `fee_monthly_increase_cents` more per
/// month. Errors (German): date outside the season year, or after `last_join_month`.
pub fn fee_cents(rules: &SeasonRules, season_year: i32, paid_on: NaiveDate) -> Result<i64, String> {
    if paid_on.year() != season_year {
        return Err(format!(
            "Zahldatum {} liegt nicht in der Saison {season_year}",
            paid_on.format("%d.%m.%Y")
        ));
    }
    let month = paid_on.month();
    if month > rules.last_join_month {
        if rules.last_join_month == 9 {
            return Err(JOIN_DEADLINE_REASON.to_string());
        }
        return Err(format!(
            "Beitritt zur 1. Liga nur bis Ende {}",
            month_name(rules.last_join_month)
        ));
    }
    let steps = if month >= rules.fee_increase_from_month {
        i64::from(month - rules.fee_increase_from_month + 1)
    } else {
        0
    };
    Ok(rules.fee_base_cents + steps * rules.fee_monthly_increase_cents)
}

/// A Liga tier (league.md §4). Ordered 1. Liga < 2. Liga < Kreisliga (the display order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Liga {
    /// Paid players (with 100 rounds by the deadline once it has passed).
    #[serde(rename = "1. Liga")]
    First,
    /// Everyone else with enough rounds.
    #[serde(rename = "2. Liga")]
    Second,
    /// Fewer than `kreisliga_below_rounds` rounds.
    #[serde(rename = "Kreisliga")]
    Kreisliga,
}

impl Liga {
    /// The German name: "1. Liga", "2. Liga", "Kreisliga".
    pub fn label(self) -> &'static str {
        match self {
            Liga::First => "1. Liga",
            Liga::Second => "2. Liga",
            Liga::Kreisliga => "Kreisliga",
        }
    }
}

impl std::fmt::Display for Liga {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests;
