//! The edit of a night's rounds: put a round, new or replacing one as seen (league.md §2, §9);
//! where a round is, its version and the conflict of a round changed meanwhile, and a round's
//! loser and Outs as a line.

use chrono::NaiveDate;

use super::edit::night_entry;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{ResultEntry, RoundEntry, SeasonFile, SeatEntry};
use crate::league::model::names::normalize_name;
use crate::league::model::season::{Round, Season};

/// [`super::Change::PutRound`]: round `at` with `results`, an entered one replaced as `replace`
/// allows; `seat_newcomers` seats undrawn players at the round's table.
pub(super) fn put(
    season: &Season,
    file: &mut SeasonFile,
    at: RoundAt,
    results: &[ResultEntry],
    replace: &Replace,
    seat_newcomers: bool,
    schockbesteck: Option<&crate::rules::PlayedRunde>,
) -> Result<(), EntryError> {
    let RoundAt {
        date,
        table,
        number,
    } = at;
    let entered = entered_round(season, date, table, number);
    let night = night_entry(file, date)?;
    let at = Location::night(date).table(table).round(number);
    match (entered, replace) {
        (Some(old), Replace::No) => {
            return Err(EntryError::conflict(
                at.clone(),
                format!(
                    "{at} ist schon eingetragen (verloren: {}; Outs: {}). Zum Überschreiben \
                     „Runde ersetzen“ ankreuzen, sonst eine andere Rundennummer eingeben.",
                    round_loser(old),
                    round_outs(old)
                ),
            ));
        }
        (Some(old), Replace::IfVersion(v)) if round_version(old) != *v => {
            return Err(changed_meanwhile(&at, old));
        }
        (None, Replace::IfVersion(_)) => {
            return Err(EntryError::conflict(
                at.clone(),
                format!("{at} ist nicht mehr eingetragen. Bitte prüfen und neu entscheiden."),
            ));
        }
        _ => {}
    }
    if seat_newcomers {
        let draw = night.draw.get_or_insert_with(Vec::new);
        for r in results {
            let name = normalize_name(&r.player);
            if season.player(&name).is_some() && !draw.iter().any(|s| s.player == name) {
                draw.push(SeatEntry {
                    player: name,
                    table,
                });
            }
        }
    }
    night.put_round(
        table,
        RoundEntry {
            number,
            results: results.to_vec(),
            schockbesteck: schockbesteck.cloned(),
        },
    );
    Ok(())
}

/// Whether a round may replace one entered under the same number (lost updates: a second secretary
/// or the Schockbesteck must not silently overwrite a round they did not see).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replace {
    /// Only a new round: an entered one is refused ("schon eingetragen", a conflict).
    No,
    /// Whatever is entered is replaced (the form's box "Runde ersetzen").
    Any,
    /// Only the round as it was seen: [`round_version`] of the entered round must be this one
    /// (the JSON API's `If-Match`, the Schockbesteck's confirm); else a conflict.
    IfVersion(String),
}

/// The conflict of a round seen as another version than the one stored at `at` (`old`): German,
/// with what is there now (loser and Outs), to check and decide again.
pub fn changed_meanwhile(at: &Location, old: &Round) -> EntryError {
    changed_meanwhile_by(at, old, None)
}

/// [`changed_meanwhile`], naming who made the round as it is now when known (`by`: the author of
/// its last audit row): "… wurde inzwischen von bernd geändert (jetzt verloren: …)" (issue 32.4).
pub fn changed_meanwhile_by(at: &Location, old: &Round, by: Option<&str>) -> EntryError {
    let by = by.map(|b| format!("von {b} ")).unwrap_or_default();
    EntryError::conflict(
        at.clone(),
        format!(
            "{at} wurde inzwischen {by}geändert (jetzt verloren: {}; Outs: {}). \
             Bitte prüfen und neu entscheiden.",
            round_loser(old),
            round_outs(old)
        ),
    )
}

/// The round `number` at `table` of the night on `date` in `season`, if entered.
pub fn entered_round(season: &Season, date: NaiveDate, table: u32, number: u32) -> Option<&Round> {
    season
        .night(date)
        .and_then(|n| n.tables.iter().find(|t| t.number == table))
        .and_then(|t| t.rounds.iter().find(|r| r.number == number))
}

/// The version of an entered round: a short hash of its rows (player, Outs, Hand-Outs, Julen,
/// Joker, lost, in order), e.g. `"r5f3a9c1e0b2d4c6a"`; equal rounds have equal versions.
pub fn round_version(round: &Round) -> String {
    // FNV-1a, 64 bit: stable across builds and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&round.number.to_le_bytes());
    for r in &round.results {
        eat(r.player.as_bytes());
        eat(&[0xff]);
        eat(&r.outs.to_le_bytes());
        eat(&r.hand_outs.to_le_bytes());
        eat(&r.julen.to_le_bytes());
        eat(&[u8::from(r.joker), u8::from(r.lost)]);
    }
    format!("r{h:016x}")
}

/// Where a round is: the night's date, the table, the round number.
#[derive(Debug, Clone, Copy)]
pub(super) struct RoundAt {
    pub(super) date: NaiveDate,
    pub(super) table: u32,
    pub(super) number: u32,
}

impl RoundAt {
    pub(super) fn new(date: NaiveDate, table: u32, number: u32) -> RoundAt {
        RoundAt {
            date,
            table,
            number,
        }
    }
}

/// "Anna 2 (1 Hand-Out), Bernd 0": every row of `round` with Hand-Outs, Julen and Joker when set.
pub fn round_outs(round: &Round) -> String {
    outs_of(round.results.iter())
}

/// "Anna 2 (1 Hand-Out)": the rows of `round` that threw or declared something (Outs, Hand-Outs,
/// Julen, Joker), "keine" when none did: the compact line of a round in a night's summary, which
/// does not list every 0 (issue 21.14).
pub fn round_outs_short(round: &Round) -> String {
    let rows = round
        .results
        .iter()
        .filter(|r| r.outs > 0 || r.hand_outs > 0 || r.julen > 0 || r.joker);
    match outs_of(rows) {
        line if line.is_empty() => "keine".to_string(),
        line => line,
    }
}

/// The rows as "Anna 2 (1 Hand-Out, 1 Jule, Joker)", joined by ", ".
fn outs_of<'a>(rows: impl Iterator<Item = &'a ResultEntry>) -> String {
    rows.map(|r| {
        let mut extra = Vec::new();
        if r.hand_outs > 0 {
            extra.push(format!(
                "{} Hand-Out{}",
                r.hand_outs,
                if r.hand_outs == 1 { "" } else { "s" }
            ));
        }
        if r.julen > 0 {
            extra.push(format!(
                "{} Jule{}",
                r.julen,
                if r.julen == 1 { "" } else { "n" }
            ));
        }
        if r.joker {
            extra.push("Joker".to_string());
        }
        match extra.is_empty() {
            true => format!("{} {}", r.player, r.outs),
            false => format!("{} {} ({})", r.player, r.outs, extra.join(", ")),
        }
    })
    .collect::<Vec<_>>()
    .join(", ")
}

/// The loser of `round`, "–" when none.
pub fn round_loser(round: &Round) -> &str {
    round
        .results
        .iter()
        .find(|r| r.lost)
        .map_or("–", |r| r.player.as_str())
}

#[cfg(test)]
mod tests;
