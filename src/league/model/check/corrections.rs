//! The check of a night's Korrekturen in the season file (issue 22.4), and the limits of a
//! Korrektur's author and reason (a form's reason is held to the same, `change::Korrektur`).

use chrono::NaiveDate;

use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::CorrectionEntry;
use crate::league::model::names::check_name_chars;

/// Longest author of a Korrektur in a season file, in characters.
pub const MAX_CORRECTION_USER_CHARS: usize = 200;
/// Longest accepted Korrektur reason, in characters (the season file's and a form's).
pub const MAX_REASON_CHARS: usize = 500;

/// Checks the Korrekturen of the night on `date` (issue 22.4): `at` an RFC 3339 time, `user`
/// 1..=[`MAX_CORRECTION_USER_CHARS`] and the reason 1..=500 characters
/// ([`MAX_REASON_CHARS`]), both trimmed and without control or invisible
/// characters. Errors name the night and the field.
pub(super) fn check_corrections(
    date: NaiveDate,
    entries: &[CorrectionEntry],
) -> Result<Vec<CorrectionEntry>, EntryError> {
    let at =
        |i: usize, field: &str| Location::night(date).field(&format!("corrections[{i}].{field}"));
    let mut out = Vec::with_capacity(entries.len());
    for (i, c) in entries.iter().enumerate() {
        if chrono::DateTime::parse_from_rfc3339(c.at.trim()).is_err() {
            return Err(EntryError::new(
                at(i, "at"),
                format!(
                    "„{}“ ist kein Zeitpunkt (RFC 3339, z. B. „2026-01-10T09:30:00+00:00“)",
                    c.at
                ),
            ));
        }
        for (field, text, max) in [
            ("user", c.user.trim(), MAX_CORRECTION_USER_CHARS),
            ("reason", c.reason.trim(), MAX_REASON_CHARS),
        ] {
            let n = text.chars().count();
            if n == 0 || n > max {
                return Err(EntryError::new(
                    at(i, field),
                    format!("muss 1 bis {max} Zeichen haben"),
                ));
            }
            if let Err(why) = check_name_chars(text) {
                return Err(EntryError::new(at(i, field), why));
            }
        }
        out.push(CorrectionEntry {
            at: c.at.trim().to_string(),
            user: c.user.trim().to_string(),
            reason: c.reason.trim().to_string(),
        });
    }
    Ok(out)
}
