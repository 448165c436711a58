//! The edits of a night as such: add it, its draw, a late arrival, closing and reopening
//! (league.md §9), and closing only on or after the night's day.

use chrono::NaiveDate;

use super::edit::{night_entry, refuse};
use crate::league::model::error::EntryError;
use crate::league::model::file::{NightEntry, SeasonFile, SeatEntry};
use crate::league::model::names::normalize_name;
use crate::league::model::season::{Season, MAX_AT_TABLE, MAX_PARTICIPANTS};

/// [`super::Change::AddNight`]: the night on `date`, no participants yet.
pub(super) fn add(
    season: &Season,
    file: &mut SeasonFile,
    date: NaiveDate,
) -> Result<(), EntryError> {
    if season.night(date).is_some() {
        return Err(refuse(format!(
            "Am {} gibt es schon einen Spielabend.",
            date.format("%d.%m.%Y")
        )));
    }
    file.nights.push(NightEntry {
        date,
        tables: Vec::new(),
        fines: Vec::new(),
        draw: None,
        closed: false,
        corrections: Vec::new(),
        totals: Vec::new(),
    });
    Ok(())
}

/// [`super::Change::SetDraw`]: the draw of the night on `date` is `seats`, before its first round.
pub(super) fn set_draw(
    season: &Season,
    file: &mut SeasonFile,
    date: NaiveDate,
    seats: &[SeatEntry],
) -> Result<(), EntryError> {
    let night = night_entry(file, date)?;
    if night.tables.iter().any(|t| !t.rounds.is_empty()) {
        return Err(refuse(
            "An diesem Abend sind schon Runden eingetragen: Teilnehmer und Auslosung stehen fest.",
        ));
    }
    if seats
        .iter()
        .any(|s| season.player(&normalize_name(&s.player)).is_none())
    {
        return Err(refuse("Nur Spieler der Saison können teilnehmen."));
    }
    if seats.len() < 2 {
        return Err(refuse("Mindestens 2 Teilnehmer ankreuzen."));
    }
    if seats.len() > MAX_PARTICIPANTS {
        return Err(refuse(format!(
            "Höchstens {MAX_PARTICIPANTS} Teilnehmer an einem Abend: zwei Tische zu je höchstens \
             {MAX_AT_TABLE} Spielern (angekreuzt: {}).",
            seats.len()
        )));
    }
    night.draw = Some(seats.to_vec());
    Ok(())
}

/// [`super::Change::SeatPlayer`]: `player` seated late at `table` (or the smaller one).
pub(super) fn seat_player(
    file: &mut SeasonFile,
    date: NaiveDate,
    player: &str,
    table: Option<u32>,
) -> Result<(), EntryError> {
    let name = normalize_name(player);
    let night = night_entry(file, date)?;
    let draw = night.draw.get_or_insert_with(Vec::new);
    if let Some(s) = draw.iter().find(|s| s.player == name) {
        return Err(refuse(format!(
            "{name} ist an diesem Abend schon ausgelost (Tisch {}).",
            s.table
        )));
    }
    *draw = crate::league::model::draw::seat(draw, &name, table);
    Ok(())
}

/// [`super::Change::CloseNight`]: the night on `date` closed.
pub(super) fn close(file: &mut SeasonFile, date: NaiveDate) -> Result<(), EntryError> {
    night_entry(file, date)?.closed = true;
    Ok(())
}

/// [`super::Change::ReopenNight`]: the night on `date` open again.
pub(super) fn reopen(file: &mut SeasonFile, date: NaiveDate) -> Result<(), EntryError> {
    night_entry(file, date)?.closed = false;
    Ok(())
}

/// Refuses closing the night on `date` before its day: `today` is the club's date. `Err`: the
/// German "Der Abend vom 09.12.2026 liegt in der Zukunft: abschließen erst an dem Tag."
pub fn closing_in_time(date: NaiveDate, today: NaiveDate) -> Result<(), EntryError> {
    if date > today {
        return Err(refuse(format!(
            "Der Abend vom {} liegt in der Zukunft: abschließen erst an dem Tag.",
            date.format("%d.%m.%Y")
        )));
    }
    Ok(())
}

/// Refuses a season file (an import) with a night marked closed after `today` (the club's
/// date), as [`closing_in_time`] refuses closing it from a form.
pub fn closed_in_time(file: &SeasonFile, today: NaiveDate) -> Result<(), EntryError> {
    file.nights
        .iter()
        .filter(|n| n.closed)
        .try_for_each(|n| closing_in_time(n.date, today))
}
