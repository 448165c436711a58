//! The corrections of things entered by mistake: remove a round, move it to the other table,
//! remove a fine or a whole night; the Korrektur (box and reason) that a closed night's change needs.

use chrono::NaiveDate;

use super::edit::{night_entry, refuse};
use super::rounds::{changed_meanwhile, entered_round, round_version, RoundAt};
use crate::league::model::check::MAX_REASON_CHARS;
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{SeasonFile, SeatEntry};
use crate::league::model::season::Season;

/// [`super::Change::RemoveRound`]: round `at` gone; refused when it is not entered, a conflict
/// when `if_version` is not the version of the round as stored.
pub(super) fn remove_round(
    season: &Season,
    file: &mut SeasonFile,
    at: RoundAt,
    if_version: Option<&str>,
) -> Result<(), EntryError> {
    let RoundAt {
        date,
        table,
        number,
    } = at;
    let night = night_entry(file, date)?;
    let at = Location::night(date).table(table).round(number);
    let t = night
        .tables
        .iter_mut()
        .find(|t| t.number == table && t.rounds.iter().any(|r| r.number == number))
        .ok_or_else(|| EntryError::new(at.clone(), format!("{at} ist nicht eingetragen.")))?;
    if let (Some(seen), Some(old)) = (if_version, entered_round(season, date, table, number)) {
        if round_version(old) != seen {
            return Err(changed_meanwhile(&at, old));
        }
    }
    t.rounds.retain(|r| r.number != number);
    night.tables.retain(|t| !t.rounds.is_empty());
    Ok(())
}

/// [`super::Change::MoveRound`]: round `at` moved to table `to`, its players who play no other
/// round at the old table with it.
pub(super) fn move_round(file: &mut SeasonFile, at: RoundAt, to: u32) -> Result<(), EntryError> {
    let RoundAt {
        date,
        table,
        number,
    } = at;
    let night = night_entry(file, date)?;
    let at = Location::night(date).table(table).round(number);
    if to == table {
        return Err(EntryError::new(
            at.clone(),
            format!("{at} ist schon an Tisch {to} eingetragen."),
        ));
    }
    let k = night
        .tables
        .iter()
        .position(|t| t.number == table && t.rounds.iter().any(|r| r.number == number))
        .ok_or_else(|| EntryError::new(at.clone(), format!("{at} ist nicht eingetragen.")))?;
    let taken = night
        .tables
        .iter()
        .any(|t| t.number == to && t.rounds.iter().any(|r| r.number == number));
    if taken {
        return Err(EntryError::conflict(
            at.clone(),
            format!(
                "An Tisch {to} ist Runde {number} schon eingetragen: erst diese löschen oder verschieben."
            ),
        ));
    }
    let round = night.tables[k]
        .rounds
        .iter()
        .find(|r| r.number == number)
        .cloned()
        .ok_or_else(|| EntryError::new(at.clone(), format!("{at} ist nicht eingetragen.")))?;
    night.tables[k].rounds.retain(|r| r.number != number);
    // Who played only this round at the old table goes with it.
    let stays = |name: &str| {
        night.tables[k]
            .rounds
            .iter()
            .any(|r| r.results.iter().any(|x| x.player == name))
    };
    let moving: Vec<String> = round
        .results
        .iter()
        .filter(|r| !stays(&r.player))
        .map(|r| r.player.clone())
        .collect();
    if let Some(draw) = night.draw.as_mut() {
        let mut next: Vec<SeatEntry> = draw
            .iter()
            .filter(|s| !(s.table == table && moving.contains(&s.player)))
            .cloned()
            .collect();
        for s in draw
            .iter()
            .filter(|s| s.table == table && moving.contains(&s.player))
        {
            next = crate::league::model::draw::seat(&next, &s.player, Some(to));
        }
        *draw = next;
    }
    night.tables.retain(|t| !t.rounds.is_empty());
    night.put_round(to, round);
    Ok(())
}

/// [`super::Change::RemoveFine`]: fine `index` of the night on `date` gone.
pub(super) fn remove_fine(
    file: &mut SeasonFile,
    date: NaiveDate,
    index: usize,
) -> Result<(), EntryError> {
    let night = night_entry(file, date)?;
    if index >= night.fines.len() {
        return Err(refuse("Diese Strafe gibt es nicht."));
    }
    night.fines.remove(index);
    Ok(())
}

/// [`super::Change::RemoveNight`]: the night on `date` gone with its draw, rounds, fines,
/// closed state and Korrekturen.
pub(super) fn remove_night(file: &mut SeasonFile, date: NaiveDate) -> Result<(), EntryError> {
    night_entry(file, date)?;
    file.nights.retain(|n| n.date != date);
    Ok(())
}

/// The Korrektur of a closed night as a form sends it: the box "Korrektur" and its reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Korrektur {
    /// The box "Korrektur" is ticked.
    pub ticked: bool,
    /// Why the closed night is corrected (as typed).
    pub reason: String,
}

impl Korrektur {
    /// A ticked Korrektur with `reason`.
    pub fn because(reason: &str) -> Korrektur {
        Korrektur {
            ticked: true,
            reason: reason.to_string(),
        }
    }

    /// The reason (trimmed) under which the closed night on `date` may be changed: the box ticked
    /// and 1..=[`MAX_REASON_CHARS`] characters of reason without control or invisible characters
    /// (a line break, U+202E: they would garble the audit log); else the German refusal naming the
    /// night.
    pub fn check(&self, date: NaiveDate) -> Result<String, EntryError> {
        let night = Location::night(date);
        if !self.ticked {
            return Err(EntryError::new(
                night,
                "der Spielabend ist abgeschlossen: Änderungen nur mit Häkchen „Korrektur“ und Grund.",
            ));
        }
        check_reason(&self.reason).map_err(|why| EntryError::new(night, why))
    }
}

/// The reason of a Korrektur as typed, trimmed: 1..=[`MAX_REASON_CHARS`] characters without
/// control or invisible characters (they would garble the audit log). `Err` is the German why
/// ("eine Korrektur braucht einen Grund (1 bis 500 Zeichen).").
pub fn check_reason(typed: &str) -> Result<String, String> {
    let reason = typed.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(format!(
            "eine Korrektur braucht einen Grund (1 bis {MAX_REASON_CHARS} Zeichen)."
        ));
    }
    if let Err(why) = crate::league::model::names::check_name_chars(reason) {
        return Err(format!("der Grund der Korrektur {why}."));
    }
    Ok(reason.to_string())
}
