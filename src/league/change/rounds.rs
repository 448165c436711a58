//! The edit of a night's rounds: put a round, new or replacing one as seen (league.md §2, §9).

use super::{
    changed_meanwhile, entered_round, night_entry, round_loser, round_outs, round_version, Replace,
    RoundAt,
};
use crate::league::model::error::{EntryError, Location};
use crate::league::model::file::{ResultEntry, RoundEntry, SeasonFile, SeatEntry};
use crate::league::model::names::normalize_name;
use crate::league::model::season::Season;

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

#[cfg(test)]
mod tests;
