//! The edits of the season's settings: its rule set and Strafenkatalog (league.md §6, §10).

use super::edit::refuse;
use crate::league::model::error::EntryError;
use crate::league::model::file::SeasonFile;
use crate::league::model::rules::SeasonRules;
use crate::league::model::season::Season;

/// [`super::Change::SetRules`]: `rules` replace the season's, only before its first night.
pub(super) fn set_rules(
    season: &Season,
    file: &mut SeasonFile,
    rules: &SeasonRules,
) -> Result<(), EntryError> {
    let year = season.year;
    if let Some(first) = season.nights.first() {
        return Err(refuse(format!(
            "Die Saisonregeln {year} lassen sich nur vor dem ersten Spielabend ändern (erster Abend: {}).",
            first.date.format("%d.%m.%Y")
        )));
    }
    rules.check().map_err(refuse)?;
    file.rules = rules.overrides(year);
    Ok(())
}

/// [`super::Change::SetFineKind`]: kind `kind` of the Strafenkatalog at `cents`, or removed
/// (refused while booked); booked fines keep their amount.
pub(super) fn set_fine_kind(
    season: &Season,
    file: &mut SeasonFile,
    kind: &str,
    cents: Option<i64>,
) -> Result<(), EntryError> {
    let kind = kind.trim();
    let mut rules = season.rules.clone();
    match cents {
        Some(c) => {
            rules.fines.insert(kind.to_string(), c);
        }
        None => {
            if rules.fines.remove(kind).is_none() {
                return Err(refuse(format!(
                    "Strafart \"{kind}\" steht nicht im Strafenkatalog"
                )));
            }
            let booked = season
                .nights
                .iter()
                .flat_map(|n| &n.fines)
                .filter(|f| f.kind == kind)
                .count();
            if booked > 0 {
                return Err(refuse(format!(
                    "Strafart \"{kind}\" ist {booked}-mal gebucht und kann nicht gelöscht werden"
                )));
            }
        }
    }
    rules
        .check()
        .map_err(|e| refuse(e.replace("rules.fines: ", "Strafenkatalog: ")))?;
    // Booked fines keep their amount: it becomes an override where it now differs.
    for (entry, night) in file.nights.iter_mut().zip(&season.nights) {
        for (f, booked) in entry.fines.iter_mut().zip(&night.fines) {
            f.amount_cents = (rules.fines.get(&f.kind) != Some(&booked.amount_cents))
                .then_some(booked.amount_cents);
        }
    }
    file.rules = rules.overrides(season.year);
    Ok(())
}
