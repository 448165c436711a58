//! What every edit of a change shares: the night of the season file it edits, and a refusal.

use chrono::NaiveDate;

use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{NightEntry, SeasonFile};
use crate::league::model::season::Season;

/// A night of `season` on `date`, or the refusal naming the date.
pub(super) fn night_entry(
    file: &mut SeasonFile,
    date: NaiveDate,
) -> Result<&mut NightEntry, EntryError> {
    let year = file.season;
    file.nights
        .iter_mut()
        .find(|n| n.date == date)
        .ok_or_else(|| {
            EntryError::new(
                Location::default(),
                format!(
                    "Am {} gibt es keinen Spielabend der Saison {year}",
                    date.format("%d.%m.%Y")
                ),
            )
        })
}

/// A refusal without a location: the message says where.
pub(super) fn refuse(message: impl Into<String>) -> EntryError {
    EntryError::new(Location::default(), message)
}

/// The refusal for `name`, who does not play in `season`.
pub(super) fn not_in_season(season: &Season, name: &str) -> EntryError {
    refuse(format!("{name} spielt nicht in der Saison {}", season.year))
}
