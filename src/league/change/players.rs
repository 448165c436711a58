//! The edits of the season's players: add, rename, Jahresbeitrag (league.md §1, §5).

use chrono::NaiveDate;

use super::edit::not_in_season;
use crate::league::model::error::EntryError;
use crate::league::model::file::{PlayerEntry, SeasonFile};
use crate::league::model::names::{empty_name, normalize_name};
use crate::league::model::season::Season;

/// [`super::Change::AddPlayer`]: `name` last in the player list, without a Jahresbeitrag.
pub(super) fn add(file: &mut SeasonFile, name: &str) -> Result<(), EntryError> {
    let name = normalize_name(name);
    if name.is_empty() {
        return Err(empty_name());
    }
    file.players.push(PlayerEntry {
        name,
        fee_paid_on: None,
        fee_from_account: false,
    });
    Ok(())
}

/// [`super::Change::RenamePlayer`]: `from` becomes `to` in the player list, draws, rows and fines.
pub(super) fn rename(
    season: &Season,
    file: &mut SeasonFile,
    from: &str,
    to: &str,
) -> Result<(), EntryError> {
    let to = normalize_name(to);
    if to.is_empty() {
        return Err(empty_name());
    }
    if season.player(from).is_none() {
        return Err(not_in_season(season, from));
    }
    rename_in_file(file, from, &to);
    Ok(())
}

/// [`super::Change::SetFee`]: the Jahresbeitrag of `player` paid on `paid_on`, or none.
pub(super) fn set_fee(
    season: &Season,
    file: &mut SeasonFile,
    player: &str,
    paid_on: Option<NaiveDate>,
) -> Result<(), EntryError> {
    let p = file
        .players
        .iter_mut()
        .find(|p| p.name == *player)
        .ok_or_else(|| not_in_season(season, player))?;
    p.fee_paid_on = paid_on;
    // Set by hand: not out of his payments (issue 34.1; his Guthaben gets it back).
    p.fee_from_account = false;
    Ok(())
}

/// Renames `old` to `new` everywhere in the season file (players, draws, rows, totals rows,
/// fines, the Endstand).
fn rename_in_file(file: &mut SeasonFile, old: &str, new: &str) {
    for p in file.players.iter_mut().filter(|p| p.name == old) {
        p.name = new.to_string();
    }
    for n in &mut file.nights {
        for r in n.tables.iter_mut().flat_map(|t| t.rounds.iter_mut()) {
            for x in r.results.iter_mut().filter(|x| x.player == old) {
                x.player = new.to_string();
            }
            if let Some(record) = r
                .schockbesteck
                .as_mut()
                .filter(|b| b.record().has_player(old))
            {
                *record = record.renamed(old, new);
            }
        }
        for f in n.fines.iter_mut().filter(|f| f.player == old) {
            f.player = new.to_string();
        }
        for s in n.draw.iter_mut().flatten().filter(|s| s.player == old) {
            s.player = new.to_string();
        }
        for t in n.totals.iter_mut().filter(|t| t.player == old) {
            t.player = new.to_string();
        }
    }
    for e in file.endstand.iter_mut().filter(|e| e.player == old) {
        e.player = new.to_string();
    }
    for p in file.payments.iter_mut().filter(|p| p.player == old) {
        p.player = new.to_string();
    }
    for c in file.credit.iter_mut().filter(|c| c.player == old) {
        c.player = new.to_string();
    }
}

#[cfg(test)]
mod tests;
